"""Synthetic benchmark suite: when does the WD-SVM -> POIM -> motif pipeline work?

Every cell of the grid plants motifs into random DNA of length 100
(`poimkit.datasets.make_motif_data`), trains a WD-SVM (degree 20, C = 1) on a
balanced training set, computes exact POIMs up to order 6 under a Markov
background of the cell's order fitted to the training negatives, extracts
motifs from their sites in the training sequences
(`poimkit.motifs.extract_motifs` with ``sequences``, at most ``n_motifs + 1``)
and scores:

* ``auc``: ROC AUC on a fresh balanced test set of 1000 sequences;
* ``top_ok``: the strongest extracted motif matches a planted one, i.e. the
  consensus agrees at all but at most one column of an alignment that
  overlaps the planted motif in at least ``m - 1`` columns, *and* its mean
  position is within 2 of the planted mean (after the alignment offset).
  ``partial`` in the table: it matches (at most one mismatch) only a part of
  at least half of the planted motif;
* ``found``: how many of the planted motifs are matched that way by some
  extracted motif;
* ``pwm_corr``: mean column-wise Pearson correlation, over the aligned
  columns, of the top motif's PWM with the planted letter distribution
  (`poimkit.datasets.expected_pwm`); NaN if nothing aligns;
* runtimes of training, POIM and extraction (seconds, this machine).

Factors and levels (base level in brackets): motif length 6, [8], 10, 12;
positional spread (SD of the rounded-normal start) 0, [2], 5, 10; mutation
rate (each planted letter replaced by a uniform letter with this
probability) 0, [0.1], 0.2, 0.3; number of motifs [1], 2, 3 (at mean starts
20, 45, 70; a single motif sits at 45); background order [0], 1, 2 (a random
homogeneous Markov chain, Dirichlet(1) rows, used for the sequences before
planting); training size 500, [2000], 5000, 10000.

The full factorial has 4 * 4 * 4 * 3 * 3 * 4 = 2304 cells (``--full``; many
hours on two cores). The default design is one-factor-at-a-time around the
base cell (17 cells) plus 3 corners (a hard, an easy and a crowded one): 20
cells, about 10-20 minutes on two cores. Cells whose top motif is not
recovered are marked as known limits in the table.

Run::

    python benchmarks/suite.py                 # default -> suite_results.{md,json}
    python benchmarks/suite.py --quick         # 4 small cells, for a smoke test
    python benchmarks/suite.py --full -o out/  # the factorial
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

from poimkit import WDKernelSVC, compute_poim
from poimkit.alphabet import decode
from poimkit.background import MarkovBackground
from poimkit.datasets import PlantedMotif, expected_pwm, make_motif_data
from poimkit.motifs import extract_motifs

HERE = Path(__file__).resolve().parent
LENGTH = 100
N_TEST = 1000
MAX_ORDER = 6
DEGREE = 20
#: planted motifs are prefixes of these (motif g of a cell: CONSENSUS[g][:m])
CONSENSUS = ("GATTACACGTCG", "TCCGGAAGTTCA", "CAGTGCTTAGGA")
STARTS = {1: (45,), 2: (20, 45), 3: (20, 45, 70)}
POSITION_TOLERANCE = 2.0

LEVELS = {
    "motif_length": (6, 8, 10, 12),
    "spread": (0, 2, 5, 10),
    "mutation": (0.0, 0.1, 0.2, 0.3),
    "n_motifs": (1, 2, 3),
    "background_order": (0, 1, 2),
    "n_train": (500, 2000, 5000, 10000),
}


@dataclass(frozen=True)
class Cell:
    """One setting of the six factors."""

    motif_length: int = 8
    spread: float = 2
    mutation: float = 0.1
    n_motifs: int = 1
    background_order: int = 0
    n_train: int = 2000
    tag: str = ""

    @property
    def key(self) -> tuple:
        return tuple(v for k, v in asdict(self).items() if k != "tag")


BASE = Cell(tag="base")
CORNERS = (
    Cell(6, 10, 0.3, 1, 0, 500, tag="corner: hard"),
    Cell(12, 0, 0.0, 1, 0, 10000, tag="corner: easy"),
    Cell(8, 5, 0.1, 3, 2, 2000, tag="corner: crowded"),
)


def ofat_design() -> list[Cell]:
    """Base cell, one factor at a time around it, then the corners."""
    cells = [BASE]
    for factor, levels in LEVELS.items():
        for level in levels:
            cell = replace(BASE, **{factor: level}, tag=factor)
            if cell.key != BASE.key:
                cells.append(cell)
    return cells + list(CORNERS)


def full_design() -> list[Cell]:
    """The full factorial (2304 cells)."""
    return [Cell(*values, tag="full") for values in itertools.product(*LEVELS.values())]


def quick_design() -> list[Cell]:
    """Four small cells for a smoke test."""
    return [
        replace(BASE, n_train=500, tag="quick"),
        replace(BASE, n_train=500, n_motifs=2, tag="quick"),
        replace(BASE, n_train=500, background_order=1, tag="quick"),
        replace(BASE, n_train=500, motif_length=12, spread=0, tag="quick"),
    ]


def random_chain(order: int, rng: np.random.Generator) -> MarkovBackground:
    """Homogeneous Markov chain of the given order with Dirichlet(1) rows."""
    if order == 0:
        return MarkovBackground.uniform(LENGTH)
    rows = rng.dirichlet(np.ones(4), size=4**order)
    initial = rng.dirichlet(np.ones(4**order))
    return MarkovBackground(
        initial, np.broadcast_to(rows, (LENGTH - order, *rows.shape))
    )


def planted(cell: Cell) -> list[PlantedMotif]:
    """The cell's motifs."""
    return [
        PlantedMotif(
            CONSENSUS[g][: cell.motif_length],
            start,
            spread=float(cell.spread),
            mutation=float(cell.mutation),
        )
        for g, start in enumerate(STARTS[cell.n_motifs])
    ]


