from typing import Literal

RelativeMetricKind = Literal["relative"]

RELATIVE_METRIC_KIND_VALUES: set[RelativeMetricKind] = {
    "relative",
}


def check_relative_metric_kind(value: str) -> RelativeMetricKind:
    if value in RELATIVE_METRIC_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RELATIVE_METRIC_KIND_VALUES!r}")
