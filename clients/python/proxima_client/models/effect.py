from typing import Literal

Effect = Literal["blocking", "condition", "ok"]

EFFECT_VALUES: set[Effect] = {
    "blocking",
    "condition",
    "ok",
}


def check_effect(value: str) -> Effect:
    if value in EFFECT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EFFECT_VALUES!r}")
