"""DNA alphabet: letter codes, k-mer index math and reverse complements.

Codes are ``A=0, C=1, G=2, T=3``. A k-mer ``z_0 ... z_{l-1}`` has the index
``sum_p code(z_p) * 4**(l-1-p)`` (first letter most significant), so the
k-mers of one length sort lexicographically by index.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .errors import InputError

ALPHABET = "ACGT"
N_LETTERS = 4
MAX_KMER_LENGTH = 31  # 4**31 still fits in a signed 64-bit index

_INVALID = 255
_CODE_OF_BYTE = np.full(256, _INVALID, dtype=np.uint8)
for _code, _letters in enumerate(("Aa", "Cc", "Gg", "TtUu")):
    for _letter in _letters:
        _CODE_OF_BYTE[ord(_letter)] = _code


def _encode_one(seq: str, record: str) -> np.ndarray:
    raw = np.frombuffer(seq.encode("ascii", errors="replace"), dtype=np.uint8)
    codes = _CODE_OF_BYTE[raw]
    bad = np.flatnonzero(codes == _INVALID)
    if bad.size:
        pos = int(bad[0])
        raise InputError(
            f"letter {seq[pos]!r} is not one of A, C, G, T (U is read as T); "
            "drop or repair records with N or IUPAC codes",
            record=record,
            position=pos + 1,
        )
    return codes


def letter_codes(seq: str) -> tuple[np.ndarray, np.ndarray]:
    """Codes of one sequence of any letters, and where it holds no A, C, G, T.

    Unlike `encode`, a letter other than ``A, C, G, T`` (either case; ``U``
    reads as ``T``), such as ``N`` or an IUPAC code, is no error: it gets code
    0 and is flagged, for callers that leave out what holds it (the windows
    of a genome's N gaps).

    Parameters
    ----------
    seq : str
        The sequence as written.

    Returns
    -------
    codes : numpy.ndarray of uint8, shape (len(seq),)
        Letter codes 0..3 (0 where flagged).
    invalid : numpy.ndarray of bool, shape (len(seq),)
        True at the letters other than A, C, G, T/U.

    Examples
    --------
    >>> codes, invalid = letter_codes("ACNt")
    >>> codes.tolist(), invalid.tolist()
    ([0, 1, 0, 3], [False, False, True, False])
    """
    raw = np.frombuffer(seq.encode("ascii", errors="replace"), dtype=np.uint8)
    codes = _CODE_OF_BYTE[raw]
    invalid = codes == _INVALID
    codes[invalid] = 0
    return codes, invalid


def check_equal_lengths(seqs: Sequence[str], ids: Sequence[str]) -> None:
    """Raise `InputError` unless all sequences have the same, non-zero length.

    Parameters
    ----------
    seqs : sequence of str
        The sequences.
    ids : sequence of str
        Their names, for error messages.
    """
    if not seqs:
        raise InputError("no sequences were given")
    length = len(seqs[0])
    for seq, rid in zip(seqs, ids, strict=True):
        if len(seq) == 0:
            raise InputError("empty sequence", record=rid)
        if len(seq) != length:
            raise InputError(
                f"sequence has length {len(seq)} but the first has length "
                f"{length}; positional kernels need equal lengths (centre-crop "
                "with crop_length / --crop)",
                record=rid,
            )


def encode(
    seqs: str | Iterable[str] | np.ndarray, ids: Sequence[str] | None = None
) -> np.ndarray:
    """Encode DNA strings as a uint8 array of letter codes.

    Parameters
    ----------
    seqs : str, iterable of str, or array of int
        Sequences of equal length over ``ACGT`` (either case; ``U`` reads as
        ``T``). An integer array of shape ``(n, L)`` with values 0..3 is
        validated and returned as ``uint8``.
    ids : sequence of str, optional
        Names used in error messages; default is the 0-based index.

    Returns
    -------
    numpy.ndarray
        ``uint8`` array of shape ``(n, L)``.

    Raises
    ------
    InputError
        For an unknown letter (naming record and 1-based position), unequal
        lengths or no sequences.

    Examples
    --------
    >>> encode(["ACGT", "ttga"]).tolist()
    [[0, 1, 2, 3], [3, 3, 2, 0]]
    """
    if isinstance(seqs, np.ndarray) and seqs.dtype.kind in "iub":
        return check_codes(seqs)
    if isinstance(seqs, str | bytes):
        seqs = [seqs]
    seqs = [
        s.decode("ascii", errors="replace") if isinstance(s, bytes) else str(s)
        for s in seqs
    ]
    names = [str(i) for i in range(len(seqs))] if ids is None else list(ids)
    check_equal_lengths(seqs, names)
    out = np.empty((len(seqs), len(seqs[0])), dtype=np.uint8)
    for row, (seq, rid) in enumerate(zip(seqs, names, strict=True)):
        out[row] = _encode_one(seq, rid)
    return out


def check_codes(X: np.ndarray, name: str = "X") -> np.ndarray:
    """Validate an integer-coded sequence array and return it as C-contiguous uint8.

    Parameters
    ----------
    X : array-like of int, shape (n, L)
        Letter codes 0..3.
    name : str
        Argument name used in error messages.

    Returns
    -------
    numpy.ndarray
        ``uint8``, C-contiguous, shape ``(n, L)``.
    """
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise InputError(
            f"{name} has shape {arr.shape} but must have shape (n_sequences, length)"
        )
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InputError(f"{name} has shape {arr.shape}; it holds no sequence letters")
    if arr.dtype.kind not in "iub":
        raise InputError(
            f"{name} has dtype {arr.dtype} but must hold integer codes 0..3"
        )
    if arr.min() < 0 or arr.max() > 3:
        bad = np.argwhere((arr < 0) | (arr > 3))[0]
        raise InputError(
            f"{name} holds code {int(arr[tuple(bad)])} at row {int(bad[0])}, position "
            f"{int(bad[1]) + 1}; codes must be 0..3 (A, C, G, T)"
        )
    return np.ascontiguousarray(arr, dtype=np.uint8)


def decode(X: np.ndarray) -> list[str]:
    """Turn a ``(n, L)`` code array back into strings.

    Parameters
    ----------
    X : array-like of int, shape (n, L) or (L,)
        Letter codes 0..3.

    Returns
    -------
    list of str

    Examples
    --------
    >>> decode(encode(["GATTACA"]))
    ['GATTACA']
    """
    letters = np.frombuffer(ALPHABET.encode(), dtype=np.uint8)
    arr = check_codes(np.atleast_2d(X))
    return [letters[row].tobytes().decode() for row in arr]


def kmer_index(kmer: str | Sequence[int]) -> int:
    """Index of a k-mer: ``sum_p code(z_p) * 4**(l-1-p)``.

    Parameters
    ----------
    kmer : str or sequence of int
        Letters over ``ACGT`` or codes 0..3, at most `MAX_KMER_LENGTH`.

    Returns
    -------
    int

    Examples
    --------
    >>> kmer_index("A"), kmer_index("T"), kmer_index("CA"), kmer_index("GATTACA")
    (0, 3, 4, 9156)
    """
    codes = (
        encode(kmer)[0]
        if isinstance(kmer, str)
        else check_codes(np.asarray(kmer).reshape(1, -1), "kmer")[0]
    )
    if len(codes) > MAX_KMER_LENGTH:
        raise InputError(f"k-mers longer than {MAX_KMER_LENGTH} have no 64-bit index")
    index = 0
    for code in codes:
        index = index * N_LETTERS + int(code)
    return index


def kmer_string(index: int, length: int) -> str:
    """The k-mer of the given length with this index (inverse of `kmer_index`).

    Parameters
    ----------
    index : int
        k-mer index, ``0 .. 4**length - 1``.
    length : int
        k-mer length, ``1 .. MAX_KMER_LENGTH``.

    Returns
    -------
    str

    Examples
    --------
    >>> kmer_string(9156, 7)
    'GATTACA'
    """
    if length < 1 or length > MAX_KMER_LENGTH:
        raise InputError(f"k-mer length must be in 1..{MAX_KMER_LENGTH}, got {length}")
    if not 0 <= index < N_LETTERS**length:
        raise InputError(f"index {index} is out of range for k-mers of length {length}")
    letters = []
    for _ in range(length):
        index, code = divmod(index, N_LETTERS)
        letters.append(ALPHABET[code])
    return "".join(reversed(letters))


def kmer_indices(X: np.ndarray, k: int) -> np.ndarray:
    """Index of the k-mer starting at every position of every sequence.

    Parameters
    ----------
    X : numpy.ndarray of uint8, shape (n, L)
        Letter codes.
    k : int
        k-mer length, ``1 <= k <= min(L, 31)``.

    Returns
    -------
    numpy.ndarray of int64, shape (n, L - k + 1)

    Examples
    --------
    >>> kmer_indices(encode(["ACGT"]), 2).tolist()
    [[1, 6, 11]]
    """
    X = check_codes(X)
    length = X.shape[1]
    if not 1 <= k <= min(length, MAX_KMER_LENGTH):
        raise InputError(f"k must be in 1..{min(length, MAX_KMER_LENGTH)}, got {k}")
    out = np.zeros((X.shape[0], length - k + 1), dtype=np.int64)
    for p in range(k):
        out = out * N_LETTERS + X[:, p : p + length - k + 1]
    return out


def reverse_complement(X: np.ndarray) -> np.ndarray:
    """Reverse complement of integer-coded sequences (``3 - code``, reversed).

    Parameters
    ----------
    X : array-like of int, shape (n, L) or (L,)
        Sequences as letter codes 0..3 (one sequence: a 1-D array).

    Returns
    -------
    numpy.ndarray of uint8, shape (n, L)

    Examples
    --------
    >>> decode(reverse_complement(encode(["GATTACA"])))
    ['TGTAATC']
    """
    X = check_codes(np.atleast_2d(X))
    return np.ascontiguousarray((3 - X)[:, ::-1])


def reverse_complement_kmers(kmers: ArrayLike, k: int) -> np.ndarray:
    """Index of ``rc(y)`` for every k-mer index ``y`` (complement 3 - c, reversed).

    Parameters
    ----------
    kmers : array-like of int
        k-mer indices.
    k : int
        Their length.

    Returns
    -------
    numpy.ndarray of int64
        Same shape as ``kmers``.

    Examples
    --------
    >>> kmer_string(int(reverse_complement_kmers([kmer_index("GATTACA")], 7)[0]), 7)
    'TGTAATC'
    """
    rest = np.asarray(kmers, dtype=np.int64).copy()
    out = np.zeros_like(rest)
    for _ in range(k):
        out = (out << 2) | (3 - (rest & 3))
        rest >>= 2
    return out
