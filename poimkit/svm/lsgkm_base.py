"""What the LS-GKM models of every kernel type share (`LsgkmModel`, `LsgkmKernelModel`).

The support sequences, coefficients and header values a model file gives
(checked the same way for kernel types 0 to 5), and the two Walsh-Hadamard
transforms that turn per-l-mer counts into l-mer weights ``f``.
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass
from typing import ClassVar

import numpy as np
from numpy.typing import ArrayLike

from ..contract import SequenceModel
from ..errors import InputError
from ..kernels.gkm import as_sequences, check_long_enough, typical_length
from ..kernels.lsgkm import MAX_L, mismatch_table, table_eigenvalues

__all__ = ["PARAMETERS", "LsgkmBase"]

#: the docs of the parameters every LS-GKM model takes
PARAMETERS = {
    "lsgkm": """
kernel_type : int
    LS-GKM's ``-t``: 0, 1 or 2 for `poimkit.svm.lsgkm.LsgkmModel`, 3, 4 or 5
    for `poimkit.svm.lsgkm_rbf.LsgkmKernelModel`.
l, k, d : int
    The kernel's parameters (``d`` used by the types above 0).
support : list of str or of code arrays
    The support sequences.
coef : array-like of shape (n_SV,)
    Their coefficients (``alpha_i y_i``).
rho : float
    The score is the kernel expansion minus ``rho``.
reverse_complement : bool, default=True
    Both strands (LS-GKM's default; ``norc 1`` in a file means False).
labels : tuple of int, default=(1, -1)
    The file's ``label`` line: positive scores predict ``labels[0]``.
""",
}


@dataclass(eq=False, repr=False)
class LsgkmBase(SequenceModel):
    """Support, coefficients and l-mer weights of an LS-GKM model (any kernel type).

    Subclasses set `KERNEL_NAMES` (and `TABLE_TYPE`), score checked
    sequences in ``_scores`` and fill the l-mer weights by `fold_lmers`.
    Its constructor (a dataclass's: the parameters in ``PARAMETERS``, checked
    in ``__post_init__``) is `poimkit.svm.lsgkm.LsgkmModel`'s; a subclass may
    add keyword-only fields.

    Attributes
    ----------
    KERNEL_NAMES : dict of int to str
        The subclass's kernel types by ``-t`` number.
    TABLE_TYPE : int or None
        The kernel type of the mismatch table (None: the model's own).
    """

    kernel_type: int
    l: int
    k: int
    d: int
    support: ArrayLike
    coef: InitVar[ArrayLike]
    rho: InitVar[float]
    reverse_complement: bool = True
    labels: tuple[int, int] = (1, -1)

    #: the additive-model contract (`poimkit.additive.LmerTable`): an l-mer
    #: table with each record's own factor ``1 / sqrt(K(x, x))``
    decomposition: ClassVar[str] = "lmer_table"
    position_free = True
    per_sequence_normalisation = True

    #: kernel types of the subclass by ``-t`` number (LS-GKM's names)
    KERNEL_NAMES: ClassVar[dict[int, str]] = {}
    #: kernel type of the mismatch table (None: the model's own kernel type)
    TABLE_TYPE: ClassVar[int | None] = None

    def __post_init__(self, coef: ArrayLike, rho: float) -> None:
        kernel_type, l, k, d = self.kernel_type, self.l, self.k, self.d
        if kernel_type not in self.KERNEL_NAMES:
            first, second, third = self.KERNEL_NAMES
            raise InputError(
                f"kernel type must be {first}, {second} or {third}, got {kernel_type}"
            )
        if not (1 <= k <= l <= MAX_L):
            raise InputError(f"need 1 <= k <= l <= {MAX_L}, got l = {l}, k = {k}")
        if kernel_type != 0 and not 0 <= d <= l:
            raise InputError(f"need 0 <= d <= l = {l}, got d = {d}")
        self.kernel_type = int(kernel_type)
        self.l, self.k, self.d = int(l), int(k), int(d)
        self.reverse_complement = bool(self.reverse_complement)
        self.support = as_sequences(self.support, "support")
        check_long_enough(self.support, self.l, "support")
        self.dual_coef_ = np.asarray(coef, dtype=np.float64).ravel()
        if self.dual_coef_.size != len(self.support):
            raise InputError(
                f"{self.dual_coef_.size} coefficients for {len(self.support)} "
                "support sequences"
            )
        self.intercept_ = -float(rho)
        self.labels = tuple(self.labels)
        self.classes_ = np.array([self.labels[1], self.labels[0]])
        self.length_ = typical_length(self.support)
        self.n_threads: int | None = None
        table_type = self.kernel_type if self.TABLE_TYPE is None else self.TABLE_TYPE
        self.table = mismatch_table(table_type, self.l, self.k, self.d)
        self._lmers: np.ndarray | None = None

    def self_kernel(self, X: ArrayLike) -> np.ndarray:
        """LS-GKM's un-normalised ``K(x, x)`` of every sequence (``sqnorm`` squared).

        Parameters
        ----------
        X : list of str or of code arrays
            As in `decision_function`.

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
        """
        seqs = as_sequences(X)
        check_long_enough(seqs, self.l)
        return self._sequence_self_kernel(seqs)

    def _sequence_self_kernel(self, seqs: list[np.ndarray]) -> np.ndarray:
        raise NotImplementedError

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """LS-GKM's score of every sequence (``gkmpredict``'s number).

        Parameters
        ----------
        X : list of str or of code arrays
            Sequences of any lengths, each at least ``l`` letters.

        Returns
        -------
        numpy.ndarray of shape (n,)
        """
        seqs = as_sequences(X)
        check_long_enough(seqs, self.l)
        return self._scores(seqs)

    def _scores(self, seqs: list[np.ndarray]) -> np.ndarray:
        raise NotImplementedError

    def fold_lmers(self, f: np.ndarray) -> np.ndarray:
        """Turn per-l-mer coefficient sums into the l-mer weights, cached.

        Parameters
        ----------
        f : numpy.ndarray of float64, shape (4**l,)
            ``sum_i c_i / sqrt(K(x_i, x_i)) sum_b w_b [x_ib = u]`` per l-mer u
            (both strands); transformed in place.

        Returns
        -------
        numpy.ndarray of float64, shape (4**l,)
            ``f[u] = sum_v f_in[v] T[d(u, v)]``, by two Walsh-Hadamard
            transforms; kept as the model's l-mer weights.
        """
        from .._threads import numba_threads
        from ..kernels import _gkm

        with numba_threads(None):
            _gkm.walsh_hadamard(f)
            f *= table_eigenvalues(self.table, self.l)
            _gkm.walsh_hadamard(f)
        self._lmers = f
        return f
