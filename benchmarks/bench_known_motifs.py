"""Known-motif enrichment (``poimkit run --known jaspar``) beside a FIMO-hit baseline.

Fresh synthetic genomes (`poimkit.datasets.write_synthetic_genome`, seeded)
hold an AP-1 site (``TGACTCA``, the generator's PWM of it, point mutations
included) at most peak summits.

1. **Which factor.** ``poimkit run --bed --known jaspar`` on 2,000 peaks
   (6 x 2 Mb) with its matched genomic negatives: the top row of
   ``known_motifs.tsv`` must be a FOS/JUN-family motif (JASPAR's family
   annotation names Fos, Jun or ATF) at q <= 1e-10. Control: the same
   records with their labels shuffled, where no motif may reach q <= 0.05.
   Baseline on the same records: memelite's FIMO (MEME suite's algorithm,
   hits at p <= 1e-4 on both strands) as the site call, the same Fisher test
   and Benjamini-Hochberg q-values (what SEA-like enrichment of FIMO hits
   gives).
2. **Speed.** The whole JASPAR CORE vertebrates (1,019 motifs) on 10^4 peak
   windows of 200 nt and 10^4 background windows, on 2 cores: poimkit's scan
   (`poimkit.motifs.enrichment.known_enrichment`) against memelite's FIMO
   counting hits on the same records. Goal: under 2 min.
3. **Real data.** The shared NFE2 and Nanog ChIP-seq sets (positives against
   their published negatives, no model needed): which known motifs come first.

Usage: ``python benchmarks/bench_known_motifs.py [--seed 4301]
[--parts factor,speed,real] [--out known_motifs.json]`` (parts not run keep
their figures from ``--out``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_info import genome_windows, jsonable, machine, one_hot, versions  # noqa: E402

AP1 = "TGACTCA"
WIDTH = 200
#: motifs per call of memelite's FIMO
FIMO_BATCH = 50


def _family(ids: list[str]) -> dict[str, str]:
    """JASPAR's family annotation of each matrix id."""
    from pyjaspar import jaspardb

    db = jaspardb()
    out = {}
    for matrix_id in ids:
        record = db.fetch_motif_by_id(matrix_id)
        out[matrix_id] = "; ".join(record.tf_family or [])
    return out


def _is_ap1(family: str, name: str) -> bool:
    text = f"{family} {name}".upper()
    return any(word in text for word in ("FOS", "JUN", "ATF"))


def _run_records(g, out: Path) -> tuple[np.ndarray, np.ndarray]:
    """The run's records: peak windows, then its negatives (codes, labels)."""
    from poimkit.genome.peaks import read_peaks

    peaks = read_peaks(str(g.peaks)).windows(WIDTH)
    pos = list(zip(peaks.chrom, peaks.start.tolist(), strict=True))
    neg = []
    for line in (out / "negatives.bed").read_text().splitlines():
        fields = line.split("\t")
        neg.append((fields[0], int(fields[1])))
    X, keep = genome_windows(g.genome, pos + neg, WIDTH)
    y = np.r_[np.ones(len(pos)), np.zeros(len(neg))].astype(int)
    return X[keep], y[keep]


def _fimo_sites(known, X: np.ndarray) -> np.ndarray:
    """memelite FIMO: whether each record holds a hit (p <= 1e-4), per motif."""
    from memelite import fimo

    onehot = one_hot(X)
    sites = np.zeros((X.shape[0], len(known)), dtype=bool)
    # memelite holds every window's score of a batch of motifs at once: 50
    # motifs at a time keep it within memory (all 1,019 at once took 24 GB)
    for first in range(0, len(known), FIMO_BATCH):
        batch = known[first : first + FIMO_BATCH]
        motifs = {f"{i}": np.ascontiguousarray(m.pwm.T) for i, m in enumerate(batch)}
        hits = fimo(motifs, onehot, threshold=1e-4)  # one table per motif
        for j, table in enumerate(hits):
            if len(table):
                rows = table["sequence_name"].to_numpy().astype(np.int64)
                sites[rows, first + j] = True
    return sites


