"""The classifiers: string-kernel SVMs whose scores are exact sums of k-mer weights.

`WDKernelSVC` (`wd`: WD / WDS kernel matrix, up to about 20,000 sequences),
`WDLinearSVC` (`linear`: the same model trained in feature space, millions of
sequences, streaming, Dask) and `GkmSVC` (`gkm`: position-free gapped k-mers
on records of any lengths) share `_base.WDClassifierBase`; the regressors
`WDKernelSVR` and `GkmSVR` (continuous targets, the same kernels and exact
weights) share `_base.KernelRegressorBase`; `selection` chooses
their parameters by nested cross-validation on shared kernel matrices.
`make_model` builds the WD estimator of a solver and `load_model` opens any
model file, so everything downstream (scores, POIMs, motifs) takes either.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .._lazy import lazy_exports
from ..errors import InputError

if TYPE_CHECKING:
    from ._base import KernelModelBase, WDClassifierBase
    from .lsgkm import LsgkmModel

__all__ = [
    "GkmSVC",
    "GkmSVR",
    "KernelRegressorBase",
    "WDClassifierBase",
    "WDKernelSVC",
    "WDKernelSVR",
    "WDLinearSVC",
    "WDLinearSVR",
    "load_model",
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


def _is_lsgkm(path: str | Path) -> bool:
    """Whether ``path`` looks like an LS-GKM text model (plain or gzip).

    Not a zip archive (an ``.npz``), and one of its first header lines is
    ``kernel_type ...``. Unreadable files answer False (the ``.npz`` reader
    then names the problem).
    """
    import gzip

    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
        if head[:2] == b"\x1f\x8b":
            with gzip.open(path, "rb") as handle:
                head = handle.read(4096)
    except (OSError, EOFError):
        return False
    if head[:2] == b"PK":
        return False
    lines = head.decode("latin-1").splitlines()[:30]
    return any(line.split(" ", 1)[0] == "kernel_type" for line in lines)


def load_model(
    path: str | Path,
    *,
    input_length: int | None = None,
    output: int | str | None = None,
    reduce: str | None = None,
) -> KernelModelBase | LsgkmModel:
    """Open a poimkit model file, an LS-GKM model file or a saved torch model.

    Parameters
    ----------
    path : str or pathlib.Path
        The ``.npz`` model file of any poimkit classifier or regressor's
        ``save`` (`poimkit.torch.CNNClassifier`'s needs torch), or an LS-GKM
        text model (``gkmtrain``'s, gkmsvm-lite's ``save_lsgkm``; plain or
        gzip) of kernel type 0, 1 or 2; or a motif model or stack of
        ``poimkit run`` (``motif_model.npz``, ``stack.npz``); or a torch
        model saved by ``torch.jit.save`` or ``torch.export.save``
        (`poimkit.torch.load_scorer`).
    input_length, output, reduce
        For a saved torch model only: as ``length``, ``output`` and
        ``reduce`` of `poimkit.torch.as_scorer`.

    Returns
    -------
    KernelModelBase or LsgkmModel
        A fitted `WDKernelSVC`, `WDLinearSVC`, `GkmSVC`, `WDKernelSVR`,
        `WDLinearSVR`, `GkmSVR` or `CNNClassifier`; a
        `poimkit.torch.TorchScorer` for a torch file; an `LsgkmModel`
        (`poimkit.svm.lsgkm.read_lsgkm`) for an LS-GKM file; a
        `poimkit.motifs.model.MotifClassifier` (or ``MotifRegressor``) or a
        `poimkit.motifs.stacked.StackedModel`.

    Raises
    ------
    InputError
        Naming the file, if it is not a poimkit model (or as the class's
        ``load`` says).
    """
    from ..io import npz_format
    from ..io.files import torch_model_kind
    from .gkm import GkmSVC, GkmSVR
    from .linear import WDLinearSVC, WDLinearSVR
    from .wd import WDKernelSVC, WDKernelSVR

    torch_options = {"input_length": input_length, "output": output, "reduce": reduce}
    if torch_model_kind(path) is not None:
        from ..torch import load_scorer

        return load_scorer(path, input_length, output, reduce)
    given = sorted(k for k, v in torch_options.items() if v is not None)
    if given:
        raise InputError(
            f"{', '.join(given)} apply to saved torch models only", path=str(path)
        )
    if _is_lsgkm(path):
        from .lsgkm import read_lsgkm

        return read_lsgkm(path)
    kind = npz_format(path, "poimkit model")
    if kind == "poimkit.CNNClassifier":
        from ..torch import CNNClassifier

        return CNNClassifier.load(path)
    if kind == "poimkit.MotifModel":  # a run's motif_model.npz or stack.npz
        from ..motifs.model import load_motif_model
        from ..motifs.stacked import load_stacked

        model = load_motif_model(path)
        return load_stacked(path, load_model) if model.stacked_ else model
    for cls in (WDKernelSVC, WDLinearSVC, GkmSVC, WDKernelSVR, WDLinearSVR, GkmSVR):
        if kind == cls._model_format:
            return cls.load(path)
    raise InputError(
        f"not a poimkit model file (format {kind!r}; expected one written by "
        "'poimkit train' or a model's save())",
        path=str(path),
    )
