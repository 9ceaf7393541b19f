from typing import Literal

DeltaPresenceModelKind = Literal["delta_presence"]

DELTA_PRESENCE_MODEL_KIND_VALUES: set[DeltaPresenceModelKind] = {
    "delta_presence",
}


def check_delta_presence_model_kind(value: str) -> DeltaPresenceModelKind:
    if value in DELTA_PRESENCE_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DELTA_PRESENCE_MODEL_KIND_VALUES!r}")
