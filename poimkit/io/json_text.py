"""Strict JSON for every file poimkit writes: no ``NaN`` or ``Infinity``.

Python's `json` writes the bare tokens ``NaN`` and ``Infinity``, which are not
JSON: strict readers (JavaScript, Go, Python with ``parse_constant``) refuse
the whole file. `json_text` writes ``null`` instead, with the reason beside
it under the key ``<key>_null``.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["NULL_SUFFIX", "json_text"]

#: the key, beside a key whose value became null, that says why
NULL_SUFFIX = "_null"


def _reason(value: float) -> str:
    if math.isnan(value):
        return "not a number (NaN): undefined here, e.g. a correlation with a constant"
    return f"{'+' if value > 0 else '-'}infinite"


def _strict(value: Any) -> tuple[Any, str | None]:
    """``value`` without non-finite floats, and why any were replaced."""
    if isinstance(value, dict):
        out: dict = {}
        for key, item in value.items():
            out[key], why = _strict(item)
            if why is not None:
                out[f"{key}{NULL_SUFFIX}"] = why
        return out, None
    if isinstance(value, list | tuple):
        items = [_strict(item) for item in value]
        why = [f"entry {i}: {w}" for i, (_, w) in enumerate(items) if w is not None]
        return [item for item, _ in items], "; ".join(why) or None
    if isinstance(value, float) and not math.isfinite(value):
        return None, _reason(value)
    return value, None


def json_text(value: Any, indent: int = 2) -> str:
    """``value`` as strict JSON text, ending in a newline.

    Non-finite floats become ``null``; in a dict the key ``<key>_null`` beside
    says why (for a list, which entries). numpy scalars must already be
    Python numbers.

    Parameters
    ----------
    value : object
        dicts, lists, tuples, str, int, float, bool and None.
    indent : int, default 2
        As in `json.dumps`.

    Returns
    -------
    str

    Raises
    ------
    TypeError
        For values JSON cannot hold.

    Examples
    --------
    >>> print(json_text({"r": 0.5, "top": float("inf")}, None), end="")
    {"r": 0.5, "top": null, "top_null": "+infinite"}
    >>> print(json_text({"folds": [0.5, -float("inf")]}, None), end="")
    {"folds": [0.5, null], "folds_null": "entry 1: -infinite"}
    """
    strict, _ = _strict(value)
    return json.dumps(strict, indent=indent, allow_nan=False) + "\n"