def _fimo_enrichment(known, X, y) -> dict:
    from poimkit.motifs.enrichment import fisher_greater
    from poimkit.motifs.evidence import q_values

    sites = _fimo_sites(known, X)
    pos, neg = y == 1, y == 0
    a, b = sites[pos].sum(axis=0), sites[neg].sum(axis=0)
    p = fisher_greater(a, int(pos.sum()), b, int(neg.sum()))
    q = q_values(p)
    top = int(np.lexsort((-(a - b), p))[0])
    return {"top": known[top].name, "top_q": float(q[top]), "q": q}


def which_factor(work: Path, seed: int) -> dict:
    from poimkit.datasets import write_synthetic_genome
    from poimkit.motifs.compare import known_motifs
    from poimkit.motifs.enrichment import known_enrichment

    g = write_synthetic_genome(
        work / "ap1",
        motif=AP1,
        n_chromosomes=6,
        chromosome_length=2_000_000,
        n_peaks=2000,
        seed=seed,
    )
    out = work / "run"
    command = [sys.executable, "-m", "poimkit", "run", "--bed", g.peaks]
    command += ["--genome", g.genome, "--known", "jaspar", "--kernel", "gkm"]
    command += ["--no-grid", "--cv", "2", "-o", out, "--quiet"]
    started = time.perf_counter()
    subprocess.run(list(map(str, command)), check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    summary = json.loads((out / "summary.json").read_text())
    rows = summary["known_motifs"]["top"]
    family = _family([r["id"] for r in rows[:5]])
    top = rows[0]
    known = known_motifs("jaspar")
    X, y = _run_records(g, out)
    background = np.bincount(X.ravel(), minlength=4) / X.size
    shuffled_y = np.random.default_rng(seed).permutation(y)
    control = known_enrichment(known, X, shuffled_y, background)
    fimo = _fimo_enrichment(known, X, y)
    fimo_control = _fimo_enrichment(known, X, shuffled_y)
    top_ok = _is_ap1(family[top["id"]], top["name"])
    return {
        "peaks": 2000,
        "records": int(y.size),
        "top_rows": [
            {**{k: r[k] for k in ("id", "name", "positives", "negatives", "q_value")}}
            | {"family": family[r["id"]], "matches": r["matches"]}
            for r in rows[:5]
        ],
        "n_enriched": summary["known_motifs"]["n_enriched"],
        "top_is_fos_jun": top_ok,
        "top_q": top["q_value"],
        "shuffled_n_enriched": control.n_enriched(0.05),
        "shuffled_min_q": float(control.q_values.min()),
        "fimo_top": fimo["top"],
        "fimo_top_q": fimo["top_q"],
        "fimo_n_enriched": int((fimo["q"] <= 0.05).sum()),
        "fimo_shuffled_n_enriched": int((fimo_control["q"] <= 0.05).sum()),
        "seconds_known_step": summary["runtimes"].get("known-motif enrichment"),
        "seconds_run": round(seconds, 1),
        "goal_met": top_ok
        and top["q_value"] <= 1e-10
        and control.n_enriched(0.05) == 0,
    }


def speed(work: Path, seed: int) -> dict:
    from poimkit.datasets import write_synthetic_genome
    from poimkit.genome.peaks import read_peaks
    from poimkit.motifs.compare import known_motifs
    from poimkit.motifs.enrichment import known_enrichment

    g = write_synthetic_genome(
        work / "big",
        motif=AP1,
        n_chromosomes=8,
        chromosome_length=5_000_000,
        n_peaks=10_000,
        n_causal=0,
        n_neutral=10,
        seed=seed + 1,
    )
    peaks = read_peaks(str(g.peaks)).windows(WIDTH)
    pos = list(zip(peaks.chrom, peaks.start.tolist(), strict=True))
    rng = np.random.default_rng(seed)
    chroms = sorted(set(peaks.chrom))
    neg = [
        (
            chroms[int(rng.integers(len(chroms)))],
            int(rng.integers(0, 5_000_000 - WIDTH)),
        )
        for _ in range(len(pos))
    ]
    X, keep = genome_windows(g.genome, pos + neg, WIDTH)
    y = np.r_[np.ones(len(pos)), np.zeros(len(neg))].astype(int)
    X, y = X[keep], y[keep]
    known = known_motifs("jaspar")
    background = np.bincount(X.ravel(), minlength=4) / X.size
    known_enrichment(known[:2], X[:100], y[:100], background)  # compile
    started = time.perf_counter()
    found = known_enrichment(known, X, y, background)
    ours = time.perf_counter() - started
    _fimo_sites(known[:2], X[:100])  # compile
    started = time.perf_counter()
    _fimo_sites(known, X)
    theirs = time.perf_counter() - started
    return {
        "motifs": len(known),
        "records": int(y.size),
        "positives": int(y.sum()),
        "seconds_poimkit": round(ours, 1),
        "seconds_fimo": round(theirs, 1),
        "ratio_fimo_over_poimkit": round(theirs / ours, 2),
        "top": found.rows(1)[0]["name"],
        "goal_met": ours < 120.0,
    }


#: the real sets: (name, positives, negatives) under ../shared/data
REAL = (
    (
        "NFE2 (GM12878, LS-GKM's training split)",
        "nfe2/positives.fa",
        "nfe2/negatives.fa",
    ),
    (
        "Nanog (H1-hESC, the authors' training split)",
        "nanog/positives_train.fa",
        "nanog/negatives_train.fa",
    ),
)


def real_data() -> list[dict]:
    """The top known motifs of the shared real ChIP-seq sets, positives vs negatives."""
    from poimkit.io import read_fasta
    from poimkit.motifs.compare import known_motifs
    from poimkit.motifs.enrichment import known_enrichment
    from poimkit.motifs.scan import padded

    data = HERE.parent.parent / "shared" / "data"
    known = known_motifs("jaspar")
    rows = []
    for name, pos, neg in REAL:
        _, positives = read_fasta(data / pos, on_invalid="drop", any_length=True)[:2]
        _, negatives = read_fasta(data / neg, on_invalid="drop", any_length=True)[:2]
        records = list(positives) + list(negatives)
        y = np.r_[np.ones(len(positives)), np.zeros(len(negatives))].astype(int)
        letters = np.bincount(np.concatenate(records), minlength=4)[:4]
        started = time.perf_counter()
        found = known_enrichment(known, padded(records), y, letters / letters.sum())
        seconds = time.perf_counter() - started
        top = [
            {k: r[k] for k in ("id", "name", "positives", "negatives", "q_value")}
            for r in found.rows(5)
        ]
        rows.append(
            {
                "set": name,
                "records": int(y.size),
                "n_enriched": found.n_enriched(0.05),
                "top": top,
                "seconds": round(seconds, 1),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4301)
    parser.add_argument("--parts", default="factor,speed,real")
    parser.add_argument("--out", default=str(HERE / "known_motifs.json"))
    args = parser.parse_args()
    out = Path(args.out)
    document = json.loads(out.read_text()) if out.is_file() else {}
    parts = args.parts.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if "factor" in parts:
            document["which_factor"] = which_factor(work, args.seed)
            print(json.dumps(jsonable(document["which_factor"])), flush=True)
        if "speed" in parts:
            document["speed"] = speed(work, args.seed)
            print(json.dumps(document["speed"]), flush=True)
    if "real" in parts:
        document["real"] = real_data()
        print(json.dumps(jsonable(document["real"])), flush=True)
    document.update(
        benchmark="known_motifs", seed=args.seed, machine=machine(), versions=versions()
    )
    out.write_text(json.dumps(jsonable(document), indent=1) + "\n")


if __name__ == "__main__":
    main()
