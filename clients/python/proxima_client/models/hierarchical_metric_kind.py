from typing import Literal

HierarchicalMetricKind = Literal["hierarchical"]

HIERARCHICAL_METRIC_KIND_VALUES: set[HierarchicalMetricKind] = {
    "hierarchical",
}


def check_hierarchical_metric_kind(value: str) -> HierarchicalMetricKind:
    if value in HIERARCHICAL_METRIC_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {HIERARCHICAL_METRIC_KIND_VALUES!r}")
