import bz2
import gzip
import os
import stat
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from poimkit.alphabet import decode, encode
from poimkit.errors import InputError
from poimkit.io import (
    DroppedRecordsWarning,
    atomic_path,
    read_fasta,
    read_labeled,
    write_fasta,
    write_table,
)

# ---------------------------------------------------------------- round trips

ids_strategy = st.lists(
    st.text(
        alphabet=st.characters(min_codepoint=33, max_codepoint=126),
        min_size=1,
        max_size=12,
    ),
    min_size=1,
    max_size=8,
    unique=True,
)


@given(
    ids=ids_strategy,
    length=st.integers(1, 150),
    data=st.data(),
    line_width=st.one_of(st.none(), st.integers(1, 100)),
    suffix=st.sampled_from([".fa", ".fa.gz", ".FASTA"]),
    as_codes=st.booleans(),
    lower=st.booleans(),
)
def test_write_read_round_trip(ids, length, data, line_width, suffix, as_codes, lower):
    seqs = data.draw(
        st.lists(
            st.text(alphabet="ACGT", min_size=length, max_size=length),
            min_size=len(ids),
            max_size=len(ids),
        )
    )
    X = encode(seqs)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"seqs{suffix}"
        payload = X if as_codes else [s.lower() if lower else s for s in seqs]
        write_fasta(path, ids, payload, line_width=line_width)
        got_ids, got_X = read_fasta(path)
        assert os.listdir(folder) == [path.name]
        raw = path.read_bytes()
    assert got_ids == ids
    assert got_X.dtype == np.uint8
    np.testing.assert_array_equal(got_X, X)
    assert raw.startswith(b"\x1f\x8b") == suffix.endswith(".gz")
    text = gzip.decompress(raw).decode() if suffix.endswith(".gz") else raw.decode()
    for line in text.splitlines():
        if not line.startswith(">"):
            assert 1 <= len(line) <= (line_width or length)


def test_gzip_detected_by_magic_not_suffix(tmp_path):
    packed = tmp_path / "packed.fa"
    packed.write_bytes(gzip.compress(b">a\nACGT\n>b\nTTTT\n"))
    plain = tmp_path / "plain.fa.gz"
    plain.write_text(">a\nACGT\n")
    assert read_fasta(packed)[0] == ["a", "b"]
    assert read_fasta(plain)[1].tolist() == [[0, 1, 2, 3]]


def test_gzip_output_is_deterministic(tmp_path):
    X = encode(["ACGTACGT", "GATTACAA"])
    write_fasta(tmp_path / "a.fa.gz", ["x", "y"], X)
    write_fasta(tmp_path / "b.fa.gz", ["x", "y"], X)
    assert (tmp_path / "a.fa.gz").read_bytes() == (tmp_path / "b.fa.gz").read_bytes()


def test_reader_tolerates_common_variants(tmp_path):
    path = tmp_path / "variants.fa"
    path.write_bytes(
        b"\xef\xbb\xbf\n\n>a some description\r\nac gt\r\nAC\r\n\r\n"
        b">b\r\nUUUU\r\nGG\r\n"
    )
    ids, X = read_fasta(path)
    assert ids == ["a", "b"]
    assert decode(X) == ["ACGTAC", "TTTTGG"]


# ------------------------------------------------------------ bad FASTA files


def bad(tmp_path, content, name="bad.fa", **kwargs):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    with pytest.raises(InputError) as info:
        read_fasta(path, **kwargs)
    message = str(info.value)
    assert str(path) in message
    assert info.value.path == str(path)
    return info.value


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("", "empty file"),
        ("  \n\n", "empty file"),
        ("ACGT\nACGT\n", "does not start with '>'"),
        ("some notes\n>a\nACGT\n", "'some notes'"),
        (b"\x00\x01\x02\xff\xfe binary", "binary"),
        (b"\xff\xfe>\x80\x81", "not a text file"),
        (b">a\nAC\xffGT\n", "line 2"),
        (b"\x1f\x8b\x08\x00garbage", "gzip"),
        (gzip.compress(b">a\nACGTACGT\n" * 50)[:-10], "truncated gzip"),
        (bz2.compress(b">a\nACGT\n"), "bzip2"),
        (b"PK\x03\x04zipped", "zip"),
    ],
)
def test_malformed_files(tmp_path, content, words):
    error = bad(tmp_path, content)
    assert words in str(error)


