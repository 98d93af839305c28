"""The steps of a run, timed and shown (`StepTimer`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from .._messages import tell

__all__ = ["StepTimer"]


@dataclass
class StepTimer:
    """Wall time per step of a run, shown by a tqdm bar over the steps or by lines.

    Parameters
    ----------
    bar : tqdm bar or None, default=None
        Its description is the step running; it advances after each step.
    lines : bool, default=False
        A line ``poimkit: <step>`` on standard error as each step starts (for
        a log, where a bar would not show).

    Attributes
    ----------
    seconds : dict of str to float
        Wall time of each step done, in seconds (rounded to ms).
    started : float
        `time.perf_counter` when the timer was made: the run's start.

    Examples
    --------
    >>> timer = StepTimer()
    >>> with timer.step("read"):
    ...     pass
    >>> list(timer.with_total())
    ['read', 'total']
    """

    bar: object = None
    lines: bool = False
    seconds: dict = field(default_factory=dict)
    started: float = field(default_factory=time.perf_counter)

    def with_total(self) -> dict[str, float]:
        """`seconds` and ``"total"``, the wall time since `started`."""
        self.seconds["total"] = round(time.perf_counter() - self.started, 3)
        return self.seconds

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        """Time the block as the step ``name`` (and show it).

        Parameters
        ----------
        name : str
            The step, as the bar, the lines and `seconds` name it.
        """
        if self.bar is not None:
            self.bar.set_description_str(name)
        if self.lines:
            tell(name)
        start = time.perf_counter()
        yield
        self.seconds[name] = round(time.perf_counter() - start, 3)
        if self.bar is not None:
            self.bar.update()
