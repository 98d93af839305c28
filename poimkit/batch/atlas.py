"""The atlas of a batch: its experiments side by side (table and page).

One row per experiment, read back from its run's ``summary.json``
(`poimkit.run.RunSummary.from_json`): what it read, the model kept and its
cross-validated figure, whether that beats chance, the motif model's
fidelity, the strongest known motif, the de novo motifs, its time and its
report. Failed experiments are listed with their error.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError

if TYPE_CHECKING:
    from ..run.results import RunSummary
    from .tasks import Outcome, Task

#: the atlas's table of experiments
EXPERIMENTS_FILE = "experiments.tsv"
#: the atlas page
ATLAS_PAGE = "atlas.html"
#: the columns of `EXPERIMENTS_FILE`
COLUMNS = (
    "name",
    "status",
    "road",
    "inputs",
    "n_records",
    "family",
    "model",
    "cv_metric",
    "cv_value",
    "cv_low",
    "cv_high",
    "better_than_chance",
    "fidelity",
    "top_known",
    "top_known_q",
    "motifs",
    "motif_matches",
    "seconds",
    "peak_memory_mb",
    "report",
    "error",
)


def experiment_row(task: Task, outcome: Outcome) -> dict:
    """An experiment's row of `EXPERIMENTS_FILE` (empty figures if it failed).

    Parameters
    ----------
    task : Task
        The experiment and its run folder.
    outcome : Outcome
        How it went.

    Returns
    -------
    dict
        Keyed by `COLUMNS`.
    """
    e = task.experiment
    row = dict.fromkeys(COLUMNS, "")
    row.update(
        name=e.name,
        status=outcome.status,
        road=e.road,
        inputs=" ".join(os.path.basename(p) for p in e.files.values()),
        error=outcome.error,
        peak_memory_mb=_number(outcome.peak_memory_mb, 0),
    )
    summary = _summary(Path(task.out)) if outcome.status != "failed" else None
    if summary is not None:
        row.update(_figures(summary))
        if e.explains:  # a model file explained: nothing was cross-validated
            row.update(model="explained", cv_metric="", better_than_chance="")
        row["report"] = f"runs/{e.name}/report.html"
    return row


def _summary(folder: Path) -> RunSummary | None:
    from ..run.results import RunSummary

    path = folder / "summary.json"
    try:
        return RunSummary.from_json(json.loads(path.read_text()), os.fspath(path))
    except (OSError, ValueError, InputError):
        return None


def _figures(s: RunSummary) -> dict:
    """The row's numbers from a run's summary."""
    cv = s.cv
    low, high = cv.figure("interval") or ("", "")
    known = (s.known_motifs or {}).get("top") or []
    motifs = [
        m["iupac"] + ("-" if m.get("class") == "negative" else "") for m in s.motifs
    ]
    return {
        "n_records": s.n_sequences,
        "family": s.family,
        "model": s.chosen_model,
        "cv_metric": cv.metric,
        "cv_value": _number(cv.figure()),
        "cv_low": _number(low),
        "cv_high": _number(high),
        "better_than_chance": "yes" if cv.better_than_chance() else "no",
        "fidelity": _number((s.motif_model or {}).get("fidelity")),
        "top_known": known[0]["name"] if known else "",
        "top_known_q": f"{known[0]['q_value']:.2g}" if known else "",
        "motifs": " ".join(motifs),
        "motif_matches": " ".join(_best_match(m) for m in s.motifs),
        "seconds": _number(s.runtimes.get("total"), 1),
    }


def _best_match(motif: dict) -> str:
    """A motif row's best known match's name, one word (``-``: none compared)."""
    matches = motif.get("matches") or []
    if not matches:
        return "-"
    return "_".join(matches[0]["target"].split(" ", 1)[-1].split())


def _number(value, digits: int = 4) -> str:
    return "" if value is None or value == "" else f"{float(value):.{digits}f}"


def write_atlas(out: Path, tasks: Sequence[Task], outcomes: Sequence[Outcome]) -> None:
    """`EXPERIMENTS_FILE` and `ATLAS_PAGE` in the batch folder ``out``.

    Parameters
    ----------
    out : pathlib.Path
        The batch folder.
    tasks : sequence of Task
        Every experiment, in the sheet's order.
    outcomes : sequence of Outcome
        Theirs, in the same order.
    """
    from ..io import atomic_path
    from ..io.files import write_table

    rows = [experiment_row(t, o) for t, o in zip(tasks, outcomes, strict=True)]
    write_table(
        out / EXPERIMENTS_FILE, COLUMNS, [[r[c] for c in COLUMNS] for r in rows]
    )
    names = [r["name"] for r in rows if r["status"] != "failed"]
    sections = family_sections(out, names) + known_sections(out, names)
    with atomic_path(out / ATLAS_PAGE) as tmp:
        Path(tmp).write_text(render_atlas(rows, sections))


#: the atlas's figures (PNG), embedded in the page too
FIGURES = "figures"
#: known motifs drawn in the atlas's heatmap: each experiment's strongest
#: `KNOWN_PER_EXPERIMENT` (q below `KNOWN_Q`), at most `TOP_KNOWN` in all
TOP_KNOWN = 40
KNOWN_PER_EXPERIMENT = 2
KNOWN_Q = 0.05


def family_sections(out: Path, names: Sequence[str]) -> list[str]:
    """The motif families: their files and the page's section.

    Parameters
    ----------
    out : pathlib.Path
        The batch folder.
    names : sequence of str
        The experiments that ran.

    Returns
    -------
    list of str
        HTML parts (none without any motif).
    """
    from ..run.report.html import table
    from .families import (
        THRESHOLD,
        batch_motifs,
        families,
        plot_matrix,
        similarity,
        write_families,
    )

    found = batch_motifs(out / "runs", names)
    labels = families(similarity(found))
    rows = write_families(out, found, labels, names)
    if not rows:
        return ["<h2>Motif families</h2><p>No experiment reported a motif.</p>"]
    shares = np.array([[r["shares"].get(n, 0.0) for n in names] for r in rows])
    figure = plot_matrix(
        shares,
        [f"{r['family']} {r['representative'].iupac}" for r in rows],
        names,
        "share with a site",
    )
    body = [
        [
            r["family"],
            r["representative"].iupac,
            len(r["members"]),
            ", ".join(r["experiments"]),
        ]
        for r in rows
    ]
    return [
        "<h2>Motif families across experiments</h2>",
        f"<p>Every de novo motif of every experiment (both classes), clustered by "
        f"average linkage of their Tomtom/STAMP column similarity (Pearson, both "
        f"strands, over the shorter motif) at {THRESHOLD}. The heatmap gives, per "
        "family and experiment, the largest share of the experiment's records "
        "(of the motif's class) with a site of a member "
        "(<span class='mono'>motif_matrix.tsv</span>; grey: found only by a model "
        "explained without records, so no share; the representatives in "
        "<span class='mono'>motif_families.meme</span>).</p>",
        table(["family", "representative", "motifs", "experiments"], body, {2}),
        _drawn(out, figure, "motif_families.png", "motif families by experiment"),
    ]


def known_sections(out: Path, names: Sequence[str]) -> list[str]:
    """The known motifs by experiment: ``known_matrix.tsv`` and a heatmap.

    Parameters
    ----------
    out : pathlib.Path
        The batch folder.
    names : sequence of str
        The experiments that ran.

    Returns
    -------
    list of str
        HTML parts (none unless some experiment tested known motifs).
    """
    from ..io.files import write_table
    from .families import known_matrix, plot_matrix

    motifs, q = known_matrix(out / "runs", names)
    if not motifs:
        return []
    write_table(
        out / "known_matrix.tsv",
        ["known_motif", *names],
        [
            [m, *("" if np.isnan(v) else f"{v:.3g}" for v in row)]
            for m, row in zip(motifs, q, strict=True)
        ],
    )
    strength = -np.log10(np.clip(np.nan_to_num(q, nan=1.0), 1e-300, 1.0))
    top = strongest_known(strength)
    if not top:
        return [
            "<h2>Known motifs</h2><p>No known motif is enriched in any experiment "
            f"(q below {KNOWN_Q}; every q in "
            "<span class='mono'>known_matrix.tsv</span>).</p>"
        ]
    figure = plot_matrix(
        np.minimum(strength[top], 50.0), [motifs[i] for i in top], names, "-log10 q"
    )
    return [
        "<h2>Known motifs</h2>",
        f"<p>Each experiment's {KNOWN_PER_EXPERIMENT} most enriched known motifs "
        f"(q below {KNOWN_Q}; {len(top)} in all), by experiment: -log10 of the BH "
        "q-value, capped at 50 (every motif in "
        "<span class='mono'>known_matrix.tsv</span>).</p>",
        _drawn(out, figure, "known_motifs.png", "known motifs by experiment"),
    ]


def strongest_known(strength: np.ndarray) -> list[int]:
    """Rows of each experiment's strongest known motifs, strongest overall first.

    Parameters
    ----------
    strength : numpy.ndarray, shape (motifs, experiments)
        ``-log10 q`` of every known motif in every experiment.

    Returns
    -------
    list of int
        Each experiment's `KNOWN_PER_EXPERIMENT` strongest rows with q below
        `KNOWN_Q`, at most `TOP_KNOWN` (the strongest kept): one factor's
        many matrices do not crowd out the other experiments' factors.
    """
    significant = -np.log10(KNOWN_Q)
    rows = set()
    for column in strength.T:
        best = np.argsort(-column, kind="stable")[:KNOWN_PER_EXPERIMENT]
        rows.update(int(i) for i in best if column[i] > significant)
    return sorted(rows, key=lambda i: -strength[i].max())[:TOP_KNOWN]


def _drawn(out: Path, figure, name: str, alt: str):
    """``figure`` saved as ``FIGURES/name`` in the batch folder, as the page's image."""
    from ..run.report.html import img

    (out / FIGURES).mkdir(exist_ok=True)
    figure.savefig(out / FIGURES / name, dpi=100)
    return img(out / FIGURES, name, alt)


