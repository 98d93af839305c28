"""`GkmSVC`, `GkmSVR`: position-free gapped k-mer SVMs on sequences of any lengths.

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

Two solvers train the same model: ``"kernel"`` fits `sklearn.svm.SVC` (hinge
loss) on the n x n kernel matrix, ``"linear"`` the squared-hinge L2-SVM by
L-BFGS in sequence space through the l-mer table (`poimkit.svm.gkm_solver`),
whose cost grows linearly with the number of records and which needs no n x n
matrix; ``"auto"`` takes the kernel solver up to `KERNEL_MAX_RECORDS` records.
Either way the model is a coefficient per support sequence.

`GkmSVR` is the regression counterpart (`sklearn.svm.SVR`, epsilon-insensitive
loss, on the kernel matrix; its linear solver minimises the squared
epsilon-insensitive loss): also a coefficient per support sequence, so it
has the same explicit weights and exact POIMs (`GkmExpansion` holds what the
two share).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np
from numpy.typing import ArrayLike
from sklearn.svm import SVC, SVR
from sklearn.utils.validation import check_is_fitted

from .._threads import check_threads, numba_threads
from .._validation import (
    check_binary_target,
    check_continuous_target,
    check_flag,
    check_int,
    check_nonnegative,
    check_real,
)
from ..alphabet import check_codes
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
from ..param_docs import LMER_TABLE, fill_doc
from ._base import KernelRegressorBase, WDClassifierBase
from .gkm_solver import (
    MAX_LMER_TABLE,
    LmerGram,
    SequenceSpaceSolver,
)
from .intercept import svc_intercept

#: the docs of the parameters `GkmSVC` and `GkmSVR` share
PARAMETERS = {
    "gkm": """
l : int, default=11
    Length of the compared words (l-mers).
k : int, default=7
    Informative positions of a gapped pattern (k <= l).
reverse_complement : bool, default=True
    Count both strands: a word and its reverse complement share a weight.
C : float, default=1.0
    Regularisation parameter (of `~sklearn.svm.SVC` or `~sklearn.svm.SVR`).
