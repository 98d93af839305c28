"""What a benchmark's JSON records besides its figures, and shared reads of inputs.

`machine` and `versions` describe where a run happened; `jsonable` turns numpy
scalars into Python numbers (non-finite floats into null) so that the document
is valid JSON. `genome_windows` reads fixed-width windows of a genome and
`one_hot` writes records as the attribution tools take them; `close` judges a
found motif against a planted one.
"""

from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path

import numba
import numpy as np

#: the packages every benchmark reports, besides its peers
CORE_PACKAGES = ("poimkit", "numpy", "numba", "scikit-learn")


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = None
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        ram = round(pages * size / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    try:
        layer = numba.threading_layer()
    except ValueError:
        layer = "not initialised"
    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "ram_gib": ram,
        "numba_threads": numba.get_num_threads(),
        "numba_threading_layer": layer,
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


def versions(*peers: str) -> dict:
    """Python's version and those of `CORE_PACKAGES` and ``peers`` (None: absent)."""
    out = {"python": platform.python_version()}
    for name in (*CORE_PACKAGES, *peers):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def jsonable(x):
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [jsonable(v) for v in x]
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not np.isfinite(x):
        return None
    return x


def genome_windows(
    genome_path: str | os.PathLike, regions: list[tuple[str, int]], width: int
) -> tuple[np.ndarray, np.ndarray]:
    """Codes of ``width`` letters from each ``(chrom, start)``, and which are whole.

    A window running past a chromosome's start or end is filled with 4 (N);
    ``whole`` marks the windows of ``width`` letters without N.
    """
    from poimkit.genome.reference import open_genome

    X = np.full((len(regions), width), 4, dtype=np.uint8)
    with open_genome(genome_path, quiet=True) as genome:
        sizes = genome.lengths
        for row, (chrom, start) in zip(X, regions, strict=True):
            if 0 <= start and start + width <= sizes[chrom]:
                row[:] = genome.codes(chrom, start, start + width)
    return X, (X < 4).all(axis=1)


def one_hot(X: np.ndarray) -> np.ndarray:
    """Records (n, L) of codes 0-3 as one-hot float32 (n, 4, L)."""
    out = np.zeros((X.shape[0], 4, X.shape[1]), dtype=np.float32)
    out[np.arange(X.shape[0])[:, None], X, np.arange(X.shape[1])[None, :]] = 1
    return out


def close(found: str, truth: str) -> int:
    """Mismatches of truth against found at the best offset, either strand.

    Letters of truth outside found count as mismatches.
    """
    rc = truth.translate(str.maketrans("ACGT", "TGCA"))[::-1]
    best = len(truth)
    for t in (truth, rc):
        for off in range(-len(t) + 1, len(found)):
            covered = sum(
                found[off + i] == t[i]
                for i in range(len(t))
                if 0 <= off + i < len(found)
            )
            best = min(best, len(t) - covered)
    return best
