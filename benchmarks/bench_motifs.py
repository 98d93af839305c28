"""Benchmark: motif extraction time on the two-motif set (MFI paper), K = 8, L = 100.

Plants GGCCGTAAA at position 11 and TTTCACGTTGA at 24 (1-based, mutated as in the
FIRM paper) in 2500 of 5000 random sequences of length 100, trains a WD SVM
(degree 20), computes exact POIMs up to K = 8, and times `extract_motifs`. The
baseline in the same run is a single L-BFGS-B fit with finite-difference
gradients (what scipy does without the analytic gradient), from the same seed.

Goal (2 cores): extraction under 30 s.

    python benchmarks/bench_motifs.py
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.optimize import minimize

from poimkit import WDKernelSVC, compute_poim
from poimkit.datasets import make_planted
from poimkit.motifs import extract_motifs
from poimkit.motifs.discovery import background_letters
from poimkit.motifs.fit import (
    MotifPoimFit,
    MotifShape,
    pack_shapes,
    unpack_shapes,
)

MOTIFS = [("GGCCGTAAA", 11, 0), ("TTTCACGTTGA", 24, 0)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--max-order", type=int, default=8)
    args = parser.parse_args(argv)
    X, y = make_planted(args.n // 2, args.n - args.n // 2, 100, MOTIFS, random_state=0)
    start = time.perf_counter()
    model = WDKernelSVC(degree=20).fit(X, y)
    poim = compute_poim(model, args.max_order)
    print(f"training + POIM (K={args.max_order}): {time.perf_counter() - start:.2f} s")

    start = time.perf_counter()
    motifs = extract_motifs(poim, max_motifs=3)
    seconds = time.perf_counter() - start
    print(f"extract_motifs: {seconds:.2f} s   (goal < 30 s)")
    for motif in motifs:
        print(f"  {motif}")
    truth = {c: p for c, p, _ in MOTIFS}
    found = {m.consensus: m.position for m in motifs}
    ok = all(abs(found.get(c, np.inf) - p) <= 1 for c, p in truth.items())
    print(f"both motifs at their positions (within 1): {ok}")

    # baseline: one fit of the first seed with finite-difference gradients
    fit = MotifPoimFit(
        {k: poim.q(k) for k in (3, 4, 5)}, 100, background_letters(poim.background)
    )
    shape = MotifShape.from_string("TTTCACGTTGA", 23.0, 0.5)
    start = time.perf_counter()
    fit.fit([shape])
    analytic = time.perf_counter() - start
    start = time.perf_counter()
    minimize(
        lambda x: fit.evaluate(unpack_shapes(x, [shape]), gradient=False)[0],
        pack_shapes([shape]),
        method="L-BFGS-B",
        options={"maxiter": 200, "ftol": 1e-7},
    )
    numeric = time.perf_counter() - start
    print(
        f"one motif fit: analytic gradient {analytic:.2f} s, finite differences "
        f"{numeric:.2f} s, ratio {numeric / analytic:.1f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
