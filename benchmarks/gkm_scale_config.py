"""Sizes, budgets, the planted motif and the log of ``bench_gkm_scale.py``."""

from __future__ import annotations

import sys
import time

import numpy as np

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

START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", file=sys.stderr)
