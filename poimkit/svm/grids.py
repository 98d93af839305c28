"""The candidates of the model selection: `Grid` and the default searches.

`default_grid` is the search of the positional WD / WDS kernel (degree,
shift, C), `gkm_grid` the one of the gapped k-mer model (strands, C);
`poimkit.svm.selection` fits every candidate by an inner cross-validation.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError

#: WD degrees searched by default
DEFAULT_DEGREES = (10, 20)
#: WDS shifts searched by default (capped by `max_shift` of the length)
DEFAULT_SHIFTS = (0, 2, 4, 8, 16, 32)
#: the longest default shift, as a share of the sequence length
MAX_SHIFT_SHARE = 0.5
#: C values searched by default: a log grid, one value per decade
DEFAULT_C = (0.01, 0.1, 1.0, 10.0, 100.0)
#: gapped k-mer models: l-mer length and informative positions (LS-GKM's)
GKM_L, GKM_K = 11, 7
#: gapped k-mer models refitted by their linear solver for every candidate
#: (`poimkit.GkmSVC` above its ``KERNEL_MAX_RECORDS``): the largest C searched.
#: L-BFGS needs more iterations the larger C, and on ChIP-like data the smaller
#: C won (the figures: benchmarks/RESULTS.md, "constants")
GKM_LINEAR_MAX_C = 1.0
#: gapped k-mer models: strand settings searched (a tie goes to both strands,
#: the usual choice for regulatory DNA and the model with fewer weights)
GKM_STRANDS = (True, False)


@dataclass(frozen=True)
class Grid:
    """Candidates: every combination of the kernel parameters, each with every C.

    Attributes
    ----------
    kernel : dict of str to tuple
        Kernel parameters of the estimator (``degree``, ``shift``,
        ``mismatches``, ``reverse_complement``, ``l``, ...) and their
        candidates; each combination is one kernel matrix.
    C : tuple of float
        SVM regularisation values, fitted on the kernel matrix of every
        setting.

    Examples
    --------
    >>> grid = Grid({"shift": (0, 4)}, (0.1, 1.0))
    >>> grid.settings(), grid.size
    ([{'shift': 0}, {'shift': 4}], 4)
    """

    kernel: dict = field(default_factory=dict)
    C: tuple = (1.0,)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "kernel", {k: tuple(v) for k, v in dict(self.kernel).items()}
        )
        object.__setattr__(self, "C", tuple(float(c) for c in self.C))
        if "C" in self.kernel:
            raise InputError("C goes in Grid.C, not among the kernel parameters")
        for name, values in {**self.kernel, "C": self.C}.items():
            if not values:
                raise InputError(f"the grid of {name} is empty")
        if not all(c > 0 for c in self.C):
            raise InputError(f"every C must be positive, got {list(self.C)}")

    def settings(self) -> list[dict]:
        """Every combination of the kernel parameters, in grid order."""
        names = list(self.kernel)
        return [
            dict(zip(names, values, strict=True))
            for values in itertools.product(*self.kernel.values())
        ]

    @property
    def size(self) -> int:
        """Number of candidates (kernel settings times C values)."""
        return len(self.settings()) * len(self.C)

    def to_dict(self) -> dict:
        """JSON-ready ``{parameter: [candidates]}`` with C last."""
        return {
            **{k: [plain(v) for v in vs] for k, vs in self.kernel.items()},
            "C": list(self.C),
        }


def plain(value: object) -> object:
    """Python numbers and booleans for numpy scalars (JSON).

    Parameters
    ----------
    value : object
        A parameter's value.
    """
    return value.item() if isinstance(value, np.generic) else value


def max_shift(length: int) -> int:
    """Longest default shift for sequences of ``length``: ``MAX_SHIFT_SHARE * L``.

    Parameters
    ----------
    length : int
        Sequence length L.

    Returns
    -------
    int
        At most ``L - 1``.

    Examples
    --------
    >>> max_shift(100), max_shift(30), max_shift(1)
    (50, 15, 0)
    """
    return min(int(MAX_SHIFT_SHARE * length), length - 1)


def default_grid(length: int, fixed: dict | None = None) -> Grid:
    """The default search for sequences of ``length``, less what ``fixed`` sets.

    Parameters
    ----------
    length : int
        Sequence length L; shifts are limited to `max_shift` (L / 2).
    fixed : dict, optional
        Parameters the user set (entries that are None are not set): each
        becomes a single candidate. Other fixed kernel parameters
        (``mismatches``, ``reverse_complement``, ...) are added as single
        candidates too.

    Returns
    -------
    Grid
        ``degree`` in `DEFAULT_DEGREES`, ``shift`` in `DEFAULT_SHIFTS` up to
        `max_shift`, C in `DEFAULT_C`.

    Examples
    --------
    >>> default_grid(30).to_dict()
    {'degree': [10, 20], 'shift': [0, 2, 4, 8], 'C': [0.01, 0.1, 1.0, 10.0, 100.0]}
    >>> default_grid(100, {"C": 1.0, "degree": 8, "shift": None}).to_dict()
    {'degree': [8], 'shift': [0, 2, 4, 8, 16, 32], 'C': [1.0]}
    """
    fixed = {k: v for k, v in (fixed or {}).items() if v is not None}
    kernel = {
        "degree": DEFAULT_DEGREES,
        "shift": tuple(s for s in DEFAULT_SHIFTS if s <= max_shift(length)),
    }
    for name, value in fixed.items():
        if name != "C":
            kernel[name] = (value,)
    C = (fixed["C"],) if "C" in fixed else DEFAULT_C
    return Grid(kernel, C)


def gkm_grid(fixed: dict | None = None, linear: bool = False) -> Grid:
    """The default search of a gapped k-mer model (`poimkit.GkmSVC`).

    Parameters
    ----------
    fixed : dict, optional
        ``l``, ``k``, ``reverse_complement`` and ``C`` the user set (None: not
        set). l and k are not searched (default 11 and 7).
    linear : bool, default=False
        The candidates are refitted by the linear solver: C up to
        `GKM_LINEAR_MAX_C`.

    Returns
    -------
    Grid
        ``reverse_complement`` in `GKM_STRANDS` (a motif on one strand only,
        as in aligned data, is learnt better without it), C in `DEFAULT_C`.

    Examples
    --------
    >>> gkm_grid({"C": 1.0}).to_dict()
    {'l': [11], 'k': [7], 'reverse_complement': [True, False], 'C': [1.0]}
    >>> gkm_grid({"reverse_complement": True}, linear=True).to_dict()["C"]
    [0.01, 0.1, 1.0]
    """
    fixed = {k: v for k, v in (fixed or {}).items() if v is not None}
    kernel = {
        "l": (fixed.get("l", GKM_L),),
        "k": (fixed.get("k", GKM_K),),
        "reverse_complement": (
            (fixed["reverse_complement"],)
            if "reverse_complement" in fixed
            else GKM_STRANDS
        ),
    }
    C = DEFAULT_C
    if linear:
        C = tuple(c for c in DEFAULT_C if c <= GKM_LINEAR_MAX_C)
    return Grid(kernel, (fixed["C"],) if "C" in fixed else C)
