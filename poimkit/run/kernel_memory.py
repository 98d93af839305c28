"""The kernel solver's memory: how many n x n matrices fit (`check_kernel_size`)."""

from __future__ import annotations

from typing import Any

from .._machine import physical_memory
from ..errors import InputError

#: share of the machine's memory the kernel solver's matrices may take
KERNEL_RAM_SHARE = 0.5
#: n x n matrices the kernel solver holds at once (raw kernel, fold slices, SVC's)
KERNEL_COPIES = 3


def kernel_memory_limit() -> float:
    """Bytes the kernel solver's matrices may take: `KERNEL_RAM_SHARE` of RAM."""
    return KERNEL_RAM_SHARE * physical_memory()


def kernel_bytes(n: int) -> float:
    """Bytes of the kernel solver's matrices for ``n`` sequences.

    Parameters
    ----------
    n : int
        Number of training sequences.
    """
    return KERNEL_COPIES * 8.0 * n * n


def check_kernel_size(n: int, solver: str, family: Any) -> None:
    """Refuse at once a kernel-matrix fit that would not fit in memory.

    The kernel solver holds ``n x n`` doubles, and about `KERNEL_COPIES` of
    them while it selects parameters and slices folds; beyond
    `kernel_memory_limit` the run would swap for hours, so the error names
    the solver that fits.

    Parameters
    ----------
    n : int
        Number of training sequences.
    solver : str
        The resolved solver ("kernel", "linear" or "auto").
    family : poimkit.run.registry.Family
        The model family: whether it is a kernel SVM,
        and what to do instead.
    """
    if solver == "linear" or not family.kernel_svm:
        return
    need = kernel_bytes(n)
    limit = kernel_memory_limit()
    if need > limit:
        raise InputError(
            f"{n} sequences are too many for the kernel solver: its kernel "
            f"matrices need about {need / 1024**3:.0f} GiB, over "
            f"{limit / 1024**3:.0f} GiB ({KERNEL_RAM_SHARE:.0%} of this machine's "
            f"memory); {family.too_large}"
        )
