from typing import Literal

PointStatus = Literal["cancelled", "failed", "infeasible", "queued", "running", "succeeded"]

POINT_STATUS_VALUES: set[PointStatus] = {
    "cancelled",
    "failed",
    "infeasible",
    "queued",
    "running",
    "succeeded",
}


def check_point_status(value: str) -> PointStatus:
    if value in POINT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {POINT_STATUS_VALUES!r}")
