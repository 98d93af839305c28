"""One self-contained HTML page (figures embedded) from a run's summary."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .html import (
    STYLE,
    Markup,
    img,
    motif_place,
    plain,
    probability,
    software_and_times,
    table,
    write_page,
)
from .known import known_section
from .models import (
    effects_table,
    families_section,
    fidelity_sentence,
    headline,
    model_words,
    trained_name,
)

if TYPE_CHECKING:
    from ..results import RunSummary

#: the motifs' introduction: how sites are found, what the columns mean
_MOTIFS_INTRO = {
    False: "<p>Each motif is built from its <i>sites</i>: real occurrences in the "
    "sequences of its class, at the positions where the model rewards (or, for "
    "the negatives' motifs, penalises) the motif's strongest k-mers (POIMs). "
    "The logo is the letter frequencies of those sites. <i>Position</i> is "
    "the 1-based mean start of the sites that gather (chance matches elsewhere "
    "set aside), <i>spread</i> the standard deviation of that start; <i>importance</i> "
    "is the POIM value of the consensus, the average change of the model's score "
    "when it sits there (positive favours the positive class).</p>",
    True: "<p>Each motif is built from its <i>sites</i>: real occurrences in the "
    "sequences of its class. The model is position-free: it rewards a word "
    "wherever it occurs, so sites are sought at every position of every "
    "sequence, whatever its length. The logo is the letter frequencies of "
    "those sites. <i>Strands</i>: <i>both</i> if sites read as the motif's "
    "reverse complement count too; <i>importance</i> is the POIM value of the "
    "consensus, the average change of the model's score when it occurs "
    "(positive favours the positive class). Where the sites lie in the "
    "sequences is shown below the table.</p>",
}
#: where sites.tsv puts a site
_SITES_FILE = {
    False: "Every site is listed in <span class='mono'>sites.tsv</span>; ",
    True: "Every site is listed in <span class='mono'>sites.tsv</span> with its "
    "1-based start in its sequence, counted on the sequence as given (a site "
    "on strand &minus; reads as the motif's reverse complement from there); ",
}


def motif_columns(
    s: RunSummary, figures: Path, evidence: dict[str, Callable[[dict], object]]
) -> tuple[list[str], list[list]]:
    """The motif table's header and rows, its evidence columns given.

    Name, logo, IUPAC, position and spread (strands for a position-free
    model), importance and sites, then one column per ``evidence`` entry.

    Parameters
    ----------
    s : RunSummary
        The run's summary (its ``motifs``).
    figures : pathlib.Path
        The folder holding the motifs' logos.
    evidence : dict
        The evidence columns: header -> the cell of a motif (its dict).

    Returns
    -------
    header : list of str
    rows : list of list
    """
    anywhere = bool(s.position_free)
    rows = []
    for m in s.motifs:
        where = (
            ["both" if m["strands"] == "+-" else "one"]
            if anywhere
            else ["counted anywhere", ""]
            if m.get("counted")
            else [motif_place(m["position"]), motif_place(m["spread"])]
        )
        rows.append(
            [
                m["name"],
                img(figures, f"logo_{m['name']}.png", f"logo of {m['name']}"),
                m["iupac"],
                *where,
                f"{m['importance']:.3g}",
                m["n_sites"],
                *(cell(m) for cell in evidence.values()),
            ]
        )
    where = ["strands"] if anywhere else ["position", "spread"]
    return ["motif", "logo", "IUPAC", *where, "importance", "sites", *evidence], rows


def _motif_table(s: RunSummary, figures: Path) -> str:
    """The motif table: positional columns, or strands for a position-free model."""
    compared = "matches" in s.motifs[0]
    header, rows = motif_columns(
        s,
        figures,
        {
            **({"class": lambda m: m["class"]} if "class" in s.motifs[0] else {}),
            "positives": lambda m: f"{100 * m['frac_positive']:.0f} %",
            "negatives": lambda m: f"{100 * m['frac_negative']:.0f} %",
            "q-value": lambda m: probability(m["q_value"]),
            **({"best known match": best_match} if compared else {}),
        },
    )
    numbers = {"position", "spread", "importance", "sites"} | {
        "positives",
        "negatives",
        "q-value",
    }
    return table(
        header, rows, numeric={i for i, name in enumerate(header) if name in numbers}
    )


def best_match(motif: dict) -> str:
    """The best known match of a motif row and its p-value, or ``none``.

    Parameters
    ----------
    motif : dict
        A summary's motif row with ``matches``.
    """
    if not motif["matches"]:
        return "none"
    best = motif["matches"][0]
    p = best["p_value"]
    return f"{best['target']} (p {probability(p)})" if p is not None else best["target"]


def _params_text(params: dict) -> str:
    return ", ".join(
        f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}" for k, v in params.items()
    )


def _quality(s: RunSummary, figures: Path) -> list[str]:
    """The section on cross-validation: ROC curve and the folds' AUCs."""
    parts = ["<h2>How well the classes are separated</h2>"]
    chosen = s.chosen_model
    parts.append(
        "<p>ROC curve of the out-of-fold scores: every sequence scored by a model "
        "that did not see it in training"
        + (
            f" (the {trained_name(s.family)}'s, the motif model's and the stack's; the "
            f"table gives the folds of {model_words(s, chosen)})"
            if s.cv.models
            else ""
        )
        + ". Each curve pools its folds' scores; the AUC in its legend is the "
        "one this report gives everywhere, the mean of the folds' own AUCs (each "
        "fold's model ranks only its own sequences).</p>"
    )
    parts.append(img(figures, "roc.png", "ROC curve"))
    folds = [
        [i + 1, f"{a:.4f}", f"{b:.4f}"]
        for i, (a, b) in enumerate(
            zip(
                s.cv.figures["cv_auc_folds"],
                s.cv.figures["cv_accuracy_folds"],
                strict=True,
            )
        )
    ]
    header = ["fold", "ROC AUC", "accuracy"]
    if s.cv.selection:
        header.append("parameters chosen by the inner CV")
        compared = len(s.cv.selection.get("families") or {}) > 1
        for row, fold in zip(folds, s.cv.selection["folds"], strict=True):
            family = f"{fold['family']}: " if compared else ""
            row.append(family + _params_text(fold["params"]))
    parts.append(table(header, folds, {0, 1, 2}))
    if "reliability.png" in s.figures:
        parts.append(_PROBABILITIES.format(**s.cv.figures))
        parts.append(img(figures, "reliability.png", "reliability diagram"))
    return parts


