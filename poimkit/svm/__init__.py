"""The classifiers: string-kernel SVMs whose scores are exact sums of k-mer weights.

`WDKernelSVC` (`wd`: WD / WDS kernel matrix, up to about 20,000 sequences),
`WDLinearSVC` (`linear`: the same model trained in feature space, millions of
sequences, streaming, Dask) and `GkmSVC` (`gkm`: position-free gapped k-mers
on records of any lengths) share `_base.WDClassifierBase`; the regressors
`WDKernelSVR` and `GkmSVR` (continuous targets, the same kernels and exact
weights) share `_base.KernelRegressorBase`; `selection` chooses
their parameters by nested cross-validation on shared kernel matrices.
`make_model` builds the WD estimator of a solver (`poimkit.model_files.load_model`
opens any model file).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports
from ..errors import InputError

if TYPE_CHECKING:
    from ._base import WDClassifierBase

__all__ = [
    "GkmSVC",
    "GkmSVR",
    "KernelRegressorBase",
    "WDClassifierBase",
    "WDKernelSVC",
    "WDKernelSVR",
    "WDLinearSVC",
    "WDLinearSVR",
    "make_model",
]

#: public name -> the submodule that defines it (loaded on first use)
_LAZY = {
    "GkmSVC": "gkm",
    "GkmSVR": "gkm",
    "KernelRegressorBase": "_base",
    "WDClassifierBase": "_base",
    "WDKernelSVC": "wd",
    "WDKernelSVR": "wd",
    "WDLinearSVC": "linear",
    "WDLinearSVR": "linear",
}
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)

#: the trainers of `make_model`: kernel matrix or feature space
SOLVERS = ("kernel", "linear")


def make_model(
    solver: str = "kernel",
    *,
    degree: int = 20,
    shift: int = 0,
    C: float = 1.0,
    n_threads: int | None = None,
    **params: object,
) -> WDClassifierBase:
    """An unfitted WD / WDS SVM trained by ``solver``.

    Parameters
    ----------
    solver : {"kernel", "linear"}
        `WDKernelSVC` (kernel matrix) or `WDLinearSVC` (feature space).
    degree, shift, C, n_threads
        As in `WDKernelSVC` and `WDLinearSVC`.
    **params
        Further parameters of the solver's class: ``mismatches`` and
        ``reverse_complement`` of `WDKernelSVC`; ``loss``, ``chunk_size``,
        ... of `WDLinearSVC`.

    Returns
    -------
    WDClassifierBase

    Raises
    ------
    InputError
        For a parameter the solver's class does not have (naming the solver
        that has it).

    Examples
    --------
    >>> make_model("linear", degree=10, loss="logistic")
    WDLinearSVC(degree=10, loss='logistic')
    >>> make_model("kernel", degree=10, reverse_complement=True)
    WDKernelSVC(degree=10, reverse_complement=True)
    """
    from .linear import WDLinearSVC
    from .wd import WDKernelSVC

    if solver not in SOLVERS:
        raise InputError(f"solver must be one of {sorted(SOLVERS)}, got {solver!r}")
    cls, other = WDKernelSVC, WDLinearSVC
    if solver == "linear":
        cls, other = other, cls
    unknown = sorted(set(params) - set(cls._get_param_names()))
    if unknown:
        where = f"not parameters of {cls.__name__}"
        if set(unknown) <= set(other._get_param_names()):
            name = "linear" if solver == "kernel" else "kernel"
            where = (
                f"options of the {name} solver only ({other.__name__}; "
                f"solver={name!r}, CLI: --solver {name})"
            )
        raise InputError(f"{', '.join(unknown)}: {where}")
    return cls(degree=degree, shift=shift, C=C, n_threads=n_threads, **params)
