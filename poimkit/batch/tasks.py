"""An experiment of a batch as a task a worker runs: settings, run, outcome.

A `Task` is picklable (it travels to a Dask worker) and runs the experiment
as ``poimkit run`` would (a model row: `poimkit.run.explain_model`), into
``runs/NAME/`` (staged, then renamed: a killed task leaves no partial
folder). `fingerprint` is what a rerun compares to skip an experiment whose
inputs and options are unchanged.
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from ..errors import InputError
from ..run.genome import DEFAULT_WIDTH
from ..run.options import RunOptions
from .sheet import Experiment

#: what an experiment's outcome may be
STATUSES = ("done", "skipped", "failed")


@dataclass(frozen=True)
class RowSettings:
    """What a row's ``run`` flags resolve to.

    Parameters
    ----------
    options : RunOptions
        Model, POIM and motif settings.
    width : int or None
        Peak window width (peak rows).
    negatives : str or None
        ``"genomic"``, ``"shuffle"`` or a file (peak rows); None: genomic
        for classes, none for targets (as ``poimkit run``).
    jitter : int or None
        A WD model's moved copies (peak rows; `poimkit.run.PeakSource`).
    log1p : bool
        Regress on ``log(1 + target)`` (rows with targets).
    epsilon : float or None
        The SVR's tube half-width (rows with targets; None: chosen).
    """

    options: RunOptions = field(default_factory=RunOptions)
    width: int | None = DEFAULT_WIDTH
    negatives: str | None = None
    jitter: int | None = None
    log1p: bool = False
    epsilon: float | None = None


@dataclass(frozen=True)
class Outcome:
    """What became of one experiment.

    Parameters
    ----------
    name : str
        The experiment.
    status : {"done", "skipped", "failed"}
        Run now, skipped as complete and unchanged, or failed.
    seconds : float
        Its wall time (0 when skipped).
    error : str
        The one-line error of a failed experiment.
    peak_memory_mb : float or None
        The peak resident memory of the worker process that ran it.
    notes : tuple of str
        poimkit's warnings while it ran, one line each (a worker's own
        standard error is not the user's).
    """

    name: str
    status: str
    seconds: float = 0.0
    error: str = ""
    peak_memory_mb: float | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Task:
    """An experiment, its settings and its folder: what a worker runs.

    Parameters
    ----------
    experiment : Experiment
        The sheet's row.
    settings : RowSettings
        Its resolved flags.
    out : str
        Its run folder (``ATLAS/runs/NAME``).
    """

    experiment: Experiment
    settings: RowSettings
    out: str

    def source(self):
        """The `PeakSource`, `TargetSource` or None (FASTA pair) it reads."""
        from ..run import PeakSource, TargetSource

        files, s = self.experiment.files, self.settings
        peaks = None
        if "bed" in files:
            regression = self.experiment.regression
            negatives = s.negatives if regression else s.negatives or "genomic"
            peaks = PeakSource(
                files["bed"], files["genome"], s.width, negatives, s.jitter
            )
        if self.experiment.regression:
            return TargetSource(files["targets"], files.get("fasta"), peaks, s.log1p)
        return peaks

    def check(self) -> None:
        """Raise `InputError` for settings that cannot work, before any run."""
        options = self.settings.options
        options.check_model()
        source = self.source()
        peaks = getattr(source, "peaks", source)
        if peaks is not None:
            peaks.check(options)

    def fingerprint(self) -> dict:
        """The inputs (size and modification time) and settings, as JSON.

        Returns
        -------
        dict
            ``files``: path -> ``[size, mtime_ns]``; ``settings``: the row's
            options as given and resolved.
        """
        files = {}
        for path in self.experiment.files.values():
            if os.path.isfile(path):
                stat = os.stat(path)
                files[path] = [stat.st_size, stat.st_mtime_ns]
        settings = asdict(self.settings)
        return {
            "files": files,
            "options": list(self.experiment.options),
            "settings": _json_ready(settings),
        }

    def run(self, threads: int | None = None) -> None:
        """Run the experiment into `out` (replacing a run folder poimkit made).

        Parameters
        ----------
        threads : int, optional
            Numba threads, unless the row's options set them.
        """
        from ..genome.negatives import share_letters
        from ..run import explain_model, run_pipeline, run_regression

        share_letters(True)  # a worker reads a genome shared by rows once
        options = self.settings.options
        if options.threads is None and threads is not None:
            options = replace(options, threads=threads)
        source, files = self.source(), self.experiment.files
        pair = {"pos": files.get("pos"), "neg": files.get("neg")}
        if self.experiment.explains:
            explain_model(
                self.out,
                files["model"],
                **pair,
                peaks=source,
                options=options,
                force=True,
                progress=False,
            )
            return
        if self.experiment.regression:
            run_regression(
                self.out, source, options, self.settings.epsilon, True, False
            )
            return
        run_pipeline(
            self.out, **pair, options=options, force=True, progress=False, peaks=source
        )


def run_task(task: Task, threads: int | None = None) -> Outcome:
    """Run ``task`` and say how it went; an error fails it, with its one line.

    Parameters
    ----------
    task : Task
        The experiment.
    threads : int, optional
        Numba threads for it (workers times threads: at most the cores).

    Returns
    -------
    Outcome
    """
    import warnings

    start = time.perf_counter()
    error = ""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            task.run(threads)
        except InputError as exc:
            error = str(exc)
        except Exception as exc:  # noqa: BLE001 (one row must not stop the rest)
            error = f"internal error: {type(exc).__name__}: {exc}"
    notes = tuple(
        dict.fromkeys(
            _one_line(str(w.message))
            for w in caught
            if w.category.__module__.split(".")[0] == "poimkit"
        )
    )
    status = "failed" if error else "done"
    seconds = time.perf_counter() - start
    name = task.experiment.name
    return Outcome(name, status, seconds, _one_line(error), _peak_mb(), notes)


def complete(folder: str | os.PathLike) -> bool:
    """Whether ``folder`` holds a finished run (its ``summary.json``).

    Parameters
    ----------
    folder : str or path-like
        A run folder.
    """
    from ..io.outdir import LAYOUT

    return (Path(folder) / LAYOUT.summary).is_file()


def _peak_mb() -> float | None:
    """The peak resident memory of this process, in MiB (None where unknown)."""
    try:
        import resource
    except ImportError:  # pragma: no cover (Windows)
        return None
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _json_ready(value):
    """Tuples as lists, the rest as it is (settings are plain values)."""
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    return value