@pytest.mark.parametrize(
    ("content", "record", "words"),
    [
        (">a\n>b\nACGT\n", "a", "empty sequence"),
        (">a\nACGT\n>b\n", "b", "empty sequence"),
        (">a\nACGT\n>b\nACGT\n>a\nACGA\n", "a", "duplicated"),
        (">a\nACGT\n>b\nACG\n", "b", "length 3"),
        (">a\nACGT\n>b\nACGT\n>c\nACGTA\n", "c", "crop_length"),
    ],
)
def test_record_errors(tmp_path, content, record, words):
    error = bad(tmp_path, content)
    assert error.record == record
    assert f"record '{record}'" in str(error)
    assert words in str(error)


def test_record_without_id(tmp_path):
    error = bad(tmp_path, ">a\nACGT\n>\nACGT\n")
    assert "record number 2 has no id" in str(error)


@pytest.mark.parametrize("suffix", [".fa", ".fa.gz"])
@pytest.mark.parametrize(
    ("content", "record", "position", "letter"),
    [
        (">a\nACGT\n>b\nACNT\n", "b", 3, "N"),
        (">a\nACGTAC\n>b\nACGTAC\nAAGRAA\n", "b", 10, "R"),
        (">x\nACGT-\n", "x", 5, "-"),
        (">x\nAC*GT\n", "x", 3, "*"),
    ],
)
def test_bad_letter_names_file_record_position(
    tmp_path, suffix, content, record, position, letter
):
    data = content.encode()
    error = bad(
        tmp_path,
        gzip.compress(data) if suffix.endswith("gz") else data,
        name=f"letters{suffix}",
    )
    assert (error.record, error.position) == (record, position)
    assert f"record '{record}', position {position}" in str(error)
    assert repr(letter) in str(error)
    assert "drop" in str(error)


def test_unequal_lengths_blame_the_odd_record(tmp_path):
    error = bad(tmp_path, ">odd\nACG\n>a\nACGT\n>b\nACGT\n")
    assert error.record == "odd"
    assert "length 3" in str(error) and "length 4" in str(error)


def test_file_not_found_and_directory(tmp_path):
    missing = tmp_path / "nope.fa"
    with pytest.raises(InputError, match="not found") as info:
        read_fasta(missing)
    assert str(missing) in str(info.value)
    with pytest.raises(InputError, match="directory"):
        read_fasta(tmp_path)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"on_invalid": "skip"}, "on_invalid"),
        ({"crop_length": 0}, "crop_length"),
        ({"crop_length": 2.5}, "crop_length"),
        ({"crop_length": True}, "crop_length"),
    ],
)
def test_bad_options(tmp_path, kwargs, words):
    path = tmp_path / "ok.fa"
    path.write_text(">a\nACGT\n")
    with pytest.raises(InputError, match=words):
        read_fasta(path, **kwargs)


# ----------------------------------------------------------- drop and crop


def test_drop_invalid_records_warns_with_count_and_ids(tmp_path):
    path = tmp_path / "mixed.fa"
    path.write_text(">a\nACGT\n>b\nANGT\n>c\nTTTT\n>d\nRRRR\n>e\nNNN\n")
    with pytest.warns(DroppedRecordsWarning) as record:
        ids, X = read_fasta(path, on_invalid="drop")
    assert ids == ["a", "c"]
    assert decode(X) == ["ACGT", "TTTT"]
    message = str(record[0].message)
    assert "dropped 3 of 5" in message and "'b', 'd', 'e'" in message
    assert str(path) in message
    assert record[0].filename == __file__  # points at the caller


