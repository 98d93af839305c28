"""A cell (method x size) of ``bench_gkm_scale.py`` in a child process; its cost."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from gkm_scale_config import (
    GKM,
    GRAM_COPIES,
    WARM_UP,
)
from gkm_scale_data import (
    test_data,
    train_data,
)
from gkm_scale_peers import gkmsvm_nystrom_class

#: the script whose ``--child`` runs a cell
SCRIPT = Path(__file__).resolve().parent / "bench_gkm_scale.py"


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
    from kernels_real_peers import GkmsvmLite

    if method == "gkmsvm":
        return GkmsvmLite(None)
    return gkmsvm_nystrom_class()(None)


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
    cmd = [sys.executable, str(SCRIPT), "--child", method, "--n", str(n)]
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
