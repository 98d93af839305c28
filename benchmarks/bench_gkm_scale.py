"""Benchmark: gkm SVMs at ENCODE scale, time, memory and AUC against n (issue 27).

Data (ChIP-like, planted, seeded): record lengths uniform on 200-300, i.i.d.
background with GC 0.42; a degenerate 12-column PWM (NFE2 / AP-1-like,
consensus ``ATGCTGAGTCAT``, about 1.27 bits per column, see `PWM`) planted
once at a uniform start on either strand (probability 1/2 each) in 60 % of
the positives and 3 % of the negatives (`poimkit.datasets.make_motif_data`
per record length, copies drawn from the PWM without further mutation).
Training sets are balanced; records come in seeded chunks of 5000 + 5000, so the
first records of a larger set are those of the smaller sets (a prefix). One
held-out set of 4000 records (2000 + 2000, its own seed) scores every cell.

Oracles (no training, on the held-out set): ``oracle_max``, the PWM scan,
max over all starts and both strands of the true PWM's log-odds against the
background; ``oracle_lr``, the log of the mean over starts and strands of the
likelihood ratio (the generator's true likelihood ratio is a monotone
function of it: the best AUC any model can reach).

Methods (``--methods``):

* ``linear``: ``poimkit.GkmSVC(l=11, k=7, reverse_complement=True, C=1,
  solver="linear")`` at every size; "not available" while GkmSVC has no
  ``solver`` parameter (or the fit rejects it);
* ``linear_cv``: the model ``poimkit run`` trains by default: strands and C
  chosen by the inner CV (`poimkit.svm.selection.select_parameters` with
  ``gkm_grid(linear=True)``: both strand settings, C in 0.01, 0.1, 1, one
  holdout split of a 5000-record sample above 3000 records), then the linear
  solver on all records; its fit time includes the selection;
* ``kernel``: the same as ``linear`` with ``solver="kernel"`` (today's
  GkmSVC without the parameter), the n x n kernel matrix;
* ``gkmsvm``: gkmsvm-lite 0.1.0 (LS-GKM's Python port, the ``bench`` extra)
  with the defaults of ``train_gkmsvm`` (kernel ``gkm_esttrunc``, l = 11,
  k = 7, d = 3, both strands, normalised, C = 1), its exact mode: the full
  Gram matrix and scikit-learn's SVC, through the library's kernel object per
  pair of length groups (`bench_kernels_real.GkmsvmLite`: ``train_gkmsvm``
  needs equal lengths);
* ``gkmsvm_nystrom``: its Nystrom mode (``train_gkmsvm(solver="nystrom")``,
  ``gkmsvm.train._fit_nystrom``) re-done here for mixed lengths with the same
  steps: ``min(N, max(1000, int(10 sqrt(N))))`` landmarks drawn by
  ``RandomState(42)``, K_mm and K_nm, features ``K_nm U Lambda^-1/2`` (small
  eigenvalues dropped as there), the approximated N x N Gram matrix, SVC,
  and scoring by the exact kernel against the support vectors (below 1000
  records every record is a landmark: the exact model, computed twice).

Every (method, n) cell runs in a fresh subprocess that generates the data
from the seed, fits once untimed on 20 + 20 records (numba compiles or loads
its cache), then times ``fit`` (wall and CPU seconds of the process, all
threads) and ``decision_function`` on the held-out set, and reports the
process's peak resident memory (``VmHWM``; also the peak before the fit,
i.e. the data and the libraries). The quadratic methods (kernel, gkmsvm,
gkmsvm_nystrom) first get an estimate: from the largest cell of the method
already run, else from a pilot cell at ``--pilot-n`` records (scored on
``--pilot-test`` records): fit ~ kernel values computed (n^2; Nystrom
m^2 / 2 + n m for m landmarks) and scoring ~ n (support vectors) x held-out
records; a cell whose estimate exceeds ``--budget`` seconds, or
whose n x n matrices would not fit in the available memory, is not run and
gets a "skipped" row. A cell that runs is stopped after twice the budget.

Goals (issue 27), printed as PASS / FAIL: at 5e4 records the linear fit
takes < 10 min and < 8 GiB (peak of the whole child process); held-out AUC
of linear within 0.01 of kernel wherever both ran; within 0.02 of the oracle
(the better of the two) at 5e4.

Output: a markdown table on stdout and JSON (``--out``, default
benchmarks/gkm_scale.json, gkm_scale_quick.json with --quick), rewritten
after every cell.

    python benchmarks/bench_gkm_scale.py                  # everything (hours)
    python benchmarks/bench_gkm_scale.py --quick          # smoke test, minutes
    python benchmarks/bench_gkm_scale.py --sizes 2e3 1e4 5e4 --methods linear,kernel
    python benchmarks/bench_gkm_scale.py --sizes 2e3 --plan-only   # pilots only
"""

