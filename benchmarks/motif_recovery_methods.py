"""Motifs found by poimkit and by modisco-lite (the peer), in one form."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from motif_recovery_cases import (
    Case,
)
from motif_recovery_config import (
    CROSSFIT_FOLDS,
    MAX_MODISCO_SEQS,
    MAX_MOTIFS,
    MODISCO,
    TRIM_THRESHOLD,
    log,
)

import poimkit
from poimkit.datasets import PlantedMotif, make_motif_data


# --------------------------------------------------------------------------- #
# found motifs
# --------------------------------------------------------------------------- #
@dataclass
class Found:
    pwm: np.ndarray  # (m, 4), rows A, C, G, T
    sites: list[tuple[float, int]]  # (1-based forward start, +1 / -1 orientation)
    extra: dict = field(default_factory=dict)

    @property
    def consensus(self) -> str:
        return "".join("ACGT"[i] for i in self.pwm.argmax(axis=1))

    @property
    def position(self) -> float | None:
        if not self.sites:
            return None
        return float(np.mean([s for s, _ in self.sites]))

    @property
    def iupac(self) -> str:
        from Bio import motifs

        counts = {a: (self.pwm[:, i] * 1000).tolist() for i, a in enumerate("ACGT")}
        return str(motifs.Motif(alphabet="ACGT", counts=counts).degenerate_consensus)

    def row(self) -> dict:
        return {
            "consensus": self.consensus,
            "iupac": self.extra.get("iupac") or self.iupac,
            "position": self.position,
            "length": int(self.pwm.shape[0]),
            "pwm": np.round(self.pwm, 4).tolist(),
            **{k: v for k, v in self.extra.items() if k != "iupac"},
        }


# --------------------------------------------------------------------------- #
# poimkit
# --------------------------------------------------------------------------- #
NEW_MOTIF_FIELDS = ("n_sites", "frac_positive", "frac_negative", "p_value", "q_value")


def extract_with_poimkit(poim, X, y) -> tuple[list, float]:
    """`extract_motifs` from the sites in the training sequences, timed."""
    start = time.perf_counter()
    motifs = poimkit.extract_motifs(
        poim, max_motifs=MAX_MOTIFS, sequences=X, labels=y, random_state=0
    )
    return motifs, time.perf_counter() - start


def poimkit_found(motif) -> Found:
    position = motif.position
    sites = [] if position is None else [(float(position), 1)]
    extra = {
        "iupac": motif.iupac,
        "spread": motif.spread,
        "importance": motif.importance,
    }
    extra.update({name: getattr(motif, name) for name in NEW_MOTIF_FIELDS})
    return Found(np.asarray(motif.pwm, dtype=np.float64), sites, extra)


def background_for(case: Case, X: np.ndarray):
    if case.background_order == 0:
        return poimkit.MarkovBackground.uniform(X.shape[1])
    return poimkit.MarkovBackground.fit(X, order=case.background_order)


def poim_with_fallback(model, max_order: int, background):
    """POIM up to max_order, one order lower while it exceeds the memory limit."""
    while True:
        try:
            return poimkit.compute_poim(model, max_order, background), max_order
        except (poimkit.InputError, MemoryError) as error:
            if max_order <= 5:
                raise
            log(f"  POIM order {max_order} refused ({error}); trying {max_order - 1}")
            max_order -= 1


# --------------------------------------------------------------------------- #
# ISM + modisco-lite
# --------------------------------------------------------------------------- #
def ism_crossfit(case: Case, X, y) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-fold ISM of the positives (models of the case's class)."""
    from sklearn.model_selection import StratifiedKFold

    folds = StratifiedKFold(CROSSFIT_FOLDS, shuffle=True, random_state=0)
    rows, maps = [], []
    for train, test in folds.split(X, y):
        pos = test[y[test] == 1]
        model = case.model(X.shape[1]).fit(X[train], y[train])
        maps.append(model.explicit_weights().mutagenesis(X[pos]))
        rows.append(pos)
    order = np.argsort(np.concatenate(rows), kind="stable")[:MAX_MODISCO_SEQS]
    return X[np.concatenate(rows)[order]], np.concatenate(maps)[order]


def modisco_patterns(X_pos: np.ndarray, ism: np.ndarray) -> tuple[list, dict]:
    """modisco-lite on ISM: hypothetical = ISM centred per position."""
    from modiscolite.tfmodisco import TFMoDISco

    one_hot = np.eye(4, dtype=np.float32)[X_pos]
    hypothetical = (ism - ism.mean(axis=2, keepdims=True)).astype(np.float32)
    settings = dict(MODISCO)
    if len(X_pos) < 300:  # default 100 seqlets per metacluster: too few seqs
        settings["min_metacluster_size"] = 30
    pos_patterns, _ = TFMoDISco(
        one_hot=one_hot, hypothetical_contribs=hypothetical, **settings
    )
    return list(pos_patterns or []), settings


def warm_up_modisco() -> float:
    """One small untimed modisco run on a synthetic contribution track.

    Done before poimkit starts numba's thread pool: modisco-lite compiles its
    numba kernels in forked children into numba's disk cache only when no
    other threads run; otherwise its first call in a process compiles them
    in-process (about 13 s here), which would be charged to the first case.
    """
    start = time.perf_counter()
    X, _ = make_motif_data(
        400,
        0,
        60,
        [PlantedMotif("GATCCTAG", 20, spread=3, mutation="none")],
        random_state=0,
    )
    one_hot = np.eye(4)[X]
    rng = np.random.default_rng(0)
    track = rng.normal(0.0, 0.02, size=one_hot.shape)
    for i, text in enumerate(poimkit.decode(X)):
        at = text.find("GATCCTAG")
        if at >= 0:
            track[i, at : at + 8] += 0.3 * (2 * one_hot[i, at : at + 8] - 0.5)
    modisco_patterns(X, track)
    return time.perf_counter() - start


def modisco_found(pattern) -> Found:
    """A pattern trimmed to its informative columns, with its seqlet starts.

    Kept: first to last column whose information content is at least
    ``TRIM_THRESHOLD`` of the pattern's largest (modisco's report instead cuts
    at 0.3 of the largest summed |CWM|, which left 21-column patterns whole).
    """
    ppm = np.asarray(pattern.sequence, dtype=np.float64)
    ppm = ppm / ppm.sum(axis=1, keepdims=True)
    ic = 2.0 + (ppm * np.log2(np.clip(ppm, 1e-12, 1.0))).sum(axis=1)
    keep = np.flatnonzero(ic >= TRIM_THRESHOLD * ic.max())
    a, b = int(keep.min()), int(keep.max()) + 1
    untrimmed = ppm.shape[0]
    ppm = ppm[a:b]
    sites = []
    for seqlet in pattern.seqlets:
        if seqlet.is_revcomp:  # pattern column c sits at forward end - 1 - c
            sites.append((float(seqlet.end - b + 1), -1))
        else:
            sites.append((float(seqlet.start + a + 1), 1))
    extra = {
        "n_seqlets": len(pattern.seqlets),
        "median_position": float(np.median([st for st, _ in sites])),
        "frac_revcomp": float(np.mean([s == -1 for _, s in sites])),
        "untrimmed_length": int(untrimmed),
        "trimmed_columns": [a, b],
    }
    return Found(ppm, sites, extra)
