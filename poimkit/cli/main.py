"""The ``poimkit`` program: parse, run one subcommand in a worker, map errors to codes.

Exit codes: 0 success, 2 bad input (file, record and position named), 1 internal error.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import traceback
import warnings
from collections.abc import Sequence

from ..errors import InputError
from .console import listening, tell
from .parser import build_parser
from .stopping import (
    COMMAND_GRACE,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    STOP_GRACE,
    Terminated,
    on_sigterm,
    stop_worker,
)

#: subcommand -> (module of poimkit.cli, its function), imported when run
#: set to 1 to see the traceback of an internal error
DEBUG_VARIABLE = "POIMKIT_DEBUG"

COMMANDS = {
    "train": ("train", "run_train"),
    "score": ("score", "run_score"),
    "poim": ("poim", "run_poim"),
    "motifs": ("motifs", "run_motifs"),
    "run": ("run", "run_run"),
    "demo": ("run", "run_demo"),
    "batch": ("batch", "run_batch_command"),
    "variants": ("variants", "run_variants"),
    "scan": ("scan", "run_scan"),
    "explain": ("explain", "run_explain"),
    "interactions": ("interactions", "run_interactions"),
}


def _command(name: str):
    """The function of subcommand ``name``."""
    from importlib import import_module

    module, function = COMMANDS[name]
    return getattr(import_module(f"{__package__}.{module}"), function)


def _one_line_warnings(default):
    """A ``showwarning`` printing poimkit's own warnings as one line on stderr."""

    def show(message, category, filename, lineno, file=None, line=None):
        if category.__module__.split(".")[0] == "poimkit":
            tell(f"warning: {message}")
        else:
            default(message, category, filename, lineno, file, line)

    return show


def main(argv: Sequence[str] | None = None) -> int:
    """Run the poimkit command line; returns the exit code.

    The command runs in a worker thread while this one waits, so Ctrl-C and
    SIGTERM act within a second even inside a compiled kernel (which only
    returns to Python when done). The worker is asked to stop; if it cannot
    within `STOP_GRACE` seconds and poimkit runs as the program (``argv`` is
    None), the staged outputs are deleted and the process exits at once.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: the program's, ``sys.argv[1:]``).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, on_sigterm)
    outcome: list[int] = []
    done = threading.Event()

    def work() -> None:
        try:
            outcome.append(_dispatch(args))
        finally:
            done.set()

    # an Event, not Thread.join(timeout): a join interrupted by a signal can
    # mark the thread finished while it runs (CPython before 3.13)
    worker = threading.Thread(target=work, name="poimkit", daemon=True)
    try:
        worker.start()
        while not done.wait(0.1):  # wakes for signals
            pass
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM (`Terminated`)
        grace = COMMAND_GRACE.get(args.command, STOP_GRACE)
        stop_worker(worker, done, type(exc), hard=argv is None, grace=grace)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return outcome[0] if outcome else EXIT_INTERRUPTED


def _dispatch(args: argparse.Namespace) -> int:
    """Run one subcommand; every error becomes a line on stderr and an exit code."""
    from .._threads import numba_threads

    try:
        # every command's numba kernels run on --threads (checked first)
        with (
            warnings.catch_warnings(),
            listening(args.quiet),
            numba_threads(args.threads),
        ):
            warnings.showwarning = _one_line_warnings(warnings.showwarning)
            return _command(args.command)(args)
    except InputError as exc:
        tell(f"error: {exc}")
        return EXIT_INPUT
    except Terminated:
        tell("terminated")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        tell("interrupted")
        return EXIT_INTERRUPTED
    except ImportError as exc:  # an optional dependency (e.g. Dask) is missing
        if (exc.name or "poimkit").split(".")[0] == "poimkit":
            tell(f"internal error: ImportError: {exc}")
            return EXIT_INTERNAL
        tell(
            f"error: {exc.name} is not installed; install the optional dependency "
            "it belongs to (see the README)"
        )
        return EXIT_INPUT
    except OSError as exc:  # read-only folder, disk full, ...: the environment
        where = f"{exc.filename}: " if exc.filename else ""
        tell(f"error: {where}{exc.strerror or exc}")
        return EXIT_INPUT
    except Exception as exc:  # noqa: BLE001 - last line of defence for scripts
        if os.environ.get(DEBUG_VARIABLE):
            traceback.print_exc()
        tell(
            f"internal error: {type(exc).__name__}: {exc} (please report it; "
            f"{DEBUG_VARIABLE}=1 shows the traceback)"
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
