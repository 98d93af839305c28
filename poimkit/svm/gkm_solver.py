"""The linear-in-n trainer of `poimkit.GkmSVC`: L-BFGS through the l-mer table.

The normalised gkm kernel of two records is

    K(x, x') = a(x) a(x') n(x)^T G (I + R) n(x') * (2 with both strands),

with ``n(x)`` the counts of the l-mers of x's forward strand, ``G[u, v] =
C(l - d(u, v), k)``, ``R`` the reverse-complement permutation (left out on
one strand) and ``a(x) = 1 / sqrt(kappa W(x))`` (`GkmSVC`'s normalisation).
The Walsh-Hadamard transform H diagonalises G (``G c = H (lambda H c)``,
`poimkit.kernels.gkm.hamming_eigenvalues`), so ``K u`` for a vector u over the
training records costs one pass of table updates over the records (the
coefficient-weighted counts ``c = sum_i u_i a_i n(x_i)``, ``(I + R)`` of them
with both strands), two transforms of ``4**l`` numbers and one pass of table
look-ups over the forward strands (the l-mer weights ``f = G c``, doubled with
both strands) -- whatever n is, and without the n x n matrix. `LmerGram` is
that product, `MatrixGram` the same by a kernel matrix already computed (the
model selection's); `poimkit.svm.linear.lbfgs` runs L-BFGS in sequence space on
either (the primal L2-SVM, squared hinge loss, the bias not penalised), so the
trained model is a coefficient per record, exactly the form of the kernel
solver's model: the records with a non-zero coefficient become `GkmSVC`'s
support sequences.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._threads import numba_threads
from .._validation import check_int
from ..errors import InputError
from ..kernels import _gkm
from ..kernels.gkm import hamming_eigenvalues, self_kernel, strands, windows

#: largest l for the dense l-mer table of `GkmSVC.lmer_weights` (4**l numbers);
#: above it scores go through the gapped-pattern table and there are no POIMs
MAX_LMER_TABLE = 12
#: `LmerGram.table` counts the l-mers of this many parts of the records in
#: parallel (each into its own table: 4 x 32 MB at l = 11), within
#: ``COUNT_PARTS_BYTES`` of tables
COUNT_PARTS = 4
COUNT_PARTS_BYTES = 512 * 2**20
#: ``solver="auto"``: the kernel solver up to this many records, the linear one
#: above (on 200-300 nt peaks the kernel matrix alone takes longer than the
#: linear solver's whole fit from about this size on)
KERNEL_MAX_RECORDS = 1000
#: the solvers of `GkmSVC`
SOLVERS = ("auto", "kernel", "linear")
#: the model selection shares one kernel matrix among all its fits up to this
#: many l-mer windows (its records times their windows), whatever the solver
#: (the linear one then runs L-BFGS on the matrix); above, every candidate is
#: refitted through the l-mer table: the matrix grows with the square of the
#: windows, a refit linearly (the measured crossing: benchmarks/RESULTS.md)
GRAM_MAX_WINDOWS = 300_000


def count_parts(l: int) -> int:
    """Parts of the records whose l-mer counts `LmerGram.table` adds in parallel.

    Up to `COUNT_PARTS`, as many tables of ``4**l`` floats as fit in
    `COUNT_PARTS_BYTES` (at least one): a fixed number for ``l``, so that the
    sum is the same on any number of threads.

    Parameters
    ----------
    l : int
        l-mer length.
    """
    table = 8 * 4**l
    return int(max(1, min(COUNT_PARTS, COUNT_PARTS_BYTES // table)))


class LmerGram:
    """``K u`` of the normalised gkm kernel on fixed records, through the l-mer table.

    The backend of `poimkit.svm.linear.lbfgs.minimize` (it needs ``gram``
    only).

    Parameters
    ----------
    seqs : list of numpy.ndarray of uint8
        The training records, at least ``l`` letters each.
    scale : numpy.ndarray of float64, shape (n,)
        ``sqrt(kappa W(x))`` per record: what raw kernel sums are divided by.
    l, k : int
        l-mer length (at most `poimkit.svm.MAX_LMER_TABLE`) and
        informative positions.
    reverse_complement : bool
        Count both strands.
    n_threads : int or None
        Threads of the numba kernels.
    """

    def __init__(
        self,
        seqs: list[np.ndarray],
        scale: np.ndarray,
        l: int,
        k: int,
        reverse_complement: bool,
        n_threads: int | None,
    ) -> None:
        self.codes, self.offsets, _ = strands(seqs, False)
        self.inverse_scale = 1.0 / np.asarray(scale, dtype=np.float64)
        self.l = l
        self.eigenvalues = hamming_eigenvalues(l, k)
        self.reverse_complement = bool(reverse_complement)
        self.n_threads = n_threads

    def table(self, u: np.ndarray) -> np.ndarray:
        """Un-normalised l-mer weights of the model ``sum_i u_i phi(x_i)``.

        Parameters
        ----------
        u : numpy.ndarray of float64, shape (n,)
            Coefficient of each training record in the model.

        Returns
        -------
        numpy.ndarray of float64, shape (4**l,)
            ``f`` with ``sum_i u_i K(x_i, x) = a(x) sum_{windows w of x} f[x_w]``
            (forward strand).
        """
        tables = np.zeros((count_parts(self.l), 4**self.l))
        with numba_threads(self.n_threads):
            _gkm.lmer_counts_parts(
                self.codes,
                self.offsets,
                u * self.inverse_scale,
                self.l,
                self.reverse_complement,
                tables,
            )
            f = tables[0]
            for part in tables[1:]:  # in order: the same sum on any threads
                f += part
            _gkm.walsh_hadamard(f)
            f *= self.eigenvalues
            _gkm.walsh_hadamard(f)
        if self.reverse_complement:  # K = 2 n^T G (I + R) n'
            f *= 2.0
        return f

    def scores(self, f: np.ndarray) -> np.ndarray:
        """``a(x_i) sum_w f[x_i,w]``: the records' scores under the l-mer table ``f``.

        Parameters
        ----------
        f : numpy.ndarray of float64, shape (4**l,)

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
        """
        out = np.empty(self.offsets.size - 1)
        with numba_threads(self.n_threads):
            _gkm.lmer_score_rows(self.codes, self.offsets, self.l, f, out)
        return out * self.inverse_scale

    def gram(self, u: np.ndarray) -> np.ndarray:
        """``K u`` for the normalised kernel of the training records.

        Parameters
        ----------
        u : numpy.ndarray of float64, shape (n,)

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
        """
        return self.scores(self.table(u))


class MatrixGram:
    """``K u`` by a normalised kernel matrix already computed (the selection's).

    Parameters
    ----------
    K : numpy.ndarray of float64, shape (n, n)
        The normalised kernel matrix of the training records.
    """

    def __init__(self, K: np.ndarray) -> None:
        self.K = K

    def gram(self, u: np.ndarray) -> np.ndarray:
        """``K u`` by one product with the stored matrix.

        Parameters
        ----------
        u : numpy.ndarray of float64, shape (n,)
            One number per training record.

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
            ``K @ u``.
        """
        return self.K @ u


def fit_sequence_space(
    gram: LmerGram | MatrixGram,
    y: np.ndarray,
    C: float,
    tol: float,
    max_iter: int,
    verbose: bool = False,
    loss: str = "squared_hinge",
    epsilon: float = 0.0,
):
    """Train the primal L2-SVM or L2-loss SVR on ``gram``'s records by L-BFGS.

    Parameters
    ----------
    gram : LmerGram or MatrixGram
        The training records' kernel products.
    y : numpy.ndarray of float64, shape (n,)
        Labels in {-1, +1} (squared hinge), or real targets (squared
        epsilon-insensitive loss).
    C : float
        Regularisation.
    tol : float
        Stop when the gradient norm falls below ``tol`` times its start.
    max_iter : int
        Most iterations.
    verbose : bool
        A progress bar over the iterations.
    loss : {"squared_hinge", "squared_epsilon_insensitive"}
        The loss, as in `poimkit.svm.linear.losses.score_terms`.
    epsilon : float
        Half-width of the regression loss's tube.

    Returns
    -------
    poimkit.svm.linear.lbfgs.LbfgsResult
        ``coef``: a coefficient per record (``alpha_i y_i``, or ``alpha_i -
        alpha_i*`` for regression), bias last.
    """
    from tqdm.auto import tqdm

    from .linear.lbfgs import minimize

    desc = "GkmSVC" if loss == "squared_hinge" else "GkmSVR"
    with tqdm(desc=desc, unit=" iterations", disable=not verbose, leave=False) as bar:

        def progress(n_iter: int, gradient_norm: float) -> None:
            bar.update()

        return minimize(
            gram, y, C, loss, tol, max_iter, callback=progress, epsilon=epsilon
        )


class SequenceSpaceSolver:
    """The choice between the kernel and the linear solver, and the linear fit.

    Shared by `poimkit.GkmSVC` (squared hinge) and `poimkit.GkmSVR` (squared
    epsilon-insensitive loss): the host defines ``solver``, ``max_iter``,
    ``verbose``, the gkm parameters, ``_linear_loss`` and ``_set_model`` /
    ``_scale`` (`poimkit.svm.gkm.GkmExpansion`). The limits are this module's
    (``MAX_LMER_TABLE``, ``KERNEL_MAX_RECORDS``, ``GRAM_MAX_WINDOWS``; read when
    used, and re-exported by `poimkit.svm.gkm`).
    """

    #: the loss of the linear solver (`poimkit.svm.linear.losses.score_terms`)
    _linear_loss = "squared_hinge"
    #: the regressor's tube and the classifier's weights (the host's fields)
    epsilon: float = 0.0
    class_weight = None

    def _check_solver(self) -> None:
        """Check ``solver`` and ``max_iter`` (and that the linear solver can run)."""
        check_int(self.max_iter, "max_iter", 1)
        if self.solver not in SOLVERS:
            raise InputError(f"solver must be one of {SOLVERS}, got {self.solver!r}")
        if self.solver == "linear" and not self._linear_runs():
            extra = ""
            if self.class_weight is not None:
                extra = f" and no class_weight (got {self.class_weight!r})"
            raise InputError(
                f"solver='linear' needs l <= {MAX_LMER_TABLE} (got {self.l})"
                f"{extra}; use solver='kernel'"
            )

    def _linear_runs(self) -> bool:
        """Whether the linear solver can train this model (its l-mer table fits)."""
        return self.l <= MAX_LMER_TABLE and self.class_weight is None

    def _solver_for(self, n: int) -> str:
        """The solver that trains on ``n`` records (``solver`` with auto decided)."""
        if self.solver != "auto":
            return self.solver
        linear = n > KERNEL_MAX_RECORDS and self._linear_runs()
        return "linear" if linear else "kernel"

    def _gram_pays(self, n: int, letters: int) -> bool:
        """Whether the selection shares one kernel matrix of ``n`` records.

        ``letters``: their total length. Yes for the kernel solver, and for the
        linear one up to ``GRAM_MAX_WINDOWS`` l-mer windows.
        """
        if self._solver_for(n) == "kernel":
            return True
        return letters - n * (self.l - 1) <= GRAM_MAX_WINDOWS

    def _lmer_gram(self, seqs: list[np.ndarray]) -> LmerGram:
        """The records' `LmerGram`; sets ``kernel_scale_`` (no matrix needed)."""
        n_windows = windows(seqs, self.l)
        self.kernel_scale_ = 1.0
        if self.normalize:
            diagonal = self_kernel(
                seqs, self.l, self.k, self.reverse_complement, self.n_threads
            )
            self.kernel_scale_ = float(np.mean(diagonal / n_windows))
        return LmerGram(
            seqs,
            self._scale(n_windows),
            self.l,
            self.k,
            self.reverse_complement,
            self.n_threads,
        )

    def _fit_lbfgs(self, seqs: list[np.ndarray], y: np.ndarray, gram) -> None:
        """Fit the model by L-BFGS on ``gram`` (the linear solver).

        Sets the model, ``solver_``, ``n_iter_`` and ``converged_`` (with a
        `ConvergenceWarning` if not).
        """
        from sklearn.exceptions import ConvergenceWarning

        res = fit_sequence_space(
            gram,
            y,
            float(self.C),
            float(self.tol),
            self.max_iter,
            self.verbose,
            self._linear_loss,
            float(self.epsilon),
        )
        coef = res.coef[:-1]
        support = np.flatnonzero(coef)
        self._gram_support = support
        self._set_model(seqs, support, coef[support])
        self.intercept_ = float(res.coef[-1])
        self.solver_, self.n_iter_ = "linear", res.n_iter
        self.converged_ = bool(res.converged)
        if not self.converged_:
            warnings.warn(
                f"{type(self).__name__}'s linear solver did not converge in "
                f"max_iter={self.max_iter} iterations (relative gradient "
                f"{res.grad_norm / res.grad_norm0:.2e} > tol={self.tol}); "
                "increase max_iter",
                ConvergenceWarning,
                stacklevel=4,  # fit -> _fit_sequences -> here
            )
