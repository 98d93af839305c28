"""Motifs from attributions in context beside those of the POIM, real peaks (issue 54).

`poimkit.explain.attribution_poim` averages each k-mer's summed letter
attributions over its occurrences in records the model explains. It exists for
motifs a background POIM cannot see (a pair that acts only together: see
``bench_deep_grammar.py``); here it is checked where the POIM works, on the
shared real sets, so that it is known not to lose what the POIM finds.

For each set's training records (`deep_models_data.load_set`) and each model
(`GkmSVC()` at its defaults: exact attributions, no model calls; and, with
``--cnn``, `CNNClassifier()` at its defaults: in-silico mutagenesis), the
benchmark reports:

* **POIM**: `compute_poim` (GkmSVC: exact, position-free, k <= 6) or the
  run's sampled POIM of a CNN (inserted at the centre, k <= 5, 32 draws),
  then `extract_motifs` on the training records;
* **context**: attributions of the ``--n`` positives the model scores highest
  and the ``--n`` negatives it scores lowest, `attribution_poim` (k <= 6),
  then `extract_motifs` on the same records, at the default
  ``min_enrichment`` and at 1.25.

The motifs of both routes are listed with their evidence and times.

    python benchmarks/bench_context_motifs.py            # NFE2 and Nanog, GkmSVC
    python benchmarks/bench_context_motifs.py --cnn --sets nfe2
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

from bench_observed_poim import motif_rows, timed  # noqa: E402
from deep_models_data import load_set  # noqa: E402
from run_info import jsonable, machine, versions  # noqa: E402

START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", flush=True)


def model_of(kind: str, args):
    if kind == "gkm":
        from poimkit import GkmSVC

        return GkmSVC(n_threads=args.threads)
    from poimkit.torch import CNNClassifier

    return CNNClassifier(n_threads=args.threads, max_time=args.max_time)


def poim_of(model, kind: str, length: int, args):
    from poimkit.background import MarkovBackground

    if kind == "gkm":
        from poimkit import compute_poim

        return compute_poim(model, 6, MarkovBackground.uniform(length))
    from poimkit.poim.score_only import sampled_score_only_poim

    return sampled_score_only_poim(
        model,
        5,
        MarkovBackground.uniform(length),
        n_samples=32,
        random_state=args.seed,
        windows="centre",
    )


def one(name: str, kind: str, args) -> dict:
    from poimkit.explain import attribution_poim, explain_records

    data = load_set(name)
    X, y = data["train_seqs"], data["train_y"]
    length = int(min(1000, np.median([x.size for x in X])))
    model = model_of(kind, args)
    _, train_s = timed(model.fit, X, y)
    log(f"{name} {kind}: trained in {train_s:.0f} s on {len(X)} records")
    poim, poim_s = timed(poim_of, model, kind, length, args)
    poim_motifs, poim_extract = motif_rows(poim, X, y, args.seed)
    log(f"{name} {kind}: POIM motifs {[m['consensus'] for m in poim_motifs]}")
    scores = model.decision_function(X)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    take = np.concatenate(
        [
            pos[np.argsort(-scores[pos])[: args.n]],
            neg[np.argsort(scores[neg])[: args.n]],
        ]
    )
    (found, _, method), attr_s = timed(explain_records, model, [X[i] for i in take])
    table, table_s = timed(attribution_poim, found, 6)
    context = {}
    for label, options in (("default", {}), ("1.25", {"min_enrichment": 1.25})):
        rows, seconds = motif_rows(table, X, y, args.seed, **options)
        context[label] = {"motifs": rows, "extract_seconds": seconds}
        log(f"{name} {kind}: context motifs ({label}) {[m['consensus'] for m in rows]}")
    return {
        "set": name,
        "model": kind,
        "records": len(X),
        "train_seconds": train_s,
        "poim": {
            "seconds": poim_s,
            "extract_seconds": poim_extract,
            "motifs": poim_motifs,
        },
        "context": {
            "records_attributed": int(take.size),
            "attributions": method,
            "attribution_seconds": attr_s,
            "table_seconds": table_s,
            **context,
        },
    }


def report(runs: list[dict]) -> str:
    def words(rows):
        return (
            "; ".join(
                f"`{m['consensus']}` ({'+' if m['label'] else '-'}, "
                f"{m['frac_positive']:.2f} / {m['frac_negative']:.2f}, "
                f"q {m['q_value']:.0e})"
                for m in rows
            )
            or "none"
        )

    lines = [
        "| set | model | POIM: time, motifs | context: attribution time (records), "
        "motifs at min_enrichment 2 | at 1.25 |",
        "|---|---|---|---|---|",
    ]
    for r in runs:
        p, c = r["poim"], r["context"]
        lines.append(
            f"| {r['set']} | {r['model']} | {p['seconds']:.0f} s: "
            f"{words(p['motifs'])} | {c['attribution_seconds']:.0f} s "
            f"({c['records_attributed']}, {c['attributions']}): "
            f"{words(c['default']['motifs'])} | {words(c['1.25']['motifs'])} |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=["nfe2", "nanog"])
    parser.add_argument("--cnn", action="store_true", help="also the CNN (slow)")
    parser.add_argument("--n", type=int, default=200, help="records of each class")
    parser.add_argument("--max-time", type=float, default=600.0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=HERE / "context_motifs.json")
    args = parser.parse_args(argv)
    import torch

    torch.manual_seed(args.seed)
    kinds = ["gkm", "cnn"] if args.cnn else ["gkm"]
    runs = [one(name, kind, args) for name in args.sets for kind in kinds]
    record = {
        "benchmark": "context_motifs",
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "command": "python benchmarks/bench_context_motifs.py "
        + " ".join(sys.argv[1:]),
        "args": {
            k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()
        },
        "machine": machine(),
        "versions": versions("torch"),
        "runs": runs,
    }
    args.out.write_text(json.dumps(jsonable(record), indent=1) + "\n")
    print(report(runs))
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
