"""Site motifs from a POIM's seeds: the discovery shared by every kind of evidence.

`discover` turns the seeds a POIM rewards into site motifs (PWMs of their real
occurrences) in a set of discovery sequences; `poimkit.motifs.extract` (labels:
Fisher's test) and `poimkit.motifs.continuous_targets` (continuous targets: a rank test)
count the evidence for them on sequences the PWMs never saw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..background import kmer_probability_table
from .seeds import site_seeds

if TYPE_CHECKING:
    from ..background import MarkovBackground
    from ..poim import Poim
    from .scan import Sites
    from .sites import SiteMotif

#: POIM seeds turned into site motifs (`extract_motifs` with sequences), the
#: ones that explain the most score mass (`poimkit.motifs.sites.seed_mass`)
MAX_SITE_SEEDS = 100
#: a longer motif on the same sites replaces a found one if it keeps this share
#: of its sites (a motif's weakest columns can be missed from its first seed)
KEEP_SITES = 0.9
#: a seed whose sites overlap those of a stronger motif this often is dropped
SHARED_SITES = 0.5
#: letters of a seed that may hang over a motif's edge in `completes`
OVERHANG = 1


def background_letters(background: MarkovBackground) -> np.ndarray:
    """Mean letter probabilities of A, C, G, T over a background's positions.

    Parameters
    ----------
    background : MarkovBackground
        The sequence distribution whose letters are averaged.

    Returns
    -------
    numpy.ndarray of float64, shape (4,)
    """
    return kmer_probability_table(background, 1).mean(axis=0)


def codes_for(poim: Poim, sequences: ArrayLike | Sequence[np.ndarray]) -> np.ndarray:
    """The sequences for a POIM's motifs as one code array, checked against it.

    Records of any lengths are `padded` for a position-free POIM; otherwise
    every record must have the POIM's length.

    Parameters
    ----------
    poim : Poim
        POIMs of the model the sequences are searched for.
    sequences : array-like or sequence of code arrays or strings
        As `poimkit.extract_motifs` takes them.

    Returns
    -------
    numpy.ndarray of uint8, shape (n, L)
    """
    from .._validation import check_length
    from ..alphabet import check_codes

    if poim.position_free:
        from ..kernels.gkm import as_sequences
        from .scan import padded

        return padded(as_sequences(sequences, "sequences"))
    X = check_codes(np.asarray(sequences), "sequences")
    return check_length(X, poim.length, "the POIM is for length", "sequences")


def importance(poim: Poim, consensus: str) -> float:
    """Largest POIM value of a k-mer of the consensus (k = min(K, m)) anywhere.

    Parameters
    ----------
    poim : Poim
        POIMs of a model, orders 1 to K.
    consensus : str
        A motif's consensus, m letters over ``ACGT``.

    Returns
    -------
    float
    """
    from ..alphabet import kmer_index

    l = min(poim.max_order, len(consensus))
    q = poim.q(l)
    return float(
        max(
            q[:, kmer_index(consensus[o : o + l])].max()
            for o in range(len(consensus) - l + 1)
        )
    )


def negated(poim: Poim) -> Poim:
    """The POIM with every value's sign flipped (what the model penalises).

    Parameters
    ----------
    poim : Poim

    Returns
    -------
    Poim
    """
    from ..poim import Poim

    return Poim(
        [-poim.q(l) for l in range(1, poim.max_order + 1)],
        poim.background,
        poim.metadata,
    )


def discover(
    poim: Poim,
    X_discovery: np.ndarray,
    progress: bool = False,
    X_contrast: np.ndarray | None = None,
) -> tuple[list, int]:
    """Site motifs of the POIM's seeds in the discovery sequences.

    The seeds (`site_seeds`) that explain the most score mass in
    ``X_discovery`` (at most `MAX_SITE_SEEDS`) are turned into site motifs
    (`poimkit.motifs.sites.site_motif`), strongest first; a seed whose sites
    mostly coincide with those of a motif found before is dropped, or
    replaces it if it is longer and keeps `KEEP_SITES` of its sites, and a
    motif found on the other strand becomes the first one's twin. The PWMs'
    background is the POIM background's mean letters (`background_letters`);
    for a strand-symmetric model (``model_reverse_complement``), which rewards
    a site and its reverse complement alike, both strands are always scanned.
    The seeds that made no site motif are then refined against
    ``X_contrast``, if given (`poimkit.motifs.contrast.contrast_motif`: the
    short, degenerate motifs of real factors), so that a sharp site motif is
    never displaced by a refined one.

    Parameters
    ----------
    poim : Poim
        POIMs of the model: seeds where they are positive.
    X_discovery : numpy.ndarray of uint8, shape (n, L)
        The sequences the sites and PWMs come from.
    progress : bool
        A progress bar over the seeds.
    X_contrast : numpy.ndarray of uint8, shape (n_contrast, L), optional
        Sequences of the other class (or side of a target), the same width.

    Returns
    -------
    found : list of [SiteMotif, Sites, bool]
        Each motif with its sites in ``X_discovery`` and whether it was
        refined against ``X_contrast`` (whose sequences then are no
        evidence for it).
    n_examined : int
        Seeds examined (the size of the family of tests).
    """
    from tqdm.auto import tqdm

    from .sites import seed_mass, site_motif

    background = background_letters(poim.background)
    symmetric = poim.metadata.get("model_reverse_complement") == "True"
    found = []  # [SiteMotif, its sites in the discovery half, saw the contrast]
    seeds = site_seeds(poim)
    mass = np.array([seed_mass(X_discovery, poim, seed) for seed in seeds])
    by_mass = np.argsort(-mass, kind="stable")[:MAX_SITE_SEEDS]
    by_mass = by_mass[mass[by_mass] > 0]
    missed = []  # seeds that made no site motif, in order
    for i in tqdm(by_mass, desc="motif seeds", unit="seed", disable=not progress):
        if any(_within(seeds[i], m) for m, _, _ in found):
            continue  # a piece of a motif found already: its sites are the same
        candidate = site_motif(X_discovery, poim, seeds[i], background, symmetric)
        if candidate is None:
            missed.append(seeds[i])
            continue
        _add(found, candidate, X_discovery, False)
    # then the degenerate motifs the site test misses, refined by contrast
    for seed in missed if X_contrast is not None else []:
        if any(_within(seed, m) for m, _, _ in found):
            continue
        candidate = _refined(poim, seed, X_discovery, X_contrast, found, symmetric)
        if candidate is not None:
            _add(found, candidate, X_discovery, True)
    return found, int(by_mass.size)


def _add(found: list, candidate, X_discovery: np.ndarray, by_contrast: bool) -> None:
    """Add a motif to ``found``: new, the other strand of one, or the same sites.

    A motif whose sites mostly coincide with those of one found before (or,
    refined by contrast, a degenerate variant of it: `completes`) replaces
    it if it is longer and keeps `KEEP_SITES` of its sites (a refined motif
    never replaces a site motif), and is dropped otherwise. A copy of one
    found before at more places (one consensus within the other, more sites,
    holding most of the first's) replaces it: the first held only the
    copies near the likeliest place. One found on the other strand becomes
    the first one's twin.
    """
    sites = candidate.sites(X_discovery)
    same = [
        k
        for k, (m, s, _) in enumerate(found)
        if shared_sites(sites, candidate.length, s, m.length)
    ]
    wider = [
        k
        for k, (m, s, _) in enumerate(found)
        if (_within(m.consensus, candidate) or _within(candidate.consensus, m))
        and sites.rows.size > s.rows.size
        and shared_sites(s, m.length, sites, candidate.length)
    ]
    if wider and not same:
        old, _, old_by_contrast = found[wider[0]]
        if old.twin is None and by_contrast <= old_by_contrast:
            found[wider[0]] = [candidate, sites, by_contrast]
        return
    if by_contrast and not same:
        same = [
            k
            for k, (m, _, _) in enumerate(found)
            if completes(m.consensus, candidate) or completes(candidate.consensus, m)
        ]
    if same:
        old, old_sites, old_by_contrast = found[same[0]]
        if (
            old.twin is None
            and by_contrast <= old_by_contrast  # never a site motif's by a refined
            and candidate.length > old.length
            and sites.rows.size >= KEEP_SITES * old_sites.rows.size
        ):
            found[same[0]] = [candidate, sites, by_contrast]
        return
    twin_of = next(
        (
            (entry, shift)
            for entry in found
            if entry[0].twin is None
            and (shift := entry[0].reverse_shift(candidate)) is not None
        ),
        None,
    )
    if twin_of is not None:
        entry, shift = twin_of
        entry[0].twin, entry[0].twin_shift = candidate, shift
        entry[1] = entry[0].sites(X_discovery)
        entry[2] = entry[2] or by_contrast
        return
    found.append([candidate, sites, by_contrast])


def _refined(poim, seed, X_discovery, X_contrast, found, symmetric):
    """The seed's motif refined against the contrast (`contrast_motif`), or None.

    None also when the seed's exact occurrences are mostly sites of a motif
    found already: it is a piece of that motif.
    """
    from .contrast import contrast_motif
    from .sites import allowed_starts, occurrences

    allowed = allowed_starts(poim, seed, length=X_discovery.shape[1])
    held = occurrences(X_discovery, seed, allowed)
    if any(shared_sites(held, len(seed), s, m.length) for m, s, _ in found):
        return None
    return contrast_motif(
        X_discovery, X_contrast, seed, allowed, symmetric, poim.position_free
    )


def completes(seed: str, motif: SiteMotif) -> bool:
    """True if the seed, completed by the motif's best letters, is one of its sites.

    The seed is laid on the motif (or its twin) at every shift on either
    strand where all but `OVERHANG` of its letters fall on motif columns;
    the columns it leaves uncovered take their best letter. A seed that
    reaches the motif's threshold so is a piece of a site of the motif: for a
    degenerate motif, whose consensus need not contain the seed, the
    counterpart of `_within`.

    Parameters
    ----------
    seed : str
        A k-mer over ``ACGT``.
    motif : SiteMotif
        A motif found already.

    Returns
    -------
    bool
    """
    from ..alphabet import ALPHABET

    codes = np.array([ALPHABET.index(c) for c in seed])
    m = codes.size
    for site_motif in (motif, motif.twin):
        if site_motif is None:
            continue
        lods = site_motif.log_odds
        best = lods.max(axis=1)
        for letters in (codes, 3 - codes[::-1]):
            for shift in range(-OVERHANG, lods.shape[0] - m + OVERHANG + 1):
                lo, hi = max(0, shift), min(lods.shape[0], shift + m)
                if hi - lo < m - OVERHANG:
                    continue
                covered = lods[np.arange(lo, hi), letters[lo - shift : hi - shift]]
                score = covered.sum() + best[:lo].sum() + best[hi:].sum()
                if score >= site_motif.threshold:
                    return True
    return False


def _within(seed: str, motif) -> bool:
    """True if the seed is in the consensus of the motif or its twin (either strand)."""
    rc = seed.translate(str.maketrans("ACGT", "TGCA"))[::-1]
    return any(
        seed in m.consensus or rc in m.consensus
        for m in (motif, motif.twin)
        if m is not None
    )


def shared_sites(a: Sites, width_a: int, b: Sites, width_b: int) -> bool:
    """True if most sites of ``a`` overlap a site of ``b`` in the same sequence.

    Any of ``b``'s sites in the sequence counts (a motif may have several).

    Parameters
    ----------
    a, b : Sites
        Sites of two motifs (`poimkit.motifs.scan.Sites`).
    width_a, width_b : int
        The motifs' lengths.

    Returns
    -------
    bool
        Whether at least `SHARED_SITES` of ``a``'s sites overlap one of ``b``.
    """
    if a.rows.size == 0:
        return True
    if b.rows.size == 0:
        return False
    # sites as one key per (row, start), rows far enough apart that a window
    # never reaches into the next row's: a's site overlaps a site of b in its
    # row if b has a start in (start - width_b, start + width_a)
    stride = int(max(a.starts.max(), b.starts.max())) + width_a + width_b + 1
    a_keys = a.rows.astype(np.int64) * stride + a.starts
    b_keys = np.sort(b.rows.astype(np.int64) * stride + b.starts)
    first = np.searchsorted(b_keys, a_keys - width_b, side="right")
    past = np.searchsorted(b_keys, a_keys + width_a, side="left")
    return bool(np.mean(past > first) >= SHARED_SITES)
