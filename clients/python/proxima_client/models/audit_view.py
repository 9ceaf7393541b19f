from typing import Literal

AuditView = Literal["attacker", "groups"]

AUDIT_VIEW_VALUES: set[AuditView] = {
    "attacker",
    "groups",
}


def check_audit_view(value: str) -> AuditView:
    if value in AUDIT_VIEW_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AUDIT_VIEW_VALUES!r}")
