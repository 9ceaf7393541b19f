from typing import Literal

ReportAudience = Literal["external", "internal"]

REPORT_AUDIENCE_VALUES: set[ReportAudience] = {
    "external",
    "internal",
}


def check_report_audience(value: str) -> ReportAudience:
    if value in REPORT_AUDIENCE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REPORT_AUDIENCE_VALUES!r}")
