"""Training the CNN family: mini-batches, reverse-complement augmentation, early stop.

`train_network` fits a network whose ``strand(x)`` gives one logit per
record (`poimkit.torch.network.DilatedCNN`) by Adam on the logistic loss.
Every batch is padded to its longest record (the network ignores padding)
and half of its records, drawn anew each time, are read on the other strand.
After each epoch the loss on the held-out records (both strands averaged, as
at prediction) decides: training stops when it has not improved for
``patience`` epochs, at ``epochs``, or past ``max_time`` seconds, and the
network keeps the weights of its best epoch.
"""

from __future__ import annotations

import contextlib
import copy
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import torch

from .network import reverse_complement
from .scorer import one_hot


@dataclass
class TrainingLog:
    """How a training went (`train_network`).

    Attributes
    ----------
    train_loss, valid_loss : list of float
        Mean logistic loss per epoch on the training batches and on the
        held-out records.
    best_epoch : int
        The epoch (1-based) whose weights were kept.
    stopped : str
        ``"patience"``, ``"epochs"`` or ``"time"``.
    seconds : float
        Wall time of the training.
    """

    train_loss: list = field(default_factory=list)
    valid_loss: list = field(default_factory=list)
    best_epoch: int = 0
    stopped: str = "epochs"
    seconds: float = 0.0


@contextlib.contextmanager
def torch_threads(n_threads: int | None) -> Iterator[None]:
    """Run torch on ``n_threads`` CPU threads inside the block (None: as set).

    Parameters
    ----------
    n_threads : int or None
    """
    before = torch.get_num_threads()
    if n_threads:
        torch.set_num_threads(int(n_threads))
    try:
        yield
    finally:
        torch.set_num_threads(before)


@contextlib.contextmanager
def epoch_bar(
    epochs: int,
    progress: bool,
    on_epoch: Callable[[int, float, float], None] | None,
) -> Iterator[Callable[[int, float, float], None] | None]:
    """``on_epoch`` that also moves a tqdm bar over the epochs, if ``progress``.

    Parameters
    ----------
    epochs : int
        The most epochs (the bar's length; early stopping ends it sooner).
    progress : bool
        Whether to show the bar (on standard error; closed on leaving).
    on_epoch : callable or None
        The caller's own, called first.

    Yields
    ------
    callable or None
        The callback to give `train_network`.
    """
    if not progress:
        yield on_epoch
        return
    from tqdm.auto import tqdm

    # every epoch is drawn (no rate limit: epochs are few and slow)
    with tqdm(
        total=epochs,
        desc="CNN epochs",
        unit="epoch",
        leave=False,
        mininterval=0,
        miniters=1,
    ) as bar:

        def moved(epoch: int, train: float, held_out: float) -> None:
            if on_epoch is not None:
                on_epoch(epoch, train, held_out)
            bar.set_postfix(held_out=f"{held_out:.3f}", refresh=False)
            bar.update(1)

        yield moved


def batches(
    seqs: list[np.ndarray], rows: np.ndarray, batch_size: int
) -> Iterator[tuple[np.ndarray, torch.Tensor]]:
    """``(rows, one-hot)`` of batches of ``rows``, each padded to its longest.

    Parameters
    ----------
    seqs : list of numpy.ndarray
        Letter codes of every record.
    rows : numpy.ndarray of int
        The records, in the order to batch them.
    batch_size : int

    Yields
    ------
    rows : numpy.ndarray of int
    x : torch.Tensor of float32, shape (len(rows), 4, width)
    """
    for a in range(0, rows.size, batch_size):
        part = rows[a : a + batch_size]
        yield part, torch.from_numpy(one_hot([seqs[r] for r in part]))


def network_scores(
    network: torch.nn.Module,
    seqs: list[np.ndarray],
    batch_size: int = 256,
    device: str = "cpu",
) -> np.ndarray:
    """The network's output (both strands averaged) for every record.

    Records are batched in order of length, so little is padded.

    Parameters
    ----------
    network : torch.nn.Module
    seqs : list of numpy.ndarray
    batch_size : int
    device : str
        Where the network is.

    Returns
    -------
    numpy.ndarray of float64
    """
    order = np.argsort([len(s) for s in seqs], kind="stable")
    out = np.empty(len(seqs))
    network.eval()
    with torch.no_grad():
        for part, x in batches(seqs, order, batch_size):
            out[part] = network(x.to(device)).double().cpu().numpy()
    return out


