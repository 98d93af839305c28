"""``sites.bed``: the found motifs' sites in the peaks, in genome coordinates.

A run on peaks (``--bed``) finds its motifs' sites in the peak windows,
whose ids give their place (``chrom:start-end(strand)``, `poimkit.svm.folds.
record_loci`). A site at 0-based ``s`` of a window read on the plus strand
lies at ``start + s``; in a window read as its reverse complement (a
minus-strand peak) at ``end - s - width``, on the other strand. The file is
BED6 (chrom, start, end, motif, score, strand), sorted by chromosome and
start, with the score an integer 0-1000 as UCSC wants it: the site's
log-odds over the best of that motif's sites, times 1000 (the bits are in
``sites.tsv``). It loads in IGV and the UCSC browser as it is.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from ..motifs.motif import Motif


def site_rows(motifs: Sequence[Motif], ids: Sequence[str], labels: np.ndarray) -> list:
    """BED6 rows of the motifs' sites in the positives, in genome order.

    Parameters
    ----------
    motifs : sequence of Motif
        Found motifs with their sites (`poimkit.extract_motifs` with
        sequences).
    ids : sequence of str
        Record ids ``chrom:start-end(strand)`` of the rows the sites index.
    labels : numpy.ndarray
        1 for a positive (a peak window); sites elsewhere are left out.

    Returns
    -------
    list of tuple
        ``(chrom, start, end, motif, score, strand)``.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> m = Motif(np.eye(4)[[0, 1, 2]], 5.0, 1.0, name="m1")
    >>> m.sites = NS(rows=np.array([0, 1]), starts=np.array([2, 2]),
    ...              strands=np.array([1, 1]), scores=np.array([6.0, 3.0]))
    >>> site_rows([m], ["c1:100-110(+)", "c1:200-210(-)"], np.array([1, 1]))
    [('c1', 102, 105, 'm1', 1000, '+'), ('c1', 205, 208, 'm1', 500, '-')]
    """
    from ..genome.loci import record_loci

    labels = np.asarray(labels)
    rows = []
    for motif in motifs:
        sites = motif.sites
        if sites is None or not len(sites.rows):
            continue
        keep = labels[sites.rows] == 1
        if not keep.any():
            continue
        loci = record_loci([ids[r] for r in sites.rows[keep]])
        width = motif.length
        offset = sites.starts[keep].astype(np.int64)
        start = np.where(loci.minus, loci.end - offset - width, loci.start + offset)
        strand = sites.strands[keep] * np.where(loci.minus, -1, 1)
        scores = sites.scores[keep].astype(np.float64)
        best = scores.max()
        score = (
            np.clip(np.rint(1000 * scores / best), 0, 1000) if best > 0 else 0 * scores
        )
        rows += [
            (c, int(a), int(a) + width, motif.name, int(v), "+" if d > 0 else "-")
            for c, a, v, d in zip(loci.chrom, start, score, strand, strict=True)
        ]
    return sorted(rows, key=lambda row: (row[0], row[1], row[3]))


def write_sites_bed(
    path: str | os.PathLike,
    motifs: Sequence[Motif],
    ids: Sequence[str],
    labels: np.ndarray,
) -> int:
    """Write `site_rows` as BED6, atomically; how many sites.

    Parameters
    ----------
    path : str or path-like
        The file, conventionally ``sites.bed``.
    motifs, ids, labels
        As `site_rows` takes them.

    Returns
    -------
    int
    """
    from ..io.files import write_table

    rows = site_rows(motifs, ids, labels)
    write_table(path, None, rows)
    return len(rows)
