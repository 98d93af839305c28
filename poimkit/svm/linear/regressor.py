"""`WDLinearSVR`: the WD / WDS L2-loss SVR trained in feature space."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..._validation import check_nonnegative
from ...param_docs import fill_doc
from .._base import KernelRegressorBase
from .chunks import ChunkedData
from .estimator import PARAMETERS, WDLinearParams
from .losses import REGRESSION_LOSS
from .model import FeatureSpaceModel


@fill_doc(PARAMETERS, parameters=("wd_linear", "epsilon"))
@dataclass(eq=False, repr=False, kw_only=True)
class WDLinearSVR(WDLinearParams, FeatureSpaceModel, KernelRegressorBase):
    """Weighted-degree (WD / WDS) support vector regression in feature space.

    The regression counterpart of `WDLinearSVC` (the same explicit feature
    map, primal L-BFGS and exact sparse table; see its Notes) for continuous
    targets on many sequences of one length: the L2-loss SVR of LIBLINEAR,

        F(w, b) = 0.5 ||w||^2 + C sum_i max(0, abs(y_i - f(x_i)) - epsilon)**2

    (bias not penalised). The model is a weight vector: ``predict`` is
    ``<coef_, phi(x)> + intercept_``, exactly the positional k-mer weights of
    `explicit_weights`, so POIMs are exact (no order hashed). `WDKernelSVR`
    trains the epsilon-insensitive SVR on the kernel matrix instead.

    %(parameters)s

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

    recorded_params = ("degree", "shift", "C", "epsilon", "normalize")

    _model_format = "poimkit.WDLinearSVR"
    _saved_params = {**WDLinearParams._saved_params, "epsilon": float}
    _n_support_size = 1

    epsilon: float = 0.1

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
