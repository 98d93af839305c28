"""The planted SNVs and the measures of variant effects (precision, Spearman)."""

from __future__ import annotations

from pathlib import Path

import numpy as np


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
