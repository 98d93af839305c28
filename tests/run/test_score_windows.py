"""`poimkit score`: the notice about centre-cropped records, and --windows."""

import numpy as np
import pytest

from poimkit import GkmSVC, WDKernelSVC
from poimkit.alphabet import decode, encode
from poimkit.datasets import make_gattaca
from poimkit.io import write_fasta
from poimkit.run.score import score_windows, write_windows

from ..cli_runs import main


@pytest.fixture(scope="module")
def models():
    X, y = make_gattaca(n_pos=20, n_neg=20, length=12, mean=4, sd=1, random_state=1)
    wd = WDKernelSVC(degree=3, shift=1).fit(X, y)
    strands = WDKernelSVC(degree=3, reverse_complement=True).fit(X, y)
    rng = np.random.default_rng(0)
    ragged = [x[: rng.integers(9, 13)] for x in X]
    gkm = GkmSVC(l=4, k=2, reverse_complement=True).fit(ragged, y)
    return {"wd": wd, "wd-strands": strands, "gkm": gkm}


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    rng = np.random.default_rng(5)
    lengths = [40, 5, 12, 31, 3]
    seqs = [rng.integers(0, 4, n, dtype=np.uint8) for n in lengths]
    path = tmp_path_factory.mktemp("w") / "long.fa"
    _write(path, [f"r{i}" for i in range(len(seqs))], seqs)
    return path, seqs


@pytest.mark.parametrize("kind", ["wd", "wd-strands", "gkm"])
@pytest.mark.parametrize("step", [1, 3, 7])
def test_window_scores_are_the_scores_of_the_cut_windows(models, records, kind, step):
    model = models[kind]
    path, seqs = records
    width = int(model.length_)
    stats = {}
    got = list(score_windows(model, path, step, stats=stats))
    long_enough = [i for i, x in enumerate(seqs) if x.size >= width]
    assert [rid for rid, _, _ in got] == [f"r{i}" for i in long_enough]
    assert stats["short"] == len(seqs) - len(long_enough)
    for (_, starts, scores), i in zip(got, long_enough, strict=True):
        x = seqs[i]
        np.testing.assert_array_equal(starts, np.arange(0, x.size - width + 1, step))
        cut = np.stack([x[s : s + width] for s in starts])
        np.testing.assert_allclose(
            scores, model.decision_function(cut), rtol=1e-9, atol=1e-12
        )
    assert stats["windows"] == sum(s.size for _, s, _ in got)


def test_reverse_complement_record_scores_alike(models, tmp_path):
    """Strand-symmetric models: a record and its reverse complement, mirrored."""
    model = models["gkm"]
    x = np.random.default_rng(2).integers(0, 4, 30, dtype=np.uint8)
    path = tmp_path / "two.fa"
    _write(path, ["f", "r"], [x, (3 - x)[::-1]])
    (_, s1, f), (_, s2, r) = score_windows(model, path, 1)
    np.testing.assert_allclose(f, r[::-1], rtol=1e-9)


def test_write_windows_bed_like_table(models, records, tmp_path):
    path, seqs = records
    model = models["wd"]
    out = tmp_path / "w.tsv"
    stats = write_windows(model, path, out, 10)
    lines = out.read_text().splitlines()
    assert lines[0] == "#id\tstart\tend\tscore"
    first = lines[1].split("\t")
    assert first[:3] == ["r0", "0", "12"]
    assert float(first[3]) == pytest.approx(
        model.decision_function(seqs[0][None, :12])[0]
    )
    assert len(lines) - 1 == stats["windows"] == 3 + 1 + 2
    assert stats == {"records": 3, "windows": 6, "short": 2, "invalid": 0}


def _write(path, ids, seqs):
    write_fasta(path, ids, [decode(np.asarray(x, np.uint8)[None])[0] for x in seqs])


def _score(models, tmp_path, kind):
    model_path = tmp_path / f"{kind}.npz"
    models[kind].save(model_path)
    return model_path


