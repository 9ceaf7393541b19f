from typing import Literal

DeltaPresenceSweepModelKind = Literal["delta_presence"]

DELTA_PRESENCE_SWEEP_MODEL_KIND_VALUES: set[DeltaPresenceSweepModelKind] = {
    "delta_presence",
}


def check_delta_presence_sweep_model_kind(value: str) -> DeltaPresenceSweepModelKind:
    if value in DELTA_PRESENCE_SWEEP_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DELTA_PRESENCE_SWEEP_MODEL_KIND_VALUES!r}")
