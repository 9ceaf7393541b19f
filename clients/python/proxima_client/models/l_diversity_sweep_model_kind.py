from typing import Literal

LDiversitySweepModelKind = Literal["l_diversity"]

L_DIVERSITY_SWEEP_MODEL_KIND_VALUES: set[LDiversitySweepModelKind] = {
    "l_diversity",
}


def check_l_diversity_sweep_model_kind(value: str) -> LDiversitySweepModelKind:
    if value in L_DIVERSITY_SWEEP_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {L_DIVERSITY_SWEEP_MODEL_KIND_VALUES!r}")