def test_drop_everything_is_an_error(tmp_path):
    with pytest.warns(DroppedRecordsWarning):
        error = bad(tmp_path, ">a\nNNNN\n>b\nACGN\n", on_invalid="drop")
    assert "all 2 records" in str(error)


def test_no_warning_without_drops(tmp_path):
    path = tmp_path / "clean.fa"
    path.write_text(">a\nACGT\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_fasta(path, on_invalid="drop")


@pytest.mark.parametrize(("length", "m"), [(10, 4), (9, 4), (4, 4), (11, 1)])
def test_centre_crop_definition(tmp_path, length, m):
    rng = np.random.default_rng(length * 10 + m)
    seqs = decode(rng.integers(0, 4, size=(3, length)))
    varied = [seqs[0], seqs[1] + "T", seqs[2] + "ACG"]  # unequal lengths
    path = tmp_path / "crop.fa"
    write_fasta(path, ["a", "b", "c"], varied)
    ids, X = read_fasta(path, crop_length=m)
    expected = [s[(len(s) - m) // 2 : (len(s) - m) // 2 + m] for s in varied]
    assert decode(X) == expected


def test_crop_checks_only_the_window_and_reports_file_positions(tmp_path):
    path = tmp_path / "flanks.fa"
    path.write_text(">a\nNNACGTNN\n>b\nNAACGNTA\n")
    with pytest.warns(DroppedRecordsWarning, match="'b'"):
        ids, X = read_fasta(path, on_invalid="drop", crop_length=4)
    assert ids == ["a"] and decode(X) == ["ACGT"]
    with pytest.raises(InputError) as info:
        read_fasta(path, crop_length=4)
    assert (info.value.record, info.value.position) == ("b", 6)


def test_crop_longer_than_record(tmp_path):
    error = bad(tmp_path, ">a\nACGTACGT\n>short\nACG\n", crop_length=5)
    assert error.record == "short"
    assert "length 3" in str(error) and "crop_length=5" in str(error)


def test_crop_error_names_the_shortest_and_drop_short_drops(tmp_path):
    text = ">a\nACGTACGT\n>b\nACG\n>c\nACGTA\n>d\nAC\n"
    error = bad(tmp_path, text, crop_length=4)
    assert error.record == "b"
    assert "2 of 4 records are shorter" in str(error)
    assert "the shortest has 2 letters" in str(error)
    path = tmp_path / "short.fa"
    path.write_text(text)
    with pytest.warns(DroppedRecordsWarning, match="dropped 2 of 4 records shorter"):
        ids, X = read_fasta(path, crop_length=4, drop_short=True)
    assert ids == ["a", "c"] and X.tolist() == [[2, 3, 0, 1], [0, 1, 2, 3]]
    with pytest.raises(InputError, match="all 4 records are shorter"):
        with pytest.warns(DroppedRecordsWarning):
            read_fasta(path, crop_length=9, drop_short=True)


def test_any_length_keeps_records_as_they_are(tmp_path):
    path = tmp_path / "ragged.fa"
    path.write_text(">a\nACGTACGT\n>b\nACG\n")
    ids, X = read_fasta(path, any_length=True)
    assert ids == ["a", "b"] and [x.tolist() for x in X] == [
        [0, 1, 2, 3, 0, 1, 2, 3],
        [0, 1, 2],
    ]
    with pytest.raises(InputError, match="GkmSVC"):
        read_fasta(path)
    neg = tmp_path / "neg.fa"
    neg.write_text(">c\nTTTTT\n")
    _, X, y = read_labeled(path, neg, any_length=True)
    assert [x.size for x in X] == [8, 3, 5] and y.tolist() == [1, 1, 0]


# ------------------------------------------------------------- read_labeled


@pytest.fixture
def pos_neg(tmp_path):
    pos, neg = tmp_path / "pos.fa", tmp_path / "neg.fa"
    write_fasta(pos, ["p1", "p2"], ["AACCGG", "ACGTAC"])
    write_fasta(neg, ["n1", "n2", "n3"], ["TTTTTT", "GGGGGG", "CCCCCC"])
    return pos, neg


def test_labeled_from_two_files(pos_neg):
    ids, X, y = read_labeled(*pos_neg)
    assert ids == ["p1", "p2", "n1", "n2", "n3"]
    assert y.tolist() == [1, 1, 0, 0, 0] and y.dtype == np.int64
    assert decode(X)[0] == "AACCGG" and X.shape == (5, 6)
    _, X2, _ = read_labeled(pos=pos_neg[0], neg=pos_neg[1], crop_length=2)
    assert decode(X2) == ["CC", "GT", "TT", "GG", "CC"]


def test_labeled_length_mismatch_names_both_files(tmp_path, pos_neg):
    pos, _ = pos_neg
    neg = tmp_path / "short_neg.fa"
    write_fasta(neg, ["n1"], ["ACGT"])
    with pytest.raises(InputError) as info:
        read_labeled(pos, neg)
    message = str(info.value)
    assert str(pos) in message and str(neg) in message and "crop_length" in message
    assert read_labeled(pos, neg, crop_length=4)[1].shape == (3, 4)


def test_labeled_shared_ids(tmp_path, pos_neg):
    pos, _ = pos_neg
    neg = tmp_path / "neg2.fa"
    write_fasta(neg, ["n1", "p2"], ["TTTTTT", "GGGGGG"])
    with pytest.raises(InputError, match="'p2'.*unique"):
        read_labeled(pos, neg)


def test_labeled_errors_from_each_file_name_that_file(tmp_path, pos_neg):
    pos, _ = pos_neg
    neg = tmp_path / "broken_neg.fa"
    neg.write_text(">n1\nACGTNA\n")
    with pytest.raises(InputError, match="broken_neg.fa, record 'n1', position 5"):
        read_labeled(pos, neg)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"pos": "a.fa"},
        {"fasta": "a.fa"},
        {"pos": "a.fa", "neg": "b.fa", "fasta": "c.fa", "labels": "d.tsv"},
    ],
)
def test_labeled_argument_combinations(kwargs):
    with pytest.raises(InputError, match="either pos and neg"):
        read_labeled(**kwargs)


