"""Many experiments at once: a sheet, Dask's scheduler, and an atlas.

`read_sheet` reads and checks a sheet (one experiment per row);
`run_batch` runs them on a Dask cluster (an embedded local one by default),
each into ``runs/NAME/`` as ``poimkit run`` would, skipping those already
complete and unchanged; `poimkit.batch.atlas` compares them. Modules:
`sheet`, `tasks` (what a worker runs), `engine` (the scheduling, resume and
failures) and `atlas`.
"""

from .._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "BatchResult": "engine",
        "Experiment": "sheet",
        "Outcome": "tasks",
        "RowSettings": "tasks",
        "Task": "tasks",
        "plan_batch": "engine",
        "read_sheet": "sheet",
        "run_batch": "engine",
    },
)

__all__ = [
    "BatchResult",
    "Experiment",
    "Outcome",
    "RowSettings",
    "Task",
    "plan_batch",
    "read_sheet",
    "run_batch",
]
