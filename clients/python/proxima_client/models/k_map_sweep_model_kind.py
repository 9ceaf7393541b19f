from typing import Literal

KMapSweepModelKind = Literal["k_map"]

K_MAP_SWEEP_MODEL_KIND_VALUES: set[KMapSweepModelKind] = {
    "k_map",
}


def check_k_map_sweep_model_kind(value: str) -> KMapSweepModelKind:
    if value in K_MAP_SWEEP_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {K_MAP_SWEEP_MODEL_KIND_VALUES!r}")
