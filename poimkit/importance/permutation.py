"""Permutation feature importance (Breiman 2001; Fisher, Rudin & Dominici 2018).

A feature's importance is the increase of the model's error after the values of
that feature have been shuffled, which breaks its association with the target
while leaving its marginal distribution intact (Molnar, section 5.5). The
shuffling is done by `sklearn.inspection.permutation_importance`; this module
turns its scores into the errors of the papers and reports either the ratio
``e_perm / e_orig`` or the difference ``e_perm - e_orig``. It also offers the
all-pairs ``n(n-1)`` estimate, which scikit-learn has no equivalent of.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import is_classifier
from sklearn.inspection import permutation_importance
from sklearn.metrics import get_scorer, make_scorer, zero_one_loss

from .._validation import as_rng, as_targets, check_int
from ..errors import InputError

__all__ = ["PermutationResult", "permutation"]

EXACT_MAX_CELLS = 20_000_000
"""Largest expanded data set (rows x features) ``exact=True`` may build for one
feature: 20 million float64 cells, about 160 MB."""

_KINDS = ("ratio", "difference")


@dataclass(frozen=True)
class PermutationResult:
    """Permutation feature importances of one model on one data set.

    Parameters
    ----------
    importances_mean : ndarray of shape (n_features,)
        Mean importance over the repeats.
    importances_std : ndarray of shape (n_features,)
        Standard deviation (``ddof=0``) over the repeats; zeros for
        ``exact=True``.
    importances : ndarray of shape (n_features, n_repeats)
        Importance of each feature for each permutation (one column for
        ``exact=True``).
    baseline_error : float
        The error ``e_orig`` of the model on the unpermuted data.
    kind : {"ratio", "difference"}
        ``e_perm / e_orig`` (1 = unimportant) or ``e_perm - e_orig``
        (0 = unimportant).
    """

    importances_mean: np.ndarray
    importances_std: np.ndarray
    importances: np.ndarray
    baseline_error: float
    kind: str


def permutation(
    model: Any,
    X: ArrayLike,
    y: ArrayLike,
    n_repeats: int = 5,
    scoring: str | Callable[[Any, np.ndarray, np.ndarray], float] | None = None,
    kind: Literal["ratio", "difference"] = "ratio",
    random_state: int | np.random.Generator | None = None,
    exact: bool = False,
) -> PermutationResult:
    r"""Permutation feature importance: the model's error after shuffling a feature.

    Parameters
    ----------
    model : fitted scikit-learn estimator
        Anything a scikit-learn scorer accepts (an estimator or pipeline with
        ``predict``, and ``predict_proba``/``decision_function`` if the scorer
        needs them).
    X : array-like of shape (n_samples, n_features)
        Data the importances are measured on, with ``n_samples >= 2``. Training
        data measure how much the model *relies* on a feature; held-out data
        measure how much the feature contributes to the performance on *unseen*
        data (see Notes).
    y : array-like of shape (n_samples,)
        Targets for ``X``.
    n_repeats : int, default=5
        Number of random permutations per feature. Ignored when
        ``exact=True``.
    scoring : None, str or callable, default=None
        How the error is measured. Scores follow scikit-learn's convention,
        higher is better, and the error is always ``e = -score``:

        * ``None``: mean squared error for regressors and the zero-one loss
          ``1 - accuracy`` for classifiers (as decided by
          `sklearn.base.is_classifier`);
        * a scorer name for `sklearn.metrics.get_scorer`; the ``"neg_*"``
          scorers are negated losses, so ``"neg_mean_absolute_error"`` gives
          the mean absolute error;
        * a callable ``scorer(model, X, y) -> float``, higher is better.
    kind : {"ratio", "difference"}, default="ratio"
        Report ``e_perm / e_orig`` or ``e_perm - e_orig``. The ratio needs a
        loss: ``e_orig`` must be positive and no ``e_perm`` negative, which
        rules out scorers such as ``"accuracy"`` or ``"r2"`` (use
        ``kind="difference"`` with those, or their loss counterparts).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the permutations; an int makes them reproducible.
    exact : bool, default=False
        Replace the random permutations by all ``n(n-1)`` pairings: every
        instance is combined with the feature value of every *other*
        instance. Deterministic, but the model is evaluated on
        ``n * (number of distinct values of the feature)`` rows per feature,
        which is refused above `EXACT_MAX_CELLS` cells (rows x features).

    Returns
    -------
    PermutationResult
        ``importances`` of shape (n_features, n_repeats), or (n_features, 1)
        for ``exact=True``, with their mean, standard deviation, the baseline
        error and ``kind``.

    Raises
    ------
    InputError
        If ``model`` is not a scikit-learn estimator, an argument is invalid,
        ``X`` and ``y`` do not match, the ratio is
        asked for with a non-positive baseline error or a scorer that is not
        a loss, or ``exact=True`` would need too many model evaluations.

    See Also
    --------
    sklearn.inspection.permutation_importance : Does the shuffling here; it
        reports score differences, ``baseline_score - permuted_score``, which
        equal ``e_perm - e_orig``.
    poimkit.importance.sensitivity.sensitivity : How much the model *output*
        changes when a feature is resampled, without using the target.

    Notes
    -----
    With the error measure ``L``, the original error and the error after
    permuting feature ``j`` are (Molnar, algorithm of section 5.5.1)

    .. math::

        e_{orig} = L(y, \hat f(X)), \qquad
        e_{perm,j} = L(y, \hat f(X_{perm_j})),

    and the importance is :math:`FI_j = e_{perm,j} / e_{orig}` (``"ratio"``,
    1 means unimportant; comparable across problems) or
    :math:`FI_j = e_{perm,j} - e_{orig}` (``"difference"``, 0 means
    unimportant). A feature the model ignores has importance exactly 1
    (or 0): the predictions do not change when it is shuffled (with
    ``exact=True`` up to rounding, as the pairs are averaged in another
    order).

    *All pairs* (``exact=True``). Fisher, Rudin & Dominici swap the feature
    between the two halves of the data, which is one more random
    permutation. The deterministic version pairs each instance ``i`` with the
    value :math:`x_{kj}` of every other instance ``k != i``:

    .. math::

        e_{perm,j} = L\bigl(\{(y_i, \hat f(x_i[j \leftarrow x_{kj}]))
                     : i \ne k\}\bigr),

    a data set of ``n(n-1)`` rows. It is computed without building those rows:
    the prediction only depends on the *value* ``x_{kj}``, so each instance is
    evaluated once per distinct value ``u`` of feature ``j`` with the sample
    weight ``#{k : x_{kj} = u} - [x_{ij} = u]``. For ties the scorer must
    accept ``sample_weight`` (all scikit-learn scorers do); weighted
    averages over integer weights equal averages over the repeated rows.

    *Training or test data?* Molnar (section 5.5.2) has no definite answer.
    On training data the importance says how much the model *relies* on a
    feature, even where what it learned does not generalise: an overfitted
    model of pure noise shows importances above 1 on its training data
    (``validation/molnar_garbage_svm.py``). On held-out data the
    importance says how much a feature contributes to the performance on
    unseen data; those of the same model are close to 1. The caller chooses
    by passing ``X, y``.

    Correlated features are permuted into unrealistic combinations and share
    their importance; importances of interacting features each include the
    interaction and do not add up to the loss of permuting all features.

    References
    ----------
    .. [1] Breiman, L. (2001). Random forests. Machine Learning 45(1), 5-32.
    .. [2] Fisher, A., Rudin, C. and Dominici, F. (2018). Model class reliance:
       variable importance measures for any machine learning model class, from
       the "Rashomon" perspective. arXiv:1801.01489.
    .. [3] Molnar, C. Interpretable Machine Learning, section 5.5
       "Feature Importance".

    Examples
    --------
    >>> from sklearn.linear_model import LinearRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = 3 * X[:, 0] + X[:, 1] + 0.5 * rng.normal(size=200)
    >>> model = LinearRegression().fit(X, y)
    >>> result = permutation(model, X, y, n_repeats=10, random_state=0)
    >>> result.importances.shape
    (3, 10)
    >>> [int(i) for i in np.argsort(-result.importances_mean)]
    [0, 1, 2]
    >>> bool(result.importances_mean[0] > 10 > result.importances_mean[2])
    True
    >>> exact = permutation(model, X, y, kind="difference", exact=True)
    >>> exact.importances.shape, float(exact.importances_std[0])
    ((3, 1), 0.0)
    """
    if not (hasattr(model, "fit") and hasattr(model, "get_params")):
        raise InputError(
            "model must be a fitted scikit-learn estimator (with fit, predict and "
            f"get_params), got {type(model).__name__}; derive a wrapper from "
            "sklearn.base.BaseEstimator and RegressorMixin or ClassifierMixin"
        )
    X, y = _check_data(X, y)
    n_repeats = check_int(n_repeats, "n_repeats", 1)
    if kind not in _KINDS:
        raise InputError(f"kind must be 'ratio' or 'difference', got {kind!r}")
    if not isinstance(exact, bool | np.bool_):
        raise InputError(f"exact must be True or False, got {exact!r}")
    rng = as_rng(random_state)
    scorer, scoring_name = _resolve_scoring(model, scoring)

    baseline = -float(scorer(model, X, y))
    if exact:
        increase = _all_pairs_increase(model, X, y, scorer, baseline)
    else:
        seed = int(rng.integers(np.iinfo(np.int32).max))
        bunch = permutation_importance(
            model, X, y, scoring=scorer, n_repeats=n_repeats, random_state=seed
        )
        # scikit-learn reports baseline_score - permuted_score = e_perm - e_orig
        increase = np.asarray(bunch.importances, dtype=np.float64)

    if kind == "ratio":
        _check_loss(baseline, increase, scoring_name)
        # 1 + (e_perm - e_orig) / e_orig is exactly 1 for an ignored feature
        importances = 1.0 + increase / baseline
    else:
        importances = increase
    return PermutationResult(
        importances_mean=importances.mean(axis=1),
        importances_std=importances.std(axis=1),
        importances=importances,
        baseline_error=baseline,
        kind=kind,
    )


def _check_data(X: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """``X`` as a 2-D array with at least 2 rows and ``y`` as a matching 1-D array."""
    X = np.asarray(X)
    if X.ndim != 2:
        raise InputError(f"X must be 2-D (n_samples, n_features), got shape {X.shape}")
    if X.shape[0] < 2 or X.shape[1] < 1:
        raise InputError(
            f"X must have at least 2 samples and 1 feature, got shape {X.shape}"
        )
    return X, as_targets(y, X.shape[0])


def _resolve_scoring(model, scoring):
    """A scikit-learn scorer (higher is better) and a name for messages."""
    if scoring is None:
        if is_classifier(model):
            name = "zero-one loss (1 - accuracy)"
            return make_scorer(zero_one_loss, greater_is_better=False), name
        return get_scorer("neg_mean_squared_error"), "mean squared error"
    if isinstance(scoring, str):
        try:
            return get_scorer(scoring), repr(scoring)
        except ValueError as exc:
            raise InputError(
                f"scoring must be None, a callable or a scikit-learn scorer name "
                f"(see sklearn.metrics.get_scorer_names()), got {scoring!r}"
            ) from exc
    if callable(scoring):
        return scoring, getattr(scoring, "__name__", type(scoring).__name__)
    raise InputError(
        "scoring must be None, a scorer name or a callable scorer(model, X, y), "
        f"got {type(scoring).__name__}"
    )


def _check_loss(baseline: float, increase: np.ndarray, scoring_name: str) -> None:
    """Refuse ``kind="ratio"`` unless ``e = -score`` behaves like a positive loss."""
    if not baseline > 0:
        raise InputError(
            f"kind='ratio' needs a positive baseline error, but the error "
            f"(-score) of scoring {scoring_name} is {baseline!r}; use a loss "
            "(a 'neg_*' scorer, or scoring=None) with a non-zero error on these "
            "data, or kind='difference'"
        )
    worst = float(np.min(baseline + increase))
    if worst < 0:
        raise InputError(
            f"kind='ratio' needs a loss, but scoring {scoring_name} gives a "
            f"negative error {worst!r} after a permutation; use a 'neg_*' "
            "scorer or kind='difference'"
        )


def _all_pairs_increase(model, X, y, scorer, baseline: float) -> np.ndarray:
    """``e_perm - e_orig`` over all n(n-1) pairings, shape (n_features, 1)."""
    n, n_features = X.shape
    columns = [
        np.unique(X[:, j], return_inverse=True, return_counts=True)
        for j in range(n_features)
    ]
    # refuse before any work if one feature would need too large a data set
    rows = [n * len(values) for values, _, _ in columns]
    j_max = int(np.argmax(rows))
    if rows[j_max] * n_features > EXACT_MAX_CELLS:
        largest = int(np.sqrt(EXACT_MAX_CELLS / n_features))
        raise InputError(
            f"exact=True would evaluate the model on {rows[j_max]} rows x "
            f"{n_features} features for feature {j_max} (n_samples={n} times "
            f"{rows[j_max] // n} distinct values), more than the limit of "
            f"{EXACT_MAX_CELLS} cells; use exact=False (random permutations) or "
            f"pass a subsample of at most about {largest} samples"
        )

    increase = np.empty((n_features, 1))
    for j, (values, inverse, counts) in enumerate(columns):
        m = len(values)
        # weight of (instance i, value u): other instances k != i with x_kj = u
        weight = np.broadcast_to(counts, (n, m)) - (
            inverse[:, None] == np.arange(m)[None, :]
        )
        weight = weight.ravel()
        keep = np.flatnonzero(weight)
        X_pairs = np.repeat(X, m, axis=0)[keep]
        X_pairs[:, j] = np.tile(values, n)[keep]
        y_pairs = np.repeat(y, m)[keep]
        if np.all(weight[keep] == 1):  # no ties: the n(n-1) rows themselves
            score = scorer(model, X_pairs, y_pairs)
        else:
            score = scorer(model, X_pairs, y_pairs, sample_weight=weight[keep])
        increase[j, 0] = -float(score) - baseline
    return increase