from __future__ import annotations

import argparse
import datetime
import inspect
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _p in (str(ROOT), str(HERE)):  # a checkout without installing; the sibling
    if _p not in sys.path:
        sys.path.insert(0, _p)

SIZES = (2000, 10_000, 50_000, 200_000)
QUICK_SIZES = (500, 1000)
N_TEST = 4000
QUICK_TEST = 1000
PILOT_N, PILOT_TEST = 500, 500
QUICK_PILOT_N, QUICK_PILOT_TEST = 200, 200
BUDGET = 1800.0
LENGTHS = (200, 300)  # inclusive
GC = 0.42
BACKGROUND = np.array([(1 - GC) / 2, GC / 2, GC / 2, (1 - GC) / 2])  # A C G T
IN_POSITIVES, IN_NEGATIVES = 0.6, 0.03
CHUNK = 5000  # records per class in one seeded chunk (sampling cost ~ calls)
WARM_UP = 20  # per class, untimed fit (numba)
GKM = {"l": 11, "k": 7, "reverse_complement": True, "C": 1.0}
METHODS = ("linear", "linear_cv", "kernel", "gkmsvm", "gkmsvm_nystrom")
QUADRATIC = ("kernel", "gkmsvm", "gkmsvm_nystrom")
LABELS = {
    "linear": 'poimkit GkmSVC solver="linear"',
    "kernel": 'poimkit GkmSVC solver="kernel"',
    "gkmsvm": "gkmsvm-lite exact (gkm_esttrunc, full Gram + SVC)",
    "gkmsvm_nystrom": "gkmsvm-lite Nystrom (gkm_esttrunc)",
}
#: n x n float64 matrices alive at the peak of a fit (memory check)
GRAM_COPIES = {"kernel": 2, "gkmsvm": 4, "gkmsvm_nystrom": 2}
GOAL_N = 50_000
GOAL_FIT_S, GOAL_GIB = 600.0, 8.0
GOAL_VS_KERNEL, GOAL_VS_ORACLE = 0.01, 0.02

# NFE2 / AP-1-like 12-mer (A C G T per column): MARE core TGCTGA(G/C)TCA with
# degenerate flanks; mean information about 1.27 bits per column.
PWM = np.array(
    [
        [0.45, 0.05, 0.45, 0.05],  # A/G
        [0.03, 0.03, 0.03, 0.91],  # T
        [0.03, 0.03, 0.91, 0.03],  # G
        [0.02, 0.94, 0.02, 0.02],  # C
        [0.02, 0.02, 0.02, 0.94],  # T
        [0.02, 0.02, 0.94, 0.02],  # G
        [0.94, 0.02, 0.02, 0.02],  # A
        [0.03, 0.47, 0.47, 0.03],  # G/C
        [0.02, 0.02, 0.02, 0.94],  # T
        [0.02, 0.94, 0.02, 0.02],  # C
        [0.91, 0.03, 0.03, 0.03],  # A
        [0.10, 0.35, 0.10, 0.45],  # T/C
    ]
)

_START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - _START:7.1f} s] {message}", file=sys.stderr)


# --------------------------------------------------------------------------- #
# data
# --------------------------------------------------------------------------- #
def pwm_bits(pwm: np.ndarray = PWM) -> float:
    """Mean information content per column (bits, against uniform letters)."""
    return float(np.mean(2 + (pwm * np.log2(pwm)).sum(axis=1)))


