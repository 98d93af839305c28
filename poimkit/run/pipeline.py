"""`poimkit run`: labeled FASTA in; model, POIMs, motifs, figures and a report out.

Each step is a small function; `run_pipeline` times them, shows progress and
writes everything into a staged folder that is moved into place only at the end
(`poimkit.io.outdir.staged_directory`), so an interrupted run leaves no output.
"""

from __future__ import annotations

import os
from pathlib import Path

from .._threads import numba_threads
from .crossval import better_than_chance
from .data import motif_data, read_input
from .figures import roc_curves, write_figures
from .genome import PeakSource, read_peak_input
from .known import enrich_known, known_summary, read_known, write_known
from .motif_model import final_models, motif_model_summary, save_motif_models
from .options import RunOptions
from .plan import make_plan
from .poim_step import check_poim_memory, compute_run_poim
from .sites_bed import write_sites_bed
from .steps import StepTimer
from .summary import build_summary, save_results, write_summary
from .train import CNN_STEP, train_model


def run_pipeline(
    out: str | os.PathLike,
    *,
    pos: str | None = None,
    neg: str | None = None,
    fasta: str | None = None,
    labels: str | None = None,
    options: RunOptions | None = None,
    force: bool = False,
    progress: bool = True,
    dataset: str | None = None,
    peaks: PeakSource | None = None,
) -> dict:
    """Run the whole analysis and write its results to the folder ``out``.

    Parameters
    ----------
    out : str or path-like
        Output folder; it must not exist unless ``force``. It appears only when
        the run succeeds (see Notes).
    pos, neg : str, optional
        Positive and negative FASTA files (plain or gzip).
    fasta, labels : str, optional
        One FASTA file and a two-column TSV of record id and label, instead.
    options : RunOptions, optional
        Model, POIM and motif settings; default `RunOptions()`.
    force : bool
        Replace an existing ``out`` (only once the new run succeeded).
    progress : bool or "lines"
        Show progress bars on standard error; ``"lines"``: a plain line per
        step instead (for logs: no terminal control codes).
    dataset : str, optional
        A name for the input recorded in the summary (e.g. for the demo).
    peaks : PeakSource, optional
        Peaks in a genome instead of FASTA files: windows around the summits
        are the positives, the negatives are made (genomic background or
        shuffles, written to ``negatives.bed`` or ``negatives.fa``) or read.

    Returns
    -------
    dict
        The content of ``summary.json``.

    Raises
    ------
    InputError
        For bad input or settings; nothing is written then.

    Notes
    -----
    ``out`` receives ``model.npz``, ``poim.npz``, ``top_kmers.tsv`` (the 50
    strongest POIM entries), ``motifs.meme``, ``sites.tsv``,
    ``motif_model.npz`` (the motifs as a classifier,
    `poimkit.motifs.model.MotifClassifier`; only if there are motifs),
    ``stack.npz`` (the SVM's score and the motifs,
    `poimkit.motifs.stacked.StackedModel`; only if the run chose it),
    ``figures/`` (PNG), ``summary.json`` and ``report.html`` (one
    self-contained page); for peaks also ``negatives.bed`` (or
    ``negatives.fa``) and ``sites.bed`` (the sites in the peaks in genome
    coordinates, `poimkit.run.sites_bed`); with ``options.known``
    ``known_motifs.tsv`` (`poimkit.run.known`). Everything
    is written into a hidden sibling folder first and renamed to ``out`` at the
    end, so an interrupted run leaves ``out`` absent (or, with ``force``, as
    it was).

    The summary's ``parameters`` hold the options (None for the parameters
    left to the selection; ``kernel`` as resolved before training: "auto"
    if the inner CV chose the family), ``grid`` (whether parameters were
    selected) and ``chosen`` (the final model's degree, shift and C, or l, k,
    reverse_complement and C); ``family`` is the final model's, "wd" or
    "gkm"; ``selection`` is None or what `cross_validate` returns under that
    name (grid, inner scheme, choices of the final model and of every outer
    fold, ``corner``, ``family`` and each family's best inner AUC in
    ``families`` with ``family_margin``).
    """
    from tqdm.auto import tqdm

    from ..io.outdir import (
        check_output_folder,
        output_lock,
        staged_directory,
    )
    from ..motifs.discovery import background_letters
    from .report import write_report

    options = options or RunOptions()
    options.check()
    timer = StepTimer()  # the run's wall time starts here
    # cheap checks and reading first: bad input fails before any bar or folder
    inputs = (pos, neg, fasta, labels) + (peaks.files if peaks else ())
    if peaks is not None:
        peaks.check(options)
    check_output_folder(out, force, inputs)
    with output_lock(out):  # a second run into the same folder: refused now
        known = tested = None
        if options.compare or options.known:
            with timer.step("known motifs"):
                known, tested = read_known(options)
        with timer.step("read"):
            data, made = _read(
                (pos, neg, fasta, labels), peaks, options, progress is True, dataset
            )
        plan = make_plan(data, options)  # checks the folds before hours of training
        options = plan.options
        check_poim_memory(data, options, plan.candidates())
        steps = _step_names(options, tested is not None, plan.contender is not None)
        with (
            staged_directory(out, force=force, inputs=inputs) as staged,
            numba_threads(options.threads),
            tqdm(total=len(steps), unit="step", disable=progress is not True) as bar,
        ):
            timer.bar = bar
            timer.lines = progress == "lines"
            trained = train_model(
                data,
                plan,
                progress=progress,
                step=timer.step,
                motif_model=bool(options.max_motifs),
            )
            model, cv = trained.model, trained.cv
            options = trained.plan.options  # the CNN's if kernel="auto" kept it
            with timer.step("POIM"):
                poim, background = compute_run_poim(
                    model, data, options, progress is True
                )
            with timer.step("motifs"):
                X_motifs, ids_motifs, y_motifs = motif_data(data)
                motifs = _found_motifs(poim, X_motifs, y_motifs, options, cv)
                explained, stack, chosen = final_models(
                    model, motifs, data, background_letters(background), cv, options
                )
            if tested is not None:
                with timer.step("known-motif enrichment"):
                    enrichment = enrich_known(
                        tested,
                        X_motifs,
                        y_motifs,
                        motifs,
                        background_letters(background),
                    )
            with timer.step("outputs"):
                save_results(staged, model, poim)
                save_motif_models(staged, explained, stack)
                _write_motif_files(
                    staged, motifs, ids_motifs, y_motifs, background, made
                )
                figures = write_figures(
                    staged / "figures",
                    poim,
                    motifs,
                    y_motifs,
                    roc_curves(cv, "CNN" if options.kernel == "cnn" else "SVM"),
                    lengths=[len(x) for x in X_motifs],
                    probabilities=cv.get("out_of_fold_probabilities"),
                )
                if tested is not None:
                    figures += write_known(staged, staged / "figures", enrichment)
            summary = build_summary(
                data,
                trained,
                poim,
                motifs,
                y_motifs=y_motifs,
                background=background,
                figures=figures,
                runtimes=timer.with_total(),
                known=known,
                made=made,
                dataset=dataset,
            )
            summary["motif_model"] = motif_model_summary(explained, cv, data.y)
            summary["chosen_model"] = chosen
            if tested is not None:
                summary["known_motifs"] = known_summary(enrichment, options.known)
            write_summary(staged, summary, write_report)
        return summary


