"""Reading a genome (plain, bgzip, read-only folders) and peak files."""

import os
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poimkit.alphabet import reverse_complement
from poimkit.errors import InputError
from poimkit.genome.peaks import (
    DroppedWindowsWarning,
    check_chromosomes,
    extract,
    read_peaks,
)
from poimkit.genome.reference import open_genome, text_codes

CHR1 = "NNNNACGTACGTacgtacgtGGGGCCCCAAAATTTTACGTACGTTTGGCCAANNNN"
CHR2 = "ACGTTGCAacgtTGCAACGTTGCAACGTTGCA"


def _write_genome(folder, line=10):
    path = folder / "genome.fa"
    with open(path, "w") as handle:
        for name, seq in (("chr1", CHR1), ("chr2", CHR2)):
            handle.write(f">{name} some description\n")
            for i in range(0, len(seq), line):
                handle.write(seq[i : i + line] + "\n")
    return path


def test_genome_letters_case_and_codes(tmp_path):
    path = _write_genome(tmp_path)
    with open_genome(path, quiet=True) as genome:
        assert genome.lengths == {"chr1": len(CHR1), "chr2": len(CHR2)}
        assert genome.fetch("chr1", 3, 25) == CHR1[3:25]
        assert genome.fetch("chr2") == CHR2
        np.testing.assert_array_equal(genome.codes("chr1", 8, 16), [0, 1, 2, 3] * 2)
        assert genome.soft_masked("chr1", 10, 14).tolist() == [False, False, True, True]
        assert genome.codes("chr1", 0, 4).tolist() == [4] * 4
        with pytest.raises(InputError, match="outside 'chr2'"):
            genome.fetch("chr2", 10, len(CHR2) + 1)
        with pytest.raises(InputError, match="'chrX' is not in the genome"):
            genome.fetch("chrX", 0, 1)
    assert os.path.exists(str(path) + ".fai")


@settings(max_examples=40, deadline=None)
@given(
    seqs=st.lists(
        st.text("ACGTacgtNn", min_size=1, max_size=70), min_size=1, max_size=3
    ),
    line=st.integers(1, 12),
    crlf=st.booleans(),
    last_newline=st.booleans(),
    data=st.data(),
)
def test_memory_mapped_letters_equal_pyfaidx(seqs, line, crlf, last_newline, data):
    """Every range read from the map equals pyfaidx's, for any line layout."""
    import tempfile

    import pyfaidx

    from poimkit.genome import reference

    end = "\r\n" if crlf else "\n"
    text = "".join(
        f">s{k}{end}"
        + end.join(seq[i : i + line] for i in range(0, len(seq), line))
        + (end if last_newline or k < len(seqs) - 1 else "")
        for k, seq in enumerate(seqs)
    )
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "g.fa")
        with open(path, "w", newline="") as handle:
            handle.write(text)
        old_chunk, old_short = reference.READ_CHUNK, reference.SHORT_RANGE
        reference.READ_CHUNK = data.draw(st.integers(1, 80))  # chunks too
        reference.SHORT_RANGE = data.draw(st.integers(0, 80))  # and both readers
        try:
            with open_genome(path, quiet=True) as genome:
                assert genome._map is not None
                plain = pyfaidx.Fasta(path, as_raw=True, sequence_always_upper=False)
                for k, seq in enumerate(seqs):
                    start = data.draw(st.integers(0, len(seq)))
                    stop = data.draw(st.integers(start, len(seq)))
                    got = genome.letters(f"s{k}", start, stop)
                    assert got.tobytes().decode() == seq[start:stop]
                    assert plain[f"s{k}"][start:stop] == seq[start:stop]
                    assert genome.fetch(f"s{k}") == seq
                plain.close()
        finally:
            reference.READ_CHUNK, reference.SHORT_RANGE = old_chunk, old_short


def _mapped_file_mib() -> int | None:
    """This process's resident pages of mapped files, in MiB (None off Linux)."""
    try:
        with open("/proc/self/status") as handle:
            fields = dict(line.split(":", 1) for line in handle)
    except OSError:
        return None
    value = fields.get("RssFile")
    return None if value is None else int(value.split()[0]) // 1024


