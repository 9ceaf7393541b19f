from typing import Literal

ReportAudienceParam = Literal["external", "internal"]

REPORT_AUDIENCE_PARAM_VALUES: set[ReportAudienceParam] = {
    "external",
    "internal",
}


def check_report_audience_param(value: str) -> ReportAudienceParam:
    if value in REPORT_AUDIENCE_PARAM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REPORT_AUDIENCE_PARAM_VALUES!r}")
