"""Numba options, defined once for every kernel in the package, and its cache.

numba's on-disk cache checks only the source file of the cached function, so
after an in-place upgrade a kernel calling a changed helper in another module
could run old compiled code. poimkit's kernels are therefore cached in a
folder keyed on the package: its version and a hash of every source file
(`source_key`). Importing this module (every kernel module does, before
compiling) installs the cache locator that puts them there (`cache_roots`).
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from ._cache import user_cache

# fastmath stays off: kernels and POIMs add many small probabilities and the
# results are compared with brute-force references to 1e-10.
NJIT = {"cache": True, "nogil": True}
NJIT_PARALLEL = {"cache": True, "nogil": True, "parallel": True}

#: the package's folder: kernels from files under it use the keyed cache
PACKAGE = Path(__file__).resolve().parent


def source_key(root: str | os.PathLike = PACKAGE, version: str | None = None) -> str:
    """A short hash of a package version and of every ``.py`` file under ``root``.

    Parameters
    ----------
    root : str or path-like
        The package folder (default: poimkit's).
    version : str, optional
        The version string (default: poimkit's ``__version__``).

    Returns
    -------
    str
        16 hexadecimal digits; any change of a source file or of the version
        changes it.
    """
    if version is None:
        from ._version import __version__ as version
    if Path(root) == PACKAGE and version == _version():
        return _package_key()  # read once per process
    return _source_key(str(Path(root).resolve()), version)


def _version() -> str:
    from ._version import __version__

    return __version__


@functools.lru_cache(maxsize=1)
def _package_key() -> str:
    return _source_key(str(PACKAGE), _version())


def _source_key(root: str, version: str) -> str:
    digest = hashlib.sha256(version.encode())
    for path in sorted(Path(root).rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def cache_roots() -> list[Path]:
    """The folders poimkit's compiled kernels are cached in, first usable first.

    Under numba's ``NUMBA_CACHE_DIR`` when the user set one
    (``NUMBA_CACHE_DIR/poimkit-KEY``); otherwise in the package's
    ``__pycache__/numba-KEY``, or, where the package folder is not writable,
    in ``$XDG_CACHE_HOME/poimkit/numba-KEY`` (``~/.cache`` by default). KEY is
    `source_key`.

    Returns
    -------
    list of pathlib.Path
        Candidate folders, in order.
    """
    from numba.core import config

    key = source_key()
    if config.CACHE_DIR:
        return [Path(config.CACHE_DIR) / f"poimkit-{key}"]
    return [PACKAGE / "__pycache__" / f"numba-{key}", user_cache(f"numba-{key}")]


def _install_cache_locator() -> None:
    """Put the keyed locator first in numba's list of cache locators, once.

    A no-op if numba lacks that interface (then its own locators apply) or
    the user chose locators with ``NUMBA_CACHE_LOCATOR_CLASSES``.
    """
    try:
        from numba.core import caching, config

        # public names in newer numba, underscored in older
        base = getattr(caching, "UserProvidedCacheLocator", None)
        base = base or caching._UserProvidedCacheLocator
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        classes = impl._locator_classes
    except (ImportError, AttributeError):  # pragma: no cover - other numba
        return
    if getattr(config, "CACHE_LOCATOR_CLASSES", None):
        return
    if any(getattr(c, "_poimkit", False) for c in classes):
        return

    class KeyedCacheLocator(base):
        """numba cache locator for poimkit's kernels: a folder per `source_key`."""

        _poimkit = True

        def __init__(self, py_func, py_file, root=None):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            subpath = self.get_suitable_cache_subpath(py_file)
            self._cache_path = os.path.join(root, subpath)

        def get_cache_path(self):
            return self._cache_path

        @classmethod
        def from_function(cls, py_func, py_file):
            path = Path(py_file).resolve()
            if PACKAGE not in path.parents or not path.exists():
                return None  # not poimkit's: numba's own locators
            for root in cache_roots():
                locator = cls(py_func, py_file, str(root))
                try:
                    locator.ensure_cache_path()
                except OSError:
                    continue
                return locator
            return None

    classes.insert(0, KeyedCacheLocator)


_install_cache_locator()
