"""Argument validators shared by the package; each names the argument it checks."""

from __future__ import annotations

from numbers import Integral

import numpy as np

from .errors import InputError


def check_int(value, name: str, low: int, high: int | None = None) -> int:
    """Return ``value`` as int if it is an integer in ``low..high`` (bools refused)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, Integral)
        or value < low
        or (high is not None and value > high)
    ):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise InputError(f"{name} must be an integer {span}, got {value!r}")
    return int(value)


def as_rng(random_state, name: str = "random_state") -> np.random.Generator:
    """A numpy Generator from None, an int seed or a Generator."""
    if isinstance(random_state, bool) or not (
        random_state is None or isinstance(random_state, Integral | np.random.Generator)
    ):
        raise InputError(
            f"{name} must be None, an int seed or a numpy Generator, got "
            f"{type(random_state).__name__}"
        )
    return np.random.default_rng(random_state)
