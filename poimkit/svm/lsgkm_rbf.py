"""LS-GKM model files of kernel types 3, 4, 5: exact scores, sampled explanations.

LS-GKM (``libsvm_gkm.c``) builds its types 3, 4 and 5 on the estimated l-mer
kernel with the truncated filter (the table of ``-t 2``, zero above ``d``
mismatches) and a weight per window:

- ``-t 3`` gkmrbf: every window weighs 1;
- ``-t 4`` wgkm and ``-t 5`` wgkmrbf: window a of the n windows of a
  sequence weighs ``w_a = min(M, floor(M 2**(-|c - a| / H) + 1))``, the
  integer kept in a byte, with ``c = n // 2`` (integer division) and ``M``,
  ``H`` from the header (``gkmtrain -M -H``); the reverse complement of
  window a weighs ``w_a`` too. Weights depend on the window's place in the
  sequence, not inside the l-mer.

The raw kernel is ``K(x, y) = sum_{a in x} sum_{b in y, rc y} w_a w_b
T[d(x_a, y_b)]`` and ``k(x, y) = K(x, y) / sqrt(K(x, x) K(y, y))``. Scores:

- ``-t 4``: ``s(x) = sum_i c_i k(x, x_i) - rho`` (as types 0-2);
- ``-t 3`` / ``-t 5``: ``s(x) = sum_i c_i exp(gamma (k(x, x_i) - 1)) - rho``
  (gamma from the header). This is LS-GKM's RBF: on the *normalised*
  kernel.

All scores here are exact. ``-t 4`` is, for sequences of one length L, the
position-weighted l-mer sum ``sum_a w_a f[x_a] / sqrt(K(x, x)) - rho``: its
numerator is linear in positional l-mer indicators, its normalisation is not
(as for types 0-2), and the weights make it position-dependent, so the
position-free exact POIM of types 0-2 does not apply. The RBF types are not
sums over l-mers at all. For all three, poimkit gives *sampled* POIMs
(`poimkit.poim.sampled.sampled_poim`, metadata ``method = "sampled"``) and
variant effects by scoring the reference and alternative sequences (exact
scores, no k-mer decomposition).

gkmsvm-lite (``gkmsvm.train_gkmsvm``) trains kernels it names gkmrbf, wgkm
and wgkmrbf, but they are other kernels: its RBF uses the un-normalised
distance ``K(x, x) + K(y, y) - 2 K(x, y)``, its wgkm weights positions inside
the l-mer. Its files of these types are read here as LS-GKM defines them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InputError
from ..kernels.gkm import as_sequences, check_long_enough, strands
from ..param_docs import fill_doc
from .lsgkm_base import PARAMETERS, LsgkmBase

__all__ = ["LsgkmKernelModel", "window_weights"]

#: kernel types of this module by ``-t`` number (LS-GKM's names)
KERNEL_NAMES = {3: "gkmrbf", 4: "wgkm", 5: "wgkmrbf"}
#: the same by file name and number
KERNEL_OF_NAME = {**{v: t for t, v in KERNEL_NAMES.items()}, "3": 3, "4": 4, "5": 5}


def window_weights(n_windows: int, M: int, H: float) -> np.ndarray:
    """LS-GKM's weights of the n windows of a sequence (``-t 4`` and ``-t 5``).

    Parameters
    ----------
    n_windows : int
        Windows of the sequence (length - l + 1).
    M : int
        Largest weight (``gkmtrain -M``, 1..255).
    H : float
        Half-life in windows (``gkmtrain -H``).

    Returns
    -------
    numpy.ndarray of float64, shape (n_windows,)
        ``min(M, floor(M 2**(-|c - a| / H) + 1))`` kept in a byte (LS-GKM's
        ``uint8_t``: the centre's ``M + 1 = 256`` of ``M = 255`` wraps to 0,
        as the x86-64 build does), ``c = n_windows // 2``.

    Examples
    --------
    >>> window_weights(7, 50, 2.0).tolist()
    [18.0, 26.0, 36.0, 50.0, 36.0, 26.0, 18.0]
    """
    centre = n_windows // 2
    out = np.empty(n_windows)
    for a in range(n_windows):
        value = int(math.floor(M * math.exp(-math.log(2) * abs(centre - a) / H) + 1))
        value %= 256
        out[a] = min(value, M)
    return out


class _Windows:
    """The windows of some sequences: keys, reverse keys, weights, offsets."""

    def __init__(self, seqs: list[np.ndarray], l: int, weigh) -> None:
        from ..kernels import _lsgkm

        codes, offsets, _ = strands(seqs, False)
        counts = np.diff(offsets) - l + 1
        self.offsets = np.zeros(len(seqs) + 1, dtype=np.int64)
        np.cumsum(counts, out=self.offsets[1:])
        self.keys = np.empty(self.offsets[-1], dtype=np.int64)
        self.rkeys = np.empty(self.offsets[-1], dtype=np.int64)
        _lsgkm.window_keys(codes, offsets, l, self.offsets, self.keys, self.rkeys)
        self.weights = np.empty(self.offsets[-1])
        cache: dict[int, np.ndarray] = {}
        for i, n in enumerate(counts.tolist()):
            if n not in cache:
                cache[n] = weigh(n)
            self.weights[self.offsets[i] : self.offsets[i + 1]] = cache[n]

    @property
    def arrays(self) -> tuple:
        """``(keys, rkeys, weights, offsets)``, as the kernels take them."""
        return self.keys, self.rkeys, self.weights, self.offsets


@fill_doc(PARAMETERS)
@dataclass(eq=False, repr=False, kw_only=True)
class LsgkmKernelModel(LsgkmBase):
    """An LS-GKM model of kernel type 3, 4 or 5 (module docstring): exact scores.

    Parameters
    ----------
    %(lsgkm)s
    gamma : float, default=1.0
        RBF width (types 3 and 5).
    M : int, default=50
        Largest window weight (types 4 and 5).
    H : float, default=50.0
        Half-life of the window weights (types 4 and 5).
    source : str, optional
        The file read (named in refusals).

    Attributes
    ----------
    intercept_ : float
        ``-rho``.
    classes_ : numpy.ndarray of shape (2,)
    length_ : int
        Median support length: the default length of sampled POIMs.
    decomposition : str
        "score_only" (`poimkit.additive`): scores are exact, POIMs and variant
        effects are not sums of l-mer weights (sampled POIMs; effects by
        scoring both sequences).
    """

    recorded_params = ("kernel_type", "l", "k", "d", "gamma", "M", "H")

    decomposition: ClassVar[str] = "score_only"
    KERNEL_NAMES: ClassVar[dict[int, str]] = KERNEL_NAMES
    TABLE_TYPE: ClassVar[int | None] = 2

    gamma: float = 1.0
    M: int = 50
    H: float = 50.0
    source: str | None = None

    def __post_init__(self, coef: ArrayLike, rho: float) -> None:
        super().__post_init__(coef, rho)
        gamma, M, H = self.gamma, self.M, self.H
        if not (np.isfinite(gamma) and gamma > 0):
            raise InputError(f"gamma must be positive, got {gamma}")
        if self.kernel_type != 3 and not (1 <= M <= 255 and H > 0):
            raise InputError(f"need 1 <= M <= 255 and H > 0, got M = {M}, H = {H}")
        self.gamma, self.M, self.H = float(gamma), int(M), float(H)
        self._sv: _Windows | None = None
        self._sv_norm: np.ndarray | None = None

    @property
    def kernel_name(self) -> str:
        """LS-GKM's name of the kernel type (``gkmrbf``, ``wgkm``, ``wgkmrbf``)."""
        return KERNEL_NAMES[self.kernel_type]

    def describe(self) -> str:
        """``FILE (LS-GKM kernel_type NAME, -t T)``: named in refusals."""
        where = f"{self.source} " if self.source else ""
        return f"{where}(LS-GKM kernel_type {self.kernel_name}, -t {self.kernel_type})"

    def _weigh(self, n: int) -> np.ndarray:
        if self.kernel_type == 3:
            return np.ones(n)
        return window_weights(n, self.M, self.H)

    def _windows(self, seqs: list[np.ndarray]) -> _Windows:
        return _Windows(seqs, self.l, self._weigh)

    def _self_kernel(self, w: _Windows) -> np.ndarray:
        from ..kernels import _lsgkm

        out = np.empty(w.offsets.size - 1)
        _lsgkm.self_kernel(w.arrays, self.reverse_complement, self.table, out)
        return out

    def _sequence_self_kernel(self, seqs: list[np.ndarray]) -> np.ndarray:
        return self._self_kernel(self._windows(seqs))

    def _support(self) -> tuple[_Windows, np.ndarray]:
        if self._sv is None:
            self._sv = self._windows(self.support)
            self._sv_norm = np.sqrt(np.maximum(self._self_kernel(self._sv), 1e-300))
        return self._sv, self._sv_norm

    def kernel(self, X: ArrayLike) -> np.ndarray:
        """The normalised kernel ``k(x, x_i)`` of every sequence and support sequence.

        Parameters
        ----------
        X : list of str or of code arrays
            The rows: sequences compared with every support sequence (any
            lengths, each at least ``l`` letters).

        Returns
        -------
        numpy.ndarray of float64, shape (n, n_SV)
        """
        from ..kernels import _lsgkm

        seqs = as_sequences(X)
        check_long_enough(seqs, self.l)
        w = self._windows(seqs)
        sv, sv_norm = self._support()
        raw = np.empty((len(seqs), len(self.support)))
        _lsgkm.cross_kernel(
            w.arrays, sv.arrays, self.reverse_complement, self.table, raw
        )
        norm = np.sqrt(np.maximum(self._self_kernel(w), 1e-300))
        return raw / norm[:, None] / sv_norm[None, :]

    def lmer_weights(self) -> np.ndarray:
        """``-t 4`` only: f of ``s(x) = sum_a w_a f[x_a] / sqrt(K(x, x)) - rho``.

        Returns
        -------
        numpy.ndarray of float64, shape (4**l,)
            ``f[u] = sum_i c_i / sqrt(K(x_i, x_i)) sum_{b in x_i} w_b
            (T[d(u, x_ib)] + T[d(u, rc x_ib)])``, by two Walsh-Hadamard
            transforms (as `LsgkmModel.lmer_weights`).
        """
        if self.kernel_type != 4:
            raise InputError(f"{self.describe()}: an RBF kernel has no l-mer weights")
        if self._lmers is None:
            sv, sv_norm = self._support()
            per_seq = np.repeat(self.dual_coef_ / sv_norm, np.diff(sv.offsets))
            f = np.zeros(4**self.l)
            np.add.at(f, sv.keys, per_seq * sv.weights)
            if self.reverse_complement:
                np.add.at(f, sv.rkeys, per_seq * sv.weights)
            self.fold_lmers(f)
        return self._lmers

    def _scores(self, seqs: list[np.ndarray]) -> np.ndarray:
        if self.kernel_type != 4:
            k = self.kernel(seqs)
            return np.exp(self.gamma * (k - 1.0)) @ self.dual_coef_ + self.intercept_
        w = self._windows(seqs)
        f = self.lmer_weights()
        per_window = np.append(f[w.keys] * w.weights, 0.0)
        rows = np.add.reduceat(per_window, w.offsets[:-1])
        norm = np.sqrt(np.maximum(self._self_kernel(w), 1e-300))
        return rows / norm + self.intercept_

    def __repr__(self) -> str:
        extra = f", gamma={self.gamma}" if self.kernel_type != 4 else ""
        if self.kernel_type != 3:
            extra += f", M={self.M}, H={self.H}"
        return (
            f"LsgkmKernelModel(kernel_type={self.kernel_type}, l={self.l}, "
            f"k={self.k}, d={self.d}{extra}, n_SV={len(self.support)}, "
            f"reverse_complement={self.reverse_complement})"
        )
