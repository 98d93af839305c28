"""A run's typed results: its cross-validation and its summary.

`CVResult` is what `poimkit.run.crossval.cross_validate` and the regression
run's CV return; `RunSummary` is what `poimkit.run_pipeline` and
`poimkit.run_regression` return, read by the report and the command lines.
``summary.json`` is `RunSummary.to_json`, and `RunSummary.from_json` reads
one back (a run's folder, an atlas of runs).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any

import numpy as np

from ..errors import InputError
from ..io.outdir import RUN_FORMAT

#: ``summary.json``'s format version
SUMMARY_VERSION = 1
#: each task's figure: the one the choices compare and chance is judged by
METRIC = {"classification": "auc", "regression": "pearson"}
#: where the figure's interval must lie above for a model to beat chance
CHANCE = {"auc": 0.5, "pearson": 0.0}
#: the held-out arrays of a CV's mapping and the fields holding them
_ARRAYS = {
    "out_of_fold_scores": "scores",
    "out_of_fold_probabilities": "probabilities",
    "cv_predictions": "predictions",
    "motif_out_of_fold_scores": "motif_scores",
    "stack_out_of_fold_scores": "stack_scores",
}
#: the structure of a CV's mapping (not figures) and the fields holding it
_PARTS = {
    "selection": "selection",
    "cv_split": "split",
    "cv_split_note": "split_note",
    "folds": "folds",
    "models": "models",
    "chosen_model": "chosen_model",
    "families_compared": "families_compared",
}
#: a classification's figures without cross-validation (``cv=0``)
_NO_FIGURES = {
    "cv_auc": None,
    "cv_auc_std": None,
    "cv_auc_interval": None,
    "cv_auc_pooled": None,
    "cv_auc_folds": [],
    "cv_accuracy": None,
    "cv_accuracy_folds": [],
    "cv_balanced_accuracy": None,
    "cv_best_accuracy": None,
    "cv_brier": None,
}


@dataclass
class CVResult:
    """A run's cross-validation: the chosen model's figures and how it got them.

    Parameters
    ----------
    metric : {"auc", "pearson"}
        The figure the choices compare (`METRIC` of the task).
    figures : dict
        The chosen model's JSON-ready figures by their ``summary.json`` names
        (``cv_auc``, ``cv_auc_std``, ``cv_auc_interval``, ``cv_auc_folds``,
        ``cv_accuracy``... or ``cv_pearson``, ``cv_spearman``, ``cv_r2``
        with theirs); None values (classes) or none (targets) without CV.
    scores : numpy.ndarray or None
        The SVM's out-of-fold scores (a regressor's predictions).
    probabilities : numpy.ndarray or None
        The chosen classifier's calibrated out-of-fold probabilities.
    predictions : numpy.ndarray or None
        The chosen regressor's out-of-fold predictions.
    selection : dict or None
        The inner CV's choice (`poimkit.run.crossval.selection_summary`);
        None if nothing was chosen.
    split : str or None
        "chromosome", "block" or "random"; None without CV.
    split_note : str
        Why the folds are not of whole chromosomes, if asked.
    folds : list of dict
        Every outer fold: its ``n_test``, test chromosomes or blocks, AUC.
    baseline : dict
        GC content alone in the same folds (``gc_cv_auc``,
        ``gc_cv_auc_folds``; `poimkit.run.gc_baseline`); empty for targets.
    motif_scores, stack_scores : numpy.ndarray or None
        The motif models' and stacks' out-of-fold scores, if compared.
    models : dict or None
        Every compared model's figures (``svm``, ``motifs``, ``stack``).
    chosen_model : str
        "svm", "motifs" or "stack": whose figures ``figures`` are.
    families_compared : dict or None
        The kernel SVM's and the CNN's figures when both were trained
        (`poimkit.run.families.keep_family`).
    """

    metric: str = "auc"
    figures: dict[str, Any] = field(default_factory=dict)
    scores: np.ndarray | None = None
    probabilities: np.ndarray | None = None
    predictions: np.ndarray | None = None
    selection: dict | None = None
    split: str | None = None
    split_note: str = ""
    folds: list[dict] = field(default_factory=list)
    baseline: dict[str, Any] = field(default_factory=dict)
    motif_scores: np.ndarray | None = None
    stack_scores: np.ndarray | None = None
    models: dict | None = None
    chosen_model: str = "svm"
    families_compared: dict | None = None

    @classmethod
    def none(cls, metric: str = "auc") -> CVResult:
        """No cross-validation (``cv=0``): no figures, the SVM alone.

        Parameters
        ----------
        metric : {"auc", "pearson"}
        """
        return cls(metric, dict(_NO_FIGURES) if metric == "auc" else {})

    @classmethod
    def from_mapping(cls, metric: str, mapping: dict[str, Any]) -> CVResult:
        """A CV from its flat mapping (``summary.json``, the CV steps' parts).

        Figures are the keys starting ``cv_`` that are not parts or arrays;
        ``gc_`` keys the baseline; other keys are not a CV's and are ignored.

        Parameters
        ----------
        metric : {"auc", "pearson"}
        mapping : dict
        """
        given: dict[str, Any] = {"metric": metric, "figures": {}, "baseline": {}}
        for key, value in mapping.items():
            if key in _ARRAYS:
                given[_ARRAYS[key]] = value
            elif key in _PARTS:
                given[_PARTS[key]] = value
            elif key.startswith("gc_cv_"):
                given["baseline"][key] = value
            elif key.startswith("cv_"):
                given["figures"][key] = value
        given["split_note"] = given.get("split_note") or ""
        given["chosen_model"] = given.get("chosen_model") or "svm"
        given["folds"] = given.get("folds") or []
        return cls(**given)

    @property
    def done(self) -> bool:
        """Whether the model was cross-validated (it has its figure)."""
        return self.figure() is not None

    def figure(self, suffix: str = "") -> Any:
        """The metric's figure: ``figure()`` the mean, ``figure("interval")``...

        Parameters
        ----------
        suffix : str
            "", "std", "interval" or "folds".
        """
        return self.figures.get(f"cv_{self.metric}" + (f"_{suffix}" if suffix else ""))

    def better_than_chance(self) -> bool:
        """True when the 95 % interval of the figure lies above chance.

        A classifier's AUC above 0.5, a regressor's Pearson correlation above
        0; False without cross-validation.
        """
        return self.done and bool(self.figure("interval")[0] > CHANCE[self.metric])

    def back_to_svm(self) -> None:
        """The SVM's figures and held-out predictions again (``chosen_model`` svm).

        For a final model without motifs, whose motif model or stack the
        cross-validation had chosen.
        """
        self.figures.update(self.models["svm"])
        self.chosen_model = "svm"
        if self.predictions is not None:
            self.predictions = self.scores

    def to_json(self) -> dict[str, Any]:
        """The CV's keys in ``summary.json``: figures and parts, no arrays."""
        out = {
            **self.figures,
            "selection": self.selection,
            **self.baseline,
            "cv_split": self.split,
            "cv_split_note": self.split_note,
            "folds": self.folds,
            "models": self.models,
            "chosen_model": self.chosen_model,
        }
        if self.families_compared is not None:
            out["families_compared"] = self.families_compared
        return out


#: `RunSummary` fields left out of ``summary.json`` when None (not the task's)
_ONLY_SOME = frozenset(
    {
        "n_positive",
        "n_negative",
        "n_dropped",
        "n_motif_sequences",
        "sample",
        "n_parameters",
        "model",
        "target",
        "cv_folds",
        "peaks",
        "negatives",
        "targets",
        "known_motifs",
    }
)


@dataclass(kw_only=True)
class RunSummary:
    """What a run found, as ``summary.json`` holds it.

    Parameters
    ----------
    task : {"classification", "regression"}
    inputs : list
        The input files (classification: with their checksums).
    n_sequences : int
        Records read.
    length : int or None
        Their length (None: they differ).
    lengths : list of int
        The shortest and longest.
    position_free : bool
        Whether the model's POIMs are position-free.
    family : str
        The final model's family ("wd", "gkm", "cnn"...).
    parameters : dict
        The options and the final model's parameters.
    cv : CVResult
        Its cross-validation.
    motifs : list of dict
        The motifs reported, one row each.
    motifs_note : str
        Why the motif list is what it is.
    motif_model : dict or None
        The motif model's figures and coefficients (None: no motif).
    top_kmers, differential_peaks : list of dict
        The strongest POIM entries and differential POIM peaks.
    figures : list of str
        The PNGs written.
    background : str
        The POIMs' background.
    runtimes : dict
        Wall time per step, in seconds.
    versions : dict
        The versions of poimkit and its libraries.
    n_support_vectors, n_parameters : int or None
        The final model's size.
    dataset : str, optional
        A name for the input.
    n_positive, n_negative, n_dropped, n_motif_sequences : int, optional
        A classification's classes, records dropped, and the records its
        motifs were sought in.
    sample : dict, optional
        A classification on more records than ``cv_sample``: the sample its
        cross-validation, motifs and known motifs used (``records``, ``of``,
        ``positive``; `poimkit.run.data.sample_description`).
    model : str, optional
        A regression's model class.
    target : dict, optional
        A regression's targets' ``mean`` and ``std``.
    cv_folds : int, optional
        A regression's number of CV folds (0: none).
    peaks, negatives : dict, optional
        Peak input: the peaks read and the negatives made.
    targets : dict, optional
        A regression on peaks: the targets' ``source`` and ``log1p``.
    known_motifs : dict, optional
        The known motifs' enrichment (``--known``).
    """

    task: str
    dataset: str | None = None
    inputs: list
    n_sequences: int
    n_positive: int | None = None
    n_negative: int | None = None
    n_dropped: int | None = None
    peaks: dict | None = None
    negatives: dict | None = None
    targets: dict | None = None
    length: int | None
    lengths: list[int]
    position_free: bool
    n_motif_sequences: int | None = None
    sample: dict | None = None
    parameters: dict[str, Any]
    family: str
    model: str | None = None
    target: dict | None = None
    background: str
    versions: dict[str, str | None]
    cv: CVResult
    cv_folds: int | None = None
    n_support_vectors: int | None = None
    n_parameters: int | None = None
    motifs: list[dict]
    motifs_note: str
    top_kmers: list[dict]
    differential_peaks: list[dict]
    figures: list[str]
    runtimes: dict[str, float]
    motif_model: dict | None
    known_motifs: dict | None = None

    @property
    def chosen_model(self) -> str:
        """The final model: "svm", "motifs" or "stack"."""
        return self.cv.chosen_model

    def to_json(self) -> dict[str, Any]:
        """The content of ``summary.json``: JSON-ready, the CV's keys at the top."""
        out: dict[str, Any] = {"format": RUN_FORMAT, "format_version": SUMMARY_VERSION}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "cv":
                out.update(value.to_json())
            elif value is not None or f.name not in _ONLY_SOME:
                out[f.name] = value
        return out

    @classmethod
    def from_json(
        cls, content: dict[str, Any], source: str = "summary.json"
    ) -> RunSummary:
        """A run's summary from the content of its ``summary.json``.

        Parameters
        ----------
        content : dict
            The parsed file.
        source : str
            Its path, for the error.

        Raises
        ------
        InputError
            Not a poimkit run's summary, or one of a later format.
        """
        if not isinstance(content, dict) or content.get("format") != RUN_FORMAT:
            raise InputError(f"{source}: not the summary of a poimkit run")
        version = content.get("format_version", SUMMARY_VERSION)
        if version > SUMMARY_VERSION:
            raise InputError(
                f"{source}: summary format {version}, newer than this poimkit's "
                f"({SUMMARY_VERSION}); upgrade poimkit to read it"
            )
        task = content.get("task", "classification")
        names = {f.name for f in fields(cls)} - {"cv", "task"}
        given = {k: v for k, v in content.items() if k in names}
        required = {f.name for f in fields(cls) if f.default is MISSING}
        missing = sorted(required - given.keys() - {"cv", "task"})
        if missing:
            raise InputError(f"{source}: the summary lacks {', '.join(missing)}")
        cv = CVResult.from_mapping(METRIC[task], content)
        return cls(task=task, cv=cv, **given)
