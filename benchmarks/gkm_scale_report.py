"""The table and goals of ``bench_gkm_scale.py``'s report."""

from __future__ import annotations

from gkm_scale_config import (
    GOAL_FIT_S,
    GOAL_GIB,
    GOAL_N,
    GOAL_VS_KERNEL,
    GOAL_VS_ORACLE,
    LABELS,
)


# --------------------------------------------------------------------------- #
# report
# --------------------------------------------------------------------------- #
def _f(x, spec=".1f") -> str:
    return "-" if x is None else format(x, spec)


def _count(x) -> str:
    """n_iter_ / n_support_ as stored: an int, a list, or missing."""
    return "-" if x is None else str(x)


def table(cells: list[dict], oracle: dict) -> str:
    lines = [
        "| n | method | fit s (wall) | fit s (CPU) | score s | peak GiB | "
        "held-out AUC | n_iter | support vectors | note |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in cells:
        label = LABELS.get(c["method"], c["method"])
        if "auc" not in c:
            note = c.get("skipped") or c.get("error") or ""
            lines.append(f"| {c['n']} | {label} | - | - | - | - | - | - | - | {note} |")
            continue
        note = []
        if "estimated_seconds" in c:
            note.append(
                f"estimate {c['estimated_seconds']:.0f} s "
                f"from n={c['estimated_from_n']}"
            )
        if c.get("solver"):
            note.append(f"solver_ {c['solver']}")
        if c.get("converged") is False:
            note.append("NOT converged")
        note.append(f"before fit {c['peak_before_fit_gib']:.2f} GiB")
        lines.append(
            f"| {c['n']} | {label} | {c['fit_seconds']:.1f} | "
            f"{c['fit_cpu_seconds']:.1f} | {c['score_seconds']:.1f} | "
            f"{c['peak_gib']:.2f} | {c['auc']:.4f} | {_count(c.get('n_iter'))} | "
            f"{_count(c.get('n_support'))} | {'; '.join(note)} |"
        )
    for name, auc in oracle.items():
        lines.append(
            f"| - | {name} (true PWM, no training) | - | - | - | - | "
            f"{auc:.4f} | - | - | held-out set |"
        )
    return "\n".join(lines)


def _cell(cells, method, n):
    for c in cells:
        if c["method"] == method and c["n"] == n and "auc" in c:
            return c
    return None


def goals(cells: list[dict], oracle: dict) -> list[str]:
    lines = []
    lin = _cell(cells, "linear", GOAL_N)
    text = f"n={GOAL_N}: linear fit < {GOAL_FIT_S:.0f} s and < {GOAL_GIB:.0f} GiB"
    if lin is None:
        lines.append(f"NOT MEASURED {text}")
    else:
        ok = lin["fit_seconds"] < GOAL_FIT_S and lin["peak_gib"] < GOAL_GIB
        lines.append(
            f"{'PASS' if ok else 'FAIL'} {text}: {lin['fit_seconds']:.1f} s, "
            f"{lin['peak_gib']:.2f} GiB peak"
        )
    both = [
        (a, b)
        for a in cells
        if a["method"] == "linear" and "auc" in a
        for b in [_cell(cells, "kernel", a["n"])]
        if b is not None
    ]
    if not both:
        lines.append(
            f"NOT MEASURED linear AUC within {GOAL_VS_KERNEL} of kernel (no size "
            "where both ran)"
        )
    for a, b in both:
        diff = a["auc"] - b["auc"]
        ok = abs(diff) <= GOAL_VS_KERNEL
        lines.append(
            f"{'PASS' if ok else 'FAIL'} n={a['n']}: linear AUC within "
            f"{GOAL_VS_KERNEL} of kernel: {a['auc']:.4f} vs {b['auc']:.4f} "
            f"({diff:+.4f})"
        )
    best = max(oracle, key=oracle.get)
    for method in ("linear", "linear_cv"):
        cell = _cell(cells, method, GOAL_N)
        text = f"n={GOAL_N}: {method} AUC within {GOAL_VS_ORACLE} of the oracle"
        if cell is None:
            lines.append(f"NOT MEASURED {text}")
            continue
        diff = cell["auc"] - oracle[best]
        ok = diff >= -GOAL_VS_ORACLE
        lines.append(
            f"{'PASS' if ok else 'FAIL'} {text}: {cell['auc']:.4f} vs {best} "
            f"{oracle[best]:.4f} ({diff:+.4f})"
        )
    return lines
