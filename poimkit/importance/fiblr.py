"""FIBLR: feature importance distributions from a binarized logistic regression.

Each feature's range is cut into bins and every (feature, bin) pair gets its own
intercept and slope. The per-feature part of the score, passed through the
sigmoid, is the feature's *importance distribution*: the probability of a class
as a function of that one feature's value.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import as_rng, check_int
from ..errors import InputError
from ..param_docs import parameters_from

__all__ = ["FIBLRClassifier"]

_STRATEGIES = ("quantile", "uniform")
_DENSE_LIMIT = 2_000_000  # entries of the design matrix below which it is dense
_FP_SLACK = 1e-12  # a loss "increase" this small is rounding, not divergence


# ---------------------------------------------------------------------------
# Pure helpers: arrays in, arrays out, no validation.
# ---------------------------------------------------------------------------


def _bin_edges(x: np.ndarray, n_bins: int, strategy: str) -> np.ndarray:
    """Edges of at most ``n_bins`` non-empty bins of the training values ``x``.

    Bins are ``[e_t, e_{t+1})`` (the last one closed); values outside the
    training range fall into the first or last bin. Duplicate edges (ties) and
    empty bins are removed, an empty bin being merged into the next one.
    """
    lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        return np.array([lo, hi])
    if strategy == "quantile":
        edges = np.quantile(x, np.linspace(0.0, 1.0, n_bins + 1))
    else:
        edges = np.linspace(lo, hi, n_bins + 1)
    edges = np.unique(edges)
    counts = np.bincount(_assign(x, edges), minlength=edges.size - 1)
    keep = np.flatnonzero(counts) + 1
    return np.concatenate(([edges[0]], edges[keep]))


def _assign(x: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Bin index of each value of ``x`` (0-based), clipped to the outer bins."""
    return np.searchsorted(edges[1:-1], x, side="right")


def _bin_matrix(X: np.ndarray, edges: list[np.ndarray]) -> np.ndarray:
    """Bin indices of shape ``X.shape``: column j binned with ``edges[j]``."""
    B = np.empty(X.shape, dtype=np.intp)
    for j, e in enumerate(edges):
        B[:, j] = _assign(X[:, j], e)
    return B


def _design(flat: np.ndarray, Xs: np.ndarray, n_params: int):
    """Binarized design matrix ``Phi`` of shape (m, 2 n_params).

    Column q is the indicator of (feature, bin) q and column ``n_params + q`` the
    standardised value inside it, so that ``Phi @ [b; w]`` is eq. 4. Dense when
    small, CSR otherwise (each row has ``2 n`` non-zeros).
    """
    m, n = flat.shape
    rows = np.repeat(np.arange(m), n)
    cols = flat.ravel()
    Phi = sparse.csr_matrix(
        (
            np.concatenate([np.ones(m * n), Xs.ravel()]),
            (np.concatenate([rows, rows]), np.concatenate([cols, cols + n_params])),
        ),
        shape=(m, 2 * n_params),
    )
    return Phi.toarray() if m * 2 * n_params <= _DENSE_LIMIT else Phi


def _mean_log_loss(z: np.ndarray, sign: np.ndarray) -> np.ndarray:
    """Mean negative log-likelihood (eq. 7 over m) per column; ``sign = 1 - 2y``."""
    u = sign * z  # loss_i = log(1 + exp(u_i))
    return (np.log1p(np.exp(-np.abs(u))) + np.maximum(u, 0.0)).mean(axis=0)


def _gradient_descent(
    theta: np.ndarray,
    Phi,
    Y: np.ndarray,
    counts: np.ndarray,
    learning_rate: float,
    max_iter: int,
    tol: float,
) -> tuple[np.ndarray, int, bool]:
    """Run the FIBLR update (eqs. 8-9) in place on ``theta``.

    Parameters
    ----------
    theta : numpy.ndarray of shape (2 n_params, n_models)
        Intercepts ``b`` (first ``n_params`` rows, one per (feature, bin)) over
        slopes ``w``, one column per one-vs-rest model; updated in place.
    Phi : numpy.ndarray or scipy.sparse.csr_matrix of shape (m, 2 n_params)
        Design matrix from `_design`.
    Y : numpy.ndarray of shape (m, n_models)
        0/1 targets of each one-vs-rest model.
    counts : numpy.ndarray of shape (n_params,)
        Training samples in each (feature, bin); zero for unused columns.

    Returns
    -------
    losses : numpy.ndarray of shape (n_iter + 1, n_models)
        Mean training loss before the first and after every update.
    n_iter : int
    converged : bool
    """
    inv = np.divide(1.0, counts, out=np.zeros(counts.size), where=counts > 0)
    step = learning_rate * np.concatenate([inv, inv])[:, None]
    PhiT = Phi.T.tocsr() if sparse.issparse(Phi) else Phi.T
    sign = 1.0 - 2.0 * Y
    z = Phi @ theta
    losses = [_mean_log_loss(z, sign)]
    converged = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007 - n_iter used after loop
        # dJ/dz_i = p(y=1|x_i) - y_i; per-bin sums divided by the bin counts
        theta -= step * (PhiT @ (expit(z) - Y))
        z = Phi @ theta
        losses.append(_mean_log_loss(z, sign))
        decrease = losses[-2] - losses[-1]
        if np.all((decrease <= tol) & (decrease >= -_FP_SLACK)):
            converged = True
            break
    return np.array(losses), n_iter, converged


