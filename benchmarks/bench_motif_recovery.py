"""Benchmark: planted-motif recovery by poimkit's motifs and by TF-MoDISco on ISM.

For every case the script builds a data set, trains one poimkit model, computes
its exact POIMs and extracts motifs with `poimkit.extract_motifs`. In the same
run, exact in-silico mutagenesis (ISM) of the *same* model
(``model.explicit_weights().mutagenesis``) goes to modisco-lite, whose positive
patterns (trimmed as modisco's report trims them) are the second method's
motifs. Both are compared with the planted truth:

* consensus mismatches: found consensus aligned with the planted consensus at
  the best offset and strand; mismatches in the overlap plus planted letters
  the found motif does not cover;
* TOMTOM p-value (memelite) of the found PWM against the planted PWM
  (`poimkit.datasets.expected_pwm`) and the planted motif's rank among the
  targets (planted PWMs plus ``N_DECOYS`` seeded random PWMs: memelite's
  p-values use the target columns as their background and are unreliable with
  fewer than 25 targets);
* position error: |implied start of the planted motif - planted mean start|
  (1-based), where the implied start corrects the found motif's start for
  the alignment offset (and strand, for modisco's reverse-complement seqlets;
  for a modisco pattern the median over its seqlets, which resists the few
  seqlets a pattern collects far from the site);
* recovered: at most 1 mismatch and a position error of at most 2 (planted SD
  <= 2) or at most the SD (SD > 2); position-free motifs are judged on the
  mismatches alone;
* modisco patterns are trimmed to the columns from the first to the last
  whose information content is at least 0.2 of the pattern's largest;
* false motifs: found motifs with TOMTOM p > 0.01 and more than 1 mismatch
  against every planted motif.

ISM input of modisco: the model's trained-on positives carry a memorisation
offset (a WD-SVM with a high degree rewards every training positive's own long
k-mers, so nearly every letter of it looks important and modisco-lite's seqlet
caller finds no negative windows). By default the ISM therefore scores
*held-out* positives: for synthetic cases extra positives from the same
generator (at most ``MAX_MODISCO_SEQS``), for real data out-of-fold ISM from
``CROSSFIT_FOLDS`` models of the same class trained without the fold (their
training time is counted as ISM time). ``--ism-on train`` uses the training
positives of the one model instead.

Real data sets have no planted truth; the known signal (splice donor GT,
acceptor AG, promoter boxes, the NFE2 peaks' E-box) is checked the same way
and the full pipeline (`poimkit.run.run_pipeline`, 5-fold CV) is timed
once to give the motif step's share of a run.

    pip install -e ".[bench]"    # modisco-lite, the peer (a benchmark extra)
    python benchmarks/bench_motif_recovery.py                     # all cases
    python benchmarks/bench_motif_recovery.py --quick             # ~1/5 of n
    python benchmarks/bench_motif_recovery.py --quick --cases sd8_L100,n600_small
    python benchmarks/bench_motif_recovery.py --no-modisco --json out.json
"""

from __future__ import annotations

import argparse
import json
import platform
import signal
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import numpy as np

import poimkit
from poimkit.datasets import PlantedMotif, make_motif_data
from poimkit.datasets.synthetic import expected_pwm
from poimkit.svm.linear.layout import exact_size_for

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SPLICE = ROOT / "data" / "splice"
PROMOTERS = ROOT / "data" / "promoters"
NFE2 = ROOT.parent / "shared" / "data" / "nfe2"
NFE2_LENGTH = 236

MAX_MOTIFS = 3
MAX_MODISCO_SEQS = 2000  # positives given to modisco (and scored by ISM)
MAX_SEQLETS = 2000  # modisco's max_seqlets_per_metacluster
CROSSFIT_FOLDS = 5
QUICK_SCALE = 0.2
MIN_CLASS = 50  # smallest class size after --quick scaling
N_DECOYS = 100
DECOY_SEED = 12345
TOMTOM_P = 0.01  # false motif: p above this against every planted motif
TRIM_THRESHOLD = 0.2  # modisco patterns: keep columns with IC >= 0.2 max

