"""Parameter docs written once: numpydoc text that class docstrings share (`fill_doc`).

An estimator family (`WDKernelSVC` / `WDKernelSVR`, `GkmSVC` / `GkmSVR`, ...)
declares its shared parameters once and documents them once, in a dict of
numpydoc text blocks; each class docstring names a block by a line
``%(name)s`` (scipy's ``doccer``, MNE-Python's ``fill_doc``) and `fill_doc`
writes the block there, so ``help()`` shows every parameter.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

__all__ = ["COMMON", "LMER_TABLE", "fill_doc", "parameters_from"]

T = TypeVar("T")

#: the docs of the parameters every classifier (``class_weight``) or every
#: regressor (``epsilon``) takes: blocks every `fill_doc` knows
COMMON = {
    "class_weight": """
class_weight : dict, "balanced" or None, default=None
    Passed to `~sklearn.svm.SVC`.
""",
    "epsilon": """
epsilon : float, default=0.1
    Half-width of the tube within which errors cost nothing, in units of
    the target.
""",
}

#: the parameters of the l-mer table contract (`poimkit.additive.LmerTable`),
#: which `GkmSVC` and the LS-GKM models both implement
LMER_TABLE = {
    "codes": """
codes : numpy.ndarray of uint8
    Records' letter codes, concatenated.
""",
    "offsets": """
offsets : numpy.ndarray of int64
    Where each record starts (and the end).
""",
}

#: a line that is only a placeholder ``%(name)s`` (with its indentation)
_PLACEHOLDER = re.compile(r"^([ \t]*)%\((\w+)\)s[ \t]*$", re.MULTILINE)


def fill_doc(
    blocks: dict[str, str], parameters: tuple[str, ...] = ()
) -> Callable[[T], T]:
    r"""A decorator that writes numpydoc text blocks into a docstring.

    Parameters
    ----------
    blocks : dict of str to str
        Text by name (besides those of ``COMMON``). A docstring line
        ``%(name)s`` becomes ``blocks[name]``, every line of it indented as
        the placeholder was (write the blocks flush left, their descriptions
        indented by four spaces).
    parameters : tuple of str, default=()
        Names of blocks that make the section a line ``%(parameters)s``
        becomes: the heading ``Parameters`` and these blocks in turn (in the
        order of the signature).

    Returns
    -------
    callable
        Takes a class or function, fills its ``__doc__`` and returns it.
        A placeholder without a block raises KeyError when it is applied;
        a missing ``__doc__`` (``python -OO``) is left missing.

    Examples
    --------
    >>> @fill_doc({"x": "x : int\n    A number."})
    ... def f(x):
    ...     '''%(x)s'''
    >>> print(f.__doc__)
    x : int
        A number.
    """
    known = {**COMMON, **blocks}
    if parameters:
        section = [known[name].strip("\n") for name in parameters]
        known["parameters"] = "\n".join(["Parameters", "----------", *section])

    def fill(obj: T) -> T:
        def block(match: re.Match) -> str:
            indent, name = match.groups()
            lines = known[name].strip("\n").split("\n")
            return "\n".join(indent + line if line else line for line in lines)

        if obj.__doc__ is not None:
            obj.__doc__ = _PLACEHOLDER.sub(block, obj.__doc__)
        return obj

    return fill


def parameters_from(blocks: dict[str, str]) -> Callable[..., Callable[[T], T]]:
    r"""A decorator factory: ``@factory("a", "b")`` fills a Parameters section.

    Parameters
    ----------
    blocks : dict of str to str
        The parameters' docs, as `fill_doc` takes them.

    Returns
    -------
    callable
        ``factory(*names)``: `fill_doc` of ``blocks`` whose ``%(parameters)s``
        holds the blocks ``names``, in turn.

    Examples
    --------
    >>> hook = parameters_from({"x": "x : int\n    A number."})
    >>> @hook("x")
    ... def f(x):
    ...     '''%(parameters)s'''
    >>> f.__doc__.splitlines()
    ['Parameters', '----------', 'x : int', '    A number.']
    """

    def factory(*names: str) -> Callable[[T], T]:
        return fill_doc(blocks, parameters=names)

    return factory
