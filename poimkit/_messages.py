"""One line to the user on stderr, after the program's name (`tell`)."""

from __future__ import annotations

import sys

__all__ = ["tell"]


def tell(text: str) -> None:
    """Print ``poimkit: text`` on stderr at once.

    The lines poimkit signs with its name go through here: errors and
    warnings, stop notices, the steps of a run in a log. (A command's own
    report lines, unsigned and silenced by ``--quiet``, go through
    `poimkit.run.console.say`.)

    Parameters
    ----------
    text : str
        The message, one line.
    """
    print(f"poimkit: {text}", file=sys.stderr, flush=True)
