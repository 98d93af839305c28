"""POIMs of any scorer from one set of scored background samples (MFI's estimator).

`poimkit.poim.sampled.sampled_poim` inserts every k-mer into every sampled
background, which costs ``4**l`` model calls per sample and window. The
estimator of Vidovic et al. (2016) scores ``n`` background sequences once and
reads every positional k-mer's conditional mean off the same scores:

.. code-block:: text

    Q_hat(z, j) = mean(s(x_i) : x_i[j:j+l] = z) - mean(s(x_i))

The cost is ``n`` model calls whatever K and L; the price is precision, since
a k-mer's estimate rests on the ``n Pr(z at j)`` samples that hold it. For a
position-free model (a CNN with a global pool) the starts can be pooled,
which multiplies those samples by ``L - l + 1``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import as_rng, check_flag
from .._version import __version__
from ..alphabet import N_LETTERS, kmer_indices
from ..background import MarkovBackground
from ..background.markov import kmer_probability_table
from ..errors import InputError
from ..param_docs import fill_doc
from ._observed import N_SUMS, add_pooled, add_positional
from .result import Poim
from .sampled import as_score_function
from .sampling import (
    PARAMETERS,
    check_sizes,
    progress_bar,
    resolve_background,
    score_in_batches,
)

__all__ = ["DRAW_CHUNK", "observed_poim"]

#: background sequences drawn at once; the draws do not depend on ``batch_size``
DRAW_CHUNK = 4096


@fill_doc(PARAMETERS)
def observed_poim(
    model: Any,
    max_order: int,
    background: MarkovBackground | None = None,
    n_samples: int = 10_000,
    random_state: np.random.Generator | int | None = None,
    batch_size: int = 4096,
    progress: bool = False,
    windows: str = "all",
) -> Poim:
    """POIMs of any sequence scorer from ``n_samples`` scored background draws.

    Parameters
    ----------
    %(model)s
    %(max_order)s
    %(background)s
    n_samples : int, default 10_000
        Background sequences drawn and scored (>= 2): the number of model
        evaluations.
    random_state : int, numpy.random.Generator or None
        Seed. The draws do not depend on ``batch_size``.
    batch_size : int, default 4096
        Sequences scored per model call.
    %(progress)s
    windows : {"all", "pooled"}
        ``"all"``: each start j separately. ``"pooled"``: the samples of every
        start pooled into one estimate that stands for every position
        (metadata ``windows``), for a position-free model, which scores a
        k-mer alike wherever it lies; near the ends such a model may differ
        (padding), and the pooled estimate averages over all starts.

    Returns
    -------
    Poim
        ``q(l)[j, z]`` estimates ``Q_l(z, j)``; ``stderr[l - 1][j, z]`` is its
        standard error, NaN where fewer than two samples hold z (there ``q``
        rests on one sample, or is 0 for none). k-mers of background
        probability 0 get ``q = 0`` and ``se = 0``. Metadata
        ``method = "sampled"``, ``estimator = "observed"`` and ``n_samples``.

    Raises
    ------
    InputError
        For invalid arguments or a model output of the wrong shape.

    Notes
    -----
    With ``c_i`` the number of starts at which sample i holds z (0 or 1 for
    one start; up to ``L - l + 1`` pooled), ``s_i`` its score and ``mu`` the
    mean score:

    .. code-block:: text

        m = sum_i c_i s_i / sum_i c_i,   Q_hat = m - mu
        psi_i = c_i (s_i - m) / sum c - (s_i - mu) / n
        se^2 = G / (G - 1) sum_i (c_i (s_i - m) / sum c)^2
               - 2 sum_i c_i (s_i - m)(s_i - mu) / (n sum c) + var(s) / n

    ``m`` is the ratio estimator of ``E[s | z at j]`` (pooled: its average
    over starts, weighted by ``Pr(z at j)``), consistent because the samples
    are exact draws of the background. ``se`` is its delta-method standard
    error with the samples as independent clusters (a sample holding z at
    several starts counts once), G the number of samples holding z; the
    terms in ``mu`` account for the estimate's correlation with the mean.

    Compared with `sampled_poim`, which needs ``n_draws sum_w 4**w`` calls
    for one window per width: at equal calls this estimator holds about
    ``n (L - l + 1) / 4**l`` samples per pooled k-mer, each a whole
    unconditioned score rather than a paired difference. It wins where the
    model is costly and K is large; its errors are larger per call where the
    k-mer's effect is small against the spread of the scores.

    References
    ----------
    M. M.-C. Vidovic, N. Görnitz, K.-R. Müller and M. Kloft. Feature importance
    measure for non-linear learning algorithms. NIPS 2016 Workshop on
    Interpretable Machine Learning in Complex Systems (the sampling estimator
    of model-based MFI, section 2).

    Examples
    --------
    >>> bg = MarkovBackground.uniform(4)
    >>> score = lambda X: (X[:, 1] == 0).astype(float)  # 1 if A at position 2
    >>> poim = observed_poim(score, 1, bg, n_samples=4000, random_state=0)
    >>> poim.q(1)[1].round(2).tolist()
    [0.75, -0.25, -0.25, -0.25]
    >>> bool(np.abs(poim.q(1)[0]).max() < 4 * np.nanmax(poim.stderr[0][0]))
    True
    """
    score = as_score_function(model)
    background = resolve_background(model, background)
    length = background.length
    max_order, n_samples, batch_size = check_sizes(
        max_order, n_samples, batch_size, length
    )
    check_flag(progress, "progress")
    if windows not in ("all", "pooled"):
        raise InputError(f"windows must be 'all' or 'pooled', got {windows!r}")
    rng = as_rng(random_state)
    pooled = windows == "pooled"
    sums = [
        np.zeros((1 if pooled else length - l + 1, N_LETTERS**l, N_SUMS))
        for l in range(1, max_order + 1)
    ]
    counts = [np.zeros(N_LETTERS**l, dtype=np.int64) for l in range(1, max_order + 1)]
    shift, total, total2 = None, 0.0, 0.0
    bar = progress_bar(n_samples, progress, "observed POIM")
    try:
        for first in range(0, n_samples, DRAW_CHUNK):
            X = background.sample(min(DRAW_CHUNK, n_samples - first), rng)
            s = score_in_batches(score, X, batch_size, bar)
            if shift is None:  # keeps the sums of squares well conditioned
                shift = float(s.mean())
            s -= shift
            total += float(s.sum())
            total2 += float(s @ s)
            for l in range(1, max_order + 1):
                keys = kmer_indices(X, l)
                if pooled:
                    add_pooled(keys, s, counts[l - 1], sums[l - 1])
                else:
                    add_positional(keys, s, sums[l - 1])
    finally:
        if bar is not None:
            bar.close()
    mean = total / n_samples
    variance = max(total2 / n_samples - mean**2, 0.0)
    q, stderr = [], []
    for l in range(1, max_order + 1):
        possible = kmer_probability_table(background, l) > 0
        if pooled:
            possible = np.broadcast_to(possible.any(axis=0), possible.shape)
        est, se = _estimates(sums[l - 1], n_samples, mean, variance)
        shape = possible.shape
        q.append(np.where(possible, np.broadcast_to(est, shape), 0.0))
        stderr.append(np.where(possible, np.broadcast_to(se, shape), 0.0))
    metadata = {
        "method": "sampled",
        "estimator": "observed",
        "windows": windows,
        "n_samples": str(n_samples),
        "poimkit_version": __version__,
        "background": repr(background),
        "model": type(model).__name__,
    }
    return Poim(q, background, metadata, stderr)


def _estimates(
    sums: np.ndarray, n: int, mean: float, variance: float
) -> tuple[np.ndarray, np.ndarray]:
    """``Q_hat`` and its standard error from the sums of `poimkit.poim._observed`.

    ``mean`` and ``variance`` (ddof 0) are those of all n (shifted) scores.
    """
    held, c1, s1, t1, c2, s2, t2 = np.moveaxis(sums, -1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        m = s1 / c1
        own = (t2 - 2 * m * s2 + m * m * c2) / c1**2 * held / (held - 1)
        cross = 2 * (t1 - m * m * c1) / (n * c1)
        se = np.sqrt(np.maximum(own - cross + variance / n, 0.0))
    est = np.where(held > 0, m - mean, 0.0)
    return est, np.where(held > 1, se, np.nan)
