"""A model file explained without training: POIMs, motifs and known motifs.

`explain_model` is the run of a model someone else trained (a poimkit model
file, an LS-GKM text model of any kernel type, a saved torch model) by the
skeleton every run folder takes (`poimkit.run.job.run_job`): its POIMs, the
motifs behind them, their best known matches and, where labeled records are
given (a FASTA pair, or peaks in a genome with genomic negatives), the motifs'
sites and evidence in those records and the known motifs' enrichment. Nothing
is trained and nothing is cross-validated: the summary's CV is empty.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..io.outdir import LAYOUT
from .data import LabeledData, motif_data
from .figures import write_figures
from .genome import PeakSource
from .job import Found, Job, RunResult, run_job
from .known import enrich_known, known_summary, read_known_step, write_known
from .options import RunOptions
from .results import CVResult, RunSummary
from .steps import StepTimer

__all__ = ["ModelJob", "explain_model"]

#: the copy of the explained model file in the run folder (its suffixes kept)
MODEL_COPY = "explained_model"


def explain_model(
    out: str | os.PathLike,
    model: str | os.PathLike,
    *,
    pos: str | None = None,
    neg: str | None = None,
    peaks: PeakSource | None = None,
    options: RunOptions | None = None,
    force: bool = False,
    progress: bool | str = True,
) -> RunSummary:
    """Explain the model file ``model`` into the run folder ``out``, untrained.

    Parameters
    ----------
    out : str or path-like
        Output folder; it must not exist unless ``force``. It appears only
        when the run succeeds.
    model : str or path-like
        A model file `poimkit.load_model` opens (a poimkit ``.npz``, an
        LS-GKM text model, a saved torch model).
    pos, neg : str, optional
        Labeled records: the motifs' sites and evidence, the known motifs'
        enrichment and the POIMs' fitted background are taken in them.
    peaks : PeakSource, optional
        Peaks in a genome instead (genomic or shuffled negatives made).
    options : RunOptions, optional
        ``max_order``, ``background``, ``markov_order``, ``max_motifs``,
        ``known``, ``compare``, ``seed``, ``threads`` and
        ``memory_limit_gb`` apply; the training settings do not.
    force : bool, default=False
        Replace an existing ``out`` once the new run succeeded.
    progress : bool or "lines", default=True
        Bars on standard error, or a line per step.

    Returns
    -------
    RunSummary
        Its CV is `CVResult.none`; ``n_sequences`` counts the records given
        (0 without).

    Raises
    ------
    InputError
        An unreadable model, records the model cannot score, a fitted
        background without records; nothing is written then.

    Notes
    -----
    ``out`` receives ``explained_model`` (a copy of the file, its suffixes
    kept), ``poim.npz``, ``top_kmers.tsv``, ``motifs.meme``, ``sites.tsv``,
    ``figures/``, ``summary.json`` and ``report.html``; with records of peaks
    also ``negatives.bed`` and ``sites.bed``, with ``options.known``
    ``known_motifs.tsv``. Without records the motifs are PWMs fitted to the
    POIMs alone (no sites, no evidence) under a uniform background at the
    model's length.
    """
    job = ModelJob(model, (pos, neg), peaks, options)
    return run_job(out, job, force=force, progress=progress)


class ModelJob(Job):
    """`explain_model`'s parts: a model file read, optional records, no training.

    Parameters
    ----------
    path : str or path-like
        The model file.
    records : tuple of str or None
        ``pos`` and ``neg`` FASTA files (both None: no FASTA records).
    peaks : PeakSource or None
        Peaks in a genome instead.
    options : RunOptions or None
        The run's options (default `RunOptions()`); ``cv`` is set to 0.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        records: tuple,
        peaks: PeakSource | None,
        options: RunOptions | None,
    ) -> None:
        from dataclasses import replace

        self.path = os.fspath(path)
        self.records = tuple(records)
        self.peaks = peaks
        self.options = replace(options or RunOptions(), cv=0)
        self.files = (self.path, *records) + (peaks.files if peaks else ())
        self.has_records = peaks is not None or any(r is not None for r in records)

    def check(self) -> None:
        """The options, the records' completeness, and the peaks' files."""
        if sum(r is not None for r in self.records) == 1:
            raise InputError("a model's records need both pos and neg")
        if self.options.background != "uniform" and not self.has_records:
            raise InputError(
                f"{self.path}: a fitted background needs records (pos and neg, "
                "or peaks); without them the POIMs' background is uniform"
            )
        if self.peaks is not None:
            self.peaks.check(self.options)

    def read(self, timer: StepTimer, progress: bool | str) -> None:
        """Known motifs, the model file, then the records (if any)."""
        from ..model_files import load_model
        from .pipeline import read_run_records

        self.known, self.tested = read_known_step(self.options, timer)
        with timer.step("read"):
            self.model = load_model(self.path)
            self.data = self.made = None
            if self.has_records and _metric(self.model) == "pearson":
                raise InputError(
                    f"{self.path}: a regression model's records would need targets; "
                    "explain it without records"
                )
            if self.has_records:
                self.data, self.made = read_run_records(
                    self.records + (None, None),
                    self.peaks,
                    self.options,
                    progress is True,
                    None,
                )
                _check_scores(self.model, self.data, self.path)
        if self.tested is not None and not self.has_records:
            self.tested = None  # enrichment needs records; matches need none

    def steps(self) -> list[str]:
        """POIM, motifs, known motifs (with records), outputs."""
        known = ["known-motif enrichment"] * (self.tested is not None)
        return ["POIM", "motifs", *known, "outputs"]

    def train(self, timer: StepTimer, progress: bool | str) -> tuple:
        """Nothing to train: the model read, and no cross-validation."""
        return self.model, CVResult.none(_metric(self.model))

    def poim(self, model: Any, progress: bool | str) -> tuple:
        """The model's POIMs at its own length (`poimkit.poim.model_poim`).

        Parameters
        ----------
        model : fitted model
            The model read.
        progress : bool or "lines"
            A bar of the POIM's computation (True).
        """
        from ..background import MarkovBackground
        from ..poim import model_poim

        length = int(model.length_)
        options = self.options
        if options.background == "uniform":
            background = MarkovBackground.uniform(length)
        else:
            background = MarkovBackground.fit_pooled(
                list(self.data.X), options.markov_order, length
            )
        poim = model_poim(
            model,
            min(options.max_order, length),
            background,
            seed=options.seed,
            memory_limit_gb=options.memory_limit_gb,
            threads=options.threads,
            progress=progress is True,
        )
        return poim, background

    def find_motifs(self, result: RunResult, timer: StepTimer) -> Found:
        """The POIM's motifs, with sites and evidence in the records if any."""
        from ..motifs import extract_motifs
        from ..motifs.discovery import background_letters

        options = self.options
        with timer.step("motifs"):
            X = y = None
            self.motif_ids = []
            if self.data is not None:
                X, self.motif_ids, y = motif_data(self.data)
            motifs = []
            if options.max_motifs:
                motifs = extract_motifs(
                    result.poim,
                    max_motifs=options.max_motifs,
                    sequences=X,
                    labels=y,
                    random_state=options.seed,
                )
            self.motif_records = X, y
        if self.tested is not None:
            letters = background_letters(result.background)
            with timer.step("known-motif enrichment"):
                self.enrichment = enrich_known(self.tested, X, y, motifs, letters)
        return Found(motifs, None, None, "svm")

    def save(self, staged: Path, result: RunResult) -> None:
        """A copy of the model file (it may not be poimkit's), the POIMs."""
        from .summary import TOP_KMERS

        suffixes = "".join(Path(self.path).suffixes[-2:])
        shutil.copyfile(self.path, staged / f"{MODEL_COPY}{suffixes}")
        result.poim.save(staged / LAYOUT.poim)
        result.poim.write_top(staged / LAYOUT.top_kmers, n=TOP_KMERS)

    def write(self, staged: Path, result: RunResult) -> list:
        """Motif files, figures and the known motifs' table."""
        import numpy as np

        from ..motifs.discovery import background_letters
        from ..motifs.formats import write_meme
        from .pipeline import write_run_motif_files

        X, y = self.motif_records
        motifs = result.found.motifs
        if X is None:  # no records: no sites
            letters = background_letters(result.background)
            write_meme(staged / LAYOUT.motifs, motifs, letters)
        else:
            write_run_motif_files(
                staged, motifs, self.motif_ids, y, result.background, self.made
            )
        figures = write_figures(
            staged / LAYOUT.figures,
            result.poim,
            motifs,
            np.zeros(0) if y is None else y,
            None,
            lengths=None if X is None else [len(x) for x in X],
        )
        if self.tested is not None:
            figures += write_known(staged, staged / LAYOUT.figures, self.enrichment)
        return figures

    def summary(self, result: RunResult) -> RunSummary:
        """The model, the records (if any), the POIMs' and motifs' rows."""
        from .summary import (
            differential_peaks,
            motif_rows,
            software_versions,
            top_kmer_rows,
        )

        data, poim, motifs = self.data, result.poim, result.found.motifs
        lengths = [len(x) for x in data.X] if data is not None else [poim.length]
        known = None
        if self.tested is not None:
            known = known_summary(self.enrichment, self.options.known)
        inputs = [{"role": "model", "path": os.path.abspath(self.path)}]
        return RunSummary(
            task="regression"
            if _metric(result.model) == "pearson"
            else "classification",
            inputs=inputs + (data.inputs if data is not None else []),
            n_sequences=0 if data is None else int(data.y.size),
            n_positive=None if data is None else int((data.y == 1).sum()),
            n_negative=None if data is None else int((data.y == 0).sum()),
            **(self.made.description if self.made is not None else {}),
            length=poim.length,
            lengths=[int(min(lengths)), int(max(lengths))],
            position_free=poim.position_free,
            parameters={
                "explained": os.path.abspath(self.path),
                "model": repr(result.model),
                "max_order": self.options.max_order,
                "max_motifs": self.options.max_motifs,
                "seed": self.options.seed,
            },
            family=_family_name(result.model),
            background=repr(result.background),
            versions=software_versions(),
            cv=result.cv,
            motifs=motif_rows(motifs, self.known),
            motifs_note=_motifs_note(self.has_records, motifs, self.options),
            top_kmers=top_kmer_rows(poim),
            differential_peaks=differential_peaks(poim),
            figures=result.figures,
            runtimes=result.runtimes,
            motif_model=None,
            known_motifs=known,
        )

    def write_report(self, path: Path, summary: RunSummary, figures: Path) -> None:
        """`poimkit.run.report.explained.write_explained_report`."""
        from .report.explained import write_explained_report

        write_explained_report(path, summary, figures)


