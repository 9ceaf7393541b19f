from typing import Literal

LpMetricKind = Literal["lp"]

LP_METRIC_KIND_VALUES: set[LpMetricKind] = {
    "lp",
}


def check_lp_metric_kind(value: str) -> LpMetricKind:
    if value in LP_METRIC_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LP_METRIC_KIND_VALUES!r}")
