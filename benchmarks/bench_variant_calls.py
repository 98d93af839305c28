"""Variant calls against the null: destroying SNVs called, neutral ones not (issue 42).

Fresh synthetic genomes (`poimkit.datasets.write_synthetic_genome`, seeded;
6 chromosomes of 2 Mb, 2,000 peaks) hold a motif at their peaks' summits
(the generator's AP-1 / NFE2-like 10-mer ``TGACTCAGCA``, or a CTCF-like
15-mer ``CCACCAGGGGGCGCT``), with or without 200 full sites off the peaks
(unbound sites, as genomes have: the generator's default), and a VCF of 100
causal SNVs (each changes a high-information consensus letter of a planted
site at a summit) among 5,000 neutral ones (a tenth inside peaks). For each
model family, ``poimkit run --bed`` trains on the peaks with matched genomic
negatives, then ``poimkit variants --bed`` scores the VCF with its null
(random SNVs in the run's negatives, `poimkit.variants.null`; q-values
within the variants in peaks and within the others, as ``--bed`` makes
them): the share of causal SNVs at q <= 0.05 (goal >= 80 %) and of neutral
ones (goal <= 5 %), also of the neutral ones inside peaks (the family the
causal ones are tested in). The baseline is the ranking alone: the share of
causal SNVs among as many top |effect| as there are causal ones.

Speed: 10^6 random SNVs of a 20 Mb genome scored by the gkm model with the
null (default 10^5 random SNVs) and without it (``--null 0``), in one run:
goal under 60 s.

The WD model runs twice: as ``run`` trains it (on copies of every window
moved by up to ``--jitter`` 10 letters, `poimkit.run.data.MovedCopies`) and
on the windows alone (``wd:0``, ``--jitter 0``), the baseline of the copies.

Usage: ``python benchmarks/bench_variant_calls.py [--seed 5209] [--kernels gkm,wd,wd:0]
[--designs ctcf:0,ap1:0,ctcf:200,ap1:200] [--speed/--no-speed]
[--out variant_calls.json]``.
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

from run_info import jsonable, machine, versions  # noqa: E402

Q = 0.05
#: the planted motifs: the generator's AP-1 / NFE2-like 10-mer, a CTCF-like 15-mer
MOTIFS = {"ap1": "TGACTCAGCA", "ctcf": "CCACCAGGGGGCGCT"}


def _poimkit(*args) -> float:
    """Run the CLI in a fresh process; its wall time."""
    started = time.perf_counter()
    command = [sys.executable, "-m", "poimkit", *map(str, args), "--quiet"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def _train(g, out: Path, *options: str) -> float:
    """``poimkit run --bed`` on the genome's peaks; its wall time."""
    return _poimkit("run", "--bed", g.peaks, "--genome", g.genome, *options, "-o", out)


