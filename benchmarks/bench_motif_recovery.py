"""Benchmark: planted-motif recovery by poimkit's motifs and by TF-MoDISco on ISM.

For every case the script builds a data set, trains one poimkit model, computes
its exact POIMs and extracts motifs with `poimkit.extract_motifs`. In the same
run, exact in-silico mutagenesis (ISM) of the *same* model
(``model.explicit_weights().mutagenesis``) goes to modisco-lite, whose positive
patterns (trimmed as modisco's report trims them) are the second method's
motifs. Both are compared with the planted truth:

* consensus mismatches: found consensus aligned with the planted consensus at
  the best offset and strand; mismatches in the overlap plus planted letters
  the found motif does not cover;
* TOMTOM p-value (memelite) of the found PWM against the planted PWM
  (`poimkit.datasets.expected_pwm`) and the planted motif's rank among the
  targets (planted PWMs plus ``N_DECOYS`` seeded random PWMs: memelite's
  p-values use the target columns as their background and are unreliable with
  fewer than 25 targets);
* position error: |implied start of the planted motif - planted mean start|
  (1-based), where the implied start corrects the found motif's start for
  the alignment offset (and strand, for modisco's reverse-complement seqlets;
  for a modisco pattern the median over its seqlets, which resists the few
  seqlets a pattern collects far from the site);
* recovered: at most 1 mismatch and a position error of at most 2 (planted SD
  <= 2) or at most the SD (SD > 2); position-free motifs are judged on the
  mismatches alone;
* modisco patterns are trimmed to the columns from the first to the last
  whose information content is at least 0.2 of the pattern's largest;
* false motifs: found motifs with TOMTOM p > 0.01 and more than 1 mismatch
  against every planted motif.

ISM input of modisco: the model's trained-on positives carry a memorisation
offset (a WD-SVM with a high degree rewards every training positive's own long
k-mers, so nearly every letter of it looks important and modisco-lite's seqlet
caller finds no negative windows). By default the ISM therefore scores
*held-out* positives: for synthetic cases extra positives from the same
generator (at most ``MAX_MODISCO_SEQS``), for real data out-of-fold ISM from
``CROSSFIT_FOLDS`` models of the same class trained without the fold (their
training time is counted as ISM time). ``--ism-on train`` uses the training
positives of the one model instead.

Real data sets have no planted truth; the known signal (splice donor GT,
acceptor AG, promoter boxes, the NFE2 peaks' E-box) is checked the same way
and the full pipeline (`poimkit.run.run_pipeline`, 5-fold CV) is timed
once to give the motif step's share of a run.

    pip install -e ".[bench]"    # modisco-lite, the peer (a benchmark extra)
    python benchmarks/bench_motif_recovery.py                     # all cases
    python benchmarks/bench_motif_recovery.py --quick             # ~1/5 of n
    python benchmarks/bench_motif_recovery.py --quick --cases sd8_L100,n600_small
    python benchmarks/bench_motif_recovery.py --no-modisco --json out.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from motif_recovery_cases import (
    make_cases,
)
from motif_recovery_config import (
    HERE,
    MAX_MODISCO_SEQS,
    MAX_MOTIFS,
    MODISCO,
    N_DECOYS,
    QUICK_SCALE,
    START,
    TRIM_THRESHOLD,
    log,
)
from motif_recovery_methods import (
    warm_up_modisco,
)
from motif_recovery_report import (
    summary,
    summary_line,
    table,
)
from motif_recovery_run import (
    run_case,
)
from run_info import jsonable, versions


# --------------------------------------------------------------------------- #
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="about 1/5 of n, no pipeline runs, skip the two biggest",
    )
    parser.add_argument("--cases", help="comma-separated case names")
    parser.add_argument("--no-modisco", action="store_true")
    parser.add_argument(
        "--no-pipeline",
        action="store_true",
        help="skip the run_pipeline timing of the real sets",
    )
    parser.add_argument(
        "--ism-on",
        choices=("heldout", "train"),
        default="heldout",
        help="positives scored by ISM for modisco (default heldout)",
    )
    parser.add_argument(
        "--modisco-timeout",
        type=float,
        default=600.0,
        help="seconds per modisco-lite call before it is abandoned (0: none)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        help="output (default benchmarks/motif_recovery.json, "
        "motif_recovery_quick.json with --quick)",
    )
    args = parser.parse_args(argv)

    cases = make_cases()
    names = [c.name for c in cases]
    if args.cases:
        wanted = [w.strip() for w in args.cases.split(",") if w.strip()]
        unknown = sorted(set(wanted) - set(names))
        if unknown:
            parser.error(f"unknown case(s) {unknown}; known: {', '.join(names)}")
        cases = [c for c in cases if c.name in wanted]
    elif args.quick:
        cases = [c for c in cases if not c.big]
    scale = QUICK_SCALE if args.quick else 1.0
    path = args.json or HERE / (
        "motif_recovery_quick.json" if args.quick else "motif_recovery.json"
    )

    warm_up = None
    if not args.no_modisco:
        log("modisco-lite warm-up (compiles its numba kernels, untimed)")
        warm_up = warm_up_modisco()
    results = []
    with tempfile.TemporaryDirectory(prefix="bench_motif_recovery_") as tmp:
        for case in cases:
            results.append(run_case(case, scale, args, Path(tmp)))
            log(f"{case.name}: done")
    s = summary(results)
    print(table(results))
    print()
    print(summary_line(s))
    document = {
        "benchmark": "motif_recovery",
        "settings": {
            "quick": args.quick,
            "scale": scale,
            "modisco": not args.no_modisco,
            "ism_on": args.ism_on,
            "modisco_timeout": args.modisco_timeout,
            "max_motifs": MAX_MOTIFS,
            "modisco_settings": MODISCO,
            "max_modisco_sequences": MAX_MODISCO_SEQS,
            "tomtom_decoys": N_DECOYS,
            "trim_threshold": TRIM_THRESHOLD,
        },
        "versions": versions("modisco-lite", "memelite"),
        "total_seconds": time.perf_counter() - START,
        "modisco_warm_up_seconds": warm_up,
        "cases": results,
        "summary": s,
    }
    path.write_text(json.dumps(jsonable(document), indent=1) + "\n")
    log(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
