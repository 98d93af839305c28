"""poimkit: explainable string-kernel classifiers for DNA (WD, WDS, gapped k-mer).

The public names below are imported on first use (PEP 562), so ``import
poimkit`` and the ``poimkit`` command start without loading numba,
scikit-learn or Biopython until they are needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import lazy_exports
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
    "GkmSVC": "svm",
    "GkmSVR": "svm",
    "gkm_kernel": "kernels",
    "read_fasta": "io",
    "read_labeled": "io",
    "wd_kernel": "kernels",
    "WDLinearSVC": "svm",
    "WDLinearSVR": "svm",
    "load_model": "model_files",
    "Motif": "motifs",
    "extract_motifs": "motifs",
    "Poim": "poim",
    "compute_poim": "poim",
    "explain_instance": "poim",
    "WDKernelSVC": "svm",
    "WDKernelSVR": "svm",
    "KmerWeights": "kernels",
    "variant_effects": "variants",
    "letter_attributions": "explain",
    "RunOptions": "run",
    "PeakSource": "run",
    "TargetSource": "run",
    "explain_model": "run",
    "run_pipeline": "run",
    "run_regression": "run",
    "train_classifier": "run",
    "train_regression": "run",
    "score_records": "run",
    "model_poim": "poim",
    "score_variants": "variants",
    "run_batch": "batch",
}

__all__ = [
    "GkmSVC",
    "GkmSVR",
    "InputError",
    "KmerWeights",
    "MarkovBackground",
    "Motif",
    "PeakSource",
    "Poim",
    "RunOptions",
    "TargetSource",
    "WDKernelSVC",
    "WDKernelSVR",
    "WDLinearSVC",
    "WDLinearSVR",
    "__version__",
    "compute_poim",
    "decode",
    "encode",
    "explain_instance",
    "explain_model",
    "extract_motifs",
    "gkm_kernel",
    "kmer_index",
    "kmer_string",
    "letter_attributions",
    "load_model",
    "model_poim",
    "read_fasta",
    "read_labeled",
    "reverse_complement",
    "run_batch",
    "run_pipeline",
    "run_regression",
    "score_records",
    "score_variants",
    "train_classifier",
    "train_regression",
    "variant_effects",
    "wd_kernel",
]


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)


if TYPE_CHECKING:  # for type checkers and editors: the eager imports
    from .alphabet import decode, encode, kmer_index, kmer_string, reverse_complement
    from .background import MarkovBackground
    from .batch import run_batch
    from .io import read_fasta, read_labeled
    from .kernels.explicit import KmerWeights
    from .kernels.gkm import gkm_kernel
    from .kernels.wd import wd_kernel
    from .model_files import load_model
    from .motifs import Motif, extract_motifs
    from .poim import Poim, compute_poim, explain_instance, model_poim
    from .run import (
        PeakSource,
        RunOptions,
        TargetSource,
        explain_model,
        run_pipeline,
        run_regression,
        score_records,
        train_classifier,
        train_regression,
    )
    from .svm.gkm import GkmSVC, GkmSVR
    from .svm.linear import WDLinearSVC, WDLinearSVR
    from .svm.wd import WDKernelSVC, WDKernelSVR
    from .variants import score_variants, variant_effects