@pytest.fixture
def single(tmp_path):
    fasta = tmp_path / "all.fa"
    write_fasta(fasta, ["s1", "s2", "s3", "s4"], ["AAAA", "CCCC", "GGGG", "TTTT"])
    return fasta


def labeled(tmp_path, fasta, table, name="labels.tsv", **kwargs):
    path = tmp_path / name
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(table.encode()))
    else:
        path.write_text(table)
    return read_labeled(fasta=fasta, labels=path, **kwargs)


@pytest.mark.parametrize(
    "table",
    [
        "s1\t1\ns2\t0\ns3\t1\ns4\t0\n",
        "id\tlabel\ns1\t1\ns2\t0\ns3\t1\ns4\t0\n",
        "s4\t-1\ns3\t+1\ns2\t-1\ns1\t1\n",
        "s1\t1.0\ns2\t0\ns3\t1\ns4\t0.0\n",
        "s1\t2\ns2\t1\ns3\t2\ns4\t1\n",
        "s1\tpos\ns2\tneg\ns3\tpos\ns4\tneg\n",
        "# comment\nname\tclass\n\ns1\tPositive\ns2\tNEGATIVE\ns3\tpositive\n"
        "s4\tnegative\n",
        "s1 true\ns2   false\r\ns3\tTrue\ns4\tFalse\n",
        "s1\tyes\ns2\tno\ns3\tyes\ns4\tno\n",
        "s1\t1\ns2\tneg\ns3\t1\ns4\tneg\n",
    ],
)
def test_label_table_variants(tmp_path, single, table):
    ids, X, y = labeled(tmp_path, single, table)
    assert ids == ["s1", "s2", "s3", "s4"]
    assert y.tolist() == [1, 0, 1, 0]
    assert decode(X) == ["AAAA", "CCCC", "GGGG", "TTTT"]