def train_network(
    network: torch.nn.Module,
    seqs: list[np.ndarray],
    y: np.ndarray,
    valid: np.ndarray,
    *,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    patience: int,
    max_time: float | None,
    rng: np.random.Generator,
    device: str = "cpu",
    on_epoch: Callable[[int, float, float], None] | None = None,
) -> TrainingLog:
    """Fit ``network`` on the records not in ``valid``; stop early on ``valid``.

    Parameters
    ----------
    network : torch.nn.Module
        With ``strand(x)``, one logit per record.
    seqs : list of numpy.ndarray
        Letter codes of every record.
    y : numpy.ndarray of float
        1 for the positive class, 0 for the negative.
    valid : numpy.ndarray of bool
        The held-out records that decide when to stop.
    epochs, batch_size, learning_rate, patience, max_time
        As in `poimkit.torch.CNNClassifier`.
    rng : numpy.random.Generator
        Order of the batches and the strands read.
    device : str
        Where the network is (its batches go there).
    on_epoch : callable, optional
        Called with the epoch and its training and held-out losses.

    Returns
    -------
    TrainingLog
    """
    start = time.perf_counter()
    log = TrainingLog()
    train_rows = np.flatnonzero(~valid)
    valid_seqs = [seqs[r] for r in np.flatnonzero(valid)]
    valid_y = torch.from_numpy(y[valid].astype(np.float64))
    target = torch.from_numpy(y.astype(np.float32)).to(device)
    loss = torch.nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(network.parameters(), lr=learning_rate)
    best, best_state, waited = np.inf, copy.deepcopy(network.state_dict()), 0
    for epoch in range(1, epochs + 1):
        network.train()
        total = 0.0
        for part, x in batches(seqs, rng.permutation(train_rows), batch_size):
            flip = torch.from_numpy(rng.random(part.size) < 0.5)
            x[flip] = reverse_complement(x[flip])
            optimizer.zero_grad()
            batch_loss = loss(network.strand(x.to(device)), target[part])
            batch_loss.backward()
            optimizer.step()
            total += float(batch_loss.detach()) * part.size
        scores = torch.from_numpy(network_scores(network, valid_seqs, device=device))
        held_out = float(
            torch.nn.functional.binary_cross_entropy_with_logits(scores, valid_y)
        )
        log.train_loss.append(total / max(train_rows.size, 1))
        log.valid_loss.append(held_out)
        if on_epoch is not None:
            on_epoch(epoch, log.train_loss[-1], held_out)
        if held_out < best:
            best, best_state, waited = held_out, copy.deepcopy(network.state_dict()), 0
            log.best_epoch = epoch
        else:
            waited += 1
        if waited >= patience:
            log.stopped = "patience"
            break
        if max_time is not None and time.perf_counter() - start > max_time:
            log.stopped = "time"
            break
    network.load_state_dict(best_state)
    network.eval()
    log.seconds = time.perf_counter() - start
    return log


def held_out_rows(
    y: np.ndarray,
    fraction: float,
    rng: np.random.Generator,
    groups: np.ndarray | None = None,
) -> np.ndarray:
    """Which records decide early stopping: whole groups, or records by class.

    With ``groups`` (e.g. chromosomes), whole groups drawn at random until
    they hold ``fraction`` of the records, skipping any group that would take
    the share past twice ``fraction`` (a training part of three chromosomes
    must not lose a third of its records), while both classes remain on both
    sides; otherwise, or when no groups fit, ``fraction`` of each class at
    random.

    Parameters
    ----------
    y : numpy.ndarray
        Labels 0/1.
    fraction : float
        Share of records held out, in (0, 1).
    rng : numpy.random.Generator
    groups : numpy.ndarray, optional
        A group label per record.

    Returns
    -------
    numpy.ndarray of bool
        True for the held-out records.

    Examples
    --------
    >>> y = np.array([0, 1] * 10)
    >>> int(held_out_rows(y, 0.2, np.random.default_rng(0)).sum())
    4
    """
    y = np.asarray(y)
    valid = np.zeros(y.size, dtype=bool)
    if groups is not None:
        names, sizes = np.unique(groups, return_counts=True)
        for g in rng.permutation(names.size):
            if valid.sum() >= fraction * y.size:
                break
            if valid.sum() + sizes[g] <= 2 * fraction * y.size:
                valid |= groups == names[g]
        if len(np.unique(y[valid])) == 2 and len(np.unique(y[~valid])) == 2:
            return valid
        valid[:] = False  # too few groups for two classes each side: records
    for label in np.unique(y):
        rows = np.flatnonzero(y == label)
        take = max(1, int(round(fraction * rows.size)))
        valid[rng.choice(rows, size=min(take, rows.size - 1), replace=False)] = True
    return valid
