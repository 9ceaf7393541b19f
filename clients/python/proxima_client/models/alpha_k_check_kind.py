from typing import Literal

AlphaKCheckKind = Literal["alpha_k"]

ALPHA_K_CHECK_KIND_VALUES: set[AlphaKCheckKind] = {
    "alpha_k",
}


def check_alpha_k_check_kind(value: str) -> AlphaKCheckKind:
    if value in ALPHA_K_CHECK_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ALPHA_K_CHECK_KIND_VALUES!r}")
