import math
import os
import tempfile

import numpy as np
import pytest
from Bio import motifs as bio_motifs
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from poimkit.errors import InputError
from poimkit.motifs import Motif
from poimkit.motifs.formats import (
    JASPAR_NSITES,
    MEME_NSITES,
    read_motifs,
    write_jaspar,
    write_meme,
    write_motifs,
    write_transfac,
)

BIOPYTHON = {"meme": "minimal", "jaspar": "jaspar", "transfac": "transfac"}
WRITERS = {"meme": write_meme, "jaspar": write_jaspar, "transfac": write_transfac}
FORMATS = list(WRITERS)


def gattaca(name="gattaca", position=12.5, spread=1.25):
    pwm = np.full((7, 4), 0.02)
    for column, letter in enumerate("GATTACA"):
        pwm[column, "ACGT".index(letter)] = 0.94
    return Motif(pwm, position, spread, importance=0.75, residual=0.05, name=name)


def random_motifs(seed, lengths, alpha):
    rng = np.random.default_rng(seed)
    out = []
    for k, m in enumerate(lengths):
        pwm = rng.dirichlet(np.full(4, alpha), size=m)
        if k % 3 == 2:  # exact zeros and ones, as in a consensus column
            pwm[0] = np.eye(4)[rng.integers(4)]
        out.append(
            Motif(
                pwm,
                position=float(rng.uniform(1, 100)),
                spread=float(rng.uniform(0, 5)),
                importance=float(rng.normal()),
                residual=float(rng.uniform()),
                name=f"motif_{k + 1}.x-{seed % 97}",
            )
        )
    return out


def biopython_pwms(path, fmt):
    with open(path) as handle:
        records = list(bio_motifs.parse(handle, BIOPYTHON[fmt]))
    pwms = [np.array([r.pwm[a] for a in "ACGT"]).T for r in records]
    return records, pwms


# --------------------------------------------------------------------------- #
# round trips
# --------------------------------------------------------------------------- #


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    lengths=st.lists(st.integers(1, 20), min_size=1, max_size=5),
    alpha=st.sampled_from([0.05, 0.5, 1.0, 20.0]),
)
def test_round_trip_through_biopython_parsers(seed, lengths, alpha):
    motifs = random_motifs(seed, lengths, alpha)
    with tempfile.TemporaryDirectory() as folder:
        for fmt in FORMATS:
            path = os.path.join(folder, f"motifs.{fmt}")
            write_motifs(path, motifs)
            records, pwms = biopython_pwms(path, fmt)
            assert len(pwms) == len(motifs)
            # JASPAR: whole counts of JASPAR_NSITES sites, each off by less than 1
            atol = 1 / JASPAR_NSITES if fmt == "jaspar" else 1e-6
            for motif, pwm in zip(motifs, pwms, strict=True):
                assert pwm.shape == motif.pwm.shape
                assert_allclose(pwm, motif.pwm, rtol=0, atol=atol)
            back = read_motifs(path)
            assert [m.name for m in back] == [m.name for m in motifs]
            for motif, got, pwm in zip(motifs, back, pwms, strict=True):
                assert_allclose(got.pwm, motif.pwm, rtol=0, atol=atol)
                assert_allclose(got.pwm, pwm, rtol=0, atol=1e-12)
                assert_allclose(got.pwm.sum(axis=1), 1.0, rtol=0, atol=1e-12)


@pytest.mark.parametrize("fmt", FORMATS)
def test_names_survive_in_biopython(tmp_path, fmt):
    motifs = [gattaca("first"), gattaca("MA0001.1"), gattaca("x_y-z")]
    path = tmp_path / f"m.{fmt}"
    write_motifs(path, motifs)
    records, _ = biopython_pwms(path, fmt)
    if fmt == "transfac":
        names = [r["ID"] for r in records]
    elif fmt == "jaspar":
        names = [r.matrix_id for r in records]
        assert [r.name for r in records] == names
    else:
        names = [r.name for r in records]
    assert names == ["first", "MA0001.1", "x_y-z"]