def _found_motifs(poim, X, y, options: RunOptions, cv: dict) -> list:
    """The run's motifs: none if asked for none or the CV shows no signal."""
    from ..motifs import extract_motifs

    if not options.max_motifs or (options.cv and not better_than_chance(cv)):
        return []
    return extract_motifs(
        poim,
        max_motifs=options.max_motifs,
        sequences=X,
        labels=y,
        random_state=options.seed,
    )


def _write_motif_files(staged: Path, motifs, ids, y, background, made) -> None:
    """``motifs.meme``, ``sites.tsv`` and, for peaks, negatives and ``sites.bed``."""
    from ..motifs.discovery import background_letters
    from ..motifs.formats import write_meme, write_sites

    if made is not None:
        made.write_negatives(staged)
        write_sites_bed(staged / "sites.bed", motifs, ids, y)
    write_meme(staged / "motifs.meme", motifs, background_letters(background))
    write_sites(staged / "sites.tsv", motifs, ids, y)


def _read(files: tuple, peaks, options: RunOptions, bars: bool, dataset):
    """``(data, made)``: the labeled records, and the peaks' `PeakInput` (or None)."""
    if peaks is None:
        data, made = read_input(*files, options), None
    else:
        made = read_peak_input(peaks, options, bars)
        data = made.data
    if dataset is not None:  # e.g. the demo's temporary copies: name the source
        for item in data.inputs:
            item["path"] = f"{dataset}: {Path(item['path']).name} (temporary copy)"
    return data, made


def _step_names(options: RunOptions, known: bool, cnn: bool) -> list[str]:
    """The steps a bar counts after reading, in order."""
    steps = ["cross-validation"] * bool(options.cv) + [CNN_STEP] * cnn
    steps += ["training", "POIM", "motifs"]
    return steps + ["known-motif enrichment"] * known + ["outputs"]
