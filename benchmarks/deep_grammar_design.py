"""The planted grammar of `bench_deep_grammar.py`: motifs, records, splits."""

from __future__ import annotations

import time

import numpy as np
from run_info import close

MOTIFS = {
    "A": "AGATAAG",
    "B": "ACAGGTG",
    "C": "ATGACTC",
    "D": "CCAATCA",
    "E": "CGGAAGT",
}
LENGTH = 200
KEEP = 0.9  # each planted letter kept with this probability
GC = {1: 0.46, 0: 0.42}
PAIR_RATE = 0.5  # positives with the cooperative pair
PAIR_GAP = (10, 20)  # letters between A's end and B's start, inclusive
CENTRE = (40, 160)  # where A and B (alone or paired) are planted
#: the distribution of A/B arrangements shared by negatives and pair-less positives
OTHER = {
    "none": 0.3,
    "A_only": 0.2,
    "B_only": 0.2,
    "wrong_gap": 0.15,
    "wrong_orientation": 0.15,
}
WRONG_GAPS = list(range(0, 5)) + list(range(26, 41))
WRONG_SIGNS = [("+", "-"), ("-", "+"), ("-", "-")]
#: independent motifs: rate in positives, rate in negatives
SINGLE_RATES = {"C": (0.40, 0.10), "D": (0.35, 0.15), "E": (0.35, 0.15)}
START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", flush=True)


# --------------------------------------------------------------------------- #
# data
# --------------------------------------------------------------------------- #
def codes(s: str) -> np.ndarray:
    return np.array(["ACGT".index(c) for c in s], dtype=np.uint8)


def rc_codes(c: np.ndarray) -> np.ndarray:
    return (3 - c)[::-1].copy()


def rc(s: str) -> str:
    return s[::-1].translate(str.maketrans("ACGT", "TGCA"))


