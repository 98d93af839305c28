"""Whole-genome ``poimkit scan`` with 1,000 motifs against memelite's FIMO (issue 58).

The issue's goal: at least twice FIMO's throughput (letters x motifs per
second) at one thread, near-linear in threads, and the whole ``poimkit scan``
command on at least 3e8 letters with 1,000 motifs, extrapolated to a human
genome (3e9 letters) only where the cost is linear.

The motifs: the first ``--motifs`` JASPAR vertebrate CORE motifs (poimkit's
cached collection), written to a MEME file and read back, so that the
command and the in-process calls scan the same matrices (random motifs if no
collection can be read).

In process, on the same letters and motifs, each call timed after a warm-up
call (numba's compilation left out), at 1 and 2 numba threads (memelite
parallelises over motifs with numba too): ``poimkit.motifs.hits.scan_genome``
against ``memelite.fimo`` on

synthetic
    Random letters written by this script: isochores of 50-300 kb with GC
    drawn from 35-60 %, and N gaps (about 1 % of the letters), in
    chromosomes of 1 Mb; the first 1, 4 and 16 Mb (``--sizes``) to show the
    throughput does not depend on the size.
hg19
    The shared 1 Mb of hg19 chr22 (real letters, repeats, N gaps).

FIMO's hits are counted in windows without N, as poimkit's are (memelite
scores N as 0). Both at ``--p-value`` (1e-4, both tools' default).

Then ``poimkit scan MOTIFS --genome G -o hits.bed --threads 2`` as a command
(a fresh process, under ``/usr/bin/time -v`` for its peak memory) on a
synthetic genome of ``--command-size`` letters (3e8; chromosomes of 5e7) at
``--command-p``. Writing the hits is timed on its own in process.

Usage: ``python benchmarks/genome_scale_scan.py [--sizes 1e6 4e6 1.6e7]
[--motifs 1000] [--command-size 3e8] [--command-p 1e-4] [--workdir DIR]
[--out genome_scale_scan.json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
HG19 = HERE.parents[1] / "shared" / "data" / "hg19_chr22" / "genome.fa"
HUMAN = 3e9
LETTERS = np.frombuffer(b"ACGTN", dtype=np.uint8)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def timed(call):
    start = time.perf_counter()
    out = call()
    return out, time.perf_counter() - start


def cpu_timed(call):
    """The call's result, wall seconds and CPU seconds (every thread's)."""
    cpu = time.process_time()
    out, seconds = timed(call)
    return out, seconds, time.process_time() - cpu


def read_motifs(n: int, folder: Path):
    """The first n JASPAR vertebrate motifs (or random ones), through a MEME file."""
    from poimkit.motifs.compare import known_motifs
    from poimkit.motifs.formats import write_motifs
    from poimkit.motifs.motif import Motif

    try:
        motifs = known_motifs("jaspar:vertebrates")[:n]
        source = "JASPAR vertebrates (cached collection)"
    except Exception as error:  # no collection offline: motifs drawn
        log(f"no JASPAR collection ({error}); {n} random motifs")
        rng = np.random.default_rng(0)
        motifs = [
            Motif(rng.dirichlet(np.full(4, 0.3), size=w), np.nan, np.nan, n_sites=20)
            for w in rng.integers(6, 21, n)
        ]
        source = "random (Dirichlet 0.3, 6-20 columns)"
    named = [
        Motif(m.pwm, np.nan, np.nan, name=f"m{i}_{m.name.split()[0]}", n_sites=20)
        for i, m in enumerate(motifs)
    ]
    path = folder / "motifs.meme"
    write_motifs(path, named)
    return known_motifs(str(path)), path, source


def write_genome(path: Path, length: int, chrom_length: int, seed: int) -> None:
    """Random letters in isochores of GC 35-60 % with N gaps, as FASTA."""
    rng = np.random.default_rng(seed)
    with open(path, "wb") as handle:
        for c, start in enumerate(range(0, length, chrom_length)):
            n = min(chrom_length, length - start)
            gc = np.empty(n)
            at = 0
            while at < n:  # isochores
                size = int(rng.integers(50_000, 300_000))
                gc[at : at + size] = rng.uniform(0.35, 0.60)
                at += size
            u = rng.random(n)
            codes = np.where(
                u < gc,
                np.where(u < gc / 2, 1, 2),
                np.where(u < gc + (1 - gc) / 2, 0, 3),
            ).astype(np.uint8)
            for _ in range(max(1, n // 2_000_000)):  # gaps: about 1 % N
                gap = int(rng.integers(5_000, 40_000))
                s = int(rng.integers(0, max(1, n - gap)))
                codes[s : s + gap] = 4
            text = LETTERS[codes]
            handle.write(f">chr{c + 1}\n".encode())
            full = n // 60 * 60
            lines = np.empty((full // 60, 61), dtype=np.uint8)
            lines[:, :60] = text[:full].reshape(-1, 60)
            lines[:, 60] = ord("\n")
            handle.write(lines.tobytes())
            if n > full:
                handle.write(text[full:].tobytes() + b"\n")


def fimo_inputs(genome, regions):
    """One-hot letters of the regions for memelite (rows padded to the longest)."""
    width = max(e - s for _, s, e in regions)
    X = np.zeros((len(regions), 4, width), dtype=np.float32)
    for i, (chrom, s, e) in enumerate(regions):
        codes = genome.codes(chrom, s, e)
        ok = codes < 4
        X[i, codes[ok], np.flatnonzero(ok)] = 1.0
    return X


def hits_without_n(tables, X) -> int:
    """memelite's hits whose window holds no N (nor padding)."""
    letters = X.sum(axis=1) > 0
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


