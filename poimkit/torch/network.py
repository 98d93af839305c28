"""The CNN family's network: a dilated residual CNN that ignores padding.

`DilatedCNN` is a BPNet-like body (Avsec et al. 2021): a wide first
convolution, then residual convolutions of width 3 whose dilation doubles
layer by layer (receptive field ``width + 2 (2 + 4 + ... + 2**layers)``
letters), a global max pool and one linear output. Every activation is set
to zero where the input has no letter, and the pool reads only positions with
a letter, so a record scores the same alone or padded by any number of zero
columns on either side: records of different lengths share a batch without
their length (or their padding) becoming a feature. ``forward`` averages the
two strands; ``strand`` scores the one given (training uses it, with
reverse-complement augmentation).
"""

from __future__ import annotations

import torch
from torch import nn


class DilatedCNN(nn.Module):
    """A dilated residual CNN over one-hot DNA ``(N, 4, L)``; one logit per record.

    Parameters
    ----------
    filters : int, default 64
        Channels of every convolution.
    width : int, default 21
        Width of the first convolution (odd).
    layers : int, default 6
        Residual dilated layers (dilations 2, 4, ..., 2**layers).

    Examples
    --------
    >>> net = DilatedCNN(filters=4, width=5, layers=2)
    >>> x = torch.zeros(1, 4, 30)
    >>> x[0, 0, :20] = 1.0  # 20 letters A, then padding
    >>> bool(torch.allclose(net(x), net(x[:, :, :20]), atol=1e-6))
    True
    """

    def __init__(self, filters: int = 64, width: int = 21, layers: int = 6) -> None:
        super().__init__()
        self.stem = nn.Conv1d(4, filters, width, padding=width // 2)
        self.body = nn.ModuleList(
            nn.Conv1d(filters, filters, 3, padding=2**i, dilation=2**i)
            for i in range(1, layers + 1)
        )
        self.head = nn.Linear(filters, 1)
        # a module, not torch.relu: attribution tools (DeepLIFT/SHAP) hook modules
        self.relu = nn.ReLU()

    def strand(self, x: torch.Tensor) -> torch.Tensor:
        """The logit of each record as given (one strand), shape ``(N,)``.

        Parameters
        ----------
        x : torch.Tensor of shape (N, 4, L)
            One-hot records, zero columns where there is no letter.

        Returns
        -------
        torch.Tensor of shape (N,)
        """
        mask = (x.sum(dim=1, keepdim=True) > 0).to(x.dtype)
        h = self.relu(self.stem(x)) * mask
        for conv in self.body:
            h = h + self.relu(conv(h)) * mask
        pooled = h.masked_fill(mask == 0, float("-inf")).amax(dim=2)
        return self.head(pooled).squeeze(1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """The mean logit of both strands, shape ``(N,)``.

        Parameters
        ----------
        x : torch.Tensor of shape (N, 4, L)
            Records, as `strand` reads them.

        Returns
        -------
        torch.Tensor of shape (N,)
        """
        return 0.5 * (self.strand(x) + self.strand(x.flip((1, 2))))


def reverse_complement(x: torch.Tensor) -> torch.Tensor:
    """The other strand of one-hot DNA ``(N, 4, L)``, rows A, C, G, T.

    Parameters
    ----------
    x : torch.Tensor

    Returns
    -------
    torch.Tensor
    """
    return x.flip((1, 2))


def n_parameters(network: nn.Module) -> int:
    """The number of trainable parameters.

    Parameters
    ----------
    network : torch.nn.Module

    Returns
    -------
    int
    """
    return sum(p.numel() for p in network.parameters() if p.requires_grad)