# ---------------------------------------------------------------------------
# Estimator
# ---------------------------------------------------------------------------


#: a Parameters section of the one argument ``X`` (`poimkit.param_docs`)
_ON_FEATURES = parameters_from(
    {
        "X": "X : array-like of shape (n_samples, n_features_in_)\n"
        "    Real-valued features, the columns as in `fit`."
    }
)("X")


class FIBLRClassifier(ClassifierMixin, BaseEstimator):
    r"""Binarized logistic regression with per-feature importance distributions.

    FIBLR (Feature Importance + Binarized Logistic Regression) cuts the range of
    each feature into bins and gives every (feature, bin) pair its own intercept
    and slope. The score of a sample is the sum of the features' parts, and each
    feature's part alone, through the sigmoid, is that feature's importance
    distribution: ``p(y = c | x_j)`` as a function of the value ``x_j``.
    Multiclass problems are handled one-vs-rest, as in the paper.

    Parameters
    ----------
    n_bins : int, default=5
        Largest number of bins per feature (>= 1). Fewer are used when a feature
        has ties or empty bins (see ``n_bins_``). With 1 bin the model is plain
        logistic regression with one intercept per feature. The paper suggests
        ``1 <= n_bins <= m / (2 n)`` (m samples, n features) so that parameters
        do not outnumber samples, and chooses it by cross-validation.
    learning_rate : float, default=0.5
        Step size eta of the update rule (> 0); the paper uses ``0 < eta <= 1``
        and chooses it by cross-validation. Every feature's parameters move the
        same score, so the largest stable step shrinks roughly like
        ``1 / n_features``: with tens of features use 0.1 or less.
    max_iter : int, default=1000
        Most gradient-descent iterations (full passes over the data).
    tol : float, default=1e-4
        Stop when, in one iteration, the mean training loss of every
        one-vs-rest model decreased by at most ``tol`` (an increase never
        counts as convergence).
    strategy : {"quantile", "uniform"}, default="quantile"
        Bin edges from training quantiles (equal frequency) or equally spaced
        between the training minimum and maximum (equal width, as in the
        public reference code). The paper does not say.
    random_state : None, int or numpy.random.Generator, default=None
        Seeds the initial parameters, drawn from N(0, 0.01^2) (as in the
        public reference code). Pass an int for reproducible fits.

    Attributes
    ----------
    classes_ : numpy.ndarray of shape ``(n_classes,)``
        Class labels.
    n_features_in_ : int
    feature_names_in_ : numpy.ndarray of str, shape ``(n_features_in_,)``
        Only when ``X`` had string column names.
    bin_edges_ : numpy.ndarray of object, shape ``(n_features_in_,)``
        ``bin_edges_[j]`` holds the ``n_bins_[j] + 1`` increasing edges of
        feature j. Bin t is ``[e_t, e_{t+1})``; values beyond the training range
        belong to the outer bins.
    n_bins_ : numpy.ndarray of int, shape ``(n_features_in_,)``
        Bins actually used per feature.
    bin_intercept_ : numpy.ndarray of shape ``(n_models, n_features_in_, max(n_bins_))``
        ``b_j(theta)`` of eq. 3 in the units of ``X`` (NaN beyond ``n_bins_[j]``).
        ``n_models`` is 1 for two classes (the model of ``classes_[1]``) and
        ``n_classes`` otherwise.
    bin_coef_ : numpy.ndarray of shape ``(n_models, n_features_in_, max(n_bins_))``
        ``w_j(theta)`` of eq. 3 in the units of ``X`` (NaN beyond ``n_bins_[j]``).
    bin_count_ : numpy.ndarray of int, shape ``(n_features_in_, max(n_bins_))``
        Training samples in each bin (the denominator of eq. 8).
    n_iter_ : int
        Iterations run.
    loss_curve_ : numpy.ndarray of shape ``(n_iter_ + 1, n_models)``
        Mean training loss ``J / m`` of each model before the first and after
        every update.

    See Also
    --------
    sklearn.linear_model.LogisticRegression : the one-bin special case, fitted
        by a different solver and with a penalty.

    Notes
    -----
    Feature j has bins ``theta_j^1 .. theta_j^{B_j}``; sample i falls in bin
    ``theta(x_ij)``. The importance model (eq. 3) and the binarized logistic
    regression (eq. 4) are

    .. math::

        p(y=1 \mid x_j) = \sigma(z_j), \quad
        z_j = b_j(\theta(x_j)) + w_j(\theta(x_j))\, x_j, \qquad
        p(y=1 \mid \mathbf{x}) = \sigma\big(\textstyle\sum_j z_j\big),

    trained by minimising ``J = -sum_i log p(y_i | x_i)`` (eq. 7) with the
    paper's rule (eqs. 8-9): every iteration, with ``p_i = sigma(z_i)`` from the
    current parameters, all parameters are updated at once by the *mean*
    gradient over the samples of their bin,

    .. math::

        b_j(\theta) \leftarrow b_j(\theta) - \frac{\eta}{|\theta|}
            \sum_{i:\, x_{ij} \in \theta} (p_i - y_i), \qquad
        w_j(\theta) \leftarrow w_j(\theta) - \frac{\eta}{|\theta|}
            \sum_{i:\, x_{ij} \in \theta} (p_i - y_i)\, x_{ij}.

    The paper prints the gradient as ``sum (y_i - p(y_i | x_i))``; the gradient
    of eq. 7 is ``sum (p(y_i = 1 | x_i) - y_i)``, which is what is used (with the
    printed sign the rule would ascend the loss). Iteration stops after
    ``max_iter`` updates or when the mean loss of every model decreased by at
    most ``tol`` (the paper gives no stopping rule; the public reference code
    compares the mean predicted probability of successive iterations, which
    settles well before the loss does). A ``ConvergenceWarning`` is issued
    otherwise.

    As in the reference code's experiments (which put a ``StandardScaler``
    before the model), the rule runs on standardised values: ``x_ij`` above stands for
    ``(x_ij - mean_j) / sd_j`` (on raw values the stable step would depend on
    the features' scales). The fitted parameters are then converted back, so
    ``bin_intercept_`` and ``bin_coef_`` are eq. 3 in the units of ``X``. Bins
    are found on the raw values. Multiclass problems train one such model per
    class on the one-vs-rest targets (section 2.1); ``predict_proba``
    normalises their probabilities to sum to one.

    The intercepts are not identifiable one feature at a time: adding ``c`` to
    every ``b_j`` of one feature and subtracting it from another's leaves every
    prediction unchanged but shifts both importance distributions. The level of
    an importance distribution is therefore set by the update rule itself (it
    keeps the parameters close to their small initial values in the metric the
    bin counts define); its shape across bins is what the data determine. An
    irrelevant feature gets a flat distribution near ``sigma(prior log-odds /
    n_features)`` (roughly: the intercept is shared among the features), 0.5 for
    balanced classes.

    References
    ----------
    .. [1] Anonymous authors, "On the discovery of feature importance
       distribution: an overlooked area", paper under double-blind review
       (FIBLR), eqs. 1-9, Fig. 1 and Appendix A.1.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = FIBLRClassifier(n_bins=4, random_state=0).fit(X, y)
    >>> print(f"{clf.score(X, y):.2f}")
    0.98
    >>> values, importance = clf.importance_distribution(2)  # petal length
    >>> importance.shape  # one row per bin centre, one column per class
    (4, 3)
    >>> int(importance[0].argmax()), int(importance[-1].argmax())  # setosa, virginica
    (0, 2)
    """

    def __init__(
        self,
        n_bins: int = 5,
        learning_rate: float = 0.5,
        max_iter: int = 1000,
        tol: float = 1e-4,
        strategy: str = "quantile",
        random_state: int | np.random.Generator | None = None,
    ) -> None:
        self.n_bins = n_bins
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.strategy = strategy
        self.random_state = random_state

    # -- validation ---------------------------------------------------------

    def _check_params(self) -> tuple[int, float, int, float]:
        n_bins = check_int(self.n_bins, "n_bins", 1)
        max_iter = check_int(self.max_iter, "max_iter", 1)
        eta = self.learning_rate
        if (
            isinstance(eta, bool)
            or not isinstance(eta, Real)
            or not np.isfinite(eta)
            or eta <= 0
        ):
            raise InputError(
                f"learning_rate must be a finite number > 0 (the paper uses "
                f"0 < learning_rate <= 1), got {eta!r}"
            )
        tol = self.tol
        if isinstance(tol, bool) or not isinstance(tol, Real) or not tol >= 0:
            raise InputError(f"tol must be a number >= 0, got {tol!r}")
        if self.strategy not in _STRATEGIES:
            raise InputError(
                f"strategy must be one of {_STRATEGIES}, got {self.strategy!r}"
            )
        return n_bins, float(eta), max_iter, float(tol)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags

    # -- fitting --------------------------------------------------------------

    def fit(self, X: ArrayLike, y: ArrayLike) -> FIBLRClassifier:
        """Bin the features and train all per-bin parameters jointly.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Real-valued features.
        y : array-like of shape (n_samples,)
            Class labels (at least two classes).

        Returns
        -------
        self : FIBLRClassifier
            The fitted estimator.
        """
        n_bins, eta, max_iter, tol = self._check_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        n_classes = self.classes_.size
        if n_classes < 2:
            raise InputError(
                f"y has 1 class ({self.classes_[0]!r}); FIBLRClassifier needs at "
                "least 2 classes to learn importance distributions"
            )
        m, n = X.shape

        edges = [_bin_edges(X[:, j], n_bins, self.strategy) for j in range(n)]
        self.n_bins_ = np.array([e.size - 1 for e in edges], dtype=np.intp)
        self.bin_edges_ = np.empty(n, dtype=object)
        self.bin_edges_[:] = edges
        width = int(self.n_bins_.max())
        B = _bin_matrix(X, edges)
        flat = B + width * np.arange(n)[None, :]  # parameter column of (i, j)
        n_params = n * width
        counts = np.bincount(flat.ravel(), minlength=n_params).astype(np.float64)

        mean = X.mean(axis=0)
        scale = X.std(axis=0)
        scale[scale == 0] = 1.0
        Xs = (X - mean) / scale

        if n_classes == 2:
            Y = (y_index == 1).astype(np.float64)[:, None]
        else:
            Y = (y_index[:, None] == np.arange(n_classes)[None, :]).astype(np.float64)
        n_models = Y.shape[1]
        rng = as_rng(self.random_state)
        theta = rng.normal(0.0, 0.01, size=(2 * n_params, n_models))
        losses, n_iter, converged = _gradient_descent(
            theta, _design(flat, Xs, n_params), Y, counts, eta, max_iter, tol
        )
        if not converged:
            decrease = losses[-2] - losses[-1]
            hint = (
                "the loss went up during training: decrease learning_rate (stable "
                "values shrink roughly like 1 / n_features)"
                if np.any(np.diff(losses, axis=0) > _FP_SLACK)
                else "increase max_iter or learning_rate"
            )
            warnings.warn(
                f"FIBLRClassifier did not converge in max_iter={max_iter} "
                f"iterations (last loss decrease {decrease.min():.3g}, "
                f"tol={tol:g}); {hint}",
                ConvergenceWarning,
                stacklevel=2,
            )

        # back to the units of X: b + w (x - mean) / scale = b' + w' x
        b = theta[:n_params].T.reshape(n_models, n, width)
        w = theta[n_params:].T.reshape(n_models, n, width)
        coef = w / scale[None, :, None]
        intercept = b - coef * mean[None, :, None]
        unused = (np.arange(width)[None, :] >= self.n_bins_[:, None])[None]
        self.bin_intercept_ = np.where(unused, np.nan, intercept)
        self.bin_coef_ = np.where(unused, np.nan, coef)
        self.bin_count_ = counts.reshape(n, width).astype(np.intp)
        self.loss_curve_ = losses
        self.n_iter_ = int(n_iter)
        return self

    # -- prediction -----------------------------------------------------------

    def _feature_scores(self, X: np.ndarray) -> np.ndarray:
        """``z_j`` of eq. 3 for every model, sample and feature: (n_models, m, n)."""
        B = _bin_matrix(X, list(self.bin_edges_))
        cols = np.arange(X.shape[1])[None, :]
        return self.bin_intercept_[:, cols, B] + self.bin_coef_[:, cols, B] * X

    @_ON_FEATURES
    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Summed score ``z = sum_j z_j`` (eq. 4) of each one-vs-rest model.

        %(parameters)s

        Returns
        -------
        numpy.ndarray of shape (n_samples,) or (n_samples, n_classes)
            For two classes, the log-odds of ``classes_[1]``; otherwise one
            column per class.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        z = self._feature_scores(X).sum(axis=2).T
        return z[:, 0] if self.classes_.size == 2 else z

    @_ON_FEATURES
    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Class probabilities.

        %(parameters)s

        Returns
        -------
        numpy.ndarray of shape (n_samples, n_classes)
            For two classes ``[1 - sigma(z), sigma(z)]``; otherwise the
            one-vs-rest probabilities ``sigma(z_c)`` divided by their sum.
        """
        z = self.decision_function(X)
        if z.ndim == 1:
            return np.column_stack([expit(-z), expit(z)])
        log_p = -np.logaddexp(0.0, -z)  # log sigma(z), safe for large |z|
        p = np.exp(log_p - log_p.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True)

    @_ON_FEATURES
    def predict(self, X: ArrayLike) -> np.ndarray:
        """Most probable class of each sample.

        %(parameters)s

        Returns
        -------
        numpy.ndarray of shape (n_samples,)
        """
        z = self.decision_function(X)
        index = (z > 0).astype(np.intp) if z.ndim == 1 else z.argmax(axis=1)
        return self.classes_[index]

    # -- importance -----------------------------------------------------------

    def _feature_index(self, feature: int | str) -> int:
        names = getattr(self, "feature_names_in_", None)
        if isinstance(feature, str):
            if names is None or feature not in names:
                known = (
                    "none (X had no column names)"
                    if names is None
                    else (", ".join(map(str, names[:10])))
                )
                raise InputError(
                    f"feature must be a column index or a known feature name; "
                    f"got {feature!r}, known names: {known}"
                )
            return int(np.flatnonzero(names == feature)[0])
        if (
            isinstance(feature, bool)
            or not isinstance(feature, Integral)
            or not -self.n_features_in_ <= feature < self.n_features_in_
        ):
            raise InputError(
                f"feature must be an integer in 0..{self.n_features_in_ - 1} or a "
                f"feature name, got {feature!r}"
            )
        return int(feature) % self.n_features_in_

    def bin_centres(self, feature: int | str) -> np.ndarray:
        """Midpoints of the bins of one feature.

        Parameters
        ----------
        feature : int or str
            Column index, or column name when ``X`` had names.

        Returns
        -------
        numpy.ndarray of shape (n_bins_[feature],)
        """
        check_is_fitted(self)
        e = self.bin_edges_[self._feature_index(feature)]
        return 0.5 * (e[:-1] + e[1:])

    def importance_distribution(
        self,
        feature: int | str,
        class_: Any = None,
        values: ArrayLike | None = None,
        *,
        normalize: bool = False,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Importance of one feature across its values (eq. 3).

        The importance of feature j at value v for class c is
        ``p(y = c | x_j = v) = sigma(b_j(theta(v)) + w_j(theta(v)) v)``: the
        trained per-bin parameters of that feature alone, the other features'
        terms removed.

        Parameters
        ----------
        feature : int or str
            Column index, or column name when ``X`` had names.
        class_ : label or None, default=None
            A label from ``classes_``; None gives every class.
        values : array-like of shape (n_values,), optional
            Feature values at which to evaluate; default: the bin centres.
        normalize : bool, default=False
            Divide by the sum over classes at each value, so that the classes'
            importances add up to one. The paper does not do this; the public
            reference code does for its figures. For two classes it changes
            nothing.

        Returns
        -------
        values : numpy.ndarray of shape (n_values,)
        importance : numpy.ndarray of shape (n_values,) or (n_values, n_classes)
            Probabilities in [0, 1]; one column per class of ``classes_`` when
            ``class_`` is None.
        """
        check_is_fitted(self)
        j = self._feature_index(feature)
        if values is None:
            values = self.bin_centres(j)
        else:
            values = np.asarray(values, dtype=np.float64)
            if values.ndim != 1 or not np.isfinite(values).all():
                raise InputError(
                    "values must be a 1-d array of finite feature values, got "
                    f"shape {values.shape}"
                    + ("" if np.isfinite(values).all() else " with NaN or inf")
                )
        if class_ is not None and class_ not in set(self.classes_.tolist()):
            raise InputError(
                f"class_ must be one of classes_ {self.classes_.tolist()}, "
                f"got {class_!r}"
            )
        t = _assign(values, self.bin_edges_[j])
        z = self.bin_intercept_[:, j, t] + self.bin_coef_[:, j, t] * values
        if self.classes_.size == 2:
            importance = np.column_stack([expit(-z[0]), expit(z[0])])
        else:
            importance = expit(z.T)
            if normalize:
                importance = importance / importance.sum(axis=1, keepdims=True)
        if class_ is not None:
            importance = importance[:, int(np.flatnonzero(self.classes_ == class_)[0])]
        return values, importance
