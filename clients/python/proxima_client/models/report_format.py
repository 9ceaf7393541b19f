from typing import Literal

ReportFormat = Literal["html", "json"]

REPORT_FORMAT_VALUES: set[ReportFormat] = {
    "html",
    "json",
}


def check_report_format(value: str) -> ReportFormat:
    if value in REPORT_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REPORT_FORMAT_VALUES!r}")
