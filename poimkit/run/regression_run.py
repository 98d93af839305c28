"""Regression jobs: a model file (`train_regression`) or a folder (`run_regression`).

Both read records with a continuous target each (`TargetSource`: a FASTA
file and a table of targets, or peaks in a genome and a column of the peak
file), cross-validate a `WDKernelSVR` or `GkmSVR` whose parameters (and
family) not fixed by the `RunOptions` are chosen by nested CV
(`poimkit.run.regression.nested_regression`), and train it on all records.
The run also computes POIMs, finds the motifs and counted words that shift
the target, fits their motif model and writes a report. Neither prints: the
figures are returned, the steps reported through `poimkit._messages`.
"""

from __future__ import annotations

import os
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._messages import inform
from ..errors import InputError
from ..io.outdir import LAYOUT
from .data import LabeledData
from .job import Found, Job, RunResult, run_job
from .options import RunOptions
from .registry import family_of, position_free_family
from .regression import clone_checked, cv_regression, nested_regression
from .regression_outputs import plot_predictions, regression_motifs, write_motif_outputs
from .results import CVResult, RunSummary
from .steps import StepTimer

if TYPE_CHECKING:
    from .genome import PeakSource

__all__ = ["TargetSource", "run_regression", "train_regression"]


@dataclass(frozen=True)
class TargetSource:
    """The records of a regression and their targets.

    Parameters
    ----------
    targets : str
        A table of record id and target; with ``peaks``, a column of the
        peak file (``signal``, ``score``, ``pValue``, ``qValue``,
        ``column:N``) or a table keyed by the peaks' ``chrom:start-end``.
    fasta : str, optional
        The records (FASTA input).
    peaks : PeakSource, optional
        Peaks in a genome instead; its ``negatives`` (None: none) are added
        at target 0.
    log1p : bool, default=False
        Regress on ``log(1 + target)``.
    """

    targets: str
    fasta: str | None = None
    peaks: PeakSource | None = None
    log1p: bool = False

    def __post_init__(self) -> None:
        if (self.fasta is None) == (self.peaks is None):
            raise InputError(
                "give the records of --targets as --fasta or as --bed peaks"
            )

    @property
    def files(self) -> tuple[str, ...]:
        """The input files (an output folder must not hold them)."""
        if self.peaks is None:
            return (self.fasta, self.targets)
        files = (self.peaks.bed, self.peaks.genome)
        return files + ((self.targets,) if os.path.isfile(self.targets) else ())


def _read(source: TargetSource, options: RunOptions, quiet: bool):
    """``(ids, X, y, peaks)``: the records and targets (`PeakTargets` or None)."""
    if source.peaks is not None:
        from .peak_targets import read_peak_targets

        p = source.peaks
        peaks = read_peak_targets(
            p.bed,
            p.genome,
            p.width,
            source.targets,
            source.log1p,
            quiet,
            p.negatives,
            options.seed,
        )
        return peaks.ids, peaks.seqs, peaks.y, peaks
    from ..io import read_targets

    ids, X, y = read_targets(
        source.fasta,
        source.targets,
        on_invalid="drop" if options.drop_invalid else "error",
        crop_length=options.crop,
        any_length=options.kernel != "wd",
        drop_short=options.drop_short,
    )
    if source.log1p:
        from .peak_targets import log1p_targets

        y = log1p_targets(y, source.targets)
    return ids, X, y, None


def _read_and_families(
    source: TargetSource, options: RunOptions, epsilon: float | None, quiet: bool
):
    """``(ids, codes, y, families, peaks)``: records, candidates, `PeakTargets`."""
    from .data import as_codes
    from .regression_search import regression_families, target_scale

    ids, X, y, peaks = _read(source, options, quiet)
    lengths = sorted({len(x) for x in X})
    if options.kernel == "auto" and len(lengths) > 1:
        inform("records of different lengths: the gapped k-mer model (gkm)")
    if family_of(options).position_free and (
        options.degree is not None or options.shift is not None or options.mismatches
    ):
        raise InputError("--degree, --shift and --mismatches apply to --kernel wd")
    solver, degree = _resolve_solver(options, len(y), lengths)
    fixed = {
        "degree": degree,
        "shift": options.shift,
        "mismatches": options.mismatches or None,
        "reverse_complement": options.reverse_complement,
        "l": options.gkm_l,
        "k": options.gkm_k,
        "C": options.C,
        "epsilon": epsilon,
    }
    families = regression_families(
        options.kernel,
        lengths[0] if len(lengths) == 1 else None,
        fixed,
        target_scale(y),
        select=options.grid is not False,
        threads=options.threads,
        solver=solver,
        n=len(y),
    )
    for _, template, grid in families:
        for setting in grid.settings():  # refuse a bad fixed value before any work
            clone_checked(template, {**setting, "C": grid.C[0]})
    codes = as_codes(X, "auto")  # records of different lengths as rows
    shown = lengths[0] if len(lengths) == 1 else f"{lengths[0]}-{lengths[-1]}"
    inform(f"read {len(y)} sequences of length {shown} with continuous targets")
    return list(ids), codes, y, families, peaks


