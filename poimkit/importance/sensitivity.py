"""Sensitivity importance of input variables (Huh & Lee).

How much does the model *output* change when one input is replaced by random
values of the same input, the others kept fixed? Huh & Lee measure this by the
mean absolute difference of the outputs for two random replacements, relative
to the mean absolute difference of two random observed targets. The measure
needs no retraining and treats linear models, neural networks and trees alike;
for a linear model with Gaussian data it equals the standardised regression
coefficient. The "max" variant is the rule of SPSS Clementine 7.1 that the
paper starts from.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._validation import as_rng, as_targets, check_int, is_numeric
from ..errors import InputError
from .score_functions import ScoreFunction, score_function

__all__ = ["output_spread", "sensitivity"]

_VARIANTS = ("random", "max")
_CHUNK_CELLS = 4_000_000  # rows x features predicted at once by variant="max"


def sensitivity(
    model: Any,
    X: ArrayLike,
    y: ArrayLike,
    n_repeats: int = 10,
    variant: Literal["random", "max"] = "random",
    random_state: int | np.random.Generator | None = None,
    *,
    n_pairs: int | None = None,
    n_grid: int | None = 5,
    return_std: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    r"""Huh & Lee's sensitivity importance ``Imp(X_p) = D_p / D_y`` of each input.

    Parameters
    ----------
    model : object with ``predict``
        A fitted model whose ``predict(X)`` returns one number per row (a
        regressor, or any continuous score).
    X : array-like of shape (n_samples, n_features)
        Numeric inputs, ``n_samples >= 2``; the values each input is
        resampled from and the rows whose other inputs are kept fixed.
    y : array-like of shape (n_samples,)
        Observed outputs; they only enter the yardstick ``D_y``.
    n_repeats : int, default=10
        Number of times the random procedure is repeated; the importances are
        averaged over the repeats (the paper uses 10). Not used by
        ``variant="max"``, which is deterministic.
    variant : {"random", "max"}, default="random"
        ``"random"``: the paper's proposal, mean absolute output difference
        for two random replacement values. ``"max"``: Clementine's rule, the
        largest output difference over a grid of values, relative to the
        range of ``y``.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the random replacements and pairs.
    n_pairs : int, optional
        Number ``N`` of random pairs of targets averaged in ``D_y``; the
        default is ``10 * n_samples`` as in the paper. Not used by
        ``variant="max"``.
    n_grid : int or None, default=5
        ``variant="max"`` only: the values each input is set to. An input
        with at most ``n_grid`` distinct values is set to each of them;
        otherwise to ``n_grid`` equally spaced values between its minimum and
        maximum (Clementine: 0, 0.25, 0.5, 0.75, 1 on the range normalised to
        [0, 1]). ``None`` uses every distinct observed value (the maximum over
        the data; ``n_samples`` model evaluations per row and input).
    return_std : bool, default=False
        Also return the standard deviation (``ddof=0``) of the importances
        over the repeats (zeros for ``variant="max"``).

    Returns
    -------
    importances : ndarray of shape (n_features,)
        ``Imp(X_p)``, averaged over the repeats.
    std : ndarray of shape (n_features,)
        Only with ``return_std=True``: the spread of the repeats.

    Raises
    ------
    InputError
        If an argument is invalid, ``X`` and ``y`` do not match, ``y`` is
        constant (``D_y = 0``) or ``predict`` does not return ``n`` finite
        numbers.

    See Also
    --------
    output_spread : The yardstick ``D_y`` (or ``D_y^max``) alone.
    poimkit.importance.permutation.permutation : The increase of the model's
        *error* when an input is shuffled.

    Notes
    -----
    *Proposed measure* (Huh & Lee, section 2). For input :math:`X_p` and each
    row :math:`i = 1..n`, draw two values :math:`x_{ip}^*, x_{ip}^{**}`
    uniformly, with replacement, from the observed :math:`x_{1p}..x_{np}`:

    .. math::

        d_i = f(x_{i1}, .., x_{ip}^*, ..) - f(x_{i1}, .., x_{ip}^{**}, ..),
        \qquad D_p = \frac{1}{n} \sum_{i=1}^n |d_i|,

    .. math::

        D_y = \frac{1}{N} \sum_{k=1}^N |y_k^* - y_k^{**}|, \qquad
        \mathrm{Imp}(X_p) = D_p / D_y,

    with :math:`y_k^*, y_k^{**}` random draws from the observed outputs and
    :math:`N = 10n`. The whole procedure (``D_p`` and ``D_y``) is repeated
    ``n_repeats`` times and the importances are averaged, since they are
    random quantities.

    For a linear model :math:`f(x) = b_0 + \sum_p b_p x_p`,
    :math:`D_p = |b_p| \, E|X_p^* - X_p^{**}|`, so
    :math:`\mathrm{Imp}(X_p) = |b_p| G(X_p) / G(Y)` with :math:`G` the mean
    absolute difference of two independent draws. For Gaussian inputs and
    output :math:`G = 2\sigma/\sqrt{\pi}` and the importance is the
    absolute standardised coefficient :math:`|b_p| \sigma_p / \sigma_y`
    (section 5, Table 3); for other distributions the two differ by the ratio
    of :math:`G/\sigma` of input and output.

    *Clementine's measure* (section 5, ``variant="max"``). For each row the
    input is set to every value :math:`x^\dagger` of a grid and

    .. math::

        d_{ip}^{max} = \max_{x^\dagger, x^{\dagger\dagger}}
            f(.., x^\dagger, ..) - f(.., x^{\dagger\dagger}, ..),
        \qquad D_p^{max} = \frac{1}{n} \sum_i d_{ip}^{max},

    .. math::

        D_y^{max} = \max_i y_i - \min_i y_i, \qquad
        \mathrm{Imp}^{max}(X_p) = D_p^{max} / D_y^{max}.

    Extremes make it less resistant to outlying records, and it is not
    proportional to the coefficients of a linear data-generating model.

    The inputs are resampled independently of each other, so correlated
    inputs are combined into unrealistic rows, as in permutation importance.

    References
    ----------
    .. [1] Huh, M.-H. and Lee, Y. G. Input variable importance in supervised
       learning models. Communications for Statistical Applications and
       Methods (Korean Communications in Statistics) 10(1), 239-246 (2003).
    .. [2] Watkins, D. (1997). Clementine's neural networks technical
       overview. SPSS Inc.

    Examples
    --------
    >>> from sklearn.linear_model import LinearRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(1000, 2))
    >>> y = 2 * X[:, 0] + X[:, 1] + rng.normal(size=1000)
    >>> model = LinearRegression().fit(X, y)
    >>> imp, std = sensitivity(model, X, y, random_state=0, return_std=True)
    >>> beta = model.coef_ * X.std(axis=0) / y.std()  # standardised coefficients
    >>> np.round(imp, 2).tolist(), np.round(beta, 2).tolist()
    ([0.83, 0.4], [0.83, 0.4])
    >>> np.round(sensitivity(model, X, y, variant="max"), 2).tolist()
    [0.86, 0.44]
    """
    X, y = _check_data(X, y)
    n_repeats = check_int(n_repeats, "n_repeats", 1)
    if variant not in _VARIANTS:
        raise InputError(f"variant must be 'random' or 'max', got {variant!r}")
    rng = as_rng(random_state)
    n = X.shape[0]
    n_pairs = 10 * n if n_pairs is None else check_int(n_pairs, "n_pairs", 1)
    if n_grid is not None:
        n_grid = check_int(n_grid, "n_grid", 2)
    predict = score_function(
        model, methods=("predict",), callables=False, example="a fitted regressor"
    )

    if variant == "max":
        d_max = [_max_difference(predict, X, j, n_grid) for j in range(X.shape[1])]
        imp = np.array(d_max) / output_spread(y, variant="max")
        std = np.zeros_like(imp)
    else:
        repeats = np.empty((X.shape[1], n_repeats))
        for r in range(n_repeats):
            d_p = [_random_difference(predict, X, j, rng) for j in range(X.shape[1])]
            repeats[:, r] = np.array(d_p) / _random_spread(y, n_pairs, rng)
        imp, std = repeats.mean(axis=1), repeats.std(axis=1)
    return (imp, std) if return_std else imp


def output_spread(
    y: ArrayLike,
    variant: Literal["random", "max"] = "random",
    n_pairs: int | None = None,
    random_state: int | np.random.Generator | None = None,
) -> float:
    r"""Huh & Lee's yardstick: the typical difference of two observed outputs.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Observed outputs, at least 2 and not all equal.
    variant : {"random", "max"}, default="random"
        ``"random"``: ``D_y``, the mean absolute difference of ``n_pairs``
        pairs drawn with replacement. ``"max"``: ``D_y^max``, the range.
    n_pairs : int, optional
        ``N``, by default ``10 * n_samples`` as in the paper.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the pairs.

    Returns
    -------
    float
        ``D_y`` or ``D_y^max``.

    Notes
    -----
    .. math::

        D_y = \frac{1}{N} \sum_{k=1}^N |y_k^* - y_k^{**}|, \qquad
        D_y^{max} = \max_i y_i - \min_i y_i.

    For Gaussian outputs :math:`E[D_y] = 2\sigma_y/\sqrt{\pi}`.

    References
    ----------
    .. [1] Huh, M.-H. and Lee, Y. G. Input variable importance in supervised
       learning models. Communications for Statistical Applications and
       Methods 10(1), 239-246 (2003).

    Examples
    --------
    >>> output_spread([0.0, 1.0, 3.0], variant="max")
    3.0
    >>> rng = np.random.default_rng(1)
    >>> round(output_spread(rng.normal(size=100_000), random_state=0), 2)
    1.13
    """
    y = np.asarray(y, dtype=np.float64) if is_numeric(y) else None
    if y is None or y.ndim != 1 or y.size < 2 or not np.all(np.isfinite(y)):
        raise InputError(
            "y must be a 1-D array of at least 2 finite numbers, got "
            + ("non-numeric values" if y is None else f"shape {y.shape}")
        )
    if variant not in _VARIANTS:
        raise InputError(f"variant must be 'random' or 'max', got {variant!r}")
    if variant == "max":
        spread = float(np.ptp(y))
    else:
        n_pairs = 10 * y.size if n_pairs is None else check_int(n_pairs, "n_pairs", 1)
        spread = _random_spread(y, n_pairs, as_rng(random_state))
    if not spread > 0:
        raise InputError(
            "y must not be constant: the yardstick D_y is 0 and importances would "
            "be infinite"
        )
    return spread


def _check_data(X: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Float64 ``X`` (n >= 2, finite) and a matching, non-constant ``y``."""
    if not is_numeric(X):
        raise InputError("X must be numeric; encode categorical inputs first")
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] < 2 or X.shape[1] < 1:
        raise InputError(
            "X must be 2-D (n_samples, n_features) with at least 2 samples, got "
            f"shape {X.shape}"
        )
    if not np.all(np.isfinite(X)):
        raise InputError("X must be finite, got NaN or infinite values")
    if not is_numeric(y):
        raise InputError("y must be numeric (a continuous output)")
    y = as_targets(y, X.shape[0], dtype=np.float64)
    if not np.all(np.isfinite(y)):
        raise InputError("y must be finite, got NaN or infinite values")
    if np.ptp(y) == 0:
        raise InputError(
            "y must not be constant: the yardstick D_y is 0 and importances would "
            "be infinite"
        )
    return X, y


