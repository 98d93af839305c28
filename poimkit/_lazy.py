"""Public names of a package that load their module on first use (PEP 562).

A package lists ``name -> submodule`` and takes ``__getattr__`` and
``__dir__`` from `lazy_exports`, so importing it loads none of its heavy
submodules: the ``poimkit`` command starts without numba or scikit-learn.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import import_module


def lazy_exports(
    package: str, names: dict[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` of a package with lazily loaded names.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    names : dict of str to str
        Public name -> the submodule (relative to ``package``) defining it.

    Returns
    -------
    tuple of callable
        The module-level ``__getattr__`` and ``__dir__``.
    """

    def __getattr__(name: str) -> object:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f".{names[name]}", package), name)
        setattr(sys.modules[package], name, value)  # later lookups skip this
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names})

    return __getattr__, __dir__
