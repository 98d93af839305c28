"""How a command talks on standard error: one-line messages and progress.

`say` prints a line unless ``--quiet``; `progress` is bars on a terminal and
plain lines in a log; `bars` whether bars are shown.
"""

from __future__ import annotations

import argparse
import sys


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
    """`run_pipeline`'s progress: bars on a terminal, plain lines in a log.

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
