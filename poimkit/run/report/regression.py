"""The report page of a regression run (``poimkit run --targets``).

As a classification run's (`poimkit.run.report.page`), with the CV Pearson,
Spearman and R² instead of the AUC, predicted against observed targets
instead of a ROC curve, and the motifs' effect on the target (rank-biserial
correlation, median shift, q-value) instead of their shares of positives
and negatives.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from .html import (
    STYLE,
    img,
    plain,
    probability,
    software_and_times,
    table,
    write_page,
)
from .models import MODEL_WORDS, regression_models_text
from .page import model_sections, motif_columns, selection_note

if TYPE_CHECKING:
    from ..results import RunSummary

#: the classification page's words for a POIM's sign, and a regressor's
_SIGN_WORDS = {
    "raise the score (favour the positive class)": "raise the predicted target",
    "red, favouring the positive class": "red, raising the predicted target",
    "<span class='mono'>GkmSVC</span>": "<span class='mono'>GkmSVR</span>",
}

#: what the CV figures are called on the page
_FIGURES = {"cv_pearson": "Pearson", "cv_spearman": "Spearman", "cv_r2": "R²"}


def _for_targets(parts: list[str]) -> list[str]:
    """Classification sections reworded for a continuous target."""
    out = []
    for part in parts:
        for old, new in _SIGN_WORDS.items():
            part = part.replace(old, new)
        out.append(part)
    return out


def _cv_text(s: RunSummary) -> str:
    """The headline: the three CV figures with their 95 % intervals."""
    if not s.cv.done:
        return (
            "was trained on all of them <b>without cross-validation</b> (cv 0): "
            "how well it predicts new sequences is unknown."
        )
    f = s.cv.figures
    low, high = f["cv_pearson_interval"]
    figures = (
        f"<b>cross-validated Pearson correlation of {f['cv_pearson']:.3f}</b> "
        f"(95 % interval {low:.3f} to {high:.3f}, over "
        f"{len(f['cv_pearson_folds'])} folds), Spearman {f['cv_spearman']:.3f} "
        f"and R² {f['cv_r2']:.3f}"
    )
    chosen = s.chosen_model
    if chosen == "svm":
        return f"predicts held-out targets with a {figures}."
    svm = s.cv.models["svm"]["cv_pearson"]
    return (
        f"predicts held-out targets with a cross-validated Pearson correlation of "
        f"{svm:.3f}; {MODEL_WORDS[chosen]} does better, with a {figures}, and is "
        "the model this run chose (<span class='mono'>"
        f"{'stack.npz' if chosen == 'stack' else 'motif_model.npz'}</span>)."
    )


def _quality(s: RunSummary, figures: Path) -> list[str]:
    """Cross-validation: predicted against observed, the figures per fold."""
    parts = ["<h2>How well the target is predicted</h2>"]
    parts.append(
        "<p>Every sequence's target as predicted by a model that did not see it "
        "in training (out-of-fold), against the observed target; the dashed line "
        "is y = x. Each figure is the mean over the folds, with the 95 % "
        "Student-t interval of that mean.</p>"
    )
    if "predicted_vs_observed.png" in s.figures:
        parts.append(
            img(figures, "predicted_vs_observed.png", "predicted against observed")
        )
    rows, f = [], s.cv.figures
    for key, name in _FIGURES.items():
        low, high = f[f"{key}_interval"]
        rows.append(
            [
                name,
                f"{f[key]:.4f}",
                f"{f[key + '_std']:.4f}",
                f"{low:.4f} to {high:.4f}",
            ]
        )
    parts.append(table(["figure", "mean", "std over folds", "95 % interval"], rows))
    folds = [
        [i + 1, *(f"{f[f'{key}_folds'][i]:.4f}" for key in _FIGURES)]
        for i in range(len(s.cv.figure("folds")))
    ]
    parts.append(table(["fold", *_FIGURES.values()], folds, {0, 1, 2, 3}))
    return parts


def _motif_table(s: RunSummary, figures: Path) -> str:
    """Motifs with their effect on the target."""
    header, rows = motif_columns(
        s,
        figures,
        {
            "rank-biserial": lambda m: (
                f"{m['effect']:+.2f}" + (" (partial r)" if m.get("counted") else "")
            ),
            "median shift": lambda m: f"{m['median_shift']:+.3g}",
            "q-value": lambda m: probability(m["q_value"]),
        },
    )
    first = 4 if s.position_free else 5  # importance, after where
    return table(header, rows, numeric=set(range(first, first + 5)))


_MOTIFS_TEXT = (
    "<p>Each motif is built from its <i>sites</i>: real occurrences, {where}. "
    "A regressor rewards a motif that raises the target (positive POIM "
    "values) and penalises one that lowers it (negative values): motifs of "
    "the first kind are sought in sequences whose target lies above the "
    "median, of the second below it. <i>Importance</i> is the POIM value of "
    "the consensus, the average change of the prediction when it occurs.</p>"
    "<p><b>Evidence.</b> The sequences are split in two at random: one half "
    "gives the motif, the other tests it. <i>Rank-biserial</i> is the chance "
    "that a held-out sequence with a site has the larger target, minus the "
    "chance that it has the smaller one (from &minus;1 to 1; negative: the "
    "motif lowers the target); <i>median shift</i> the median target with a "
    "site minus that without, in the target's units. A motif is reported only "
    "if the targets with and without a site differ (two-sided Mann-Whitney U "
    "test) at a false discovery rate (q-value) of at most 5 % over every "
    "candidate examined, with a rank-biserial correlation of at least 0.2 in "
    "absolute value. Every site is listed in <span class='mono'>sites.tsv</span> "
    "with its sequence's target; the motifs are in "
    "<span class='mono'>motifs.meme</span>.</p>"
)


_COUNTED_TEXT = (
    "<p><b>Counted words.</b> A motif <i>counted anywhere</i> is a short word "
    "each of whose occurrences, on either strand where both are counted, "
    "moves the target. It is chosen by how well its count explains what the "
    "site motifs leave of the target in the first half, and tested in the "
    "other: its rank-biserial column holds the partial correlation of its "
    "count with the held-out target given the site motifs (t-test of its "
    "coefficient; q-value over every candidate word), its importance the model's "
    "average change of prediction when the word occurs at a random "
    "position.</p>"
)


def render_regression_report(summary: RunSummary, figures: Path) -> str:
    """The report page of a regression run as a string.

    Parameters
    ----------
    summary : RunSummary
        The run's summary of a regression run.
    figures : pathlib.Path
        The folder holding the PNGs the summary lists.

    Returns
    -------
    str
    """
    s = summary
    name = ", ".join(Path(p).name for p in s.inputs)
    low, high = s.lengths
    described = (
        f"{s.n_sequences} sequences of length {low}"
        if low == high
        else f"{s.n_sequences} sequences of lengths {low} to {high}"
    )
    target = s.target
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>poimkit report: {html.escape(name)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>poimkit report: {html.escape(name)}</h1>",
        f"<p class='big'>{described} with a continuous target (mean "
        f"{target['mean']:.3g}, standard deviation {target['std']:.3g}). A "
        f"{html.escape(s.model)} {_cv_text(s)}</p>",
        regression_models_text(s),
        "<h2>Motifs that shift the target</h2>",
    ]
    if s.motifs:
        anywhere = bool(s.position_free)
        where = (
            "sought at every position of every sequence (the model is position-free)"
            if anywhere
            else "at the positions where the model rewards (or penalises) the "
            "motif's strongest k-mers; <i>position</i> is the 1-based mean start "
            "of the sites that gather (chance matches elsewhere set aside), "
            "<i>spread</i> its standard deviation"
        )
        parts.append(_MOTIFS_TEXT.format(where=where))
        if any(m.get("counted") for m in s.motifs):
            parts.append(_COUNTED_TEXT)
        parts.append(_motif_table(s, figures))
        if "site_positions.png" in s.figures:
            parts.append(img(figures, "site_positions.png", "site positions"))
    else:
        note = html.escape(s.motifs_note)
        parts.append(f"<p class='big'>{note[0].upper() + note[1:]}.</p>")
    quality = _quality(s, figures) if s.cv.done else []
    # the sections' words for a classifier, reworded (none is in ``quality``)
    parts.extend(_for_targets(model_sections(s, figures, quality)))
    parts.append("<h2>Run details</h2>")
    roles = ["peaks", "genome", "targets"] if s.peaks else ["FASTA", "targets"]
    inputs = [[role, path] for role, path in zip(roles, s.inputs, strict=False)]
    if s.targets:  # peak strength: a column of the peak file, or a table
        column = s.targets["source"]
        scale = "log(1 + value)" if s.targets["log1p"] else "value"
        inputs.append(["target", f"{column} ({scale})"])
    parts.append(table(["input", "path"], inputs))
    parts.append(
        f"<p>Background: <span class='mono'>{html.escape(s.background)}"
        f"</span>; support vectors: {s.n_support_vectors}; CV folds: "
        f"{s.cv_folds}.</p>"
    )
    parts.append(selection_note(s.cv.selection, s.n_sequences))
    rows = [[k, plain(v)] for k, v in s.parameters.items()]
    parts.append(table(["parameter", "value"], rows))
    parts.extend(software_and_times(s))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def write_regression_report(
    path: str | Path, summary: RunSummary, figures: str | Path
) -> None:
    """Write `render_regression_report` to ``path`` atomically.

    Parameters
    ----------
    path : str or pathlib.Path
        The HTML file.
    summary : RunSummary
        The run's summary of a regression run.
    figures : str or pathlib.Path
        The folder holding the PNGs the summary lists.
    """
    write_page(path, render_regression_report(summary, Path(figures)))
