"""Reproduce Figure 3 of Zien et al. (2009): SVM weights vs FIRM on GATTACA.

Data: the GATTACA toy set (`poimkit.datasets.load_gattaca`, 2500 positives
with GATTACA at a rounded-normal position, mean 35, SD 7, one position
mutated; 2500 negatives). Model: WDS-SVM, degree 20, shift S = 8, C = 1
(the paper says "SVM with WDS kernel" without the parameters).

For 7-mers z and 1-based positions j the script compares two importances:

* left, the SVM weights: the explicit weight ``w_7[j, z]`` of the positional
  7-mer feature (`WDKernelSVC.explicit_weights`). It is non-zero only for
  7-mers that occur (up to the shift S) in a support vector; all others have
  weight 0 and enter the statistics as 0.
* right, FIRM: ``Q_7(z, j) sqrt(Pr(z) ^ -1 - 1)`` under the uniform order-0
  background (`Poim.firm`). With a uniform background all 7-mers have the same
  probability, so FIRM is ``Q_7`` times one constant and every z-score below is
  the same for FIRM and for the POIM ``Q_7``.

Lines per position: GATTACA itself, the mean over the 21 7-mers at Hamming
(edit) distance 1 and the 189 at distance 2, and the mean +- 1 SD band of the
2187 "completely irrelevant" 7-mers that differ from GATTACA at every position.
Numbers (JSON): per method the z-score ``(value - band mean) / band SD`` of
GATTACA at its peak, the positions where GATTACA exceeds 3 SD, and the same
for the distance-1 mean.

Run: ``python validation/firm_fig3_gattaca.py [--quick] [--seed N]``
(``--quick``: 600 + 600 freshly generated sequences instead of the bundled
files). Writes ``firm_fig3_gattaca.{png,pdf,json}``.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import matplotlib.pyplot as plt  # noqa: E402
from _common import claim, parser, save_figure, write_json  # noqa: E402

from poimkit import WDKernelSVC, compute_poim  # noqa: E402
from poimkit.alphabet import encode, kmer_index  # noqa: E402
from poimkit.datasets import load_gattaca, make_gattaca  # noqa: E402

STEM = "firm_fig3_gattaca"
MOTIF = "GATTACA"
K = len(MOTIF)
DEGREE, SHIFT, C = 20, 8, 1.0
GROUPS = ("exact", "distance 1", "distance 2", "irrelevant")
PAPER_RANGE = (20, 50)  # "most important at positions between 20 and 50"
#: C values tried besides C = 1 (the set-ups section of the JSON)
SETUP_C = (10.0, 100.0, 1e4)


def neighbourhood(motif: str = MOTIF) -> dict[str, np.ndarray]:
    """k-mer indices of the motif, its Hamming-1 and -2 neighbours, and the
    k-mers that differ from it at every position (``irrelevant``)."""
    codes = encode(motif)[0]
    k = len(codes)
    every = np.array(list(itertools.product(range(4), repeat=k)), dtype=np.uint8)
    distance = (every != codes).sum(axis=1)
    index = every @ (4 ** np.arange(k - 1, -1, -1))  # itertools order = index order
    assert index[kmer_index(motif)] == kmer_index(motif)
    return {
        "exact": index[distance == 0],
        "distance 1": index[distance == 1],
        "distance 2": index[distance == 2],
        "irrelevant": index[distance == k],
    }


def dense_weights(weights, k: int = K) -> np.ndarray:
    """``w_k[j, z]`` as a dense ``(L - k + 1, 4**k)`` array; absent weights are 0.

    ``weights`` is a `poimkit.kernels.explicit.KmerWeights` (`explicit_weights()`)."""
    indptr, kmers, values = weights.order(k)
    out = np.zeros((len(indptr) - 1, 4**k))
    rows = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    out[rows, kmers] = values
    return out


def curves(
    importance: np.ndarray, groups: dict[str, np.ndarray], nonzero_band: bool = False
) -> dict:
    """Per-position lines of one importance matrix ``(L - k + 1, 4**k)``.

    With ``nonzero_band`` the irrelevant band uses only the non-zero entries of
    each position (for the sparse SVM weights: the 7-mers that have a weight).
    """
    irrelevant = importance[:, groups["irrelevant"]]
    if nonzero_band:
        masked = np.ma.masked_equal(irrelevant, 0.0)
        mean = masked.mean(axis=1).filled(0.0)
        sd = masked.std(axis=1).filled(0.0)
    else:
        mean, sd = irrelevant.mean(axis=1), irrelevant.std(axis=1)
    out = {
        "exact": importance[:, groups["exact"][0]],
        "distance 1": importance[:, groups["distance 1"]].mean(axis=1),
        "distance 2": importance[:, groups["distance 2"]].mean(axis=1),
        "band mean": mean,
        "band sd": sd,
    }
    safe = np.where(sd > 0, sd, np.inf)
    for name in ("exact", "distance 1", "distance 2"):
        out[f"z {name}"] = (out[name] - mean) / safe
    return out


def roughness(line: np.ndarray) -> float:
    """Total variation over range, ``sum |diff| / (max - min)``: 2 for a smooth
    single bump, larger for an erratic line."""
    span = float(line.max() - line.min())
    return float(np.abs(np.diff(line)).sum() / span) if span > 0 else 0.0


def summarise(lines: dict) -> dict:
    """z-score of GATTACA's peak and the 1-based positions above 3 SD."""
    z = lines["z exact"]
    peak = int(np.argmax(z))
    above = (np.flatnonzero(z > 3) + 1).tolist()
    above1 = (np.flatnonzero(lines["z distance 1"] > 3) + 1).tolist()
    lo, hi = PAPER_RANGE
    inside = [p for p in above if lo <= p <= hi]
    return {
        "peak_position": peak + 1,
        "peak_z": float(z[peak]),
        "peak_value": float(lines["exact"][peak]),
        "max_value_position": int(np.argmax(lines["exact"])) + 1,
        "roughness": roughness(lines["exact"]),
        "positions_above_3sd": above,
        "n_positions_above_3sd": len(above),
        "n_positions_above_3sd_in_20_50": len(inside),
        "n_positions_above_3sd_outside_20_50": len(above) - len(inside),
        "distance1_peak_z": float(lines["z distance 1"].max()),
        "distance1_positions_above_3sd": above1,
        "distance2_peak_z": float(lines["z distance 2"].max()),
    }