# modisco-lite settings for 30-2000 nt sequences (its defaults, made for
# 400+ nt windows, found nothing on 60-100 nt); the rest as its CLI sets them
MODISCO = {
    "sliding_window_size": 10,
    "flank_size": 3,
    "trim_to_window_size": 15,
    "initial_flank_to_add": 3,
    "final_flank_to_add": 0,
    "target_seqlet_fdr": 0.05,
    "n_leiden_runs": 2,
    "max_seqlets_per_metacluster": MAX_SEQLETS,
}

_START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - _START:7.1f} s] {message}", file=sys.stderr)


def rc_string(s: str) -> str:
    return s[::-1].translate(str.maketrans("ACGT", "TGCA"))


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


# --------------------------------------------------------------------------- #
# found motifs
# --------------------------------------------------------------------------- #
@dataclass
class Found:
    pwm: np.ndarray  # (m, 4), rows A, C, G, T
    sites: list[tuple[float, int]]  # (1-based forward start, +1 / -1 orientation)
    extra: dict = field(default_factory=dict)

    @property
    def consensus(self) -> str:
        return "".join("ACGT"[i] for i in self.pwm.argmax(axis=1))

    @property
    def position(self) -> float | None:
        if not self.sites:
            return None
        return float(np.mean([s for s, _ in self.sites]))

    @property
    def iupac(self) -> str:
        from Bio import motifs

        counts = {a: (self.pwm[:, i] * 1000).tolist() for i, a in enumerate("ACGT")}
        return str(motifs.Motif(alphabet="ACGT", counts=counts).degenerate_consensus)

    def row(self) -> dict:
        return {
            "consensus": self.consensus,
            "iupac": self.extra.get("iupac") or self.iupac,
            "position": self.position,
            "length": int(self.pwm.shape[0]),
            "pwm": np.round(self.pwm, 4).tolist(),
            **{k: v for k, v in self.extra.items() if k != "iupac"},
        }


# --------------------------------------------------------------------------- #
# poimkit
# --------------------------------------------------------------------------- #
NEW_MOTIF_FIELDS = ("n_sites", "frac_positive", "frac_negative", "p_value", "q_value")


def extract_with_poimkit(poim, X, y) -> tuple[list, float]:
    """`extract_motifs` from the sites in the training sequences, timed."""
    start = time.perf_counter()
    motifs = poimkit.extract_motifs(
        poim, max_motifs=MAX_MOTIFS, sequences=X, labels=y, random_state=0
    )
    return motifs, time.perf_counter() - start


def poimkit_found(motif) -> Found:
    position = motif.position
    sites = [] if position is None else [(float(position), 1)]
    extra = {
        "iupac": motif.iupac,
        "spread": motif.spread,
        "importance": motif.importance,
    }
    extra.update({name: getattr(motif, name) for name in NEW_MOTIF_FIELDS})
    return Found(np.asarray(motif.pwm, dtype=np.float64), sites, extra)


def background_for(case: Case, X: np.ndarray):
    if case.background_order == 0:
        return poimkit.MarkovBackground.uniform(X.shape[1])
    return poimkit.MarkovBackground.fit(X, order=case.background_order)


def poim_with_fallback(model, max_order: int, background):
    """POIM up to max_order, one order lower while it exceeds the memory limit."""
    while True:
        try:
            return poimkit.compute_poim(model, max_order, background), max_order
        except (poimkit.InputError, MemoryError) as error:
            if max_order <= 5:
                raise
            log(f"  POIM order {max_order} refused ({error}); trying {max_order - 1}")
            max_order -= 1


