"""``poimkit batch`` against a shell loop of ``poimkit run`` (issue 57, first part).

A fresh set of experiments is written per run (seeded here, not tuned on):
``--experiments`` FASTA pairs of ``--records`` positives and as many negatives
of 100 letters, each with its own planted factor (a PWM drawn around a random
8-mer, planted at a position of spread 10 in 60 % of the positives, either
strand); one experiment in four is noise (no motif). Every experiment runs
with the same flags (``--cv 3 --max-order 5``).

Four ways, on the same sheet, in this order:

loop
    ``poimkit run`` once per row, one after another (a fresh process each,
    all cores), as a user's shell loop would.
batch 1
    ``poimkit batch --workers 1`` (one worker process, all cores).
batch 1, one thread
    ``poimkit batch --workers 1`` with ``--threads 1``: one worker of the
    size each of two workers has (how the batch scales with workers).
batch 2
    ``poimkit batch --workers 2`` (two worker processes, one thread each).
resume
    ``poimkit batch --workers 2`` terminated (SIGTERM) once half the
    experiments are done, then run again: the second run must run only the
    rest, and every summary must equal the uninterrupted batch's (runtimes
    aside).

Printed: each way's wall time, the ratios, each experiment's CV AUC, whether
its top motif matches the planted factor (at most one mismatch, either
strand, any offset), the noise experiments' verdicts, and the peak memory
per worker; ``--out`` writes the figures as JSON.

Usage: ``python benchmarks/bench_batch.py [--experiments 8] [--records 400]
[--seed 57] [--out batch.json] [--scaling-only]`` (``--scaling-only``: only
one worker of one thread against two workers).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

FLAGS = ["--cv", "3", "--max-order", "5"]
LENGTH = 100


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def write_experiments(folder: Path, n: int, records: int, seed: int) -> dict:
    """FASTA pairs and the sheet; returns name -> planted consensus (None: noise)."""
    from poimkit.datasets import PlantedMotif, make_motif_data
    from poimkit.io import write_fasta

    rng = np.random.default_rng(seed)
    planted, rows = {}, ["name\tpos\tneg"]
    for i in range(n):
        name = f"exp{i:02d}"
        word = None if i % 4 == 3 else "".join(rng.choice(list("ACGT"), 8))
        motifs = []
        if word is not None:
            pwm = (
                np.full((8, 4), 0.03)
                + np.eye(4)[["ACGT".index(c) for c in word]] * 0.88
            )
            motifs = [
                PlantedMotif(
                    pwm,
                    position=50,
                    spread=10,
                    mutation="none",
                    reverse_complement=0.5,
                    in_positives=0.6,
                )
            ]
        X, y = make_motif_data(records, records, LENGTH, motifs, random_state=seed + i)
        write_fasta(
            folder / f"{name}_p.fa", [f"p{j}" for j in range(records)], X[y == 1]
        )
        write_fasta(
            folder / f"{name}_n.fa", [f"n{j}" for j in range(records)], X[y == 0]
        )
        rows.append(f"{name}\t{name}_p.fa\t{name}_n.fa")
        planted[name] = word
    (folder / "sheet.tsv").write_text("\n".join(rows) + "\n")
    return planted


def poimkit(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "poimkit", *map(str, args)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def timed_run(*args: str) -> float:
    start = time.perf_counter()
    process = poimkit(*args)
    _, err = process.communicate()
    if process.returncode not in (0, 3):
        raise SystemExit(f"poimkit {' '.join(map(str, args))} failed: {err}")
    return time.perf_counter() - start


def loop(folder: Path, names: list[str]) -> float:
    (folder / "loop").mkdir()
    start = time.perf_counter()
    for name in names:
        timed_run(
            "run",
            "--pos",
            folder / f"{name}_p.fa",
            "--neg",
            folder / f"{name}_n.fa",
            *FLAGS,
            "-o",
            folder / "loop" / name,
            "--quiet",
        )
    return time.perf_counter() - start


def batch(folder: Path, out: str, workers: int, threads: int | None = None) -> float:
    flags = FLAGS + (["--threads", str(threads)] if threads else [])
    return timed_run(
        "batch",
        folder / "sheet.tsv",
        "--options",
        " ".join(flags),
        "--workers",
        workers,
        "-o",
        folder / out,
        "--quiet",
    )


def interrupted(folder: Path, n: int) -> dict:
    """Terminate a batch once half the experiments are done; rerun it."""
    out = folder / "resumed"
    process = poimkit(
        "batch",
        folder / "sheet.tsv",
        "--options",
        " ".join(FLAGS),
        "--workers",
        2,
        "-o",
        out,
        "--quiet",
    )
    while process.poll() is None:
        done = [p for p in (out / "runs").glob("exp*") if (p / "summary.json").exists()]
        if len(done) >= n // 2:
            process.send_signal(signal.SIGTERM)
            break
        time.sleep(0.5)
    process.wait()
    finished = sorted(p.name for p in (out / "runs").glob("exp*"))
    partial = sorted(p.name for p in (out / "runs").glob(".*partial*"))
    seconds = batch(folder, "resumed", 2)
    statuses = {}
    for row in (out / "experiments.tsv").read_text().splitlines()[1:]:
        cells = row.split("\t")
        statuses[cells[0]] = cells[1]
    return {
        "finished_before_rerun": finished,
        "partial_folders_after_stop": partial,
        "rerun_seconds": round(seconds, 1),
        "exit_code_of_stopped": process.returncode,
    }


def summaries(folder: Path) -> dict:
    found = {}
    for path in sorted(folder.glob("runs/*/summary.json")):
        content = json.loads(path.read_text())
        content.pop("runtimes")
        found[path.parent.name] = content
    return found


def matches(word: str, iupac: str) -> bool:
    """At most one mismatch between the planted word and the motif (either strand)."""
    complement = {"A": "T", "C": "G", "G": "C", "T": "A"}
    codes = {
        "A": "A",
        "C": "C",
        "G": "G",
        "T": "T",
        "R": "AG",
        "Y": "CT",
        "S": "CG",
        "W": "AT",
        "K": "GT",
        "M": "AC",
        "B": "CGT",
        "D": "AGT",
        "H": "ACT",
        "V": "ACG",
        "N": "ACGT",
    }
    for target in (word, "".join(complement[c] for c in reversed(word))):
        for shift in range(-len(iupac) + 4, len(target) - 3):
            pairs = [
                (target[k], iupac[k - shift])
                for k in range(len(target))
                if 0 <= k - shift < len(iupac)
            ]
            if len(pairs) >= 6 and sum(a not in codes[b] for a, b in pairs) <= 1:
                return True
    return False


def scaling(folder: Path) -> dict:
    """One worker of one thread against two workers, nothing else."""
    one = batch(folder, "batch1t", 1, threads=1)
    log(f"batch, 1 worker of 1 thread: {one:.1f} s")
    two = batch(folder, "batch2", 2)
    log(f"batch, 2 workers: {two:.1f} s")
    return {
        "batch_1_thread_1": round(one, 1),
        "batch_2": round(two, 1),
        "speedup": round(one / two, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--experiments", type=int, default=8)
    parser.add_argument("--records", type=int, default=400)
    parser.add_argument("--seed", type=int, default=57)
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--scaling-only",
        action="store_true",
        help="only one worker of one thread against two workers",
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench_batch_"))
    planted = write_experiments(folder, args.experiments, args.records, args.seed)
    names = sorted(planted)
    log(f"{len(names)} experiments in {folder}")
    if args.scaling_only:
        print(json.dumps(scaling(folder), indent=1))
        return
    times = {}
    times["loop"] = loop(folder, names)
    log(f"shell loop: {times['loop']:.1f} s")
    times["batch_1"] = batch(folder, "batch1", 1)
    log(f"batch, 1 worker: {times['batch_1']:.1f} s")
    times["batch_1_thread_1"] = batch(folder, "batch1t", 1, threads=1)
    log(f"batch, 1 worker of 1 thread: {times['batch_1_thread_1']:.1f} s")
    times["batch_2"] = batch(folder, "batch2", 2)
    log(f"batch, 2 workers: {times['batch_2']:.1f} s")
    resume = interrupted(folder, len(names))
    same = summaries(folder / "resumed") == summaries(folder / "batch2")
    rows = {}
    experiments = (folder / "batch2" / "experiments.tsv").read_text().splitlines()
    header = experiments[0].split("\t")
    for line in experiments[1:]:
        row = dict(zip(header, line.split("\t"), strict=True))
        word = planted[row["name"]]
        top = row["motifs"].split(" ")[0] if row["motifs"] else ""
        rows[row["name"]] = {
            "planted": word,
            "cv_auc": row["cv_value"],
            "better_than_chance": row["better_than_chance"],
            "top_motif": top,
            "found": None
            if word is None
            else bool(top) and matches(word, top.rstrip("-")),
        }
    result = {
        "machine": {"cores": os.cpu_count(), "python": sys.version.split()[0]},
        "experiments": len(names),
        "records": 2 * args.records,
        "seconds": {k: round(v, 1) for k, v in times.items()},
        "speedup_2_over_1": round(times["batch_1"] / times["batch_2"], 2),
        "speedup_2_over_1_of_one_thread": round(
            times["batch_1_thread_1"] / times["batch_2"], 2
        ),
        "batch_1_over_loop": round(times["batch_1"] / times["loop"], 2),
        "resume": {**resume, "summaries_equal_uninterrupted": same},
        "rows": rows,
    }
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