def degenerate(c: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = c.copy()
    change = rng.random(c.size) > KEEP
    out[change] = (out[change] + rng.integers(1, 4, change.sum())) % 4
    return out


def free_start(taken, width, lo, hi, rng, tries=500) -> int | None:
    for _ in range(tries):
        s = int(rng.integers(lo, hi - width + 1))
        if not taken[s : s + width].any():
            return s
    return None


def write(seq, taken, at, site, rng) -> None:
    seq[at : at + site.size] = degenerate(site, rng)
    taken[at : at + site.size] = True


def plant_pair(seq, taken, signs, gap, rng) -> None:
    """A then B with ``gap`` letters between (each sign in the pair's frame),
    the whole pair on a random strand, inside `CENTRE`."""
    a, b = codes(MOTIFS["A"]), codes(MOTIFS["B"])
    a = a if signs[0] == "+" else rc_codes(a)
    b = b if signs[1] == "+" else rc_codes(b)
    block = np.full(a.size + gap + b.size, 255, dtype=np.int16)
    block[: a.size] = a
    block[a.size + gap :] = b
    if rng.random() < 0.5:  # the other strand: reverse-complement the block
        block = block[::-1].copy()
        sites = block != 255
        block[sites] = 3 - block[sites]
    sites = block != 255
    for _ in range(500):
        s = int(rng.integers(CENTRE[0], CENTRE[1] - block.size + 1))
        if not taken[s : s + block.size][sites].any():
            break
    at = s + np.flatnonzero(sites)
    seq[at] = degenerate(block[sites].astype(np.uint8), rng)
    taken[at] = True


def make_grammar(n_pos: int, n_neg: int, seed: int):
    """Records, labels and each record's A/B arrangement (see the module)."""
    rng = np.random.default_rng(seed)
    X = np.empty((n_pos + n_neg, LENGTH), dtype=np.uint8)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    arrangement, singles = [], []
    names, probs = list(OTHER), np.array(list(OTHER.values()))
    for i, label in enumerate(y):
        gc = GC[label]
        p = np.array([(1 - gc) / 2, gc / 2, gc / 2, (1 - gc) / 2])
        seq = rng.choice(4, size=LENGTH, p=p).astype(np.uint8)
        taken = np.zeros(LENGTH, dtype=bool)
        if label == 1 and rng.random() < PAIR_RATE:
            kind = "pair"
        else:
            kind = names[rng.choice(len(names), p=probs)]
        if kind == "pair":
            plant_pair(
                seq, taken, ("+", "+"), int(rng.integers(*PAIR_GAP, endpoint=True)), rng
            )
        elif kind == "wrong_gap":
            plant_pair(seq, taken, ("+", "+"), int(rng.choice(WRONG_GAPS)), rng)
        elif kind == "wrong_orientation":
            signs = WRONG_SIGNS[rng.integers(len(WRONG_SIGNS))]
            plant_pair(
                seq, taken, signs, int(rng.integers(*PAIR_GAP, endpoint=True)), rng
            )
        elif kind in ("A_only", "B_only"):
            site = codes(MOTIFS[kind[0]])
            site = site if rng.random() < 0.5 else rc_codes(site)
            s = free_start(taken, site.size, *CENTRE, rng)
            write(seq, taken, s, site, rng)
        present = []
        for name, (p_pos, p_neg) in SINGLE_RATES.items():
            if rng.random() < (p_pos if label == 1 else p_neg):
                site = codes(MOTIFS[name])
                site = site if rng.random() < 0.5 else rc_codes(site)
                s = free_start(taken, site.size, 0, LENGTH, rng)
                if s is not None:
                    write(seq, taken, s, site, rng)
                    present.append(name)
        X[i] = seq
        arrangement.append(kind)
        singles.append(present)
    order = rng.permutation(y.size)
    return (
        X[order],
        y[order],
        [arrangement[i] for i in order],
        [singles[i] for i in order],
    )


def split(X, y, n_test, seed):
    """Stratified: ``n_test`` records (half of each class) held out."""
    rng = np.random.default_rng(seed + 1)
    test = np.zeros(y.size, dtype=bool)
    for label in (0, 1):
        rows = np.flatnonzero(y == label)
        test[rng.choice(rows, n_test // 2, replace=False)] = True
    return ~test, test


def gc_fraction(X) -> np.ndarray:
    return ((X == 1) | (X == 2)).mean(axis=1)


# --------------------------------------------------------------------------- #
# counting model calls
# --------------------------------------------------------------------------- #
class Counter:
    """Forward passes and records of the network (a pre-hook on its forward)."""

    def __init__(self, network) -> None:
        self.calls = 0
        self.records = 0
        network.register_forward_pre_hook(self._hook)

    def _hook(self, module, inputs) -> None:
        self.calls += 1
        self.records += int(inputs[0].shape[0])

    def snapshot(self) -> tuple[int, int]:
        return self.calls, self.records

    def since(self, snap) -> dict:
        return {
            "forward_passes": self.calls - snap[0],
            "records": self.records - snap[1],
        }


def logit_module(network):
    """The network with outputs of shape (N, 1), as tangermeme wants them."""
    import torch

    class Logit(torch.nn.Module):
        def __init__(self, net) -> None:
            super().__init__()
            self.net = net

        def forward(self, x):
            return self.net(x)[:, None]

    return Logit(network)


# --------------------------------------------------------------------------- #
# motifs
# --------------------------------------------------------------------------- #
def best_matches(rows: list[dict]) -> dict:
    """For each planted motif, the found motif (row) closest to it."""
    out = {}
    for name, truth in MOTIFS.items():
        if not rows:
            out[name] = {"mismatches": len(truth), "found": None}
            continue
        scored = [(close(r["consensus"], truth), k) for k, r in enumerate(rows)]
        mm, k = min(scored)
        out[name] = {"mismatches": mm, "found": rows[k]}
    return out
