"""Sphinx configuration of poimkit's documentation site."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))
os.environ.setdefault("MPLBACKEND", "Agg")

from poimkit import __version__  # noqa: E402

project = "poimkit"
author = "the poimkit developers"
copyright = "2026, the poimkit developers"  # noqa: A001
version = release = __version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "sphinxarg.ext",
    "sphinx_gallery.gen_gallery",
    "cli_check",
]
# `name` in docstrings: a cross-reference where it resolves, code otherwise
default_role = "py:obj"
# no smart quotes: they turn the "--" of every option into an en dash
smartquotes = False
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "examples/README.txt", "benchmarks_suite.md"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header", "myst.xref_missing"]

autosummary_generate = True
templates_path = ["_templates"]
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False

sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "abort_on_example_error": True,
}

html_theme = "pydata_sphinx_theme"
html_title = f"poimkit {version}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
html_static_path: list[str] = []
