"""What a run reports: its numbers, motif rows and notes (built into a `RunSummary`)."""

from __future__ import annotations

import os
import platform
from dataclasses import asdict
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .._version import __version__
from ..io.outdir import LAYOUT
from .crossval import trained_solver
from .data import sample_description
from .options import RunOptions
from .registry import family_of_model
from .results import CVResult, RunSummary

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..background import MarkovBackground
    from ..motifs import Motif
    from ..poim import Poim
    from .data import LabeledData
    from .genome import PeakData
    from .plan import TrainedModel

#: POIM entries written to ``top_kmers.tsv``
TOP_KMERS = 50
#: POIM entries listed in the summary (``top_kmers``)
_SUMMARY_KMERS = 10


def save_results(folder: Path, model: Any, poim: Poim) -> None:
    """A run's ``model.npz``, ``poim.npz`` and ``top_kmers.tsv`` in ``folder``.

    Parameters
    ----------
    folder : pathlib.Path
        The run's (staged) output folder.
    model : estimator
        The final model (its ``save``).
    poim : Poim
        Its POIM; ``top_kmers.tsv`` lists its `TOP_KMERS` strongest entries.
    """
    model.save(folder / LAYOUT.model)
    poim.save(folder / LAYOUT.poim)
    poim.write_top(folder / LAYOUT.top_kmers, n=TOP_KMERS)


def write_summary(
    folder: Path,
    summary: RunSummary,
    write_report: Callable[[Path, RunSummary, Path], None],
) -> None:
    """``summary.json`` and, by ``write_report``, ``report.html`` in ``folder``.

    Parameters
    ----------
    folder : pathlib.Path
        The run's (staged) output folder, its figures in ``figures/``.
    summary : RunSummary
        The run's summary (``summary.json`` is its ``to_json``).
    write_report : callable
        ``write_report(path, summary, figures)`` writes the report page.
    """
    from ..io import atomic_path
    from ..io.json_text import json_text

    with atomic_path(folder / LAYOUT.summary) as tmp:
        Path(tmp).write_text(json_text(summary.to_json()))
    write_report(folder / LAYOUT.report, summary, folder / LAYOUT.figures)


def build_summary(
    data: LabeledData,
    trained: TrainedModel,
    poim: Poim,
    motifs: list[Motif],
    *,
    y_motifs: np.ndarray,
    background: MarkovBackground,
    figures: list[str],
    runtimes: dict[str, float],
    known: list[Motif] | None = None,
    made: PeakData | None = None,
    dataset: str | None = None,
    motif_model: dict | None = None,
    known_motifs: dict | None = None,
) -> RunSummary:
    """A classification run's summary.

    Parameters
    ----------
    data : LabeledData
        The sequences read.
    trained : TrainedModel
        The final model, its parameters, selection, CV figures and plan
        (whose options the summary records).
    poim : Poim
        The final model's POIMs.
    motifs : list of Motif
        The motifs reported.
    y_motifs : numpy.ndarray
        Labels of the sequences the motifs were sought in.
    background : MarkovBackground
        The background of the POIMs.
    figures : list of str
        The PNGs written (`write_figures`).
    runtimes : dict
        Wall time per step, in seconds.
    known : list of Motif, optional
        Known motifs the found ones were compared with.
    made : PeakData, optional
        Peak input: its description (peaks, negatives) joins the summary.
    dataset : str, optional
        A name for the input.
    motif_model : dict, optional
        The motif model's figures (`poimkit.run.motif_model.motif_model_summary`).
    known_motifs : dict, optional
        The known motifs' enrichment (`poimkit.run.known.known_summary`).

    Returns
    -------
    RunSummary
        The data, ``parameters`` (the options, ``solver``, ``grid``,
        ``chosen``), ``family``, the CV, ``motifs``, ``top_kmers``,
        ``figures``, ``runtimes`` and more.
    """
    options, model, cv = trained.plan.options, trained.model, trained.cv
    selection = trained.selection
    lengths = [len(x) for x in data.X]
    return RunSummary(
        task="classification",
        dataset=dataset,
        inputs=data.inputs,
        n_sequences=int(data.y.size),
        n_positive=int((data.y == 1).sum()),
        n_negative=int((data.y == 0).sum()),
        n_dropped=int(data.dropped),
        **(made.description if made is not None else {}),
        length=data.length,
        lengths=[int(min(lengths)), int(max(lengths))],
        position_free=poim.position_free,
        n_motif_sequences=int(y_motifs.size),
        sample=sample_description(trained.sample, data),
        parameters={
            **asdict(options),
            "solver": trained_solver(model, options),
            "grid": options.selects,
            "chosen": trained.chosen,
        },
        family=selection["family"] if selection else options.kernel,
        background=repr(background),
        versions=software_versions(),
        cv=cv,
        **model.size(),
        motifs=motif_rows(motifs, known),
        motifs_note=motif_note(cv, options, motifs),
        top_kmers=top_kmer_rows(poim),
        differential_peaks=differential_peaks(poim),
        figures=figures,
        runtimes=runtimes,
        motif_model=motif_model,
        known_motifs=known_motifs,
    )


