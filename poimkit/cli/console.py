"""How a command talks on standard error: one-line messages, bars and lines.

`tell` signs a line with the program's name (errors, warnings, stop
notices); `say` prints a report line unless ``--quiet``; `progress` is bars
on a terminal and plain lines in a log; `bars` whether bars are shown.
`listening` shows the library's messages (`poimkit._messages`) the same way
while a command runs.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from .._messages import LOGGER

__all__ = ["bars", "listening", "progress", "say", "tell"]


def tell(text: str) -> None:
    """Print ``poimkit: text`` on stderr at once.

    Parameters
    ----------
    text : str
        The message, one line.
    """
    print(f"poimkit: {text}", file=sys.stderr, flush=True)


def bars(args: argparse.Namespace) -> bool:
    """Progress bars: not with --quiet, and only on a terminal (no codes in logs).

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line, as `progress` takes it.

    Returns
    -------
    bool
        Whether `progress` shows bars.
    """
    return progress(args) is True


def progress(args: argparse.Namespace) -> bool | str:
    """A library call's progress: bars on a terminal, plain lines in a log.

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line (``quiet``).

    Returns
    -------
    bool or "lines"
    """
    if args.quiet:
        return False
    return True if sys.stderr.isatty() else "lines"


def say(args: argparse.Namespace, message: str) -> None:
    """Print ``message`` on standard error, unless --quiet.

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line (``quiet``).
    message : str
        One line.
    """
    if not args.quiet:
        print(message, file=sys.stderr)


class _Lines(logging.Handler):
    """The library's messages as the command's own lines on (the current) stderr."""

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.levelno >= logging.WARNING:
            tell(text)
        else:
            print(text, file=sys.stderr, flush=True)


@contextmanager
def listening(quiet: bool) -> Iterator[None]:
    """Show the library's messages while the block runs (reports not if ``quiet``).

    Parameters
    ----------
    quiet : bool
        Show only notices (`poimkit._messages.tell`), not report lines.
    """
    handler = _Lines()
    level, propagate = LOGGER.level, LOGGER.propagate
    LOGGER.addHandler(handler)
    LOGGER.setLevel(logging.WARNING if quiet else logging.INFO)
    LOGGER.propagate = False
    try:
        yield
    finally:
        LOGGER.removeHandler(handler)
        LOGGER.setLevel(level)
        LOGGER.propagate = propagate
