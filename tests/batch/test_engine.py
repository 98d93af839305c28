"""Running a batch on Dask: outcomes, failures, resume, killed workers, the atlas."""

import csv
import json
import os
import signal
import threading
import time
from dataclasses import replace

import numpy as np
import pytest

from poimkit.batch import RowSettings, plan_batch, run_batch
from poimkit.batch.engine import plan_workers
from poimkit.io import write_fasta, write_table
from poimkit.run import RunOptions

from ..cli_runs import main, strict_json, write_gattaca

pytest.importorskip("distributed")

#: a quick classification: WD, no grid, 2 folds, POIMs to 3-mers, one motif
FAST = RunOptions(kernel="wd", degree=6, grid=False, C=1.0, cv=2, max_order=3)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """Two GATTACA pairs, a FASTA with a bad letter, and a regression's records."""
    folder = tmp_path_factory.mktemp("inputs")
    for name, seed in (("one", 0), ("two", 0)):  # one factor, two experiments
        (folder / name).mkdir()
        write_gattaca(folder / name, 120, 40, 12, 2, seed)
    (folder / "bad.fa").write_text(">a\nACGTXACGTA\n>b\nACGTACGTAC\n")
    rng = np.random.default_rng(3)
    seqs = ["".join(rng.choice(list("ACGT"), 30)) for _ in range(160)]
    y = [s.count("GC") + rng.normal(0, 0.3) for s in seqs]
    ids = [f"r{i}" for i in range(len(seqs))]
    write_fasta(folder / "reg.fa", ids, seqs)
    write_table(
        folder / "reg.tsv",
        ["id", "y"],
        [(i, f"{v:.4f}") for i, v in zip(ids, y, strict=True)],
    )
    return folder


def _sheet(inputs, rows: list[str]):
    path = inputs / f"sheet_{abs(hash(tuple(rows)))}.tsv"
    lines = ["name\tpos\tneg\tfasta\ttargets", *rows]
    path.write_text("\n".join(lines) + "\n")
    return path


GOOD = ["one\tone/p.fa\tone/n.fa\t\t", "two\ttwo/p.fa\ttwo/n.fa\t\t"]
REGRESSION = "strength\t\t\treg.fa\treg.tsv"


def _fast(experiment):
    options = RunOptions(kernel="gkm", grid=False, C=1.0, cv=2, max_order=2)
    return RowSettings(options if experiment.regression else FAST)


def _summaries(out, names):
    found = {}
    for name in names:
        s = strict_json(out / "runs" / name / "summary.json")
        s.pop("runtimes")
        found[name] = s
    return found


def test_plan_workers_never_oversubscribes_the_cores(monkeypatch):
    import poimkit._machine as machine

    monkeypatch.setattr(machine, "usable_cores", lambda: 8)
    assert plan_workers(2, tasks=10) == (2, 4)
    assert plan_workers(3, tasks=10) == (3, 2)
    assert plan_workers(4, tasks=2) == (2, 4)  # no more workers than experiments
    workers, threads = plan_workers(None, tasks=10)
    assert workers * threads <= 8 and workers >= 1
    with pytest.raises(Exception, match="--workers must be at least 1"):
        plan_workers(0)


