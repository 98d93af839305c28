"""Reproduce Figure 5 of Vidovic et al. (MFI): per-nucleotide importance, two motifs.

Data (`make_data`): random DNA of length 100; every positive carries
GGCCGTAAA at position 11 and TTTCACGTTGA at position 24 (1-based, fixed), each
letter of a copy replaced by a uniform letter with probability
``MUTATION`` = 0.3; every negative carries each of the two motifs
(mutated the same way) with probability ``DECOY`` = 0.25. The paper does not
give its noise model; it says that too noisy patterns give false negatives
and that a sequence with only one of the two patterns is classified
positive, which the decoys in the negatives produce. Model: WD-SVM, degree
20, C = 1, trained on 1000 + 1000 sequences; a test set of 500 + 500.

For a true positive, true negative, false positive and false negative test
sequence (the most confident of each kind) the script computes the exact
instance-based importance of its k-mers (`poimkit.explain_instance`, the
instance-based MFI ``E[s(X) | X[j:j+l] = x[j:j+l]] - E[s(X)]`` under the
uniform background, l = 1..6) and spreads each k-mer's value evenly over its
l letters:

    r(p) = sum_l sum_{j <= p < j + l} e_l(j) / l.

The figure shows r as a heatmap over each sequence (letters printed), with
the planted motif windows marked. JSON: test AUC, the picked sequences with
their scores, where the motifs were planted, and the share of |r| that falls
into the two motif windows.

Run: ``python benchmarks/reproduce/mfi_fig5_two_motifs.py [--quick] [--seed N]``.
Writes ``mfi_fig5_two_motifs.{png,pdf,json}``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import matplotlib.pyplot as plt  # noqa: E402
from _common import parser, save_figure, write_json  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402

from poimkit import WDKernelSVC, compute_poim, explain_instance  # noqa: E402
from poimkit.alphabet import ALPHABET  # noqa: E402
from poimkit.datasets import PlantedMotif, make_motif_data  # noqa: E402

STEM = "mfi_fig5_two_motifs"
LENGTH = 100
MOTIFS = (("GGCCGTAAA", 11), ("TTTCACGTTGA", 24))  # 1-based positions
MUTATION = 0.3
DECOY = 0.25
MAX_ORDER = 6
KINDS = ("TP", "TN", "FP", "FN")


def make_data(
    n_pos: int,
    n_neg: int,
    random_state,
    mutation: float = MUTATION,
    decoy: float = DECOY,
    length: int = LENGTH,
):
    """The two-motif set; returns X, y and the `PlantingRecord`."""
    motifs = [
        PlantedMotif(m, p, mutation=mutation, in_negatives=decoy) for m, p in MOTIFS
    ]
    return make_motif_data(
        n_pos, n_neg, length, motifs, random_state=random_state, return_record=True
    )


def nucleotide_importance(per_order: list[np.ndarray], length: int) -> np.ndarray:
    """``r(p) = sum_l sum_{j <= p < j + l} e_l(j) / l`` from `explain_instance`."""
    r = np.zeros(length)
    for l, e in enumerate(per_order, start=1):
        for o in range(l):
            r[o : o + len(e)] += e / l
    return r


def pick(scores: np.ndarray, y: np.ndarray) -> dict[str, int | None]:
    """Index of the most confident TP, TN, FP and FN (None if there is none)."""
    pred = scores > 0
    masks = {
        "TP": pred & (y == 1),
        "TN": ~pred & (y == 0),
        "FP": pred & (y == 0),
        "FN": ~pred & (y == 1),
    }
    out = {}
    for kind, mask in masks.items():
        rows = np.flatnonzero(mask)
        if rows.size == 0:
            out[kind] = None
            continue
        confidence = np.abs(scores[rows])
        out[kind] = int(rows[np.argmax(confidence)])
    return out


def motif_share(r: np.ndarray) -> float:
    """Share of sum |r| inside the two motif windows."""
    inside = np.zeros(len(r), dtype=bool)
    for motif, p in MOTIFS:
        inside[p - 1 : p - 1 + len(motif)] = True
    total = np.abs(r).sum()
    return float(np.abs(r[inside]).sum() / total) if total > 0 else 0.0


def run(quick: bool, seed: int, n_train: int | None = None) -> tuple[dict, dict]:
    """All computations; returns the JSON summary and the arrays to plot."""
    t0 = time.perf_counter()
    n = n_train or (300 if quick else 1000)
    n_test = n // 2
    X, y, rec = make_data(n + n_test, n + n_test, seed)
    test = np.zeros(len(y), dtype=bool)
    test[n : n + n_test] = True  # positives n.. and negatives ..
    test[2 * n + n_test :] = True
    model = WDKernelSVC(degree=20).fit(X[~test], y[~test])
    Xt, yt = X[test], y[test]
    starts = rec.starts[test]
    scores = model.decision_function(Xt)
    auc = float(roc_auc_score(yt, scores))
    poim = compute_poim(model, MAX_ORDER)
    picked = pick(scores, yt)
    maps, instances = {}, {}
    for kind, i in picked.items():
        if i is None:
            continue
        per_order = explain_instance(model, Xt[i], MAX_ORDER, poim=poim)
        r = nucleotide_importance(per_order, X.shape[1])
        maps[kind] = (Xt[i], r)
        instances[kind] = {
            "test_index": i,
            "label": int(yt[i]),
            "score": float(scores[i]),
            "planted_positions_1based": [
                int(s) + 1 if s >= 0 else None for s in starts[i]
            ],
            "planted_mismatches": [
                _mismatches(Xt[i], motif, s) if s >= 0 else None
                for (motif, _), s in zip(MOTIFS, starts[i], strict=True)
            ],
            "share_of_importance_in_motif_windows": motif_share(r),
            "top_nucleotides_1based": (np.argsort(-np.abs(r))[:10] + 1).tolist(),
        }
    pred = scores > 0
    summary = {
        "paper": "Vidovic et al. 2016, arXiv:1611.07567, figure 5",
        "motifs": [{"consensus": m, "position": p} for m, p in MOTIFS],
        "data": (
            f"length {LENGTH}; positives carry both motifs, negatives each with "
            f"probability {DECOY}; every letter of a copy replaced by a uniform "
            f"letter with probability {MUTATION}; seed {seed}"
        ),
        "model": "WDKernelSVC(degree=20, C=1)",
        "n_train": int((~test).sum()),
        "n_test": int(test.sum()),
        "test_auc": auc,
        "test_accuracy": float((pred == (yt == 1)).mean()),
        "counts": {
            "TP": int((pred & (yt == 1)).sum()),
            "TN": int((~pred & (yt == 0)).sum()),
            "FP": int((pred & (yt == 0)).sum()),
            "FN": int((~pred & (yt == 1)).sum()),
        },
        "fp_by_number_of_planted_motifs": _by_planted(starts[pred & (yt == 0)]),
        "tn_by_number_of_planted_motifs": _by_planted(starts[~pred & (yt == 0)]),
        "max_order": MAX_ORDER,
        "importance": "r(p) = sum_l sum_{j <= p < j+l} e_l(j) / l, exact",
        "instances": instances,
        "missing_kinds": [k for k, i in picked.items() if i is None],
        "fp_planted_motifs": (
            sum(p is not None for p in instances["FP"]["planted_positions_1based"])
            if "FP" in instances
            else None
        ),
        "seed": seed,
        "quick": quick,
    }
    summary["seconds"] = time.perf_counter() - t0
    return summary, maps


def _by_planted(starts: np.ndarray) -> dict[str, int]:
    """How many of the given sequences carry 0, 1 or 2 of the motifs."""
    counts = np.bincount((starts >= 0).sum(axis=1), minlength=len(MOTIFS) + 1)
    return {str(k): int(c) for k, c in enumerate(counts)}


def _mismatches(x: np.ndarray, motif: str, start: int) -> int:
    codes = np.array([ALPHABET.index(c) for c in motif])
    return int((x[start : start + len(motif)] != codes).sum())


def plot(maps: dict, summary: dict):
    """One heatmap strip per picked sequence, letters printed, motifs boxed."""
    kinds = [k for k in KINDS if k in maps]
    fig, axes = plt.subplots(len(kinds), 1, figsize=(16, 1.5 * len(kinds) + 0.8))
    axes = np.atleast_1d(axes)
    bound = max(np.abs(r).max() for _, r in maps.values())
    for ax, kind in zip(axes, kinds, strict=True):
        x, r = maps[kind]
        im = ax.imshow(
            r[None, :],
            cmap="RdBu_r",
            vmin=-bound,
            vmax=bound,
            aspect="auto",
            extent=(0.5, len(r) + 0.5, 0, 1),
        )
        for p, code in enumerate(x, start=1):
            ax.text(p, 0.5, ALPHABET[code], ha="center", va="center", fontsize=6)
        for motif, p in MOTIFS:
            ax.add_patch(
                plt.Rectangle(
                    (p - 0.5, 0.02), len(motif), 0.96, fill=False, ec="k", lw=1.2
                )
            )
        info = summary["instances"][kind]
        ax.set_yticks([])
        ax.set_ylabel(f"{kind}\ns={info['score']:.2f}", rotation=0, labelpad=28)
        ax.set_xticks([1, 11, 24, 40, 60, 80, 100])
    axes[-1].set_xlabel("position (1-based); boxes: planted motif windows")
    fig.colorbar(im, ax=list(axes), fraction=0.02, pad=0.01, label="r(p)")
    fig.suptitle(
        "Instance-based importance per nucleotide (red: towards positive), test AUC "
        f"{summary['test_auc']:.3f}"
    )
    return fig


def main(argv: list[str] | None = None) -> int:
    args = parser(__doc__.splitlines()[0]).parse_args(argv)
    summary, maps = run(args.quick, args.seed)
    save_figure(plot(maps, summary), args.out, STEM)
    path = write_json(args.out, STEM, summary)
    print(
        f"test AUC {summary['test_auc']:.3f}, accuracy "
        f"{summary['test_accuracy']:.3f}, counts {summary['counts']}"
    )
    for kind, info in summary["instances"].items():
        print(
            f"{kind}: score {info['score']:+.2f}, planted at "
            f"{info['planted_positions_1based']} (mismatches "
            f"{info['planted_mismatches']}), share of |r| in motif windows "
            f"{info['share_of_importance_in_motif_windows']:.2f}"
        )
    print(f"wrote {path} in {summary['seconds']:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
