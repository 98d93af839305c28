"""The cases of ``bench_motif_recovery.py``: planted and real data, known signals."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from motif_recovery_config import (
    MAX_MODISCO_SEQS,
    MIN_CLASS,
    NFE2,
    NFE2_LENGTH,
    PROMOTERS,
    SPLICE,
)

import poimkit
from poimkit.datasets import PlantedMotif, make_motif_data
from poimkit.svm.linear.layout import exact_size_for


# --------------------------------------------------------------------------- #
# cases
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class KnownSignal:
    """A known signal of a real data set, checked like a planted motif."""

    name: str
    consensus: str
    start: tuple[int, int] | None = None  # 1-based window of its first letter
    max_mismatches: int = 1

    @property
    def length(self) -> int:
        return len(self.consensus)


@dataclass
class Data:
    X: np.ndarray
    y: np.ndarray
    truths: list  # PlantedMotif (synthetic) or KnownSignal (real)
    X_ism: np.ndarray | None = None  # held-out positives; None: cross-fit
    files: tuple[str, str] | None = None  # positive/negative FASTA (pipeline)


@dataclass
class Case:
    name: str
    build: Callable[[float, Path], Data]  # (scale of n, scratch folder)
    model: Callable[[int], object]  # sequence length -> unfitted estimator
    max_order: int = 7
    background_order: int = 0
    near_chance: bool = False
    big: bool = False  # skipped by --quick unless named with --cases
    mirrored: bool = False  # also accept the mirrored position (both strands)
    real: bool = False
    pipeline: dict = field(default_factory=dict)  # RunOptions of the real sets


def kernel(degree: int = 20, shift: int = 0) -> Callable[[int], object]:
    return lambda length: poimkit.WDKernelSVC(degree=degree, shift=shift, C=1.0)


def linear(degree: int = 8) -> Callable[[int], object]:
    # as `poimkit run --solver linear`: every order indexed exactly (POIMs)
    return lambda length: poimkit.WDLinearSVC(
        degree=degree,
        C=1.0,
        exact_size=exact_size_for(length, degree),
        random_state=0,
        verbose=False,
    )


def gc_rich_chain(length: int) -> poimkit.MarkovBackground:
    """Homogeneous order-1 chain, P(G | C) = 0.5, stationary GC about 64%."""
    T = np.array(
        [
            [0.22, 0.28, 0.30, 0.20],
            [0.12, 0.23, 0.50, 0.15],
            [0.20, 0.32, 0.30, 0.18],
            [0.18, 0.30, 0.32, 0.20],
        ]
    )
    w, v = np.linalg.eig(T.T)
    pi = np.real(v[:, np.argmax(np.real(w))])
    pi = pi / pi.sum()
    return poimkit.MarkovBackground(pi, np.repeat(T[None], length - 1, axis=0))


def random_order2_chain(length: int) -> poimkit.MarkovBackground:
    """Homogeneous order-2 chain with Dirichlet(1) rows (seed 7)."""
    T = np.random.default_rng(7).dirichlet(np.ones(4), size=16)
    return poimkit.MarkovBackground(
        np.full(16, 1 / 16), np.repeat(T[None], length - 2, axis=0)
    )


def planted(n_pos, n_neg, length, motifs, seed, background=None):
    """Builder of a planted data set plus held-out positives for the ISM."""

    def build(scale: float, scratch: Path) -> Data:
        n1 = n_pos if scale == 1 else max(MIN_CLASS, round(n_pos * scale))
        n0 = n_neg if scale == 1 else max(MIN_CLASS, round(n_neg * scale))
        n_hold = min(n1, MAX_MODISCO_SEQS)
        chain = background(length) if background else None
        # one draw; rows are i.i.d., so the extra positives are a clean holdout
        X, y = make_motif_data(
            n1 + n_hold, n0, length, motifs, chain, random_state=seed
        )
        train = np.r_[0:n1, n1 + n_hold : n1 + n_hold + n0]
        return Data(X[train], y[train], list(motifs), X_ism=X[n1 : n1 + n_hold])

    return build


def _read_pair(pos, neg) -> tuple[np.ndarray, np.ndarray]:
    from poimkit.io import read_labeled

    with warnings.catch_warnings():  # records with ambiguity codes are dropped
        warnings.simplefilter("ignore")
        _, X, y = read_labeled(pos=pos, neg=neg, on_invalid="drop")
    return X, np.asarray(y, dtype=np.int64)


def real_files(pos: Path, neg: Path, signals: list[KnownSignal]):
    def build(scale: float, scratch: Path) -> Data:
        X, y = _read_pair(pos, neg)
        return Data(X, y, signals, files=(str(pos), str(neg)))

    return build


def nfe2(signals: list[KnownSignal]):
    """NFE2 peaks: only the records of length 236 (pipeline reads the same)."""

    def build(scale: float, scratch: Path) -> Data:
        from Bio import SeqIO

        from poimkit.io import write_fasta

        paths = []
        for name in ("positives.fa", "negatives.fa"):
            records = [
                (r.id, str(r.seq).upper())
                for r in SeqIO.parse(NFE2 / name, "fasta")
                if len(r.seq) == NFE2_LENGTH
            ]
            records = [(i, s) for i, s in records if set(s) <= set("ACGT")]
            path = scratch / f"nfe2_{name}"
            write_fasta(path, [i for i, _ in records], [s for _, s in records])
            paths.append(str(path))
        X, y = _read_pair(*paths)
        return Data(X, y, signals, files=tuple(paths))

    return build


def make_cases() -> list[Case]:
    P = PlantedMotif
    return [
        Case(
            "fixed6_L30_n40k_linear",
            planted(
                20000,
                20000,
                30,
                [P("TGACTC", 12, mutation="none", in_positives=0.8)],
                101,
            ),
            linear(8),
            big=True,
        ),
        Case(
            "L2000_n200",
            planted(100, 100, 2000, [P("TCGATGC", 996, spread=1)], 102),
            kernel(20),
        ),
        Case(
            "sd8_L100",
            planted(2000, 2000, 100, [P("GATTACA", 50, spread=8)], 103),
            kernel(20),
        ),
        Case(
            "gc_markov1",
            planted(1500, 1500, 60, [P("TTAGCA", 25, spread=1)], 104, gc_rich_chain),
            kernel(20),
            background_order=1,
        ),
        Case(
            "markov2",
            planted(
                1500, 1500, 60, [P("CAGGTACT", 30, spread=1)], 105, random_order2_chain
            ),
            kernel(20),
            background_order=2,
        ),
        Case(
            "wds_shift6",
            planted(
                1000, 1000, 60, [P("GTCAGGTA", 30, spread=2, mutation="none")], 106
            ),
            kernel(20, shift=6),
        ),
        Case(
            "len10_firm",
            planted(1000, 1000, 60, [P("ACGGTTACAG", 20, spread=1)], 107),
            kernel(20),
        ),
        Case(
            "len12_firm",
            planted(1000, 1000, 80, [P("TGCATCGAGGTA", 30)], 108),
            kernel(20),
        ),
        Case(
            "sd0_len6",
            planted(1000, 1000, 50, [P("CTTGAC", 20, mutation=0.2)], 109),
            kernel(20),
        ),
        Case(
            "two_motifs",
            planted(1000, 1000, 70, [P("GGCCTAA", 15), P("TCAGTTG", 45)], 110),
            kernel(20),
        ),
        Case(
            "three_motifs",
            planted(
                1500,
                1500,
                100,
                [
                    P("AGTCCA", 15, spread=2),
                    P("CTTGAGGC", 45, spread=2),
                    P("GTAACGTCAT", 75, spread=2),
                ],
                111,
            ),
            kernel(20),
        ),
        Case(
            "both_strands",
            planted(1000, 1000, 60, [P("GACTTCAG", 25, reverse_complement=0.5)], 112),
            kernel(20),
            mirrored=True,
        ),
        Case(
            "n600_small",
            planted(300, 300, 50, [P("TCCGATA", 20, spread=2)], 113),
            kernel(20),
        ),
        Case(
            "n50k_linear",
            planted(25000, 25000, 100, [P("CATTGCAG", 40, spread=2)], 114),
            linear(8),
            big=True,
        ),
        Case(
            "near_chance_random",
            planted(300, 300, 50, [], 115),
            kernel(20),
            near_chance=True,
        ),
        Case(
            "near_chance_weak",
            planted(300, 300, 50, [P("GTCACA", 20, spread=1, in_positives=0.04)], 116),
            kernel(20),
            near_chance=True,
        ),
        Case(
            "splice_EI",
            real_files(
                SPLICE / "EI.fa",
                SPLICE / "N.fa",
                [KnownSignal("donor GTRAG, GT at 31-32", "GTAAG", (30, 32))],
            ),
            kernel(10),
            real=True,
            pipeline={"degree": 10, "drop_invalid": True},
        ),
        Case(
            "splice_IE",
            real_files(
                SPLICE / "IE.fa",
                SPLICE / "N.fa",
                [KnownSignal("acceptor CAG ending at 30", "CAG", (27, 29), 0)],
            ),
            kernel(10),
            real=True,
            pipeline={"degree": 10, "drop_invalid": True},
        ),
        Case(
            "promoters",
            real_files(
                PROMOTERS / "positives.fa",
                PROMOTERS / "negatives.fa",
                [
                    KnownSignal("-35 box TTGACA", "TTGACA", (12, 18)),
                    KnownSignal("-10 box TATAAT", "TATAAT", (36, 42)),
                ],
            ),
            kernel(20),
            real=True,
            pipeline={"degree": 20},
        ),
        Case(
            "nfe2",
            nfe2([KnownSignal("E-box CACGTG", "CACGTG")]),
            kernel(20),
            real=True,
            pipeline={"degree": 20},
        ),
    ]
