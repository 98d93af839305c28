"""`Poim`: POIMs of one model under one background, with derived views."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..alphabet import kmer_string
from ..background import MarkovBackground
from ..errors import InputError
from ..io import read_npz, write_npz, write_table

POIM_FORMAT = "poimkit.Poim"
POIM_FORMAT_VERSION = 1


class Poim:
    """Positional Oligomer Importance Matrices ``Q_l(z, j)`` for l = 1..K.

    Parameters
    ----------
    q : list of numpy.ndarray
        ``q[l - 1]`` of shape ``(L - l + 1, 4**l)``: rows are 0-based start
        positions, columns k-mer indices (`poimkit.kmer_index`).
    background : MarkovBackground
        The background the expectations were taken under.
    metadata : dict of str, optional
        Free-form string metadata (model parameters, method).
    stderr : list of numpy.ndarray, optional
        Standard errors of sampled estimates, same shapes as ``q``; None for
        exact POIMs.
    """

    def __init__(
        self,
        q: list[np.ndarray],
        background: MarkovBackground,
        metadata: dict[str, str] | None = None,
        stderr: list[np.ndarray] | None = None,
    ) -> None:
        length = background.length
        for l, arr in enumerate(q, start=1):
            if arr.shape != (length - l + 1, 4**l):
                raise InputError(
                    f"Q_{l} has shape {arr.shape} but must have shape "
                    f"({length - l + 1}, {4**l}) for length {length}"
                )
        if stderr is not None and [e.shape for e in stderr] != [a.shape for a in q]:
            raise InputError("stderr must have one array per order, shaped like q")
        self._q = [np.asarray(a, dtype=np.float64) for a in q]
        self.stderr = None if stderr is None else [np.asarray(e) for e in stderr]
        self.background = background
        self.metadata = dict(metadata or {})

    def __repr__(self) -> str:
        """What the POIM holds, in one line.

        Examples
        --------
        >>> from poimkit.background import MarkovBackground
        >>> bg = MarkovBackground.uniform(5)
        >>> Poim([np.zeros((5, 4)), np.zeros((4, 16))], bg, {"method": "exact"})
        Poim(k-mers of length 1..2 on 5 letters, exact, MarkovBackground(order=0, length=5, positional=False))
        """  # noqa: E501
        where = f" on {self.length} letters"
        if self.position_free:
            where = ", position-free"
        how = self.metadata.get("method", "exact")
        if self.stderr is not None:
            how += f", {self.metadata.get('n_samples', '?')} samples, with errors"
        return (
            f"Poim(k-mers of length 1..{self.max_order}{where}, {how}, "
            f"{self.background!r})"
        )

    @property
    def max_order(self) -> int:
        """Largest k-mer length K."""
        return len(self._q)

    @property
    def length(self) -> int:
        """Sequence length L."""
        return self.background.length

    def q(self, l: int) -> np.ndarray:
        """The ``(L - l + 1, 4**l)`` array of ``Q_l(z, j)``.

        Parameters
        ----------
        l : int
            k-mer length, 1..`max_order`.

        Returns
        -------
        numpy.ndarray of float64, shape (L - l + 1, 4**l)
            Row j (0-based start), column z (k-mer index).
        """
        self._check_order(l)
        return self._q[l - 1]

    def _check_order(self, l: int) -> None:
        if not isinstance(l, int | np.integer) or not 1 <= l <= self.max_order:
            raise InputError(
                f"order must be an integer in 1..{self.max_order}, got {l!r}"
            )

    def max_abs(self, l: int) -> np.ndarray:
        """``q_l(j) = max_z |Q_l(z, j)|``, shape (L - l + 1,).

        Parameters
        ----------
        l : int
            Length of the k-mers whose largest effect is taken per start.
        """
        return np.abs(self.q(l)).max(axis=1)

    def weight_mass(self, l: int) -> np.ndarray:
        """``W_l(j) = sum_z |Q_l(z, j)|``, shape (L - l + 1,).

        Parameters
        ----------
        l : int
            Length of the k-mers whose effects are summed per start.
        """
        return np.abs(self.q(l)).sum(axis=1)

    def differential(self) -> np.ndarray:
        """Differential POIM ``D_l(j) = q_l(j) - max(q_{l-1}(j), q_{l-1}(j+1))``.

        Returns
        -------
        numpy.ndarray of shape (K, L)
            Row ``l - 1`` holds ``D_l(j)`` for ``j = 0..L-l`` and NaN after;
            ``D_1 = q_1``.
        """
        out = np.full((self.max_order, self.length), np.nan)
        out[0, : self.length] = self.max_abs(1)
        for l in range(2, self.max_order + 1):
            shorter = self.max_abs(l - 1)
            out[l - 1, : self.length - l + 1] = self.max_abs(l) - np.maximum(
                shorter[:-1], shorter[1:]
            )
        return out

    def anywhere(self, l: int) -> np.ndarray:
        """Position-free importance of every l-mer, shape ``(4**l,)``.

        ``E[s(X) | z at a uniformly chosen start J] - E[s(X)] = mean_j
        Q_l(z, j)``: the expected score change when z occurs at a random
        position. For a position-free model (`GkmSVC`) it is the importance
        of z itself; for a positional model it averages out the position.

        Parameters
        ----------
        l : int
            Length of the l-mers to rank, 1..`max_order`.

        Examples
        --------
        >>> from poimkit.background import MarkovBackground
        >>> q = [np.array([[1.0, 0, 0, -1], [3.0, 0, 0, -3]])]
        >>> Poim(q, MarkovBackground.uniform(2)).anywhere(1).tolist()
        [2.0, 0.0, 0.0, -2.0]
        """
        return self.q(l).mean(axis=0)

    def firm(self, l: int) -> np.ndarray:
        """FIRM of the binary features ``I(X[j:j+l] = z)``.

        ``Q_l(z, j) sqrt(Pr(X[j:j+l] != z) / Pr(X[j:j+l] = z))``; 0 where the
        k-mer has probability 0.

        Parameters
        ----------
        l : int
            Length of the positional k-mer features, 1..`max_order`.

        Returns
        -------
        numpy.ndarray of float64, shape (L - l + 1, 4**l)
        """
        from ..background import kmer_probability_table

        q = self.q(l)
        p = kmer_probability_table(self.background, l)
        out = np.zeros_like(q)
        ok = p > 0
        out[ok] = q[ok] * np.sqrt((1.0 - p[ok]) / p[ok])
        return out

    @property
    def position_free(self) -> bool:
        """True for the POIM of a position-free model (`poimkit.GkmSVC`)."""
        return self.metadata.get("model") == "position-free"

    def top(
        self, n: int = 20, order: int | None = None
    ) -> list[tuple[str, int | None, float]]:
        """The n entries of largest ``|Q|`` as (k-mer, 1-based position, value).

        For a position-free model the k-mers are ranked by their position-free
        importance (`anywhere`) and the position is None.

        Parameters
        ----------
        n : int
            Number of entries.
        order : int, optional
            Restrict to one k-mer length; default: all orders.
        """
        orders = range(1, self.max_order + 1) if order is None else [order]
        candidates = []
        for l in orders:
            q = self.anywhere(l)[None, :] if self.position_free else self.q(l)
            flat = np.abs(q).ravel()
            take = min(n, flat.size)
            best = np.argpartition(-flat, take - 1)[:take]
            for f in best:
                j, z = divmod(int(f), q.shape[1])
                position = None if self.position_free else j + 1
                candidates.append((kmer_string(z, l), position, float(q[j, z])))
        candidates.sort(key=lambda t: (-abs(t[2]), len(t[0]), t[1] or 0, t[0]))
        return candidates[:n]

    def write_top(
        self, path: str | Path, n: int = 50, order: int | None = None
    ) -> None:
        """Write `top` as a TSV: kmer, length, position (1-based, or ``any``), value.

        Parameters
        ----------
        path : str or pathlib.Path
            The TSV file, written atomically.
        n : int
            Number of entries.
        order : int, optional
            Restrict to one k-mer length; default: all orders.
        """
        rows = [
            (z, len(z), "any" if j is None else j, f"{v:.10g}")
            for z, j, v in self.top(n, order)
        ]
        write_table(path, ["kmer", "length", "position", "value"], rows)

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path) -> None:
        """Write to ``.npz`` (no pickle), atomically.

        Parameters
        ----------
        path : str or pathlib.Path
            The POIM file.
        """
        arrays = {
            "max_order": np.int64(self.max_order),
            "metadata_keys": np.array(list(self.metadata), dtype=str),
            "metadata_values": np.array(
                [str(v) for v in self.metadata.values()], dtype=str
            ),
        }
        for l in range(1, self.max_order + 1):
            arrays[f"q_{l}"] = self.q(l)
            if self.stderr is not None:
                arrays[f"stderr_{l}"] = self.stderr[l - 1]
        for key, value in self.background.to_arrays().items():
            arrays[f"background_{key}"] = value
        write_npz(path, POIM_FORMAT, POIM_FORMAT_VERSION, arrays)

    @classmethod
    def load(cls, path: str | Path) -> Poim:
        """Read a file written by `save`; clear errors for bad files.

        Parameters
        ----------
        path : str or pathlib.Path
            A file written by `save`.

        Returns
        -------
        Poim
        """
        path = str(path)
        arrays = read_npz(path, POIM_FORMAT, POIM_FORMAT_VERSION, "poimkit POIM")
        try:
            background = MarkovBackground.from_arrays(
                {
                    k[len("background_") :]: v
                    for k, v in arrays.items()
                    if k.startswith("background_")
                }
            )
            orders = range(1, int(arrays["max_order"]) + 1)
            q = [arrays[f"q_{l}"] for l in orders]
            stderr = None
            if "stderr_1" in arrays:
                stderr = [arrays[f"stderr_{l}"] for l in orders]
            metadata = dict(
                zip(
                    arrays["metadata_keys"].tolist(),
                    arrays["metadata_values"].tolist(),
                    strict=True,
                )
            )
            return cls(q, background, metadata, stderr)
        except (KeyError, ValueError) as exc:
            raise InputError(
                f"POIM file is incomplete or corrupt: {exc}", path=path
            ) from None
