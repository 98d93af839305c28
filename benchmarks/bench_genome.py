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
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # a checkout without installing
    sys.path.insert(0, str(ROOT))

FULL = {
    "n_chromosomes": 5,
    "chromosome_length": 10_000_000,
    "n_peaks": 10_000,
    "n_causal": 500,
    "n_neutral": 1_000_000 - 500,
}
QUICK = {
    "n_chromosomes": 3,
    "chromosome_length": 1_000_000,
    "n_peaks": 400,
    "n_causal": 100,
    "n_neutral": 20_000 - 100,
}
WIDTH = 200
SEED = 28
GOAL_RUN_S, GOAL_VARIANTS_S = 300.0, 60.0
TOP = 100
PEER_N, QUICK_PEER_N = 1000, 300
PEER_VARIANTS, QUICK_PEER_VARIANTS = 400, 100
BUDGET = 900.0
GKM_L = 11

_START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - _START:7.1f} s] {message}", file=sys.stderr)


# --------------------------------------------------------------------------- #
# commands
# --------------------------------------------------------------------------- #
def poimkit_command(*args: object) -> list[str]:
    """``poimkit ARGS`` from this checkout, as a fresh process."""
    return [sys.executable, "-m", "poimkit.cli", *map(str, args)]


def timed(command: list[str], timeout: float) -> dict:
    """Run a command; wall seconds, exit code and the last line of stderr."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    log("$ " + " ".join(command[2:] if command[1] == "-m" else command))
    start = time.perf_counter()
    try:
        done = subprocess.run(
            command,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as stopped:
        text = stopped.stderr or ""
        text = text.decode(errors="replace") if isinstance(text, bytes) else text
        parts = [x.strip() for x in text.replace("\r", "\n").splitlines() if x.strip()]
        last = f" (last progress: {parts[-1]})" if parts else ""
        log(f"  stopped after {timeout:.0f} s{last}")
        error = f"stopped after {timeout:.0f} s{last}"
        return {"ok": False, "seconds": timeout, "error": error}
    seconds = time.perf_counter() - start
    lines = [x for x in done.stderr.splitlines() if x.strip()]
    tail = lines[-1] if lines else ""
    if done.returncode:
        log(f"  exit {done.returncode}: {tail}")
        return {
            "ok": False,
            "seconds": seconds,
            "error": f"exit {done.returncode}: {tail}",
        }
    log(f"  {seconds:.1f} s")
    return {"ok": True, "seconds": seconds}


# --------------------------------------------------------------------------- #
# records and the oracle
# --------------------------------------------------------------------------- #
def fallback_negatives(g, n: int, path: Path, seed: int) -> Path:
    """Uniform genome windows of WIDTH away from peaks and N (BED6)."""
    from poimkit.genome.reference import open_genome

    rng = np.random.default_rng(seed)
    rows = []
    with open_genome(g.genome, quiet=True) as genome:
        while len(rows) < n:
            c = int(rng.integers(len(g.chromosomes)))
            chrom = g.chromosomes[c]
            s = int(rng.integers(0, g.lengths[c] - WIDTH))
            same = g.peak_chrom == chrom
            if np.any(same & (g.peak_start < s + WIDTH) & (g.peak_end > s)):
                continue
            if "N" in genome.fetch(chrom, s, s + WIDTH).upper():
                continue
            rows.append(f"{chrom}\t{s}\t{s + WIDTH}\tneg{len(rows) + 1}\t0\t+\n")
    path.write_text("".join(rows))
    return path


def records(g, negatives_bed: Path) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Positive windows (WIDTH around the summits) and the negatives' letters."""
    import warnings

    from poimkit.genome.peaks import extract, read_peaks
    from poimkit.genome.reference import open_genome

    with warnings.catch_warnings(), open_genome(g.genome, quiet=True) as genome:
        warnings.simplefilter("ignore")
        pos = extract(genome, read_peaks(g.peaks).windows(WIDTH)).seqs
        neg = extract(genome, read_peaks(negatives_bed).windows(WIDTH)).seqs
    return pos, neg