def fit_and_score(
    X, y, degree: int = DEGREE, shift: int = SHIFT, c: float = C, normalize=True
):
    """Train the WDS-SVM; return the model, w_7 (dense) and FIRM_7."""
    model = WDKernelSVC(degree=degree, shift=shift, C=c, normalize=normalize)
    model.fit(X, y)
    weights = model.explicit_weights()
    w = dense_weights(weights)
    poim = compute_poim(weights, K)
    return model, w, poim.firm(K)


def unshifted_weights(model) -> np.ndarray:
    """w_7 of a WDS model without its shift contributions (the s = 0 term only)."""
    from poimkit.kernels.explicit import KmerWeights

    weights = KmerWeights.from_support_vectors(
        model.support_vectors_,
        model.dual_coef_ / model.kernel_scale_,
        model.intercept_,
        degree=model.degree,
        shift=0,
    )
    return dense_weights(weights)


#: window around the mean motif start where the counts are taken (1-based)
WINDOW = (35 - 8, 35 + 8)


def occurrence_counts(X: np.ndarray, y: np.ndarray, groups: dict) -> dict:
    """How often GATTACA and a typical irrelevant 7-mer occur: what w_7 counts.

    A positional weight is, up to the kernel's normalisation, the sum over
    support vectors of alpha_i y_i times the occurrences of that 7-mer at that
    position (and within the shift): these counts decide how far GATTACA's
    weight stands out of the irrelevant band.
    """
    windows = np.lib.stride_tricks.sliding_window_view(X, K, axis=1)
    index = windows.astype(np.int64) @ (4 ** np.arange(K - 1, -1, -1))
    target = kmer_index(MOTIF)
    lo, hi = WINDOW[0] - 1, WINDOW[1]  # 0-based starts lo..hi-1
    exact = index == target
    near = exact[:, lo:hi]
    irrelevant = np.isin(index[:, lo:hi], groups["irrelevant"])
    return {
        "window_1based_starts": list(WINDOW),
        "positives_with_exact_gattaca": int(exact[y == 1].any(axis=1).sum()),
        "positives_with_exact_gattaca_in_window": int(near[y == 1].any(axis=1).sum()),
        "negatives_with_exact_gattaca": int(exact[y == 0].any(axis=1).sum()),
        "negatives_with_exact_gattaca_in_window": int(near[y == 0].any(axis=1).sum()),
        "n_positives": int((y == 1).sum()),
        "irrelevant_kmer_mean_occurrences_in_window_all_sequences": float(
            irrelevant.sum() / groups["irrelevant"].size
        ),
        "random_kmer_expected_occurrences_in_window_all_sequences": float(
            X.shape[0] * (hi - lo) / 4**K
        ),
    }


