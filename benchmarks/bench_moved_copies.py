"""What a WD model's moved copies cost: run and variants at --jitter 10 and 0.

Issue 58.

``run --bed --kernel wd`` trains on every peak window and on four copies of it
moved along the genome by -10, -5, 5 and 10 letters (``--jitter 10``, the
default; `poimkit.run.data.MovedCopies`), and ``variants --bed`` scores a
variant in a peak as the mean over those placements (its null likewise). This
benchmark measures what that costs against ``--jitter 0`` (the windows
alone) and what it gives, on a fresh synthetic genome
(`poimkit.datasets.write_synthetic_genome`, seeded) with a motif planted at
most peak summits and a VCF of causal SNVs (each changes a high-information
letter of a planted site) among neutral ones.

The two settings run interleaved, ``--rounds`` times (run A, run B, variants
A, variants B, ...), so that both see the same machine load, after an untimed
warm-up run of each (numba compiles the kernels a setting needs on its first
run after a change of the sources; without the warm-up the first setting
timed pays for it: 3.5x instead of 2x on 1,000 peaks). Each prints the
run's step times (``summary.json``), its wall time, the variants' wall time,
the CV AUC and the share of causal SNVs called at q <= 0.05 (and of neutral
ones). Goal: both the run and ``variants --bed`` at most 2x as long with the
copies as without, with the CV AUC and the calls of the copies kept.

Usage: ``python benchmarks/bench_moved_copies.py [--seed 5811] [--peaks 2000]
[--motif ctcf] [--rounds 1] [--no-warmup] [--no-variants]
[--out benchmarks/moved_copies.json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_info import jsonable, machine, versions  # noqa: E402

Q = 0.05
#: the planted motifs: the generator's AP-1 / NFE2-like 10-mer, a CTCF-like 15-mer
MOTIFS = {"ap1": "TGACTCAGCA", "ctcf": "CCACCAGGGGGCGCT"}
#: the two settings compared: the copies (default) and the windows alone
JITTERS = (10, 0)


def _poimkit(*args) -> float:
    """Run the CLI in a fresh process; its wall time."""
    started = time.perf_counter()
    command = [sys.executable, "-m", "poimkit", *map(str, args), "--quiet"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def run_case(g, out: Path, jitter: int) -> dict:
    """``poimkit run --bed --kernel wd --jitter J``: wall time, step times, CV AUC."""
    seconds = _poimkit(
        "run",
        "--bed",
        g.peaks,
        "--genome",
        g.genome,
        "--kernel",
        "wd",
        "--max-motifs",
        "0",
        "--jitter",
        jitter,
        "-o",
        out,
    )
    summary = json.loads((out / "summary.json").read_text())
    return {
        "seconds": round(seconds, 1),
        "steps": summary["runtimes"],
        "cv_auc": round(summary["cv_auc"], 4),
        "chosen": summary["selection"]["chosen"] if summary["selection"] else None,
        "training_copies": summary["peaks"]["training_copies"],
    }


def variants_case(g, run: Path, effects: Path) -> dict:
    """``poimkit variants --bed`` with the run's model: wall time and calls."""
    import pandas as pd

    seconds = _poimkit(
        "variants",
        run / "model.npz",
        "--vcf",
        g.vcf,
        "--genome",
        g.genome,
        "--bed",
        g.peaks,
        "-o",
        effects,
    )
    table = pd.read_csv(effects, sep="\t", dtype={"chrom": str})
    table = table.drop_duplicates("id")
    causal = table["id"].isin(set(g.causal_ids)).to_numpy()
    neutral = table["id"].isin(set(g.neutral_ids)).to_numpy()
    called = table["q_value"].to_numpy() <= Q
    return {
        "seconds": round(seconds, 1),
        "n_causal": int(causal.sum()),
        "causal_called": round(float(called[causal].mean()), 4),
        "neutral_called": round(float(called[neutral].mean()), 4),
        "effects": table.set_index("id")["effect"],
    }


