"""Benchmark: poimkit's kernels against gkmsvm-lite, accuracy and speed (issue 14).

Every method sees the same stratified folds (``StratifiedKFold``, shuffled,
fixed seed) of each data set and is scored by the ROC AUC of its decision
values on the held-out fold. Methods (columns):

* ``wd``: `poimkit.WDKernelSVC` with its defaults;
* ``wd_rc`` / ``wd_mm1``: the same with ``reverse_complement=True`` /
  ``mismatches=1``, skipped with a note while the constructor lacks them;
* ``gkm``: ``poimkit.GkmSVC(l=11, k=7, reverse_complement=True, C=1.0)``, the
  position-free gapped k-mer SVM, skipped with a note while it is not
  importable (arguments its signature lacks are left out and named);
* ``gkmsvm`` / ``gkmsvm_cnt``: gkmsvm-lite, the Python port of LS-GKM, with
  the defaults of its trainer ``gkmsvm.train_gkmsvm`` (kernel
  ``gkm_esttrunc``, l = 11, k = 7, d = 3, reverse complement, normalised,
  C = 1, the scikit-learn SVC on the precomputed Gram matrix), and with its
  exact kernel ``gkm_cnt``;
* ``run_wd``: what ``poimkit run`` does by default: `poimkit.run.crossval.
  cross_validate` with ``RunOptions(kernel="wd")``, i.e. degree, shift and C
  chosen by an inner CV inside every outer fold (`poimkit.svm.selection`; equal
  lengths only);
* ``run_gkm``: ``poimkit run --kernel gkm``, the same with
  ``RunOptions(kernel="gkm")``: strands and C chosen inside every fold (any
  lengths). Both report the outer folds' AUCs, the parameters chosen in each
  fold and the wall time of the whole call, which includes the selection on
  all sequences for the final model that ``poimkit run`` makes (the folds are
  the same as the other columns': ``cross_validate`` splits the same labels
  with the same ``StratifiedKFold``, checked on its out-of-fold scores);
* ``oracle`` (planted sets, GATTACA): the true likelihood ratio of the
  generator, no training; the best AUC any model can reach on these sequences.

gkmsvm-lite on in-memory sequences: ``train_gkmsvm(pos_strings, neg_strings,
device="cpu")`` returns a ``GkmSVM``; ``model(one_hot)`` with ``one_hot`` of
shape (n, 4, L) returns (n, 1) decision values. Both stack the sequences into
one array and so need equal lengths. For data sets of mixed lengths (NFE2 as
given) the script builds the same model from the library's own kernel object
(``gkmsvm.svm.KERNEL_BUILDERS[kernel](params)`` with the trainer's defaults):
the raw Gram blocks between every pair of length groups
(``kernel.pairwise_from_indices`` on both strands, as ``gkmsvm.gram``
does per tile), normalised by the library's self-kernels
(``kernel._raw_diagonal``), then ``sklearn.svm.SVC(C, kernel="precomputed")``
as ``train_gkmsvm`` uses; scoring likewise against the support vectors. On
equal lengths this reproduces ``train_gkmsvm`` + ``GkmSVM.__call__``
(every run first compares both on 40 + 40 records of one length, and
poimkit's ``gkm_kernel`` with ``gkm_cnt``; ``--no-check`` skips it). Padding
to one length is not an option: ``gkmsvm.encode_batch`` pads with all-zero
columns, which its kernels read as ``A`` (``argmax`` of a zero column).

gkmsvm-lite's kernels cost O(n^2 W^2) for W windows per sequence, so before
each of its columns the script times one fold on a subset (untimed warm-up
first), prints the estimate for the data set, and then runs folds in order
while the next one is expected to fit the column's budget (``--gkmsvm-budget``,
``--gkmsvm-cnt-budget``); a column that ran fewer folds says so. Timed
figures exclude numba compilation: every method is fitted once on a small
subset of each data set before its timed folds.

Speed (NFE2, all records, taken from the NFE2 cross-validation): fit = kernel
matrix of a training fold (about 1030 sequences) plus the SVM solve (plus, for
`GkmSVC`, its l-mer weight table, which ``fit`` builds), mean per fold, with
the kernel matrix alone where it can be timed; scoring of all 1288 sequences =
the test folds together, each scored by the model that did not see it
(summed; extrapolated from the folds run when a column ran fewer). poimkit's
`GkmSVC` is timed as a user meets it: the fitted model's first call; and
separately after a round trip through a file (``save``, then ``GkmSVC.load``
and its first call, which rebuilds the table; load and score timed apart).

Data sets (``--datasets``, comma separated; ``planted`` and ``splice`` name
both of theirs):

* ``nfe2``: 644 + 644 NFE2 ChIP-seq peaks (LS-GKM's test data), all records at
  their own lengths (59-247 nt), no cropping; the WD columns need one length
  and are left out;
* ``nfe2_crop59``: the same records centre-cropped to 59 nt (the issue's first
  set-up, every method);
* ``planted_sd3``: 300 + 300 random sequences, L = 50, TCCGATA (one letter of
  each copy re-drawn) at 1-based start round(N(22, 3)) in the positives;
* ``planted_sd2``: 500 + 500, L = 70, the same motif at round(N(32, 2));
* ``splice_ei``, ``splice_ie``: UCI donors / acceptors against N windows
  (``data/splice``, 60 nt, records with ambiguity codes dropped);
* ``promoters``: UCI E. coli promoters (``data/promoters``, 53 + 53, 57 nt);
* ``gattaca``: the bundled GATTACA example (``data/gattaca``,
  `poimkit.datasets.load_gattaca`: 2500 + 2500, L = 100, GATTACA at
  round(N(35, 7)), one letter re-drawn), the issue's goal for the default
  ``poimkit run``. Only ``wd`` and ``run_wd`` run there; gkmsvm-lite's columns
  get their pilot only (its estimate for all folds is printed) and the other
  poimkit columns are left out, to keep the run short.

Goals (issue 14): NFE2 CV AUC >= 0.97 (any poimkit column, any length),
planted SD 3 >= 0.93 (best poimkit column), splice EI and IE >= 0.995,
GATTACA ``run_wd`` >= 0.85, poimkit's gkm kernel matrix and fit faster than
gkmsvm-lite's for the same l and k, and scoring the 1288 NFE2 sequences by
freshly fitted models at least 100 times faster than gkmsvm-lite's.

    pip install -e ".[bench]"    # gkmsvm-lite (and modisco-lite), the peers
    python benchmarks/bench_kernels_real.py                        # everything
    python benchmarks/bench_kernels_real.py --quick                # smoke test
    python benchmarks/bench_kernels_real.py --datasets nfe2,planted
    python benchmarks/bench_kernels_real.py --quick --methods wd,gkm,gkmsvm
    python benchmarks/bench_kernels_real.py --datasets gattaca --methods run_wd
"""

