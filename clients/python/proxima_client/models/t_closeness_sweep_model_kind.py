from typing import Literal

TClosenessSweepModelKind = Literal["t_closeness"]

T_CLOSENESS_SWEEP_MODEL_KIND_VALUES: set[TClosenessSweepModelKind] = {
    "t_closeness",
}


def check_t_closeness_sweep_model_kind(value: str) -> TClosenessSweepModelKind:
    if value in T_CLOSENESS_SWEEP_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {T_CLOSENESS_SWEEP_MODEL_KIND_VALUES!r}")
