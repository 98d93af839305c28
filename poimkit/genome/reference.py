"""A reference genome read through its FASTA index (pyfaidx).

`open_genome` opens a plain or bgzip-compressed FASTA file and its ``.fai``
index (``.gzi`` too for bgzip), building the index next to the file, or in
poimkit's cache folder when the genome's folder is read-only. Letters keep
their case: soft-masked (lowercase) letters are repeats, read as ordinary
letters by the models and counted by `Genome.soft_masked`. A plain FASTA file
is read through a memory map (`Genome.letters`: a window costs a slice, not a
pyfaidx call); a bgzip-compressed one through pyfaidx.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import struct
import zlib
from pathlib import Path

import numpy as np

from .._cache import user_cache
from .._messages import inform
from ..errors import InputError

#: code of every byte: A/a=0, C/c=1, G/g=2, T/t=3, anything else (N, IUPAC) 4
_CODE = np.full(256, 4, dtype=np.uint8)
for _code, _letters in enumerate(("Aa", "Cc", "Gg", "Tt")):
    for _letter in _letters:
        _CODE[ord(_letter)] = _code
_LOWER = np.zeros(256, dtype=bool)
_LOWER[np.frombuffer(b"abcdefghijklmnopqrstuvwxyz", dtype=np.uint8)] = True

#: the code of a letter that is not A, C, G or T
OTHER = 4
#: `Genome.letters` reads a longer range this many letters at a time (little
#: memory beside the result)
READ_CHUNK = 1 << 24
#: bytes of the file's map a `Genome` reads before it hands the map's pages back
#: (the page cache keeps them): the process's resident memory does not grow with
#: the part of the genome it has read
MAPPED_BYTES = 1 << 28
#: ranges up to this many letters are read with their line ends and filtered
#: (a peak's window); longer ones line by line as the rows of a matrix
SHORT_RANGE = 1 << 12
#: line ends, left out of the letters (as pyfaidx does)
_NEWLINE, _RETURN = ord("\n"), ord("\r")
#: the first bytes of a gzip (so bgzip) file
_GZIP_MAGIC = b"\x1f\x8b"


def text_codes(text: str) -> np.ndarray:
    """Letter codes of genome text: A=0, C=1, G=2, T=3 in either case, else 4.

    Parameters
    ----------
    text : str
        Letters as read from the genome.

    Returns
    -------
    numpy.ndarray of uint8

    Examples
    --------
    >>> text_codes("ACgtN").tolist()
    [0, 1, 2, 3, 4]
    """
    return letter_codes(_text_bytes(text))


def letter_codes(letters: np.ndarray) -> np.ndarray:
    """`text_codes` of letters read as bytes (`Genome.letters`).

    Parameters
    ----------
    letters : numpy.ndarray of uint8
        One byte per letter, as in the file.

    Returns
    -------
    numpy.ndarray of uint8

    Examples
    --------
    >>> letter_codes(np.frombuffer(b"ACgtN", dtype=np.uint8)).tolist()
    [0, 1, 2, 3, 4]
    """
    return _CODE[letters]


def letter_masked(letters: np.ndarray) -> np.ndarray:
    """`text_masked` of letters read as bytes (`Genome.letters`).

    Parameters
    ----------
    letters : numpy.ndarray of uint8
        One byte per letter, as in the file.

    Returns
    -------
    numpy.ndarray of bool
    """
    return _LOWER[letters]


def _text_bytes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("ascii", "replace"), dtype=np.uint8)


def text_masked(text: str) -> np.ndarray:
    """Which letters are soft-masked (lowercase).

    Parameters
    ----------
    text : str
        Letters as read from the genome: repeats in lowercase, the rest in
        uppercase (soft-masked assemblies such as UCSC's).

    Returns
    -------
    numpy.ndarray of bool
        True where the letter is lowercase, for ``"ACgtN"``
        ``[False, False, True, True, False]``.
    """
    return letter_masked(_text_bytes(text))


def _cache_folder() -> Path:
    return user_cache("faidx")


def _cached_index(path: str) -> str:
    """An index path in poimkit's cache, named for the genome file's identity."""
    stat = os.stat(path)
    key = f"{os.path.abspath(path)}\0{stat.st_size}\0{stat.st_mtime_ns}"
    digest = hashlib.sha1(key.encode()).hexdigest()[:16]
    return str(_cache_folder() / f"{Path(path).name}.{digest}.fai")


def _writable_folder(path: str) -> bool:
    return os.access(os.path.dirname(os.path.abspath(path)) or ".", os.W_OK)


class Genome:
    """A genome FASTA file opened through its index.

    Parameters
    ----------
    path : str or path-like
        Plain or bgzip-compressed FASTA.
    index : str, optional
        Where the ``.fai`` index is (or is built); default next to the file.

    Attributes
    ----------
    path : str
        The FASTA file.
    lengths : dict of str to int
        Length of every chromosome, in file order.
    index : str
        The ``.fai`` index used.
    """

    def __init__(self, path: str | os.PathLike, index: str | None = None) -> None:
        import pyfaidx

        self.path = os.fspath(path)
        self.index = index or self.path + ".fai"
        gzi = None if index is None else index[: -len(".fai")] + ".gzi"
        try:
            self._fasta = pyfaidx.Fasta(
                self.path,
                indexname=self.index,
                gzi_indexname=gzi,
                as_raw=True,
                sequence_always_upper=False,
                strict_bounds=True,
                read_ahead=1 << 16,
            )
        except pyfaidx.UnsupportedCompressionFormat:
            raise InputError(
                "compressed with gzip, not bgzip: a genome is read by position, "
                "so it must be plain or bgzip-compressed (gunzip it, then bgzip it "
                "or keep it plain)",
                path=self.path,
            ) from None
        except pyfaidx.FastaIndexingError as exc:
            raise InputError(
                f"not an indexable FASTA file: {exc}", path=self.path
            ) from None
        except ValueError as exc:  # duplicate names, bad index lines
            raise InputError(
                f"cannot index the genome: {exc}", path=self.path
            ) from None
        self.lengths = {
            name: len(record) for name, record in self._fasta.records.items()
        }
        if not self.lengths:
            raise InputError("no chromosomes: not a FASTA file", path=self.path)
        self._map = None  # the plain file's bytes (None: bgzip, read by pyfaidx)
        self._mmap = None
        self._mapped = 0  # bytes read from the map since its pages were handed back
        with open(self.path, "rb") as handle:
            if handle.read(2) != _GZIP_MAGIC:
                self._mmap = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
                self._map = np.frombuffer(self._mmap, dtype=np.uint8)

    def close(self) -> None:
        """Close the file."""
        self._map = self._mmap = None
        self._fasta.close()

    def __enter__(self) -> Genome:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Genome({self.path!r}, {len(self.lengths)} chromosomes)"

    @property
    def size(self) -> int:
        """Letters over all chromosomes."""
        return int(sum(self.lengths.values()))

    def fetch(self, chrom: str, start: int = 0, end: int | None = None) -> str:
        """Letters ``[start, end)`` of a chromosome (0-based), case as in the file.

        Parameters
        ----------
        chrom : str
            Chromosome name as in the FASTA headers (first word).
        start, end : int
            0-based half-open range inside the chromosome; ``end`` None: its end.

        Returns
        -------
        str
        """
        return self.letters(chrom, start, end).tobytes().decode("ascii", "replace")

    def letters(self, chrom: str, start: int = 0, end: int | None = None) -> np.ndarray:
        """The bytes of letters ``[start, end)`` of a chromosome, as in the file.

        Line ends are left out; the case is kept.

        Parameters
        ----------
        chrom, start, end
            As in `fetch`.

        Returns
        -------
        numpy.ndarray of uint8, shape (end - start,)

        Raises
        ------
        InputError
            The chromosome is not in the genome, the range lies outside it,
            or the file does not hold the letters its index says (changed
            since the index was built).
        """
        start, end = self._range(chrom, start, end)
        if self._map is None or start == end:
            text = str(self._fasta[chrom][start:end]) if end > start else ""
            return _text_bytes(text)
        if end - start <= READ_CHUNK:
            return self._checked_letters(chrom, start, end)
        out = np.empty(end - start, dtype=np.uint8)
        for at in range(start, end, READ_CHUNK):
            stop = min(at + READ_CHUNK, end)
            out[at - start : stop - start] = self._checked_letters(chrom, at, stop)
        return out

    def _checked_letters(self, chrom: str, start: int, end: int) -> np.ndarray:
        """`_line_bytes`, or an `InputError` if the file does not match its index."""
        part = self._line_bytes(chrom, start, end)
        if part is None or part.size != end - start:
            raise InputError(
                f"{chrom}:{start}-{end} does not hold the {end - start} letters "
                f"its index {self.index} says: the file changed since the "
                "index was built (delete the index to rebuild it)",
                path=self.path,
            )
        return part

    def _range(self, chrom: str, start: int, end: int | None) -> tuple[int, int]:
        """``(start, end)`` checked against the chromosome (``end`` None: its end)."""
        length = self.lengths.get(chrom)
        if length is None:
            raise InputError(
                f"chromosome {chrom!r} is not in the genome", path=self.path
            )
        end = length if end is None else end
        if not 0 <= start <= end <= length:
            raise InputError(
                f"range {start}-{end} is outside {chrom!r} (length {length})",
                path=self.path,
            )
        return start, end

    def _line_bytes(self, chrom: str, start: int, end: int) -> np.ndarray | None:
        """The letters ``[start, end)`` from the map, line ends left out.

        None when the file's line ends are not where its index says.
        """
        record = self._fasta.faidx.index[chrom]
        lenc, lenb, base = record.lenc, record.lenb, record.offset
        first, head = divmod(start, lenc)
        last, tail = divmod(end - 1, lenc)  # the line of the last letter
        at, stop = base + first * lenb + head, base + last * lenb + tail + 1
        self._count_mapped(at, stop)
        if end - start <= SHORT_RANGE or first == last:  # a window, or one line
            raw = self._map[at:stop]
            return raw[(raw != _NEWLINE) & (raw != _RETURN)]
        # every line but a record's last holds lenc letters in lenb bytes (the
        # index's promise): the lines before the last letter's are the rows of a
        # matrix whose last columns, the line ends, are dropped (the first row
        # from column head on); then the last line's letters
        rows = self._map[base + first * lenb : base + last * lenb].reshape(-1, lenb)
        if not np.isin(rows[:, lenc:], (_NEWLINE, _RETURN)).all():
            return None
        whole = np.empty(end - start, dtype=np.uint8)
        whole[: lenc - head] = rows[0, head:lenc]
        middle = whole[lenc - head : lenc - head + (rows.shape[0] - 1) * lenc]
        middle.reshape(-1, lenc)[:] = rows[1:, :lenc]
        whole[lenc - head + middle.size :] = self._map[base + last * lenb : stop]
        return whole

    def _count_mapped(self, first: int, stop: int) -> None:
        """Count the map's bytes ``[first, stop)`` as read, before reading them.

        Past `MAPPED_BYTES` the map's pages are handed back first
        (``MADV_DONTNEED``, where the system has it); a later read maps them
        again from the page cache.
        """
        self._mapped += stop - first + mmap.PAGESIZE
        if self._mapped > MAPPED_BYTES and hasattr(mmap, "MADV_DONTNEED"):
            self._mmap.madvise(mmap.MADV_DONTNEED)
            self._mapped = stop - first + mmap.PAGESIZE  # this read's pages are next

    def codes(self, chrom: str, start: int = 0, end: int | None = None) -> np.ndarray:
        """Letter codes of a range (`text_codes`: 4 for N and other letters).

        Parameters
        ----------
        chrom : str
            Chromosome name.
        start, end : int
            0-based half-open range; ``end`` None: the chromosome's end.

        Returns
        -------
        numpy.ndarray of uint8
        """
        return letter_codes(self.letters(chrom, start, end))

    def soft_masked(
        self, chrom: str, start: int = 0, end: int | None = None
    ) -> np.ndarray:
        """Which letters of a range are soft-masked (lowercase: repeats).

        Parameters
        ----------
        chrom, start, end
            As in `codes`.

        Returns
        -------
        numpy.ndarray of bool
        """
        return letter_masked(self.letters(chrom, start, end))

    def provenance(self) -> dict:
        """Path, size and the index's checksum, for a run's summary.

        Returns
        -------
        dict
            ``role``, ``path``, ``bytes``, ``chromosomes`` and ``index_sha256``
            (the index names every chromosome with its length and offset, so it
            identifies the file without reading gigabytes).
        """
        with open(self.index, "rb") as handle:
            digest = hashlib.sha256(handle.read()).hexdigest()
        return {
            "role": "genome",
            "path": os.path.abspath(self.path),
            "bytes": os.path.getsize(self.path),
            "chromosomes": len(self.lengths),
            "index_sha256": digest,
        }


def open_genome(path: str | os.PathLike, quiet: bool = False) -> Genome:
    """Open a genome FASTA file, building its index where it can be written.

    Parameters
    ----------
    path : str or path-like
        Plain or bgzip-compressed FASTA (``.fa``, ``.fa.gz``); soft-masked
        letters are kept as lowercase.
    quiet : bool
        Say nothing while an index is built.

    Returns
    -------
    Genome

    Raises
    ------
    InputError
        If the file is missing, gzip- (not bgzip-) compressed, not an
        indexable FASTA file, or no index can be written next to it or in
        poimkit's cache folder.
    """
    name = os.fspath(path)
    if not os.path.isfile(name):
        what = "is a directory, not a file" if os.path.isdir(name) else "file not found"
        raise InputError(what, path=name)
    if not os.access(name, os.R_OK):
        raise InputError("cannot read the file (permission denied)", path=name)
    index = name + ".fai"
    if not os.path.exists(index) and not _writable_folder(name):
        index = _cached_index(name)
        try:
            os.makedirs(os.path.dirname(index), exist_ok=True)
        except OSError:
            raise InputError(
                f"its folder is read-only and poimkit's cache ({_cache_folder()}) "
                "cannot be written either, so the index (.fai) cannot be built: run "
                "'samtools faidx' on a copy in a writable folder",
                path=name,
            ) from None
    if not os.path.exists(index) and not quiet:
        inform(f"indexing {name} (once)")
    try:
        return Genome(name, None if index == name + ".fai" else index)
    except OSError as exc:
        raise InputError(
            f"cannot write or read the index {index} ({exc.strerror or exc})",
            path=name,
        ) from None
    except (struct.error, EOFError, zlib.error) as exc:  # BGZF blocks cut short
        raise InputError(
            f"is not a complete bgzip file: it ends inside a block or is damaged "
            f"({exc}); download it again or recompress it with bgzip",
            path=name,
        ) from None
