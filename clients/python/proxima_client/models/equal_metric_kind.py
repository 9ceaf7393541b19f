from typing import Literal

EqualMetricKind = Literal["equal"]

EQUAL_METRIC_KIND_VALUES: set[EqualMetricKind] = {
    "equal",
}


def check_equal_metric_kind(value: str) -> EqualMetricKind:
    if value in EQUAL_METRIC_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EQUAL_METRIC_KIND_VALUES!r}")
