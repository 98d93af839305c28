"""Map a user's thread count onto numba for the duration of one call."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from .errors import InputError


def check_threads(n_threads) -> int | None:
    """Validate ``n_threads`` (None: numba's default) against NUMBA_NUM_THREADS."""
    if n_threads is None:
        return None
    import numba  # here, not at the top: the CLI starts without numba

    if isinstance(n_threads, bool) or not isinstance(n_threads, int) or n_threads < 1:
        raise InputError(f"n_threads must be an integer >= 1, got {n_threads!r}")
    if n_threads > numba.config.NUMBA_NUM_THREADS:
        raise InputError(
            f"n_threads must be at most {numba.config.NUMBA_NUM_THREADS} (numba's "
            f"NUMBA_NUM_THREADS), got {n_threads}"
        )
    return n_threads


@contextmanager
def numba_threads(n_threads: int | None) -> Iterator[None]:
    """Run the body with ``numba.set_num_threads(n_threads)``, restored after."""
    n_threads = check_threads(n_threads)
    if n_threads is None:
        yield
        return
    import numba

    old = numba.get_num_threads()
    numba.set_num_threads(n_threads)
    try:
        yield
    finally:
        numba.set_num_threads(old)
