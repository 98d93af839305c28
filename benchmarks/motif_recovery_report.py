"""The table and summary of ``bench_motif_recovery.py``'s report."""

from __future__ import annotations


# --------------------------------------------------------------------------- #
# report
# --------------------------------------------------------------------------- #
def _fmt(x, spec=".2f") -> str:
    return "-" if x is None else format(x, spec)


def truth_cell(result: dict, real: bool) -> str:
    parts = []
    for t in result["per_truth"]:
        b = t["best"]
        if b is None:
            parts.append(f"{t['truth']}: none")
            continue
        rc = " (rc)" if b["strand"] == "-" else ""
        where = (
            f"@{_fmt(b['implied_start'], '.1f')}"
            if real
            else f"dpos {_fmt(b['position_error'], '.1f')}"
        )
        verdict = (
            ("yes" if b["recovered"] else "no")
            if real
            else ("ok" if b["recovered"] else "miss")
        )
        parts.append(
            f"{t['truth']}→{b['consensus']} mm{b['mismatches']} "
            f"p={b['tomtom_p']:.1g} r{b['tomtom_rank']} {where}{rc} {verdict}"
        )
    return "; ".join(parts) or "(no planted motif)"


def table(results: list[dict]) -> str:
    lines = [
        "| case | method | found | truth → best match (mism, TOMTOM p, rank, "
        "position) | recovered | false | motif s | train s | POIM s | "
        "motif share of run time |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for method in ("poimkit", "modisco"):
            m = r.get(method)
            if m is None:
                continue
            found = ", ".join(f["consensus"] for f in m["found"]) or "(none)"
            if m.get("error"):
                found += f" [error: {m['error'][:60]}]"
            n = len(r["truths"])
            rec = f"{m['n_recovered']}/{n}" if n else "-"
            false = "-" if m["false_motifs"] is None else str(len(m["false_motifs"]))
            if method == "poimkit":
                secs = f"{m['extract_seconds']:.2f}"
            else:
                secs = f"{m['ism_seconds']:.1f}+{m['seconds']:.1f}"
            poim_s = f"{r['poim_seconds']:.2f}" if method == "poimkit" else "-"
            lines.append(
                f"| {r['case']} | {method} | {found} | "
                f"{truth_cell(m, r['real'])} | {rec} | {false} | {secs} | "
                f"{r['train_seconds']:.2f} | {poim_s} | "
                f"{100 * m['motif_share']:.0f}% |"
            )
    return "\n".join(lines)


def summary(results: list[dict]) -> dict:
    planted_cases = [r for r in results if not r["real"] and not r["near_chance"]]
    near = [r for r in results if r["near_chance"]]
    out = {
        "planted_cases": len(planted_cases),
        "poimkit_all_recovered": [
            r["case"] for r in planted_cases if r["poimkit"]["all_recovered"]
        ],
        "near_chance_cases": len(near),
        "near_chance_zero_poimkit_motifs": [
            r["case"] for r in near if not r["poimkit"]["found"]
        ],
        "near_chance_poimkit_false_motifs": {
            r["case"]: r["poimkit"]["false_motifs"] for r in near
        },
    }
    if any("modisco" in r for r in results):
        out["modisco_all_recovered"] = [
            r["case"]
            for r in planted_cases
            if "modisco" in r and r["modisco"]["all_recovered"]
        ]
        out["near_chance_zero_modisco_motifs"] = [
            r["case"] for r in near if "modisco" in r and not r["modisco"]["found"]
        ]
    return out


def summary_line(s: dict) -> str:
    n = s["planted_cases"]
    done = len(s["poimkit_all_recovered"])
    text = f"poimkit recovered all planted motifs in {done}/{n}"
    if "modisco_all_recovered" in s:
        text += f", modisco-lite in {len(s['modisco_all_recovered'])}/{n}"
    text += (
        f" planted cases; near-chance cases with zero poimkit motifs: "
        f"{len(s['near_chance_zero_poimkit_motifs'])}/{s['near_chance_cases']}"
    )
    if "near_chance_zero_modisco_motifs" in s:
        text += (
            f" (modisco-lite: {len(s['near_chance_zero_modisco_motifs'])}/"
            f"{s['near_chance_cases']})"
        )
    return text + "."
