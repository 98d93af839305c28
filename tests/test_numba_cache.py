"""Numba's cache is keyed on the package source: an upgrade never runs old code."""

import os
import subprocess
import sys


def test_source_key_changes_with_any_source_file_and_the_version(tmp_path):
    from poimkit._config import source_key

    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "sub" / "helper.py").write_text("X = 1\n")
    before = source_key(tmp_path, "1.0")
    assert source_key(tmp_path, "1.0") == before
    assert source_key(tmp_path, "1.1") != before
    (tmp_path / "sub" / "helper.py").write_text("X = 2\n")  # a helper elsewhere
    changed = source_key(tmp_path, "1.0")
    assert changed != before
    (tmp_path / "sub" / "helper.py").write_text("X = 1\n")
    assert source_key(tmp_path, "1.0") == before  # content, not time stamps


def test_cache_roots_nest_under_a_user_cache_dir(tmp_path, monkeypatch):
    from numba.core import config

    from poimkit._config import PACKAGE, cache_roots, source_key

    key = source_key()
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    assert cache_roots() == [tmp_path / f"poimkit-{key}"]
    monkeypatch.setattr(config, "CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_roots() == [
        PACKAGE / "__pycache__" / f"numba-{key}",
        tmp_path / "poimkit" / f"numba-{key}",
    ]


def test_compiled_kernels_are_cached_under_the_keyed_folder(tmp_path):
    """Before: the index files were keyed on their own source file only."""
    import poimkit
    from poimkit._config import source_key

    code = (
        "import numpy as np\n"
        "from poimkit.kernels import wd_kernel\n"
        "X = np.zeros((2, 6), dtype=np.uint8)\n"
        "wd_kernel(X, X, degree=2)\n"
    )
    cache = tmp_path / "cache"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    root = os.path.dirname(os.path.dirname(poimkit.__file__))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    index = list(cache.rglob("*.nbi"))
    assert index
    keyed = cache / f"poimkit-{source_key()}"
    assert all(keyed in path.parents for path in index), index