def _ratio(a: float, b: float) -> float:
    return round(a / b, 2) if b else float("nan")


def one_round(g, work: Path, r: int, with_variants: bool) -> dict:
    """Run A, run B, then (if asked) variants A, variants B: times and ratios."""
    runs, variants = {}, {}
    for jitter in JITTERS:
        out = work / f"run_{r}_{jitter}"
        runs[jitter] = run_case(g, out, jitter)
        print(json.dumps({"round": r, "jitter": jitter, "run": runs[jitter]}))
    a, b = JITTERS
    row = {
        "round": r,
        "run": runs,
        "ratio_run": _ratio(runs[a]["seconds"], runs[b]["seconds"]),
        "ratio_steps": {
            step: _ratio(runs[a]["steps"][step], runs[b]["steps"].get(step, 0))
            for step in runs[a]["steps"]
        },
    }
    row["goal_met"] = row["ratio_run"] <= 2
    if not with_variants:
        return row
    for jitter in JITTERS:
        out = work / f"run_{r}_{jitter}"
        variants[jitter] = variants_case(g, out, work / f"effects_{r}_{jitter}.tsv")
        shown = {k: v for k, v in variants[jitter].items() if k != "effects"}
        print(json.dumps({"round": r, "jitter": jitter, "variants": shown}))
    fa, fb = variants[a]["effects"], variants[b]["effects"]
    both = fa.index.intersection(fb.index)
    row["variants"] = {
        j: {k: v for k, v in variants[j].items() if k != "effects"} for j in JITTERS
    }
    row["ratio_variants"] = _ratio(variants[a]["seconds"], variants[b]["seconds"])
    row["effect_correlation"] = round(float(np.corrcoef(fa[both], fb[both])[0, 1]), 4)
    row["goal_met"] = row["goal_met"] and row["ratio_variants"] <= 2
    return row


def main(argv: list[str] | None = None) -> None:
    from poimkit.datasets import write_synthetic_genome

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=5811)
    parser.add_argument("--peaks", type=int, default=2000)
    parser.add_argument("--motif", choices=sorted(MOTIFS), default="ctcf")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--no-warmup",
        dest="warmup",
        action="store_false",
        help="time the first runs too (they compile numba's kernels)",
    )
    parser.add_argument(
        "--no-variants",
        dest="variants",
        action="store_false",
        help="time the runs alone (not variants --bed)",
    )
    parser.add_argument("--out", default=str(HERE / "moved_copies.json"))
    args = parser.parse_args(argv)
    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        g = write_synthetic_genome(
            work / "genome",
            motif=MOTIFS[args.motif],
            n_decoys=0,
            n_chromosomes=6,
            chromosome_length=max(1_000_000, 1000 * args.peaks),
            n_peaks=args.peaks,
            n_causal=max(20, args.peaks // 20),
            n_neutral=2 * args.peaks,
            seed=args.seed,
        )
        if args.warmup:  # untimed: numba compiles what each setting needs
            for jitter in JITTERS:
                run_case(g, work / f"warmup_{jitter}", jitter)
                if args.variants:
                    effects = work / f"warmup_{jitter}.tsv"
                    variants_case(g, work / f"warmup_{jitter}", effects)
        for r in range(args.rounds):
            rounds.append(one_round(g, work, r, args.variants))
            shown = {
                k: v for k, v in rounds[-1].items() if k.startswith(("ratio", "goal"))
            }
            print(json.dumps(shown))
    document = {
        "benchmark": "moved_copies",
        "variants": args.variants,
        "seed": args.seed,
        "peaks": args.peaks,
        "motif": args.motif,
        "q": Q,
        "warmup": args.warmup,
        "rounds": rounds,
        "machine": machine(),
        "load_average_end": os.getloadavg(),
        "versions": versions(),
    }
    Path(args.out).write_text(json.dumps(jsonable(document), indent=1) + "\n")


if __name__ == "__main__":
    main()
