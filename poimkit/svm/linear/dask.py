"""Optional Dask support: open the client `WDLinearSVC.fit` runs its passes on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ...errors import InputError


@contextmanager
def open_client(client: object) -> Iterator[object | None]:
    """Yield a ``dask.distributed.Client`` (or None for this process).

    Parameters
    ----------
    client : None, "local", a scheduler address (str) or a Client
        ``"local"`` starts an embedded ``LocalCluster`` (2 single-threaded
        workers in this process) and closes it afterwards; an address connects
        to a running scheduler (closed afterwards); a Client is used as is.

    Yields
    ------
    dask.distributed.Client or None
    """
    if client is None:
        yield None
        return
    if not isinstance(client, str):
        if not hasattr(client, "submit") or not hasattr(client, "scatter"):
            raise InputError(
                "client must be None, 'local', a scheduler address or a "
                f"dask.distributed.Client, got {type(client).__name__}"
            )
        yield client
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # optional dependency
        raise InputError(
            "client= needs Dask: pip install 'dask[distributed]' (the dask extra)"
        ) from None
    if client == "local":
        with (
            LocalCluster(
                n_workers=2,
                threads_per_worker=1,
                processes=False,
                dashboard_address=":0",
            ) as cluster,
            Client(cluster) as own,
        ):
            yield own
        return
    with Client(client) as own:
        yield own
