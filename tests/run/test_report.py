"""The run report: what it shows for each model kind, and how (issue 29, item 7).

Figures are checked through the figures `write_figures` saves (aligned
position axes, nothing clipped); the page through `render_report`'s pieces
and a small gkm run, whose ``sites.tsv`` must point into the user's records.
"""

import csv
import json
from dataclasses import asdict
from types import SimpleNamespace

import numpy as np
import pytest

from poimkit import WDKernelSVC, compute_poim
from poimkit.datasets import make_gattaca
from poimkit.io import write_fasta
from poimkit.motifs.motif import Motif
from poimkit.run import RunOptions, run_pipeline
from poimkit.run.crossval import auc_interval
from poimkit.run.figures import write_figures
from poimkit.run.report.page import _motif_table, _parameter_rows
from poimkit.run.results import CVResult
from poimkit.run.summary import _number

from ..naive import reverse_complement_text

MOTIF = "TGACTCAG"
POSITIONAL = ("nucleotide_importance.png", "differential_poim.png", "weight_mass.png")


# --------------------------------------------------------------------------- #
# figures
# --------------------------------------------------------------------------- #
@pytest.fixture(scope="module")
def wd_figures(tmp_path_factory):
    """The positional figures of a small WD model, as saved (Figure objects)."""
    from matplotlib.figure import Figure

    X, y = make_gattaca(n_pos=40, n_neg=40, length=24, mean=10, sd=1, random_state=0)
    poim = compute_poim(WDKernelSVC(degree=6).fit(X, y), max_order=4)
    saved = {}
    original = Figure.savefig

    def keep(fig, name, *args, **kwargs):
        saved[str(name).rsplit("/", 1)[-1]] = fig
        return original(fig, name, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Figure, "savefig", keep)
        write_figures(tmp_path_factory.mktemp("fig") / "figures", poim, [], y, None)
    return poim, saved


def _drawn(fig):
    """The renderer of ``fig`` drawn on an Agg canvas (its layout applied)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def _positional(saved) -> list[str]:
    return [n for n in saved if n.startswith("poim_order_") or n in POSITIONAL]


def test_stacked_positional_figures_share_one_position_axis(wd_figures):
    """Before: each figure had its own plot width (colourbar or not, tick labels)
    and a k-mer heatmap ended at its last start, so position 12 sat at a
    different place in every figure of the report."""
    poim, saved = wd_figures
    names = _positional(saved)
    assert len(names) == poim.max_order + 3
    places = {}
    for name in names:
        fig = saved[name]
        _drawn(fig)
        ax = fig.axes[0]
        # position 1 and the last, in inches from the figure's left edge
        xs = ax.transData.transform([(1, 0), (poim.length, 0)])[:, 0] / fig.dpi
        places[name] = (fig.get_figwidth(), *np.round(xs, 2))
    assert len(set(places.values())) == 1, places


def test_no_label_is_clipped_by_its_figure(wd_figures):
    """Before: the colourbar label of the k = 1 heatmap ran past the figure."""
    _, saved = wd_figures
    for name in _positional(saved):
        fig = saved[name]
        box = fig.get_tightbbox(_drawn(fig))
        width, height = fig.get_size_inches()
        assert box.x0 >= -0.01 and box.y0 >= -0.01, name
        assert box.x1 <= width + 0.01 and box.y1 <= height + 0.01, (name, box)


# --------------------------------------------------------------------------- #
# the page's tables
# --------------------------------------------------------------------------- #
def test_logo_title_and_table_round_position_and_spread_alike(tmp_path):
    """Before: a spread of 7.35004 was 7.3 in the table, 7.4 in the logo title;
    and a q-value that underflowed showed as a bare 0."""
    from poimkit.plot import logo_figure

    motif = Motif(np.eye(4)[[2, 0, 3, 3]], position=20.35004, spread=7.35004, name="m")
    logo_figure(motif).savefig(tmp_path / "logo_m.png", dpi=40)
    title = logo_figure(motif).axes[0].get_title()
    row = {
        "name": "m",
        "iupac": "GATT",
        "position": _number(motif.position),
        "spread": _number(motif.spread),
        "importance": 0.5,
        "n_sites": 10,
        "frac_positive": 0.9,
        "frac_negative": 0.05,
        "q_value": 0.0,
        "strands": "+",
    }
    page = _motif_table(SimpleNamespace(motifs=[row], position_free=False), tmp_path)
    cells = [c.split("<")[0] for c in page.split('<td class="num">')[1:]]
    position, spread = cells[0], cells[1]
    assert title == f"m: GATT at {position} (spread {spread})"
    assert "&lt; 1e-300" in page and '<td class="num">0</td>' not in page


def _summary(family: str, kernel: str, chosen: dict, **given) -> SimpleNamespace:
    """A summary's ``family`` and ``parameters`` as `run_pipeline` makes them."""
    options = json.loads(json.dumps(asdict(RunOptions(kernel=kernel, **given))))
    parameters = {**options, "solver": "kernel", "grid": True, "chosen": chosen}
    return SimpleNamespace(family=family, parameters=parameters)


