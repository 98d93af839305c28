"""k-mers that go with a continuous target in the records themselves, as a POIM.

A regressor's POIM is only as good as the regressor: where the SVR is weak
(a degenerate site that shifts the target by a step, present in most
records), its POIM may not rank the site's k-mers first, and motif discovery
finds nothing to test. `target_poim` gives discovery a second source of
seeds, read off the data: for every k-mer, how far the targets of the records
holding it lie above the mean, in standard errors (a z-score; 0 for k-mers in
fewer than `MIN_HOLDING` records). It is position-free and is computed on the
discovery half only, so the held-out half that tests every motif stays unseen
(`poimkit.motifs.continuous_targets`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..alphabet import N_LETTERS, kmer_indices, reverse_complement_kmers

if TYPE_CHECKING:
    from ..poim import Poim

#: fewest records holding a k-mer for it to have a value
MIN_HOLDING = 5


def target_poim(
    X: np.ndarray, t: np.ndarray, max_order: int, both_strands: bool = True
) -> Poim:
    """Each k-mer's z-score of the targets of the records that hold it.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes (codes above 3, N or padding, hold no k-mer).
    t : numpy.ndarray of float, shape (n,)
        Their targets.
    max_order : int
        Longest k-mers, at most L.
    both_strands : bool, default True
        A record holds a k-mer if it holds it or its reverse complement.

    Returns
    -------
    Poim
        Position-free: ``q(k)[j, z]`` is the same at every start ``j``:
        ``sum_r (t_r - mean t) / (sd(t) sqrt(n_z))`` over the ``n_z`` records
        holding ``z``.

    Examples
    --------
    >>> from poimkit import encode
    >>> X = encode(["AAAC", "AAAG", "CCCG", "CCCT"] * 3)
    >>> poim = target_poim(X, np.array([1.0, 1.0, 0.0, 0.0] * 3), 2, False)
    >>> bool(poim.q(2)[0, 0] > 0), bool(poim.q(2)[0, 5] < 0)  # AA, CC
    (True, True)
    """
    from ..background import MarkovBackground
    from ..poim import Poim

    t = np.asarray(t, dtype=np.float64)
    deviation = t - t.mean()
    sd = float(t.std()) or 1.0
    width = X.shape[1]
    q = []
    for k in range(1, max_order + 1):
        holding = _holding(X, k, both_strands)
        n_z = holding.sum(axis=0)
        sums = deviation @ holding
        value = np.where(
            n_z >= MIN_HOLDING, sums / (sd * np.sqrt(np.maximum(n_z, 1))), 0.0
        )
        q.append(np.broadcast_to(value, (width - k + 1, value.size)).copy())
    metadata = {
        "method": "target association",
        "model": "position-free",
        "model_reverse_complement": str(both_strands),
        "n_samples": str(t.size),
        "exact": "no: z-scores of the targets of the records holding each k-mer",
    }
    return Poim(q, MarkovBackground.uniform(width), metadata)


def _holding(X: np.ndarray, k: int, both_strands: bool) -> np.ndarray:
    """Whether each record holds each k-mer: float array of shape (n, 4**k)."""
    windows = np.lib.stride_tricks.sliding_window_view(X, k, axis=1)
    valid = (windows < N_LETTERS).all(axis=2)
    # codes above 3 read as T: those windows are left out by ``valid``
    index = kmer_indices(np.minimum(X, N_LETTERS - 1), k)
    rows = np.broadcast_to(np.arange(X.shape[0])[:, None], index.shape)
    holding = np.zeros((X.shape[0], N_LETTERS**k))
    holding[rows[valid], index[valid]] = 1.0
    if both_strands:
        holding = np.maximum(
            holding, holding[:, reverse_complement_kmers(np.arange(N_LETTERS**k), k)]
        )
    return holding
