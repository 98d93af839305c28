"""``poimkit`` commands in a fresh process, timed (``bench_genome.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from genome_config import log

ROOT = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------- #
# commands
# --------------------------------------------------------------------------- #
def poimkit_command(*args: object) -> list[str]:
    """``poimkit ARGS`` from this checkout, as a fresh process."""
    return [sys.executable, "-m", "poimkit.cli", *map(str, args)]


def timed(command: list[str], timeout: float) -> dict:
    """Run a command; wall seconds, exit code and the last line of stderr."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    log("$ " + " ".join(command[2:] if command[1] == "-m" else command))
    start = time.perf_counter()
    try:
        done = subprocess.run(
            command,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as stopped:
        text = stopped.stderr or ""
        text = text.decode(errors="replace") if isinstance(text, bytes) else text
        parts = [x.strip() for x in text.replace("\r", "\n").splitlines() if x.strip()]
        last = f" (last progress: {parts[-1]})" if parts else ""
        log(f"  stopped after {timeout:.0f} s{last}")
        error = f"stopped after {timeout:.0f} s{last}"
        return {"ok": False, "seconds": timeout, "error": error}
    seconds = time.perf_counter() - start
    lines = [x for x in done.stderr.splitlines() if x.strip()]
    tail = lines[-1] if lines else ""
    if done.returncode:
        log(f"  exit {done.returncode}: {tail}")
        return {
            "ok": False,
            "seconds": seconds,
            "error": f"exit {done.returncode}: {tail}",
        }
    log(f"  {seconds:.1f} s")
    return {"ok": True, "seconds": seconds}
