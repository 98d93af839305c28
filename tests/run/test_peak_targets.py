"""Peak strength as a target: ``run --bed P --genome G --targets signal``."""

import numpy as np
import pytest

from poimkit.cli import main
from poimkit.datasets import write_synthetic_genome
from poimkit.errors import InputError

from ..cli_runs import strict_json


@pytest.fixture(scope="module")
def strength(tmp_path_factory):
    """Peaks whose signalValue is 1 + 4 (site at the summit) + noise."""
    folder = tmp_path_factory.mktemp("strength")
    g = write_synthetic_genome(
        folder / "g",
        n_peaks=160,
        chromosome_length=400_000,
        motif_fraction=0.5,
        seed=12,
    )
    rng = np.random.default_rng(0)
    signal = 1 + 4 * g.peak_has_motif + rng.normal(0, 0.5, len(g.peak_has_motif))
    signal = np.maximum(signal, 0.05)
    lines = g.peaks.read_text().splitlines()
    rows = []
    for line, value in zip(lines, signal, strict=True):
        fields = line.split("\t")
        fields[6] = f"{value:.3f}"
        rows.append("\t".join(fields) + "\n")
    peaks = folder / "strength.narrowPeak"
    peaks.write_text("".join(rows))
    return g, peaks, signal


FAST = ["--kernel", "gkm", "--no-grid", "--cv", "2", "--max-motifs", "0", "--quiet"]


def test_a_peak_strength_run_regresses_on_the_signal(strength, tmp_path):
    g, peaks, _ = strength
    out = tmp_path / "out"
    args = ["run", "--bed", str(peaks), "--genome", str(g.genome), "--width", "100"]
    assert main([*args, "--targets", "signal", "--log1p", *FAST, "-o", str(out)]) == 0
    summary = strict_json(out / "summary.json")
    assert summary["targets"] == {"source": "signal", "log1p": True}
    assert summary["peaks"]["n_windows"] > 100
    assert summary["cv_split"] == "chromosome" or "block" in summary["cv_split"]
    assert summary["cv_pearson"] > 0.5
    assert not (out / "negatives.bed").exists()


def test_negatives_when_asked_are_background_at_zero(strength, tmp_path):
    g, peaks, _ = strength
    out = tmp_path / "out"
    args = ["run", "--bed", str(peaks), "--genome", str(g.genome), "--width", "100"]
    args += ["--targets", "signal", "--negatives", "genomic", *FAST, "-o", str(out)]
    assert main(args) == 0
    summary = strict_json(out / "summary.json")
    made = summary["negatives"]
    assert made["target"] == 0.0 and made["file"] == "negatives.bed"
    n_bed = len((out / "negatives.bed").read_text().splitlines())
    assert summary["n_sequences"] == summary["peaks"]["n_windows"] + n_bed
    assert summary["cv_pearson"] > 0.5


def test_targets_from_a_table_keyed_by_the_peaks(strength, tmp_path):
    g, peaks, signal = strength
    table = tmp_path / "t.tsv"
    lines = peaks.read_text().splitlines()
    table.write_text(
        "peak\tvalue\n"
        + "".join(
            f"{f[0]}:{f[1]}-{f[2]}\t{v}\n"
            for f, v in zip((x.split("\t") for x in lines), signal, strict=True)
        )
    )
    out = tmp_path / "out"
    args = ["run", "--bed", str(peaks), "--genome", str(g.genome), "--width", "100"]
    assert main([*args, "--targets", str(table), *FAST, "-o", str(out)]) == 0
    summary = strict_json(out / "summary.json")
    assert summary["cv_pearson"] > 0.5


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--targets", "column:4"], r"strength\.narrowPeak: line 1: column 4"),
        (["--targets", "nothing"], "a column .* or a TSV file"),
        (["--log1p"], "--log1p goes with --targets"),
        (["--targets", "signal", "--known", "jaspar"], "--known tests classes"),
    ],
)
def test_bad_peak_targets_exit_2(strength, tmp_path, capsys, extra, message):
    g, peaks, _ = strength
    out = tmp_path / "out"
    args = ["run", "--bed", str(peaks), "--genome", str(g.genome)]
    assert main([*args, *extra, "-o", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert __import__("re").search(message, err), err
    assert not out.exists()


def test_log1p_targets_and_their_limit():
    from poimkit.errors import InputError
    from poimkit.run.peak_targets import log1p_targets, target_column

    assert log1p_targets(np.array([0.0, np.e - 1]), "t") == pytest.approx([0, 1])
    with pytest.raises(InputError, match="above -1; t.tsv has -1"):
        log1p_targets(np.array([3.0, -1.0]), "t.tsv")
    assert [target_column(s) for s in ("signal", "pValue", "column:3")] == [7, 8, 3]
    with pytest.raises(InputError, match="column:N needs N >= 1"):
        target_column("column:0")


def test_train_on_peak_strength_writes_its_negatives_beside_the_model(
    strength, tmp_path, capsys
):
    g, peaks, _ = strength
    model = tmp_path / "m.npz"
    args = ["train", "--bed", str(peaks), "--genome", str(g.genome), "--width", "100"]
    args += ["--targets", "signal", "--negatives", "shuffle", "--kernel", "gkm"]
    assert main([*args, "--no-grid", "--cv", "0", "-o", str(model)]) == 0
    assert model.is_file() and (tmp_path / "m.negatives.fa").is_file()
    assert "negatives written beside it" in capsys.readouterr().err


def test_column_targets_name_short_lines_and_warn_on_coordinates(strength, tmp_path):
    g, peaks, _ = strength
    args = ["run", "--bed", str(peaks), "--genome", str(g.genome), "--width", "100"]
    out = ["-o", str(tmp_path / "out"), *FAST]
    assert main([*args, "--targets", "column:99", *out]) == 2
    from poimkit.run.peak_targets import column_values, target_column

    with pytest.raises(
        InputError, match="line 1 has 10 columns, so it has no column 99"
    ):
        column_values(str(peaks), 99, np.array([1]))
    with pytest.raises(InputError, match="not a finite number"):
        column_values(str(peaks), 1, np.array([1]))
    import logging

    with _caught("poimkit") as records:
        assert target_column("column:3") == 3
        assert target_column("column:7") == 7
    assert [r.getMessage() for r in records] == [
        "--targets column:3: column 3 of a BED file is the peak's end coordinate, "
        "not a measurement"
    ]
    assert all(r.levelno == logging.WARNING for r in records)


class _caught:
    """The records a logger emits inside the block."""

    def __init__(self, name):
        import logging

        self.logger = logging.getLogger(name)
        self.records = []
        self.handler = logging.Handler()
        self.handler.emit = self.records.append

    def __enter__(self):
        self.logger.addHandler(self.handler)
        return self.records

    def __exit__(self, *exc):
        self.logger.removeHandler(self.handler)
