"""Regression from the command line: ``poimkit train --fasta F --targets T``.

`train_regression` reads records with a continuous target each
(`poimkit.io.read_targets`), cross-validates a `WDKernelSVR` or `GkmSVR`,
prints the CV Pearson, Spearman and R² (mean over folds +/- their standard
deviation) and writes the model trained on all records. The parameters not
given, and with ``--kernel auto`` the family, are chosen by an inner
cross-validation in every outer fold and on all records for the final model
(`nested_regression`; the candidates: `poimkit.run.regression_search`), as
for classifiers; ``--no-grid`` fixes them. `cv_regression` is the
cross-validation of one fixed model, `regression_scores` the three figures of
one fold.
"""

from __future__ import annotations

import argparse
import os
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError
from .console import StepTimer, bars, say
from .console import progress as progress_mode
from .data import LabeledData
from .options import RunOptions
from .regression_figures import (
    predicts_better_than_chance,
    regression_figures,
    regression_scores,
)
from .regression_outputs import plot_predictions, regression_motifs, write_motif_outputs

if TYPE_CHECKING:
    from ..svm.folds import FoldPlan

__all__ = [
    "clone_checked",
    "cv_regression",
    "make_regressor",
    "nested_regression",
    "predicts_better_than_chance",
    "regression_command",
    "regression_motifs",
    "regression_scores",
    "run_regression",
    "train_regression",
]


def make_regressor(
    kernel: str, params: dict[str, Any], threads: int | None = None
) -> Any:
    """An unfitted `WDKernelSVR` (``kernel="wd"``) or `GkmSVR` (``"gkm"``), checked.

    Parameters
    ----------
    kernel : {"wd", "gkm"}
    params : dict
        ``C``, ``epsilon`` and the kernel's own parameters (``degree``,
        ``shift``, ``mismatches``, ``reverse_complement`` for wd; ``l``,
        ``k``, ``reverse_complement`` for gkm); None means the default.
    threads : int, optional
        Threads for the kernel.

    Returns
    -------
    WDKernelSVR or GkmSVR
    """
    from ..svm import GkmSVR, WDKernelSVR

    given = {k: v for k, v in params.items() if v is not None}
    model = (GkmSVR if kernel == "gkm" else WDKernelSVR)(n_threads=threads, **given)
    model._check_params()
    return model


def cv_regression(
    model: Any,
    X: Any,
    y: np.ndarray,
    folds: int,
    seed: int = 0,
    progress: bool = False,
    motif_options: RunOptions | None = None,
    split: FoldPlan | None = None,
) -> dict[str, Any]:
    """K-fold CV of ``model``: each figure's mean over folds and its std.

    Parameters
    ----------
    model : regressor
        Cloned for every fold.
    X : numpy.ndarray or 1-D object array of code arrays
    y : numpy.ndarray of float
    folds : int
        At least 2 and at most ``len(y)``.
    seed : int
        Seed of the shuffled split.
    progress : bool
        A progress bar over the folds on standard error.
    motif_options : RunOptions, optional
        Also compare the SVM with the folds' motif models and stacks
        (`_cv_folds`).
    split : FoldPlan, optional
        The folds (`poimkit.run.crossval.outer_folds`, e.g. of whole
        chromosomes); default ``folds`` random ones.

    Returns
    -------
    dict
        ``cv_pearson``, ``cv_spearman``, ``cv_r2`` (the mean over folds),
        each with its ``..._std``, ``..._interval`` (95% Student-t interval
        of the mean, `poimkit.run.crossval.fold_interval`) and ``..._folds``;
        ``cv_predictions`` (the held-out prediction of every record) and
        ``out_of_fold_scores`` (the SVM's).
    """
    from .crossval import outer_folds, split_summary

    split = split or outer_folds(y, folds, seed)
    result = _cv_folds([model] * folds, X, y, split.folds, progress, motif_options)
    return {**result, **split_summary(split)}


