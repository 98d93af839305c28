"""Motifs of position-free models in records of any lengths: sites where they are."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poimkit import GkmSVC, MarkovBackground, compute_poim, extract_motifs
from poimkit.alphabet import decode, encode
from poimkit.io import read_fasta, write_fasta
from poimkit.motifs.scan import n_windows, padded, scan
from poimkit.run import RunOptions, run_pipeline

from ..naive import reverse_complement_text

MOTIF = "TGACTCAG"
GKM = {"l": 6, "k": 4}


def planted_records(seed: int, n: int, low: int, high: int):
    """Records of lengths low..high; positives carry the motif once, either strand.

    Returns the records (str), labels and, per positive, (0-based start, strand).
    """
    rng = np.random.default_rng(seed)
    records, labels, truth = [], [], {}
    for i in range(2 * n):
        s = "".join(rng.choice(list("ACGT"), int(rng.integers(low, high + 1))))
        if i % 2 == 0:
            strand = "+" if rng.random() < 0.5 else "-"
            site = MOTIF if strand == "+" else reverse_complement_text(MOTIF)
            start = int(rng.integers(0, len(s) - len(site) + 1))
            s = s[:start] + site + s[start + len(site) :]
            truth[i] = (start, strand)
        records.append(s)
        labels.append(int(i % 2 == 0))
    return records, np.array(labels), truth


def read_site(record: str, start: int, width: int, strand: str) -> str:
    """The letters of a site as sites.tsv gives it (1-based start)."""
    window = record[start - 1 : start - 1 + width]
    return window if strand == "+" else reverse_complement_text(window)


def mismatches(a: str, b: str) -> int:
    return sum(x != y for x, y in zip(a, b, strict=True))


# --------------------------------------------------------------------------- #
# scanning records of different lengths
# --------------------------------------------------------------------------- #
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    width=st.integers(1, 5),
    threshold=st.floats(-2.0, 6.0),
)
def test_scan_of_padded_records_is_scan_of_each_record(seed, width, threshold):
    """Padding never makes a site, and n_windows counts the windows that fit."""
    rng = np.random.default_rng(seed)
    seqs = [
        rng.integers(0, 4, int(rng.integers(1, 12))).astype(np.uint8) for _ in range(5)
    ]
    X = padded(seqs)
    lods = np.round(rng.normal(0, 1.5, (width, 4)), 2)
    starts = np.arange(max(X.shape[1] - width + 1, 0))
    if starts.size == 0:
        return
    got = scan(X, starts, starts, lods, threshold)
    fits = [max(x.size - width + 1, 0) for x in seqs]
    assert n_windows(X, starts, width) == pytest.approx(np.mean(fits))
    for i, x in enumerate(seqs):
        own = np.arange(fits[i])
        one = scan(x[None], own, own, lods, threshold) if fits[i] else None
        row = np.flatnonzero(got.rows == i)
        if one is None or one.rows.size == 0:
            assert row.size == 0
            continue
        assert row.size == 1
        assert got.starts[row[0]] == one.starts[0]
        assert got.strands[row[0]] == one.strands[0]
        assert got.scores[row[0]] == pytest.approx(one.scores[0])
        assert got.starts[row[0]] + width <= x.size


# --------------------------------------------------------------------------- #
# the library: extract_motifs on records of mixed lengths
# --------------------------------------------------------------------------- #
@pytest.fixture(scope="module")
def mixed():
    records, y, truth = planted_records(5, 120, 30, 150)
    seqs = [encode([s])[0] for s in records]
    model = GkmSVC(**GKM, reverse_complement=True).fit(seqs, y)
    median = int(np.median([len(s) for s in records]))
    poim = compute_poim(model, 5, MarkovBackground.uniform(median))
    return records, y, truth, seqs, poim


def test_sites_in_records_of_mixed_lengths_lie_at_the_planted_motifs(mixed):
    records, y, truth, seqs, poim = mixed
    median = poim.length
    motifs = extract_motifs(poim, 1, sequences=seqs, labels=y)
    assert motifs, "the planted motif is found"
    motif = motifs[0]
    assert np.isnan(motif.position)
    sites = motif.sites
    positive = y[sites.rows] == 1
    rows = sites.rows[positive]
    # nearly every positive has its site, the short ones too (today's
    # centre-cropping left every record shorter than the median out)
    assert rows.size >= 0.9 * (y == 1).sum()
    short = [i for i in truth if len(records[i]) < median]
    assert np.isin(short, rows).mean() >= 0.9
    assert motif.sites.on_both_strands
    w = motif.length
    for r, start, strand in zip(
        rows, sites.starts[positive], sites.strands[positive], strict=True
    ):
        p, planted_strand = truth[r]
        letters = read_site(records[r], start + 1, w, "+" if strand > 0 else "-")
        assert mismatches(letters, motif.consensus) <= 1
        # the site covers the planted motif (up to its trimmed or added columns),
        # unless the record holds another exact copy by chance, which ties with it
        overlap = min(start + w, p + len(MOTIF)) - max(start, p)
        exact = mismatches(letters, motif.consensus) == 0
        assert overlap >= min(w, len(MOTIF)) - 2 or exact, (r, start, p)
    assert motif.frac_positive > 0.9 > 0.1 > motif.frac_negative


def test_lists_object_arrays_and_strings_give_the_same_sites(mixed):
    records, y, _, seqs, poim = mixed
    rows = np.empty(len(seqs), dtype=object)
    rows[:] = seqs
    a = extract_motifs(poim, 1, sequences=seqs, labels=y)[0].sites
    b = extract_motifs(poim, 1, sequences=rows, labels=y)[0].sites
    c = extract_motifs(poim, 1, sequences=records, labels=y)[0].sites
    for other in (b, c):
        assert np.array_equal(a.rows, other.rows)
        assert np.array_equal(a.starts, other.starts)
        assert np.array_equal(a.strands, other.strands)


# --------------------------------------------------------------------------- #
# the pipeline: every site of sites.tsv is in the record it names
# --------------------------------------------------------------------------- #
@pytest.fixture(scope="module")
def gkm_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("anywhere")
    records, y, truth = planted_records(8, 100, 40, 160)
    pos, neg = folder / "pos.fa", folder / "neg.fa"
    ids = [f"r{i}" for i in range(len(records))]
    write_fasta(pos, [i for i, t in zip(ids, y, strict=True) if t], records[::2])
    write_fasta(neg, [i for i, t in zip(ids, y, strict=True) if not t], records[1::2])
    options = RunOptions(
        kernel="gkm",
        gkm_l=GKM["l"],
        gkm_k=GKM["k"],
        reverse_complement=True,
        C=1.0,
        grid=False,
        cv=0,
        max_order=4,
        max_motifs=2,
    )
    out = folder / "out"
    summary = run_pipeline(
        out, pos=str(pos), neg=str(neg), options=options, progress=False
    )
    # the records as the user's files hold them
    on_file = {}
    for path in (pos, neg):
        names, codes = read_fasta(path, any_length=True)
        on_file.update(zip(names, (decode(x[None])[0] for x in codes), strict=True))
    return out, summary, on_file, truth


def test_every_site_in_sites_tsv_is_in_its_record(gkm_run):
    out, summary, records, truth = gkm_run
    motifs = {m["name"]: m for m in summary.motifs}
    assert motifs, "the planted motif is found"
    header, *rows = [
        r.split("\t") for r in (out / "sites.tsv").read_text().splitlines()
    ]
    assert header == ["sequence", "label", "motif", "start", "strand", "score"]
    assert rows
    for name, label, motif, start, strand, _ in rows:
        assert name in records, name
        record, start, width = records[name], int(start), motifs[motif]["length"]
        assert 1 <= start and start + width - 1 <= len(record), (name, start)
        assert label == ("1" if int(name[1:]) % 2 == 0 else "0")
        letters = read_site(record, start, width, strand)
        assert mismatches(letters, motifs[motif]["consensus"]) <= 1, (name, letters)
    # the planted sites themselves: nearly every positive lists its own
    first = [r for r in rows if r[2] == "motif_1"]
    width = motifs["motif_1"]["length"]
    at_planted = 0
    for name, label, _, start, _, _ in first:
        if label == "1":
            p, _ = truth[int(name[1:])]
            at_planted += (
                min(int(start) - 1 + width, p + len(MOTIF)) - max(int(start) - 1, p)
                >= min(width, len(MOTIF)) - 2
            )
    assert at_planted >= 0.9 * len(truth)
    assert summary.n_motif_sequences == summary.n_sequences


def test_report_of_a_position_free_model_shows_no_positions(gkm_run):
    out, summary, _, _ = gkm_run
    figures = set(summary.figures)
    assert {"kmer_importance.png", "site_positions.png"} <= figures
    positional = {"nucleotide_importance.png", "differential_poim.png"}
    assert not figures & positional
    assert not any(f.startswith("poim_order_") for f in figures)
    page = (out / "report.html").read_text()
    assert "1-based mean start" not in page and "<th>position</th>" not in page
    assert "<th>strands</th>" in page and "k-mer importance" in page
    assert "Where in the sequence the model looks" not in page


def test_kmer_importance_bars_are_the_anywhere_importance(mixed):
    import matplotlib.pyplot as plt

    from poimkit.alphabet import kmer_index
    from poimkit.plot.position_free import plot_kmer_importance

    *_, poim = mixed
    value = poim.anywhere(4)
    ax = plot_kmer_importance(poim, 4, top=5)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    widths = [p.get_width() for p in ax.patches]
    assert widths == pytest.approx([value[kmer_index(z)] for z in labels])
    order = np.sort(value)
    assert widths[:5] == pytest.approx(order[::-1][:5])  # strongest first
    assert widths[5:] == pytest.approx(order[:5][::-1])  # most negative last
    plt.close(ax.figure)


def test_site_offsets_definition():
    from poimkit.motifs.motif import Motif
    from poimkit.motifs.scan import Sites
    from poimkit.plot.position_free import site_offsets

    rng = np.random.default_rng(3)
    lengths = rng.integers(10, 40, 20)
    width = 5
    starts = np.array([rng.integers(0, n - width + 1) for n in lengths])
    motif = Motif(np.full((width, 4), 0.25), np.nan, np.nan)
    motif.sites = Sites(np.arange(20), starts, np.zeros(20))
    # a site's letters i..i+4 and the record's 0..n-1: centres i+2 and (n-1)/2
    expected = [s + 2 - (n - 1) / 2 for s, n in zip(starts, lengths, strict=True)]
    assert site_offsets(motif, lengths).tolist() == expected


def test_a_two_strand_model_s_motif_is_not_reported_again_as_its_reverse_complement():
    """motifPOIM on ``Q(z, j) = Q(rc z, L - k - j)``: one motif, not a strand pair."""
    from poimkit.datasets import make_gattaca
    from poimkit.motifs.compare import match_motifs
    from poimkit.motifs.extract import _strand_symmetric

    X, y = make_gattaca(n_pos=150, n_neg=150, length=40, mean=20, sd=2, random_state=4)
    found = {}
    for rc in (True, False):
        model = GkmSVC(**GKM, reverse_complement=rc, C=1.0).fit(X, y)
        poim = compute_poim(model, 6, MarkovBackground.uniform(40))
        assert _strand_symmetric(poim) is rc
        found[rc] = extract_motifs(poim, max_motifs=2, random_state=0)
    motifs = found[True]
    assert motifs[0].consensus in ("GATTACA", "TGTAATC")
    for i, a in enumerate(motifs):
        for b in motifs[i + 1 :]:
            [m] = match_motifs(b, [a], top=1)
            assert not (m.strand == "-" and m.score >= 0.9), (a.consensus, b.consensus)