_PROBABILITIES = (
    "<h3>Probabilities and labels</h3><p>A saved model turns its score into a "
    "probability by Platt scaling fitted on held-out scores (each fold's model "
    "on the scores of its inner cross-validation, the final model on the "
    "out-of-fold scores above), and labels a sequence with the class of "
    "probability at least 1/2: <span class='mono'>poimkit score</span> writes "
    "both. Out of fold the labels are right for {cv_accuracy:.3f} of the "
    "sequences ({cv_balanced_accuracy:.3f} balanced over the two classes); the "
    "best threshold on the same probabilities would reach {cv_best_accuracy:.3f}. "
    "The Brier score, the mean squared error of the probabilities (0.25 for "
    "always saying 1/2), is {cv_brier:.3f}. In the diagram a calibrated model "
    "lies on the diagonal.</p>"
)


def sample_note(sample: dict | None) -> str:
    """What a run on many records did on a sample only (a paragraph, or "").

    Parameters
    ----------
    sample : dict or None
        The summary's ``sample`` (`poimkit.run.data.sample_description`).
    """
    if not sample:
        return ""
    return (
        f"<p class='note'>The run read {sample['of']} records, more than it "
        "cross-validates (--cv-sample): the cross-validation and the choices it "
        "makes, the motifs with their evidence and sites, and the known motifs' "
        f"enrichment used a stratified random sample of {sample['records']} "
        f"({sample['positive']} positive). The final model was trained on all "
        f"{sample['of']}; the cross-validated figures are those of models trained "
        "on fewer records than it.</p>"
    )


