"""Sizes, seed, budget and the log of ``bench_genome.py``."""

from __future__ import annotations

import sys
import time

FULL = {
    "n_chromosomes": 5,
    "chromosome_length": 10_000_000,
    "n_peaks": 10_000,
    "n_causal": 500,
    "n_neutral": 1_000_000 - 500,
}
QUICK = {
    "n_chromosomes": 3,
    "chromosome_length": 1_000_000,
    "n_peaks": 400,
    "n_causal": 100,
    "n_neutral": 20_000 - 100,
}
WIDTH = 200
SEED = 28
GOAL_RUN_S, GOAL_VARIANTS_S = 300.0, 60.0
TOP = 100
PEER_N, QUICK_PEER_N = 1000, 300
PEER_VARIANTS, QUICK_PEER_VARIANTS = 400, 100
BUDGET = 900.0
GKM_L = 11

START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", file=sys.stderr)