# --------------------------------------------------------------------------- #
# ISM + modisco-lite
# --------------------------------------------------------------------------- #
def ism_crossfit(case: Case, X, y) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-fold ISM of the positives (models of the case's class)."""
    from sklearn.model_selection import StratifiedKFold

    folds = StratifiedKFold(CROSSFIT_FOLDS, shuffle=True, random_state=0)
    rows, maps = [], []
    for train, test in folds.split(X, y):
        pos = test[y[test] == 1]
        model = case.model(X.shape[1]).fit(X[train], y[train])
        maps.append(model.explicit_weights().mutagenesis(X[pos]))
        rows.append(pos)
    order = np.argsort(np.concatenate(rows), kind="stable")[:MAX_MODISCO_SEQS]
    return X[np.concatenate(rows)[order]], np.concatenate(maps)[order]


def modisco_patterns(X_pos: np.ndarray, ism: np.ndarray) -> tuple[list, dict]:
    """modisco-lite on ISM: hypothetical = ISM centred per position."""
    from modiscolite.tfmodisco import TFMoDISco

    one_hot = np.eye(4, dtype=np.float32)[X_pos]
    hypothetical = (ism - ism.mean(axis=2, keepdims=True)).astype(np.float32)
    settings = dict(MODISCO)
    if len(X_pos) < 300:  # default 100 seqlets per metacluster: too few seqs
        settings["min_metacluster_size"] = 30
    pos_patterns, _ = TFMoDISco(
        one_hot=one_hot, hypothetical_contribs=hypothetical, **settings
    )
    return list(pos_patterns or []), settings


def warm_up_modisco() -> float:
    """One small untimed modisco run on a synthetic contribution track.

    Done before poimkit starts numba's thread pool: modisco-lite compiles its
    numba kernels in forked children into numba's disk cache only when no
    other threads run; otherwise its first call in a process compiles them
    in-process (about 13 s here), which would be charged to the first case.
    """
    start = time.perf_counter()
    X, _ = make_motif_data(
        400,
        0,
        60,
        [PlantedMotif("GATCCTAG", 20, spread=3, mutation="none")],
        random_state=0,
    )
    one_hot = np.eye(4)[X]
    rng = np.random.default_rng(0)
    track = rng.normal(0.0, 0.02, size=one_hot.shape)
    for i, text in enumerate(poimkit.decode(X)):
        at = text.find("GATCCTAG")
        if at >= 0:
            track[i, at : at + 8] += 0.3 * (2 * one_hot[i, at : at + 8] - 0.5)
    modisco_patterns(X, track)
    return time.perf_counter() - start


def modisco_found(pattern) -> Found:
    """A pattern trimmed to its informative columns, with its seqlet starts.

    Kept: first to last column whose information content is at least
    ``TRIM_THRESHOLD`` of the pattern's largest (modisco's report instead cuts
    at 0.3 of the largest summed |CWM|, which left 21-column patterns whole).
    """
    ppm = np.asarray(pattern.sequence, dtype=np.float64)
    ppm = ppm / ppm.sum(axis=1, keepdims=True)
    ic = 2.0 + (ppm * np.log2(np.clip(ppm, 1e-12, 1.0))).sum(axis=1)
    keep = np.flatnonzero(ic >= TRIM_THRESHOLD * ic.max())
    a, b = int(keep.min()), int(keep.max()) + 1
    untrimmed = ppm.shape[0]
    ppm = ppm[a:b]
    sites = []
    for seqlet in pattern.seqlets:
        if seqlet.is_revcomp:  # pattern column c sits at forward end - 1 - c
            sites.append((float(seqlet.end - b + 1), -1))
        else:
            sites.append((float(seqlet.start + a + 1), 1))
    extra = {
        "n_seqlets": len(pattern.seqlets),
        "median_position": float(np.median([st for st, _ in sites])),
        "frac_revcomp": float(np.mean([s == -1 for _, s in sites])),
        "untrimmed_length": int(untrimmed),
        "trimmed_columns": [a, b],
    }
    return Found(ppm, sites, extra)


# --------------------------------------------------------------------------- #
# comparison with the truth
# --------------------------------------------------------------------------- #
def decoys() -> list[np.ndarray]:
    rng = np.random.default_rng(DECOY_SEED)
    return [
        rng.dirichlet(np.full(4, 0.5), size=int(m))
        for m in rng.integers(6, 13, N_DECOYS)
    ]


def truth_pwm(truth) -> np.ndarray:
    if isinstance(truth, PlantedMotif):
        return expected_pwm(truth)
    return expected_pwm(truth.consensus, mutation="none")


def tomtom_table(found: list[Found], truths: list) -> np.ndarray | None:
    """p-values (n_found, n_truths + N_DECOYS), both strands (memelite)."""
    if not found or not truths:
        return None
    from memelite import tomtom

    queries = [np.ascontiguousarray(f.pwm.T) for f in found]
    targets = [np.ascontiguousarray(truth_pwm(t).T) for t in truths]
    targets += [np.ascontiguousarray(d.T) for d in decoys()]
    p_values = tomtom(queries, targets, reverse_complement=True)[0]
    return np.asarray(p_values, dtype=np.float64)


def alignments(found: str, truth: str) -> tuple[int, list[tuple[str, int]]]:
    """Fewest mismatches over the truth's length, and every (strand, offset) with it.

    Found column i faces truth column i + offset (truth reverse complemented
    for strand "-"); truth letters the found motif does not cover count as
    mismatches.
    """
    w, m = len(found), len(truth)
    best, where = m + 1, []
    for strand, target in (("+", truth), ("-", rc_string(truth))):
        for offset in range(-(w - 1), m):
            cols = range(max(0, -offset), min(w, m - offset))
            overlap = len(cols)
            mism = sum(found[i] != target[i + offset] for i in cols) + m - overlap
            if mism < best:
                best, where = mism, [(strand, offset)]
            elif mism == best:
                where.append((strand, offset))
    return best, where


def implied_start(f: Found, offset: int, m: int) -> float | None:
    """1-based start of the truth that the found sites imply (their median).

    The median, not the mean: a modisco pattern often holds a few seqlets far
    from the planted site (a poimkit motif has one site, its mean start).
    """
    if not f.sites:
        return None
    w = f.pwm.shape[0]
    starts = [s - offset if o == 1 else s - (m - w - offset) for s, o in f.sites]
    return float(np.median(starts))


def truth_starts(truth, case: Case, length: int) -> list[float] | None:
    if isinstance(truth, KnownSignal):
        return None if truth.start is None else [float(p) for p in truth.start]
    if isinstance(truth.position, tuple):
        centre = sum(truth.position) / 2
    else:
        centre = float(truth.position)
    if case.mirrored:
        return [centre, float(length - (centre - 1) - truth.length + 1)]
    return [centre]


def judge(f: Found, truth, case: Case, length: int) -> dict:
    mism, where = alignments(f.consensus, truth.consensus)
    starts = truth_starts(truth, case, length)
    error = strand = implied = None
    in_window = None
    for s, offset in where:
        start = implied_start(f, offset, truth.length)
        if start is None or starts is None:
            strand = strand or s
            continue
        if isinstance(truth, KnownSignal):
            lo, hi = starts
            e = max(lo - start, start - hi, 0.0)
        else:
            e = min(abs(start - p) for p in starts)
        if error is None or e < error:
            error, strand, implied = e, s, start
    if isinstance(truth, KnownSignal):
        ok = mism <= truth.max_mismatches and (error is None or error <= 0.5)
        in_window = error is None or error <= 0.5
    else:
        tolerance = 2.0 if truth.spread <= 2 else float(truth.spread)
        ok = mism <= 1 and (error is None or error <= tolerance)
    return {
        "mismatches": int(mism),
        "strand": strand,
        "implied_start": implied,
        "position_error": error,
        "in_window": in_window,
        "recovered": bool(ok),
    }


def compare(found: list[Found], truths: list, case: Case, length: int) -> dict:
    p = tomtom_table(found, truths)
    per_truth = []
    for j, truth in enumerate(truths):
        best = None
        for i, f in enumerate(found):
            row = judge(f, truth, case, length)
            row["found"] = i
            row["consensus"] = f.consensus
            row["tomtom_p"] = float(p[i, j])
            row["tomtom_rank"] = int(1 + (p[i] < p[i, j]).sum())
            err = row["position_error"]
            key = (
                not row["recovered"],
                row["mismatches"],
                np.inf if err is None else err,
                row["tomtom_p"],
            )
            if best is None or key < best[0]:
                best = (key, row)
        per_truth.append(
            {"truth": truth.consensus, "best": None if best is None else best[1]}
        )
    false = None
    if not case.real:
        false = []
        for i, f in enumerate(found):
            matches = [
                (p is not None and p[i, j] <= TOMTOM_P)
                or alignments(f.consensus, t.consensus)[0] <= 1
                for j, t in enumerate(truths)
            ]
            if not any(matches):
                false.append(f.consensus)
    recovered = sum(bool(t["best"] and t["best"]["recovered"]) for t in per_truth)
    return {
        "per_truth": per_truth,
        "n_recovered": recovered,
        "all_recovered": bool(truths) and recovered == len(truths),
        "false_motifs": false,
    }


# --------------------------------------------------------------------------- #
# one case
# --------------------------------------------------------------------------- #
def run_case(case: Case, scale: float, args, scratch: Path) -> dict:
    log(f"{case.name}: building data")
    data = case.build(scale, scratch)
    X, y = data.X, data.y
    length = X.shape[1]
    out = {
        "case": case.name,
        "real": case.real,
        "near_chance": case.near_chance,
        "n_pos": int((y == 1).sum()),
        "n_neg": int((y == 0).sum()),
        "length": int(length),
        "truths": [_truth_row(t) for t in data.truths],
    }
    model = case.model(length)
    out["model"] = repr(model)
    log(f"{case.name}: training {type(model).__name__} on {len(y)} x {length}")
    t0 = time.perf_counter()
    model.fit(X, y)
    train_s = time.perf_counter() - t0
    log(f"{case.name}: POIM up to order {case.max_order}")
    t0 = time.perf_counter()
    background = background_for(case, X)
    poim, used_order = poim_with_fallback(
        model, min(case.max_order, length), background
    )
    poim_s = time.perf_counter() - t0
    out["max_order"] = used_order
    out["background"] = repr(background)
    out["train_seconds"] = train_s
    out["poim_seconds"] = poim_s

    log(f"{case.name}: extract_motifs")
    motifs, extract_s = extract_with_poimkit(poim, X, y)
    found = [poimkit_found(m) for m in motifs]
    result = {
        "found": [f.row() for f in found],
        "extract_seconds": extract_s,
        **compare(found, data.truths, case, length),
    }
    result["motif_share"] = extract_s / (train_s + poim_s + extract_s)
    result["motif_share_source"] = "extract / (train + POIM + extract)"
    if case.real and not args.quick and not args.no_pipeline:
        result.update(pipeline_share(case, data, scratch, used_order))
    out["poimkit"] = result

    if not args.no_modisco:
        out["modisco"] = run_modisco(case, model, data, args)
        out["modisco"].update(
            compare(out["modisco"].pop("_found"), data.truths, case, length)
        )
        total = train_s + out["modisco"]["ism_seconds"] + out["modisco"]["seconds"]
        out["modisco"]["motif_share"] = (
            out["modisco"]["ism_seconds"] + out["modisco"]["seconds"]
        ) / total
    return out


@contextmanager
def time_limit(seconds: float):
    """Raise TimeoutError in the main thread after ``seconds`` (0: no limit).

    modisco-lite's clustering ran for minutes on some seqlet sets (1545
    near-identical seqlets of a 30-nt set with target_seqlet_fdr 0.2); the
    alarm interrupts it at its next Python bytecode.
    """

    def expire(signum, frame):
        raise TimeoutError(f"modisco-lite exceeded {seconds:g} s")

    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_modisco(case: Case, model, data: Data, args) -> dict:
    X, y = data.X, data.y
    log(f"{case.name}: exact ISM")
    t0 = time.perf_counter()
    if args.ism_on == "train":
        X_pos = X[y == 1][:MAX_MODISCO_SEQS]
        ism = model.explicit_weights().mutagenesis(X_pos)
        source = "training positives"
    elif data.X_ism is not None:
        X_pos = data.X_ism[:MAX_MODISCO_SEQS]
        ism = model.explicit_weights().mutagenesis(X_pos)
        source = "held-out positives from the generator"
    else:
        X_pos, ism = ism_crossfit(case, X, y)
        source = f"out-of-fold ISM, {CROSSFIT_FOLDS} folds (fold training counted)"
    ism_s = time.perf_counter() - t0
    log(f"{case.name}: modisco-lite on {len(X_pos)} positives ({source})")
    t0 = time.perf_counter()
    error, settings, found = None, dict(MODISCO), []
    try:
        with time_limit(args.modisco_timeout):
            patterns, settings = modisco_patterns(X_pos, ism)
        found = [modisco_found(p) for p in patterns]
    except Exception as exc:  # report, do not stop the benchmark
        error = f"{type(exc).__name__}: {exc}"
        log(f"{case.name}: modisco failed: {error}")
    seconds = time.perf_counter() - t0
    return {
        "_found": found,
        "found": [f.row() for f in found],
        "n_sequences": int(len(X_pos)),
        "ism_input": source,
        "ism_seconds": ism_s,
        "seconds": seconds,
        "settings": settings,
        "error": error,
    }


def pipeline_share(case: Case, data: Data, scratch: Path, max_order: int) -> dict:
    """One `run_pipeline` (5-fold CV included): motifs / total seconds."""
    from poimkit.run import RunOptions, run_pipeline

    log(f"{case.name}: run_pipeline (5-fold CV) for the run-time share")
    options = RunOptions(
        max_order=max_order, max_motifs=MAX_MOTIFS, seed=0, **case.pipeline
    )
    pos, neg = data.files
    summary = run_pipeline(
        scratch / f"run_{case.name}", pos=pos, neg=neg, options=options, progress=False
    )
    runtimes = summary["runtimes"]
    return {
        "motif_share": runtimes["motifs"] / runtimes["total"],
        "motif_share_source": "run_pipeline runtimes motifs / total",
        "pipeline_runtimes": runtimes,
        "pipeline_cv_auc": summary.get("cv_auc"),
        "pipeline_motifs": [m.get("consensus") for m in summary.get("motifs", [])],
    }


def _truth_row(truth) -> dict:
    if isinstance(truth, KnownSignal):
        return {
            "name": truth.name,
            "consensus": truth.consensus,
            "start_window": truth.start,
            "max_mismatches": truth.max_mismatches,
        }
    return {
        "consensus": truth.consensus,
        "position": truth.position,
        "spread": truth.spread,
        "mutation": truth.mutation,
        "reverse_complement": truth.reverse_complement,
        "in_positives": truth.in_positives,
        "in_negatives": truth.in_negatives,
    }


# --------------------------------------------------------------------------- #
# report
# --------------------------------------------------------------------------- #
def _fmt(x, spec=".2f") -> str:
    return "-" if x is None else format(x, spec)


def truth_cell(result: dict, real: bool) -> str:
    parts = []
    for t in result["per_truth"]:
        b = t["best"]
        if b is None:
            parts.append(f"{t['truth']}: none")
            continue
        rc = " (rc)" if b["strand"] == "-" else ""
        where = (
            f"@{_fmt(b['implied_start'], '.1f')}"
            if real
            else f"dpos {_fmt(b['position_error'], '.1f')}"
        )
        verdict = (
            ("yes" if b["recovered"] else "no")
            if real
            else ("ok" if b["recovered"] else "miss")
        )
        parts.append(
            f"{t['truth']}→{b['consensus']} mm{b['mismatches']} "
            f"p={b['tomtom_p']:.1g} r{b['tomtom_rank']} {where}{rc} {verdict}"
        )
    return "; ".join(parts) or "(no planted motif)"


def table(results: list[dict]) -> str:
    lines = [
        "| case | method | found | truth → best match (mism, TOMTOM p, rank, "
        "position) | recovered | false | motif s | train s | POIM s | "
        "motif share of run time |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for method in ("poimkit", "modisco"):
            m = r.get(method)
            if m is None:
                continue
            found = ", ".join(f["consensus"] for f in m["found"]) or "(none)"
            if m.get("error"):
                found += f" [error: {m['error'][:60]}]"
            n = len(r["truths"])
            rec = f"{m['n_recovered']}/{n}" if n else "-"
            false = "-" if m["false_motifs"] is None else str(len(m["false_motifs"]))
            if method == "poimkit":
                secs = f"{m['extract_seconds']:.2f}"
            else:
                secs = f"{m['ism_seconds']:.1f}+{m['seconds']:.1f}"
            poim_s = f"{r['poim_seconds']:.2f}" if method == "poimkit" else "-"
            lines.append(
                f"| {r['case']} | {method} | {found} | "
                f"{truth_cell(m, r['real'])} | {rec} | {false} | {secs} | "
                f"{r['train_seconds']:.2f} | {poim_s} | "
                f"{100 * m['motif_share']:.0f}% |"
            )
    return "\n".join(lines)


def summary(results: list[dict]) -> dict:
    planted_cases = [r for r in results if not r["real"] and not r["near_chance"]]
    near = [r for r in results if r["near_chance"]]
    out = {
        "planted_cases": len(planted_cases),
        "poimkit_all_recovered": [
            r["case"] for r in planted_cases if r["poimkit"]["all_recovered"]
        ],
        "near_chance_cases": len(near),
        "near_chance_zero_poimkit_motifs": [
            r["case"] for r in near if not r["poimkit"]["found"]
        ],
        "near_chance_poimkit_false_motifs": {
            r["case"]: r["poimkit"]["false_motifs"] for r in near
        },
    }
    if any("modisco" in r for r in results):
        out["modisco_all_recovered"] = [
            r["case"]
            for r in planted_cases
            if "modisco" in r and r["modisco"]["all_recovered"]
        ]
        out["near_chance_zero_modisco_motifs"] = [
            r["case"] for r in near if "modisco" in r and not r["modisco"]["found"]
        ]
    return out


def summary_line(s: dict) -> str:
    n = s["planted_cases"]
    done = len(s["poimkit_all_recovered"])
    text = f"poimkit recovered all planted motifs in {done}/{n}"
    if "modisco_all_recovered" in s:
        text += f", modisco-lite in {len(s['modisco_all_recovered'])}/{n}"
    text += (
        f" planted cases; near-chance cases with zero poimkit motifs: "
        f"{len(s['near_chance_zero_poimkit_motifs'])}/{s['near_chance_cases']}"
    )
    if "near_chance_zero_modisco_motifs" in s:
        text += (
            f" (modisco-lite: {len(s['near_chance_zero_modisco_motifs'])}/"
            f"{s['near_chance_cases']})"
        )
    return text + "."


def _versions() -> dict:
    out = {"python": platform.python_version()}
    for name in (
        "poimkit",
        "numpy",
        "numba",
        "scikit-learn",
        "modisco-lite",
        "memelite",
    ):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, float) and not np.isfinite(x):
        return None
    return x


# --------------------------------------------------------------------------- #
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="about 1/5 of n, no pipeline runs, skip the two biggest",
    )
    parser.add_argument("--cases", help="comma-separated case names")
    parser.add_argument("--no-modisco", action="store_true")
    parser.add_argument(
        "--no-pipeline",
        action="store_true",
        help="skip the run_pipeline timing of the real sets",
    )
    parser.add_argument(
        "--ism-on",
        choices=("heldout", "train"),
        default="heldout",
        help="positives scored by ISM for modisco (default heldout)",
    )
    parser.add_argument(
        "--modisco-timeout",
        type=float,
        default=600.0,
        help="seconds per modisco-lite call before it is abandoned (0: none)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        help="output (default benchmarks/motif_recovery.json, "
        "motif_recovery_quick.json with --quick)",
    )
    args = parser.parse_args(argv)

    cases = make_cases()
    names = [c.name for c in cases]
    if args.cases:
        wanted = [w.strip() for w in args.cases.split(",") if w.strip()]
        unknown = sorted(set(wanted) - set(names))
        if unknown:
            parser.error(f"unknown case(s) {unknown}; known: {', '.join(names)}")
        cases = [c for c in cases if c.name in wanted]
    elif args.quick:
        cases = [c for c in cases if not c.big]
    scale = QUICK_SCALE if args.quick else 1.0
    path = args.json or HERE / (
        "motif_recovery_quick.json" if args.quick else "motif_recovery.json"
    )

    warm_up = None
    if not args.no_modisco:
        log("modisco-lite warm-up (compiles its numba kernels, untimed)")
        warm_up = warm_up_modisco()
    results = []
    with tempfile.TemporaryDirectory(prefix="bench_motif_recovery_") as tmp:
        for case in cases:
            results.append(run_case(case, scale, args, Path(tmp)))
            log(f"{case.name}: done")
    s = summary(results)
    print(table(results))
    print()
    print(summary_line(s))
    document = {
        "benchmark": "motif_recovery",
        "settings": {
            "quick": args.quick,
            "scale": scale,
            "modisco": not args.no_modisco,
            "ism_on": args.ism_on,
            "modisco_timeout": args.modisco_timeout,
            "max_motifs": MAX_MOTIFS,
            "modisco_settings": MODISCO,
            "max_modisco_sequences": MAX_MODISCO_SEQS,
            "tomtom_decoys": N_DECOYS,
            "trim_threshold": TRIM_THRESHOLD,
        },
        "versions": _versions(),
        "total_seconds": time.perf_counter() - _START,
        "modisco_warm_up_seconds": warm_up,
        "cases": results,
        "summary": s,
    }
    path.write_text(json.dumps(_jsonable(document), indent=1) + "\n")
    log(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
