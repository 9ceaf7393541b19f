from typing import Literal

KAnonymityModelKind = Literal["k_anonymity"]

K_ANONYMITY_MODEL_KIND_VALUES: set[KAnonymityModelKind] = {
    "k_anonymity",
}


def check_k_anonymity_model_kind(value: str) -> KAnonymityModelKind:
    if value in K_ANONYMITY_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {K_ANONYMITY_MODEL_KIND_VALUES!r}")