def align(found: str, true: str) -> tuple[int, int, int] | None:
    """Best alignment of two consensus strings.

    Returns ``(offset, overlap, mismatches)`` with ``true[i] ~ found[i - offset]``
    over an overlap of at least half of ``true`` (rounded up), fewest
    mismatches first, then largest overlap; None if no offset overlaps enough.
    """
    best = None
    need = min(len(true) - 1, len(found), max(1, (len(true) + 1) // 2))
    for offset in range(-len(found) + 1, len(true)):
        lo, hi = max(0, offset), min(len(true), offset + len(found))
        overlap = hi - lo
        if overlap < need:
            continue
        mismatches = sum(true[i] != found[i - offset] for i in range(lo, hi))
        key = (mismatches, -overlap, abs(offset))
        if best is None or key < best[0]:
            best = (key, (offset, overlap, mismatches))
    return None if best is None else best[1]


def match(motif, truth: PlantedMotif) -> dict | None:
    """How an extracted motif matches a planted one (None if it does not align)."""
    a = align(motif.consensus, truth.consensus)
    if a is None:
        return None
    offset, overlap, mismatches = a
    position = motif.position + offset  # the found motif's start of `truth`
    true_pwm = expected_pwm(truth)
    lo, hi = max(0, offset), min(truth.length, offset + motif.length)
    corr = [
        np.corrcoef(true_pwm[i], motif.pwm[i - offset])[0, 1]
        if true_pwm[i].std() > 0 and motif.pwm[i - offset].std() > 0
        else np.nan
        for i in range(lo, hi)
    ]
    truth_position = truth.position
    full = mismatches <= 1 and overlap >= truth.length - 1
    ok = full and abs(position - truth_position) <= POSITION_TOLERANCE
    return {
        "consensus_ok": full,
        "partial": mismatches <= 1 and not full,
        "position_error": float(position - truth_position),
        "mismatches": mismatches,
        "overlap": overlap,
        "pwm_corr": float(np.nanmean(corr)) if np.isfinite(corr).any() else np.nan,
        "ok": bool(ok),
    }


def run_cell(cell: Cell, seed: int) -> dict:
    """Generate, train, explain and score one cell."""
    rng = np.random.default_rng([seed, *(int(100 * v) for v in cell.key)])
    chain = random_chain(cell.background_order, rng)
    motifs = planted(cell)
    n = cell.n_train + N_TEST
    X, y = make_motif_data(
        n // 2, n - n // 2, LENGTH, motifs, chain, shuffle=True, random_state=rng
    )
    X_train, y_train = X[: cell.n_train], y[: cell.n_train]
    X_test, y_test = X[cell.n_train :], y[cell.n_train :]
    t = time.perf_counter()
    model = WDKernelSVC(degree=DEGREE).fit(X_train, y_train)
    t_fit = time.perf_counter() - t
    auc = float(roc_auc_score(y_test, model.decision_function(X_test)))
    t = time.perf_counter()
    background = MarkovBackground.fit(
        X_train[y_train == 0], order=cell.background_order
    )
    poim = compute_poim(model, MAX_ORDER, background)
    t_poim = time.perf_counter() - t
    t = time.perf_counter()
    found = extract_motifs(
        poim, max_motifs=cell.n_motifs + 1, sequences=X_train, labels=y_train
    )
    t_extract = time.perf_counter() - t

    top = None
    if found:
        matches = [match(found[0], truth) for truth in motifs]
        scored = [
            (m["ok"], -m["mismatches"], m["overlap"], g)
            for g, m in enumerate(matches)
            if m is not None
        ]
        if scored:
            g = max(scored)[-1]
            top = {"planted": motifs[g].consensus, **matches[g]}
    n_found = sum(
        any((m := match(f, truth)) is not None and m["ok"] for f in found)
        for truth in motifs
    )
    return {
        **asdict(cell),
        "seed": seed,
        "planted": [m.consensus for m in motifs],
        "auc": auc,
        "n_support": len(model.support_vectors_),
        "extracted": [
            {
                "consensus": f.consensus,
                "position": f.position,
                "spread": f.spread,
                "q_value": f.q_value,
            }
            for f in found
        ],
        "top_consensus": found[0].consensus if found else None,
        "top_position": found[0].position if found else None,
        "top": top,
        "top_ok": bool(top and top["ok"]),
        "found": n_found,
        "pwm_corr": top["pwm_corr"] if top else float("nan"),
        "seconds_fit": t_fit,
        "seconds_poim": t_poim,
        "seconds_extract": t_extract,
        "example_sequence": decode(X_train[:1])[0],
    }


def _fmt(v, digits=2) -> str:
    if v is None or (isinstance(v, float) and not np.isfinite(v)):
        return "-"
    return f"{v:.{digits}f}" if isinstance(v, float) else str(v)


def _verdict(r: dict) -> str:
    if r["top_ok"]:
        return "yes"
    top = r["top"]
    if top and top["partial"]:
        return "partial"
    if top and top["consensus_ok"]:
        return f"position off by {top['position_error']:+.1f}"
    return "no"


def table(rows: list[dict]) -> str:
    """Markdown table of the cells (known limits marked)."""
    head = (
        "| cell | m | spread | mut. | motifs | bg order | n train | AUC | top motif "
        "(pos.) | top ok | found | PWM corr | fit s | POIM s | extract s | |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for r in rows:
        top = (
            f"{r['top_consensus']} ({r['top_position']:.1f})"
            if r["top_consensus"]
            else "none"
        )
        lines.append(
            f"| {r['tag']} | {r['motif_length']} | {r['spread']} | "
            f"{r['mutation']} | {r['n_motifs']} | {r['background_order']} | "
            f"{r['n_train']} | {r['auc']:.3f} | {top} | "
            f"{_verdict(r)} | {r['found']}/{r['n_motifs']} | "
            f"{_fmt(r['pwm_corr'])} | {r['seconds_fit']:.1f} | "
            f"{r['seconds_poim']:.1f} | {r['seconds_extract']:.1f} | "
            f"{'' if r['top_ok'] and r['found'] == r['n_motifs'] else 'known limit'} |"
        )
    return head + "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    design = p.add_mutually_exclusive_group()
    design.add_argument("--full", action="store_true", help="full factorial (2304)")
    design.add_argument("--quick", action="store_true", help="4 small cells")
    p.add_argument("-o", "--out", type=Path, default=HERE, help="output folder")
    p.add_argument("--stem", default="suite_results", help="output file stem")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    cells = (
        full_design() if args.full else quick_design() if args.quick else ofat_design()
    )
    name = "full" if args.full else "quick" if args.quick else "ofat+corners"
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    start = time.perf_counter()
    for i, cell in enumerate(cells, start=1):
        t = time.perf_counter()
        row = run_cell(cell, args.seed)
        row["seconds"] = time.perf_counter() - t
        rows.append(row)
        print(
            f"[{i}/{len(cells)}] {cell.tag:16s} m={cell.motif_length:2d} "
            f"spread={cell.spread:2} mut={cell.mutation:.1f} "
            f"motifs={cell.n_motifs} D={cell.background_order} "
            f"n={cell.n_train:5d}: AUC {row['auc']:.3f}, top "
            f"{row['top_consensus']} ({_fmt(row['top_position'], 1)}) "
            f"ok={row['top_ok']}, found {row['found']}/{cell.n_motifs}, "
            f"PWM corr {_fmt(row['pwm_corr'])}, {row['seconds']:.1f} s",
            flush=True,
        )
        # write after every cell so that an interrupted run keeps its results
        total = time.perf_counter() - start
        _write(args.out, args.stem, name, rows, total, len(cells))
    limits = [r for r in rows if not (r["top_ok"] and r["found"] == r["n_motifs"])]
    print(
        f"{len(rows)} cells in {time.perf_counter() - start:.0f} s; "
        f"{len(limits)} known limits"
    )
    return 0


def _write(out: Path, stem: str, design: str, rows, seconds: float, n_cells: int):
    meta = {
        "design": design,
        "n_cells": n_cells,
        "n_done": len(rows),
        "seconds": seconds,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {sys.version.split()[0]}",
        "length": LENGTH,
        "n_test": N_TEST,
        "model": f"WDKernelSVC(degree={DEGREE}, C=1)",
        "poim_max_order": MAX_ORDER,
        "position_tolerance": POSITION_TOLERANCE,
        "levels": LEVELS,
    }
    tmp = out / f".{stem}.json.tmp"
    tmp.write_text(json.dumps({**meta, "cells": rows}, indent=2, default=float) + "\n")
    tmp.replace(out / f"{stem}.json")
    md = (
        f"Suite design: {design}, {len(rows)}/{n_cells} cells, {seconds:.0f} s on "
        f"{meta['machine']}.\n\n" + table(rows)
    )
    tmp = out / f".{stem}.md.tmp"
    tmp.write_text(md)
    tmp.replace(out / f"{stem}.md")


if __name__ == "__main__":
    raise SystemExit(main())
