"""`poimkit run`: labeled FASTA in; model, POIMs, motifs, figures and a report out.

`run_pipeline` is the classification's `ClassificationJob` run by the steps
every run folder takes (`poimkit.run.job.run_job`): timed, shown, and written
into a staged folder that is moved into place only at the end, so an
interrupted run leaves no output.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..io.outdir import LAYOUT
from .data import motif_data, read_input
from .figures import roc_curves, write_figures
from .genome import PeakSource, read_peak_input
from .job import Found, Job, RunResult, run_job
from .known import enrich_known, known_summary, read_known_step, write_known
from .motif_model import final_models, motif_model_summary
from .options import RunOptions
from .plan import make_plan
from .poim_step import check_poim_memory
from .report.models import trained_name
from .results import CVResult, RunSummary
from .sites_bed import write_sites_bed
from .steps import StepTimer
from .summary import build_summary
from .train import CNN_STEP, train_model

if TYPE_CHECKING:
    import numpy as np

    from ..background import MarkovBackground
    from .genome import PeakData


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
) -> RunSummary:
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
    RunSummary
        What the run found (``summary.json`` is its `RunSummary.to_json`).

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
    job = ClassificationJob((pos, neg, fasta, labels), options, peaks, dataset)
    return run_job(out, job, force=force, progress=progress)


class ClassificationJob(Job):
    """`run_pipeline`'s parts: labeled records, an SVM (or CNN), known motifs.

    Parameters
    ----------
    files : tuple of str or None
        ``pos``, ``neg``, ``fasta`` and ``labels`` (`read_input`).
    options : RunOptions or None
        The run's options (default `RunOptions()`).
    peaks : PeakSource or None
        Peaks in a genome instead of FASTA files.
    dataset : str or None
        A name for the input recorded in the summary.
    """

    def __init__(
        self,
        files: tuple,
        options: RunOptions | None,
        peaks: PeakSource | None,
        dataset: str | None,
    ) -> None:
        self.labeled = files
        self.options = options or RunOptions()
        self.peaks = peaks
        self.dataset = dataset
        self.files = files + (peaks.files if peaks else ())

    def check(self) -> None:
        """The options, and the peaks' files and options."""
        self.options.check()
        if self.peaks is not None:
            self.peaks.check(self.options)

    def read(self, timer: StepTimer, progress: bool | str) -> None:
        """Known motifs first (a bad source fails first), the records, the plan."""
        self.known, self.tested = read_known_step(self.options, timer)
        with timer.step("read"):
            self.data, self.made = read_run_records(
                self.labeled, self.peaks, self.options, progress is True, self.dataset
            )
        self.plan = make_plan(self.data, self.options)  # checks the folds first
        self.options = self.plan.options
        check_poim_memory(self.data, self.options, self.plan.candidates())

    def steps(self) -> list[str]:
        """CV, the CNN's, training, POIM, motifs, known motifs, outputs."""
        known, cnn = self.tested is not None, self.plan.contender is not None
        return _step_names(self.options, known, cnn)

    def train(self, timer: StepTimer, progress: bool | str) -> tuple:
        """`train_model`: the family kept, its CV and its final fit."""
        self.trained = train_model(
            self.data,
            self.plan,
            progress=progress,
            step=timer.step,
            motif_model=bool(self.options.max_motifs),
        )
        self.options = self.trained.plan.options  # the CNN's if auto kept it
        return self.trained.model, self.trained.cv

    def find_motifs(self, result: RunResult, timer: StepTimer) -> Found:
        """The POIM's motifs, their models, and the known motifs' enrichment."""
        from ..motifs.discovery import background_letters

        letters = background_letters(result.background)
        options, cv = self.options, result.cv
        sample = self.trained.sample  # every record, or the CV's sample
        with timer.step("motifs"):
            X, self.motif_ids, y = motif_data(sample)
            self.motif_records = X, y
            motifs = _found_motifs(result.poim, X, y, options, cv)
            models = final_models(result.model, motifs, sample, letters, cv, options)
            found = Found(motifs, *models)
        if self.tested is not None:
            with timer.step("known-motif enrichment"):
                self.enrichment = enrich_known(self.tested, X, y, motifs, letters)
        return found

    def write(self, staged: Path, result: RunResult) -> list:
        """Motif files, figures and the known motifs' table."""
        X, y = self.motif_records
        motifs = result.found.motifs
        write_run_motif_files(
            staged, motifs, self.motif_ids, y, result.background, self.made
        )
        figures = write_figures(
            staged / LAYOUT.figures,
            result.poim,
            motifs,
            y,
            roc_curves(result.cv, trained_name(self.options.kernel)),
            lengths=[len(x) for x in X],
            probabilities=result.cv.probabilities,
        )
        if self.tested is not None:
            figures += write_known(staged, staged / LAYOUT.figures, self.enrichment)
        return figures

    def summary(self, result: RunResult) -> RunSummary:
        """`build_summary`, with the motif models and the known motifs."""
        found = result.found
        known = None
        if self.tested is not None:
            known = known_summary(self.enrichment, self.options.known)
        return build_summary(
            self.data,
            self.trained,
            result.poim,
            found.motifs,
            y_motifs=self.motif_records[1],
            background=result.background,
            figures=result.figures,
            runtimes=result.runtimes,
            known=self.known,
            made=self.made,
            dataset=self.dataset,
            motif_model=motif_model_summary(
                found.explained, result.cv, self.trained.sample.y
            ),
            known_motifs=known,
        )

    def write_report(self, path: Path, summary: RunSummary, figures: Path) -> None:
        """`poimkit.run.report.page.write_report`."""
        from .report.page import write_report

        write_report(path, summary, figures)


