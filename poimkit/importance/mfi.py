"""Measure of Feature Importance (MFI) for feature vectors and images.

Vidovic et al. define MFI for any learning machine ``s`` and two flavours:

* model-based (kernel MFI): which features does the model depend on over
  the whole input distribution? Measured per feature f by the
  Hilbert-Schmidt independence criterion (HSIC) between the prediction
  ``s(X)`` and the feature ``X_f`` (table 1 (c) of the paper);
* instance-based: why does this input x get its score? Measured per
  feature f by the change of the expected prediction when the feature is
  fixed to the instance's value, ``E[s(X) | X_f = x_f] - E[s(X)]``
  (table 1 (a)).

Both are estimated by sampling. This module handles real-valued feature
vectors (tabular data, flattened images); the sequence versions, where the
features are positional k-mers under a Markov background, are
`poimkit.poim.sampled.sampled_poim` (model-based MFI, the sampled POIM) and
`poimkit.poim.sampled.sampled_instance` (instance-based MFI).

`morf_curve` evaluates a relevance ordering the way the paper does: remove
the most relevant features first (MoRF) and watch the model's performance
drop, against removal in random order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from .._validation import as_rng, check_int
from ..errors import InputError

__all__ = ["MorfCurve", "hsic", "mfi", "morf_curve"]

ScoreFunction = Callable[[np.ndarray], np.ndarray]

_KERNELS = ("rbf", "linear")
_ESTIMATORS = ("biased", "unbiased")
_SAMPLINGS = ("independent", "data")
_BASELINES = ("uniform", "marginal", "mean")


# ----------------------------------------------------------------- validation
def _choice(value, name: str, options: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in options:
        raise InputError(f"{name} must be one of {options}, got {value!r}")
    return value


def _gamma(value, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Real) or not value > 0:
        raise InputError(
            f"{name} must be a positive number or None (median heuristic), "
            f"got {value!r}"
        )
    if not np.isfinite(value):
        raise InputError(f"{name} must be finite, got {value!r}")
    return float(value)


def _matrix(X, name: str, min_rows: int = 1) -> np.ndarray:
    """``X`` as a finite C-contiguous float64 array of shape (n, d)."""
    try:
        A = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name} must be a numeric array, got {exc}") from exc
    if A.ndim != 2 or A.shape[1] < 1:
        raise InputError(
            f"{name} has shape {A.shape} but must have shape (n_samples, "
            "n_features) with n_features >= 1; reshape images to one row each"
        )
    if A.shape[0] < min_rows:
        raise InputError(f"{name} has {A.shape[0]} rows but needs at least {min_rows}")
    if not np.all(np.isfinite(A)):
        raise InputError(f"{name} contains NaN or infinite values")
    return np.ascontiguousarray(A)


def _variable(a, name: str, n: int | None = None) -> np.ndarray:
    """An HSIC argument as a finite float64 array of shape (n, p)."""
    try:
        A = np.asarray(a, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name} must be a numeric array, got {exc}") from exc
    if A.ndim == 1:
        A = A[:, None]
    if A.ndim != 2 or A.shape[1] < 1:
        raise InputError(
            f"{name} has shape {np.shape(a)} but must have shape (n,) or (n, p)"
        )
    if n is not None and A.shape[0] != n:
        raise InputError(
            f"{name} has {A.shape[0]} samples but the other variable has {n}"
        )
    if not np.all(np.isfinite(A)):
        raise InputError(f"{name} contains NaN or infinite values")
    return np.ascontiguousarray(A)


def _feature_groups(features, n_features: int) -> list[np.ndarray]:
    """Column index arrays, one per feature (an int) or group (ints)."""
    if features is None:
        return [np.array([f]) for f in range(n_features)]
    if isinstance(features, Integral | str) or not isinstance(
        features, Sequence | np.ndarray
    ):
        raise InputError(
            "features must be None or a sequence of column indices or of groups "
            f"of column indices, got {type(features).__name__}"
        )
    if len(features) == 0:
        raise InputError("features must not be empty")
    groups = []
    for k, item in enumerate(features):
        group = np.atleast_1d(np.asarray(item))
        if (
            group.ndim != 1
            or group.size == 0
            or not np.issubdtype(group.dtype, np.integer)  # bool is not integer
        ):
            raise InputError(
                f"features[{k}] must be a column index or a non-empty sequence of "
                f"column indices, got {item!r}"
            )
        if group.min() < 0 or group.max() >= n_features:
            raise InputError(
                f"features[{k}] = {item!r} is out of range; X has columns "
                f"0..{n_features - 1}"
            )
        if np.unique(group).size != group.size:
            raise InputError(f"features[{k}] = {item!r} repeats a column")
        groups.append(group.astype(np.intp))
    return groups


# ------------------------------------------------------------- score function
def _score_function(model) -> ScoreFunction:
    """``score(X)`` mapping float64 (n, d) to float64 (n,), checked."""
    if hasattr(model, "decision_function"):
        fn, name, column = model.decision_function, "decision_function", None
    elif hasattr(model, "predict_proba"):
        fn, name, column = model.predict_proba, "predict_proba", 1
    elif hasattr(model, "predict"):
        fn, name, column = model.predict, "predict", None
    elif callable(model):
        fn, column = model, None
        name = getattr(model, "__name__", type(model).__name__)
    else:
        raise InputError(
            "model must be callable or have decision_function, predict_proba or "
            f"predict, got {type(model).__name__}; pass e.g. a function mapping "
            "an array (n, d) to n scores"
        )

    def score(X: np.ndarray) -> np.ndarray:
        n = X.shape[0]
        try:
            out = np.asarray(fn(X), dtype=np.float64)
        except (TypeError, ValueError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(
                f"{name} did not return numbers for {n} inputs ({exc}); pass a "
                "model with decision_function or predict_proba, or a callable"
            ) from exc
        if column is not None:
            if out.shape != (n, 2):
                raise InputError(
                    f"{name} returned shape {out.shape} for {n} inputs but must "
                    f"return shape ({n}, 2) (a binary classifier; column 1 is "
                    "used); pass a callable for other outputs"
                )
            out = out[:, column]
        elif out.shape == (n, 1):
            out = out[:, 0]
        if out.shape != (n,):
            raise InputError(
                f"{name} returned shape {out.shape} for {n} inputs but must return "
                f"shape ({n},); for a multi-class model pass a callable that "
                "returns the score of one class"
            )
        if not np.all(np.isfinite(out)):
            raise InputError(f"{name} returned non-finite scores")
        return out

    return score


# ------------------------------------------------------------------- kernels
def _sq_dists(A: np.ndarray) -> np.ndarray:
    """Squared Euclidean distances between the rows of ``A`` (n, p), exact."""
    D2 = np.zeros((A.shape[0], A.shape[0]))
    for col in A.T:
        diff = col[:, None] - col[None, :]
        D2 += diff * diff
    return D2


def _median_gamma(D2: np.ndarray) -> float | None:
    """``1 / (2 sigma^2)``, sigma the median non-zero pairwise distance.

    None if all rows are equal (the kernel is constant).
    """
    upper = D2[np.triu_indices(D2.shape[0], k=1)]
    upper = upper[upper > 0]
    if upper.size == 0:
        return None
    sigma = np.median(np.sqrt(upper))
    return 1.0 / (2.0 * sigma * sigma)


def _gram(A: np.ndarray, kernel: str, gamma: float | None) -> np.ndarray | None:
    """Gram matrix of the rows of ``A``; None if it is constant (no information)."""
    if kernel == "linear":
        if np.all(A == A[0]):
            return None
        return A @ A.T
    D2 = _sq_dists(A)
    if gamma is None:
        gamma = _median_gamma(D2)
        if gamma is None:
            return None
    elif not np.any(D2 > 0):
        return None
    return np.exp(-gamma * D2)


def _centre(G: np.ndarray) -> np.ndarray:
    """``H G H`` with ``H = I - 1 1^T / n``."""
    row = G.mean(axis=1)
    return G - row[:, None] - G.mean(axis=0)[None, :] + row.mean()


class _Hsic:
    """HSIC between one fixed Gram matrix K and any Gram matrix L of size n.

    Precomputes what depends on K only, so that each feature costs O(n^2).
    """

    def __init__(self, K: np.ndarray, estimator: str) -> None:
        self.n = K.shape[0]
        self.estimator = estimator
        self.K = self._prepare(K)
        self.self_value = self._value(self.K, self.K)

    def _prepare(self, G: np.ndarray):
        """Centred G (biased) or (G with zero diagonal, row sums, total)."""
        if self.estimator == "biased":
            return _centre(G)
        Gt = G.copy()
        np.fill_diagonal(Gt, 0.0)
        row = Gt.sum(axis=1)
        return Gt, row, row.sum()

    def _value(self, A, B) -> float:
        """HSIC from two prepared Gram matrices."""
        n = self.n
        if self.estimator == "biased":
            return float(np.vdot(A, B)) / (n - 1) ** 2
        (At, a_row, a_sum), (Bt, b_row, b_sum) = A, B
        value = (
            float(np.vdot(At, Bt))
            + a_sum * b_sum / ((n - 1) * (n - 2))
            - 2.0 * float(a_row @ b_row) / (n - 2)
        )
        return value / (n * (n - 3))

    def between(self, L: np.ndarray, normalize: bool) -> float:
        """HSIC(K, L), divided by sqrt(HSIC(K, K) HSIC(L, L)) if ``normalize``."""
        if self.estimator == "biased" and not normalize:
            # tr(K H L H) = <H K H, L>_F because H is idempotent: no centring of L
            return float(np.vdot(self.K, L)) / (self.n - 1) ** 2
        prepared = self._prepare(L)
        value = self._value(self.K, prepared)
        if not normalize:
            return value
        denom = self.self_value * self._value(prepared, prepared)
        return float(value / np.sqrt(denom)) if denom > 0 else 0.0


def hsic(
    x,
    y,
    *,
    kernel: str = "rbf",
    gamma_x: float | None = None,
    gamma_y: float | None = None,
    estimator: str = "biased",
    normalize: bool = False,
) -> float:
    r"""Hilbert-Schmidt independence criterion between two samples.

    Parameters
    ----------
    x : array-like, shape (n,) or (n, p)
        First variable, one row per observation.
    y : array-like, shape (n,) or (n, q)
        Second variable, paired with ``x`` row by row.
    kernel : {"rbf", "linear"}, default "rbf"
        Kernel used on both variables.
    gamma_x, gamma_y : float, optional
        RBF widths ``k(a, b) = exp(-gamma ||a - b||^2)``. Default: the median
        heuristic (see Notes). Ignored for the linear kernel.
    estimator : {"biased", "unbiased"}, default "biased"
        Gretton et al. (2005) or Song et al. (2012), see Notes.
    normalize : bool, default False
        Divide by ``sqrt(HSIC(x, x) HSIC(y, y))``: for the biased estimator
        this is the centred kernel alignment, in [0, 1].

    Returns
    -------
    float
        The estimate; 0 if either variable is constant.

    Raises
    ------
    InputError
        If the shapes disagree, there are fewer than 2 (biased) or 4
        (unbiased) observations, or an option is invalid.

    Notes
    -----
    With Gram matrices ``K_ij = k(x_i, x_j)``, ``L_ij = l(y_i, y_j)`` and
    ``H = I - 1 1^T / n``, the biased estimator of Gretton et al. (2005) is

    .. math:: \mathrm{HSIC}_b = \frac{1}{(n-1)^2} \operatorname{tr}(K H L H)

    and the unbiased one of Song et al. (2012), with ``K~``, ``L~`` the Gram
    matrices with zeroed diagonals,

    .. math::

        \mathrm{HSIC}_u = \frac{1}{n(n-3)} \Big[\operatorname{tr}(\tilde K
        \tilde L) + \frac{1^T \tilde K 1 \; 1^T \tilde L 1}{(n-1)(n-2)}
        - \frac{2}{n-2} 1^T \tilde K \tilde L 1\Big].

    HSIC is zero in population if and only if x and y are independent
    (for characteristic kernels such as the RBF). The median heuristic sets
    ``gamma = 1 / (2 sigma^2)`` with sigma the median of the non-zero
    pairwise distances ``||a_i - a_j||``. With linear kernels on scalars the
    biased estimator is the squared sample covariance (denominator n - 1).

    References
    ----------
    A. Gretton, O. Bousquet, A. Smola and B. Schölkopf. Measuring statistical
    dependence with Hilbert-Schmidt norms. ALT 2005.

    L. Song, A. Smola, A. Gretton, J. Bedo and K. Borgwardt. Feature selection
    via dependence maximization. JMLR 13, 1393-1434, 2012.

    Examples
    --------
    A dependence that correlation misses, against independent noise:

    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=200)
    >>> abs(float(np.corrcoef(x, x**2)[0, 1])) < 0.2
    True
    >>> hsic(x, x**2, normalize=True) > 10 * hsic(x, rng.normal(size=200),
    ...                                           normalize=True)
    True
    >>> x, y = [0.0, 1.0, 2.0, 3.0], [1.0, 3.0, 2.0, 5.0]
    >>> round(hsic(x, y, kernel="linear"), 6)  # cov(x, y)^2 = (5.5 / 3)^2
    3.361111
    """
    kernel = _choice(kernel, "kernel", _KERNELS)
    estimator = _choice(estimator, "estimator", _ESTIMATORS)
    gamma_x = _gamma(gamma_x, "gamma_x")
    gamma_y = _gamma(gamma_y, "gamma_y")
    A = _variable(x, "x")
    B = _variable(y, "y", A.shape[0])
    need = 2 if estimator == "biased" else 4
    if A.shape[0] < need:
        raise InputError(
            f"x and y have {A.shape[0]} observations but the {estimator} "
            f"estimator needs at least {need}"
        )
    K = _gram(A, kernel, gamma_x)
    L = _gram(B, kernel, gamma_y)
    if K is None or L is None:
        return 0.0
    return _Hsic(K, estimator).between(L, bool(normalize))


# --------------------------------------------------------------------- MFI
def _draw_samples(
    X: np.ndarray, n_samples: int, sampling: str, rng: np.random.Generator
) -> np.ndarray:
    """Background samples: rows of X, or columns drawn independently."""
    n, d = X.shape
    if sampling == "data":
        if n_samples >= n:
            return X.copy()
        return X[np.sort(rng.choice(n, size=n_samples, replace=False))]
    rows = rng.integers(0, n, size=(n_samples, d))
    return np.ascontiguousarray(X[rows, np.arange(d)[None, :]])


def mfi(
    model,
    X,
    instance=None,
    features=None,
    kernel: str = "rbf",
    gamma: float | None = None,
    n_samples: int = 1000,
    random_state: np.random.Generator | int | None = None,
    *,
    sampling: str = "independent",
    score_gamma: float | None = None,
    estimator: str = "biased",
    normalize: bool = False,
    batch_size: int = 100_000,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    r"""Measure of Feature Importance: model-based (kernel MFI) or per instance.

    Parameters
    ----------
    model : object or callable
        Scored through, in order of preference, ``decision_function``,
        ``predict_proba`` (column 1, binary classifiers), ``predict``, or
        ``model(X)`` itself. Each receives a float64 array (m, d) and must
        return m finite numbers.
    X : array-like, shape (n, d)
        Data defining the input distribution (e.g. the training set; images
        flattened to rows). Background samples are drawn from it.
    instance : array-like, shape (d,) or (m, d), optional
        If given, instance-based MFI of this input (or of each row).
        Otherwise model-based kernel MFI.
    features : sequence, optional
        Column indices to score, or groups of column indices (a group is
        scored as one feature: one kernel on the group's sub-vector, or all
        of the group fixed to the instance's values). Default: every column.
    kernel : {"rbf", "linear"}, default "rbf"
        Model-based only: kernel on the feature values and on the scores.
    gamma : float, optional
        Model-based only: RBF width on the features; default the median
        heuristic, separately for each feature.
    n_samples : int, default 1000
        Background samples (>= 2, >= 4 for the unbiased estimator). The
        paper uses 1000. Model-based cost is O(n_samples^2) per feature;
        instance-based cost is n_samples model evaluations per feature.
    random_state : int, numpy.random.Generator or None
        Seed of the sampling.
    sampling : {"independent", "data"}, default "independent"
        How background samples are drawn from X. ``"independent"``: each
        column independently from its empirical distribution (the product of
        the marginals, as in the paper's experiments, where every pixel is
        drawn independently). ``"data"``: whole rows of X (all rows if
        ``n_samples >= n``, else a subsample without replacement), which keeps
        the correlations between features.
    score_gamma : float, optional
        Model-based only: RBF width on the scores; default median heuristic.
    estimator : {"biased", "unbiased"}, default "biased"
        Model-based only: the HSIC estimator (see `hsic`).
    normalize : bool, default False
        Model-based only: report ``HSIC(s, X_f) / sqrt(HSIC(s, s) HSIC(X_f,
        X_f))`` instead of the raw HSIC.
    batch_size : int, default 100_000
        Instance-based only: rows scored per model call.

    Returns
    -------
    importance : numpy.ndarray
        Model-based: shape (n_features,), the HSIC of each feature (0 for a
        feature that is constant in the samples). Instance-based: shape
        (n_features,) for a 1-d ``instance``, (m, n_features) for m rows,
        the change of the expected score.
    stderr : numpy.ndarray
        Instance-based only (a tuple ``(importance, stderr)`` is returned):
        Monte Carlo standard errors, same shape.

    Raises
    ------
    InputError
        For invalid arguments, or if the model's output is not one finite
        number per row.

    See Also
    --------
    poimkit.poim.sampled.sampled_poim : model-based MFI for DNA sequences.
    poimkit.poim.sampled.sampled_instance : instance-based MFI for sequences.
    morf_curve : evaluate an importance ordering by removing features.

    Notes
    -----
    MFI of a feature ``f`` with explanation mode ``phi`` (definition 1 of
    Vidovic et al.) is ``S(t) = E[s(X) phi(X) | f(X) = t]``, and kernel MFI
    is ``S+(t) = Cov[k(s(X), s(.)), l(phi(X), phi(.)) | f(X) = t]``.

    *Model-based* (table 1 (c), ``phi(X) = X``, ``f`` constant): by lemma 1
    the squared norm of ``S+`` is an HSIC. It is computed per feature f
    between the scores ``s_i = s(Z_i)`` and the feature values ``Z_if`` of n
    background samples ``Z_1..Z_n``:

    .. math:: \mathrm{MFI}_f = \frac{1}{(n-1)^2} \operatorname{tr}(K H L^f H),
              \quad K_{ij} = k(s_i, s_j), \; L^f_{ij} = l(Z_{if}, Z_{jf})

    (or the unbiased estimator of `hsic`), with RBF kernels whose widths
    follow the median heuristic. It is 0 when the prediction is independent
    of ``X_f`` and grows with their dependence, linear or not. The authors'
    published code uses row-normalised, uncentred Gram matrices
    (``tr(K' L')`` with ``K' = K / row sums``), which is not 0 under
    independence; this function uses the centred estimators of Gretton et
    al. and Song et al., which are.

    *Instance-based* (table 1 (a), ``phi(X) = 1``, ``f(X) = X_f``,
    ``t = x_f``), centred so that 0 means "no effect":

    .. math:: \mathrm{MFI}_f(x) = E[s(X) | X_f = x_f] - E[s(X)]
              \approx \frac{1}{n} \sum_r \big(s(Z_r^{f \leftarrow x_f})
              - s(Z_r)\big)

    where ``Z_r^{f <- x_f}`` is the sample ``Z_r`` with feature f set to
    ``x_f``; the standard error is the standard deviation of the n
    differences over sqrt(n). Scoring the same samples with and without the
    substitution (common random numbers) makes the differences small. For
    ``sampling="independent"`` the other features are independent of
    ``X_f`` by construction, so the substitution is an exact draw from the
    conditional; for ``"data"`` it is the interventional (marginal)
    approximation, exact only when ``X_f`` is independent of the rest. For
    a linear model ``s(x) = w^T x + b`` the value is ``w_f (x_f - E[X_f])``.

    References
    ----------
    M. M.-C. Vidovic, N. Görnitz, K.-R. Müller and M. Kloft. Feature importance
    measure for non-linear learning algorithms. NIPS 2016 Workshop on
    Interpretable Machine Learning in Complex Systems. arXiv:1611.07567.

    A. Gretton, O. Bousquet, A. Smola and B. Schölkopf. Measuring statistical
    dependence with Hilbert-Schmidt norms. ALT 2005.

    Examples
    --------
    The score depends on column 0 only, non-linearly:

    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 3))
    >>> score = lambda X: np.cos(2 * X[:, 0])
    >>> imp = mfi(score, X, n_samples=300, random_state=0)
    >>> int(np.argmax(imp)), bool(imp[0] > 10 * imp[1:].max())
    (0, True)

    Instance-based MFI of a linear model is ``w_f (x_f - E[X_f])``:

    >>> w = np.array([2.0, -1.0, 0.0])
    >>> value, se = mfi(lambda X: X @ w, X, instance=[1.0, 1.0, 5.0],
    ...                 n_samples=300, random_state=0)
    >>> bool(np.all(np.abs(value - w * (1.0 - X.mean(axis=0))) < 4 * se + 1e-12))
    True
    >>> float(value[2]), float(se[2])
    (0.0, 0.0)
    """
    kernel = _choice(kernel, "kernel", _KERNELS)
    sampling = _choice(sampling, "sampling", _SAMPLINGS)
    estimator = _choice(estimator, "estimator", _ESTIMATORS)
    gamma = _gamma(gamma, "gamma")
    score_gamma = _gamma(score_gamma, "score_gamma")
    min_samples = 4 if estimator == "unbiased" and instance is None else 2
    n_samples = check_int(n_samples, "n_samples", min_samples)
    batch_size = check_int(batch_size, "batch_size", 1)
    X = _matrix(X, "X")
    groups = _feature_groups(features, X.shape[1])
    rows = None if instance is None else _instances(instance, X.shape[1])
    score = _score_function(model)
    rng = as_rng(random_state)
    if sampling == "data" and X.shape[0] < min_samples:
        raise InputError(
            f"X has {X.shape[0]} rows but sampling='data' needs at least {min_samples}"
        )
    Z = _draw_samples(X, n_samples, sampling, rng)
    if rows is None:
        return _kernel_mfi(
            score(Z), Z, groups, kernel, gamma, score_gamma, estimator, normalize
        )
    values = np.empty((rows.shape[0], len(groups)))
    stderrs = np.empty_like(values)
    base = score(Z)
    for i, row in enumerate(rows):
        values[i], stderrs[i] = _instance_mfi(score, row, Z, base, groups, batch_size)
    if np.ndim(instance) == 1:
        return values[0], stderrs[0]
    return values, stderrs


def _instances(instance, n_features: int) -> np.ndarray:
    """The instance(s) to explain as a finite float64 array (m, d)."""
    x = np.asarray(instance, dtype=np.float64) if _numeric(instance) else None
    if x is None or x.ndim not in (1, 2) or x.shape[-1] != n_features:
        raise InputError(
            f"instance has shape {np.shape(instance)} but must be numeric with "
            f"shape ({n_features},) or (m, {n_features}) to match X"
        )
    if not np.all(np.isfinite(x)):
        raise InputError("instance contains NaN or infinite values")
    return np.atleast_2d(x)


def _numeric(a) -> bool:
    try:
        np.asarray(a, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return True


def _kernel_mfi(
    scores: np.ndarray,
    Z: np.ndarray,
    groups: list[np.ndarray],
    kernel: str,
    gamma: float | None,
    score_gamma: float | None,
    estimator: str,
    normalize: bool,
) -> np.ndarray:
    """HSIC between the scores and each feature group of the samples Z."""
    out = np.zeros(len(groups))
    K = _gram(scores[:, None], kernel, score_gamma)
    if K is None:  # constant prediction: it depends on no feature
        return out
    stat = _Hsic(K, estimator)
    for k, group in enumerate(groups):
        L = _gram(Z[:, group], kernel, gamma)
        if L is not None:
            out[k] = stat.between(L, bool(normalize))
    return out


def _instance_mfi(
    score: ScoreFunction,
    x: np.ndarray,
    Z: np.ndarray,
    base: np.ndarray,
    groups: list[np.ndarray],
    batch_size: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard error of ``s(Z with group := x[group]) - s(Z)``."""
    n, d = Z.shape
    values = np.empty(len(groups))
    stderrs = np.empty(len(groups))
    per_batch = max(1, batch_size // n)
    for first in range(0, len(groups), per_batch):
        chunk = groups[first : first + per_batch]
        block = np.broadcast_to(Z, (len(chunk), n, d)).copy()
        for j, group in enumerate(chunk):
            block[j][:, group] = x[group]
        diff = score(block.reshape(-1, d)).reshape(len(chunk), n) - base
        values[first : first + len(chunk)] = diff.mean(axis=1)
        stderrs[first : first + len(chunk)] = diff.std(axis=1, ddof=1) / np.sqrt(n)
    return values, stderrs


# --------------------------------------------------------------------- MoRF
@dataclass(frozen=True)
class MorfCurve:
    """Performance while removing features, most relevant first vs random.

    Attributes
    ----------
    n_removed : numpy.ndarray of int, shape (n_points,)
        Number of features replaced at each point, starting with 0.
    curve : numpy.ndarray, shape (n_points,)
        Performance (mean score, or accuracy if labels were given) when the
        ``n_removed`` most relevant features are replaced.
    random_curves : numpy.ndarray, shape (n_random, n_points)
        The same for random removal orders, one row per repetition.
    n_features : int
        Number of features of the data.
    """

    n_removed: np.ndarray
    curve: np.ndarray
    random_curves: np.ndarray
    n_features: int

    @property
    def random_curve(self) -> np.ndarray:
        """Mean performance over the random orders, shape (n_points,)."""
        return self.random_curves.mean(axis=0)

    @property
    def aopc(self) -> float:
        """Area over the MoRF curve: ``mean_k (curve[0] - curve[k])``."""
        return _aopc(self.curve)

    @property
    def random_aopc(self) -> float:
        """Area over the random-order curve (mean over repetitions)."""
        return _aopc(self.random_curve)

    @property
    def auc(self) -> float:
        """Area under the MoRF curve against the fraction of features removed."""
        return _trapezoid(self.curve, self.n_removed / self.n_features)

    @property
    def random_auc(self) -> float:
        """Area under the random-order curve, same axis as `auc`."""
        return _trapezoid(self.random_curve, self.n_removed / self.n_features)


def _aopc(curve: np.ndarray) -> float:
    return float(np.mean(curve[0] - curve))


def _trapezoid(y: np.ndarray, x: np.ndarray) -> float:
    return float(np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0))


