"""Cross-validation and timing of every column of ``bench_kernels_real.py``."""

from __future__ import annotations

import tempfile
import time
import traceback
from pathlib import Path

import numpy as np
from kernels_real_config import (
    GKM,
    ONLY,
    PILOT_TEST,
    PILOT_TRAIN,
    WARM_UP_PER_CLASS,
    log,
)
from kernels_real_data import Data, stratified_subset
from kernels_real_methods import Method, accepted_kwargs
from kernels_real_peers import GkmsvmLite
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold

import poimkit


# --------------------------------------------------------------------------- #
# cross-validation
# --------------------------------------------------------------------------- #
def fit_score(
    make, train: Data, test: Data, again: bool = False, reload: bool = False
) -> dict:
    """Fit, score the test set (timed), and with ``again`` score it once more.

    With ``reload`` (models with ``save`` / ``load``) the fitted model is also
    written to a file, read back (timed) and scores the test set again (timed:
    its first call, which rebuilds any table the file does not hold).
    """
    model = make()
    start = time.perf_counter()
    model.fit(train.seqs, train.y)
    fit_s = time.perf_counter() - start
    start = time.perf_counter()
    scores = np.asarray(model.decision_function(test.seqs), dtype=np.float64)
    score_s = time.perf_counter() - start
    again_s = None
    if again:  # a fitted model's second call (tables built on the first)
        start = time.perf_counter()
        model.decision_function(test.seqs)
        again_s = time.perf_counter() - start
    out = {
        "auc": float(roc_auc_score(test.y, scores)),
        "fit_seconds": fit_s,
        "score_seconds": score_s,
        "n_train": len(train.y),
        "n_test": len(test.y),
    }
    if again_s is not None:
        out["score_again_seconds"] = again_s
    if reload and hasattr(model, "save") and hasattr(type(model), "load"):
        with tempfile.TemporaryDirectory(prefix="bench-kernels-") as folder:
            path = Path(folder) / "model.npz"
            model.save(path)
            start = time.perf_counter()
            loaded = type(model).load(path)
            out["load_seconds"] = time.perf_counter() - start
            start = time.perf_counter()
            reread = np.asarray(loaded.decision_function(test.seqs), dtype=np.float64)
            out["score_loaded_seconds"] = time.perf_counter() - start
        out["loaded_max_abs_diff"] = float(np.abs(reread - scores).max())
    n_sv = getattr(model, "n_support_", None)
    if n_sv is not None:
        out["n_support"] = int(np.sum(n_sv))
    gram = getattr(model, "gram_seconds_", None)
    if gram is not None:
        out["gram_seconds"] = gram
    if isinstance(model, GkmsvmLite):
        out["gkmsvm_path"] = model.path_
    out["model"] = repr(model)
    return out


