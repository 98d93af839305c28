"""`WDLinearSVC`: the WD / WDS SVM trained in feature space, for many sequences."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from sklearn.exceptions import ConvergenceWarning

from ..._threads import numba_threads
from ..._validation import (
    check_binary_target,
    check_choice,
    check_sequences,
)
from ...errors import InputError
from ...param_docs import fill_doc
from .._base import WDClassifierBase, WDParams, optional_float, optional_int
from ._dualcd import dual_cd, row_sqnorm
from .chunks import ChunkedData, from_fasta_pair, is_fasta_pair
from .layout import (
    DEFAULT_EXACT_SIZE,
    DEFAULT_HASH_BITS,
)
from .losses import LOSSES
from .model import FeatureSpaceModel

#: the docs of the parameters `WDLinearSVC` and `WDLinearSVR` share
PARAMETERS = {
    "wd_linear": """
degree : int, default=20
    Longest k-mer (WD degree d).
shift : int, default=0
    WDS maximal shift S (0: plain WD).
C : float, default=1.0
    Regularisation: ``F(w, b) = 0.5 ||w||^2 + C sum_i loss_i`` with ``f(x) =
    <w, phi(x)> + b`` (b not penalised).
normalize : bool, default=True
    Divide the kernel by the constant of `poimkit.kernels.wd.wd_normalizer`,
    as `WDKernelSVC` does.
n_threads : int or None, default=None
    numba threads for the local passes and for scoring.
tol : float or None, default=None
    Stop when ``||grad F(w)|| <= tol * ||grad F(0)||`` (see `WDLinearSVC`'s
    Notes). None: liblinear's defaults, 0.01 for the L-BFGS losses and 0.1
    for the hinge's dual coordinate descent.
max_iter : int, default=300
    Largest number of L-BFGS iterations (2 data passes each).
exact_size : int, default=2**20
    Orders ``k`` with ``(L - k + 1) * 4**k <= exact_size`` are indexed
    densely (a table of every positional k-mer); higher orders are sparse
    or hashed (``sparse``).
hash_bits : int, default=10
    A hashed order gets ``2**hash_bits`` columns per position. More bits
    mean fewer collisions but a larger weight vector and slower passes
    (accuracy and fit time by bits: ``benchmarks/RESULTS.md``).
sparse : bool, default=True
    Index the orders above ``exact_size`` exactly through a table of the
    positional k-mers present in the training data (an extra pass over
    the data before training), as long as training on it fits in
    `poimkit.svm.linear.table.MEMORY_FRACTION` (25 %) of the RAM; the
    orders that do not fit are hashed, with a warning. False: hash every
    order above ``exact_size`` (the model of poimkit 0.x before the table).
chunk_size : int, default=65536
    Sequences per chunk (streaming and Dask unit of work). Results are
    the same for the local and the Dask backend with the same
    ``chunk_size``.
random_state : int or None, default=None
    Seed of the hash function and of the dual coordinate descent's order
    (None: 0, so that fits are reproducible).
verbose : bool, default=False
    Show a progress bar of the solver's iterations.
""",
    "loss": """
loss : {"squared_hinge", "logistic", "hinge"}, default="squared_hinge"
    `WDLinearSVC` only. L2-loss SVM or logistic regression, both by primal
    L-BFGS (local or Dask); or the L1-loss SVM of `WDKernelSVC` by
    liblinear's dual coordinate descent (in memory, this process only; the
    bias is regularised as a feature of value 1; ``tol`` is the
    projected-gradient spread and ``max_iter`` counts epochs).
