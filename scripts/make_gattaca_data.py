"""Regenerate ``data/gattaca/`` byte-identically.

Usage, from the repository root::

    python scripts/make_gattaca_data.py [OUT_DIR]

``OUT_DIR`` defaults to ``data/gattaca``. See ``data/gattaca/PROVENANCE.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    """Write ``positives.fa`` and ``negatives.fa``; return the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or (args and args[0].startswith("-")):
        print(__doc__, file=sys.stderr)
        return 2
    if str(ROOT) not in sys.path:  # run from a checkout without installing
        sys.path.insert(0, str(ROOT))
    from poimkit.datasets.gattaca import write_gattaca_data

    out = Path(args[0]) if args else ROOT / "data" / "gattaca"
    out.mkdir(parents=True, exist_ok=True)
    for path in write_gattaca_data(out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
