"""FASTA records repeated, id and sequence (as in published peak files): dropped."""

import gzip

import pytest

from poimkit import WDKernelSVC
from poimkit.datasets import make_gattaca
from poimkit.errors import InputError
from poimkit.io import DroppedRecordsWarning, iter_fasta_chunks, read_fasta

from ..cli_runs import main

REPEATED = ">a\nACGT\n>b\nACGA\n>a\nACGT\n>c\nTTTT\n>b\nAC\nGA\n>a\nACGT\n"


def test_read_fasta_drops_repeated_records_with_a_count(tmp_path):
    path = tmp_path / "peaks.fa"
    path.write_text(REPEATED)
    with pytest.warns(DroppedRecordsWarning, match="dropped 3 of 6 records") as w:
        ids, X = read_fasta(path)
    assert ids == ["a", "b", "c"]
    assert X.tolist() == [[0, 1, 2, 3], [0, 1, 2, 0], [3, 3, 3, 3]]
    [warning] = w.list
    assert warning.message.count == 3 and "same id and sequence" in str(warning.message)


def test_chunks_drop_repeated_records_with_a_count(tmp_path):
    path = tmp_path / "peaks.fa.gz"
    path.write_bytes(gzip.compress(REPEATED.encode()))
    with pytest.warns(DroppedRecordsWarning) as w:
        chunks = list(iter_fasta_chunks(path, 2))
    assert sum((ids for ids, _ in chunks), []) == ["a", "b", "c"]
    assert sum(x.message.count for x in w.list) == 3


@pytest.mark.parametrize("reader", [read_fasta, lambda p: list(iter_fasta_chunks(p))])
def test_one_id_with_two_sequences_is_an_error(tmp_path, reader):
    path = tmp_path / "bad.fa"
    path.write_text(">a\nACGT\n>b\nACGA\n>a\nACGG\n")
    with pytest.raises(InputError, match="different sequence") as info:
        reader(path)
    assert info.value.path == str(path) and info.value.record == "a"
    assert "records number 1 and 3" in str(info.value)


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    X, y = make_gattaca(10, 10, length=4, motif="GA", mean=1, sd=0, random_state=0)
    path = tmp_path_factory.mktemp("m") / "wd.npz"
    WDKernelSVC(degree=2).fit(X, y).save(path)
    return path


def test_cli_scores_each_repeated_record_once(model_file, tmp_path, capsys):
    fasta = tmp_path / "peaks.fa"
    fasta.write_text(REPEATED)
    out = tmp_path / "s.tsv"
    assert main(["score", model_file, fasta, "-o", out]) == 0
    rows = [line.split("\t")[0] for line in out.read_text().splitlines()[1:]]
    assert rows == ["a", "b", "c"]
    err = capsys.readouterr().err
    assert "dropped 3 of 6 records repeating an earlier record" in err


def test_cli_one_id_with_two_sequences_exits_2(model_file, tmp_path, capsys):
    fasta = tmp_path / "bad.fa"
    fasta.write_text(">a\nACGT\n>a\nTTTT\n")
    out = tmp_path / "s.tsv"
    assert main(["score", model_file, fasta, "-o", out]) == 2
    err = capsys.readouterr().err
    assert f"{fasta}, record 'a'" in err and "duplicated record id" in err
    assert not out.exists()
