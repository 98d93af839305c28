"""Reading VCF files and sequence-pair tables; REF and chromosome checks."""

import gzip

import numpy as np
import pytest

from poimkit import InputError
from poimkit.genome.reference import text_codes
from poimkit.genome.vcf import (
    SYMBOLIC,
    check_chromosomes,
    check_ref,
    read_pairs,
    read_vcf,
)

HEADER = "##fileformat=VCFv4.2\n##contig=<ID=chr1>\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\n"


class DictGenome:
    """A genome held in a dict (the attributes `check_chromosomes` uses)."""

    def __init__(self, seqs):
        self.path = "dict.fa"
        self.seqs = seqs
        self.lengths = {c: len(s) for c, s in seqs.items()}

    def codes(self, chrom):
        return text_codes(self.seqs[chrom])


def _write(path, text, gz=False):
    if gz:
        with gzip.open(path, "wt") as handle:
            handle.write(text)
    else:
        path.write_text(text)
    return path


@pytest.mark.parametrize("gz", [False, True])
def test_multi_allelic_split_symbolic_skipped_ids(tmp_path, gz):
    body = (
        "chr1\t3\trs1\tG\tA,T\t50\n"
        "chr1\t5\t.\tac\t<DEL>,A,*\t.\n"
        "chr2\t1\t.\tA\t.\t.\n"
        "\n"
        "chr2\t2\tx\tC\tG[chr1:3[\t.\n"
    )
    path = _write(tmp_path / ("v.vcf.gz" if gz else "v.vcf"), HEADER + body, gz)
    table = read_vcf(path)
    assert table.chrom == ["chr1", "chr1", "chr1"]
    assert table.pos.tolist() == [3, 3, 5]
    assert table.id == ["rs1", "rs1", "chr1:5:AC:A"]
    assert table.ref == ["G", "G", "AC"] and table.alt == ["A", "T", "A"]
    assert table.line.tolist() == [4, 4, 5]
    assert table.skipped == {SYMBOLIC: 4}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("chr1\t3\trs1\tG", "found 4 column"),
        ("chr1\tx\t.\tG\tA", "POS 'x'"),
        ("chr1\t0\t.\tG\tA", "POS '0'"),
        ("chr1\t3\t.\tR\tA", "REF 'R'"),
        ("chr1\t3\t.\tG\tAX", "ALT 'AX'"),
        ("\t3\t.\tG\tA", "CHROM"),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path, line, message):
    path = _write(tmp_path / "v.vcf", HEADER + "chr1\t1\t.\tA\tC\n" + line + "\n")
    with pytest.raises(InputError, match=message) as err:
        read_vcf(path)
    assert str(path) in str(err.value) and "line 5" in str(err.value)


def test_a_vcf_without_its_chrom_header_is_refused(tmp_path):
    """Before: read silently (bcftools refuses it)."""
    path = _write(tmp_path / "v.vcf", "##fileformat=VCFv4.2\nchr1\t1\t.\tA\tC\n")
    with pytest.raises(InputError, match="before the #CHROM header") as err:
        read_vcf(path)
    assert str(path) in str(err.value) and "line 2" in str(err.value)


def test_ref_check_mismatch_and_skip(tmp_path):
    body = "chr1\t2\t.\tC\tT\nchr1\t3\t.\tGG\tG\nchr1\t4\t.\tt\tA\nchr1\t9\t.\tA\tC\n"
    table = read_vcf(_write(tmp_path / "v.vcf", HEADER + body))
    genome = DictGenome({"chr1": "aCgTACGT"})
    rows = table.by_chromosome()["chr1"]
    with pytest.raises(InputError, match=r"line 5: REF GG does not match") as err:
        check_ref(table, rows, genome.codes("chr1"))
    assert "skip-mismatched-ref" in str(err.value)
    ok = check_ref(table, rows, genome.codes("chr1"), skip_mismatched_ref=True)
    assert ok.tolist() == [True, False, True, False]  # soft-masked t matches T


def test_missing_chromosome_names_the_line(tmp_path):
    body = "chr1\t2\t.\tC\tT\nchrX\t3\t.\tG\tA\nchrX\t4\t.\tT\tA\n"
    table = read_vcf(_write(tmp_path / "v.vcf", HEADER + body))
    with pytest.raises(InputError, match=r"line 5: chromosome 'chrX' is not in"):
        check_chromosomes(table, DictGenome({"chr1": "ACGT"}))


def test_by_chromosome_keeps_first_appearance_and_input_order(tmp_path):
    body = "".join(
        f"{c}\t{p}\t.\tA\tC\n" for c, p in [("b", 1), ("a", 1), ("b", 2), ("a", 2)]
    )
    table = read_vcf(_write(tmp_path / "v.vcf", HEADER + body))
    groups = table.by_chromosome()
    assert list(groups) == ["b", "a"]
    assert [g.tolist() for g in groups.values()] == [[0, 2], [1, 3]]


def test_pairs_table(tmp_path):
    path = _write(
        tmp_path / "p.tsv", "id\tref\talt\n# comment\nv1\tacgt\tACGA\nv2\tAC\tACN\n"
    )
    pairs = read_pairs(path)
    assert pairs.id == ["v1", "v2"] and pairs.ref == ["ACGT", "AC"]
    assert pairs.line.tolist() == [3, 4]
    bad = _write(tmp_path / "b.tsv", "v1\tACGT\n")
    with pytest.raises(InputError, match="line 1: expected 3"):
        read_pairs(bad)
    with pytest.raises(InputError, match="line 1: the alt sequence"):
        read_pairs(_write(tmp_path / "c.tsv", "v1\tACGT\tAC-T\n"))
    with pytest.raises(InputError, match="no sequence pairs"):
        read_pairs(_write(tmp_path / "d.tsv", "# nothing\n"))


def test_text_codes_case_and_n():
    assert text_codes("acgtNR").tolist() == [0, 1, 2, 3, 4, 4]
    assert np.array_equal(text_codes(""), np.zeros(0, np.uint8))