def _random_difference(
    predict: ScoreFunction, X: np.ndarray, j: int, rng: np.random.Generator
) -> float:
    """``D_p`` for input ``j``: mean |f(x_i, x*_ij) - f(x_i, x**_ij)| (Steps 1-3)."""
    n = X.shape[0]
    draws = rng.integers(n, size=(2, n))
    both = np.concatenate([X, X])
    both[:, j] = X[draws.ravel(), j]
    out = predict(both)
    return float(np.mean(np.abs(out[:n] - out[n:])))


def _random_spread(y: np.ndarray, n_pairs: int, rng: np.random.Generator) -> float:
    """``D_y``: mean |y* - y**| over ``n_pairs`` random pairs (Step 4)."""
    draws = rng.integers(y.size, size=(2, n_pairs))
    return float(np.mean(np.abs(y[draws[0]] - y[draws[1]])))


def _max_difference(
    predict: ScoreFunction, X: np.ndarray, j: int, n_grid: int | None
) -> float:
    """``D_p^max`` for input ``j``: mean over rows of the range of f over the grid."""
    values = np.unique(X[:, j])
    if n_grid is not None and values.size > n_grid:
        values = np.linspace(values[0], values[-1], n_grid)
    n, n_features = X.shape
    block = max(1, _CHUNK_CELLS // (values.size * n_features))
    total = 0.0
    for start in range(0, n, block):
        rows = X[start : start + block]
        grid = np.repeat(rows, values.size, axis=0)
        grid[:, j] = np.tile(values, rows.shape[0])
        out = predict(grid).reshape(rows.shape[0], values.size)
        total += float(np.sum(out.max(axis=1) - out.min(axis=1)))
    return total / n