def test_cli_notices_centre_cropped_records(models, tmp_path, capsys):
    model = _score(models, tmp_path, "wd")
    rng = np.random.default_rng(1)
    fasta = tmp_path / "crop.fa"
    _write(fasta, ["a", "b", "c"], [rng.integers(0, 4, n) for n in (12, 50, 13)])
    out = tmp_path / "s.tsv"
    assert main(["score", model, fasta, "-o", out]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[0].startswith("2 of 3 records were longer")
    assert "--windows" in err[0]
    assert main(["score", model, fasta, "-o", out, "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert main(["score", model, fasta, "-o", out, "--crop", "12"]) == 0
    assert "longer" not in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["wd", "gkm"])
def test_cli_windows(models, records, tmp_path, capsys, kind):
    model = _score(models, tmp_path, kind)
    path, _ = records
    out = tmp_path / "w.tsv"
    assert main(["score", model, path, "--windows", "2", "-o", out]) == 0
    err = capsys.readouterr().err
    assert "2 records shorter than the model's window" in err
    width = models[kind].length_
    assert f"windows of {width} letters (step 2) in 3 records" in err
    got = [line.split("\t") for line in out.read_text().splitlines()[1:]]
    expected = list(score_windows(models[kind], path, 2))
    assert len(got) == sum(s.size for _, s, _ in expected)
    rid, starts, scores = expected[0]
    assert got[1] == [rid, str(starts[1]), str(starts[1] + width), f"{scores[1]:.10g}"]


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--windows", "0"], "windows"),
        (["--windows", "2", "--crop", "10"], "--crop"),
    ],
)
def test_cli_windows_bad_options_exit_2(
    models, records, tmp_path, capsys, extra, message
):
    model = _score(models, tmp_path, "wd")
    path, _ = records
    out = tmp_path / "w.tsv"
    assert main(["score", model, path, *extra, "-o", out]) == 2
    assert message in capsys.readouterr().err and not out.exists()


def _genome_with_gaps(tmp_path):
    """Two chromosomes: N gaps (an assembly's), an IUPAC letter, one all N."""
    rng = np.random.default_rng(9)
    x = rng.integers(0, 4, 80, dtype=np.uint8)
    chr1 = decode(x[None])[0]
    chr1 = "NNNN" + chr1[:30] + "N" * 10 + chr1[30:70].lower() + "R" + chr1[70:]
    chr2 = decode(x[None, :40])[0]
    path = tmp_path / "genome.fa"
    path.write_text(f">chr1\n{chr1}\n>chr2\n{chr2}\n>gap\n{'N' * 30}\n")
    return path, {"chr1": chr1.upper(), "chr2": chr2, "gap": "N" * 30}


@pytest.mark.parametrize("kind", ["wd", "gkm"])
@pytest.mark.parametrize("step", [1, 4])
def test_windows_holding_n_are_skipped_and_counted(models, tmp_path, kind, step):
    """An assembly's N gaps: the windows holding N are left out, and counted."""
    model = models[kind]
    width = int(model.length_)
    path, records = _genome_with_gaps(tmp_path)
    stats = {}
    got = {rid: (s, v) for rid, s, v in score_windows(model, path, step, stats=stats)}
    assert list(got) == ["chr1", "chr2"]
    n_skipped = 0
    for rid, seq in records.items():
        starts = range(0, len(seq) - width + 1, step)
        clean = [s for s in starts if set(seq[s : s + width]) <= set("ACGT")]
        n_skipped += len(starts) - len(clean)
        if not clean:
            continue
        np.testing.assert_array_equal(got[rid][0], clean)
        cut = [seq[s : s + width] for s in clean]
        np.testing.assert_allclose(
            got[rid][1], model.decision_function(encode(cut)), rtol=1e-9, atol=1e-12
        )
    assert n_skipped > 0 and stats["invalid"] == n_skipped
    assert stats["windows"] == sum(s.size for s, _ in got.values())
    assert stats["records"] == 2 and stats["short"] == 0


@pytest.mark.parametrize("extra", [[], ["--drop-invalid"]])
def test_cli_windows_of_a_genome_with_n(models, tmp_path, capsys, extra):
    model = _score(models, tmp_path, "wd")
    path, _ = _genome_with_gaps(tmp_path)
    out = tmp_path / "w.tsv"
    assert main(["score", model, path, "--windows", "1", "-o", out, *extra]) == 0
    stats = {}
    got = list(score_windows(models["wd"], path, 1, stats=stats))
    assert len(out.read_text().splitlines()) == 1 + sum(s.size for _, s, _ in got)
    err = capsys.readouterr().err.splitlines()
    assert f"skipped {stats['invalid']} windows holding N" in err[0]
    assert "in 2 records" in err[-1]


def test_cli_windows_refuses_when_no_record_holds_a_window(models, tmp_path, capsys):
    """Every record shorter than the window: exit 2, and no table written."""
    model = _score(models, tmp_path, "wd")
    fasta = tmp_path / "short.fa"
    _write(fasta, ["a", "b"], [np.zeros(5, np.uint8), np.ones(7, np.uint8)])
    out = tmp_path / "w.tsv"
    assert main(["score", model, fasta, "-o", out, "--windows", "2"]) == 2
    err = capsys.readouterr().err
    assert "no window to score: none of the 2 records holds a window of 12" in err
    assert str(fasta) in err
    assert not out.exists()
