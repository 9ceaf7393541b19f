from typing import Literal

LVariant = Literal["distinct", "entropy", "recursive"]

L_VARIANT_VALUES: set[LVariant] = {
    "distinct",
    "entropy",
    "recursive",
}


def check_l_variant(value: str) -> LVariant:
    if value in L_VARIANT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {L_VARIANT_VALUES!r}")
