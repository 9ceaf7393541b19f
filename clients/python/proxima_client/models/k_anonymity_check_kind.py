from typing import Literal

KAnonymityCheckKind = Literal["k_anonymity"]

K_ANONYMITY_CHECK_KIND_VALUES: set[KAnonymityCheckKind] = {
    "k_anonymity",
}


def check_k_anonymity_check_kind(value: str) -> KAnonymityCheckKind:
    if value in K_ANONYMITY_CHECK_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {K_ANONYMITY_CHECK_KIND_VALUES!r}")
