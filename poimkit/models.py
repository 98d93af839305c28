"""Choose or open a WD / WDS SVM: the kernel or the linear (feature-space) trainer.

`make_model` builds the estimator for ``solver="kernel"`` (`WDKernelSVC`, a
kernel matrix: up to about 20,000 sequences) or ``solver="linear"``
(`WDLinearSVC`, no kernel matrix: millions of sequences, streaming, Dask);
`load_model` opens a model file written by either. Both fit the same model
family, so everything downstream (scores, POIMs, motifs) takes either.
"""

from __future__ import annotations

from pathlib import Path

from .base import WDClassifierBase
from .errors import InputError
from .io import npz_format
from .linear import WDLinearSVC
from .svm import WDKernelSVC

SOLVERS = {"kernel": WDKernelSVC, "linear": WDLinearSVC}


def make_model(
    solver: str = "kernel",
    *,
    degree: int = 20,
    shift: int = 0,
    C: float = 1.0,
    n_threads: int | None = None,
    **linear_params: object,
) -> WDClassifierBase:
    """An unfitted WD / WDS SVM trained by ``solver``.

    Parameters
    ----------
    solver : {"kernel", "linear"}
        `WDKernelSVC` (kernel matrix) or `WDLinearSVC` (feature space).
    degree, shift, C, n_threads
        As in `WDKernelSVC` and `WDLinearSVC`.
    **linear_params
        Further `WDLinearSVC` parameters (``loss``, ``chunk_size``, ...);
        only with ``solver="linear"``.

    Returns
    -------
    WDClassifierBase

    Examples
    --------
    >>> make_model("linear", degree=10, loss="logistic")
    WDLinearSVC(degree=10, loss='logistic')
    """
    if solver not in SOLVERS:
        raise InputError(f"solver must be one of {sorted(SOLVERS)}, got {solver!r}")
    if solver == "kernel" and linear_params:
        raise InputError(
            f"{', '.join(sorted(linear_params))} apply to the linear solver only "
            "(solver='linear', CLI: --solver linear)"
        )
    return SOLVERS[solver](
        degree=degree, shift=shift, C=C, n_threads=n_threads, **linear_params
    )


def load_model(path: str | Path) -> WDClassifierBase:
    """Open a model file written by the ``save`` of any poimkit classifier.

    Parameters
    ----------
    path : str or pathlib.Path
        The ``.npz`` model file.

    Returns
    -------
    WDClassifierBase
        A fitted `WDKernelSVC`, `WDLinearSVC` or `GkmSVC`.

    Raises
    ------
    InputError
        Naming the file, if it is not a poimkit model (or as the class's
        ``load`` says).
    """
    from .gkm import GkmSVC

    kind = npz_format(path, "poimkit model")
    for cls in (*SOLVERS.values(), GkmSVC):
        if kind == cls._model_format:
            return cls.load(path)
    raise InputError(
        f"not a poimkit model file (format {kind!r}; expected one written by "
        "'poimkit train' or a model's save())",
        path=str(path),
    )