def run(
    quick: bool, seed: int, n_per_class: int | None = None, with_wd: bool = True
) -> tuple[dict, dict]:
    """All computations; returns the JSON summary and the arrays to plot."""
    t0 = time.perf_counter()
    if quick or n_per_class is not None:
        n = n_per_class or 600
        X, y = make_gattaca(n_pos=n, n_neg=n, random_state=seed)
        source = f"make_gattaca(n_pos={n}, n_neg={n}, random_state={seed})"
    else:
        _, X, y = load_gattaca()
        source = "data/gattaca (load_gattaca, make_gattaca(**GATTACA_BUNDLE))"
    t = time.perf_counter()
    model, w, firm = fit_and_score(X, y)
    seconds_model = time.perf_counter() - t
    groups = neighbourhood()
    lines = {"weights": curves(w, groups), "firm": curves(firm, groups)}
    variants = {
        "weights_nonzero_band": curves(w, groups, nonzero_band=True),
        "weights_without_shift_contributions": curves(unshifted_weights(model), groups),
    }
    setups = {}  # other models tried (full run): weights' and FIRM's peak z
    if with_wd and not quick:
        tried = {f"C={c:g}": {"c": c} for c in SETUP_C}
        tried["no normalisation"] = {"normalize": False}
        tried["degree 7"] = {"degree": K}
        tried["plain WD (shift 0)"] = {"shift": 0}
        for name, params in tried.items():
            _, w_s, firm_s = fit_and_score(X, y, **params)
            setups[name] = {
                "weights": summarise(curves(w_s, groups)),
                "firm": summarise(curves(firm_s, groups)),
            }
    if with_wd:
        # the same with the plain WD kernel (no shifts), where weights are not
        # smoothed over neighbouring positions
        _, w0, firm0 = fit_and_score(X, y, shift=0)
        variants["wd_shift0_weights"] = curves(w0, groups)
        variants["wd_shift0_weights_nonzero_band"] = curves(
            w0, groups, nonzero_band=True
        )
        variants["wd_shift0_firm"] = curves(firm0, groups)
    summary = {
        "paper": "Zien et al. 2009, ECML PKDD, figure 3",
        "claim": (
            "FIRM marks GATTACA confidently at positions 20-50 and gives "
            "edit-distance-1 7-mers clear importance; the raw weights do not"
        ),
        "data": source,
        "n_pos": int(y.sum()),
        "n_neg": int((y == 0).sum()),
        "model": f"WDKernelSVC(degree={DEGREE}, shift={SHIFT}, C={C})",
        "n_support": len(model.support_vectors_),
        "order": K,
        "group_sizes": {g: len(v) for g, v in groups.items()},
        "weights_nonzero_fraction_order7": float((w != 0).mean()),
        "counts": occurrence_counts(X, y, groups),
        "setups_tried": setups,
        "firm_note": (
            "uniform order-0 background: FIRM_7 = Q_7 * sqrt(4**7 - 1), so "
            "z-scores equal those of Q_7"
        ),
        "positions": "1-based start of the 7-mer",
        "seed": seed,
        "quick": quick,
        "seconds_model_and_poim": seconds_model,
    }
    for method, method_lines in lines.items():
        summary[method] = summarise(method_lines)
    summary["variants"] = {
        "note": (
            "weights_nonzero_band: band over the irrelevant 7-mers that have a "
            "non-zero weight at the position; wd_shift0_*: WDKernelSVC(degree=20, "
            "shift=0)"
        ),
        **{name: summarise(v) for name, v in variants.items()},
    }
    fw, ff = summary["weights"], summary["firm"]
    summary["why_the_weights_mark_gattaca"] = explanation(summary)
    summary["claims"] = claims(summary)
    summary["claim_holds"] = {
        "firm_gattaca_above_3sd_in_20_50": ff["n_positions_above_3sd_in_20_50"] > 0,
        "firm_gattaca_peak_in_20_50": PAPER_RANGE[0]
        <= ff["peak_position"]
        <= PAPER_RANGE[1],
        "firm_distance1_above_3sd": len(ff["distance1_positions_above_3sd"]) > 0,
        "firm_peak_z_exceeds_weights_peak_z": ff["peak_z"] > fw["peak_z"],
        "weights_distance1_above_3sd": len(fw["distance1_positions_above_3sd"]) > 0,
    }
    summary["seconds"] = time.perf_counter() - t0
    return summary, lines


