"""Choose the model family by the same inner cross-validation as the parameters.

`select_families` runs `poimkit.svm.selection.select_nested` for every family
(the positional WD/WDS kernel, the position-free gapped k-mer kernel) on the
same inner splits and keeps, per training set, the best family; a family
within the tie tolerance of the best (`tie_tolerance`) wins if it comes first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError
from .grids import Grid, plain
from .metrics import tie_tolerance
from .selection import Selection, select_nested

if TYPE_CHECKING:
    from sklearn.base import ClassifierMixin


@dataclass
class FamilySelection:
    """The choice among model families on one training set (`select_families`).

    Attributes
    ----------
    family : str
        The name of the family chosen.
    families : dict of str to Selection
        Every family's own selection (its parameters chosen by `_choose`), in
        the order given, which is the order of preference in a tie.
    tolerance : float
        How far below the best family's best inner AUC another family still
        ties it (one standard error, as within a family).

    Examples
    --------
    >>> grid = Grid({"shift": (0,)})
    >>> one = Selection({"C": 1.0}, 0.9, [], grid, np.array([[0.9]]), "3-fold",
    ...                 best_score=0.9)
    >>> two = Selection({"C": 1.0}, 0.8, [], grid, np.array([[0.8]]), "3-fold",
    ...                 best_score=0.8)
    >>> FamilySelection("a", {"a": one, "b": two}, 0.01).margin
    0.1
    """

    family: str
    families: dict
    tolerance: float

    @property
    def selection(self) -> Selection:
        """The chosen family's selection."""
        return self.families[self.family]

    @property
    def margin(self) -> float | None:
        """Best inner AUC of the chosen family minus the best of the others.

        Negative when a family preferred in a tie won by less than the
        tolerance; None with one family.
        """
        others = [s.best_score for f, s in self.families.items() if f != self.family]
        if not others:
            return None
        return round(float(self.selection.best_score - max(others)), 6)

    def to_dict(self) -> dict:
        """JSON-ready: the family chosen, the margin, each family's best.

        Returns
        -------
        dict
            ``chosen``, ``margin``, ``tolerance`` and ``families``: per family
            its ``best_inner_auc``, ``inner_auc`` (``..._pearson`` for
            regressors) and ``params`` (its own choice).
        """
        figure = f"inner_{self.selection.metric}"
        return {
            "chosen": self.family,
            "margin": self.margin,
            "tolerance": round(float(self.tolerance), 6),
            "families": {
                name: {
                    f"best_{figure}": round(float(s.best_score), 6),
                    figure: round(float(s.score), 6),
                    "params": {k: plain(v) for k, v in s.params.items()},
                }
                for name, s in self.families.items()
            },
        }


def select_families(
    families: Sequence[tuple[str, ClassifierMixin, Grid]],
    X: np.ndarray,
    y: np.ndarray,
    train_sets: Sequence[np.ndarray],
    **kwargs: object,
) -> list[FamilySelection]:
    """Choose a model family and its parameters on each of several training sets.

    Every family is searched by `select_nested` on the same inner splits
    (same sample, same seed): each of its kernel settings' matrices is
    computed once for all training sets, folds and C values. On each training
    set the families are compared by their best inner AUC; the first family
    in ``families`` whose best ties the best of all (within `ERROR_TOLERANCE`
    times its error or one standard error, as in `_choose`) wins, with the
    parameters chosen within it.

    Parameters
    ----------
    families : sequence of (str, classifier, Grid)
        Name, unfitted template and candidates of each family, in the order
        of preference for a tie.
    X, y, train_sets
        As in `select_nested`.
    **kwargs
        The other options of `select_nested`.

    Returns
    -------
    list of FamilySelection
        One per training set, in order.

    Raises
    ------
    InputError
        Without families, with a name given twice, or as `select_nested`.

    Examples
    --------
    >>> from poimkit import GkmSVC, WDKernelSVC
    >>> from poimkit.datasets import make_gattaca
    >>> X, y = make_gattaca(n_pos=30, n_neg=30, length=20, mean=8, sd=0,
    ...                     random_state=0)
    >>> found = select_families(
    ...     [("wd", WDKernelSVC(degree=6), Grid({"shift": (0,)})),
    ...      ("gkm", GkmSVC(l=6, k=4), Grid({"reverse_complement": (False,)}))],
    ...     X, y, [np.arange(60)])
    >>> sorted(found[0].to_dict()["families"])
    ['gkm', 'wd']
    """
    names = [name for name, _, _ in families]
    if not names:
        raise InputError("select_families needs at least one family")
    if len(set(names)) < len(names):
        raise InputError(f"family names must differ, got {names}")
    show = kwargs.pop("progress", False)  # one bar per family, named
    found = {
        name: select_nested(
            estimator,
            X,
            y,
            grid,
            train_sets,
            progress=show and f"inner CV {name}",
            **kwargs,
        )
        for name, estimator, grid in families
    }
    chosen = []
    for t in range(len(train_sets)):
        per = {name: found[name][t] for name in names}
        best = max(s.best_score for s in per.values())
        first = per[names[0]]
        tolerance = tie_tolerance(best, first.n_held_out, first.metric)
        winner = next(n for n in names if per[n].best_score >= best - tolerance)
        chosen.append(FamilySelection(winner, per, tolerance))
    return chosen
