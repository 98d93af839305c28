"""Markov background models of DNA sequences for POIMs and FIRM.

A `MarkovBackground` is a Markov chain of order D (0 <= D <= 3) over
``{A, C, G, T}`` for sequences of a fixed length L, homogeneous or
position-specific. Every chain is stored the same way, so that numba kernels
see one representation:

* ``initial[s] = Pr(X[0:D] = s)`` for the D-gram index s, shape ``(4**D,)``
  (``[1.0]`` for D = 0);
* ``transitions[t - D, s, a] = Pr(X_t = a | X[t-D:t] = s)`` for t = D..L-1,
  shape ``(L - D, 4**D, 4)``. A homogeneous chain repeats one matrix at every t.

D-gram and k-mer indices follow `poimkit.alphabet`: the first letter is the
most significant base-4 digit, so the state after reading letter a in state s
is ``(4 s + a) mod 4**D``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from numbers import Integral

import numpy as np
from numpy.typing import ArrayLike

from .._validation import as_rng, check_int, check_length, renamed_seed
from ..alphabet import N_LETTERS as _N_LETTERS
from ..alphabet import check_codes, kmer_indices
from ..errors import InputError
from .chain_tables import check_chain, fit_chain, fit_pooled_chain


def _draw(cum: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Draw one category per row of the normalised cumulative table ``cum``.

    ``cum[:, -1]`` is exactly 1 and u lies in (0, 1], so category c is drawn
    with probability ``cum[c] - cum[c - 1]``; categories of probability 0 are
    never drawn.
    """
    u = 1.0 - rng.random(cum.shape[0])
    return np.minimum((cum < u[:, None]).sum(axis=1), cum.shape[1] - 1)