def explanation(summary: dict) -> str:
    """Why the raw weights mark GATTACA here, in the JSON's own numbers."""
    n = summary["counts"]
    band = summary["variants"]["weights_nonzero_band"]["peak_z"]
    return (
        "Counting, not absent weights: "
        f"{summary['weights_nonzero_fraction_order7']:.1%} of the order-7 "
        "weights are non-zero, and a band of the non-zero "
        f"weights alone still gives GATTACA z {band:.1f}. A positional weight is "
        "in effect an alpha-weighted count of its 7-mer near its position: "
        f"{n['positives_with_exact_gattaca']} of {n['n_positives']} positives carry "
        f"an exact GATTACA ({n['positives_with_exact_gattaca_in_window']} with a "
        f"start in {WINDOW[0]}-{WINDOW[1]}, against "
        f"{n['negatives_with_exact_gattaca_in_window']} negatives), while an "
        "irrelevant 7-mer occurs there "
        f"{n['irrelevant_kmer_mean_occurrences_in_window_all_sequences']:.1f} "
        "times across all sequences (chance: "
        f"{n['random_kmer_expected_occurrences_in_window_all_sequences']:.1f}). "
        "So GATTACA's weight stands far out of the band whatever the set-up "
        "(setups_tried)."
    )


def claims(summary: dict) -> list[dict]:
    """The figure's statements, each with the paper's words, ours and a verdict."""
    fw, ff = summary["weights"], summary["firm"]
    unshifted = summary["variants"]["weights_without_shift_contributions"]
    setups = summary["setups_tried"]
    lo, hi = PAPER_RANGE
    weight_z = {name: round(v["weights"]["peak_z"], 1) for name, v in setups.items()}
    found = [
        claim(
            "FIRM marks GATTACA as most important at positions 20 to 50",
            "GATTACA clearly above the irrelevant band between positions 20 and 50",
            f"peak z {ff['peak_z']:.1f} at position {ff['peak_position']}; "
            f"{ff['n_positions_above_3sd_in_20_50']} positions in {lo}-{hi} above "
            "3 SD",
            "holds"
            if ff["n_positions_above_3sd_in_20_50"] > 0
            and lo <= ff["peak_position"] <= hi
            else "differs",
            None
            if ff["n_positions_above_3sd_in_20_50"] > 0
            else "GATTACA never exceeds 3 SD of the band in 20-50",
        ),
        claim(
            "FIRM gives the 7-mers at edit distance 1 clear importance",
            "distance-1 7-mers above the band",
            f"distance-1 mean peak z {ff['distance1_peak_z']:.1f}",
            "holds" if ff["distance1_positions_above_3sd"] else "differs",
            None
            if ff["distance1_positions_above_3sd"]
            else "the distance-1 mean stays within 3 SD",
        ),
        claim(
            "the raw SVM weights do not identify GATTACA (no clear signal, erratic)",
            "weights fail to mark the motif",
            f"weights peak z {fw['peak_z']:.1f} at position {fw['peak_position']} "
            f"(FIRM {ff['peak_z']:.1f}); roughness {fw['roughness']:.1f} (FIRM "
            f"{ff['roughness']:.1f}); peak z in every set-up tried: {weight_z}; "
            f"only the weights without shift contributions are erratic (peak z "
            f"{unshifted['peak_z']:.1f}, distance 1 "
            f"{unshifted['distance1_peak_z']:.1f}, roughness "
            f"{unshifted['roughness']:.1f})",
            "differs" if fw["peak_z"] > 3 else "holds",
            summary["why_the_weights_mark_gattaca"] if fw["peak_z"] > 3 else None,
        ),
    ]
    return found


