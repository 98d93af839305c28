"""``poimkit scan`` against memelite's FIMO at 1 and 2 threads (issue 55, item 3.2).

Two cases on the shared 1 Mb piece of hg19 chr22 (real letters, N gaps):

peaks
    The issue's case: the first 23 CTCF peaks, every JASPAR vertebrate CORE
    motif (pyjaspar's newest release), p <= 1e-4.
genome
    The whole piece, with the first ``--genome-motifs`` of those motifs.

Both tools run in this process on the same letters and motifs, each call
timed after a warm-up call (numba's compilation left out), at 1 and at 2
numba threads (memelite parallelises over motifs with numba too, so
``numba.set_num_threads`` sets both). Reading the motifs is timed once on its
own. Each case also runs ``poimkit scan`` as a command (a fresh process:
start-up, reading the JASPAR collection and compilation included) at
``--threads 1`` and ``--threads 2``, three times each, to show the spread the
issue saw (65-108 s at the default threads, 4.7 s at one).

FIMO's hits differ from poimkit's by design (a uniform background and its
pseudocount, against the scanned letters' composition and the exact tail).
memelite scores a letter N (and the padding of shorter regions) as 0, which
beats most letters of a low-information motif, so it reports hits in N gaps;
the table counts its hits in windows without N, as poimkit's are.

Usage: ``python benchmarks/bench_scan_threads.py [--genome-motifs 100]
[--out scan_threads.json]``.
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
SHARED = HERE.parents[1] / "shared" / "data" / "hg19_chr22"
P = 1e-4


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def timed(call):
    start = time.perf_counter()
    out = call()
    return out, time.perf_counter() - start


def regions_of(n_peaks: int | None):
    from poimkit.genome.peaks import read_peaks

    if n_peaks is None:
        return None
    peaks = read_peaks(SHARED / "ctcf_peaks.bed")
    return list(
        zip(
            peaks.chrom[:n_peaks],
            peaks.start[:n_peaks].tolist(),
            peaks.end[:n_peaks].tolist(),
            strict=True,
        )
    )


def fimo_inputs(genome, regions):
    """One-hot letters of the regions (or every chromosome) for memelite."""
    if regions is None:
        regions = [(name, 0, int(n)) for name, n in genome.lengths.items()]
    width = max(e - s for _, s, e in regions)
    X = np.zeros((len(regions), 4, width), dtype=np.float32)
    for i, (chrom, s, e) in enumerate(regions):
        codes = genome.codes(chrom, s, e)
        ok = codes < 4
        X[i, codes[ok], np.flatnonzero(ok)] = 1.0
    return X, sum(e - s for _, s, e in regions)


def hits_without_n(tables, X) -> int:
    """memelite's hits whose window holds no N (nor padding)."""
    letters = X.sum(axis=1) > 0  # (n, width)
    gaps = np.concatenate(
        [np.zeros((X.shape[0], 1), dtype=np.int64), np.cumsum(~letters, axis=1)], axis=1
    )
    n = 0
    for table in tables:
        rows = table["sequence_name"].to_numpy().astype(np.int64)
        start = table["start"].to_numpy().astype(np.int64)
        end = table["end"].to_numpy().astype(np.int64)
        n += int(np.sum(gaps[rows, end] - gaps[rows, start] == 0))
    return n


def case(name, motifs, regions, threads) -> list[dict]:
    import numba
    from memelite import fimo

    from poimkit.genome.reference import open_genome
    from poimkit.motifs.hits import scan_genome

    pwms = {
        f"{i} {m.name}": np.ascontiguousarray(m.pwm.T).astype(np.float64)
        for i, m in enumerate(motifs)
    }
    rows = []
    with open_genome(str(SHARED / "genome.fa"), quiet=True) as genome:
        X, letters = fimo_inputs(genome, regions)
        few = list(motifs[:3])
        scan_genome(few, genome, regions[:1] if regions else None)  # compile
        fimo({k: pwms[k] for k in list(pwms)[:3]}, X[:1], threshold=P)
        for n in threads:
            numba.set_num_threads(n)
            hits, ours = timed(lambda: scan_genome(motifs, genome, regions, p=P))
            tables, theirs = timed(lambda: fimo(pwms, X, threshold=P))
            row = {
                "fimo_hits_with_n": int(sum(len(t) for t in tables)),
                "case": name,
                "threads": n,
                "letters": letters,
                "motifs": len(motifs),
                "poimkit_s": ours,
                "poimkit_hits": len(hits),
                "fimo_s": theirs,
                "fimo_hits": hits_without_n(tables, X),
            }
            row["ratio"] = theirs / ours
            log(json.dumps(row))
            rows.append(row)
    return rows


def command_runs(source, bed, threads, repeats) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in threads:
            for r in range(repeats):
                out = Path(tmp) / f"hits{n}_{r}.bed"
                command = [sys.executable, "-m", "poimkit", "scan", source]
                command += ["--genome", str(SHARED / "genome.fa"), "-o", str(out)]
                command += ["--threads", str(n), "--quiet"]
                if bed:
                    command += ["--bed", bed]
                _, seconds = timed(lambda c=command: subprocess.run(c, check=True))
                rows.append({"threads": n, "repeat": r, "seconds": seconds})
                log(json.dumps(rows[-1]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--genome-motifs", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=str(HERE / "scan_threads.json"))
    args = parser.parse_args()

    from poimkit.motifs.compare import known_motifs

    motifs, read_s = timed(lambda: known_motifs("jaspar:vertebrates"))
    log(f"read {len(motifs)} JASPAR motifs in {read_s:.1f} s")
    threads = (1, 2)
    rows = case("23 CTCF peaks", motifs, regions_of(23), threads)
    rows += case("1 Mb of hg19", motifs[: args.genome_motifs], None, threads)
    with tempfile.TemporaryDirectory() as tmp:
        bed = Path(tmp) / "p23.bed"
        lines = (SHARED / "ctcf_peaks.bed").read_text().splitlines()
        bed.write_text("\n".join(lines[:23]) + "\n")
        runs = command_runs("jaspar:vertebrates", str(bed), threads, args.repeats)
    Path(args.out).write_text(
        json.dumps({"read_s": read_s, "cases": rows, "commands": runs}, indent=1)
    )
    print("| case | threads | letters x motifs | poimkit | hits | FIMO | hits |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['case']} | {r['threads']} | {r['letters']:,} x {r['motifs']:,} | "
            f"{r['poimkit_s']:.2f} s | {r['poimkit_hits']:,} | {r['fimo_s']:.2f} s | "
            f"{r['fimo_hits']:,} |"
        )
    for n in threads:
        times = [c["seconds"] for c in runs if c["threads"] == n]
        print(f"command --threads {n}: " + ", ".join(f"{t:.1f} s" for t in times))


if __name__ == "__main__":
    main()