class MarkovBackground:
    """Markov chain of order D over ``{A, C, G, T}`` for sequences of length L.

    Parameters
    ----------
    initial : array-like of float, shape (4**D,)
        Distribution of the first D letters ``X[0:D]`` as a D-gram index
        (``[1.0]`` for D = 0). D (0..3) is read from its size.
    transitions : array-like of float, shape (L - D, 4**D, 4)
        ``transitions[t - D, s, a] = Pr(X_t = a | X[t-D:t] = s)`` for
        t = D..L-1. For D = 0 the shape is ``(L, 1, 4)``: per-position letter
        probabilities.
    positional : bool, optional
        Whether the chain was made position-specific. Default: True unless
        all transition matrices are equal.

    Attributes
    ----------
    order : int
        Chain order D.
    length : int
        Sequence length L (``transitions.shape[0] + D``).
    initial : numpy.ndarray of float64, shape (4**D,)
    transitions : numpy.ndarray of float64, shape (L - D, 4**D, 4)
    positional : bool

    Raises
    ------
    InputError
        For inconsistent shapes, D > 3, L < max(D, 1), negative or non-finite
        entries, or a distribution that does not sum to 1 within 1e-9 (the
        message names the position and the state).

    Notes
    -----
    The probability of a sequence is

        Pr(X = x) = initial[x[0:D]] * prod_{t=D..L-1} T_t(x_t | x[t-D:t]),

    with ``T_t(a | s) = transitions[t - D, s, a]``.

    After validation every distribution whose sum differs from 1 by more than
    1e-14 is divided by its sum, so that all distributions sum to 1 to
    rounding and probabilities of all 4**L sequences sum to 1; distributions
    already normalised are kept unchanged.

    Examples
    --------
    >>> bg = MarkovBackground([0.5, 0.5, 0.0, 0.0], [[[0.9, 0.1, 0.0, 0.0]] * 4])
    >>> bg
    MarkovBackground(order=1, length=2, positional=False)
    >>> float(bg.kmer_probability(1, 2, 0))  # Pr(X[0:2] = 'AC')
    0.05
    """

    def __init__(
        self,
        initial: ArrayLike,
        transitions: ArrayLike,
        positional: bool | None = None,
    ) -> None:
        initial, transitions, order = check_chain(initial, transitions)
        self.initial = initial
        self.transitions = transitions
        self.order = order
        self.length = transitions.shape[0] + order
        if positional is None:
            positional = (
                bool(np.any(self.transitions != self.transitions[:1]))
                if self.transitions.shape[0]
                else False
            )
        self.positional = bool(positional)

    # ------------------------------------------------------------------ builders
    @classmethod
    def uniform(cls, length: int) -> MarkovBackground:
        """Order-0 chain with every letter at every position of probability 1/4.

        Parameters
        ----------
        length : int
            Sequence length L >= 1.

        Returns
        -------
        MarkovBackground

        Examples
        --------
        >>> MarkovBackground.uniform(3).kmer_probabilities(2, 1).tolist()[:2]
        [0.0625, 0.0625]
        """
        length = check_int(length, "length", 1)
        return cls(np.ones(1), np.full((length, 1, _N_LETTERS), 0.25), positional=False)

    @classmethod
    def from_letter_probabilities(
        cls, p: ArrayLike, length: int | None = None
    ) -> MarkovBackground:
        """Order-0 chain from letter probabilities.

        Parameters
        ----------
        p : array-like of float, shape (4,) or (L, 4)
            Letter probabilities (A, C, G, T): one row for a homogeneous chain,
            one row per position for a positional one.
        length : int, optional
            Sequence length L; required for ``p`` of shape (4,), and if given
            for shape (L, 4) it must equal L.

        Returns
        -------
        MarkovBackground
            Order 0; ``positional`` is True for ``p`` of shape (L, 4).

        Examples
        --------
        >>> bg = MarkovBackground.from_letter_probabilities([0.3, 0.2, 0.2, 0.3], 4)
        >>> round(float(bg.kmer_probability(0, 2, 1)), 2)  # 'AA' at position 2
        0.09
        """
        p = np.array(p, dtype=np.float64)
        if p.ndim == 1 and p.shape == (_N_LETTERS,):
            if length is None:
                raise InputError(
                    "length is required when p has shape (4,) (a homogeneous chain)"
                )
            length = check_int(length, "length", 1)
            return cls(
                np.ones(1),
                np.broadcast_to(p, (length, 1, _N_LETTERS)),
                positional=False,
            )
        if p.ndim == 2 and p.shape[1] == _N_LETTERS and p.shape[0] >= 1:
            if length is not None and check_int(length, "length", 1) != p.shape[0]:
                raise InputError(
                    f"length is {length} but p has shape {p.shape}, i.e. "
                    f"{p.shape[0]} positions"
                )
            return cls(np.ones(1), p[:, None, :], positional=True)
        raise InputError(f"p has shape {p.shape} but must have shape (4,) or (L, 4)")

    @classmethod
    def fit(
        cls,
        X: np.ndarray,
        order: int = 0,
        positional: bool = False,
        pseudocount: float = 1.0,
    ) -> MarkovBackground:
        """Maximum a-posteriori chain of the given order from sequences.

        Parameters
        ----------
        X : numpy.ndarray of int, shape (n, L)
            Letter codes 0..3 (see `poimkit.encode`). Requires ``L >= order``.
        order : int
            Chain order D in 0..3.
        positional : bool
            False: one transition matrix pooled over all positions t >= D.
            True: a transition matrix per position.
        pseudocount : float
            Added to every count (>= 0).

        Returns
        -------
        MarkovBackground

        Notes
        -----
        With counts ``N_t(s, a) = #{x: x[t-D:t] = s, x_t = a}`` and pseudocount
        c, the positional chain has

            T_t(a | s) = (N_t(s, a) + c) / (sum_b N_t(s, b) + 4 c),
            initial(s) = (M_0(s) + c) / (n + 4**D c),

        where ``M_t(s) = #{x: x[t:t+D] = s}``. The homogeneous chain pools the
        counts: ``N(s, a) = sum_{t >= D} N_t(s, a)`` gives one matrix repeated
        at every position, and the initial distribution is the pooled D-gram
        frequency over all start positions, ``M(s) = sum_{t=0..L-D} M_t(s)``
        (for a stationary source this is the stationary D-gram distribution).
        With ``pseudocount=0`` the row of a state never seen before a letter
        has no counts; it is set to the uniform distribution ``1/4`` so the
        chain stays valid (it only matters for contexts absent from X).

        Examples
        --------
        >>> from poimkit import encode
        >>> bg = MarkovBackground.fit(encode(["ACAG"]), order=1, pseudocount=0)
        >>> bg.transitions[0, 0].tolist()  # letters after A: C and G once each
        [0.0, 0.5, 0.5, 0.0]
        >>> bg.transitions[0, 3].tolist()  # T never precedes a letter: uniform
        [0.25, 0.25, 0.25, 0.25]
        """
        initial, trans = fit_chain(X, order, positional, pseudocount)
        return cls(initial, trans, positional=bool(positional))

    @classmethod
    def fit_pooled(
        cls,
        seqs: Iterable[np.ndarray],
        order: int,
        length: int,
        pseudocount: float = 1.0,
    ) -> MarkovBackground:
        """Homogeneous chain from sequences of any lengths, for sequences of ``length``.

        The counts of `fit` (``positional=False``) pooled over every sequence,
        each on its own (no letters across two records).

        Parameters
        ----------
        seqs : iterable of numpy.ndarray
            1-D letter code arrays of any lengths.
        order : int
            Chain order D in 0..3.
        length : int
            Length L of the chain's sequences.
        pseudocount : float
            Added to every count (>= 0).

        Returns
        -------
        MarkovBackground

        Examples
        --------
        >>> from poimkit import encode
        >>> seqs = [encode(["ACAG"])[0], encode(["AC"])[0]]
        >>> bg = MarkovBackground.fit_pooled(seqs, 1, 5, pseudocount=0)
        >>> bg.length, bg.transitions[0, 0].tolist()
        (5, [0.0, 0.6666666666666666, 0.3333333333333333, 0.0])
        """
        initial, trans = fit_pooled_chain(seqs, order, length, pseudocount)
        return cls(initial, trans, positional=False)

    # --------------------------------------------------------------- probabilities
    def marginals(self) -> np.ndarray:
        """Marginal D-gram distributions ``pi_t(s) = Pr(X[t:t+D] = s)``.

        Returns
        -------
        numpy.ndarray of float64, shape (L - D + 1, 4**D)
            Row t is the distribution of the D-gram starting at t,
            t = 0..L-D. For D = 0: shape (L + 1, 1), all ones.

        Notes
        -----
        Forward propagation from ``pi_0 = initial``:

            pi_{t+1}(s') = sum_{s, a : (4 s + a) mod 4**D = s'} pi_t(s) T_{t+D}(a | s).

        Examples
        --------
        >>> bg = MarkovBackground([1.0, 0, 0, 0], [[[0.0, 1, 0, 0]] + [[0.25] * 4] * 3])
        >>> bg.marginals().tolist()
        [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
        """
        n_states = _N_LETTERS**self.order
        out = np.empty((self.length - self.order + 1, n_states))
        out[0] = self.initial
        for t in range(self.length - self.order):
            joint = out[t][:, None] * self.transitions[t]  # index 4 s + a
            out[t + 1] = joint.reshape(_N_LETTERS, n_states).sum(axis=0)
        return out

    def kmer_probabilities(self, k: int, position: int) -> np.ndarray:
        """``Pr(X[position:position+k] = z)`` for all 4**k k-mers z.

        Parameters
        ----------
        k : int
            k-mer length, 1..L.
        position : int
            0-based start, 0..L-k.

        Returns
        -------
        numpy.ndarray of float64, shape (4**k,)
            Indexed by k-mer index (see `poimkit.kmer_index`); sums to 1.

        Notes
        -----
        For k >= D, with p the position,

            Pr(X[p:p+k] = z) = pi_p(z[0:D]) * prod_{n=D..k-1} T_{p+n}(z_n | z[n-D:n]).

        For k < D the D-gram marginal ``pi_q`` with ``q = min(p, L - D)`` is
        summed over the letters outside ``[p, p + k)``.

        Examples
        --------
        >>> bg = MarkovBackground.from_letter_probabilities([0.1, 0.2, 0.3, 0.4], 3)
        >>> bg.kmer_probabilities(1, 2).tolist()
        [0.1, 0.2, 0.3, 0.4]
        """
        k, position = self._check_window(k, position)
        # an order-0 window starts from probability exactly 1 here (the table's
        # marginals() rows are sums of letter probabilities: 1 up to rounding)
        pi = None if self.order else np.ones((self.length + 1, 1))
        return _window_probabilities(self, k, np.array([position]), pi)[0]

    def kmer_probability(self, kmer_index: int, k: int, position: int) -> float:
        """``Pr(X[position:position+k] = z)`` for the k-mer z with this index.

        Parameters
        ----------
        kmer_index : int
            Index of z (see `poimkit.kmer_index`), 0..4**k - 1.
        k, position : int
            As in `kmer_probabilities`.

        Returns
        -------
        float

        Notes
        -----
        Same formula as `kmer_probabilities`, evaluated for one k-mer only:
        ``pi_p(z[:D]) * prod_n T_{p+n}(z_n | z[n-D:n])`` for k >= D.

        Examples
        --------
        >>> from poimkit import kmer_index
        >>> MarkovBackground.uniform(8).kmer_probability(kmer_index("GATTACA"), 7, 1)
        6.103515625e-05
        """
        k, position = self._check_window(k, position)
        if (
            isinstance(kmer_index, bool)
            or not isinstance(kmer_index, Integral)
            or not 0 <= kmer_index < _N_LETTERS**k
        ):
            raise InputError(
                f"kmer_index must be an integer in 0..{_N_LETTERS**k - 1} for k = {k}, "
                f"got {kmer_index!r}"
            )
        order = self.order
        if k < order:
            return float(self.kmer_probabilities(k, position)[kmer_index])
        letters = [(int(kmer_index) >> (2 * (k - 1 - p))) & 3 for p in range(k)]
        state = 0
        for letter in letters[:order]:
            state = state * _N_LETTERS + letter
        prob = self.marginals()[position, state] if order else 1.0
        n_states = _N_LETTERS**order
        for n in range(order, k):
            prob *= self.transitions[position + n - order, state, letters[n]]
            state = (state * _N_LETTERS + letters[n]) % n_states
        return float(prob)

    def log_probability(self, X: np.ndarray) -> np.ndarray:
        """Natural log of ``Pr(X = x)`` for every sequence x (``-inf`` if 0).

        Parameters
        ----------
        X : numpy.ndarray of int, shape (n, L)
            Letter codes 0..3.

        Returns
        -------
        numpy.ndarray of float64, shape (n,)

        Notes
        -----
            log Pr(x) = log initial[x[0:D]] + sum_{t=D..L-1} log T_t(x_t | x[t-D:t]).

        Examples
        --------
        >>> from poimkit import encode
        >>> bg = MarkovBackground.uniform(2)
        >>> bool(np.isclose(bg.log_probability(encode(["AC"]))[0], np.log(1 / 16)))
        True
        """
        X = check_length(check_codes(X), self.length, "the background is for length")
        order = self.order
        with np.errstate(divide="ignore"):
            log_init = np.log(self.initial)
            log_trans = np.log(self.transitions)
        if order:
            out = log_init[kmer_indices(X, order)[:, 0]]
        else:
            out = np.zeros(X.shape[0])
        if self.length > order:
            grams = kmer_indices(X, order + 1)  # (n, L - D): 4 * state + letter
            steps = np.arange(self.length - order)
            out = out + log_trans[steps, grams // _N_LETTERS, grams % _N_LETTERS].sum(
                axis=1
            )
        return out

    @renamed_seed
    def sample(
        self, n: int, random_state: np.random.Generator | int | None = None
    ) -> np.ndarray:
        """Draw sequences from the chain.

        Parameters
        ----------
        n : int
            Number of sequences (>= 0).
        random_state : numpy.random.Generator or int, optional
            Random generator or seed (None: fresh entropy; ``rng`` is the
            deprecated name).

        Returns
        -------
        numpy.ndarray of uint8, shape (n, L)

        Examples
        --------
        >>> bg = MarkovBackground.from_letter_probabilities([0, 0, 0, 1.0], 5)
        >>> bg.sample(2, random_state=0).tolist()
        [[3, 3, 3, 3, 3], [3, 3, 3, 3, 3]]
        """
        n = check_int(n, "n", 0)
        rng = as_rng(random_state)
        order = self.order
        n_states = _N_LETTERS**order
        out = np.empty((n, self.length), dtype=np.uint8)
        state = np.zeros(n, dtype=np.int64)
        if order:
            cum = np.cumsum(self.initial)
            cum /= cum[-1]
            state = _draw(np.broadcast_to(cum, (n, n_states)), rng)
            for p in range(order):
                out[:, p] = (state >> (2 * (order - 1 - p))) & 3
        for t in range(order, self.length):
            cum = np.cumsum(self.transitions[t - order], axis=1)
            cum /= cum[:, -1:]
            letters = _draw(cum[state], rng)
            out[:, t] = letters
            state = (state * _N_LETTERS + letters) % n_states
        return out

    # ----------------------------------------------------------------- persistence
    def to_arrays(self) -> dict[str, np.ndarray]:
        """Flat dictionary of arrays for `numpy.savez` (no pickled objects).

        Returns
        -------
        dict of str to numpy.ndarray
            Keys ``initial``, ``transitions`` and ``positional``.

        Examples
        --------
        >>> bg = MarkovBackground.uniform(4)
        >>> MarkovBackground.from_arrays(bg.to_arrays())
        MarkovBackground(order=0, length=4, positional=False)
        """
        return {
            "initial": self.initial.copy(),
            "transitions": self.transitions.copy(),
            "positional": np.bool_(self.positional),
        }

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> MarkovBackground:
        """Inverse of `to_arrays`; validates like the constructor.

        Parameters
        ----------
        arrays : mapping of str to array
            For example the result of `numpy.load` on a file written with the
            arrays of `to_arrays`.

        Returns
        -------
        MarkovBackground
        """
        missing = [key for key in ("initial", "transitions") if key not in arrays]
        if missing:
            raise InputError(
                f"background arrays lack {', '.join(missing)}; expected the keys "
                "written by MarkovBackground.to_arrays (initial, transitions, "
                "positional)"
            )
        positional = arrays.get("positional")
        return cls(
            arrays["initial"],
            arrays["transitions"],
            positional=None if positional is None else bool(positional),
        )

    def __repr__(self) -> str:
        return (
            f"MarkovBackground(order={self.order}, length={self.length}, "
            f"positional={self.positional})"
        )

    # -------------------------------------------------------------------- helpers
    def _check_window(self, k, position) -> tuple[int, int]:
        k = check_int(k, "k", 1, self.length)
        position = check_int(position, "position", 0, self.length - k)
        return k, position


