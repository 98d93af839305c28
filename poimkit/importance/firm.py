"""Feature Importance Ranking Measure (FIRM) of Zien et al. (2009) for any model.

FIRM asks how strongly the *expected* score of a trained model varies with a
feature ``f`` of the input, under a distribution of the inputs:

* conditional expected score (Definition 1, eq. 7):
  ``q_f(t) = E[s(X) | f(X) = t]``;
* FIRM (Definition 2, eq. 8): ``Q_f = sqrt(Var[q_f(f(X))])``.

Because the whole distribution of ``X`` enters through the conditioning,
FIRM credits a feature with the effects of the features it is correlated
with; the raw weights of a model do not. This module computes FIRM for
vectorial inputs (the POIM engine, `poimkit.poim`, does the same for
positional k-mers of sequences): `firm` for any model or score function on a
data matrix, by the ``"gaussian"``, ``"empirical"`` or ``"regression"``
estimator; the paper's closed forms on arrays, `firm_linear`
(``Q = D^-1 Sigma w``), `firm_linear_binary` (``Q = M^T X w``, eq. 11),
`firm_least_squares` (eq. 13) and `firm_indicators` (eq. 10); `firm_binary`
for literals and pairwise conjunctions of binary variables under a
distribution given by its support rows; and the building blocks
`conditional_score_line` and `rbf_svm_gradient` (a model adapter, defined in
`poimkit.importance.score_functions`).

Sign convention: like eq. (10) and eq. (12) of the paper, all functions
return a *signed* FIRM, positive when larger feature values (for a Boolean
feature: the feature being true) raise the expected score. The standard
deviation of Definition 2 is its absolute value.

References
----------
.. [1] A. Zien, N. Kraemer, S. Sonnenburg and G. Raetsch. The Feature
   Importance Ranking Measure. ECML/PKDD 2009, LNCS 5782, 694-709.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .. import _validation
from ..errors import InputError
from . import _inputs
from . import score_functions as scoring
from .score_functions import rbf_svm_gradient

__all__ = [
    "BinaryFirm",
    "conditional_score_line",
    "firm",
    "firm_binary",
    "firm_indicators",
    "firm_least_squares",
    "firm_linear",
    "firm_linear_binary",
    "rbf_svm_gradient",
]

_METHODS = ("gaussian", "empirical", "regression")
_NOT_BINARY = "; use method='regression' or 'gaussian' for other features"


# =============================================================== pure formulas
def firm_linear(w: ArrayLike, cov: ArrayLike) -> np.ndarray:
    r"""FIRM of the input variables for a linear score and Gaussian inputs.

    Parameters
    ----------
    w : array-like of shape (n_features,)
        Weights of the linear score ``s(x) = w^T x + b`` (the intercept does
        not matter).
    cov : array-like of shape (n_features, n_features)
        Covariance matrix ``Sigma`` of the inputs: symmetric, positive
        semi-definite.

    Returns
    -------
    ndarray of shape (n_features,)
        Signed FIRM ``Q_j`` of each input variable ``f_j(x) = x_j``.

    Raises
    ------
    InputError
        If the shapes disagree, an entry is not finite, or ``cov`` is not
        symmetric or not positive semi-definite.

    Notes
    -----
    For ``X ~ N(mu, Sigma)`` the conditional mean is
    ``E[X | X_j = t] = mu + (t - mu_j) Sigma_j. / Sigma_jj``, so the
    conditional expected score is linear in ``t`` (eq. 12),

    .. math:: q_j(t) = s(\mu) + (t - \mu_j)\,
              \frac{\Sigma_{j\bullet}^\top w}{\Sigma_{jj}},

    and with ``Var[X_j] = Sigma_jj`` its standard deviation is (Section 2.4.3)

    .. math:: Q = D^{-1} \Sigma w, \qquad D = \mathrm{diag}(\sqrt{\Sigma_{jj}}).

    For uncorrelated inputs this is ``Q_j = sd(X_j) w_j``: rescaling a
    feature rescales its weight inversely and leaves ``Q`` unchanged. A
    variable with zero variance gets ``Q_j = 0``. With the gradient of a
    non-linear score at the mean in place of ``w`` this is the first-order
    approximation of eq. (9) (see `firm`).

    References
    ----------
    .. [1] Zien et al. (2009), Section 2.4.3, eq. (12).

    Examples
    --------
    Two strongly correlated inputs; the score uses only the first one, yet
    both are important:

    >>> cov = np.array([[1.0, 0.9], [0.9, 1.0]])
    >>> firm_linear([1.0, 0.0], cov).tolist()
    [1.0, 0.9]
    >>> firm_linear([0.5, 0.5], cov).round(3).tolist()
    [0.95, 0.95]
    """
    w = _validation.as_vector(w, "w")
    cov = _inputs.check_covariance(cov, w.size, "cov")
    return _firm_linear(w, cov)


def _firm_linear(w: np.ndarray, cov: np.ndarray) -> np.ndarray:
    sd = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    num = cov @ w
    out = np.zeros_like(num)
    np.divide(num, sd, out=out, where=sd > 0)
    return out


def firm_linear_binary(
    w: ArrayLike, X: ArrayLike, features: Sequence[int] | None = None
) -> np.ndarray:
    r"""FIRM of binary input variables for a linear score, empirical distribution.

    Parameters
    ----------
    w : array-like of shape (n_features,)
        Weights of the linear score ``s(x) = w^T x + b``.
    X : array-like of shape (n_samples, n_features)
        Data matrix; its rows, with equal weight, define the distribution.
        The columns in ``features`` must take at most two distinct values
        (any two, e.g. 0/1 or -1/+1); the others may be anything.
    features : sequence of int, optional
        Column indices to evaluate; all columns by default.

    Returns
    -------
    ndarray of shape (n_features_selected,)
        Signed FIRM ``Q_j``: positive when the larger value of ``x_j`` raises
        the expected score. A column with a single value gets 0.

    Raises
    ------
    InputError
        If shapes disagree, entries are not finite, or a selected column takes
        more than two values.

    Notes
    -----
    With ``n_{j,+}`` and ``n_{j,-}`` the numbers of rows with the larger and
    the smaller value of ``x_j``, eq. (10) under the empirical distribution
    is (Section 2.4.2)

    .. math:: Q = M^\top X w, \qquad M = \mathbf{1}_{n\times d} D_0 + Z D_1,

    with ``Z`` the data recoded to -1/+1 (larger value -> +1) and diagonal

    .. math:: (D_1)_{jj} = \frac{1}{2\sqrt{n_{j,+} n_{j,-}}}, \qquad
              (D_0)_{jj} = \frac{n_{j,-} - n_{j,+}}
                               {2 n \sqrt{n_{j,+} n_{j,-}}}.

    The printed paper has ``n_{j,+} - n_{j,-}`` in the numerator of
    ``D_0``; that sign is a typo (it makes ``Q`` depend on the intercept
    ``b`` and disagree with eq. 10 whenever ``n_{j,+} != n_{j,-}``); the
    version above is derived from eq. (10) and checked against it in the
    tests. Since ``M^T 1 = 0``, the intercept drops out. For the full truth
    table of -1/+1 inputs ``M^T X = I`` and ``Q = w`` (Section 2.4.1).

    References
    ----------
    .. [1] Zien et al. (2009), Section 2.4.2, eq. (11).

    Examples
    --------
    All four rows of {-1, +1}^2 (independent, uniform inputs): ``Q = w``.

    >>> X = np.array([[-1, -1], [-1, 1], [1, -1], [1, 1]])
    >>> firm_linear_binary([2.0, -0.5], X).tolist()
    [2.0, -0.5]
    """
    X = _validation.as_matrix(X, "X")
    n, d = X.shape
    w = _validation.as_vector(w, "w", size=d, size_name="X.shape[1]")
    cols = _inputs.check_features(features, d)
    high, _ = _inputs.binary_columns(X, cols, "X", _NOT_BINARY)
    Z = np.where(X[:, cols] == high, 1.0, -1.0)
    n_pos = (Z > 0).sum(axis=0).astype(np.float64)
    n_neg = n - n_pos
    root = np.sqrt(n_pos * n_neg)
    ok = root > 0
    d1 = np.zeros(cols.size)
    d0 = np.zeros(cols.size)
    d1[ok] = 1.0 / (2.0 * root[ok])
    d0[ok] = (n_neg[ok] - n_pos[ok]) / (2.0 * n * root[ok])
    M = d0[None, :] + Z * d1[None, :]
    return M.T @ (X @ w)


def firm_least_squares(
    X: ArrayLike, y: ArrayLike, cov: ArrayLike | None = None
) -> np.ndarray:
    r"""FIRM of the inputs for the least-squares linear regression of ``y`` on ``X``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training inputs.
    y : array-like of shape (n_samples,)
        Training targets (or labels).
    cov : array-like of shape (n_features, n_features), optional
        The true covariance ``Sigma`` of the inputs, if known. By default the
        empirical covariance ``Sigma_hat`` (divisor n) is used.

    Returns
    -------
    ndarray of shape (n_features,)
        Signed FIRM of each input variable for the score ``s(x) = w^T x + b``
        with the ordinary least-squares weights ``w``.

    Raises
    ------
    InputError
        If shapes disagree, entries are not finite, or (with ``cov`` given)
        ``Sigma_hat`` is singular so that ``w`` is not unique.

    Notes
    -----
    With centred data, ``w = (n Sigma_hat)^-1 X^T y``, and `firm_linear`
    gives eq. (13):

    .. math:: Q = D^{-1} \Sigma \, (n \hat\Sigma)^{-1} X^\top y .

    For ``Sigma = Sigma_hat`` (the default) this is
    ``Q = D^-1 X^T y / n = Cov(X_j, y) / sd(X_j)``: FIRM computed directly
    on the targets, which needs no matrix inverse and exists even when
    ``n < n_features``. The paper writes the regression without intercept;
    here ``X`` and ``y`` are centred (an intercept is fitted), which keeps
    ``Q`` invariant to translations of the features.

    References
    ----------
    .. [1] Zien et al. (2009), Section 2.4.3, eq. (13).

    Examples
    --------
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]])
    >>> y = np.array([0.0, 1.0, 3.0, 3.0])
    >>> firm_least_squares(X, y).round(4).tolist()
    [1.2298, 0.7071]
    """
    X = _validation.as_matrix(X, "X", min_rows=2)
    n, d = X.shape
    y = _validation.as_vector(y, "y", size=n, size_name="X.shape[0]")
    Xc = X - X.mean(axis=0)
    yc = y - y.mean()
    xty = Xc.T @ yc
    emp = Xc.T @ Xc / n
    if cov is None:
        sd = np.sqrt(np.diag(emp))
        out = np.zeros(d)
        np.divide(xty / n, sd, out=out, where=sd > 0)
        return out
    cov = _inputs.check_covariance(cov, d, "cov")
    if np.linalg.matrix_rank(emp) < d:
        raise InputError(
            f"X has an empirical covariance of rank {np.linalg.matrix_rank(emp)} "
            f"but must have full rank {d} for least squares with a given cov "
            f"(n_samples={n}); use more samples or cov=None"
        )
    w = np.linalg.solve(n * emp, xty)
    return _firm_linear(w, cov)


def firm_indicators(
    scores: ArrayLike, F: ArrayLike, sample_weight: ArrayLike | None = None
) -> np.ndarray | float:
    r"""Exact FIRM of Boolean features from scores under a discrete distribution.

    Parameters
    ----------
    scores : array-like of shape (n_samples,)
        Score ``s(x_i)`` of each support point (row) of the distribution.
    F : array-like of shape (n_samples,) or (n_samples, n_indicators)
        Value of each Boolean feature at each row (bool, or 0/1).
    sample_weight : array-like of shape (n_samples,), optional
        Probability (or any non-negative weight, normalised here) of each row;
        uniform by default (the empirical distribution).

    Returns
    -------
    float or ndarray of shape (n_indicators,)
        Signed FIRM ``Q_f = (q_f(1) - q_f(0)) sqrt(p_1 p_0)``; a float if
        ``F`` is 1-D. A feature that is constant on the support gets 0.

    Raises
    ------
    InputError
        If shapes disagree, entries are not finite, ``F`` is not Boolean or
        the weights are negative or sum to zero.

    Notes
    -----
    For a binary feature with ``p_1 = Pr(f(X) = 1)``, ``p_0 = 1 - p_1`` and
    ``q_t = E[s(X) | f(X) = t]``, ``Var[q_f(f(X))] = p_1 p_0 (q_1 - q_0)^2``
    and (eq. 10, keeping the sign)

    .. math:: Q_f = (q_1 - q_0) \sqrt{p_1 p_0}
              = \frac{\mathrm{Cov}(s(X), f(X))}{\mathrm{sd}(f(X))},

    the slope of the least-squares line of ``q_f`` times the standard
    deviation of ``f``: for binary features the ``"regression"`` and the
    exact estimate of `firm` coincide. The value is invariant to recoding the
    feature by any two numbers (larger value <-> true).

    References
    ----------
    .. [1] Zien et al. (2009), Section 2.3, eq. (10).

    Examples
    --------
    Uniform inputs in {-1, +1}^2, score ``s = 2 x_1 + x_2``: the conjunction
    ``x_1 = x_2 = +1`` gets ``(w_1 + w_2) / sqrt(3)``, the XOR gets 0
    (Section 2.4.1).

    >>> X = np.array([[-1, -1], [-1, 1], [1, -1], [1, 1]])
    >>> s = X @ np.array([2.0, 1.0])
    >>> conj = (X[:, 0] == 1) & (X[:, 1] == 1)
    >>> round(firm_indicators(s, conj) * 3**0.5, 12)
    3.0
    >>> firm_indicators(s, X[:, 0] != X[:, 1])
    0.0
    """
    scores = _validation.as_vector(scores, "scores")
    n = scores.size
    F_arr = np.asarray(F)
    one_d = F_arr.ndim == 1
    F_arr = _inputs.as_indicators(F_arr, n, "F")
    weights = _inputs.check_weights(sample_weight, n)
    out = _firm_indicators(scores, F_arr, weights)
    return float(out[0]) if one_d else out


def _firm_indicators(scores: np.ndarray, F: np.ndarray, weights: np.ndarray):
    """Eq. (10) for boolean columns ``F`` (n, m), normalised ``weights`` (n,)."""
    F = F.astype(np.float64)
    centred = scores - weights @ scores
    p1 = weights @ F
    p0 = weights @ (1.0 - F)
    num = (weights * centred) @ F
    den = np.sqrt(p1 * p0)
    out = np.zeros_like(num)
    np.divide(num, den, out=out, where=den > 0)
    return out


# ================================================================ binary sets
@dataclass(frozen=True)
class BinaryFirm:
    """FIRM of literals and of pairwise conjunctions of binary variables.

    Parameters
    ----------
    variables : ndarray of shape (m,)
        Column indices of the variables, in the order of the axes below.
    values : tuple of (float, float)
        The coding of the inputs, ``(0, 1)`` or ``(-1, 1)``; index ``v`` of
        the axes below stands for the value ``values[v]``.
    single : ndarray of shape (m, 2)
        ``single[j, v]``: FIRM of the literal ``x_j = values[v]``
        (``single[:, 0] == -single[:, 1]``).
    pairs : ndarray of shape (m, m, 2, 2)
        ``pairs[j, k, a, b]``: FIRM of the conjunction
        ``x_j = values[a] and x_k = values[b]``; symmetric,
        ``pairs[j, k, a, b] == pairs[k, j, b, a]``, NaN where ``j == k``.
    """

    variables: np.ndarray
    values: tuple
    single: np.ndarray
    pairs: np.ndarray


def firm_binary(
    model_or_score: Any,
    X_binary: ArrayLike,
    features: Sequence[int] | None = None,
    sample_weight: ArrayLike | None = None,
) -> BinaryFirm:
    """Exact FIRM of all literals and pairwise conjunctions of binary variables.

    Parameters
    ----------
    model_or_score : object, callable or array-like of shape (n_samples,)
        The score: a model (``decision_function``, ``predict_proba`` of a
        binary classifier, or ``predict``), a callable ``f(X) -> scores``, or
        the scores of the rows of ``X_binary`` themselves (e.g. labels, for
        the paper's "y-FIRM").
    X_binary : array-like of shape (n_samples, n_features)
        The support of the input distribution, one row per point, coded 0/1
        (or -1/+1 as in Section 2.4 of the paper, if any entry is -1). For
        the uniform distribution over ``{0, 1}^d`` pass all ``2^d`` rows of
        the truth table; for the empirical distribution the data.
    features : sequence of int, optional
        Columns (variables) to evaluate; all by default.
    sample_weight : array-like of shape (n_samples,), optional
        Probability of each row (normalised here); uniform by default.

    Returns
    -------
    BinaryFirm
        ``single`` (m, 2) for the literals ``x_j = v`` and ``pairs``
        (m, m, 2, 2) for the conjunctions ``x_j = a and x_k = b``.

    Raises
    ------
    InputError
        If ``X_binary`` is not binary, the scores have the wrong shape or are
        not finite, or ``features`` or ``sample_weight`` are invalid.

    Notes
    -----
    Every literal and conjunction is a Boolean feature ``f``; its FIRM is
    eq. (10), ``Q_f = (q_f(1) - q_f(0)) sqrt(p_1 p_0)``, with the
    conditional expected scores ``q_f(t) = E[s(X) | f(X) = t]`` computed by
    summing over the rows (exact, no sampling). Under the uniform
    distribution on ``{-1, +1}^d`` and ``s(x) = w^T x + b`` this gives
    ``Q(x_j = +1) = w_j`` and ``Q(x_j = +1 and x_k = +1) = (w_j + w_k) /
    sqrt(3)`` (Section 2.4.1). With 0/1 coding, ``s(x) = w^T x + b`` gives
    ``Q(x_j = 1) = w_j / 2``: a unit step of a 0/1 variable is half the step
    from -1 to +1.

    References
    ----------
    .. [1] Zien et al. (2009), Sections 2.3, 2.4.1 and 3.1 (Figure 1).

    Examples
    --------
    Labels of ``x_1 and not x_2`` on the uniform distribution over
    ``{0, 1}^2``:

    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> y = np.array([0.0, 0.0, 1.0, 0.0])
    >>> result = firm_binary(y, X)
    >>> result.single.round(3).tolist()
    [[-0.25, 0.25], [0.25, -0.25]]
    >>> round(float(result.pairs[0, 1, 1, 0]), 3)  # x_1 = 1 and x_2 = 0
    0.433
    """
    X = _validation.as_matrix(X_binary, "X_binary")
    n, d = X.shape
    values = _inputs.binary_coding(X, "X_binary")
    cols = _inputs.check_features(features, d)
    scores = scoring.score_batch(model_or_score, X, name="model_or_score", arrays=True)
    weights = _inputs.check_weights(sample_weight, n)
    m = cols.size
    sub = X[:, cols]
    L = np.stack([sub == values[0], sub == values[1]], axis=-1)  # (n, m, 2)
    single = _firm_indicators(scores, L.reshape(n, 2 * m), weights).reshape(m, 2)
    Lf = L.astype(np.float64)
    centred = scores - weights @ scores
    p1 = np.einsum("i,ija,ikb->jkab", weights, Lf, Lf)
    # Pr(not (A and B)) = Pr(not A) + Pr(A and not B): sums of non-negative
    # terms, exactly 0 for a conjunction that is always true
    p0 = np.einsum("i,ija->ja", weights, 1.0 - Lf)[:, None, :, None] + np.einsum(
        "i,ija,ikb->jkab", weights, Lf, 1.0 - Lf
    )
    num = np.einsum("i,ija,ikb->jkab", weights * centred, Lf, Lf)
    den = np.sqrt(p1 * p0)
    pairs = np.zeros_like(num)
    np.divide(num, den, out=pairs, where=den > 0)
    idx = np.arange(m)
    pairs[idx, idx] = np.nan
    return BinaryFirm(variables=cols, values=values, single=single, pairs=pairs)


# ======================================================== model-based helpers
def conditional_score_line(
    model: Any, X: ArrayLike, features: Sequence[int] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Least-squares line ``q_f(t) ~ a_f + b_f t`` of the conditional expected score.

    Parameters
    ----------
    model : object, callable or array-like of shape (n_samples,)
        The score (see `firm`), or the scores of the rows of ``X``.
    X : array-like of shape (n_samples, n_features)
        Data; the rows define the (empirical) distribution.
    features : sequence of int, optional
        Columns to evaluate; all by default.

    Returns
    -------
    intercept, slope : ndarray of shape (n_features_selected,)
        ``a_f`` and ``b_f``. A constant column gets slope 0 and the mean score
        as intercept.

    Notes
    -----
    Because ``E[s(X) | X_f] = q_f(X_f)``, regressing the scores on the
    feature has the same least-squares line as regressing ``q_f`` on it:
    ``b_f = Cov(s(X), X_f) / Var(X_f)``, ``a_f = E[s] - b_f E[X_f]``. The
    FIRM estimate of the ``"regression"`` method of `firm` is
    ``b_f sd(X_f)`` (Section 2: "the increase of the linear regression
    function along one standard deviation of feature value").

    References
    ----------
    .. [1] Zien et al. (2009), Sections 2 and 3.2 (Figure 2).

    Examples
    --------
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0], [2.0, 0.0], [3.0, 0.0]])
    >>> a, b = conditional_score_line(lambda Z: 2.0 * Z[:, 0] + 1.0, X)
    >>> a.tolist(), b.tolist()
    ([1.0, 6.0], [2.0, -4.0])
    """
    X = _validation.as_matrix(X, "X", min_rows=2)
    cols = _inputs.check_features(features, X.shape[1])
    scores = scoring.score_batch(model, X, arrays=True)
    return _score_line(scores, X[:, cols])


def _score_line(scores: np.ndarray, Xf: np.ndarray):
    xc = Xf - Xf.mean(axis=0)
    var = (xc**2).mean(axis=0)
    cov = (scores - scores.mean()) @ xc / scores.size
    slope = np.zeros_like(var)
    np.divide(cov, var, out=slope, where=var > 0)
    intercept = scores.mean() - slope * Xf.mean(axis=0)
    return intercept, slope


# ======================================================================= firm
def firm(
    model: Any,
    X: ArrayLike,
    features: Sequence[int] | None = None,
    *,
    method: str = "gaussian",
    covariance: str | ArrayLike | None = None,
    gradient: str | Callable[[np.ndarray], ArrayLike] | None = None,
    step: float | None = None,
) -> np.ndarray:
    r"""FIRM of the input variables of any model, estimated from data.

    Parameters
    ----------
    model : object, callable or array-like of shape (n_samples,)
        The score function ``s``, in order of preference: an object with
        ``decision_function``; with ``predict_proba`` (column 1 of a binary
        classifier); with ``predict``; a callable ``f(X) -> scores``. For the
        ``"empirical"`` and ``"regression"`` methods it may also be the
        scores of the rows of ``X`` (e.g. labels).
    X : array-like of shape (n_samples, n_features)
        Data representing the input distribution.
    features : sequence of int, optional
        Columns to report; all by default. The other columns still take part
        (through the covariance, or the score).
    method : {"gaussian", "empirical", "regression"}, default "gaussian"
        ``"gaussian"``: ``X ~ N(mu, Sigma)`` with the mean and covariance of
        ``X`` (eq. 9; exact for linear scores). ``"empirical"``: exact FIRM of
        binary columns under the empirical distribution of ``X`` (eq. 10, 11).
        ``"regression"``: slope of the least-squares line of ``q_f`` times the
        standard deviation of the feature, for features of unknown
        distribution (Section 2).
    covariance : {"empirical", "ledoit_wolf"} or array-like, optional
        Only for ``"gaussian"``: the maximum-likelihood covariance of ``X``
        (default), its Ledoit-Wolf shrinkage (`sklearn.covariance.LedoitWolf`,
        better for few samples or many features) or a given
        (n_features, n_features) matrix.
    gradient : {"auto", "numeric"} or callable, optional
        Only for ``"gaussian"``: how to get ``grad s`` at the mean. ``"auto"``
        (default) uses ``coef_`` of a linear model (a model whose ``coef_`` has
        n_features entries; its score must be ``coef_ @ x + intercept``), the
        closed form of `rbf_svm_gradient` for an RBF-kernel SVM, and central
        differences otherwise; ``"numeric"`` always uses central differences;
        a callable ``g(x) -> (n_features,)`` is used as the gradient.
    step : float, optional
        Only for ``"gaussian"`` with central differences: the step relative to
        each feature's standard deviation, in (0, 1); 1e-4 by default.

    Returns
    -------
    ndarray of shape (n_features_selected,)
        Signed FIRM ``Q_f``: positive when larger values of the feature raise
        the expected score; ``|Q_f|`` is Definition 2.

    Raises
    ------
    InputError
        For non-finite or badly shaped input, unknown options, options that
        do not apply to ``method``, non-binary columns with ``"empirical"``,
        an array of scores with ``"gaussian"``, or a model whose output is not
        one finite number per row.

    Notes
    -----
    Definition 2 of the paper: ``Q_f = sqrt(Var[q_f(X_f)])`` with
    ``q_f(t) = E[s(X) | X_f = t]``.

    *gaussian* (Section 2.2). For ``X ~ N(mu, Sigma)``,
    ``E[X | X_j = t] = mu + (t - mu_j) Sigma_j. / Sigma_jj``; a first-order
    Taylor expansion of ``s`` at the mean gives (eq. 9, centred at ``mu``)

    .. math:: Q_j \approx \frac{\Sigma_{j\bullet}^\top
              \nabla s(\mu)}{\sqrt{\Sigma_{jj}}},

    i.e. `firm_linear` with ``w = grad s(mu)``: exact, ``Q = D^-1 Sigma w``,
    for a linear score (eq. 12).

    *empirical* (Section 2.3). For a column with values ``a > b``,
    ``Q_j = (q_j(a) - q_j(b)) sqrt(p_a p_b)`` with the conditional means of
    the scores over the rows (eq. 10); for a linear model the same number
    is computed as ``M^T X w`` (eq. 11, `firm_linear_binary`).

    *regression* (Section 2). ``Q_j = b_j sd(X_j) = Cov(s, X_j) / sd(X_j)``
    with ``b_j`` the least-squares slope of ``q_j`` (`conditional_score_line`);
    identical to *empirical* for binary columns, and to *gaussian* with the
    empirical covariance for a linear score.

    FIRM scales with the score; to compare models, divide by the standard
    deviation of ``s(X)`` (Section 2.1).

    References
    ----------
    .. [1] Zien et al. (2009), Sections 2.2-2.4.

    Examples
    --------
    A linear score of two correlated Gaussian inputs, of which only the first
    is used:

    >>> rng = np.random.default_rng(0)
    >>> X = rng.multivariate_normal([0.0, 0.0], [[1.0, 0.8], [0.8, 1.0]], 2000)
    >>> score = lambda Z: 2.0 * Z[:, 0]
    >>> firm(score, X).round(1).tolist()
    [2.0, 1.6]
    >>> firm(score, X, method="regression").round(1).tolist()
    [2.0, 1.6]

    Binary inputs (exact):

    >>> B = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> firm(lambda Z: Z[:, 0] * Z[:, 1], B, method="empirical").tolist()
    [0.25, 0.25]
    """
    _validation.check_choice(method, "method", _METHODS)
    if method != "gaussian":
        options = {"covariance": covariance, "gradient": gradient, "step": step}
        _validation.check_unset("method='gaussian'", f"method={method!r}", **options)
    step = _validation.check_real(1e-4 if step is None else step, "step", 0, 1)
    X = _validation.as_matrix(X, "X", min_rows=2)
    n, d = X.shape
    cols = _inputs.check_features(features, d)

    if method == "gaussian":
        if scoring.is_score_array(model):
            raise InputError(
                "model must be a model or a callable for method='gaussian' (it "
                "needs the gradient of the score), got an array of scores; use "
                "method='regression' or 'empirical' with precomputed scores"
            )
        cov = _inputs.covariance_of(
            X, "empirical" if covariance is None else covariance
        )
        grad = scoring.score_gradient(
            model, X, "auto" if gradient is None else gradient, step
        )
        return _firm_linear(grad, cov)[cols]

    if method == "empirical":
        high, _ = _inputs.binary_columns(X, cols, "X", _NOT_BINARY)
        w = None if scoring.is_score_array(model) else scoring.linear_coef(model, d)
        if w is not None:
            return firm_linear_binary(w, X, cols)
        scores = scoring.score_batch(model, X, arrays=True)
        weights = np.full(n, 1.0 / n)
        return _firm_indicators(scores, X[:, cols] == high, weights)

    scores = scoring.score_batch(model, X, arrays=True)
    _, slope = _score_line(scores, X[:, cols])
    return slope * X[:, cols].std(axis=0)
