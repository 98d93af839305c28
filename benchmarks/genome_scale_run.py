"""Benchmark: ``poimkit run --bed`` end to end at 10^4 .. 10^6 peaks (issue 58, item 1).

Data: one synthetic genome of realistic size, written once by
`poimkit.datasets.write_synthetic_genome` in parts (each part: chromosomes of
``--chromosome-mb`` Mb, GC isochores 0.35-0.60, ~20 % soft-masked repeat copies,
N gaps, its own seed; one call per part keeps the writer's memory to one part)
and joined into one FASTA whose chromosomes are renamed ``chr1`` .. ``chrN``.
Each part's peaks are placed GC-biased, 90 % with a site of the NFE2 /
AP-1-like motif ``TGACTCAGCA`` (drawn from `consensus_pwm`: 0.94 on the inner
columns, 0.6 on the ends) at the summit on either strand, a twentieth as many
sites again outside the peaks; the joined narrowPeak holds every peak. The
genome holds enough peaks for the largest size asked for (60 % of its 2 kb
slots at most: about 3.7 Gb for 10^6 peaks); it is written only if the folder
does not hold one already (``--data``), so that every size, and a later call,
runs on the same genome.

Each size n takes a seeded sample of n peaks of the joined file (the smaller
samples are not prefixes: every size sees peaks from all over the genome) and
runs, in a fresh process, ``poimkit run --bed PEAKS --genome genome.fa -o OUT
--quiet`` with every default (200-letter summit windows, genomic negatives,
family selection, CV, final model, POIM, motifs, report) and ``--known jaspar``
(the 1,019 motifs of the offline JASPAR CORE vertebrates collection: a default
run tests no known motifs),
after an untimed run on 1,000 peaks (``--warmup``: numba compiles or loads
its kernels there), under ``/usr/bin/time -v`` for the whole command's wall
time and peak resident memory (the largest of the process and its children).
The time of each step is read from the run's ``summary.json`` (``runtimes``).

Above 20,000 records a run cross-validates a stratified sample of 20,000 and
finds its motifs there (``--cv-sample``), and ``--kernel auto`` takes the gapped
k-mer model; the final model trains on every record. Below it (10^4 peaks are
about 2·10^4 records) the cross-validation takes every record, with the WD
kernel solver and, with torch installed, a CNN beside it: the costliest size.

The log-log slope of each step's time between consecutive sizes is printed
(1: linear; n log n between 10^5 and 10^6 is about 1.08); the goals of issue
58 are printed as PASS / FAIL: 10^5 peaks in under 3 minutes, 10^6 peaks in
under 30 minutes and under 8 GiB.

Writes ``benchmarks/genome_scale_run.json`` (every size run so far is kept
unless ``--fresh``: sizes can be run in separate calls) and a log-log plot
``benchmarks/genome_scale_loglog.png``.

Example::

    python benchmarks/genome_scale_run.py --data /tmp/scale --sizes 10000,30000
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from run_info import jsonable, machine, versions

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SEED = 58
#: peaks per part (each part: ``PART_CHROMOSOMES`` chromosomes)
PART_CHROMOSOMES = 2
GOALS = {100_000: (180.0, None), 1_000_000: (1800.0, 8.0)}
START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", file=sys.stderr)


# --------------------------------------------------------------------------- #
# the genome
# --------------------------------------------------------------------------- #
def peaks_per_part(chromosome_mb: int) -> int:
    """Peaks one part holds: a little under the writer's 60 % of 2 kb slots."""
    slots = PART_CHROMOSOMES * chromosome_mb * 1_000_000 // 2000
    return int(0.55 * slots)


def write_genome(data: Path, max_peaks: int, chromosome_mb: int) -> dict:
    """Write the parts and join them into ``genome.fa`` and ``peaks.narrowPeak``."""
    from poimkit.datasets import write_synthetic_genome

    per_part = peaks_per_part(chromosome_mb)
    n_parts = max(1, math.ceil(max_peaks / per_part))
    data.mkdir(parents=True, exist_ok=True)
    fasta, peaks = data / "genome.fa", data / "peaks.narrowPeak"
    start = time.perf_counter()
    written = 0
    fasta_part, peaks_part = data / "genome.fa.part", data / "peaks.narrowPeak.part"
    with open(fasta_part, "w") as out_fa, open(peaks_part, "w") as out_peaks:
        for j in range(n_parts):
            n = min(per_part, max_peaks - written)
            folder = data / f"part{j}"
            g = write_synthetic_genome(
                folder,
                n_chromosomes=PART_CHROMOSOMES,
                chromosome_length=chromosome_mb * 1_000_000,
                n_peaks=n,
                n_decoys=n // 20,
                n_causal=0,
                n_neutral=0,
                n_indels=0,
                n_multiallelic=0,
                seed=SEED + j,
            )
            names = {
                c: f"chr{PART_CHROMOSOMES * j + i + 1}"
                for i, c in enumerate(g.chromosomes)
            }
            with open(g.genome) as fa:
                for line in fa:
                    if line.startswith(">"):
                        line = f">{names[line[1:].split()[0]]}\n"
                    out_fa.write(line)
            with open(g.peaks) as bed:
                for line in bed:
                    chrom, rest = line.split("\t", 1)
                    out_peaks.write(f"{names[chrom]}\t{rest}")
            written += n
            shutil.rmtree(folder)
            took = time.perf_counter() - start
            log(f"  part {j + 1}/{n_parts}: {written} peaks, {took:.0f} s")
    os.replace(fasta_part, fasta)
    os.replace(peaks_part, peaks)
    info = {
        "parts": n_parts,
        "chromosomes": PART_CHROMOSOMES * n_parts,
        "chromosome_mb": chromosome_mb,
        "megabases": PART_CHROMOSOMES * n_parts * chromosome_mb,
        "peaks": written,
        "seconds": round(time.perf_counter() - start, 1),
        "seed": SEED,
    }
    (data / "genome.json").write_text(json.dumps(info, indent=1) + "\n")
    return info