def _check_scores(model, data: LabeledData, path: str) -> None:
    """Refuse records the model cannot score (a positional model's length)."""
    from ..additive import position_free

    if position_free(model):
        return
    if data.lengths_differ:
        raise InputError(
            f"{path}: the model scores records of {model.length_} letters; "
            "the records' lengths differ"
        )
    if data.length != model.length_:
        raise InputError(
            f"{path}: the model scores records of {model.length_} letters, the "
            f"records have {data.length}"
        )


def _metric(model: Any) -> str:
    """The figure a model of its task would be judged by ("auc", "pearson")."""
    from sklearn.base import RegressorMixin  # LS-GKM's and torch files: scores

    return "pearson" if isinstance(model, RegressorMixin) else "auc"


def _family_name(model) -> str:
    """The registered family of ``model``, else its class (an LS-GKM model)."""
    from .registry import family_of_model

    try:
        return family_of_model(model).name
    except InputError:
        return type(model).__name__


def _motifs_note(has_records: bool, motifs: list, options: RunOptions) -> str:
    """Why the motif list is what it is, for a model explained untrained."""
    if not options.max_motifs:
        return "motif extraction was switched off (max_motifs 0)"
    if not has_records:
        return (
            f"{len(motifs)} motif(s) fitted to the POIMs alone (no records given: "
            "no sites, no evidence); the model was not trained here"
        )
    return (
        f"{len(motifs)} motif(s) passed the test in the given records at a false "
        "discovery rate of 5 %; the model was not trained here"
    )