def _chunk(seed: int, stream: int, index: int) -> tuple[list[str], list[str]]:
    """One seeded chunk: CHUNK positives and CHUNK negatives, in draw order."""
    from poimkit import decode
    from poimkit.background import MarkovBackground
    from poimkit.datasets import PlantedMotif, make_motif_data

    rng = np.random.default_rng(np.random.SeedSequence([seed, stream, index]))
    lengths = rng.integers(LENGTHS[0], LENGTHS[1] + 1, size=2 * CHUNK)
    y = np.r_[np.ones(CHUNK, dtype=np.int64), np.zeros(CHUNK, dtype=np.int64)]
    seqs: list[str] = [""] * (2 * CHUNK)
    m = PWM.shape[0]
    for length in np.unique(lengths):
        length = int(length)
        pos = np.flatnonzero((lengths == length) & (y == 1))
        neg = np.flatnonzero((lengths == length) & (y == 0))
        motif = PlantedMotif(
            PWM,
            (1, length - m + 1),
            mutation="none",
            reverse_complement=0.5,
            in_positives=IN_POSITIVES,
            in_negatives=IN_NEGATIVES,
        )
        background = MarkovBackground.from_letter_probabilities(BACKGROUND, length)
        X, _ = make_motif_data(
            len(pos), len(neg), length, [motif], background, random_state=rng
        )
        for row, s in zip(np.r_[pos, neg], decode(X), strict=True):
            seqs[row] = s
    return seqs[:CHUNK], seqs[CHUNK:]


def make_data(n: int, seed: int, stream: int) -> tuple[list[str], np.ndarray]:
    """Balanced set of n records: the first n // 2 + n - n // 2 of the chunks.

    Prefix-consistent: the records of a smaller n are among those of a larger
    one (same seed and stream). Rows are shuffled (seeded by n).
    """
    n_pos, n_neg = n - n // 2, n // 2
    pos: list[str] = []
    neg: list[str] = []
    index = 0
    while len(pos) < n_pos or len(neg) < n_neg:
        p, q = _chunk(seed, stream, index)
        pos += p
        neg += q
        index += 1
    seqs = pos[:n_pos] + neg[:n_neg]
    y = np.r_[np.ones(n_pos, dtype=np.int64), np.zeros(n_neg, dtype=np.int64)]
    order = np.random.default_rng([seed, stream, n]).permutation(n)
    return [seqs[i] for i in order], y[order]


def train_data(n: int, seed: int):
    return make_data(n, seed, 0)


def test_data(n: int, seed: int):
    return make_data(n, seed, 1)


def oracle_scores(seqs: list[str]) -> dict[str, np.ndarray]:
    """PWM scan (max log-odds) and log mean likelihood ratio, both strands."""
    from scipy.special import logsumexp

    m = PWM.shape[0]
    lod = np.log(PWM / BACKGROUND)  # (m, 4)
    lod_rc = lod[::-1, ::-1]  # the motif read on the other strand
    table = np.full((256,), 4, dtype=np.intp)
    for code, letter in enumerate(b"ACGT"):
        table[letter] = code
    width = max(len(s) for s in seqs)
    X = np.full((len(seqs), width), 4, dtype=np.intp)  # 4: padding
    for i, s in enumerate(seqs):
        X[i, : len(s)] = table[np.frombuffer(s.encode(), dtype=np.uint8)]
    windows = np.lib.stride_tricks.sliding_window_view(X, m, axis=1)
    cols = np.arange(m)
    out = []
    for table_ in (lod, lod_rc):
        padded = np.concatenate([table_, np.full((m, 1), -np.inf)], axis=1)
        out.append(padded[cols, windows].sum(axis=2))  # (n, W)
    both = np.concatenate(out, axis=1)
    n_windows = 2 * (np.array([len(s) for s in seqs]) - m + 1)
    return {
        "oracle_max": both.max(axis=1),
        "oracle_lr": logsumexp(both, axis=1) - np.log(n_windows),
    }


