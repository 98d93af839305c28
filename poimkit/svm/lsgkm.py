"""LS-GKM model files: read them as exact l-mer models, write `GkmSVC` models in them.

LS-GKM's ``gkmtrain`` (and gkmsvm-lite's ``save_lsgkm``) write a text file: a
header of ``key value`` lines (``kernel_type``, ``L``, ``k``, ``d``, ``rho``,
``total_sv``, ...), a line ``SV``, then one ``<coefficient> <sequence>`` line
per support sequence. The score of a sequence x is

    s(x) = sum_i c_i K(x, x_i) / sqrt(K(x, x) K(x_i, x_i)) - rho,

``K(x, y) = sum_{u in x} sum_{v in y, rc(y)} T[d(u, v)]`` over the l-mer
windows u of x and v of y and of its reverse complement (not the latter when
the header says ``norc 1``), ``d`` the number of letters where two l-mers
differ and T a table per kernel type:

- ``-t 0`` (gkm): ``T[m] = C(l - m, k)``, the gapped k-mers two l-mers share;
- ``-t 1`` / ``-t 2`` (estimated l-mer kernel, full / truncated filter):
  LS-GKM's table of expected l-mer matches (`mismatch_table`), zero above
  ``d`` mismatches.

All three are linear in l-mer counts: the model is one weight per l-mer,
``f[u] = sum_i c_i / sqrt(K(x_i, x_i)) sum_{v in x_i, rc(x_i)} T[d(u, v)]``
(4**l numbers, both strands folded in, computed by two Walsh-Hadamard
transforms), and ``s(x) = sum_{windows w} f[x_w] / sqrt(K(x, x)) - rho``.

Normalisation: LS-GKM divides by the test sequence's own ``sqrt(K(x, x))``,
which varies with x, so the score is NOT linear in the l-mer indicators.
Scores here are exact (LS-GKM's normalisation included); POIMs, motifs and
variant effects computed from `LsgkmModel.lmer_weights` are exact for the
un-normalised part ``sum_w f[x_w]`` only (DESIGN.md, "Normalisation").

`read_lsgkm` reads the RBF kernels (``-t 3``, ``-t 5``) and the
centre-weighted one (``-t 4``) too, as `poimkit.svm.lsgkm_rbf.LsgkmKernelModel`:
exact scores, sampled POIMs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..alphabet import ALPHABET, encode
from ..errors import InputError
from ..kernels import _gkm
from ..kernels.gkm import (
    strands,
)
from ..kernels.lsgkm import MAX_L, mismatch_table
from ..param_docs import LMER_TABLE, fill_doc
from .lsgkm_base import PARAMETERS, LsgkmBase

if TYPE_CHECKING:
    from .gkm import GkmSVC
    from .lsgkm_rbf import LsgkmKernelModel

__all__ = ["LsgkmModel", "mismatch_table", "read_lsgkm", "write_lsgkm"]

#: kernel types read, by LS-GKM's ``-t`` number
KERNEL_NAMES = {0: "gkm_cnt", 1: "gkm_estfull", 2: "gkm_esttrunc"}
#: the same, by the names in model files (gkmsvm-lite's and ``-t`` numbers)
_KERNEL_OF_NAME = {**{v: t for t, v in KERNEL_NAMES.items()}, "0": 0, "1": 1, "2": 2}


@fill_doc(PARAMETERS)
class LsgkmModel(LsgkmBase):
    """An LS-GKM model (kernel types 0, 1, 2) as exact l-mer weights.

    Parameters
    ----------
    %(lsgkm)s

    Attributes
    ----------
    intercept_ : float
        ``-rho``.
    classes_ : numpy.ndarray of shape (2,)
        ``(labels[1], labels[0])``: positive scores predict ``classes_[1]``.
    length_ : int
        The median support-sequence length: the default length of POIMs.
    position_free : bool
        True: scores do not depend on where a word occurs.
    per_sequence_normalisation : bool
        True: the score divides by the sequence's own ``sqrt(K(x, x))``, so
        ``lmer_weights(length)`` gives the linear part with a constant factor
        per length (POIMs explain that part, not the normalised score).
    """

    recorded_params = ("l", "k", "d", "kernel_type", "reverse_complement")

    KERNEL_NAMES = KERNEL_NAMES

    def _sequence_self_kernel(self, seqs: list[np.ndarray]) -> np.ndarray:
        return self._self_kernel(seqs)

    def _self_kernel(self, seqs: list[np.ndarray]) -> np.ndarray:
        codes, offsets, _ = strands(seqs, False)
        out = np.empty(len(seqs))
        _gkm.gkm_self_kernel(
            codes, offsets, self.l, self.reverse_complement, self.table, out
        )
        # both strands: the kernel gives 2 (sum_{x, x} + sum_{x, rc x}), LS-GKM
        # counts the pairs (u in x, v in x or rc x) once
        return out / 2.0 if self.reverse_complement else out

    def normalisation_constant(self, length: int) -> float:
        """``c_L``: the mean support self-kernel, rescaled to sequences of ``length``.

        ``c_L = mean_i K(x_i, x_i) (L - l + 1) / (|x_i| - l + 1)``: the mean
        diagonal of the support sequences when they all have length L (the
        usual fixed-length training set); ``sqrt(c_L)`` stands in for each
        sequence's own ``sqrt(K(x, x))`` in `lmer_weights` (DESIGN.md,
        "Normalisation").

        Parameters
        ----------
        length : int
            Sequence length, at least ``l``.

        Returns
        -------
        float
        """
        from .._validation import check_int

        length = check_int(length, "length", self.l)
        n_windows = np.array([x.size - self.l + 1.0 for x in self.support])
        diagonal = self._self_kernel(self.support)
        return float(np.mean(diagonal * (length - self.l + 1.0) / n_windows))

    def lmer_weights(self, length: int | None = None) -> np.ndarray:
        """Weight of every l-mer window, both strands folded in.

        Parameters
        ----------
        length : int, optional
            None: the un-normalised weights f (cached). A length L: ``f /
            sqrt(c_L)`` (`normalisation_constant`), the weights of the linear
            score ``sum_w f[x_w] / sqrt(c_L) + intercept_`` that POIMs of
            sequences of length L explain.

        Returns
        -------
        numpy.ndarray of float64, shape (4**l,)
            ``f`` with ``s(x) = sum_{windows w of x} f[x_w] / sqrt(K(x, x)) +
            intercept_`` (forward windows of x only; the reverse complement's
            are folded into f). Only the numerator is linear in the windows:
            POIMs from f explain the un-normalised part of the score.
        """
        if length is None:
            return self._lmer_table()
        return self._lmer_table() / np.sqrt(self.normalisation_constant(length))

    def lmer_table(self) -> np.ndarray:
        """The un-normalised l-mer table ``f`` (`poimkit.additive.LmerTable`)."""
        return self._lmer_table()

    @fill_doc(LMER_TABLE, parameters=("codes", "offsets"))
    def record_factors(self, codes: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """``1 / sqrt(K(x, x))`` of records ``codes[offsets[i]:offsets[i + 1]]``.

        %(parameters)s
        """
        seqs = [codes[offsets[i] : offsets[i + 1]] for i in range(offsets.size - 1)]
        return 1.0 / np.maximum(np.sqrt(self._self_kernel(seqs)), 1e-300)

    def _lmer_table(self) -> np.ndarray:
        """The un-normalised l-mer weights f (cached)."""
        if self._lmers is None:
            scale = np.sqrt(self._self_kernel(self.support))
            codes, offsets, _ = strands(self.support, False)
            f = np.zeros(4**self.l)
            _gkm.lmer_counts(
                codes,
                offsets,
                self.dual_coef_ / np.maximum(scale, 1e-300),
                self.l,
                self.reverse_complement,
                f,
            )
            self.fold_lmers(f)
        return self._lmers

    def _scores(self, seqs: list[np.ndarray]) -> np.ndarray:
        codes, offsets, _ = strands(seqs, False)
        rows = np.empty(len(seqs))
        _gkm.lmer_score_rows(codes, offsets, self.l, self._lmer_table(), rows)
        norm = np.sqrt(self._self_kernel(seqs))
        return rows / np.maximum(norm, 1e-300) + self.intercept_

    def __repr__(self) -> str:
        return (
            f"LsgkmModel(kernel_type={self.kernel_type}, l={self.l}, k={self.k}, "
            f"d={self.d}, n_SV={len(self.support)}, "
            f"reverse_complement={self.reverse_complement})"
        )


def _header_value(key: str, value: str, where: dict) -> object:
    """One header value, checked (``where``: the InputError's path and record)."""
    try:
        if key in ("L", "k", "d", "nr_class", "total_sv", "norc"):
            return int(value)
        if key in ("rho", "gamma", "H"):
            return float(value.split()[0])
        if key == "M":
            return int(value)
        if key in ("label", "nr_sv"):
            return tuple(int(v) for v in value.split())
    except (ValueError, IndexError):
        raise InputError(f"bad value {value!r} for {key!r}", **where) from None
    return value


def read_lsgkm(path: str | os.PathLike) -> LsgkmModel | LsgkmKernelModel:
    """Read an LS-GKM model file (plain or gzip) of any kernel type (0 to 5).

    Parameters
    ----------
    path : str or path-like
        A file written by LS-GKM's ``gkmtrain`` or gkmsvm-lite's ``save_lsgkm``.

    Returns
    -------
    LsgkmModel or LsgkmKernelModel
        `LsgkmModel` for types 0, 1, 2 (exact l-mer weights);
        `poimkit.svm.lsgkm_rbf.LsgkmKernelModel` for types 3, 4, 5 (exact
        scores; ``gamma``, ``M``, ``H`` from the header).

    Raises
    ------
    InputError
        Naming the file and line: a missing or bad header field, a bad
        support-sequence line, or a count of support sequences that differs
        from ``total_sv``.
    """
    from ..io.fasta import read_text

    name = os.fspath(path)
    lines = read_text(name).split("\n")
    header, sv_line = _read_header(lines, name)

    def need(key: str) -> object:
        if key not in header:
            raise InputError(f"the header has no {key!r} line", path=name)
        return header[key]

    from .lsgkm_rbf import KERNEL_OF_NAME, LsgkmKernelModel

    kind = str(need("kernel_type"))
    where = {"path": name, "record": f"line {header['kernel_type@']}"}
    if kind not in _KERNEL_OF_NAME and kind not in KERNEL_OF_NAME:
        raise InputError(f"unknown kernel_type {kind!r}", **where)
    if header.get("nr_class", 2) != 2:
        raise InputError("only two-class models (nr_class 2) are read", path=name)
    coef, support = _read_support(lines, sv_line, name)
    total = need("total_sv")
    if len(support) != total:
        raise InputError(
            f"total_sv says {total} support sequences, the file has {len(support)}",
            path=name,
        )
    if not support:
        raise InputError("the model has no support sequences", path=name)
    l = int(need("L"))
    try:
        if kind in KERNEL_OF_NAME:
            t = KERNEL_OF_NAME[kind]
            return LsgkmKernelModel(
                t,
                l,
                int(need("k")),
                int(header.get("d", 3)),
                [encode([s])[0] for s in support],
                coef,
                float(need("rho")),
                gamma=float(need("gamma")) if t != 4 else 1.0,
                M=int(need("M")) if t != 3 else 50,
                H=float(need("H")) if t != 3 else 50.0,
                reverse_complement=header.get("norc", 0) == 0,
                labels=header.get("label", (1, -1)),
                source=name,
            )
        return LsgkmModel(
            _KERNEL_OF_NAME[kind],
            l,
            int(need("k")),
            int(header.get("d", 3)),
            [encode([s])[0] for s in support],
            coef,
            float(need("rho")),
            reverse_complement=header.get("norc", 0) == 0,
            labels=header.get("label", (1, -1)),
        )
    except InputError as exc:
        raise InputError(exc.reason, path=name) from None


def _read_header(lines: list[str], name: str) -> tuple[dict, int]:
    """The header's values (``key@``: each key's line) and the ``SV`` line."""
    header: dict[str, object] = {}
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        if line == "SV":
            return header, number
        key, _, value = line.partition(" ")
        where = {"path": name, "record": f"line {number}"}
        header[key] = _header_value(key, value.strip(), where)
        header[key + "@"] = number
    raise InputError("no 'SV' line: not an LS-GKM model file", path=name)


def _read_support(lines: list[str], sv_line: int, name: str) -> tuple[list, list]:
    """The coefficients and support sequences after the ``SV`` line, checked."""
    coef, support = [], []
    for number in range(sv_line + 1, len(lines) + 1):
        line = lines[number - 1].strip()
        if not line:
            continue
        where = {"path": name, "record": f"line {number}"}
        parts = line.split()
        try:
            value = float(parts[0])
        except ValueError:
            value = np.nan
        if len(parts) != 2 or not np.isfinite(value):
            raise InputError(
                "a support-sequence line must be '<coefficient> <sequence>'", **where
            )
        seq = parts[1].upper()
        bad = next((i for i, c in enumerate(seq) if c not in ALPHABET), None)
        if bad is not None:
            raise InputError(
                f"letter {parts[1][bad]!r} at position {bad + 1} is not one of "
                "A, C, G, T",
                **where,
            )
        coef.append(value)
        support.append(seq)
    return coef, support


def write_lsgkm(model: GkmSVC, path: str | os.PathLike) -> None:
    """Write a fitted `GkmSVC` as an LS-GKM ``-t 0`` model file.

    The file holds the model's support sequences; ``gkmpredict``, gkmsvm-lite
    and `read_lsgkm` score it with LS-GKM's per-sequence normalisation, so its
    score of x is

        s_LS(x) = b + (s(x) - b) * a(x) / sqrt(K(x, x)),

    with ``s`` and ``b`` the GkmSVC's score and intercept, ``a(x)`` its
    normalisation (``sqrt(kappa W(x))``, or 1 if not normalised) and ``K`` its
    kernel. With ``normalize=True`` the factor is 1 on average over the
    training sequences (kappa is their mean ``K(x, x) / W(x)``); the sign and
    the support sequences' share of every score are the GkmSVC's. Positive
    scores predict ``classes_[1]`` (written as label 1).

    Parameters
    ----------
    model : GkmSVC
        A fitted gapped k-mer SVM with ``l <= 12``.
    path : str or path-like
        The file to write (replaced atomically).
    """
    from sklearn.utils.validation import check_is_fitted

    from ..io import atomic_path
    from ..kernels.gkm import self_kernel, windows

    check_is_fitted(model)
    if model.l > MAX_L:
        raise InputError(f"LS-GKM reads l <= {MAX_L}, the model has l = {model.l}")
    seqs = model.support_sequences()
    rc = bool(model.reverse_complement)
    # poimkit's kernel K' counts both strands of both sequences: K' = 2 K_LS
    # with rc. c_i / sqrt(K_LS(x_i, x_i)) K_LS(x, x_i) / sqrt(K_LS(x, x)) must be
    # a_i K'(x, x_i) / a(x_i) / sqrt(K'(x, x)): c_i = a_i sqrt(K'(x_i, x_i)) / a(x_i)
    diagonal = self_kernel(seqs, model.l, model.k, rc)
    coef = model.dual_coef_ * np.sqrt(diagonal) / model._scale(windows(seqs, model.l))
    lines = [
        "svm_type c_svc",
        "kernel_type gkm_cnt",
        f"L {model.l}",
        f"k {model.k}",
        f"norc {0 if rc else 1}",
        "nr_class 2",
        f"total_sv {len(seqs)}",
        f"rho {-model.intercept_!r}",
        "label 1 -1",
        f"nr_sv {(coef > 0).sum()} {(coef <= 0).sum()}",
        "SV",
    ]
    lines += [
        f"{c!r} {''.join(ALPHABET[v] for v in x)}"
        for c, x in zip(coef.tolist(), seqs, strict=True)
    ]
    with atomic_path(Path(path)) as tmp, open(tmp, "w") as handle:
        handle.write("\n".join(lines) + "\n")
