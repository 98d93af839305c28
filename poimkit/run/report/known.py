"""The report's section on known motifs (``--known``): which known factors.

Reads the ``known_motifs`` part of ``summary.json`` (`poimkit.run.known.
known_summary`) and the logos `poimkit.run.known.write_known` drew.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from ...motifs.enrichment import MATCH_Q
from ...motifs.sites import SITE_FPR
from ..known import logo_name
from .html import img, probability, table

if TYPE_CHECKING:
    from ..results import RunSummary


def known_section(s: RunSummary, figures: Path) -> list[str]:
    """The known-motif heading, its explanation and the table of the top rows.

    Parameters
    ----------
    s : RunSummary
        The run's summary; nothing without ``known_motifs``.
    figures : pathlib.Path
        The folder holding the logos.

    Returns
    -------
    list of str
        HTML pieces.
    """
    known = s.known_motifs
    if not known:
        return []
    rows = [
        [
            row["id"],
            row["name"],
            img(figures, logo_name(row), f"logo of {row['id']} {row['name']}"),
            f"{100 * row['positives']:.1f} %",
            f"{100 * row['negatives']:.1f} %",
            f"{row['odds_ratio']:.3g}",
            probability(row["p_value"]),
            probability(row["q_value"]),
            ", ".join(row["matches"]) or "",
        ]
        for row in known["top"]
    ]
    header = ["id", "name", "logo", "positives", "negatives", "odds ratio", "p", "q"]
    header.append("found motif matched")
    intro = (
        f"<p>Every motif of <span class='mono'>{html.escape(known['source'])}"
        f"</span> ({known['n_tested']} motifs) was scanned on both strands of the "
        f"{known['n_positive']} positives and {known['n_negative']} negatives, with "
        "the threshold rule of the found motifs (a chance site in about "
        f"{100 * SITE_FPR:g} % of background sequences). <i>Positives</i> and "
        "<i>negatives</i> are the shares holding a site; p is one-sided Fisher's "
        "exact test, q its Benjamini-Hochberg q-value over all the known motifs. "
        f"<b>{known['n_enriched']}</b> reach q &le; {known['q']:g}; the "
        f"{len(rows)} most enriched are below, all in "
        f"<span class='mono'>{known['file']}</span>. A found motif is named where "
        f"it matches the known one (Tomtom q &le; {MATCH_Q:g} over the known "
        "motifs).</p>"
    )
    numeric = {3, 4, 5, 6, 7}
    heading = "<h2>Known motifs in the positives</h2>"
    return [heading, intro, table(header, rows, numeric)]
