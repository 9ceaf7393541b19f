from typing import Literal

LpMetricPType0 = Literal[1, 2]

LP_METRIC_P_TYPE_0_VALUES: set[LpMetricPType0] = {
    1,
    2,
}


def check_lp_metric_p_type_0(value: int) -> LpMetricPType0:
    if value in LP_METRIC_P_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LP_METRIC_P_TYPE_0_VALUES!r}")
