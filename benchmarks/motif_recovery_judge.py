"""Found motifs against the planted truths: Tomtom, decoys, offsets."""

from __future__ import annotations

import numpy as np
from motif_recovery_cases import (
    Case,
    KnownSignal,
)
from motif_recovery_config import (
    DECOY_SEED,
    N_DECOYS,
    TOMTOM_P,
    rc_string,
)
from motif_recovery_methods import (
    Found,
)

from poimkit.datasets import PlantedMotif
from poimkit.datasets.synthetic import expected_pwm


# --------------------------------------------------------------------------- #
# comparison with the truth
# --------------------------------------------------------------------------- #
def decoys() -> list[np.ndarray]:
    rng = np.random.default_rng(DECOY_SEED)
    return [
        rng.dirichlet(np.full(4, 0.5), size=int(m))
        for m in rng.integers(6, 13, N_DECOYS)
    ]


def truth_pwm(truth) -> np.ndarray:
    if isinstance(truth, PlantedMotif):
        return expected_pwm(truth)
    return expected_pwm(truth.consensus, mutation="none")


def tomtom_table(found: list[Found], truths: list) -> np.ndarray | None:
    """p-values (n_found, n_truths + N_DECOYS), both strands (memelite)."""
    if not found or not truths:
        return None
    from memelite import tomtom

    queries = [np.ascontiguousarray(f.pwm.T) for f in found]
    targets = [np.ascontiguousarray(truth_pwm(t).T) for t in truths]
    targets += [np.ascontiguousarray(d.T) for d in decoys()]
    p_values = tomtom(queries, targets, reverse_complement=True)[0]
    return np.asarray(p_values, dtype=np.float64)


def alignments(found: str, truth: str) -> tuple[int, list[tuple[str, int]]]:
    """Fewest mismatches over the truth's length, and every (strand, offset) with it.

    Found column i faces truth column i + offset (truth reverse complemented
    for strand "-"); truth letters the found motif does not cover count as
    mismatches.
    """
    w, m = len(found), len(truth)
    best, where = m + 1, []
    for strand, target in (("+", truth), ("-", rc_string(truth))):
        for offset in range(-(w - 1), m):
            cols = range(max(0, -offset), min(w, m - offset))
            overlap = len(cols)
            mism = sum(found[i] != target[i + offset] for i in cols) + m - overlap
            if mism < best:
                best, where = mism, [(strand, offset)]
            elif mism == best:
                where.append((strand, offset))
    return best, where


def implied_start(f: Found, offset: int, m: int) -> float | None:
    """1-based start of the truth that the found sites imply (their median).

    The median, not the mean: a modisco pattern often holds a few seqlets far
    from the planted site (a poimkit motif has one site, its mean start).
    """
    if not f.sites:
        return None
    w = f.pwm.shape[0]
    starts = [s - offset if o == 1 else s - (m - w - offset) for s, o in f.sites]
    return float(np.median(starts))


def truth_starts(truth, case: Case, length: int) -> list[float] | None:
    if isinstance(truth, KnownSignal):
        return None if truth.start is None else [float(p) for p in truth.start]
    if isinstance(truth.position, tuple):
        centre = sum(truth.position) / 2
    else:
        centre = float(truth.position)
    if case.mirrored:
        return [centre, float(length - (centre - 1) - truth.length + 1)]
    return [centre]


def judge(f: Found, truth, case: Case, length: int) -> dict:
    mism, where = alignments(f.consensus, truth.consensus)
    starts = truth_starts(truth, case, length)
    error = strand = implied = None
    in_window = None
    for s, offset in where:
        start = implied_start(f, offset, truth.length)
        if start is None or starts is None:
            strand = strand or s
            continue
        if isinstance(truth, KnownSignal):
            lo, hi = starts
            e = max(lo - start, start - hi, 0.0)
        else:
            e = min(abs(start - p) for p in starts)
        if error is None or e < error:
            error, strand, implied = e, s, start
    if isinstance(truth, KnownSignal):
        ok = mism <= truth.max_mismatches and (error is None or error <= 0.5)
        in_window = error is None or error <= 0.5
    else:
        tolerance = 2.0 if truth.spread <= 2 else float(truth.spread)
        ok = mism <= 1 and (error is None or error <= tolerance)
    return {
        "mismatches": int(mism),
        "strand": strand,
        "implied_start": implied,
        "position_error": error,
        "in_window": in_window,
        "recovered": bool(ok),
    }


def compare(found: list[Found], truths: list, case: Case, length: int) -> dict:
    p = tomtom_table(found, truths)
    per_truth = []
    for j, truth in enumerate(truths):
        best = None
        for i, f in enumerate(found):
            row = judge(f, truth, case, length)
            row["found"] = i
            row["consensus"] = f.consensus
            row["tomtom_p"] = float(p[i, j])
            row["tomtom_rank"] = int(1 + (p[i] < p[i, j]).sum())
            err = row["position_error"]
            key = (
                not row["recovered"],
                row["mismatches"],
                np.inf if err is None else err,
                row["tomtom_p"],
            )
            if best is None or key < best[0]:
                best = (key, row)
        per_truth.append(
            {"truth": truth.consensus, "best": None if best is None else best[1]}
        )
    false = None
    if not case.real:
        false = []
        for i, f in enumerate(found):
            matches = [
                (p is not None and p[i, j] <= TOMTOM_P)
                or alignments(f.consensus, t.consensus)[0] <= 1
                for j, t in enumerate(truths)
            ]
            if not any(matches):
                false.append(f.consensus)
    recovered = sum(bool(t["best"] and t["best"]["recovered"]) for t in per_truth)
    return {
        "per_truth": per_truth,
        "n_recovered": recovered,
        "all_recovered": bool(truths) and recovered == len(truths),
        "false_motifs": false,
    }
