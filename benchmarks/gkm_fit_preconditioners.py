"""Can a preconditioner keep the final gkm fit's L-BFGS steps from growing with C n?

Issue 58. `gkm_fit_iterations.py` found that the steps of `GkmSVC`'s linear
solver grow with C n (the Hessian ``I + C Phi^T D Phi`` of the primal L2-SVM).
This study runs the same L-BFGS (the same stopping rule, memory and exact line
search as `poimkit.svm.linear.lbfgs`) in the feature space of the gkm kernel
written in the Walsh-Hadamard basis of the l-mer table, where a preconditioner
``P`` can act (``H0 = gamma P^-1``). With ``t(x)`` the counts of x's l-mers on
both strands, H the unnormalised transform and ``lambda`` the kernel's
eigenvalues (`poimkit.kernels.gkm.hamming_eigenvalues`), a record's features
are ``phi(x) = a(x) lambda^1/2 H t(x)``: ``phi(x) . phi(x') = K(x, x')``.
Preconditioners tried (the bias has its own curvature, ``1 + 2 C n``):

* ``none``: ``P = I`` (the solver's own iterates, in another basis);
* ``walsh``: ``P`` diagonal, ``1 + C`` times the Hessian's diagonal averaged
  over every Walsh index of the same weight (from a sample of records);
* ``orbit``: ``P`` block-diagonal over the orbits of a Walsh index under
  moving it along the l-mer (a record's coefficients on an orbit are nearly
  equal: the same pattern at other columns of the window), each block the
  rank-one ``beta J`` fitted to a sample;
* ``nystrom:m``: ``P = I + (2 C n / m) Phi_m^T Phi_m`` of m records drawn at
  random (applied by the Woodbury identity on their kernel matrix).

The study calls the solver's numba kernels and line search itself (private
names, as `bench_kernel.py` does), so that its iterates are the solver's.
It also prints the largest eigenvalues of the normalised kernel matrix
(Lanczos through the l-mer table), which say how many directions a
preconditioner would have to capture. Each row prints the records, C, the
preconditioner, its steps, the seconds and the objective.

Usage: ``python benchmarks/gkm_fit_preconditioners.py --genome G.fa
--negatives RUN/negatives.bed [--records R.npz] [--sizes 60000] [--C 0.1]
[--preconditioners none,walsh,orbit,nystrom:1000,nystrom:3000] [--spectrum 30]
[--out benchmarks/gkm_fit_preconditioners.json]``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gkm_fit_iterations import read_records  # noqa: E402
from run_info import jsonable, machine, versions  # noqa: E402

LOSS = "squared_hinge"
L_MER, K_INFORMATIVE = 11, 7
SAMPLE_RECORDS = 32


class WalshSpace:
    """The records' features in the Walsh basis: scores of a vector, ``Phi^T u``."""

    def __init__(self, X: np.ndarray, C: float) -> None:
        from poimkit.kernels.gkm import letter_weights
        from poimkit.svm.gkm import GkmSVC

        model = GkmSVC(l=L_MER, k=K_INFORMATIVE, C=C, solver="linear")
        self.gram = model._lmer_gram(list(X))
        self.sqrt_lam = np.sqrt(self.gram.eigenvalues)
        self.weights = letter_weights(L_MER)

    def phi_t(self, u: np.ndarray, part: tuple | None = None) -> np.ndarray:
        """``sum_i u_i phi(x_i)`` over every record, or over a `part` of them."""
        from poimkit.kernels import _gkm  # private: see issue 31
        from poimkit.svm.gkm_solver import count_parts

        codes, offsets, scale = part or self.part(None)
        n_tables = min(count_parts(L_MER), offsets.size - 1)
        tables = np.zeros((n_tables, 4**L_MER))
        _gkm.lmer_counts_parts(codes, offsets, u * scale, L_MER, True, tables)
        t = tables.sum(axis=0)
        _gkm.walsh_hadamard(t)
        return t * self.sqrt_lam

    def scores(self, z: np.ndarray, part: tuple | None = None) -> np.ndarray:
        """``phi(x_i) . z`` of every record, or of a `part` of them."""
        from poimkit.kernels import _gkm  # private: see issue 31

        codes, offsets, scale = part or self.part(None)
        f = z * self.sqrt_lam
        # an l-mer table: every vector the solver forms is a sum of both strands'
        # features (each preconditioner commutes with the reverse complement), so
        # the table is too, and a record scores twice its forward strand
        _gkm.walsh_hadamard(f)
        out = np.empty(offsets.size - 1)
        _gkm.lmer_score_rows(codes, offsets, L_MER, f, out)
        return 2.0 * out * scale

    def part(self, rows: np.ndarray | None) -> tuple:
        """The codes, offsets and ``a(x)`` of ``rows`` (None: every record)."""
        g = self.gram
        if rows is None:
            return g.codes, g.offsets, g.inverse_scale
        lengths = np.diff(g.offsets)[rows]
        codes = np.concatenate([g.codes[g.offsets[r] : g.offsets[r + 1]] for r in rows])
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(g.offsets.dtype)
        return codes, offsets, g.inverse_scale[rows]

    def record_features(self, rows: np.ndarray):
        """Each of ``rows``' feature vectors in turn."""
        for r in rows:
            yield self.phi_t(np.ones(1), self.part(np.array([r])))


