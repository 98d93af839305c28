"""The family ``kernel="auto"`` keeps when the CNN is tried beside the SVM (issue 54).

On the held-out splits of `bench_deep_models.py` (same records, same crop),
the training records go through ``poimkit.run.train.train_model`` exactly as
``poimkit run`` trains them by default (``RunOptions()``: ``kernel="auto"``,
5 outer folds of whole chromosomes or 10 Mb blocks, the inner CV choosing
between WD and gkm and their parameters; with torch installed and at least
`CNN_MIN_RECORDS` records the CNN is cross-validated in the same folds and
kept if its CV AUC is better by more than one standard error). The
comparison of motif models and stacks is left out (``motif_model=False``):
this measures the family choice. The run's own final model scores the test
records; the family it did not keep is then trained on all training records
too (the SVM with its own inner selection, the CNN with the same settings),
so the held-out AUC of both is known and the choice can be judged:

* goal 1: the chosen model's held-out AUC is within 0.005 of the CNN's or
  above it;
* goal 2: it is never below the SVM's by more than 0.005.

Each set runs in this process, one after the other, on 2 threads
(``threads=2``); ``--cnn-max-time`` caps every CNN fit (default 300 s, so a
set takes at most about 6 x 5.5 minutes of CNN training).

    python benchmarks/bench_auto_family.py                    # ctcf, nanog
    python benchmarks/bench_auto_family.py --sets nanog --cv 3
    python benchmarks/bench_auto_family.py --quick            # smoke test
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from deep_models_data import SEED, load_set, stratified  # noqa: E402
from run_info import jsonable, machine, versions  # noqa: E402

GOAL = 0.005


def labeled(data: dict, rows: np.ndarray | None = None):
    """The training records as a run reads peaks: ids with coordinates."""
    from poimkit.run.data import LabeledData, as_codes

    rows = np.arange(len(data["train_y"])) if rows is None else rows
    X = as_codes([data["train_seqs"][i] for i in rows], "auto")
    ids = [data["train_ids"][i] for i in rows]
    inputs = [{"role": "peaks", "stranded": False}]
    return LabeledData(ids, X, data["train_y"][rows], inputs, 0)


def auc(y: np.ndarray, scores: np.ndarray) -> float:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(y, scores))


def run_set(name: str, args) -> dict:
    from poimkit import RunOptions
    from poimkit.run.crossval import train_final
    from poimkit.run.plan import make_plan
    from poimkit.run.train import train_model

    data = load_set(name)
    rows = None
    if args.quick:
        rows = stratified(data["train_y"], 300, SEED)
    train = labeled(data, rows)
    test_X, test_y = data["test_seqs"], data["test_y"]
    if args.quick:
        keep = stratified(test_y, 200, SEED)
        test_X, test_y = [test_X[i] for i in keep], test_y[keep]
    options = RunOptions(
        cv=args.cv,
        threads=2,
        cnn_max_time=args.cnn_max_time,
        cnn_epochs=2 if args.quick else 30,
        cnn_min_records=100 if args.quick else RunOptions().cnn_min_records,
        seed=SEED,
    )
    plan = make_plan(train, options)
    if plan.contender is None:
        raise SystemExit(f"{name}: the CNN is not tried (torch? records?)")
    times: dict[str, float] = {}
    started = time.perf_counter()
    trained = train_model(train, plan, motif_model=False)
    times["auto run (CV of both, final of the kept)"] = time.perf_counter() - started
    compared = trained.cv.families_compared
    kept = compared["chosen"]
    held_out = {kept: auc(test_y, trained.model.decision_function(test_X))}
    started = time.perf_counter()
    if kept == "cnn":
        other, _, selection = train_final(train, plan)
        held_out["kernel"] = auc(test_y, other.decision_function(test_X))
        family = selection["family"] if selection else plan.options.kernel
    else:
        other, _, _ = train_final(train, plan.contender, fits=None)
        held_out["cnn"] = auc(test_y, other.decision_function(test_X))
        family = compared["kernel"]["family"]
    times["the other family's final model"] = time.perf_counter() - started
    chosen = held_out[kept]
    return {
        "set": name,
        "split": data["split"],
        "n_train": int(train.y.size),
        "n_test": int(test_y.size),
        "kernel_family": family,
        "cv": {
            f: {k: compared[f][k] for k in ("cv_auc", "cv_auc_std", "family")}
            for f in ("kernel", "cnn")
        },
        "tolerance": compared["tolerance"],
        "kept": kept,
        "held_out_auc": held_out,
        "goal_cnn": chosen >= held_out["cnn"] - GOAL,
        "goal_svm": chosen >= held_out["kernel"] - GOAL,
        "seconds": times,
        "cv_split": trained.cv.split,
    }


def table(results: list[dict]) -> str:
    head = (
        "| set | train / test | CV AUC SVM (family) | CV AUC CNN | 1 SE | kept | "
        "held-out SVM | held-out CNN | kept - CNN | kept - SVM | goals | run s |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    rows = []
    for r in results:
        cv, h = r["cv"], r["held_out_auc"]
        chosen = h[r["kept"]]
        goals = (
            ("met" if r["goal_cnn"] else "MISSED")
            + " / "
            + ("met" if r["goal_svm"] else "MISSED")
        )
        run_s = sum(r["seconds"].values())
        rows.append(
            f"| {r['set']} | {r['n_train']} / {r['n_test']} | "
            f"{cv['kernel']['cv_auc']:.4f} ({r['kernel_family']}) | "
            f"{cv['cnn']['cv_auc']:.4f} | {r['tolerance']:.4f} | {r['kept']} | "
            f"{h['kernel']:.4f} | {h['cnn']:.4f} | {chosen - h['cnn']:+.4f} | "
            f"{chosen - h['kernel']:+.4f} | {goals} | {run_s:.0f} |"
        )
    return head + "\n".join(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="ctcf,nanog")
    parser.add_argument("--cv", type=int, default=5)
    parser.add_argument("--cnn-max-time", type=float, default=300.0)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    out = args.out or HERE / (
        "auto_family_quick.json" if args.quick else "auto_family.json"
    )
    results = []
    started = time.perf_counter()
    for name in args.sets.split(","):
        print(f"# {name} ...", file=sys.stderr, flush=True)
        results.append(run_set(name, args))
        print(table(results[-1:]), file=sys.stderr, flush=True)
    text = table(results)
    print(text)
    record = {
        "benchmark": "auto_family",
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "command": "python benchmarks/bench_auto_family.py "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "machine": machine(),
        "versions": versions("torch"),
        "total_seconds": time.perf_counter() - started,
        "results": results,
        "table": text,
    }
    out.write_text(json.dumps(jsonable(record), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
