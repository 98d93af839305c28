"""One adapter from a model, a callable or an array of scores to checked scores.

Every importance measure of the package needs the score ``s(x)`` of a trained
model for a batch of inputs. `score_function` resolves a model once (its
``decision_function``, ``predict_proba`` of a binary classifier, ``predict``,
or the model itself if it is callable) into a function that maps a batch
``X`` of shape (n, ...) to n finite float64 scores, checking the output of
every call. `score_batch` does the same for one batch and also accepts the
scores themselves as an array. Callers set what they accept (``methods``,
``callables``, arrays) and how their inputs are called in error messages
(``unit``), so that every message names the caller's argument and items.

The module also holds the other model adapters of the importance measures:
the weights of a linear model (`linear_coef`), the gradient of an RBF-kernel
support vector machine (`rbf_svm_gradient`) and the gradient of any score at
the mean of the data (`score_gradient`).

Users: `poimkit.importance` (FIRM, MFI, MoRF, sensitivity) and
`poimkit.poim.sampled` / `poimkit.poim.reference` (sequence scorers).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from numbers import Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from .._validation import as_vector
from ..errors import InputError

__all__ = [
    "SCORE_METHODS",
    "ScoreFunction",
    "dense",
    "is_rbf_svm",
    "is_score_array",
    "linear_coef",
    "rbf_svm_gradient",
    "score_function",
    "score_gradient",
    "score_batch",
]

ScoreFunction = Callable[[np.ndarray], np.ndarray]
"""A function mapping a batch of n inputs to a float64 array of n scores."""

SCORE_METHODS = ("decision_function", "predict_proba", "predict")
"""Methods a model is scored through, in order of preference."""


def is_score_array(model: Any) -> bool:
    """Whether ``model`` is an array of precomputed scores rather than a model.

    Parameters
    ----------
    model : object
        A model, a callable, or scores (numpy array, list or tuple).

    Returns
    -------
    bool

    Examples
    --------
    >>> is_score_array([0.5, 1.0]), is_score_array(len)
    (True, False)
    """
    return isinstance(model, np.ndarray | list | tuple)


def score_function(
    model: Any,
    *,
    name: str = "model",
    methods: Sequence[str] = SCORE_METHODS,
    callables: bool = True,
    unit: str = "row",
    dtype: DTypeLike | None = None,
    squeeze: bool = True,
    contiguous: bool = False,
    example: str = "a function mapping an array (n, d) to n scores",
    arrays: bool = False,
) -> ScoreFunction:
    """Resolve ``model`` into a checked function ``score(X) -> (n,) float64``.

    Parameters
    ----------
    model : object or callable
        Scored through the first of ``methods`` it has (``predict_proba``:
        column 1 of a binary classifier), or called itself if it has none
        and ``callables`` is true.
    name : str, default "model"
        The caller's name of the argument, used in messages (a method is
        named ``name.method``).
    methods : sequence of str, default ``SCORE_METHODS``
        Methods to look for, in order of preference; any of
        ``"decision_function"``, ``"predict_proba"`` and ``"predict"``.
    callables : bool, default True
        Whether a plain callable is accepted.
    unit : str, default "row"
        What one input is called in messages ("row", "input", "sequence").
    dtype : numpy dtype, optional
        If given, each batch is passed as a C-contiguous array of this type.
    squeeze : bool, default True
        Accept an output of shape (n, 1) as the n scores.
    contiguous : bool, default False
        Return C-contiguous scores (column 1 of ``predict_proba`` is a view
        otherwise).
    example : str, default "a function mapping an array (n, d) to n scores"
        What to suggest when ``model`` cannot be scored.
    arrays : bool, default False
        Whether the caller also accepts precomputed scores (see `score_batch`);
        only the message for a model that cannot be scored says so.

    Returns
    -------
    callable
        ``score(X)``: the scores of the n inputs ``X`` (shape (n, ...)) as a
        float64 array of shape (n,).

    Raises
    ------
    InputError
        If ``model`` cannot be scored; when called, if the output is not
        numeric, has the wrong shape (for ``predict_proba`` anything but
        (n, 2)) or is not finite. Errors raised by the model itself pass
        through unchanged.

    Examples
    --------
    >>> score = score_function(lambda X: X.sum(axis=1))
    >>> score(np.array([[1.0, 2.0], [3.0, 4.0]])).tolist()
    [3.0, 7.0]
    >>> class Model:
    ...     def predict_proba(self, X):
    ...         return np.column_stack([1.0 - X[:, 0], X[:, 0]])
    >>> score_function(Model())(np.array([[0.25], [1.0]])).tolist()
    [0.25, 1.0]
    """
    for method in methods:
        if hasattr(model, method):
            column = 1 if method == "predict_proba" else None
            fn = getattr(model, method)
            label = f"{name}.{method}"
            break
    else:
        if not (callables and callable(model)):
            raise InputError(
                f"{name} must {_accepted(methods, callables, arrays)}, got "
                f"{type(model).__name__}; pass e.g. {example}"
            )
        fn, label, column = model, name, None
    advice = (
        "; for a classifier whose predict returns labels, pass a model with "
        "decision_function or predict_proba, or a callable"
        if len(methods) > 1
        else ""
    )

    def score(X: np.ndarray) -> np.ndarray:
        if dtype is not None:
            X = np.ascontiguousarray(X, dtype=dtype)
        n = X.shape[0]
        raw = fn(X)
        try:
            out = np.asarray(raw, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise InputError(
                f"{label} did not return numbers for {n} {unit}s ({exc}){advice}"
            ) from exc
        if column is not None:
            if out.shape != (n, 2):
                raise InputError(
                    f"{label} returned shape {out.shape} for {n} {unit}s but must "
                    f"return shape ({n}, 2) (a binary classifier; column 1 is "
                    "used); pass a callable for other outputs"
                )
            out = out[:, column]
        elif squeeze and out.shape == (n, 1):
            out = out[:, 0]
        if out.shape != (n,):
            raise InputError(
                f"{label} returned shape {out.shape} for {n} {unit}s but must "
                f"return {n} numbers (one per {unit}): shape ({n},), not shape "
                f"{out.shape}"
                + (
                    f"; for a multi-output model pass a callable that returns "
                    f"one score per {unit}"
                    if callables and out.ndim == 2
                    else ""
                )
            )
        finite = np.isfinite(out)
        if not np.all(finite):
            raise InputError(
                f"{label} returned non-finite scores (NaN or infinite scores for "
                f"{int(np.sum(~finite))} of {n} {unit}s)"
            )
        return np.ascontiguousarray(out) if contiguous else out

    return score


def _accepted(methods: Sequence[str], callables: bool, arrays: bool) -> str:
    """What a scorable argument must be, for messages."""
    options = ["be a callable"] if callables else []
    if len(methods) == 1:
        options.append(f"have a {methods[0]} method")
    elif methods:
        options.append(f"have {', '.join(methods[:-1])} or {methods[-1]}")
    if arrays:
        options.append("be an array of scores")
    if len(options) <= 2:
        return " or ".join(options)
    return f"{', '.join(options[:-1])}, or {options[-1]}"


def score_batch(
    model: Any,
    X: np.ndarray,
    *,
    name: str = "model",
    arrays: bool = False,
    **options: Any,
) -> np.ndarray:
    """Scores of the batch ``X`` from a model, a callable or the scores themselves.

    Parameters
    ----------
    model : object, callable or array-like of shape (n,)
        Anything `score_function` accepts, or (if ``arrays``) the n scores
        of the rows of ``X`` (a numpy array, list or tuple).
    X : numpy.ndarray of shape (n, ...)
        The batch to score.
    name : str, default "model"
        The caller's name of ``model``, used in messages.
    arrays : bool, default False
        Accept precomputed scores.
    **options
        Passed to `score_function`.

    Returns
    -------
    numpy.ndarray of float64, shape (n,)
        Finite scores, one per row of ``X``.

    Raises
    ------
    InputError
        As `score_function`; for an array, if it is not n finite numbers.

    Examples
    --------
    >>> X = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> score_batch(lambda X: X[:, 0], X).tolist()
    [1.0, 3.0]
    >>> score_batch([0.5, 0.25], X, arrays=True).tolist()
    [0.5, 0.25]
    """
    if arrays and is_score_array(model):
        return as_vector(model, name, size=X.shape[0], size_name="one per row of X")
    return score_function(model, name=name, arrays=arrays, **options)(X)


def dense(a: Any) -> np.ndarray:
    """A dense float64 array from an array or a scipy sparse matrix.

    Parameters
    ----------
    a : array-like or scipy.sparse matrix
        Values, such as a fitted model's ``coef_`` or ``dual_coef_``.

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> from scipy import sparse
    >>> dense(sparse.csr_matrix([[0, 2]])).tolist()
    [[0.0, 2.0]]
    """
    return np.asarray(a.toarray() if hasattr(a, "toarray") else a, dtype=np.float64)


def linear_coef(model: Any, d: int) -> np.ndarray | None:
    """The weights ``coef_`` of a linear model with ``d`` features, if it has them.

    Parameters
    ----------
    model : object
        A fitted model, or anything else.
    d : int
        Number of features the weights must have.

    Returns
    -------
    numpy.ndarray of shape (d,) or None
        ``coef_`` (one row of a binary classifier's), dense; None if the model
        has no ``coef_`` of that size with finite entries (e.g. an SVC with a
        non-linear kernel).

    Examples
    --------
    >>> from sklearn.linear_model import LinearRegression
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    >>> linear_coef(LinearRegression().fit(X, X @ [2.0, -1.0]), 2).round(6).tolist()
    [2.0, -1.0]
    >>> linear_coef(object(), 2) is None
    True
    """
    try:
        coef = getattr(model, "coef_", None)
    except AttributeError:  # e.g. SVC with a non-linear kernel
        return None
    if coef is None:
        return None
    coef = dense(coef)
    if coef.ndim == 2 and coef.shape[0] == 1:
        coef = coef[0]
    if coef.shape != (d,) or not np.all(np.isfinite(coef)):
        return None
    return coef


def is_rbf_svm(model: Any) -> bool:
    """Whether ``model`` is a fitted RBF-kernel SVM with one decision function.

    Parameters
    ----------
    model : object
        A fitted model, or anything else.

    Returns
    -------
    bool
        True for a scikit-learn SVM (binary classifier or regressor) fitted
        with ``kernel="rbf"``, whose gradient `rbf_svm_gradient` computes.

    Examples
    --------
    >>> from sklearn.svm import SVR
    >>> X = np.array([[0.0], [1.0], [2.0]])
    >>> is_rbf_svm(SVR().fit(X, X[:, 0])), is_rbf_svm(SVR(kernel="linear"))
    (True, False)
    """
    return (
        getattr(model, "kernel", None) == "rbf"
        and hasattr(model, "dual_coef_")
        and hasattr(model, "support_vectors_")
        and np.ndim(model.dual_coef_) == 2
        and np.shape(model.dual_coef_)[0] == 1
    )


def rbf_svm_gradient(model: Any, x: ArrayLike) -> np.ndarray:
    r"""Gradient of the score of a fitted RBF-kernel SVM (classifier or regressor).

    Parameters
    ----------
    model : sklearn.svm.SVC, SVR, NuSVC, NuSVR or OneClassSVM
        Fitted with ``kernel="rbf"``; a classifier must be binary.
    x : array-like of shape (n_features,) or (n_points, n_features)
        Point(s) at which to evaluate the gradient.

    Returns
    -------
    ndarray of shape (n_features,) or (n_points, n_features)
        ``grad s(x)`` of the score ``s`` (``decision_function``, or ``predict``
        of a regressor), same leading shape as ``x``.

    Raises
    ------
    InputError
        If the model is not a fitted RBF support vector machine with a single
        decision function, or ``x`` has the wrong number of features.

    Notes
    -----
    With ``s(x) = sum_i c_i k(x, x_i) + b``, ``k(x, x') = exp(-gamma
    ||x - x'||^2)`` and ``c_i = alpha_i y_i`` (``dual_coef_``),

    .. math:: \nabla s(x) = \sum_i c_i \, (-2\gamma) (x - x_i)
              \exp(-\gamma \|x - x_i\|^2).

    The paper writes the kernel as ``exp(-||x - x'||^2 / gamma^2)``; its
    ``1 / gamma^2`` is scikit-learn's ``gamma``. The value of ``gamma`` is
    the fitted one (``gamma="scale"`` or ``"auto"`` resolved). FIRM
    (`poimkit.importance.firm.firm`) uses it for the gradient at the mean.

    References
    ----------
    .. [1] Zien et al. (2009), Section 2.2.

    Examples
    --------
    >>> from sklearn.svm import SVR
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> model = SVR(kernel="rbf", gamma=0.5).fit(X, X[:, 0] - X[:, 1])
    >>> rbf_svm_gradient(model, [0.5, 0.5]).round(3).tolist()
    [0.779, -0.779]
    """
    for attr in ("dual_coef_", "support_vectors_"):
        if not hasattr(model, attr):
            raise InputError(
                f"model must be a fitted scikit-learn SVM (attribute {attr}), got "
                f"{type(model).__name__} without it; call fit first"
            )
    if getattr(model, "kernel", None) != "rbf":
        raise InputError(
            f"model.kernel must be 'rbf', got {getattr(model, 'kernel', None)!r}; "
            "use firm(..., gradient='numeric') for other kernels"
        )
    dual = dense(model.dual_coef_)
    if dual.ndim != 2 or dual.shape[0] != 1:
        raise InputError(
            f"model.dual_coef_ has shape {dual.shape} but must have shape "
            "(1, n_support) (one decision function: a binary classifier or a "
            "regressor); pass a callable for one column of a multiclass model"
        )
    sv = dense(model.support_vectors_)
    gamma = getattr(model, "_gamma", None)
    if gamma is None:
        gamma = getattr(model, "gamma", None)
    if isinstance(gamma, bool) or not isinstance(gamma, Real):
        raise InputError(f"model gamma must be a number after fitting, got {gamma!r}")
    x_arr = np.asarray(x, dtype=np.float64)
    one = x_arr.ndim == 1
    points = np.atleast_2d(x_arr)
    if points.ndim != 2 or points.shape[1] != sv.shape[1]:
        raise InputError(
            f"x has shape {x_arr.shape} but must have shape ({sv.shape[1]},) or "
            f"(n_points, {sv.shape[1]}) (the model's number of features)"
        )
    if not np.all(np.isfinite(points)):
        raise InputError("x contains NaN or infinite values; all must be finite")
    sq = (
        (points**2).sum(axis=1)[:, None]
        - 2.0 * points @ sv.T
        + (sv**2).sum(axis=1)[None, :]
    )
    ck = np.exp(-gamma * np.clip(sq, 0.0, None)) * dual[0][None, :]
    grad = -2.0 * gamma * (points * ck.sum(axis=1)[:, None] - ck @ sv)
    return grad[0] if one else grad


_GRADIENTS = ("auto", "numeric")


def score_gradient(
    model: Any,
    X: np.ndarray,
    gradient: str | Callable[[np.ndarray], ArrayLike] = "auto",
    step: float = 1e-4,
) -> np.ndarray:
    """Gradient of a model's score at the mean of ``X``.

    Parameters
    ----------
    model : object or callable
        Anything `score_function` accepts.
    X : numpy.ndarray of shape (n_samples, n_features)
        Finite data; the gradient is taken at its column means.
    gradient : {"auto", "numeric"} or callable, default "auto"
        ``"auto"``: ``coef_`` of a linear model (see `linear_coef`), the
        closed form of `rbf_svm_gradient` for an RBF-kernel SVM, central
        differences otherwise. ``"numeric"``: always central differences. A
        callable ``g(mean) -> (n_features,)`` is used as the gradient.
    step : float, default 1e-4
        Central-difference step relative to each column's standard deviation
        (1 for a constant column).

    Returns
    -------
    numpy.ndarray of float64, shape (n_features,)

    Raises
    ------
    InputError
        If ``gradient`` is not one of the options, or a callable gradient or
        the model returns something invalid.

    Examples
    --------
    >>> X = np.array([[0.0, 1.0], [2.0, 3.0]])
    >>> score_gradient(lambda Z: Z[:, 0] ** 2 + Z[:, 1], X).round(6).tolist()
    [2.0, 1.0]
    """
    d = X.shape[1]
    mean = X.mean(axis=0)
    if callable(gradient):
        return as_vector(
            gradient(mean.copy()), "gradient(mean)", size=d, size_name="n_features"
        )
    if gradient not in _GRADIENTS:
        raise InputError(
            f"gradient must be one of {_GRADIENTS} or a callable, got {gradient!r}"
        )
    if gradient == "auto":
        coef = linear_coef(model, d)
        if coef is not None:
            return coef
        if is_rbf_svm(model):
            return rbf_svm_gradient(model, mean)
    score = score_function(model)
    sd = X.std(axis=0)
    h = step * np.where(sd > 0, sd, 1.0)
    shift = np.diag(h)
    values = score(np.vstack([mean + shift, mean - shift]))
    return (values[:d] - values[d:]) / (2.0 * h)