from __future__ import annotations

import argparse
import datetime
import inspect
import json
import os
import platform
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import numpy as np

# gkmsvm-lite pins numba's threading layer when imported before any parallel
# kernel ran; imported first, both libraries run on the same layer (recorded).
try:
    import gkmsvm
except ImportError:  # the column is skipped with a note
    gkmsvm = None

import numba
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold

import poimkit
from poimkit.datasets import PlantedMotif, load_gattaca, make_motif_data

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SPLICE = ROOT / "data" / "splice"
PROMOTERS = ROOT / "data" / "promoters"
NFE2 = ROOT.parent / "shared" / "data" / "nfe2"

N_FOLDS = 5
CV_SEED = 0
CROP = 59  # the first NFE2 set-up
PLANTED_MOTIF = "TCCGATA"
GKM = {"l": 11, "k": 7, "reverse_complement": True, "C": 1.0}

QUICK_PER_CLASS = 60  # --quick: at most this many sequences per class
QUICK_FOLDS = 3
WARM_UP_PER_CLASS = 10  # untimed fit per method and data set (numba compiles)
PILOT_TRAIN = 200  # gkmsvm-lite pilot: training sequences ...
PILOT_TEST = 100  # ... and scored sequences

#: poimkit's columns (the AUC goals take the best of those that ran)
POIMKIT = ("wd", "wd_rc", "wd_mm1", "gkm", "run_wd", "run_gkm")
#: data set: (columns the goal counts, or None for all of POIMKIT; AUC; text)
GOALS = {
    "nfe2": (None, 0.97, "5-fold CV AUC on all NFE2 records, any length"),
    "planted_sd3": (None, 0.93, "5-fold CV AUC, 300+300, L=50, SD 3"),
    "splice_ei": (None, 0.995, "5-fold CV AUC, splice EI vs N"),
    "splice_ie": (None, 0.995, "5-fold CV AUC, splice IE vs N"),
    "gattaca": (
        ("run_wd",),
        0.85,
        "5-fold CV AUC of the default poimkit run, GATTACA 2500+2500, L=100",
    ),
}
SCORE_SPEEDUP_GOAL = 100.0
#: data sets where only these columns run (gkmsvm-lite: pilot estimate only)
ONLY = {"gattaca": ("wd", "run_wd")}
GATTACA = PlantedMotif("GATTACA", 35, spread=7.0)  # poimkit.datasets.GATTACA_BUNDLE

_START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - _START:7.1f} s] {message}", file=sys.stderr)


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


# --------------------------------------------------------------------------- #
# gkmsvm-lite
# --------------------------------------------------------------------------- #
def gkmsvm_defaults() -> dict:
    """The defaults of ``gkmsvm.train_gkmsvm`` (read from its signature)."""
    params = inspect.signature(gkmsvm.train_gkmsvm).parameters
    names = ("kernel_type", "l", "k", "d", "C", "include_rc", "solver", "tol")
    out = {n: params[n].default for n in names if n in params}
    out["kernel"] = gkmsvm.resolve_kernel_type(out["kernel_type"])
    return out


class GkmsvmLite:
    """gkmsvm-lite trained and scored on in-memory DNA strings.

    Equal lengths: ``gkmsvm.train_gkmsvm`` and ``GkmSVM.__call__``. Mixed
    lengths: the same kernel object, Gram blocks per pair of length groups,
    the same scikit-learn SVC (see the module docstring).
    """

    def __init__(self, kernel_type: str | None = None, path: str = "auto"):
        self.kernel_type = kernel_type
        self.path = path

    def __repr__(self) -> str:
        kt = self.kernel_type or gkmsvm_defaults()["kernel"]
        return f"gkmsvm-lite({kt}, defaults otherwise)"

    def _kernel(self):
        from gkmsvm.svm import KERNEL_BUILDERS, resolve_kernel_type

        d = gkmsvm_defaults()
        kernel_type = resolve_kernel_type(self.kernel_type or d["kernel_type"])
        params = {"L": d["l"], "k": d["k"], "d": d["d"], "include_rc": d["include_rc"]}
        return KERNEL_BUILDERS[kernel_type](params), kernel_type

    def fit(self, seqs: list[str], y) -> GkmsvmLite:
        y = np.asarray(y)
        same = len({len(s) for s in seqs}) == 1
        self.path_ = "grouped" if self.path == "grouped" or not same else "api"
        self.gram_seconds_ = None
        if self.path_ == "api":
            kwargs = {"device": "cpu"}
            if self.kernel_type is not None:
                kwargs["kernel_type"] = self.kernel_type
            self.model_ = gkmsvm.train_gkmsvm(
                [s for s, t in zip(seqs, y, strict=True) if t == 1],
                [s for s, t in zip(seqs, y, strict=True) if t != 1],
                **kwargs,
            )
            self.n_support_ = int(self.model_.num_support_vectors)
            return self
        from sklearn.svm import SVC

        kernel, self.kernel_type_ = self._kernel()
        start = time.perf_counter()
        groups = _length_groups(kernel, seqs)
        raw = np.zeros((len(seqs), len(seqs)))
        for a, ga in enumerate(groups):
            for gb in groups[a:]:
                block = _raw_block(kernel, ga, gb)
                raw[np.ix_(ga.rows, gb.rows)] = block
                raw[np.ix_(gb.rows, ga.rows)] = block.T
        diag = np.empty(len(seqs))
        for g in groups:
            diag[g.rows] = g.diag
        gram = raw
        if kernel.normalize:
            gram = raw / np.clip(np.sqrt(np.outer(diag, diag)), 1e-10, None)
        self.gram_seconds_ = time.perf_counter() - start
        C = gkmsvm_defaults()["C"]
        svc = SVC(C=C, kernel="precomputed").fit(gram, np.where(y == 1, 1, -1))
        support = svc.support_
        self.kernel_ = kernel
        self.sv_seqs_ = [seqs[i] for i in support]
        self.coef_ = svc.dual_coef_[0].copy()
        self.bias_ = float(svc.intercept_[0])
        self.n_support_ = int(len(support))
        return self

    def decision_function(self, seqs: list[str]) -> np.ndarray:
        from gkmsvm import one_hot_encode

        if self.path_ == "api":
            x = np.stack([one_hot_encode(s) for s in seqs])
            return np.asarray(self.model_(x))[:, 0].astype(np.float64)
        kernel = self.kernel_
        sv_groups = _length_groups(kernel, self.sv_seqs_)
        scores = np.full(len(seqs), self.bias_)
        for gx in _length_groups(kernel, seqs, rc=False):
            for gs in sv_groups:
                block = _raw_block(kernel, gx, gs)
                if kernel.normalize:
                    norm = np.sqrt(np.outer(gx.diag, gs.diag))
                    block = block / np.clip(norm, 1e-10, None)
                scores[gx.rows] += block @ self.coef_[gs.rows]
        return scores


