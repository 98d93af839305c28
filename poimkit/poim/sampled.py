"""Monte Carlo POIMs and instance explanations for any black-box scorer.

The exact engine (`poimkit.poim.exact`) needs a score that is linear in
positional k-mer indicators. This module estimates the same quantities for
any function of a sequence (a neural network, a random forest, a scikit-learn
pipeline) by sampling from the background chain, with standard errors:

* `sampled_poim`: model-based MFI for sequences,
  ``Q_l(z, j) = E[s(X) | X[j:j+l] = z] - E[s(X)]`` for all k-mers z and
  starts j (the POIM);
* `sampled_instance`: instance-based MFI, the same quantity for the k-mers
  of one given sequence only;
* `sample_conditional`: exact draws from the background conditioned on a
  positional k-mer, the building block of both (defined with the sampler in
  `poimkit.poim.conditional`, re-exported here).

Common random numbers (the same uniforms for every k-mer of a window, and
for the conditioned and the unconditioned draw) make the differences that
are averaged small, so few samples give tight estimates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validation import as_rng, check_flag, check_real
from .._version import __version__
from ..alphabet import N_LETTERS, check_codes, encode, kmer_indices
from ..background import MarkovBackground, check_background
from ..errors import InputError
from ..importance.score_functions import ScoreFunction, score_function
from ..param_docs import fill_doc
from .conditional import (
    ConditionalSampler,
    cumulative,
    inverse_cdf,
    kmer_codes,
    uniforms,
)
from .conditional import sample_conditional as sample_conditional  # re-export
from .result import Poim
from .sampling import (
    PARAMETERS,
    check_sizes,
    progress_bar,
    resolve_background,
    score_in_batches,
)

__all__ = [
    "DEFAULT_MAX_EVALUATIONS",
    "as_score_function",
    "count_evaluations",
    "sample_conditional",
    "sampled_instance",
    "sampled_poim",
]

DEFAULT_MAX_EVALUATIONS = 5e8
"""Default cap on the number of sequences `sampled_poim` may score."""


# ----------------------------------------------------------------- score function
def as_score_function(model: Any) -> ScoreFunction:
    """A function mapping uint8 letter codes of shape (n, L) to (n,) float scores.

    Parameters
    ----------
    model : object or callable
        In order of preference: an object with ``decision_function``; one with
        ``predict_proba`` (the probability of the positive class, column 1, of
        a binary classifier); one with ``predict``; or a plain callable
        ``f(X) -> scores``. Each receives a C-contiguous uint8 array of
        shape (n, L) with codes A=0, C=1, G=2, T=3.

    Returns
    -------
    callable
        ``score(X)`` returning a float64 array of shape (n,). Outputs of shape
        (n, 1) are flattened.

    Raises
    ------
    InputError
        If ``model`` has none of these methods and is not callable; when
        called, if the output is not numeric, not finite or has the wrong
        shape (for ``predict_proba`` anything but (n, 2)).

    Examples
    --------
    >>> score = as_score_function(lambda X: X.sum(axis=1))
    >>> score(np.array([[0, 1, 2, 3]], dtype=np.uint8)).tolist()
    [6.0]
    >>> class Model:
    ...     def predict_proba(self, X):
    ...         p = X.mean(axis=1) / 3.0
    ...         return np.column_stack([1.0 - p, p])
    >>> as_score_function(Model())(np.array([[3, 3], [0, 3]])).tolist()
    [1.0, 0.5]
    """
    return score_function(
        model,
        unit="sequence",
        dtype=np.uint8,
        contiguous=True,
        example="a function mapping a uint8 array (n, L) of letter codes to n scores",
    )


# ---------------------------------------------------------------- validation
# ------------------------------------------------------------------ estimation
class _Moments:
    """Running means and centred sums of squares per row (Chan et al. merge)."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.count = np.zeros(shape[0])
        self.mean = np.zeros(shape)
        self.m2 = np.zeros(shape)

    def add(self, row: int, values: np.ndarray) -> None:
        """Merge samples ``values`` (m, *shape[1:]) into row ``row``."""
        n_b = values.shape[0]
        mean_b = values.mean(axis=0)
        m2_b = ((values - mean_b) ** 2).sum(axis=0)
        n_a = self.count[row]
        n = n_a + n_b
        delta = mean_b - self.mean[row]
        self.mean[row] += delta * (n_b / n)
        self.m2[row] += m2_b + delta**2 * (n_a * n_b / n)
        self.count[row] = n

    def result(self, possible: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Means and standard errors; 0 where ``possible`` is False."""
        count = self.count.reshape((-1,) + (1,) * (self.mean.ndim - 1))
        stderr = np.sqrt(np.maximum(self.m2, 0.0) / (count - 1) / count)
        mean = np.where(possible, self.mean, 0.0)
        return mean, np.where(possible, stderr, 0.0)


class _Batcher:
    """Collect blocks of sequences and score them ``batch_size`` at a time."""

    def __init__(self, score: ScoreFunction, batch_size: int, bar: Any = None) -> None:
        self.score = score
        self.batch_size = batch_size
        self.bar = bar
        self.pending: list[tuple[np.ndarray, Callable[[np.ndarray], None]]] = []
        self.size = 0

    def add(self, X: np.ndarray, done: Callable[[np.ndarray], None]) -> None:
        """Queue the (n, L) block X; ``done(scores)`` receives its (n,) scores."""
        self.pending.append((X, done))
        self.size += X.shape[0]
        if self.size >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        """Score every queued block and hand the scores back."""
        if not self.pending:
            return
        blocks = [X for X, _ in self.pending]
        X = blocks[0] if len(blocks) == 1 else np.concatenate(blocks)
        scores = score_in_batches(self.score, X, self.batch_size, self.bar)
        pending, self.pending, self.size = self.pending, [], 0
        offset = 0
        for block, done in pending:
            done(scores[offset : offset + block.shape[0]])
            offset += block.shape[0]


def _levels(max_order: int, order: int) -> list[int]:
    """Window widths that are sampled: max(1, D)..max(K, D)."""
    return list(range(max(1, order), max(max_order, order) + 1))


def _window_starts(length: int, width: int, order: int, windows: str) -> list[int]:
    """Starts of the sampled windows of ``width``: all, or the central one.

    With ``windows="centre"`` the width-D windows that hold the central
    windows of the orders l < D are sampled too (`ConditionalSampler.extension`).
    """
    if windows == "all":
        return list(range(length - width + 1))
    starts = {(length - width) // 2}
    if width == order:
        starts.update(min((length - l) // 2, length - order) for l in range(1, order))
    return sorted(starts)


def count_evaluations(
    length: int, max_order: int, order: int, n_samples: int, windows: str = "all"
) -> int:
    """Model evaluations of `sampled_poim`.

    Parameters
    ----------
    length : int
        Sequence length L.
    max_order : int
        Largest k-mer length K.
    order : int
        Order D of the background chain.
    n_samples : int
        Monte Carlo samples per window.
    windows : {"all", "centre"}
        As in `sampled_poim`.

    Returns
    -------
    int
        ``n_samples * sum_w (L - w + 1) 4**w`` over the sampled widths
        ``w = max(1, D)..max(K, D)`` (orders l < D are obtained from width D);
        for ``windows="centre"`` one window per width instead of ``L - w + 1``
        (and up to D for width D).

    Examples
    --------
    >>> count_evaluations(length=10, max_order=2, order=0, n_samples=100)
    18400
    >>> count_evaluations(length=200, max_order=6, order=0, n_samples=16,
    ...                   windows="centre")
    87360
    """
    return int(
        n_samples
        * sum(
            len(_window_starts(length, w, order, windows)) * N_LETTERS**w
            for w in _levels(max_order, order)
        )
    )


@fill_doc(PARAMETERS)
def sampled_poim(
    model: Any,
    max_order: int,
    background: MarkovBackground | None = None,
    n_samples: int = 1000,
    random_state: np.random.Generator | int | None = None,
    batch_size: int = 100_000,
    progress: bool = False,
    max_evaluations: float = DEFAULT_MAX_EVALUATIONS,
    windows: str = "all",
) -> Poim:
    """Monte Carlo POIMs of any sequence scorer, with standard errors.

    Parameters
    ----------
    %(model)s
    %(max_order)s
    %(background)s
    n_samples : int, default 1000
        Monte Carlo samples per window (>= 2).
    random_state : int, numpy.random.Generator or None
        Seed. The draws do not depend on ``batch_size`` (results agree to
        rounding).
    batch_size : int, default 100_000
        Sequences scored per model call.
    %(progress)s
    max_evaluations : float, default 5e8
        Refuse to start if more sequences than this would be scored.
    windows : {"all", "centre"}
        ``"all"``: every window of every width. ``"centre"``: only the central
        window of each width ``(L - l) // 2``, whose estimate and standard
        error then stand for every position (metadata ``windows``): for a
        position-free model, which scores a k-mer alike wherever it lies (a
        CNN with a global pool, up to its edges), at ``L - l + 1`` times less
        cost, with every k-mer in a background of the full length.

    Returns
    -------
    Poim
        ``q(l)[j, z]`` estimates ``Q_l(z, j)``; ``stderr[l - 1][j, z]`` is its
        standard error. Metadata ``method = "sampled"`` and ``n_samples``.

    Raises
    ------
    InputError
        For invalid arguments, a model output of the wrong shape, or more
        than ``max_evaluations`` model evaluations (see `count_evaluations`).

    Notes
    -----
    The target is ``Q_l(z, j) = E[s(X) | X[j:j+l] = z] - E[s(X)]``.

    For l >= D and each window j, sample r draws one set of uniforms and
    from it, for every boundary state, a left flank (reverse chain from the
    D-gram at j) and a right flank (chain forward from the D-gram ending at
    j + l); see `sample_conditional`. Combining them with each k-mer z gives
    ``x_r^(z)``, an exact draw from ``X | X[j:j+l] = z``. The per-sample
    difference and the estimates are

    .. code-block:: text

        d_r(z) = s(x_r^(z)) - sum_z' Pr(z' at j) s(x_r^(z'))
        Q_hat(z, j) = mean_r d_r(z),   se = std(d_r, ddof=1) / sqrt(n).

    Unbiased: ``E[s(x_r^(z))] = E[s | z at j]`` and, by the law of total
    expectation, ``E[sum_z' Pr(z') s(x_r^(z'))] = E[s(X)]``. The samples
    are independent over r, so ``se`` is the usual standard error. Because all
    k-mers of a sample share the flanks (common random numbers), a score that
    does not depend on the window gives d = 0 exactly, and
    ``sum_z Pr(z at j) Q_hat(z, j) = 0`` holds to rounding. For D = 0 this is
    one background sequence per sample with the window overwritten by each z.

    For l < D the width-D window ``[j', j' + D)`` that contains ``[j, j+l)``
    (``j' = min(j, L - D)``) is sampled and, per sample,

    .. code-block:: text

        d_r^l(z) = sum_{w contains z} Pr(w at j') / Pr(z at j) d_r^D(w),

    which is unbiased because ``E[s | z] = sum_w Pr(w | z) E[s | w]``.

    k-mers of background probability 0 get ``Q = 0`` and ``se = 0`` (as in
    the exact engine). The cost is `count_evaluations` model calls on single
    sequences, so K is practically limited to about 6.

    References
    ----------
    M. M.-C. Vidovic, N. Görnitz, K.-R. Müller and M. Kloft. Feature importance
    measure for non-linear learning algorithms. NIPS 2016 Workshop on
    Interpretable Machine Learning in Complex Systems (model-based MFI).

    S. Sonnenburg, A. Zien, P. Philips and G. Rätsch. POIMs: positional
    oligomer importance matrices -- understanding support vector
    machine-based signal detectors. Bioinformatics 24(13), i6-i14, 2008.

    Examples
    --------
    >>> bg = MarkovBackground.uniform(4)
    >>> score = lambda X: (X[:, 1] == 0).astype(float)  # 1 if A at position 2
    >>> poim = sampled_poim(score, 2, bg, n_samples=20, random_state=0)
    >>> poim.q(1)[1].tolist(), poim.stderr[0][1].tolist()
    ([0.75, -0.25, -0.25, -0.25], [0.0, 0.0, 0.0, 0.0])
    >>> float(np.abs(poim.q(1)[0]).max())  # position 1 does not matter
    0.0
    """
    score = as_score_function(model)
    background = resolve_background(model, background)
    length, order = background.length, background.order
    max_order, n_samples, batch_size = check_sizes(
        max_order, n_samples, batch_size, length
    )
    check_flag(progress, "progress")
    check_real(max_evaluations, "max_evaluations", 0, what="a positive number")
    if windows not in ("all", "centre"):
        raise InputError(f"windows must be 'all' or 'centre', got {windows!r}")
    rng = as_rng(random_state)
    levels = _levels(max_order, order)
    total = count_evaluations(length, max_order, order, n_samples, windows)
    _check_evaluations(total, max_evaluations, n_samples, levels, length)

    sampler = ConditionalSampler(background)
    n_states = sampler.n_states
    moments = [
        _Moments((length - l + 1, N_LETTERS**l)) for l in range(1, max_order + 1)
    ]
    lower = _lower_maps(sampler, order, max_order, length)

    def done(width: int, j: int, m: int, scores: np.ndarray) -> None:
        s = scores.reshape(m, N_LETTERS**width)
        s = s - s[:, :1]  # exact zeros for a score that ignores the window
        d = s - (s @ sampler.probabilities(width)[j])[:, None]
        if width <= max_order:
            moments[width - 1].add(j, d)
        if width == order:
            for l, j_l, avg in lower.get(j, ()):
                moments[l - 1].add(j_l, d @ avg)

    bar = progress_bar(total, progress, "sampled POIM")
    batcher = _Batcher(score, batch_size, bar)
    try:
        for width in levels:
            n_kmers = N_LETTERS**width
            chunk = max(1, min(n_samples, batch_size // n_kmers))
            kmers = np.arange(n_kmers)
            window = kmer_codes(kmers, width)
            left_of = kmers >> (2 * (width - order))
            right_of = kmers % n_states
            states = np.arange(n_states)
            for j in _window_starts(length, width, order, windows):
                for first in range(0, n_samples, chunk):
                    m = min(chunk, n_samples - first)
                    u = uniforms(rng, (m, length - width))
                    all_states = np.broadcast_to(states, (m, n_states))
                    left, right = sampler.flanks(
                        j, j + width, all_states, all_states, u
                    )
                    X = np.empty((m, n_kmers, length), dtype=np.uint8)
                    X[:, :, :j] = left[:, left_of, :]
                    X[:, :, j : j + width] = window
                    X[:, :, j + width :] = right[:, right_of, :]
                    batcher.add(
                        X.reshape(m * n_kmers, length),
                        lambda sc, w=width, j=j, m=m: done(w, j, m, sc),
                    )
        batcher.flush()
    finally:
        if bar is not None:
            bar.close()

    q, stderr = [], []
    for l in range(1, max_order + 1):
        with np.errstate(divide="ignore", invalid="ignore"):  # rows not sampled
            mean, se = moments[l - 1].result(sampler.probabilities(l) > 0)
        if windows == "centre":  # the central window stands for every position
            centre = (length - l) // 2
            mean, se = (np.broadcast_to(a[centre], a.shape).copy() for a in (mean, se))
        q.append(mean)
        stderr.append(se)
    metadata = {
        "method": "sampled",
        "windows": windows,
        "n_samples": str(n_samples),
        "poimkit_version": __version__,
        "background": repr(background),
        "model": type(model).__name__,
    }
    return Poim(q, background, metadata, stderr)


def _check_evaluations(
    total: int, most: float, n_samples: int, levels: list, length: int
) -> None:
    """Refuse a sampled POIM of more than ``most`` model evaluations."""
    if total > most:
        raise InputError(
            f"the sampled POIM needs {total:.3g} model evaluations (n_samples="
            f"{n_samples} x {total // n_samples} sequences for window widths "
            f"{levels[0]}..{levels[-1]} on length {length}), over max_evaluations="
            f"{most:.3g}; lower max_order or n_samples, or raise max_evaluations"
        )


def _lower_maps(sampler, order: int, max_order: int, length: int) -> dict:
    """Orders l < D: per-sample linear maps from the width-D windows.

    ``{start: [(l, j, avg)]}``: the order-l k-mer at j is read from the
    width-D window at ``start`` through ``avg`` (D^4 x 4^l), the window's
    probability given the k-mer.
    """
    lower: dict[int, list[tuple[int, int, np.ndarray]]] = {}
    for l in range(1, min(order, max_order + 1)):
        for j in range(length - l + 1):
            width, start, _ = sampler.extension(l, j)
            p = sampler.probabilities(width)[start]
            sub = (np.arange(p.size) >> (2 * (width - (j - start) - l))) % (
                N_LETTERS**l
            )
            mass = np.bincount(sub, weights=p, minlength=N_LETTERS**l)
            weight = np.divide(p, mass[sub], out=np.zeros_like(p), where=mass[sub] > 0)
            avg = np.zeros((p.size, N_LETTERS**l))
            avg[np.arange(p.size), sub] = weight
            lower.setdefault(start, []).append((l, j, avg))
    return lower


@fill_doc(PARAMETERS)
def sampled_instance(
    model: Any,
    x: str | ArrayLike,
    max_order: int,
    background: MarkovBackground | None = None,
    n_samples: int = 1000,
    random_state: np.random.Generator | int | None = None,
    *,
    batch_size: int = 100_000,
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Instance-based MFI of the k-mers of one sequence, by sampling.

    Parameters
    ----------
    model : object or callable
        Anything `as_score_function` accepts.
    x : str or array-like of int, shape (L,) or (1, L)
        The sequence to explain.
    %(max_order)s
    background : MarkovBackground, optional
        Default: uniform order 0 for length L.
    n_samples : int, default 1000
        Monte Carlo samples per (k-mer length, start), >= 2.
    random_state : int, numpy.random.Generator or None
        Seed.
    batch_size : int, default 100_000
        Sequences scored per model call.

    Returns
    -------
    values : list of numpy.ndarray
        ``values[l - 1]`` has shape (L - l + 1,): estimates of
        ``E[s(X) | X[j:j+l] = x[j:j+l]] - E[s(X)]``.
    stderrs : list of numpy.ndarray
        Their standard errors, same shapes.

    Notes
    -----
    With z = x[j:j+l] and, for each sample r, one set of uniforms u_r:

    .. code-block:: text

        y_r = window content drawn given z, flanks drawn given it  (y_r ~ X | z at j)
        x_r = window content drawn from Pr(. at j), same flank rule (x_r ~ X)
        d_r = s(y_r) - s(x_r),  value = mean_r d_r,  se = std(d_r, ddof=1) / sqrt(n)

    Both draws use the same uniforms (inversion sampling), so their flanks
    coincide where the boundary states agree (always for D = 0: x_r is a
    background sequence and y_r is x_r with the window overwritten by z).
    The estimate is unbiased whatever the coupling, because expectation is
    linear: ``E[s(y_r)] = E[s(X) | z at j]`` since y_r is an exact draw of
    the conditional (`sample_conditional`), and ``E[s(x_r)] = E[s(X)]`` since
    a window content from its marginal followed by flanks from their
    conditional is an exact draw of the background. Pairs are independent
    over r. The window has width ``max(l, D)``; for l < D its other letters
    are drawn given z. k-mers of background probability 0 get 0.

    This is table 1 (b) of Vidovic et al.: ``phi(X) = 1`` and the feature
    ``f(X) = X[j:j+l]`` fixed to the instance's ``t = x[j:j+l]``, centred by
    ``E[s(X)]`` so that values are comparable with POIM entries.

    References
    ----------
    Vidovic et al. (2016), instance-based MFI, and Sonnenburg et al. (2008),
    POIMs; the full citations are under `sampled_poim`.

    Examples
    --------
    >>> score = lambda X: (X[:, 1] == 0).astype(float)  # 1 if A at position 2
    >>> values, se = sampled_instance(score, "GAC", 2, n_samples=400, random_state=0)
    >>> [v.shape for v in values]
    [(3,), (2,)]
    >>> float(values[0][0]), float(se[0][0])  # G at position 1 does not matter
    (0.0, 0.0)
    >>> bool(abs(values[0][1] - 0.75) < 4 * se[0][1])  # exact value 0.75
    True
    """
    score = as_score_function(model)
    codes = (
        encode(x)[0]
        if isinstance(x, str)
        else check_codes(np.asarray(x).reshape(1, -1) if np.ndim(x) == 1 else x, "x")
    )
    if codes.ndim == 2:
        if codes.shape[0] != 1:
            raise InputError(
                f"x has shape {codes.shape} but must be one sequence, shape (L,) or "
                "(1, L)"
            )
        codes = codes[0]
    length = codes.size
    background = resolve_background(model, background, length)
    check_background(background, length, against="x has")
    max_order, n_samples, batch_size = check_sizes(
        max_order, n_samples, batch_size, length
    )
    rng = as_rng(random_state)
    sampler = ConditionalSampler(background)
    moments = [_Moments((length - l + 1,)) for l in range(1, max_order + 1)]

    def done(l: int, j: int, m: int, scores: np.ndarray) -> None:
        s = scores.reshape(m, 2)
        moments[l - 1].add(j, s[:, 0] - s[:, 1])

    chunk = max(1, min(n_samples, batch_size // 2))
    batcher = _Batcher(score, batch_size)
    possible = []
    for l in range(1, max_order + 1):
        target = kmer_indices(codes[None, :], l)[0]
        p_l = sampler.probabilities(l)
        ok = p_l[np.arange(target.size), target] > 0
        possible.append(ok)
        for j in range(length - l + 1):
            if not ok[j]:
                continue
            width, start, cond = sampler.extension(l, j)
            marginal = cumulative(sampler.probabilities(width)[start])
            for first in range(0, n_samples, chunk):
                m = min(chunk, n_samples - first)
                u = uniforms(rng, (m, length - width + 1))
                contents = np.empty((m, 2), dtype=np.int64)
                if width == l:
                    contents[:, 0] = target[j]
                else:
                    contents[:, 0] = inverse_cdf(cond[target[j]], u[:, 0])
                contents[:, 1] = inverse_cdf(marginal, u[:, 0])
                X = sampler.fill(start, width, contents, u[:, 1:])
                batcher.add(
                    X.reshape(2 * m, length),
                    lambda sc, l=l, j=j, m=m: done(l, j, m, sc),
                )
    batcher.flush()
    values, stderrs = [], []
    for l in range(1, max_order + 1):
        moment = moments[l - 1]
        moment.count[~possible[l - 1]] = 2  # untouched rows: avoid 0 / 0
        mean, se = moment.result(possible[l - 1])
        values.append(mean)
        stderrs.append(se)
    return values, stderrs
