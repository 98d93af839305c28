"""The tables of `bench_deep_grammar.py`."""

from __future__ import annotations

import numpy as np
from deep_grammar_design import (  # noqa: E402
    MOTIFS,
    PAIR_GAP,
)


def fmt(x, spec=".3f"):
    return (
        "n/a"
        if x is None or (isinstance(x, float) and not np.isfinite(x))
        else format(x, spec)
    )


def row(*cells) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def header(*names) -> list[str]:
    return [row(*names), "|" + "---|" * len(names)]


LABELS = {1: "positive", 0: "negative"}


def model_table(res: dict) -> list[str]:
    m, p = res["model"], res.get("poim")
    L = header("figure", "value", "goal")
    L.append(
        row(
            f"{m.get('name', 'CNN')} test AUROC ({res['data']['n_test']:,} held out)",
            f"**{m['test_auroc']:.3f}**",
            "well above GC",
        )
    )
    L.append(row("GC-only test AUROC", f"{m['gc_auroc']:.3f}", ""))
    trained = (
        f"loaded from {m['loaded']} (trained by an earlier run)"
        if "loaded" in m
        else f"{m['train_seconds']:.0f} s, {m['epochs_run']} epochs "
        f"(best {m['best_epoch']}, stopped: {m['stopped']})"
    )
    L.append(row(f"{m.get('name', 'CNN')} training", trained, ""))
    if p is None:
        return L
    L.append(
        row(
            f"sampled POIM ({p.get('estimator', 'inserted')}, length "
            f"{p['poim_length']}, {p.get('windows', 'all')} windows, order <= "
            f"{p['max_order']}, "
            f"{p['n_samples']} samples)",
            f"{p['poim_seconds']:.0f} s, {p['records']:,} records, "
            f"{p['forward_passes']:,} forward passes",
            "",
        )
    )
    L.append(
        row(
            "extract_motifs",
            f"{p['extract_seconds']:.0f} s, {len(p['motifs'])} motifs",
            "",
        )
    )
    return L + motif_tables(p, "poimkit's motifs")


def context_table(res: dict) -> list[str]:
    c = res.get("context_motifs")
    if c is None:
        return []
    L = [
        "",
        f"Motifs from attributions in context (`attribution_poim`: ISM of the "
        f"{c['n_positive']} training positives the model scores highest and the "
        f"{c['n_negative']} negatives it scores lowest, k-mers up to "
        f"{c['max_order']}; `extract_motifs` with the training records, "
        f"min_enrichment {c['min_enrichment']}):",
        "",
    ]
    L += header("step", "time", "records scored")
    L.append(row("ISM", f"{c['ism_seconds']:.0f} s", f"{c['records']:,}"))
    L.append(row("attribution_poim", f"{c['table_seconds']:.1f} s", "-"))
    L.append(
        row(
            "extract_motifs",
            f"{c['extract_seconds']:.0f} s",
            f"{len(c['motifs'])} motifs",
        )
    )
    return L + motif_tables(c, "the motifs from attributions")


def motif_tables(p: dict, what: str) -> list[str]:
    L: list[str] = []
    L += [
        "",
        f"Planted motifs against {what} (best match, either strand):",
        "",
    ]
    L += header(
        "planted",
        "found consensus",
        "mismatches",
        "class",
        "frac_pos / frac_neg",
        "q",
        "goal",
    )
    for name, truth in MOTIFS.items():
        b = p["planted"][name]
        f = b["found"] or {}
        goal = "(report): -"
        if name in "ABC":
            goal = "<= 1: " + ("met" if b["mismatches"] <= 1 else "missed")
        fracs = (
            f"{fmt(f.get('frac_positive'), '.2f')} / "
            f"{fmt(f.get('frac_negative'), '.2f')}"
        )
        L.append(
            row(
                f"{name} {truth}",
                f.get("consensus", "-"),
                b["mismatches"],
                LABELS.get(f.get("label"), "-"),
                fracs,
                fmt(f.get("q_value"), ".1e"),
                goal,
            )
        )
    L += ["", f"All of {what}:", ""]
    L += header(
        "motif",
        "consensus",
        "class",
        "frac_pos / frac_neg",
        "q",
        "closest planted (mismatches)",
    )
    for r in p["motifs"]:
        nearest = min(r["planted"].items(), key=lambda kv: kv[1])
        L.append(
            row(
                r["name"],
                r["consensus"],
                LABELS.get(r["label"], "-"),
                f"{fmt(r['frac_positive'], '.2f')} / {fmt(r['frac_negative'], '.2f')}",
                fmt(r["q_value"], ".1e"),
                f"{nearest[0]} ({nearest[1]})",
            )
        )
    return L


