from typing import Literal

LDiversityModelKind = Literal["l_diversity"]

L_DIVERSITY_MODEL_KIND_VALUES: set[LDiversityModelKind] = {
    "l_diversity",
}


def check_l_diversity_model_kind(value: str) -> LDiversityModelKind:
    if value in L_DIVERSITY_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {L_DIVERSITY_MODEL_KIND_VALUES!r}")
