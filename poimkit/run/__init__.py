"""The library entries of whole jobs: runs, trainings, regressions and scoring.

`run_pipeline` (``poimkit run``: a classification run folder) with its
`RunOptions` and `PeakSource` (peaks in a genome); `train_classifier`
(``poimkit train``); `run_regression` and `train_regression` with a
`TargetSource` (``run``/``train --targets``); `explain_model` (a model
file explained untrained: a batch's ``model`` row); `score_records`
(``poimkit score``). Runs return a `RunSummary` (``summary.json``), their
cross-validation a `CVResult` (`results`). The model families a run trains
are `Family` objects of `registry`; `register` adds one.

Modules, in the order of a run: `registry` (the model families), `job` (the
steps of every run folder), `options` (settings, solver choice),
`data` (reading and the checks that need the data), `genome` (peaks,
negatives), `plan` and `train` (the models to fit), `crossval` (nested
cross-validation, final fit), `poim_step` (the POIMs), `motif_model`,
`known` and `sites_bed` (motif models, known motifs, sites), `summary`
(the summary's numbers, motif rows, notes; `results` types them),
`figures`, `steps` (timed steps) and `pipeline` (the steps in a staged
folder; its page is written by `poimkit.run.report`), `model_job` (a
model file's run folder, nothing trained). Regression:
`regression` (its cross-validation), `regression_search`,
`regression_figures`, `regression_outputs`, `peak_targets` and
`regression_run` (the jobs). `score` scores FASTA files
larger than memory.
"""

from .._lazy import lazy_exports
from .options import RunOptions

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "CVResult": "results",
        "PeakSource": "genome",
        "RunSummary": "results",
        "TargetSource": "regression_run",
        "explain_model": "model_job",
        "run_pipeline": "pipeline",
        "run_regression": "regression_run",
        "score_records": "score",
        "train_classifier": "train",
        "train_regression": "regression_run",
        "Family": "registry",
        "register": "registry",
    },
)

__all__ = [
    "CVResult",
    "Family",
    "PeakSource",
    "RunOptions",
    "RunSummary",
    "TargetSource",
    "explain_model",
    "run_pipeline",
    "run_regression",
    "register",
    "score_records",
    "train_classifier",
    "train_regression",
]
