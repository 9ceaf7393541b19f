from typing import Literal

KMapModelKind = Literal["k_map"]

K_MAP_MODEL_KIND_VALUES: set[KMapModelKind] = {
    "k_map",
}


def check_k_map_model_kind(value: str) -> KMapModelKind:
    if value in K_MAP_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {K_MAP_MODEL_KIND_VALUES!r}")
