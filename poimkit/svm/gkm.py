"""`GkmSVC`: a position-free gapped k-mer SVM on sequences of any lengths.

The gkm kernel (Ghandi et al. 2014, LS-GKM's ``-t 0``) compares every l-mer
of one sequence with every l-mer of the other: two l-mers at Hamming distance
d share ``h_d = C(l - d, k)`` gapped patterns (l-mers with k informative
positions), so

    K(x, x') = sum_{u in x, v in x'} h_{d(u, v)}
             = sum_{masks m} sum_{patterns p} c_m(x, p) c_m(x', p),

where ``c_m(x, p)`` counts the windows of x whose letters under mask m spell
p (both strands with ``reverse_complement``). The model is linear in those
counts, so it has exact explicit weights: one table ``g[m, p]`` of
``C(l, k) * 4**k`` numbers, and a sequence scores

    s(x) = b + a(x) sum_{windows w} sum_m g[m, x_w under m].

Normalisation divides by a constant per length, ``a(x) = 1 / sqrt(kappa
W(x))`` with ``W(x)`` the number of windows and ``kappa`` the mean training
diagonal per window, so for sequences of one length the score stays linear
in the positional l-mer indicators and POIMs are exact
(`poimkit.poim.position_free`). The gapped table folds into one weight per
l-mer, ``f = sum_m g[m, u under m]`` (4**l numbers), computed from the
support sequences' l-mer counts by two Walsh-Hadamard transforms
(`GkmSVC._lmer_table`): scoring is then one look-up per window.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np
from numpy.typing import ArrayLike
from sklearn.svm import SVC
from sklearn.utils.validation import check_is_fitted

from .._threads import check_threads, numba_threads
from .._validation import check_binary_target, check_flag, check_int, check_real
from ..alphabet import check_codes, reverse_complement_kmers
from ..errors import InputError
from ..kernels import _gkm
from ..kernels.gkm import (
    as_sequences,
    check_lk,
    check_long_enough,
    gkm_masks,
    gram_matrix,
    strands,
    typical_length,
    windows,
)
from ._base import WDClassifierBase

#: largest l for the dense l-mer table of `GkmSVC.lmer_weights` (4**l numbers);
#: above it scores go through the gapped-pattern table and there are no POIMs
MAX_LMER_TABLE = 12


class GkmSVC(WDClassifierBase):
    """Support vector classifier with the position-free gapped k-mer kernel.

    For regulatory DNA: motifs anywhere, on either strand, with mismatches,
    in records of different lengths (ChIP-seq and ATAC-seq peaks). Unlike
    LS-GKM, every prediction decomposes exactly into l-mer (and gapped
    k-mer) weights, so POIMs and FIRM are exact.

    Parameters
    ----------
    l : int, default=11
        Length of the compared words (l-mers).
    k : int, default=7
        Informative positions of a gapped pattern (k <= l).
    reverse_complement : bool, default=True
        Count both strands: a word and its reverse complement share a weight.
    C : float, default=1.0
        Regularisation parameter of the SVM.
    normalize : bool, default=True
        Divide the kernel by ``sqrt(kappa W(x) kappa W(x'))``: ``W`` the number
        of windows of a sequence and ``kappa`` the mean training diagonal per
        window. A constant per length keeps POIMs exact (per-sequence cosine
        normalisation would not).
    class_weight : dict, "balanced" or None, default=None
        Passed to `~sklearn.svm.SVC`.
    tol : float, default=1e-3
        Stopping tolerance of the SVM solver.
    n_threads : int or None, default=None
        Threads for the kernel (None: numba's default).

    Attributes
    ----------
    classes_ : numpy.ndarray of shape (2,)
    support_codes_ : numpy.ndarray of uint8
        The support sequences, one after another.
    support_offsets_ : numpy.ndarray of int64, shape (n_SV + 1,)
        Support sequence j is ``support_codes_[support_offsets_[j]:
        support_offsets_[j + 1]]``.
    dual_coef_ : numpy.ndarray of shape (n_SV,)
    intercept_ : float
    kernel_scale_ : float
        ``kappa`` (1.0 if not normalised).
    length_ : int
        The median training length: the default length of POIMs.
    n_support_ : numpy.ndarray of shape (2,)

    Examples
    --------
    >>> from poimkit.datasets import make_gattaca
    >>> X, y = make_gattaca(n_pos=40, n_neg=40, length=30, random_state=0)
    >>> clf = GkmSVC(l=6, k=4).fit(X, y)
    >>> clf.decision_function(["ACGTACGTAC", "GATTACAGATTACA"]).shape
    (2,)
    """

    _model_format = "poimkit.GkmSVC"
    _saved_params = {
        "l": int,
        "k": int,
        "reverse_complement": bool,
        "C": float,
        "normalize": bool,
        "tol": float,
    }
    #: scores do not depend on where a word occurs
    position_free = True

    def __init__(
        self,
        l: int = 11,
        k: int = 7,
        reverse_complement: bool = True,
        C: float = 1.0,
        normalize: bool = True,
        class_weight: dict | str | None = None,
        tol: float = 1e-3,
        n_threads: int | None = None,
    ) -> None:
        self._keep_params(locals())

    def _check_params(self) -> None:
        check_lk(self.l, self.k)
        check_flag(self.reverse_complement, "reverse_complement")
        check_real(self.C, "C", 0)
        check_real(self.tol, "tol", 0)
        check_threads(self.n_threads)

    # ------------------------------------------------------------ Gram protocol
    # `poimkit.svm.selection` fits many models from one kernel matrix through these
    # methods (the protocol is described there); `fit` uses them too.
    def _raw_kernel(self, X) -> np.ndarray:
        """Un-normalised kernel matrix of X with itself (`gkm_kernel`)."""
        self._check_params()
        seqs = as_sequences(X)
        check_long_enough(seqs, self.l)
        return gram_matrix(
            seqs, self.l, self.k, self.reverse_complement, self.n_threads
        )

    def _decision_gram(self, X, K_raw: np.ndarray) -> np.ndarray:
        """Scores of X from its un-normalised kernel against the support sequences."""
        a = self._scale(windows(as_sequences(X), self.l))
        b = self._scale(windows(self.support_sequences(), self.l))
        return (K_raw / np.outer(a, b)) @ self.dual_coef_ + self.intercept_

    def _fit_gram(self, X, y, K_raw: np.ndarray) -> GkmSVC:
        """`fit` given the un-normalised kernel matrix of X (see `_raw_kernel`)."""
        self._check_params()
        y = check_binary_target(y, "GkmSVC")
        seqs = as_sequences(X)
        if len(seqs) != y.shape[0] or y.ndim != 1:
            raise InputError(
                f"y has shape {y.shape} but X has {len(seqs)} sequences; y must be "
                "one label per sequence"
            )
        classes, y_index = np.unique(y, return_inverse=True)
        n_windows = windows(seqs, self.l)
        kappa = float(np.mean(np.diag(K_raw) / n_windows)) if self.normalize else 1.0
        scale = np.sqrt(kappa * n_windows) if self.normalize else np.ones(len(seqs))
        svc = SVC(
            kernel="precomputed", C=self.C, tol=self.tol, class_weight=self.class_weight
        )
        svc.fit(K_raw / np.outer(scale, scale), y_index)
        self.classes_ = classes
        self.intercept_ = float(svc.intercept_[0])
        self.kernel_scale_ = kappa
        self.length_ = self.n_features_in_ = typical_length(seqs)
        self._gram_support = svc.support_
        support = [seqs[i] for i in svc.support_]
        offsets = np.zeros(len(support) + 1, dtype=np.int64)
        np.cumsum([x.size for x in support], out=offsets[1:])
        self._restore(
            {
                "support_codes": np.concatenate(support),
                "support_offsets": offsets,
                "dual_coef": svc.dual_coef_[0],
            }
        )
        return self

    def fit(self, X: ArrayLike, y: ArrayLike) -> GkmSVC:
        """Train the SVM and build its explicit weights.

        The weights (a table of ``4**l`` l-mer weights for l up to
        `MAX_LMER_TABLE`) are part of the model: scoring is then one look-up
        per window.

        Parameters
        ----------
        X : list of str, list of code arrays, or 2-D code array
            Sequences of any lengths, each at least ``l`` letters.
        y : array-like of shape (n_samples,)
            Exactly two distinct labels.

        Returns
        -------
        self
        """
        self._fit_gram(X, y, self._raw_kernel(X))
        if self.l <= MAX_LMER_TABLE:
            self._lmer_table()
        return self

    # ------------------------------------------------------------------ scores
    def _scale(self, n_windows: np.ndarray) -> np.ndarray:
        """``sqrt(kappa W(x))`` per sequence: what raw kernel sums are divided by."""
        if not self.normalize:
            return np.ones_like(n_windows)
        return np.sqrt(self.kernel_scale_ * n_windows)

    def gapped_weights(self) -> np.ndarray:
        """Exact weights of the gapped patterns, shape ``(C(l, k), 4**k)`` (cached).

        Returns
        -------
        numpy.ndarray of float64
            ``g[m, p] = sum_j coef_j c_m(x_j, p) / sqrt(kappa W(x_j))`` over the
            support sequences; row m belongs to mask ``gkm_masks(l, k)[m]``.
        """
        check_is_fitted(self)
        if self._weights is None:
            seqs = self.support_sequences()
            coef = self.dual_coef_ / self._scale(windows(seqs, self.l))
            codes, offsets, row_seq = strands(seqs, self.reverse_complement)
            table = np.zeros((comb(self.l, self.k), 4**self.k))
            with numba_threads(self.n_threads):
                _gkm.gkm_weights(
                    codes,
                    offsets,
                    np.ascontiguousarray(coef[row_seq]),
                    gkm_masks(self.l, self.k),
                    self.l,
                    table,
                )
            self._weights = table
        return self._weights

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Signed distance to the separating hyperplane (positive: ``classes_[1]``).

        Scores come from the explicit weights (`gapped_weights`): the same
        numbers as the kernel expansion, without a kernel matrix.

        Parameters
        ----------
        X : list of str, list of code arrays, or 2-D code array
            Sequences of any lengths, each at least ``l`` letters.

        Returns
        -------
        numpy.ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        seqs = as_sequences(X)
        check_long_enough(seqs, self.l)
        by_lmer = self.l <= MAX_LMER_TABLE  # one look-up per window
        codes, offsets, row_seq = strands(seqs, self.reverse_complement and not by_lmer)
        rows = np.empty(offsets.size - 1)
        with numba_threads(self.n_threads):
            if by_lmer:
                _gkm.lmer_score_rows(codes, offsets, self.l, self._lmer_table(), rows)
            else:
                _gkm.gkm_score_rows(
                    codes,
                    offsets,
                    gkm_masks(self.l, self.k),
                    self.l,
                    self.gapped_weights(),
                    rows,
                )
        raw = np.bincount(row_seq, weights=rows, minlength=len(seqs))
        return raw / self._scale(windows(seqs, self.l)) + self.intercept_

    def lmer_weights(self, length: int | None = None) -> np.ndarray:
        """Weight of every l-mer window in sequences of one length, both strands.

        Parameters
        ----------
        length : int, optional
            Sequence length (default ``length_``): sets the normalisation.

        Returns
        -------
        numpy.ndarray of float64, shape (4**l,)
            ``f[u]`` such that ``s(x) = b + sum_w f[x_w]`` over the windows of a
            sequence x of that length (``f[u]`` includes the reverse
            complement's patterns).
        """
        check_is_fitted(self)
        length = self.length_ if length is None else check_int(length, "length", 1)
        if length < self.l:
            raise InputError(f"length must be at least l = {self.l}, got {length}")
        return self._lmer_table() / self._scale(np.array([length - self.l + 1.0]))[0]

    def _lmer_table(self) -> np.ndarray:
        """Un-normalised weight of every l-mer window, both strands (cached).

        ``f = c * h``: the coefficient-weighted l-mer counts c of the support
        sequences convolved with ``h(u, v) = C(l - d(u, v), k)``. Reading a
        letter as two bits, h is a function of ``u XOR v``, so the
        Walsh-Hadamard transform H diagonalises it: ``f = H (lambda H c)``
        with ``lambda(s) = C(l - w, k - w) / 4**k``, w the number of letters
        where s is non-zero (0 for w > k).
        """
        if self._lmers is None:
            if self.l > MAX_LMER_TABLE:
                raise InputError(
                    f"l-mer weights need a table of 4**l numbers; l = {self.l} is "
                    f"above the supported {MAX_LMER_TABLE}"
                )
            seqs = self.support_sequences()
            coef = self.dual_coef_ / self._scale(windows(seqs, self.l))
            codes, offsets, row_seq = strands(seqs, self.reverse_complement)
            f = np.zeros(4**self.l)
            with numba_threads(self.n_threads):
                _gkm.lmer_counts(
                    codes, offsets, np.ascontiguousarray(coef[row_seq]), self.l, f
                )
                _gkm.walsh_hadamard(f)
                f *= _hamming_eigenvalues(self.l, self.k)
                _gkm.walsh_hadamard(f)
            if self.reverse_complement:
                f += f[_reverse_complement_index(self.l)]
            self._lmers = f
        return self._lmers

    def support_sequences(self) -> list[np.ndarray]:
        """The support sequences as a list of code arrays."""
        check_is_fitted(self)
        o = self.support_offsets_
        return [self.support_codes_[o[j] : o[j + 1]] for j in range(o.size - 1)]

    # ------------------------------------------------------------------ files
    def _fitted_arrays(self) -> dict[str, np.ndarray]:
        return {
            "support_codes": self.support_codes_,
            "support_offsets": self.support_offsets_,
            "dual_coef": self.dual_coef_,
        }

    def _restore(self, arrays) -> None:
        codes = np.ascontiguousarray(arrays["support_codes"])
        offsets = np.ascontiguousarray(arrays["support_offsets"], dtype=np.int64)
        coef = np.ascontiguousarray(arrays["dual_coef"], dtype=np.float64)
        if (
            codes.ndim != 1
            or offsets.ndim != 1
            or coef.shape != (offsets.size - 1,)
            or offsets[0] != 0
            or offsets[-1] != codes.size
            or np.any(np.diff(offsets) < self.l)
            or not np.isfinite(coef).all()
        ):
            raise InputError("support sequences and coefficients are inconsistent")
        self.support_codes_ = check_codes(codes.reshape(1, -1), "support_codes")[0]
        self.support_offsets_ = offsets
        self.dual_coef_ = coef
        self.n_support_ = np.array([(coef < 0).sum(), (coef > 0).sum()])
        self._weights = None
        self._lmers = None


@lru_cache(maxsize=2)
def _hamming_eigenvalues(l: int, k: int) -> np.ndarray:
    """``C(l - w, k - w) / 4**k`` per Walsh index (w: its non-zero letters).

    With ``delta(a, b) = sum_s (-1)**popcount(s & (a ^ b)) / 4`` per letter,
    ``h(u, v) = sum_{|S| = k} prod_{p in S} delta(u_p, v_p)`` has the
    coefficient ``4**-k`` times the number of masks S holding every letter
    where s is non-zero.
    """
    s = np.arange(4**l, dtype=np.int64)
    w = np.zeros(s.size, dtype=np.int64)
    for _ in range(l):
        w += (s & 3) != 0
        s >>= 2
    table = np.array(
        [comb(l - i, k - i) if i <= k else 0 for i in range(l + 1)], dtype=np.float64
    )
    return table[w] / 4.0**k


@lru_cache(maxsize=2)
def _reverse_complement_index(l: int) -> np.ndarray:
    """``rc[u]``: index of the reverse complement of every l-mer u (cached)."""
    return reverse_complement_kmers(np.arange(4**l, dtype=np.int64), l)
