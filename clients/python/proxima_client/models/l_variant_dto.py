from typing import Literal

LVariantDto = Literal["distinct", "entropy", "recursive"]

L_VARIANT_DTO_VALUES: set[LVariantDto] = {
    "distinct",
    "entropy",
    "recursive",
}


def check_l_variant_dto(value: str) -> LVariantDto:
    if value in L_VARIANT_DTO_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {L_VARIANT_DTO_VALUES!r}")