def build_regression_summary(
    inputs: Sequence[str | os.PathLike],
    data: LabeledData,
    model: Any,
    poim: Poim,
    cv: CVResult,
    *,
    cv_folds: int,
    motifs: list[Motif],
    motifs_note: str,
    figures: list[str],
    runtimes: dict[str, float],
    motif_model: dict | None = None,
    peaks: dict | None = None,
) -> RunSummary:
    """A regression run's summary.

    Parameters
    ----------
    inputs : sequence of str or path-like
        The FASTA file and the targets file.
    data : LabeledData
        The records (``X``) and their targets (``y``).
    model : WDKernelSVR or GkmSVR
        The final model, fitted.
    poim : Poim
        Its POIMs.
    cv : CVResult
        `poimkit.run.regression.cv_regression`'s or
        `~poimkit.run.regression.nested_regression`'s (no figures without
        cross-validation), with ``selection`` when parameters were chosen.
    cv_folds : int
        The number of CV folds (0: none).
    motifs : list of Motif
        The motifs reported.
    motifs_note : str
        Why the motif list is what it is.
    figures : list of str
        The PNGs written.
    runtimes : dict
        Wall time per step, in seconds.
    motif_model : dict, optional
        The motif model's figures (`poimkit.run.motif_model.motif_model_summary`).
    peaks : dict, optional
        Peak input: its description (``peaks``, ``negatives``).

    Returns
    -------
    RunSummary
        ``task`` "regression", the data, ``family``, ``model``,
        ``parameters``, ``target`` (mean, std), the CV, ``motifs``,
        ``top_kmers``, ``figures``, ``runtimes`` and more.
    """
    y = data.y
    lengths = [len(x) for x in data.X]
    return RunSummary(
        task="regression",
        inputs=[os.fspath(p) for p in inputs],
        n_sequences=int(y.size),
        **(peaks or {}),
        length=data.length,
        lengths=[int(min(lengths)), int(max(lengths))],
        position_free=poim.position_free,
        family=family_of_model(model).name,
        model=type(model).__name__,
        parameters={k: v for k, v in model.get_params().items() if k != "n_threads"},
        target={"mean": float(np.mean(y)), "std": float(np.std(y))},
        cv=cv,
        cv_folds=cv_folds,
        n_support_vectors=int(model.n_support_.sum()),
        top_kmers=top_kmer_rows(poim),
        figures=figures,
        motifs=motif_rows(motifs),
        motifs_note=motifs_note,
        differential_peaks=differential_peaks(poim),
        background=repr(poim.background),
        runtimes=runtimes,
        versions=software_versions(),
        motif_model=motif_model,
    )


