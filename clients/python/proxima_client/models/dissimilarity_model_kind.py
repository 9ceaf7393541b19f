from typing import Literal

DissimilarityModelKind = Literal["dissimilarity"]

DISSIMILARITY_MODEL_KIND_VALUES: set[DissimilarityModelKind] = {
    "dissimilarity",
}


def check_dissimilarity_model_kind(value: str) -> DissimilarityModelKind:
    if value in DISSIMILARITY_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DISSIMILARITY_MODEL_KIND_VALUES!r}")
