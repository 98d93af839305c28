"""poimkit's folder in the user's cache (``$XDG_CACHE_HOME``, else ``~/.cache``).

Light on purpose (no numba, no numpy): genome indexes and motif collections
are cached without importing the compiled kernels' configuration.
"""

from __future__ import annotations

import os
from pathlib import Path


def user_cache(name: str) -> Path:
    """``$XDG_CACHE_HOME/poimkit/NAME`` (``~/.cache`` by default): poimkit's cache.

    Parameters
    ----------
    name : str
        The cache's folder (``faidx``, ``jaspar``, ``numba-KEY``).

    Returns
    -------
    pathlib.Path
    """
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "poimkit" / name