# --------------------------------------------------------------------------- #
# gkmsvm-lite's Nystrom mode for mixed lengths
# --------------------------------------------------------------------------- #
def _gkmsvm_nystrom_class():
    from bench_kernels_real import GkmsvmLite, _length_groups, _raw_block

    def kernel_matrix(kernel, a: list[str], b: list[str] | None = None) -> np.ndarray:
        """Normalised kernel of a with b (None: with a; ``compute_gram``'s tiles).

        Blocks per pair of length groups; with b None only the upper blocks are
        computed and mirrored, as ``gkmsvm.gram.compute_gram`` does.
        """
        ga = _length_groups(kernel, a, rc=b is None)
        gb = ga if b is None else _length_groups(kernel, b)
        out = np.empty((len(a), len(a) if b is None else len(b)))
        for i, x in enumerate(ga):
            for j, z in enumerate(gb):
                if b is None and j < i:
                    continue
                block = _raw_block(kernel, x, z)
                if kernel.normalize:
                    norm = np.clip(np.sqrt(np.outer(x.diag, z.diag)), 1e-10, None)
                    block = block / norm
                out[np.ix_(x.rows, z.rows)] = block
                if b is None and j != i:
                    out[np.ix_(z.rows, x.rows)] = block.T
        return out

    class GkmsvmNystrom(GkmsvmLite):
        """``train_gkmsvm(solver="nystrom")`` (``_fit_nystrom``) for any lengths."""

        def __repr__(self) -> str:
            return "gkmsvm-lite Nystrom (defaults otherwise)"

        def fit(self, seqs: list[str], y) -> GkmsvmNystrom:
            from bench_kernels_real import gkmsvm_defaults
            from sklearn.svm import SVC

            y = np.asarray(y)
            kernel, self.kernel_type_ = self._kernel()
            N = len(seqs)
            m = min(N, max(1000, int(np.sqrt(N) * 10)))
            landmarks = np.sort(np.random.RandomState(42).choice(N, m, replace=False))
            marks = [seqs[i] for i in landmarks]
            start = time.perf_counter()
            K_mm = kernel_matrix(kernel, marks)
            K_nm = kernel_matrix(kernel, seqs, marks)
            self.gram_seconds_ = time.perf_counter() - start
            values, U = np.linalg.eigh(K_mm)
            valid = values > max(1e-10, values.max() * 1e-8)
            values, U = values[valid], U[:, valid]
            features = (K_nm @ U) / np.sqrt(values)[None, :]
            del K_nm, K_mm, U
            gram = features @ features.T
            del features
            C = gkmsvm_defaults()["C"]
            svc = SVC(C=C, kernel="precomputed").fit(gram, np.where(y == 1, 1, -1))
            del gram
            self.path_ = "grouped"
            self.kernel_ = kernel
            self.n_components_, self.rank_ = m, int(valid.sum())
            self.sv_seqs_ = [seqs[i] for i in svc.support_]
            self.coef_ = svc.dual_coef_[0].copy()
            self.bias_ = float(svc.intercept_[0])
            self.n_support_ = int(len(svc.support_))
            return self

    return GkmsvmNystrom


# --------------------------------------------------------------------------- #
# one cell, in a fresh process
# --------------------------------------------------------------------------- #
def solver_available() -> str | None:
    """None if GkmSVC takes ``solver``, else why not."""
    try:
        from poimkit import GkmSVC
    except ImportError as exc:
        return f"poimkit.GkmSVC not importable: {exc}"
    if "solver" not in inspect.signature(GkmSVC).parameters:
        return "not available: GkmSVC has no solver parameter yet"
    return None


class SelectedGkm:
    """``poimkit run``'s default gkm model: parameters by inner CV, then the fit."""

    def __repr__(self) -> str:
        return "GkmSVC(solver='linear') with strands and C chosen by inner CV"

    def fit(self, seqs, y):
        from sklearn.base import clone

        from poimkit import GkmSVC
        from poimkit.svm.selection import gkm_grid, select_parameters

        template = GkmSVC(l=GKM["l"], k=GKM["k"], solver="linear")
        grid = gkm_grid({"l": GKM["l"], "k": GKM["k"]}, linear=True)
        chosen = select_parameters(template, seqs, np.asarray(y), grid)
        self.params_ = {
            k: (v.item() if hasattr(v, "item") else v) for k, v in chosen.params.items()
        }
        self.model_ = clone(template).set_params(**chosen.params).fit(seqs, y)
        for name in ("n_support_", "solver_", "n_iter_", "converged_"):
            setattr(self, name, getattr(self.model_, name))
        return self

    def decision_function(self, seqs):
        return self.model_.decision_function(seqs)


