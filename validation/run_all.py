"""Run every reproduction script in this folder (figures and JSON into --out).

python validation/run_all.py            # full sizes
python validation/run_all.py --quick    # small sizes
python validation/run_all.py --table    # README's table of the claims

Every script in this folder except ``_common.py`` and this one is run, in
name order; the sequence figures are ``firm_fig3_gattaca.py``,
``mfi_fig5_two_motifs.py`` and ``differential_poim_two_motifs.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def claims_table(results: Path = HERE / "results") -> list[str]:
    """README's table of the papers' claims, one row per claim of every JSON.

    ``python validation/run_all.py --table`` prints it; a test keeps
    README.md equal to it.
    """
    rows = ["| script | claim | verdict |", "|---|---|---|"]
    for path in sorted(results.glob("*.json")):
        for entry in json.loads(path.read_text()).get("claims", []):
            text = entry["claim"].replace("|", "\\|")
            rows.append(f"| `{path.stem}` | {text} | {entry['verdict']} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run each script with the given arguments; report failures at the end."""
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--table"]:
        print("\n".join(claims_table()))
        return 0
    failed = []
    for script in sorted(HERE.glob("*.py")):
        if script.name.startswith("_") or script.name == Path(__file__).name:
            continue
        start = time.perf_counter()
        code = subprocess.call([sys.executable, str(script), *argv])
        print(
            f"{script.name}: exit {code}, {time.perf_counter() - start:.1f} s",
            flush=True,
        )
        if code:
            failed.append(script.name)
    if failed:
        print("failed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
