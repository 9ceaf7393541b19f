from typing import Literal

DeltaPresenceCheckKind = Literal["delta_presence"]

DELTA_PRESENCE_CHECK_KIND_VALUES: set[DeltaPresenceCheckKind] = {
    "delta_presence",
}


def check_delta_presence_check_kind(value: str) -> DeltaPresenceCheckKind:
    if value in DELTA_PRESENCE_CHECK_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DELTA_PRESENCE_CHECK_KIND_VALUES!r}")