def test_parameter_table_names_the_kernel_and_shows_what_applies():
    """Before: "wd" (JSON-quoted) for a WDS model, gkm's l and k on a WD model,
    degree and shift on a gkm model, null for unset options."""
    wds = dict(
        _parameter_rows(
            _summary("wd", "wd", {"degree": 20, "shift": 4, "C": 1.0}, degree=20)
        )
    )
    assert wds["kernel"] == "WDS" and wds["shift"] == "4 (chosen by the inner CV)"
    assert wds["degree"] == "20" and wds["C"] == "1 (chosen by the inner CV)"
    assert wds["mismatches"] == "0 (default)"
    assert wds["reverse_complement"] == "no (default)"
    assert not {"gkm_l", "gkm_k", "crop", "drop_short", "compare"} & set(wds)
    assert "markov_order" not in wds and wds["background"] == "uniform"
    assert wds["drop_invalid"] == "no"
    chosen = {"l": 8, "k": 5, "reverse_complement": True, "C": 0.01}
    gkm = dict(_parameter_rows(_summary("gkm", "auto", chosen, gkm_l=8, gkm_k=5)))
    assert gkm["kernel"] == "gkm (chosen by the inner CV)"
    assert gkm["gkm_l"] == "8" and gkm["reverse_complement"].startswith("yes (")
    assert not {"degree", "shift", "mismatches"} & set(gkm)
    wd = dict(_parameter_rows(_summary("wd", "wd", {"degree": 20, "shift": 0})))
    assert wd["kernel"] == "WD"
    for rows in (wds, gkm, wd):
        assert not any('"' in v or "null" in v or "true" in v for v in rows.values())


def test_auc_interval_stays_within_0_and_1():
    """Before: two folds of AUC 0.5 and 0.9 gave "-2.04 to 3.44"."""
    for aucs in ([0.5, 0.9], [0.245, 1.0], [0.0, 0.4, 0.1]):
        low, high = auc_interval(aucs)
        assert 0.0 <= low <= np.mean(aucs) <= high <= 1.0
    assert auc_interval([0.9, 0.92, 0.94]) == [0.870317, 0.969683]


# --------------------------------------------------------------------------- #
# a gkm run on records of different lengths
# --------------------------------------------------------------------------- #
@pytest.fixture(scope="module")
def gkm_run(tmp_path_factory):
    """Records of 40-140 nt; positives carry MOTIF anywhere, on either strand."""
    folder = tmp_path_factory.mktemp("gkm_report")
    rng = np.random.default_rng(5)

    def random_seq():
        return "".join(rng.choice(list("ACGT"), rng.integers(40, 141)))

    pos = []
    for i in range(60):
        s = random_seq()
        site = MOTIF if i % 2 else reverse_complement_text(MOTIF)
        start = rng.integers(0, len(s) - len(site) + 1)
        pos.append(s[:start] + site + s[start + len(site) :])
    neg = [random_seq() for _ in range(60)]
    records = dict(zip([f"p{i}" for i in range(60)], pos, strict=True))
    records |= dict(zip([f"n{i}" for i in range(60)], neg, strict=True))
    write_fasta(folder / "pos.fa", [f"p{i}" for i in range(60)], pos)
    write_fasta(folder / "neg.fa", [f"n{i}" for i in range(60)], neg)
    options = RunOptions(
        kernel="gkm",
        gkm_l=8,
        gkm_k=5,
        C=1.0,
        reverse_complement=True,
        cv=2,
        max_order=5,
        max_motifs=1,
    )
    out = folder / "out"
    summary = run_pipeline(
        out,
        pos=str(folder / "pos.fa"),
        neg=str(folder / "neg.fa"),
        options=options,
        progress=False,
    )
    return out, summary, records