def test_gzipped_label_table_and_positive_label(tmp_path, single):
    table = "s1\tbound\ns2\tfree\ns3\tbound\ns4\tfree\n"
    with pytest.raises(InputError, match="positive_label"):
        labeled(tmp_path, single, table, name="l.tsv.gz")
    _, _, y = labeled(tmp_path, single, table, name="l.tsv.gz", positive_label="free")
    assert y.tolist() == [0, 1, 0, 1]
    _, _, y = labeled(
        tmp_path, single, "s1\t1\ns2\t0\ns3\t1\ns4\t0\n", positive_label="0"
    )
    assert y.tolist() == [0, 1, 0, 1]
    with pytest.raises(InputError, match="'maybe' is not one of"):
        labeled(tmp_path, single, table, positive_label="maybe")


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ("s1\t1\ns2\t0\ns3\t2\ns4\t0\n", "exactly two distinct labels, found 3"),
        ("s1\tpos\ns2\tpos\ns3\tpos\ns4\tpos\n", "only one class, 'pos' (4 rows)"),
        ("s1\t1\ns2\t0\ns3\t1\n", "1 records of"),
        ("s1\t1\ns2\t0\ns3\t1\ns4\t0\ns9\t1\n", "'s9' (first on line 5)"),
        (
            "s1\t1\ns2\t0\ns3\t1\ns4\t0\ns2\t1\n",
            "record 's2': id listed twice in the table (lines 2 and 5)",
        ),
        ("s1\t1\ns2\t0\ns3\t1 extra\ns4\t0\n", "line 3: expected 2 columns"),
        ("s1\t1\ns2\ns3\t1\ns4\t0\n", "line 2: expected 2 columns"),
        ("id\tlabel\n", "no labels"),
        ("", "no labels"),
        ("s1\tup\ns2\tdown\ns3\tup\ns4\tdown\n", "cannot tell which"),
        ("s1\tnan\ns2\t0\ns3\tnan\ns4\t0\n", "cannot tell which"),
    ],
)
def test_label_table_errors(tmp_path, single, table, words):
    with pytest.raises(InputError) as info:
        labeled(tmp_path, single, table)
    message = str(info.value)
    assert str(tmp_path / "labels.tsv") in message
    assert words in message


def test_header_detection_does_not_hide_a_bad_first_id(tmp_path, single):
    with pytest.raises(InputError, match="'s0'"):
        labeled(tmp_path, single, "s0\t1\ns1\t1\ns2\t0\ns3\t1\ns4\t0\n")


def test_dropped_records_may_keep_their_label_line(tmp_path):
    fasta = tmp_path / "n.fa"
    fasta.write_text(">a\nACGT\n>b\nANGT\n>c\nTTTT\n")
    with pytest.warns(DroppedRecordsWarning, match="dropped 1 of 3"):
        ids, _, y = labeled(tmp_path, fasta, "a\t1\nb\t1\nc\t0\n", on_invalid="drop")
    assert ids == ["a", "c"] and y.tolist() == [1, 0]


def test_missing_label_file(tmp_path, single):
    with pytest.raises(InputError, match="nope.tsv: file not found"):
        read_labeled(fasta=single, labels=tmp_path / "nope.tsv")


# ----------------------------------------------------------- atomic writing


def test_write_fasta_validates_before_touching_disk(tmp_path):
    target = tmp_path / "out.fa"
    for ids, seqs in [
        (["a b"], ["ACGT"]),
        (["a", "a"], ["AC", "GT"]),
        ([""], ["ACGT"]),
        (["a"], ["AC", "GT"]),
        (["a"], ["AC>G"]),
        (["a"], [""]),
    ]:
        with pytest.raises(ValueError):
            write_fasta(target, ids, seqs)
    with pytest.raises(ValueError, match="line_width"):
        write_fasta(target, ["a"], ["ACGT"], line_width=0)
    with pytest.raises(InputError):
        write_fasta(target, ["a"], np.array([[0, 5]]))
    assert os.listdir(tmp_path) == []


