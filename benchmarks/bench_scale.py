"""Scale benchmark of `WDLinearSVC`: training time and peak memory against n.

Synthetic splice-like data (L = 141, the donor-like motif CAGGTAAGT planted
around position 68 of the positives, one letter mutated per copy, uniform
background), WD degree 20, C = 1, the estimator's defaults otherwise (orders
1-6 exact, 7-20 hashed into 2**10 columns per position). Each fit runs in a
fresh subprocess so that its peak resident memory (RSS) is its own; the numba
kernels are loaded (compiled on a cold cache) on a tiny problem first, so the
times are training only. After the fit the child scores 2000 fresh test
sequences (test AUC).

In the same run: the kernel SVM (`WDKernelSVC`) at the sizes it can reach (the
baseline); a Dask LocalCluster with 2 single-threaded worker processes on the
same data as one process; an exact degree-8 model (every order indexed
exactly) at the largest n with its POIMs up to order 7 (the motif should top
them); and the GATTACA agreement of the issue (5000 sequences, 70/30 split):
test AUC of the linear and the kernel SVM at degree 20, and for the exact
degree-8 models with the kernel SVM's hinge loss also the POIM top-20 order-7
set.

The exact sparse table (issue 18): for ``--sparse-sizes`` (default 10^4,
10^5, 2 * 10^5) the default ``WDLinearSVC()`` (orders 7..20 through the table
of the present k-mers, hashed only beyond the memory budget) next to today's
hashed model (``sparse=False``) on the same data: training time, peak memory,
test AUC, and for an exact model the time of its explicit weights and of its
POIMs up to order 7; plus the size of the exact table against n (present keys
and the training memory it would need, collected without training).

Usage::

    python benchmarks/bench_scale.py                      # the full run
    python benchmarks/bench_scale.py --sizes 1e4 1e5 --kernel-sizes 5e3 \
        --dask-n 1e5 --skip-agreement                     # a quick one
    python benchmarks/bench_scale.py --only-sparse        # the sparse table only
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
import warnings

import numpy as np

L = 141
DEGREE = 20
MOTIFS = [("CAGGTAAGT", 68.0, 2.0)]  # exon|GT donor-like, start ~ position 68
N_TEST = 2000


def make_data(n: int, seed: int):
    from poimkit.datasets import make_planted

    return make_planted(n // 2, n - n // 2, L, MOTIFS, random_state=seed)


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def make_model(what: str, args):
    from poimkit import WDKernelSVC, WDLinearSVC
    from poimkit.svm.linear.layout import exact_size_for

    if what == "kernel":
        return WDKernelSVC(degree=DEGREE, C=args.C)
    if what == "exact8":
        return WDLinearSVC(degree=8, C=args.C, exact_size=exact_size_for(L, 8))
    if what == "sparse":  # the defaults: the exact table of the present k-mers
        return WDLinearSVC(degree=DEGREE, C=args.C)
    # today's hashed model: orders 7..20 hashed
    return WDLinearSVC(degree=DEGREE, C=args.C, hash_bits=args.hash_bits, sparse=False)


def table_size(args) -> None:
    """Present keys of the exact table at n and the training memory they need."""
    from poimkit.svm.linear import table
    from poimkit.svm.linear.layout import order_columns

    X, _ = make_data(args.n, seed=1)
    n_dense, dense, _ = order_columns(L, DEGREE, 2**20, args.hash_bits)
    table.collect_present_keys([X[:64]], DEGREE, 0, n_dense + 1, dense, 2**62)
    t = time.perf_counter()
    present = table.collect_present_keys(
        [X[s : s + 65536] for s in range(0, args.n, 65536)],
        DEGREE,
        0,
        n_dense + 1,
        dense,
        2**62,
    )
    columns = dense + present.n_keys
    out = {
        "n": args.n,
        "what": "keys",
        "keys": present.n_keys,
        "collect_s": time.perf_counter() - t,
        "train_bytes": table.VECTOR_COPIES * 8 * columns + present.table_bytes(),
        "budget_bytes": table.memory_budget(),
        "peak_total_mib": peak_mib(),
    }
    print("RESULT " + json.dumps(out), flush=True)


def child(args) -> None:
    """One measurement in this (fresh) process; prints a RESULT json line."""
    from sklearn.metrics import roc_auc_score

    from poimkit import compute_poim

    if args.what == "keys":
        table_size(args)
        return
    X, y = make_data(args.n, seed=1)
    Xt, yt = make_data(N_TEST, seed=2)
    warm = np.r_[0:32, args.n - 32 : args.n]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # load or compile the kernels
        make_model(args.what, args).fit(X[warm], y[warm]).decision_function(Xt[:8])
    out = {"n": args.n, "what": args.what, "peak_start_mib": peak_mib()}
    model = make_model(args.what, args)
    client = cluster = None
    if args.what == "dask":
        from distributed import Client, LocalCluster

        cluster = LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=not args.threads,
            dashboard_address=None,
        )
        client = Client(cluster)
    t = time.perf_counter()
    model.fit(X, y) if client is None else model.fit(X, y, client=client)
    out["fit_s"] = time.perf_counter() - t
    out["peak_fit_mib"] = peak_mib()
    if client is not None:
        client.close()
        cluster.close()
    out["n_sv"] = int(model.n_support_.sum())
    if args.what != "kernel":
        out.update(
            n_iter=model.n_iter_,
            converged=model.converged_,
            collision_rate=model.collision_rate_,
            n_exact_orders=model.n_exact_orders_,
            objective=model.objective_,
            n_columns=int(model.coef_.size),
        )
    t = time.perf_counter()
    out["test_auc"] = roc_auc_score(yt, model.decision_function(Xt))
    out["score_s"] = time.perf_counter() - t
    if args.what == "sparse":
        out.update(
            n_present_keys=model.n_present_keys_,
            table_bytes=model.table_bytes_,
            hashed_by_budget=model.hashed_by_budget_,
        )
    if args.what == "sparse" and model.n_exact_orders_ == DEGREE:
        t = time.perf_counter()
        out["nnz"] = model.explicit_weights().nnz
        out["weights_s"] = time.perf_counter() - t
    if args.what == "exact8" or "nnz" in out:
        t = time.perf_counter()
        poim = compute_poim(model, 7)
        out["poim_s"] = time.perf_counter() - t
        out["top_kmers"] = [(z, p, round(v, 4)) for z, p, v in poim.top(3)]
    out["peak_total_mib"] = peak_mib()
    print("RESULT " + json.dumps(out), flush=True)


def run(n: int, what: str, args) -> dict:
    cmd = [sys.executable, __file__, "--child", "--n", str(n), "--what", what]
    cmd += ["--C", str(args.C), "--hash-bits", str(args.hash_bits)]
    cmd += ["--threads"] if args.threads else []
    proc = subprocess.run(cmd, capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            result = json.loads(line[7:])
            print(json.dumps(result), flush=True)
            return result
    error = (proc.stderr.strip().splitlines() or ["no output"])[-1]
    print(f"n={n} {what}: failed: {error}", flush=True)
    return {"n": n, "what": what, "error": error}


def agreement() -> dict:
    """GATTACA (5000, L = 100): hinge WDLinearSVC vs WDKernelSVC, 70/30 split."""
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import train_test_split

    from poimkit import WDKernelSVC, WDLinearSVC, compute_poim
    from poimkit.datasets.gattaca import load_gattaca
    from poimkit.svm.linear.layout import exact_size_for

    _, X, y = load_gattaca()
    Xtr, Xte, ytr, yte = train_test_split(
        X, y, test_size=0.3, random_state=0, stratify=y
    )

    def auc(model):
        return roc_auc_score(yte, model.fit(Xtr, ytr).decision_function(Xte))

    def top(model):
        q = np.abs(compute_poim(model, 7).q(7)).ravel()
        return set(np.argsort(q)[-20:].tolist())

    exact = WDLinearSVC(degree=8, loss="hinge", exact_size=exact_size_for(100, 8))
    kernel8 = WDKernelSVC(degree=8)
    return {
        "auc_linear_20": auc(WDLinearSVC(degree=20)),
        "auc_kernel_20": auc(WDKernelSVC(degree=20)),
        "auc_linear_8": auc(exact),
        "auc_kernel_8": auc(kernel8),
        "top20_same_8": top(exact) == top(kernel8),
    }


def slope(rows: list[dict], key: str) -> float:
    """Log-log slope of ``key`` against n."""
    n = np.log([r["n"] for r in rows])
    return float(np.polyfit(n, np.log([r[key] for r in rows]), 1)[0])


def plot(path: str, lin: list[dict], ker: list[dict], dask: dict | None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(10, 4))
    for rows, style, label in ((lin, "o-", "WDLinearSVC"), (ker, "s-", "WDKernelSVC")):
        if rows:
            n = [r["n"] for r in rows]
            ax_t.loglog(n, [r["fit_s"] for r in rows], style, label=label)
            ax_m.loglog(n, [r["peak_fit_mib"] / 1024 for r in rows], style, label=label)
    if lin:
        n = np.array([r["n"] for r in lin], dtype=float)
        ref = lin[-1]["fit_s"] * n / n[-1]
        ax_t.loglog(n, ref, ":", color="grey", label="linear in n")
    if dask and "fit_s" in dask:
        ax_t.loglog([dask["n"]], [dask["fit_s"]], "^", label="Dask, 2 workers")
    ax_t.axhline(600, color="red", ls="--", lw=0.8, label="goal: 10 min at 1e6")
    ax_m.axhline(8, color="red", ls="--", lw=0.8, label="goal: 8 GB")
    ax_t.set(xlabel="sequences n", ylabel="training time [s]")
    ax_m.set(xlabel="sequences n", ylabel="peak RSS during fit [GiB]")
    for ax in (ax_t, ax_m):
        ax.legend(fontsize=8)
        ax.set_title(f"L = {L}, WD degree {DEGREE}, 2 cores", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def sparse_table(args) -> None:
    """Default (sparse exact) against today's hashed model, and the table size."""
    rows = []
    for n in map(int, args.sparse_sizes):
        rows.append(
            (run(n, "keys", args), run(n, "linear", args), run(n, "sparse", args))
        )
    print(
        "\nexact sparse table (WDLinearSVC() defaults) vs today's hashed model "
        "(sparse=False), same data"
    )
    print(
        "       n  present keys  train mem need [GiB]  budget [GiB]  collect [s] |"
        " hashed: fit [s]  AUC | default: fit [s] (x hashed)  exact orders  peak "
        "[GiB]  AUC | weights nnz  weights [s]  POIM<=7 [s]"
    )
    for keys, hashed, sparse in rows:

        def get(r, key, fmt):
            return format(r[key], fmt) if key in r else "-"

        ratio = (
            f"{sparse['fit_s'] / hashed['fit_s']:.2f}"
            if "fit_s" in sparse and "fit_s" in hashed
            else "-"
        )
        print(
            f"{keys['n']:>8} {get(keys, 'keys', '.3g'):>13} "
            f"{keys.get('train_bytes', float('nan')) / 2**30:>21.2f} "
            f"{keys.get('budget_bytes', float('nan')) / 2**30:>13.2f} "
            f"{get(keys, 'collect_s', '.1f'):>12} | {get(hashed, 'fit_s', '.1f'):>15} "
            f"{get(hashed, 'test_auc', '.4f'):>6} | {get(sparse, 'fit_s', '.1f'):>16} "
            f"({ratio:>5}) {get(sparse, 'n_exact_orders', 'd'):>12} "
            f"{sparse.get('peak_fit_mib', float('nan')) / 1024:>10.2f} "
            f"{get(sparse, 'test_auc', '.4f'):>6} | {get(sparse, 'nnz', '.3g'):>11} "
            f"{get(sparse, 'weights_s', '.1f'):>12} {get(sparse, 'poim_s', '.1f'):>12}"
        )
        if sparse.get("hashed_by_budget"):
            print(
                f"          n={sparse['n']}: the exact table exceeds the budget; "
                f"orders {sparse['n_exact_orders'] + 1}..{DEGREE} were hashed"
            )
        if "top_kmers" in sparse:
            print(f"          n={sparse['n']}: POIM top entries {sparse['top_kmers']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e4, 1e5, 1e6])
    parser.add_argument(
        "--kernel-sizes", type=float, nargs="+", default=[2500, 5000, 1e4, 2e4]
    )
    parser.add_argument("--dask-n", type=float, default=1e6)
    parser.add_argument("--C", type=float, default=1.0)
    parser.add_argument("--hash-bits", type=int, default=10)
    parser.add_argument(
        "--threads", action="store_true", help="Dask workers as threads"
    )
    parser.add_argument(
        "--plot", default=os.path.join(os.path.dirname(__file__), "scale_loglog.png")
    )
    parser.add_argument("--skip-agreement", action="store_true")
    parser.add_argument(
        "--sparse-sizes", type=float, nargs="*", default=[1e4, 1e5, 2e5]
    )
    parser.add_argument(
        "--only-sparse", action="store_true", help="run the sparse table part only"
    )
    parser.add_argument(
        "--no-exact8",
        dest="exact8",
        action="store_false",
        help="skip the exact degree-8 model",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--what", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    started = time.perf_counter()
    print(
        f"bench_scale: {time.strftime('%Y-%m-%d %H:%M')} | "
        f"{platform.processor() or platform.machine()} | {os.cpu_count()} cores | "
        f"python {platform.python_version()}"
    )
    print(f"L={L} degree={DEGREE} C={args.C} hash_bits={args.hash_bits}")
    if args.sparse_sizes:
        sparse_table(args)
    if args.only_sparse:
        print(f"total {time.perf_counter() - started:.0f} s")
        return
    lin = [run(int(n), "linear", args) for n in args.sizes]
    ker = [run(int(n), "kernel", args) for n in args.kernel_sizes]
    dask = run(int(args.dask_n), "dask", args) if args.dask_n else None
    exact = run(int(max(args.sizes)), "exact8", args) if args.exact8 else None
    lin = [r for r in lin if "fit_s" in r]
    ker = [r for r in ker if "fit_s" in r]
    done = [r for r in [*lin, *ker, dask, exact] if r and "fit_s" in r]

    print(
        "\n       n    model   fit [s]  iters  peak fit [MiB]    n_SV   columns "
        " score 2000 [s]  test AUC"
    )
    for r in done:
        print(
            f"{r['n']:>8} {r['what']:>8} {r['fit_s']:>9.1f} {r.get('n_iter', '-'):>6} "
            f"{r['peak_fit_mib']:>15.0f} {r['n_sv']:>7} "
            f"{r.get('n_columns', float('nan')):>9.3g} {r['score_s']:>15.2f} "
            f"{r['test_auc']:>9.4f}"
        )
    if len(lin) >= 2:
        for r in lin:
            r["s_per_iter"] = r["fit_s"] / max(r["n_iter"], 1)
        print(
            f"log-log slope vs n: fit time {slope(lin, 'fit_s'):.2f}, time per "
            f"iteration {slope(lin, 's_per_iter'):.2f} (1 = linear)"
        )
    if len(ker) >= 2:
        print(f"log-log slope vs n, kernel SVM fit time: {slope(ker, 'fit_s'):.2f}")
    for k in ker:
        same = next((r for r in lin if r["n"] == k["n"]), None)
        if same:
            print(
                f"n={k['n']}: kernel SVM {k['fit_s']:.1f} s, linear {same['fit_s']:.1f}"
                f" s (kernel / linear {k['fit_s'] / same['fit_s']:.2f}); test AUC "
                f"kernel {k['test_auc']:.4f}, linear {same['test_auc']:.4f}"
            )
    big = max(lin, key=lambda r: r["n"]) if lin else None
    if big and big["n"] >= 1_000_000:
        print(
            f"goal n={big['n']}: {big['fit_s']:.0f} s (< 600 s: "
            f"{big['fit_s'] < 600}), peak {big['peak_fit_mib'] / 1024:.2f} GiB "
            f"(< 8 GB: {big['peak_fit_mib'] * 2**20 < 8e9})"
        )
    if dask and "fit_s" in dask:
        single = next((r for r in lin if r["n"] == dask["n"]), None)
        if single:
            same = (
                dask["n_iter"] == single["n_iter"]
                and dask["objective"] == single["objective"]
            )
            kind = "threads" if args.threads else "processes"
            print(
                f"Dask LocalCluster, 2 single-threaded worker {kind}, n={dask['n']}: "
                f"{dask['fit_s']:.1f} s vs one process (2 threads) "
                f"{single['fit_s']:.1f} s: ratio {dask['fit_s'] / single['fit_s']:.2f}"
                f" (goal <= 1.5); same iterations and objective (bitwise): {same}"
            )
    if exact and "fit_s" in exact:
        print(
            f"exact degree-8 model, n={exact['n']}: fit {exact['fit_s']:.0f} s, peak "
            f"{exact['peak_fit_mib'] / 1024:.2f} GiB, test AUC "
            f"{exact['test_auc']:.4f}; POIMs up to order 7 in {exact['poim_s']:.1f} s,"
            f" top entries {exact['top_kmers']}"
        )
    if not args.skip_agreement:
        t = time.perf_counter()
        a = agreement()
        print(
            f"GATTACA agreement (5000 seq, 70/30 split): test AUC at degree 20 "
            f"linear {a['auc_linear_20']:.4f}, kernel {a['auc_kernel_20']:.4f} "
            f"(difference {abs(a['auc_linear_20'] - a['auc_kernel_20']):.4f}); "
            f"exact degree 8, hinge: linear {a['auc_linear_8']:.4f}, kernel "
            f"{a['auc_kernel_8']:.4f} (difference "
            f"{abs(a['auc_linear_8'] - a['auc_kernel_8']):.4f}, goal < 0.005), POIM "
            f"top-20 order-7 same set: {a['top20_same_8']} "
            f"({time.perf_counter() - t:.0f} s)"
        )
    if lin:
        plot(args.plot, lin, ker, dask)
        print(f"plot: {args.plot}")
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
