"""Argument validators shared by the package; each names the argument it checks."""

from __future__ import annotations

import math
from collections.abc import Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np

from .alphabet import MAX_KMER_LENGTH, check_codes, encode
from .errors import InputError


def check_int(value, name: str, low: int, high: int | None = None) -> int:
    """Return ``value`` as int if it is an integer in ``low..high`` (bools refused)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, Integral)
        or value < low
        or (high is not None and value > high)
    ):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise InputError(f"{name} must be an integer {span}, got {value!r}")
    return int(value)


def as_rng(random_state, name: str = "random_state") -> np.random.Generator:
    """A numpy Generator from None, an int seed or a Generator."""
    if isinstance(random_state, bool) or not (
        random_state is None or isinstance(random_state, Integral | np.random.Generator)
    ):
        raise InputError(
            f"{name} must be None, an int seed or a numpy Generator, got "
            f"{type(random_state).__name__}"
        )
    return np.random.default_rng(random_state)


def renamed_seed(func):
    """Let ``func`` take its old seed keyword ``rng`` for ``random_state``, warning.

    poimkit's one name for a seed is ``random_state`` (scikit-learn's); a
    call with ``rng=`` still works and gets a `DeprecationWarning`.
    """
    import functools
    import warnings

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if "rng" in kwargs:
            if "random_state" in kwargs:
                raise TypeError(f"{func.__name__}: give random_state, not rng too")
            warnings.warn(
                f"{func.__name__}(rng=...) is deprecated; use random_state=...",
                DeprecationWarning,
                stacklevel=2,
            )
            kwargs["random_state"] = kwargs.pop("rng")
        return func(*args, **kwargs)

    return wrapper


def is_positive_int(value: object) -> bool:
    """Whether ``value`` is an int or numpy integer of at least 1 (bools are not).

    Parameters
    ----------
    value : object
        The value to test.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_positive_int(3), is_positive_int(np.int64(1)), is_positive_int(True)
    (True, True, False)
    >>> is_positive_int(0), is_positive_int(2.0)
    (False, False)
    """
    return bool(
        not isinstance(value, bool)
        and isinstance(value, int | np.integer)
        and value >= 1
    )


def check_nonnegative(value: object, name: str) -> float:
    """Return ``value`` as float if it is a finite real number >= 0 (bools refused).

    Parameters
    ----------
    value : object
        The value to check, such as a spread or a pseudocount: an int or
        float, not NaN or infinite.
    name : str
        The argument's name, for the error message.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    InputError
        Naming the argument, for anything else.

    Examples
    --------
    >>> check_nonnegative(2, "spread")
    2.0
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, Real)
        or not math.isfinite(value)
        or value < 0
    ):
        raise InputError(f"{name} must be a finite number >= 0, got {value!r}")
    return float(value)


# ------------------------------------------- shared by the importance measures
def is_numeric(values: Any) -> bool:
    """Whether ``values`` converts to a float64 array.

    Parameters
    ----------
    values : object
        Anything `numpy.asarray` takes.

    Returns
    -------
    bool
    """
    try:
        np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return True


def check_choice(value: Any, name: str, options: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of the strings ``options``, else raise.

    Parameters
    ----------
    value : object
        The argument to check.
    name : str
        Its name, for the message.
    options : tuple of str
        The allowed values.

    Returns
    -------
    str
    """
    if not isinstance(value, str) or value not in options:
        raise InputError(f"{name} must be one of {options}, got {value!r}")
    return value


def check_real(
    value: Any, name: str, low: float, high: float | None = None, what: str = ""
) -> float:
    """Return ``value`` as float if it is a real number in ``(low, high)``, else raise.

    Parameters
    ----------
    value : object
        The argument to check; bools are refused, NaN is out of range.
    name : str
        Its name, for the message.
    low : float
        Exclusive lower bound.
    high : float, optional
        Exclusive upper bound; none by default.
    what : str, optional
        What ``value`` must be, for the message (default: the interval).

    Returns
    -------
    float
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, Real)
        or not (value > low and (high is None or value < high))
    ):
        span = f"in ({low}, {high})" if high is not None else f"> {low}"
        raise InputError(f"{name} must be {what or 'a number ' + span}, got {value!r}")
    return float(value)


def as_float(value: Any, name: str, what: str) -> np.ndarray:
    """``value`` as a float64 array; if it does not convert, say it must be ``what``."""
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name} must be {what} ({exc})") from exc


