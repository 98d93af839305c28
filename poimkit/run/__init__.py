"""`poimkit run` as a library call: `run_pipeline` and its `RunOptions`.

Modules, in the order of a run: `options` (settings, solver choice),
`data` (reading and the checks that need the data), `crossval` (nested
cross-validation, final fit), `summary` (figures, motif rows, notes),
`report` (the HTML page) and `pipeline` (the steps in a staged folder).
"""

from .options import RunOptions


def __getattr__(name: str):
    """`run_pipeline` is imported on first use (it loads the whole package)."""
    if name == "run_pipeline":
        from .pipeline import run_pipeline

        return run_pipeline
    raise AttributeError(f"module 'poimkit.run' has no attribute {name!r}")


__all__ = ["RunOptions", "run_pipeline"]