def compare(name, fasta, sizes, motifs, p, threads, folder) -> list[dict]:
    """poimkit and FIMO side by side on the first letters of each size."""
    import numba
    from memelite import fimo

    from poimkit.genome.reference import open_genome
    from poimkit.motifs.hits import scan_genome, write_hits_bed

    pwms = {m.name: np.ascontiguousarray(m.pwm.T).astype(np.float64) for m in motifs}
    rows = []
    with open_genome(str(fasta), quiet=True) as genome:
        chroms = list(genome.lengths.items())
        scan_genome(motifs[:3], genome, [(chroms[0][0], 0, 5000)])  # compile
        fimo(dict(list(pwms.items())[:3]), np.eye(4, dtype=np.float32)[None], p)
        for size in sizes:
            regions, total = [], 0
            for chrom, length in chroms:
                take = min(int(length), size - total)
                if take > 0:
                    regions.append((chrom, 0, take))
                    total += take
            X = fimo_inputs(genome, regions)
            for n in threads:
                numba.set_num_threads(n)
                hits, ours, our_cpu = cpu_timed(
                    lambda r=regions: scan_genome(motifs, genome, r, p)
                )
                tables, theirs, their_cpu = cpu_timed(
                    lambda X=X: fimo(pwms, X, threshold=p)
                )
                row = {
                    "case": name,
                    "letters": total,
                    "motifs": len(motifs),
                    "threads": n,
                    "poimkit_s": ours,
                    "poimkit_cpu_s": our_cpu,
                    "poimkit_hits": len(hits),
                    "fimo_s": theirs,
                    "fimo_cpu_s": their_cpu,
                    "fimo_hits": hits_without_n(tables, X),
                    "fimo_hits_with_n": int(sum(len(t) for t in tables)),
                }
                row["poimkit_rate"] = total * len(motifs) / ours
                row["fimo_rate"] = total * len(motifs) / theirs
                row["ratio"] = theirs / ours
                row["cpu_ratio"] = their_cpu / our_cpu
                log(json.dumps(row))
                rows.append(row)
            del X, tables
            _, write_s = timed(lambda h=hits: write_hits_bed(folder / "w.bed", h))
            rows[-1]["write_s"] = write_s
            log(f"wrote {len(hits):,} hits in {write_s:.2f} s")
    return rows