def check_finite(arr: np.ndarray, name: str) -> None:
    """Refuse NaN and infinite values in ``arr``, naming it ``name``."""
    if not np.all(np.isfinite(arr)):
        raise InputError(f"{name} contains NaN or infinite values; all must be finite")


def as_matrix(X: Any, name: str, min_rows: int = 1) -> np.ndarray:
    """``X`` as a finite, C-contiguous float64 matrix (n_samples, n_features).

    Parameters
    ----------
    X : array-like
        The argument to check: numeric, 2-D, at least one column.
    name : str
        Its name, for messages.
    min_rows : int, default 1
        Fewest rows allowed.

    Returns
    -------
    numpy.ndarray of float64, shape (n_samples, n_features)
    """
    arr = as_float(X, name, "a numeric 2-D array")
    if arr.ndim != 2:
        raise InputError(
            f"{name} has shape {arr.shape} but must be 2-D (n_samples, n_features); "
            "flatten images or other inputs to one row each"
        )
    if arr.shape[0] < min_rows or arr.shape[1] < 1:
        raise InputError(
            f"{name} has shape {arr.shape} but needs at least {min_rows} row(s) "
            "and 1 column"
        )
    check_finite(arr, name)
    return np.ascontiguousarray(arr)


def as_vector(
    v: Any, name: str, size: int | None = None, size_name: str = ""
) -> np.ndarray:
    """``v`` as a finite, non-empty float64 vector, of length ``size`` if given.

    Parameters
    ----------
    v : array-like
        The argument to check.
    name : str
        Its name, for messages.
    size : int, optional
        Required number of entries.
    size_name : str, optional
        Where ``size`` comes from, for the message (e.g. "X.shape[1]").

    Returns
    -------
    numpy.ndarray of float64, shape (size,)
    """
    arr = as_float(v, name, "a numeric 1-D array")
    if arr.ndim != 1 or arr.size == 0:
        raise InputError(f"{name} has shape {arr.shape} but must be non-empty 1-D")
    if size is not None and arr.size != size:
        raise InputError(
            f"{name} has {arr.size} entries but must have {size} ({size_name})"
        )
    check_finite(arr, name)
    return arr


def as_targets(y: Any, n: int, dtype: Any = None) -> np.ndarray:
    """Targets ``y`` of shape (n,) or (n, 1) as an array of shape (n,).

    Parameters
    ----------
    y : array-like
        The targets, one per row of ``X``; a single column is flattened.
    n : int
        Number of rows of ``X``.
    dtype : numpy dtype, optional
        Type to convert to (default: as `numpy.asarray` gives).

    Returns
    -------
    numpy.ndarray of shape (n,)
    """
    y = np.asarray(y, dtype=dtype)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.shape != (n,):
        raise InputError(
            f"y must have shape ({n},) to match X with {n} samples, got shape {y.shape}"
        )
    return y


def check_unset(applies_to: str, given: str, **options: Any) -> None:
    """Refuse options that apply only in another mode: each must be None.

    Parameters
    ----------
    applies_to : str
        Where the options apply, e.g. ``"method='gaussian'"``.
    given : str
        The mode actually chosen, e.g. ``"method='regression'"``.
    **options
        The options, by name.
    """
    for name, value in options.items():
        if value is not None:
            shown = value if isinstance(value, str | Real) else type(value).__name__
            raise InputError(
                f"{name} applies only to {applies_to}, got {name}={shown!r} with "
                f"{given}; leave it unset"
            )


# ------------------------------------------ shared by the string-kernel models
def check_flag(value: object, name: str) -> bool:
    """Return ``value`` as bool if it is True or False (a numpy bool too).

    Parameters
    ----------
    value : object
        Should be True or False.
    name : str
        The parameter's name, for the message.

    Returns
    -------
    bool

    Raises
    ------
    InputError
        For anything else (1, "yes", None, ...).

    Examples
    --------
    >>> check_flag(np.True_, "reverse_complement")
    True
    """
    if not isinstance(value, bool | np.bool_):
        raise InputError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_shift(shift: object, length: int) -> int:
    """Return the WDS shift as int if it is an integer in ``0..length - 1``.

    Parameters
    ----------
    shift : object
        Largest shift S of the WDS kernel (0: plain WD).
    length : int
        Sequence length L: a shift s compares ``x[s:]`` with ``x'[:L-s]``.

    Returns
    -------
    int

    Raises
    ------
    InputError
        If ``shift`` is not an integer >= 0 or not below ``length``.

    Examples
    --------
    >>> check_shift(2, 10)
    2
    """
    shift = check_int(shift, "shift", 0)
    if shift >= length:
        raise InputError(
            f"shift must be smaller than the sequence length L = {length}, got "
            f"{shift}; a shift s compares x[s:] with x'[:L-s]"
        )
    return shift


