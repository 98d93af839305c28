"""Paths, sizes, goals and the log of ``bench_kernels_real.py``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from poimkit.datasets import PlantedMotif

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

START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", file=sys.stderr)
