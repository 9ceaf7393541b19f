from typing import Literal

VerdictReasonKind = Literal[
    "fine_grained_column",
    "job_failed",
    "model",
    "population_uniques",
    "prosecutor_risk",
    "query_error",
    "sa_association",
    "suppressed_rows",
    "suppression_concentrated",
    "ungeneralized_qi",
]

VERDICT_REASON_KIND_VALUES: set[VerdictReasonKind] = {
    "fine_grained_column",
    "job_failed",
    "model",
    "population_uniques",
    "prosecutor_risk",
    "query_error",
    "sa_association",
    "suppressed_rows",
    "suppression_concentrated",
    "ungeneralized_qi",
}


def check_verdict_reason_kind(value: str) -> VerdictReasonKind:
    if value in VERDICT_REASON_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VERDICT_REASON_KIND_VALUES!r}")