def selection_note(selection: dict | None, n_sequences: int) -> str:
    """How the parameters were chosen, in words (a paragraph).

    Parameters
    ----------
    selection : dict or None
        The summary's ``selection`` (None: the parameters were fixed).
    n_sequences : int
        The number of sequences of the run.

    Returns
    -------
    str
        The paragraph's HTML.
    """
    from ..summary import inner_figure

    if not selection:
        return "<p class='note'>The model's parameters were fixed (no selection).</p>"
    figure, label = inner_figure(selection)
    regression = figure == "inner_pearson"
    grid = "; ".join(
        f"{k} {{{', '.join(f'{v:g}' if isinstance(v, float) else str(v) for v in vs)}}}"
        for k, vs in selection["grid"].items()
    )
    inner = {
        "holdout": "one inner split (a third held out)",
        "by-chromosome holdout": "one inner split holding out whole chromosomes",
    }.get(selection["inner"], f"an inner {selection['inner']} cross-validation")
    text = (
        "<p class='note'>The parameters were chosen by nested cross-validation: "
        f"in every outer fold by {inner} over {html.escape(grid)}, and for the "
        "final model on all sequences the same way"
        + (
            f" (on a {'random' if regression else 'stratified'} sample of "
            f"{selection['n_sequences']} sequences)"
            if selection.get("n_sequences", n_sequences) < n_sequences
            else ""
        )
        + "; each time the simplest candidate within one standard error of the "
        f"best inner {label}. Final choice: {_params_text(selection['chosen'])} "
        f"(inner {label} {selection[figure]:.4f}; the best candidate, "
        f"{_params_text(selection['best'])}, had {selection['best_' + figure]:.4f})."
    )
    text += _family_note(selection)
    if selection["corner"]:
        text += (
            f" <b>{html.escape(', '.join(selection['corner']))} was chosen at the "
            "end of its grid</b>: the best value may lie beyond it; run again with "
            "it given explicitly to try."
        )
    return text + "</p>"


def _family_title(name: str) -> str:
    """A family in words (its name if it is not registered)."""
    from ..registry import find_family

    found = find_family(name)
    return name if found is None else found.title


def _family_note(selection: dict) -> str:
    """Which model family the inner CV chose and by how much (or "")."""
    from ..summary import family_scores, inner_figure

    scores = family_scores(selection)
    if not scores:
        return ""
    family = selection["family"]
    label = inner_figure(selection)[1]
    best = ", ".join(
        f"{html.escape(_family_title(name))} {score:.4f}"
        for name, score in scores.items()
    )
    margin = selection["family_margin"]
    how = (
        f"better by {margin:.4f}"
        if margin > selection["family_tolerance"]
        else "preferred in a tie (within one standard error, "
        f"{selection['family_tolerance']:.4f}; the positional model comes first)"
    )
    return (
        f" <b>Model family: {html.escape(_family_title(family))}</b>, "
        f"chosen by the same inner CV among the families (best inner {label}: "
        f"{best}); "
        f"{how}."
    )


#: options that apply only beside another's value: name -> test of the options
_APPLIES = {
    "drop_short": lambda p: p.get("crop") is not None,
    "markov_order": lambda p: p.get("background") != "uniform",
    "crop": lambda p: p.get("crop") is not None,
    "positive_label": lambda p: p.get("positive_label") is not None,
    "compare": lambda p: p.get("compare") is not None,
}
#: the kernel models' options, which a model that is not a kernel SVM lacks
_KERNEL_ONLY = ("C", "solver", "grid", "reverse_complement")


def kernel_name(family: str, chosen: dict) -> str:
    """``WD``, ``WDS`` (a shift above 0), ``gkm`` or ``CNN``: the final model's kind.

    Parameters
    ----------
    family : str
        The summary's ``family`` ("wd", "gkm" or "cnn"; "auto" if unresolved).
    chosen : dict
        The final model's parameters (``shift`` for WD, ``l`` for gkm,
        ``filters`` for the CNN).

    Examples
    --------
    >>> kernel_name("wd", {"degree": 8, "shift": 4, "C": 1.0})
    'WDS'
    """
    return _family(family, chosen).model_name(chosen)


def _family(name: str, chosen: dict):
    """The registered family ``name``, or the one whose parameters were chosen."""
    from ..registry import family_of_parameters, find_family

    return find_family(name) or family_of_parameters(chosen)


