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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..param_docs import parameters_from
from .data import LabeledData
from .options import RunOptions
from .results import CVResult, RunSummary
from .steps import StepTimer

__all__ = ["Found", "Job", "RunResult", "run_job"]


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


@dataclass
class RunResult:
    """What a run made, step by step: the hooks read it, `run_job` fills it.

    Attributes
    ----------
    model : fitted estimator
        The final model.
    cv : CVResult
        The cross-validation (`cross_validate`; `CVResult.none` without CV).
    poim : Poim or None
        The model's POIMs (the POIM step).
    background : MarkovBackground or None
        The POIMs' background.
    found : Found or None
        The motifs and their models (the motif step).
    figures : list of str
        The figures written (the outputs step).
    runtimes : dict
        Wall time per step, and the total (the summary step).
    """

    model: Any
    cv: CVResult
    poim: Any = None
    background: Any = None
    found: Found | None = None
    figures: list = field(default_factory=list)
    runtimes: dict = field(default_factory=dict)


#: the parameters of the jobs' hooks, documented once (`fill_doc`)
_HOOK_DOCS = {
    "model": "model : fitted estimator\n    The run's final model.",
    "timer": "timer : StepTimer\n    Times and shows the steps.",
    "progress": 'progress : bool or "lines"\n    Bars, or a line per step.',
    "result": "result : RunResult\n    What the run made so far.",
    "staged": "staged : pathlib.Path\n    The staged output folder.",
    "figures": "figures : pathlib.Path\n    The folder of the report's figures.",
    "path": "path : pathlib.Path\n    Where the report is written.",
    "summary": "summary : RunSummary\n    The run's summary.",
}

#: ``@_hook("timer", ...)``: a hook's Parameters section from `_HOOK_DOCS`
_hook = parameters_from(_HOOK_DOCS)


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

    @_hook("timer", "progress")
    def read(self, timer: StepTimer, progress: bool | str) -> None:
        """Read the input and plan the training (inside the folder's lock).

        %(parameters)s
        """
        raise NotImplementedError

    def steps(self) -> list[str]:
        """The steps a bar counts after reading, in order."""
        raise NotImplementedError

    @_hook("timer", "progress")
    def train(self, timer: StepTimer, progress: bool | str) -> tuple[Any, dict]:
        """Cross-validate and fit the final model: ``(model, cv)``.

        %(parameters)s
        """
        raise NotImplementedError

    @_hook("model", "progress")
    def poim(self, model: Any, progress: bool | str) -> tuple:
        """The model's POIMs and their background (`compute_run_poim`).

        %(parameters)s
        """
        from .poim_step import compute_run_poim

        return compute_run_poim(model, self.data, self.options, progress is True)

    @_hook("result", "timer")
    def find_motifs(self, result: RunResult, timer: StepTimer) -> Found:
        """The motifs of the model and their models (timed by ``timer``).

        %(parameters)s
        """
        raise NotImplementedError

    @_hook("staged", "result")
    def save(self, staged: Path, result: RunResult) -> None:
        """The model, its POIMs and the motif models in ``staged``.

        %(parameters)s
        """
        from .motif_model import save_motif_models
        from .summary import save_results

        save_results(staged, result.model, result.poim)
        save_motif_models(staged, result.found.explained, result.found.stack)

    @_hook("staged", "result")
    def write(self, staged: Path, result: RunResult) -> list[str]:
        """The task's own files in ``staged``; the figures written.

        %(parameters)s
        """
        raise NotImplementedError

    @_hook("result")
    def summary(self, result: RunResult) -> RunSummary:
        """What the run found (``summary.json`` is its ``to_json``).

        %(parameters)s
        """
        raise NotImplementedError

    @_hook("path", "summary", "figures")
    def write_report(self, path: Path, summary: RunSummary, figures: Path) -> None:
        """The report page of ``summary`` at ``path``, its figures in ``figures``.

        %(parameters)s
        """
        raise NotImplementedError


def run_job(
    out: str | os.PathLike, job: Job, *, force: bool = False, progress: bool | str
) -> RunSummary:
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
    RunSummary
        What the run found (``summary.json`` is its ``to_json``).
    """
    from tqdm.auto import tqdm

    from .._threads import numba_threads
    from ..io.outdir import check_output_folder, output_lock, staged_directory
    from .summary import write_summary

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
            result = RunResult(*job.train(timer, progress))
            with timer.step("POIM"):
                result.poim, result.background = job.poim(result.model, progress)
            result.found = job.find_motifs(result, timer)
            with timer.step("outputs"):
                job.save(staged, result)
                result.figures = job.write(staged, result)
            result.runtimes = timer.with_total()
            summary = job.summary(result)
            write_summary(staged, summary, job.write_report)
    return summary
