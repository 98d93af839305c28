"""One skeleton for every run folder: the same steps, the task's parts as hooks.

`run_job` checks the output folder, locks it, reads the input, stages a
hidden sibling folder, cross-validates and fits the model, computes its
POIMs, finds the motifs and their models, writes the outputs, the summary and
the report, and renames the folder into place: all or nothing. A `Job`
supplies what differs between a classification (`poimkit.run.pipeline`) and
a regression (`poimkit.run.regression_run`): how the input is read, how the
model is chosen and trained, which motifs are sought, which files and
figures are written and what the summary holds.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .data import LabeledData
from .options import RunOptions
from .steps import StepTimer

__all__ = ["Found", "Job", "run_job"]


@dataclass
class Found:
    """What the motif step found: the motifs and the models they make.

    Attributes
    ----------
    motifs : list of Motif
        The motifs reported.
    explained : MotifClassifier, MotifRegressor or None
        The motifs refitted as a model (`poimkit.run.motif_model`).
    stack : StackedModel or None
        The model's score and the motifs, stacked.
    chosen : str
        The model the run keeps ("svm", "motifs" or "stack").
    """

    motifs: list
    explained: Any
    stack: Any
    chosen: str


class Job:
    """The task-specific parts of a run folder, called by `run_job` in order.

    Attributes
    ----------
    options : RunOptions
        The run's options (resolved by `read`, and by `train` for the family
        the run keeps).
    files : tuple of str
        The input files: the output folder may not hold them.
    data : LabeledData
        The records read (set by `read`).
    """

    options: RunOptions
    files: tuple
    data: LabeledData

    def check(self) -> None:
        """Cheap checks of the options and inputs, before the folder is touched."""

    def read(self, timer: StepTimer, progress: bool | str) -> None:
        """Read the input and plan the training (inside the folder's lock).

        Parameters
        ----------
        timer : StepTimer
            Times and shows the steps.
        progress : bool or "lines"
            Bars on standard error, or a line per step.
        """
        raise NotImplementedError

    def steps(self) -> list[str]:
        """The steps a bar counts after reading, in order."""
        raise NotImplementedError

    def train(self, timer: StepTimer, progress: bool | str) -> tuple[Any, dict]:
        """Cross-validate and fit the final model: ``(model, cv)``.

        Parameters
        ----------
        timer : StepTimer
            Times and shows the steps.
        progress : bool or "lines"
            Bars on standard error, or a line per step.
        """
        raise NotImplementedError

    def find_motifs(
        self, model: Any, poim: Any, background: Any, cv: dict, timer: StepTimer
    ) -> Found:
        """The motifs of the model and their models (timed by ``timer``).

        Parameters
        ----------
        model : object
            A fitted model.
        poim : Poim
            The model's POIMs.
        background : MarkovBackground
            The POIMs' background.
        cv : dict
            The cross-validation's figures (`cross_validate`).
        timer : StepTimer
            Times and shows the steps.
        """
        raise NotImplementedError

    def write(
        self, staged: Path, poim: Any, background: Any, found: Found, cv: dict
    ) -> list[str]:
        """The task's own files in ``staged``; the figures written.

        Parameters
        ----------
        staged : pathlib.Path
            The staged output folder.
        poim : Poim
            The model's POIMs.
        background : MarkovBackground
            The POIMs' background.
        found : Found
            The motifs and their models.
        cv : dict
            The cross-validation's figures (`cross_validate`).
        """
        raise NotImplementedError

    def summary(
        self,
        model: Any,
        poim: Any,
        background: Any,
        found: Found,
        cv: dict,
        figures: list[str],
        runtimes: dict,
    ) -> dict:
        """The content of ``summary.json``.

        Parameters
        ----------
        model : object
            A fitted model.
        poim : Poim
            The model's POIMs.
        background : MarkovBackground
            The POIMs' background.
        found : Found
            The motifs and their models.
        cv : dict
            The cross-validation's figures (`cross_validate`).
        figures : list of str or pathlib.Path
            The figures written (or their folder).
        runtimes : dict
            Wall time per step.
        """
        raise NotImplementedError

    def write_report(self, path: Path, summary: dict, figures: Path) -> None:
        """The report page of ``summary`` at ``path``, its figures in ``figures``.

        Parameters
        ----------
        path : pathlib.Path
            Where the report is written.
        summary : dict
            The run's summary.
        figures : list of str or pathlib.Path
            The figures written (or their folder).
        """
        raise NotImplementedError


def run_job(
    out: str | os.PathLike, job: Job, *, force: bool = False, progress: bool | str
) -> dict:
    """Make the run folder ``out`` by the steps every run takes, ``job``'s hooks in.

    Parameters
    ----------
    out : str or path-like
        The output folder; it must not exist unless ``force`` (and then only
        as poimkit made it). It appears only when the run succeeds.
    job : Job
        The task's parts.
    force : bool, default=False
        Replace an existing ``out`` once the new run succeeded.
    progress : bool or "lines"
        Bars on standard error, or a line per step (for a log).

    Returns
    -------
    dict
        The content of ``summary.json``.
    """
    from tqdm.auto import tqdm

    from .._threads import numba_threads
    from ..io.outdir import check_output_folder, output_lock, staged_directory
    from .motif_model import save_motif_models
    from .poim_step import compute_run_poim
    from .summary import save_results, write_summary

    timer = StepTimer()  # the run's wall time starts here
    job.check()  # cheap checks and reading first: bad input fails before any folder
    check_output_folder(out, force, job.files)
    with output_lock(out):  # a second run into the same folder: refused now
        job.read(timer, progress)
        steps = job.steps()
        timer.lines = progress == "lines"  # bad input: its one line, no step
        with (
            staged_directory(out, force=force, inputs=job.files) as staged,
            numba_threads(job.options.threads),
            tqdm(total=len(steps), unit="step", disable=progress is not True) as bar,
        ):
            timer.bar = bar
            model, cv = job.train(timer, progress)
            with timer.step("POIM"):
                poim, background = compute_run_poim(
                    model, job.data, job.options, progress is True
                )
            found = job.find_motifs(model, poim, background, cv, timer)
            with timer.step("outputs"):
                save_results(staged, model, poim)
                save_motif_models(staged, found.explained, found.stack)
                figures = job.write(staged, poim, background, found, cv)
            runtimes = timer.with_total()
            summary = job.summary(model, poim, background, found, cv, figures, runtimes)
            write_summary(staged, summary, job.write_report)
    return summary
