"""Where a kernel classifier's intercept goes when the data leave it free.

Given the fitted expansion ``f`` (scores without intercept), the soft-margin
objective depends on the intercept ``b`` only through the training hinge loss
``H(b) = sum_i c_i max(0, 1 - y_i (f_i + b))``, a convex piecewise-linear
function of ``b``. At a small ``C`` every record lies inside the margin, and
there ``H`` is linear in ``b`` with slope ``C (n_neg - n_pos)``: the class
counts alone, not the sequences, set libsvm's ``b`` (at one end of the stretch
for unequal counts, at its middle, between the two most extreme records, for
equal ones). Its labels can then be no better than a coin while a threshold on
the same scores labels 85 % right.

`svc_intercept` asks where the *class-balanced* hinge loss (each class
weighing the same in total) is lowest. Where that is one point, the data set
``b`` and libsvm's is kept: a model with records on or outside its margin is
unchanged. Where it is a stretch (every record inside the margin), ``b`` is
placed in it halfway between the two classes' median scores, each training
record scored as if held out (`left_out_scores`): a class-balanced threshold,
as the loss that left ``b`` free is class-balanced. The training records'
own scores would not do: each record's own term ``alpha_i y_i k(x_i, x_i)``
alone separates them at a small ``C``, and without it (Jaakkola and
Haussler's leave-one-out estimate) each record misses one term of its own
class's sum, which shifts the classes towards each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from sklearn.svm import SVC

#: slopes of ``H`` within this share of the total weight count as zero
FLAT = 1e-9


def hinge_minimisers(
    scores: np.ndarray, signs: np.ndarray, weights: np.ndarray
) -> tuple[float, float]:
    """The interval of intercepts ``b`` that minimise the training hinge loss.

    Parameters
    ----------
    scores : numpy.ndarray of float
        The expansion's training scores, without intercept.
    signs : numpy.ndarray of {-1, +1}
        Each record's class.
    weights : numpy.ndarray of float
        Each record's cost ``c_i`` (only their ratios matter).

    Returns
    -------
    lo, hi : float
        ``lo == hi`` when the minimiser is unique.

    Examples
    --------
    >>> hinge_minimisers(np.array([0.2, -0.2]), np.array([1, -1]), np.ones(2))
    (-0.8, 0.8)
    """
    # record i's hinge bends where y_i (f_i + b) = 1, at b = y_i - f_i; a
    # positive's term has slope -c_i left of it, a negative's +c_i right of it
    bends = signs - scores
    order = np.argsort(bends, kind="stable")
    bends, signs, weights = bends[order], signs[order], weights[order]
    positive = signs > 0
    # the slope just right of bend j: negatives up to it, positives beyond it
    negatives_left = np.cumsum(np.where(positive, 0.0, weights))
    positives_right = weights[positive].sum() - np.cumsum(
        np.where(positive, weights, 0.0)
    )
    slope = negatives_left - positives_right
    tolerance = FLAT * weights.sum()
    flat = np.flatnonzero(np.abs(slope[:-1]) <= tolerance)
    if flat.size:  # H is constant between bend j and bend j + 1
        return float(bends[flat[0]]), float(bends[flat[-1] + 1])
    # the minimiser is the first bend where the slope turns non-negative
    j = int(np.argmax(slope >= -tolerance))
    return float(bends[j]), float(bends[j])


def left_out_scores(
    K: np.ndarray, coef: np.ndarray, positive: np.ndarray
) -> np.ndarray:
    """Each training record's score as a held-out record of its class would get it.

    The record's own term ``coef_i K_ii`` is replaced by the mean of the
    terms of the other records of its class, so that it has as many terms of
    each class as a held-out record has.

    Parameters
    ----------
    K : numpy.ndarray of shape (n, n)
        The training kernel matrix.
    coef : numpy.ndarray of shape (n,)
        Every record's dual coefficient ``y_i alpha_i`` (0 off the support).
    positive : numpy.ndarray of bool, shape (n,)

    Returns
    -------
    numpy.ndarray of shape (n,)

    Examples
    --------
    Two positives and a negative, every coefficient at 1: record 0's own
    term (1) becomes its class-mate's (0.5); the negative, alone in its
    class, loses its own term.

    >>> K = np.array([[1.0, 0.5, 0.2], [0.5, 1.0, 0.1], [0.2, 0.1, 1.0]])
    >>> left_out_scores(K, np.array([1.0, 1.0, -1.0]), np.array([True, True, False]))
    array([0.8, 0.9, 0.3])
    """
    own = coef * np.diag(K)
    # each class's terms of every record (a product, not a copy of K); their
    # sum is the record's score
    classes = [K @ np.where(members, coef, 0.0) for members in (positive, ~positive)]
    scores = classes[0] + classes[1] - own
    for members, terms in zip((positive, ~positive), classes, strict=True):
        others = members.sum() - 1
        if others >= 1:
            scores[members] += (terms - own)[members] / others
    return scores


def svc_intercept(svc: SVC, K: np.ndarray, target: np.ndarray) -> float:
    """The intercept of a fitted libsvm classifier, placed where the data leave it free.

    Parameters
    ----------
    svc : sklearn.svm.SVC
        Fitted on ``(K, target)`` with a precomputed kernel.
    K : numpy.ndarray of shape (n, n)
        The (normalised) training kernel matrix it was fitted on.
    target : numpy.ndarray of shape (n,)
        The labels it was fitted on.

    Returns
    -------
    float
        libsvm's intercept, or, where the class-balanced hinge loss leaves it
        free, the middle of the classes' median `left_out_scores` (see the
        module); libsvm's with class weights other than None or
        ``"balanced"``.
    """
    current = float(svc.intercept_[0])
    if svc.class_weight not in (None, "balanced"):
        return current  # the user's class weights set b
    coef = np.zeros(len(target))
    coef[svc.support_] = svc.dual_coef_[0]
    scores = K @ coef
    positive = target == svc.classes_[1]
    signs = np.where(positive, 1.0, -1.0)
    weights = np.where(positive, 1.0 / positive.sum(), 1.0 / (~positive).sum())
    lo, hi = hinge_minimisers(scores, signs, weights)
    if hi - lo <= 2 * svc.tol:  # one minimiser, to the solver's tolerance
        return current
    held_out = left_out_scores(K, coef, positive)
    middle = 0.5 * (np.median(held_out[positive]) + np.median(held_out[~positive]))
    return float(np.clip(-middle, lo, hi))
