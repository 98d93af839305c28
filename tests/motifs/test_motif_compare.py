import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poimkit.cli import main
from poimkit.errors import InputError
from poimkit.motifs import Motif
from poimkit.motifs.compare import known_motifs, match_motifs
from poimkit.motifs.formats import write_motifs

from ..naive import best_motif_alignment_naive, motif_alignment_score_naive


def soft(consensus: str, p: float = 0.85, name: str | None = None) -> Motif:
    """A PWM with probability p on the consensus letter of each column."""
    pwm = np.full((len(consensus), 4), (1 - p) / 3)
    pwm[np.arange(len(consensus)), ["ACGT".index(c) for c in consensus]] = p
    return Motif(pwm, 1.0, 0.3, name=name or consensus)


pwms = st.integers(1, 9).flatmap(
    lambda m: st.lists(
        st.lists(st.floats(0.0, 1.0), min_size=4, max_size=4).filter(
            lambda c: sum(c) > 0.05
        ),
        min_size=m,
        max_size=m,
    )
)


def as_motif(columns, name) -> Motif:
    pwm = np.array(columns)
    return Motif(pwm / pwm.sum(axis=1, keepdims=True), 1.0, 0.3, name=name)


@settings(max_examples=150, deadline=None)
@given(pwms, pwms, st.integers(1, 6))
def test_best_alignment_agrees_with_direct_loops(query, known, min_overlap):
    query, known = as_motif(query, "q"), as_motif(known, "k")
    [match] = match_motifs(query, [known], top=1, min_overlap=min_overlap)
    score, offset, strand, overlap = best_motif_alignment_naive(
        query, known, min_overlap
    )
    assert match.score == pytest.approx(score, abs=1e-9)
    # the alignment is one that reaches the best score
    pwm = known.pwm if match.strand == "+" else known.pwm[::-1, ::-1]
    again, overlap = motif_alignment_score_naive(query, pwm, match.offset)
    assert overlap == match.overlap >= min(min_overlap, query.length, known.length)
    assert again == pytest.approx(match.score, abs=1e-9)


def test_identical_reverse_complement_and_embedded_motifs():
    query = soft("GATTACAG")
    same, rc = soft("GATTACAG", name="same"), soft("CTGTAATC", name="rc")
    inner = soft("TTACA", name="inner")  # query columns 2..6
    flat = Motif(np.full((6, 4), 0.25), 1.0, 0.3, name="flat")
    matches = {m.target: m for m in match_motifs(query, [flat, inner, rc, same], 4)}
    assert (matches["same"].score, matches["same"].offset) == (pytest.approx(1), 0)
    assert matches["same"].strand == "+" and matches["same"].overlap == 8
    assert (matches["rc"].score, matches["rc"].strand) == (pytest.approx(1), "-")
    assert matches["inner"].offset == 2 and matches["inner"].overlap == 5
    assert matches["inner"].score == pytest.approx(5 / 8)
    assert matches["flat"].score == 0.0
    ranked = [m.target for m in match_motifs(query, [flat, inner, rc, same], top=3)]
    assert ranked == ["rc", "same", "inner"]  # a tie keeps the order given


def test_min_overlap_and_bad_arguments():
    query, known = soft("GATTACA"), soft("ACAGG", name="tail")
    # the tail ACA overlaps 3 columns: allowed at min_overlap 3, not at 4
    assert match_motifs(query, [known], min_overlap=3)[0].offset == 4
    assert match_motifs(query, [known], min_overlap=4)[0].overlap >= 4
    with pytest.raises(InputError, match="top"):
        match_motifs(query, [known], top=0)
    with pytest.raises(InputError, match="min_overlap"):
        match_motifs(query, [known], min_overlap=0)


def test_known_motifs_from_a_file_and_errors(tmp_path, monkeypatch):
    path = tmp_path / "known.meme"
    write_motifs(path, [soft("GATTACA", name="g"), soft("CACGTG", name="ebox")])
    known = known_motifs(path)
    assert [m.name for m in known] == ["g", "ebox"]
    assert match_motifs(soft("CACGTGA"), known, top=1)[0].target == "ebox"
    with pytest.raises(InputError, match="missing.meme"):
        known_motifs(tmp_path / "missing.meme")
    monkeypatch.setitem(sys.modules, "pyjaspar", None)
    with pytest.raises(InputError, match=r"pip install pyjaspar"):
        known_motifs("jaspar")
    with pytest.raises(InputError, match=r"jaspar\[:GROUP\[:RELEASE\[:COLLECTION"):
        known_motifs("jaspar:vertebrates:JASPAR2024:CORE:extra")