def oracle_scores(g, seqs: list[np.ndarray]) -> np.ndarray:
    """Best log-odds window of the true PWM on either strand, per record."""
    from poimkit.motifs.scan import padded, window_scores

    lod = g.log_odds()
    X = padded(seqs)
    starts = np.arange(X.shape[1] - lod.shape[0] + 1)
    fwd = window_scores(X, starts, lod)
    rev = window_scores(X, starts, lod[::-1, ::-1])
    return np.maximum(fwd.max(axis=1), rev.max(axis=1))


def auc(y: np.ndarray, score: np.ndarray) -> float:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(y, score))


# --------------------------------------------------------------------------- #
# variants: the VCF's SNVs, poimkit's table, precision
# --------------------------------------------------------------------------- #
def read_snvs(g) -> dict:
    """The VCF's single-ALT SNVs: chrom, 0-based pos, id, ref, alt, causal."""
    import pandas as pd

    table = pd.read_csv(
        g.vcf,
        sep="\t",
        comment="#",
        header=None,
        usecols=range(5),
        names=["chrom", "pos", "id", "ref", "alt"],
        dtype={"chrom": str},
    )
    snv = (table["ref"].str.len() == 1) & (table["alt"].str.len() == 1)
    table = table[snv].reset_index(drop=True)
    causal = table["id"].isin(set(g.causal_ids)).to_numpy()
    return {
        "chrom": table["chrom"].to_numpy(),
        "pos": table["pos"].to_numpy(np.int64) - 1,
        "id": table["id"].to_numpy(),
        "ref": table["ref"].to_numpy(),
        "alt": table["alt"].to_numpy(),
        "causal": causal,
    }


def read_effects(path: Path) -> dict[str, float]:
    """id -> effect of poimkit's table (SNV lines; a split line keeps its first)."""
    import pandas as pd

    table = pd.read_csv(path, sep="\t", comment="#", dtype={"chrom": str})
    table = table.drop_duplicates("id")
    return dict(zip(table["id"], table["effect"].astype(float), strict=True))


def precision_at(effect: np.ndarray, causal: np.ndarray, k: int) -> float:
    """Share of causal among the k largest |effect| (ties by order)."""
    top = np.argsort(-np.abs(effect), kind="stable")[:k]
    return float(causal[top].mean())