def test_missing_output_directory(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        write_fasta(tmp_path / "no" / "out.fa", ["a"], ["ACGT"])
    with pytest.raises(InputError, match="is a directory"):
        write_table(tmp_path, ["a"], [])
    assert os.listdir(tmp_path) == []


def test_write_table_failure_keeps_old_content_and_no_temp(tmp_path):
    target = tmp_path / "scores.tsv"
    write_table(target, ["id", "score"], [("a", 1.5), ("b", np.float64(0.1))])
    assert target.read_text() == "id\tscore\na\t1.5\nb\t0.1\n"
    for rows in ([("a", 1), ("b", 2, 3)], [("a\tb", 1)], [("a", "x\ny")]):
        with pytest.raises(ValueError):
            write_table(target, ["id", "score"], rows)
    assert target.read_text() == "id\tscore\na\t1.5\nb\t0.1\n"
    assert os.listdir(tmp_path) == ["scores.tsv"]


def test_write_table_without_header_and_gzip(tmp_path):
    target = tmp_path / "t.tsv.gz"
    write_table(target, None, iter([(1, 2), (3, 4)]))
    assert gzip.decompress(target.read_bytes()) == b"1\t2\n3\t4\n"


def test_atomic_path_cleans_up_and_keeps_suffix(tmp_path):
    final = tmp_path / "arrays.npz"
    with atomic_path(final) as tmp:
        assert tmp.endswith(".npz") and Path(tmp).parent == tmp_path
        assert os.path.basename(tmp).startswith(".")
        np.savez(tmp, a=np.arange(3))
    assert os.listdir(tmp_path) == ["arrays.npz"]
    assert np.load(final)["a"].tolist() == [0, 1, 2]
    with pytest.raises(RuntimeError), atomic_path(final) as tmp:
        np.savez(tmp, a=np.arange(5))
        raise RuntimeError("interrupted")
    assert os.listdir(tmp_path) == ["arrays.npz"]
    assert np.load(final)["a"].tolist() == [0, 1, 2]
    with pytest.raises(KeyboardInterrupt), atomic_path(tmp_path / "new.npz"):
        raise KeyboardInterrupt
    assert os.listdir(tmp_path) == ["arrays.npz"]


def test_atomic_files_get_normal_permissions(tmp_path):
    umask = os.umask(0o022)
    try:
        write_fasta(tmp_path / "p.fa", ["a"], ["ACGT"])
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "p.fa").stat().st_mode) == 0o644


def test_a_result_file_is_an_npz_numpy_reads_without_pickle(tmp_path):
    """write_npz's members are numpy's own, deflated, and no pickle is needed."""
    import zipfile

    from poimkit.io.files import read_npz, write_npz

    codes = np.random.default_rng(0).integers(0, 4, (500, 200)).astype(np.uint8)
    path = tmp_path / "m.npz"
    write_npz(path, "test", 3, {"codes": codes, "name": np.str_("x")})
    with np.load(path, allow_pickle=False) as loaded:
        assert set(loaded.files) == {
            "format",
            "format_version",
            "poimkit_version",
            "codes",
            "name",
        }
        np.testing.assert_array_equal(loaded["codes"], codes)
        assert str(loaded["format"]) == "test" and int(loaded["format_version"]) == 3
    with zipfile.ZipFile(path) as zf:
        member = zf.getinfo("codes.npy")
        assert member.compress_type == zipfile.ZIP_DEFLATED
        assert member.compress_size < member.file_size / 2
    np.testing.assert_array_equal(read_npz(path, "test", 3)["codes"], codes)
    assert [p.name for p in tmp_path.iterdir()] == ["m.npz"]  # nothing staged left
