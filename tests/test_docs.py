"""The documentation site is checked like code: public names, commands, examples."""

from __future__ import annotations

import argparse
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

from cli_check import dashed_options, missing_from  # noqa: E402

#: the packages whose ``__all__`` is the public API
PACKAGES = (
    "poimkit",
    "poimkit.io",
    "poimkit.svm",
    "poimkit.kernels",
    "poimkit.poim",
    "poimkit.motifs",
    "poimkit.importance",
    "poimkit.variants",
    "poimkit.run",
    "poimkit.plot",
    "poimkit.background",
    "poimkit.explain",
    "poimkit.torch",
    "poimkit.datasets",
    "poimkit.batch",
)
EXAMPLES = sorted((DOCS / "examples").glob("plot_*.py"))


def _documented() -> dict[str, set[str]]:
    """Names listed under each ``.. currentmodule::`` of the API page."""
    listed: dict[str, set[str]] = {}
    module = None
    for line in (DOCS / "api.rst").read_text().splitlines():
        if m := re.match(r"\.\. currentmodule:: (\S+)", line):
            module = m.group(1)
        elif module and (m := re.match(r"   ([A-Za-z_]\w*)$", line)):
            listed.setdefault(module, set()).add(m.group(1))
    return listed


def test_every_public_name_has_a_page():
    listed = _documented()
    top = set(importlib.import_module("poimkit").__all__)
    missing = []
    for name in PACKAGES:
        for public in importlib.import_module(name).__all__:
            if public == "__version__":
                continue
            where = "poimkit" if public in top else name
            if public not in listed.get(where, set()):
                missing.append(f"{name}.{public}")
    assert not missing, f"public names without an API page: {missing}"


def test_the_api_page_names_only_what_exists():
    for module, names in _documented().items():
        found = importlib.import_module(module)
        assert all(hasattr(found, n) for n in names), module


def test_every_subpackage_with_an_api_is_listed():
    import pkgutil

    import poimkit

    folders = {
        f"poimkit.{m.name}"
        for m in pkgutil.iter_modules(poimkit.__path__)
        if m.ispkg and m.name not in ("cli", "genome")
    }
    assert folders <= set(PACKAGES), sorted(folders - set(PACKAGES))


def test_cli_reference_is_generated_from_the_parser():
    text = (DOCS / "cli.rst").read_text()
    assert ":module: poimkit.cli.parser" in text and ":func: build_parser" in text


def test_cli_check_finds_a_missing_option():
    from poimkit.cli.parser import build_parser

    parser = build_parser()
    assert missing_from("", parser)  # an empty page misses everything
    words = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                words.append(f"poimkit {name}")
                words += [s for a in sub._actions for s in a.option_strings]
    page = " ".join(words)
    assert missing_from(page, parser) == []
    assert missing_from(page.replace("--null-windows", "--null-wind"), parser) == [
        "variants --null-windows"
    ]


def test_an_option_shown_with_an_en_dash_is_found():
    """Smart quotes turned ``--force`` into "\u2013force" on the site (issue 55)."""
    page = "<code>poimkit run \u2013force \u2013max-order 2</code> pages 1\u20132"
    assert dashed_options(page) == ["\u2013force", "\u2013max-order"]
    assert dashed_options("poimkit run --force; A\u2013B; 3\u20134 x") == []
    conf = (DOCS / "conf.py").read_text()
    assert re.search(r"^smartquotes = False$", conf, re.M)


def test_every_page_is_in_the_site():
    index = (DOCS / "index.md").read_text()
    pages = [
        p.relative_to(DOCS).with_suffix("").as_posix()
        for p in DOCS.rglob("*.md")
        if "_build" not in p.parts and p.name != "index.md"
    ]
    included = {"benchmarks_suite"}  # included in benchmarks.md
    assert [p for p in pages if p not in included and p not in index] == []


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_examples_run(example, tmp_path):
    result = subprocess.run(
        [sys.executable, example],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "MPLBACKEND": "Agg"},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
