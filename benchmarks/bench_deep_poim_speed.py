"""The POIM of a CNN of about 10^6 parameters on 200-letter inputs, K = 6 (issue 54).

A `poimkit.torch.DilatedCNN` (width-21 stem, 6 dilated residual layers, both
strands averaged) with ``--filters`` channels (235: 1.0e6 parameters) and
random weights (the cost of a forward pass does not depend on the weights) is
wrapped by `poimkit.torch.as_scorer` with ``length=200``, and its POIM is
sampled under a uniform background, timed on a part and extrapolated linearly
in records (`count_evaluations`) to the goal's K = 6 with 16 draws:

* ``windows="centre"`` (what ``poimkit run`` does for a CNN): one central
  window per k-mer length stands for every position; measured up to
  ``--order`` (4) with ``--samples`` (4) draws;
* ``windows="all"``: every window; measured up to ``--all-order`` (1) with
  ``--all-samples`` (2) draws;
* `observed_poim` (the MFI paper's own estimator: background draws scored once,
  every k-mer's conditional mean read off the same scores), starts pooled, at
  the goal's K itself with ``--observed-samples`` (6,000) draws: measured, not
  extrapolated. Its estimates are set against the inserted ones of the first
  row (Pearson over the k-mers of each length up to ``--order``), and the
  standard errors of both are given at equal model calls.

Forward passes are counted by the scorer (``n_calls``: module calls;
``n_sequences``: records, each read on both strands inside the module).
Goal: under 2 minutes on 2 CPU cores.

    python benchmarks/bench_deep_poim_speed.py
    python benchmarks/bench_deep_poim_speed.py --filters 64 --order 6 --samples 16
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_info import jsonable, machine, versions  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--filters", type=int, default=235)
    parser.add_argument("--length", type=int, default=200)
    parser.add_argument("--order", type=int, default=4, help="K measured")
    parser.add_argument("--goal-order", type=int, default=6, help="K of the goal")
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--all-order", type=int, default=1)
    parser.add_argument("--all-samples", type=int, default=2)
    parser.add_argument("--observed-samples", type=int, default=6000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=512)
    parser.add_argument("--out", type=Path, default=HERE / "deep_poim_speed.json")
    args = parser.parse_args(argv)

    import torch

    from poimkit.background import MarkovBackground
    from poimkit.poim import observed_poim
    from poimkit.poim.sampled import count_evaluations, sampled_poim
    from poimkit.torch import DilatedCNN, as_scorer
    from poimkit.torch.network import n_parameters

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    network = DilatedCNN(filters=args.filters).eval()
    scorer = as_scorer(network, length=args.length, batch_size=args.batch_size)
    background = MarkovBackground.uniform(args.length)
    scorer.decision_function(torch.zeros(2, args.length, dtype=torch.uint8).numpy())
    rows, poims = [], {}
    for windows, order, samples in (
        ("centre", args.order, args.samples),
        ("all", args.all_order, args.all_samples),
    ):
        calls0, seqs0 = scorer.n_calls, scorer.n_sequences
        start = time.perf_counter()
        poims[windows] = sampled_poim(
            scorer.decision_function,
            order,
            background,
            n_samples=samples,
            random_state=0,
            batch_size=4096,
            windows=windows,
        )
        seconds = time.perf_counter() - start
        records = scorer.n_sequences - seqs0
        rate = records / seconds
        full = count_evaluations(args.length, args.goal_order, 0, 16, windows)
        rows.append(
            {
                "windows": windows,
                "order_run": order,
                "samples": samples,
                "seconds": seconds,
                "records": records,
                "module_calls": scorer.n_calls - calls0,
                "records_per_second": rate,
                "records_at_K": full,
                "seconds_at_K": full / rate,
                "extrapolated": order != args.goal_order or samples != 16,
            }
        )
        print(
            f"{windows}: K={order}, {samples} draws: {records:,} records in "
            f"{seconds:.1f} s ({rate:,.1f}/s); at K={args.goal_order} with 16 draws: "
            f"{full:,} records, extrapolated {full / rate:,.0f} s",
            flush=True,
        )
    rows.append(observed_row(args, scorer, background, observed_poim, poims["centre"]))
    record = {
        "benchmark": "deep_poim_speed",
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "args": {
            k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()
        },
        "parameters": int(n_parameters(network)),
        "machine": machine(),
        "versions": versions("torch"),
        "rows": rows,
    }
    print(f"parameters: {record['parameters']:,}")
    args.out.write_text(json.dumps(jsonable(record), indent=1) + "\n")
    return 0


def observed_row(args, scorer, background, observed_poim, inserted) -> dict:
    """`observed_poim` at the goal's K, pooled starts, set against ``inserted``."""
    import numpy as np

    calls0, seqs0 = scorer.n_calls, scorer.n_sequences
    start = time.perf_counter()
    poim = observed_poim(
        scorer.decision_function,
        args.goal_order,
        background,
        n_samples=args.observed_samples,
        random_state=0,
        batch_size=args.batch_size,
        windows="pooled",
    )
    seconds = time.perf_counter() - start
    records = scorer.n_sequences - seqs0
    by_order = []
    for l in range(1, args.goal_order + 1):
        q, se = poim.q(l)[0], poim.stderr[l - 1][0]
        row = {
            "order": l,
            "sd_of_q": float(q.std()),
            "median_se": float(np.nanmedian(se)),
            "share_beyond_3_se": float(np.mean(np.abs(q) > 3 * se)),
        }
        if l <= args.order:
            centre = (args.length - l) // 2
            other = inserted.q(l)[centre]
            row["pearson_with_inserted"] = float(np.corrcoef(q, other)[0, 1])
            row["inserted_median_se"] = float(np.median(inserted.stderr[l - 1][centre]))
        by_order.append(row)
    print(
        f"observed (pooled): K={args.goal_order}, {records:,} records in "
        f"{seconds:.1f} s, measured",
        flush=True,
    )
    for row in by_order:
        print("  " + ", ".join(f"{k} {v:.3g}" for k, v in row.items()), flush=True)
    return {
        "windows": "pooled (observed)",
        "order_run": args.goal_order,
        "samples": args.observed_samples,
        "seconds": seconds,
        "records": records,
        "module_calls": scorer.n_calls - calls0,
        "records_per_second": records / seconds,
        "records_at_K": records,
        "seconds_at_K": seconds,
        "extrapolated": False,
        "by_order": by_order,
    }


if __name__ == "__main__":
    raise SystemExit(main())
