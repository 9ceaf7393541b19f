from typing import Literal

LpMetricPType1 = Literal["inf"]

LP_METRIC_P_TYPE_1_VALUES: set[LpMetricPType1] = {
    "inf",
}


def check_lp_metric_p_type_1(value: str) -> LpMetricPType1:
    if value in LP_METRIC_P_TYPE_1_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LP_METRIC_P_TYPE_1_VALUES!r}")
