"""Why the final gkm fit of a genome-scale run grows faster than n log n.

Issue 58. The final fit of ``run --bed`` at 10^5-10^6 peaks is `GkmSVC`'s
linear solver (L-BFGS in sequence space, `poimkit.svm.gkm_solver`) on every
record. One L-BFGS step is linear in the records; this script measures how
the number of steps grows with the records and with C, on the records of an
earlier ``genome_scale_run.py`` run (its genomic negatives and the peaks they
were matched to), and tries two starts that could save steps:

* ``warm``: from the model of a sample of ``--sample`` records, fitted at
  ``C * n / sample`` (the same regularisation per record) or at C, mapped to
  the full set's coefficients (the stopping rule keeps the gradient at zero
  as its reference);
* ``centred``: the kernel centred in feature space (with the bias not
  penalised, an exact reparametrisation: the same optimum).

Each row prints the records, C, the steps, the seconds and the AUC on
20,000 records held out. ``--memory-fits`` then runs the solver's L-BFGS
(`poimkit.svm.linear.lbfgs.minimize`) from zero with each number of
correction pairs in ``--memories`` (the solver keeps
`poimkit.svm.linear.lbfgs.MEMORY`).

Usage: ``python benchmarks/gkm_fit_iterations.py --genome G.fa
--negatives RUN/negatives.bed [--sizes 60000,200000,600000] [--Cs 0.01,0.1]
[--starts 200000:0.1] [--memory-fits 200000:0.1] [--memories 10,30,60]
[--out benchmarks/gkm_fit_iterations.json]``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_info import jsonable, machine, versions  # noqa: E402

HELD_OUT = 20_000
LOSS = "squared_hinge"


def read_records(genome: str, negatives: str, pairs: int, seed: int):
    """``pairs`` negatives of the BED and the positive windows they were matched to."""
    import pyfaidx

    lines = [line.split("\t") for line in Path(negatives).read_text().splitlines()]
    rng = np.random.default_rng(seed)
    chosen = rng.choice(len(lines), min(pairs, len(lines)), replace=False)
    fasta = pyfaidx.Fasta(genome, sequence_always_upper=True)
    lut = np.full(256, 255, dtype=np.uint8)
    lut[np.frombuffer(b"ACGT", dtype=np.uint8)] = np.arange(4, dtype=np.uint8)

    def window(chrom: str, start: int, end: int) -> np.ndarray:
        text = str(fasta[chrom][start:end]).encode()
        return lut[np.frombuffer(text, dtype=np.uint8)]

    X, y = [], []
    for i in chosen:
        chrom, start, end, name = lines[i][:4]
        where, span = name.split("(")[0].rsplit(":", 1)
        lo, hi = map(int, span.split("-"))
        X += [window(where, lo, hi), window(chrom, int(start), int(end))]
        y += [1, -1]
    return np.array(X), np.array(y)


def fit(X, y, C: float):
    """`GkmSVC` by the linear solver: the model, its steps and seconds."""
    from poimkit.svm.gkm import GkmSVC

    model = GkmSVC(l=11, k=7, C=C, solver="linear")
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(list(X), y)
    return model, model.n_iter_, time.perf_counter() - started


def lbfgs_from(gram, y: np.ndarray, C: float, start: np.ndarray | None, tol=1e-3):
    """L-BFGS as `poimkit.svm.linear.lbfgs.minimize`, from ``start``: its steps.

    ``start``: coefficients then bias (None: zero). The reference of the
    stopping rule stays the gradient norm at zero.
    """
    from poimkit.svm.linear import lbfgs as L
    from poimkit.svm.linear.losses import score_terms

    n = y.size
    w = np.zeros((2, n + 1))

    def grad_at(w):
        f = L._scores(w)
        _, d1, _ = score_terms(LOSS, f, y, 0.0)
        u = C * d1
        g = w.copy()
        g[0, :-1] += u
        g[1, :-1] += gram.gram(u)
        g[:, -1] = math.fsum(u)
        return g, f

    def norm(v):
        return math.sqrt(max(L._dot(v, v), 0.0))

    g, f = grad_at(w)
    g0 = norm(g)
    if start is not None:
        w[0] = start
        w[1, :-1] = gram.gram(start[:-1])
        w[1, -1] = start[-1]
        g, f = grad_at(w)
    s_hist, y_hist, rho, steps, gnorm = [], [], [], 0, norm(g)
    while gnorm > tol * g0 and steps < 1000:
        q, alphas = g.copy(), []
        for s, yv, r in zip(
            reversed(s_hist), reversed(y_hist), reversed(rho), strict=True
        ):
            a = r * L._dot(s, q)
            alphas.append(a)
            q -= a * yv
        if s_hist:
            q *= L._dot(s_hist[-1], y_hist[-1]) / L._dot(y_hist[-1], y_hist[-1])
        else:
            q /= max(gnorm, 1.0)
        for s, yv, r, a in zip(s_hist, y_hist, rho, reversed(alphas), strict=True):
            q += (a - r * L._dot(yv, q)) * s
        d = -q
        t = L._line_search(
            L._dot_penalised(w, d), L._dot_penalised(d, d), f, L._scores(d), y, C, LOSS
        )
        if t == 0.0:
            break
        step = t * d
        w = w + step
        g_new, f = grad_at(w)
        y_vec = g_new - g
        sy = L._dot(step, y_vec)
        if sy > 1e-12 * L._dot(step, step):
            s_hist.append(step)
            y_hist.append(y_vec)
            rho.append(1.0 / sy)
            if len(s_hist) > 10:
                s_hist.pop(0), y_hist.pop(0), rho.pop(0)
        g, gnorm, steps = g_new, norm(g_new), steps + 1
    return steps


class Centred:
    """``K u`` of the kernel centred in feature space (`lbfgs_from`'s ``gram``)."""

    def __init__(self, gram, n: int) -> None:
        self.inner = gram
        self.mean_row = gram.gram(np.ones(n)) / n
        self.mean = float(self.mean_row.mean())

    def gram(self, u: np.ndarray) -> np.ndarray:
        total = u.sum()
        row = self.mean_row
        return self.inner.gram(u) - row * total - row @ u + self.mean * total


def draw_gram(X, y, n: int, C: float, rng: np.random.Generator):
    """``n`` records drawn by ``rng``, their labels as floats and their l-mer gram."""
    from poimkit.svm.gkm import GkmSVC

    rows = np.sort(rng.choice(y.size, n, replace=False))
    X, y = X[rows], y[rows].astype(np.float64)
    return X, y, GkmSVC(l=11, k=7, C=C, solver="linear")._lmer_gram(list(X))


def starts(X, y, n: int, C: float, sample: int, seed: int) -> list[dict]:
    """Steps from zero, from a sample's model (two Cs) and with the kernel centred."""
    rng = np.random.default_rng(seed)
    X, y, gram = draw_gram(X, y, n, C, rng)
    out = []
    started = time.perf_counter()
    out.append({"start": "zero", "steps": lbfgs_from(gram, y, C, None)})
    out[-1]["seconds"] = round(time.perf_counter() - started, 1)
    for per_record in (True, False):
        part = np.sort(rng.choice(n, sample, replace=False))
        C_sample = C * n / sample if per_record else C
        model, _, seconds_sample = fit(X[part], y[part].astype(int), C_sample)
        start = np.zeros(n + 1)
        start[part[model._gram_support]] = model.dual_coef_
        start[-1] = model.intercept_
        started = time.perf_counter()
        steps = lbfgs_from(gram, y, C, start)
        out.append(
            {
                "start": f"sample of {sample} at C={C_sample:g}",
                "steps": steps,
                "seconds": round(time.perf_counter() - started, 1),
                "sample_seconds": round(seconds_sample, 1),
            }
        )
    started = time.perf_counter()
    steps = lbfgs_from(Centred(gram, n), y, C, None)
    out.append({"start": "zero, centred", "steps": steps})
    out[-1]["seconds"] = round(time.perf_counter() - started, 1)
    for row in out:
        row.update(n=n, C=C)
        print(json.dumps(row), flush=True)
    return out


def memories(X, y, n: int, C: float, values: list[int], seed: int) -> list[dict]:
    """Steps of the solver's L-BFGS from zero with each number of correction pairs."""
    from poimkit.svm.linear.lbfgs import minimize

    _, y, gram = draw_gram(X, y, n, C, np.random.default_rng(seed))
    out = []
    for memory in values:
        started = time.perf_counter()
        result = minimize(gram, y, C, LOSS, 1e-3, 1000, memory=memory)
        out.append(
            {
                "n": n,
                "C": C,
                "memory": memory,
                "steps": result.n_iter,
                "seconds": round(time.perf_counter() - started, 1),
                "objective": result.objective,
            }
        )
        print(json.dumps(out[-1]), flush=True)
    return out


def main(argv: list[str] | None = None) -> None:
    from sklearn.metrics import roc_auc_score

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--genome", required=True)
    parser.add_argument("--negatives", required=True)
    parser.add_argument("--sizes", default="60000,200000,600000")
    parser.add_argument("--Cs", default="0.01,0.1")
    parser.add_argument("--starts", default="200000:0.1", help="n:C,... ('' none)")
    parser.add_argument("--memory-fits", default="200000:0.1", help="n:C,... ('' none)")
    parser.add_argument("--memories", default="10,30,60", help="correction pairs")
    parser.add_argument("--sample", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(HERE / "gkm_fit_iterations.json"))
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    Cs = [float(c) for c in args.Cs.split(",")]
    pairs = (max(sizes) + HELD_OUT) // 2  # and records held out at every size
    X, y = read_records(args.genome, args.negatives, pairs, args.seed)
    rng = np.random.default_rng(0)
    rows = []
    for n in sizes:
        for C in Cs:
            train = np.sort(rng.choice(y.size, n, replace=False))
            model, steps, seconds = fit(X[train], y[train], C)
            test = np.setdiff1d(np.arange(y.size), train)[:HELD_OUT]
            auc = None
            if test.size:
                auc = roc_auc_score(y[test], model.decision_function(list(X[test])))
            rows.append(
                {
                    "n": n,
                    "C": C,
                    "steps": steps,
                    "seconds": round(seconds, 1),
                    "auc": None if auc is None else round(float(auc), 4),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    tried = []
    for spec in filter(None, args.starts.split(",")):
        n, C = spec.split(":")
        tried += starts(X, y, int(n), float(C), args.sample, args.seed)
    by_memory = []
    values = [int(m) for m in args.memories.split(",")]
    for spec in filter(None, args.memory_fits.split(",")):
        n, C = spec.split(":")
        by_memory += memories(X, y, int(n), float(C), values, args.seed)
    document = {
        "benchmark": "gkm_fit_iterations",
        "negatives": args.negatives,
        "fits": rows,
        "starts": tried,
        "memories": by_memory,
        "machine": machine(),
        "versions": versions(),
    }
    Path(args.out).write_text(json.dumps(jsonable(document), indent=1) + "\n")


if __name__ == "__main__":
    main()
