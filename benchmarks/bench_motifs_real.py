"""Benchmark: motifs of both classes, real ChIP-seq and short degenerate planted ones.

Issue 41, part 1. Per case one poimkit model is trained, its exact POIMs
computed and `poimkit.extract_motifs` run with the training sequences and
labels; in the same run the *same* model's exact in-silico mutagenesis of
held-out sequences of each class goes to modisco-lite 3 (the peer; its
positive patterns for each class), as in ``bench_motif_recovery.py``.

Cases:

* ``nanog``: the real Nanog ChIP-seq training split (``../shared/data/nanog``),
  the model ``poimkit run`` chooses there (gkm l 11, k 7, both strands, C 1).
  Goal: the Nanog homeodomain and the SOX2 motif among the positives'
  motifs, each with its best JASPAR match (Tomtom p-value, memelite) in the
  right family (judged by the match's name: `FAMILIES`).
* ``nfe2``: the real NFE2 peaks (records of length 236, WD degree 20, as in
  ``bench_motif_recovery.py``): the E-box CACGTG.
* ``short_gkm``: fresh planted peaks of 100 nt, 600 + 600 for training and
  as many held out, three 6-7-letter degenerate motifs in the positives and
  two in the negatives, each in half of its class anywhere on either strand,
  one letter changed in 30 % of the copies; gkm model (l 8, k 5, both strands).
* ``two_class_wd``: 1000 + 1000 aligned 60-mers, motif A in the positives at
  15, motif B in the negatives at 42 (WD degree 20): both with their class.
* ``shuffled``: the ``short_gkm`` set with its labels permuted: no motif.

A planted motif is found when a reported motif of its class has at most 1
mismatch against it (best offset and strand, `close`); a false motif matches
no planted one of its class.

    pip install -e ".[bench]"
    python benchmarks/bench_motifs_real.py             # about 10 min
    python benchmarks/bench_motifs_real.py --no-modisco --cases nanog
"""

from __future__ import annotations

import argparse
import json
import re
import time
import warnings
from pathlib import Path

import numpy as np
from run_info import close, jsonable, machine, versions

import poimkit
from poimkit.datasets import PlantedMotif, make_motif_data

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
#: JASPAR names of each family the Nanog goal needs (a match's name decides)
FAMILIES = {
    "SOX": r"sox|^d$|dichaete|sry",
    "homeodomain": r"nanog|gsx|ftz|antp|hox|lhx|nkx|pou|pitx|otx|vsx|dlx|msx|emx|"
    r"^en\d|lbx|barx|hmx|cad|cdx|pdx|gbx|isl|lmx|prrx|shox|alx|arx|vax|uncx|"
    r"phox|hmbox|dbx|evx|mnx|vent|nkx|bsh|unc-4|ubx|abd|lab|dfd|scr|zen|bcd|"
    r"ems|exd|ind|vnd|tin|bap|slou|lim|ap|hgtx|otp|ro|btn|b-h|c15|oc|hbn|"
    r"pph13|repo|e5|dr|tup|inv|eve|zfh|prd|gsc|rx|tsh|onecut|cut|hnf1|pbx|meis",
}
MODISCO_SEQS = 1000  # held-out sequences of each class given to modisco-lite


def gkm_ism(model, X: np.ndarray) -> np.ndarray:
    """Exact ISM of a gkm model: score(x with x_p = a) - score(x), (n, L, 4)."""
    n, length = X.shape
    base = model.decision_function(X)
    out = np.zeros((n, length, 4))
    for a in range(4):
        for p in range(length):
            mutant = X.copy()
            mutant[:, p] = a
            out[:, p, a] = model.decision_function(mutant) - base
    return out


def modisco_motifs(model, X_held: np.ndarray, y_held: np.ndarray) -> list[dict]:
    """modisco-lite's positive patterns on ISM of each class's held-out sequences.

    For the negatives, the negated ISM: what the model penalises is their
    "positive" contribution.
    """
    from motif_recovery_methods import modisco_found, modisco_patterns

    out = []
    for label, sign in ((1, 1.0), (0, -1.0)):
        X = X_held[y_held == label][:MODISCO_SEQS]
        if hasattr(model, "explicit_weights"):
            ism = model.explicit_weights().mutagenesis(X)
        else:
            ism = gkm_ism(model, X)
        patterns, _ = modisco_patterns(X, sign * ism)
        for p in patterns:
            found = modisco_found(p)
            out.append({"label": label, "consensus": found.consensus})
    return out


