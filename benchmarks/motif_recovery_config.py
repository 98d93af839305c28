"""Paths, sizes, modisco-lite's settings and the log of ``bench_motif_recovery.py``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SPLICE = ROOT / "data" / "splice"
PROMOTERS = ROOT / "data" / "promoters"
NFE2 = ROOT.parent / "shared" / "data" / "nfe2"
NFE2_LENGTH = 236

MAX_MOTIFS = 3
MAX_MODISCO_SEQS = 2000  # positives given to modisco (and scored by ISM)
MAX_SEQLETS = 2000  # modisco's max_seqlets_per_metacluster
CROSSFIT_FOLDS = 5
QUICK_SCALE = 0.2
MIN_CLASS = 50  # smallest class size after --quick scaling
N_DECOYS = 100
DECOY_SEED = 12345
TOMTOM_P = 0.01  # false motif: p above this against every planted motif
TRIM_THRESHOLD = 0.2  # modisco patterns: keep columns with IC >= 0.2 max

# modisco-lite settings for 30-2000 nt sequences (its defaults, made for
# 400+ nt windows, found nothing on 60-100 nt); the rest as its CLI sets them
MODISCO = {
    "sliding_window_size": 10,
    "flank_size": 3,
    "trim_to_window_size": 15,
    "initial_flank_to_add": 3,
    "final_flank_to_add": 0,
    "target_seqlet_fdr": 0.05,
    "n_leiden_runs": 2,
    "max_seqlets_per_metacluster": MAX_SEQLETS,
}

START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", file=sys.stderr)


def rc_string(s: str) -> str:
    return s[::-1].translate(str.maketrans("ACGT", "TGCA"))
