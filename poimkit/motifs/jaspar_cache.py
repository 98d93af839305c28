"""JASPAR collections kept in poimkit's cache after pyjaspar's first read.

pyjaspar reads a collection from its SQLite file one query per matrix: the
1,019 vertebrate CORE motifs take 3-10 s, more than ``poimkit scan`` needs to
scan a few hundred peaks with them. `cached_collection` reads a collection
once and keeps its motifs (names, site counts and PWMs, exactly) in
``$XDG_CACHE_HOME/poimkit/jaspar`` (``~/.cache`` by default), one ``.npz``
file per collection named for pyjaspar's version, the release, the group and
the collection; later reads take milliseconds. A cache that cannot be
written or read is left alone and pyjaspar is asked instead.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .._cache import user_cache
from .motif import Motif


def cache_file(key: str) -> Path:
    """Where the collection of ``key`` is cached.

    Parameters
    ----------
    key : str
        pyjaspar's version, the release, the group and the collection.

    Returns
    -------
    pathlib.Path
    """
    digest = hashlib.sha1(key.encode()).hexdigest()[:16]
    return user_cache("jaspar") / f"{digest}.npz"


def cached_collection(key: str, fetch: Callable[[], list[Motif]]) -> list[Motif]:
    """The motifs of ``key`` from the cache, or ``fetch()``-ed and then cached.

    Parameters
    ----------
    key : str
        Names the collection (see `cache_file`).
    fetch : callable
        Reads the collection from pyjaspar.

    Returns
    -------
    list of Motif
    """
    path = cache_file(key)
    motifs = _read(path, key)
    if motifs is not None:
        return motifs
    motifs = fetch()
    _write(path, key, motifs)
    return motifs


def _read(path: Path, key: str) -> list[Motif] | None:
    try:
        with np.load(path, allow_pickle=False) as f:
            if str(f["key"]) != key:  # a digest shared by two keys
                return None
            # each f[...] reads and decompresses the array anew: once each
            starts, pwms, names, n_sites = (
                f[name] for name in ("starts", "pwms", "names", "n_sites")
            )
        return [
            Motif(
                pwms[starts[i] : starts[i + 1]],
                float("nan"),
                float("nan"),
                name=str(names[i]),
                n_sites=int(n_sites[i]),
            )
            for i in range(starts.size - 1)
        ]
    except (OSError, KeyError, ValueError):
        return None


def _write(path: Path, key: str, motifs: list[Motif]) -> None:
    """Stage then rename, so that no reader sees half a file; failures pass."""
    if not motifs:
        return
    staged = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, staged = tempfile.mkstemp(dir=path.parent, suffix=".npz")
        with os.fdopen(handle, "wb") as out:
            np.savez(
                out,
                key=np.array(key),
                names=np.array([m.name for m in motifs]),
                n_sites=np.array([m.n_sites for m in motifs], dtype=np.int64),
                starts=np.r_[0, np.cumsum([m.length for m in motifs])].astype(np.int64),
                pwms=np.vstack([m.pwm for m in motifs]),
            )
        os.replace(staged, path)
    except OSError:
        if staged is not None and os.path.exists(staged):
            os.unlink(staged)  # our own staged file
