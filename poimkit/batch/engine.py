"""Many experiments at once on Dask's distributed scheduler (`run_batch`).

Each experiment is one task. By default an embedded ``LocalCluster`` of
worker processes, sized from the machine (`plan_workers`), runs them; a
user's own ``dask.distributed.Client`` (a cluster anywhere) may instead.
Every worker runs its experiments' numba code on ``cores // workers``
threads, so that workers times threads never oversubscribe the cores.

The batch folder holds ``runs/NAME/`` (each as ``poimkit run`` writes it),
``batch.json`` (what each finished experiment was run from: a rerun skips
those whose inputs and options are unchanged), ``failed.tsv`` and the atlas.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from .sheet import Experiment, read_sheet
from .tasks import Outcome, RowSettings, Task, complete, run_task

#: the file that marks a batch folder and records its experiments' fingerprints
STATE_FILE = "batch.json"
#: the batch folder's table of failed experiments
FAILED_FILE = "failed.tsv"
#: the format of `STATE_FILE`
STATE_FORMAT = "poimkit-batch"
#: memory a worker process is given at least, in bytes (for sizing)
_WORKER_MEMORY = 2 * 1024**3


@dataclass(frozen=True)
class BatchResult:
    """What a batch did.

    Parameters
    ----------
    out : pathlib.Path
        The batch folder.
    outcomes : list of Outcome
        One per experiment, in the sheet's order.
    workers : int
        The workers that ran it.
    threads : int or None
        Numba threads per experiment (None: the client's workers decide).
    """

    out: Path
    outcomes: list[Outcome]
    workers: int
    threads: int | None

    @property
    def failed(self) -> list[Outcome]:
        """The experiments that failed."""
        return [o for o in self.outcomes if o.status == "failed"]


def plan_workers(workers: int | None = None, tasks: int = 1) -> tuple[int, int]:
    """Workers of a local cluster and numba threads for each: ``(workers, threads)``.

    Parameters
    ----------
    workers : int, optional
        Asked for; default: as many as the cores, and as the memory allows
        (2 GiB each).
    tasks : int, default=1
        The experiments to run: no more workers than them.

    Returns
    -------
    tuple of int
        Workers times threads is at most the cores (unless more workers
        than cores were asked for: one thread each then).
    """
    from .._machine import physical_memory, usable_cores

    cores = usable_cores()
    if workers is None:
        workers = max(1, min(cores, physical_memory() // _WORKER_MEMORY))
    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    workers = max(1, min(workers, tasks))
    return workers, max(1, cores // workers)


def run_batch(
    sheet: str | os.PathLike | Sequence[Experiment] | Sequence[Task],
    out: str | os.PathLike,
    *,
    client: Any = None,
    workers: int | None = None,
    genome: str | os.PathLike | None = None,
    settings: Callable[[Experiment], RowSettings] | None = None,
    on_outcome: Callable[[Outcome], None] | None = None,
    processes: bool = True,
) -> BatchResult:
    """Run every experiment of ``sheet`` into ``out``, skipping the finished ones.

    Parameters
    ----------
    sheet : str, path-like, sequence of Experiment or of Task
        A sheet (`poimkit.batch.read_sheet`), its experiments, or the tasks
        `plan_batch` made of them.
    out : str or path-like
        The batch folder; made if missing. An existing one must be a batch
        folder poimkit made (or empty).
    client : dask.distributed.Client, optional
        Runs the tasks (a cluster anywhere); default an embedded local one.
    workers : int, optional
        Workers of the local cluster (`plan_workers`).
    genome : str or path-like, optional
        The genome of peak rows without their own.
    settings : callable, optional
        ``settings(experiment)``: the `RowSettings` of a row (the command
        line parses its ``options`` column); default `RowSettings()` for
        every row, and a row with options is refused.
    on_outcome : callable, optional
        Called with each experiment's `Outcome` as it comes (skipped ones
        first).
    processes : bool, default=True
        The local cluster's workers are processes (else threads of this one).

    Returns
    -------
    BatchResult

    Raises
    ------
    InputError
        For a bad sheet or settings (before any run) or a folder poimkit did
        not make.
    """
    _check_dask()
    if workers is not None and workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    tasks = [] if isinstance(sheet, (str, os.PathLike)) else list(sheet)
    if not tasks or not isinstance(tasks[0], Task):
        tasks = plan_batch(sheet, out, genome=genome, settings=settings)
    out = _batch_folder(out)
    _remove_partial(tasks)  # left by a batch that was killed
    state = _read_state(out)
    # taken before the runs: an input changed while its experiment ran makes
    # the next batch run it again
    prints = {t.experiment.name: t.fingerprint() for t in tasks}
    todo, outcomes = [], {}
    for task in tasks:
        name = task.experiment.name
        if complete(task.out) and state.get(name) == prints[name]:
            outcomes[name] = Outcome(name, "skipped")
            if on_outcome is not None:
                on_outcome(outcomes[name])
        else:
            todo.append(task)
    used, threads, done = _run_all(
        todo, client, workers, processes, (state, prints, out), on_outcome
    )
    outcomes.update((o.name, o) for o in done)
    result = BatchResult(
        out, [outcomes[t.experiment.name] for t in tasks], used, threads
    )
    _write_failed(out, result.failed)
    from .atlas import write_atlas

    write_atlas(out, tasks, result.outcomes)
    return result


def plan_batch(
    sheet: str | os.PathLike | Sequence[Experiment],
    out: str | os.PathLike,
    *,
    genome: str | os.PathLike | None = None,
    settings: Callable[[Experiment], RowSettings] | None = None,
) -> list[Task]:
    """Every experiment of ``sheet`` as a checked `Task`, before anything runs.

    Parameters
    ----------
    sheet : str, path-like or sequence of Experiment
        A sheet or its experiments.
    out : str or path-like
        The batch folder (the tasks' folders are ``runs/NAME`` in it).
    genome, settings
        As in `run_batch`.

    Returns
    -------
    list of Task

    Raises
    ------
    InputError
        Naming the row and column of the first bad one.
    """
    _check_dask()
    _check_batch_folder(Path(out))
    if isinstance(sheet, (str, os.PathLike)):
        sheet = read_sheet(sheet, genome)
    out = Path(os.path.abspath(out))  # workers may run elsewhere
    tasks = [_task(e, settings, out) for e in sheet]
    for task in tasks:
        _checked(task)
    return tasks


def _run_all(todo, client, workers, processes, kept, on_outcome):
    """Run ``todo`` on the client (or a local cluster).

    ``kept``: ``(state, prints, out)``: each finished experiment's
    fingerprint (from ``prints``, taken before the runs) is written to
    ``state`` after each outcome. Returns ``(workers, threads, outcomes)`` in
    the order they finished.
    """
    state, prints, out = kept
    if not todo:
        return 0, None, []
    from dask.distributed import Client, LocalCluster, as_completed

    own = client is None
    threads = None
    if own:
        workers, threads = plan_workers(workers, len(todo))
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=processes,
            dashboard_address=":0",  # a free port: another batch may hold 8787
            silence_logs=40,
        )
        client = Client(cluster)
        pids = set(client.run(os.getpid).values()) if processes else set()
    else:
        workers = len(client.scheduler_info().get("workers", {})) or 1
    done, futures = [], []
    try:
        futures = [
            client.submit(run_task, t, threads, key=_key(t), pure=False) for t in todo
        ]
        for future in as_completed(futures):
            outcome = future.result()
            if outcome.status == "done":
                state[outcome.name] = prints[outcome.name]
            else:
                state.pop(outcome.name, None)
            _write_state(out, state)
            done.append(outcome)
            if on_outcome is not None:
                on_outcome(outcome)
    except BaseException:  # Ctrl-C, SIGTERM: keep what finished, nothing partial
        client.cancel(futures)
        raise
    finally:
        if own:
            client.close()
            cluster.close()
            _stop_processes(pids)  # one busy in compiled code outlives the close
        _remove_partial(todo)
    return workers, threads, done


def _stop_processes(pids: set[int], wait: float = 10.0) -> None:
    """Kill the local cluster's worker processes still running; wait for them."""
    import signal
    import time

    from ..io.outdir import process_alive

    for pid in pids:
        if process_alive(pid):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + wait
    while any(process_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)


def _key(task: Task) -> str:
    """A task's key on the scheduler: its name, unique among batches sharing it."""
    from uuid import uuid4

    return f"poimkit-{task.experiment.name}-{uuid4().hex[:12]}"


def _remove_partial(tasks: Sequence[Task]) -> None:
    """Remove the staging folders of ``tasks`` whose worker process is gone."""
    from ..io.outdir import remove_stale_staging

    for task in tasks:
        remove_stale_staging(Path(task.out))


def _check_dask() -> None:
    """Refuse in one line, before any work, where Dask's scheduler is missing."""
    from importlib.util import find_spec

    if find_spec("dask") is None or find_spec("distributed") is None:
        raise InputError(
            'poimkit batch needs Dask: pip install "dask[distributed]" (the dask extra)'
        )


def _task(experiment: Experiment, settings, out: Path) -> Task:
    if settings is None:
        if experiment.options:
            raise InputError(
                f"row {experiment.row} ({experiment.name}), column options: run "
                "flags are read by the command line (poimkit batch); from Python "
                "pass settings="
            )
        found = RowSettings()
    else:
        found = settings(experiment)
    return Task(experiment, found, os.fspath(out / "runs" / experiment.name))


def _checked(task: Task) -> None:
    """`Task.check`, its error naming the row."""
    try:
        task.check()
    except InputError as exc:
        e = task.experiment
        raise InputError(f"row {e.row} ({e.name}), column options: {exc}") from None


def _check_batch_folder(out: Path) -> None:
    """Refuse ``out`` if it is a file or holds what poimkit did not write."""
    if out.exists() and not out.is_dir():
        raise InputError(f"batch folder {out} is a file")
    if out.is_dir() and any(out.iterdir()) and not (out / STATE_FILE).is_file():
        raise InputError(
            f"batch folder {out} holds files and no {STATE_FILE}: poimkit did not "
            "make it; give a new or empty folder"
        )


def _batch_folder(out: str | os.PathLike) -> Path:
    """``out``, checked and made if missing, with its ``runs/``."""
    out = Path(out)
    _check_batch_folder(out)
    (out / "runs").mkdir(parents=True, exist_ok=True)
    if not (out / STATE_FILE).is_file():
        _write_state(out, {})
    return out


def _read_state(out: Path) -> dict:
    """Each finished experiment's fingerprint, from `STATE_FILE`."""
    try:
        content = json.loads((out / STATE_FILE).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(content, dict) or content.get("format") != STATE_FORMAT:
        return {}
    return dict(content.get("experiments", {}))


def _write_state(out: Path, state: dict) -> None:
    """`STATE_FILE`, atomically."""
    from ..io import atomic_path
    from ..io.json_text import json_text

    content = {"format": STATE_FORMAT, "format_version": 1, "experiments": state}
    with atomic_path(out / STATE_FILE) as tmp:
        Path(tmp).write_text(json_text(content))


def _write_failed(out: Path, failed: list[Outcome]) -> None:
    """`FAILED_FILE`: a row per failed experiment and its error (or the header)."""
    from ..io.files import write_table

    write_table(
        out / FAILED_FILE, ["name", "error"], [[o.name, o.error] for o in failed]
    )