""",
}


@dataclass(eq=False, repr=False, kw_only=True)
class WDLinearParams(WDParams):
    """The parameters `WDLinearSVC` and `WDLinearSVR` share (``PARAMETERS``).

    `poimkit.svm._base.WDParams` and these dataclass fields; the classifier
    adds ``loss``, the regressor ``epsilon``.

    Attributes
    ----------
    tol, max_iter, exact_size, hash_bits, sparse, chunk_size, random_state, verbose
        As in `WDLinearSVC`.
    """

    tol: float | None = None
    max_iter: int = 300
    exact_size: int = DEFAULT_EXACT_SIZE
    hash_bits: int = DEFAULT_HASH_BITS
    sparse: bool = True
    chunk_size: int = 65536
    random_state: int | None = None
    verbose: bool = False

    #: what `save` writes and `load` reads, with the classifier's ``loss`` or
    #: the regressor's ``epsilon``
    _saved_params = {
        **WDParams._saved_params,
        "tol": optional_float,
        "max_iter": int,
        "exact_size": int,
        "hash_bits": int,
        "sparse": bool,
        "chunk_size": int,
        "random_state": optional_int,
    }


@fill_doc(PARAMETERS, parameters=("wd_linear", "loss"))
@dataclass(eq=False, repr=False, kw_only=True)
class WDLinearSVC(WDLinearParams, FeatureSpaceModel, WDClassifierBase):
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

    %(parameters)s

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
    present ``(k, r, y)`` loses nothing (`poimkit.svm.linear.table`): a first
    pass over the chunks collects them, order by order, into one
    open-addressing table per (order, position). Long k-mers are mostly
    private to one sequence; their optimal weights are proportional to that
    sequence's feature values, so they train as one column per sequence and
    the training table holds only the shared k-mers (4.3e5 for n = 10^4, L =
    141, degree 20, against 1.7e7 present); after training the private
    k-mers of the support sequences are written into the table
    (`poimkit.svm.linear.private_kmers`), so ``n_present_keys_`` (the fitted
    model's weights) grows like ``n_support * L * (degree - 6)``. A k-mer met
    first at prediction has weight 0, as in the L2 solution. Orders whose
    training table would not fit `poimkit.svm.linear.table.MEMORY_FRACTION`
    (25 %) of the RAM are hashed, with a warning and ``hashed_by_budget_``;
    `poimkit.svm.linear.table.estimate_train_bytes` estimates the need in
    advance. The training sequences' features in the table are looked up
    once and cached (`poimkit.svm.linear.cache`: 6 bytes per present
    feature, in what the table leaves of the budget), sorted so that a pass
    walks the table's weights in order; the passes then cost no more than
    hashing (training time against the hashed model in
    ``benchmarks/RESULTS.md``).

    *Solver and stopping rule.* L-BFGS (60 pairs) with an exact line search on
    the convex, smooth ``F`` (strongly convex in ``w``); stop at ``||grad
    F(w_t)|| <= tol ||grad F(0)||`` (liblinear's primal rule). Objective and
    gradient are sums over chunks in a fixed order, which makes the Dask
    backend (``fit(..., client=...)``) follow the same iterates as this
    process for the same ``chunk_size``: the weights are bitwise equal.

    *Memory.* L-BFGS runs in sequence space (`poimkit.svm.linear.lbfgs`): its
    pairs are vectors of 2 (n + 1) entries (fewer pairs above 2 GiB), and
    weight-sized vectors are held only by the gradient passes (about log2 of
    the number of chunks, plus one) and for the result (the memory budget still
    reserves ``table.VECTOR_COPIES`` of them). ``n_columns`` is about
    ``L * (4**K + (degree - K) * 2**hash_bits)`` for K dense orders and the
    rest hashed (2.6 million for L = 141, degree 20: 21 MB per vector); add
    the present keys of the sparse orders (``n_present_keys_``,
    ``table_bytes_``) and their item cache. The
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

    recorded_params = ("degree", "shift", "C", "normalize")

    _model_format = "poimkit.WDLinearSVC"
    # version 2 adds ``sparse`` and the present keys of the sparse orders;
    # version 1 files (no sparse orders) load as sparse=False
    _format_version = 2
    _old_versions = (1,)
    _saved_defaults = {"sparse": False}
    _saved_params = {**WDLinearParams._saved_params, "loss": str}

    loss: str = "squared_hinge"

    # ------------------------------------------------------------- validation
    def _check_params(self) -> None:
        self._check_feature_params()
        check_choice(self.loss, "loss", LOSSES)

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
        y_sign = 2.0 * y_index - 1.0
        support = self._fit_features(data, y_sign, client)
        self.classes_ = classes
        self.n_support_ = np.bincount(y_index[support], minlength=2)
        return self

    def _solve(self, data: ChunkedData, layout, y, client, items):
        if self.loss == "hinge":
            return self._solve_dual_cd(data, layout, y)
        return super()._solve(data, layout, y, client, items)

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
        return self._score(X)