def nested_regression(
    families: list,
    X: Any,
    y: np.ndarray,
    folds: int,
    seed: int = 0,
    threads: int | None = None,
    progress: bool = False,
    motif_options: RunOptions | None = None,
    split: FoldPlan | None = None,
) -> tuple[dict[str, Any], Any]:
    """Nested CV: the parameters (and family) chosen by an inner CV per fold.

    The outer folds are `cv_regression`'s; in each, and once on all records
    for the final model, `poimkit.svm.families.select_families` chooses the
    family and its parameters by the Pearson correlation of an inner CV,
    every kernel matrix computed once for all of them.

    Parameters
    ----------
    families : list of (str, regressor, Grid)
        From `poimkit.run.regression_search.regression_families`.
    X, y, folds, seed
        As in `cv_regression`; ``folds`` 0: the choice on all records only.
    threads : int, optional
        Threads fitting candidates at once.
    progress : bool
        Progress bars (inner fits, outer folds) on standard error.
    motif_options, split : RunOptions, FoldPlan, optional
        As in `cv_regression`; the inner folds hold out whole groups too
        where ``split`` has them.

    Returns
    -------
    cv : dict
        `cv_regression`'s figures (none with ``folds`` 0) and ``selection``
        (as classification's: the grid, the choice on all records with its
        inner Pearson correlation, each family's best, every fold's choice).
    model : regressor
        The final model's template, unfitted, with the chosen parameters.
    """
    from sklearn.base import clone

    from ..svm.families import select_families
    from .crossval import outer_folds, selection_summary, split_summary

    if folds:
        split = split or outer_folds(y, folds, seed)
    outer = split.folds if folds else []
    train_sets = [train for train, _ in outer] + [np.arange(y.size)]
    found = select_families(
        families,
        X,
        y,
        train_sets,
        random_state=seed,
        n_jobs=threads,
        progress=progress,
        groups=split.groups if folds else None,
    )
    templates = {name: template for name, template, _ in families}
    models = [
        clone(templates[s.family]).set_params(**s.selection.params) for s in found
    ]
    cv = {}
    if folds:
        cv = _cv_folds(models[:-1], X, y, outer, progress, motif_options)
        cv.update(split_summary(split))
    cv["selection"] = selection_summary(found[-1], found[:-1])
    return cv, models[-1]


def _cv_folds(
    models: list,
    X: Any,
    y: np.ndarray,
    split: list,
    progress: bool,
    motif_options: RunOptions | None = None,
):
    """Fit a clone of ``models[f]`` on fold f's training part; the figures.

    With ``motif_options``, every fold's motifs and motif model come from its
    training part (`poimkit.run.motif_model.fold_motif_model`) and the SVM,
    the motif model and the stack are compared
    (`poimkit.run.motif_model.compare_models`); the figures are then the
    chosen model's, ``out_of_fold_scores`` the SVM's.
    """
    from sklearn.base import clone
    from tqdm.auto import tqdm

    predictions = np.empty(len(y))
    explained = []
    for model, (train, test) in tqdm(
        list(zip(models, split, strict=True)),
        desc="cross-validation",
        unit="fold",
        disable=not progress,
        leave=False,
    ):
        fitted = clone(model).fit(X[train], y[train])
        predictions[test] = fitted.predict(X[test])
        if motif_options is not None:
            from .motif_model import fold_motif_model

            data = LabeledData([], X, y, [], 0)
            explained.append(fold_motif_model(fitted, data, train, motif_options))
    result = regression_figures(y, split, predictions)
    result["out_of_fold_scores"] = predictions
    if motif_options is not None:
        from .motif_model import compare_models

        compared = compare_models(
            X,
            y,
            split,
            explained,
            predictions,
            dict(result),
            regression_figures,
            "pearson",
        )
        result.update(compared.pop("chosen_figures"))
        result.update(compared)
    return result


def _refuse_classification_options(args: argparse.Namespace) -> None:
    """Options of ``train`` that do not apply to regression yet: one line each."""
    if args.pos is not None or args.neg is not None or args.labels is not None:
        raise InputError("--targets goes with --fasta (not --pos/--neg or --labels)")
    bed, genome = getattr(args, "bed", None), getattr(args, "genome", None)
    if args.fasta is not None and bed is not None:
        raise InputError("--targets takes --fasta or --bed (peaks), not both")
    if args.fasta is None and bed is None:
        raise InputError(
            "--targets needs --fasta, or --bed and --genome (the records the "
            "targets belong to)"
        )
    if bed is not None and not genome:
        raise InputError("--bed needs --genome")
    if getattr(args, "dask", None) is not None:
        raise InputError("--dask: regression reads its records in memory (no Dask)")
    if getattr(args, "loss", None) not in (None, "squared_hinge"):
        raise InputError(
            "--loss applies to classifiers: the linear regressors minimise the "
            "squared epsilon-insensitive loss"
        )
    if args.positive_label is not None:
        raise InputError("--positive-label applies to --labels, not --targets")
    if getattr(args, "compare", None) is not None:
        raise InputError("--compare: no motifs for regression runs yet")
    if getattr(args, "known", None) is not None:
        raise InputError(
            "--known tests classes (positives against negatives), not --targets"
        )