def top_kmer_rows(poim: Poim) -> list[dict]:
    """The strongest POIM entries, for the summary.

    Parameters
    ----------
    poim : Poim
        The run's POIMs.
    """
    return [
        {"kmer": z, "position": j, "value": float(v)}
        for z, j, v in poim.top(_SUMMARY_KMERS)
    ]


def software_versions() -> dict:
    """The versions of Python, poimkit and the libraries a run's numbers rest on."""
    out = {"poimkit": __version__, "python": platform.python_version()}
    for name in ("numpy", "numba", "scipy", "scikit-learn", "biopython", "matplotlib"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # pragma: no cover
            out[name] = None
    return out


def differential_peaks(poim: Poim, n: int = 5) -> list[dict]:
    """The ``n`` largest entries of the differential POIM, for the summary.

    Parameters
    ----------
    poim : Poim
        The run's POIMs.
    n : int, default=5
        How many.
    """
    d = poim.differential()
    flat = np.where(np.isnan(d), -np.inf, d).ravel()
    best = np.argsort(-flat, kind="stable")[:n]
    return [
        {
            "length": int(i // d.shape[1]) + 1,
            "position": int(i % d.shape[1]) + 1,
            "value": float(flat[i]),
        }
        for i in best
        if np.isfinite(flat[i])
    ]


#: known motifs listed per found motif with ``compare``
_MATCHES = 3


def _matches(motif, known) -> list[dict]:
    from ..motifs.compare import match_motifs

    return [
        {
            "target": m.target,
            "score": round(m.score, 4),
            "p_value": None if np.isnan(m.p_value) else m.p_value,
            "strand": m.strand,
            "offset": m.offset,
        }
        for m in match_motifs(motif, known, top=_MATCHES)
    ]


#: a motif's class in ``summary.json``: who carries it
_CLASS = {1: "positive", 0: "negative"}


def motif_rows(motifs: list[Motif], known: list[Motif] | None = None) -> list[dict]:
    """The motifs as the summary lists them, with their best known matches.

    Parameters
    ----------
    motifs : list of Motif
        The motifs reported.
    known : list of Motif, optional
        Known motifs to match each with (its ``matches``).
    """
    return [
        {
            "name": m.name,
            "consensus": m.consensus,
            "iupac": m.iupac,
            "length": int(m.length),
            "position": _number(m.position),
            "spread": _number(m.spread),
            "importance": float(m.importance),
            "n_sites": int(m.n_sites),
            "frac_positive": round(float(m.frac_positive), 6),
            "frac_negative": round(float(m.frac_negative), 6),
            "p_value": float(m.p_value),
            "q_value": float(m.q_value),
            "e_value": float(m.e_value),
            # a continuous target's evidence (classification rows stay as they were)
            **(
                {}
                if np.isnan(m.effect)
                else {
                    "effect": round(float(m.effect), 6),
                    "median_shift": float(m.median_shift),
                }
            ),
            # a classifier's motifs: which class carries them
            **({} if m.label is None else {"class": _CLASS[m.label]}),
            "strands": _strands(m),
            # a word each of whose occurrences counts (`poimkit.motifs.words`)
            **({"counted": True} if m.counted else {}),
            **({"matches": _matches(m, known)} if known is not None else {}),
        }
        for m in motifs
    ]


def _strands(motif) -> str | None:
    """Where its sites lie: "+-" both strands, "+" one; None: no sites sought."""
    if motif.sites is None:
        return None
    return "+-" if motif.sites.on_both_strands else "+"


def _number(value: float) -> float | None:
    """Rounded for JSON; None for NaN (a position-free model's motif position)."""
    return None if np.isnan(value) else round(float(value), 3)


def motif_note(cv: CVResult, options: RunOptions, motifs: list[Motif]) -> str:
    """Why the motif list is what it is, in words (for the summary and report).

    Parameters
    ----------
    cv : CVResult
        `cross_validate`'s result (`CVResult.none` without cross-validation).
    options : RunOptions
        ``cv`` and ``max_motifs``.
    motifs : list of Motif
        The motifs reported.
    """
    if not options.max_motifs:
        return "motif extraction was switched off (max_motifs 0)"
    if not options.cv:
        unknown = "without cross-validation (cv 0) the model's accuracy is unknown; "
        if not motifs:
            return unknown + "no motif passed the test on held-out sequences"
        return unknown + (
            f"{len(motifs)} motif(s) passed the test on held-out sequences at a "
            "false discovery rate of 5 %"
        )
    if not cv.better_than_chance():
        low, high = cv.figure("interval")
        where = "includes 0.5" if low <= 0.5 <= high else "lies below 0.5"
        return (
            f"no motifs reported: the model is not better than chance (the 95 % "
            f"interval of its cross-validated AUC, {low:.3f} to {high:.3f}, "
            f"{where}), so whatever it rewards may be noise"
        )
    if not motifs:
        return (
            "no motif passed the test: no candidate's sites were more common in "
            "held-out sequences of one class than in the other's at a false "
            "discovery rate of 5 %"
        )
    return f"{len(motifs)} motif(s) passed the test at a false discovery rate of 5 %"


def param_text(name: str, value: object) -> str:
    """``C 10``, ``reverse_complement True``.

    Parameters
    ----------
    name : str
        A parameter's name.
    value : object
        Its value.
    """
    return f"{name} {value:g}" if isinstance(value, float) else f"{name} {value}"


def chosen_text(chosen: dict, selection: dict) -> str:
    """``degree 10, shift 16, C 10 (inner holdout AUC 0.8654)``, family, corners.

    Parameters
    ----------
    chosen : dict
        The final model's parameters.
    selection : dict
        What `poimkit.run.crossval.cross_validate` returns as ``selection``.
    """
    text = ", ".join(param_text(k, v) for k, v in chosen.items())
    figure, name = inner_figure(selection)
    text += f" (inner {selection['inner']} {name} {selection[figure]:.4f})"
    text += _family_text(selection)
    if selection["corner"]:
        text += (
            f"; at the end of its grid: {', '.join(selection['corner'])} "
            "(the best value may lie beyond; give it explicitly to try)"
        )
    return text


def inner_figure(selection: dict) -> tuple[str, str]:
    """The selection's key of its inner figure and the figure's name.

    Parameters
    ----------
    selection : dict
        A run's ``selection`` (`poimkit.run.crossval.selection_summary`).

    Returns
    -------
    tuple of str
        ``("inner_auc", "AUC")`` for a classifier, ``("inner_pearson",
        "Pearson")`` for a regressor.
    """
    if "inner_pearson" in selection:
        return "inner_pearson", "Pearson"
    return "inner_auc", "AUC"


def family_scores(selection: dict) -> dict[str, float]:
    """The best inner figure of each model family compared (none: {}).

    Parameters
    ----------
    selection : dict
        A run's ``selection``, with its ``families`` if the inner CV compared
        model families (`poimkit.run.crossval.selection_summary`).

    Returns
    -------
    dict
        Family name -> its best candidate's inner figure (`inner_figure`);
        empty if the inner CV compared fewer than two families.
    """
    families = selection.get("families") or {}
    if len(families) < 2:
        return {}
    figure, _ = inner_figure(selection)
    return {name: row["best_" + figure] for name, row in families.items()}


def _family_text(selection: dict) -> str:
    """``; family gkm: best inner AUC 0.9630 vs wd 0.8800 (+0.0830)``, or ""."""
    scores = family_scores(selection)
    if not scores:
        return ""
    family = selection["family"]
    others = ", ".join(f"{k} {v:.4f}" for k, v in scores.items() if k != family)
    return (
        f"; family {family}: best inner {inner_figure(selection)[1]} "
        f"{scores[family]:.4f} vs {others} ({selection['family_margin']:+.4f})"
    )
