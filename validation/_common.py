"""Shared plumbing of the reproduction scripts: output folder, figures, JSON."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from poimkit.io import atomic_path  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def parser(description: str) -> argparse.ArgumentParser:
    """Argument parser with the options every reproduction script takes."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("-o", "--out", type=Path, default=RESULTS, help="output folder")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help="small sizes, for CI")
    return p


def save_figure(fig, out: Path, stem: str) -> list[Path]:
    """Write ``stem.png`` and ``stem.pdf`` into ``out`` atomically; close the figure."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for suffix in (".png", ".pdf"):
        path = out / f"{stem}{suffix}"
        with atomic_path(path) as tmp:
            fig.savefig(tmp, dpi=150, bbox_inches="tight")
        paths.append(path)
    plt.close(fig)
    return paths


#: what a claim's check found (`claim`)
VERDICTS = ("holds", "differs", "not attempted")


def claim(text: str, paper, ours, verdict: str, reason: str | None = None) -> dict:
    """One claim of a paper checked: its number or sentence, ours, the verdict.

    Every reproduction's JSON lists these under ``claims``. ``verdict`` is one
    of `VERDICTS`; ``reason`` says why a claim differs or was not attempted
    (required then), or how it was checked.
    """
    if verdict not in VERDICTS:
        raise ValueError(f"verdict must be one of {VERDICTS}, got {verdict!r}")
    if verdict != "holds" and not reason:
        raise ValueError(f"a claim that {verdict!r} needs its reason")
    return {
        "claim": text,
        "paper": paper,
        "ours": ours,
        "verdict": verdict,
        "reason": reason,
    }


def write_json(out: Path, stem: str, data: dict) -> Path:
    """Write ``stem.json`` (sorted keys, indented) into ``out`` atomically."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{stem}.json"
    with atomic_path(path) as tmp, open(tmp, "w") as handle:
        json.dump(data, handle, indent=2, sort_keys=True, default=float)
        handle.write(os.linesep)
    return path
