"""Any PyTorch module that reads one-hot DNA, as a poimkit model that scores.

`as_scorer` wraps a ``torch.nn.Module`` (or a TorchScript module,
`load_scorer`) taking one-hot DNA of shape ``(N, 4, L)``, rows A, C, G, T,
and returning a tensor, or a tuple or dict of tensors (profile models such
as BPNet return a profile head and a count head). `TorchScorer` picks the
output head (``output``), reduces it to one number per record (``reduce``),
and scores letter codes in batches under ``eval()`` and ``no_grad``, on CUDA
when present. It counts its model calls (``n_calls``: forward passes of a
batch; ``n_sequences``: records scored), so every measure can say what it
cost.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..contract import SequenceModel
from ..errors import InputError

#: reductions of a profile output to one number per record, by name
REDUCTIONS = ("sum", "mean", "max")


def one_hot(
    sequences: np.ndarray | Sequence[np.ndarray], length: int | None = None
) -> np.ndarray:
    """Letter codes as one-hot float32 of shape ``(N, 4, L)``, zero past each end.

    Parameters
    ----------
    sequences : numpy.ndarray of shape (N, L) or sequence of 1-D code arrays
        Codes 0..3 (A, C, G, T).
    length : int, optional
        The width L (default: the longest record); records are padded with
        zero columns at the right.

    Returns
    -------
    numpy.ndarray of float32, shape (N, 4, L)

    Examples
    --------
    >>> one_hot([np.array([0, 3], np.uint8)], 3)[0].tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    """
    if isinstance(sequences, np.ndarray) and sequences.ndim == 2:
        n, width = sequences.shape
        out = np.zeros((n, 4, length or width), dtype=np.float32)
        columns = np.arange(width)
        out[np.arange(n)[:, None], sequences, columns[None, :]] = 1.0
        return out
    lengths = [len(s) for s in sequences]
    out = np.zeros((len(lengths), 4, length or max(lengths, default=0)), np.float32)
    for i, s in enumerate(sequences):
        out[i, np.asarray(s, dtype=np.intp), np.arange(len(s))] = 1.0
    return out


@contextlib.contextmanager
def evaluating(module: Any) -> Iterator[None]:
    """The module in ``eval()`` mode inside the block, its own mode after.

    Exported programs (``torch.export``) have no modes: they are left as
    they are.

    Parameters
    ----------
    module : torch.nn.Module
    """
    was_training = module.training
    try:
        module.eval()
    except NotImplementedError:  # an exported program's module
        yield
        return
    try:
        yield
    finally:
        module.train(was_training)


def default_device() -> str:
    """``"cuda"`` when a GPU is present, else ``"cpu"``."""
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


class TorchScorer(SequenceModel):
    """A torch module as a model that only scores (see `as_scorer`).

    Attributes
    ----------
    module : torch.nn.Module
        The wrapped module.
    n_calls : int
        Forward passes made so far (one per batch).
    n_sequences : int
        Records scored so far.
    """

    #: no exact k-mer decomposition (`poimkit.additive`): POIMs are sampled,
    #: attributions ISM
    decomposition = "score_only"
    l = 1  # noqa: E741 (it scores records of any positive length)

    def __init__(
        self,
        module: Any,
        output: int | str | None = None,
        reduce: str | Callable | None = None,
        batch_size: int = 256,
        device: str | None = None,
        length: int | None = None,
    ) -> None:
        import torch

        if not isinstance(module, torch.nn.Module):
            raise InputError(
                f"as_scorer needs a torch.nn.Module, got {type(module).__name__}"
            )
        if isinstance(reduce, str) and reduce not in REDUCTIONS:
            raise InputError(f"reduce must be one of {REDUCTIONS} or a callable")
        if not isinstance(batch_size, int | np.integer) or batch_size < 1:
            raise InputError(f"batch_size must be a positive integer, got {batch_size}")
        if length is not None and (not isinstance(length, int) or length < 1):
            raise InputError(f"the input length must be a positive integer: {length}")
        self.device = device or default_device()
        self.module = module.to(self.device)
        self.output = output
        self.reduce = reduce
        self.batch_size = int(batch_size)
        self.length = length
        self.n_calls = 0
        self.n_sequences = 0

    @property
    def length_(self) -> int:
        """The input length the module was declared to read."""
        if self.length is None:
            raise AttributeError(
                "this scorer reads any length: give length= (CLI: --input-length)"
            )
        return self.length

    @property
    def position_free(self) -> bool:
        """True when no input length was declared (the module reads any)."""
        return self.length is None

    def describe(self) -> str:
        """The model in words, for messages and metadata."""
        head = "" if self.output is None else f", output {self.output!r}"
        reduce = "" if self.reduce is None else f", reduced by {self.reduce}"
        return f"a torch model ({type(self.module).__name__}{head}{reduce})"

    def decision_function(self, X: np.ndarray | Sequence[np.ndarray]) -> np.ndarray:
        """One score per record: the chosen output, reduced.

        Records of equal length are scored together, never padded (a module
        need not know padding).

        Parameters
        ----------
        X : numpy.ndarray of shape (N, L), or sequence of code arrays
            Letter codes 0..3; lists of strings are encoded.

        Returns
        -------
        numpy.ndarray of float64, shape (N,)
        """
        from ..kernels.gkm import as_sequences

        seqs = as_sequences(X)
        lengths = np.array([len(s) for s in seqs], dtype=np.int64)
        if self.length is not None and np.any(lengths != self.length):
            bad = int(np.flatnonzero(lengths != self.length)[0])
            raise InputError(
                f"record {bad + 1} has {lengths[bad]} letters but the model reads "
                f"{self.length}"
            )
        scores = np.empty(len(seqs))
        for width in np.unique(lengths):
            rows = np.flatnonzero(lengths == width)
            block = np.stack([seqs[r] for r in rows]) if width else None
            for a in range(0, rows.size, self.batch_size):
                part = rows[a : a + self.batch_size]
                scores[part] = self._forward(one_hot(block[a : a + part.size]))
        return scores

    def _forward(self, x: np.ndarray) -> np.ndarray:
        """Scores of one batch of one-hot records."""
        import torch

        # TorchScript: no profiling-executor rewrites (fusions specialised on
        # earlier inputs); the graph runs as saved
        with (
            evaluating(self.module),
            torch.no_grad(),
            torch.jit.optimized_execution(False),
        ):
            out = self.module(torch.from_numpy(x).to(self.device))
        self.n_calls += 1
        self.n_sequences += x.shape[0]
        return self._reduced(self._head(out), x.shape[0])

    def _head(self, out: Any) -> Any:
        """The output ``output`` names (the whole output when it is a tensor)."""
        if isinstance(out, dict | tuple | list):
            if self.output is None:
                keys = list(out) if isinstance(out, dict) else list(range(len(out)))
                raise InputError(
                    f"the model returns {len(out)} outputs ({keys}): choose one "
                    "with output= (CLI: --output)"
                )
            try:
                return out[self.output]
            except (KeyError, IndexError, TypeError):
                raise InputError(f"the model has no output {self.output!r}") from None
        if self.output not in (None, 0):
            raise InputError(f"the model returns one tensor, no output {self.output!r}")
        return out

    def _reduced(self, y: Any, n: int) -> np.ndarray:
        """``y`` as one float per record, by ``reduce``."""
        import torch

        if not isinstance(y, torch.Tensor) or y.ndim == 0 or y.shape[0] != n:
            shape = tuple(getattr(y, "shape", ()))
            raise InputError(
                f"the model's output has shape {shape}, not one row per record ({n})"
            )
        if callable(self.reduce):
            y = self.reduce(y)
        elif y[0].numel() != 1:
            if self.reduce is None:
                raise InputError(
                    f"the model's output has shape {tuple(y.shape)}: {y[0].numel()} "
                    f"values per record; reduce them with reduce= one of {REDUCTIONS}"
                    " (CLI: --reduce)"
                )
            flat = y.reshape(n, -1)
            y = {"sum": flat.sum, "mean": flat.mean, "max": flat.amax}[self.reduce](1)
        y = y.reshape(-1).double().cpu().numpy()
        if y.shape != (n,) or not np.isfinite(y).all():
            raise InputError("the model's reduced output is not one finite value each")
        return y


def as_scorer(
    module: Any,
    output: int | str | None = None,
    reduce: str | Callable | None = None,
    batch_size: int = 256,
    device: str | None = None,
    length: int | None = None,
) -> TorchScorer:
    """Wrap a torch module that reads one-hot DNA ``(N, 4, L)`` as a poimkit model.

    Parameters
    ----------
    module : torch.nn.Module
        Reads float one-hot DNA of shape ``(N, 4, L)``, rows A, C, G, T.
    output : int or str, optional
        Which output of a module that returns a tuple (by index) or a dict
        (by key); required then.
    reduce : {"sum", "mean", "max"} or callable, optional
        How an output with more than one value per record (a profile, or
        several tasks) becomes one number: over all of its values, or by a
        function of the ``(N, ...)`` tensor returning ``(N,)``.
    batch_size : int, default 256
        Records per forward pass.
    device : str, optional
        Default CUDA when present, else the CPU; the module is moved there.
    length : int, optional
        The input length the module reads (required where a measure needs it:
        POIMs, interactions, variants of a fixed-length model).

    Returns
    -------
    TorchScorer
        ``decision_function(X)`` on letter codes; ``score_only`` (sampled
        POIMs, ISM attributions).

    Notes
    -----
    The module runs under ``eval()`` and ``torch.no_grad()``; its own mode is
    restored after each call. Model calls of the measures: a sampled POIM
    scores ``n_samples * sum_w (L - w + 1) 4**w`` records
    (`poimkit.poim.sampled.count_evaluations`); in-silico mutagenesis
    ``1 + 3 L`` per record; a motif interaction map ``n_samples * (1 + 3 D O)``
    for D distances and O orientations; a variant 2.

    Examples
    --------
    >>> import torch
    >>> net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.LazyLinear(1))
    >>> scorer = as_scorer(net, length=5)
    >>> scorer.decision_function(np.zeros((3, 5), np.uint8)).shape
    (3,)
    >>> scorer.n_calls, scorer.n_sequences
    (1, 3)
    """
    return TorchScorer(module, output, reduce, batch_size, device, length)


def load_scorer(
    path: str | Path,
    length: int | None = None,
    output: int | str | None = None,
    reduce: str | Callable | None = None,
    device: str | None = None,
) -> TorchScorer:
    """A saved torch model as a scorer (`as_scorer`): TorchScript or torch.export.

    Parameters
    ----------
    path : str or pathlib.Path
        A TorchScript file (``torch.jit.save``) or an exported program
        (``torch.export.save``; its batch dimension must be dynamic, as
        records are scored in batches of any size).
    length, output, reduce, device
        As in `as_scorer`.

    Returns
    -------
    TorchScorer

    Raises
    ------
    InputError
        Naming the file, if it is missing or neither kind.
    """
    import torch

    from ..io.files import torch_model_kind

    path = str(path)
    device = device or default_device()
    kind = torch_model_kind(path)
    if kind is None:
        raise InputError(
            "not a TorchScript file (torch.jit.save) or exported program "
            "(torch.export.save)",
            path=path,
        )
    try:
        if kind == "torchscript":
            module = torch.jit.load(path, map_location=device)
        else:
            module = torch.export.load(path).module().to(device)
    except (RuntimeError, ValueError, OSError, KeyError) as exc:
        first = (str(exc).strip().splitlines() or [""])[0]
        raise InputError(f"cannot read the torch model: {first}", path=path) from None
    return TorchScorer(module, output, reduce, device=device, length=length)