def poimkit_motifs(model, X, y, max_order, max_motifs=3) -> tuple[list, float]:
    start = time.perf_counter()
    poim = poimkit.compute_poim(model, max_order)
    motifs = poimkit.extract_motifs(poim, max_motifs, sequences=X, labels=y)
    return motifs, time.perf_counter() - start


def jaspar_matches(motifs) -> list[list[tuple[str, float]]]:
    from poimkit.motifs import known_motifs, match_motifs

    known = known_motifs("jaspar")
    out = []
    for m in motifs:
        ranked = sorted(match_motifs(m, known, top=len(known)), key=lambda x: x.p_value)
        out.append([(x.target, x.p_value) for x in ranked[:3]])
    return out


def family_of(name: str) -> str | None:
    short = name.split(" ", 1)[-1].lower()
    for family, pattern in FAMILIES.items():
        if re.search(pattern, short):
            return family
    return None


# --------------------------------------------------------------------------- #
# data
# --------------------------------------------------------------------------- #
def read_pair(pos: Path, neg: Path):
    """The records of 200 letters (all of Nanog's) of two FASTA files."""
    from poimkit.io import read_labeled

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, X, y = read_labeled(
            pos=str(pos), neg=str(neg), on_invalid="drop", any_length=True
        )
    keep = [i for i, x in enumerate(X) if len(x) == 200]
    return np.stack([X[i] for i in keep]), np.asarray(y)[keep]


def nfe2_data():
    from Bio import SeqIO

    rows, labels = [], []
    for name, label in (("positives.fa", 1), ("negatives.fa", 0)):
        for r in SeqIO.parse(SHARED / "nfe2" / name, "fasta"):
            s = str(r.seq).upper()
            if len(s) == 236 and set(s) <= set("ACGT"):
                rows.append(poimkit.encode([s])[0])
                labels.append(label)
    return np.stack(rows), np.array(labels)


SHORT_POS = ["TAATTGA", "ACAATGG", "GGAAGTG"]
SHORT_NEG = ["GATAAGC", "TGACTCA"]


def short_motif_data(seed: int):
    """600 + 600 peaks of 200 nt, short motifs in each class (module notes)."""
    planted = [
        PlantedMotif(m, (1, 94), mutation=0.3, reverse_complement=0.5, in_positives=0.5)
        for m in SHORT_POS
    ] + [
        PlantedMotif(
            m,
            (1, 94),
            mutation=0.3,
            reverse_complement=0.5,
            in_positives=0.0,
            in_negatives=0.5,
        )
        for m in SHORT_NEG
    ]
    X, y = make_motif_data(1200, 1200, 100, planted, random_state=seed)
    return X, y


def two_class_data(seed: int):
    planted = [
        PlantedMotif("GTCCAAG", 15, spread=1),
        PlantedMotif("CATGCGA", 42, spread=1, in_positives=0.0, in_negatives=1.0),
    ]
    X, y = make_motif_data(2000, 2000, 60, planted, random_state=seed)
    return X, y