def pilot(method: Method, data: Data, train: np.ndarray, test: np.ndarray) -> dict:
    """One fold on a subset: seconds, and the full fold extrapolated.

    Fit ~ n_train^2 (Gram matrix), scoring ~ n_test * n_train (support vectors
    grow with the training set).
    """
    rng = np.random.default_rng(1)
    tr = train[stratified_subset(data.y[train], PILOT_TRAIN // 2, 1)]
    te = rng.permutation(test)[:PILOT_TEST]
    r = fit_score(method.make, data.subset(tr), data.subset(te))
    fit = r["fit_seconds"] * (len(train) / len(tr)) ** 2
    score = r["score_seconds"] * (len(test) / len(te)) * (len(train) / len(tr))
    return {
        "n_train": len(tr),
        "n_test": len(te),
        "fit_seconds": r["fit_seconds"],
        "score_seconds": r["score_seconds"],
        "estimated_fold_seconds": fit + score,
    }


def make_folds(y: np.ndarray, args) -> list[tuple[np.ndarray, np.ndarray]]:
    cv = StratifiedKFold(args.folds, shuffle=True, random_state=args.seed)
    return list(cv.split(np.zeros(len(y)), y))


def runnable(method: Method, data: Data) -> str | None:
    """Why the method cannot run on the data set, or None."""
    if method.make is None:
        return method.note
    if data.name in ONLY and method.name not in ONLY[data.name]:
        return f"not run on {data.name} (only {', '.join(ONLY[data.name])})"
    if method.needs_equal_lengths and not data.equal_lengths:
        return "needs equal lengths (data set has mixed lengths)"
    return None


def warm_up(method: Method, data: Data) -> float:
    """Untimed fit + score on a small subset (numba compiles or loads its cache)."""
    warm = data.subset(stratified_subset(data.y, WARM_UP_PER_CLASS, 2))
    start = time.perf_counter()
    fit_score(method.make, warm, warm)
    return time.perf_counter() - start


def pipeline_data(data: Data, kernel: str):
    """The `poimkit.run.data.LabeledData` that ``read_input`` builds from FASTA."""
    from poimkit.run.data import LabeledData, as_rows

    if kernel == "gkm":  # records of any lengths: a 1-D object array of codes
        X = as_rows([poimkit.encode([s])[0] for s in data.seqs])
    else:
        X = poimkit.encode(data.seqs)
    ids = [f"{data.name}_{i}" for i in range(len(data.y))]
    return LabeledData(ids, X, np.asarray(data.y), [], 0)


def run_pipeline_cv(method: Method, data: Data, folds, args) -> dict:
    """``poimkit run``'s cross-validation (nested selection) on the data set.

    An untimed call on a small subset first (numba compiles), then the timed
    call on all sequences; its fold AUCs are checked against the out-of-fold
    scores on this script's folds.
    """
    from poimkit.run import RunOptions
    from poimkit.run.crossval import cross_validate
    from poimkit.run.plan import make_plan

    options = RunOptions(**method.pipeline, cv=args.folds, seed=args.seed)
    warm = data.subset(stratified_subset(data.y, WARM_UP_PER_CLASS, 2))
    start = time.perf_counter()
    warm_data = pipeline_data(warm, options.kernel)
    cross_validate(warm_data, make_plan(warm_data, options))
    warm_s = time.perf_counter() - start
    full = pipeline_data(data, options.kernel)
    start = time.perf_counter()
    cv = cross_validate(full, make_plan(full, options))
    seconds = time.perf_counter() - start
    scores = cv.scores
    ours = [float(roc_auc_score(data.y[te], scores[te])) for _, te in folds]
    same = np.allclose(ours, cv.figure("folds"), atol=1e-6)
    sel = cv.selection or {}
    chosen = [f["params"] for f in sel.get("folds", [])] or [{}] * len(ours)
    inner = [f.get("inner_auc") for f in sel.get("folds", [])] or [None] * len(ours)
    corners = [f.get("corner", []) for f in sel.get("folds", [])] or [[]] * len(ours)
    results = [
        {"auc": a, "params": p, "inner_auc": i, "corner": c}
        for a, p, i, c in zip(ours, chosen, inner, corners, strict=True)
    ]
    n_candidates = int(np.prod([len(v) for v in sel.get("grid", {}).values()]))
    return {
        "warm_up_seconds": warm_s,
        "folds": results,
        **_summary(results, args.folds),
        "seconds_total": seconds,
        "same_folds": bool(same),
        "cv_auc": cv["cv_auc"],
        "cv_auc_interval": cv["cv_auc_interval"],
        "grid": sel.get("grid"),
        "n_candidates": n_candidates,
        "inner": sel.get("inner"),
        "final_params": sel.get("chosen"),
        "final_inner_auc": sel.get("inner_auc"),
        "note": (
            f"{seconds:.1f} s in all: {n_candidates} candidates, inner CV in "
            f"{args.folds} outer folds + on all sequences, {args.folds} refits"
            + ("" if same else "; FOLDS DIFFER from the other columns'")
        ),
    }


def params_text(params: dict) -> str:
    short = {"degree": "d", "shift": "s", "reverse_complement": "rc", "C": "C"}
    return " ".join(
        f"{short[k]}={v:g}" if isinstance(v, float) else f"{short[k]}={v}"
        for k, v in params.items()
        if k in short
    )


def plan_peer(method: Method, data: Data, folds, args, only: bool = False) -> dict:
    """Warm-up and pilot of a gkmsvm-lite column, with its estimated seconds.

    ``only``: the pilot alone (the column does not run on this data set).
    """
    entry = {}
    try:
        entry["warm_up_seconds"] = warm_up(method, data)
        entry["pilot"] = pilot(method, data, *folds[0])
    except Exception as exc:  # reported in the column
        entry["error"] = f"{type(exc).__name__}: {exc}"
        entry["traceback"] = traceback.format_exc()
        return entry
    per_fold = entry["pilot"]["estimated_fold_seconds"]
    entry["estimated_seconds"] = per_fold * args.folds
    entry["planned_folds"] = int(
        min(args.folds, max(1, method.budget // per_fold if per_fold else args.folds))
    )
    log(
        f"{data.name}: {method.name} pilot ({entry['pilot']['n_train']} train / "
        f"{entry['pilot']['n_test']} test sequences, "
        f"{entry['pilot']['fit_seconds'] + entry['pilot']['score_seconds']:.1f} s): "
        f"estimated {entry['estimated_seconds']:.0f} s for {args.folds} folds, "
        + (
            "not run (pilot only)"
            if only
            else f"budget {method.budget:.0f} s -> about {entry['planned_folds']} folds"
        )
    )
    return entry


def run_dataset(data: Data, folds, methods: list[Method], planned: dict, args) -> dict:
    y = data.y
    lengths = data.lengths
    out = {
        "dataset": data.name,
        "description": data.description,
        "n_pos": int((y == 1).sum()),
        "n_neg": int((y == 0).sum()),
        "length_min": int(lengths.min()),
        "length_max": int(lengths.max()),
        "n_lengths": len(set(lengths.tolist())),
        "folds": args.folds,
        "notes": list(data.notes),
        "methods": {},
    }
    log(
        f"{data.name}: {out['n_pos']}+{out['n_neg']} sequences, lengths "
        f"{out['length_min']}-{out['length_max']}, {args.folds} folds"
    )
    if data.oracle is not None:
        scores = data.oracle(data.seqs)
        aucs = [float(roc_auc_score(y[te], scores[te])) for _, te in folds]
        out["methods"]["oracle"] = {
            "label": "oracle (true likelihood ratio)",
            "folds": [{"auc": a} for a in aucs],
            "auc_all": float(roc_auc_score(y, scores)),
            **_summary([{"auc": a} for a in aucs], args.folds),
        }
    for method in methods:
        entry = {"label": method.label, "note": method.note}
        out["methods"][method.name] = entry
        reason = runnable(method, data)
        if reason:
            entry["skipped"] = reason
            pilot_only = planned.get(method.name, {})
            if "estimated_seconds" in pilot_only:
                entry.update(pilot_only)
                entry["skipped"] += (
                    f"; pilot estimate {pilot_only['estimated_seconds']:.0f} s for "
                    f"{args.folds} folds"
                )
            continue
        if method.pipeline is not None:
            log(f"{data.name}: {method.name} (cross_validate, nested selection)")
            try:
                entry.update(run_pipeline_cv(method, data, folds, args))
                log(
                    f"{data.name}: {method.name} AUC {entry['auc_mean']:.4f} "
                    f"± {entry['auc_sd']:.4f} ({entry['seconds_total']:.1f} s), "
                    "chosen: "
                    + "; ".join(params_text(f["params"]) for f in entry["folds"])
                )
            except Exception as exc:  # report, do not stop the benchmark
                entry["error"] = f"{type(exc).__name__}: {exc}"
                entry["traceback"] = traceback.format_exc()
                log(f"{data.name}: {method.name} failed: {entry['error']}")
            continue
        if method.peer:
            entry.update(planned.get(method.name, {}))
            if "error" in entry:
                continue
        try:
            if not method.peer:
                entry["warm_up_seconds"] = warm_up(method, data)
            n_run = args.folds
            results = []
            spent = 0.0
            for i, (train, test) in enumerate(folds):
                if method.peer and i > 0:
                    per_fold = spent / i
                    if spent + per_fold > method.budget:
                        n_run = i
                        break
                log(f"{data.name}: {method.name} fold {i + 1}/{args.folds}")
                start = time.perf_counter()
                results.append(
                    fit_score(
                        method.make,
                        data.subset(train),
                        data.subset(test),
                        again=not method.peer,
                        reload=method.name == "gkm",
                    )
                )
                spent += time.perf_counter() - start
            entry["folds"] = results
            entry.update(_summary(results, args.folds))
            if n_run < args.folds:
                entry["note"] = (
                    f"{n_run} of {args.folds} folds (budget {method.budget:.0f} s; "
                    f"all folds estimated {spent / n_run * args.folds:.0f} s)"
                )
            elif method.peer:
                entry["note"] = (
                    f"pilot estimate {entry['estimated_seconds']:.0f} s, "
                    f"ran {spent:.0f} s"
                )
            log(
                f"{data.name}: {method.name} AUC {entry['auc_mean']:.4f} "
                f"± {entry['auc_sd']:.4f} ({n_run} folds, {spent:.1f} s)"
            )
        except Exception as exc:  # report, do not stop the benchmark
            entry["error"] = f"{type(exc).__name__}: {exc}"
            entry["traceback"] = traceback.format_exc()
            log(f"{data.name}: {method.name} failed: {entry['error']}")
    return out


def _summary(results: list[dict], n_folds: int) -> dict:
    aucs = np.array([r["auc"] for r in results])
    out = {
        "n_folds_run": len(results),
        "auc_mean": float(aucs.mean()),
        "auc_sd": float(aucs.std(ddof=1)) if len(aucs) > 1 else 0.0,
    }
    if results and "fit_seconds" in results[0]:
        for key in (
            "fit_seconds",
            "score_seconds",
            "score_again_seconds",
            "load_seconds",
            "score_loaded_seconds",
            "gram_seconds",
        ):
            if all(key in r for r in results):
                out[f"{key}_mean"] = float(np.mean([r[key] for r in results]))
        out["seconds_total"] = float(
            sum(r["fit_seconds"] + r["score_seconds"] for r in results)
        )
        scored = sum(r["n_test"] for r in results)
        out["score_seconds_per_1000"] = (
            1000 * sum(r["score_seconds"] for r in results) / scored
        )
    return out


# --------------------------------------------------------------------------- #
# speed (from the NFE2 cross-validation)
# --------------------------------------------------------------------------- #
def speed_section(result: dict, data: Data, args) -> dict:
    n_all = len(data.y)
    out = {"n_sequences": n_all, "methods": {}}
    for name, m in result["methods"].items():
        if "folds" not in m or "fit_seconds" not in m["folds"][0]:
            continue  # oracle, cross_validate columns: no per-fold times
        runs = m["folds"]
        scored = sum(r["n_test"] for r in runs)

        def total(key, runs=runs, scored=scored):
            if not all(key in r for r in runs):
                return None
            return sum(r[key] for r in runs) * n_all / scored

        out["methods"][name] = {
            "label": m["label"],
            "n_train_mean": float(np.mean([r["n_train"] for r in runs])),
            "gram_seconds": m.get("gram_seconds_mean"),
            "fit_seconds": m["fit_seconds_mean"],
            "score_all_seconds": total("score_seconds"),
            "score_all_again_seconds": total("score_again_seconds"),
            "load_all_seconds": total("load_seconds"),
            "score_loaded_all_seconds": total("score_loaded_seconds"),
            "loaded_max_abs_diff": max(
                (r["loaded_max_abs_diff"] for r in runs if "loaded_max_abs_diff" in r),
                default=None,
            ),
            "score_extrapolated": scored != n_all,
            "n_support_mean": float(
                np.mean([r.get("n_support", np.nan) for r in runs])
            ),
        }
    gram = poimkit_gkm_gram(data, args)
    if gram is not None and "gkm" in out["methods"]:
        out["methods"]["gkm"]["gram_seconds"] = gram.get("seconds")
        out["methods"]["gkm"]["gram_note"] = gram.get("note")
    ours = out["methods"].get("gkm")
    for peer in ("gkmsvm", "gkmsvm_cnt"):
        theirs = out["methods"].get(peer)
        if ours and theirs:
            out[f"score_speedup_vs_{peer}"] = (
                theirs["score_all_seconds"] / ours["score_all_seconds"]
            )
            if ours["score_all_again_seconds"]:
                out[f"score_again_speedup_vs_{peer}"] = (
                    theirs["score_all_seconds"] / ours["score_all_again_seconds"]
                )
            if ours["score_loaded_all_seconds"]:
                out[f"score_loaded_speedup_vs_{peer}"] = (
                    theirs["score_all_seconds"] / ours["score_loaded_all_seconds"]
                )
                out[f"load_and_score_speedup_vs_{peer}"] = theirs[
                    "score_all_seconds"
                ] / (ours["load_all_seconds"] + ours["score_loaded_all_seconds"])
            out[f"fit_speedup_vs_{peer}"] = theirs["fit_seconds"] / ours["fit_seconds"]
            if ours.get("gram_seconds") and theirs.get("gram_seconds"):
                out[f"gram_speedup_vs_{peer}"] = (
                    theirs["gram_seconds"] / ours["gram_seconds"]
                )
    return out


def poimkit_gkm_gram(data: Data, args) -> dict | None:
    """Time poimkit's gkm kernel matrix on the first training fold, if public."""
    fn = None
    for owner in (poimkit, getattr(poimkit, "kernels", None)):
        fn = fn or getattr(owner, "gkm_kernel", None)
    if fn is None:
        return {"note": "no public gkm kernel function (fit time only)"}
    train, _ = make_folds(data.y, args)[0]
    seqs = [data.seqs[i] for i in train]
    kwargs, dropped = accepted_kwargs(fn, **{k: v for k, v in GKM.items() if k != "C"})
    try:
        fn(seqs[:20], **kwargs)  # compile
        start = time.perf_counter()
        fn(seqs, **kwargs)
        seconds = time.perf_counter() - start
    except Exception as exc:
        return {"note": f"{fn.__module__}.{fn.__name__} failed: {exc}"}
    note = f"{fn.__module__}.{fn.__name__}({kwargs})"
    if dropped:
        note += f", lacks {dropped}"
    return {"seconds": seconds, "note": note}
