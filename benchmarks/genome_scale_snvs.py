"""Every SNV of every peak: ``poimkit variants --all-snvs`` at 10^4 to 10^5 peaks.

Part of ``bench_genome_scale.py`` (issue 58, item 2). A fresh synthetic genome
(`poimkit.datasets.write_synthetic_genome`: GC isochores, soft-masked repeats,
N gaps, an AP-1-like motif at most summits) with 10^5 peaks; a gkm model
trained by ``poimkit train --bed`` on the first peaks; then, as whole
commands with their wall time and peak memory:

- ``variants --all-snvs`` on the first 10^4, 3·10^4 and 10^5 peaks (200-letter
  windows: 6·10^6 to 6·10^7 SNVs), with the null of 10^5 SNVs and q-values, into
  a bgzipped, tabix-indexed table;
- the baseline, side by side: the same SNVs of the first 10^3 peaks written as a
  VCF and scored by ``variants --vcf --bed`` (the path every variant took
  before), into a table, and the same through ``--all-snvs``.

Goal: 10^5 peaks × 200 letters × 3 (6·10^7 SNVs), with the null, in under 15
minutes and under 4 GiB.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from run_info import jsonable, machine, versions

from poimkit.datasets import write_synthetic_genome

HERE = Path(__file__).resolve().parent


def log(message: str) -> None:
    print(message, flush=True)


def measured(args: list[str], timeout: float = 7200) -> dict:
    """``poimkit ARGS`` in a fresh process: wall seconds and peak memory (GiB)."""
    command = ["/usr/bin/time", "-v", sys.executable, "-m", "poimkit.cli", *args]
    log("$ poimkit " + " ".join(args))
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    seconds = time.perf_counter() - start
    rss = next(
        (
            int(line.split(":")[1]) / 2**20
            for line in done.stderr.splitlines()
            if "Maximum resident set size" in line
        ),
        float("nan"),
    )
    if done.returncode:
        tail = done.stderr.strip().splitlines()[-25:]
        raise SystemExit(f"exit {done.returncode}:\n" + "\n".join(tail))
    log(f"  {seconds:.1f} s, {rss:.2f} GiB; {done.stdout.strip()}")
    return {"seconds": seconds, "peak_gib": rss, "said": done.stdout.strip()}


def first_peaks(path: Path, n: int, out: Path) -> Path:
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    if n > len(lines):
        raise SystemExit(f"{path} has {len(lines)} peaks, fewer than {n}")
    out.write_text("\n".join(lines[:n]) + "\n")
    return out


def snv_vcf(table: Path, out: Path) -> int:
    """The SNVs of an all-SNVs table as a VCF (the baseline's input)."""
    n = 0
    with gzip.open(table, "rt") as src, gzip.open(out, "wt") as dst:
        dst.write("##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\n")
        for line in src:
            if line.startswith("#"):
                continue
            chrom, pos, ref, alt = line.split("\t", 4)[:4]
            dst.write(f"{chrom}\t{pos}\t.\t{ref}\t{alt}\n")
            n += 1
    return n


def all_snvs(model: Path, bed: Path, genome: str, null: int, out: Path) -> list:
    """The arguments of ``variants --all-snvs`` (its output replaced, quiet)."""
    return [
        "variants", str(model), "--all-snvs", "--bed", str(bed), "--genome", genome,
        "--null", str(null), "-o", str(out), "--force", "--quiet",
    ]  # fmt: skip


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", default="/tmp/poimkit_genome_scale_snvs")
    parser.add_argument("--sizes", default="10000,30000,100000")
    parser.add_argument("--train-peaks", type=int, default=5000)
    parser.add_argument("--baseline-peaks", type=int, default=1000)
    parser.add_argument("--null", type=int, default=100_000)
    parser.add_argument("--chromosome-length", type=int, default=100_000_000)
    parser.add_argument("--seed", type=int, default=5801)
    parser.add_argument("--output", default=str(HERE / "genome_scale_snvs.json"))
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)

    n_peaks = max(sizes)
    size = args.chromosome_length
    chromosomes = max(4, int(np.ceil(n_peaks * 2000 / 0.55 / size)))
    start = time.perf_counter()
    synthetic = write_synthetic_genome(
        work / "genome",
        n_chromosomes=chromosomes,
        chromosome_length=size,
        n_peaks=n_peaks,
        n_causal=100,
        n_neutral=1000,
        seed=args.seed,
    )
    written = time.perf_counter() - start
    log(
        f"genome: {chromosomes} x {size / 1e6:g} Mb, {n_peaks:,} peaks, "
        f"written in {written:.0f} s"
    )
    genome, peaks = str(synthetic.genome), Path(synthetic.peaks)

    model = work / "gkm.npz"
    train_bed = first_peaks(peaks, args.train_peaks, work / "train.narrowPeak")
    train = measured(
        [
            "train",
            "--bed",
            str(train_bed),
            "--genome",
            genome,
            "--kernel",
            "gkm",
            "--cv",
            "0",
            "--no-grid",
            "-o",
            str(model),
            "--quiet",
        ]
    )
    rows = []
    for n in sizes:
        bed = first_peaks(peaks, n, work / f"peaks_{n}.narrowPeak")
        out = work / f"snvs_{n}.tsv.gz"
        command = all_snvs(model, bed, genome, args.null, out)
        run = measured([*command, "--calls", "0.05"])
        n_snvs = int(re.search(r"of ([\d,]+) SNVs", run["said"])[1].replace(",", ""))
        rows.append({"peaks": n, "snvs": n_snvs, **run})
        log(f"  {n:,} peaks: {n_snvs:,} SNVs, {n_snvs / run['seconds']:,.0f} SNVs/s")

    base_bed = first_peaks(peaks, args.baseline_peaks, work / "base.narrowPeak")
    base_out = work / "base_all.tsv.gz"
    fast = measured(all_snvs(model, base_bed, genome, args.null, base_out))
    vcf = work / "base.vcf.gz"
    n_base = snv_vcf(base_out, vcf)
    slow = measured(
        [
            "variants",
            str(model),
            "--vcf",
            str(vcf),
            "--bed",
            str(base_bed),
            "--genome",
            genome,
            "--null",
            str(args.null),
            "--top",
            "0",
            "-o",
            str(work / "base_vcf.tsv"),
            "--force",
            "--quiet",
        ]
    )
    baseline = {
        "peaks": args.baseline_peaks,
        "snvs": n_base,
        "all_snvs": fast,
        "vcf": slow,
        "speedup": slow["seconds"] / fast["seconds"],
    }
    log(
        f"baseline, {n_base:,} SNVs: --all-snvs {fast['seconds']:.1f} s, "
        f"--vcf {slow['seconds']:.1f} s ({baseline['speedup']:.1f}x)"
    )
    sizes_n = np.array([r["peaks"] for r in rows], float)
    secs = np.array([r["seconds"] for r in rows])
    slope = (
        float(np.polyfit(np.log(sizes_n), np.log(secs), 1)[0])
        if len(rows) > 1
        else None
    )
    result = {
        "machine": machine(),
        "versions": versions("pysam"),
        "genome": {
            "chromosomes": chromosomes,
            "letters": chromosomes * size,
            "seconds": written,
        },
        "train": train,
        "sizes": rows,
        "log_log_slope": slope,
        "baseline": baseline,
    }
    Path(args.output).write_text(json.dumps(jsonable(result), indent=1) + "\n")
    log(f"log-log slope of time against peaks: {slope}")
    return result


if __name__ == "__main__":
    main()
