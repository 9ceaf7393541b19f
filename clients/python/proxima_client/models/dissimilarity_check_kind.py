from typing import Literal

DissimilarityCheckKind = Literal["dissimilarity"]

DISSIMILARITY_CHECK_KIND_VALUES: set[DissimilarityCheckKind] = {
    "dissimilarity",
}


def check_dissimilarity_check_kind(value: str) -> DissimilarityCheckKind:
    if value in DISSIMILARITY_CHECK_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DISSIMILARITY_CHECK_KIND_VALUES!r}")
