"""poimkit: explainable weighted-degree string-kernel classifiers for DNA."""

from ._version import __version__
from .alphabet import decode, encode, kmer_index, kmer_string, reverse_complement
from .errors import InputError

__all__ = [
    "InputError",
    "__version__",
    "decode",
    "encode",
    "kmer_index",
    "kmer_string",
    "reverse_complement",
]
