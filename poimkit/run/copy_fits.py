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
    copies); `release` frees it.
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
            follows): a training part of every record then fits on the kept
            matrix itself instead of a copy of it (the solver overwrites
            it, so it is released here), which saves a copy of the largest
            matrix of the run, in time and in peak memory.

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
        K = self._kernel(model)
        if last and np.array_equal(rows, np.arange(self.data.y.size)):
            self.release()  # every copy in `training` order: the matrix itself
            return model._fit_gram(X, y, K)
        copies = self._copy_rows(rows)
        return model._fit_gram(X, y, K[np.ix_(copies, copies)])

    def release(self) -> None:
        """Free the kernel matrix kept."""
        self._setting = self._K = None

    def _shares(self, model: Any, family: str) -> bool:
        """Whether ``model`` fits on the kept matrix of every copy (a WD kernel SVM)."""
        return self.data.trains_copies(family) and model.shares_gram

    def _kernel(self, model: Any) -> np.ndarray:
        """The raw kernel matrix over every copy, for ``model``'s setting."""
        setting = _kernel_setting(model.get_params())
        if setting != self._setting:
            self.release()  # the last one first: they are large
            windows = self.data.copies.windows
            self._K = model._raw_kernel(windows.reshape(-1, windows.shape[-1]))
            self._setting = setting
        return self._K

    def _copy_rows(self, rows: np.ndarray) -> np.ndarray:
        """Rows of the kernel matrix of every copy of ``rows``, in `training` order."""
        m, n = self.data.copies.windows.shape[:2]
        return (np.arange(m)[:, None] * n + rows[None, :]).ravel()


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
        return family, repr(sorted(_kernel_setting(params).items()))

    final = setting(last)
    return sorted(
        range(len(chosen)),
        key=lambda f: (setting(chosen[f]) == final, setting(chosen[f])),
    )


def _kernel_setting(params: dict) -> dict:
    """The parameters that make the kernel matrix (those of the solver left out)."""
    return {k: v for k, v in params.items() if k not in _SOLVER}
