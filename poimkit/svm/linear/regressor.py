"""`WDLinearSVR`: the WD / WDS L2-loss SVR trained in feature space."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ..._validation import check_nonnegative
from .._base import KernelRegressorBase, optional_float, optional_int
from .chunks import ChunkedData
from .layout import DEFAULT_EXACT_SIZE, DEFAULT_HASH_BITS
from .losses import REGRESSION_LOSS
from .model import FeatureSpaceModel


class WDLinearSVR(FeatureSpaceModel, KernelRegressorBase):
    """Weighted-degree (WD / WDS) support vector regression in feature space.

    The regression counterpart of `WDLinearSVC` (the same explicit feature
    map, primal L-BFGS and exact sparse table; see its Notes) for continuous
    targets on many sequences of one length: the L2-loss SVR of LIBLINEAR,

        F(w, b) = 0.5 ||w||^2 + C sum_i max(0, |y_i - f(x_i)| - epsilon)**2

    (bias not penalised). The model is a weight vector: ``predict`` is
    ``<coef_, phi(x)> + intercept_``, exactly the positional k-mer weights of
    `explicit_weights`, so POIMs are exact (no order hashed). `WDKernelSVR`
    trains the epsilon-insensitive SVR on the kernel matrix instead.

    Parameters
    ----------
    degree : int, default=20
        Longest k-mer of the WD kernel.
    shift : int, default=0
        Largest positional shift (WDS); 0 for WD.
    C : float, default=1.0
        Regularisation.
    epsilon : float, default=0.1
        Half-width of the tube within which errors cost nothing.
    tol : float or None, default=None
        Stop at ``||grad F|| <= tol ||grad F(0)||`` (None: 0.01).
    max_iter : int, default=300
        Most L-BFGS iterations.
    normalize : bool, default=True
        Divide the kernel by its mean diagonal, as `WDKernelSVR`.
    exact_size, hash_bits, sparse, chunk_size, random_state, n_threads, verbose
        As in `WDLinearSVC`.

    Attributes
    ----------
    coef_ : numpy.ndarray of float64, shape (n_columns,)
    intercept_ : float
    kernel_scale_ : float
    length_, n_features_in_ : int
    n_support_ : numpy.ndarray of shape (1,)
        Training sequences outside the tube (non-zero dual coefficient).
    n_iter_ : int
    converged_ : bool
    grad_norm_, objective_ : float
    n_exact_orders_, n_present_keys_, table_bytes_, hashed_by_budget_ : as in
        `WDLinearSVC`.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 4, size=(80, 20), dtype=np.uint8)
    >>> reg = WDLinearSVR(degree=4).fit(X, (X[:, 3] == 2) + 0.1 * rng.normal(size=80))
    >>> reg.predict(X[:3]).shape, reg.converged_
    ((3,), True)
    """

    _model_format = "poimkit.WDLinearSVR"
    _saved_params = {
        "degree": int,
        "shift": int,
        "C": float,
        "epsilon": float,
        "tol": optional_float,
        "max_iter": int,
        "normalize": bool,
        "exact_size": int,
        "hash_bits": int,
        "sparse": bool,
        "chunk_size": int,
        "random_state": optional_int,
    }
    _n_support_size = 1

    def __init__(
        self,
        degree: int = 20,
        shift: int = 0,
        C: float = 1.0,
        epsilon: float = 0.1,
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

    def _solver_loss(self) -> str:
        return REGRESSION_LOSS

    def _check_params(self) -> None:
        self._check_feature_params()
        check_nonnegative(self.epsilon, "epsilon")

    def fit(self, X: ArrayLike, y: ArrayLike, *, client: object = None) -> WDLinearSVR:
        """Train the linear WD SVR.

        Parameters
        ----------
        X : array-like of int, shape (n_samples, length), or list of str
            Sequences of one length.
        y : array-like of shape (n_samples,)
            Finite real targets.
        client : dask.distributed.Client, str or None
            As in `WDLinearSVC.fit`.

        Returns
        -------
        self
        """
        X, y = self._training_data(X, y)
        data = ChunkedData(X=X, y=y, chunk_size=self.chunk_size)
        try:
            support = self._fit_features(data, y, client)
        finally:
            data.close()
        self.n_support_ = np.array([int(support.sum())])
        return self
