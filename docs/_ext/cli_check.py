"""Fail the docs build when the CLI reference misses a command, or shows an en dash.

A page that shows an option's ``--`` as an en dash (smart quotes) breaks a
copied command.

The reference is generated from the parser (sphinx-argparse), so it cannot drift from
``--help``; this check makes sure the generated page holds every subcommand and every
option string of it, so a directive that stops expanding (or a subcommand left out)
fails the build instead of shipping an empty page.
"""

from __future__ import annotations

import argparse
import html
import re
from pathlib import Path

#: an en dash where ``--`` began an option name (``--force`` shown as "–force")
DASHED_OPTION = re.compile(r"(?<![\w\u2013-])\u2013[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def option_strings(parser: argparse.ArgumentParser) -> dict[str, list[str]]:
    """Every subcommand of ``parser`` and its option strings (``-h`` left out)."""
    out = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out[name] = sorted(
                    s
                    for a in sub._actions
                    for s in a.option_strings
                    if s not in ("-h", "--help")
                )
    return out


def missing_from(text: str, parser: argparse.ArgumentParser) -> list[str]:
    """What of ``parser`` the page ``text`` does not name."""
    text = html.unescape(text)
    missing = []
    for name, options in option_strings(parser).items():
        if f"poimkit {name}" not in text and f">{name}<" not in text:
            missing.append(name)
        missing += [f"{name} {o}" for o in options if o not in text]
    return missing


def dashed_options(text: str) -> list[str]:
    """Options of ``text`` whose ``--`` became an en dash."""
    return DASHED_OPTION.findall(html.unescape(text))


def _check(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    from poimkit.cli.parser import build_parser

    page = Path(app.outdir) / "cli.html"
    missing = missing_from(page.read_text(encoding="utf-8"), build_parser())
    if missing:
        raise RuntimeError(f"the CLI reference misses {missing}")
    dashed = {}
    for path in sorted(Path(app.outdir).rglob("*.html")):
        found = dashed_options(path.read_text(encoding="utf-8"))
        if found:
            dashed[path.relative_to(app.outdir).as_posix()] = sorted(set(found))[:5]
    if dashed:
        raise RuntimeError(f"options shown with an en dash, not --: {dashed}")


def setup(app):
    """Register the check after the build."""
    app.connect("build-finished", _check)
    return {"parallel_read_safe": True}