def shift_orbits(l: int) -> tuple[np.ndarray, int]:
    """Each Walsh index's orbit under moving it along the l-mer, and their number."""
    j = np.arange(4**l, dtype=np.int64)
    zeros = np.zeros(j.size, dtype=np.int64)  # empty letters before the first one
    leading = np.ones(j.size, dtype=bool)
    for p in range(l):
        leading &= ((j >> (2 * p)) & 3) == 0
        zeros += leading
    key = j >> (2 * np.minimum(zeros, l - 1))
    _, ids = np.unique(key, return_inverse=True)
    return ids.astype(np.int64), int(ids.max()) + 1


def make_preconditioner(name: str, space: WalshSpace, C: float, n: int, seed: int):
    """``v -> P^-1 v`` over the weights then the bias; None for ``P = I``."""
    if name == "none":
        return None
    rng = np.random.default_rng(seed)
    active = 2.0 * n  # every record inside the margin: l'' = 2
    bias = 1.0 / (1.0 + C * active)
    if name == "walsh":
        rows = rng.choice(n, SAMPLE_RECORDS, replace=False)
        count = np.bincount(space.weights).astype(float)
        features = space.record_features(rows)
        squares = (np.bincount(space.weights, h * h) for h in features)
        diagonal = (sum(squares) / SAMPLE_RECORDS / count)[space.weights]
        inverse = 1.0 / (1.0 + C * active * diagonal)
        return lambda v: np.append(inverse * v[:-1], bias * v[-1])
    if name == "orbit":
        ids, n_orbits = shift_orbits(L_MER)
        size = np.bincount(ids, minlength=n_orbits).astype(float)
        rows = rng.choice(n, SAMPLE_RECORDS, replace=False)
        sums = (np.bincount(ids, h, n_orbits) ** 2 for h in space.record_features(rows))
        beta = C * active * sum(sums) / SAMPLE_RECORDS / size**2
        coef = beta / (1.0 + beta * size)  # (I + beta J)^-1 = I - coef J
        return lambda v: np.append(
            v[:-1] - (coef * np.bincount(ids, v[:-1], n_orbits))[ids], bias * v[-1]
        )
    if name.startswith("nystrom:"):
        import scipy.linalg as sla

        from poimkit.kernels.gkm import gkm_kernel

        m = int(name.split(":")[1])
        part = space.part(np.sort(rng.choice(n, m, replace=False)))
        codes, offsets, a = part
        seqs = np.split(codes, offsets[1:-1])
        K = gkm_kernel(seqs, L_MER, K_INFORMATIVE, True) * np.outer(a, a)
        factor = sla.cho_factor(K + np.eye(m) * m / (C * active))

        def apply(v):
            c = sla.cho_solve(factor, space.scores(v[:-1], part))
            return np.append(v[:-1] - space.phi_t(c, part), bias * v[-1])

        return apply
    raise SystemExit(f"unknown preconditioner {name!r}")


