"""The data sets of ``bench_kernels_real.py`` and the planted sets' oracle."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from kernels_real_config import CROP, GATTACA, NFE2, PLANTED_MOTIF, PROMOTERS, SPLICE

import poimkit
from poimkit.datasets import PlantedMotif, load_gattaca, make_motif_data


# --------------------------------------------------------------------------- #
# data sets
# --------------------------------------------------------------------------- #
@dataclass
class Data:
    name: str
    seqs: list[str]
    y: np.ndarray  # 1 positive, 0 negative
    description: str
    oracle: Callable[[list[str]], np.ndarray] | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def lengths(self) -> np.ndarray:
        return np.array([len(s) for s in self.seqs])

    @property
    def equal_lengths(self) -> bool:
        return len(set(self.lengths.tolist())) == 1

    def subset(self, rows: np.ndarray) -> Data:
        rows = np.asarray(rows)
        return Data(
            self.name,
            [self.seqs[i] for i in rows],
            self.y[rows],
            self.description,
            self.oracle,
            list(self.notes),
        )


def _labeled(pos: Path, neg: Path, crop: int | None = None):
    from poimkit.io import read_labeled

    with warnings.catch_warnings():  # records with ambiguity codes are dropped
        warnings.simplefilter("ignore")
        _, X, y = read_labeled(pos=pos, neg=neg, on_invalid="drop", crop_length=crop)
    return poimkit.decode(X), np.asarray(y, dtype=np.int64)


def load_nfe2() -> Data:
    from Bio import SeqIO

    seqs, y = [], []
    for name, label in (("positives.fa", 1), ("negatives.fa", 0)):
        for record in SeqIO.parse(NFE2 / name, "fasta"):
            s = str(record.seq).upper()
            if set(s) <= set("ACGT"):
                seqs.append(s)
                y.append(label)
    data = Data(
        "nfe2",
        seqs,
        np.array(y, dtype=np.int64),
        "NFE2 ChIP-seq peaks, all records, own lengths",
    )
    data.notes.append("WD columns need equal lengths: left out")
    return data


def load_nfe2_crop() -> Data:
    seqs, y = _labeled(NFE2 / "positives.fa", NFE2 / "negatives.fa", crop=CROP)
    return Data("nfe2_crop59", seqs, y, f"NFE2 centre-cropped to {CROP} nt")


def planted_loader(name, n_per_class, length, mean, sd, seed) -> Callable[[], Data]:
    motif = PlantedMotif(PLANTED_MOTIF, mean, spread=sd)

    def load() -> Data:
        X, y = make_motif_data(
            n_per_class, n_per_class, length, [motif], random_state=seed
        )
        return Data(
            name,
            poimkit.decode(X),
            y,
            f"{n_per_class}+{n_per_class}, L={length}, {PLANTED_MOTIF} at "
            f"round(N({mean}, {sd})), one letter re-drawn, seed {seed}",
            oracle=lambda seqs: oracle_scores(seqs, motif, length),
        )

    return load


def splice_loader(kind: str) -> Callable[[], Data]:
    def load() -> Data:
        seqs, y = _labeled(SPLICE / f"{kind}.fa", SPLICE / "N.fa")
        return Data(f"splice_{kind.lower()}", seqs, y, f"UCI splice {kind} vs N")

    return load


def load_promoters() -> Data:
    seqs, y = _labeled(PROMOTERS / "positives.fa", PROMOTERS / "negatives.fa")
    return Data("promoters", seqs, y, "UCI E. coli promoters")


def load_gattaca_data() -> Data:
    _, X, y = load_gattaca()
    return Data(
        "gattaca",
        poimkit.decode(X),
        np.asarray(y, dtype=np.int64),
        "bundled GATTACA (data/gattaca): GATTACA at round(N(35, 7)), one letter "
        "re-drawn, seed 2009",
        oracle=lambda seqs: oracle_scores(seqs, GATTACA, 100),
    )


DATASETS: dict[str, Callable[[], Data]] = {
    "nfe2": load_nfe2,
    "nfe2_crop59": load_nfe2_crop,
    "planted_sd3": planted_loader("planted_sd3", 300, 50, 22, 3.0, 1403),
    "planted_sd2": planted_loader("planted_sd2", 500, 70, 32, 2.0, 1402),
    "splice_ei": splice_loader("EI"),
    "splice_ie": splice_loader("IE"),
    "promoters": load_promoters,
    "gattaca": load_gattaca_data,
}
GROUPS = {
    "planted": ["planted_sd3", "planted_sd2"],
    "splice": ["splice_ei", "splice_ie"],
}


def oracle_scores(seqs: list[str], motif: PlantedMotif, length: int) -> np.ndarray:
    """Likelihood ratio P(x | positive) / P(x | negative) of `make_motif_data`.

    Negatives are uniform i.i.d.; a positive carries one copy of the consensus
    (one column re-drawn uniformly) at 0-based start s with
    P(s) = P(round(N(mean, sd)) = s + 1), the ends taking the clipped mass. A
    window w at s then has likelihood ratio 4^m P(w | motif) with
    P(w | motif) = 1/4 for the consensus, 1/(4m) at one mismatch, 0 otherwise.
    """
    from scipy.stats import norm

    X = poimkit.encode(seqs)
    consensus = poimkit.encode([motif.consensus])[0]
    m = len(consensus)
    first = np.arange(1, length - m + 2, dtype=np.float64)  # 1-based starts
    upper = norm.cdf((first + 0.5 - motif.position) / motif.spread)
    lower = norm.cdf((first - 0.5 - motif.position) / motif.spread)
    upper[-1], lower[0] = 1.0, 0.0
    p_start = upper - lower
    windows = np.lib.stride_tricks.sliding_window_view(X, m, axis=1)
    mismatches = (windows != consensus).sum(axis=2)
    p_window = np.where(mismatches == 0, 0.25, np.where(mismatches == 1, 0.25 / m, 0))
    return (p_window * 4.0**m) @ p_start


def stratified_subset(y: np.ndarray, per_class: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = [
        np.sort(rng.permutation(np.flatnonzero(y == c))[:per_class]) for c in (1, 0)
    ]
    return np.concatenate(rows)
