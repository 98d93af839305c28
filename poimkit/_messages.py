"""Messages from the library to whoever listens: the ``poimkit`` logger.

Library code never prints. It reports through the standard `logging`
logger ``"poimkit"``: `tell` for notices a user sees even with ``--quiet``
(a folder removed, a genome indexed, the steps of a run in a log), `inform`
for a step's report line, which ``--quiet`` silences. The command line
(`poimkit.cli.console.listening`) shows them on standard error; a script may
attach its own handler; with none, nothing is shown.
"""

from __future__ import annotations

import logging

__all__ = ["LOGGER", "inform", "tell"]

#: The logger of every library message.
LOGGER = logging.getLogger("poimkit")
LOGGER.addHandler(logging.NullHandler())


def tell(text: str) -> None:
    """A notice (level WARNING): the command line shows ``poimkit: text``.

    Parameters
    ----------
    text : str
        The message, one line.
    """
    LOGGER.warning(text)


def inform(text: str) -> None:
    """A report line (level INFO): shown unsigned, silenced by ``--quiet``.

    Parameters
    ----------
    text : str
        The message, one line.
    """
    LOGGER.info(text)