def test_reading_a_genome_hands_its_map_pages_back(tmp_path, monkeypatch):
    """Resident memory does not grow with what was read: the map's pages are
    handed back every MAPPED_BYTES (the letters stay right after)."""
    from poimkit.genome import reference

    if _mapped_file_mib() is None:
        pytest.skip("no /proc/self/status RssFile")
    rng = np.random.default_rng(3)
    seq = np.frombuffer(b"ACGTacgt", dtype=np.uint8)[rng.integers(0, 8, 48 << 20)]
    path = tmp_path / "big.fa"
    with open(path, "wb") as handle:
        handle.write(b">big\n")
        handle.write(seq.tobytes())
        handle.write(b"\n")
    monkeypatch.setattr(reference, "MAPPED_BYTES", 1 << 40)  # never handed back
    with open_genome(str(path), quiet=True) as genome:
        before = _mapped_file_mib()
        genome.letters("big")
        if _mapped_file_mib() - before < 40:
            pytest.skip("this system does not keep a read map's pages resident")
    monkeypatch.setattr(reference, "MAPPED_BYTES", 1 << 20)
    with open_genome(str(path), quiet=True) as genome:
        before = _mapped_file_mib()
        got = genome.letters("big")
        grown = _mapped_file_mib() - before
        assert np.array_equal(got, seq)
        assert np.array_equal(genome.letters("big", 5, 905), seq[5:905])
    assert grown <= 2 * reference.READ_CHUNK >> 20  # not the 48 MiB read


def test_letters_refuse_a_file_changed_since_its_index(tmp_path, monkeypatch):
    from poimkit.genome import reference

    path = _write_genome(tmp_path)
    open_genome(path, quiet=True).close()  # the index
    text = path.read_text().replace("GTacgtacgt", "GTacg\ntacgt", 1)
    path.write_text(text)  # a letter moved to a line of its own
    later = os.stat(path).st_mtime + 10  # the index looks current: not rebuilt
    os.utime(str(path) + ".fai", (later, later))
    with open_genome(path, quiet=True) as genome:
        with pytest.raises(InputError, match="changed since the index was built"):
            genome.letters("chr1", 0, 30)  # a window
        monkeypatch.setattr(reference, "SHORT_RANGE", 0)
        with pytest.raises(InputError, match="changed since the index was built"):
            genome.letters("chr1", 0, 30)  # line by line


def test_genome_bgzip(tmp_path):
    from Bio import bgzf

    plain = _write_genome(tmp_path)
    packed = tmp_path / "genome.fa.gz"
    with bgzf.BgzfWriter(packed, "wb") as handle:
        handle.write(plain.read_bytes())
    with open_genome(packed, quiet=True) as genome:
        assert genome._map is None  # read by pyfaidx
        assert genome.fetch("chr1", 5, 30) == CHR1[5:30]
        np.testing.assert_array_equal(genome.codes("chr1", 8, 16), [0, 1, 2, 3] * 2)


def test_genome_gzip_refused(tmp_path):
    import gzip

    plain = _write_genome(tmp_path)
    packed = tmp_path / "genome.fa.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    with pytest.raises(InputError, match="gzip, not bgzip"):
        open_genome(packed, quiet=True)