def _on_peaks(args: argparse.Namespace) -> bool:
    return getattr(args, "bed", None) is not None


def regression_inputs(args: argparse.Namespace) -> tuple:
    """The input files of a regression: FASTA and targets, or peaks and genome.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``train`` or ``run`` command line with ``--targets``.
    """
    if _on_peaks(args):
        files = (args.bed, args.genome)
        return files + ((args.targets,) if os.path.isfile(args.targets) else ())
    return (args.fasta, args.targets)


def regression_command(args: argparse.Namespace) -> int:
    """``poimkit train`` or ``poimkit run`` with ``--targets``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``train`` or ``run`` command line.

    Returns
    -------
    int
        The exit code (0).
    """
    from .._exit import EXIT_OK

    _refuse_classification_options(args)
    from .options import check_cv

    check_cv(args.cv)
    if args.command == "run":
        from ..outdir import check_output_folder

        check_output_folder(args.output, args.force, regression_inputs(args))
        run_regression(args)
    else:
        from ..outdir import check_writable

        check_writable(args.output)
        train_regression(args)
    return EXIT_OK


def _read_and_families(args: argparse.Namespace):
    """``(ids, codes, y, families, peaks)``: records, candidates, `PeakTargets`.

    ``peaks`` is None for FASTA input.
    """
    from ..io import read_targets
    from .data import as_codes
    from .regression_search import regression_families, target_scale

    if getattr(args, "bed", None):
        from .peak_targets import read_peak_targets

        peaks = read_peak_targets(
            args.bed,
            args.genome,
            args.width,
            args.targets,
            args.log1p,
            not bars(args),
            args.negatives,
            args.seed,
        )
        ids, X, y = peaks.ids, peaks.seqs, peaks.y
    else:
        peaks = None
        ids, X, y = read_targets(
            args.fasta,
            args.targets,
            on_invalid="drop" if args.drop_invalid else "error",
            crop_length=args.crop,
            any_length=args.kernel != "wd",
            drop_short=args.drop_short,
        )
        if args.log1p:
            from .peak_targets import log1p_targets

            y = log1p_targets(y, args.targets)
    lengths = sorted({len(x) for x in X})
    if args.kernel == "auto" and len(lengths) > 1:
        say(args, "records of different lengths: the gapped k-mer model (gkm)")
    if args.kernel == "gkm" and (
        args.degree is not None or args.shift is not None or args.mismatches
    ):
        raise InputError("--degree, --shift and --mismatches apply to --kernel wd")
    solver, degree = _resolve_solver(args, len(y), lengths)
    fixed = {
        "degree": degree,
        "shift": args.shift,
        "mismatches": args.mismatches or None,
        "reverse_complement": args.reverse_complement,
        "l": args.gkm_l,
        "k": args.gkm_k,
        "C": args.C,
        "epsilon": args.epsilon,
    }
    families = regression_families(
        args.kernel,
        lengths[0] if len(lengths) == 1 else None,
        fixed,
        target_scale(y),
        select=args.grid is not False,
        threads=args.threads,
        solver=solver,
        n=len(y),
    )
    for _, template, grid in families:
        for setting in grid.settings():  # refuse a bad fixed value before any work
            clone_checked(template, {**setting, "C": grid.C[0]})
    codes = as_codes(X, "gkm" if len(lengths) > 1 else "auto")
    shown = lengths[0] if len(lengths) == 1 else f"{lengths[0]}-{lengths[-1]}"
    say(args, f"read {len(y)} sequences of length {shown} with continuous targets")
    return list(ids), codes, y, families, peaks


