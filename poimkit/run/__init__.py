"""`poimkit run` as a library call: `run_pipeline` and its `RunOptions`.

Modules, in the order of a run: `options` (settings, solver choice),
`data` (reading and the checks that need the data), `crossval` (nested
cross-validation, final fit), `summary` (``summary.json``, figures, motif
rows, notes), `report` (the HTML page, its pieces in `html`) and `pipeline`
(the steps in a staged folder); `command` turns the ``train`` and ``run``
command lines into these calls; `score` scores FASTA files larger than
memory (`poimkit score`).
"""

from .._lazy import lazy_exports
from .options import RunOptions

__getattr__, __dir__ = lazy_exports(__name__, {"run_pipeline": "pipeline"})

__all__ = ["RunOptions", "run_pipeline"]
