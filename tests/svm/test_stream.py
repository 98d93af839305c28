"""Chunked FASTA reading and chunk-by-chunk scoring."""

import gzip
import warnings

import numpy as np
import pytest

from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.io import DroppedRecordsWarning, read_fasta
from poimkit.run.score import (
    count_records,
    iter_fasta_chunks,
    score_fasta,
    write_scores,
)
from poimkit.svm.linear import WDLinearSVC


def write(path, text, gz=False):
    if gz:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return path


FASTA = "".join(
    f">r{i} desc\n{s[:5]}\n{s[5:]}\n"
    for i, s in enumerate(
        ["ACGTACGTAC", "TTTTGGGGCC", "acgtuacgta", "GGGGGGGGGG", "CATCATCATC"]
    )
)


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize("chunk_size", [1, 2, 5, 100])
def test_chunks_equal_read_fasta(tmp_path, gz, chunk_size):
    path = write(tmp_path / "a.fa", FASTA, gz)
    ids, X = read_fasta(path)
    chunks = list(iter_fasta_chunks(path, chunk_size))
    assert [len(c[0]) for c in chunks][:-1] == [chunk_size] * (len(chunks) - 1)
    assert sum((c[0] for c in chunks), []) == ids
    assert np.array_equal(np.concatenate([c[1] for c in chunks]), X)
    assert count_records(path) == (5, 10)


def test_crop_and_drop(tmp_path):
    path = write(tmp_path / "a.fa", ">a\nNNACGTNN\n>b\nACGTACGA\n>c\nANNNNNNA\n")
    with pytest.warns(DroppedRecordsWarning, match="dropped 1 of 3"):
        chunks = list(iter_fasta_chunks(path, 2, crop_length=4, on_invalid="drop"))
    with pytest.warns(DroppedRecordsWarning):
        ids, X = read_fasta(path, crop_length=4, on_invalid="drop")
    assert sum((c[0] for c in chunks), []) == ids == ["a", "b"]
    assert np.array_equal(np.concatenate([c[1] for c in chunks]), X)


@pytest.mark.parametrize(
    "text,match,record,position",
    [
        (">a\nACGT\n>b\nACNT\n", "letter 'N'", "b", 3),
        (">a\nACGT\n>b\nACG\n", "length 3", "b", None),
        (">a\nACGT\n>a\nACGA\n", "duplicated", "a", None),
        ("ACGT\n", "not a FASTA", None, None),
        ("\n\n", "empty file", None, None),
        (">a\n>b\nACGT\n", "empty sequence", "a", None),
    ],
)
def test_errors_name_file_record_position(tmp_path, text, match, record, position):
    path = write(tmp_path / "bad.fa", text)
    with pytest.raises(InputError, match=match) as info:
        list(iter_fasta_chunks(path, 1))
    assert info.value.path == str(path)
    assert info.value.record == record and info.value.position == position


def test_file_errors(tmp_path):
    with pytest.raises(InputError, match="not found"):
        list(iter_fasta_chunks(tmp_path / "missing.fa"))
    with pytest.raises(InputError, match="directory"):
        list(iter_fasta_chunks(tmp_path))
    (tmp_path / "x.bz2").write_bytes(b"BZh91AY&SY....")
    with pytest.raises(InputError, match="bzip2"):
        list(iter_fasta_chunks(tmp_path / "x.bz2"))
    (tmp_path / "bin.fa").write_bytes(b">a\nAC\xff\xfeGT\n")
    with pytest.raises(InputError, match="UTF-8"):
        list(iter_fasta_chunks(tmp_path / "bin.fa"))
    (tmp_path / "trunc.fa.gz").write_bytes(gzip.compress(b">a\nACGT\n" * 50)[:30])
    with pytest.raises(InputError):
        list(iter_fasta_chunks(tmp_path / "trunc.fa.gz"))
    with pytest.raises(InputError, match="chunk_size"):
        list(iter_fasta_chunks(tmp_path / "bin.fa", 0))


def test_score_and_write_scores(tmp_path):
    X, y = make_gattaca(n_pos=30, n_neg=30, length=20, mean=8, sd=1, random_state=0)
    from poimkit.alphabet import decode

    path = write(
        tmp_path / "s.fa", "".join(f">s{i}\n{s}\n" for i, s in enumerate(decode(X)))
    )
    model = WDLinearSVC(degree=5).fit(X, y)
    parts = list(score_fasta(model, path, chunk_size=7))
    assert len(parts) == 9
    np.testing.assert_allclose(
        np.concatenate([p[1] for p in parts]), model.decision_function(X), rtol=1e-12
    )
    out = tmp_path / "scores.tsv"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert write_scores(model, path, out, chunk_size=7) == 60
    lines = out.read_text().splitlines()
    assert lines[0] == "id\tscore\tprobability\tpredicted" and len(lines) == 61
    assert lines[1].startswith("s0\t") and lines[1].split("\t")[3] in {"0", "1"}