normalize : bool, default=True
    Divide the kernel by ``sqrt(kappa W(x) kappa W(x'))``: ``W`` the number
    of windows of a sequence and ``kappa`` the mean training diagonal per
    window. A constant per length keeps POIMs exact (per-sequence cosine
    normalisation would not).
tol : float, default=1e-3
    Stopping tolerance: libsvm's for the kernel solver; for the linear
    one, the gradient norm relative to its start.
n_threads : int or None, default=None
    Threads for the kernel (None: numba's default).
solver : {"auto", "kernel", "linear"}, default="auto"
    ``"kernel"``: libsvm (`~sklearn.svm.SVC`, hinge loss, or
    `~sklearn.svm.SVR`, epsilon-insensitive loss) on the n x n kernel
    matrix. ``"linear"``: the L2-loss model (squared hinge, or squared
    epsilon-insensitive loss: ``||w||**2 / 2 + C sum_i max(0, |y_i -
    f(x_i)| - epsilon)**2``; the bias not penalised) by L-BFGS through the
    l-mer table (`poimkit.svm.gkm_solver`): time linear in the records,
    memory of a few tables of ``4**l`` numbers (l at most
    `MAX_LMER_TABLE`, no ``class_weight``). ``"auto"``: the kernel solver
    up to `KERNEL_MAX_RECORDS` records (or where the linear one cannot
    run), else the linear one.
max_iter : int, default=1000
    Most iterations of the linear solver.
verbose : bool, default=False
    A progress bar over the linear solver's iterations.
""",
    "gkm_fitted": """
support_codes_ : numpy.ndarray of uint8
    The support sequences, one after another.
support_offsets_ : numpy.ndarray of int64, shape (n_SV + 1,)
    Support sequence j is ``support_codes_[support_offsets_[j]:
    support_offsets_[j + 1]]``.
dual_coef_ : numpy.ndarray of shape (n_SV,)
    The coefficient of each support sequence (``alpha_j y_j`` for a
    classifier, ``alpha_j - alpha_j*`` for a regressor).
n_support_ : numpy.ndarray of shape (2,)
    Support sequences with a negative and with a positive coefficient.
intercept_ : float
kernel_scale_ : float
    ``kappa`` (1.0 if not normalised).
length_ : int
    The median training length: the default length of POIMs.
solver_ : str
    The solver that trained the model (``"kernel"`` or ``"linear"``).
n_iter_ : int
    Iterations of the solver.
converged_ : bool
    Whether the linear solver met ``tol`` (True for the kernel solver).
""",
}


@dataclass(eq=False, repr=False, kw_only=True)
class GkmExpansion:
    """A fitted gkm kernel expansion: what `GkmSVC` and `GkmSVR` share.

    The parameters both take (scikit-learn's, documented in ``PARAMETERS``;
    dataclass fields, as in `poimkit.svm.wd.WDExpansion`), the kernel, its
    normalisation, scores (`_score`), the explicit gapped and l-mer weights
    and model files of a coefficient per support sequence. The host class
    defines ``_check_params``.
    """

    #: ``a(x)`` depends on the length of x alone (`record_factors`), so an
    #: SNV's effect is local (`poimkit.variants.all_snvs`).
    factor_per_length = True

    l: int = 11
    k: int = 7
    reverse_complement: bool = True
    C: float = 1.0
    normalize: bool = True
    tol: float = 1e-3
    n_threads: int | None = None
    solver: str = "auto"
    max_iter: int = 1000
    verbose: bool = False

    #: scores do not depend on where a word occurs: an l-mer table with the
    #: factor of each record's length (`poimkit.additive.LmerTable`)
    position_free = True
    decomposition = "lmer_table"
    #: candidates fit on one raw kernel matrix (`poimkit.contract`)
    shares_gram = True
    #: what `save` writes and `load` reads (the classifier's; the regressor adds
    #: ``epsilon``)
    _saved_params = {
        "l": int,
        "k": int,
        "reverse_complement": bool,
        "C": float,
        "normalize": bool,
        "tol": float,
        "solver": str,
        "max_iter": int,
    }
    #: files written before the solvers: trained on the kernel matrix
    _saved_defaults = {"solver": "kernel", "max_iter": 1000}

    def _check_gkm_params(self) -> None:
        """Check the kernel's parameters, C, tol and threads (common to both)."""
        check_lk(self.l, self.k)
        check_flag(self.reverse_complement, "reverse_complement")
        check_real(self.C, "C", 0)
        check_real(self.tol, "tol", 0)
        check_threads(self.n_threads)

    def _sequences(self, X) -> list[np.ndarray]:
        """The checked parameters, then X as code arrays of at least ``l`` letters."""
        self._check_params()
        seqs = as_sequences(X)
        check_long_enough(seqs, self.l)
        return seqs

    def _fit_sequences(self, seqs: list[np.ndarray], y) -> GkmExpansion:
        """`fit` on checked sequences: the solver of `_solver_for`, then the table.

        The host class defines ``_targets(seqs, y)`` (libsvm's and the linear
        solver's targets, checked) and ``_libsvm()`` (the estimator on the
        precomputed kernel).
        """
        if self._solver_for(len(seqs)) == "kernel":
            self._fit_gram(seqs, y, self._raw_kernel(seqs))
        else:  # the linear solver through the l-mer table (no matrix)
            self._fit_lbfgs(seqs, self._targets(seqs, y)[1], self._lmer_gram(seqs))
        if self.l <= MAX_LMER_TABLE:
            self._lmer_table()
        return self

    # ------------------------------------------------------------ Gram protocol
    # `poimkit.svm.selection` fits many models from one kernel matrix through these
    # methods (the protocol is described there); `fit` uses them too.
    def _raw_kernel(self, X) -> np.ndarray:
        """Un-normalised kernel matrix of X with itself (`gkm_kernel`)."""
        seqs = self._sequences(X)
        return gram_matrix(
            seqs, self.l, self.k, self.reverse_complement, self.n_threads
        )

    def _decision_gram(self, X, K_raw: np.ndarray) -> np.ndarray:
        """Scores of X from its un-normalised kernel against the support sequences."""
        a = self._scale(windows(as_sequences(X), self.l))
        b = self._scale(windows(self.support_sequences(), self.l))
        return (K_raw / np.outer(a, b)) @ self.dual_coef_ + self.intercept_

    def _fit_gram(self, X, y, K_raw: np.ndarray) -> GkmExpansion:
        """`fit` given the un-normalised kernel matrix of X (see `_raw_kernel`)."""
        self._check_params()
        seqs = as_sequences(X)
        target, linear_target = self._targets(seqs, y)
        self._normalize_gram(seqs, K_raw)
        if self._solver_for(len(seqs)) == "linear":  # L-BFGS on the matrix
            from .gkm_solver import MatrixGram

            self._fit_lbfgs(seqs, linear_target, MatrixGram(K_raw))
            return self
        svm = self._libsvm()
        svm.fit(K_raw, target)
        self._gram_support = svm.support_
        self._set_model(seqs, svm.support_, svm.dual_coef_[0])
        self.intercept_ = self._intercept(svm, K_raw, target)
        self.solver_, self.n_iter_ = "kernel", int(np.ravel(svm.n_iter_)[0])
        self.converged_ = True
        return self

    def _normalize_gram(self, seqs: list[np.ndarray], K_raw: np.ndarray) -> None:
        """Set ``kernel_scale_`` from ``K_raw`` (of ``seqs``); normalise ``K_raw``."""
        n_windows = windows(seqs, self.l)
        self.kernel_scale_ = 1.0
        if self.normalize:
            self.kernel_scale_ = float(np.mean(np.diag(K_raw) / n_windows))
        scale = self._scale(n_windows)
        K_raw /= np.outer(scale, scale)

    def _set_model(self, seqs, support, coef) -> None:
        """The fitted attributes: support sequences ``seqs[support]`` with ``coef``.

        ``kernel_scale_`` is set before, as the training kernel's normalisation.
        """
        self.length_ = self.n_features_in_ = typical_length(seqs)
        chosen = [seqs[i] for i in support]
        offsets = np.zeros(len(chosen) + 1, dtype=np.int64)
        np.cumsum([x.size for x in chosen], out=offsets[1:])
        codes = np.concatenate(chosen) if chosen else np.zeros(0, np.uint8)
        self._restore(
            {"support_codes": codes, "support_offsets": offsets, "dual_coef": coef}
        )

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

    def _score(self, X: ArrayLike) -> np.ndarray:
        """Scores from the explicit weights (`gapped_weights` or the l-mer table)."""
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

    def lmer_table(self) -> np.ndarray:
        """The un-normalised l-mer table ``f`` (`poimkit.additive.LmerTable`)."""
        return self._lmer_table()

    @fill_doc(LMER_TABLE, parameters=("codes", "offsets"))
    def record_factors(self, codes: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """``a(x)``: the factor of records ``codes[offsets[i]:offsets[i + 1]]``.

        %(parameters)s
        """
        lengths = np.diff(offsets).astype(np.float64)
        return 1.0 / self._scale(lengths - self.l + 1.0)

    def _lmer_table(self) -> np.ndarray:
        """Un-normalised weight of every l-mer window, both strands (cached).

        ``f = c * h``: the coefficient-weighted l-mer counts c of the support
        sequences convolved with ``h(u, v) = C(l - d(u, v), k)``. Reading a
        letter as two bits, h is a function of ``u XOR v``, so the
        Walsh-Hadamard transform H diagonalises it: ``f = H (lambda H c)``
        with ``lambda(s) = C(l - w, k - w) / 4**k``, w the number of letters
        where s is non-zero (0 for w > k); see `poimkit.svm.gkm_solver.LmerGram`.
        """
        if self._lmers is None:
            if self.l > MAX_LMER_TABLE:
                raise InputError(
                    f"l-mer weights need a table of 4**l numbers; l = {self.l} is "
                    f"above the supported {MAX_LMER_TABLE}"
                )
            seqs = self.support_sequences()
            gram = LmerGram(
                seqs,
                self._scale(windows(seqs, self.l)),
                self.l,
                self.k,
                self.reverse_complement,
                self.n_threads,
            )
            self._lmers = gram.table(self.dual_coef_)
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


@fill_doc(PARAMETERS, parameters=("gkm", "class_weight"))
@dataclass(eq=False, repr=False, kw_only=True)
class GkmSVC(GkmExpansion, SequenceSpaceSolver, WDClassifierBase):
    """Support vector classifier with the position-free gapped k-mer kernel.

    For regulatory DNA: motifs anywhere, on either strand, with mismatches,
    in records of different lengths (ChIP-seq and ATAC-seq peaks). Unlike
    LS-GKM, every prediction decomposes exactly into l-mer (and gapped
    k-mer) weights, so POIMs and FIRM are exact.

    %(parameters)s

    Attributes
    ----------
    classes_ : numpy.ndarray of shape (2,)
    %(gkm_fitted)s

    Notes
    -----
    The kernel solver's ``intercept_`` is libsvm's, except where every
    training record lies inside the margin (at a small ``C``): the class
    counts alone then set libsvm's, and it is placed halfway between the two
    classes' median scores of the training records scored as if held out
    (`poimkit.svm.intercept`), so that ``predict`` labels well without a
    calibration.

    Examples
    --------
    >>> from poimkit.datasets import make_gattaca
    >>> X, y = make_gattaca(n_pos=40, n_neg=40, length=30, random_state=0)
    >>> clf = GkmSVC(l=6, k=4).fit(X, y)
    >>> clf.decision_function(["ACGTACGTAC", "GATTACAGATTACA"]).shape
    (2,)
    """

    recorded_params = ("l", "k", "reverse_complement", "C", "normalize")

    _model_format = "poimkit.GkmSVC"

    class_weight: dict | str | None = None

    def _check_params(self) -> None:
        self._check_gkm_params()
        self._check_solver()

    def _targets(self, seqs, y) -> tuple[np.ndarray, np.ndarray]:
        """The class indices and their signs (-1, 1); sets ``classes_``."""
        self.classes_, y_index = _labels(seqs, y)
        return y_index, 2.0 * y_index - 1.0

    def _libsvm(self) -> SVC:
        return SVC(
            kernel="precomputed", C=self.C, tol=self.tol, class_weight=self.class_weight
        )

    def _intercept(self, svm: SVC, K: np.ndarray, target: np.ndarray) -> float:
        """Libsvm's intercept, moved where the hinge loss leaves it free."""
        return svc_intercept(svm, K, target)

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
        return self._fit_sequences(self._sequences(X), y)

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
        return self._score(X)


@fill_doc(PARAMETERS, parameters=("gkm", "epsilon"))
@dataclass(eq=False, repr=False, kw_only=True)
class GkmSVR(GkmExpansion, SequenceSpaceSolver, KernelRegressorBase):
    """Support vector regression with the position-free gapped k-mer kernel.

    The regression counterpart of `GkmSVC` (gkmsvm-lite's ``train_gkmsvr``,
    LS-GKM's regression), for continuous targets (MPRA or STARR-seq activity,
    ChIP signal) on records of any lengths: `~sklearn.svm.SVR`
    (epsilon-insensitive loss) on the n x n kernel matrix, or for large sets
    the L2-loss SVR (squared epsilon-insensitive loss, LIBLINEAR's) by L-BFGS
    through the l-mer table, as `GkmSVC`'s linear solver. Its prediction is a
    sum of l-mer (and gapped k-mer) weights, so POIMs are exact.

    %(parameters)s

    Attributes
    ----------
    %(gkm_fitted)s

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 4, size=(60, 30), dtype=np.uint8)
    >>> reg = GkmSVR(l=5, k=3).fit(X, rng.normal(size=60))
    >>> reg.predict(["ACGTACGTAC", "GATTACAGATTACA"]).shape
    (2,)
    """

    recorded_params = ("l", "k", "reverse_complement", "C", "epsilon", "normalize")

    _model_format = "poimkit.GkmSVR"
    _saved_params = {**GkmExpansion._saved_params, "epsilon": float}
    #: the linear solver's loss (`poimkit.svm.linear.losses.score_terms`)
    _linear_loss = "squared_epsilon_insensitive"

    epsilon: float = 0.1

    def _check_params(self) -> None:
        self._check_gkm_params()
        check_nonnegative(self.epsilon, "epsilon")
        self._check_solver()

    def fit(self, X: ArrayLike, y: ArrayLike) -> GkmSVR:
        """Train the SVR and build its explicit weights (as `GkmSVC.fit`).

        Parameters
        ----------
        X : list of str, list of code arrays, or 2-D code array
            Sequences of any lengths, each at least ``l`` letters.
        y : array-like of shape (n_samples,)
            Finite real targets, one per sequence.

        Returns
        -------
        self
        """
        seqs, y = self._training_data(X, y, self._sequences)
        return self._fit_sequences(seqs, y)

    def _targets(self, seqs, y) -> tuple[np.ndarray, np.ndarray]:
        """The targets, checked, for both solvers."""
        y = check_continuous_target(y, len(seqs))
        return y, y

    def _libsvm(self) -> SVR:
        return SVR(kernel="precomputed", C=self.C, epsilon=self.epsilon, tol=self.tol)

    def _intercept(self, svm: SVR, K: np.ndarray, target: np.ndarray) -> float:
        """Libsvm's intercept."""
        return float(svm.intercept_[0])


def _labels(seqs: list[np.ndarray], y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The two classes and every record's class index (checked against ``seqs``)."""
    y = check_binary_target(y, "GkmSVC")
    if len(seqs) != y.shape[0] or y.ndim != 1:
        raise InputError(
            f"y has shape {y.shape} but X has {len(seqs)} sequences; y must be "
            "one label per sequence"
        )
    return np.unique(y, return_inverse=True)
