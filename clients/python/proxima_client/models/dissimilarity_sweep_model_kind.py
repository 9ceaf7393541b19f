from typing import Literal

DissimilaritySweepModelKind = Literal["dissimilarity"]

DISSIMILARITY_SWEEP_MODEL_KIND_VALUES: set[DissimilaritySweepModelKind] = {
    "dissimilarity",
}


def check_dissimilarity_sweep_model_kind(value: str) -> DissimilaritySweepModelKind:
    if value in DISSIMILARITY_SWEEP_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DISSIMILARITY_SWEEP_MODEL_KIND_VALUES!r}")
