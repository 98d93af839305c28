"""Motif files: MEME (minimal), JASPAR and TRANSFAC, read and written.

Writers go through `poimkit.io.atomic_path` (the target is replaced only when
the whole file is written) and readers go through Biopython's parsers
(`Bio.motifs.parse` with ``"minimal"``, ``"jaspar"`` and ``"transfac"``).

Precision
---------
Files round-trip through Biopython's own parsers to within 1e-6 per PWM entry
(JASPAR: whole counts, see below):

* **MEME**: Biopython's ``minimal`` parser rounds ``probability * nsites`` to
  whole counts, so ``nsites`` sets the precision it reads. poimkit writes
  ``nsites=`` `MEME_NSITES` (10**6) and probabilities that are exact multiples
  of 1/`MEME_NSITES`, rounded so that every row sums to exactly 1 (largest
  error 0.75e-6). Every reader then sees the same matrix. The count is a
  fictitious number of sites, like `COUNT_SCALE`; it only scales the (small)
  pseudocounts MEME Suite tools add.
* **JASPAR**: whole counts, as in JASPAR's own files: a motif found from its
  sites has its site counts; any other has ``pwm * JASPAR_NSITES`` rounded so
  that every column sums to `JASPAR_NSITES` (1000, a fictitious number of
  sites), within ``1 / JASPAR_NSITES`` per entry.
* **TRANSFAC**: Biopython writes the counts with 20 significant digits;
  poimkit rounds them to 4 decimals first (PWM entries to multiples of 1e-8),
  which keeps exponent notation out of the file.

A motif found from its sites (`Motif.n_sites` > 0) has a PWM of site counts,
so MEME files give its real ``nsites=`` (Biopython then reads back the same
counts) and its E-value; a motif fitted to POIMs alone has no sites and no
test: ``nsites=`` `MEME_NSITES` and ``E= nan``.

Position, spread, importance, residual and evidence
---------------------------------------------------
MEME and TRANSFAC files also keep a motif's 1-based mean ``position``,
``spread``, ``importance``, ``residual`` and evidence (``n_sites``,
``frac_positive``, ``frac_negative``, ``p_value``, ``q_value``, ``e_value``,
and for a continuous target ``effect`` and ``median_shift``) on a line of the form
``poimkit position=12.5 spread=1.25 importance=0.031 residual=0.02 ...``: in MEME
files as a ``#`` line after the motif's matrix (MEME Suite, Biopython and
memelite skip lines they do not know there), in TRANSFAC files as a ``CC``
(comment) line of the motif. `read_motifs` restores them; JASPAR has no room
for them, and motifs read from files without them get NaN.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..alphabet import ALPHABET
from ..errors import InputError
from ..io import PathLike, atomic_path, write_table
from .motif import COUNT_SCALE, Motif

#: ``nsites=`` written to MEME files; probabilities are multiples of its inverse
MEME_NSITES = 1_000_000

#: sites a JASPAR file gives a motif without its own (`write_jaspar`)
JASPAR_NSITES = 1000

#: format names and the file suffixes that select them
FORMATS = {"meme": ".meme", "jaspar": ".jaspar", "transfac": ".transfac"}

_BIOPYTHON_NAME = {"meme": "minimal", "jaspar": "jaspar", "transfac": "transfac"}
_META_TAG = "poimkit"
_META_KEYS = (
    "position",
    "spread",
    "importance",
    "residual",
    "n_sites",
    "frac_positive",
    "frac_negative",
    "p_value",
    "q_value",
    "e_value",
)
#: evidence for a continuous target, written only when known
_TARGET_KEYS = ("effect", "median_shift")


# --------------------------------------------------------------------------- #
# writing
# --------------------------------------------------------------------------- #


def write_meme(
    path: PathLike,
    motifs: Sequence[Motif],
    background: Sequence[float] | np.ndarray | None = None,
) -> None:
    """Write motifs in MEME minimal motif format (version 4), atomically.

    Parameters
    ----------
    path : str or path-like
        Output file, conventionally ``*.meme``.
    motifs : sequence of Motif
        Motifs with distinct names without whitespace.
    background : array-like of shape (4,), optional
        Background letter frequencies of A, C, G, T; default uniform.
        (`poimkit run` writes those of its POIM background.)

    Raises
    ------
    InputError
        For bad names or background, or a missing output directory; the
        target is then left untouched.

    Notes
    -----
    Each motif becomes::

        MOTIF <name> <consensus>
        letter-probability matrix: alength= 4 w= <m> nsites= <n> E= <E-value>
        <m rows of probabilities of A C G T>

        # poimkit position=<1-based mean start> spread=<sd> importance=... ...

    Probabilities are multiples of 1e-6 with rows summing to exactly 1 (see the
    module notes). ``strands: +`` unless a motif has sites on both strands.

    Examples
    --------
    >>> import os, tempfile
    >>> motif = Motif(np.eye(4)[[2, 0, 3]], position=5.0, spread=0.5, name="m1")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "motifs.meme")
    ...     write_meme(path, [motif])
    ...     print(open(path).read(), end="")  # doctest: +ELLIPSIS
    MEME version 4
    <BLANKLINE>
    ALPHABET= ACGT
    <BLANKLINE>
    strands: +
    <BLANKLINE>
    Background letter frequencies
    A 0.250000 C 0.250000 G 0.250000 T 0.250000
    <BLANKLINE>
    MOTIF m1 GAT
    letter-probability matrix: alength= 4 w= 3 nsites= 1000000 E= nan
    0.000000 0.000000 1.000000 0.000000
    1.000000 0.000000 0.000000 0.000000
    0.000000 0.000000 0.000000 1.000000
    <BLANKLINE>
    # poimkit position=5.0 spread=0.5 importance=0.0 residual=nan n_sites=0.0 ...
    <BLANKLINE>
    """
    motifs = _check_motifs(motifs)
    bg = _check_background(background)
    both = any(m.sites is not None and m.sites.on_both_strands for m in motifs)
    lines = [
        "MEME version 4",
        "",
        f"ALPHABET= {ALPHABET}",
        "",
        "strands: + -" if both else "strands: +",
        "",
        "Background letter frequencies",
        " ".join(f"{a} {p:.6f}" for a, p in zip(ALPHABET, bg, strict=True)),
        "",
    ]
    for motif in motifs:
        counts = _quantize(motif.pwm, MEME_NSITES)
        n_sites = _site_count(motif)
        lines.append(f"MOTIF {motif.name} {motif.consensus}")
        lines.append(
            f"letter-probability matrix: alength= 4 w= {motif.length} "
            f"nsites= {n_sites or MEME_NSITES} E= {motif.e_value:.3g}"
        )
        lines.extend(" ".join(_fraction(c, MEME_NSITES) for c in row) for row in counts)
        lines.append("")
        lines.append(f"# {_meta_line(motif)}")
        lines.append("")
    _write_text(path, "\n".join(lines) + "\n")


def write_jaspar(path: PathLike, motifs: Sequence[Motif]) -> None:
    """Write motifs in JASPAR format, whole counts as JASPAR's own, atomically.

    Each motif is a header line ``>name<TAB>name`` and a row of counts per
    letter, ``A  [     4     19 ... ]``; every column sums to the number of
    sites: the motif's `Motif.n_sites` if it was found from sites (its own
    counts, exactly), else `JASPAR_NSITES`. Position, spread and importance
    are not stored (JASPAR has no place for them).

    Parameters
    ----------
    path : str or path-like
        Output file, conventionally ``*.jaspar``; replaced only once the whole
        new file is written.
    motifs : sequence of Motif
        Motifs with distinct names without whitespace.

    Raises
    ------
    InputError
        For bad names or a missing output directory.

    Notes
    -----
    A column of probabilities ``p`` becomes the counts ``n p_a`` rounded by
    largest remainder: each rounded down or up, summing to ``n`` exactly, so
    a PWM read back is within ``1 / n`` of the one written.

    Examples
    --------
    >>> import os, tempfile
    >>> motif = Motif(np.eye(4)[[2, 0]], position=5.0, spread=0.5, name="m1")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "motifs.jaspar")
    ...     write_jaspar(path, [motif])
    ...     print(open(path).read(), end="")  # doctest: +NORMALIZE_WHITESPACE
    >m1 m1
    A  [     0   1000 ]
    C  [     0      0 ]
    G  [  1000      0 ]
    T  [     0      0 ]
    """
    lines = []
    for motif in _check_motifs(motifs):
        n_sites = int(motif.n_sites) if motif.n_sites > 0 else JASPAR_NSITES
        counts = _quantize(motif.pwm, n_sites)
        lines.append(f">{motif.name}\t{motif.name}")
        lines.extend(
            f"{letter}  [{' '.join(f'{c:6d}' for c in column)} ]"
            for letter, column in zip(ALPHABET, counts.T, strict=True)
        )
    _write_text(path, "".join(line + "\n" for line in lines))


def write_transfac(path: PathLike, motifs: Sequence[Motif]) -> None:
    """Write motifs in TRANSFAC format (counts per `COUNT_SCALE` sites), atomically.

    Uses `Bio.motifs.write` with ``"transfac"``: the motif name is the ``ID``
    line, position, spread, importance and residual a ``CC`` line.

    Parameters
    ----------
    path, motifs
        As in `write_jaspar` (the file conventionally ``*.transfac``), which
        also raises the same errors.
    """
    from Bio import motifs as bio_motifs
    from Bio.motifs import transfac

    # counts to 4 decimals: no exponent notation in Biopython's %.20g output
    quantum = COUNT_SCALE * 10_000
    bio = []
    for motif in _check_motifs(motifs):
        plain = _rounded(motif, quantum).to_biopython()
        record = transfac.Motif(alphabet=plain.alphabet, counts=plain.counts)
        record.update({"ID": motif.name, "CC": [_meta_line(motif)]})
        bio.append(record)
    _write_text(path, bio_motifs.write(bio, "transfac"))


def write_motifs(
    path: PathLike, motifs: Sequence[Motif], format: str | None = None
) -> None:
    """Write motifs in the format named, or chosen by the file suffix.

    Parameters
    ----------
    path : str or path-like
        Output file; ``.meme``, ``.jaspar`` or ``.transfac`` (any case) select
        the format when ``format`` is None.
    motifs : sequence of Motif
        Motifs with distinct names without whitespace.
    format : {"meme", "jaspar", "transfac"}, optional
        The format; default from the suffix.

    Raises
    ------
    InputError
        For an unknown format or suffix, and as the writers do.

    See Also
    --------
    write_meme, write_jaspar, write_transfac, read_motifs
    """
    fmt = _resolve_format(path, format)
    writer = {"meme": write_meme, "jaspar": write_jaspar, "transfac": write_transfac}
    writer[fmt](path, motifs)


def write_sites(
    path: PathLike,
    motifs: Sequence[Motif],
    ids: Sequence[str],
    labels: ArrayLike | None = None,
    *,
    targets: ArrayLike | None = None,
) -> None:
    """Write ``sites.tsv``: one row per site, by motif and then sequence.

    Columns: sequence id, label (or target), motif, 1-based start, strand
    (``-``: the site reads as the motif's reverse complement; its start is
    still the leftmost position), log-odds score in bits. Written atomically.

    Parameters
    ----------
    path : str or path-like
        Output file, conventionally ``sites.tsv``.
    motifs : sequence of Motif
        Motifs from `poimkit.extract_motifs` with sequences (they carry sites).
    ids : sequence of str
        Record id of each sequence (row) the motifs were found in.
    labels : array-like of shape (n,)
        Their labels (1 positive, 0 negative).
    targets : array-like of float, shape (n,), optional
        Their continuous targets instead of labels (a ``target`` column).
    """
    if (labels is None) == (targets is None):
        raise InputError("give labels or targets (one of them)")
    values = (
        [int(v) for v in np.asarray(labels)]
        if targets is None
        else [float(v) for v in np.asarray(targets, dtype=np.float64)]
    )
    motifs = _check_motifs(motifs)
    if any(m.sites is None for m in motifs):
        raise InputError("sites need motifs found from sequences (with sites)")
    rows = [
        (
            ids[r],
            values[r],
            m.name,
            int(start) + 1,
            "+" if strand > 0 else "-",
            round(float(score), 3),
        )
        for m in motifs
        for r, start, strand, score in zip(
            m.sites.rows, m.sites.starts, m.sites.strands, m.sites.scores, strict=True
        )
    ]
    column = "label" if targets is None else "target"
    write_table(path, ["sequence", column, "motif", "start", "strand", "score"], rows)


# --------------------------------------------------------------------------- #
# reading
# --------------------------------------------------------------------------- #


def read_motifs(path: PathLike, format: str | None = None) -> list[Motif]:
    """Read the motifs of a MEME, JASPAR or TRANSFAC file with Biopython.

    Parameters
    ----------
    path : str or path-like
        The motif file.
    format : {"meme", "jaspar", "transfac"}, optional
        Default: from the suffix (``.meme``, ``.jaspar``, ``.transfac``). MEME
        files are read with Biopython's ``"minimal"`` parser, which also reads
        MEME's text output.

    Returns
    -------
    list of Motif
        In file order. ``name`` is the motif's identifier in the file (MEME:
        the first word after ``MOTIF``; JASPAR: the first word after ``>``;
        TRANSFAC: ``ID``, else ``AC``, else ``NA``). ``position``, ``spread``,
        ``importance`` and ``residual`` come from the ``poimkit`` line poimkit
        writes (MEME, TRANSFAC) and are NaN when the file does not hold them.

    Raises
    ------
    InputError
        Naming the file (and motif), if it is missing, not text, not in the
        format, or holds a matrix that is not a count or probability matrix.

    Examples
    --------
    >>> import os, tempfile
    >>> tata = Motif(np.eye(4)[[3, 0, 3, 0]], position=30.0, spread=2.0, name="tata")
    >>> gata = Motif(np.eye(4)[[2, 0, 3, 0]], position=12.0, spread=0.5, name="gata")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "known.transfac")
    ...     write_motifs(path, [tata, gata])
    ...     back = read_motifs(path)
    >>> [(m.name, m.consensus, m.position, m.spread) for m in back]
    [('tata', 'TATA', 30.0, 2.0), ('gata', 'GATA', 12.0, 0.5)]
    """
    from Bio import motifs as bio_motifs

    fmt = _resolve_format(path, format)
    name = os.fspath(path)
    label = fmt.upper()
    try:
        with open(name, encoding="utf-8") as handle:
            records = list(bio_motifs.parse(handle, _BIOPYTHON_NAME[fmt]))
        text = Path(name).read_text(encoding="utf-8") if fmt == "meme" else ""
    except FileNotFoundError:
        raise InputError("motif file not found", path=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a motif file", path=name) from None
    except UnicodeDecodeError:
        raise InputError(
            f"not a text file, so not a {label} motif file", path=name
        ) from None
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", path=name) from None
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        raise InputError(
            f"not a readable {label} motif file ({type(exc).__name__}: {exc}); "
            "check the file or give the right format",
            path=name,
        ) from None

    metas = _meme_meta(text, name) if fmt == "meme" else []
    out = []
    for k, record in enumerate(records):
        motif_name = _bio_name(record, fmt) or f"motif_{k + 1}"
        meta = None
        if fmt == "transfac":
            meta = _transfac_meta(record, name, motif_name)
        elif k < len(metas) and metas[k][0] == motif_name:
            meta = metas[k][1]
        out.append(to_motif(record, motif_name, meta or {}, name))
    return out


# --------------------------------------------------------------------------- #
# helpers
# --------------------------------------------------------------------------- #


def _write_text(path: PathLike, text: str) -> None:
    with (
        atomic_path(path) as tmp,
        open(tmp, "w", encoding="utf-8", newline="\n") as handle,
    ):
        handle.write(text)


def _resolve_format(path: PathLike, format: str | None) -> str:
    if format is not None:
        fmt = str(format).lower()
        if fmt not in FORMATS:
            raise InputError(
                f"unknown motif format {format!r}; choose one of {', '.join(FORMATS)}"
            )
        return fmt
    suffix = Path(os.fspath(path)).suffix.lower()
    for fmt, known in FORMATS.items():
        if suffix == known:
            return fmt
    raise InputError(
        f"cannot tell the motif format from the suffix {suffix or '(none)'!r}; "
        f"use {', '.join(FORMATS.values())} or give format= one of "
        f"{', '.join(FORMATS)}",
        path=os.fspath(path),
    )


def _check_motifs(motifs: Iterable[Motif]) -> list[Motif]:
    if isinstance(motifs, Motif):
        raise TypeError("motifs must be a sequence of Motif; wrap one motif: [motif]")
    motifs = list(motifs)
    seen: set[str] = set()
    for k, motif in enumerate(motifs):
        if not isinstance(motif, Motif):
            raise TypeError(
                f"motifs[{k}] is a {type(motif).__name__}, not a poimkit Motif"
            )
        name = motif.name
        if not isinstance(name, str) or name.split() != [name]:
            raise InputError(
                f"motif name {name!r} (motifs[{k}]) is empty or holds whitespace; "
                "motif files need one word per name"
            )
        if name in seen:
            raise InputError(
                f"motif name {name!r} occurs twice; motif files need unique names"
            )
        seen.add(name)
    return motifs


def _check_background(background) -> np.ndarray:
    if background is None:
        return np.full(4, 0.25)
    bg = np.asarray(background, dtype=np.float64)
    if bg.shape != (4,):
        raise InputError(
            f"background has shape {bg.shape} but must have shape (4,) "
            "(frequencies of A, C, G, T)"
        )
    if not np.isfinite(bg).all() or (bg < 0).any() or abs(bg.sum() - 1.0) > 1e-6:
        raise InputError(
            f"background must hold 4 non-negative frequencies summing to 1, "
            f"got {bg.tolist()}"
        )
    return bg


def _quantize(pwm: np.ndarray, total: int) -> np.ndarray:
    """Integer counts, each row summing to ``total``, nearest to ``pwm * total``.

    Rounds to nearest, then moves the (at most 2) units a row is off onto the
    entries whose rounding went furthest the other way, so no count is off by
    more than 0.75 from ``pwm * total``.
    """
    scaled = pwm / pwm.sum(axis=1, keepdims=True) * total
    counts = np.rint(scaled)
    remainder = scaled - counts
    for row in np.flatnonzero(counts.sum(axis=1) != total):
        off = int(total - counts[row].sum())
        if off > 0:
            take = np.argsort(-remainder[row], kind="stable")[:off]
            counts[row, take] += 1
        else:
            take = np.argsort(remainder[row], kind="stable")[:-off]
            counts[row, take] -= 1
    return counts.astype(np.int64)


def _rounded(motif: Motif, quantum: int) -> Motif:
    """The motif with its PWM rounded to multiples of ``1 / quantum`` (`_quantize`)."""
    return dataclasses.replace(motif, pwm=_quantize(motif.pwm, quantum) / quantum)


def _site_count(motif: Motif) -> int:
    """``motif.n_sites`` if its PWM is counts over that many sites, else 0.

    Biopython reads MEME probabilities back as ``round(p * nsites)`` counts,
    so a real ``nsites`` is written only where that is exact.
    """
    n = int(motif.n_sites)
    if n <= 0:
        return 0
    scaled = motif.pwm * n
    return n if np.allclose(scaled, np.rint(scaled), rtol=0, atol=1e-6) else 0


def _fraction(count: int, total: int) -> str:
    """``count / total`` as an exact decimal, ``total`` a power of 10."""
    digits = len(str(total)) - 1
    whole, part = divmod(int(count), total)
    return f"{whole}.{part:0{digits}d}"


def _meta_line(motif: Motif) -> str:
    # a continuous target's evidence only where there is one: classification
    # files stay as they were
    keys = _META_KEYS + tuple(
        key for key in _TARGET_KEYS if not math.isnan(getattr(motif, key))
    )
    values = " ".join(f"{key}={float(getattr(motif, key))!r}" for key in keys)
    return f"{_META_TAG} {values}"


def _parse_meta(text: str, path: str, record: str) -> dict[str, float]:
    """Parse ``poimkit key=value ...`` (the tag already checked)."""
    meta = {}
    for field in text.split()[1:]:
        key, sep, value = field.partition("=")
        if key not in _META_KEYS + _TARGET_KEYS:
            continue
        try:
            if not sep:
                raise ValueError
            meta[key] = float(value)
        except ValueError:
            raise InputError(
                f"cannot read {field!r} on the {_META_TAG} line as key=number",
                path=path,
                record=record,
            ) from None
    return meta


def _is_meta(text: str) -> bool:
    words = text.split()
    return bool(words) and words[0] == _META_TAG


def _meme_meta(text: str, path: str) -> list[tuple[str, dict[str, float] | None]]:
    """(name, values of the ``# poimkit`` line) of each MOTIF block, in order."""
    metas: list[tuple[str, dict[str, float] | None]] = []
    for line in text.splitlines():
        if line.startswith("MOTIF"):
            words = line.split()
            metas.append((words[1] if len(words) > 1 else "", None))
        elif metas and line.startswith("#") and _is_meta(line[1:]):
            current = metas[-1][0]
            metas[-1] = (current, _parse_meta(line[1:], path, current))
    return metas


def _transfac_meta(record, path: str, name: str) -> dict[str, float] | None:
    for comment in record.get("CC", []):
        if _is_meta(comment):
            return _parse_meta(comment, path, name)
    return None


def _bio_name(record, fmt: str) -> str | None:
    if fmt == "jaspar":
        return record.matrix_id or record.name
    if fmt == "transfac":
        for key in ("ID", "AC", "NA"):
            value = record.get(key)
            if value:
                return str(value).split()[0]
        return None
    return record.name


def to_motif(record: Any, name: str, meta: dict[str, float], path: str) -> Motif:
    """A `Motif` from a Bio.motifs record's counts, checked.

    Parameters
    ----------
    record : Bio.motifs.Motif
        The record read by Biopython.
    name : str
        Its name (for the motif and the error message).
    meta : dict
        Evidence read beside the matrix (``n_sites``, ``q_value``, ...).
    path : str
        The file, for the error message.

    Returns
    -------
    Motif
    """
    counts = np.array([record.counts[a] for a in ALPHABET], dtype=np.float64).T
    if counts.ndim != 2 or counts.shape[0] == 0:
        raise InputError("motif has no columns", path=path, record=name)
    totals = counts.sum(axis=1)
    wrong = ~np.isfinite(counts).all(axis=1) | (counts < 0).any(axis=1) | ~(totals > 0)
    if wrong.any():
        bad = int(np.flatnonzero(wrong)[0]) + 1
        raise InputError(
            f"column {bad} of the matrix is not a count or probability column "
            f"(values {counts[bad - 1].tolist()})",
            path=path,
            record=name,
        )
    nan = math.nan
    return Motif(
        pwm=counts / totals[:, None],
        position=meta.get("position", nan),
        spread=meta.get("spread", nan),
        importance=meta.get("importance", nan),
        residual=meta.get("residual", nan),
        name=name,
        n_sites=int(meta.get("n_sites", 0)),
        frac_positive=meta.get("frac_positive", nan),
        frac_negative=meta.get("frac_negative", nan),
        p_value=meta.get("p_value", nan),
        q_value=meta.get("q_value", nan),
        e_value=meta.get("e_value", nan),
        effect=meta.get("effect", nan),
        median_shift=meta.get("median_shift", nan),
    )
