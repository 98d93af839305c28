"""What poimkit asks of the machine it runs on."""

from __future__ import annotations

import os

#: RAM assumed where the system does not say
FALLBACK_RAM = 8 * 1024**3


def physical_memory() -> int:
    """Bytes of physical RAM (`FALLBACK_RAM` where the system does not say).

    Returns
    -------
    int
    """
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return FALLBACK_RAM


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the system says).

    Returns
    -------
    int
    """
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