def make_model(method: str):
    if method == "linear_cv":
        return SelectedGkm()
    if method in ("linear", "kernel"):
        from poimkit import GkmSVC

        if method == "kernel" and solver_available() is not None:
            return GkmSVC(**GKM)  # today's GkmSVC: the kernel matrix
        return GkmSVC(**GKM, solver=method)  # TypeError while it lacks solver
    from bench_kernels_real import GkmsvmLite

    if method == "gkmsvm":
        return GkmsvmLite(None)
    return _gkmsvm_nystrom_class()(None)


def _status_kib(field: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def peak_gib() -> float:
    kib = _status_kib("VmHWM")
    if kib is None:  # not Linux: getrusage (KiB on Linux, bytes on macOS)
        import resource

        kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        kib = kib / 1024 if sys.platform == "darwin" else kib
    return kib / 2**20


def child(args) -> None:
    """One (method, n) cell in this process; prints one ``RESULT`` json line."""
    import warnings

    from sklearn.metrics import roc_auc_score

    out: dict = {"method": args.method, "n": args.n, "n_test": args.n_test}
    t = time.perf_counter()
    seqs, y = train_data(args.n, args.seed)
    test, yt = test_data(args.n_test, args.seed)
    out["data_seconds"] = time.perf_counter() - t
    warm = np.r_[np.flatnonzero(y == 1)[:WARM_UP], np.flatnonzero(y == 0)[:WARM_UP]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = time.perf_counter()
        model = make_model(args.method)
        model.fit([seqs[i] for i in warm], y[warm]).decision_function(test[:8])
        out["warm_up_seconds"] = time.perf_counter() - t
    out["peak_before_fit_gib"] = peak_gib()
    model = make_model(args.method)
    out["model"] = repr(model)
    t, c = time.perf_counter(), time.process_time()
    model.fit(seqs, y)
    out["fit_seconds"] = time.perf_counter() - t
    out["fit_cpu_seconds"] = time.process_time() - c
    out["peak_fit_gib"] = peak_gib()
    t, c = time.perf_counter(), time.process_time()
    scores = np.asarray(model.decision_function(test), dtype=np.float64)
    out["score_seconds"] = time.perf_counter() - t
    out["score_cpu_seconds"] = time.process_time() - c
    out["auc"] = float(roc_auc_score(yt, scores))
    n_sv = getattr(model, "n_support_", None)
    if n_sv is not None:
        out["n_support"] = int(np.sum(n_sv))
    for name in (
        "solver_",
        "n_iter_",
        "converged_",
        "gram_seconds_",
        "rank_",
        "params_",
    ):
        value = getattr(model, name, None)
        if value is not None:
            out[name.rstrip("_")] = np.asarray(value).tolist()
    out["peak_gib"] = peak_gib()
    print("RESULT " + json.dumps(out, default=str), flush=True)


def run_cell(method: str, n: int, n_test: int, args, timeout=None) -> dict:
    cmd = [sys.executable, __file__, "--child", method, "--n", str(n)]
    cmd += ["--n-test", str(n_test), "--seed", str(args.seed)]
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {
            "method": method,
            "n": n,
            "error": f"stopped after {timeout:.0f} s (twice the budget)",
        }
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            out = json.loads(line[7:])
            out["cell_seconds"] = time.perf_counter() - start
            return out
    lines = proc.stderr.strip().splitlines() or ["no output"]
    return {"method": method, "n": n, "error": lines[-1], "stderr": lines[-20:]}


# --------------------------------------------------------------------------- #
# the plan: estimates, budget, memory
# --------------------------------------------------------------------------- #
def available_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 2**20
    except OSError:
        pass
    return None


def landmarks(n: int) -> int:
    """gkmsvm-lite's default number of Nystrom landmarks (``_fit_nystrom``)."""
    return min(n, max(1000, int(np.sqrt(n) * 10)))


def kernel_evaluations(method: str, n: int) -> float:
    """Kernel values a fit computes: n^2 / 2, Nystrom m^2 / 2 + n m."""
    if method == "gkmsvm_nystrom":
        m = landmarks(n)
        return m * m / 2 + n * m
    return n * n / 2


def estimate(ref: dict, n: int, n_test: int) -> float:
    """Seconds of a cell from a smaller one.

    Fit ~ kernel values computed (n^2, Nystrom m^2 / 2 + n m; its SVC on the
    approximated n x n matrix is left out), scoring ~ n (support vectors) x
    held-out records.
    """
    method = ref["method"]
    fit = kernel_evaluations(method, n) / kernel_evaluations(method, ref["n"])
    score = n / ref["n"] * n_test / ref["n_test"]
    return ref["fit_seconds"] * fit + ref["score_seconds"] * score


def gram_gib(method: str, n: int) -> float:
    return GRAM_COPIES[method] * 8 * n * n / 2**30


# --------------------------------------------------------------------------- #
# report
# --------------------------------------------------------------------------- #
def _f(x, spec=".1f") -> str:
    return "-" if x is None else format(x, spec)


def _count(x) -> str:
    """n_iter_ / n_support_ as stored: an int, a list, or missing."""
    return "-" if x is None else str(x)


def table(cells: list[dict], oracle: dict) -> str:
    lines = [
        "| n | method | fit s (wall) | fit s (CPU) | score s | peak GiB | "
        "held-out AUC | n_iter | support vectors | note |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in cells:
        label = LABELS.get(c["method"], c["method"])
        if "auc" not in c:
            note = c.get("skipped") or c.get("error") or ""
            lines.append(f"| {c['n']} | {label} | - | - | - | - | - | - | - | {note} |")
            continue
        note = []
        if "estimated_seconds" in c:
            note.append(
                f"estimate {c['estimated_seconds']:.0f} s "
                f"from n={c['estimated_from_n']}"
            )
        if c.get("solver"):
            note.append(f"solver_ {c['solver']}")
        if c.get("converged") is False:
            note.append("NOT converged")
        note.append(f"before fit {c['peak_before_fit_gib']:.2f} GiB")
        lines.append(
            f"| {c['n']} | {label} | {c['fit_seconds']:.1f} | "
            f"{c['fit_cpu_seconds']:.1f} | {c['score_seconds']:.1f} | "
            f"{c['peak_gib']:.2f} | {c['auc']:.4f} | {_count(c.get('n_iter'))} | "
            f"{_count(c.get('n_support'))} | {'; '.join(note)} |"
        )
    for name, auc in oracle.items():
        lines.append(
            f"| - | {name} (true PWM, no training) | - | - | - | - | "
            f"{auc:.4f} | - | - | held-out set |"
        )
    return "\n".join(lines)


def _cell(cells, method, n):
    for c in cells:
        if c["method"] == method and c["n"] == n and "auc" in c:
            return c
    return None


def goals(cells: list[dict], oracle: dict) -> list[str]:
    lines = []
    lin = _cell(cells, "linear", GOAL_N)
    text = f"n={GOAL_N}: linear fit < {GOAL_FIT_S:.0f} s and < {GOAL_GIB:.0f} GiB"
    if lin is None:
        lines.append(f"NOT MEASURED {text}")
    else:
        ok = lin["fit_seconds"] < GOAL_FIT_S and lin["peak_gib"] < GOAL_GIB
        lines.append(
            f"{'PASS' if ok else 'FAIL'} {text}: {lin['fit_seconds']:.1f} s, "
            f"{lin['peak_gib']:.2f} GiB peak"
        )
    both = [
        (a, b)
        for a in cells
        if a["method"] == "linear" and "auc" in a
        for b in [_cell(cells, "kernel", a["n"])]
        if b is not None
    ]
    if not both:
        lines.append(
            f"NOT MEASURED linear AUC within {GOAL_VS_KERNEL} of kernel (no size "
            "where both ran)"
        )
    for a, b in both:
        diff = a["auc"] - b["auc"]
        ok = abs(diff) <= GOAL_VS_KERNEL
        lines.append(
            f"{'PASS' if ok else 'FAIL'} n={a['n']}: linear AUC within "
            f"{GOAL_VS_KERNEL} of kernel: {a['auc']:.4f} vs {b['auc']:.4f} "
            f"({diff:+.4f})"
        )
    best = max(oracle, key=oracle.get)
    for method in ("linear", "linear_cv"):
        cell = _cell(cells, method, GOAL_N)
        text = f"n={GOAL_N}: {method} AUC within {GOAL_VS_ORACLE} of the oracle"
        if cell is None:
            lines.append(f"NOT MEASURED {text}")
            continue
        diff = cell["auc"] - oracle[best]
        ok = diff >= -GOAL_VS_ORACLE
        lines.append(
            f"{'PASS' if ok else 'FAIL'} {text}: {cell['auc']:.4f} vs {best} "
            f"{oracle[best]:.4f} ({diff:+.4f})"
        )
    return lines


# --------------------------------------------------------------------------- #
def parse_sizes(text: list[str]) -> list[int]:
    return [int(float(s)) for s in text]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument(
        "--sizes",
        nargs="+",
        help=f"training records (default {' '.join(map(str, SIZES))}; "
        f"{' '.join(map(str, QUICK_SIZES))} with --quick)",
    )
    parser.add_argument(
        "--methods", default=",".join(METHODS), help="comma-separated subset"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"sizes {QUICK_SIZES}, {QUICK_TEST} held-out records, pilots at "
        f"{QUICK_PILOT_N}",
    )
    parser.add_argument("--n-test", type=int, help=f"held-out records ({N_TEST})")
    parser.add_argument(
        "--budget",
        type=float,
        default=BUDGET,
        help="seconds per cell (fit + scoring) for the quadratic methods",
    )
    parser.add_argument("--pilot-n", type=int, help=f"pilot records ({PILOT_N})")
    parser.add_argument(
        "--pilot-test", type=int, help=f"pilot held-out records ({PILOT_TEST})"
    )
    parser.add_argument(
        "--plan-only",
        action="store_true",
        help="run the pilots and print every cell's estimate, run no cell",
    )
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--out", type=Path, help="JSON file")
    parser.add_argument("--child", choices=METHODS, help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        args.method = args.child
        child(args)
        return 0

    import bench_kernels_real as bkr
    from sklearn.metrics import roc_auc_score

    sizes = sorted(
        parse_sizes(args.sizes) if args.sizes else QUICK_SIZES if args.quick else SIZES
    )
    n_test = args.n_test or (QUICK_TEST if args.quick else N_TEST)
    pilot_n = args.pilot_n or (QUICK_PILOT_N if args.quick else PILOT_N)
    pilot_test = args.pilot_test or (QUICK_PILOT_TEST if args.quick else PILOT_TEST)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = set(methods) - set(METHODS)
    if unknown:
        parser.error(f"unknown method(s) {sorted(unknown)}; known: {METHODS}")
    path = args.out or HERE / (
        "gkm_scale_quick.json" if args.quick else "gkm_scale.json"
    )
    command = "python benchmarks/bench_gkm_scale.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    load_start = os.getloadavg()

    log(f"held-out set: {n_test} records, oracles")
    test, yt = test_data(n_test, args.seed)
    oracle = {
        name: float(roc_auc_score(yt, s)) for name, s in oracle_scores(test).items()
    }
    log(f"oracle AUC: {oracle}")
    no_solver = solver_available()
    no_peer = (
        None if bkr.gkmsvm is not None else "not available: gkmsvm-lite not installed"
    )

    cells: list[dict] = []
    pilots: dict[str, dict] = {}
    document = {
        "benchmark": "gkm_scale",
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "command": command.strip(),
        "settings": {
            "sizes": sizes,
            "methods": methods,
            "n_test": n_test,
            "budget_seconds": args.budget,
            "pilot_n": pilot_n,
            "pilot_test": pilot_test,
            "seed": args.seed,
            "lengths": LENGTHS,
            "gc": GC,
            "pwm": PWM.tolist(),
            "pwm_bits_per_column": pwm_bits(),
            "in_positives": IN_POSITIVES,
            "in_negatives": IN_NEGATIVES,
            "gkm_params": GKM,
            "gkmsvm_defaults": bkr.gkmsvm_defaults() if no_peer is None else None,
            "quick": args.quick,
            "plan_only": args.plan_only,
        },
        "machine": bkr.machine(),
        "versions": bkr.versions(),
        "load_average_start": load_start,
        "oracle_auc": oracle,
        "pilots": pilots,
        "cells": cells,
    }

    def save() -> None:
        document["total_seconds"] = time.perf_counter() - _START
        document["load_average_end"] = os.getloadavg()
        path.write_text(json.dumps(bkr._jsonable(document), indent=1) + "\n")

    for n in sizes:
        for method in methods:
            cell = {"method": method, "n": n}
            reason = None
            if method.startswith("linear"):
                reason = no_solver
            if method.startswith("gkmsvm"):
                reason = no_peer
            if reason is None and method in QUADRATIC:
                need, have = gram_gib(method, n), available_gib()
                ref = [c for c in cells if c["method"] == method and "auc" in c]
                if have is not None and need > 0.9 * have:
                    reason = (
                        f"skipped: needs ~{need:.0f} GiB for n x n matrices > "
                        f"{have:.0f} GiB available"
                    )
                else:
                    if not ref and method not in pilots:
                        log(f"{method}: pilot at n={pilot_n}, {pilot_test} held out")
                        pilots[method] = run_cell(method, pilot_n, pilot_test, args)
                        log(f"{method}: pilot {pilots[method]}")
                        save()
                    base = ref[-1] if ref else pilots[method]
                    if "auc" not in base:
                        reason = f"pilot failed: {base.get('error')}"
                    else:
                        cell["estimated_seconds"] = estimate(base, n, n_test)
                        cell["estimated_from_n"] = base["n"]
                        if cell["estimated_seconds"] > args.budget:
                            reason = (
                                f"skipped: pilot estimate "
                                f"{cell['estimated_seconds']:.0f} s > budget "
                                f"{args.budget:.0f} s"
                            )
            if reason is None and args.plan_only:
                reason = "plan only" + (
                    f": estimate {cell['estimated_seconds']:.0f} s"
                    if "estimated_seconds" in cell
                    else ""
                )
            if reason is not None:
                cell["skipped"] = reason
                log(f"n={n} {method}: {reason}")
                cells.append(cell)
                save()
                continue
            log(
                f"n={n} {method}: running"
                + (
                    f" (estimate {cell['estimated_seconds']:.0f} s)"
                    if "estimated_seconds" in cell
                    else ""
                )
            )
            timeout = 2 * args.budget if method in QUADRATIC else None
            result = run_cell(method, n, n_test, args, timeout)
            if (
                method == "linear"
                and "error" in result
                and "TypeError" in result["error"]
            ):
                result["error"] = f"not available: {result['error']}"
            cell.update(result)
            log(f"n={n} {method}: {cell.get('auc', cell.get('error'))}")
            cells.append(cell)
            save()

    lines = goals(cells, oracle)
    document["goals"] = lines
    save()
    info, vers = document["machine"], document["versions"]
    print("gkm SVMs at ENCODE scale (issue 27): held-out AUC, time, peak memory")
    print(f"command: {command.strip()}")
    print(
        f"machine: {info['cpu']}, {info['cores']} cores, {info['ram_gib']} GiB; "
        f"numba {vers['numba']} ({info['numba_threads']} threads); poimkit "
        f"{vers['poimkit']}, gkmsvm-lite {vers['gkmsvm-lite']}"
    )
    print(
        f"data: lengths {LENGTHS[0]}-{LENGTHS[1]}, GC {GC}, 12-column PWM "
        f"({pwm_bits():.2f} bits/column) on either strand in "
        f"{IN_POSITIVES:.0%} of positives, {IN_NEGATIVES:.0%} of negatives; "
        f"balanced training sets, {n_test} held-out records, seed {args.seed}"
    )
    for method, p in pilots.items():
        if "auc" in p:
            print(
                f"pilot {method}: n={p['n']}, {p['n_test']} held out: fit "
                f"{p['fit_seconds']:.1f} s, score {p['score_seconds']:.1f} s, "
                f"peak {p['peak_gib']:.2f} GiB"
            )
        else:
            print(f"pilot {method}: failed: {p.get('error')}")
    print(
        "load average (1, 5, 15 min): at start "
        + ", ".join(f"{v:.2f}" for v in load_start)
        + "; at end "
        + ", ".join(f"{v:.2f}" for v in os.getloadavg())
    )
    print(f"total {(time.perf_counter() - _START) / 60:.1f} min")
    print()
    print(table(cells, oracle))
    print("\ngoals" + (" (--quick: not the goals' sizes):" if args.quick else ":"))
    print("\n".join(f"  {line}" for line in lines))
    log(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