def _replacements(X: np.ndarray, baseline, rng: np.random.Generator) -> np.ndarray:
    """Values that replace removed features, shape (n, d)."""
    n, d = X.shape
    if isinstance(baseline, str):
        baseline = _choice(baseline, "baseline", _BASELINES)
        if baseline == "uniform":
            low, high = X.min(axis=0), X.max(axis=0)
            return low + (high - low) * rng.random((n, d))
        if baseline == "marginal":
            return X[rng.integers(0, n, size=(n, d)), np.arange(d)[None, :]]
        return np.broadcast_to(X.mean(axis=0), (n, d))
    if not _numeric(baseline):
        raise InputError(
            f"baseline must be one of {_BASELINES}, a number or an array of shape "
            f"({d},), got {baseline!r}"
        )
    values = np.asarray(baseline, dtype=np.float64)
    if values.shape not in ((), (d,)) or not np.all(np.isfinite(values)):
        raise InputError(
            f"baseline has shape {values.shape} but must be a finite number or "
            f"have shape ({d},) to match X"
        )
    return np.broadcast_to(values, (n, d))


def _ranks(order: np.ndarray) -> np.ndarray:
    """``rank[i, f]`` = position of feature f in row i of ``order``."""
    ranks = np.empty_like(order)
    rows = np.arange(order.shape[0])[:, None]
    ranks[rows, order] = np.arange(order.shape[1])[None, :]
    return ranks


