"""Peak strength from the peaks' sequence: ``run --bed --targets signal`` (issue 43).

A fresh synthetic genome (`poimkit.datasets.write_synthetic_genome`, seeded;
6 x 2 Mb, 3,000 peaks, the generator's AP-1 / NFE2-like motif at 60 % of the
summits, point mutations included) gets a signalValue per peak that grows
with the number and strength of the motif's sites in its 200-letter window:
the site occupancy ``sum over windows and strands of 1 / (1 + exp(-(s - 12)))``
for the PWM's log-odds s in bits, signal = ``4 * occupancy`` times log-normal
noise (sd 0.35). ``poimkit run --bed --genome --targets signal --log1p``
regresses on it with its defaults (nested selection, folds of whole
chromosomes); the noise ceiling is the Pearson correlation of the noise-free
``log1p`` signal with the observed one. Baseline on the same folds: ridge
regression on the windows' 5-mer counts (scikit-learn, alpha by inner CV).
Goal: CV Pearson >= 0.9 x the noise ceiling.

Usage: ``python benchmarks/bench_peak_strength.py [--seed 4303]
[--out peak_strength.json]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_info import genome_windows, jsonable, machine, versions  # noqa: E402

WIDTH = 200
HALF_SITE_BITS = 12.0


def occupancy(X: np.ndarray, pwm: np.ndarray) -> np.ndarray:
    """Summed chance of a bound site over every window and strand of each row."""
    lods = np.log2((pwm + 0.01) / 1.04 / 0.25)
    m = lods.shape[0]
    total = np.zeros(X.shape[0])
    for table in (lods, lods[::-1, ::-1]):
        for s in range(X.shape[1] - m + 1):
            score = table[np.arange(m), X[:, s : s + m]].sum(axis=1)
            total += 1 / (1 + np.exp(-(score - HALF_SITE_BITS)))
    return total


def kmer_ridge(X: np.ndarray, y: np.ndarray, folds: list) -> float:
    """Pearson r of ridge on 5-mer counts, out of fold on ``folds``."""
    from sklearn.linear_model import RidgeCV

    k = 5
    codes = np.zeros((X.shape[0], X.shape[1] - k + 1), dtype=np.int64)
    for j in range(k):
        codes = codes * 4 + X[:, j : X.shape[1] - k + 1 + j]
    counts = np.zeros((X.shape[0], 4**k))
    rows = np.repeat(np.arange(X.shape[0]), codes.shape[1])
    np.add.at(counts, (rows, codes.ravel()), 1)
    predicted = np.empty(y.size)
    for train, test in folds:
        model = RidgeCV(alphas=np.logspace(-1, 4, 11)).fit(counts[train], y[train])
        predicted[test] = model.predict(counts[test])
    return float(np.corrcoef(predicted, y)[0, 1])


def main() -> None:
    from poimkit.datasets import write_synthetic_genome
    from poimkit.genome.peaks import read_peaks

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4303)
    parser.add_argument("--out", default=str(HERE / "peak_strength.json"))
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        g = write_synthetic_genome(
            work / "g",
            n_chromosomes=6,
            chromosome_length=2_000_000,
            n_peaks=3000,
            motif_fraction=0.6,
            seed=args.seed,
        )
        windows = read_peaks(str(g.peaks)).windows(WIDTH)
        regions = list(zip(windows.chrom, windows.start.tolist(), strict=True))
        X, ok = genome_windows(g.genome, regions, WIDTH)
        clean = occupancy(np.where(X < 4, X, 0), g.pwm)
        signal = 4 * clean * np.exp(rng.normal(0, 0.35, clean.size))
        noise_free, observed = np.log1p(4 * clean[ok]), np.log1p(signal[ok])
        ceiling = float(np.corrcoef(noise_free, observed)[0, 1])
        lines = g.peaks.read_text().splitlines()
        rows = []
        for line, value in zip(lines, signal, strict=True):
            fields = line.split("\t")
            fields[6] = f"{value:.4f}"
            rows.append("\t".join(fields) + "\n")
        peaks = work / "strength.narrowPeak"
        peaks.write_text("".join(rows))
        out = work / "run"
        command = [sys.executable, "-m", "poimkit", "run", "--bed", peaks]
        command += ["--genome", g.genome, "--targets", "signal", "--log1p"]
        command += ["-o", out, "--quiet"]
        started = time.perf_counter()
        subprocess.run(list(map(str, command)), check=True, stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - started
        summary = json.loads((out / "summary.json").read_text())
        # the baseline's folds hold out the chromosomes the run's did
        y = np.log1p(signal[ok])
        chrom = np.asarray(windows.chrom)[ok]
        folds = []
        for fold in summary["folds"]:
            test = np.isin(chrom, fold["chromosomes"])
            folds.append((np.flatnonzero(~test), np.flatnonzero(test)))
        baseline = kmer_ridge(X[ok], y, folds)
        row = {
            "peaks": int(ok.sum()),
            "noise_ceiling": round(ceiling, 4),
            "cv_pearson": round(summary["cv_pearson"], 4),
            "share_of_ceiling": round(summary["cv_pearson"] / ceiling, 4),
            "chosen_model": summary.get("chosen_model"),
            "family": summary.get("family"),
            "cv_split": summary.get("cv_split"),
            "baseline_kmer_ridge": round(baseline, 4),
            "seconds_run": round(seconds, 1),
            "goal_met": summary["cv_pearson"] >= 0.9 * ceiling,
        }
        print(json.dumps(row), flush=True)
    document = {
        "benchmark": "peak_strength",
        "seed": args.seed,
        "row": row,
        "machine": machine(),
        "versions": versions(),
    }
    Path(args.out).write_text(json.dumps(jsonable(document), indent=1) + "\n")


if __name__ == "__main__":
    main()
