from typing import Literal

Decision = Literal["not_publishable", "publishable", "publishable_with_conditions"]

DECISION_VALUES: set[Decision] = {
    "not_publishable",
    "publishable",
    "publishable_with_conditions",
}


def check_decision(value: str) -> Decision:
    if value in DECISION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DECISION_VALUES!r}")