@pytest.mark.parametrize("fmt", ["meme", "transfac"])
def test_position_spread_importance_survive(tmp_path, fmt):
    motifs = [gattaca("a", 12.5, 1.25), gattaca("b", 1.0, 0.0)]
    motifs[1].importance = -3.0e-7
    path = tmp_path / f"m.{fmt}"
    write_motifs(path, motifs)
    back = read_motifs(path)
    for motif, got in zip(motifs, back, strict=True):
        assert got.position == motif.position
        assert got.spread == motif.spread
        assert got.importance == motif.importance
        assert got.residual == motif.residual


def test_jaspar_has_no_position(tmp_path):
    path = tmp_path / "m.jaspar"
    write_jaspar(path, [gattaca()])
    [got] = read_motifs(path)
    assert math.isnan(got.position) and math.isnan(got.spread)
    assert math.isnan(got.importance) and math.isnan(got.residual)
    assert got.consensus == "GATTACA"


def test_meme_layout(tmp_path):
    path = tmp_path / "m.meme"
    write_meme(path, [gattaca()], background=[0.3, 0.2, 0.2, 0.3])
    lines = path.read_text().splitlines()
    assert lines[0] == "MEME version 4"
    assert "ALPHABET= ACGT" in lines
    assert "strands: +" in lines
    assert "A 0.300000 C 0.200000 G 0.200000 T 0.300000" in lines
    assert "MOTIF gattaca GATTACA" in lines
    header = lines.index("MOTIF gattaca GATTACA") + 1
    assert lines[header] == (
        f"letter-probability matrix: alength= 4 w= 7 nsites= {MEME_NSITES} E= nan"
    )
    rows = [[float(x) for x in line.split()] for line in lines[header + 1 : header + 8]]
    assert_allclose(np.sum(rows, axis=1), 1.0, atol=1e-12)
    assert any(
        line.startswith(
            "# poimkit position=12.5 spread=1.25 importance=0.75 residual=0.05 "
        )
        for line in lines
    )
    with open(path) as handle:
        record = bio_motifs.parse(handle, "minimal")
    assert record.background == {"A": 0.3, "C": 0.2, "G": 0.2, "T": 0.3}
    assert record[0].num_occurrences == MEME_NSITES


def test_meme_metadata_matched_to_its_motif(tmp_path):
    """A block without the poimkit line gets NaN, not its neighbour's values."""
    path = tmp_path / "m.meme"
    write_meme(path, [gattaca("a", 3.0), gattaca("b", 9.0)])
    text = path.read_text().replace("# poimkit position=3.0", "# note position=3.0")
    path.write_text(text)
    a, b = read_motifs(path)
    assert math.isnan(a.position) and b.position == 9.0


def test_empty_motif_list(tmp_path):
    for fmt in FORMATS:
        path = tmp_path / f"none.{fmt}"
        write_motifs(path, [])
        assert read_motifs(path) == []


def test_reads_foreign_jaspar_and_meme(tmp_path):
    jaspar = tmp_path / "db.jaspar"
    jaspar.write_text(
        ">MA0004.1 Arnt\n"
        "A  [ 4 19  0  0  0  0 ]\n"
        "C  [16  0 20  0  0  0 ]\n"
        "G  [ 0  1  0 20  0 20 ]\n"
        "T  [ 0  0  0  0 20  0 ]\n"
    )
    [arnt] = read_motifs(jaspar)
    assert arnt.name == "MA0004.1"
    assert arnt.consensus == "CACGTG"
    assert_allclose(arnt.pwm[0], [0.2, 0.8, 0.0, 0.0])
    meme = tmp_path / "db.txt"
    meme.write_text(
        "MEME version 5\n\nALPHABET= ACGT\n\nstrands: + -\n\n"
        "Background letter frequencies\nA 0.25 C 0.25 G 0.25 T 0.25\n\n"
        "MOTIF crp alt\nletter-probability matrix: alength= 4 w= 2 nsites= 4 E= 0\n"
        " 0.25 0.25 0.5 0\n 1 0 0 0\n\nURL http://example.org\n"
    )
    [crp] = read_motifs(meme, format="meme")
    assert crp.name == "crp" and math.isnan(crp.position)
    assert_allclose(crp.pwm, [[0.25, 0.25, 0.5, 0], [1, 0, 0, 0]])


