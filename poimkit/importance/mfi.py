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

The HSIC itself is `poimkit.importance.hsic.hsic`. `morf_curve`
(`poimkit.importance.morf`, re-exported here) evaluates a relevance ordering
the way the paper does: remove the most relevant features first (MoRF) and
watch the model's performance drop, against removal in random order.
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validation import as_matrix, as_rng, check_choice, check_int, is_numeric
from ..errors import InputError
from .hsic import ESTIMATORS, KERNELS, Hsic, check_gamma, gram
from .morf import morf_curve as morf_curve  # re-export: benchmarks import it here
from .score_functions import ScoreFunction, score_function

__all__ = ["mfi"]

_SAMPLINGS = ("independent", "data")


# ----------------------------------------------------------------- validation
def _feature_groups(
    features: Sequence[int | Sequence[int]] | None, n_features: int
) -> list[np.ndarray]:
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
    model: Any,
    X: ArrayLike,
    instance: ArrayLike | None = None,
    features: Sequence[int | Sequence[int]] | None = None,
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
    kernel = check_choice(kernel, "kernel", KERNELS)
    sampling = check_choice(sampling, "sampling", _SAMPLINGS)
    estimator = check_choice(estimator, "estimator", ESTIMATORS)
    gamma = check_gamma(gamma, "gamma")
    score_gamma = check_gamma(score_gamma, "score_gamma")
    min_samples = 4 if estimator == "unbiased" and instance is None else 2
    n_samples = check_int(n_samples, "n_samples", min_samples)
    batch_size = check_int(batch_size, "batch_size", 1)
    X = as_matrix(X, "X")
    groups = _feature_groups(features, X.shape[1])
    rows = None if instance is None else _instances(instance, X.shape[1])
    score = score_function(model, unit="input")
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


def _instances(instance: ArrayLike, n_features: int) -> np.ndarray:
    """The instance(s) to explain as a finite float64 array (m, d)."""
    x = np.asarray(instance, dtype=np.float64) if is_numeric(instance) else None
    if x is None or x.ndim not in (1, 2) or x.shape[-1] != n_features:
        raise InputError(
            f"instance has shape {np.shape(instance)} but must be numeric with "
            f"shape ({n_features},) or (m, {n_features}) to match X"
        )
    if not np.all(np.isfinite(x)):
        raise InputError("instance contains NaN or infinite values")
    return np.atleast_2d(x)


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
    K = gram(scores[:, None], kernel, score_gamma)
    if K is None:  # constant prediction: it depends on no feature
        return out
    stat = Hsic(K, estimator)
    for k, group in enumerate(groups):
        L = gram(Z[:, group], kernel, gamma)
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