def check_mismatches(mismatches: object, shift: int) -> int:
    """Return ``mismatches`` as int if it is >= 0 and compatible with ``shift``.

    Parameters
    ----------
    mismatches : object
        Largest number of mismatches of the WD kernel with mismatches.
    shift : int
        The validated WDS shift: mismatches need ``shift=0``.

    Returns
    -------
    int
        ``mismatches`` unchanged (values above ``min(d, L) - 1`` act like it).

    Raises
    ------
    InputError
        If ``mismatches`` is not an integer >= 0, or is positive with a
        positive shift.

    Examples
    --------
    >>> check_mismatches(1, 0)
    1
    """
    mismatches = check_int(mismatches, "mismatches", 0)
    if mismatches > 0 and shift > 0:
        raise InputError(
            f"mismatches={mismatches} cannot be combined with shift={shift}: the "
            "WD kernel with mismatches is implemented for shift=0 only; set one of "
            "them to 0"
        )
    return mismatches


def as_codes(X: Any, name: str = "X") -> np.ndarray:
    """Integer codes ``(n, L)`` from a code array or a list of DNA strings.

    Parameters
    ----------
    X : array-like of int, shape (n, L), or list of str
        Letter codes 0..3 (A, C, G, T), integer codes that travelled as
        floats, or equal-length DNA strings.
    name : str, default="X"
        The argument's name, for the messages.

    Returns
    -------
    numpy.ndarray of uint8, shape (n, L)

    Raises
    ------
    TypeError
        For a sparse matrix.
    InputError
        For a single string, NaN, complex numbers, no letters, or codes
        outside 0..3.

    Examples
    --------
    >>> as_codes(["ACGT", "TTAA"]).tolist()
    [[0, 1, 2, 3], [3, 3, 0, 0]]
    """
    if hasattr(X, "toarray") or hasattr(X, "tocsr"):
        raise TypeError(
            f"{name} is a sparse matrix; sparse input is not supported: pass "
            "integer-coded sequences (poimkit.encode) or DNA strings"
        )
    if isinstance(X, str):
        raise InputError(f"{name} must be a list of sequences, not a single string")
    if isinstance(X, np.ndarray) and X.dtype.kind in "iub":
        return check_codes(X, name)
    if isinstance(X, Sequence) and len(X) and all(isinstance(s, str) for s in X):
        return encode(X)
    arr = np.asarray(X)
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise InputError(
            f"Input {name} contains NaN or infinity; it must hold letter codes"
        )
    if arr.dtype.kind == "f" and arr.size and np.all(arr == np.round(arr)):
        arr = arr.astype(np.int64)  # integer codes that travelled as floats
    if arr.dtype.kind in "US":
        return encode([str(s) for s in arr.ravel()])
    if arr.dtype.kind == "c":
        raise InputError(f"Complex data not supported: {name} must hold letter codes")
    if arr.ndim == 2 and 0 in arr.shape:
        raise InputError(
            f"{name} has 0 feature(s) (shape={arr.shape}) while a minimum of 1 is "
            "required: no sequence letters"
        )
    return check_codes(arr, name)


def check_binary_target(y: Any, estimator: str) -> np.ndarray:
    """``y`` as an array of exactly two classes (scikit-learn's messages).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels.
    estimator : str
        The estimator's name, for the message.

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    ValueError
        If ``y`` is None, not class labels, or does not hold two classes.

    Examples
    --------
    >>> check_binary_target(["a", "b", "a"], "WDKernelSVC").tolist()
    ['a', 'b', 'a']
    """
    from sklearn.utils.multiclass import check_classification_targets, type_of_target

    if y is None:
        raise ValueError(
            "requires y to be passed, but the target y is None: give one label "
            "per sequence"
        )
    y = np.asarray(y)
    check_classification_targets(y)
    classes = np.unique(y)
    if type_of_target(y) != "binary" and classes.size > 2:
        raise ValueError(
            f"Only binary classification is supported: {estimator} needs exactly "
            f"two classes, got {classes.size}: {classes.tolist()[:5]}"
        )
    if classes.size < 2:
        raise ValueError(
            "Classifier can't train when only one class is present: y holds only "
            f"{classes.tolist()}"
        )
    return y