def _found_motifs(poim, X, y, options: RunOptions, cv: CVResult) -> list:
    """The run's motifs: none if asked for none or the CV shows no signal."""
    from ..motifs import extract_motifs

    if not options.max_motifs or (options.cv and not cv.better_than_chance()):
        return []
    return extract_motifs(
        poim,
        max_motifs=options.max_motifs,
        sequences=X,
        labels=y,
        random_state=options.seed,
    )


def write_run_motif_files(
    staged: Path,
    motifs: list,
    ids: list[str],
    y: np.ndarray,
    background: MarkovBackground,
    made: PeakData | None,
) -> None:
    """``motifs.meme``, ``sites.tsv`` and, for peaks, negatives and ``sites.bed``.

    Parameters
    ----------
    staged : pathlib.Path
        The run's staged folder.
    motifs : list of Motif
        The motifs reported (with their sites).
    ids, y : list of str, numpy.ndarray
        The ids and labels of the records the sites index.
    background : MarkovBackground
        The POIMs' background (the MEME file's letter frequencies).
    made : PeakData or None
        Peak input: its negatives and the sites in genome coordinates.
    """
    from ..motifs.discovery import background_letters
    from ..motifs.formats import write_meme, write_sites

    if made is not None:
        made.write_negatives(staged)
        write_sites_bed(staged / LAYOUT.sites_bed, motifs, ids, y)
    write_meme(staged / LAYOUT.motifs, motifs, background_letters(background))
    write_sites(staged / LAYOUT.sites, motifs, ids, y)


def read_run_records(
    files: tuple,
    peaks: PeakSource | None,
    options: RunOptions,
    bars: bool,
    dataset: str | None,
) -> tuple:
    """``(data, made)``: the labeled records, and the peaks' `PeakData` (or None).

    Parameters
    ----------
    files : tuple of str or None
        ``pos``, ``neg``, ``fasta`` and ``labels`` (`read_input`).
    peaks : PeakSource or None
        Peaks in a genome instead.
    options : RunOptions
        How records are read (invalid letters, crops) and negatives made.
    bars : bool
        Progress bars while peaks are read.
    dataset : str or None
        A name for the input, recorded instead of temporary paths.
    """
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
