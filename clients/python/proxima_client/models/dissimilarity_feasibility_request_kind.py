from typing import Literal

DissimilarityFeasibilityRequestKind = Literal["dissimilarity"]

DISSIMILARITY_FEASIBILITY_REQUEST_KIND_VALUES: set[DissimilarityFeasibilityRequestKind] = {
    "dissimilarity",
}


def check_dissimilarity_feasibility_request_kind(value: str) -> DissimilarityFeasibilityRequestKind:
    if value in DISSIMILARITY_FEASIBILITY_REQUEST_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DISSIMILARITY_FEASIBILITY_REQUEST_KIND_VALUES!r}")
