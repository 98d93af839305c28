"""The report page of a model explained untrained (`poimkit.run.model_job`).

No accuracy is shown (nothing was cross-validated): what the model is, the
motifs behind its POIMs with their best known matches and, where records
were given, their evidence there; the known motifs' enrichment; the POIMs.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from .html import (
    STYLE,
    img,
    motif_place,
    probability,
    software_and_times,
    table,
    write_page,
)
from .known import known_section
from .page import best_match, model_sections

if TYPE_CHECKING:
    from ..results import RunSummary

__all__ = ["render_explained", "write_explained_report"]


def render_explained(summary: RunSummary, figures: Path) -> str:
    """The page of an explained model, as a string.

    Parameters
    ----------
    summary : RunSummary
        The summary `poimkit.run.model_job.ModelJob` builds.
    figures : pathlib.Path
        The folder holding the PNGs the summary lists.
    """
    s = summary
    name = Path(s.parameters["explained"]).name
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>poimkit report: {html.escape(name)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>poimkit report: the model {html.escape(name)}</h1>",
        f"<p class='big'>{_model_sentence(s)}</p>",
        "<h2>Motifs behind its POIMs</h2>",
    ]
    if s.motifs:
        parts.append(_motif_table(s, figures))
    note = html.escape(s.motifs_note)
    parts.append(f"<p class='note'>{note[0].upper() + note[1:]}.</p>")
    parts.extend(known_section(s, figures))
    parts.extend(model_sections(s, figures, []))
    inputs = [[i["role"], i["path"]] for i in s.inputs]
    parameters = [[k, html.escape(str(v))] for k, v in s.parameters.items()]
    parts += [
        "<h2>Run details</h2>",
        table(["input", "path"], inputs),
        f"<p>Background: <span class='mono'>{html.escape(s.background)}</span>.</p>",
        table(["parameter", "value"], parameters),
        *software_and_times(s),
        "</body></html>\n",
    ]
    return "\n".join(parts)


def write_explained_report(
    path: str | Path, summary: RunSummary, figures: str | Path
) -> None:
    """Write `render_explained` to ``path`` atomically.

    Parameters
    ----------
    path : str or pathlib.Path
        The HTML file.
    summary : RunSummary
        The explained model's summary.
    figures : str or pathlib.Path
        The folder holding the PNGs the summary lists.
    """
    write_page(path, render_explained(summary, Path(figures)))


def _model_sentence(s: RunSummary) -> str:
    """What the model is and which records, if any, its motifs were tested in."""
    model = html.escape(s.parameters["model"])
    records = (
        f"Its motifs were tested in {s.n_sequences} records ({s.n_positive} "
        f"positive, {s.n_negative} negative)."
        if s.n_sequences
        else "No records were given: the motifs are PWMs fitted to the POIMs alone, "
        "without sites or evidence."
    )
    return (
        f"<span class='mono'>{model}</span>, read from its file and not trained "
        f"here, so no accuracy is reported. {records}"
    )


def _motif_table(s: RunSummary, figures: Path) -> str:
    """Each motif's logo, place, importance and, where known, evidence and match."""
    evidence = bool(s.n_sequences)
    compared = "matches" in s.motifs[0]
    # a position-free model's motifs have no place; their strands need sites
    where = ["strands"] * evidence if s.position_free else ["position", "spread"]
    header = ["motif", "logo", "IUPAC", *where, "importance"]
    header += ["sites", "positives", "negatives", "q-value"] * evidence
    header += ["best known match"] * compared
    rows = []
    for m in s.motifs:
        place = (
            [{"+-": "both", "+": "one"}.get(m["strands"], "")] * evidence
            if s.position_free
            else [motif_place(m["position"]), motif_place(m["spread"])]
        )
        row = [
            m["name"],
            img(figures, f"logo_{m['name']}.png", f"logo of {m['name']}"),
            m["iupac"],
            *place,
            f"{m['importance']:.3g}",
        ]
        if evidence:
            row += [
                m["n_sites"],
                f"{100 * m['frac_positive']:.0f} %",
                f"{100 * m['frac_negative']:.0f} %",
                probability(m["q_value"]),
            ]
        rows.append(row + ([best_match(m)] if compared else []))
    numbers = {"position", "spread", "importance", "sites", "positives", "negatives"}
    return table(header, rows, {i for i, h in enumerate(header) if h in numbers})
