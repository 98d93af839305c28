"""The known-motif step of a run: which known factors' sites the positives hold.

`read_known` reads the sources of ``--known`` and ``--compare`` before any
training (a bad source fails first); `enrich_known` scans every known motif in
the run's positives and negatives (`poimkit.motifs.enrichment`) and names the
found motifs each matches; `write_known` writes ``known_motifs.tsv`` and the
logos of the top rows; `known_summary` is what ``summary.json`` and the
report show.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..motifs.enrichment import KnownEnrichment
from ..motifs.motif import Motif
from .options import RunOptions
from .steps import StepTimer

#: rows of the known-motif table in the summary and the report (with logos)
TOP_KNOWN = 10
#: the q-value at which a known motif counts as enriched
KNOWN_Q = 0.05


def read_known_step(options: RunOptions, timer: StepTimer) -> tuple:
    """`read_known` as a run's "known motifs" step; ``(None, None)`` if none asked.

    Parameters
    ----------
    options : RunOptions
        ``compare`` and ``known``.
    timer : StepTimer
        Times and shows the step.

    Returns
    -------
    compared, tested : list of Motif or None
    """
    if not (options.compare or options.known):
        return None, None
    with timer.step("known motifs"):
        return read_known(options)


def read_known(options: RunOptions) -> tuple[list[Motif] | None, list[Motif] | None]:
    """The known motifs to compare the found ones with, and those to test.

    Parameters
    ----------
    options : RunOptions
        ``compare`` and ``known``; the found motifs are compared with the
        ``known`` set when ``compare`` is None.

    Returns
    -------
    compared, tested : list of Motif or None
    """
    from ..motifs.compare import known_motifs

    tested = known_motifs(options.known) if options.known else None
    if options.compare in (None, options.known):
        return tested, tested
    return known_motifs(options.compare), tested


def enrich_known(
    known: list[Motif],
    X: np.ndarray | list[np.ndarray],
    y: np.ndarray,
    found: list[Motif],
    background: np.ndarray,
    progress: Callable[[int], object] | None = None,
) -> KnownEnrichment:
    """Every known motif tested in the run's records; matches to found motifs.

    Parameters
    ----------
    known : list of Motif
        The known motifs.
    X : numpy.ndarray or list of numpy.ndarray
        The run's records (positives and negatives; any lengths).
    y : numpy.ndarray
        Their labels.
    found : list of Motif
        The motifs the run reports.
    background : numpy.ndarray of float, shape (4,)
        The background letters of the found motifs' log-odds.
    progress : callable, optional
        Called with 1 after each known motif.

    Returns
    -------
    KnownEnrichment
    """
    from ..motifs.enrichment import known_enrichment, mark_matches
    from ..motifs.scan import padded

    codes = X if isinstance(X, np.ndarray) and X.ndim == 2 else padded(list(X))
    tested = known_enrichment(known, codes, y, background, progress)
    return mark_matches(tested, found)


def logo_name(row: dict) -> str:
    """The file name of a known motif's logo (its matrix id, safe for a path).

    Parameters
    ----------
    row : dict
        A row of `KnownEnrichment.rows`.
    """
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in row["id"])
    return f"known_{safe}.png"


def write_known(folder: Path, figures: Path, enrichment: KnownEnrichment) -> list[str]:
    """Write ``known_motifs.tsv`` to ``folder`` and the top rows' logos to ``figures``.

    Parameters
    ----------
    folder : pathlib.Path
        The run's (staged) folder.
    figures : pathlib.Path
        Its figures folder (existing).
    enrichment : KnownEnrichment
        The tested known motifs.

    Returns
    -------
    list of str
        The logos written (names in ``figures``).
    """
    from ..io.outdir import LAYOUT

    enrichment.write(folder / LAYOUT.known)
    written = []
    for motif, row in zip(enrichment.motifs, enrichment.rows(TOP_KNOWN), strict=False):
        name = logo_name(row)
        _small_logo(motif).savefig(figures / name, dpi=100)
        written.append(name)
    return written


def _small_logo(motif: Motif):
    """A table-row logo: the letters and their bits, titled by the consensus."""
    from matplotlib.figure import Figure

    from ..plot import plot_logo

    fig = Figure(figsize=(0.3 * motif.length + 0.9, 1.35), layout="constrained")
    ax = fig.add_subplot()
    plot_logo(motif, ax=ax, title=motif.iupac)
    ax.set_xlabel("")
    ax.set_ylabel("bits", fontsize="small")
    ax.tick_params(labelsize="x-small")
    return fig


def known_summary(enrichment: KnownEnrichment, source: str) -> dict:
    """The known-motif part of ``summary.json``.

    Parameters
    ----------
    enrichment : KnownEnrichment
        The tested known motifs.
    source : str
        Where they came from (``--known``).

    Returns
    -------
    dict
        ``source``, ``n_tested``, ``n_enriched`` (q <= `KNOWN_Q`), the shares'
        populations and the `TOP_KNOWN` most enriched rows.
    """
    return {
        "source": source,
        "file": "known_motifs.tsv",
        "n_tested": len(enrichment),
        "n_enriched": enrichment.n_enriched(KNOWN_Q),
        "q": KNOWN_Q,
        "n_positive": enrichment.n_positive,
        "n_negative": enrichment.n_negative,
        "top": enrichment.rows(TOP_KNOWN),
    }
