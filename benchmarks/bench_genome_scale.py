"""Genome scale on one machine (issue 58): every part in one command, or some.

Each part is a module of its own (runnable alone, with its own options and
JSON); this script runs the ones asked for with their defaults, in order:

``demo``
    The README's demo command (``poimkit demo``) timed as whole commands: once
    with numba's cache empty (what a new user's first run compiles), then
    twice with it warm (`demo_runs`). Writes ``genome_scale_demo.json``.
``snvs``
    Every SNV of every peak, ``variants --all-snvs`` at 10^4 to 10^5 peaks,
    against the VCF path on the same SNVs (``genome_scale_snvs.py``).
``scan``
    ``poimkit scan`` with ~1,000 motifs against memelite's FIMO at 1 and 2
    threads, and the whole command on 3·10^8 letters (``genome_scale_scan.py``).
``copies``
    WD on peaks with and without moved copies, run and variants
    (``bench_moved_copies.py``).
``run``
    ``poimkit run --bed`` end to end at 10^4 to 10^6 peaks, time and memory
    per step, log-log slopes (``genome_scale_run.py``; the 10^6 run alone
    takes about half an hour).

Usage: ``python benchmarks/bench_genome_scale.py [--parts demo,snvs,...]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from run_info import jsonable, machine, versions

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PARTS = {
    "demo": None,
    "snvs": "genome_scale_snvs",
    "scan": "genome_scale_scan",
    "copies": "bench_moved_copies",
    "run": "genome_scale_run",
}


def log(message: str) -> None:
    print(message, flush=True)


def demo_runs(warm: int = 2) -> dict:
    """``poimkit demo`` from this checkout: cold numba cache once, then warm.

    The cold run gets an empty ``NUMBA_CACHE_DIR`` (numba compiles every
    kernel it needs, as on a fresh install); the warm runs reuse it.
    """
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "NUMBA_CACHE_DIR": str(Path(folder) / "numba"),
            "PYTHONPATH": str(ROOT),
        }
        for i in range(1 + warm):
            out = Path(folder) / f"demo_{i}"
            command = [sys.executable, "-m", "poimkit.cli", "demo", "-o", str(out)]
            start = time.perf_counter()
            subprocess.run(
                command + ["--quiet"],
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
                cwd=folder,
            )
            seconds = time.perf_counter() - start
            cache = "cold" if i == 0 else "warm"
            log(f"demo, numba cache {cache}: {seconds:.1f} s")
            runs.append({"cache": cache, "seconds": seconds})
    return {"machine": machine(), "versions": versions(), "runs": runs}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default=",".join(PARTS))
    parser.add_argument(
        "--data",
        default=str(Path(tempfile.gettempdir()) / "poimkit_genome_scale_run"),
        help="the run part's genome folder (written once, kept: ~4 GB)",
    )
    args = parser.parse_args(argv)
    parts = args.parts.split(",")
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        raise SystemExit(f"unknown parts {unknown}; choose from {sorted(PARTS)}")
    for part in parts:
        log(f"=== {part}")
        if part == "demo":
            found = demo_runs()
            path = HERE / "genome_scale_demo.json"
            path.write_text(json.dumps(jsonable(found), indent=1) + "\n")
            continue
        extra = ["--data", args.data] if part == "run" else []
        importlib.import_module(PARTS[part]).main(extra)


if __name__ == "__main__":
    main()
