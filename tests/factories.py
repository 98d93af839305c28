"""Small builders of weights and backgrounds shared by the POIM tests."""

import numpy as np

from poimkit.alphabet import kmer_index
from poimkit.background import MarkovBackground
from poimkit.kernels.explicit import KmerWeights


def make_weights(length, entries, bias=0.0):
    """KmerWeights from ``{(k, i, kmer): w}`` with kmer a string or an index."""
    max_k = max(k for k, _, _ in entries)
    weights = KmerWeights(length=length, bias=bias)
    for k in range(1, max_k + 1):
        rows = sorted(
            (i, kmer_index(y) if isinstance(y, str) else int(y), w)
            for (kk, i, y), w in entries.items()
            if kk == k
        )
        weights.append_entries(
            np.array([r[0] for r in rows], dtype=np.int64),
            np.array([r[1] for r in rows], dtype=np.int64),
            np.array([r[2] for r in rows], dtype=np.float64),
        )
    return weights


def random_chain(rng, order, length, positional, concentration=1.0):
    """A random chain; ``concentration`` of the Dirichlet of each transition row."""
    n_states = 4**order
    initial = rng.dirichlet(np.ones(n_states))
    n_steps = length - order
    letters = np.full(4, concentration)
    if positional:
        trans = rng.dirichlet(letters, size=(n_steps, n_states))
    else:
        trans = np.broadcast_to(
            rng.dirichlet(letters, size=n_states), (n_steps, n_states, 4)
        )
    return MarkovBackground(initial, trans)


def gattaca_svm(length):
    """A small WDS SVM of GAT planted near position 3 (the sampled-POIM tests')."""
    from poimkit import WDKernelSVC
    from poimkit.datasets import make_gattaca

    X, y = make_gattaca(
        n_pos=60, n_neg=60, length=length, motif="GAT", mean=3, sd=1, random_state=0
    )
    return WDKernelSVC(degree=5, shift=1).fit(X, y)


def pooled_motif_score(X):
    """A position-free scorer: the best window of a 2-letter table, anywhere."""
    table = np.array(
        [[2.0, -1, 0.5, 0], [0, 1.5, -2, 1], [1, 0, 0, -1], [0.5, 2, 1, 0]]
    )
    return table[X[:, :-1], X[:, 1:]].max(axis=1)


def stationary_chain(rng, order, length):
    """A homogeneous chain started in its stationary D-gram distribution."""
    n_states = 4**order
    trans = rng.dirichlet(np.ones(4), size=n_states)
    step = np.zeros((n_states, n_states))
    for s in range(n_states):
        for a in range(4):
            step[s, (4 * s + a) % n_states] += trans[s, a]
    initial = np.full(n_states, 1.0 / n_states)
    for _ in range(2000):  # power iteration to the fixed point
        initial = initial @ step
    return MarkovBackground(
        initial / initial.sum(), np.broadcast_to(trans, (length - order, n_states, 4))
    )