def plot(lines: dict, title: str = ""):
    """Two panels (weights, FIRM) in the layout of the paper's figure 3."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    for ax, (method, label) in zip(
        axes,
        (("weights", "SVM weights $w_7$"), ("firm", "FIRM (order 7)")),
        strict=True,
    ):
        line = lines[method]
        x = np.arange(1, len(line["exact"]) + 1)
        ax.fill_between(
            x,
            line["band mean"] - line["band sd"],
            line["band mean"] + line["band sd"],
            color="0.7",
            alpha=0.6,
            label="irrelevant 7-mers, mean $\\pm$ 1 SD",
        )
        ax.plot(x, line["exact"], "r-", lw=1.5, label=MOTIF)
        ax.plot(x, line["distance 1"], "m-", lw=1.2, label="edit distance 1 (mean)")
        ax.plot(x, line["distance 2"], "b-", lw=1.2, label="edit distance 2 (mean)")
        ax.axhline(0, color="k", lw=0.5)
        ax.set_xlabel("position (1-based start of the 7-mer)")
        ax.set_ylabel("importance")
        ax.set_title(label)
        ax.set_xlim(1, x[-1])
    axes[0].legend(fontsize=8, loc="upper right")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def main(argv: list[str] | None = None) -> int:
    args = parser(__doc__.splitlines()[0]).parse_args(argv)
    summary, lines = run(args.quick, args.seed)
    save_figure(
        plot(lines, f"GATTACA, {summary['n_pos']} + {summary['n_neg']} sequences"),
        args.out,
        STEM,
    )
    path = write_json(args.out, STEM, summary)
    rows = [(m, summary[m]) for m in ("weights", "firm")]
    rows += [(m, v) for m, v in summary["variants"].items() if m != "note"]
    for method, s in rows:
        print(
            f"{method:31s}: GATTACA peak z = {s['peak_z']:6.2f} at position "
            f"{s['peak_position']}; {s['n_positions_above_3sd']} positions > 3 SD "
            f"({s['n_positions_above_3sd_in_20_50']} in 20..50); distance-1 mean "
            f"peak z = {s['distance1_peak_z']:.2f}; roughness {s['roughness']:.1f}"
        )
    print(f"claims: {summary['claim_holds']}")
    print(f"wrote {path} in {summary['seconds']:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
