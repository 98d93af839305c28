"""Exact draws from a Markov background conditioned on a positional k-mer.

The sampler behind `poimkit.poim.sampled` (sampled POIMs and instance
explanations). Sampling is exact for Markov chains of any order D = 0..3 (no
rejection, no MCMC): a chain conditioned on ``X[j:j+l] = z`` splits, for
l >= D, into a left flank that depends on z only through its first D letters
and a right flank that depends on z only through its last D letters. The
right flank is the chain run forward; the left flank is the time-reversed
chain, whose transition probabilities follow from the D-gram marginals
``pi_t``. Letters are drawn by inversion with uniforms the caller supplies,
so that draws for different k-mers can share their randomness (common random
numbers).

* `sample_conditional`: n draws conditioned on one positional k-mer (the
  public entry point, re-exported by `poimkit.poim.sampled`);
* `ConditionalSampler`: the flank sampler for one background, shared by the
  estimators of `poimkit.poim.sampled`;
* `cumulative`, `inverse_cdf`, `uniforms`: inversion sampling with uniforms
  in (0, 1]; `kmer_codes`: letter codes of k-mer indices.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validation import as_rng, check_int, renamed_seed
from ..alphabet import N_LETTERS, check_codes, encode, kmer_indices
from ..background import MarkovBackground, check_background, kmer_probability_table
from ..errors import InputError

__all__ = [
    "ConditionalSampler",
    "cumulative",
    "inverse_cdf",
    "kmer_codes",
    "sample_conditional",
    "uniforms",
]


def cumulative(p: np.ndarray) -> np.ndarray:
    """Cumulative distributions along the last axis, last entry exactly 1.

    Parameters
    ----------
    p : numpy.ndarray of float, shape (..., n_categories)
        Non-negative weights; each row is normalised. Rows that sum to 0
        (contexts of probability 0) become uniform.

    Returns
    -------
    numpy.ndarray of float64, same shape as ``p``
        Cumulative probabilities; the last entry of every row is exactly 1.

    Examples
    --------
    >>> cumulative(np.array([[1.0, 0.0, 3.0], [0.0, 0.0, 0.0]])).tolist()
    [[0.25, 0.25, 1.0], [0.3333333333333333, 0.6666666666666666, 1.0]]
    """
    p = np.asarray(p, dtype=np.float64)
    total = p.sum(axis=-1, keepdims=True)
    p = np.where(total > 0, p / np.where(total > 0, total, 1.0), 1.0 / p.shape[-1])
    cum = np.cumsum(p, axis=-1)
    cum[..., -1] = 1.0
    return cum


def inverse_cdf(cum: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Category c with ``cum[c-1] < u <= cum[c]`` for u in (0, 1] (inversion).

    Parameters
    ----------
    cum : numpy.ndarray of float, shape ``u.shape + (n_categories,)``
        Cumulative distributions (as from `cumulative`), or an array that
        broadcasts to that shape.
    u : numpy.ndarray of float
        Uniforms in (0, 1] (as from `uniforms`).

    Returns
    -------
    numpy.ndarray of int, shape ``u.shape``
        The drawn categories; categories of probability 0 are never drawn.

    Examples
    --------
    >>> inverse_cdf(np.array([0.25, 0.25, 1.0]), np.array([0.1, 0.25, 0.3, 1.0]))
    array([0, 0, 2, 2])
    """
    return np.minimum((cum < u[..., None]).sum(axis=-1), cum.shape[-1] - 1)


def _columns(cum: np.ndarray) -> np.ndarray:
    """``(T, S, 4)`` cumulative tables as contiguous ``(T, 3, S)``."""
    return np.ascontiguousarray(np.swapaxes(cum[..., :3], 1, 2))


