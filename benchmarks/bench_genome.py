"""Benchmark: the genome workflow end to end on a synthetic genome (issue 28).

Data: `poimkit.datasets.write_synthetic_genome` (seeded): 5 chromosomes of
10 Mb (50 Mb; ``--quick``: 3 of 1 Mb), GC isochores 0.35-0.60, 20 %
soft-masked repeat copies, N gaps, 10,000 peaks (``--quick``: 400) placed
GC-biased, 90 % with a site of the NFE2 / AP-1-like motif ``TGACTCAGCA``
(drawn from `poimkit.datasets.consensus_pwm`) at the summit on either
strand, 1,000 motif sites outside peaks; a VCF of 10^6 SNVs (``--quick``:
2*10^4): 500 causal ones (each changes a conserved letter of a site at a
summit) among neutral ones at random positions away from every site (10 %
of them inside peaks), plus 10 indels and 3 multi-allelic lines.

Steps, each timed (wall seconds of a fresh process for the CLI steps):

a. ``poimkit run --bed peaks.narrowPeak --genome genome.fa -o OUT`` with the
   defaults (model family chosen by the run, windows of 200 around the
   summits, genomic negatives matched in GC and repeats); its ``cv_auc``
   from ``OUT/summary.json`` next to the PWM-scan oracle: every positive
   window and every negative of ``OUT/negatives.bed`` scored by its best
   log-odds window of the true PWM (against the genome's letter
   frequencies) on either strand, no training. Goal: under 5 minutes.
b. A gkm model on the same records (``poimkit train --kernel gkm --solver
   linear --bed ... --negatives OUT/negatives.bed``), then
   ``poimkit variants MODEL --vcf variants.vcf --genome genome.fa -o
   effects.tsv`` on every line. Goal: 10^6 SNVs in under 60 s.
   The optional peer gkmsvm-lite (the ``bench`` extra; skipped with a line
   when missing) trains ``train_gkmsvm`` (its defaults: l = 11, k = 7, d = 3,
   both strands) on a balanced sample of ``--peer-n`` of the same records
   (its exact kernel solver is quadratic), then scores variants three ways:
   ``score_variants(method="kernel")`` and ``method="gkmexplain"`` on
   windows of the model's width centred on the variant, for a sample of
   ``--peer-variants`` SNVs (all causal ones in it in their share of the
   full set, at least 20); and ``DeltaSVM`` (``to_deltasvm``: the 4^11
   l-mer table scored through the model, in a child process stopped after
   ``--budget`` seconds) on windows of 2l - 1 letters for all SNVs.
   Reported: time, the rate in variants per second, and the Spearman
   correlation of each method's effects with poimkit's on the variants
   both scored.
c. Planted truth: precision of the 100 variants of largest |effect|
   (causal among neutral) over all SNVs, for poimkit and DeltaSVM; on the
   peers' sample, the precision of the top k (k = causal SNVs in the
   sample) for every method, poimkit included.

If a step fails (for example a command not there yet), its row says why
and the steps that do not need it still run; without the run's
``negatives.bed`` the records for (b) and the oracle take uniform genome
windows away from the peaks (said in the JSON).

Output: a table on stdout and JSON (``--out``, default
benchmarks/genome.json, genome_quick.json with --quick).

    python benchmarks/bench_genome.py             # 50 Mb, 10^6 SNVs (~20 min)
    python benchmarks/bench_genome.py --quick     # smoke run, a few minutes
    python benchmarks/bench_genome.py --no-peers  # poimkit only
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # a checkout without installing
    sys.path.insert(0, str(ROOT))
from genome_commands import poimkit_command, timed  # noqa: E402
from genome_config import (  # noqa: E402  # noqa: E402
    BUDGET,
    FULL,
    GOAL_RUN_S,
    GOAL_VARIANTS_S,
    PEER_N,
    PEER_VARIANTS,
    QUICK,
    QUICK_PEER_N,
    QUICK_PEER_VARIANTS,
    SEED,
    TOP,
    WIDTH,
    log,
)
from genome_data import auc, fallback_negatives, oracle_scores, records  # noqa: E402
from genome_peers import deltasvm_child, peer_available, run_peer  # noqa: E402
from genome_variants import (  # noqa: E402
    precision_at,
    precision_of_losses,
    read_effects,
    read_snvs,
    spearman,
)


# --------------------------------------------------------------------------- #
# main
# --------------------------------------------------------------------------- #
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="a small genome: smoke run"
    )
    parser.add_argument(
        "--work",
        type=Path,
        help="folder for the genome and runs (default: a temp folder)",
    )
    parser.add_argument("--out", type=Path, help="JSON results")
    parser.add_argument("--no-peers", action="store_true", help="poimkit only")
    parser.add_argument(
        "--peer-n", type=int, help=f"records gkmsvm-lite trains on (default {PEER_N})"
    )
    parser.add_argument(
        "--peer-variants",
        type=int,
        help=f"SNVs its kernel and gkmexplain methods score (default {PEER_VARIANTS})",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=BUDGET,
        help="seconds before a child step is stopped",
    )
    parser.add_argument("--deltasvm-child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.deltasvm_child:
        deltasvm_child(*args.deltasvm_child)
        return 0
    import tempfile

    args.peer_n = args.peer_n or (QUICK_PEER_N if args.quick else PEER_N)
    args.peer_variants = args.peer_variants or (
        QUICK_PEER_VARIANTS if args.quick else PEER_VARIANTS
    )
    out_path = args.out or HERE / ("genome_quick.json" if args.quick else "genome.json")
    keep = args.work is not None
    work = args.work or Path(tempfile.mkdtemp(prefix="bench_genome_"))
    work.mkdir(parents=True, exist_ok=True)
    results: dict = {
        "date": datetime.date.today().isoformat(),
        "quick": args.quick,
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg()[0],
        "width": WIDTH,
    }

    # data
    from poimkit.datasets import write_synthetic_genome

    config = QUICK if args.quick else FULL
    log(f"writing the genome: {config}")
    start = time.perf_counter()
    g = write_synthetic_genome(work / "genome", seed=SEED, **config)
    results["genome"] = {
        **config,
        "seconds": time.perf_counter() - start,
        "megabases": sum(g.lengths) / 1e6,
        "mask_fraction": g.mask_fraction,
        "sites_at_peaks": int(g.peak_has_motif.sum()),
        "causal": len(g.causal_ids),
        "lines": len(g.causal_ids) + len(g.neutral_ids),
        "motif": g.motif,
    }
    log(f"  {results['genome']['seconds']:.1f} s")

    # a. poimkit run
    run_dir = work / "run"
    run = timed(
        poimkit_command(
            "run", "--bed", g.peaks, "--genome", g.genome, "-o", run_dir, "--quiet"
        ),
        4 * args.budget,
    )
    if run["ok"]:
        summary = json.loads((run_dir / "summary.json").read_text())
        run["cv_auc"] = summary.get("cv_auc")
        run["model"] = {
            k: summary.get(k) for k in ("kernel", "family", "params") if k in summary
        }
    negatives = run_dir / "negatives.bed"
    if not negatives.exists():
        results["negatives"] = (
            "bench fallback: uniform genome windows away from peaks "
            "(the run wrote no negatives.bed)"
        )
        negatives = fallback_negatives(
            g, g.n_peaks, work / "negatives_fallback.bed", SEED
        )
    else:
        results["negatives"] = "the run's negatives.bed"
    pos, neg = records(g, negatives)
    y = np.r_[np.ones(len(pos)), np.zeros(len(neg))]
    oracle = oracle_scores(g, pos + neg)
    run["oracle_auc"] = auc(y, oracle)
    run["records"] = [len(pos), len(neg)]
    results["run"] = run
    log(f"oracle AUC {run['oracle_auc']:.4f} on {len(pos)} + {len(neg)} records")

    # b. a gkm model and poimkit variants
    model = work / "gkm.npz"
    train = timed(
        poimkit_command(
            "train",
            "--bed",
            g.peaks,
            "--genome",
            g.genome,
            "--negatives",
            negatives,
            "--kernel",
            "gkm",
            "--solver",
            "linear",
            "-o",
            model,
            "--quiet",
        ),
        4 * args.budget,
    )
    results["gkm_train"] = train
    snv = read_snvs(g)
    effects_path = work / "effects.tsv"
    variants = {"ok": False, "error": "no gkm model"}
    poim_effect = None
    if train["ok"]:
        variants = timed(
            poimkit_command(
                "variants",
                model,
                "--vcf",
                g.vcf,
                "--genome",
                g.genome,
                "-o",
                effects_path,
                "--quiet",
            ),
            4 * args.budget,
        )
    if variants["ok"]:
        effects = read_effects(effects_path)
        poim_effect = np.array([effects.get(i, np.nan) for i in snv["id"]])
        variants["snvs"] = int(np.isfinite(poim_effect).sum())
        variants["rate"] = variants["snvs"] / variants["seconds"]
        variants[f"precision_top{TOP}"] = precision_at(
            np.nan_to_num(poim_effect), snv["causal"], TOP
        )
        variants[f"precision_losses{TOP}"] = precision_of_losses(
            poim_effect, snv["causal"], TOP
        )
    results["variants"] = variants

    # the peers' sample: causal SNVs in their share, at least 20
    rng = np.random.default_rng(SEED)
    causal_rows = np.flatnonzero(snv["causal"])
    neutral_rows = np.flatnonzero(~snv["causal"])
    n_causal = min(
        causal_rows.size,
        max(20, round(args.peer_variants * causal_rows.size / snv["causal"].size)),
    )
    sample = np.sort(
        np.r_[
            rng.choice(causal_rows, n_causal, replace=False),
            rng.choice(neutral_rows, args.peer_variants - n_causal, replace=False),
        ]
    )
    k = n_causal
    results["sample"] = {"snvs": int(sample.size), "causal": int(k)}
    rows_out = []
    if poim_effect is not None:
        rows_out.append(
            {
                "method": "poimkit variants (gkm)",
                "snvs": variants["snvs"],
                "seconds": variants["seconds"],
                "rate": variants["rate"],
                "spearman": 1.0,
                "precision_top100": variants[f"precision_top{TOP}"],
                "precision_losses100": variants[f"precision_losses{TOP}"],
                "precision_sample": precision_at(
                    poim_effect[sample], snv["causal"][sample], k
                ),
            }
        )
    skip = "peers skipped (--no-peers)" if args.no_peers else peer_available()
    if skip:
        log(skip)
        results["peer"] = {"skipped": skip}
    else:
        peer = run_peer(g, pos, neg, snv, sample, args, work)
        for name, m in peer["methods"].items():
            row = {"method": f"gkmsvm-lite {name}"}
            if "error" in m:
                row["error"] = m["error"]
                rows_out.append(row)
                continue
            rows, effect = m["rows"], m["effect"]
            row.update(
                {
                    "snvs": int(rows.size),
                    "seconds": m["seconds"],
                    "rate": rows.size / m["seconds"],
                }
            )
            if "table_s" in m:
                row["table_s"] = m["table_s"]
            if poim_effect is not None:
                row["spearman"] = spearman(effect, poim_effect[rows])
            if rows.size == snv["pos"].size:
                row["precision_top100"] = precision_at(effect, snv["causal"], TOP)
                row["precision_losses100"] = precision_of_losses(
                    effect, snv["causal"], TOP
                )
                effect = effect[sample]
            row["precision_sample"] = precision_at(effect, snv["causal"][sample], k)
            rows_out.append(row)
        results["peer"] = {k_: v for k_, v in peer.items() if k_ != "methods"}
    results["variant_methods"] = rows_out
    results["goals"] = goals(results)
    out_path.write_text(json.dumps(results, indent=2, default=float) + "\n")
    print(table(results))
    for line in results["goals"]:
        print(line)
    log(f"results in {out_path}; files in {work}{'' if keep else ' (a temp folder)'}")
    return 0


def goals(r: dict) -> list[str]:
    run, var = r["run"], r["variants"]
    lines = []
    if run["ok"]:
        ok = run["seconds"] < GOAL_RUN_S
        lines.append(
            f"{'PASS' if ok else 'FAIL'}: poimkit run --bed --genome "
            f"{run['seconds']:.0f} s (goal < {GOAL_RUN_S:.0f} s)"
        )
    else:
        lines.append(f"NOT RUN: poimkit run --bed --genome ({run['error']})")
    if var["ok"]:
        ok = var["seconds"] < GOAL_VARIANTS_S
        lines.append(
            f"{'PASS' if ok else 'FAIL'}: poimkit variants {var['snvs']} SNVs in "
            f"{var['seconds']:.0f} s (goal < {GOAL_VARIANTS_S:.0f} s for 10^6)"
        )
    else:
        lines.append(f"NOT RUN: poimkit variants ({var['error']})")
    return lines


def table(r: dict) -> str:
    g, run = r["genome"], r["run"]
    cv = run.get("cv_auc")
    lines = [
        f"genome: {g['megabases']:.0f} Mb, {g['n_peaks']} peaks, {g['lines']} VCF "
        f"lines, written in {g['seconds']:.1f} s",
        f"negatives: {r['negatives']}",
        "",
        "| step | wall s | CV AUC | oracle AUC | note |",
        "|---|---|---|---|---|",
        f"| poimkit run --bed --genome | {run['seconds']:.1f} "
        f"| {'-' if cv is None else f'{cv:.4f}'} | {run['oracle_auc']:.4f} "
        f"| {run.get('error', '')} |",
        f"| poimkit train --kernel gkm --solver linear "
        f"| {r['gkm_train']['seconds']:.1f} | | | {r['gkm_train'].get('error', '')} |",
        "",
        f"variants (sample for the peers: {r['sample']['snvs']} SNVs, "
        f"{r['sample']['causal']} causal)",
        "",
        "| method | SNVs | s | SNVs/s | Spearman vs poimkit | precision top 100 (all) "
        "| top 100 losses (all) | precision top k (sample) | note |",
        "|---|---|---|---|---|---|---|---|---|",
    ]

    def f(v, fmt):
        return "-" if v is None else format(v, fmt)

    for row in r["variant_methods"]:
        note = row.get("error", "")
        if "table_s" in row:
            note = f"l-mer table {row['table_s']:.0f} s"
        lines.append(
            f"| {row['method']} | {row.get('snvs', '-')} "
            f"| {f(row.get('seconds'), '.1f')} | {f(row.get('rate'), '.0f')} "
            f"| {f(row.get('spearman'), '.3f')} "
            f"| {f(row.get('precision_top100'), '.2f')} "
            f"| {f(row.get('precision_losses100'), '.2f')} "
            f"| {f(row.get('precision_sample'), '.2f')} | {note} |"
        )
    if not r["variants"]["ok"]:
        lines.append(
            "| poimkit variants | - | - | - | - | - | - | - "
            f"| {r['variants']['error']} |"
        )
    if "skipped" in r.get("peer", {}):
        lines.append(r["peer"]["skipped"])
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