def interaction_table(res: dict, args) -> list[str]:
    L = [
        "",
        "Interaction maps (`motif_interactions`, length 200, distances "
        f"0-{args.max_distance}, 4 orientations, {args.int_samples} uniform "
        "backgrounds):",
        "",
    ]
    L += header(
        "pair",
        "peak (orient., d)",
        "I at peak (se)",
        "z at peak",
        "max abs z (where)",
        "cells abs z > 3",
        "time",
        "records",
        "goal",
    )
    goals = {"AB": "peak ++, d in 10-20", "DE": "no abs z beyond ~3", "AC": "(report)"}
    for key, goal in goals.items():
        r = res["interactions"].get(key)
        if r is None:
            continue
        pk = r["peak"]
        if key == "AB":
            ok = (
                pk["orientation"] == "++"
                and PAIR_GAP[0] <= pk["distance"] <= PAIR_GAP[1]
            )
        elif key == "DE":
            ok = r["max_abs_z"] <= 3.5
        else:
            ok = None
        L.append(
            row(
                f"{key[0]}-{key[1]}",
                f"{pk['orientation']}, {pk['distance']}",
                f"{pk['interaction']:.3f} ({pk['stderr']:.3f})",
                f"{pk['z']:.1f}",
                "{:.1f} ({}, {})".format(r["max_abs_z"], *r["max_abs_z_at"]),
                f"{r['n_abs_z_over_3']}/{r['n_cells']}",
                f"{r['seconds']:.0f} s",
                f"{r['records']:,}",
                goal + ("" if ok is None else (": met" if ok else ": missed")),
            )
        )
    ab = res["interactions"].get("AB")
    if ab is None:
        return L
    L += ["", "A-B interaction I(d) at orientation ++ (z in brackets):", ""]
    o = ab["orientations"].index("++")
    cells = []
    for j, d in enumerate(ab["distances"]):
        i, se = ab["interaction"][o][j], ab["stderr"][o][j]
        cells.append(f"{d}: {i:.2f} ({i / se if se > 0 else 0:.0f})")
    L += [", ".join(cells), ""]
    best_other = max(
        (max(abs(v) for v in ab["interaction"][k]), ab["orientations"][k])
        for k in range(len(ab["orientations"]))
        if ab["orientations"][k] != "++"
    )
    L.append(
        f"Largest |I| in another orientation: {best_other[0]:.3f} ({best_other[1]}); "
        f"A alone at the pair's place: {np.mean(ab['effect_a'][o]):+.3f}, "
        f"B alone: {np.mean(ab['effect_b'][o]):+.3f} (mean over distances, logit "
        "units)."
    )
    return L


def spacing_table(res: dict) -> list[str]:
    t, ab = res.get("tangermeme_spacing"), res["interactions"].get("AB")
    if t is None:
        return []
    L = ["", "A-B spacing, side by side on the same network:", ""]
    L += header(
        "method",
        "peak (orient., d)",
        "value at peak (se)",
        "time",
        "forward passes",
        "records",
    )
    if ab is not None:
        pk = ab["peak"]
        L.append(
            row(
                "poimkit `motif_interactions` (I)",
                f"{pk['orientation']}, {pk['distance']}",
                f"{pk['interaction']:.3f} ({pk['stderr']:.3f})",
                f"{ab['seconds']:.0f} s",
                f"{ab['forward_passes']:,}",
                f"{ab['records']:,}",
            )
        )
    sp, ip = t["space_peak"], t["interaction_peak"]
    L.append(
        row(
            "tangermeme `space` (pair effect)",
            f"{sp['orientation']}, {sp['distance']}",
            f"{sp['pair_effect']:.3f} ({sp['stderr']:.3f})",
            f"{t['space_seconds']:.0f} s",
            f"{t['space_cost']['forward_passes']:,}",
            f"{t['space_cost']['records']:,}",
        )
    )
    L.append(
        row(
            "tangermeme `space` + `marginalize` (I)",
            f"{ip['orientation']}, {ip['distance']}",
            f"{ip['interaction']:.3f} ({ip['stderr']:.3f})",
            f"{t['interaction_seconds']:.0f} s",
            f"{t['interaction_cost']['forward_passes']:,}",
            f"{t['interaction_cost']['records']:,}",
        )
    )
    return L


def attribution_table(res: dict) -> list[str]:
    a = res.get("attributions")
    if a is None:
        return []
    L = [
        "",
        f"Attributions of {a['n_records']} held-out positives, then modisco-lite "
        "(positive patterns; planted motif recovered if a pattern's trimmed consensus "
        "has <= 1 mismatch):",
        "",
    ]
    L += header(
        "route",
        "attribution time",
        "records scored",
        "modisco time",
        "patterns (+/-)",
        *MOTIFS,
    )
    dashes = ["-"] * len(MOTIFS)
    routes = (("ism", "poimkit ISM"), ("deep_lift_shap", "tangermeme deep_lift_shap"))
    for key, label in routes:
        r = a.get(key, {})
        mo = r.get("modisco")
        if "error" in r:
            last = r["error"].strip().splitlines()[-1][:120]
            L.append(row(label, f"error: {last}", "", "", "", *dashes))
            continue
        if mo is None:
            seconds, records = (
                f"{r.get('seconds', 0):.0f} s",
                f"{r.get('records', 0):,}",
            )
            L.append(row(label, seconds, records, "modisco error", "", *dashes))
            continue
        npos = sum(p["sign"] == "positive" for p in mo["patterns"])
        cells = []
        for n in MOTIFS:
            b = mo["planted"][n]
            found = b["found"]
            cells.append(f"{b['mismatches']} ({found['consensus']})" if found else "-")
        L.append(
            row(
                label,
                f"{r['seconds']:.0f} s",
                f"{r['records']:,}",
                f"{mo['seconds']:.0f} s",
                f"{npos}/{len(mo['patterns']) - npos}",
                *cells,
            )
        )
    d = a.get("deep_lift_shap", {})
    if d.get("warnings"):
        L += [
            "",
            f"deep_lift_shap raised {d['n_warnings']} warnings, e.g.: "
            f"`{d['warnings'][0][:240]}`",
        ]
    if "pearson_with_ism" in d:
        L.append(
            "Pearson correlation of the observed-letter attributions, ISM vs "
            f"DeepLIFT/SHAP: {d['pearson_with_ism']:.3f}."
        )
    return L


def report(res: dict, args) -> str:
    return "\n".join(
        model_table(res)
        + context_table(res)
        + interaction_table(res, args)
        + spacing_table(res)
        + attribution_table(res)
    )


# --------------------------------------------------------------------------- #