def _parameter_rows(s: RunSummary) -> list[list[str]]:
    """The settings of the run that apply to its model, in plain words.

    One left unset shows the value the model used (chosen or default);
    options of the other model family, or that need an option not given
    (``drop_short`` without ``crop``), are left out.
    """
    parameters = s.parameters
    chosen = parameters.get("chosen") or {}
    from ..registry import family as registered
    from ..registry import family_names

    own = _family(s.family, chosen)
    kernel = own.model_name(chosen)
    how = "chosen by the inner CV" if parameters.get("grid") else "default"
    others = [registered(f) for f in family_names() if f != own.name]
    other = [n for f in others for n in f.own_options]
    other += [] if own.kernel_svm else list(_KERNEL_ONLY)
    rows = []
    for name, value in parameters.items():
        if name == "chosen" or name in other:
            continue
        if name in _APPLIES and not _APPLIES[name](parameters):
            continue
        if name == "kernel":
            picked = " (chosen by the inner CV)" if value == "auto" else ""
            text = kernel + picked
        elif value is None and own.own_options.get(name, name) in chosen:
            text = f"{plain(chosen[own.own_options.get(name, name)])} ({how})"
        elif value is None and name in own.unset:
            text = f"{plain(own.unset[name])} (default)"
        else:
            text = plain(value)
        rows.append([name, text])
    return rows


def _model_text(s: RunSummary) -> str:
    """``A WDS (shift 4)-kernel SVM of degree 20, C = 1,`` or its gkm or CNN sibling."""
    chosen = s.parameters["chosen"]
    return _family(s.family, chosen).describe(chosen)


def _top_kmer_table(s: RunSummary) -> str:
    """The summary's strongest POIM entries, with positions unless position-free."""
    anywhere = bool(s.position_free)
    top = [
        [
            Markup(f"<span class='mono'>{html.escape(t['kmer'])}</span>"),
            *([] if anywhere else [t["position"]]),
            f"{t['value']:.4g}",
        ]
        for t in s.top_kmers
    ]
    if anywhere:
        return table(["k-mer", "Q"], top, {1})
    return table(["k-mer", "position", "Q"], top, {1, 2})


def _where_sections(s: RunSummary, figures: Path) -> list[str]:
    """A positional model: where it looks, and its strongest positional k-mers."""
    peaks = [
        [p["length"], p["position"], f"{p['value']:.3g}"] for p in s.differential_peaks
    ]
    return [
        "<h2>Where in the sequence the model looks</h2>",
        "<p>The differential POIM scores, for each k-mer length (rows) and start "
        "position (columns), how much the most important k-mer there adds over its "
        "shorter pieces: bright cells mark the length and start of a motif. The "
        "weight mass below sums the absolute importance of all k-mers at each "
        "position.</p>",
        "<p>Single nucleotides first: at each position, letters above the line "
        "raise the score (favour the positive class) and letters below lower it; "
        "a letter's height is its importance Q<sub>1</sub>.</p>",
        img(figures, "nucleotide_importance.png", "nucleotide importance"),
        img(figures, "differential_poim.png", "differential POIM"),
        table(["k-mer length", "start position", "value"], peaks, {0, 1, 2}),
        img(figures, "weight_mass.png", "weight mass"),
        "<h2>Strongest positional k-mers</h2>",
        "<p>POIM entries of largest absolute value: the expected change of the "
        "score when the k-mer starts at that position. The 50 strongest are in "
        "<span class='mono'>top_kmers.tsv</span>.</p>",
    ]


def _anywhere_sections(s: RunSummary, figures: Path) -> list[str]:
    """A position-free model: the k-mers it rewards or penalises anywhere."""
    from ..registry import find_family

    drawn = "kmer_importance.png" in s.figures
    chosen = s.parameters.get("chosen")  # none for a model explained untrained
    own = _family(s.family, chosen) if chosen else find_family(s.family)
    kind = html.escape(s.family) if own is None else own.reads or html.escape(own.title)
    return [
        "<h2>Which k-mers the model rewards, anywhere</h2>",
        f"<p>This model is position-free ({kind}): it weighs a word alike "
        "wherever it occurs, so a k-mer's "
        "importance has no position. It is the expected change of the score when "
        "the k-mer occurs at a random position (the POIM averaged over "
        "positions): below, for the longest k-mers, those that raise the score "
        "most (red, favouring the positive class) and those that lower it most "
        "(blue). The 50 strongest of all lengths are in "
        "<span class='mono'>top_kmers.tsv</span>.</p>",
        *([img(figures, "kmer_importance.png", "k-mer importance")] if drawn else []),
    ]


def _poim_sections(s: RunSummary, figures: Path) -> list[str]:
    """The POIM heatmaps per k-mer length."""
    return [
        "<h2>POIMs per k-mer length</h2>",
        "<p>Rows are k-mers (all of them up to length 2, otherwise the 20 with the "
        "largest peak), columns 1-based start positions; red raises the score, "
        "blue lowers it.</p>",
        *(img(figures, f, f) for f in s.figures if f.startswith("poim_order_")),
    ]


