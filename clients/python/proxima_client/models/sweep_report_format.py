from typing import Literal

SweepReportFormat = Literal["html", "json"]

SWEEP_REPORT_FORMAT_VALUES: set[SweepReportFormat] = {
    "html",
    "json",
}


def check_sweep_report_format(value: str) -> SweepReportFormat:
    if value in SWEEP_REPORT_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SWEEP_REPORT_FORMAT_VALUES!r}")