# --------------------------------------------------------------------------- #
# writing atomically
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("fmt", FORMATS)
def test_writes_atomically(tmp_path, monkeypatch, fmt):
    path = tmp_path / f"out.{fmt}"
    WRITERS[fmt](path, [gattaca()])
    assert os.listdir(tmp_path) == [path.name]  # no temporary files left
    before = path.read_bytes()

    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr("poimkit.io.files.os.replace", fail)
    with pytest.raises(InputError, match=f"out.{fmt}: cannot write: disk full"):
        WRITERS[fmt](path, [gattaca("other", 40.0)])
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == [path.name]


@pytest.mark.parametrize("fmt", FORMATS)
def test_bad_names_leave_target_untouched(tmp_path, fmt):
    path = tmp_path / f"out.{fmt}"
    path.write_text("old\n")
    for motifs in ([gattaca("two words")], [gattaca(""), gattaca()], [gattaca()] * 2):
        with pytest.raises(InputError, match="name"):
            write_motifs(path, motifs)
    assert path.read_text() == "old\n"
    assert os.listdir(tmp_path) == [path.name]


def test_writer_argument_errors(tmp_path):
    with pytest.raises(TypeError, match=r"\[motif\]"):
        write_meme(tmp_path / "m.meme", gattaca())
    with pytest.raises(TypeError, match="not a poimkit Motif"):
        write_meme(tmp_path / "m.meme", [np.eye(4)])
    for bad in ([0.5, 0.5], [0.5, 0.5, 0.5, 0.5], [1.2, -0.2, 0, 0]):
        with pytest.raises(InputError, match="background"):
            write_meme(tmp_path / "m.meme", [gattaca()], background=bad)
    with pytest.raises(InputError, match="does not exist"):
        write_meme(tmp_path / "missing" / "m.meme", [gattaca()])
    with pytest.raises(InputError, match="suffix"):
        write_motifs(tmp_path / "m.txt", [gattaca()])
    with pytest.raises(InputError, match="unknown motif format"):
        write_motifs(tmp_path / "m.meme", [gattaca()], format="homer")
    write_motifs(tmp_path / "m.TXT", [gattaca()], format="JASPAR")
    assert read_motifs(tmp_path / "m.TXT", format="jaspar")[0].name == "gattaca"
    assert not (tmp_path / "m.meme").exists()


# --------------------------------------------------------------------------- #
# unreadable files
# --------------------------------------------------------------------------- #


def test_missing_file_and_directory(tmp_path):
    missing = tmp_path / "nothing.meme"
    with pytest.raises(InputError, match="not found") as info:
        read_motifs(missing)
    assert info.value.path == str(missing)
    folder = tmp_path / "dir.jaspar"
    folder.mkdir()
    with pytest.raises(InputError, match="directory"):
        read_motifs(folder)


