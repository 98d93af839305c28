"""The candidates of a regression's parameter selection (``--targets``).

A regressor's C and epsilon are in the units of its target (the kernels are
normalised to a unit diagonal), so they are searched, and fixed by default,
in units of the targets' standard deviation (`target_scale`): the same
search serves activities in [0, 1] and read counts in the thousands.
`regression_families` gives the model families with their `Grid` for
`poimkit.svm.families.select_families`, as `poimkit.run.options.search_families`
does for classifiers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "REGRESSION_C",
    "REGRESSION_EPSILON",
    "REGRESSION_FIXED",
    "regression_families",
    "target_scale",
]

#: C values searched, in units of the targets' standard deviation
REGRESSION_C = (0.1, 1.0, 10.0)
#: the same for a gapped k-mer model refitted by its linear solver for every
#: candidate: its iterations grow with C (as `poimkit.svm.grids.GKM_LINEAR_MAX_C`)
REGRESSION_LINEAR_C = (0.1, 1.0)
#: epsilon values searched, in units of the targets' standard deviation; the
#: narrower tube first: in a tie its held-out predictions shrink less towards
#: the mean (R² 0.38 against 0.20 at the same correlation, planted data)
REGRESSION_EPSILON = (0.1, 0.5)
#: C and epsilon of a regression without selection (``--no-grid``), in units
#: of the targets' standard deviation
REGRESSION_FIXED = {"C": 1.0, "epsilon": 0.1}


def target_scale(y: np.ndarray) -> float:
    """The unit of C and epsilon: the targets' standard deviation (1 if constant).

    Parameters
    ----------
    y : numpy.ndarray of float
        The targets.

    Returns
    -------
    float

    Examples
    --------
    >>> target_scale(np.array([1.0, 3.0])), target_scale(np.array([2.0, 2.0]))
    (1.0, 1.0)
    """
    scale = float(np.std(y))
    return scale if scale > 0 and np.isfinite(scale) else 1.0


def regression_families(
    kernel: str,
    length: int | None,
    fixed: dict[str, Any],
    scale: float,
    select: bool = True,
    threads: int | None = None,
    solver: str = "auto",
    n: int = 0,
) -> list[tuple[str, Any, Any]]:
    """The model families of a regression, each with its template and candidates.

    Parameters
    ----------
    kernel : {"auto", "wd", "gkm"}
        ``"auto"``: both families (wd first: it wins a tie) for records of one
        ``length``, gkm alone for records of different lengths (``length``
        None), wd alone when a wd-only parameter is fixed, without selection
        or with the linear solver (as for classifiers).
    length : int or None
        The records' length, or None if they differ.
    fixed : dict
        Parameters the user set (None: not set): ``degree``, ``shift``,
        ``mismatches``, ``reverse_complement``, ``l``, ``k``, ``C`` and
        ``epsilon`` (C and epsilon in target units).
    scale : float
        `target_scale` of the targets: the unit of the searched and default
        C and epsilon.
    select : bool, default=True
        False: every parameter not fixed takes its default (one candidate
        per family, and wd alone for ``"auto"`` with one length).
    threads : int, optional
        Threads of the kernels.
    solver : {"auto", "kernel", "linear"}
        As resolved by `poimkit.run.options.resolve_solver`: ``"linear"``
        makes the wd family `WDLinearSVR` with fixed parameters (as for
        classifiers: its fits share no kernel matrix) and the gkm family
        `GkmSVR` with its linear solver; ``"auto"`` lets `GkmSVR` choose for
        ``n`` records.
    n : int
        Number of records (whether `GkmSVR` takes its linear solver, which
        searches fewer C values: `REGRESSION_LINEAR_C`).

    Returns
    -------
    list of (str, regressor, Grid)
        Name, unfitted template and candidates of each family, in the order
        of preference for a tie.

    Examples
    --------
    >>> families = regression_families("auto", 40, {}, scale=2.0)
    >>> [name for name, _, _ in families]
    ['wd', 'gkm']
    >>> families[0][2].to_dict()["epsilon"], families[0][2].C
    ([0.2, 1.0], (0.2, 2.0, 20.0))
    >>> grid = regression_families("gkm", None, {"C": 1.0}, 2.0, select=False)[0][2]
    >>> grid.to_dict()
    {'l': [11], 'k': [7], 'reverse_complement': [True], 'epsilon': [0.2], 'C': [1.0]}
    """
    from ..svm.grids import Grid
    from .registry import family, position_free_family, searched_families

    given = {name: value for name, value in fixed.items() if value is not None}
    first, *_ = searched = searched_families()
    first_only = family(first).own_options.values()
    if kernel == "auto":
        if length is None:
            names = [position_free_family()]
        elif any(given.get(name) for name in first_only) or not select:
            names = [first]
        elif solver == "linear":
            names = [first]
        else:
            names = [name for name in searched if family(name).regressor]
    else:
        names = [kernel]

    def candidates(name: str, searched: tuple, searching: bool) -> tuple:
        if name in given:
            return (given[name],)
        if searching:
            return tuple(scale * value for value in searched)
        return (scale * REGRESSION_FIXED[name],)

    out = []
    for name in names:
        model = family(name)
        searching = select and model.searches_regression(solver)
        refits = model.refits_linear(n, solver)
        C = candidates("C", REGRESSION_LINEAR_C if refits else REGRESSION_C, searching)
        epsilon = candidates("epsilon", REGRESSION_EPSILON, searching)
        kernel_grid = model.regression_kernel(given, length, select, solver)
        template = model.regressor_template(threads, solver)
        # epsilon last: consecutive candidates that differ in it share a kernel
        grid = Grid({**kernel_grid, "epsilon": epsilon}, C)
        out.append((name, template, grid))
    return out
