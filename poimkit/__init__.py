"""poimkit: explainable string-kernel classifiers for DNA (WD, WDS, gapped k-mer).

The public names below are imported on first use (PEP 562), so ``import
poimkit`` and the ``poimkit`` command start without loading numba,
scikit-learn or Biopython until they are needed.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from ._version import __version__
from .errors import InputError

#: public name -> the submodule that defines it
_LAZY = {
    "decode": "alphabet",
    "encode": "alphabet",
    "kmer_index": "alphabet",
    "kmer_string": "alphabet",
    "reverse_complement": "alphabet",
    "MarkovBackground": "background",
    "GkmSVC": "gkm",
    "gkm_kernel": "gkm",
    "read_fasta": "io",
    "read_labeled": "io",
    "wd_kernel": "kernels",
    "WDLinearSVC": "linear",
    "load_model": "models",
    "Motif": "motifs",
    "extract_motifs": "motifs",
    "Poim": "poim",
    "compute_poim": "poim",
    "explain_instance": "poim",
    "WDKernelSVC": "svm",
    "KmerWeights": "weights",
}

__all__ = [
    "GkmSVC",
    "InputError",
    "KmerWeights",
    "MarkovBackground",
    "Motif",
    "Poim",
    "WDKernelSVC",
    "WDLinearSVC",
    "__version__",
    "compute_poim",
    "decode",
    "encode",
    "explain_instance",
    "extract_motifs",
    "gkm_kernel",
    "kmer_index",
    "kmer_string",
    "load_model",
    "read_fasta",
    "read_labeled",
    "reverse_complement",
    "wd_kernel",
]


def __getattr__(name: str):
    """Import a public name's module on first use (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'poimkit' has no attribute {name!r}")
    value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


if TYPE_CHECKING:  # for type checkers and editors: the eager imports
    from .alphabet import decode, encode, kmer_index, kmer_string, reverse_complement
    from .background import MarkovBackground
    from .gkm import GkmSVC, gkm_kernel
    from .io import read_fasta, read_labeled
    from .kernels import wd_kernel
    from .linear import WDLinearSVC
    from .models import load_model
    from .motifs import Motif, extract_motifs
    from .poim import Poim, compute_poim, explain_instance
    from .svm import WDKernelSVC
    from .weights import KmerWeights
