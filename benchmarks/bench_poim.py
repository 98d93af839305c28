"""Benchmark: exact POIM engine against Monte Carlo sampling at equal accuracy.

Trains a WD SVM (degree 20) on GATTACA sequences (L = 100), then times
`poimkit.compute_poim` for K = 7 under an order-0 and an order-2 background,
measures its peak memory (tracemalloc, numpy allocations) against the size of
the output, and measures what Monte Carlo sampling costs for the same accuracy:
the per-sample cost and the variance of the common-random-numbers estimator
``s(x with z* at j*) - s(x)`` of the top entry Q(z*, j*) give the number of
samples for a 1% relative standard error, and from it the time to reach that
accuracy on the top entry alone and on the whole POIM (4**l model calls per
window and sample). Scoring uses the model's explicit weights, the fastest
scorer there is, so the sampling baseline is if anything flattered. Finally a
scaling table over L and K.

WDS (issue 18): WD and WDS SVMs (degree 20, S = 4, 8, 16) trained on the same
2000 sequences, exact POIMs for K = 7 under the uniform background, an
order-2 chain started in its stationary distribution (both shift invariant:
the shift convolution, `poimkit.poim.shifted`) and the fitted order-2 chain
`MarkovBackground.fit(X, order=2)` (not stationary: the burn-in split,
`poimkit.poim.burn_in`), what `compute_poim` does for a WDS model, against the
expanded WDS weights (the old path), with the ratio to the WD POIM under the
same background measured in the same run.

Goals (2 cores): order 0 under 2 s, order 2 under 10 s, peak memory under 3x
the output, at least 100x faster than sampling at equal accuracy; WDS POIMs
within 2x of WD POIMs for S <= 16.

    python benchmarks/bench_poim.py            # full run
    python benchmarks/bench_poim.py --quick    # small sizes, no scaling table
    python benchmarks/bench_poim.py --wds-only # the WDS table alone
"""

from __future__ import annotations

import argparse
import platform
import time
import tracemalloc

import numba
import numpy as np

from poimkit import MarkovBackground, WDKernelSVC, compute_poim
from poimkit.alphabet import kmer_index
from poimkit.datasets import make_gattaca
from poimkit.poim.burn_in import burn_in
from poimkit.poim.engine import plan_shifts


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-train", type=int, default=4000)
    parser.add_argument("--pilot", type=int, default=2000, help="pilot MC samples")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--n-wds", type=int, default=2000, help="training sequences of the WDS table"
    )
    parser.add_argument("--no-wds", action="store_true", help="skip the WDS table")
    parser.add_argument(
        "--wds-only", action="store_true", help="only the WDS table (issue 18)"
    )
    return parser.parse_args(argv)


def train(n, length, seed, shift=0):
    X, y = make_gattaca(
        n_pos=n // 2,
        n_neg=n - n // 2,
        length=length,
        mean=length * 0.35,
        sd=7,
        random_state=seed,
    )
    return WDKernelSVC(degree=20, shift=shift).fit(X, y), X


def stationary(background):
    """The homogeneous chain of ``background`` started in its stationary D-grams."""
    n_states = 4**background.order
    trans = background.transitions[0]
    step = np.zeros((n_states, n_states))
    for s in range(n_states):
        for a in range(4):
            step[s, (4 * s + a) % n_states] += trans[s, a]
    initial = np.full(n_states, 1.0 / n_states)
    for _ in range(10_000):
        initial = initial @ step
    return MarkovBackground(initial / initial.sum(), background.transitions)


