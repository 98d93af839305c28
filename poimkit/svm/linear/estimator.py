"""`WDLinearSVC`: the WD / WDS SVM trained in feature space, for many sequences."""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted
from tqdm.auto import tqdm

from ..._threads import numba_threads
from ..._validation import (
    check_binary_target,
    check_choice,
    check_int,
    check_real,
    check_sequences,
    check_shift,
)
from ...errors import InputError
from ...kernels.explicit import KmerWeights
from ...kernels.wd import wd_diagonal, wd_normalizer
from .._base import WDClassifierBase, optional_float, optional_int
from . import keys
from ._dualcd import dual_cd, row_sqnorm
from .backend import DaskBackend, LocalBackend, chunk_pass, collision_stats
from .dask import open_client
from .data import ChunkedData, from_fasta_pair, is_fasta_pair
from .keys import MEMORY_FRACTION, VECTOR_COPIES, PresentKeys, collect_present_keys
from .layout import (
    DEFAULT_EXACT_SIZE,
    DEFAULT_HASH_BITS,
    FeatureLayout,
    make_layout,
    order_columns,
)
from .lbfgs import minimize
from .losses import LOSSES, loss_terms
from .private import materialise
from .weights import explicit_kmer_weights


class WDLinearSVC(WDClassifierBase):
    """Weighted-degree (WD / WDS) SVM trained in feature space; no kernel matrix.

    The WD / WDS kernel of `poimkit.WDKernelSVC` (same ``beta_k``, ``delta_s``
    and normalisation) as an explicit feature map: orders whose positional
    k-mer table is small are indexed densely, longer ones through an exact
    table of the positional k-mers present in the training data (hashed only
    if that table would exceed the memory budget). A primal
    solver computes the features on the fly from the integer codes, chunk by
    chunk (never a feature or kernel matrix), so time grows linearly with the
    number of sequences and memory with the weight vector. The model is the
    learned weight vector: the same feature map scores new sequences.

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
        L2-loss SVM or logistic regression, both by primal L-BFGS (local or
        Dask); or the L1-loss SVM of `WDKernelSVC` by liblinear's dual
        coordinate descent (in memory, this process only; the bias is
        regularised as a feature of value 1; ``tol`` is the projected-gradient
        spread and ``max_iter`` counts epochs).
    tol : float or None, default=None
        Stop when ``||grad F(w)|| <= tol * ||grad F(0)||`` (see Notes). None:
        liblinear's defaults, 0.01 for the L-BFGS losses and 0.1 for the
        hinge's dual coordinate descent.
    max_iter : int, default=300
        Largest number of L-BFGS iterations (2 data passes each).
    normalize : bool, default=True
        Divide the kernel by the constant of `poimkit.kernels.wd.wd_normalizer`,
        as `WDKernelSVC` does.
    exact_size : int, default=2**20
        Orders ``k`` with ``(L - k + 1) * 4**k <= exact_size`` are indexed
        densely (a table of every positional k-mer); higher orders are sparse
        or hashed (``sparse``).
    sparse : bool, default=True
        Index the orders above ``exact_size`` exactly through a table of the
        positional k-mers present in the training data (an extra pass over
        the data before training), as long as training on it fits in
        `poimkit.svm.linear.keys.MEMORY_FRACTION` (25 %) of the RAM; the
        orders that do not fit are hashed, with a warning. False: hash every
        order above ``exact_size`` (the model of poimkit 0.x before the table).
    hash_bits : int, default=10
        A hashed order gets ``2**hash_bits`` columns per position. More bits
        mean fewer collisions but a larger weight vector and slower passes:
        on the planted-motif data of ``benchmarks/bench_scale.py`` (n = 10^5,
        L = 141, degree 20) the test AUC was 0.997 for 8, 10, 12 and 14 bits,
        and the fit took 13, 18, 43 and 119 s.
    chunk_size : int, default=65536
        Sequences per chunk (streaming and Dask unit of work). Results are
        the same for the local and the Dask backend with the same
        ``chunk_size``.
    random_state : int or None, default=None
        Seed of the hash function and of the dual coordinate descent's order
        (None: 0, so that fits are reproducible).
    n_threads : int or None, default=None
        numba threads for the local passes and for scoring.
    verbose : bool, default=False
        Show a progress bar of the solver's iterations.

    Attributes
    ----------
    classes_ : numpy.ndarray of shape (2,)
    coef_ : numpy.ndarray of float64, shape (n_columns,)
        Weights of the feature map (layout in `poimkit.svm.linear.layout`).
    intercept_ : float
    kernel_scale_ : float
    length_, n_features_in_ : int
    n_exact_orders_ : int
        Orders indexed exactly (1..n_exact_orders_, dense or sparse); the
        rest are hashed.
    n_present_keys_ : int
        Features ``(k, r, y)`` of the sparse orders: those present in the
        training data.
    table_bytes_ : int
        Estimated memory of training on the feature map (weight-sized vectors
        and lookup tables).
    hashed_by_budget_ : bool
        True if orders were hashed because their exact table would not fit
        the memory budget.
    n_support_ : numpy.ndarray of shape (2,)
        Training sequences of each class with a non-zero dual coefficient
        (on or inside the margin).
    n_iter_ : int
        L-BFGS iterations (dual coordinate descent: epochs) run.
    converged_ : bool
    grad_norm_ : float
        Final ``||grad F|| / ||grad F(0)||`` (NaN for the hinge).
    objective_ : float
        Final value of F (dual objective for the hinge).
    collision_rate_ : float
        Of the hashed buckets the training k-mers occupy, the fraction holding
        two or more distinct positional k-mers (0.0 if nothing is hashed).
    n_hashed_buckets_ : int
        Occupied hashed buckets.

    Notes
    -----
    *Feature map.* ``<phi(x), phi(x')> = k(x, x') / scale`` exactly, for WD and
    WDS (banded Cholesky factor of the shift matrix, see
    `poimkit.svm.linear.layout`), when no order is hashed; the model then is the
    SVM of `WDKernelSVC` with the chosen loss (for the hinge, with a
    regularised bias), and `explicit_weights` gives its exact positional
    k-mer weights, the input of `poimkit.compute_poim`. Hashed orders give
    every k-mer a weight (that of its bucket, with a sign), so a hashed model
    has no sparse explicit weights: its POIMs can only be sampled
    (`poimkit.poim.sampled_poim`), or train an exact model (lower degree) or
    `WDKernelSVC` on up to about 20,000 sequences.

    *The exact sparse table.* With L2 regularisation the optimal ``w`` is a
    combination of the training feature vectors (representer theorem), so a
    feature no training sequence has keeps weight 0, and indexing only the
    present ``(k, r, y)`` loses nothing (`poimkit.svm.linear.keys`): a first
    pass over the chunks collects them, order by order, into one
    open-addressing table per (order, position). Long k-mers are mostly
    private to one sequence; their optimal weights are proportional to that
    sequence's feature values, so they train as one column per sequence and
    the training table holds only the shared k-mers (4.3e5 for n = 10^4, L =
    141, degree 20, against 1.7e7 present); after training the private
    k-mers of the support sequences are written into the table
    (`poimkit.svm.linear.private`), so ``n_present_keys_`` (the fitted
    model's weights) grows like ``n_support * L * (degree - 6)``. A k-mer met
    first at prediction has weight 0, as in the L2 solution. Orders whose
    training table would not fit `poimkit.svm.linear.keys.MEMORY_FRACTION`
    (25 %) of the RAM are hashed, with a warning and ``hashed_by_budget_``;
    `poimkit.svm.linear.keys.estimate_train_bytes` estimates the need in
    advance. The training sequences' features in the table are looked up
    once and cached (`poimkit.svm.linear.cache`: 6 bytes per present
    feature, in what the table leaves of the budget), sorted so that a pass
    walks the table's weights in order; the passes then cost no more than
    hashing (training time against the hashed model in
    ``benchmarks/RESULTS.md``).

    *Solver and stopping rule.* L-BFGS (10 pairs) with an exact line search on
    the convex, smooth ``F`` (strongly convex in ``w``); stop at ``||grad
    F(w_t)|| <= tol ||grad F(0)||`` (liblinear's primal rule). Objective and
    gradient are sums over chunks in a fixed order, which makes the Dask
    backend (``fit(..., client=...)``) follow the same iterates as this
    process for the same ``chunk_size``: the weights are bitwise equal.

    *Memory.* L-BFGS runs in sequence space (`poimkit.svm.linear.lbfgs`): its
    10 pairs are vectors of n entries, and weight-sized vectors are held only
    by the gradient passes (about log2 of the number of chunks, plus one) and
    for the result (the memory budget still reserves ``keys.VECTOR_COPIES`` of
    them). ``n_columns`` is about ``L * (4**K + (degree - K) * 2**hash_bits)``
    for K dense orders and the rest hashed (2.6 million for L = 141, degree 20:
    21 MB per vector); add the present keys of the sparse orders
    (``n_present_keys_``, ``table_bytes_``) and their item cache. The
    sequences are read chunk by chunk (a FASTA pair is streamed through a
    memory-mapped file).

    References
    ----------
    S. Sonnenburg and V. Franc. COFFIN: a computational framework for linear
    SVMs. ICML 2010. C.-J. Hsieh et al. A dual coordinate descent method for
    large-scale linear SVM. ICML 2008.

    Examples
    --------
    >>> from poimkit.datasets import make_gattaca
    >>> X, y = make_gattaca(n_pos=60, n_neg=60, random_state=0)
    >>> clf = WDLinearSVC(degree=8, loss="logistic").fit(X, y)
    >>> clf.n_exact_orders_, clf.converged_  # orders 7, 8: present k-mers only
    (8, True)
    """

    _model_format = "poimkit.WDLinearSVC"
    # version 2 adds ``sparse`` and the present keys of the sparse orders;
    # version 1 files (no sparse orders) load as sparse=False
    _format_version = 2
    _old_versions = (1,)
    _saved_defaults = {"sparse": False}
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
        "sparse": bool,
        "chunk_size": int,
        "random_state": optional_int,
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
        sparse: bool = True,
        chunk_size: int = 65536,
        random_state: int | None = None,
        n_threads: int | None = None,
        verbose: bool = False,
    ) -> None:
        self._keep_params(locals())

    # ------------------------------------------------------------- validation
    def _check_params(self) -> None:
        self._check_wd_params()
        if self.tol is not None:
            check_real(self.tol, "tol", 0)
        check_choice(self.loss, "loss", LOSSES)
        check_int(self.max_iter, "max_iter", 1)
        check_int(self.exact_size, "exact_size", 1)
        check_int(self.hash_bits, "hash_bits", 1, 30)
        if not isinstance(self.sparse, bool | np.bool_):
            raise InputError(f"sparse must be True or False, got {self.sparse!r}")
        check_int(self.chunk_size, "chunk_size", 1)
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
    def fit(
        self,
        X: ArrayLike | tuple[str, str],
        y: ArrayLike | None = None,
        *,
        client: object = None,
        **read_options: object,
    ) -> WDLinearSVC:
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
        if self.loss == "hinge" and client is not None:
            raise InputError(
                "loss='hinge' uses dual coordinate descent, which is sequential: "
                "use loss='squared_hinge' or 'logistic' with client="
            )
        classes, y_index = np.unique(data.y, return_inverse=True)
        n, length = data.X.shape
        check_shift(self.shift, length)
        chunks = data.chunks
        self.length_ = self.n_features_in_ = length
        self.kernel_scale_ = self._scale(chunks, n)
        # the local L-BFGS backend's item caches, made while collecting the keys
        items = [] if client is None and self.loss != "hinge" else None
        self._present = self._present_keys(chunks, length, items)
        self._layout = None
        layout = self.layout_
        self.table_bytes_ = int(
            VECTOR_COPIES * 8 * (layout.n_columns + 1) + layout.tkeys.size * 12
        )
        occupied, shared = collision_stats(chunks, layout)
        self.n_hashed_buckets_ = occupied
        self.collision_rate_ = shared / occupied if occupied else 0.0
        y_sign = 2.0 * y_index - 1.0
        if self.loss == "hinge":
            w, support = self._solve_dual_cd(data, layout, y_sign)
        else:
            w, support = self._solve_lbfgs(chunks, layout, y_sign, client, items)
        self.classes_ = classes
        self.coef_ = w[:-1]
        if layout.n_private:  # private features with weight into the table
            # outside the support the exact private weight is 0 (L-BFGS leaves
            # rounding there, which would add every such sequence's k-mers)
            p0 = layout.private_offset
            w[p0 : p0 + layout.n_private][~support] = 0.0
            self._present, self.coef_ = materialise(chunks, layout, w[:-1])
            self._layout = None
        # the fitted lookup table is built at the first use of layout_
        self.n_present_keys_ = 0 if self._present is None else self._present.n_keys
        self.intercept_ = float(w[-1])  # bias feature of value 1
        self.n_support_ = np.bincount(y_index[support], minlength=2)
        self._weights = None
        return self

    def _solve_lbfgs(self, chunks, layout, y_sign, client, items=None):
        """Primal L-BFGS; returns the weights (bias last) and the support mask."""
        with (
            open_client(client) as dask_client,
            tqdm(
                desc="WDLinearSVC",
                unit=" iterations",
                disable=not self.verbose,
                leave=False,
            ) as bar,
        ):
            # the column caches take what the table leaves of the budget
            cache_budget = max(keys.memory_budget() - self.table_bytes_, 0)
            backend = (
                LocalBackend(chunks, layout, self.n_threads, cache_budget, items)
                if dask_client is None
                else DaskBackend(dask_client, chunks, layout, cache_budget)
            )

            def progress(n_iter: int, relative_gradient: float) -> None:
                bar.update()
                bar.set_postfix_str(f"|grad| {relative_gradient:.2e} -> {tol:g}")

            tol = self._tol(0.01)
            try:
                res = minimize(
                    backend,
                    y_sign,
                    float(self.C),
                    self.loss,
                    tol,
                    self.max_iter,
                    callback=progress,
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
                f"(relative gradient {self.grad_norm_:.2e} > tol={tol}); "
                "increase max_iter",
                ConvergenceWarning,
                stacklevel=4,
            )
        _, d1, _ = loss_terms(self.loss, y_sign * res.margins)
        return res.w, d1 != 0.0

    def _solve_dual_cd(self, data: ChunkedData, layout, y_sign):
        """Dual CD of liblinear (hinge); returns the weights and the support mask."""
        X = np.ascontiguousarray(data.X)  # dual CD visits rows at random
        w = np.zeros(layout.n_columns + 1)  # bias weight last (feature B = 1)
        qd = np.array([row_sqnorm(x, w, layout.fmap) for x in X]) + 1.0  # + B^2
        pnorm = layout.private_norm
        if pnorm.size:
            qd += pnorm**2
        else:
            pnorm = np.zeros(X.shape[0])  # no private columns: adds zeros
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
                pnorm,
                layout.private_offset if layout.n_private else 0,
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
        return w, alpha > 0.0

    def _present_keys(
        self, chunks, length: int, items: list | None = None
    ) -> PresentKeys | None:
        """The sparse orders' keys (None if every order is dense or not sparse)."""
        self.hashed_by_budget_ = False
        degree = min(self.degree, length)
        n_dense, dense_columns, _ = order_columns(
            length, degree, self.exact_size, self.hash_bits
        )
        if not self.sparse or n_dense >= degree:
            return None
        budget = keys.memory_budget()
        base = self._make_layout(None)
        present = collect_present_keys(
            chunks,
            degree,
            self.shift,
            n_dense + 1,
            dense_columns,
            budget,
            base.coef[:, None, None] * base.band,
            items,
        )
        n_exact = n_dense + present.n_orders
        if n_exact < degree:
            self.hashed_by_budget_ = True
            warnings.warn(
                f"WDLinearSVC: the exact table of the k-mers present in the data "
                f"does not fit the memory budget ({budget / 2**30:.1f} GiB, "
                f"{MEMORY_FRACTION:.0%} of the RAM) beyond order {n_exact}: orders "
                f"{n_exact + 1}..{degree} are hashed, so the model has no exact "
                "explicit weights or POIMs (use fewer sequences or a lower degree)",
                UserWarning,
                stacklevel=4,
            )
        return present

    def _tol(self, default: float) -> float:
        """``tol``, or liblinear's default for the solver if it is None."""
        return default if self.tol is None else float(self.tol)

    def _scale(self, chunks, n: int) -> float:
        if not self.normalize:
            return 1.0
        if self.shift == 0:  # the same for every sequence
            return float(wd_normalizer(chunks[0][:1], self.degree, 0))
        total = sum(
            float(wd_diagonal(X, self.degree, self.shift).sum()) for X in chunks
        )
        return total / n

    @property
    def layout_(self) -> FeatureLayout:
        """The feature map of the fitted model (built once, cached)."""
        if getattr(self, "_layout", None) is None:
            self._layout = self._make_layout(getattr(self, "_present", None))
        return self._layout

    def _make_layout(
        self, present: PresentKeys | None, lookup: bool = True
    ) -> FeatureLayout:
        return make_layout(
            self.length_,
            self.degree,
            self.shift,
            self.kernel_scale_,
            exact_size=self.exact_size,
            hash_bits=self.hash_bits,
            seed=0 if self.random_state is None else self.random_state,
            present=present,
            lookup=lookup,
        )

    @property
    def n_exact_orders_(self) -> int:
        """Orders indexed exactly (1..n_exact_orders_)."""
        return self.layout_.n_exact

    # ---------------------------------------------------------------- predict
    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Score sequences with the learned weights (positive: ``classes_[1]``).

        Parameters
        ----------
        X : array-like of int, shape (n_samples, length), or list of str
            Codes or strings, of the training length; scored chunk by chunk.

        Returns
        -------
        numpy.ndarray of shape (n_samples,)
            ``<coef_, phi(x)> + intercept_``.
        """
        X = self._fitted_codes(X)
        w = np.append(self.coef_, self.intercept_)
        with numba_threads(self.n_threads):
            return np.concatenate(
                [np.empty(0)]
                + [
                    chunk_pass(X[s : s + self.chunk_size], w, self.layout_, False)
                    for s in range(0, X.shape[0], self.chunk_size)
                ]
            )

    def explicit_weights(self) -> KmerWeights:
        """Exact positional k-mer weights, for a model without hashed orders.

        Returns
        -------
        KmerWeights
            ``explicit_weights().decision_function(X)`` equals
            ``decision_function(X)`` up to floating-point rounding.

        Raises
        ------
        InputError
            If orders are hashed: a hashed order gives every k-mer a weight.
        """
        check_is_fitted(self)
        self._check_kmer_length()
        # the columns suffice: no lookup table unless scoring has built it
        layout = getattr(self, "_layout", None) or self._make_layout(
            getattr(self, "_present", None), lookup=False
        )
        if layout.n_exact < layout.degree:
            why = (
                "their exact table did not fit the memory budget"
                if getattr(self, "hashed_by_budget_", False)
                else f"sparse={self.sparse}, exact_size={self.exact_size}"
            )
            raise InputError(
                f"this WDLinearSVC hashes the orders {layout.n_exact + 1}.."
                f"{layout.degree} ({why}), so it has no exact explicit weights or "
                f"POIMs: train with sparse=True, on fewer sequences or with degree <= "
                f"{layout.n_exact}, use WDKernelSVC (up to about 20,000 sequences), "
                "or sample the POIMs (poimkit.poim.sampled_poim)"
            )
        if getattr(self, "_weights", None) is None:
            self._weights = explicit_kmer_weights(self.coef_, layout, self.intercept_)
        return self._weights

    # ------------------------------------------------------------------ files
    def _fitted_arrays(self) -> dict[str, np.ndarray]:
        arrays = {"coef": self.coef_, "n_support": self.n_support_}
        present = self.layout_.present
        if present is not None:
            counts = np.zeros((present.n_orders, self.length_), dtype=np.int64)
            for o, count in enumerate(present.counts):
                counts[o, : count.size] = count
            arrays.update(
                sparse_first_order=np.int64(present.first_order),
                sparse_counts=counts,
                sparse_keys=np.concatenate(present.keys),
                hashed_by_budget=np.bool_(self.hashed_by_budget_),
            )
        return arrays

    def _restore(self, arrays) -> None:
        self._layout = None
        self._present = None
        self.hashed_by_budget_ = bool(arrays.get("hashed_by_budget", False))
        if "sparse_keys" in arrays:
            first = int(arrays["sparse_first_order"])
            counts = np.asarray(arrays["sparse_counts"], dtype=np.int64)
            keys = np.asarray(arrays["sparse_keys"], dtype=np.uint64)
            if counts.ndim != 2 or counts.sum() != keys.size or (counts < 0).any():
                raise InputError("sparse keys do not match their counts")
            n_pos = [self.length_ - k + 1 for k in range(first, first + len(counts))]
            bounds = np.cumsum([0] + [int(c.sum()) for c in counts])
            self._present = PresentKeys(
                first_order=first,
                counts=[c[:m] for c, m in zip(counts, n_pos, strict=True)],
                keys=[keys[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)],
            )
        self.n_present_keys_ = self.layout_.n_sparse_columns
        self.coef_ = np.ascontiguousarray(arrays["coef"], dtype=np.float64)
        self.n_support_ = np.asarray(arrays["n_support"], dtype=np.int64)
        if (
            self.coef_.shape != (self.layout_.n_columns,)
            or not np.isfinite(self.coef_).all()
            or self.n_support_.shape != (2,)
        ):
            raise InputError("weights do not match the model's feature map")
        self._weights = None