def model_sections(s: RunSummary, figures: Path, quality: list[str]) -> list[str]:
    """What the model looks at, how well it does (``quality``), its POIMs.

    A positional model's differential POIM and strongest positional k-mers
    (only the k-mers without the differential POIM figure), or the k-mers a
    position-free model rewards anywhere; then ``quality``; then the POIM
    heatmaps, if drawn.

    Parameters
    ----------
    s : RunSummary
        The run's summary, of a classification or a regression run.
    figures : pathlib.Path
        The folder holding the PNGs the summary lists.
    quality : list of str
        The sections on cross-validation (none without it).

    Returns
    -------
    list of str
        The sections' HTML.
    """
    if s.position_free:
        parts = _anywhere_sections(s, figures)
    elif "differential_poim.png" in s.figures:
        parts = _where_sections(s, figures)
    else:
        parts = []
    parts.append(_top_kmer_table(s))
    parts.extend(quality)
    if any(f.startswith("poim_order_") for f in s.figures):
        parts.extend(_poim_sections(s, figures))
    return parts


def _peaks_section(s: RunSummary) -> str:
    """Where the sequences came from: the peaks' windows and the negatives made."""
    peaks, negatives = s.peaks, s.negatives
    width = (
        f"windows of {peaks['width']} letters around each {peaks['centred_on']}"
        if peaks["width"]
        else "the peaks as they are"
    )
    dropped = peaks["dropped"]
    lost = [
        f"{dropped['past_end']} past a chromosome end" if dropped["past_end"] else "",
        f"{dropped['n_letters']} holding N" if dropped["n_letters"] else "",
    ]
    lost = " and ".join(x for x in lost if x)
    made = f"The {s.n_negative} negatives"
    if negatives["kind"] == "genomic":
        made += (
            f" (for {negatives['requested']} requested: "
            f"{negatives['unmatched']} found no match within the tolerances; mean GC "
            f"{negatives['positive_gc_mean']} in the windows, "
            f"{negatives['negative_gc_mean']} in the negatives; soft-masked "
            f"{negatives['positive_repeat_mean']} and "
            f"{negatives['negative_repeat_mean']})"
        )
    where = negatives["file"] if negatives["kind"] != "file" else ""
    made += (
        f" are in <span class='mono'>{html.escape(where)}</span>. " if where else ". "
    )
    return (
        f"<p><b>Sequences.</b> The positives are {width} of the "
        f"{peaks['n_peaks']} peaks in <span class='mono'>"
        f"{html.escape(peaks['file'])}</span> ({peaks['format']})"
        + (f"; {lost} were left out" if lost else "")
        + f". {made}{html.escape(negatives['what_it_tells'])}"
        + _copies_text(peaks.get("training_copies"), s.family)
        + "</p>"
    )


def _copies_text(copies: dict | None, family: str | None) -> str:
    """How a WD model trained on moved copies of the windows (or nothing)."""
    from ..registry import find_family

    found = find_family(family)
    if not copies or found is None or not found.trains_on_copies:
        return ""
    moved = sorted({abs(o) for o in copies["offsets"] if o})
    return (
        f" The WD model trained on {copies['copies']} copies of every window: "
        f"the window itself and the window moved by ±{' and ±'.join(map(str, moved))} "
        "letters along the genome (the summit and the site are uncertain by some "
        "letters); the inner cross-validation chose the parameters on the windows "
        "alone, and the cross-validation tests the windows themselves."
    )


def _checksum(item: dict) -> str:
    """An input's sha256; for a genome, that of its index (named so)."""
    if "sha256" in item:
        return item["sha256"]
    return f"{item['index_sha256']} (of its .fai index)"


