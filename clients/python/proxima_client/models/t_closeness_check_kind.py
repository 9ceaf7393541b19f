from typing import Literal

TClosenessCheckKind = Literal["t_closeness"]

T_CLOSENESS_CHECK_KIND_VALUES: set[TClosenessCheckKind] = {
    "t_closeness",
}


def check_t_closeness_check_kind(value: str) -> TClosenessCheckKind:
    if value in T_CLOSENESS_CHECK_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {T_CLOSENESS_CHECK_KIND_VALUES!r}")
