"""What `WDLinearSVC` and `WDLinearSVR` share: the feature map, its solver, files.

`FeatureSpaceModel` holds the explicit (partly hashed) WD / WDS feature map
of the fitted model, the primal L-BFGS on it (`poimkit.svm.linear.lbfgs`,
with the loss of the host: ``_solver_loss`` and ``_epsilon``), scoring,
exact explicit weights and the model files' arrays; the hosts add their
parameters, targets and ``n_support_`` (``_n_support_size`` entries).
"""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted
from tqdm.auto import tqdm

from ..._threads import numba_threads
from ..._validation import check_int, check_real, check_shift
from ...errors import InputError
from ...kernels.explicit import KmerWeights
from ...kernels.wd import wd_diagonal, wd_normalizer
from . import table
from .chunks import ChunkedData
from .dask import open_client
from .layout import FeatureLayout, make_layout, order_columns
from .lbfgs import minimize
from .losses import score_terms
from .passes import DaskBackend, LocalBackend, chunk_pass, collision_stats
from .private_kmers import materialise
from .table import MEMORY_FRACTION, VECTOR_COPIES, PresentKeys, collect_present_keys
from .weights import explicit_kmer_weights


class FeatureSpaceModel:
    """The WD / WDS model as a weight vector over the explicit feature map.

    Mixed into `WDLinearSVC` and `WDLinearSVR` (see their Notes).
    """

    #: entries of ``n_support_`` (one per class, or one)
    _n_support_size = 2
    #: half-width of the regression loss's tube (the regressor's field)
    epsilon: float = 0.0

    def _check_feature_params(self) -> None:
        """Check the parameters of the kernel, the feature map and the solver."""
        self._check_wd_params()
        if self.tol is not None:
            check_real(self.tol, "tol", 0)
        check_int(self.max_iter, "max_iter", 1)
        check_int(self.exact_size, "exact_size", 1)
        check_int(self.hash_bits, "hash_bits", 1, 30)
        if not isinstance(self.sparse, bool | np.bool_):
            raise InputError(f"sparse must be True or False, got {self.sparse!r}")
        check_int(self.chunk_size, "chunk_size", 1)
        if self.random_state is not None:
            check_int(self.random_state, "random_state", 0)

    def _solver_loss(self) -> str:
        """The loss of `poimkit.svm.linear.losses.score_terms`."""
        return self.loss

    def _epsilon(self) -> float:
        """Half-width of the regression loss's tube (0 for the classifier)."""
        return float(self.epsilon)

    def _fit_features(self, data: ChunkedData, y: np.ndarray, client) -> np.ndarray:
        """Build the feature map and train on it; returns the support mask.

        ``y``: the solver's targets (labels in {-1, +1}, or real targets).
        """
        n, length = data.X.shape
        check_shift(self.shift, length)
        chunks = data.chunks
        self.length_ = self.n_features_in_ = length
        self.kernel_scale_ = self._scale(chunks, n)
        # the local L-BFGS backend's item caches, made while collecting the keys
        items = [] if client is None and self._solver_loss() != "hinge" else None
        self._present = self._present_keys(chunks, length, items)
        self._layout = None
        layout = self.layout_
        self.table_bytes_ = int(
            VECTOR_COPIES * 8 * (layout.n_columns + 1) + layout.tkeys.size * 12
        )
        occupied, shared = collision_stats(chunks, layout)
        self.n_hashed_buckets_ = occupied
        self.collision_rate_ = shared / occupied if occupied else 0.0
        w, support = self._solve(data, layout, y, client, items)
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
        self._weights = None
        return support

    def _solve(self, data: ChunkedData, layout, y, client, items):
        """The solver: primal L-BFGS (the classifier adds dual CD)."""
        return self._solve_lbfgs(data.chunks, layout, y, client, items)

    def _solve_lbfgs(self, chunks, layout, y, client, items=None):
        """Primal L-BFGS; returns the weights (bias last) and the support mask."""
        name = type(self).__name__
        with (
            open_client(client) as dask_client,
            tqdm(
                desc=name,
                unit=" iterations",
                disable=not self.verbose,
                leave=False,
            ) as bar,
        ):
            # the column caches take what the table leaves of the budget
            cache_budget = max(table.memory_budget() - self.table_bytes_, 0)
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
                    y,
                    float(self.C),
                    self._solver_loss(),
                    tol,
                    self.max_iter,
                    callback=progress,
                    epsilon=self._epsilon(),
                )
            finally:
                backend.close()
        self.n_iter_ = res.n_iter
        self.converged_ = bool(res.converged)
        self.grad_norm_ = res.grad_norm / res.grad_norm0 if res.grad_norm0 else 0.0
        self.objective_ = res.objective
        if not self.converged_:
            warnings.warn(
                f"{name} did not converge in max_iter={self.max_iter} iterations "
                f"(relative gradient {self.grad_norm_:.2e} > tol={tol}); "
                "increase max_iter",
                ConvergenceWarning,
                stacklevel=4,
            )
        _, d1, _ = score_terms(self._solver_loss(), res.margins, y, self._epsilon())
        return res.w, d1 != 0.0

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
        budget = table.memory_budget()
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
                f"{type(self).__name__}: the exact table of the k-mers present in "
                f"the data does not fit the memory budget ({budget / 2**30:.1f} GiB, "
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

    def _score(self, X: ArrayLike) -> np.ndarray:
        """``<coef_, phi(x)> + intercept_`` of sequences of the training length.

        Scored chunk by chunk: the classifier's ``decision_function``, the
        regressor's ``predict``.
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
                if self.hashed_by_budget_
                else f"sparse={self.sparse}, exact_size={self.exact_size}"
            )
            raise InputError(
                f"this {type(self).__name__} hashes the orders {layout.n_exact + 1}.."
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
            or self.n_support_.shape != (self._n_support_size,)
        ):
            raise InputError("weights do not match the model's feature map")
        self._weights = None
