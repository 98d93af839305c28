"""poimkit: explainable string-kernel classifiers for DNA (WD, WDS, gapped k-mer)."""

from ._version import __version__
from .alphabet import decode, encode, kmer_index, kmer_string, reverse_complement
from .background import MarkovBackground
from .errors import InputError
from .gkm import GkmSVC, gkm_kernel
from .io import read_fasta, read_labeled
from .kernels import wd_kernel
from .linear import WDLinearSVC
from .models import load_model
from .motifs import Motif, extract_motifs
from .poim import Poim, compute_poim, explain_instance
from .svm import WDKernelSVC
from .weights import KmerWeights

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
