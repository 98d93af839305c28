"""Benchmark: WD / WDS kernel matrix against an explicit sparse-feature baseline.

Computes the full n x n WD kernel matrix of random DNA (X2=None) with
`poimkit.kernels.wd.wd_kernel` and with what a scikit-learn user would write:
sparse one-hot positional k-mer features Phi_k of shape
(n, (L - k + 1) * 4**k) for k = 1..d and K = sum_k beta_k Phi_k Phi_k^T. Also
times the WDS kernel (shift S) and checks that all results agree.

Goals (n=5000, L=100, d=20, S=8, 2 cores): WD under 2 s, at least 20x faster
than the baseline, WDS within 3x of WD.

    python benchmarks/bench_kernel.py            # full size
    python benchmarks/bench_kernel.py --n 1000   # quick
    python benchmarks/bench_kernel.py --cold     # first call compiles (fresh cache)
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000, help="number of sequences")
    parser.add_argument("--length", type=int, default=100, help="sequence length L")
    parser.add_argument("--degree", type=int, default=20, help="WD degree d")
    parser.add_argument("--shift", type=int, default=8, help="WDS maximal shift S")
    parser.add_argument(
        "--repeats",
        type=int,
        default=5,
        help="timed runs per kernel (the best is reported)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--no-baseline",
        action="store_true",
        help="skip the (slow) sparse-feature baseline",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="use a fresh numba cache so the first call compiles",
    )
    return parser.parse_args(argv)


def sparse_wd_baseline(X, degree):
    """K = sum_k beta_k Phi_k Phi_k^T with sparse positional one-hot k-mers."""
    import scipy.sparse as sp

    n, length = X.shape
    codes = X.astype(np.int64)
    K = np.zeros((n, n))
    for k in range(1, min(degree, length) + 1):
        m = length - k + 1
        if m * 4.0**k >= 2.0**63:
            raise ValueError("positional k-mer ids overflow int64; lower --degree")
        kmer = np.zeros((n, m), dtype=np.int64)
        for p in range(k):
            kmer = kmer * 4 + codes[:, p : p + m]
        column = np.arange(m, dtype=np.int64) * 4**k + kmer  # feature (i, k-mer)
        # Phi_k has (L-k+1) 4**k columns; keep only the ones that occur
        _, index = np.unique(column.ravel(), return_inverse=True)
        phi = sp.csr_matrix(
            (np.ones(n * m), index.ravel(), np.arange(0, n * m + 1, m)),
            shape=(n, int(index.max()) + 1),
        )
        beta = 2.0 * (degree - k + 1) / (degree * (degree + 1))
        K += beta * (phi @ phi.T).toarray()
    return K


def timed(func):
    start = time.perf_counter()
    result = func()
    return time.perf_counter() - start, result


def main(argv=None) -> int:
    args = parse_args(argv)
    if not args.cold:
        return run(args)
    with tempfile.TemporaryDirectory(prefix="poimkit-numba-") as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache  # read when numba is imported
        return run(args)


def run(args) -> int:
    if str(ROOT) not in sys.path:  # run from a checkout without installing
        sys.path.insert(0, str(ROOT))
    import numba

    # the numba dispatchers' cache statistics: compiled or loaded from the cache
    from poimkit.kernels import _wd as wd  # private: see issue 31
    from poimkit.kernels import _wds as wds  # private: see issue 31
    from poimkit.kernels.wd import wd_kernel

    n, length, degree, shift = args.n, args.length, args.degree, args.shift
    rng = np.random.default_rng(args.seed)
    X = rng.integers(0, 4, (n, length), dtype=np.uint8)

    print(f"WD/WDS kernel benchmark: n={n} L={length} d={degree} S={shift}")
    print(f"command: python {' '.join(sys.argv)}")

    # first calls: compilation, or loading from numba's cache
    small = X[:20]
    for name, kw, kernel in [
        ("WD", {}, wd.wd_gram),
        ("WDS", {"shift": min(shift, length - 1)}, wds.wds_gram),
    ]:
        start = time.perf_counter()
        wd_kernel(small, degree=degree, **kw)
        first = time.perf_counter() - start
        how = "compiled" if kernel.stats.cache_misses else "loaded from cache"
        print(
            f"first call {name:<4}: {first:7.3f} s  ({how}, numba cache dir "
            f"{numba.config.CACHE_DIR or '__pycache__'})"
        )

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, numba "
        f"{numba.__version__} ({numba.get_num_threads()} threads, "
        f"{numba.threading_layer()} layer), numpy {np.__version__}, "
        f"python {platform.python_version()}"
    )

    # WD and WDS runs alternate, so that a busy machine slows both alike
    times_wd, times_wds = [], []
    for _ in range(args.repeats):
        t, K_wd = timed(lambda: wd_kernel(X, degree=degree))
        times_wd.append(t)
        t, K_wds = timed(lambda: wd_kernel(X, degree=degree, shift=shift))
        times_wds.append(t)
    t_wd, t_wds = min(times_wd), min(times_wds)
    print(
        f"poimkit WD           : {t_wd:7.3f} s  (best of {args.repeats}, median "
        f"{np.median(times_wd):.3f} s)"
    )
    print(
        f"poimkit WDS (S={shift:<2})   : {t_wds:7.3f} s  (best of {args.repeats}, "
        f"median {np.median(times_wds):.3f} s)"
    )
    print(f"WDS / WD             : {t_wds / t_wd:7.2f} x   (goal <= 3)")
    del K_wds

    if not args.no_baseline:
        start = time.perf_counter()
        K_sparse = sparse_wd_baseline(X, degree)
        t_sparse = time.perf_counter() - start
        err = float(np.abs(K_sparse - K_wd).max() / np.abs(K_sparse).max())
        print(
            f"sparse baseline      : {t_sparse:7.3f} s  (one run; max rel. diff "
            f"to poimkit {err:.1e})"
        )
        print(f"speed-up over sparse : {t_sparse / t_wd:7.1f} x   (goal >= 20)")
        if err > 1e-12:
            print("ERROR: the baseline and poimkit disagree")
            return 1
    print(f"WD under 2 s         : {'yes' if t_wd < 2 else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