@pytest.mark.parametrize("fmt", FORMATS)
def test_wrong_content(tmp_path, fmt):
    path = tmp_path / f"bad.{fmt}"
    path.write_text(">seq1\nGATTACA\n>seq2 this is FASTA, not motifs\nACGT\n")
    with pytest.raises(InputError, match=f"not a readable {fmt.upper()}") as info:
        read_motifs(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("fmt", FORMATS)
def test_binary_file(tmp_path, fmt):
    path = tmp_path / f"bad.{fmt}"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00\x01")
    with pytest.raises(InputError, match="not a text file") as info:
        read_motifs(path)
    assert info.value.path == str(path)


def test_other_formats_content(tmp_path):
    """A JASPAR file given as MEME or TRANSFAC is refused, naming the file."""
    path = tmp_path / "m.jaspar"
    write_jaspar(path, [gattaca()])
    for fmt in ("meme", "transfac"):
        with pytest.raises(InputError, match=str(path)):
            read_motifs(path, format=fmt)


def test_matrix_without_counts(tmp_path):
    path = tmp_path / "zero.jaspar"
    path.write_text(">z z\nA [ 1 0 ]\nC [ 0 0 ]\nG [ 0 0 ]\nT [ 0 0 ]\n")
    with pytest.raises(InputError, match="column 2") as info:
        read_motifs(path)
    assert info.value.record == "z"


def test_bad_metadata_line(tmp_path):
    path = tmp_path / "m.meme"
    write_meme(path, [gattaca()])
    path.write_text(path.read_text().replace("position=12.5", "position=twelve"))
    with pytest.raises(InputError, match="position=twelve") as info:
        read_motifs(path)
    assert info.value.record == "gattaca"


def test_unknown_suffix_on_read(tmp_path):
    path = tmp_path / "m.dat"
    path.write_text("")
    with pytest.raises(InputError, match="format="):
        read_motifs(path)


def test_meme_site_motif_has_real_nsites_and_e_value(tmp_path):
    # a PWM of counts over 7 sites: nsites 7, its E-value, counts read back
    counts = np.array([[7, 0, 0, 0], [1, 6, 0, 0], [0, 2, 5, 0]], dtype=float)
    motif = Motif(
        counts / 7,
        position=3.0,
        spread=0.0,
        name="m1",
        n_sites=7,
        frac_positive=0.8,
        frac_negative=0.05,
        p_value=1e-5,
        q_value=2e-5,
        e_value=3e-5,
    )
    path = tmp_path / "m.meme"
    write_meme(path, [motif])
    text = path.read_text()
    assert "letter-probability matrix: alength= 4 w= 3 nsites= 7 E= 3e-05" in text
    with open(path) as handle:
        [record] = bio_motifs.parse(handle, "minimal")
    assert record.num_occurrences == 7
    assert_allclose(np.array([record.counts[a] for a in "ACGT"]).T, counts)
    [got] = read_motifs(path)
    assert got.n_sites == 7 and got.p_value == 1e-5 and got.q_value == 2e-5
    assert got.frac_positive == 0.8 and got.e_value == 3e-5
    # a PWM that is not counts over n_sites keeps the precise fictitious count
    motif.pwm = np.full((3, 4), 0.25) + np.array([0.01, -0.01, 0, 0])
    write_meme(path, [motif])
    assert f"nsites= {MEME_NSITES} " in path.read_text()


def _jaspar_matrices(path):
    """Each motif's header words and its count rows A, C, G, T, as written."""
    lines = path.read_text().splitlines()
    out = []
    for k in range(0, len(lines), 5):
        rows = []
        for letter, line in zip("ACGT", lines[k + 1 : k + 5], strict=True):
            assert line.startswith(f"{letter}  [") and line.endswith(" ]")
            tokens = line[line.index("[") + 1 : -1].split()
            assert all(token.isdigit() for token in tokens), line  # whole counts
            rows.append([int(token) for token in tokens])
        out.append((lines[k].split(), np.array(rows)))
    return out


def test_jaspar_counts_are_whole_sites(tmp_path):
    """As in JASPAR's own files: integer counts, each column summing to the sites."""
    counts = np.array([[5, 0, 2, 0], [0, 7, 0, 0], [1, 1, 1, 4]])
    found = Motif(counts / 7, 3.0, 1.0, name="found", n_sites=7)
    fitted = random_motifs(3, [9], 0.5)[0]  # probabilities, no sites
    path = tmp_path / "m.jaspar"
    write_jaspar(path, [found, fitted])
    (head, got), (head_fitted, got_fitted) = _jaspar_matrices(path)
    assert head == [">found", "found"] and head_fitted[0] == f">{fitted.name}"
    np.testing.assert_array_equal(got, counts.T)
    assert (got_fitted.sum(axis=0) == JASPAR_NSITES).all()
    assert np.abs(got_fitted.T - fitted.pwm * JASPAR_NSITES).max() < 1
    back = read_motifs(path)
    assert_allclose(back[0].pwm, counts / 7, rtol=0, atol=1e-15)
    assert_allclose(back[1].pwm, got_fitted.T / JASPAR_NSITES, rtol=0, atol=1e-15)
