"""Benchmark: gkm SVMs at ENCODE scale, time, memory and AUC against n (issue 27).

Data (ChIP-like, planted, seeded): record lengths uniform on 200-300, i.i.d.
background with GC 0.42; a degenerate 12-column PWM (NFE2 / AP-1-like,
consensus ``ATGCTGAGTCAT``, about 1.27 bits per column, see `PWM`) planted
once at a uniform start on either strand (probability 1/2 each) in 60 % of
the positives and 3 % of the negatives (`poimkit.datasets.make_motif_data`
per record length, copies drawn from the PWM without further mutation).
Training sets are balanced; records come in seeded chunks of 5000 + 5000, so the
first records of a larger set are those of the smaller sets (a prefix). One
held-out set of 4000 records (2000 + 2000, its own seed) scores every cell.

Oracles (no training, on the held-out set): ``oracle_max``, the PWM scan,
max over all starts and both strands of the true PWM's log-odds against the
background; ``oracle_lr``, the log of the mean over starts and strands of the
likelihood ratio (the generator's true likelihood ratio is a monotone
function of it: the best AUC any model can reach).

Methods (``--methods``):

* ``linear``: ``poimkit.GkmSVC(l=11, k=7, reverse_complement=True, C=1,
  solver="linear")`` at every size; "not available" while GkmSVC has no
  ``solver`` parameter (or the fit rejects it);
* ``linear_cv``: the model ``poimkit run`` trains by default: strands and C
  chosen by the inner CV (`poimkit.svm.selection.select_parameters` with
  ``gkm_grid(linear=True)``: both strand settings, C in 0.01, 0.1, 1, one
  holdout split of a 5000-record sample above 3000 records), then the linear
  solver on all records; its fit time includes the selection;
* ``kernel``: the same as ``linear`` with ``solver="kernel"`` (today's
  GkmSVC without the parameter), the n x n kernel matrix;
* ``gkmsvm``: gkmsvm-lite 0.1.0 (LS-GKM's Python port, the ``bench`` extra)
  with the defaults of ``train_gkmsvm`` (kernel ``gkm_esttrunc``, l = 11,
  k = 7, d = 3, both strands, normalised, C = 1), its exact mode: the full
  Gram matrix and scikit-learn's SVC, through the library's kernel object per
  pair of length groups (`kernels_real_peers.GkmsvmLite`: ``train_gkmsvm``
  needs equal lengths);
* ``gkmsvm_nystrom``: its Nystrom mode (``train_gkmsvm(solver="nystrom")``,
  ``gkmsvm.train._fit_nystrom``) re-done here for mixed lengths with the same
  steps: ``min(N, max(1000, int(10 sqrt(N))))`` landmarks drawn by
  ``RandomState(42)``, K_mm and K_nm, features ``K_nm U Lambda^-1/2`` (small
  eigenvalues dropped as there), the approximated N x N Gram matrix, SVC,
  and scoring by the exact kernel against the support vectors (below 1000
  records every record is a landmark: the exact model, computed twice).

Every (method, n) cell runs in a fresh subprocess that generates the data
from the seed, fits once untimed on 20 + 20 records (numba compiles or loads
its cache), then times ``fit`` (wall and CPU seconds of the process, all
threads) and ``decision_function`` on the held-out set, and reports the
process's peak resident memory (``VmHWM``; also the peak before the fit,
i.e. the data and the libraries). The quadratic methods (kernel, gkmsvm,
gkmsvm_nystrom) first get an estimate: from the largest cell of the method
already run, else from a pilot cell at ``--pilot-n`` records (scored on
``--pilot-test`` records): fit ~ kernel values computed (n^2; Nystrom
m^2 / 2 + n m for m landmarks) and scoring ~ n (support vectors) x held-out
records; a cell whose estimate exceeds ``--budget`` seconds, or
whose n x n matrices would not fit in the available memory, is not run and
gets a "skipped" row. A cell that runs is stopped after twice the budget.

Goals (issue 27), printed as PASS / FAIL: at 5e4 records the linear fit
takes < 10 min and < 8 GiB (peak of the whole child process); held-out AUC
of linear within 0.01 of kernel wherever both ran; within 0.02 of the oracle
(the better of the two) at 5e4.

Output: a markdown table on stdout and JSON (``--out``, default
benchmarks/gkm_scale.json, gkm_scale_quick.json with --quick), rewritten
after every cell.

    python benchmarks/bench_gkm_scale.py                  # everything (hours)
    python benchmarks/bench_gkm_scale.py --quick          # smoke test, minutes
    python benchmarks/bench_gkm_scale.py --sizes 2e3 1e4 5e4 --methods linear,kernel
    python benchmarks/bench_gkm_scale.py --sizes 2e3 --plan-only   # pilots only
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _p in (str(ROOT), str(HERE)):  # a checkout without installing; the sibling
    if _p not in sys.path:
        sys.path.insert(0, _p)
from gkm_scale_cells import (  # noqa: E402
    available_gib,
    child,
    estimate,
    gram_gib,
    run_cell,
    solver_available,
)
from gkm_scale_config import (  # noqa: E402  # noqa: E402
    BUDGET,
    GC,
    GKM,
    IN_NEGATIVES,
    IN_POSITIVES,
    LENGTHS,
    METHODS,
    N_TEST,
    PILOT_N,
    PILOT_TEST,
    PWM,
    QUADRATIC,
    QUICK_PILOT_N,
    QUICK_PILOT_TEST,
    QUICK_SIZES,
    QUICK_TEST,
    SIZES,
    START,
    log,
)
from gkm_scale_data import oracle_scores, pwm_bits, test_data  # noqa: E402
from gkm_scale_report import goals, table  # noqa: E402


# --------------------------------------------------------------------------- #
def parse_sizes(text: list[str]) -> list[int]:
    return [int(float(s)) for s in text]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument(
        "--sizes",
        nargs="+",
        help=f"training records (default {' '.join(map(str, SIZES))}; "
        f"{' '.join(map(str, QUICK_SIZES))} with --quick)",
    )
    parser.add_argument(
        "--methods", default=",".join(METHODS), help="comma-separated subset"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"sizes {QUICK_SIZES}, {QUICK_TEST} held-out records, pilots at "
        f"{QUICK_PILOT_N}",
    )
    parser.add_argument("--n-test", type=int, help=f"held-out records ({N_TEST})")
    parser.add_argument(
        "--budget",
        type=float,
        default=BUDGET,
        help="seconds per cell (fit + scoring) for the quadratic methods",
    )
    parser.add_argument("--pilot-n", type=int, help=f"pilot records ({PILOT_N})")
    parser.add_argument(
        "--pilot-test", type=int, help=f"pilot held-out records ({PILOT_TEST})"
    )
    parser.add_argument(
        "--plan-only",
        action="store_true",
        help="run the pilots and print every cell's estimate, run no cell",
    )
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--out", type=Path, help="JSON file")
    parser.add_argument("--child", choices=METHODS, help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        args.method = args.child
        child(args)
        return 0

    from kernels_real_peers import gkmsvm, gkmsvm_defaults
    from run_info import jsonable, machine, versions
    from sklearn.metrics import roc_auc_score

    sizes = sorted(
        parse_sizes(args.sizes) if args.sizes else QUICK_SIZES if args.quick else SIZES
    )
    n_test = args.n_test or (QUICK_TEST if args.quick else N_TEST)
    pilot_n = args.pilot_n or (QUICK_PILOT_N if args.quick else PILOT_N)
    pilot_test = args.pilot_test or (QUICK_PILOT_TEST if args.quick else PILOT_TEST)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = set(methods) - set(METHODS)
    if unknown:
        parser.error(f"unknown method(s) {sorted(unknown)}; known: {METHODS}")
    path = args.out or HERE / (
        "gkm_scale_quick.json" if args.quick else "gkm_scale.json"
    )
    command = "python benchmarks/bench_gkm_scale.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    load_start = os.getloadavg()

    log(f"held-out set: {n_test} records, oracles")
    test, yt = test_data(n_test, args.seed)
    oracle = {
        name: float(roc_auc_score(yt, s)) for name, s in oracle_scores(test).items()
    }
    log(f"oracle AUC: {oracle}")
    no_solver = solver_available()
    no_peer = None if gkmsvm is not None else "not available: gkmsvm-lite not installed"

    cells: list[dict] = []
    pilots: dict[str, dict] = {}
    document = {
        "benchmark": "gkm_scale",
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "command": command.strip(),
        "settings": {
            "sizes": sizes,
            "methods": methods,
            "n_test": n_test,
            "budget_seconds": args.budget,
            "pilot_n": pilot_n,
            "pilot_test": pilot_test,
            "seed": args.seed,
            "lengths": LENGTHS,
            "gc": GC,
            "pwm": PWM.tolist(),
            "pwm_bits_per_column": pwm_bits(),
            "in_positives": IN_POSITIVES,
            "in_negatives": IN_NEGATIVES,
            "gkm_params": GKM,
            "gkmsvm_defaults": gkmsvm_defaults() if no_peer is None else None,
            "quick": args.quick,
            "plan_only": args.plan_only,
        },
        "machine": machine(),
        "versions": versions("gkmsvm-lite", "scipy"),
        "load_average_start": load_start,
        "oracle_auc": oracle,
        "pilots": pilots,
        "cells": cells,
    }

    def save() -> None:
        document["total_seconds"] = time.perf_counter() - START
        document["load_average_end"] = os.getloadavg()
        path.write_text(json.dumps(jsonable(document), indent=1) + "\n")

    for n in sizes:
        for method in methods:
            cell = {"method": method, "n": n}
            reason = None
            if method.startswith("linear"):
                reason = no_solver
            if method.startswith("gkmsvm"):
                reason = no_peer
            if reason is None and method in QUADRATIC:
                need, have = gram_gib(method, n), available_gib()
                ref = [c for c in cells if c["method"] == method and "auc" in c]
                if have is not None and need > 0.9 * have:
                    reason = (
                        f"skipped: needs ~{need:.0f} GiB for n x n matrices > "
                        f"{have:.0f} GiB available"
                    )
                else:
                    if not ref and method not in pilots:
                        log(f"{method}: pilot at n={pilot_n}, {pilot_test} held out")
                        pilots[method] = run_cell(method, pilot_n, pilot_test, args)
                        log(f"{method}: pilot {pilots[method]}")
                        save()
                    base = ref[-1] if ref else pilots[method]
                    if "auc" not in base:
                        reason = f"pilot failed: {base.get('error')}"
                    else:
                        cell["estimated_seconds"] = estimate(base, n, n_test)
                        cell["estimated_from_n"] = base["n"]
                        if cell["estimated_seconds"] > args.budget:
                            reason = (
                                f"skipped: pilot estimate "
                                f"{cell['estimated_seconds']:.0f} s > budget "
                                f"{args.budget:.0f} s"
                            )
            if reason is None and args.plan_only:
                reason = "plan only" + (
                    f": estimate {cell['estimated_seconds']:.0f} s"
                    if "estimated_seconds" in cell
                    else ""
                )
            if reason is not None:
                cell["skipped"] = reason
                log(f"n={n} {method}: {reason}")
                cells.append(cell)
                save()
                continue
            log(
                f"n={n} {method}: running"
                + (
                    f" (estimate {cell['estimated_seconds']:.0f} s)"
                    if "estimated_seconds" in cell
                    else ""
                )
            )
            timeout = 2 * args.budget if method in QUADRATIC else None
            result = run_cell(method, n, n_test, args, timeout)
            if (
                method == "linear"
                and "error" in result
                and "TypeError" in result["error"]
            ):
                result["error"] = f"not available: {result['error']}"
            cell.update(result)
            log(f"n={n} {method}: {cell.get('auc', cell.get('error'))}")
            cells.append(cell)
            save()

    lines = goals(cells, oracle)
    document["goals"] = lines
    save()
    info, vers = document["machine"], document["versions"]
    print("gkm SVMs at ENCODE scale (issue 27): held-out AUC, time, peak memory")
    print(f"command: {command.strip()}")
    print(
        f"machine: {info['cpu']}, {info['cores']} cores, {info['ram_gib']} GiB; "
        f"numba {vers['numba']} ({info['numba_threads']} threads); poimkit "
        f"{vers['poimkit']}, gkmsvm-lite {vers['gkmsvm-lite']}"
    )
    print(
        f"data: lengths {LENGTHS[0]}-{LENGTHS[1]}, GC {GC}, 12-column PWM "
        f"({pwm_bits():.2f} bits/column) on either strand in "
        f"{IN_POSITIVES:.0%} of positives, {IN_NEGATIVES:.0%} of negatives; "
        f"balanced training sets, {n_test} held-out records, seed {args.seed}"
    )
    for method, p in pilots.items():
        if "auc" in p:
            print(
                f"pilot {method}: n={p['n']}, {p['n_test']} held out: fit "
                f"{p['fit_seconds']:.1f} s, score {p['score_seconds']:.1f} s, "
                f"peak {p['peak_gib']:.2f} GiB"
            )
        else:
            print(f"pilot {method}: failed: {p.get('error')}")
    print(
        "load average (1, 5, 15 min): at start "
        + ", ".join(f"{v:.2f}" for v in load_start)
        + "; at end "
        + ", ".join(f"{v:.2f}" for v in os.getloadavg())
    )
    print(f"total {(time.perf_counter() - START) / 60:.1f} min")
    print()
    print(table(cells, oracle))
    print("\ngoals" + (" (--quick: not the goals' sizes):" if args.quick else ":"))
    print("\n".join(f"  {line}" for line in lines))
    log(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