def once(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def once_cpu(fn):
    """(wall seconds, CPU seconds of the process: all threads) of one call."""
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    return np.array([time.perf_counter() - start, time.process_time() - cpu])


def wds_table(n, length, shifts, seed, repeats):
    """WD and WDS POIMs (K = 7) on the same training set: new and old path.

    Every WDS timing alternates with a WD timing; each figure is the best of
    its runs, in wall-clock and in CPU seconds (all threads; steadier than
    wall-clock on a shared machine), and the ratios are to the best WD time
    over the whole table.
    """
    X = train(n, length, seed)[1]
    fitted = MarkovBackground.fit(X, order=2)
    backgrounds = {
        "uniform": MarkovBackground.uniform(length),
        "order-2 stat.": stationary(fitted),
        "order-2 fitted": fitted,
    }
    print(
        f"\nWDS POIMs (K = 7), degree 20, {n} GATTACA sequences, L = {length}; "
        f"POIM seconds (weights built), best of {repeats} runs alternating with "
        "WD runs, wall-clock and CPU (all threads); / WD: ratio of CPU seconds "
        "to the best WD run; old path = the expanded WDS weights (one run, "
        "uniform background)"
    )
    found = burn_in(fitted)
    print(
        "order-2 fitted = MarkovBackground.fit(X, order=2), not stationary: "
        f"burn-in B = {found[0] if found else 'none'} positions "
        "(poimkit.poim.burn_in); "
        + ", ".join(f"S={s}: {plan_shifts(fitted, s).method}" for s in shifts)
    )
    wd = train(n, length, seed)[0]
    best_wd = {name: np.full(2, np.inf) for name in backgrounds}
    rows = []
    for shift in (0, *shifts):
        model = wd if shift == 0 else train(n, length, seed, shift)[0]
        build, weights = once(model.shift_base_weights)
        compute_poim(model, 7, backgrounds["uniform"])  # compile outside the timings
        new = {}
        for name, bg in backgrounds.items():
            new[name] = np.full(2, np.inf)
            for _ in range(repeats):
                seconds = once_cpu(lambda b=bg: compute_poim(wd, 7, b))
                best_wd[name] = np.minimum(best_wd[name], seconds)
                seconds = once_cpu(lambda m=model, b=bg: compute_poim(m, 7, b))
                new[name] = np.minimum(new[name], seconds)
        old = None
        if shift:
            old_build, old_weights = once(model.explicit_weights)
            old_seconds = once_cpu(lambda w=old_weights: compute_poim(w, 7))
            old = (old_weights.nnz, old_build, old_seconds)
            del old_weights
        rows.append((shift, len(model.support_vectors_), weights.nnz, build, new, old))
    print(
        f"{'model':10s} {'SVs':>5s} {'weights':>8s} {'build':>6s} "
        + "".join(
            f" {name + ' wall':>19s} {'CPU':>6s} {'/ WD':>5s}" for name in backgrounds
        )
        + f" {'old weights':>12s} {'build':>6s} {'wall':>6s} {'CPU':>6s} "
        f"{'/ WD':>5s} {'old/new':>7s}"
    )
    for shift, n_sv, nnz, build, new, old in rows:
        label = "WD" if shift == 0 else f"WDS S={shift}"
        line = f"{label:10s} {n_sv:5d} {nnz:8d} {build:6.2f} " + "".join(
            f" {new[name][0]:19.3f} {new[name][1]:6.3f} "
            f"{new[name][1] / best_wd[name][1]:5.2f}"
            for name in backgrounds
        )
        if old is not None:
            old_nnz, old_build, (old_wall, old_cpu) = old
            line += (
                f" {old_nnz:12d} {old_build:6.2f} {old_wall:6.2f} {old_cpu:6.2f} "
                f"{old_cpu / best_wd['uniform'][1]:5.2f} "
                f"{old_cpu / new['uniform'][1]:7.2f}"
            )
        print(line)
    print(
        "best WD (wall, CPU s): "
        + ", ".join(
            f"{name} {wall:.3f}, {cpu:.3f}" for name, (wall, cpu) in best_wd.items()
        )
    )


def timed(fn, repeats=3):
    best, result = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def sampling_cost(weights, background, poim, n_pilot, seed):
    """Seconds per MC sample pair and samples needed for 1% error on the top entry."""
    kmer, position, value = poim.top(1, order=7)[0]
    j, z = position - 1, kmer_index(kmer)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    X = background.sample(n_pilot, rng)
    base = weights.decision_function(X)
    X[:, j : j + 7] = [int(c) for c in np.base_repr(z, 4).zfill(7)]
    planted = weights.decision_function(X)
    seconds = time.perf_counter() - start
    diffs = planted - base
    estimate = diffs.mean()
    stderr = diffs.std(ddof=1) / np.sqrt(n_pilot)
    needed = n_pilot * (stderr / (0.01 * abs(value))) ** 2
    per_call = seconds / (2 * n_pilot)
    return kmer, position, value, estimate, stderr, needed, per_call


def main(argv=None) -> int:
    args = parse_args(argv)
    n_train = 600 if args.quick else args.n_train
    print("POIM engine benchmark")
    print(
        f"machine: {platform.machine()}, {numba.config.NUMBA_NUM_THREADS} cores, "
        f"numba {numba.__version__} ({numba.get_num_threads()} threads), "
        f"numpy {np.__version__}"
    )
    if args.wds_only:
        wds_table(args.n_wds, 100, (4, 8, 16), args.seed, 3)
        return 0
    model, X = train(n_train, 100, args.seed)
    weights = model.explicit_weights()
    print(
        f"model: WD degree 20, {n_train} GATTACA sequences, L = 100, "
        f"{len(model.support_vectors_)} support vectors, {weights.nnz} weights"
    )
    uniform = MarkovBackground.uniform(100)
    order2 = MarkovBackground.fit(X, order=2)

    start = time.perf_counter()
    compute_poim(weights, 7, uniform)
    first = time.perf_counter() - start
    print(f"first call (loads or compiles the numba engine): {first:8.3f} s")
    t0, poim0 = timed(lambda: compute_poim(weights, 7, uniform))
    t2, _ = timed(lambda: compute_poim(weights, 7, order2))
    print(f"exact K=7, order-0 background : {t0:8.3f} s   (goal < 2 s)")
    print(f"exact K=7, order-2 background : {t2:8.3f} s   (goal < 10 s)")

    output = sum(poim0.q(l).nbytes for l in range(1, 8))
    tracemalloc.start()
    compute_poim(weights, 7, uniform)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"peak memory {peak / 2**20:8.1f} MiB, output {output / 2**20:.1f} MiB, "
        f"ratio {peak / output:.2f}x   (goal < 3x)"
    )

    kmer, position, value, estimate, stderr, needed, per_call = sampling_cost(
        weights, uniform, poim0, args.pilot, args.seed
    )
    print(
        f"top entry {kmer} at {position}: exact {value:.5f}, MC pilot {estimate:.5f} "
        f"+/- {stderr:.5f} ({args.pilot} samples)"
    )
    top_seconds = needed * 2 * per_call
    evaluations = sum((100 - l + 1) * 4**l for l in range(1, 8))
    full_seconds = needed * evaluations * per_call
    print(f"MC samples for 1% relative error: {needed:,.0f}")
    print(f"MC time, top entry only        : {top_seconds:10.3f} s")
    print(
        f"MC time, whole POIM (K=7)      : {full_seconds:10.0f} s  "
        f"({evaluations:,} model calls per sample)"
    )
    print(f"exact / MC speed-up, top entry : {top_seconds / t0:10.1f} x")
    print(
        f"exact / MC speed-up, whole POIM: {full_seconds / t0:10.0f} x   (goal >= 100x)"
    )

    if not args.no_wds:
        wds_table(
            200 if args.quick else args.n_wds,
            100,
            (4, 8, 16),
            args.seed,
            1 if args.quick else 3,
        )
    if args.quick:
        return 0
    print(
        "\nscaling: exact POIM seconds (order-0 background), WD degree 20, "
        "2000 training sequences"
    )
    orders = range(3, 9)
    print("    L " + "".join(f"   K={k:<5d}" for k in orders))
    for length in (50, 100, 200, 400):
        model_l, _ = train(2000, length, args.seed)
        weights_l = model_l.explicit_weights()
        cells = []
        for k in orders:
            seconds, _ = timed(lambda w=weights_l, k=k: compute_poim(w, k), repeats=1)
            cells.append(f"{seconds:9.3f}")
        print(f"{length:5d} " + " ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
