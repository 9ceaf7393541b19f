from typing import Literal

DeltaLDiversityCheckKind = Literal["delta_l_diversity"]

DELTA_L_DIVERSITY_CHECK_KIND_VALUES: set[DeltaLDiversityCheckKind] = {
    "delta_l_diversity",
}


def check_delta_l_diversity_check_kind(value: str) -> DeltaLDiversityCheckKind:
    if value in DELTA_L_DIVERSITY_CHECK_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DELTA_L_DIVERSITY_CHECK_KIND_VALUES!r}")
