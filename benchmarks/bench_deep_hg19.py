"""The CNN family from the command line at the cost goal's size, tested on hg19 chr22.

Issue 54's cost goal: "the CNN family trains on 1.5e4 windows of 300 letters in
under 10 minutes on 2 cores", and its real-data comparison on the hg19 piece.
Everything here is what a user types:

1. ``poimkit train --pos --neg --crop 300 --drop-short --cv 0 --threads 2``
   on every GM12878 CTCF record of chr14-18 (`../shared/data/ctcf_gm12878`;
   records shorter than 300 nt dropped, repeated ids dropped by the reader),
   once per family: ``--kernel cnn`` (no time cap: the training ends by its
   own early stopping on held-out chromosomes), ``--kernel gkm`` and
   ``--kernel wd``. Wall time and peak memory from ``/usr/bin/time -v``.
2. The test set is another chromosome: the 23 CTCF peaks and 16 negative
   regions of the same study in the hg19 piece (chr22:20-21 Mb,
   `../shared/data/hg19_chr22`), each the central 300 nt, scored by
   ``poimkit score``. ROC AUC with a bootstrap standard error (39 records: a
   check that the models carry to a new chromosome, not a ranking of them),
   and GC content alone beside it.
3. ``poimkit variants MODEL --vcf dbsnp.vcf --genome genome.fa --bed peaks``
   with a null of ``--null`` random SNVs: the dbSNP SNVs in the peaks, each
   family's effects, calls and time. The set has no measured effects, so each
   family's effects are set against (a) the other families' and (b) the change
   in the best JASPAR CTCF site (MA0139, log-odds against uniform letters, both
   strands) among the sites that overlap the variant.
4. Those 45 SNVs hold one in a CTCF site, so the benchmark also writes every
   SNV of each test peak's best CTCF site (15 letters x 3 alternatives x 23
   peaks, in the peak's 300-letter window) and scores them with ``poimkit
   variants --pairs``: each family's effects against the change of that
   site's log-odds (Spearman), and the share whose sign agrees among those
   that change the site by at least 2 bits.

    python benchmarks/bench_deep_hg19.py              # ~20 min on 2 idle cores
    python benchmarks/bench_deep_hg19.py --quick      # 1,000 records, 1 epoch
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_info import jsonable, machine, versions  # noqa: E402

DATA = HERE.parents[1] / "shared" / "data"
CTCF = DATA / "ctcf_gm12878"
HG19 = DATA / "hg19_chr22"
CROP = 300
FAMILIES = ("cnn", "gkm", "wd")
CTCF_MOTIF = "MA0139"
N_BOOT = 2000
COST_GOAL_S = 600
#: bits: a variant is "in a CTCF site" when its best covering site reaches this
SITE_LOD = 10.0
#: bits: the site changes the saturation table counts as strong
STRONG_BITS = 2.0
START = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - START:7.1f} s] {message}", flush=True)


# --------------------------------------------------------------------------- #
# inputs
# --------------------------------------------------------------------------- #
def read_genome(path: Path) -> tuple[str, str]:
    lines = path.read_text().splitlines()
    return lines[0][1:].split()[0], "".join(lines[1:]).upper()


def central(seq: str, start: int, end: int, width: int) -> tuple[int, str]:
    at = (start + end) // 2 - width // 2
    return at, seq[at : at + width]


def write_test_fasta(path: Path) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The hg19 peaks and negatives, central `CROP` letters: ids, labels, GC."""
    contig, seq = read_genome(HG19 / "genome.fa")
    ids, y, gc, lines = [], [], [], []
    for name, label in (("ctcf_peaks.bed", 1), ("ctcf_negatives.bed", 0)):
        for row in (HG19 / name).read_text().split("\n"):
            if not row.strip():
                continue
            chrom, start, end = row.split("\t")[:3]
            at, window = central(seq, int(start), int(end), CROP)
            rid = f"{contig}:{at}-{at + CROP}"
            ids.append(rid)
            y.append(label)
            gc.append(sum(c in "GC" for c in window) / CROP)
            lines += [f">{rid}", window]
    path.write_text("\n".join(lines) + "\n")
    return ids, np.array(y), np.array(gc)


