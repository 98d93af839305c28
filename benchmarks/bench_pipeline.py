"""Wall time and peak memory of `poimkit run`, step by step, cold and warm.

Usage, from the repository root::

    python benchmarks/bench_pipeline.py            # GATTACA cold + warm, splice warm
    python benchmarks/bench_pipeline.py --no-splice

Each run is a fresh process (`python -m poimkit.cli run ...`), so its wall time
includes Python start-up, imports and, on the cold run, numba compilation into
an empty cache folder (``NUMBA_CACHE_DIR``). Peak memory is the child's maximal
resident set size. The per-step times come from the run's ``summary.json``.

Baseline, measured in the same run on the same data and warm cache: the work
done by separate commands, ``poimkit train --cv 5`` + ``poimkit poim
--max-order 7`` + ``poimkit motifs`` (which write no figures and no report).
Goals (GATTACA, 5000 sequences, K = 7): under 60 s cold, under 30 s warm.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GATTACA = ROOT / "data" / "gattaca"
SPLICE = ROOT / "data" / "splice"


def timed(command: list[str], env: dict) -> tuple[float, float]:
    """Run a command in a new process; (wall seconds, peak RSS in MiB)."""
    code = (
        "import resource, subprocess, sys, json;"
        "r = subprocess.run(sys.argv[1:]);"
        "m = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss;"
        "print(json.dumps([r.returncode, m]), file=sys.stderr)"
    )
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", code, *command],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    seconds = time.perf_counter() - start
    returncode, max_rss_kib = json.loads(result.stderr.strip().splitlines()[-1])
    if returncode != 0:
        raise SystemExit(f"failed ({returncode}): {' '.join(command)}\n{result.stderr}")
    return seconds, max_rss_kib / 1024


def poimkit(*args) -> list[str]:
    return [sys.executable, "-m", "poimkit.cli", *map(str, args), "--quiet"]


def run_case(name, inputs, extra, out_root, env, label) -> dict:
    out = out_root / name
    seconds, rss = timed(poimkit("run", *inputs, *extra, "-o", out), env)
    summary = json.loads((out / "summary.json").read_text())
    steps = "  ".join(f"{k} {v:.2f}" for k, v in summary["runtimes"].items())
    print(
        f"{label:<28} {seconds:7.2f} s  peak {rss:7.0f} MiB  "
        f"(n={summary['n_sequences']}, L={summary['length']}, "
        f"cv_auc {summary['cv_auc']:.4f})"
    )
    print(f"{'':<28} steps: {steps}")
    return {"seconds": seconds, "rss_mib": rss, "summary": summary}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-splice", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="poimkit-bench-pipeline-"))
    env = {
        **os.environ,
        "MPLBACKEND": "Agg",
        "NUMBA_CACHE_DIR": str(work / "numba-cache"),
    }
    gattaca = ["--pos", GATTACA / "positives.fa", "--neg", GATTACA / "negatives.fa"]
    print("poimkit run benchmark (fresh process per run)")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"python {platform.python_version()}"
    )
    cold = run_case("cold", gattaca, [], work, env, "GATTACA K=7, cold cache")
    warm = run_case("warm", gattaca, [], work, env, "GATTACA K=7, warm cache")
    model, poim = work / "model.npz", work / "poim.npz"
    base_train, rss_train = timed(poimkit("train", *gattaca, "-o", model), env)
    base_poim, rss_poim = timed(
        poimkit("poim", model, "--max-order", "7", "--top", "0", "-o", poim), env
    )
    base_motifs, rss_motifs = timed(
        poimkit("motifs", poim, *gattaca, "-o", work / "motifs.meme"), env
    )
    baseline = base_train + base_poim + base_motifs
    print(
        f"{'baseline: train+poim+motifs':<28} {baseline:7.2f} s  peak "
        f"{max(rss_train, rss_poim, rss_motifs):7.0f} MiB  (train {base_train:.2f}, "
        f"poim {base_poim:.2f}, motifs {base_motifs:.2f})"
    )
    print(f"{'run (warm) / baseline':<28} {warm['seconds'] / baseline:7.2f} x")
    print(f"{'cold under 60 s':<28} {'yes' if cold['seconds'] < 60 else 'NO'}")
    print(f"{'warm under 30 s':<28} {'yes' if warm['seconds'] < 30 else 'NO'}")
    if not args.no_splice:
        for site in ("EI", "IE"):
            inputs = ["--pos", SPLICE / f"{site}.fa", "--neg", SPLICE / "N.fa"]
            run_case(
                f"splice_{site}",
                inputs,
                ["--drop-invalid"],
                work,
                env,
                f"splice {site} vs N, warm",
            )
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"largest child peak RSS: {peak:.0f} MiB; outputs in {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
