"""Deep models beside the kernels: any PyTorch module as a scorer, and a CNN family.

* `as_scorer` wraps a ``torch.nn.Module`` that reads one-hot DNA of shape
  ``(N, 4, L)`` (letters A, C, G, T in that order, the convention of
  tangermeme and bpnet-lite) as a poimkit model that only scores
  (``score_only``): sampled POIMs, motifs, in-silico mutagenesis, motif
  interactions and variant effects then take it as they take any model.
  `load_scorer` does the same for a TorchScript file (``torch.jit.save``).
* `DilatedCNN` is the network of the CNN family and `CNNClassifier` its
  scikit-learn estimator (``poimkit train --kernel cnn``), saved without
  pickle in an ``.npz`` file.

This package needs the ``torch`` extra (``pip install torch``);
nothing else in poimkit imports torch.
"""

from __future__ import annotations

from .._extras import require_torch

require_torch()

from .cnn import CNNClassifier  # noqa: E402
from .network import DilatedCNN  # noqa: E402
from .scorer import TorchScorer, as_scorer, load_scorer, one_hot  # noqa: E402

__all__ = [
    "CNNClassifier",
    "DilatedCNN",
    "TorchScorer",
    "as_scorer",
    "load_scorer",
    "one_hot",
]