def calls_case(spec: str, g, work: Path) -> dict:
    import pandas as pd

    kernel, _, jitter = spec.partition(":")
    options = ["--kernel", kernel, "--max-motifs", "0"]
    options += ["--jitter", jitter] if jitter else []
    out = work / f"run_{Path(g.genome).parent.name}_{kernel}{jitter}"
    seconds_run = _train(g, out, *options)
    effects = out.with_suffix(".tsv")
    seconds = _poimkit(
        "variants",
        out / "model.npz",
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
    in_peaks = _in_peaks(table, g.peaks)
    called = table["q_value"].to_numpy() <= Q
    top = np.argsort(-np.abs(table["effect"].to_numpy()), kind="stable")
    top = top[: int(causal.sum())]
    summary = json.loads((out / "summary.json").read_text())
    row = {
        "kernel": kernel,
        "jitter": int(jitter) if jitter else None,
        "family": summary["family"],
        "training_copies": summary["peaks"]["training_copies"],
        "cv_auc": round(summary["cv_auc"], 4),
        "n_causal": int(causal.sum()),
        "n_neutral": int(neutral.sum()),
        "causal_called": round(float(called[causal].mean()), 4),
        "neutral_called": round(float(called[neutral].mean()), 4),
        "n_neutral_in_peaks": int((neutral & in_peaks).sum()),
        "neutral_in_peaks_called": round(float(called[neutral & in_peaks].mean()), 4),
        "ranking_precision": round(float(causal[top].mean()), 4),
        "seconds_run": round(seconds_run, 1),
        "seconds_variants": round(seconds, 1),
    }
    row["goal_met"] = row["causal_called"] >= 0.8 and row["neutral_called"] <= 0.05
    return row


def _in_peaks(table, peaks: Path) -> np.ndarray:
    """Which rows lie within 100 letters of a peak's summit (its training window)."""
    from poimkit.genome.peaks import read_peaks

    windows = read_peaks(str(peaks)).windows(200)
    inside = np.zeros(len(table), dtype=bool)
    chrom, pos = table["chrom"].to_numpy(), table["pos"].to_numpy() - 1
    for name, start, end in zip(windows.chrom, windows.start, windows.end, strict=True):
        inside |= (chrom == name) & (pos >= start) & (pos < end)
    return inside


def _random_vcf(path: Path, genome_path: Path, n: int, seed: int) -> None:
    from poimkit.genome.reference import open_genome

    rng = np.random.default_rng(seed)
    letters = np.array(list("ACGT"))
    lines = ["##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\n"]
    with open_genome(genome_path, quiet=True) as genome:
        sizes = genome.lengths
        per = np.bincount(rng.choice(len(sizes), n), minlength=len(sizes))
        for (name, size), k in zip(sizes.items(), per, strict=True):
            codes = genome.codes(name)
            pos = np.sort(rng.choice(size, k, replace=False))
            pos = pos[codes[pos] <= 3]
            ref = codes[pos]
            alt = (ref + rng.integers(1, 4, pos.size)) % 4
            lines += [
                f"{name}\t{p + 1}\t.\t{letters[r]}\t{letters[a]}\n"
                for p, r, a in zip(pos.tolist(), ref, alt, strict=True)
            ]
    path.write_text("".join(lines))


def speed_case(work: Path, seed: int) -> dict:
    from poimkit.datasets import write_synthetic_genome

    g = write_synthetic_genome(
        work / "big",
        n_chromosomes=4,
        chromosome_length=5_000_000,
        n_peaks=2000,
        n_causal=0,
        n_neutral=100,
        seed=seed,
    )
    out = work / "run_speed"
    _train(g, out, "--kernel", "gkm", "--no-grid", "--cv", "0", "--max-motifs", "0")
    vcf = work / "million.vcf"
    _random_vcf(vcf, g.genome, 1_000_000, seed)
    model = out / "model.npz"
    base = ["variants", model, "--vcf", vcf, "--genome", g.genome]
    with_null = _poimkit(*base, "-o", work / "m1.tsv")
    without = _poimkit(*base, "-o", work / "m0.tsv", "--null", "0")
    return {
        "variants": 1_000_000,
        "seconds_with_null": round(with_null, 1),
        "seconds_without_null": round(without, 1),
        "goal_met": with_null < 60.0,
    }


def main() -> None:
    from poimkit.datasets import write_synthetic_genome

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=5209)
    parser.add_argument(
        "--kernels",
        default="gkm,wd,wd:0",
        help="families; wd:J trains the WD model with --jitter J (wd: the default)",
    )
    parser.add_argument(
        "--designs",
        default="ctcf:0,ap1:0,ctcf:200,ap1:200",
        help="motif:off-peak sites (the generator plants n_peaks // 10 = 200)",
    )
    parser.add_argument("--speed", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--out", default=str(HERE / "variant_calls.json"))
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for design in filter(None, args.designs.split(",")):
            name, decoys = design.split(":")
            g = write_synthetic_genome(
                work / f"{name}_{decoys}",
                motif=MOTIFS[name],
                n_decoys=int(decoys),
                n_chromosomes=6,
                chromosome_length=2_000_000,
                n_peaks=2000,
                n_causal=100,
                n_neutral=5000,
                seed=args.seed,
            )
            for spec in args.kernels.split(","):
                row = {"motif": name, "off_peak_sites": int(decoys)}
                row.update(calls_case(spec, g, work))
                rows.append(row)
                print(json.dumps(row), flush=True)
        speed = speed_case(work, args.seed) if args.speed else None
        if speed:
            print(json.dumps(speed), flush=True)
    document = {
        "benchmark": "variant_calls",
        "seed": args.seed,
        "q": Q,
        "rows": rows,
        "speed": speed,
        "machine": machine(),
        "versions": versions(),
    }
    Path(args.out).write_text(json.dumps(jsonable(document), indent=1) + "\n")


if __name__ == "__main__":
    main()