def morf_curve(
    model,
    X,
    relevance,
    n_steps: int = 20,
    baseline="uniform",
    random_state: np.random.Generator | int | None = None,
    *,
    y=None,
    n_random: int = 10,
    max_features: int | None = None,
) -> MorfCurve:
    r"""MoRF evaluation: replace the most relevant features first, vs random.

    Parameters
    ----------
    model : object or callable
        As in `mfi`. With ``y`` it must have ``predict``.
    X : array-like, shape (n, d)
        Inputs to perturb (e.g. a test set).
    relevance : array-like, shape (d,) or (n, d)
        Relevance of each feature: one ordering for all inputs (model-based)
        or one per input (instance-based; for a classifier, multiply by the
        sign of the input's score so that large values support its class).
        Ties are broken at random.
    n_steps : int, default 20
        Number of removal steps; the points are ``round(linspace(0,
        max_features, n_steps + 1))`` features removed (duplicates dropped).
    baseline : {"uniform", "marginal", "mean"}, float or array, default "uniform"
        What a removed feature becomes: a uniform random value in the
        feature's range over X (as the authors' pixel flipping), a random
        value of the feature from another row of X, the feature's mean, or
        given values. Random values are drawn once and shared by the MoRF
        and the random orders.
    random_state : int, numpy.random.Generator or None
        Seed for the replacement values, tie breaking and random orders.
    y : array-like, shape (n,), optional
        Labels. If given the curve is the accuracy of ``model.predict``,
        otherwise the mean score (see `mfi`).
    n_random : int, default 10
        Random removal orders (per input) for the reference curve, >= 1.
    max_features : int, optional
        Remove at most this many features (default all d).

    Returns
    -------
    MorfCurve
        The curves with their areas: ``aopc``/``random_aopc`` (area over the
        perturbation curve, larger means faster degradation) and
        ``auc``/``random_auc`` (area under it).

    Raises
    ------
    InputError
        For invalid arguments.

    See Also
    --------
    mfi : the relevance to evaluate.

    Notes
    -----
    With ``x^(0) = x`` and ``x^(k)`` the input with its k most relevant
    features replaced, the performance curve is ``c_k = mean_x p(x^(k))``
    (score, or correctness of the prediction), and following Samek et al.
    the area over the perturbation curve over the ``K + 1`` points is

    .. math:: \mathrm{AOPC} = \frac{1}{K+1} \sum_{k=0}^{K} (c_0 - c_k).

    A relevance ordering is informative if its AOPC exceeds that of random
    orders: removing relevant features first degrades the model faster.
    Vidovic et al. (figure 3 (c, d)) compare accuracies this way.

    References
    ----------
    W. Samek, A. Binder, G. Montavon, S. Bach and K.-R. Müller. Evaluating the
    visualization of what a deep neural network has learned. IEEE TNNLS
    28(11), 2660-2673, 2017. arXiv:1509.06321.

    M. M.-C. Vidovic, N. Görnitz, K.-R. Müller and M. Kloft. Feature importance
    measure for non-linear learning algorithms. NIPS 2016 Workshop on
    Interpretable Machine Learning in Complex Systems. arXiv:1611.07567.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 4))
    >>> w = np.array([3.0, 2.0, 1.0, 0.0])
    >>> res = morf_curve(lambda X: X @ w, X[X @ w > 0], relevance=w, n_steps=4,
    ...                  baseline=0.0, random_state=0)
    >>> res.n_removed.tolist()
    [0, 1, 2, 3, 4]
    >>> bool(res.aopc > res.random_aopc)
    True
    """
    X = _matrix(X, "X")
    n, d = X.shape
    n_steps = check_int(n_steps, "n_steps", 1)
    n_random = check_int(n_random, "n_random", 1)
    max_features = (
        d if max_features is None else check_int(max_features, "max_features", 1, d)
    )
    rng = as_rng(random_state)
    if not _numeric(relevance):
        raise InputError(
            f"relevance must be numeric with shape ({d},) or ({n}, {d}), got "
            f"{type(relevance).__name__}"
        )
    rel = np.asarray(relevance, dtype=np.float64)
    if rel.shape not in ((d,), (n, d)):
        raise InputError(
            f"relevance has shape {rel.shape} but must have shape ({d},) or "
            f"({n}, {d}) to match X"
        )
    if np.any(np.isnan(rel)):
        raise InputError("relevance contains NaN")
    if y is None:
        score = _score_function(model)

        def perf(A: np.ndarray) -> float:
            return float(score(A).mean())

    else:
        labels = np.asarray(y)
        if labels.shape != (n,):
            raise InputError(
                f"y has shape {labels.shape} but must have shape ({n},) to match X"
            )
        if not hasattr(model, "predict"):
            raise InputError(
                "model must have predict when y is given (accuracy curve), got "
                f"{type(model).__name__}; omit y to follow the mean score"
            )

        def perf(A: np.ndarray) -> float:
            pred = np.asarray(model.predict(A))
            if pred.shape != (n,):
                raise InputError(
                    f"predict returned shape {pred.shape} for {n} inputs but must "
                    f"return shape ({n},)"
                )
            return float(np.mean(pred == labels))

    replacement = _replacements(X, baseline, rng)
    rel = np.broadcast_to(rel, (n, d))
    # random tie breaking: shuffle the columns, then a stable descending sort
    shuffle = np.argsort(rng.random((n, d)), axis=1)
    shuffled = np.take_along_axis(rel, shuffle, axis=1)
    order = np.take_along_axis(
        shuffle, np.argsort(-shuffled, axis=1, kind="stable"), axis=1
    )
    n_removed = np.unique(
        np.round(np.linspace(0, max_features, n_steps + 1)).astype(np.int64)
    )

    def curve_for(ranks: np.ndarray) -> np.ndarray:
        return np.array([perf(np.where(ranks < m, replacement, X)) for m in n_removed])

    curve = curve_for(_ranks(order))
    random_curves = np.array(
        [
            curve_for(_ranks(np.argsort(rng.random((n, d)), axis=1)))
            for _ in range(n_random)
        ]
    )
    return MorfCurve(n_removed, curve, random_curves, d)