def render_report(summary: RunSummary, figures: Path) -> str:
    """The report page as a string.

    Parameters
    ----------
    summary : RunSummary
        The run's summary.
    figures : pathlib.Path
        The folder holding the PNGs the summary lists.
    """
    s = summary
    name = s.dataset or ", ".join(Path(i["path"]).name for i in s.inputs)
    lengths = s.lengths or [s.length, s.length]
    described = (
        f"{s.n_sequences} sequences of length {s.length}"
        if lengths[0] == lengths[1]
        else f"{s.n_sequences} sequences of lengths {lengths[0]} to {lengths[1]}"
    )
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>poimkit report: {html.escape(name)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>poimkit report: {html.escape(name)}</h1>",
        "<p class='big'>"
        f"{described} "
        f"({s.n_positive} positive, {s.n_negative} negative"
        + (f"; {s.n_dropped} dropped" if s.n_dropped else "")
        + f"). {_model_text(s)} "
        + headline(s),
        fidelity_sentence(s) + families_section(s),
        selection_note(s.cv.selection, s.n_sequences),
        sample_note(s.sample),
    ]
    if s.peaks:
        parts.append(_peaks_section(s))
    parts.extend(_motif_sections(s, figures))
    parts.extend(known_section(s, figures))
    # ---- where (positional models) or which k-mers (position-free ones),
    # quality, POIMs
    quality = _quality(s, figures) if s.cv.done else []
    parts.extend(model_sections(s, figures, quality))
    parts.extend(_details(s))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _details(s: RunSummary) -> list[str]:
    """Run details: inputs and checksums, background, parameters, software, times."""
    inputs = [
        [i["role"], i["path"], Markup(f"<span class='hash'>{_checksum(i)}</span>")]
        for i in s.inputs
    ]
    return [
        "<h2>Run details</h2>",
        table(["input", "path", "sha256"], inputs),
        f"<p>Background: <span class='mono'>{html.escape(s.background)}"
        f"</span>; {_model_size(s)}.</p>",
        table(["parameter", "value"], _parameter_rows(s)),
        *software_and_times(s),
    ]


def _motif_sections(s: RunSummary, figures: Path) -> list[str]:
    """The motifs, their evidence, effects and sites, or why there are none."""
    parts = ["<h2>Motifs the model relies on</h2>"]
    if s.motifs:
        anywhere = bool(s.position_free)
        parts.append(
            _MOTIFS_INTRO[anywhere]
            + "<p><b>Evidence.</b> Each class is split in two: one half gives the "
            "motif, the other half and the other class's sequences the motif never "
            "saw test it. A motif of <i>class</i> positive is one the model rewards, "
            "of class negative one it penalises: the negatives' motif, found the same "
            "way with the classes' roles swapped. <i>Positives</i> and "
            "<i>negatives</i> are the shares of those sequences with a site; a motif "
            "is reported only if its class holds a site more often than the other "
            "(one-sided Fisher test) with a false discovery rate (q-value) of at most "
            "5 % over every candidate examined, and at least twice as often. Sites on "
            "the other strand count as the motif's own. "
            + _SITES_FILE[anywhere]
            + "the motifs are in "
            "<span class='mono'>motifs.meme</span> (MEME format, with the sites' "
            "count and E-value).</p>"
        )
        parts.append(_motif_table(s, figures))
        parts.append(effects_table(s))
        compared = "matches" in s.motifs[0]
        if "site_positions.png" in s.figures:
            parts.append(
                "<p>Where the sites lie: the centre of each site in a positive "
                "sequence minus the centre of that sequence, in letters (0: the "
                "middle). Sites gathered around 0 mark a motif the sequences are "
                "centred on, as in peaks of a bound factor.</p>"
            )
            parts.append(img(figures, "site_positions.png", "site positions"))
        if compared:
            parts.append(
                "<p class='note'>Known motifs compared: "
                f"{html.escape(str(s.parameters['compare']))}. The match is the "
                "known motif with the highest summed column correlation over the "
                "found motif's length (best shift and strand); its Tomtom p-value is "
                "the chance of so good an alignment with random columns of the "
                "known motifs.</p>"
            )
    else:
        note = html.escape(s.motifs_note)
        parts.append(f"<p class='big'>{note[0].upper() + note[1:]}.</p>")
    return parts


def _model_size(s: RunSummary) -> str:
    """``support vectors: N``, or a network's ``parameters: N``."""
    if s.n_support_vectors is None and s.n_parameters is not None:
        return f"parameters: {s.n_parameters:,}"
    return f"support vectors: {s.n_support_vectors}"


def write_report(path: str | Path, summary: RunSummary, figures: str | Path) -> None:
    """Write `render_report` to ``path`` atomically.

    Parameters
    ----------
    path : str or pathlib.Path
        The HTML file.
    summary : RunSummary
        The run's summary.
    figures : str or pathlib.Path
        The folder holding the PNGs the summary lists.
    """
    write_page(path, render_report(summary, Path(figures)))
