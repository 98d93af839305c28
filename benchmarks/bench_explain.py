"""Per-letter attributions (``poimkit explain``) beside gkmsvm-lite's gkmexplain.

A fresh synthetic genome (`poimkit.datasets.write_synthetic_genome`, seeded;
6 x 2 Mb, 2,000 peaks with the generator's motif at most summits) gives
1,000 peak windows of 200 nt and 1,000 random windows. gkmsvm-lite trains
one gapped k-mer SVM on them (its defaults: l = 11, k = 7, the estimated
kernel, both strands), saved as an LS-GKM model file that poimkit reads, so
both explain the *same* model:

- **Agreement.** On 300 peak windows, the Spearman correlation, per window,
  of poimkit's per-letter contributions with gkmexplain's importance scores
  (its mode 0: hypothetical times one-hot), and of the hypothetical
  contributions (mode 1) over all 4 x 200; medians over the windows.
- **Speed.** poimkit's attributions of 10^4 windows of 200 nt (the goal:
  under 60 s on 2 cores), and gkmexplain's of 300 of them, as seconds per
  window and their ratio.

Usage: ``python benchmarks/bench_explain.py [--seed 4304] [--out explain.json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_info import genome_windows, jsonable, machine, one_hot, versions  # noqa: E402

WIDTH = 200
N_COMPARED = 300


def _spearman_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    from scipy.stats import spearmanr

    return np.array(
        [spearmanr(x.ravel(), y.ravel()).statistic for x, y in zip(a, b, strict=True)]
    )


def main() -> None:
    import gkmsvm

    from poimkit import load_model
    from poimkit.datasets import write_synthetic_genome
    from poimkit.explain import letter_attributions
    from poimkit.genome.peaks import read_peaks

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4304)
    parser.add_argument("--out", default=str(HERE / "explain.json"))
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        g = write_synthetic_genome(
            work / "g",
            n_chromosomes=6,
            chromosome_length=2_000_000,
            n_peaks=2000,
            seed=args.seed,
        )
        peaks = read_peaks(str(g.peaks)).windows(WIDTH)
        regions = list(zip(peaks.chrom, peaks.start.tolist(), strict=True))
        pos, whole = genome_windows(g.genome, regions, WIDTH)
        pos = pos[whole]
        chroms = sorted(set(peaks.chrom))
        starts = rng.integers(0, 2_000_000 - WIDTH, size=12_000)
        picks = rng.integers(len(chroms), size=starts.size)
        regions = [(chroms[c], int(s)) for c, s in zip(picks, starts, strict=True)]
        background, whole = genome_windows(g.genome, regions, WIDTH)
        background = background[whole]
        letters = np.array(list("ACGT"))
        as_text = ["".join(letters[x]) for x in pos[:1000]]
        neg_text = ["".join(letters[x]) for x in background[:1000]]
        started = time.perf_counter()
        trained = gkmsvm.train_gkmsvm(as_text, neg_text)
        seconds_train = time.perf_counter() - started
        path = work / "model.txt"
        gkmsvm.save_lsgkm(trained, path)
        model = load_model(path)

        X = pos[:N_COMPARED]
        ours = letter_attributions(model, X)
        started = time.perf_counter()
        ohe = one_hot(X)
        theirs_hyp = np.asarray(gkmsvm.gkmexplain(trained, ohe, mode=1))
        seconds_theirs = time.perf_counter() - started
        theirs_imp = (theirs_hyp * ohe).sum(axis=1)
        contributions = _spearman_rows(ours.contributions, theirs_imp)
        hypothetical = _spearman_rows(ours.hypothetical, theirs_hyp)

        many = np.concatenate([pos, background])[:10_000]
        letter_attributions(model, many[:10])  # compile
        started = time.perf_counter()
        letter_attributions(model, many)
        seconds_ours = time.perf_counter() - started
        per_ours = seconds_ours / many.shape[0]
        per_theirs = seconds_theirs / N_COMPARED
        row = {
            "model": "gkmsvm-lite defaults (l 11, k 7, estimated kernel, both strands)",
            "seconds_train_gkmsvm": round(seconds_train, 1),
            "compared_windows": N_COMPARED,
            "spearman_contributions_median": round(float(np.median(contributions)), 4),
            "spearman_contributions_q10": round(
                float(np.quantile(contributions, 0.1)), 4
            ),
            "spearman_hypothetical_median": round(float(np.median(hypothetical)), 4),
            "windows_timed_poimkit": int(many.shape[0]),
            "seconds_poimkit": round(seconds_ours, 2),
            "seconds_gkmexplain_for_compared": round(seconds_theirs, 2),
            "speed_ratio_per_window": round(per_theirs / per_ours, 1),
            "goal_met": seconds_ours < 60.0 and many.shape[0] >= 10_000,
        }
        print(json.dumps(row), flush=True)
    document = {
        "benchmark": "explain",
        "seed": args.seed,
        "row": row,
        "machine": machine(),
        "versions": versions(),
    }
    Path(args.out).write_text(json.dumps(jsonable(document), indent=1) + "\n")


if __name__ == "__main__":
    main()
