"""Two estimators of a trained CNN's POIM on real peaks, side by side (issue 54).

On each real set (`deep_models_data.load_set`: its training records) the
benchmark trains poimkit's `CNNClassifier` at its defaults (seeded, at most
``--max-time`` seconds), then computes its POIM at the records' median length
(at most 1,000) under a uniform background in two ways:

* **inserted** (`sampled_score_only_poim`, ``windows="centre"``): what ``poimkit run``
  does for a CNN, every k-mer inserted at the centre of each draw, k-mers up to
  ``--order`` (5) with ``--inserted-samples`` (32) draws;
* **observed** (``estimator="observed"``, ``windows="pooled"``): the MFI paper's
  estimator, ``--observed-samples`` (6,000) background draws scored once.

It reports each one's time and model evaluations, their agreement (Pearson
over the k-mers of each length, the overlap of the 20 top k-mers of the
longest length), the median standard error of each, and the motifs
`extract_motifs` finds from each (training records and labels as evidence).

    python benchmarks/bench_observed_poim.py
    python benchmarks/bench_observed_poim.py --sets nfe2 --max-time 120
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

from deep_models_data import load_set  # noqa: E402
from run_info import jsonable, machine, versions  # noqa: E402

START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", flush=True)


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    out = function(*args, **kwargs)
    return out, time.perf_counter() - start


def motif_rows(poim, X, y, seed, **options) -> tuple[list[dict], float]:
    """Up to 3 motifs of each class with their evidence, and the seconds taken."""
    from poimkit import extract_motifs

    motifs, seconds = timed(
        extract_motifs, poim, 3, sequences=X, labels=y, random_state=seed, **options
    )
    rows = [
        {
            "consensus": m.consensus,
            "label": int(m.label),
            "frac_positive": float(m.frac_positive),
            "frac_negative": float(m.frac_negative),
            "q_value": float(m.q_value),
        }
        for m in motifs
    ]
    return rows, seconds


def compare(inserted, observed, order: int, length: int) -> list[dict]:
    rows = []
    for l in range(1, order + 1):
        a = inserted.q(l)[(length - l) // 2]
        b = observed.q(l)[0]
        rows.append(
            {
                "order": l,
                "pearson": float(np.corrcoef(a, b)[0, 1]),
                "inserted_median_se": float(np.median(inserted.stderr[l - 1][0])),
                "observed_median_se": float(np.nanmedian(observed.stderr[l - 1][0])),
                "sd_of_q_inserted": float(a.std()),
            }
        )
    top_a = set(np.argsort(-inserted.q(order)[0])[:20].tolist())
    top_b = set(np.argsort(-observed.q(order)[0])[:20].tolist())
    rows[-1]["top20_overlap"] = len(top_a & top_b)
    return rows


def one_set(name: str, args) -> dict:
    import torch

    from poimkit.background import MarkovBackground
    from poimkit.poim.score_only import sampled_score_only_poim
    from poimkit.torch import CNNClassifier

    data = load_set(name)
    X, y = data["train_seqs"], data["train_y"]
    length = int(min(1000, np.median([x.size for x in X])))
    log(f"{name}: {len(X)} training records, POIM length {length}")
    torch.manual_seed(args.seed)
    cnn = CNNClassifier(n_threads=args.threads, max_time=args.max_time)
    _, train_s = timed(cnn.fit, X, y)
    log(f"{name}: CNN trained in {train_s:.0f} s")
    background = MarkovBackground.uniform(length)
    poims, seconds = {}, {}
    for estimator, samples, windows in (
        ("inserted", args.inserted_samples, "centre"),
        ("observed", args.observed_samples, "pooled"),
    ):
        poims[estimator], seconds[estimator] = timed(
            sampled_score_only_poim,
            cnn,
            args.order,
            background,
            estimator,
            n_samples=samples,
            random_state=args.seed,
            windows=windows,
        )
        log(f"{name}: {estimator} POIM in {seconds[estimator]:.0f} s")
    inserted, observed = poims["inserted"], poims["observed"]
    agreement = compare(inserted, observed, args.order, length)
    for row in agreement:
        log("  " + ", ".join(f"{k} {v:.3g}" for k, v in row.items()))
    out = {
        "set": name,
        "records": len(X),
        "length": length,
        "train_seconds": train_s,
        "agreement": agreement,
    }
    for label, records in (
        ("inserted", inserted_records(length, args)),
        ("observed", args.observed_samples),
    ):
        motifs, extract_s = motif_rows(poims[label], X, y, args.seed)
        log(f"{name}: {label} motifs {[m['consensus'] for m in motifs]}")
        out[label] = {
            "seconds": seconds[label],
            "records": records,
            "motifs": motifs,
            "extract_seconds": extract_s,
        }
    return out


def inserted_records(length: int, args) -> int:
    from poimkit.poim.sampled import count_evaluations

    return count_evaluations(length, args.order, 0, args.inserted_samples, "centre")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=["nfe2", "nanog"])
    parser.add_argument("--order", type=int, default=5)
    parser.add_argument("--inserted-samples", type=int, default=32)
    parser.add_argument("--observed-samples", type=int, default=6000)
    parser.add_argument("--max-time", type=float, default=600.0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=HERE / "observed_poim.json")
    args = parser.parse_args(argv)
    sets = [one_set(name, args) for name in args.sets]
    record = {
        "benchmark": "observed_poim",
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "args": {
            k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()
        },
        "machine": machine(),
        "versions": versions("torch"),
        "sets": sets,
    }
    args.out.write_text(json.dumps(jsonable(record), indent=1) + "\n")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
