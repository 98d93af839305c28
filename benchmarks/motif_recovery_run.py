"""One case of ``bench_motif_recovery.py``: train, extract, compare, time."""

from __future__ import annotations

import signal
import time
from contextlib import contextmanager
from pathlib import Path

from motif_recovery_cases import (
    Case,
    Data,
    KnownSignal,
)
from motif_recovery_config import (
    CROSSFIT_FOLDS,
    MAX_MODISCO_SEQS,
    MAX_MOTIFS,
    MODISCO,
    log,
)
from motif_recovery_judge import (
    compare,
)
from motif_recovery_methods import (
    background_for,
    extract_with_poimkit,
    ism_crossfit,
    modisco_found,
    modisco_patterns,
    poim_with_fallback,
    poimkit_found,
)


# --------------------------------------------------------------------------- #
# one case
# --------------------------------------------------------------------------- #
def run_case(case: Case, scale: float, args, scratch: Path) -> dict:
    log(f"{case.name}: building data")
    data = case.build(scale, scratch)
    X, y = data.X, data.y
    length = X.shape[1]
    out = {
        "case": case.name,
        "real": case.real,
        "near_chance": case.near_chance,
        "n_pos": int((y == 1).sum()),
        "n_neg": int((y == 0).sum()),
        "length": int(length),
        "truths": [_truth_row(t) for t in data.truths],
    }
    model = case.model(length)
    out["model"] = repr(model)
    log(f"{case.name}: training {type(model).__name__} on {len(y)} x {length}")
    t0 = time.perf_counter()
    model.fit(X, y)
    train_s = time.perf_counter() - t0
    log(f"{case.name}: POIM up to order {case.max_order}")
    t0 = time.perf_counter()
    background = background_for(case, X)
    poim, used_order = poim_with_fallback(
        model, min(case.max_order, length), background
    )
    poim_s = time.perf_counter() - t0
    out["max_order"] = used_order
    out["background"] = repr(background)
    out["train_seconds"] = train_s
    out["poim_seconds"] = poim_s

    log(f"{case.name}: extract_motifs")
    motifs, extract_s = extract_with_poimkit(poim, X, y)
    found = [poimkit_found(m) for m in motifs]
    result = {
        "found": [f.row() for f in found],
        "extract_seconds": extract_s,
        **compare(found, data.truths, case, length),
    }
    result["motif_share"] = extract_s / (train_s + poim_s + extract_s)
    result["motif_share_source"] = "extract / (train + POIM + extract)"
    if case.real and not args.quick and not args.no_pipeline:
        result.update(pipeline_share(case, data, scratch, used_order))
    out["poimkit"] = result

    if not args.no_modisco:
        out["modisco"] = run_modisco(case, model, data, args)
        out["modisco"].update(
            compare(out["modisco"].pop("_found"), data.truths, case, length)
        )
        total = train_s + out["modisco"]["ism_seconds"] + out["modisco"]["seconds"]
        out["modisco"]["motif_share"] = (
            out["modisco"]["ism_seconds"] + out["modisco"]["seconds"]
        ) / total
    return out


@contextmanager
def time_limit(seconds: float):
    """Raise TimeoutError in the main thread after ``seconds`` (0: no limit).

    modisco-lite's clustering ran for minutes on some seqlet sets (1545
    near-identical seqlets of a 30-nt set with target_seqlet_fdr 0.2); the
    alarm interrupts it at its next Python bytecode.
    """

    def expire(signum, frame):
        raise TimeoutError(f"modisco-lite exceeded {seconds:g} s")

    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_modisco(case: Case, model, data: Data, args) -> dict:
    X, y = data.X, data.y
    log(f"{case.name}: exact ISM")
    t0 = time.perf_counter()
    if args.ism_on == "train":
        X_pos = X[y == 1][:MAX_MODISCO_SEQS]
        ism = model.explicit_weights().mutagenesis(X_pos)
        source = "training positives"
    elif data.X_ism is not None:
        X_pos = data.X_ism[:MAX_MODISCO_SEQS]
        ism = model.explicit_weights().mutagenesis(X_pos)
        source = "held-out positives from the generator"
    else:
        X_pos, ism = ism_crossfit(case, X, y)
        source = f"out-of-fold ISM, {CROSSFIT_FOLDS} folds (fold training counted)"
    ism_s = time.perf_counter() - t0
    log(f"{case.name}: modisco-lite on {len(X_pos)} positives ({source})")
    t0 = time.perf_counter()
    error, settings, found = None, dict(MODISCO), []
    try:
        with time_limit(args.modisco_timeout):
            patterns, settings = modisco_patterns(X_pos, ism)
        found = [modisco_found(p) for p in patterns]
    except Exception as exc:  # report, do not stop the benchmark
        error = f"{type(exc).__name__}: {exc}"
        log(f"{case.name}: modisco failed: {error}")
    seconds = time.perf_counter() - t0
    return {
        "_found": found,
        "found": [f.row() for f in found],
        "n_sequences": int(len(X_pos)),
        "ism_input": source,
        "ism_seconds": ism_s,
        "seconds": seconds,
        "settings": settings,
        "error": error,
    }


def pipeline_share(case: Case, data: Data, scratch: Path, max_order: int) -> dict:
    """One `run_pipeline` (5-fold CV included): motifs / total seconds."""
    from poimkit.run import RunOptions, run_pipeline

    log(f"{case.name}: run_pipeline (5-fold CV) for the run-time share")
    options = RunOptions(
        max_order=max_order, max_motifs=MAX_MOTIFS, seed=0, **case.pipeline
    )
    pos, neg = data.files
    summary = run_pipeline(
        scratch / f"run_{case.name}", pos=pos, neg=neg, options=options, progress=False
    )
    runtimes = summary.runtimes
    return {
        "motif_share": runtimes["motifs"] / runtimes["total"],
        "motif_share_source": "run_pipeline runtimes motifs / total",
        "pipeline_runtimes": runtimes,
        "pipeline_cv_auc": summary.cv.figure(),
        "pipeline_motifs": [m.get("consensus") for m in summary.motifs],
    }


def _truth_row(truth) -> dict:
    if isinstance(truth, KnownSignal):
        return {
            "name": truth.name,
            "consensus": truth.consensus,
            "start_window": truth.start,
            "max_mismatches": truth.max_mismatches,
        }
    return {
        "consensus": truth.consensus,
        "position": truth.position,
        "spread": truth.spread,
        "mutation": truth.mutation,
        "reverse_complement": truth.reverse_complement,
        "in_positives": truth.in_positives,
        "in_negatives": truth.in_negatives,
    }
