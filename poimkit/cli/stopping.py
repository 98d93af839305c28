"""Exit codes, and how a running command stops (SIGTERM, Ctrl-C in compiled code)."""

from __future__ import annotations

import os
import sys
import threading
from types import FrameType

from .console import tell

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT = 0, 1, 2
#: ``poimkit batch``: every experiment was checked and tried, some failed
EXIT_SOME_FAILED = 3
#: Ctrl-C (128 + SIGINT) and SIGTERM (128 + SIGTERM), as shells report them
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143
#: seconds a stopped command may take to unwind before the program exits anyway
STOP_GRACE = 1.0
#: commands given longer: a batch closes its cluster and removes partial folders
COMMAND_GRACE = {"batch": 30.0}


class Terminated(KeyboardInterrupt):
    """SIGTERM, unwinding like Ctrl-C (exit code 128 + 15)."""


def on_sigterm(signum: int, frame: FrameType | None) -> None:
    """The SIGTERM handler: raise `Terminated`.

    SIGTERM (batch schedulers, ``kill``) unwinds like Ctrl-C, so staged output
    folders are removed rather than left behind.

    Parameters
    ----------
    signum : int
        The signal's number.
    frame : frame or None
        The frame it interrupted.
    """
    raise Terminated


def stop_worker(
    worker: threading.Thread,
    done: threading.Event,
    signal_class: type,
    hard: bool,
    grace: float = STOP_GRACE,
) -> None:
    """Stop the command's thread; exit the process if it is stuck in compiled code.

    Parameters
    ----------
    worker : threading.Thread
        The thread running the command.
    done : threading.Event
        Set when the command has returned.
    signal_class : type
        The exception raised in the worker: `KeyboardInterrupt` or `Terminated`.
    hard : bool
        Exit the process (removing the staged outputs) if the worker has not
        stopped within ``grace`` seconds; else wait for it.
    grace : float, default=STOP_GRACE
        Seconds the command may take to unwind (`COMMAND_GRACE`).
    """
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(worker.ident), ctypes.py_object(signal_class)
    )  # raised in the worker at its next Python line: it unwinds and cleans up
    try:
        done.wait(grace)
    except KeyboardInterrupt:  # pressed again: do not wait
        pass
    if not done.is_set() and hard:
        from ..io.outdir import remove_unfinished

        remove_unfinished()
        terminated = issubclass(signal_class, Terminated)
        word = "terminated" if terminated else "interrupted"
        tell(word)  # flushes stderr
        sys.stdout.flush()
        os._exit(EXIT_TERMINATED if terminated else EXIT_INTERRUPTED)
    done.wait()  # a library caller: wait for the kernel to return
