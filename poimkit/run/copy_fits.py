"""Fits on the rows of a training part, sharing the kernel of the moved copies.

A WD model on peaks trains on every window's moved copies
(`poimkit.run.data.MovedCopies`): five times the rows, twenty-five times the
kernel work of a fit. The outer folds and the final model of one kernel
setting train on parts of the same copies, so `CopyFits` computes the kernel
matrix over every copy once per setting and fits each part on its slice, as
the selection does for its inner folds (`poimkit.svm.selection`); the models
are the same as fitting each part anew.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .data import LabeledData

#: parameters of the solver, not of the kernel matrix
_SOLVER = frozenset({"C", "class_weight", "tol", "n_threads", "normalize", "epsilon"})


class CopyFits:
    """Fit models of a run on training parts of ``data`` (`LabeledData.training`).

    Parameters
    ----------
    data : LabeledData
        The run's records, with or without `copies`.
    groups : numpy.ndarray, optional
        Every record's chromosome when the folds go by chromosome: a model
        that stops early on held-out groups (``fits_groups``, the CNN) holds
        out whole chromosomes of its training part.
    progress : bool, default False
        Such a model shows a bar over its epochs.

    Notes
    -----
    One kernel matrix is kept at a time (of the last setting fitted on
    copies); `release` frees it. It covers every record's copies, or, after
    `expect`, the copies of the records the fits of its setting train on.
    """

    def __init__(
        self,
        data: LabeledData,
        groups: np.ndarray | None = None,
        progress: bool = False,
    ) -> None:
        self.data = data
        self.groups = groups
        self.progress = progress
        self._setting: dict | None = None
        self._K: np.ndarray | None = None
        self._rows: np.ndarray | None = None  # the records the kept matrix covers
        self._needed: dict[str, np.ndarray] = {}

    def expect(self, fits: list[tuple[Any, dict, np.ndarray]]) -> None:
        """Say which records the coming fits of each kernel setting train on.

        A setting's kernel matrix then covers the copies of those records
        only (a setting chosen by one outer fold alone: 64 % of the pairs of
        every copy at 5 folds). The matrices' entries, so the models, are the
        same.

        Parameters
        ----------
        fits : list of (estimator, dict, numpy.ndarray of int)
            Each coming fit's template, parameters and training records.

        Examples
        --------
        >>> from types import SimpleNamespace
        >>> from poimkit import WDKernelSVC
        >>> fits, wd = CopyFits(SimpleNamespace()), WDKernelSVC()
        >>> fits.expect([(wd, {"shift": 4, "C": 1}, np.array([0, 1])),
        ...              (wd, {"shift": 4, "C": 10}, np.array([1, 2])),
        ...              (wd, {"shift": 8, "C": 1}, np.array([2]))])
        >>> [rows.tolist() for rows in fits._needed.values()]
        [[0, 1, 2], [2]]
        """
        needed: dict[str, list[np.ndarray]] = {}
        for template, params, rows in fits:
            key = _setting_key({**template.get_params(), **params})
            needed.setdefault(key, []).append(np.asarray(rows))
        self._needed = {
            key: np.unique(np.concatenate(parts)) for key, parts in needed.items()
        }

    def fit(
        self,
        template: Any,
        family: str,
        params: dict,
        rows: np.ndarray,
        fit_params: dict | None = None,
        last: bool = False,
    ) -> Any:
        """A clone of ``template`` with ``params``, fitted on the training part.

        Parameters
        ----------
        template : estimator
            The unfitted model.
        family : str
            Its family ("wd" or "gkm"): a WD model trains on the copies.
        params : dict
            Parameters set on the clone.
        rows : numpy.ndarray of int
            The records of the training part.
        fit_params : dict, optional
            Passed to ``fit`` (then no kernel is shared).
        last : bool, default False
            The last fit of the kept kernel (the final model's, `release`
            follows): a training part of every record the kept matrix covers
            then fits on the matrix itself instead of a copy of it (the
            solver overwrites it, so it is released here), which saves a
            copy of the largest matrix of the run, in time and in peak
            memory.

        Returns
        -------
        fitted estimator
        """
        from sklearn.base import clone

        model = clone(template).set_params(**params)
        X, y = self.data.training(rows, family)
        if model.fits_groups:
            groups = None if self.groups is None else self.groups[rows]
            return model.fit(
                X, y, groups=groups, progress=self.progress, **(fit_params or {})
            )
        if fit_params or not self._shares(model, family):
            return model.fit(X, y, **(fit_params or {}))
        X, y = model._checked_training(X, y)
        rows = np.asarray(rows)
        K = self._kernel(model, rows)
        if last and np.array_equal(rows, self._rows):
            self.release()  # every kept copy in `training` order: the matrix itself
            return model._fit_gram(X, y, K)
        copies = self._copy_rows(rows)
        return model._fit_gram(X, y, K[np.ix_(copies, copies)])

    def release(self) -> None:
        """Free the kernel matrix kept."""
        self._setting = self._K = self._rows = None

    def _shares(self, model: Any, family: str) -> bool:
        """Whether ``model`` fits on the kept matrix of every copy (a WD kernel SVM)."""
        return self.data.trains_copies(family) and model.shares_gram

    def _kernel(self, model: Any, rows: np.ndarray) -> np.ndarray:
        """The raw kernel matrix of ``model``'s setting over the copies of `_rows`.

        `_rows` are the records `expect` gave for the setting, or every
        record; they include ``rows``.
        """
        setting = _kernel_setting(model.get_params())
        covered = self._rows is not None and np.isin(rows, self._rows).all()
        if setting != self._setting or not covered:
            self.release()  # the last one first: they are large
            kept = self._needed.get(_setting_key(setting))  # or every record
            if kept is None or not np.isin(rows, kept).all():
                kept = np.arange(self.data.y.size)
            windows = self.data.copies.windows[:, kept]
            self._K = model._raw_kernel(windows.reshape(-1, windows.shape[-1]))
            self._setting, self._rows = setting, kept
        return self._K

    def _copy_rows(self, rows: np.ndarray) -> np.ndarray:
        """Rows of the kept matrix of every copy of ``rows``, in `training` order."""
        m, n = self.data.copies.windows.shape[0], self._rows.size
        at = np.searchsorted(self._rows, rows)
        return (np.arange(m)[:, None] * n + at[None, :]).ravel()


def fit_order(chosen: list[tuple[str, dict]], last: tuple[str, dict]) -> list[int]:
    """The folds in the order to fit them: grouped by kernel setting, ``last``'s last.

    Parameters
    ----------
    chosen : list of (str, dict)
        Every fold's family and parameters.
    last : (str, dict)
        The final model's, fitted after the folds (its kernel is then kept).

    Returns
    -------
    list of int
        Fold indices.

    Examples
    --------
    >>> fit_order([("wd", {"shift": 4, "C": 1}), ("wd", {"shift": 8, "C": 1}),
    ...            ("wd", {"shift": 4, "C": 10})], ("wd", {"shift": 4, "C": 1}))
    [1, 0, 2]
    """

    def setting(family_params: tuple[str, dict]) -> tuple:
        family, params = family_params
        return family, _setting_key(params)

    final = setting(last)
    return sorted(
        range(len(chosen)),
        key=lambda f: (setting(chosen[f]) == final, setting(chosen[f])),
    )


def _kernel_setting(params: dict) -> dict:
    """The parameters that make the kernel matrix (those of the solver left out)."""
    return {k: v for k, v in params.items() if k not in _SOLVER}


def _setting_key(params: dict) -> str:
    """`_kernel_setting` of ``params`` as a key (sorted, as text)."""
    return repr(sorted(_kernel_setting(params).items()))
