"""The pieces of the report pages: style, tables, embedded figures, numbers.

Shared by the classification report (`poimkit.run.report.page`) and the
regression report (`poimkit.run.report.regression`).
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..results import RunSummary

#: the pages' style sheet
STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto;
       padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.2rem;
     border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.6rem 0; }
td, th { border: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: left; }
th { background: #f4f4f4; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.mono { font-family: ui-monospace, monospace; }
.note { color: #555; font-size: 0.92rem; }
img { max-width: 100%; }
td img { max-width: none; height: 4.5rem; width: auto; }  /* logos, unsquashed */
.big { font-size: 1.15rem; }
.hash { font-family: ui-monospace, monospace; word-break: break-all; }
"""


class Markup(str):
    """Markup that `table` cells pass through unescaped."""


def img(folder: Path, name: str, alt: str) -> Markup:
    """An ``<img>`` with the PNG ``folder / name`` embedded.

    Parameters
    ----------
    folder : pathlib.Path
        The folder of the figures.
    name : str
        The PNG's file name.
    alt : str
        The image's text alternative.

    Returns
    -------
    Markup
    """
    data = base64.b64encode((folder / name).read_bytes()).decode("ascii")
    return Markup(f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">')


def table(header: list[str], rows: list[list], numeric: set[int] = frozenset()) -> str:
    """An HTML table; cells escaped unless they are `Markup`.

    Parameters
    ----------
    header : list of str
        The column titles.
    rows : list of list
        The cells, row by row.
    numeric : set of int
        Columns aligned right as figures.

    Returns
    -------
    str

    Examples
    --------
    >>> table(["a"], [["<b>"]], {0})
    '<table><tr><th>a</th></tr><tr><td class="num">&lt;b&gt;</td></tr></table>'
    """
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            css = ' class="num"' if i in numeric else ""
            text = cell if isinstance(cell, Markup) else html.escape(str(cell))
            cells.append(f"<td{css}>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def motif_place(value: float | None) -> str:
    """A motif's position or spread as its logo's title shows it.

    Parameters
    ----------
    value : float or None
        None for a position-free model's motif.

    Returns
    -------
    str
        ``anywhere`` for None.
    """
    from ...plot import place_text  # the one rounding of figures and report

    return "anywhere" if value is None else place_text(value)


#: below the smallest positive double a probability is written as a bound
_TINY = "< 1e-300"


def probability(p: float) -> str:
    """A p- or q-value in 2 digits; ``< 1e-300`` where it underflowed to 0.

    Parameters
    ----------
    p : float
        A p-value or a BH q-value, in [0, 1].

    Returns
    -------
    str

    Examples
    --------
    >>> probability(0.01234), probability(0.0)
    ('0.012', '< 1e-300')
    """
    return _TINY if p == 0 else f"{p:.2g}"


def software_and_times(summary: RunSummary) -> list[str]:
    """A report's last tables: the software versions, each step's wall time.

    Parameters
    ----------
    summary : RunSummary
        A run's ``summary.json`` content (``versions``; ``runtimes`` where
        the run timed its steps).

    Returns
    -------
    list of str
        The tables' HTML.
    """
    parts = [table(["software", "version"], list(summary.versions.items()))]
    runtimes = [[k, f"{v:.2f} s"] for k, v in summary.runtimes.items()]
    if runtimes:
        parts.append(table(["step", "wall time"], runtimes, {1}))
    return parts


def write_page(path: str | Path, page: str) -> None:
    """Write a report page to ``path`` atomically (UTF-8).

    Parameters
    ----------
    path : str or pathlib.Path
        The HTML file.
    page : str
        The page.
    """
    from ...io import atomic_path

    with atomic_path(path) as tmp:
        Path(tmp).write_text(page, encoding="utf-8")


def plain(value: object) -> str:
    """A parameter's value as a reader writes it: no JSON quotes, yes / no.

    Parameters
    ----------
    value : object
        A parameter's value.

    Returns
    -------
    str

    Examples
    --------
    >>> plain(True), plain(0.5), plain(None), plain("wd")
    ('yes', '0.5', 'default', 'wd')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if value is None:
        return "default"
    return str(value)