def _draw_letters(columns: np.ndarray, state: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Letters by inversion for chains in ``state`` (m, k) with uniforms u (m, 1).

    ``columns`` (3, S) holds the cumulative probabilities ``cum[s, 0..2]``;
    the letter is ``#{c < 3 : cum[s, c] < u}``, as in `inverse_cdf`. Returns
    int64 of shape (m, k). (Three gathers and comparisons are several times
    faster than comparing a gathered (m, k, 4) table.)
    """
    if columns.shape[1] == 1:  # D = 0: the same letter for every chain
        letter = (columns[:, 0] < u).sum(axis=1, keepdims=True)
        return np.broadcast_to(letter, state.shape)
    letter = (columns[0][state] < u).astype(np.int64)
    letter += columns[1][state] < u
    letter += columns[2][state] < u
    return letter


def kmer_codes(index: np.ndarray, width: int) -> np.ndarray:
    """Letter codes of k-mer indices (vectorised inverse of `kmer_index`).

    Parameters
    ----------
    index : numpy.ndarray of int
        k-mer indices, ``0 .. 4**width - 1`` (not checked).
    width : int
        k-mer length.

    Returns
    -------
    numpy.ndarray of uint8, shape ``index.shape + (width,)``
        Codes A=0, C=1, G=2, T=3, first letter first.

    Examples
    --------
    >>> kmer_codes(np.array([9156, 3]), 7).tolist()  # GATTACA, AAAAAAT
    [[2, 0, 3, 3, 0, 1, 0], [0, 0, 0, 0, 0, 0, 3]]
    """
    shifts = 2 * np.arange(width - 1, -1, -1, dtype=np.int64)
    return ((np.asarray(index, dtype=np.int64)[..., None] >> shifts) & 3).astype(
        np.uint8
    )


class ConditionalSampler:
    """Exact draws of the flanks of a window under a Markov background.

    For a window ``[start, stop)`` of width >= D whose letters are fixed, the
    left flank ``X[0:start]`` depends only on the D-gram ``X[start:start+D]``
    and the right flank ``X[stop:L]`` only on ``X[stop-D:stop]``, and the two
    are independent given the window (Markov property, in both directions).

    * Right flank: the chain forward, ``X_t ~ T_t(. | X[t-D:t])``.
    * Left flank: the reverse chain,

          Pr(X_{t-1} = a | X[t:t+D] = s)
              = pi_{t-1}(a s[:D-1]) T_{t-1+D}(s_{D-1} | a s[:D-1]) / pi_t(s),

      with the D-gram marginals ``pi_t`` (`MarkovBackground.marginals`);
      for D = 0, ``Pr(X_{t-1} = a) = T_{t-1}(a)``.

    Letters are drawn by inversion of the cumulative distribution with
    uniforms the caller supplies, one per flank position and sample, so that
    flanks for different boundary states share their randomness (common
    random numbers).

    Parameters
    ----------
    background : MarkovBackground
        Chain of order D = 0..3 for sequences of length L.

    Attributes
    ----------
    background : MarkovBackground
        The chain.
    order, length, n_states : int
        D, L and the number ``4**D`` of D-gram states.
    forward, reverse : numpy.ndarray of float64
        Cumulative transition tables of the forward and the reverse chain,
        stored as (position, 3, n_states): the first three cumulative
        probabilities of each state (the fourth is 1).
    """

    def __init__(self, background: MarkovBackground) -> None:
        self.background = background
        self.order = order = background.order
        self.length = length = background.length
        self.n_states = n_states = N_LETTERS**order
        # Cumulative tables stored as (position, 3, S): the first three
        # cumulative probabilities of each state (the fourth is 1).
        self.forward = _columns(cumulative(background.transitions))
        reverse = np.zeros((length - order + 1, n_states, N_LETTERS))
        if order == 0:
            reverse[1:, 0, :] = background.transitions[:length, 0, :]
        else:
            pi = background.marginals()  # (L - D + 1, S)
            state = np.arange(n_states)
            prev = (
                np.arange(N_LETTERS)[None, :] * N_LETTERS ** (order - 1)
                + (state // N_LETTERS)[:, None]
            )  # (S, 4): the D-gram a s[:D-1] at t - 1
            last = (state % N_LETTERS)[:, None]
            for t in range(1, length - order + 1):
                reverse[t] = pi[t - 1][prev] * background.transitions[t - 1][prev, last]
        self.reverse = _columns(cumulative(reverse))
        self._tables: dict[int, np.ndarray] = {}

    def probabilities(self, width: int) -> np.ndarray:
        """Positional k-mer probabilities under the background, cached per width.

        Parameters
        ----------
        width : int
            k-mer length, 1..L.

        Returns
        -------
        numpy.ndarray of float64, shape (L - width + 1, 4**width)
            ``Pr(X[j:j+width] = z)`` at row j, column z (k-mer index).
        """
        if width not in self._tables:
            self._tables[width] = kmer_probability_table(self.background, width)
        return self._tables[width]

    def flanks(
        self,
        start: int,
        stop: int,
        left_states: np.ndarray,
        right_states: np.ndarray,
        u: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Left and right flanks of the window ``[start, stop)``.

        Parameters
        ----------
        start, stop : int
            The window, ``stop - start >= D``.
        left_states, right_states : numpy.ndarray of int, shape (m, k)
            D-gram indices of ``X[start:start+D]`` and ``X[stop-D:stop]``
            (zeros for D = 0).
        u : numpy.ndarray of float, shape (m, L - (stop - start))
            Uniforms in (0, 1]: column p < start drives position p, column
            ``p - (stop - start)`` drives position p >= stop. Shared by the k
            chains of a sample.

        Returns
        -------
        left : numpy.ndarray of uint8, shape (m, k, start)
        right : numpy.ndarray of uint8, shape (m, k, L - stop)
        """
        order, n_states = self.order, self.n_states
        m, k = left_states.shape
        width = stop - start
        left = np.empty((start, m, k), dtype=np.uint8)  # written row by row
        state = np.array(left_states, dtype=np.int64)
        for t in range(start, 0, -1):  # draw X_{t-1} given X[t:t+D]
            letter = _draw_letters(self.reverse[t], state, u[:, t - 1 : t])
            left[t - 1] = letter
            if order:
                state = letter * N_LETTERS ** (order - 1) + state // N_LETTERS
        right = np.empty((self.length - stop, m, k), dtype=np.uint8)
        state = np.array(right_states, dtype=np.int64)
        for t in range(stop, self.length):  # draw X_t given X[t-D:t]
            letter = _draw_letters(
                self.forward[t - order], state, u[:, t - width : t - width + 1]
            )
            right[t - stop] = letter
            if order:
                state = (state * N_LETTERS + letter) % n_states
        return left.transpose(1, 2, 0), right.transpose(1, 2, 0)

    def extension(self, l: int, j: int) -> tuple[int, int, np.ndarray]:
        """The window of width ``w = max(l, D)`` used to condition on ``(z, j)``.

        Parameters
        ----------
        l : int
            k-mer length, 1..L.
        j : int
            0-based start of the k-mer, ``0 <= j <= L - l``.

        Returns
        -------
        width : int
            ``w = max(l, D)``.
        start : int
            The window ``[start, start + w)`` holds ``[j, j + l)`` (extended
            to the right, or to the left at the end of the sequence).
        cum : numpy.ndarray of float64, shape (4**l, 4**w)
            ``cum[z]`` is the cumulative distribution of the window's content
            given ``X[j:j+l] = z``; empty, shape (0, 0), when ``w == l``.
        """
        width = max(l, self.order)
        start = min(j, self.length - width)
        if width == l:
            return width, start, np.empty((0, 0))
        p = self.probabilities(width)[start]
        offset = j - start
        sub = (np.arange(p.size) >> (2 * (width - offset - l))) % N_LETTERS**l
        joint = np.zeros((N_LETTERS**l, p.size))
        joint[sub, np.arange(p.size)] = p
        return width, start, cumulative(joint)

    def fill(
        self, start: int, width: int, contents: np.ndarray, u: np.ndarray
    ) -> np.ndarray:
        """Sequences with window ``[start, start + width)`` set to ``contents``.

        Parameters
        ----------
        start : int
            0-based start of the window.
        width : int
            Window width, ``>= D``.
        contents : numpy.ndarray of int, shape (m, k)
            Window contents as k-mer indices of length ``width``.
        u : numpy.ndarray of float, shape (m, L - width)
            Uniforms in (0, 1] driving the flanks (see `flanks`), shared by
            the k sequences of a sample.

        Returns
        -------
        numpy.ndarray of uint8, shape (m, k, L)
            The window set to ``contents`` and the flanks drawn conditionally
            on it.
        """
        order = self.order
        contents = np.asarray(contents, dtype=np.int64)
        left, right = self.flanks(
            start,
            start + width,
            contents >> (2 * (width - order)),
            contents % self.n_states,
            u,
        )
        m, k = contents.shape
        X = np.empty((m, k, self.length), dtype=np.uint8)
        X[:, :, :start] = left
        X[:, :, start : start + width] = kmer_codes(contents, width)
        X[:, :, start + width :] = right
        return X


@renamed_seed
def uniforms(random_state: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Uniforms in (0, 1], so that inversion never draws a probability-0 category.

    Parameters
    ----------
    random_state : numpy.random.Generator
        Source of randomness.
    shape : tuple of int
        Shape of the output.

    Returns
    -------
    numpy.ndarray of float64
        ``1 - random_state.random(shape)``.
    """
    return 1.0 - random_state.random(shape)


def sample_conditional(
    background: MarkovBackground,
    kmer: str | ArrayLike,
    position: int,
    n: int,
    random_state: np.random.Generator | int | None = None,
) -> np.ndarray:
    """Draw sequences from the background conditioned on one positional k-mer.

    Parameters
    ----------
    background : MarkovBackground
        Chain of order D = 0..3 for sequences of length L.
    kmer : str or array-like of int, shape (l,)
        The k-mer z (letters or codes 0..3).
    position : int
        0-based start j, ``0 <= j <= L - l``.
    n : int
        Number of sequences.
    random_state : int, numpy.random.Generator or None
        Seed.

    Returns
    -------
    numpy.ndarray of uint8, shape (n, L)
        Independent draws of X given ``X[j:j+l] = z``; each row has z at j.

    Raises
    ------
    InputError
        If ``Pr(X[j:j+l] = z) = 0`` (the condition is impossible) or an
        argument is invalid.

    Notes
    -----
    For l >= D the sequence splits at the window: the right flank is the
    chain run forward from the state ``z[l-D:]`` and the left flank the
    reverse chain run backward from ``z[:D]``, with

    .. code-block:: text

        Pr(X_{t-1} = a | X[t:t+D] = s)
            = pi_{t-1}(a s[:D-1]) T_{t-1+D}(s_{D-1} | a s[:D-1]) / pi_t(s).

    For l < D the window is first extended to a D-gram ``w`` (to the right,
    or to the left at the end of the sequence) drawn from
    ``Pr(w | w contains z at the right offset)``, then the flanks are drawn
    given w. Both steps are exact, so the draws are independent samples of
    the conditional distribution.

    Examples
    --------
    >>> bg = MarkovBackground.fit(encode(["ACGTACGTAC", "AACCGGTTAA"]), order=2)
    >>> X = sample_conditional(bg, "GT", 4, 3, random_state=0)
    >>> X.shape, X[:, 4:6].tolist()
    ((3, 10), [[2, 3], [2, 3], [2, 3]])
    """
    check_background(background)
    codes = (
        encode(kmer)[0]
        if isinstance(kmer, str)
        else check_codes(np.asarray(kmer).reshape(1, -1), "kmer")[0]
    )
    length = background.length
    l = codes.size
    if l > length:
        raise InputError(f"kmer has length {l}, longer than the sequences ({length})")
    position = check_int(position, "position", 0, length - l)
    n = check_int(n, "n", 0)
    rng = as_rng(random_state)
    z = int(kmer_indices(codes[None, :], l)[0, 0])
    sampler = ConditionalSampler(background)
    if sampler.probabilities(l)[position, z] <= 0:
        raise InputError(
            f"the k-mer has probability 0 at position {position + 1} under the "
            "background; there is nothing to condition on"
        )
    width, start, cum = sampler.extension(l, position)
    u = uniforms(rng, (n, length - width + 1))
    if width == l:
        contents = np.full((n, 1), z, dtype=np.int64)
    else:
        contents = inverse_cdf(cum[z], u[:, 0])[:, None]
    return sampler.fill(start, width, contents, u[:, 1:])[:, 0, :]
