"""The CNN family as a scikit-learn classifier (`CNNClassifier`).

``poimkit train --kernel cnn`` trains it; like the kernel classifiers it is
calibrated by Platt scaling on out-of-fold scores and saved in an ``.npz``
file without pickle: the network's architecture parameters and its state
dict, one array per tensor. It is a model that only scores
(``score_only``): its POIMs are sampled, its attributions in-silico
mutagenesis, its variant effects scored on both alleles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils.validation import check_is_fitted

from .._validation import as_rng, check_binary_target, check_int, check_real
from ..errors import InputError
from ..svm._base import WDClassifierBase, optional_float, optional_int

#: prefix of the state dict's arrays in a model file
STATE = "state__"


class CNNClassifier(WDClassifierBase):
    """A dilated residual CNN for two classes of DNA records of any lengths.

    The network is `poimkit.torch.DilatedCNN`: a convolution of ``width``
    letters, ``layers`` residual convolutions with doubling dilation, a global
    max pool over the record's letters only (padding is never seen) and one
    logit, averaged over both strands. Training (`train_network`) reads each
    record on a strand drawn at random every epoch and stops early on held-out
    records: whole groups (chromosomes, ``fit(..., groups=...)``) or a random
    ``validation_fraction`` of each class.

    Parameters
    ----------
    filters : int, default 64
        Channels of every convolution.
    width : int, default 21
        Width of the first convolution, odd.
    layers : int, default 6
        Residual dilated layers.
    epochs : int, default 30
        Most passes over the training records.
    batch_size : int, default 64
    learning_rate : float, default 1e-3
        Adam's step size.
    patience : int, default 4
        Epochs without a better held-out loss before stopping.
    validation_fraction : float, default 0.1
        Share of the records held out for early stopping.
    max_time : float, optional
        Stop after the epoch that passes this many seconds.
    random_state : int, default 0
        Seed of the weights, the held-out records and the batches.
    n_threads : int, optional
        CPU threads for torch (default: torch's).
    device : str, optional
        Default CUDA when present, else the CPU.

    Attributes
    ----------
    network_ : DilatedCNN
        The trained network (the weights of its best epoch).
    classes_ : numpy.ndarray of shape (2,)
    length_ : int
        The median training length (the default length of its POIMs).
    log_ : TrainingLog or None
        How the training went (None for a model read from a file).
    calibration_ : (float, float) or None
        Platt scaling of held-out scores (`calibrate`).

    Examples
    --------
    >>> from poimkit.datasets import make_gattaca
    >>> X, y = make_gattaca(n_pos=40, n_neg=40, length=30, mean=10, sd=2,
    ...                     random_state=0)
    >>> model = CNNClassifier(filters=8, layers=2, epochs=2).fit(X, y)
    >>> model.decision_function(X[:3]).shape
    (3,)
    """

    _model_format = "poimkit.CNNClassifier"
    _saved_params: ClassVar[dict[str, Callable]] = {
        "filters": int,
        "width": int,
        "layers": int,
        "epochs": int,
        "batch_size": int,
        "learning_rate": float,
        "patience": int,
        "validation_fraction": float,
        "max_time": optional_float,
        "random_state": optional_int,
    }
    #: no exact k-mer decomposition (`poimkit.additive`): POIMs are sampled,
    #: attributions ISM
    decomposition = "score_only"
    #: it scores records of any length
    position_free = True
    #: ``fit`` takes ``groups``: a run passes the chromosomes (`CopyFits`)
    fits_groups = True
    #: it scores a record and its reverse complement alike (both strands
    #: averaged), so its motifs' sites are sought on both strands
    reverse_complement = True

    def __init__(
        self,
        *,
        filters: int = 64,
        width: int = 21,
        layers: int = 6,
        epochs: int = 30,
        batch_size: int = 64,
        learning_rate: float = 1e-3,
        patience: int = 4,
        validation_fraction: float = 0.1,
        max_time: float | None = None,
        random_state: int | None = 0,
        n_threads: int | None = None,
        device: str | None = None,
    ) -> None:
        self.filters = filters
        self.width = width
        self.layers = layers
        self.epochs = epochs
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.patience = patience
        self.validation_fraction = validation_fraction
        self.max_time = max_time
        self.random_state = random_state
        self.n_threads = n_threads
        self.device = device

    def _check_params(self) -> None:
        check_int(self.filters, "filters", 1)
        check_int(self.width, "width", 1)
        if self.width % 2 == 0:
            raise InputError(f"width must be odd, got {self.width}")
        check_int(self.layers, "layers", 0, 12)
        check_int(self.epochs, "epochs", 1)
        check_int(self.batch_size, "batch_size", 1)
        check_int(self.patience, "patience", 1)
        check_real(self.learning_rate, "learning_rate", 0)
        if not 0 < self.validation_fraction < 1:
            raise InputError(
                "validation_fraction must lie in (0, 1), got "
                f"{self.validation_fraction}"
            )
        if self.max_time is not None:
            check_real(self.max_time, "max_time", 0)

    def describe(self) -> str:
        """The model in words, for messages and metadata."""
        return (
            f"a CNN ({self.filters} filters of width {self.width}, {self.layers} "
            "dilated residual layers)"
        )

    def size(self) -> dict[str, int | None]:
        """The number of the network's parameters, for a run's summary.

        Returns
        -------
        dict
            ``n_support_vectors`` (None) and ``n_parameters``.
        """
        n = sum(p.numel() for p in self.network_.parameters())
        return {"n_support_vectors": None, "n_parameters": n}

    def _device(self) -> str:
        """``device``, or CUDA when present, else the CPU."""
        from .scorer import default_device

        return self.device or default_device()

    def _network(self):
        from .network import DilatedCNN

        return DilatedCNN(self.filters, self.width, self.layers)

    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        groups: ArrayLike | None = None,
        on_epoch: Callable[[int, float, float], None] | None = None,
        progress: bool = False,
    ) -> CNNClassifier:
        """Train the network, stopping early on held-out records.

        Parameters
        ----------
        X : list of str, list of code arrays, or 2-D code array
            Records of any lengths.
        y : array-like of shape (n_samples,)
            Exactly two distinct labels.
        groups : array-like of shape (n_samples,), optional
            A group per record (chromosomes): early stopping holds out whole
            groups.
        on_epoch : callable, optional
            Called after every epoch with the epoch, the training loss and
            the held-out loss.
        progress : bool, default False
            Show a tqdm bar over the epochs (with the held-out loss) on
            standard error.

        Returns
        -------
        self
        """
        import torch

        from ..kernels.gkm import as_sequences
        from .training import epoch_bar, held_out_rows, torch_threads, train_network

        self._check_params()
        seqs = as_sequences(X)
        if any(len(s) == 0 for s in seqs):
            raise InputError("X holds an empty record")
        y = check_binary_target(y, "CNNClassifier")
        self.classes_, index = np.unique(y, return_inverse=True)
        if groups is not None:
            groups = np.asarray(groups)
            if groups.shape != (len(seqs),):
                raise InputError(
                    f"groups has shape {groups.shape} but must have one per record "
                    f"({len(seqs)})"
                )
        rng = as_rng(self.random_state)
        valid = held_out_rows(index, self.validation_fraction, rng, groups)
        device = self._device()
        with (
            torch_threads(self.n_threads),
            torch.random.fork_rng(devices=[]),
            epoch_bar(self.epochs, progress, on_epoch) as on_epoch,
        ):
            torch.manual_seed(int(rng.integers(2**31)))
            network = self._network().to(device)
            self.log_ = train_network(
                network,
                seqs,
                index.astype(np.float64),
                valid,
                epochs=self.epochs,
                batch_size=self.batch_size,
                learning_rate=self.learning_rate,
                patience=self.patience,
                max_time=self.max_time,
                rng=rng,
                device=device,
                on_epoch=on_epoch,
            )
        self.network_ = network
        self.length_ = self.n_features_in_ = int(np.median([len(s) for s in seqs]))
        self.intercept_, self.kernel_scale_ = 0.0, 1.0  # no expansion: unused
        self.calibration_ = None
        return self

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """The network's logit for ``classes_[1]``, both strands averaged.

        Parameters
        ----------
        X : list of str, list of code arrays, or 2-D code array
            Records of any lengths.

        Returns
        -------
        numpy.ndarray of shape (n_samples,)
        """
        from ..kernels.gkm import as_sequences
        from .training import network_scores, torch_threads

        check_is_fitted(self, "network_")
        seqs = as_sequences(X)
        if any(len(s) == 0 for s in seqs):
            raise InputError("X holds an empty record")
        device = self._device()
        self.network_.to(device)
        with torch_threads(self.n_threads):
            return network_scores(
                self.network_, seqs, max(self.batch_size, 256), device
            )

    # ------------------------------------------------------------------ files
    def _fitted_arrays(self) -> dict[str, np.ndarray]:
        return {
            STATE + name: tensor.detach().cpu().numpy()
            for name, tensor in self.network_.state_dict().items()
        }

    def _restore(self, arrays: dict[str, Any]) -> None:
        import torch

        state = {
            name[len(STATE) :]: torch.from_numpy(np.array(value))
            for name, value in arrays.items()
            if name.startswith(STATE)
        }
        network = self._network()
        try:
            network.load_state_dict(state)
        except RuntimeError as exc:
            raise InputError(f"the network's weights do not fit: {exc}") from None
        network.eval()
        self.network_ = network
        self.log_ = None
