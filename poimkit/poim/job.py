"""The library job of ``poimkit poim``: a model's POIMs, and their files.

`background_from_spec` turns the command's background (``uniform`` or
``fit:FASTA``) into a `MarkovBackground` for the model; `write_model_poim`
computes the POIMs (`model_poim`: exact, or sampled where none exist) and
writes the ``.npz`` and the top k-mers' table together, or neither.
"""

from __future__ import annotations

import os
from typing import Any

from ..background import MarkovBackground
from ..errors import InputError
from .compute import model_poim
from .result import Poim

__all__ = ["background_from_spec", "write_model_poim"]


def background_from_spec(
    spec: str,
    length: int,
    position_free: bool = False,
    *,
    markov_order: int = 0,
    positional: bool = False,
    pseudocount: float = 1.0,
    read_options: dict | None = None,
) -> MarkovBackground:
    """The POIM background a spec names: ``uniform``, or fitted to ``fit:FASTA``.

    Parameters
    ----------
    spec : str
        ``"uniform"`` or ``"fit:PATH"`` (a FASTA file of background records).
    length : int
        The model's record length.
    position_free : bool, default=False
        The model scores records of any length: a pooled fit at ``length``
        (`MarkovBackground.fit_pooled`), from records of any lengths.
    markov_order : int, default=0
        The fitted chain's order.
    positional : bool, default=False
        A position-dependent chain (records of the model's length).
    pseudocount : float, default=1.0
        Added to every count of the fit.
    read_options : dict, optional
        `poimkit.io.read_fasta`'s keywords (``on_invalid``, ``crop_length``,
        ``drop_short``).

    Returns
    -------
    MarkovBackground

    Raises
    ------
    InputError
        For another spec, fit options with ``uniform``, ``positional`` for a
        position-free model, or records of another length.
    """
    from ..io import read_fasta

    if spec == "uniform":
        if markov_order or positional:
            raise InputError(
                "--markov-order and --positional apply to --background fit:FASTA"
            )
        return MarkovBackground.uniform(length)
    if not spec.startswith("fit:"):
        raise InputError(f"--background must be 'uniform' or 'fit:FASTA', got {spec!r}")
    path = spec[len("fit:") :]
    _ids, X = read_fasta(path, any_length=position_free, **(read_options or {}))
    if position_free:
        if positional:
            raise InputError(
                "--positional does not apply to a position-free (gkm) model"
            )
        return MarkovBackground.fit_pooled(
            X, markov_order, length, pseudocount=pseudocount
        )
    if X.shape[1] != length:
        raise InputError(
            f"background sequences have length {X.shape[1]} but the model scores "
            f"length {length} (use --crop {length})",
            path=path,
        )
    return MarkovBackground.fit(
        X, order=markov_order, positional=positional, pseudocount=pseudocount
    )


def write_model_poim(
    model: Any,
    out: str | os.PathLike,
    max_order: int,
    background: MarkovBackground,
    *,
    top_tsv: str | os.PathLike | None = None,
    top: int = 20,
    **compute: Any,
) -> Poim:
    """Compute ``model``'s POIMs and write them (and their top k-mers) together.

    Parameters
    ----------
    model : object
        A fitted model (`poimkit.load_model` opens any).
    out : str or path-like
        The POIMs' ``.npz`` (`Poim.save`).
    max_order : int
        Largest k-mer length.
    background : MarkovBackground
        The background (`background_from_spec`).
    top_tsv : str or path-like, optional
        Also write the ``top`` strongest entries there (`Poim.write_top`).
    top : int, default=20
        Entries of ``top_tsv``.
    **compute
        `model_poim`'s other keywords (``samples``, ``seed``,
        ``memory_limit_gb``, ``threads``, ``progress``, ``windows``,
        ``estimator``).

    Returns
    -------
    Poim
        The POIMs written.
    """
    from ..io import commit_together
    from ..io.outdir import check_writable

    check_writable(out, top_tsv)  # before the work
    poim = model_poim(model, max_order, background, **compute)
    with commit_together():  # both files appear, or neither
        poim.save(out)
        if top_tsv:
            poim.write_top(top_tsv, n=top)
    return poim
