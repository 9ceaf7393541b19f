from typing import Literal

SweepStatus = Literal["cancelled", "failed", "queued", "running", "succeeded"]

SWEEP_STATUS_VALUES: set[SweepStatus] = {
    "cancelled",
    "failed",
    "queued",
    "running",
    "succeeded",
}


def check_sweep_status(value: str) -> SweepStatus:
    if value in SWEEP_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SWEEP_STATUS_VALUES!r}")
