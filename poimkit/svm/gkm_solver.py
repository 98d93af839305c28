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

import numpy as np

from .._threads import numba_threads
from ..kernels import _gkm
from ..kernels.gkm import hamming_eigenvalues, strands


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
        l-mer length (at most `poimkit.svm.gkm.MAX_LMER_TABLE`) and
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
            Coefficient of each record.

        Returns
        -------
        numpy.ndarray of float64, shape (4**l,)
            ``f`` with ``sum_i u_i K(x_i, x) = a(x) sum_{windows w of x} f[x_w]``
            (forward strand).
        """
        f = np.zeros(4**self.l)
        with numba_threads(self.n_threads):
            _gkm.lmer_counts(
                self.codes,
                self.offsets,
                u * self.inverse_scale,
                self.l,
                self.reverse_complement,
                f,
            )
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
        """``K u``.

        Parameters
        ----------
        u : numpy.ndarray of float64, shape (n,)

        Returns
        -------
        numpy.ndarray of float64, shape (n,)
        """
        return self.K @ u


def fit_sequence_space(
    gram: LmerGram | MatrixGram,
    y_sign: np.ndarray,
    C: float,
    tol: float,
    max_iter: int,
    verbose: bool = False,
):
    """Train the primal L2-SVM (squared hinge) on ``gram``'s records by L-BFGS.

    Parameters
    ----------
    gram : LmerGram or MatrixGram
        The training records' kernel products.
    y_sign : numpy.ndarray of float64, shape (n,)
        Labels in {-1, +1}.
    C : float
        Regularisation.
    tol : float
        Stop when the gradient norm falls below ``tol`` times its start.
    max_iter : int
        Most iterations.
    verbose : bool
        A progress bar over the iterations.

    Returns
    -------
    poimkit.svm.linear.lbfgs.LbfgsResult
        ``coef``: a coefficient per record (``alpha_i y_i``), bias last.
    """
    from tqdm.auto import tqdm

    from .linear.lbfgs import minimize

    with tqdm(
        desc="GkmSVC", unit=" iterations", disable=not verbose, leave=False
    ) as bar:

        def progress(n_iter: int, gradient_norm: float) -> None:
            bar.update()

        return minimize(
            gram, y_sign, C, "squared_hinge", tol, max_iter, callback=progress
        )