def test_a_batch_runs_every_road_keeps_going_past_a_failure_and_resumes(
    inputs, tmp_path
):
    sheet = _sheet(inputs, [*GOOD, "broken\tbad.fa\tone/n.fa\t\t", REGRESSION])
    out = tmp_path / "atlas"
    seen = []
    result = run_batch(sheet, out, workers=2, settings=_fast, on_outcome=seen.append)
    status = {o.name: o.status for o in result.outcomes}
    assert status == {
        "one": "done",
        "two": "done",
        "broken": "failed",
        "strength": "done",
    }
    assert sorted(o.name for o in seen) == sorted(status)
    assert result.workers == 2 and result.threads >= 1
    broken = result.failed[0]
    assert "bad.fa, record 'a', position 5" in broken.error and "\n" not in broken.error
    assert all(o.peak_memory_mb > 0 for o in result.outcomes if o.status == "done")
    # each experiment's folder is what `poimkit run` writes; nothing partial
    assert sorted(p.name for p in (out / "runs").iterdir()) == [
        "one",
        "strength",
        "two",
    ]
    summaries = _summaries(out, ["one", "two", "strength"])
    assert summaries["strength"]["task"] == "regression"
    with open(out / "failed.tsv") as handle:
        rows = list(csv.reader(handle, delimiter="\t"))
    assert rows[0] == ["name", "error"] and [r[0] for r in rows[1:]] == ["broken"]

    # the atlas: one row per experiment, its figures from its summary
    with open(out / "experiments.tsv") as handle:
        table = {r["name"]: r for r in csv.DictReader(handle, delimiter="\t")}
    assert list(table) == ["one", "two", "broken", "strength"]
    one = table["one"]
    assert (
        one["status"] == "done" and one["road"] == "fasta" and one["n_records"] == "240"
    )
    assert one["cv_metric"] == "auc" and one["family"] == "wd"
    assert float(one["cv_value"]) == pytest.approx(summaries["one"]["cv_auc"], abs=1e-4)
    assert float(one["cv_low"]) <= float(one["cv_value"]) <= float(one["cv_high"])
    assert one["report"] == "runs/one/report.html"
    assert one["motifs"] == " ".join(m["iupac"] for m in summaries["one"]["motifs"])
    assert "ATTAC" in one["motifs"]  # the planted GATTACA
    assert table["strength"]["cv_metric"] == "pearson"
    assert table["broken"]["status"] == "failed" and table["broken"]["cv_value"] == ""
    page = (out / "atlas.html").read_text()
    assert '<a href="runs/one/report.html">one</a>' in page
    assert "Failed experiments" in page and "bad.fa" in page

    # the motif families: both GATTACA experiments' motifs in one family, the
    # matrix the largest share of records with a site per experiment
    with open(out / "motif_families.tsv") as handle:
        families = list(csv.DictReader(handle, delimiter="\t"))
    gattaca = [
        f"{name}:{m['iupac']}"
        for name in ("one", "two")
        for m in summaries[name]["motifs"]
        if "ATTAC" in m["iupac"] or "GTAAT" in m["iupac"]
    ]
    assert {g.split(":")[0] for g in gattaca} == {"one", "two"}
    holding = [f for f in families if set(gattaca) & set(f["members"].split(","))]
    assert len(holding) == 1 and set(gattaca) <= set(holding[0]["members"].split(","))
    with open(out / "motif_matrix.tsv") as handle:
        matrix = {r["family"]: r for r in csv.DictReader(handle, delimiter="\t")}
    row = matrix[holding[0]["family"]]
    for name in ("one", "two"):
        shares = [
            m["frac_positive"]
            for m in summaries[name]["motifs"]
            if f"{name}:{m['iupac']}" in holding[0]["members"].split(",")
        ]
        assert float(row[name]) == pytest.approx(max(shares), abs=1e-4)
    assert float(row["broken"] if "broken" in row else 0) == 0.0
    assert "Motif families across experiments" in page
    assert (out / "motif_families.meme").read_text().count("MOTIF family_") == len(
        families
    )

    # a rerun runs only what failed; a changed input or option runs again
    again = run_batch(sheet, out, workers=2, settings=_fast)
    status = {o.name: o.status for o in again.outcomes}
    assert status == {
        "one": "skipped",
        "two": "skipped",
        "broken": "failed",
        "strength": "skipped",
    }
    assert _summaries(out, ["one", "two", "strength"]) == summaries
    os.utime(inputs / "two" / "p.fa", ns=(time.time_ns(), time.time_ns() + 10**9))
    state = json.loads((out / "batch.json").read_text())
    assert set(state["experiments"]) == {"one", "two", "strength"}

    def other_seed(experiment):
        found = _fast(experiment)
        if experiment.name == "strength":
            return RowSettings(replace(found.options, seed=1))
        return found

    third = run_batch(sheet, out, workers=2, settings=other_seed)
    status = {o.name: o.status for o in third.outcomes}
    assert status == {
        "one": "skipped",
        "two": "done",
        "broken": "failed",
        "strength": "done",
    }


