"""Per-sequence losses of `WDLinearSVC` as functions of the margin ``m = y f``.

Each loss gives its value, first and second derivative in ``m`` (the second
derivative of the squared hinge is its generalised Hessian). The dual
coefficient of a sequence at the optimum is ``alpha_i y_i = -C l'(m_i) y_i``
(zero outside the margin for the squared hinge).
"""

from __future__ import annotations

import numpy as np

LOSSES = ("squared_hinge", "logistic", "hinge")  # hinge: dual CD only


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