def require_target(y: Any) -> None:
    """Refuse ``y=None`` with scikit-learn's message (before ``X`` is read).

    Raises
    ------
    ValueError
        If ``y`` is None.
    """
    if y is None:
        raise ValueError(
            "requires y to be passed, but the target y is None: give one target "
            "value per sequence"
        )


def check_continuous_target(y: Any, n: int) -> np.ndarray:
    """``y`` as finite real targets, one per sequence (of ``n``).

    Parameters
    ----------
    y : array-like of shape (n,) or (n, 1)
        The targets of a regression.
    n : int
        Number of sequences.

    Returns
    -------
    numpy.ndarray of float64, shape (n,)

    Raises
    ------
    ValueError
        If ``y`` is None (scikit-learn's message).
    InputError
        If ``y`` is not numbers, not one per sequence, or not finite.

    Examples
    --------
    >>> check_continuous_target([0.5, 1, -2], 3).tolist()
    [0.5, 1.0, -2.0]
    """
    require_target(y)
    y = as_targets(as_float(y, "y", "real numbers, one per sequence"), n)
    check_finite(y, "y")
    return y


def check_sequences(X: Any, y: np.ndarray) -> np.ndarray:
    """Integer codes of ``X`` (see `as_codes`), one sequence per label of ``y``.

    Parameters
    ----------
    X : array-like of int, shape (n, L), or list of str
        The sequences.
    y : numpy.ndarray of shape (n,)
        Their labels, as returned by `check_binary_target`.

    Returns
    -------
    numpy.ndarray of uint8, shape (n, L)

    Raises
    ------
    InputError
        If ``X`` is not sequences or ``y`` does not have one label per
        sequence.

    Examples
    --------
    >>> check_sequences(["ACGT", "TTAA"], np.array([0, 1])).shape
    (2, 4)
    """
    X = as_codes(X)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise InputError(
            f"y has shape {y.shape} but X has {X.shape[0]} sequences; y must "
            "be one label per sequence"
        )
    return X


def check_length(
    X: np.ndarray, length: int, expected: str, name: str = "X"
) -> np.ndarray:
    """Return ``X`` if its sequences have ``length`` letters.

    Parameters
    ----------
    X : numpy.ndarray, shape (n, L)
        Validated sequences.
    length : int
        The length they must have.
    expected : str
        Says whose length that is, for the message, e.g. ``"the model was
        trained on length"``.
    name : str, default="X"
        The argument's name, for the message.

    Returns
    -------
    numpy.ndarray
        ``X`` itself.

    Raises
    ------
    InputError
        If ``L != length``.

    Examples
    --------
    >>> check_length(np.zeros((2, 5)), 5, "the weights are for length").shape
    (2, 5)
    """
    if X.shape[1] != length:
        raise InputError(
            f"{name} has records of length {X.shape[1]} but {expected} {length}"
        )
    return X


def check_max_order(max_order: object, length: int | None = None) -> int:
    """Return ``max_order`` as int if POIMs of that order can be computed.

    Orders run from 1 to the sequence length, and to at most
    `MAX_KMER_LENGTH` (31: longer k-mers have no 64-bit index); the error
    names the allowed range and why.

    Parameters
    ----------
    max_order : object
        The requested largest order K.
    length : int, optional
        The sequence length L, if known.

    Returns
    -------
    int
        ``max_order``.

    Raises
    ------
    InputError
        Outside ``1..min(L, 31)``.

    Examples
    --------
    >>> check_max_order(7, 100)
    7
    >>> check_max_order(9, 8)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    poimkit.errors.InputError: max_order must be an integer 1..8 (the sequence ...
    """
    if length is not None and length <= MAX_KMER_LENGTH:
        top, why = int(length), f"the sequence length is {length}"
    else:
        top = MAX_KMER_LENGTH
        why = f"k-mers longer than {top} have no 64-bit index"
    try:
        return check_int(max_order, "max_order", 1, top)
    except InputError:
        raise InputError(
            f"max_order must be an integer 1..{top} ({why}), got {max_order!r}"
        ) from None