def test_workers_as_threads_and_as_processes_give_the_same_runs(inputs, tmp_path):
    sheet = _sheet(inputs, GOOD)
    runs = {}
    for processes in (False, True):
        out = tmp_path / f"atlas_{processes}"
        result = run_batch(sheet, out, workers=2, settings=_fast, processes=processes)
        assert [o.status for o in result.outcomes] == ["done", "done"]
        runs[processes] = _summaries(out, ["one", "two"])
    assert runs[False] == runs[True]


def test_model_rows_are_explained_untrained_beside_a_trained_row(inputs, tmp_path):
    """An LS-GKM file alone and with records: no CV, its motifs in the families."""
    from poimkit import GkmSVC
    from poimkit.io import read_fasta
    from poimkit.svm.lsgkm import write_lsgkm

    X = [
        *read_fasta(inputs / "two" / "p.fa")[1],
        *read_fasta(inputs / "two" / "n.fa")[1],
    ]
    y = np.repeat([1, 0], len(X) // 2)
    write_lsgkm(GkmSVC(l=6, k=4, C=1.0).fit(X, y), tmp_path / "two.model.txt")
    sheet = tmp_path / "sheet.tsv"
    sheet.write_text(
        "name\tpos\tneg\tmodel\n"
        f"one\t{inputs}/one/p.fa\t{inputs}/one/n.fa\t\n"
        "zoo\t\t\ttwo.model.txt\n"
        f"zoo_records\t{inputs}/two/p.fa\t{inputs}/two/n.fa\ttwo.model.txt\n"
    )
    options = RunOptions(max_order=6, max_motifs=2)

    def settings(experiment):
        return RowSettings(options) if experiment.explains else _fast(experiment)

    result = run_batch(sheet, tmp_path / "atlas", workers=1, settings=settings)
    assert [o.status for o in result.outcomes] == ["done"] * 3
    out = tmp_path / "atlas"
    with open(out / "experiments.tsv") as handle:
        table = {r["name"]: r for r in csv.DictReader(handle, delimiter="\t")}
    for name, road, records in (
        ("zoo", "model", "0"),
        ("zoo_records", "model fasta", "240"),
    ):
        row = table[name]
        assert (row["road"], row["n_records"], row["model"]) == (
            road,
            records,
            "explained",
        )
        assert row["cv_value"] == row["cv_metric"] == row["better_than_chance"] == ""
        assert row["family"] == "LsgkmModel"
        assert row["motifs"]
        assert len(row["motif_matches"].split()) == len(row["motifs"].split())
    assert "GATTACA" in table["zoo_records"]["motifs"].split()
    assert table["one"]["cv_metric"] == "auc" and table["one"]["model"] != "explained"
    assert (out / "runs" / "zoo" / "explained_model.model.txt").is_file()
    # GATTACA of all three rows is one family; the row without records has no share
    with open(out / "motif_families.tsv") as handle:
        families = list(csv.DictReader(handle, delimiter="\t"))
    gattaca = [
        f
        for f in families
        if {"one", "zoo", "zoo_records"} <= set(f["experiments"].split(","))
    ]
    assert len(gattaca) == 1
    with open(out / "motif_matrix.tsv") as handle:
        matrix = {r["family"]: r for r in csv.DictReader(handle, delimiter="\t")}
    row = matrix[gattaca[0]["family"]]
    assert row["zoo"] == "nan" and 0 < float(row["zoo_records"]) <= 1
    assert "explained" in (out / "atlas.html").read_text()


def test_a_users_own_client_runs_the_batch(inputs, tmp_path):
    from dask.distributed import Client, LocalCluster

    sheet = _sheet(inputs, GOOD[:1])
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False) as cluster:
        with Client(cluster) as client:
            result = run_batch(sheet, tmp_path / "atlas", client=client, settings=_fast)
            assert client.status == "running"  # the user's: left open
    assert [o.status for o in result.outcomes] == ["done"] and result.threads is None