def test_gkm_sites_point_at_the_motif_in_the_user_s_records(gkm_run):
    """Issue 29 item 1: starts were in centre-cropped coordinates."""
    out, summary, records = gkm_run
    assert summary.position_free and len(set(map(len, records.values()))) > 50
    motif = summary.motifs[0]
    assert motif["consensus"] in (MOTIF, reverse_complement_text(MOTIF))
    with open(out / "sites.tsv") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    rows = [r for r in rows if r["motif"] == motif["name"] and r["label"] == "1"]
    assert len(rows) >= 50
    for row in rows:
        start = int(row["start"]) - 1  # 1-based in the file
        letters = records[row["sequence"]][start : start + motif["length"]]
        if row["strand"] == "-":
            letters = reverse_complement_text(letters)
        assert letters == motif["consensus"], row


def test_gkm_report_shows_nothing_positional(gkm_run):
    out, summary, _ = gkm_run
    page = (out / "report.html").read_text()
    assert not {f for f in summary.figures if f.startswith("poim_order_")}
    assert not set(POSITIONAL) & set(summary.figures)
    assert "1-based mean start" not in page and "nucleotide importance" not in page
    assert "<td>kernel</td><td>gkm</td>" in page
    assert "<td>degree</td>" not in page and "&quot;" not in page


def test_report_gives_one_auc_per_model_and_demo_inputs(data, tmp_path):
    from poimkit.run import RunOptions, run_pipeline

    summary = run_pipeline(
        tmp_path / "o",
        pos=str(data / "p.fa"),
        neg=str(data / "n.fa"),
        options=RunOptions(degree=4, shift=0, C=1.0, cv=2, max_order=2, max_motifs=0),
        progress=False,
        dataset="bundled example",
    )
    assert 0 <= summary.cv.figures["cv_auc_pooled"] <= 1
    assert summary.inputs[0]["path"] == "bundled example: p.fa (temporary copy)"
    page = (tmp_path / "o" / "report.html").read_text()
    assert "the mean of the folds' own AUCs" in page and "class='hash'" in page
    assert (
        f"{summary.cv.figures['cv_auc_pooled']:.4f}" not in page
    )  # one figure per model


def test_roc_legends_give_the_reported_auc_of_each_model():
    """The legend's AUC is the report's (the folds' mean), not the pooled curve's."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from poimkit.plot import plot_roc
    from poimkit.run.figures import roc_curves

    rng = np.random.default_rng(0)
    y = np.r_[np.ones(50), np.zeros(50)]
    cv = {
        "out_of_fold_scores": y + rng.normal(0, 1, 100),
        "motif_out_of_fold_scores": y + rng.normal(0, 2, 100),
        "stack_out_of_fold_scores": y + rng.normal(0, 0.5, 100),
        "models": {
            m: {"cv_auc": a}
            for m, a in zip(("svm", "motifs", "stack"), (0.81, 0.62, 0.93), strict=True)
        },
    }
    curves = roc_curves(CVResult.from_mapping("auc", cv), "CNN")
    assert [(k, v[1]) for k, v in curves.items()] == [
        ("CNN", 0.81),
        ("motif model", 0.62),
        ("stack", 0.93),
    ]
    ax = Figure().add_subplot()
    for label, (scores, auc) in curves.items():
        plot_roc(y, scores, ax=ax, label=label, auc=auc)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == ["CNN (AUC 0.810)", "motif model (AUC 0.620)", "stack (AUC 0.930)"]
