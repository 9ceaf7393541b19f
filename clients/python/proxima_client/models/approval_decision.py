from typing import Literal

ApprovalDecision = Literal["approve", "reject"]

APPROVAL_DECISION_VALUES: set[ApprovalDecision] = {
    "approve",
    "reject",
}


def check_approval_decision(value: str) -> ApprovalDecision:
    if value in APPROVAL_DECISION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {APPROVAL_DECISION_VALUES!r}")