def test_a_killed_worker_has_its_experiment_run_elsewhere(inputs, tmp_path):
    """The task goes to the other worker; the killed one's partial folder goes."""
    from dask.distributed import Client, LocalCluster

    sheet = _sheet(inputs, GOOD[:1])
    slow = RowSettings(RunOptions(kernel="wd", degree=8, cv=3, max_order=5))
    tasks = plan_batch(sheet, tmp_path / "atlas", settings=lambda e: slow)
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster,
        Client(cluster) as client,
    ):
        pids = client.run(os.getpid)
        killed = []

        def kill_when_busy():
            for _ in range(600):
                busy = [w for w, keys in client.processing().items() if keys]
                staged = list((tmp_path / "atlas" / "runs").glob(".one.partial-*"))
                if busy and staged:
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(busy[0])
                    return
                time.sleep(0.1)

        killer = threading.Thread(target=kill_when_busy)
        killer.start()
        result = run_batch(tasks, tmp_path / "atlas", client=client)
        killer.join()
    assert killed, "the worker was never busy"
    assert [o.status for o in result.outcomes] == ["done"]
    runs = tmp_path / "atlas" / "runs"
    assert [p.name for p in runs.iterdir() if p.is_dir()] == ["one"]
    assert (runs / "one" / "summary.json").is_file()


def test_the_command_prints_a_line_per_experiment_and_says_some_failed(
    inputs, tmp_path, capsys
):
    sheet = _sheet(inputs, [GOOD[0], "broken\tbad.fa\tone/n.fa\t\t"])
    out = tmp_path / "atlas"
    flags = "--kernel wd --degree 6 --no-grid --cv 2 --max-order 3"
    assert main(["batch", sheet, "-o", out, "--options", flags, "--workers", "1"]) == 3
    captured = capsys.readouterr()
    assert "experiments\t2\tfailed\t1" in captured.out
    assert "one: done (" in captured.err and "broken: failed (" in captured.err
    assert "see " in captured.err and "failed.tsv" in captured.err
    assert main(["batch", sheet, "-o", out, "--options", flags, "--quiet"]) == 3
    captured = capsys.readouterr()
    assert captured.err == "" and "failed\t1" in captured.out


def test_peak_rows_run_with_genomic_negatives_from_the_command_line(tmp_path, capsys):
    """A bed row's negatives default to genomic, as `poimkit run`'s (was None)."""
    from poimkit.datasets import write_synthetic_genome

    made = write_synthetic_genome(tmp_path / "genome", n_peaks=80, seed=4)
    sheet = tmp_path / "sheet.tsv"
    sheet.write_text(f"name\tbed\toptions\npeaks\t{made.peaks}\t--width 100\n")
    flags = "--kernel gkm --no-grid -C 1 --cv 2 --max-order 3 --max-motifs 1"
    out = tmp_path / "atlas"
    args = ["batch", sheet, "--genome", made.genome, "--options", flags, "-o", out]
    assert main([*args, "--workers", "1"]) == 0, capsys.readouterr().err
    summary = strict_json(out / "runs" / "peaks" / "summary.json")
    assert (
        summary["negatives"]["kind"] == "genomic" and summary["peaks"]["width"] == 100
    )
    assert (out / "runs" / "peaks" / "negatives.bed").is_file()


def test_a_terminated_batch_keeps_what_finished_and_leaves_nothing_partial(
    inputs, tmp_path
):
    """SIGTERM (a scheduler's stop; Ctrl-C unwinds the same way) mid-experiment."""
    import subprocess
    import sys

    sheet = _sheet(inputs, GOOD[:1])
    out = tmp_path / "atlas"
    flags = "--kernel wd --degree 8 --cv 3 --max-order 5"
    process = subprocess.Popen(
        [sys.executable, "-m", "poimkit", "batch", sheet, "-o", out, "--options", flags]
        + ["--workers", "1", "--quiet"],
        stderr=subprocess.PIPE,
        text=True,
    )
    runs = out / "runs"
    for _ in range(1200):
        if list(runs.glob(".one.partial-*")) or process.poll() is not None:
            break
        time.sleep(0.05)
    assert process.poll() is None, "the experiment finished before it was stopped"
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143, err
    assert not [p.name for p in runs.iterdir() if p.name.startswith(".one.partial")]
    assert not (runs / "one").exists() and (out / "batch.json").is_file()