def sample_peaks(data: Path, n: int) -> Path:
    """A seeded sample of n peaks of the joined file, in file order."""
    path = data / f"peaks_{n}.narrowPeak"
    if path.exists():
        return path
    lines = (data / "peaks.narrowPeak").read_text().splitlines(keepends=True)
    if n > len(lines):
        raise SystemExit(f"the genome holds {len(lines)} peaks, fewer than {n}")
    keep = np.sort(np.random.default_rng(SEED).permutation(len(lines))[:n])
    path.write_text("".join(lines[i] for i in keep))
    return path


# --------------------------------------------------------------------------- #
# one run
# --------------------------------------------------------------------------- #
def run_one(data: Path, work: Path, n: int, timeout: float, known: str) -> dict:
    """``poimkit run`` on n peaks under /usr/bin/time -v: wall, peak RSS, steps."""
    peaks = sample_peaks(data, n)
    out = work / f"run_{n}"
    if out.exists():
        shutil.rmtree(out)
    command = [sys.executable, "-m", "poimkit.cli", "run", "--bed", str(peaks)]
    command += ["--genome", str(data / "genome.fa"), "-o", str(out), "--quiet"]
    command += ["--known", known] if known else []
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    log(f"n = {n}: $ poimkit {' '.join(command[3:])}")
    load = os.getloadavg()[0]
    start = time.perf_counter()
    try:
        done = subprocess.run(
            ["/usr/bin/time", "-v", *command],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"n": n, "ok": False, "error": f"stopped after {timeout:.0f} s"}
    wall = time.perf_counter() - start
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    row = {
        "n": n,
        "ok": done.returncode == 0,
        "wall_s": round(wall, 1),
        "peak_rss_gib": round(int(rss.group(1)) / 2**20, 3) if rss else None,
        "load_average_before": load,
        "load_average_after": os.getloadavg()[0],
    }
    if done.returncode:
        lines = [x for x in done.stderr.splitlines() if x.strip()]
        row["error"] = next(
            (x for x in reversed(lines) if "Command exited" not in x and ":" in x), ""
        )
        return row
    summary = json.loads((out / "summary.json").read_text())
    row["steps_s"] = summary.get("runtimes", {})
    row["cv_auc"] = summary.get("cv_auc")
    row["family"] = summary.get("family")
    row["chosen_model"] = summary.get("chosen_model")
    models = summary.get("models", {})
    row["models_cv_auc"] = {name: m.get("cv_auc") for name, m in models.items()}
    for key in ("n_sequences", "n_positive", "n_negative", "sample", "negatives"):
        if key in summary:
            row[key] = summary[key]
    log(f"  {wall:.1f} s, {row['peak_rss_gib']} GiB, steps {row['steps_s']}")
    return row


# --------------------------------------------------------------------------- #
# growth, goals, plot
# --------------------------------------------------------------------------- #
def slopes(rows: list[dict]) -> dict[str, list]:
    """Log-log slope of each step's time (and the whole) between consecutive sizes."""
    rows = sorted((r for r in rows if r.get("ok")), key=lambda r: r["n"])
    out: dict[str, list] = {}
    for a, b in zip(rows, rows[1:], strict=False):
        span = math.log(b["n"] / a["n"])
        times = {"whole command": (a["wall_s"], b["wall_s"])}
        for step in b.get("steps_s", {}):
            if step in a.get("steps_s", {}):
                times[step] = (a["steps_s"][step], b["steps_s"][step])
        for step, (ta, tb) in times.items():
            if ta > 0.05 and tb > 0.05:
                slope = round(math.log(tb / ta) / span, 2)
                out.setdefault(step, []).append([a["n"], b["n"], slope])
    return out


