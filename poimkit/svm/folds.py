"""Cross-validation folds: random, or holding out whole chromosomes.

Windows cut from one genome are not independent: a peak and its neighbours,
and copies of a repeat that sit near one another, fall on both sides of a
random split, and the held-out figures then reward memorising them. The
field's practice is to hold out whole chromosomes (`genomic_folds`): every
window belongs to the chromosome of its coordinates (`poimkit.genome.loci.record_loci`
reads them from record ids ``chrom:start-end``), folds are unions of whole chromosomes,
balanced by window count and by class (scikit-learn's `StratifiedGroupKFold`;
by window count alone for targets), and a negative goes with the chromosome
it was drawn from. With fewer chromosomes than folds (or than an inner
cross-validation needs in every training part) the chromosomes are cut into
blocks of `BLOCK` letters; with too few blocks as well the split is random,
and `FoldPlan.note` says why.

The same groups serve the inner cross-validation of
`poimkit.svm.selection.select_nested` (`group_splits`), which falls back to a
random split in a training part holding too few of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..genome.loci import Loci

__all__ = [
    "BLOCK",
    "CV_BY",
    "FoldPlan",
    "genomic_folds",
    "group_splits",
    "random_folds",
]

#: Letters per block when there are too few chromosomes for the folds.
BLOCK = 10_000_000
#: Choices of ``--cv-by``.
CV_BY = ("chrom", "random")


@dataclass
class FoldPlan:
    """How a cross-validation splits the records, and its outer folds.

    Attributes
    ----------
    split : {"chromosome", "block", "random"}
        Whole chromosomes, blocks of `BLOCK` letters, or a random split.
    folds : list of (numpy.ndarray, numpy.ndarray)
        The outer folds' (train, test) rows.
    groups : numpy.ndarray or None
        Every record's group (chromosome or block), for the inner splits;
        None for a random split.
    note : str
        Why the split is not by chromosome, when it was asked to be.
    """

    split: str
    folds: list
    groups: np.ndarray | None = None
    note: str = ""

    def describe(self) -> list[dict]:
        """Every fold's size and, for a genomic split, its test groups."""
        rows = []
        for _, test in self.folds:
            row: dict = {"n_test": int(test.size)}
            if self.groups is not None:
                key = "chromosomes" if self.split == "chromosome" else "blocks"
                row[key] = sorted(set(self.groups[test].tolist()))
            rows.append(row)
        return rows


def random_folds(
    y: np.ndarray, n_folds: int, seed: int, classes: bool = True
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Shuffled k-fold, stratified for classes.

    Parameters
    ----------
    y : numpy.ndarray
        Labels (or targets with ``classes=False``).
    n_folds : int
        Folds (at least 2).
    seed : int
        Seed of the shuffle.
    classes : bool
        Stratify by ``y``.

    Returns
    -------
    list of (train, test) row arrays
    """
    from sklearn.model_selection import KFold, StratifiedKFold

    if classes:
        split = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=seed)
        return list(split.split(np.zeros(y.size), y))
    split = KFold(n_splits=n_folds, shuffle=True, random_state=seed)
    return list(split.split(np.zeros(y.size)))


def group_splits(
    y: np.ndarray, groups: np.ndarray, n_folds: int, seed: int, classes: bool = True
) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """Folds of whole groups, balanced by size (and class); None if impossible.

    Impossible: fewer groups than folds, or (for classes) a fold whose test
    or training part lacks a class.

    Parameters
    ----------
    y : numpy.ndarray
        Labels (or targets with ``classes=False``).
    groups : numpy.ndarray
        Every row's group.
    n_folds : int
        Folds (at least 2).
    seed : int
        Seed of the order in which groups of equal standing are placed.
    classes : bool
        Balance every fold's classes too (`StratifiedGroupKFold`).

    Returns
    -------
    list of (train, test) row arrays, or None
    """
    names, group = np.unique(groups, return_inverse=True)
    if names.size < n_folds:
        return None
    if not classes:
        return _size_balanced(group, names.size, n_folds, seed)
    from sklearn.model_selection import StratifiedGroupKFold

    split = StratifiedGroupKFold(n_splits=n_folds, shuffle=True, random_state=seed)
    folds = list(split.split(np.zeros(y.size), y, group))
    both = np.unique(y).size
    for train, test in folds:
        if test.size == 0 or np.unique(y[test]).size < both:
            return None
        if np.unique(y[train]).size < both:
            return None
    return folds


def _size_balanced(group: np.ndarray, n_groups: int, n_folds: int, seed: int):
    """Groups in a seeded order, largest first, each to the smallest fold."""
    sizes = np.bincount(group, minlength=n_groups)
    order = np.random.default_rng(seed).permutation(n_groups)
    order = order[np.argsort(-sizes[order], kind="stable")]
    fold_of, filled = np.empty(n_groups, dtype=int), np.zeros(n_folds, dtype=int)
    for g in order:
        fold_of[g] = int(np.argmin(filled))
        filled[fold_of[g]] += sizes[g]
    rows = np.arange(group.size)
    folds = [rows[fold_of[group] == f] for f in range(n_folds)]
    if any(test.size == 0 for test in folds):
        return None
    return [(np.setdiff1d(rows, test), test) for test in folds]


def genomic_folds(
    loci: Loci,
    y: np.ndarray,
    n_folds: int,
    seed: int,
    classes: bool = True,
    inner_folds: int = 0,
) -> FoldPlan:
    """Folds of whole chromosomes; of blocks, or random, when there are too few.

    Parameters
    ----------
    loci : Loci
        Every record's chromosome and start (`record_loci`).
    y : numpy.ndarray
        Labels (or targets with ``classes=False``).
    n_folds : int
        Outer folds (at least 2).
    seed : int
        Seed of the split.
    classes : bool
        Balance classes in every fold.
    inner_folds : int
        Folds of an inner cross-validation run in every outer training part
        (0: none): a level is used only if every training part holds at
        least this many of its groups.

    Returns
    -------
    FoldPlan
    """
    n_chrom = np.unique(loci.chrom.astype(str)).size
    why = f"too few chromosomes ({n_chrom}) for {n_folds} folds"
    if inner_folds:
        why += f" with {inner_folds} inner folds"
    for split, block in (("chromosome", None), ("block", BLOCK)):
        groups = loci.groups(block)
        folds = group_splits(y, groups, n_folds, seed, classes)
        if folds is None:
            continue
        if inner_folds and any(
            np.unique(groups[train]).size < inner_folds for train, _ in folds
        ):
            continue
        note = "" if split == "chromosome" else f"{why}: blocks of {BLOCK:,} letters"
        return FoldPlan(split, folds, groups, note)
    note = f"{why}, and too few blocks of {BLOCK:,} letters: a random split"
    return FoldPlan("random", random_folds(y, n_folds, seed, classes), None, note)
