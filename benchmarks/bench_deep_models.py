"""Deep models beside the kernels on real ChIP-seq, one held-out split (issue 54).

Every model of a data set trains on the same training records and is scored
on the same held-out records (ROC AUC of its decision values):

* ``cnn``: `poimkit.torch.CNNClassifier` with its default architecture
  (64 filters of width 21, 6 dilated residual layers, 30 epochs at most,
  patience 4, batch 64, Adam 1e-3), ``n_threads=2``, ``max_time=--max-time``
  (default 450 s; training stops after the epoch that passes it, so a training
  stays near 10 minutes) and ``groups`` = the chromosome of every training
  record, so early stopping holds out whole chromosomes;
* ``gkm``: `poimkit.GkmSVC` at its defaults (l = 11, k = 7, both strands,
  C = 1, ``solver="auto"``: the linear solver above 1,000 records),
  ``n_threads=2``;
* ``wd``: `poimkit.WDKernelSVC` at its defaults (degree 20, shift 0, C = 1),
  ``n_threads=2``, only where every record has one length; its training set is
  a stratified random subsample of at most ``--wd-max-train`` records (seed 0)
  when larger (said in the table);
* ``gc``: GC content alone, its sign chosen on the training records (no other
  fitting).

Each model is trained and scored in a fresh subprocess (this script with
``--worker``): fit wall and CPU seconds (``resource.getrusage``, all threads),
peak resident memory of that process up to the end of the fit (``ru_maxrss``:
imports and data included; the resident size just before the fit is given
beside it). The kernel models are first fitted once on 40 records of the set
(both gkm solvers), so numba compilation is not timed.

Data sets (``--sets``), read from /work/shared/data (see each PROVENANCE.md):

* ``ctcf``: GM12878 CTCF ChIP-seq positives and the study's negatives,
  chr14-18. Every negative is 314 nt and the positives mostly 360 nt (length
  alone gives AUROC 1.0), so every record is centre-cropped to 314 nt
  (`poimkit.io.read_fasta(crop_length=314, drop_short=True)`; shorter records
  dropped; repeated records dropped by the reader). Train chr14, chr15,
  chr16; test chr17, chr18.
* ``nanog``: Nanog ChIP-seq in H1-hESC, the authors' train/test split
  (200 nt; test = chr1, chr2).
* ``nfe2``: NFE2 ChIP-seq in GM12878 (LS-GKM's training split), records at
  their own lengths (59-247 nt). Ids carry coordinates, so the test set is
  whole chromosomes, fixed by a rule decided before any model ran: the
  shortest prefix of the chromosomes in karyotype order whose share of the
  records is closest to 20 % (chr2-chr5).

Every figure is also given on a GC-matched subset of the test records: GC
fraction in bins of 0.02, in each bin as many positives as negatives (the
larger class subsampled at random, seed 0). Differences between the CNN and
each kernel model carry a paired stratified bootstrap 95 % interval (2,000
resamples of the test records, seed 0).

Cost goal (issue 54): "the CNN family trains on 1.5e4 windows of 300 letters
in under 10 minutes on 2 cores". The CNN's CTCF training time is extrapolated
linearly in letters (records x length) to 1.5e4 x 300, at the same number of
epochs; it is labelled as extrapolated.

    python benchmarks/bench_deep_models.py --quick             # smoke test
    python benchmarks/bench_deep_models.py                     # all, ~1 h
    python benchmarks/bench_deep_models.py --sets nfe2 --models cnn,gkm,gc
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from deep_models_data import (  # noqa: E402
    GC_BIN,
    SEED,
    load_set,
    save_split,
    stratified,
    stratified_share,
    take,
    unpack,
)
from deep_models_report import N_BOOT, evaluate, gc_model, goals, table  # noqa: E402
from run_info import jsonable, machine, versions  # noqa: E402

QUICK_TRAIN, QUICK_TEST = 250, 250  # per class
MODELS = ("cnn", "gkm", "wd", "gc")
SETS = ("ctcf", "nanog", "nfe2")
START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - START:7.1f}s] {message}", flush=True)


# --------------------------------------------------------------------------- #
# the worker: one model, one process
# --------------------------------------------------------------------------- #
def _maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _rss_mib() -> float:
    try:
        import psutil

        return psutil.Process().memory_info().rss / 2**20
    except ImportError:
        return float("nan")


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def worker(args) -> int:
    arrays = np.load(args.data)
    X = unpack(arrays["train_codes"], arrays["train_offsets"])
    y = arrays["train_y"]
    groups = arrays["train_groups"]
    X_test = unpack(arrays["test_codes"], arrays["test_offsets"])
    out: dict = {"model": args.worker, "n_train_given": len(X)}
    one_length = len({len(s) for s in X} | {len(s) for s in X_test}) == 1

    if args.worker == "wd":
        if not one_length:
            raise SystemExit("wd needs records of one length")
        rows = stratified_share(y, args.wd_max_train, SEED)
        if rows.size < y.size:
            out["subsampled"] = (
                f"{rows.size} of {y.size} training records (stratified, seed {SEED})"
            )
        X, y, groups = np.stack([X[i] for i in rows]), y[rows], groups[rows]
        X_test = np.stack(X_test)
    warm = stratified(y, 20, 1)
    if args.worker == "gkm":
        import poimkit

        for solver in ("kernel", "linear"):  # numba compilation, untimed
            poimkit.GkmSVC(solver=solver, n_threads=2).fit(
                [X[i] for i in warm], y[warm]
            )
        model = poimkit.GkmSVC(n_threads=2)
        fit_kwargs = {}
    elif args.worker == "wd":
        import poimkit

        poimkit.WDKernelSVC(n_threads=2).fit(X[warm], y[warm])
        model = poimkit.WDKernelSVC(n_threads=2)
        fit_kwargs = {}
    elif args.worker == "cnn":
        import torch  # noqa: F401  (imported before the baseline memory)

        from poimkit.torch import CNNClassifier

        model = CNNClassifier(
            n_threads=2, max_time=args.max_time, random_state=SEED, epochs=args.epochs
        )
        fit_kwargs = {"groups": groups}

        def on_epoch(epoch, train_loss, valid_loss):
            log(
                f"  cnn epoch {epoch}: train loss {train_loss:.4f}, "
                f"held-out {valid_loss:.4f}"
            )

        fit_kwargs["on_epoch"] = on_epoch
    else:
        raise SystemExit(f"unknown worker model {args.worker}")

    out["rss_before_fit_mib"] = _rss_mib()
    out["maxrss_before_fit_mib"] = _maxrss_mib()
    load0 = os.getloadavg()
    cpu0, t0 = _cpu(), time.perf_counter()
    model.fit(X, y, **fit_kwargs)
    out["fit_seconds"] = time.perf_counter() - t0
    out["fit_cpu_seconds"] = _cpu() - cpu0
    out["peak_rss_mib"] = _maxrss_mib()
    out["load_during_fit"] = [load0, os.getloadavg()]
    out["n_train"] = int(len(y))
    out["n_train_pos"] = int((y == 1).sum())
    t0 = time.perf_counter()
    scores = model.decision_function(X_test)
    out["score_seconds"] = time.perf_counter() - t0
    out["scores"] = np.asarray(scores, dtype=float).tolist()

    if args.worker == "cnn":
        from poimkit.torch.network import n_parameters
        from poimkit.torch.training import held_out_rows

        lg = model.log_
        # the rows fit() held out: its rng's first draws (same seed, same call)
        valid = held_out_rows(
            np.unique(y, return_inverse=True)[1],
            model.validation_fraction,
            np.random.default_rng(SEED),
            groups,
        )
        out.update(
            n_parameters=int(n_parameters(model.network_)),
            epochs_run=len(lg.train_loss),
            best_epoch=lg.best_epoch,
            stopped=lg.stopped,
            train_seconds_log=lg.seconds,
            seconds_per_epoch=lg.seconds / max(len(lg.train_loss), 1),
            train_loss=lg.train_loss,
            valid_loss=lg.valid_loss,
            held_out_groups=sorted(set(groups[valid].tolist())),
            held_out_records=int(valid.sum()),
            gradient_records=int((~valid).sum()),
            gradient_letters=int(sum(len(X[i]) for i in np.flatnonzero(~valid))),
            max_time=args.max_time,
        )
    else:
        out["n_support"] = [int(v) for v in model.n_support_]
        out["n_sv"] = int(np.sum(model.n_support_))
        if args.worker == "gkm":
            out.update(
                solver=model.solver_,
                n_iter=int(model.n_iter_),
                converged=bool(model.converged_),
            )
    Path(args.result).write_text(json.dumps(jsonable(out)) + "\n")
    return 0


def run_worker(model: str, split: Path, result: Path, args) -> dict:
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        model,
        "--data",
        str(split),
        "--result",
        str(result),
        "--max-time",
        str(args.max_time),
        "--epochs",
        str(args.epochs),
        "--wd-max-train",
        str(args.wd_max_train),
    ]
    env = dict(
        os.environ, NUMBA_NUM_THREADS="2", OMP_NUM_THREADS="2", MKL_NUM_THREADS="2"
    )
    started = time.perf_counter()
    done = subprocess.run(command, env=env, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-25:]
        log(f"{model} failed (exit {done.returncode}):\n" + "\n".join(tail))
        return {"model": model, "error": "\n".join(tail), "process_seconds": wall}
    if done.stderr.strip():
        kept = [ln for ln in done.stderr.splitlines() if ln.strip()][-5:]
        log(f"{model} stderr (last lines): " + " | ".join(kept))
    out = json.loads(result.read_text())
    out["process_seconds"] = wall
    return out


# --------------------------------------------------------------------------- #
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated")
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_TRAIN} training and {QUICK_TEST} test records per class, "
        "CNN 2 epochs",
    )
    parser.add_argument(
        "--max-time",
        type=float,
        default=450.0,
        help="CNN max_time (s): it stops after the epoch that passes it",
    )
    parser.add_argument("--epochs", type=int, default=30, help="CNN epochs at most")
    parser.add_argument("--wd-max-train", type=int, default=8000)
    parser.add_argument(
        "--out", type=Path, help="JSON (default benchmarks/deep_models.json)"
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--data", help=argparse.SUPPRESS)
    parser.add_argument("--result", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args)
    if args.quick:
        args.epochs = min(args.epochs, 2)
    out_path = args.out or HERE / (
        "deep_models_quick.json" if args.quick else "deep_models.json"
    )
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    for s in sets:
        if s not in SETS:
            parser.error(f"unknown set {s!r}")
    for m in models:
        if m not in MODELS:
            parser.error(f"unknown model {m!r}")
    load_start = os.getloadavg()
    report = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in sets:
            data = load_set(name)
            if args.quick:
                take(data, "train", stratified(data["train_y"], QUICK_TRAIN, SEED))
                take(data, "test", stratified(data["test_y"], QUICK_TEST, SEED))
                data["notes"].append(f"--quick: {QUICK_TRAIN}/{QUICK_TEST} per class")
            lengths = sorted({len(s) for s in data["train_seqs"] + data["test_seqs"]})
            ytr, yte = data["train_y"], data["test_y"]
            log(
                f"{name}: train {int(ytr.sum())}+{int((ytr == 0).sum())}, test "
                f"{int(yte.sum())}+{int((yte == 0).sum())}, "
                f"lengths {lengths[0]}-{lengths[-1]}; "
                f"{data['split']}"
            )
            for note in data["notes"]:
                log(f"  note: {note}")
            split = Path(tmp) / f"{name}.npz"
            save_split(data, split)
            results = {}
            for m in models:
                if m == "gc":
                    results[m] = gc_model(data)
                    continue
                if m == "wd" and len(lengths) > 1:
                    results[m] = {
                        "model": m,
                        "skipped": f"records have {len(lengths)} lengths ({lengths[0]}-"
                        f"{lengths[-1]}); WD needs one",
                    }
                    log(f"{name} {m}: skipped ({results[m]['skipped']})")
                    continue
                log(f"{name} {m}: training")
                results[m] = run_worker(m, split, Path(tmp) / f"{name}_{m}.json", args)
                r = results[m]
                if "fit_seconds" in r:
                    log(
                        f"{name} {m}: fit {r['fit_seconds']:.1f} s wall, "
                        f"{r['fit_cpu_seconds']:.0f} s CPU, "
                        f"peak RSS {r['peak_rss_mib']:.0f} MiB"
                    )
            figures = evaluate(data, results)
            for m, f in figures["models"].items():
                log(
                    f"{name} {m}: test AUROC {f['auc']:.4f}, "
                    f"GC-matched {f['auc_matched']:.4f}"
                )
            report.append(
                {
                    "set": name,
                    "split": data["split"],
                    "notes": data["notes"],
                    "lengths": [lengths[0], lengths[-1]],
                    "train_groups": sorted(set(data["train_groups"].tolist())),
                    "test_groups": sorted(set(data["test_groups"].tolist())),
                    "figures": figures,
                    "results": results,
                }
            )
    command = "python benchmarks/bench_deep_models.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    info, vers = machine(), versions("torch", "scipy", "psutil")
    goal_lines, cost = goals(report)
    print()
    print(f"command: {command.strip()}")
    print(
        f"machine: {info['cpu']}, {info['cores']} cores "
        f"({info['usable_cores']} usable), "
        f"{info['ram_gib']} GiB; python {vers['python']}, torch {vers['torch']}, "
        f"numpy {vers['numpy']}, numba {vers['numba']}, "
        f"scikit-learn {vers['scikit-learn']}"
    )
    print(
        "load average (1, 5, 15 min): start "
        + ", ".join(f"{v:.2f}" for v in load_start)
        + "; end "
        + ", ".join(f"{v:.2f}" for v in info["load_average"])
    )
    print(f"total {(time.perf_counter() - START) / 60:.1f} min")
    for entry in report:
        f = entry["figures"]
        print(
            f"{entry['set']}: {entry['split']}; test {f['n_test_pos']}+"
            f"{f['n_test'] - f['n_test_pos']}, "
            f"GC-matched subset {f['n_matched']} records "
            f"(GC AUROC there {f['gc_matched_auc_raw']:.3f}, raw GC AUROC on all test "
            f"{f['gc_test_auc_raw']:.3f})"
        )
    print()
    print(table(report))
    print(
        "\ngoals"
        + (" (--quick subsets: not the goals' data)" if args.quick else "")
        + ":"
    )
    print("\n".join(f"  {line}" for line in goal_lines))
    for entry in report:  # scores are long: keep them, but after the figures
        for r in entry["results"].values():
            if "scores" in r:
                r["scores"] = [round(v, 6) for v in r["scores"]]
    document = {
        "benchmark": "deep_models",
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "command": command.strip(),
        "settings": {
            "quick": args.quick,
            "sets": sets,
            "models": models,
            "cnn_max_time": args.max_time,
            "cnn_epochs": args.epochs,
            "wd_max_train": args.wd_max_train,
            "gc_bin": GC_BIN,
            "seed": SEED,
            "bootstrap": N_BOOT,
        },
        "machine": info,
        "versions": vers,
        "load_average_start": load_start,
        "total_seconds": time.perf_counter() - START,
        "table": table(report),
        "goals": goal_lines,
        "cost": cost,
        "report": report,
    }
    out_path.write_text(json.dumps(jsonable(document), indent=1) + "\n")
    log(f"wrote {out_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
