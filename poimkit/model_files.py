"""Model files: `load_model` opens any model poimkit reads.

A poimkit ``.npz`` of any estimator's ``save`` (the kernel SVMs, the CNN, a run's
motif model or stack), an LS-GKM text model, or a saved torch model: the one
place that knows every model family's file, so that `poimkit.svm` and the
families below it never import the packages above them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .errors import InputError

if TYPE_CHECKING:
    from .svm._base import KernelModelBase
    from .svm.lsgkm import LsgkmModel


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
    from .io import npz_format
    from .io.files import torch_model_kind
    from .svm.gkm import GkmSVC, GkmSVR
    from .svm.linear import WDLinearSVC, WDLinearSVR
    from .svm.wd import WDKernelSVC, WDKernelSVR

    torch_options = {"input_length": input_length, "output": output, "reduce": reduce}
    if torch_model_kind(path) is not None:
        from .torch import load_scorer

        return load_scorer(path, input_length, output, reduce)
    given = sorted(k for k, v in torch_options.items() if v is not None)
    if given:
        raise InputError(
            f"{', '.join(given)} apply to saved torch models only", path=str(path)
        )
    if _is_lsgkm(path):
        from .svm.lsgkm import read_lsgkm

        return read_lsgkm(path)
    kind = npz_format(path, "poimkit model")
    if kind == "poimkit.CNNClassifier":
        from .torch import CNNClassifier

        return CNNClassifier.load(path)
    if kind == "poimkit.MotifModel":  # a run's motif_model.npz or stack.npz
        from .motifs.model import load_motif_model
        from .motifs.stacked import load_stacked

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
