"""The figures and tables of `bench_deep_models.py`: AUROC, bootstrap, goals."""

from __future__ import annotations

import time

import numpy as np
from deep_models_data import CTCF_CROP, SEED, gc_content, gc_matched

N_BOOT = 2000
#: the cost goal: windows of letters trained on in seconds
GOAL_WINDOWS, GOAL_LENGTH, GOAL_SECONDS = 15_000, 300, 600.0


def auc(y, s) -> float:
    """ROC AUC by the rank-sum (ties averaged): sklearn's figure, faster."""
    from scipy.stats import rankdata

    y = np.asarray(y)
    ranks = rankdata(np.asarray(s, dtype=float))
    n1 = int((y == 1).sum())
    n0 = y.size - n1
    return float((ranks[y == 1].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def hanley_se(a: float, y: np.ndarray) -> float:
    n1, n0 = int((y == 1).sum()), int((y == 0).sum())
    q1, q2 = a / (2 - a), 2 * a**2 / (1 + a)
    var = a * (1 - a) + (n1 - 1) * (q1 - a**2) + (n0 - 1) * (q2 - a**2)
    return float(np.sqrt(max(var, 0) / (n1 * n0)))


def boot_diff(y, s1, s2, seed: int = SEED, n: int = N_BOOT) -> dict:
    """Paired stratified bootstrap of AUC(s1) - AUC(s2)."""
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    diffs = np.empty(n)
    for b in range(n):
        rows = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
        diffs[b] = auc(y[rows], s1[rows]) - auc(y[rows], s2[rows])
    lo, hi = np.percentile(diffs, [2.5, 97.5])
    return {"diff": auc(y, s1) - auc(y, s2), "ci95": [float(lo), float(hi)]}


def evaluate(data: dict, results: dict) -> dict:
    y = data["test_y"]
    gc = gc_content(data["test_seqs"])
    matched = gc_matched(gc, y)
    ym = y[matched]
    figures = {
        "n_test": int(y.size),
        "n_test_pos": int((y == 1).sum()),
        "n_matched": int(matched.size),
        "gc_test_auc_raw": auc(y, gc),
        "gc_matched_auc_raw": auc(ym, gc[matched]),
        "models": {},
        "differences": {},
    }
    scores = {}
    for name, r in results.items():
        if "scores" not in r:
            continue
        s = np.asarray(r["scores"])
        scores[name] = s
        a, am = auc(y, s), auc(ym, s[matched])
        figures["models"][name] = {
            "auc": a,
            "auc_se": hanley_se(a, y),
            "auc_matched": am,
            "auc_matched_se": hanley_se(am, ym),
        }
    if "cnn" in scores:
        for other in ("gkm", "wd"):
            if other in scores:
                figures["differences"][f"cnn-{other}"] = {
                    "all": boot_diff(y, scores["cnn"], scores[other]),
                    "matched": boot_diff(
                        ym, scores["cnn"][matched], scores[other][matched]
                    ),
                }
    return figures


def gc_model(data: dict) -> dict:
    gc_tr = gc_content(data["train_seqs"])
    sign = 1.0 if auc(data["train_y"], gc_tr) >= 0.5 else -1.0
    t0 = time.perf_counter()
    scores = sign * gc_content(data["test_seqs"])
    return {
        "model": "gc",
        "sign": sign,
        "train_auc": auc(data["train_y"], sign * gc_tr),
        "scores": scores.tolist(),
        "fit_seconds": time.perf_counter() - t0,
        "n_train": int(data["train_y"].size),
        "n_train_pos": int((data["train_y"] == 1).sum()),
    }


LABELS = {
    "cnn": "CNNClassifier (defaults, n_threads=2)",
    "gkm": "GkmSVC (defaults, solver auto)",
    "wd": "WDKernelSVC (degree 20)",
    "gc": "GC content only",
}


def table(report: list[dict]) -> str:
    lines = [
        "| set | model | train (pos+neg) | test AUROC ± SE | GC-matched AUROC | "
        "fit s (wall) | fit CPU s | peak RSS MiB | parameters / SVs | note |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for entry in report:
        fig = entry["figures"]
        for name, r in entry["results"].items():
            f = fig["models"].get(name)
            n_tr = r.get("n_train")
            pos = r.get("n_train_pos")
            train = f"{pos}+{n_tr - pos}" if n_tr is not None else "-"
            if f is None:
                why = r.get("skipped") or (
                    "failed: " + r.get("error", "?").splitlines()[-1]
                )
                lines.append(
                    f"| {entry['set']} | {LABELS[name]} | {train} | - | - | - | - | - "
                    f"| - | {why} |"
                )
                continue
            note = []
            if name == "cnn":
                size = f"{r['n_parameters']:,} parameters"
                note.append(
                    f"{r['epochs_run']} epochs ({r['seconds_per_epoch']:.0f} s each), "
                    f"best {r['best_epoch']}, stopped by {r['stopped']}; "
                    "early stopping "
                    f"held out {', '.join(r['held_out_groups'])} "
                    f"({r['held_out_records']} records)"
                )
            elif name == "gc":
                size = "-"
                note.append(f"sign from training (train AUROC {r['train_auc']:.3f})")
            else:
                size = f"{r['n_sv']:,} SVs"
                if name == "gkm":
                    note.append(f"solver {r['solver']}, {r['n_iter']} iterations")
                if r.get("subsampled"):
                    note.append("trained on " + r["subsampled"])
            fit = f"{r['fit_seconds']:.1f}" if name != "gc" else "0"
            cpu = f"{r['fit_cpu_seconds']:.0f}" if "fit_cpu_seconds" in r else "-"
            mem = (
                f"{r['peak_rss_mib']:.0f} ({r['rss_before_fit_mib']:.0f} before fit)"
                if "peak_rss_mib" in r
                else "-"
            )
            lines.append(
                f"| {entry['set']} | {LABELS[name]} | {train} | {f['auc']:.4f} ± "
                f"{f['auc_se']:.4f} | {f['auc_matched']:.4f} | {fit} | {cpu} | {mem} | "
                f"{size} | {'; '.join(note)} |"
            )
    return "\n".join(lines)


def goals(report: list[dict]) -> tuple[list[str], dict]:
    lines, cost = [], {}
    for entry in report:
        fig = entry["figures"]["models"]
        kernels = {k: v for k, v in fig.items() if k in ("gkm", "wd")}
        if "cnn" not in fig or not kernels:
            continue
        best = max(kernels, key=lambda k: kernels[k]["auc"])
        d = entry["figures"]["differences"].get(f"cnn-{best}")
        lines.append(
            f"{entry['set']}: CNN held-out AUROC {fig['cnn']['auc']:.4f} "
            "vs best kernel "
            f"({best}) {kernels[best]['auc']:.4f}: difference {d['all']['diff']:+.4f} "
            f"(95 % CI {d['all']['ci95'][0]:+.4f}..{d['all']['ci95'][1]:+.4f}); "
            f"GC-matched {d['matched']['diff']:+.4f} "
            f"({d['matched']['ci95'][0]:+.4f}..{d['matched']['ci95'][1]:+.4f})"
        )
        if entry["set"] == "ctcf":
            r = entry["results"]["cnn"]
            n = r["n_train"]
            length = CTCF_CROP
            factor = GOAL_WINDOWS * GOAL_LENGTH / (n * length)
            est = r["fit_seconds"] * factor
            cost = {
                "ctcf_training_records": n,
                "ctcf_gradient_records": r["gradient_records"],
                "ctcf_fit_seconds": r["fit_seconds"],
                "ctcf_fit_cpu_seconds": r["fit_cpu_seconds"],
                "epochs_run": r["epochs_run"],
                "stopped": r["stopped"],
                "seconds_per_epoch": r["seconds_per_epoch"],
                "factor": factor,
                "extrapolated_seconds_same_epochs": est,
                "extrapolated_seconds_per_epoch": r["seconds_per_epoch"] * factor,
                "epochs_in_goal": GOAL_SECONDS / (r["seconds_per_epoch"] * factor),
            }
            lines.append(
                f"cost: CNN on CTCF ({n} training windows of {length} nt, "
                f"{r['gradient_records']} of them in gradient steps): "
                f"{r['fit_seconds']:.0f} s for {r['epochs_run']} epochs "
                f"({r['seconds_per_epoch']:.0f} s/epoch, stopped by "
                f"{r['stopped']}). EXTRAPOLATED linearly in letters to 1.5e4 x 300: "
                f"{est:.0f} s for the same epochs, "
                f"{r['seconds_per_epoch'] * factor:.0f} s per "
                f"epoch, i.e. {cost['epochs_in_goal']:.1f} epochs fit in 10 min "
                f"(goal < 600 s: {'met' if est < GOAL_SECONDS else 'not met'} "
                "at these epochs)"
            )
    return lines, cost
