"""Peak and background records of the synthetic genome, their oracle and AUC."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from genome_config import WIDTH


# --------------------------------------------------------------------------- #
# records and the oracle
# --------------------------------------------------------------------------- #
def fallback_negatives(g, n: int, path: Path, seed: int) -> Path:
    """Uniform genome windows of WIDTH away from peaks and N (BED6)."""
    from poimkit.genome.reference import open_genome

    rng = np.random.default_rng(seed)
    rows = []
    with open_genome(g.genome, quiet=True) as genome:
        while len(rows) < n:
            c = int(rng.integers(len(g.chromosomes)))
            chrom = g.chromosomes[c]
            s = int(rng.integers(0, g.lengths[c] - WIDTH))
            same = g.peak_chrom == chrom
            if np.any(same & (g.peak_start < s + WIDTH) & (g.peak_end > s)):
                continue
            if "N" in genome.fetch(chrom, s, s + WIDTH).upper():
                continue
            rows.append(f"{chrom}\t{s}\t{s + WIDTH}\tneg{len(rows) + 1}\t0\t+\n")
    path.write_text("".join(rows))
    return path


def records(g, negatives_bed: Path) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Positive windows (WIDTH around the summits) and the negatives' letters."""
    import warnings

    from poimkit.genome.peaks import extract, read_peaks
    from poimkit.genome.reference import open_genome

    with warnings.catch_warnings(), open_genome(g.genome, quiet=True) as genome:
        warnings.simplefilter("ignore")
        pos = extract(genome, read_peaks(g.peaks).windows(WIDTH)).seqs
        neg = extract(genome, read_peaks(negatives_bed).windows(WIDTH)).seqs
    return pos, neg


def oracle_scores(g, seqs: list[np.ndarray]) -> np.ndarray:
    """Best log-odds window of the true PWM on either strand, per record."""
    from poimkit.motifs.scan import padded, window_scores

    lod = g.log_odds()
    X = padded(seqs)
    starts = np.arange(X.shape[1] - lod.shape[0] + 1)
    fwd = window_scores(X, starts, lod)
    rev = window_scores(X, starts, lod[::-1, ::-1])
    return np.maximum(fwd.max(axis=1), rev.max(axis=1))


def auc(y: np.ndarray, score: np.ndarray) -> float:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(y, score))