def command(motif_file, fasta, p, threads, folder) -> dict:
    """``poimkit scan`` on the whole genome, its wall time and peak memory."""
    out = folder / "hits.bed"
    args = [sys.executable, "-m", "poimkit", "scan", str(motif_file)]
    args += ["--genome", str(fasta), "-o", str(out), "--force", "--quiet"]
    args += ["--threads", str(threads), "--p-value", f"{p:g}"]
    run, seconds = timed(
        lambda: subprocess.run(
            ["/usr/bin/time", "-v", *args], capture_output=True, text=True, check=True
        )
    )
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
    cpu = sum(
        float(x)
        for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", run.stderr)
    )
    n_hits = sum(1 for _ in open(out, "rb")) - 1
    return {
        "threads": threads,
        "p_value": p,
        "seconds": seconds,
        "cpu_s": cpu,
        "peak_gib": int(peak.group(1)) / 2**20 if peak else None,
        "hits": n_hits,
        "bed_bytes": out.stat().st_size,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e6, 4e6, 1.6e7])
    parser.add_argument("--motifs", type=int, default=1000)
    parser.add_argument("--p-value", type=float, default=1e-4)
    parser.add_argument("--command-size", type=float, default=3e8)
    parser.add_argument("--command-p", type=float, default=1e-4)
    parser.add_argument("--skip-command", action="store_true")
    parser.add_argument("--workdir", help="keep the genomes here (default: a temp)")
    parser.add_argument("--out", default=str(HERE / "genome_scale_scan.json"))
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.workdir or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        motifs, motif_file, source = read_motifs(args.motifs, folder)
        log(f"{len(motifs)} motifs: {source}")
        sizes = [int(s) for s in args.sizes]
        small = folder / "synthetic_small.fa"
        if not small.exists():
            write_genome(small, max(sizes), 1_000_000, seed=1)
        threads = (1, 2)
        rows = compare("synthetic", small, sizes, motifs, args.p_value, threads, folder)
        rows += compare(
            "hg19 chr22 1 Mb", HG19, [10**6], motifs, args.p_value, threads, folder
        )
        result = {
            "motif_source": source,
            "cpus": os.cpu_count(),
            "load_before": os.getloadavg()[0],
            "cases": rows,
        }
        if not args.skip_command:
            big = folder / f"synthetic_{int(args.command_size)}.fa"
            if not big.exists():
                _, write_s = timed(
                    lambda: write_genome(big, int(args.command_size), 50_000_000, 2)
                )
                log(f"wrote {big} in {write_s:.0f} s")
            from poimkit.genome.reference import open_genome

            with open_genome(str(big), quiet=True) as genome:  # index it first
                letters = sum(genome.lengths.values())
            run = command(motif_file, big, args.command_p, 2, folder)
            run["letters"] = letters
            run["motifs"] = len(motifs)
            run["rate"] = letters * len(motifs) / run["seconds"]
            run["human_s"] = HUMAN * len(motifs) / run["rate"]
            log(json.dumps(run))
            result["command"] = run
        result["load_after"] = os.getloadavg()[0]
        Path(args.out).write_text(json.dumps(result, indent=1))

    print(
        "| case | letters | threads | poimkit | CPU | hits | FIMO | CPU | hits "
        "| ratio (wall / CPU) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['case']} | {r['letters']:,} | {r['threads']} | "
            f"{r['poimkit_s']:.2f} s ({r['poimkit_rate']:.3g}/s) | "
            f"{r['poimkit_cpu_s']:.2f} s | {r['poimkit_hits']:,} | "
            f"{r['fimo_s']:.2f} s ({r['fimo_rate']:.3g}/s) | {r['fimo_cpu_s']:.2f} s | "
            f"{r['fimo_hits']:,} | {r['ratio']:.2f}x / {r['cpu_ratio']:.2f}x |"
        )
    for n in (1, 2):
        rate = [r for r in rows if r["case"] == "synthetic" and r["threads"] == n]
        best = max(rate, key=lambda r: r["letters"])
        ours, theirs = (
            HUMAN * best["motifs"] / best[f"{tool}_rate"] / 60
            for tool in ("poimkit", "fimo")
        )
        print(
            f"3e9 letters x {best['motifs']} motifs at {n} thread(s), linear from "
            f"{best['letters']:,}: poimkit {ours:.0f} min, FIMO {theirs:.0f} min"
        )
    if "command" in result:
        c = result["command"]
        print(
            f"poimkit scan command, {c['letters']:,} letters x {c['motifs']} motifs, "
            f"--threads 2, p <= {c['p_value']:g}: {c['seconds']:.0f} s (CPU "
            f"{c['cpu_s']:.0f} s), peak "
            f"{c['peak_gib']:.2f} GiB, {c['hits']:,} hits; 3e9 letters: "
            f"{c['human_s'] / 60:.0f} min"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