def _resolve_solver(options: RunOptions, n: int, lengths: list[int]):
    """``(solver, degree)`` for ``n`` records, as for classifiers.

    `poimkit.run.options.resolve_solver`: the WD model's linear solver above
    `poimkit.run.options.KERNEL_MAX_SEQUENCES` records (or on request), with
    the largest degree whose exact k-mer table fits; the gkm model decides
    for itself (`GkmSVR`'s ``solver="auto"``).
    """
    from dataclasses import replace

    from .options import resolve_solver

    kernel = options.kernel
    if len(lengths) > 1 and kernel == "auto":
        kernel = position_free_family()
    resolved = resolve_solver(replace(options, kernel=kernel), n, lengths[-1])
    if resolved.solver == "linear" and family_of(resolved).streams:
        if options.mismatches or options.reverse_complement:
            raise InputError(
                "--mismatches and --reverse-complement apply to the kernel solver "
                "of the WD model (not --solver linear)"
            )
        return "linear", resolved.degree
    return resolved.solver, options.degree


def _selects(families: list) -> bool:
    """Whether an inner CV chooses among the families' candidates (more than one)."""
    return len(families) > 1 or families[0][2].size > 1


def _select_and_cross_validate(
    options: RunOptions,
    ids: list,
    codes: Any,
    y,
    families: list,
    progress: bool,
    motif_options: RunOptions | None = None,
):
    """The CV figures and the final model's unfitted template.

    Nested (`nested_regression`) when there is anything to choose, else
    `cv_regression` of the one candidate; ``cv=0`` skips the outer CV.
    ``motif_options``: compare with the motif models and stacks too.
    """
    from .crossval import outer_folds, split_text

    _, template, grid = families[0]
    split = None
    if options.cv:
        by_chrom = ids if options.cv_by == "chrom" else None
        split = outer_folds(y, options.cv, options.seed, by_chrom, _selects(families))
    if not _selects(families):
        model = clone_checked(template, {**grid.settings()[0], "C": grid.C[0]})
        cv = CVResult.none("pearson")
        if options.cv:
            cv = cv_regression(
                model,
                codes,
                y,
                options.cv,
                options.seed,
                progress,
                motif_options,
                split,
            )
    else:
        where = f"in {options.cv} folds and on all" if options.cv else "on all records"
        inform(f"choosing the parameters by inner CV {where}")
        cv, model = nested_regression(
            families,
            codes,
            y,
            options.cv,
            options.seed,
            options.threads,
            progress,
            motif_options,
            split,
        )
    if options.cv:
        inform(f"cross-validation in {split_text(cv)}")
    if cv.models:
        inform(f"chosen model: {cv.chosen_model} (its figures are the CV's)")
    if cv.selection is not None:
        from .summary import chosen_text

        selection = cv.selection
        inform(f"chosen by inner CV: {chosen_text(selection['chosen'], selection)}")
    return cv, model


def _with_split(options: RunOptions, source: TargetSource) -> RunOptions:
    """The options with the CV split resolved: whole chromosomes for peaks."""
    from dataclasses import replace

    cv_by = options.cv_by or ("chrom" if source.peaks is not None else "random")
    return replace(options, cv_by=cv_by)


def train_regression(
    path: str | os.PathLike,
    source: TargetSource,
    options: RunOptions,
    epsilon: float | None = None,
    progress: bool = False,
) -> tuple[Any, CVResult]:
    """Cross-validate a regressor, train it on all records and save it.

    Parameters
    ----------
    path : str or path-like
        The model file to write (negatives, if any, beside it).
    source : TargetSource
        The records and targets.
    options : RunOptions
        The model's options (a value given fixes it) and the CV's.
    epsilon : float, optional
        The SVR's tube half-width (default: chosen, as ``C``).
    progress : bool, default=False
        Progress bars on standard error.

    Returns
    -------
    model : WDKernelSVR or GkmSVR
        The fitted regressor.
    cv : CVResult
        Its cross-validation (`cv_regression`; no figures with ``cv=0``).
    """
    from .genome import write_negative_records

    options = _with_split(options, source)
    ids, codes, y, families, peaks = _read_and_families(
        source, options, epsilon, not progress
    )
    cv, model = _select_and_cross_validate(options, ids, codes, y, families, progress)
    model.fit(codes, y)
    model.save(path)
    inform(
        f"{type(model).__name__} with {int(model.n_support_.sum())} support vectors "
        f"written to {path}"
    )
    records = peaks.negative_records if peaks is not None else None
    written = write_negative_records(records, Path(path), beside=True)
    if written is not None:
        inform(f"negatives written beside it: {written}")
    return model, cv