def goals(rows: list[dict]) -> list[str]:
    lines = []
    for n, (seconds, gib) in GOALS.items():
        row = next((r for r in rows if r["n"] == n), None)
        if row is None:
            lines.append(f"n = {n}: not run")
            continue
        ok = row.get("ok") and row["wall_s"] < seconds
        ok = ok and (gib is None or (row["peak_rss_gib"] or 0) < gib)
        mem = f" and < {gib} GiB" if gib else ""
        lines.append(
            f"{'PASS' if ok else 'FAIL'}: n = {n}: {row.get('wall_s')} s "
            f"(goal < {seconds:.0f}{mem}; peak {row.get('peak_rss_gib')} GiB)"
        )
    return lines


def plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted((r for r in rows if r.get("ok")), key=lambda r: r["n"])
    if len(rows) < 2:
        return
    n = np.array([r["n"] for r in rows], dtype=float)
    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(11, 4.5))
    ax_t.loglog(n, [r["wall_s"] for r in rows], "k-o", lw=2, label="whole command")
    steps = [s for s in rows[-1].get("steps_s", {}) if s != "total"]
    for step in steps:
        t = [r.get("steps_s", {}).get(step, np.nan) for r in rows]
        ax_t.loglog(n, t, "-.", marker=".", label=step)
    ref = rows[0]["wall_s"] * n / n[0]
    ax_t.loglog(n, ref, ":", color="grey", label="linear in n")
    ax_t.loglog(n, ref * np.log(n) / np.log(n[0]), "--", color="grey", label="n log n")
    ax_t.set_xlabel("peaks")
    ax_t.set_ylabel("wall seconds")
    ax_t.legend(fontsize=7)
    ax_m.loglog(n, [r["peak_rss_gib"] for r in rows], "k-o")
    ax_m.set_xlabel("peaks")
    ax_m.set_ylabel("peak RSS, GiB (whole command)")
    fig.suptitle("poimkit run --bed, every default (2 cores)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# --------------------------------------------------------------------------- #
# main
# --------------------------------------------------------------------------- #
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="genome folder (kept)")
    parser.add_argument("--work", type=Path, help="run folders (default DATA/runs)")
    parser.add_argument("--sizes", default="10000,30000,100000")
    parser.add_argument(
        "--genome-peaks",
        type=int,
        default=None,
        help="peaks the genome holds if it must be written (default: the largest size)",
    )
    parser.add_argument("--chromosome-mb", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=7200.0)
    parser.add_argument(
        "--known",
        default="jaspar",
        help="--known of the run (default the offline JASPAR CORE vertebrates; "
        "'' for none: the default run tests no known motifs)",
    )
    parser.add_argument("--fresh", action="store_true", help="forget earlier sizes")
    parser.add_argument(
        "--warmup",
        type=int,
        default=1000,
        help="an untimed run on this many peaks first, so that numba compiles its "
        "kernels (or loads them) outside the timed runs (0: none)",
    )
    parser.add_argument("--out", type=Path, default=HERE / "genome_scale_run.json")
    parser.add_argument("--plot", type=Path, default=HERE / "genome_scale_loglog.png")
    args = parser.parse_args(argv)
    sizes = [int(float(s)) for s in args.sizes.split(",") if s]
    work = args.work or args.data / "runs"
    work.mkdir(parents=True, exist_ok=True)

    results = (
        {} if args.fresh or not args.out.exists() else json.loads(args.out.read_text())
    )
    if not (args.data / "genome.fa").exists():
        want = args.genome_peaks or max(sizes, default=10_000)
        log(f"writing the genome for {want} peaks into {args.data}")
        results["genome"] = write_genome(args.data, want, args.chromosome_mb)
        log(f"  {results['genome']}")
    else:
        results["genome"] = json.loads((args.data / "genome.json").read_text())
    rows = {r["n"]: r for r in results.get("runs", [])}
    if args.warmup and sizes:
        warm = run_one(args.data, work, args.warmup, args.timeout, args.known)
        results["warmup"] = {k: warm.get(k) for k in ("n", "ok", "wall_s")}
    for n in sizes:
        row = run_one(args.data, work, n, args.timeout, args.known)
        row["date"] = datetime.date.today().isoformat()
        rows[n] = row
        results.update(machine=machine(), versions=versions())
        results["runs"] = [rows[k] for k in sorted(rows)]
        results["slopes"] = slopes(results["runs"])
        results["goals"] = goals(results["runs"])
        args.out.write_text(json.dumps(jsonable(results), indent=1) + "\n")
    print(f"genome: {results['genome']}")
    if not results.get("runs"):
        return 0
    print(
        "| n | wall s | peak GiB | "
        + " | ".join(results["runs"][-1].get("steps_s", {}))
        + " |"
    )
    for r in results["runs"]:
        steps = " | ".join(f"{v:.1f}" for v in r.get("steps_s", {}).values())
        print(f"| {r['n']} | {r.get('wall_s')} | {r.get('peak_rss_gib')} | {steps} |")
    print("log-log slopes (time ~ n^slope):")
    for step, parts in results["slopes"].items():
        print(f"  {step}: " + ", ".join(f"{a}->{b}: {s}" for a, b, s in parts))
    for line in results["goals"]:
        print(line)
    plot(results["runs"], args.plot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
