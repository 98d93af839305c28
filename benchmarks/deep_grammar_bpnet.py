"""A bpnet-lite BPNet on the planted grammar, read by poimkit as any torch model.

bpnet-lite's `BPNet` predicts a profile and a total count; here its count
head is trained as a classifier's logit (binary cross-entropy, both strands
averaged, reverse-complement augmentation and early stopping as poimkit's
`CNNClassifier` does: `poimkit.torch.training.train_network`). poimkit then
reads the trained network only through `poimkit.torch.as_scorer` with
``output=1``, the count head of its ``(profile, counts)`` output: the road of
any model trained elsewhere. Optional benchmark extra: ``pip install
bpnet-lite`` (no runtime dependency of poimkit).
"""

from __future__ import annotations

import time

import numpy as np
from deep_grammar_design import LENGTH


def networks(filters: int, layers: int):
    """(trained, heads, logits): three views of one BPNet.

    ``trained`` has ``strand`` and a both-strand logit for the training loop;
    ``heads`` returns BPNet's ``(profile, counts)`` with the counts averaged
    over strands (what `as_scorer` reads); ``logits`` returns ``(N,)`` for the
    peers.
    """
    import torch
    from bpnetlite import BPNet

    from poimkit.torch.network import reverse_complement

    bpnet = BPNet(
        n_filters=filters,
        n_layers=layers,
        n_outputs=1,
        n_control_tracks=0,
        trimming=0,
        verbose=False,
    )

    class Trained(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bpnet = bpnet

        def strand(self, x):
            return self.bpnet(x)[1][:, 0]

        def forward(self, x):
            return (self.strand(x) + self.strand(reverse_complement(x))) / 2

    class Heads(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bpnet = bpnet

        def forward(self, x):
            profile, counts = self.bpnet(x)
            counts_rc = self.bpnet(reverse_complement(x))[1]
            return profile, (counts + counts_rc) / 2

    heads = Heads()

    class Logits(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.heads = heads

        def forward(self, x):
            return self.heads(x)[1][:, 0]

    return Trained(), heads, Logits()


class BPNetModel:
    """What the benchmark reads of a model: scores, its network, its training log."""

    def __init__(self, heads, logits, log, params) -> None:
        from poimkit.torch import as_scorer

        self.scorer = as_scorer(heads, output=1, batch_size=512)
        self.network_ = logits  # (N,) logits, for tangermeme
        self.counted_ = heads  # every score goes through it
        self.log_ = log
        self.params = params

    def decision_function(self, X):
        return self.scorer.decision_function(X)

    @property
    def position_free(self) -> bool:
        return True

    @property
    def length_(self) -> int:
        return LENGTH

    def describe(self) -> str:
        return f"bpnet-lite BPNet, count head ({self.scorer.describe()})"

    def get_params(self) -> dict:
        return dict(self.params)


def train_bpnet(X, y, args, log) -> BPNetModel:
    """Train a BPNet's count head on the records as `CNNClassifier` trains its CNN."""
    import torch

    from poimkit.torch.cnn import CNNClassifier
    from poimkit.torch.training import held_out_rows, train_network

    torch.manual_seed(args.seed)
    trained, heads, logits = networks(args.bpnet_filters, args.bpnet_layers)
    defaults = CNNClassifier()
    rng = np.random.default_rng(args.seed)
    valid = held_out_rows(y, defaults.validation_fraction, rng)
    params = {
        "architecture": "bpnetlite.BPNet(n_outputs=1, n_control_tracks=0, "
        "trimming=0), count head as logit",
        "filters": args.bpnet_filters,
        "layers": args.bpnet_layers,
        "parameters": sum(p.numel() for p in trained.parameters()),
        "batch_size": defaults.batch_size,
        "learning_rate": defaults.learning_rate,
        "patience": args.patience,
        "epochs": args.epochs,
        "max_time": args.max_time,
        "validation_fraction": defaults.validation_fraction,
    }
    start = time.perf_counter()
    training = train_network(
        trained,
        list(X),
        y.astype(np.float64),
        valid,
        epochs=args.epochs,
        batch_size=defaults.batch_size,
        learning_rate=defaults.learning_rate,
        patience=args.patience,
        max_time=args.max_time,
        rng=rng,
        on_epoch=lambda e, t, v: log(f"epoch {e}: train {t:.4f} held-out {v:.4f}"),
    )
    log(f"BPNet trained in {time.perf_counter() - start:.0f} s")
    return BPNetModel(heads, logits, training, params)