def subsample_fasta(src: Path, dst: Path, n: int) -> None:
    with gzip.open(src, "rt") as handle:
        text = handle.read().split(">")[1:]
    dst.write_text("".join(">" + r for r in text[:n]))


# --------------------------------------------------------------------------- #
# commands
# --------------------------------------------------------------------------- #
def timed(command: list[str], log_path: Path) -> dict:
    """Run ``command`` under ``/usr/bin/time -v``: wall s, peak MiB, its output."""
    env = dict(os.environ, NUMBA_NUM_THREADS="2", OMP_NUM_THREADS="2")
    full = ["/usr/bin/time", "-v", *command]
    t0 = time.perf_counter()
    done = subprocess.run(full, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    log_path.write_text(done.stdout + "\n---\n" + done.stderr)
    if done.returncode != 0:
        raise SystemExit(
            f"failed ({done.returncode}): {' '.join(command)}\n" + done.stderr[-3000:]
        )
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    return {
        "command": " ".join(command),
        "wall_seconds": wall,
        "peak_rss_mib": int(rss.group(1)) / 1024 if rss else None,
        "output": done.stdout + done.stderr,
    }


def poimkit(*args: str) -> list[str]:
    return [sys.executable, "-m", "poimkit", *args]


def train(family: str, pos: Path, neg: Path, out: Path, epochs: int | None) -> dict:
    extra = ["--cnn-epochs", str(epochs)] if epochs else []
    command = poimkit(
        "train", "--pos", str(pos), "--neg", str(neg), "--crop", str(CROP),
        "--drop-short", "--kernel", family, "--cv", "0", "--threads", "2",
        "-o", str(out), *extra,
    )  # fmt: skip
    return timed(command, out.with_suffix(".train.log"))


def cnn_training(output: str) -> dict:
    """Records and epochs of the CNN's training, as ``poimkit train`` says."""
    found = re.search(r"trained for (\d+) epochs?", output)
    read = re.search(r"read (\d+) sequences of length (\d+) \((\d+) positive\)", output)
    out = {"epochs_run": int(found.group(1)) if found else None}
    if read:
        out.update(records=int(read.group(1)), positives=int(read.group(3)))
    return out


def read_scores(path: Path) -> dict[str, float]:
    out = {}
    for line in path.read_text().splitlines():
        if line.startswith("#") or line.startswith("id\t"):
            continue
        rid, score = line.split("\t")[:2]
        out[rid] = float(score)
    return out


def read_effects(path: Path) -> list[dict]:
    rows = path.read_text().splitlines()
    header = rows[0].lstrip("#").split("\t")
    body = [r.split("\t") for r in rows[1:] if r.strip()]
    return [dict(zip(header, r, strict=True)) for r in body]


# --------------------------------------------------------------------------- #
# figures
# --------------------------------------------------------------------------- #
def auc_with_se(y: np.ndarray, s: np.ndarray) -> tuple[float, float]:
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(0)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    boot = []
    for _ in range(N_BOOT):
        rows = np.r_[rng.choice(pos, pos.size), rng.choice(neg, neg.size)]
        boot.append(roc_auc_score(y[rows], s[rows]))
    return float(roc_auc_score(y, s)), float(np.std(boot))


def ctcf_pwm() -> np.ndarray:
    from poimkit.motifs.compare import known_motifs

    found = [m for m in known_motifs("jaspar") if m.name.startswith(CTCF_MOTIF)]
    pwm = np.asarray(found[0].pwm, dtype=float)  # (width, 4), rows sum to 1
    return np.log2((pwm + 1e-3) / (1 + 4e-3) / 0.25)


def best_site(seq: str, lo: int, hi: int, lod: np.ndarray) -> float:
    """The best site score (both strands) among sites covering [lo, hi)."""
    w = lod.shape[0]
    code = {c: i for i, c in enumerate("ACGT")}
    rc_lod = lod[::-1, ::-1]
    best = -np.inf
    for s in range(max(0, hi - w), min(lo, len(seq) - w) + 1):
        window = seq[s : s + w]
        if any(c not in code for c in window):
            continue
        idx = [code[c] for c in window]
        rows = np.arange(w)
        best = max(best, lod[rows, idx].sum(), rc_lod[rows, idx].sum())
    return float(best)


def motif_changes(
    effects: list[dict], lod: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per variant: the change of the best covering CTCF site, and whether the
    better of its ref and alt sites scores at least `SITE_LOD` bits."""
    _, seq = read_genome(HG19 / "genome.fa")
    out, strong = [], []
    for e in effects:
        pos = int(e["pos"]) - 1
        ref, alt = e["ref"], e["alt"]
        alt_seq = seq[:pos] + alt + seq[pos + len(ref) :]
        a = best_site(alt_seq, pos, pos + len(alt), lod)
        r = best_site(seq, pos, pos + len(ref), lod)
        out.append(a - r)
        strong.append(max(a, r) >= SITE_LOD)
    return np.array(out), np.array(strong)


def write_site_pairs(
    test_fa: Path, peaks: set[str], pairs: Path, lod: np.ndarray
) -> np.ndarray:
    """Every SNV of the best CTCF site of each record in ``peaks``: the pairs
    file, and each pair's change of that site's log-odds (bits, on its strand)."""
    code = {c: i for i, c in enumerate("ACGT")}
    lines, delta = [], []
    records = test_fa.read_text().split(">")[1:]
    w = lod.shape[0]
    for record in records:
        rid, seq = record.split("\n")[:2]
        if rid not in peaks:
            continue
        x = np.array([code[c] for c in seq])
        windows = np.lib.stride_tricks.sliding_window_view(x, w)
        rows = np.arange(w)
        plus = lod[rows, windows].sum(axis=1)
        minus = lod[::-1, ::-1][rows, windows].sum(axis=1)
        strand_lod = lod if plus.max() >= minus.max() else lod[::-1, ::-1]
        start = int(np.argmax(np.maximum(plus, minus)))
        for j in range(w):
            ref = x[start + j]
            for alt in range(4):
                if alt == ref:
                    continue
                y = x.copy()
                y[start + j] = alt
                alt_seq = "".join("ACGT"[v] for v in y)
                lines.append(f"{rid}:{start + j}:{'ACGT'[alt]}\t{seq}\t{alt_seq}")
                delta.append(strand_lod[j, alt] - strand_lod[j, ref])
    pairs.write_text("\n".join(lines) + "\n")
    return np.array(delta)


def site_saturation(
    families: list[str], work: Path, test_fa: Path, peaks: set[str], lod: np.ndarray
) -> dict:
    pairs = work / "site_pairs.tsv"
    delta = write_site_pairs(test_fa, peaks, pairs, lod)
    out = {"n_pairs": int(delta.size), "strong_bits": STRONG_BITS}
    strong = np.abs(delta) >= STRONG_BITS
    out["n_strong"] = int(strong.sum())
    for f in families:
        table = work / f"{f}_site_effects.tsv"
        v = timed(
            poimkit("variants", str(work / f"{f}.npz"), "--pairs", str(pairs),
                    "--null", "0", "--threads", "2", "--quiet", "-o", str(table)),
            table.with_suffix(".log"),
        )  # fmt: skip
        eff = np.array([float(r["effect"]) for r in read_effects(table)])
        out[f] = {
            "seconds": v["wall_seconds"],
            "spearman": spearman(eff, delta),
            "sign_agrees_strong": float(
                np.mean(np.sign(eff[strong]) == np.sign(delta[strong]))
            ),
        }
        log(
            f"{f}: site SNVs Spearman {out[f]['spearman']:.2f}, sign agrees "
            f"{out[f]['sign_agrees_strong']:.2f} where the site changes by "
            f">= {STRONG_BITS:g} bits"
        )
    return out


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    from scipy.stats import spearmanr

    ok = np.isfinite(a) & np.isfinite(b)
    return float(spearmanr(a[ok], b[ok]).statistic) if ok.sum() > 2 else float("nan")


# --------------------------------------------------------------------------- #
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--null", type=int, default=20000)
    parser.add_argument("--q", type=float, default=0.1, help="calls at this q-value")
    parser.add_argument("--json", default=str(HERE / "deep_hg19.json"))
    parser.add_argument("--keep", metavar="DIR", help="keep models and tables here")
    args = parser.parse_args(argv)
    families = [f for f in args.families.split(",") if f]
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        pos, neg = CTCF / "positives_chr14-18.fa.gz", CTCF / "negatives_chr14-18.fa.gz"
        if args.quick:
            pos, neg = work / "pos.fa", work / "neg.fa"
            subsample_fasta(CTCF / "positives_chr14-18.fa.gz", pos, 500)
            subsample_fasta(CTCF / "negatives_chr14-18.fa.gz", neg, 500)
        test_fa = work / "hg19_test.fa"
        ids, y, gc = write_test_fasta(test_fa)
        log(f"test: {int(y.sum())} peaks + {int((y == 0).sum())} negatives, "
            f"{CROP} nt each")  # fmt: skip
        gc_auc = auc_with_se(y, gc)
        results: dict = {"gc": {"test_auc": gc_auc}}
        lod = ctcf_pwm()
        for family in families:
            model = work / f"{family}.npz"
            log(f"{family}: poimkit train")
            r = train(family, pos, neg, model, 1 if args.quick else None)
            log(f"{family}: trained in {r['wall_seconds']:.0f} s, "
                f"peak {r['peak_rss_mib']:.0f} MiB")  # fmt: skip
            if family == "cnn":
                r["training"] = cnn_training(r["output"])
                log(f"  cnn: {r['training']}")
            scores = work / f"{family}_scores.tsv"
            s = timed(
                poimkit("score", str(model), str(test_fa), "-o", str(scores),
                        "--quiet"),
                scores.with_suffix(".log"),
            )  # fmt: skip
            by_id = read_scores(scores)
            r["test_auc"] = auc_with_se(y, np.array([by_id[i] for i in ids]))
            r["score_seconds"] = s["wall_seconds"]
            log(f"{family}: hg19 test AUROC {r['test_auc'][0]:.3f} "
                f"± {r['test_auc'][1]:.3f}")  # fmt: skip
            effects = work / f"{family}_effects.tsv"
            v = timed(
                poimkit(
                    "variants", str(model), "--vcf", str(HG19 / "dbsnp.vcf"),
                    "--genome", str(HG19 / "genome.fa"),
                    "--bed", str(HG19 / "ctcf_peaks.bed"), "--null",
                    str(200 if args.quick else args.null), "--threads", "2",
                    "--quiet", "-o", str(effects),
                ),
                effects.with_suffix(".log"),
            )  # fmt: skip
            rows = read_effects(effects)
            r["variants"] = {
                "seconds": v["wall_seconds"],
                "peak_rss_mib": v["peak_rss_mib"],
                "rows": rows,
            }
            results[family] = r
            log(f"{family}: variants in {v['wall_seconds']:.0f} s, {len(rows)} rows")
        in_peaks = _in_peaks(results[families[0]]["variants"]["rows"])
        deltas, in_site = motif_changes(in_peaks, lod)
        summary = _variant_summary(results, families, deltas, in_site, args.q)
        peaks = {i for i, label in zip(ids, y, strict=True) if label == 1}
        summary["site_saturation"] = site_saturation(
            families, work, test_fa, peaks, lod
        )
    for f in families:
        results[f].pop("output", None)
        results[f]["variants"]["rows"] = len(results[f]["variants"]["rows"])
    info, vers = machine(), versions("torch", "scipy")
    doc = {
        "benchmark": "deep_hg19",
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "command": "python benchmarks/bench_deep_hg19.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "machine": info,
        "versions": vers,
        "load_average_start": load_start,
        "quick": args.quick,
        "test": {"n_pos": int(y.sum()), "n_neg": int((y == 0).sum()), "crop": CROP},
        "results": results,
        "variants": summary,
        "total_seconds": time.perf_counter() - START,
    }
    print(_table(doc, families))
    Path(args.json).write_text(json.dumps(jsonable(doc), indent=1) + "\n")
    log(f"wrote {args.json}")
    return 0


def _in_peaks(rows: list[dict]) -> list[dict]:
    peaks = []
    for row in (HG19 / "ctcf_peaks.bed").read_text().split("\n"):
        if row.strip():
            _, a, b = row.split("\t")[:3]
            peaks.append((int(a), int(b)))
    return [r for r in rows if any(a < int(r["pos"]) <= b for a, b in peaks)]


def _variant_summary(results, families, deltas, in_site, q) -> dict:
    effects, out = {}, {"n_in_peaks": int(deltas.size), "q": q}
    out["in_site"] = int(in_site.sum())
    out["site_lod"] = SITE_LOD
    for f in families:
        rows = _in_peaks(results[f]["variants"]["rows"])
        eff = np.array([float(r["effect"]) if r["effect"] not in ("", "NA") else np.nan
                        for r in rows])  # fmt: skip
        qv = np.array([float(r["q_value"]) if r["q_value"] not in ("", "NA")
                       else np.nan for r in rows])  # fmt: skip
        effects[f] = eff
        out[f] = {
            "scored": int(np.isfinite(eff).sum()),
            "called": int(np.sum(qv <= q)),
            "spearman_vs_motif": spearman(eff, deltas),
            "spearman_vs_motif_in_site": spearman(eff[in_site], deltas[in_site]),
            "called_in_site": int(np.sum((qv <= q) & in_site)),
        }
    for i, a in enumerate(families):
        for b in families[i + 1 :]:
            out[f"spearman_{a}_{b}"] = spearman(effects[a], effects[b])
    return out


def _table(doc: dict, families: list[str]) -> str:
    r, v = doc["results"], doc["variants"]
    lines = [
        "| family | train wall s | peak MiB | hg19 test AUROC ± SE | variants s | "
        f"in-peak SNVs scored | called (q ≤ {v['q']}): all / in a site | Spearman vs "
        "CTCF site change: all / in a site |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for f in families:
        x = r[f]
        lines.append(
            f"| {f} | {x['wall_seconds']:.0f} | {x['peak_rss_mib']:.0f} | "
            f"{x['test_auc'][0]:.3f} ± {x['test_auc'][1]:.3f} | "
            f"{x['variants']['seconds']:.0f} | {v[f]['scored']} | {v[f]['called']} / "
            f"{v[f]['called_in_site']} | {v[f]['spearman_vs_motif']:.2f} / "
            f"{v[f]['spearman_vs_motif_in_site']:.2f} |"
        )
    g = r["gc"]["test_auc"]
    lines.append(f"| GC only | | | {g[0]:.3f} ± {g[1]:.3f} | | | | |")
    lines.append(
        f"in-peak SNVs {v['n_in_peaks']}, {v['in_site']} in a CTCF site (best "
        f"covering site >= {SITE_LOD:g} bits); "
        + ", ".join(f"{k} {val:.2f}" for k, val in v.items() if k.startswith("spear"))
    )
    sat = v["site_saturation"]
    lines.append(
        f"every SNV of each peak's best CTCF site ({sat['n_pairs']} pairs; "
        f"{sat['n_strong']} change it by >= {sat['strong_bits']:g} bits): "
        + "; ".join(
            f"{f} Spearman {sat[f]['spearman']:.2f}, sign agrees "
            f"{sat[f]['sign_agrees_strong']:.2f}"
            for f in families
        )
    )
    if "cnn" in r and r["cnn"].get("training"):
        t = r["cnn"]["training"]
        lines.append(
            f"CNN: {t.get('records')} windows of {CROP} nt, {t['epochs_run']} epochs; "
            f"`poimkit train` wall {r['cnn']['wall_seconds']:.0f} s "
            f"(goal < {COST_GOAL_S} s for 1.5e4 windows)"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