def lbfgs(space, y, C, apply_inverse, tol=1e-3, memory=10, max_iter=1000):
    """L-BFGS on ``(z, b)`` with ``H0 = gamma P^-1``: steps and objective."""
    from poimkit.svm.linear.lbfgs import _line_search  # private: see issue 31
    from poimkit.svm.linear.losses import score_terms

    precondition = apply_inverse or (lambda v: v.copy())
    w, f = np.zeros(4**L_MER + 1), np.zeros(y.size)

    def gradient(w, f):
        value, d1, _ = score_terms(LOSS, f, y)
        u = C * d1
        g = w.copy()
        g[:-1] += space.phi_t(u)
        g[-1] = math.fsum(u)
        return g, 0.5 * float(w[:-1] @ w[:-1]) + C * value

    g, objective = gradient(w, f)
    g0 = gnorm = math.sqrt(g @ g)
    pairs: list[tuple[np.ndarray, np.ndarray, float]] = []
    steps = 0
    while gnorm > tol * g0 and steps < max_iter:
        q, alphas = g.copy(), []
        for s, yv, rho in reversed(pairs):
            alphas.append(rho * (s @ q))
            q -= alphas[-1] * yv
        q = precondition(q)
        if pairs:
            s, yv, _ = pairs[-1]
            q *= (s @ yv) / (yv @ precondition(yv))
        else:
            q /= max(math.sqrt(q @ q), 1.0)
        for (s, yv, rho), alpha in zip(pairs, reversed(alphas), strict=True):
            q += (alpha - rho * (yv @ q)) * s
        d = -q
        fd = space.scores(d[:-1]) + d[-1]
        wd, dd = float(w[:-1] @ d[:-1]), float(d[:-1] @ d[:-1])
        t = _line_search(wd, dd, f, fd, y, C, LOSS)
        if t == 0.0:
            break
        w, f = w + t * d, f + t * fd
        g_new, objective = gradient(w, f)
        s, yv = t * d, g_new - g
        if s @ yv > 1e-12 * (s @ s):
            pairs = [*pairs, (s, yv, 1.0 / (s @ yv))][-memory:]
        g, gnorm, steps = g_new, math.sqrt(g_new @ g_new), steps + 1
    return steps, objective


def top_eigenvalues(space: WalshSpace, n: int, k: int) -> list[float]:
    """The ``k`` largest eigenvalues of the normalised kernel matrix (diagonal ~1)."""
    from scipy.sparse.linalg import LinearOperator, eigsh

    op = LinearOperator((n, n), matvec=lambda u: space.gram.gram(np.ravel(u)))
    values = eigsh(op, k=k, which="LA", tol=1e-3, return_eigenvectors=False)
    return [round(float(v), 1) for v in np.sort(values)[::-1]]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--genome")
    parser.add_argument("--negatives")
    parser.add_argument("--records", help="X (n x width codes) and y of an .npz")
    parser.add_argument("--sizes", default="60000")
    parser.add_argument("--C", type=float, default=0.1)
    parser.add_argument(
        "--preconditioners", default="none,walsh,orbit,nystrom:1000,nystrom:3000"
    )
    parser.add_argument("--spectrum", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(HERE / "gkm_fit_preconditioners.json"))
    args = parser.parse_args(argv)
    sizes = [int(v) for v in args.sizes.split(",")]
    if args.records:
        with np.load(args.records, allow_pickle=False) as data:
            X_all, y_all = data["X"], data["y"].astype(np.float64)
    else:
        X_all, y_all = read_records(args.genome, args.negatives, max(sizes), args.seed)
    rows_out = []
    for n in sizes:
        rows = np.sort(np.random.default_rng(args.seed).permutation(y_all.size)[:n])
        X, y = X_all[rows], y_all[rows].astype(np.float64)
        space = WalshSpace(X, args.C)
        if args.spectrum:
            started = time.perf_counter()
            row = {"n": n, "top_eigenvalues": top_eigenvalues(space, n, args.spectrum)}
            row["seconds"] = round(time.perf_counter() - started, 1)
            print(json.dumps(row), flush=True)
            rows_out.append(row)
        for name in args.preconditioners.split(","):
            started = time.perf_counter()
            inverse = make_preconditioner(name, space, args.C, n, args.seed)
            built = time.perf_counter() - started
            steps, objective = lbfgs(space, y, args.C, inverse)
            row = {
                "n": n,
                "C": args.C,
                "preconditioner": name,
                "steps": steps,
                "seconds": round(time.perf_counter() - started, 1),
                "build_seconds": round(built, 1),
                "objective": round(objective, 4),
            }
            print(json.dumps(row), flush=True)
            rows_out.append(row)
    report = {
        "benchmark": "gkm_fit_preconditioners",
        "rows": rows_out,
        "machine": machine(),
        "versions": versions(),
    }
    Path(args.out).write_text(json.dumps(jsonable(report), indent=1) + "\n")


if __name__ == "__main__":
    main()