def test_genome_bad_files(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        open_genome(tmp_path / "none.fa")
    ragged = tmp_path / "ragged.fa"
    ragged.write_text(">a\nACGT\nAC\nACGT\n")
    with pytest.raises(InputError, match="ragged.fa: not an indexable FASTA"):
        open_genome(ragged, quiet=True)


def test_genome_read_only_folder_indexes_in_cache(tmp_path, monkeypatch):
    from poimkit.genome import reference

    path = _write_genome(tmp_path)
    monkeypatch.setattr(reference, "_writable_folder", lambda path: False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with open_genome(path, quiet=True) as genome:
        assert genome.fetch("chr2", 0, 4) == "ACGT"
        assert genome.index.startswith(str(tmp_path / "cache"))
    assert not os.path.exists(str(path) + ".fai")
    (tmp_path / "file").write_text("")  # a cache folder that cannot be made
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file" / "cache"))
    with pytest.raises(InputError, match="cannot be written either"):
        open_genome(path, quiet=True)


def test_read_peaks_formats(tmp_path):
    narrow = tmp_path / "p.narrowPeak"
    narrow.write_text(
        "track name=x\n"
        "chr1\t10\t30\tp1\t0\t+\t5.0\t-1\t3.2\t4\n"
        "chr2\t5\t25\tp2\t0\t-\t5.0\t-1\t3.2\t-1\n"
    )
    peaks = read_peaks(narrow)
    assert peaks.kind == "narrowPeak"
    assert peaks.summit.tolist() == [14, -1]
    assert peaks.centres.tolist() == [14, 15]
    assert peaks.line.tolist() == [2, 3]
    windows = peaks.windows(6)
    assert windows.start.tolist() == [11, 12] and windows.end.tolist() == [17, 18]
    assert windows.ids == ["chr1:11-17(+)", "chr2:12-18(-)"]
    bed3 = tmp_path / "p.bed"
    bed3.write_text("# comment\nchr1 0 10\nchr2 3 9\n")
    peaks = read_peaks(bed3)
    assert peaks.kind == "bed3" and peaks.strand.tolist() == [".", "."]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("chr1\t10\n", "line 1: expected at least 3 columns"),
        ("chr1\t10\t5\n", "line 1: start must be >= 0 and below end"),
        ("chr1\tx\t5\n", "line 1: start and end must be whole numbers"),
        ("chr1\t1\t5\tn\t0\t*\n", r"line 1: strand \(column 6\)"),
        ("chr1\t1\t5\nchr1\t1\t5\tn\n", "line 2: 4 columns, but the first"),
        (
            "chr1\t10\t20\tp\t0\t+\t1\t1\t1\t10\n",
            r"line 1: summit offset 10 \(column 10\) is outside the peak",
        ),
        ("# nothing\n", "no intervals"),
    ],
)
def test_read_peaks_bad_lines(tmp_path, text, message):
    path = tmp_path / "bad.bed"
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        read_peaks(path)


def test_missing_chromosome_names_the_line(tmp_path):
    genome = open_genome(_write_genome(tmp_path), quiet=True)
    bed = tmp_path / "p.bed"
    bed.write_text("chr1\t0\t10\n1\t0\t10\nchr3\t0\t5\n")
    with pytest.raises(
        InputError, match=r"line 2: chromosome '1' is not in the genome"
    ):
        check_chromosomes(read_peaks(bed), genome)
    bed.write_text("chr1\t0\t10\n")
    check_chromosomes(read_peaks(bed), genome)


def test_extract_strands_ends_and_n(tmp_path):
    genome = open_genome(_write_genome(tmp_path), quiet=True)
    bed = tmp_path / "p.bed"
    bed.write_text(
        "chr1\t8\t20\ta\t0\t+\n"  # kept, with a soft-masked half
        "chr1\t8\t20\tb\t0\t-\n"  # kept, reverse complement
        "chr1\t0\t12\tc\t0\t+\n"  # N letters: dropped
        "chr2\t20\t40\td\t0\t+\n"  # past the end: dropped
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = extract(genome, read_peaks(bed))
    counts = sorted(
        w.message.count for w in caught if w.category is DroppedWindowsWarning
    )
    assert counts == [1, 1]
    assert got.dropped == {"past_end": 1, "n_letters": 1}
    assert got.ids == ["chr1:8-20(+)", "chr1:8-20(-)"]
    forward = text_codes(CHR1[8:20])
    np.testing.assert_array_equal(got.seqs[0], forward)
    np.testing.assert_array_equal(got.seqs[1], reverse_complement(forward[None])[0])
    assert got.masked.tolist() == [8 / 12, 8 / 12]
    bed.write_text("chr2\t20\t40\n")
    with pytest.raises(InputError, match="none of the 1 windows"):
        extract(genome, read_peaks(bed))