def _resolve_solver(args: argparse.Namespace, n: int, lengths: list[int]):
    """``(solver, degree)`` for ``n`` records, as for classifiers.

    `poimkit.run.options.resolve_solver`: the WD model's linear solver above
    `poimkit.run.options.KERNEL_MAX_SEQUENCES` records (or on request), with
    the largest degree whose exact k-mer table fits; the gkm model decides
    for itself (`GkmSVR`'s ``solver="auto"``).
    """
    from .options import RunOptions, resolve_solver

    kernel = "gkm" if len(lengths) > 1 and args.kernel == "auto" else args.kernel
    options = RunOptions(
        degree=args.degree,
        shift=args.shift,
        solver=args.solver,
        kernel=kernel,
        mismatches=args.mismatches,
        reverse_complement=args.reverse_complement,
        gkm_l=args.gkm_l,
        gkm_k=args.gkm_k,
    )
    resolved = resolve_solver(options, n, lengths[-1])
    solver = resolved.solver
    if solver == "linear" and resolved.kernel != "gkm":
        if args.mismatches or args.reverse_complement:
            raise InputError(
                "--mismatches and --reverse-complement apply to the kernel solver "
                "of the WD model (not --solver linear)"
            )
        return "linear", resolved.degree
    return solver, args.degree


def clone_checked(template: Any, params: dict[str, Any]) -> Any:
    """A clone of ``template`` with ``params``, its parameters checked.

    Parameters
    ----------
    template : regressor
        Unfitted.
    params : dict
        Parameters to set.

    Returns
    -------
    regressor
        Unfitted.
    """
    from sklearn.base import clone

    model = clone(template).set_params(**params)
    model._check_params()
    return model


def _selects(families: list) -> bool:
    """Whether an inner CV chooses among the families' candidates (more than one)."""
    return len(families) > 1 or families[0][2].size > 1


def _select_and_cross_validate(
    args: argparse.Namespace, ids, codes: Any, y, families, motif_options=None
):
    """The CV figures (printed) and the final model's unfitted template.

    Nested (`nested_regression`) when there is anything to choose, else
    `cv_regression` of the one candidate; ``--cv 0`` skips the outer CV.
    ``motif_options``: compare with the motif models and stacks too.
    """
    progress = bars(args)
    _, template, grid = families[0]
    from .crossval import outer_folds

    split = None
    if args.cv:
        cv_by = getattr(args, "cv_by", None) or ("chrom" if _on_peaks(args) else "")
        by_chrom = ids if cv_by == "chrom" else None
        split = outer_folds(y, args.cv, args.seed, by_chrom, _selects(families))
    if not _selects(families):
        model = clone_checked(template, {**grid.settings()[0], "C": grid.C[0]})
        cv = (
            cv_regression(
                model, codes, y, args.cv, args.seed, progress, motif_options, split
            )
            if args.cv
            else {}
        )
    else:
        where = f"in {args.cv} folds and on all" if args.cv else "on all records"
        say(args, f"choosing the parameters by inner CV {where}")
        cv, model = nested_regression(
            families,
            codes,
            y,
            args.cv,
            args.seed,
            args.threads,
            progress,
            motif_options,
            split,
        )
    for name in ("cv_pearson", "cv_spearman", "cv_r2"):
        if name in cv:
            print(
                f"{name}\t{cv[name]:.4f}\t+/-\t{cv[name + '_std']:.4f}\t"
                f"({args.cv} folds)"
            )
    if args.cv:
        from .crossval import split_text

        say(args, f"cross-validation in {split_text(cv)}")
    if cv.get("models"):
        say(args, f"chosen model: {cv['chosen_model']} (the figures above are its)")
    if cv.get("selection") is not None:
        from .summary import chosen_text

        selection = cv["selection"]
        say(args, f"chosen by inner CV: {chosen_text(selection['chosen'], selection)}")
    return cv, model


def train_regression(args: argparse.Namespace) -> None:
    """``poimkit train --fasta F --targets T``: CV figures, then the model file.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``train`` command line (checked by `regression_command`).
    """
    from pathlib import Path

    from .genome import write_negative_records

    ids, codes, y, families, peaks = _read_and_families(args)
    _, model = _select_and_cross_validate(args, ids, codes, y, families)
    model.fit(codes, y)
    model.save(args.output)
    say(
        args,
        f"{type(model).__name__} with {int(model.n_support_.sum())} support vectors "
        f"written to {args.output}",
    )
    records = peaks.negative_records if peaks is not None else None
    written = write_negative_records(records, Path(args.output), beside=True)
    if written is not None:
        say(args, f"negatives written beside it: {written}")


