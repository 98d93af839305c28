"""Per-sequence losses of the linear solvers.

The classification losses of `WDLinearSVC` are functions of the margin
``m = y f``: each gives its value, first and second derivative in ``m`` (the
second derivative of the squared hinge is its generalised Hessian), and the
dual coefficient of a sequence at the optimum is ``alpha_i y_i = -C l'(m_i)
y_i`` (zero outside the margin for the squared hinge). The solvers see every
loss as a function of the score ``f`` and the target ``y`` (`score_terms`),
which also covers regression's squared epsilon-insensitive loss
``max(0, |y - f| - epsilon)**2`` (LIBLINEAR's L2-loss SVR), whose dual
coefficient ``-C l'(f_i)`` is zero inside the tube.
"""

from __future__ import annotations

import numpy as np

LOSSES = ("squared_hinge", "logistic", "hinge")  # hinge: dual CD only
#: the regression loss of the linear solvers (a function of ``y - f``)
REGRESSION_LOSS = "squared_epsilon_insensitive"


def loss_terms(loss: str, m: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """``sum l(m)``, ``l'(m)`` and ``l''(m)``.

    Parameters
    ----------
    loss : {"squared_hinge", "logistic"}
        The loss ``l``.
    m : numpy.ndarray of float64, shape (n,)
        Margins ``y_i f(x_i)``.

    Returns
    -------
    value : float
    d1, d2 : numpy.ndarray of float64, shape (n,)

    Examples
    --------
    >>> value, d1, d2 = loss_terms("squared_hinge", np.array([0.0, 2.0]))
    >>> value, d1.tolist(), d2.tolist()
    (1.0, [-2.0, 0.0], [2.0, 0.0])
    """
    if loss == "squared_hinge":
        slack = np.maximum(0.0, 1.0 - m)
        # "+ 0.0" turns -0.0 into 0.0 (rows outside the margin contribute nothing)
        return float(slack @ slack), -2.0 * slack + 0.0, 2.0 * (slack > 0)
    # logistic: log(1 + exp(-m)), computed without overflow
    value = float(np.logaddexp(0.0, -m).sum())
    p = np.exp(-np.logaddexp(0.0, m))  # sigmoid(-m)
    return value, -p, p * (1.0 - p)


def score_terms(
    loss: str, f: np.ndarray, y: np.ndarray, epsilon: float = 0.0
) -> tuple[float, np.ndarray, np.ndarray]:
    """``sum l(f, y)`` and its first and second derivatives in the scores ``f``.

    Parameters
    ----------
    loss : {"squared_hinge", "logistic", "squared_epsilon_insensitive"}
        The loss: a margin loss of `loss_terms` (``y`` in {-1, +1}) or the
        squared epsilon-insensitive loss ``max(0, |y - f| - epsilon)**2``.
    f : numpy.ndarray of float64, shape (n,)
        Scores.
    y : numpy.ndarray of float64, shape (n,)
        Labels in {-1, +1}, or real targets.
    epsilon : float
        Half-width of the tube of the regression loss (unused otherwise).

    Returns
    -------
    tuple of (float, numpy.ndarray, numpy.ndarray)
        ``sum l``, and ``dl/df`` and ``d2l/df2`` per score.

    Examples
    --------
    >>> value, d1, d2 = score_terms(
    ...     "squared_epsilon_insensitive", np.array([0.0, 1.0, 3.0]),
    ...     np.array([0.5, 1.0, 1.0]), epsilon=1.0)
    >>> value, d1.tolist(), d2.tolist()
    (1.0, [0.0, 0.0, 2.0], [0.0, 0.0, 2.0])
    """
    if loss == REGRESSION_LOSS:
        r = f - y
        slack = np.maximum(0.0, np.abs(r) - epsilon)
        return float(slack @ slack), 2.0 * slack * np.sign(r) + 0.0, 2.0 * (slack > 0)
    # d/df l(y f) = l'(m) y and d2/df2 = l''(m) y**2 = l''(m): exact for y = +-1
    value, d1, d2 = loss_terms(loss, y * f)
    return value, d1 * y, d2