@dataclass
class _Group:
    rows: np.ndarray
    windows: np.ndarray  # (n, W, l) int8 base indices, forward strand
    rc_windows: np.ndarray | None  # reverse strand
    diag: np.ndarray  # raw self-kernel (both strands)


def _length_groups(kernel, seqs: list[str], rc: bool = True) -> list[_Group]:
    """Sequences by length: the kernel's windows of each strand and diagonal."""
    from gkmsvm import one_hot_encode, reverse_complement

    lengths = np.array([len(s) for s in seqs])
    groups = []
    for length in np.unique(lengths):
        rows = np.flatnonzero(lengths == length)
        x = np.stack([one_hot_encode(seqs[i]) for i in rows])
        rc_windows = None
        if rc and kernel.include_rc:
            rc_windows = kernel.base_index_windows(reverse_complement(x))
        diag = np.asarray(kernel._raw_diagonal(x), dtype=np.float64)
        groups.append(_Group(rows, kernel.base_index_windows(x), rc_windows, diag))
    return groups


def _raw_block(kernel, ga: _Group, gb: _Group) -> np.ndarray:
    """Unnormalised kernel between two length groups (``gkmsvm.gram``'s tile)."""
    block = kernel.pairwise_from_indices(ga.windows, gb.windows)
    if kernel.include_rc:
        block = block + kernel.pairwise_from_indices(ga.windows, gb.rc_windows)
    return np.asarray(block, dtype=np.float64)


