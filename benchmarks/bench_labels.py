"""Labels and probabilities: calibrated labels against the SVM's own sign (issue 42).

Every case runs ``poimkit run`` (library path, defaults unless named) and
reads its summary: the chosen model's CV AUC (mean of folds) and pooled
out-of-fold AUC, the accuracy of its labels (class of probability >= 1/2),
the balanced accuracy, the best accuracy any threshold reaches on the same
out-of-fold probabilities, and the Brier score. Where a test split exists,
the saved SVM also labels it, calibrated (``predict``) and by its score's
sign (the labels before calibration: the baseline), beside the best
threshold's accuracy on the same test scores.

splice
    UCI splice EI against N (the example of ``poimkit run --help``), split
    in halves (stratified, seeded): run on one, test on the other.
splice-gkm
    The same with the gkm kernel solver at C = 0.01 (``--kernel gkm --solver
    kernel -C 0.01 --no-grid``): every alpha at its bound.
peaks
    600 peaks of a fresh synthetic genome (degenerate 10-mer at 80 % of
    summits), ``--bed`` with matched negatives; CV figures only.
nanog
    The authors' train/test split of real Nanog ChIP-seq.

Goals: the accuracy of the labels within 0.02 of the best threshold's (CV and
test), and the pooled out-of-fold AUC within 0.02 of the folds' mean.

Usage: ``python benchmarks/bench_labels.py [--cases splice,splice-gkm,peaks,nanog]
[--seed 4201] [--out labels.json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
SHARED = HERE.parents[1] / "shared" / "data"
SPLICE = HERE.parent / "data" / "splice"

from bench_motif_model import run as _run  # noqa: E402  (poimkit run, timed)


def _cv_row(case: str, summary: dict, seconds: float) -> dict:
    keys = ("cv_auc", "cv_auc_pooled", "cv_accuracy", "cv_balanced_accuracy")
    keys += ("cv_best_accuracy", "cv_brier")
    row = {"case": case, "chosen_model": summary.get("chosen_model", "svm")}
    row.update({k: round(float(summary[k]), 4) for k in keys})
    for name, figures in (summary.get("models") or {}).items():
        if name != row["chosen_model"]:  # the others, for comparison
            row[name] = {k: round(float(figures[k]), 4) for k in keys}
    row["seconds"] = round(seconds, 1)
    row["cv_labels_ok"] = row["cv_accuracy"] >= row["cv_best_accuracy"] - 0.02
    row["cv_pooled_ok"] = abs(row["cv_auc_pooled"] - row["cv_auc"]) <= 0.02
    return row


def _test_row(row: dict, model_path: Path, X, y) -> dict:
    from poimkit import load_model
    from poimkit.run.crossval import best_accuracy

    model = load_model(model_path)
    scores = model.decision_function(X)
    calibrated = float(np.mean(model.predict(X) == y))
    sign = float(np.mean((scores > 0).astype(int) == y))
    best = best_accuracy(y == 1, scores)
    row.update(
        test_accuracy=round(calibrated, 4),
        test_accuracy_sign=round(sign, 4),
        test_best_accuracy=round(best, 4),
        test_labels_ok=calibrated >= best - 0.02,
    )
    return row


def _halves(seed: int, work: Path) -> tuple[str, str, np.ndarray, np.ndarray]:
    """Splice EI / N in two stratified halves: the training FASTAs, the test set."""
    import warnings

    from poimkit.io import read_fasta, write_fasta

    parts = {}
    rng = np.random.default_rng(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ("EI", "N"):
            ids, X = read_fasta(SPLICE / f"{name}.fa", on_invalid="drop")
            order = rng.permutation(len(ids))
            half = len(ids) // 2
            parts[name] = (ids, X, order[:half], order[half:])
    paths = []
    for name, (ids, X, train, _) in parts.items():
        path = work / f"{name}_train.fa"
        letters = np.array(list("ACGT"))
        write_fasta(
            path, [ids[i] for i in train], ["".join(letters[X[i]]) for i in train]
        )
        paths.append(str(path))
    X_test = np.vstack([parts[n][1][parts[n][3]] for n in ("EI", "N")])
    y_test = np.r_[np.ones(len(parts["EI"][3])), np.zeros(len(parts["N"][3]))]
    return paths[0], paths[1], X_test, y_test.astype(int)


def case_splice(seed: int, work: Path, gkm: bool) -> dict:
    from poimkit.run import RunOptions

    pos, neg, X, y = _halves(seed, work)
    options = RunOptions()
    if gkm:
        options = RunOptions(kernel="gkm", solver="kernel", C=0.01, grid=False)
    out = work / ("splice_gkm" if gkm else "splice")
    summary, seconds = _run(out, pos=pos, neg=neg, options=options)
    row = _cv_row("splice-gkm C 0.01" if gkm else "splice", summary, seconds)
    return _test_row(row, out / "model.npz", X, y)


def case_peaks(seed: int, work: Path) -> dict:
    from poimkit.datasets import write_synthetic_genome
    from poimkit.run.genome import PeakSource

    rng = np.random.default_rng(seed)
    word = "".join(rng.choice(list("ACGT"), 10))
    g = write_synthetic_genome(
        work / "genome",
        n_chromosomes=3,
        chromosome_length=1_000_000,
        n_peaks=600,
        motif=word,
        conservation=0.8,
        motif_fraction=0.8,
        n_causal=10,
        n_neutral=100,
        seed=seed,
    )
    peaks = PeakSource(bed=str(g.peaks), genome=str(g.genome))
    summary, seconds = _run(work / "peaks", peaks=peaks)
    return _cv_row(f"600 peaks, seed {seed}", summary, seconds)


def case_nanog(work: Path) -> dict:
    from poimkit.io import read_labeled

    d = SHARED / "nanog"
    out = work / "nanog"
    summary, seconds = _run(
        out, pos=str(d / "positives_train.fa"), neg=str(d / "negatives_train.fa")
    )
    _, X, y = read_labeled(
        pos=str(d / "positives_test.fa"), neg=str(d / "negatives_test.fa")
    )
    return _test_row(_cv_row("nanog", summary, seconds), out / "model.npz", X, y)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="splice,splice-gkm,peaks,nanog")
    parser.add_argument("--seed", type=int, default=4201)
    parser.add_argument("--out", default=str(HERE / "labels.json"))
    args = parser.parse_args()
    cases = args.cases.split(",")
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-labels-") as tmp:
        work = Path(tmp)
        for case in cases:
            folder = work / case
            folder.mkdir()
            if case in ("splice", "splice-gkm"):
                rows.append(case_splice(args.seed, folder, gkm=case == "splice-gkm"))
            elif case == "peaks":
                rows.append(case_peaks(args.seed, folder))
            elif case == "nanog":
                rows.append(case_nanog(folder))
            print(json.dumps(rows[-1]), flush=True)
    Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
