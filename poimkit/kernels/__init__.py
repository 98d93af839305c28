"""String kernels on integer-coded DNA and the explicit k-mer weights of their models.

Public: `wd_kernel`, `wd_diagonal`, `wd_normalizer` (`wd`: weighted degree,
with shifts, mismatches, both strands), `gkm_kernel` (`gkm`: gapped k-mers on
records of any lengths) and `KmerWeights` (`explicit`: the exact positional
k-mer weights of a WD / WDS model). The numba kernels behind them are the
private modules `_wd`, `_wds`, `_wdm`, `_gkm`, `_weights` and `_packing`.
"""

from .explicit import KmerWeights
from .gkm import gkm_kernel
from .wd import wd_diagonal, wd_kernel, wd_normalizer

__all__ = ["KmerWeights", "gkm_kernel", "wd_diagonal", "wd_kernel", "wd_normalizer"]
