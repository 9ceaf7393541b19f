from typing import Literal

KMapCheckKind = Literal["k_map"]

K_MAP_CHECK_KIND_VALUES: set[KMapCheckKind] = {
    "k_map",
}


def check_k_map_check_kind(value: str) -> KMapCheckKind:
    if value in K_MAP_CHECK_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {K_MAP_CHECK_KIND_VALUES!r}")