def check_background(
    background: object, length: int | None = None, against: str = "the model scores"
) -> MarkovBackground:
    """Return ``background`` if it is a `MarkovBackground` (for ``length`` letters).

    Parameters
    ----------
    background : object
        The value to check.
    length : int, optional
        The sequence length it must be for, if given.
    against : str, default="the model scores"
        Whose length that is, for the message: "background is for length 8
        but the model scores length 10".

    Returns
    -------
    MarkovBackground
        ``background`` itself.

    Raises
    ------
    InputError
        Naming the type given, or the two lengths.

    Examples
    --------
    >>> check_background(MarkovBackground.uniform(4), 4).length
    4
    """
    if not isinstance(background, MarkovBackground):
        raise InputError(
            f"background must be a MarkovBackground, got {type(background).__name__}"
        )
    if length is not None and background.length != length:
        raise InputError(
            f"background is for length {background.length} but {against} "
            f"length {length}"
        )
    return background


def kmer_probability_table(background: MarkovBackground, l: int) -> np.ndarray:
    """``P[j, z] = Pr(X[j:j+l] = z)`` for every start j, shape (L - l + 1, 4**l).

    Parameters
    ----------
    background : MarkovBackground
        The chain, of order D and length L.
    l : int
        k-mer length, 1..L.

    Returns
    -------
    numpy.ndarray of float64, shape (L - l + 1, 4**l)
        Row j is `MarkovBackground.kmer_probabilities` ``(l, j)``, for all
        starts at once (computed from `MarkovBackground.marginals`).

    Examples
    --------
    >>> P = kmer_probability_table(MarkovBackground.uniform(5), 2)
    >>> P.shape, float(P[0, 0])
    ((4, 16), 0.0625)
    """
    starts = np.arange(background.length - l + 1)
    return _window_probabilities(background, l, starts)


