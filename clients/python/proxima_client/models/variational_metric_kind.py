from typing import Literal

VariationalMetricKind = Literal["variational"]

VARIATIONAL_METRIC_KIND_VALUES: set[VariationalMetricKind] = {
    "variational",
}


def check_variational_metric_kind(value: str) -> VariationalMetricKind:
    if value in VARIATIONAL_METRIC_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VARIATIONAL_METRIC_KIND_VALUES!r}")
