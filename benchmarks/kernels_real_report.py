"""Tables and goals of ``bench_kernels_real.py``'s report."""

from __future__ import annotations

from kernels_real_config import (
    GOALS,
    POIMKIT,
    SCORE_SPEEDUP_GOAL,
)
from kernels_real_cv import (
    params_text,
)


# --------------------------------------------------------------------------- #
# report
# --------------------------------------------------------------------------- #
def _fmt(x, spec=".2f") -> str:
    return "-" if x is None else format(x, spec)


def table(results: list[dict]) -> str:
    lines = [
        "| data set | n (pos+neg) | length | method | CV AUC (mean ± sd) | "
        "fit s / fold | score s / fold | note |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        length = (
            str(r["length_min"])
            if r["length_min"] == r["length_max"]
            else f"{r['length_min']}-{r['length_max']}"
        )
        head = f"| {r['dataset']} | {r['n_pos']}+{r['n_neg']} | {length} |"
        for name, m in r["methods"].items():
            note = m.get("skipped") or m.get("error") or m.get("note") or ""
            if "auc_mean" not in m:
                lines.append(f"{head} {m['label']} | - | - | - | {note[:90]} |")
                continue
            auc = f"{m['auc_mean']:.4f} ± {m['auc_sd']:.4f}"
            if name == "oracle":
                note = f"AUC on all sequences {m['auc_all']:.4f}"
            elif m["n_folds_run"] < r["folds"]:
                auc += f" ({m['n_folds_run']}/{r['folds']} folds)"
            lines.append(
                f"{head} {m['label']} | {auc} | {_fmt(m.get('fit_seconds_mean'))} | "
                f"{_fmt(m.get('score_seconds_mean'))} | {note} |"
            )
    return "\n".join(lines)


def selection_lines(results: list[dict]) -> list[str]:
    """The cross_validate columns: fold AUCs and the parameters chosen in each."""
    lines = []
    for r in results:
        for name, m in r["methods"].items():
            if "same_folds" not in m:
                continue
            folds = "; ".join(
                f"{f['auc']:.4f} ({params_text(f['params'])})" for f in m["folds"]
            )
            lines.append(
                f"{r['dataset']} {name}: {m['seconds_total']:.1f} s, "
                f"{m['n_candidates']} candidates ({m['inner']} inner CV), "
                f"same folds {'yes' if m['same_folds'] else 'NO'}; fold AUC "
                f"(chosen): {folds}; on all sequences: "
                f"{params_text(m['final_params'] or {})}"
            )
    return lines


def speed_table(speed: dict) -> str:
    lines = [
        f"NFE2 speed ({speed['n_sequences']} sequences, from the cross-validation):",
        "",
        "| method | train n | kernel matrix s / fold | fit s / fold | "
        "score all s (fitted models) | score all s (second call) | "
        "load s + score all s (models read from files) | support vectors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for m in speed["methods"].values():
        extra = " (extrap.)" if m["score_extrapolated"] else ""
        loaded = "-"
        if m["score_loaded_all_seconds"] is not None:
            loaded = (
                f"{m['load_all_seconds']:.3f} + {m['score_loaded_all_seconds']:.3f}"
            )
        lines.append(
            f"| {m['label']} | {m['n_train_mean']:.0f} | {_fmt(m['gram_seconds'])} | "
            f"{m['fit_seconds']:.2f} | {m['score_all_seconds']:.3f}{extra} | "
            f"{_fmt(m['score_all_again_seconds'], '.3f')} | {loaded} | "
            f"{_fmt(m['n_support_mean'], '.0f')} |"
        )
    notes = [m["gram_note"] for m in speed["methods"].values() if m.get("gram_note")]
    lines += [""] + [f"poimkit kernel matrix: {n}" for n in notes]
    lines.append(
        "poimkit GkmSVC fit = kernel matrix + SVM + l-mer weight table; gkmsvm-lite "
        "fit = kernel matrix + SVM"
    )
    gkm = speed["methods"].get("gkm", {})
    if gkm.get("loaded_max_abs_diff") is not None:
        lines.append(
            "models read from files score as the fitted ones: max |diff| "
            f"{gkm['loaded_max_abs_diff']:.1e}"
        )
    for key, value in speed.items():
        if key.endswith(tuple(f"_vs_{p}" for p in ("gkmsvm", "gkmsvm_cnt"))):
            lines.append(f"{key}: {value:.1f}x")
    return "\n".join(lines)


def _best(r: dict, cols) -> dict:
    return {
        c: r["methods"][c]["auc_mean"]
        for c in cols
        if c in r["methods"] and "auc_mean" in r["methods"][c]
    }


def goals(results: list[dict], speed: dict | None) -> list[str]:
    lines = []
    for r in results:
        if r["dataset"] not in GOALS:
            continue
        only, target, text = GOALS[r["dataset"]]
        values = _best(r, only or POIMKIT)
        if not values:
            lines.append(f"{r['dataset']}: {text} >= {target}: no poimkit figure")
            continue
        got = ", ".join(f"{c} {v:.4f}" for c, v in values.items())
        best = max(values, key=values.get)
        verdict = "met" if values[best] >= target else "NOT met"
        lines.append(
            f"{r['dataset']}: {text} >= {target}: {got}; best {best} "
            f"{values[best]:.4f} -> {verdict}"
        )
    if speed is None or "gkm" not in speed["methods"]:
        return lines
    ours = speed["methods"]["gkm"]
    peers = [p for p in ("gkmsvm", "gkmsvm_cnt") if p in speed["methods"]]
    if not peers:
        return lines
    for what, key in (("kernel matrix", "gram"), ("fit", "fit")):
        ratios = {p: speed.get(f"{key}_speedup_vs_{p}") for p in peers}
        if any(v is None for v in ratios.values()):
            lines.append(f"nfe2: gkm {what} faster than gkmsvm-lite: not measured")
            continue
        theirs = ", ".join(
            f"{p} {speed['methods'][p][f'{key}_seconds']:.2f} s ({v:.1f}x)"
            for p, v in ratios.items()
        )
        verdict = "met" if min(ratios.values()) > 1 else "NOT met"
        lines.append(
            f"nfe2: gkm {what} per fold faster than gkmsvm-lite (l=11, k=7): poimkit "
            f"{ours[f'{key}_seconds']:.2f} s vs {theirs} -> {verdict}"
        )
    for what, key, seconds in (
        ("fitted models", "score", ours["score_all_seconds"]),
        ("models read from files", "score_loaded", ours["score_loaded_all_seconds"]),
    ):
        ratio = speed.get(f"{key}_speedup_vs_gkmsvm")
        if ratio is None:
            continue
        theirs = speed["methods"]["gkmsvm"]["score_all_seconds"]
        verdict = "met" if ratio >= SCORE_SPEEDUP_GOAL else "NOT met"
        lines.append(
            f"nfe2: scoring {speed['n_sequences']} sequences, {what}, "
            f">= {SCORE_SPEEDUP_GOAL:.0f}x faster than gkmsvm-lite: poimkit "
            f"{seconds:.3f} s vs {theirs:.2f} s = {ratio:.0f}x -> {verdict}"
        )
    return lines
