"""Deep models on a planted grammar: a CNN's motifs, spacing, attributions (issue 54).

A fresh-seeded generator (``--seed``, default 54) writes balanced records of
200 letters with a small regulatory grammar; poimkit's `CNNClassifier` is
trained on them and then read three ways, each beside a peer on the *same*
trained network:

* motifs: a sampled POIM of the CNN (`sampled_score_only_poim`, as ``poimkit
  run`` computes it for a CNN: uniform background of ``--poim-length``
  letters, default the records' 200, one central window per k-mer length,
  32 draws; ``--poim-estimator observed --poim-windows pooled --poim-samples
  10000`` for the observed estimator) and `extract_motifs` with the training
  records and labels;
* spacing: `motif_interactions` (I(d, o) = E f(x+A+B) - E f(x+A) - E f(x+B)
  + E f(x), uniform x of 200 letters) for the cooperative pair A-B, the
  additive control pair D-E and the unrelated pair A-C; beside it
  tangermeme's ``space`` (the pair's effect E f(x+A+B) - E f(x) per spacing)
  and ``marginalize`` (each motif alone at the pair's positions, giving the
  same interaction);
* attributions: poimkit's `ism_attributions` and tangermeme's
  ``deep_lift_shap`` (dinucleotide-shuffled references) of the network on
  held-out positives, each followed by modisco-lite.

The grammar (records of 200 letters, letters i.i.d. with GC 0.46 in positives
and 0.42 in negatives: a GC confounder):

* A = AGATAAG and B = ACAGGTG (neither a palindrome) act only together: a
  positive carries, with probability 0.5, the *cooperative pair*, A then B on
  the same strand with 10-20 letters between them (the whole pair on either
  strand, near the centre: letters 40-160). Every other record -- the other
  half of the positives and all negatives -- draws from one shared
  distribution: nothing (0.3), A alone (0.2), B alone (0.2), the pair at a
  wrong spacing (0-4 or 26-40 letters, 0.15) or in a wrong orientation (A+B-,
  A-B+ or A-B-, i.e. B before A, at 10-20 letters, 0.15). So A alone, B alone
  and a wrongly arranged pair carry no information beyond "no cooperative
  pair": the class depends on A and B only through their conjunction.
* C = ATGACTC acts alone: in 40 % of positives and 10 % of negatives.
* D = CCAATCA and E = CGGAAGT act independently (additively in the log-odds):
  each in 35 % of positives and 15 % of negatives, independently, at
  independent random positions (so their spacing carries nothing).

C, D, E sit anywhere, each on a random strand; no two sites overlap. Every
planted letter is kept with probability 0.9, else replaced by another letter
at random (degenerate sites).

Goals: test AUROC well above the GC-only AUROC; A, B and C each found by
poimkit's motifs with at most 1 mismatch (best offset, either strand, as in
``bench_motifs_real.py``); the A-B interaction peaks at orientation ``++``
and a distance in 10-20; the D-E map has no |z| beyond about 3.

    python benchmarks/bench_deep_grammar.py --quick     # smoke test, ~3 min
    python benchmarks/bench_deep_grammar.py             # ~45 min on 1 thread
    python benchmarks/bench_deep_grammar.py --report benchmarks/deep_grammar.json
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", os.environ.get("GRAMMAR_THREADS", "1"))

import argparse  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from deep_grammar_design import (  # noqa: E402
    GC,
    KEEP,
    LENGTH,
    MOTIFS,
    OTHER,
    PAIR_GAP,
    PAIR_RATE,
    SINGLE_RATES,
    START,
    WRONG_GAPS,
    Counter,
    best_matches,
    gc_fraction,
    log,
    make_grammar,
    split,
)
from deep_grammar_peers import (  # noqa: E402
    attributions_and_modisco,
    tangermeme_spacing,
)
from deep_grammar_report import (  # noqa: E402
    report,
)
from run_info import close, jsonable, machine, versions  # noqa: E402


def poim_motifs(cnn, counter, X_train, y_train, args) -> dict:
    from poimkit.background import MarkovBackground
    from poimkit.poim.sampled import count_evaluations
    from poimkit.poim.score_only import sampled_score_only_poim

    length = args.poim_length
    windows = getattr(args, "poim_windows", "all")
    estimator = getattr(args, "poim_estimator", "inserted")
    expected = (
        args.poim_samples
        if estimator == "observed"
        else count_evaluations(length, args.poim_order, 0, args.poim_samples, windows)
    )
    log(
        f"sampled POIM ({estimator}): length {length}, {windows} windows, max order "
        f"{args.poim_order}, {args.poim_samples} samples, {expected} records"
    )
    snap = counter.snapshot()
    start = time.perf_counter()
    poim = sampled_score_only_poim(
        cnn,
        args.poim_order,
        MarkovBackground.uniform(length),
        estimator,
        n_samples=args.poim_samples,
        random_state=args.seed,
        windows=windows,
    )
    poim_s = time.perf_counter() - start
    cost = counter.since(snap)
    log(f"POIM done in {poim_s:.0f} s ({cost})")
    rows, extract_s = extracted(poim, X_train, y_train, args)
    log(f"extract_motifs: {len(rows)} motifs in {extract_s:.0f} s")
    return {
        "poim_length": length,
        "estimator": estimator,
        "windows": windows,
        "max_order": args.poim_order,
        "n_samples": args.poim_samples,
        "expected_records": expected,
        "poim_seconds": poim_s,
        "extract_seconds": extract_s,
        **cost,
        "motifs": rows,
        "planted": best_matches(rows),
    }


def extracted(poim, X_train, y_train, args, **options) -> tuple[list[dict], float]:
    """`extract_motifs` on the training records: its rows and its seconds."""
    from poimkit import extract_motifs

    start = time.perf_counter()
    motifs = extract_motifs(
        poim,
        max_motifs=args.max_motifs,
        sequences=X_train,
        labels=y_train,
        random_state=args.seed,
        **options,
    )
    return motif_rows(motifs), time.perf_counter() - start


def motif_rows(motifs) -> list[dict]:
    """The found motifs as JSON rows, each with its distance to every planted one."""
    rows = [
        {
            "name": m.name,
            "consensus": m.consensus,
            "iupac": m.iupac,
            "label": m.label,
            "importance": m.importance,
            "frac_positive": m.frac_positive,
            "frac_negative": m.frac_negative,
            "q_value": m.q_value,
            "n_sites": m.n_sites,
        }
        for m in motifs
    ]
    for r in rows:
        r["planted"] = {n: close(r["consensus"], t) for n, t in MOTIFS.items()}
    return rows


def context_motifs(cnn, counter, X_train, y_train, args) -> dict:
    """Motifs from ISM attributions of the training records the CNN is surest of.

    The ``--context-n`` positives it scores highest and negatives it scores
    lowest are attributed (`ism_attributions`); `attribution_poim` averages
    each k-mer's summed letter attributions over its occurrences there, in
    the records' own context (where a pair's partner is present), and
    `extract_motifs` tests the seeds on all training records as for a POIM.
    """
    from poimkit.explain.ism import ism_attributions
    from poimkit.explain.kmer_poim import attribution_poim

    scores = cnn.decision_function(X_train)
    pos, neg = np.flatnonzero(y_train == 1), np.flatnonzero(y_train == 0)
    take = np.concatenate(
        [
            pos[np.argsort(-scores[pos])[: args.context_n]],
            neg[np.argsort(scores[neg])[: args.context_n]],
        ]
    )
    snap = counter.snapshot()
    start = time.perf_counter()
    found = ism_attributions(cnn, X_train[take])
    ism_s = time.perf_counter() - start
    cost = counter.since(snap)
    log(f"ISM of {take.size} records in {ism_s:.0f} s ({cost})")
    start = time.perf_counter()
    poim = attribution_poim(found, args.poim_order)
    table_s = time.perf_counter() - start
    rows, extract_s = extracted(
        poim, X_train, y_train, args, min_enrichment=args.context_min_enrichment
    )
    log(f"context motifs: {[r['consensus'] for r in rows]} in {extract_s:.0f} s")
    top = poim.top(12, order=min(6, args.poim_order))
    return {
        "n_positive": int(min(args.context_n, pos.size)),
        "n_negative": int(min(args.context_n, neg.size)),
        "max_order": args.poim_order,
        "min_enrichment": args.context_min_enrichment,
        "ism_seconds": ism_s,
        "table_seconds": table_s,
        "extract_seconds": extract_s,
        **cost,
        "top_kmers": [[k, v] for k, _, v in top],
        "motifs": rows,
        "planted": best_matches(rows),
    }


# --------------------------------------------------------------------------- #
# interactions
# --------------------------------------------------------------------------- #
def poimkit_interactions(cnn, counter, pair, args) -> dict:
    from poimkit.importance.interactions import motif_interactions

    a, b = MOTIFS[pair[0]], MOTIFS[pair[1]]
    snap = counter.snapshot()
    start = time.perf_counter()
    found = motif_interactions(
        cnn,
        a,
        b,
        length=LENGTH,
        distances=range(0, args.max_distance + 1),
        n_samples=args.int_samples,
        random_state=args.seed,
    )
    seconds = time.perf_counter() - start
    z = found.z()
    peak = found.peak()
    zpeak = np.unravel_index(np.argmax(np.abs(z)), z.shape)
    out = {
        "pair": pair,
        "seconds": seconds,
        **counter.since(snap),
        "n_evaluations": found.n_evaluations,
        "peak": peak,
        "max_abs_z": float(np.abs(z).max()),
        "max_abs_z_at": [found.orientations[zpeak[0]], int(found.distances[zpeak[1]])],
        "n_abs_z_over_3": int((np.abs(z) > 3).sum()),
        "n_cells": int(z.size),
        "orientations": list(found.orientations),
        "distances": found.distances.tolist(),
        "interaction": found.interaction.tolist(),
        "stderr": found.stderr.tolist(),
        "effect_a": found.effect_a.tolist(),
        "effect_b": found.effect_b.tolist(),
        "effect_pair": found.effect_pair.tolist(),
        "baseline": found.baseline,
    }
    log(
        f"poimkit interactions {pair}: peak {peak['orientation']} d={peak['distance']} "
        f"I={peak['interaction']:.3f} z={peak['z']:.1f}, "
        f"max|z| {out['max_abs_z']:.1f}, {seconds:.0f} s"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument(
        "--model",
        choices=("cnn", "bpnet"),
        default="cnn",
        help="poimkit's CNNClassifier, or bpnet-lite's BPNet read through "
        "as_scorer (needs pip install bpnet-lite)",
    )
    parser.add_argument("--bpnet-filters", type=int, default=64)
    parser.add_argument("--bpnet-layers", type=int, default=6)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--n-train", type=int, default=8000)
    parser.add_argument("--n-test", type=int, default=2000)
    parser.add_argument("--max-time", type=float, default=900.0)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument(
        "--patience", type=int, default=4, help="CNN early stopping (its default 4)"
    )
    parser.add_argument("--poim-length", type=int, default=200)
    parser.add_argument(
        "--poim-estimator", choices=("inserted", "observed"), default="inserted"
    )
    parser.add_argument(
        "--poim-windows", choices=("all", "centre", "pooled"), default="centre"
    )
    parser.add_argument(
        "--threads", type=int, default=int(os.environ.get("GRAMMAR_THREADS", "1"))
    )
    parser.add_argument("--poim-order", type=int, default=6)
    parser.add_argument(
        "--poim-samples",
        type=int,
        default=32,
        help="draws per window (inserted) or in all (observed: try 10000)",
    )
    parser.add_argument("--max-motifs", type=int, default=5)
    parser.add_argument(
        "--context-n",
        type=int,
        default=200,
        help="training records of each class attributed for the motifs in "
        "context (0: skip)",
    )
    parser.add_argument(
        "--context-min-enrichment",
        type=float,
        default=1.25,
        help="extract_motifs' min_enrichment for the motifs in context (a pair's "
        "motif is enriched only as much as the pair: 0.75 / 0.5 here)",
    )
    parser.add_argument(
        "--load-model", metavar="NPZ", help="a CNNClassifier saved by --save-model"
    )
    parser.add_argument("--save-model", metavar="NPZ", help="save the trained CNN")
    parser.add_argument("--int-samples", type=int, default=128)
    parser.add_argument("--max-distance", type=int, default=30)
    parser.add_argument(
        "--attr-n", type=int, default=300, help="held-out positives attributed"
    )
    parser.add_argument("--n-shuffles", type=int, default=20)
    parser.add_argument("--no-peers", dest="peers", action="store_false")
    parser.add_argument(
        "--no-poim",
        dest="poim",
        action="store_false",
        help="skip the sampled POIM and its motifs (e.g. the peers of a loaded model)",
    )
    parser.add_argument("--json", default=str(HERE / "deep_grammar.json"))
    parser.add_argument(
        "--report", metavar="JSON", help="only print the tables of a finished run"
    )
    args = parser.parse_args()
    if args.report:
        saved = json.loads(Path(args.report).read_text())
        print(report(saved, argparse.Namespace(**saved["args"])))
        return
    if args.quick:
        args.n_train, args.n_test, args.epochs = 1600, 400, 3
        args.poim_order, args.poim_samples, args.int_samples = 4, 4, 16
        args.attr_n, args.n_shuffles, args.context_n = 60, 4, 40
        if args.json == str(HERE / "deep_grammar.json"):
            args.json = str(HERE / "deep_grammar_quick.json")
    command = "python benchmarks/bench_deep_grammar.py " + " ".join(sys.argv[1:])

    import torch

    torch.set_num_threads(args.threads)
    if args.peers:
        from motif_recovery_methods import warm_up_modisco

        log("modisco-lite warm-up (untimed)")
        warm_up_modisco()

    from sklearn.metrics import roc_auc_score

    from poimkit.torch import CNNClassifier

    n = args.n_train + args.n_test
    X, y, arrangement, singles = make_grammar(n // 2, n // 2, args.seed)
    train, test = split(X, y, args.n_test, args.seed)
    Xtr, ytr, Xte, yte = X[train], y[train], X[test], y[test]
    data = {
        "n_train": int(train.sum()),
        "n_test": int(test.sum()),
        "arrangements": {
            str(label): {
                k: int(
                    sum(
                        a == k
                        for a, l in zip(arrangement, y, strict=True)
                        if l == label
                    )
                )
                for k in ["pair", *OTHER]
            }
            for label in (1, 0)
        },
        "singles": {
            str(label): {
                k: int(
                    sum(k in s for s, l in zip(singles, y, strict=True) if l == label)
                )
                for k in SINGLE_RATES
            }
            for label in (1, 0)
        },
        "gc_mean": {str(l): float(gc_fraction(X[y == l]).mean()) for l in (1, 0)},
    }
    log(f"data: {data}")

    cnn = CNNClassifier(
        n_threads=args.threads,
        max_time=args.max_time,
        epochs=args.epochs,
        patience=args.patience,
    )
    start = time.perf_counter()
    if args.model == "bpnet":
        from deep_grammar_bpnet import train_bpnet

        cnn = train_bpnet(Xtr, ytr, args, log)
    elif args.load_model:  # a network trained by an earlier run (its times are not)
        from poimkit import load_model

        cnn = load_model(args.load_model)
        cnn.n_threads = args.threads
    else:
        cnn.fit(
            Xtr,
            ytr,
            on_epoch=lambda e, t, v: log(f"epoch {e}: train {t:.4f} held-out {v:.4f}"),
        )
    train_s = time.perf_counter() - start
    if args.save_model:
        cnn.save(args.save_model)
    counter = Counter(getattr(cnn, "counted_", cnn.network_))
    auc = float(roc_auc_score(yte, cnn.decision_function(Xte)))
    gc_train = roc_auc_score(ytr, gc_fraction(Xtr))
    sign = 1.0 if gc_train >= 0.5 else -1.0
    gc_auc = float(roc_auc_score(yte, sign * gc_fraction(Xte)))
    model = {
        "name": "BPNet (bpnet-lite)" if args.model == "bpnet" else "CNN",
        "test_auroc": auc,
        "gc_auroc": gc_auc,
        "train_seconds": train_s,
        "params": {k: v for k, v in cnn.get_params().items()},
    }
    if cnn.log_ is None:
        model["loaded"] = args.load_model
    else:
        model.update(
            epochs_run=len(cnn.log_.train_loss),
            best_epoch=cnn.log_.best_epoch,
            stopped=cnn.log_.stopped,
            train_loss=cnn.log_.train_loss,
            valid_loss=cnn.log_.valid_loss,
        )
    log(f"{model['name']}: test AUROC {auc:.3f}, GC {gc_auc:.3f}, {train_s:.0f} s")
    res = {"data": data, "model": model}
    errors = {}

    def guarded(key, fn):
        try:
            res[key] = fn()
        except Exception:
            errors[key] = traceback.format_exc()
            log(f"{key} FAILED:\n{errors[key]}")

    if args.poim:
        guarded("poim", lambda: poim_motifs(cnn, counter, Xtr, ytr, args))
    if args.context_n:
        guarded("context_motifs", lambda: context_motifs(cnn, counter, Xtr, ytr, args))
    res["interactions"] = {}
    for pair in ("AB", "DE", "AC"):
        try:
            res["interactions"][pair] = poimkit_interactions(cnn, counter, pair, args)
        except Exception:
            errors[f"interactions_{pair}"] = traceback.format_exc()
            log(f"interactions {pair} FAILED:\n{errors[f'interactions_{pair}']}")
    if args.peers:
        guarded(
            "tangermeme_spacing",
            lambda: tangermeme_spacing(cnn.network_, counter, args),
        )
        X_attr = Xte[yte == 1][: args.attr_n]
        guarded(
            "attributions", lambda: attributions_and_modisco(cnn, counter, X_attr, args)
        )
    res["errors"] = errors
    res["total_seconds"] = time.perf_counter() - START
    meta = {
        "date": datetime.date.today().isoformat(),
        "command": command,
        "args": vars(args),
        "machine": machine(),
        "versions": versions("torch", "tangermeme", "modisco-lite", "bpnet-lite"),
        "motifs": MOTIFS,
        "design": {
            "keep": KEEP,
            "gc": GC,
            "pair_rate": PAIR_RATE,
            "pair_gap": PAIR_GAP,
            "other": OTHER,
            "wrong_gaps": WRONG_GAPS,
            "single_rates": SINGLE_RATES,
        },
    }
    Path(args.json).write_text(
        json.dumps(jsonable({**meta, **res}), indent=1, default=str)
    )
    try:
        table = report(res, args)
    except Exception:
        table = "report failed:\n" + traceback.format_exc()
    print(table, flush=True)
    log(f"done in {res['total_seconds']:.0f} s; wrote {args.json}")


if __name__ == "__main__":
    main()