def run_regression(args: argparse.Namespace) -> dict:
    """``poimkit run --fasta F --targets T``: a folder of model, POIMs and figures.

    Writes, all or nothing (`poimkit.outdir.staged_directory`):
    ``model.npz``, ``poim.npz``, ``top_kmers.tsv``, ``motifs.meme``,
    ``sites.tsv`` (with each record's target), ``summary.json`` (with
    ``cv_pearson``, ``cv_spearman``, ``cv_r2`` and their ``_std``,
    ``_interval`` and ``_folds``, ``motifs`` and ``motifs_note``),
    ``figures/`` (the POIM figures and motif logos as a classification run
    has them, and ``predicted_vs_observed.png``, the held-out predictions,
    with ``--cv`` > 0) and ``report.html``. Motifs (`regression_motifs`)
    only when the CV Pearson interval lies above 0.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``run`` command line (checked by `regression_command`).

    Returns
    -------
    dict
        The content of ``summary.json``.
    """
    from .._threads import numba_threads
    from ..motifs.discovery import background_letters
    from ..outdir import output_lock, staged_directory
    from .data import check_poim_memory, compute_run_poim
    from .genome import write_negative_records
    from .motif_model import final_models, motif_model_summary, save_motif_models
    from .report_regression import write_regression_report
    from .summary import build_regression_summary, save_results, write_summary

    inputs = regression_inputs(args)
    timer = StepTimer(lines=progress_mode(args) == "lines")
    with output_lock(args.output):
        with timer.step("read"):
            ids, codes, y, families, peaks = _read_and_families(args)
        data = LabeledData([], codes, y, [], 0)
        options = RunOptions(  # those of the POIM step
            max_order=args.max_order,
            background=args.background,
            markov_order=args.markov_order,
            threads=args.threads,
            memory_limit_gb=args.memory_limit,
            max_motifs=getattr(args, "max_motifs", 3),
            seed=args.seed,
        )
        check_poim_memory(data, options, families)
        nested = options if options.max_motifs and args.cv else None
        with (
            staged_directory(args.output, args.force, inputs) as staged,
            numba_threads(args.threads),
        ):
            step = "cross-validation" if args.cv else "selection"
            with timer.step(step) if args.cv or _selects(families) else nullcontext():
                cv, model = _select_and_cross_validate(
                    args, ids, codes, y, families, nested
                )
            with timer.step("training"):
                model.fit(codes, y)
            with timer.step("POIM"):
                poim, background = compute_run_poim(model, data, options, bars(args))
            with timer.step("motifs"):
                motifs, note = _regression_motifs(args, poim, codes, y, cv)
                explained, stack, chosen = final_models(
                    model, motifs, data, background_letters(background), cv, options
                )
            with timer.step("outputs"):
                save_results(staged, model, poim)
                save_motif_models(staged, explained, stack)
                figures = write_motif_outputs(staged, poim, motifs, ids, codes, y)
                if peaks is not None:
                    write_negative_records(peaks.negative_records, staged)
                if "cv_predictions" in cv:
                    plot_predictions(
                        staged / "figures" / "predicted_vs_observed.png",
                        y,
                        cv["cv_predictions"],
                    )
                    figures.insert(0, "predicted_vs_observed.png")
            summary = build_regression_summary(
                inputs,
                data,
                model,
                poim,
                cv,
                cv_folds=args.cv,
                motifs=motifs,
                motifs_note=note,
                figures=figures,
                runtimes=timer.with_total(),
            )
            if peaks is not None:
                summary.update(peaks.description)
            summary["motif_model"] = motif_model_summary(explained, cv, y)
            summary["chosen_model"] = chosen
            write_summary(staged, summary, write_regression_report)
    if "cv_pearson" in cv:
        say(args, f"cv_pearson {cv['cv_pearson']:.4f}; results in {args.output}")
    else:
        say(args, f"results in {args.output}")
    return summary


def _regression_motifs(args, poim, codes, y, cv) -> tuple[list, str]:
    """`regression_motifs` with the command line's settings."""
    return regression_motifs(
        poim, codes, y, cv, getattr(args, "max_motifs", 3), args.seed
    )