def _window_probabilities(
    background: MarkovBackground,
    l: int,
    starts: np.ndarray,
    pi: np.ndarray | None = None,
) -> np.ndarray:
    """``Pr(X[j:j+l] = z)`` for the given starts j, one row each.

    ``pi`` is the D-gram marginal table the windows start from (default
    ``background.marginals()``). For l >= D the letters after the first D are
    appended one by one; for l < D the D-gram marginal of the nearest start
    is summed over the letters outside the window.
    """
    order, length = background.order, background.length
    pi = background.marginals() if pi is None else pi  # (L - D + 1, 4**D)
    trans = background.transitions
    if l >= order:
        table = pi[starts]  # Pr(first D letters)
        for n in range(order, l):  # append letter n (position j + n)
            step = trans[starts + n - order]  # (n_windows, 4**D, 4)
            prev = (
                table.reshape(table.shape[0], -1, 4**order)
                if order
                else (table[:, :, None])
            )
            # table index z = prefix * 4**D + state; next letter given the state
            grown = prev[:, :, :, None] * step[:, None, :, :]
            table = grown.reshape(table.shape[0], -1)
        return np.ascontiguousarray(table)
    # l < D: marginalise D-gram probabilities
    out = np.empty((starts.size, 4**l))
    last = length - order
    for row, j in enumerate(starts.tolist()):
        start = min(j, last)
        offset = j - start
        grams = pi[start].reshape(4**offset, 4**l, 4 ** (order - l - offset))
        out[row] = grams.sum(axis=(0, 2))
    return out
