"""The pieces of `poimkit.datasets.genome`: random draws and file writers."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..alphabet import ALPHABET
from ..errors import InputError
from ..io import atomic_path

#: byte of each code (0-4: A, C, G, T, N), upper case then soft-masked lower case
_LETTERS = np.frombuffer(b"ACGTNacgtn", dtype=np.uint8)


def motif_codes(motif: str) -> np.ndarray:
    if not isinstance(motif, str) or not motif or set(motif.upper()) - set(ALPHABET):
        raise InputError(f"motif must be a non-empty string over ACGT, got {motif!r}")
    return np.array([ALPHABET.index(ch) for ch in motif.upper()], dtype=np.int64)


def isochores(rng: np.random.Generator, length: int, lo: int, hi: int) -> np.ndarray:
    """Block boundaries 0 = b_0 < ... < b_r = length (lengths uniform in lo..hi)."""
    sizes = rng.integers(lo, hi + 1, size=length // lo + 2)
    bounds = np.r_[0, np.cumsum(sizes)]
    bounds = bounds[bounds < length]
    return np.r_[bounds, length].astype(np.int64)


def draw_letters(rng: np.random.Generator, gc: np.ndarray) -> np.ndarray:
    """Codes with P(C or G) = gc per position; C/G and A/T each half-half."""
    strong = rng.random(gc.size, dtype=np.float32) < gc
    half = rng.integers(0, 2, size=gc.size, dtype=np.uint8)
    return np.where(strong, 1 + half, 3 * half).astype(np.uint8)


def repeat_families(rng: np.random.Generator) -> list[np.ndarray]:
    """Consensus sequences of four repeat families (Alu-, MIR-, LINE-like)."""
    return [
        draw_letters(rng, np.full(n, gc))
        for n, gc in ((300, 0.55), (260, 0.45), (1500, 0.4), (6000, 0.42))
    ]


def place_repeats(
    rng: np.random.Generator,
    x: np.ndarray,
    families: list[np.ndarray],
    fraction: float,
    divergence: float,
) -> np.ndarray:
    """Write mutated fragments of the families over ``x``; the mask of their letters.

    Copies do not overlap: the gaps between them are exponential with the
    mean that makes them cover ``fraction`` of ``x`` on average.
    """
    mask = np.zeros(x.size, dtype=bool)
    if fraction <= 0:
        return mask
    weights = np.array([4.0, 2.0, 1.0, 0.5])
    weights /= weights.sum()
    mean_len = sum(
        w * (min(100, f.size) + f.size) / 2
        for w, f in zip(weights, families, strict=True)
    )
    mean_gap = mean_len * (1 - fraction) / fraction
    n_draw = int(x.size / (mean_len + mean_gap) * 1.5) + 10
    fam = rng.choice(len(families), size=n_draw, p=weights)
    frac = rng.random(n_draw)
    start_frac = rng.random(n_draw)
    minus = rng.random(n_draw) < 0.5
    gaps = rng.exponential(mean_gap, size=n_draw).astype(np.int64)
    pos = 0
    for i in range(n_draw):
        pos += int(gaps[i])
        family = families[fam[i]]
        size = min(100, family.size)
        size += int(frac[i] * (family.size - size))
        if pos + size > x.size:
            break
        a = int(start_frac[i] * (family.size - size + 1))
        piece = family[a : a + size]
        x[pos : pos + size] = 3 - piece[::-1] if minus[i] else piece
        mask[pos : pos + size] = True
        pos += size
    where = np.flatnonzero(mask)
    hit = where[rng.random(where.size) < divergence]
    x[hit] = rng.integers(0, 4, size=hit.size, dtype=np.uint8)
    return mask


def gc_at(chrom, start, end, gc, at_chrom, at_pos) -> np.ndarray:
    """Target GC of the isochore holding each (chromosome, position)."""
    key = chrom * (1 << 40) + start
    idx = np.searchsorted(key, at_chrom * (1 << 40) + at_pos, side="right") - 1
    return gc[idx]


def sample_pwm(rng: np.random.Generator, pwm: np.ndarray, n: int) -> np.ndarray:
    """Rows of letters (n of them), column j drawn from ``pwm[j]``; shape (n, m)."""
    cum = np.cumsum(pwm, axis=1)
    u = rng.random((n, pwm.shape[0]))
    return (u[:, :, None] > cum[None, :, :3]).sum(axis=2).astype(np.uint8)


def in_intervals(rng, starts: np.ndarray, sizes: np.ndarray, k: int) -> np.ndarray:
    """Positions (k): an interval drawn with weight by size, then a place in it."""
    pick = rng.choice(starts.size, size=k, p=sizes / sizes.sum())
    return starts[pick] + (rng.random(k) * sizes[pick]).astype(np.int64)


def draw_free(rng, k: int, taken: np.ndarray, draw) -> np.ndarray:
    """Distinct positions (k) from ``draw`` that are not ``taken`` (in draw order)."""
    out = np.zeros(0, dtype=np.int64)
    for _ in range(100):
        if out.size >= k:
            break
        more = np.asarray(draw(int((k - out.size) * 1.3) + 16), dtype=np.int64)
        more = more[~taken[more]]
        out = np.r_[out, more]
        _, first = np.unique(out, return_index=True)
        out = out[np.sort(first)]
    if out.size < k:
        raise InputError(
            f"could not find {k} free positions for neutral variants; ask for fewer"
        )
    return out[:k]


def variant_rows(
    rng, genome, forbidden, c_pos, c_ref, c_alt, n_pos, n_kind
) -> list[tuple]:
    """(global position, REF, ALT, kind, site) of every VCF line, unsorted.

    Indels are VCF-style: POS is the anchor letter; a deletion of d letters
    has REF = anchor + the d letters and ALT = anchor, an insertion REF =
    anchor and ALT = anchor + d letters.
    """
    upper = "ACGT"
    rows: list[tuple] = [
        (int(p), upper[r], upper[a], "causal", i)
        for i, (p, r, a) in enumerate(zip(c_pos, c_ref, c_alt, strict=True))
    ]
    shift = rng.integers(1, 4, size=n_pos.size)
    other = rng.integers(1, 3, size=n_pos.size)
    size = rng.integers(1, 4, size=n_pos.size)
    insert = rng.integers(0, 4, size=(n_pos.size, 3))
    deletion = rng.random(n_pos.size) < 0.5
    for j, (p, kind) in enumerate(zip(n_pos.tolist(), n_kind.tolist(), strict=True)):
        ref = int(genome[p])
        if kind == 0:
            rows.append((p, upper[ref], upper[(ref + shift[j]) % 4], "neutral", -1))
        elif kind == 2:
            a1 = (ref + shift[j]) % 4
            a2 = (a1 + other[j]) % 4
            if a2 == ref:
                a2 = (a2 + 1) % 4
            rows.append((p, upper[ref], f"{upper[a1]},{upper[a2]}", "multi", -1))
        else:
            d = int(size[j])
            span = slice(p, p + 1 + d)
            if deletion[j] and p + 1 + d <= genome.size and not forbidden[span].any():
                ref_s = "".join(upper[v] for v in genome[span])
                rows.append((p, ref_s, upper[ref], "indel", -1))
            else:
                added = "".join(upper[v] for v in insert[j, :d])
                rows.append((p, upper[ref], upper[ref] + added, "indel", -1))
    return rows


def write_fasta(path: Path, names, codes, masks, line_width: int, bgzip: bool) -> None:
    """FASTA of letter codes, lowercase where masked, ``line_width`` per line."""
    with atomic_path(path) as tmp, opener(tmp, bgzip) as handle:
        for name, x, mask in zip(names, codes, masks, strict=True):
            handle.write(f">{name}\n".encode())
            text = _LETTERS[x + 5 * mask.astype(np.uint8)]
            full = text.size // line_width * line_width
            block = np.empty((full // line_width, line_width + 1), dtype=np.uint8)
            block[:, :line_width] = text[:full].reshape(-1, line_width)
            block[:, line_width] = ord("\n")
            handle.write(block.tobytes())
            if full < text.size:
                handle.write(text[full:].tobytes() + b"\n")


def write_text(path: Path, text: str, bgzip: bool) -> None:
    with atomic_path(path) as tmp, opener(tmp, bgzip) as handle:
        handle.write(text.encode())


def opener(path: str, bgzip: bool):
    if bgzip:
        from Bio import bgzf

        return bgzf.BgzfWriter(path, "wb")
    return open(path, "wb")  # noqa: SIM115 - closed by the caller's with
