"""`WDLinearSVC`: the WD / WDS SVM trained in feature space, for many sequences."""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from .._threads import check_threads, numba_threads
from .._validation import check_int
from ..errors import InputError
from ..expansion import (
    WDExpansionClassifier,
    as_codes,
    check_binary_target,
    check_sequences,
    check_shift,
    optional_float,
)
from ..kernels import wd_diagonal, wd_normalizer
from ._dualcd import dual_cd, row_sqnorm
from .backend import DaskBackend, LocalBackend, collision_stats
from .dask import open_client
from .data import ChunkedData, from_fasta_pair, is_fasta_pair
from .layout import DEFAULT_EXACT_SIZE, DEFAULT_HASH_BITS, make_layout
from .lbfgs import minimize
from .losses import LOSSES, loss_terms


class WDLinearSVC(WDExpansionClassifier):
    """Weighted-degree (WD / WDS) SVM trained in feature space; no kernel matrix.

    The same model family as `poimkit.WDKernelSVC` (same kernel, ``beta_k``,
    ``delta_s`` and normalisation), trained by a primal L-BFGS solver whose
    passes compute the WD features on the fly from the integer codes, chunk by
    chunk. Memory grows with the weight vector, not with ``n**2``.

    Parameters
    ----------
    degree : int, default=20
        Longest k-mer (WD degree d).
    shift : int, default=0
        WDS maximal shift S (0: plain WD).
    C : float, default=1.0
        Regularisation: ``F(w, b) = 0.5 ||w||^2 + C sum_i loss(y_i f(x_i))``
        with ``f(x) = <w, phi(x)> + b`` (b not penalised).
    loss : {"squared_hinge", "logistic", "hinge"}, default="squared_hinge"
        L2-loss SVM (its dual coefficients are zero outside the margin, so the
        model stays sparse) or logistic regression, both by primal L-BFGS
        (local or Dask); or the L1-loss SVM of `WDKernelSVC` by liblinear's
        dual coordinate descent (in memory, this process only; bias regularised
        as a feature of value 1; ``tol`` is the projected-gradient spread and
        ``max_iter`` counts epochs).
    tol : float or None, default=None
        Stop when ``||grad F(w)|| <= tol * ||grad F(0)||`` (see Notes). None:
        liblinear's defaults, 0.01 for the L-BFGS losses and 0.1 for the
        hinge's dual coordinate descent.
    max_iter : int, default=300
        Largest number of L-BFGS iterations (2 data passes each).
    normalize : bool, default=True
        Divide the kernel by the constant of `poimkit.kernels.wd_normalizer`,
        as `WDKernelSVC` does.
    exact_size : int, default=2**20
        Orders ``k`` with ``(L - k + 1) * 4**k <= exact_size`` are indexed
        exactly during training; higher orders are hashed.
    hash_bits : int, default=10
        A hashed order gets ``2**hash_bits`` columns per position. More bits
        mean fewer collisions but a larger weight vector and slower passes
        (twice the time at 12 bits); on the planted-motif data of
        ``benchmarks/bench_scale.py`` (n = 10^5) the test AUC was 0.992, 0.984
        and 0.971 for 10, 12 and 14 bits: collisions act as a regulariser of
        the high orders, which a degree-20 model otherwise uses to memorise.
    chunk_size : int, default=65536
        Sequences per chunk (streaming and Dask unit of work). Results are
        bitwise equal between the local and the Dask backend for the same
        ``chunk_size``.
    random_state : int or None, default=None
        Seed of the hash function (None: 0, so that fits are reproducible).
    n_threads : int or None, default=None
        numba threads for the local passes.
    verbose : bool, default=False
        Print the gradient norm after every iteration.

    Attributes
    ----------
    classes_ : numpy.ndarray of shape (2,)
    support_vectors_ : numpy.ndarray of uint8, shape (n_SV, L)
        Training sequences with a non-zero dual coefficient.
    dual_coef_ : numpy.ndarray of shape (n_SV,)
        ``alpha_i y_i``: the model is ``w = sum_i dual_coef_i phi(x_i)``.
    intercept_ : float
    kernel_scale_ : float
    length_, n_features_in_ : int
    n_iter_ : int
        L-BFGS iterations run.
    converged_ : bool
    grad_norm_ : float
        Final ``||grad F|| / ||grad F(0)||``.
    objective_ : float
        Final value of F (in the hashed feature space).
    n_exact_orders_ : int
        Orders indexed exactly during training (1..n_exact_orders_).
    collision_rate_ : float
        Of the hashed buckets the training k-mers occupy, the fraction holding
        two or more distinct positional k-mers (0.0 if nothing is hashed).
    n_hashed_buckets_ : int
        Occupied hashed buckets.

    Notes
    -----
    *Feature map.* ``<phi(x), phi(x')> = k(x, x') / scale`` exactly, for WD and
    WDS (banded Cholesky factor of the shift matrix, see
    `poimkit.linear.layout`), as long as no order is hashed.

    *Exact model.* The solver minimises the primal ``F`` in the (partly hashed)
    feature space. Its final iterate gives the dual coefficients
    ``alpha_i y_i = -C loss'(y_i f_i) y_i`` (the representer theorem: at the
    optimum ``w = sum_i alpha_i y_i phi(x_i)``). The fitted model *is* that
    kernel expansion, evaluated with the exact (unhashed) WD/WDS kernel: ``s(x) = b +
    sum_i alpha_i y_i k(x_i, x) / scale``, with ``b`` the solver's bias (not
    regularised, as in `WDKernelSVC`). `explicit_weights` expands it exactly into
    positional k-mer weights, and `decision_function` scores with those weights, so
    POIMs are exact for the model that predicts. Hashing therefore only perturbs the
    optimisation problem (collisions add noise to the training margins), never the
    consistency of model, scores and POIMs.

    *Solver and stopping rule.* L-BFGS (10 pairs) with an exact line search on the
    convex, smooth ``F`` (strongly convex in ``w``); stop at ``||grad F(w_t)|| <= tol
    ||grad F(0)||`` (liblinear's primal rule). Objective and gradient are sums over
    chunks, which makes the Dask backend (``fit(..., client=...)``) follow the same
    iterates (tolerance: bitwise equal for the same ``chunk_size``).

    *Memory.* Training holds a few weight-sized vectors (10 L-BFGS pairs of
    ``n_columns`` floats) plus O(n) floats; the explicit weights hold one
    entry per distinct (order, position, k-mer) of the support vectors, which
    for high degrees grows like ``n_SV * L * degree`` entries of 16 bytes.

    Examples
    --------
    >>> from poimkit.datasets import make_gattaca
    >>> X, y = make_gattaca(n_pos=60, n_neg=60, random_state=0)
    >>> clf = WDLinearSVC(degree=8).fit(X, y)
    >>> clf.decision_function(X[:2]).shape
    (2,)
    """

    _model_format = "poimkit.WDLinearSVC"
    _saved_params = {
        "degree": int,
        "shift": int,
        "C": float,
        "loss": str,
        "tol": optional_float,
        "max_iter": int,
        "normalize": bool,
        "exact_size": int,
        "hash_bits": int,
        "chunk_size": int,
    }

    def __init__(
        self,
        degree: int = 20,
        shift: int = 0,
        C: float = 1.0,
        loss: str = "squared_hinge",
        tol: float | None = None,
        max_iter: int = 300,
        normalize: bool = True,
        exact_size: int = DEFAULT_EXACT_SIZE,
        hash_bits: int = DEFAULT_HASH_BITS,
        chunk_size: int = 65536,
        random_state: int | None = None,
        n_threads: int | None = None,
        verbose: bool = False,
    ) -> None:
        self.degree = degree
        self.shift = shift
        self.C = C
        self.loss = loss
        self.tol = tol
        self.max_iter = max_iter
        self.normalize = normalize
        self.exact_size = exact_size
        self.hash_bits = hash_bits
        self.chunk_size = chunk_size
        self.random_state = random_state
        self.n_threads = n_threads
        self.verbose = verbose

    # ------------------------------------------------------------- validation
    def _check_params(self) -> None:
        check_int(self.degree, "degree", 1)
        check_int(self.shift, "shift", 0)
        check_int(self.max_iter, "max_iter", 1)
        check_int(self.exact_size, "exact_size", 1)
        check_int(self.hash_bits, "hash_bits", 1, 30)
        check_int(self.chunk_size, "chunk_size", 1)
        check_threads(self.n_threads)
        if not isinstance(self.C, int | float | np.number) or not self.C > 0:
            raise InputError(f"C must be a number > 0, got {self.C!r}")
        if self.tol is not None and (
            not isinstance(self.tol, int | float | np.number) or not self.tol > 0
        ):
            raise InputError(f"tol must be None or a number > 0, got {self.tol!r}")
        if self.loss not in LOSSES:
            raise InputError(f"loss must be one of {LOSSES}, got {self.loss!r}")
        if self.random_state is not None:
            check_int(self.random_state, "random_state", 0)

    def _data(self, X, y, read_options: dict) -> ChunkedData:
        if is_fasta_pair(X):
            if y is not None:
                raise InputError(
                    "y must be None when X is a (positive, negative) FASTA pair: "
                    "the labels come from the files"
                )
            return from_fasta_pair(X[0], X[1], self.chunk_size, **read_options)
        if read_options:
            raise InputError(
                f"{', '.join(sorted(read_options))} apply to a (positive, negative) "
                "FASTA pair only"
            )
        y = check_binary_target(y, "WDLinearSVC")
        return ChunkedData(X=check_sequences(X, y), y=y, chunk_size=self.chunk_size)

    # -------------------------------------------------------------------- fit
    def fit(self, X, y=None, *, client=None, **read_options) -> WDLinearSVC:
        """Train the linear WD SVM.

        Parameters
        ----------
        X : array-like of int, shape (n_samples, length), list of str, or a
            ``(positive_fasta, negative_fasta)`` pair of paths
            A path pair is streamed: read once, chunk by chunk, into a
            temporary memory-mapped file that the passes read chunk by chunk.
        y : array-like of shape (n_samples,), or None for a FASTA pair
            Exactly two distinct labels.
        client : dask.distributed.Client, str or None
            Run the data passes on a Dask cluster: a ``Client``, a scheduler
            address, or ``"local"`` for an embedded ``LocalCluster`` that is
            closed after fitting. None: this process.
        **read_options
            ``on_invalid`` and ``crop_length`` of `poimkit.read_fasta`, for a
            FASTA pair.

        Returns
        -------
        self
        """
        self._check_params()
        data = self._data(X, y, read_options)
        try:
            return self._fit(data, client)
        finally:
            data.close()

    def _fit(self, data: ChunkedData, client) -> WDLinearSVC:
        classes, y_index = np.unique(data.y, return_inverse=True)
        n, length = data.X.shape
        check_shift(self.shift, length)
        chunks = data.chunks
        scale = self._scale(chunks, n)
        layout = make_layout(
            length,
            self.degree,
            self.shift,
            scale,
            exact_size=self.exact_size,
            hash_bits=self.hash_bits,
            seed=0 if self.random_state is None else self.random_state,
        )
        self.n_exact_orders_ = layout.n_exact
        occupied, shared = collision_stats(chunks, layout)
        self.n_hashed_buckets_ = occupied
        self.collision_rate_ = shared / occupied if occupied else 0.0
        y_sign = 2.0 * y_index - 1.0
        if self.loss == "hinge":
            if client is not None:
                raise InputError(
                    "loss='hinge' uses dual coordinate descent, which is sequential: "
                    "use loss='squared_hinge' or 'logistic' with client="
                )
            support, dual, intercept = self._solve_dual_cd(data, layout, y_sign)
        else:
            support, dual, intercept = self._solve_lbfgs(chunks, layout, y_sign, client)
        self._set_expansion(
            classes, data.rows(support), dual[support], intercept, scale, length
        )
        return self

    def _solve_lbfgs(self, chunks, layout, y_sign, client):
        """Primal L-BFGS; returns the support mask, ``alpha_i y_i`` and the bias."""
        with open_client(client) as dask_client:
            backend = (
                LocalBackend(chunks, layout, self.n_threads)
                if dask_client is None
                else DaskBackend(dask_client, chunks, layout)
            )
            try:
                res = minimize(
                    backend,
                    y_sign,
                    float(self.C),
                    self.loss,
                    self._tol(0.01),
                    self.max_iter,
                    callback=self._report if self.verbose else None,
                )
            finally:
                backend.close()
        self.n_iter_ = res.n_iter
        self.converged_ = bool(res.converged)
        self.grad_norm_ = res.grad_norm / res.grad_norm0 if res.grad_norm0 else 0.0
        self.objective_ = res.objective
        if not self.converged_:
            warnings.warn(
                f"WDLinearSVC did not converge in max_iter={self.max_iter} iterations "
                f"(relative gradient {self.grad_norm_:.2e} > tol={self._tol(0.01)}); "
                "increase max_iter",
                ConvergenceWarning,
                stacklevel=4,
            )
        _, d1, _ = loss_terms(self.loss, y_sign * res.margins)
        dual = -float(self.C) * d1 * y_sign  # alpha_i y_i (representer theorem)
        return dual != 0.0, dual, float(res.w[-1])  # the bias is not penalised

    def _solve_dual_cd(self, data: ChunkedData, layout, y_sign):
        """Dual CD of liblinear (hinge); returns support mask, ``alpha_i y_i``, bias."""
        X = np.ascontiguousarray(data.X)  # dual CD visits rows at random
        w = np.zeros(layout.n_columns + 1)
        qd = np.array([row_sqnorm(x, w, layout.fmap) for x in X]) + 1.0  # + B^2
        alpha = np.zeros(X.shape[0])
        with numba_threads(self.n_threads):
            epochs = dual_cd(
                X,
                y_sign,
                float(self.C),
                1.0,
                self._tol(0.1),
                self.max_iter,
                0 if self.random_state is None else self.random_state,
                qd,
                alpha,
                w,
                layout.fmap,
            )
        self.n_iter_ = int(epochs)
        self.converged_ = epochs < self.max_iter
        self.grad_norm_ = np.nan
        self.objective_ = float(0.5 * w @ w - alpha.sum())
        if not self.converged_:
            warnings.warn(
                f"WDLinearSVC (hinge) did not converge in max_iter={self.max_iter} "
                "epochs; increase max_iter",
                ConvergenceWarning,
                stacklevel=4,
            )
        dual = alpha * y_sign
        # the bias is a feature of value B = 1: b = B^2 sum_i alpha_i y_i
        return alpha > 0.0, dual, float(dual.sum())

    def _tol(self, default: float) -> float:
        """``tol``, or liblinear's default for the solver if it is None."""
        return default if self.tol is None else float(self.tol)

    @staticmethod
    def _report(n_iter: int, grad_norm: float) -> None:
        print(f"iteration {n_iter}: ||grad|| = {grad_norm:.4g}", flush=True)

    def _scale(self, chunks, n: int) -> float:
        if not self.normalize:
            return 1.0
        if self.shift == 0:  # the same for every sequence
            return float(wd_normalizer(chunks[0][:1], self.degree, 0))
        total = sum(
            float(wd_diagonal(X, self.degree, self.shift).sum()) for X in chunks
        )
        return total / n

    # ---------------------------------------------------------------- predict
    def decision_function(self, X) -> np.ndarray:
        """Score sequences with the explicit weights (positive: ``classes_[1]``).

        Parameters
        ----------
        X : array-like of int, shape (n_samples, length), or list of str

        Returns
        -------
        numpy.ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = self._check_length(as_codes(X))
        return self.explicit_weights().decision_function(X)
