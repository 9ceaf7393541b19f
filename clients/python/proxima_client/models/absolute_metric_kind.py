from typing import Literal

AbsoluteMetricKind = Literal["absolute"]

ABSOLUTE_METRIC_KIND_VALUES: set[AbsoluteMetricKind] = {
    "absolute",
}


def check_absolute_metric_kind(value: str) -> AbsoluteMetricKind:
    if value in ABSOLUTE_METRIC_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ABSOLUTE_METRIC_KIND_VALUES!r}")