def render_atlas(rows: Sequence[dict], sections: Sequence[str] = ()) -> str:
    """The atlas page: the experiments, the weak ones, the failed ones.

    Parameters
    ----------
    rows : sequence of dict
        `experiment_row` of every experiment.
    sections : sequence of str
        More of the page (families, known motifs), after the experiments.

    Returns
    -------
    str
    """
    from ..run.report.html import STYLE, Markup, table

    header = ["experiment", "road", "records", "model kept", "cross-validated"]
    header += ["beats chance", "fidelity", "top known motif"]
    header += ["de novo motifs (best known match)", "s"]
    body = []
    for r in rows:
        if r["status"] == "failed":
            continue
        link = f'<a href="{html.escape(r["report"])}">{html.escape(r["name"])}</a>'
        figure = f"{r['cv_metric']} {r['cv_value']} ({r['cv_low']} to {r['cv_high']})"
        known = f"{r['top_known']} (q {r['top_known_q']})" if r["top_known"] else ""
        motifs = " ".join(
            m if match == "-" else f"{m} ({match})"
            for m, match in zip(
                r["motifs"].split(), r["motif_matches"].split(), strict=True
            )
        )
        body.append(
            [
                Markup(link),
                r["road"],
                r["n_records"],
                f"{r['family']}, {r['model']}",
                figure if r["cv_value"] else "no CV",
                r["better_than_chance"],
                r["fidelity"],
                known,
                motifs,
                r["seconds"],
            ]
        )
    weak = [r["name"] for r in rows if r["better_than_chance"] == "no"]
    failed = [[r["name"], r["error"]] for r in rows if r["status"] == "failed"]
    done = sum(r["status"] != "failed" for r in rows)
    parts = [
        f"<h1>Atlas of {len(rows)} experiments</h1>",
        f"<p>{done} ran (or were complete and unchanged), {len(failed)} failed. "
        "Each row is one experiment's run, its report linked; the figure is its "
        "kept model's cross-validated AUC (classes) or Pearson correlation "
        "(targets), and a model whose 95 % interval does not lie above chance "
        "is weak: its motifs may be noise. <i>Fidelity</i> is how much of the "
        "SVM's held-out ranking its motifs alone keep, (AUC(motifs) - 0.5) / "
        "(AUC(SVM) - 0.5), or the ratio of their Pearson r for targets: above 1 "
        "where the motifs rank better than a weak SVM. "
        "A <i>model</i> row explains a model file someone trained: no CV.</p>",
        table(header, body, {2, 6, 9}),
    ]
    if weak:
        parts.append(
            "<h2>Weak experiments</h2><p>No better than chance: "
            + html.escape(", ".join(weak))
            + ".</p>"
        )
    parts.extend(sections)
    if failed:
        parts.append("<h2>Failed experiments</h2>" + table(["name", "error"], failed))
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>poimkit atlas"
        f"</title><style>{STYLE}</style></head><body>{''.join(parts)}</body></html>\n"
    )
