from typing import Literal

LDiversityCheckKind = Literal["l_diversity"]

L_DIVERSITY_CHECK_KIND_VALUES: set[LDiversityCheckKind] = {
    "l_diversity",
}


def check_l_diversity_check_kind(value: str) -> LDiversityCheckKind:
    if value in L_DIVERSITY_CHECK_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {L_DIVERSITY_CHECK_KIND_VALUES!r}")