def halves(X, y, seed):
    """Training and held-out halves of each class."""
    rng = np.random.default_rng(seed)
    idx = rng.permutation(y.size)
    return idx[: y.size // 2], idx[y.size // 2 :]


# --------------------------------------------------------------------------- #
# cases
# --------------------------------------------------------------------------- #
def gkm(l=11, k=7):
    return poimkit.GkmSVC(l=l, k=k, reverse_complement=True, C=1.0)


def run_case(name: str, args) -> dict:
    seed = args.seed
    truths: dict[int, list[str]] = {1: [], 0: []}
    if name == "nanog":
        X, y = read_pair(
            SHARED / "nanog" / "positives_train.fa",
            SHARED / "nanog" / "negatives_train.fa",
        )
        Xh, yh = read_pair(
            SHARED / "nanog" / "positives_test.fa",
            SHARED / "nanog" / "negatives_test.fa",
        )
        model, order = gkm(), 7
    elif name == "nfe2":
        X, y = nfe2_data()
        train, held = halves(X, y, seed)
        X, y, Xh, yh = X[train], y[train], X[held], y[held]
        model, order = poimkit.WDKernelSVC(degree=20, C=1.0), 7
        truths[1] = ["CACGTG"]
    elif name in ("short_gkm", "shuffled"):
        X, y = short_motif_data(seed)
        train, held = halves(X, y, seed)
        X, y, Xh, yh = X[train], y[train], X[held], y[held]
        if name == "shuffled":
            y = np.random.default_rng(seed).permutation(y)
        else:
            truths = {1: SHORT_POS, 0: SHORT_NEG}
        model, order = gkm(8, 5), 7
    elif name == "two_class_wd":
        X, y = two_class_data(seed)
        train, held = halves(X, y, seed)
        X, y, Xh, yh = X[train], y[train], X[held], y[held]
        model, order = poimkit.WDKernelSVC(degree=20, C=1.0), 7
        truths = {1: ["GTCCAAG"], 0: ["CATGCGA"]}
    else:
        raise SystemExit(f"unknown case {name}")
    start = time.perf_counter()
    model.fit(X, y)
    train_s = time.perf_counter() - start
    from sklearn.metrics import roc_auc_score

    auc = float(roc_auc_score(yh, model.decision_function(Xh)))
    motifs, motif_s = poimkit_motifs(model, X, y, order)
    rows = [
        {
            "label": m.label,
            "iupac": m.iupac,
            "consensus": m.consensus,
            "frac_positive": m.frac_positive,
            "frac_negative": m.frac_negative,
            "q_value": m.q_value,
        }
        for m in motifs
    ]
    if name == "nanog":
        for row, matches in zip(rows, jaspar_matches(motifs), strict=True):
            row["jaspar"] = matches
            row["family"] = family_of(matches[0][0]) if matches else None
    result = {
        "case": name,
        "n_train": int(y.size),
        "held_out_auc": auc,
        "train_s": train_s,
        "poim_motif_s": motif_s,
        "poimkit": rows,
        "truths": truths,
    }
    result["poimkit_found"], result["poimkit_false"] = judge(rows, truths, name)
    if args.modisco:
        start = time.perf_counter()
        try:
            found = modisco_motifs(model, Xh, yh)
        except Exception as error:  # the peer's failure is a result, not a crash
            found, result["modisco_error"] = [], repr(error)
        result["modisco_s"] = time.perf_counter() - start
        result["modisco"] = found
        result["modisco_found"], result["modisco_false"] = judge(found, truths, name)
    return result


def judge(rows: list[dict], truths: dict, name: str) -> tuple[dict, int | None]:
    """Planted motifs found (per class) and false motifs (None: no truth known)."""
    found = {
        label: [
            t
            for t in ts
            if any(r["label"] == label and close(r["consensus"], t) <= 1 for r in rows)
        ]
        for label, ts in truths.items()
    }
    if name == "nanog":  # real, no planted truth: judged by its JASPAR matches
        return found, None
    if not truths[1] and not truths[0]:  # shuffled labels: every motif is false
        return found, len(rows)
    # a class without a known truth (NFE2's negatives) is not judged
    false = sum(
        not any(close(r["consensus"], t) <= 1 for t in truths[r["label"]])
        for r in rows
        if truths[r["label"]]
    )
    return found, false


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="nanog,nfe2,short_gkm,two_class_wd,shuffled")
    parser.add_argument("--no-modisco", dest="modisco", action="store_false")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument(
        "--json", default=str(Path(__file__).with_name("motifs_real.json"))
    )
    args = parser.parse_args()
    results = []
    for name in args.cases.split(","):
        print(f"== {name}", flush=True)
        r = run_case(name, args)
        results.append(r)
        print(json.dumps(jsonable(r), indent=1, default=str), flush=True)
    Path(args.json).write_text(
        json.dumps(
            jsonable(
                {
                    "machine": machine(),
                    "versions": versions("modiscolite", "memelite"),
                    "results": results,
                }
            ),
            indent=1,
            default=str,
        )
    )


if __name__ == "__main__":
    main()