def test_jaspar_offline_finds_ctcf_and_tbp():
    pytest.importorskip("pyjaspar")
    known = known_motifs("jaspar:vertebrates")
    assert len(known) > 500 and all(m.name.startswith("MA") for m in known)
    names = [m.target for m in match_motifs(soft("CCACCAGGGGGCGC"), known, top=3)]
    assert names[0].endswith(" CTCF")
    names = [m.target for m in match_motifs(soft("TATAAAAG"), known, top=3)]
    assert any(name.endswith(" TBP") for name in names)
    with pytest.raises(InputError, match="unknown JASPAR release"):
        known_motifs("jaspar:vertebrates:JASPAR1999")
    with pytest.raises(InputError, match="no CORE motifs"):
        known_motifs("jaspar:martians")
    # "jaspar" alone is the vertebrates; "all" every group; counts kept
    assert len(known_motifs("jaspar")) == len(known)
    assert len(known_motifs("jaspar:all")) > len(known)
    assert all(m.n_sites > 0 for m in known)


def test_motifs_command_compares(tmp_path, capsys):
    from poimkit import WDKernelSVC, compute_poim
    from poimkit.datasets import make_planted
    from poimkit.motifs.formats import read_motifs

    X, y = make_planted(300, 300, 30, [("GGCCGTAAA", 8, 0)], random_state=3)
    poim_path = tmp_path / "p.npz"
    compute_poim(WDKernelSVC(degree=8).fit(X, y), 5).save(poim_path)
    known = tmp_path / "known.jaspar"
    write_motifs(known, [soft("CACGTG", name="ebox"), soft("TTTACGGCC", name="rc")])
    out, matches = tmp_path / "m.meme", tmp_path / "matches.tsv"
    argv = ["motifs", str(poim_path), "-o", str(out), "--max-motifs", "1"]
    assert main([*argv, "--compare", str(known), "--matches", str(matches)]) == 0
    (found,) = read_motifs(out)
    assert found.consensus == "GGCCGTAAA"
    header, first, second = matches.read_text().splitlines()
    assert header == "motif\tmatch\tscore\toffset\tstrand\toverlap\tp_value"
    assert first.split("\t")[:2] == ["motif_1", "rc"]
    assert first.split("\t")[4] == "-" and float(first.split("\t")[2]) > 0.8
    assert second.split("\t")[1] == "ebox"
    capsys.readouterr()
    assert main([*argv, "--matches", str(tmp_path / "x.tsv")]) == 2
    assert "--matches needs --compare" in capsys.readouterr().err
    assert main([*argv, "--compare", str(tmp_path / "none.meme")]) == 2
    assert not (tmp_path / "x.tsv").exists()


def test_jaspar_collections_are_cached_exactly(tmp_path, monkeypatch):
    """pyjaspar is asked once; the cached motifs equal its motifs exactly."""
    pytest.importorskip("pyjaspar")
    import poimkit.motifs.compare as compare

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first = known_motifs("jaspar:urochordates")
    files = list((tmp_path / "cache" / "poimkit" / "jaspar").iterdir())
    assert [f.suffix for f in files] == [".npz"]  # nothing staged is left

    def asked(*args):
        raise AssertionError("pyjaspar asked again")

    monkeypatch.setattr(compare, "_jaspar_motifs", asked)
    again = known_motifs("jaspar:urochordates")
    assert [m.name for m in again] == [m.name for m in first]
    assert [m.n_sites for m in again] == [m.n_sites for m in first]
    for a, b in zip(again, first, strict=True):
        np.testing.assert_array_equal(a.pwm, b.pwm)
    with pytest.raises(AssertionError, match="asked again"):
        known_motifs("jaspar:nematodes")  # another collection is another file


def test_an_unwritable_cache_still_reads_jaspar(tmp_path, monkeypatch):
    pytest.importorskip("pyjaspar")
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked / "cache"))
    assert len(known_motifs("jaspar:urochordates")) > 50