def check_gkmsvm(data: Data, n_per_class: int = 40) -> dict:
    """The grouped path against ``train_gkmsvm`` + ``GkmSVM`` on equal lengths."""
    lengths = data.lengths
    common = np.bincount(lengths).argmax()
    rows = np.flatnonzero(lengths == common)
    rows = np.r_[
        rows[data.y[rows] == 1][:n_per_class], rows[data.y[rows] == 0][:n_per_class]
    ]
    sub = data.subset(rows)
    out = {"length": int(common), "n": len(rows)}
    for kt in (None, "gkm_cnt"):
        scores = {}
        for path in ("api", "grouped"):
            start = time.perf_counter()
            model = GkmsvmLite(kt, path).fit(sub.seqs, sub.y)
            fit_s = time.perf_counter() - start
            start = time.perf_counter()
            scores[path] = model.decision_function(sub.seqs)
            out[f"{kt or 'default'}_{path}_seconds"] = [
                fit_s,
                time.perf_counter() - start,
            ]
        diff = np.abs(scores["api"] - scores["grouped"]).max()
        out[f"{kt or 'default'}_max_abs_diff"] = float(diff)
    fn = getattr(poimkit, "gkm_kernel", None)
    if fn is not None:  # the same kernel up to a factor? (mixed lengths)
        from gkmsvm.svm import KERNEL_BUILDERS

        d = gkmsvm_defaults()
        rows = stratified_subset(data.y, n_per_class // 2, 3)
        seqs = [data.seqs[i] for i in rows]
        kernel = KERNEL_BUILDERS["gkm_cnt"](
            {"L": d["l"], "k": d["k"], "include_rc": d["include_rc"]}
        )
        groups = _length_groups(kernel, seqs)
        raw = np.zeros((len(seqs), len(seqs)))
        for ga in groups:
            for gb in groups:
                raw[np.ix_(ga.rows, gb.rows)] = _raw_block(kernel, ga, gb)
        ours = fn(seqs, l=d["l"], k=d["k"], reverse_complement=d["include_rc"])
        ratio = ours / raw
        out["gkm_kernel_over_gkm_cnt_raw"] = [float(ratio.min()), float(ratio.max())]
    return out


# --------------------------------------------------------------------------- #
# methods
# --------------------------------------------------------------------------- #
@dataclass
class Method:
    name: str
    label: str
    make: Callable[[], object] | None  # unfitted estimator; None: skipped
    note: str = ""
    needs_equal_lengths: bool = False
    peer: bool = False  # gkmsvm-lite: pilot, budget
    budget: float = 0.0
    pipeline: dict | None = None  # RunOptions of a `cross_validate` column


def _accepts(cls, **kwargs) -> tuple[dict, list[str]]:
    params = inspect.signature(cls).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return dict(kwargs), []
    kept = {k: v for k, v in kwargs.items() if k in params}
    return kept, sorted(set(kwargs) - set(kept))


def make_methods(args) -> list[Method]:
    wd = poimkit.WDKernelSVC
    wd_params = inspect.signature(wd).parameters
    methods = [
        Method("wd", "poimkit WD (defaults)", wd, needs_equal_lengths=True),
    ]
    for name, param, value in (
        ("wd_rc", "reverse_complement", True),
        ("wd_mm1", "mismatches", 1),
    ):
        label = f"poimkit WD {param}={value}"
        if param in wd_params:
            methods.append(
                Method(
                    name,
                    label,
                    lambda p=param, v=value: wd(**{p: v}),
                    needs_equal_lengths=True,
                )
            )
        else:
            methods.append(
                Method(name, label, None, f"WDKernelSVC has no {param} parameter yet")
            )
    gkm_cls = getattr(poimkit, "GkmSVC", None)
    label = "poimkit GkmSVC(l=11, k=7, rc)"
    if gkm_cls is None:
        methods.append(Method("gkm", label, None, "poimkit.GkmSVC not importable yet"))
    else:
        kwargs, dropped = _accepts(gkm_cls, **GKM)
        note = f"GkmSVC lacks {dropped}: left out" if dropped else ""
        methods.append(Method("gkm", label, lambda: gkm_cls(**kwargs), note))
    for name, kernel, label, equal in (
        ("run_wd", "wd", "poimkit run (wd, nested selection)", True),
        ("run_gkm", "gkm", "poimkit run --kernel gkm (nested selection)", False),
    ):
        methods.append(
            Method(
                name,
                label,
                lambda: None,  # not an estimator: `run_pipeline_cv`
                needs_equal_lengths=equal,
                pipeline={"kernel": kernel},
            )
        )
    if gkmsvm is None:
        for name in ("gkmsvm", "gkmsvm_cnt"):
            methods.append(Method(name, name, None, "gkmsvm-lite not installed"))
    else:
        d = gkmsvm_defaults()
        methods.append(
            Method(
                "gkmsvm",
                f"gkmsvm-lite defaults ({d['kernel']})",
                lambda: GkmsvmLite(None),
                peer=True,
                budget=args.gkmsvm_budget,
            )
        )
        methods.append(
            Method(
                "gkmsvm_cnt",
                "gkmsvm-lite gkm_cnt",
                lambda: GkmsvmLite("gkm_cnt"),
                peer=True,
                budget=args.gkmsvm_cnt_budget,
            )
        )
    return methods


# --------------------------------------------------------------------------- #
# cross-validation
# --------------------------------------------------------------------------- #
def stratified_subset(y: np.ndarray, per_class: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = [
        np.sort(rng.permutation(np.flatnonzero(y == c))[:per_class]) for c in (1, 0)
    ]
    return np.concatenate(rows)


def fit_score(
    make, train: Data, test: Data, again: bool = False, reload: bool = False
) -> dict:
    """Fit, score the test set (timed), and with ``again`` score it once more.

    With ``reload`` (models with ``save`` / ``load``) the fitted model is also
    written to a file, read back (timed) and scores the test set again (timed:
    its first call, which rebuilds any table the file does not hold).
    """
    model = make()
    start = time.perf_counter()
    model.fit(train.seqs, train.y)
    fit_s = time.perf_counter() - start
    start = time.perf_counter()
    scores = np.asarray(model.decision_function(test.seqs), dtype=np.float64)
    score_s = time.perf_counter() - start
    again_s = None
    if again:  # a fitted model's second call (tables built on the first)
        start = time.perf_counter()
        model.decision_function(test.seqs)
        again_s = time.perf_counter() - start
    out = {
        "auc": float(roc_auc_score(test.y, scores)),
        "fit_seconds": fit_s,
        "score_seconds": score_s,
        "n_train": len(train.y),
        "n_test": len(test.y),
    }
    if again_s is not None:
        out["score_again_seconds"] = again_s
    if reload and hasattr(model, "save") and hasattr(type(model), "load"):
        with tempfile.TemporaryDirectory(prefix="bench-kernels-") as folder:
            path = Path(folder) / "model.npz"
            model.save(path)
            start = time.perf_counter()
            loaded = type(model).load(path)
            out["load_seconds"] = time.perf_counter() - start
            start = time.perf_counter()
            reread = np.asarray(loaded.decision_function(test.seqs), dtype=np.float64)
            out["score_loaded_seconds"] = time.perf_counter() - start
        out["loaded_max_abs_diff"] = float(np.abs(reread - scores).max())
    n_sv = getattr(model, "n_support_", None)
    if n_sv is not None:
        out["n_support"] = int(np.sum(n_sv))
    gram = getattr(model, "gram_seconds_", None)
    if gram is not None:
        out["gram_seconds"] = gram
    if isinstance(model, GkmsvmLite):
        out["gkmsvm_path"] = model.path_
    out["model"] = repr(model)
    return out


def pilot(method: Method, data: Data, train: np.ndarray, test: np.ndarray) -> dict:
    """One fold on a subset: seconds, and the full fold extrapolated.

    Fit ~ n_train^2 (Gram matrix), scoring ~ n_test * n_train (support vectors
    grow with the training set).
    """
    rng = np.random.default_rng(1)
    tr = train[stratified_subset(data.y[train], PILOT_TRAIN // 2, 1)]
    te = rng.permutation(test)[:PILOT_TEST]
    r = fit_score(method.make, data.subset(tr), data.subset(te))
    fit = r["fit_seconds"] * (len(train) / len(tr)) ** 2
    score = r["score_seconds"] * (len(test) / len(te)) * (len(train) / len(tr))
    return {
        "n_train": len(tr),
        "n_test": len(te),
        "fit_seconds": r["fit_seconds"],
        "score_seconds": r["score_seconds"],
        "estimated_fold_seconds": fit + score,
    }


def make_folds(y: np.ndarray, args) -> list[tuple[np.ndarray, np.ndarray]]:
    cv = StratifiedKFold(args.folds, shuffle=True, random_state=args.seed)
    return list(cv.split(np.zeros(len(y)), y))


def runnable(method: Method, data: Data) -> str | None:
    """Why the method cannot run on the data set, or None."""
    if method.make is None:
        return method.note
    if data.name in ONLY and method.name not in ONLY[data.name]:
        return f"not run on {data.name} (only {', '.join(ONLY[data.name])})"
    if method.needs_equal_lengths and not data.equal_lengths:
        return "needs equal lengths (data set has mixed lengths)"
    return None


def warm_up(method: Method, data: Data) -> float:
    """Untimed fit + score on a small subset (numba compiles or loads its cache)."""
    warm = data.subset(stratified_subset(data.y, WARM_UP_PER_CLASS, 2))
    start = time.perf_counter()
    fit_score(method.make, warm, warm)
    return time.perf_counter() - start


def pipeline_data(data: Data, kernel: str):
    """The `poimkit.run.data.LabeledData` that ``read_input`` builds from FASTA."""
    from poimkit.run.data import LabeledData, as_rows

    if kernel == "gkm":  # records of any lengths: a 1-D object array of codes
        X = as_rows([poimkit.encode([s])[0] for s in data.seqs])
    else:
        X = poimkit.encode(data.seqs)
    ids = [f"{data.name}_{i}" for i in range(len(data.y))]
    return LabeledData(ids, X, np.asarray(data.y), [], 0)


def run_pipeline_cv(method: Method, data: Data, folds, args) -> dict:
    """``poimkit run``'s cross-validation (nested selection) on the data set.

    An untimed call on a small subset first (numba compiles), then the timed
    call on all sequences; its fold AUCs are checked against the out-of-fold
    scores on this script's folds.
    """
    from poimkit.run import RunOptions
    from poimkit.run.crossval import cross_validate
    from poimkit.run.plan import make_plan

    options = RunOptions(**method.pipeline, cv=args.folds, seed=args.seed)
    warm = data.subset(stratified_subset(data.y, WARM_UP_PER_CLASS, 2))
    start = time.perf_counter()
    warm_data = pipeline_data(warm, options.kernel)
    cross_validate(warm_data, make_plan(warm_data, options))
    warm_s = time.perf_counter() - start
    full = pipeline_data(data, options.kernel)
    start = time.perf_counter()
    cv = cross_validate(full, make_plan(full, options))
    seconds = time.perf_counter() - start
    scores = cv["out_of_fold_scores"]
    ours = [float(roc_auc_score(data.y[te], scores[te])) for _, te in folds]
    same = np.allclose(ours, cv["cv_auc_folds"], atol=1e-6)
    sel = cv["selection"] or {}
    chosen = [f["params"] for f in sel.get("folds", [])] or [{}] * len(ours)
    inner = [f.get("inner_auc") for f in sel.get("folds", [])] or [None] * len(ours)
    corners = [f.get("corner", []) for f in sel.get("folds", [])] or [[]] * len(ours)
    results = [
        {"auc": a, "params": p, "inner_auc": i, "corner": c}
        for a, p, i, c in zip(ours, chosen, inner, corners, strict=True)
    ]
    n_candidates = int(np.prod([len(v) for v in sel.get("grid", {}).values()]))
    return {
        "warm_up_seconds": warm_s,
        "folds": results,
        **_summary(results, args.folds),
        "seconds_total": seconds,
        "same_folds": bool(same),
        "cv_auc": cv["cv_auc"],
        "cv_auc_interval": cv["cv_auc_interval"],
        "grid": sel.get("grid"),
        "n_candidates": n_candidates,
        "inner": sel.get("inner"),
        "final_params": sel.get("chosen"),
        "final_inner_auc": sel.get("inner_auc"),
        "note": (
            f"{seconds:.1f} s in all: {n_candidates} candidates, inner CV in "
            f"{args.folds} outer folds + on all sequences, {args.folds} refits"
            + ("" if same else "; FOLDS DIFFER from the other columns'")
        ),
    }


def _params(params: dict) -> str:
    short = {"degree": "d", "shift": "s", "reverse_complement": "rc", "C": "C"}
    return " ".join(
        f"{short[k]}={v:g}" if isinstance(v, float) else f"{short[k]}={v}"
        for k, v in params.items()
        if k in short
    )


def plan_peer(method: Method, data: Data, folds, args, only: bool = False) -> dict:
    """Warm-up and pilot of a gkmsvm-lite column, with its estimated seconds.

    ``only``: the pilot alone (the column does not run on this data set).
    """
    entry = {}
    try:
        entry["warm_up_seconds"] = warm_up(method, data)
        entry["pilot"] = pilot(method, data, *folds[0])
    except Exception as exc:  # reported in the column
        entry["error"] = f"{type(exc).__name__}: {exc}"
        entry["traceback"] = traceback.format_exc()
        return entry
    per_fold = entry["pilot"]["estimated_fold_seconds"]
    entry["estimated_seconds"] = per_fold * args.folds
    entry["planned_folds"] = int(
        min(args.folds, max(1, method.budget // per_fold if per_fold else args.folds))
    )
    log(
        f"{data.name}: {method.name} pilot ({entry['pilot']['n_train']} train / "
        f"{entry['pilot']['n_test']} test sequences, "
        f"{entry['pilot']['fit_seconds'] + entry['pilot']['score_seconds']:.1f} s): "
        f"estimated {entry['estimated_seconds']:.0f} s for {args.folds} folds, "
        + (
            "not run (pilot only)"
            if only
            else f"budget {method.budget:.0f} s -> about {entry['planned_folds']} folds"
        )
    )
    return entry


def run_dataset(data: Data, folds, methods: list[Method], planned: dict, args) -> dict:
    y = data.y
    lengths = data.lengths
    out = {
        "dataset": data.name,
        "description": data.description,
        "n_pos": int((y == 1).sum()),
        "n_neg": int((y == 0).sum()),
        "length_min": int(lengths.min()),
        "length_max": int(lengths.max()),
        "n_lengths": len(set(lengths.tolist())),
        "folds": args.folds,
        "notes": list(data.notes),
        "methods": {},
    }
    log(
        f"{data.name}: {out['n_pos']}+{out['n_neg']} sequences, lengths "
        f"{out['length_min']}-{out['length_max']}, {args.folds} folds"
    )
    if data.oracle is not None:
        scores = data.oracle(data.seqs)
        aucs = [float(roc_auc_score(y[te], scores[te])) for _, te in folds]
        out["methods"]["oracle"] = {
            "label": "oracle (true likelihood ratio)",
            "folds": [{"auc": a} for a in aucs],
            "auc_all": float(roc_auc_score(y, scores)),
            **_summary([{"auc": a} for a in aucs], args.folds),
        }
    for method in methods:
        entry = {"label": method.label, "note": method.note}
        out["methods"][method.name] = entry
        reason = runnable(method, data)
        if reason:
            entry["skipped"] = reason
            pilot_only = planned.get(method.name, {})
            if "estimated_seconds" in pilot_only:
                entry.update(pilot_only)
                entry["skipped"] += (
                    f"; pilot estimate {pilot_only['estimated_seconds']:.0f} s for "
                    f"{args.folds} folds"
                )
            continue
        if method.pipeline is not None:
            log(f"{data.name}: {method.name} (cross_validate, nested selection)")
            try:
                entry.update(run_pipeline_cv(method, data, folds, args))
                log(
                    f"{data.name}: {method.name} AUC {entry['auc_mean']:.4f} "
                    f"± {entry['auc_sd']:.4f} ({entry['seconds_total']:.1f} s), "
                    "chosen: " + "; ".join(_params(f["params"]) for f in entry["folds"])
                )
            except Exception as exc:  # report, do not stop the benchmark
                entry["error"] = f"{type(exc).__name__}: {exc}"
                entry["traceback"] = traceback.format_exc()
                log(f"{data.name}: {method.name} failed: {entry['error']}")
            continue
        if method.peer:
            entry.update(planned.get(method.name, {}))
            if "error" in entry:
                continue
        try:
            if not method.peer:
                entry["warm_up_seconds"] = warm_up(method, data)
            n_run = args.folds
            results = []
            spent = 0.0
            for i, (train, test) in enumerate(folds):
                if method.peer and i > 0:
                    per_fold = spent / i
                    if spent + per_fold > method.budget:
                        n_run = i
                        break
                log(f"{data.name}: {method.name} fold {i + 1}/{args.folds}")
                start = time.perf_counter()
                results.append(
                    fit_score(
                        method.make,
                        data.subset(train),
                        data.subset(test),
                        again=not method.peer,
                        reload=method.name == "gkm",
                    )
                )
                spent += time.perf_counter() - start
            entry["folds"] = results
            entry.update(_summary(results, args.folds))
            if n_run < args.folds:
                entry["note"] = (
                    f"{n_run} of {args.folds} folds (budget {method.budget:.0f} s; "
                    f"all folds estimated {spent / n_run * args.folds:.0f} s)"
                )
            elif method.peer:
                entry["note"] = (
                    f"pilot estimate {entry['estimated_seconds']:.0f} s, "
                    f"ran {spent:.0f} s"
                )
            log(
                f"{data.name}: {method.name} AUC {entry['auc_mean']:.4f} "
                f"± {entry['auc_sd']:.4f} ({n_run} folds, {spent:.1f} s)"
            )
        except Exception as exc:  # report, do not stop the benchmark
            entry["error"] = f"{type(exc).__name__}: {exc}"
            entry["traceback"] = traceback.format_exc()
            log(f"{data.name}: {method.name} failed: {entry['error']}")
    return out


def _summary(results: list[dict], n_folds: int) -> dict:
    aucs = np.array([r["auc"] for r in results])
    out = {
        "n_folds_run": len(results),
        "auc_mean": float(aucs.mean()),
        "auc_sd": float(aucs.std(ddof=1)) if len(aucs) > 1 else 0.0,
    }
    if results and "fit_seconds" in results[0]:
        for key in (
            "fit_seconds",
            "score_seconds",
            "score_again_seconds",
            "load_seconds",
            "score_loaded_seconds",
            "gram_seconds",
        ):
            if all(key in r for r in results):
                out[f"{key}_mean"] = float(np.mean([r[key] for r in results]))
        out["seconds_total"] = float(
            sum(r["fit_seconds"] + r["score_seconds"] for r in results)
        )
        scored = sum(r["n_test"] for r in results)
        out["score_seconds_per_1000"] = (
            1000 * sum(r["score_seconds"] for r in results) / scored
        )
    return out


# --------------------------------------------------------------------------- #
# speed (from the NFE2 cross-validation)
# --------------------------------------------------------------------------- #
def speed_section(result: dict, data: Data, args) -> dict:
    n_all = len(data.y)
    out = {"n_sequences": n_all, "methods": {}}
    for name, m in result["methods"].items():
        if "folds" not in m or "fit_seconds" not in m["folds"][0]:
            continue  # oracle, cross_validate columns: no per-fold times
        runs = m["folds"]
        scored = sum(r["n_test"] for r in runs)

        def total(key, runs=runs, scored=scored):
            if not all(key in r for r in runs):
                return None
            return sum(r[key] for r in runs) * n_all / scored

        out["methods"][name] = {
            "label": m["label"],
            "n_train_mean": float(np.mean([r["n_train"] for r in runs])),
            "gram_seconds": m.get("gram_seconds_mean"),
            "fit_seconds": m["fit_seconds_mean"],
            "score_all_seconds": total("score_seconds"),
            "score_all_again_seconds": total("score_again_seconds"),
            "load_all_seconds": total("load_seconds"),
            "score_loaded_all_seconds": total("score_loaded_seconds"),
            "loaded_max_abs_diff": max(
                (r["loaded_max_abs_diff"] for r in runs if "loaded_max_abs_diff" in r),
                default=None,
            ),
            "score_extrapolated": scored != n_all,
            "n_support_mean": float(
                np.mean([r.get("n_support", np.nan) for r in runs])
            ),
        }
    gram = poimkit_gkm_gram(data, args)
    if gram is not None and "gkm" in out["methods"]:
        out["methods"]["gkm"]["gram_seconds"] = gram.get("seconds")
        out["methods"]["gkm"]["gram_note"] = gram.get("note")
    ours = out["methods"].get("gkm")
    for peer in ("gkmsvm", "gkmsvm_cnt"):
        theirs = out["methods"].get(peer)
        if ours and theirs:
            out[f"score_speedup_vs_{peer}"] = (
                theirs["score_all_seconds"] / ours["score_all_seconds"]
            )
            if ours["score_all_again_seconds"]:
                out[f"score_again_speedup_vs_{peer}"] = (
                    theirs["score_all_seconds"] / ours["score_all_again_seconds"]
                )
            if ours["score_loaded_all_seconds"]:
                out[f"score_loaded_speedup_vs_{peer}"] = (
                    theirs["score_all_seconds"] / ours["score_loaded_all_seconds"]
                )
                out[f"load_and_score_speedup_vs_{peer}"] = theirs[
                    "score_all_seconds"
                ] / (ours["load_all_seconds"] + ours["score_loaded_all_seconds"])
            out[f"fit_speedup_vs_{peer}"] = theirs["fit_seconds"] / ours["fit_seconds"]
            if ours.get("gram_seconds") and theirs.get("gram_seconds"):
                out[f"gram_speedup_vs_{peer}"] = (
                    theirs["gram_seconds"] / ours["gram_seconds"]
                )
    return out


def poimkit_gkm_gram(data: Data, args) -> dict | None:
    """Time poimkit's gkm kernel matrix on the first training fold, if public."""
    fn = None
    for owner in (poimkit, getattr(poimkit, "kernels", None)):
        fn = fn or getattr(owner, "gkm_kernel", None)
    if fn is None:
        return {"note": "no public gkm kernel function (fit time only)"}
    train, _ = make_folds(data.y, args)[0]
    seqs = [data.seqs[i] for i in train]
    kwargs, dropped = _accepts(fn, **{k: v for k, v in GKM.items() if k != "C"})
    try:
        fn(seqs[:20], **kwargs)  # compile
        start = time.perf_counter()
        fn(seqs, **kwargs)
        seconds = time.perf_counter() - start
    except Exception as exc:
        return {"note": f"{fn.__module__}.{fn.__name__} failed: {exc}"}
    note = f"{fn.__module__}.{fn.__name__}({kwargs})"
    if dropped:
        note += f", lacks {dropped}"
    return {"seconds": seconds, "note": note}


# --------------------------------------------------------------------------- #
# report
# --------------------------------------------------------------------------- #
def _fmt(x, spec=".2f") -> str:
    return "-" if x is None else format(x, spec)


def table(results: list[dict]) -> str:
    lines = [
        "| data set | n (pos+neg) | length | method | CV AUC (mean ± sd) | "
        "fit s / fold | score s / fold | note |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        length = (
            str(r["length_min"])
            if r["length_min"] == r["length_max"]
            else f"{r['length_min']}-{r['length_max']}"
        )
        head = f"| {r['dataset']} | {r['n_pos']}+{r['n_neg']} | {length} |"
        for name, m in r["methods"].items():
            note = m.get("skipped") or m.get("error") or m.get("note") or ""
            if "auc_mean" not in m:
                lines.append(f"{head} {m['label']} | - | - | - | {note[:90]} |")
                continue
            auc = f"{m['auc_mean']:.4f} ± {m['auc_sd']:.4f}"
            if name == "oracle":
                note = f"AUC on all sequences {m['auc_all']:.4f}"
            elif m["n_folds_run"] < r["folds"]:
                auc += f" ({m['n_folds_run']}/{r['folds']} folds)"
            lines.append(
                f"{head} {m['label']} | {auc} | {_fmt(m.get('fit_seconds_mean'))} | "
                f"{_fmt(m.get('score_seconds_mean'))} | {note} |"
            )
    return "\n".join(lines)


def selection_lines(results: list[dict]) -> list[str]:
    """The cross_validate columns: fold AUCs and the parameters chosen in each."""
    lines = []
    for r in results:
        for name, m in r["methods"].items():
            if "same_folds" not in m:
                continue
            folds = "; ".join(
                f"{f['auc']:.4f} ({_params(f['params'])})" for f in m["folds"]
            )
            lines.append(
                f"{r['dataset']} {name}: {m['seconds_total']:.1f} s, "
                f"{m['n_candidates']} candidates ({m['inner']} inner CV), "
                f"same folds {'yes' if m['same_folds'] else 'NO'}; fold AUC "
                f"(chosen): {folds}; on all sequences: "
                f"{_params(m['final_params'] or {})}"
            )
    return lines


def speed_table(speed: dict) -> str:
    lines = [
        f"NFE2 speed ({speed['n_sequences']} sequences, from the cross-validation):",
        "",
        "| method | train n | kernel matrix s / fold | fit s / fold | "
        "score all s (fitted models) | score all s (second call) | "
        "load s + score all s (models read from files) | support vectors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for m in speed["methods"].values():
        extra = " (extrap.)" if m["score_extrapolated"] else ""
        loaded = "-"
        if m["score_loaded_all_seconds"] is not None:
            loaded = (
                f"{m['load_all_seconds']:.3f} + {m['score_loaded_all_seconds']:.3f}"
            )
        lines.append(
            f"| {m['label']} | {m['n_train_mean']:.0f} | {_fmt(m['gram_seconds'])} | "
            f"{m['fit_seconds']:.2f} | {m['score_all_seconds']:.3f}{extra} | "
            f"{_fmt(m['score_all_again_seconds'], '.3f')} | {loaded} | "
            f"{_fmt(m['n_support_mean'], '.0f')} |"
        )
    notes = [m["gram_note"] for m in speed["methods"].values() if m.get("gram_note")]
    lines += [""] + [f"poimkit kernel matrix: {n}" for n in notes]
    lines.append(
        "poimkit GkmSVC fit = kernel matrix + SVM + l-mer weight table; gkmsvm-lite "
        "fit = kernel matrix + SVM"
    )
    gkm = speed["methods"].get("gkm", {})
    if gkm.get("loaded_max_abs_diff") is not None:
        lines.append(
            "models read from files score as the fitted ones: max |diff| "
            f"{gkm['loaded_max_abs_diff']:.1e}"
        )
    for key, value in speed.items():
        if key.endswith(tuple(f"_vs_{p}" for p in ("gkmsvm", "gkmsvm_cnt"))):
            lines.append(f"{key}: {value:.1f}x")
    return "\n".join(lines)


def _best(r: dict, cols) -> dict:
    return {
        c: r["methods"][c]["auc_mean"]
        for c in cols
        if c in r["methods"] and "auc_mean" in r["methods"][c]
    }


def goals(results: list[dict], speed: dict | None) -> list[str]:
    lines = []
    for r in results:
        if r["dataset"] not in GOALS:
            continue
        only, target, text = GOALS[r["dataset"]]
        values = _best(r, only or POIMKIT)
        if not values:
            lines.append(f"{r['dataset']}: {text} >= {target}: no poimkit figure")
            continue
        got = ", ".join(f"{c} {v:.4f}" for c, v in values.items())
        best = max(values, key=values.get)
        verdict = "met" if values[best] >= target else "NOT met"
        lines.append(
            f"{r['dataset']}: {text} >= {target}: {got}; best {best} "
            f"{values[best]:.4f} -> {verdict}"
        )
    if speed is None or "gkm" not in speed["methods"]:
        return lines
    ours = speed["methods"]["gkm"]
    peers = [p for p in ("gkmsvm", "gkmsvm_cnt") if p in speed["methods"]]
    if not peers:
        return lines
    for what, key in (("kernel matrix", "gram"), ("fit", "fit")):
        ratios = {p: speed.get(f"{key}_speedup_vs_{p}") for p in peers}
        if any(v is None for v in ratios.values()):
            lines.append(f"nfe2: gkm {what} faster than gkmsvm-lite: not measured")
            continue
        theirs = ", ".join(
            f"{p} {speed['methods'][p][f'{key}_seconds']:.2f} s ({v:.1f}x)"
            for p, v in ratios.items()
        )
        verdict = "met" if min(ratios.values()) > 1 else "NOT met"
        lines.append(
            f"nfe2: gkm {what} per fold faster than gkmsvm-lite (l=11, k=7): poimkit "
            f"{ours[f'{key}_seconds']:.2f} s vs {theirs} -> {verdict}"
        )
    for what, key, seconds in (
        ("fitted models", "score", ours["score_all_seconds"]),
        ("models read from files", "score_loaded", ours["score_loaded_all_seconds"]),
    ):
        ratio = speed.get(f"{key}_speedup_vs_gkmsvm")
        if ratio is None:
            continue
        theirs = speed["methods"]["gkmsvm"]["score_all_seconds"]
        verdict = "met" if ratio >= SCORE_SPEEDUP_GOAL else "NOT met"
        lines.append(
            f"nfe2: scoring {speed['n_sequences']} sequences, {what}, "
            f">= {SCORE_SPEEDUP_GOAL:.0f}x faster than gkmsvm-lite: poimkit "
            f"{seconds:.3f} s vs {theirs:.2f} s = {ratio:.0f}x -> {verdict}"
        )
    return lines


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = None
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        ram = round(pages * size / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    try:
        layer = numba.threading_layer()
    except ValueError:
        layer = "not initialised"
    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "ram_gib": ram,
        "numba_threads": numba.get_num_threads(),
        "numba_threading_layer": layer,
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


def versions() -> dict:
    out = {"python": platform.python_version()}
    for name in ("poimkit", "gkmsvm-lite", "numpy", "numba", "scikit-learn", "scipy"):
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
        x = x.item()
    if isinstance(x, float) and not np.isfinite(x):
        return None
    return x


# --------------------------------------------------------------------------- #
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    names = list(DATASETS)
    parser.add_argument(
        "--datasets",
        default=",".join(names),
        help=f"comma-separated, from {', '.join(names + list(GROUPS))}",
    )
    parser.add_argument(
        "--methods",
        help="comma-separated, from wd, wd_rc, wd_mm1, gkm, run_wd, run_gkm, gkmsvm, "
        "gkmsvm_cnt (default: all)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"at most {QUICK_PER_CLASS} sequences per class, {QUICK_FOLDS} folds",
    )
    parser.add_argument(
        "--folds", type=int, help=f"default {N_FOLDS} ({QUICK_FOLDS} with --quick)"
    )
    parser.add_argument(
        "--seed", type=int, default=CV_SEED, help="StratifiedKFold seed"
    )
    parser.add_argument(
        "--gkmsvm-budget",
        type=float,
        default=900.0,
        help="seconds per data set for gkmsvm-lite's default kernel; folds that "
        "would exceed it are not run",
    )
    parser.add_argument(
        "--gkmsvm-cnt-budget",
        type=float,
        default=300.0,
        help="the same for its gkm_cnt kernel",
    )
    parser.add_argument(
        "--no-check",
        action="store_true",
        help="skip the check of the grouped gkmsvm-lite path against train_gkmsvm "
        "(40 + 40 equal-length NFE2 records) and of poimkit.gkm_kernel against "
        "gkm_cnt",
    )
    parser.add_argument(
        "--json",
        type=Path,
        help="output (default benchmarks/kernels_real.json, "
        "kernels_real_quick.json with --quick)",
    )
    args = parser.parse_args(argv)
    args.folds = args.folds or (QUICK_FOLDS if args.quick else N_FOLDS)
    load_start = os.getloadavg() if hasattr(os, "getloadavg") else None

    wanted = []
    for w in (w.strip() for w in args.datasets.split(",")):
        for name in GROUPS.get(w, [w] if w else []):
            if name not in DATASETS:
                parser.error(f"unknown data set {name!r}; known: {', '.join(names)}")
            if name not in wanted:
                wanted.append(name)
    methods = make_methods(args)
    if args.methods:
        keep = {m.strip() for m in args.methods.split(",")}
        unknown = keep - {m.name for m in methods}
        if unknown:
            parser.error(f"unknown method(s) {sorted(unknown)}")
        methods = [m for m in methods if m.name in keep]
    path = args.json or HERE / (
        "kernels_real_quick.json" if args.quick else "kernels_real.json"
    )
    for m in methods:
        if m.make is None:
            log(f"column {m.name} skipped: {m.note}")

    check = None
    if not args.no_check and gkmsvm is not None:
        log("checking the grouped gkmsvm-lite path against train_gkmsvm")
        try:
            check = check_gkmsvm(load_nfe2())
        except Exception as exc:  # report, do not stop the benchmark
            check = {"error": f"{type(exc).__name__}: {exc}"}
        log(f"check: {check}")

    prepared = []  # data, folds, gkmsvm-lite pilots
    for name in wanted:
        data = DATASETS[name]()
        if args.quick:
            data = data.subset(stratified_subset(data.y, QUICK_PER_CLASS, 0))
            data.notes.append(f"--quick: {QUICK_PER_CLASS} per class")
        folds = make_folds(data.y, args)
        planned = {}
        for m in methods:
            if not m.peer or m.make is None:
                continue
            if runnable(m, data) is None:
                planned[m.name] = plan_peer(m, data, folds, args)
            elif data.name in ONLY:  # the estimate only, for the record
                entry = plan_peer(m, data, folds, args, only=True)
                planned[m.name] = {**entry, "only": True}
        prepared.append((data, folds, planned))
    plan = [
        p
        for _, _, pl in prepared
        for p in pl.values()
        if "pilot" in p and not p.get("only")
    ]
    full = sum(p["estimated_seconds"] for p in plan)
    capped = sum(p["estimated_seconds"] * p["planned_folds"] / args.folds for p in plan)
    plan_line = (
        f"gkmsvm-lite estimated from the pilots: {full / 60:.1f} min for every "
        f"fold, {capped / 60:.1f} min within the budgets"
    )
    log(plan_line)

    results, speed = [], None
    for data, folds, planned in prepared:
        result = run_dataset(data, folds, methods, planned, args)
        results.append(result)
        if data.name == "nfe2":
            speed = speed_section(result, data, args)

    command = "python benchmarks/bench_kernels_real.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    info, vers = machine(), versions()
    print(
        f"poimkit kernels vs gkmsvm-lite: {args.folds}-fold stratified CV "
        f"(shuffled, seed {args.seed}), the same folds for every method"
    )
    print(f"command: {command.strip()}")
    print(
        f"machine: {info['cpu']}, {info['cores']} cores "
        f"({info['usable_cores']} usable), {info['ram_gib']} GiB, "
        f"numba {vers['numba']} ({info['numba_threads']} threads, "
        f"{info['numba_threading_layer']} layer); poimkit {vers['poimkit']}, "
        f"gkmsvm-lite {vers['gkmsvm-lite']}"
    )
    if gkmsvm is not None:
        print(f"gkmsvm-lite train_gkmsvm defaults: {gkmsvm_defaults()}")
        print(plan_line)
    if check is not None and "error" in check:
        print(f"check of the grouped gkmsvm-lite path failed: {check['error']}")
    elif check is not None:
        print(
            "check, grouped path vs train_gkmsvm + GkmSVM on "
            f"{check['n']} records of length {check['length']}: max |score diff| "
            f"{check['default_max_abs_diff']:.1e} (default kernel), "
            f"{check['gkm_cnt_max_abs_diff']:.1e} (gkm_cnt)"
            + (
                "; poimkit.gkm_kernel / gkm_cnt raw kernel = "
                + "..".join(f"{v:g}" for v in check["gkm_kernel_over_gkm_cnt_raw"])
                if "gkm_kernel_over_gkm_cnt_raw" in check
                else ""
            )
        )
    if load_start is not None:
        print(
            "load average (1, 5, 15 min): at start "
            + ", ".join(f"{v:.2f}" for v in load_start)
            + "; at end "
            + ", ".join(f"{v:.2f}" for v in info["load_average"])
        )
    print(f"total {(time.perf_counter() - _START) / 60:.1f} min")
    print()
    print(table(results))
    chosen = selection_lines(results)
    if chosen:
        print("\npoimkit run's cross-validation (nested selection):")
        print("\n".join(f"  {line}" for line in chosen))
    if speed is not None:
        print()
        print(speed_table(speed))
    lines = goals(results, speed)
    if lines:
        print(
            "\ngoals"
            + (" (--quick subsets, not the goals' data):" if args.quick else ":")
        )
        print("\n".join(f"  {line}" for line in lines))
    document = {
        "benchmark": "kernels_real",
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "command": command.strip(),
        "settings": {
            "quick": args.quick,
            "folds": args.folds,
            "cv_seed": args.seed,
            "datasets": wanted,
            "methods": [m.name for m in methods],
            "gkm_params": GKM,
            "gkmsvm_defaults": gkmsvm_defaults() if gkmsvm is not None else None,
            "gkmsvm_budget": args.gkmsvm_budget,
            "gkmsvm_cnt_budget": args.gkmsvm_cnt_budget,
        },
        "machine": info,
        "versions": vers,
        "gkmsvm_path_check": check,
        "gkmsvm_plan": plan_line,
        "load_average_start": load_start,
        "total_seconds": time.perf_counter() - _START,
        "results": results,
        "speed_nfe2": speed,
        "goals": lines,
    }
    path.write_text(json.dumps(_jsonable(document), indent=1) + "\n")
    log(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
