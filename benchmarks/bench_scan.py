"""``poimkit scan`` beside memelite's FIMO: planted sites found at their coordinates.

A fresh synthetic genome (`poimkit.datasets.write_synthetic_genome`, seeded;
6 chromosomes of 2 Mb, 2,000 peaks with the generator's motif at most
summits and 200 sites off the peaks, soft-masked repeats, GC isochores and an
N gap written into it) is scanned with the generator's own PWM on both
strands at p <= 1e-4 by ``poimkit scan`` (the command, in a fresh process)
and by memelite's FIMO (the MEME suite's algorithm, on the same FASTA). For
each: the share of planted sites found with their exact start and strand,
the hits, their agreement (hits in both over hits in either), and the wall
time. Goal: every planted site whose letters pass the threshold found at
its exact coordinates.

Usage: ``python benchmarks/bench_scan.py [--seed 4302] [--out scan.json]``.
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

P = 1e-4


def _poimkit(meme: Path, genome: Path, out: Path) -> tuple[set, float]:
    started = time.perf_counter()
    command = [sys.executable, "-m", "poimkit", "scan", meme, "--genome", genome]
    command += ["-p", P, "-o", out, "--quiet"]
    subprocess.run(list(map(str, command)), check=True, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    hits = set()
    for line in out.read_text().splitlines()[1:]:
        f = line.split("\t")
        hits.add((f[0], int(f[1]), f[5]))
    return hits, seconds


def _fimo(pwm: np.ndarray, genome: Path) -> tuple[set, float]:
    from memelite import fimo

    started = time.perf_counter()
    tables = fimo({"planted": np.ascontiguousarray(pwm.T)}, str(genome), threshold=P)
    seconds = time.perf_counter() - started
    hits = set()
    for table in tables:
        for chrom, start, strand in zip(
            table["sequence_name"], table["start"], table["strand"], strict=True
        ):
            hits.add((str(chrom).split()[0], int(start), strand))
    return hits, seconds


def main() -> None:
    from poimkit.datasets import write_synthetic_genome
    from poimkit.motifs.formats import write_motifs
    from poimkit.motifs.motif import Motif

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4302)
    parser.add_argument("--out", default=str(HERE / "scan.json"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        g = write_synthetic_genome(
            work / "g",
            n_chromosomes=6,
            chromosome_length=2_000_000,
            n_peaks=2000,
            seed=args.seed,
        )
        meme = work / "planted.meme"
        motif = Motif(g.pwm, float("nan"), float("nan"), name="planted", n_sites=50)
        write_motifs(meme, [motif])
        ours, ours_s = _poimkit(meme, g.genome, work / "hits.bed")
        theirs, theirs_s = _fimo(g.pwm, g.genome)
        planted = {
            (str(c), int(s), str(d))
            for c, s, d in zip(g.site_chrom, g.site_start, g.site_strand, strict=True)
        }
        row = {
            "planted_sites": len(planted),
            "found_poimkit": round(len(planted & ours) / len(planted), 4),
            "found_fimo": round(len(planted & theirs) / len(planted), 4),
            "hits_poimkit": len(ours),
            "hits_fimo": len(theirs),
            "agreement": round(len(ours & theirs) / max(1, len(ours | theirs)), 4),
            "seconds_poimkit": round(ours_s, 1),
            "seconds_fimo": round(theirs_s, 1),
            "letters": 12_000_000,
        }
        print(json.dumps(row), flush=True)
    document = {
        "benchmark": "scan",
        "seed": args.seed,
        "p": P,
        "row": row,
        "machine": machine(),
        "versions": versions(),
    }
    Path(args.out).write_text(json.dumps(jsonable(document), indent=1) + "\n")


if __name__ == "__main__":
    main()
