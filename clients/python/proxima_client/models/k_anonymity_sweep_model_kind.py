from typing import Literal

KAnonymitySweepModelKind = Literal["k_anonymity"]

K_ANONYMITY_SWEEP_MODEL_KIND_VALUES: set[KAnonymitySweepModelKind] = {
    "k_anonymity",
}


def check_k_anonymity_sweep_model_kind(value: str) -> KAnonymitySweepModelKind:
    if value in K_ANONYMITY_SWEEP_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {K_ANONYMITY_SWEEP_MODEL_KIND_VALUES!r}")
