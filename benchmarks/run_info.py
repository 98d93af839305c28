"""What a benchmark's JSON records besides its figures: the machine and the versions.

`machine` and `versions` describe where a run happened; `jsonable` turns numpy
scalars into Python numbers (non-finite floats into null) so that the document
is valid JSON.
"""

from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path

import numba
import numpy as np

#: the packages every benchmark reports, besides its peers
CORE_PACKAGES = ("poimkit", "numpy", "numba", "scikit-learn")


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = None
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        ram = round(pages * size / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    try:
        layer = numba.threading_layer()
    except ValueError:
        layer = "not initialised"
    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "ram_gib": ram,
        "numba_threads": numba.get_num_threads(),
        "numba_threading_layer": layer,
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


def versions(*peers: str) -> dict:
    """Python's version and those of `CORE_PACKAGES` and ``peers`` (None: absent)."""
    out = {"python": platform.python_version()}
    for name in (*CORE_PACKAGES, *peers):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def jsonable(x):
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [jsonable(v) for v in x]
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not np.isfinite(x):
        return None
    return x