def precision_of_losses(effect: np.ndarray, causal: np.ndarray, k: int) -> float:
    """Share of causal among the k most negative effects (the losses of binding).

    Gains (an SNV that makes a motif) rank high by |effect| too: they are true
    sequence effects the generator calls neutral, so this is the fairer test of
    "motif-destroying variants rank first".
    """
    top = np.argsort(np.nan_to_num(effect, nan=np.inf), kind="stable")[:k]
    return float(causal[top].mean())


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Rank correlation over the variants both scored (finite on both sides)."""
    from scipy.stats import spearmanr

    both = np.isfinite(a) & np.isfinite(b)
    return float(spearmanr(a[both], b[both]).statistic)


def variant_windows(
    g, snv: dict, rows: np.ndarray, width: int
) -> tuple[np.ndarray, np.ndarray]:
    """One-hot ref and alt windows [B, 4, width] centred on the SNVs ``rows``.

    The window holds the variant at ``width // 2``; windows that run past a
    chromosome end are shifted inside, letters other than ACGT are zeros.
    """
    from poimkit.genome.reference import open_genome, text_codes

    ref = np.zeros((rows.size, 4, width), dtype=np.float32)
    code = {"A": 0, "C": 1, "G": 2, "T": 3}
    with open_genome(g.genome, quiet=True) as genome:
        for j, i in enumerate(rows):
            chrom, pos = snv["chrom"][i], int(snv["pos"][i])
            length = genome.lengths[chrom]
            start = min(max(0, pos - width // 2), length - width)
            codes = text_codes(genome.fetch(chrom, start, start + width))
            ok = codes < 4
            ref[j, codes[ok], np.flatnonzero(ok)] = 1
    alt = ref.copy()
    for j, i in enumerate(rows):
        chrom, pos = snv["chrom"][i], int(snv["pos"][i])
        start = min(
            max(0, pos - width // 2), g.lengths[g.chromosomes.index(chrom)] - width
        )
        alt[j, :, pos - start] = 0
        alt[j, code[snv["alt"][i]], pos - start] = 1
    return ref, alt


# --------------------------------------------------------------------------- #
# the peer
# --------------------------------------------------------------------------- #
def peer_available() -> str | None:
    try:
        import gkmsvm  # noqa: F401
    except ImportError:
        return "gkmsvm-lite is not installed (pip install poimkit[bench]): peer skipped"
    return None


def decode(seqs: list[np.ndarray]) -> list[str]:
    letters = np.frombuffer(b"ACGT", dtype=np.uint8)
    return [letters[x].tobytes().decode() for x in seqs]


def run_peer(g, pos, neg, snv, sample, args, work: Path) -> dict:
    """gkmsvm-lite: train on a sample, then kernel, gkmexplain and DeltaSVM effects."""
    import gkmsvm

    rng = np.random.default_rng(SEED)
    half = args.peer_n // 2
    p = rng.choice(len(pos), min(half, len(pos)), replace=False)
    n = rng.choice(len(neg), min(half, len(neg)), replace=False)
    out: dict = {"train_records": int(p.size + n.size)}
    log(f"gkmsvm-lite: train_gkmsvm on {p.size} + {n.size} records")
    start = time.perf_counter()
    model = gkmsvm.train_gkmsvm(
        decode([pos[i] for i in p]), decode([neg[i] for i in n]), device="cpu"
    )
    out["train_s"] = time.perf_counter() - start
    out["support_vectors"] = int(model.num_support_vectors)
    log(f"  {out['train_s']:.1f} s, {out['support_vectors']} support vectors")
    methods: dict = {}
    ref, alt = variant_windows(g, snv, sample, WIDTH)
    for method in ("kernel", "gkmexplain"):
        log(f"gkmsvm-lite score_variants(method={method!r}) on {sample.size} SNVs")
        start = time.perf_counter()
        effect = np.asarray(model.score_variants(ref, alt, method=method)).ravel()
        seconds = time.perf_counter() - start
        methods[method] = {"rows": sample, "effect": effect, "seconds": seconds}
        log(f"  {seconds:.1f} s ({sample.size / seconds:.1f} variants/s)")
    model_path = work / "gkmsvm_model.npz"
    gkmsvm.save_npz(model, model_path)
    rows = np.arange(snv["pos"].size)
    windows = work / "delta_windows.npz"
    r, a = variant_windows(g, snv, rows, 2 * GKM_L - 1)
    np.savez(windows, ref=r.astype(np.uint8), alt=a.astype(np.uint8))
    result = work / "delta_effects.npz"
    log(
        f"gkmsvm-lite to_deltasvm + DeltaSVM.score_variants on {rows.size} SNVs "
        f"(a child process, stopped after {args.budget:.0f} s)"
    )
    done = timed(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--deltasvm-child",
            str(model_path),
            str(windows),
            str(result),
        ],
        args.budget,
    )
    if done["ok"]:
        data = np.load(result)
        methods["deltasvm"] = {
            "rows": rows,
            "effect": data["effect"],
            "seconds": float(data["score_s"]),
            "table_s": float(data["table_s"]),
        }
    else:
        methods["deltasvm"] = {"error": done["error"]}
    out["methods"] = methods
    return out


def deltasvm_child(model_path: str, windows: str, result: str) -> None:
    import gkmsvm

    model = gkmsvm.load_npz(model_path, device="cpu")
    start = time.perf_counter()
    delta = model.to_deltasvm(verbose=True)  # tqdm: the ETA if it is stopped
    table_s = time.perf_counter() - start
    data = np.load(windows)
    start = time.perf_counter()
    effect = np.asarray(
        delta.score_variants(
            data["ref"].astype(np.float32), data["alt"].astype(np.float32)
        )
    ).ravel()
    score_s = time.perf_counter() - start
    np.savez(result, effect=effect, table_s=table_s, score_s=score_s)


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
