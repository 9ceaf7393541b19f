from typing import Literal

TClosenessModelKind = Literal["t_closeness"]

T_CLOSENESS_MODEL_KIND_VALUES: set[TClosenessModelKind] = {
    "t_closeness",
}


def check_t_closeness_model_kind(value: str) -> TClosenessModelKind:
    if value in T_CLOSENESS_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {T_CLOSENESS_MODEL_KIND_VALUES!r}")