def run_regression(
    out: str | os.PathLike,
    source: TargetSource,
    options: RunOptions,
    epsilon: float | None = None,
    force: bool = False,
    progress: bool | str = False,
) -> RunSummary:
    """A run folder of a regression: model, POIMs, motifs, figures and report.

    Writes, all or nothing (`poimkit.io.outdir.staged_directory`):
    ``model.npz``, ``poim.npz``, ``top_kmers.tsv``, ``motifs.meme``,
    ``sites.tsv`` (with each record's target), ``summary.json`` (with
    ``cv_pearson``, ``cv_spearman``, ``cv_r2`` and their ``_std``,
    ``_interval`` and ``_folds``, ``motifs`` and ``motifs_note``),
    ``figures/`` (the POIM figures and motif logos as a classification run
    has them, and ``predicted_vs_observed.png``, the held-out predictions,
    with ``cv`` > 0) and ``report.html``. Motifs (`regression_motifs`)
    only when the CV Pearson interval lies above 0.

    Parameters
    ----------
    out : str or path-like
        The output folder.
    source : TargetSource
        The records and targets.
    options : RunOptions
        The run's options.
    epsilon : float, optional
        The SVR's tube half-width (default: chosen, as ``C``).
    force : bool, default=False
        Replace an existing folder that poimkit made.
    progress : bool or "lines", default=False
        Bars on standard error, or a line per step (for a log).

    Returns
    -------
    RunSummary
        What the run found (``summary.json`` is its `RunSummary.to_json`).
    """
    job = RegressionJob(source, _with_split(options, source), epsilon)
    return run_job(out, job, force=force, progress=progress)


class RegressionJob(Job):
    """`run_regression`'s parts: records with targets, an SVR, motifs of the targets.

    Parameters
    ----------
    source : TargetSource
        The records and targets.
    options : RunOptions
        The run's options, the CV split resolved.
    epsilon : float or None
        The SVR's tube half-width (None: chosen, as ``C``).
    """

    def __init__(
        self, source: TargetSource, options: RunOptions, epsilon: float | None
    ) -> None:
        self.source = source
        self.options = options
        self.epsilon = epsilon
        self.files = source.files

    def read(self, timer: StepTimer, progress: bool | str) -> None:
        """The records, their targets and the candidate models."""
        from .poim_step import check_poim_memory

        with timer.step("read"):
            quiet = progress is not True
            read = _read_and_families(self.source, self.options, self.epsilon, quiet)
        self.ids, self.codes, self.y, self.families, self.peaks = read
        self.data = LabeledData([], self.codes, self.y, [], 0)
        check_poim_memory(self.data, self.options, self.families)

    def _selection_step(self) -> str | None:
        """The step that chooses the model: the CV's, the selection's, or none."""
        if self.options.cv:
            return "cross-validation"
        return "selection" if _selects(self.families) else None

    def steps(self) -> list[str]:
        """Selection or CV, training, POIM, motifs, outputs."""
        chosen = [self._selection_step()] if self._selection_step() else []
        return [*chosen, "training", "POIM", "motifs", "outputs"]

    def train(self, timer: StepTimer, progress: bool | str) -> tuple:
        """Choose by (nested) CV, then fit on every record."""
        options, step = self.options, self._selection_step()
        nested = options if options.max_motifs and options.cv else None
        with timer.step(step) if step else nullcontext():
            cv, model = _select_and_cross_validate(
                options,
                self.ids,
                self.codes,
                self.y,
                self.families,
                progress is True,
                nested,
            )
        with timer.step("training"):
            model.fit(self.codes, self.y)
        return model, cv

    def find_motifs(self, result: RunResult, timer: StepTimer) -> Found:
        """`regression_motifs` and their models."""
        from ..motifs.discovery import background_letters
        from .motif_model import final_models

        options, cv = self.options, result.cv
        with timer.step("motifs"):
            motifs, self.note = regression_motifs(
                result.poim, self.codes, self.y, cv, options.max_motifs, options.seed
            )
            letters = background_letters(result.background)
            models = final_models(result.model, motifs, self.data, letters, cv, options)
        return Found(motifs, *models)

    def write(self, staged: Path, result: RunResult) -> list:
        """Motif files and figures, negatives, the held-out predictions."""
        from .genome import write_negative_records

        figures = write_motif_outputs(
            staged, result.poim, result.found.motifs, self.ids, self.codes, self.y
        )
        if self.peaks is not None:
            write_negative_records(self.peaks.negative_records, staged)
        if result.cv.predictions is not None:
            plot_predictions(
                staged / LAYOUT.figures / "predicted_vs_observed.png",
                self.y,
                result.cv.predictions,
            )
            figures.insert(0, "predicted_vs_observed.png")
        return figures

    def summary(self, result: RunResult) -> RunSummary:
        """`build_regression_summary`, the peaks and the motif models."""
        from .motif_model import motif_model_summary
        from .summary import build_regression_summary

        found = result.found
        return build_regression_summary(
            self.source.files,
            self.data,
            result.model,
            result.poim,
            result.cv,
            cv_folds=self.options.cv,
            motifs=found.motifs,
            motifs_note=self.note,
            figures=result.figures,
            runtimes=result.runtimes,
            motif_model=motif_model_summary(found.explained, result.cv, self.y),
            peaks=None if self.peaks is None else self.peaks.description,
        )

    def write_report(self, path: Path, summary: RunSummary, figures: Path) -> None:
        """`poimkit.run.report.regression.write_regression_report`."""
        from .report.regression import write_regression_report

        write_regression_report(path, summary, figures)
