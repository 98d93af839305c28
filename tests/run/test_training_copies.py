"""A WD model on peaks trains on copies of every window moved along the genome."""

import numpy as np
import pytest

from poimkit import WDKernelSVC
from poimkit.cli import main
from poimkit.datasets import write_synthetic_genome
from poimkit.genome.peaks import Peaks, moved_windows
from poimkit.genome.reference import open_genome, text_codes
from poimkit.run import RunOptions, run_pipeline
from poimkit.run.copy_fits import CopyFits, fit_order
from poimkit.run.crossval import cross_validate, plan_folds
from poimkit.run.data import LabeledData, MovedCopies
from poimkit.run.genome import (
    FIVE_COPIES_MAX_ROWS,
    THREE_COPIES_MAX_ROWS,
    PeakSource,
    copy_offsets,
)
from poimkit.run.plan import make_plan

from ..cli_runs import strict_json

COMPLEMENT = str.maketrans("ACGT", "TGCA")


def _windows(chrom, start, width, strand):
    n = len(start)
    start = np.asarray(start, dtype=np.int64)
    return Peaks(
        path="w.bed",
        kind="bed6",
        chrom=list(chrom),
        start=start,
        end=start + width,
        strand=np.asarray(strand),
        summit=np.full(n, -1, dtype=np.int64),
        line=np.arange(1, n + 1),
    )


def test_moved_windows_are_the_genome_letters_or_the_window_itself(tmp_path):
    rng = np.random.default_rng(0)
    text = "".join(rng.choice(list("ACGT"), 120))
    text = text[:90] + "N" + text[91:]  # an assembly gap
    fasta = tmp_path / "g.fa"
    fasta.write_text(f">c\n{text}\n")
    width, offsets = 10, (0, -6, -3, 3, 6)
    starts = [2, 20, 20, 50, 76, 108]  # near the start, "-", the N, the end
    strand = ["+", "+", "-", "+", "+", "+"]
    windows = _windows(["c"] * 6, starts, width, strand)

    def read(s, minus):
        letters = text[s : s + width]
        return letters.translate(COMPLEMENT)[::-1] if minus else letters

    own = [text_codes(read(s, m == "-")) for s, m in zip(starts, strand, strict=True)]
    with open_genome(str(fasta), quiet=True) as genome:
        moved = moved_windows(genome, windows, offsets, own)
    assert moved.shape == (5, 6, width)
    for j, offset in enumerate(offsets):
        for i, (s, m) in enumerate(zip(starts, strand, strict=True)):
            a = s + offset
            letters = text[a : a + width] if a >= 0 else ""
            if len(letters) < width or "N" in letters:
                expected = own[i]  # off the chromosome or over the gap
            else:
                expected = text_codes(read(a, m == "-"))
            np.testing.assert_array_equal(moved[j, i], expected, err_msg=f"{i} {j}")
    assert (moved[:, 0] == own[0]).all(axis=1)[1:3].all()  # 2 - 6, 2 - 3 < 0
    assert not (moved[3, 2] == own[2]).all()  # a "-" window does move


def test_copy_offsets_stay_within_their_row_budgets():
    five, three = (0, -10, -5, 5, 10), (0, -10, 10)
    assert copy_offsets(10, 100) == five
    assert copy_offsets(1, 100) == (0, -1, 1)  # no repeated offset
    assert copy_offsets(10, FIVE_COPIES_MAX_ROWS // 5) == five
    assert copy_offsets(10, FIVE_COPIES_MAX_ROWS // 5 + 1) == three
    assert copy_offsets(10, THREE_COPIES_MAX_ROWS // 3) == three
    assert copy_offsets(10, THREE_COPIES_MAX_ROWS // 3 + 1) == ()
    assert copy_offsets(0, 100) == ()


def test_copy_offsets_never_take_the_kernel_solver_past_its_limit(monkeypatch):
    import poimkit.run.registry as registry

    monkeypatch.setattr(registry, "KERNEL_MAX_SEQUENCES", 300)
    assert copy_offsets(10, 60) == (0, -10, -5, 5, 10)  # 300 rows
    assert copy_offsets(10, 61) == (0, -10, 10)
    assert copy_offsets(10, 100) == (0, -10, 10)
    assert copy_offsets(10, 101) == ()


def _copied_data(n=60, length=12, seed=0):
    """Random records with planted signal, each with 3 distinct copies."""
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n // 2, int), np.zeros(n - n // 2, int)]
    windows = rng.integers(0, 4, (3, n, length), dtype=np.uint8)
    windows[:, y == 1, 4:8] = [0, 3, 0, 3]
    copies = MovedCopies((0, -2, 2), windows)
    ids = [f"chr{i % 4}:{100 * i}-{100 * i + length}" for i in range(n)]
    return LabeledData(ids, windows[0], y, [], 0, copies)


def test_training_takes_every_copy_of_the_rows_and_only_them():
    data = _copied_data()
    rows = np.array([3, 40, 7])
    X, y = data.training(rows, "wd")
    expected = data.copies.windows[:, rows].reshape(-1, 12)
    np.testing.assert_array_equal(X, expected)
    np.testing.assert_array_equal(y, np.tile(data.y[rows], 3))
    X, y = data.training(rows, "gkm")  # other families train on the records
    np.testing.assert_array_equal(X, data.X[rows])


class _Spy(WDKernelSVC):
    fitted: list = []

    def _fit_gram(self, X, y, K_raw):  # every fit, shared kernel or not
        _Spy.fitted.append(np.array(X))
        return super()._fit_gram(X, y, K_raw)


@pytest.mark.parametrize("cv_by", ["chrom", "random"])
def test_fold_models_train_on_the_copies_of_their_training_records(cv_by):
    data = _copied_data()
    options = RunOptions(kernel="wd", grid=False, degree=3, C=1.0, cv=3, cv_by=cv_by)
    plan = make_plan(data, options, _Spy(degree=3, shift=0, C=1.0))
    _Spy.fitted.clear()
    cross_validate(data, plan)
    record_of = {
        data.copies.windows[j, i].tobytes(): i
        for j in range(3)
        for i in range(data.y.size)
    }
    folds = plan_folds(data, plan.options).folds
    assert len(_Spy.fitted) == len(folds)
    seen = sorted(sorted(record_of[row.tobytes()] for row in X) for X in _Spy.fitted)
    trains = sorted(sorted(np.repeat(train, 3).tolist()) for train, _ in folds)
    assert seen == trains  # every copy of the training records, no other
    for train, test in folds:
        assert not set(train.tolist()) & set(test.tolist())


def test_shared_kernel_fits_the_same_models_as_fitting_anew():
    data = _copied_data(n=40)
    fits = CopyFits(data)
    template = WDKernelSVC(degree=3, shift=1, C=1.0)
    rows = np.arange(0, 40, 2)
    shared = fits.fit(template, "wd", {"C": 0.5}, rows)
    again = fits.fit(template, "wd", {"C": 2.0}, np.arange(40))  # same kernel
    assert fits._K is not None and fits._K.shape == (120, 120)
    for model, part, C in ((shared, rows, 0.5), (again, np.arange(40), 2.0)):
        anew = WDKernelSVC(degree=3, shift=1, C=C).fit(*data.training(part, "wd"))
        np.testing.assert_allclose(
            model.decision_function(data.X), anew.decision_function(data.X), atol=1e-9
        )
    plain = fits.fit(template, "gkm", {}, rows)  # another family: the records
    anew = WDKernelSVC(degree=3, shift=1, C=1.0).fit(data.X[rows], data.y[rows])
    np.testing.assert_allclose(
        plain.decision_function(data.X), anew.decision_function(data.X), atol=1e-9
    )
    fits.release()
    assert fits._K is None


def test_last_fit_on_every_record_takes_the_kept_matrix_itself():
    """The final fit uses the kept kernel without a copy: the same model, released."""
    data = _copied_data(n=40)
    template = WDKernelSVC(degree=3, shift=1, reverse_complement=True, C=1.0)
    every = np.arange(40)
    copied = CopyFits(data).fit(template, "wd", {"C": 2.0}, every)
    fits = CopyFits(data)
    fits.fit(template, "wd", {"C": 0.5}, every[::2])  # keeps the kernel
    kept = fits._K
    last = fits.fit(template, "wd", {"C": 2.0}, every, last=True)
    assert fits._K is None  # handed over: the solver overwrote it
    assert not np.array_equal(kept, CopyFits(data)._kernel(template, every))
    for name in ("dual_coef_", "support_vectors_", "intercept_", "kernel_scale_"):
        np.testing.assert_array_equal(getattr(last, name), getattr(copied, name))
    np.testing.assert_array_equal(
        last.decision_function(data.X), copied.decision_function(data.X)
    )
    part = CopyFits(data)
    some = part.fit(template, "wd", {"C": 2.0}, every[::2], last=True)
    assert part._K is not None  # a part of the records: a copy, the kernel kept
    again = CopyFits(data).fit(template, "wd", {"C": 2.0}, every[::2])
    np.testing.assert_array_equal(some.dual_coef_, again.dual_coef_)


def test_expected_fits_share_a_kernel_over_their_records_copies_alone():
    """After `expect`, a setting's matrix covers its fits' records: same models."""
    data = _copied_data(n=40)
    template = WDKernelSVC(degree=3, shift=1, C=1.0)
    every = np.arange(40)
    first = every[every % 4 != 0]  # records 1, 2, 3, 5, ...
    second = every[np.isin(every % 4, (1, 2))]  # within the first
    fits = CopyFits(data)
    fits.expect(
        [
            (template, {"shift": 1, "C": 0.5}, first),
            (template, {"shift": 2}, every),
            (template, {"shift": 1, "C": 2.0}, second),
        ]
    )
    a = fits.fit(template, "wd", {"shift": 1, "C": 0.5}, first)
    union = np.union1d(first, second)
    assert union.size < 40 and np.array_equal(fits._rows, union)
    assert fits._K.shape == (3 * union.size,) * 2
    b = fits.fit(template, "wd", {"shift": 1, "C": 2.0}, second)
    assert fits._K.shape == (3 * union.size,) * 2  # kept for the second fit
    c = fits.fit(template, "wd", {"shift": 1, "C": 2.0}, every)  # not expected
    assert np.array_equal(fits._rows, every)
    for model, rows, C in ((a, first, 0.5), (b, second, 2.0), (c, every, 2.0)):
        alone = CopyFits(data).fit(template, "wd", {"shift": 1, "C": C}, rows)
        for name in ("dual_coef_", "support_vectors_", "intercept_", "kernel_scale_"):
            np.testing.assert_array_equal(getattr(model, name), getattr(alone, name))
    only = CopyFits(data)
    only.expect([(template, {"C": 1.0}, first)])
    last = only.fit(template, "wd", {"C": 1.0}, first, last=True)
    assert only._K is None  # its records are the kept ones: the matrix itself
    alone = CopyFits(data).fit(template, "wd", {"C": 1.0}, first)
    np.testing.assert_array_equal(last.dual_coef_, alone.dual_coef_)


def test_fit_order_puts_the_final_setting_last():
    chosen = [("wd", {"shift": 4, "C": 1}), ("gkm", {"l": 8}), ("wd", {"shift": 4})]
    order = fit_order(chosen, ("wd", {"shift": 4, "C": 10}))
    assert order[0] == 1 and sorted(order[1:]) == [0, 2]


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    return write_synthetic_genome(tmp_path_factory.mktemp("genome"), n_peaks=60, seed=7)


WD = RunOptions(
    kernel="wd", grid=False, degree=4, shift=2, C=1.0, cv=2, max_order=3, max_motifs=0
)


def test_peak_runs_with_a_wd_model_train_on_moved_copies(synthetic, tmp_path):
    source = PeakSource(str(synthetic.peaks), str(synthetic.genome), width=60)
    summary = run_pipeline(tmp_path / "wd", options=WD, progress=False, peaks=source)
    copies = summary.peaks["training_copies"]
    assert copies == {"offsets": [0, -10, -5, 5, 10], "copies": 5}
    off = PeakSource(str(synthetic.peaks), str(synthetic.genome), width=60, jitter=0)
    summary = run_pipeline(tmp_path / "off", options=WD, progress=False, peaks=off)
    assert summary.peaks["training_copies"] is None


@pytest.mark.parametrize(
    "extra, unused",
    [
        (["--kernel", "gkm", "--gkm-l", "6", "--gkm-k", "4"], None),
        (["--kernel", "wd", "--degree", "4", "--negatives", "shuffle"], None),
        (["--kernel", "wd", "--degree", "4", "--jitter", "0"], None),
        (["--kernel", "gkm", "--gkm-l", "6", "--gkm-k", "4", "--jitter", "8"], "gkm"),
        (["--kernel", "wd", "--negatives", "shuffle", "--jitter", "8"], "coordinates"),
    ],
)
def test_no_copies_without_a_wd_model_or_coordinates(
    synthetic, tmp_path, capsys, extra, unused
):
    """An explicit --jitter that cannot apply is said to be unused (issue 55)."""
    out = tmp_path / "run"
    args = ["run", "--bed", str(synthetic.peaks), "--genome", str(synthetic.genome)]
    args += ["--no-grid", "--cv", "2", "--max-order", "3", "--max-motifs", "0"]
    args += ["--width", "60", "-o", str(out)]
    assert main([*args, *extra, "--quiet"]) == 0
    summary = strict_json(out / "summary.json")
    assert summary["peaks"]["training_copies"] is None
    err = capsys.readouterr().err
    if unused is None:
        assert "jitter_unused" not in summary["peaks"] and "--jitter" not in err
    else:
        assert unused in summary["peaks"]["jitter_unused"]
        assert "--jitter 8 is not used: " in err and unused in err


def test_peak_runs_take_three_copies_then_none_by_their_row_budgets(
    synthetic, tmp_path, capsys, monkeypatch
):
    import poimkit.run.genome as genome

    args = ["run", "--bed", str(synthetic.peaks), "--genome", str(synthetic.genome)]
    args += ["--kernel", "wd", "--degree", "4", "--no-grid", "--cv", "2"]
    args += ["--max-order", "3", "--max-motifs", "0", "--width", "60", "--quiet"]
    monkeypatch.setattr(genome, "FIVE_COPIES_MAX_ROWS", 100)  # < 5 x 60 peaks
    assert main([*args, "-o", str(tmp_path / "three")]) == 0
    summary = strict_json(tmp_path / "three" / "summary.json")
    assert summary["peaks"]["training_copies"] == {"offsets": [0, -10, 10], "copies": 3}
    monkeypatch.setattr(genome, "THREE_COPIES_MAX_ROWS", 100)
    capsys.readouterr()
    assert main([*args, "--jitter", "10", "-o", str(tmp_path / "none")]) == 0
    summary = strict_json(tmp_path / "none" / "summary.json")
    assert summary["peaks"]["training_copies"] is None
    said = summary["peaks"]["jitter_unused"]
    assert said == f"too many windows for moved copies ({summary['n_sequences']:,})"
    assert "--jitter 10 is not used: too many windows" in capsys.readouterr().err


def test_negative_jitter_exits_2(synthetic, tmp_path, capsys):
    args = ["run", "--bed", str(synthetic.peaks), "--genome", str(synthetic.genome)]
    code = main([*args, "--jitter", "-1", "-o", str(tmp_path / "x"), "--quiet"])
    assert code == 2
    assert "--jitter must be 0 or more" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("minus", [False, True])
def test_variants_in_peaks_are_scored_at_the_training_placements(minus):
    from poimkit.variants.effects import effect_engine
    from poimkit.variants.placement import Placement, scored_chunk

    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, size=(60, 20)).astype(np.uint8)
    X[:30, 8:12] = [0, 1, 2, 3]
    model = WDKernelSVC(degree=4, shift=1).fit(X, np.r_[np.ones(30), np.zeros(30)])
    model.training_offsets_ = (0, -4, -2, 2, 4)
    codes = rng.integers(0, 4, 100).astype(np.uint8)
    codes[52] = 4  # an N: the window moved by +4 holds it and is left out
    windows = _windows(["chr1"], [30], 20, ["-" if minus else "+"])
    engine = effect_engine(model)
    pos = np.array([30, 31, 40, 49])  # the window's first letters, centre, last
    alts = [(int(codes[p]) + 1) % 4 for p in pos]
    letters = np.array(list("ACGTN"))
    chunk, _ = scored_chunk(
        engine,
        Placement.of(engine, windows),
        codes,
        "chr1",
        pos,
        letters[codes[pos]].tolist(),
        letters[alts].tolist(),
        np.arange(pos.size),
        0,
    )
    for j, p in enumerate(pos):
        refs, alts_ = [], []
        for offset in model.training_offsets_:
            start = 30 + offset
            ref = codes[start : start + 20].copy()
            if not start <= p < start + 20 or (ref > 3).any():
                continue  # not holding the variant, or over the N
            alt = ref.copy()
            alt[p - start] = alts[j]
            if minus:
                ref, alt = 3 - ref[::-1], 3 - alt[::-1]
            refs.append(ref)
            alts_.append(alt)
        ref_score = model.decision_function(np.stack(refs)).mean()
        alt_score = model.decision_function(np.stack(alts_)).mean()
        assert chunk.ref_score[j] == pytest.approx(ref_score, abs=1e-9)
        assert chunk.effect[j] == pytest.approx(alt_score - ref_score, abs=1e-9)
    assert len(refs) < 5  # the last variant is not in every moved window


@pytest.mark.parametrize("offsets", [(0, -4, -2, 2, 4), (0,)])
def test_the_null_scores_effects_alone_as_the_variants_are_scored(offsets):
    """``scores=False`` (the null): the same effects, without the windows' scores.

    At one placement and at the strongest one the effects are the same bits;
    over moved placements their mean, which is the difference of the mean
    scores up to rounding, and the brute-force mean over the moved windows.
    """
    from poimkit.variants.effects import effect_engine
    from poimkit.variants.placement import Placement, scored_chunk

    rng = np.random.default_rng(11)
    X = rng.integers(0, 4, size=(60, 20)).astype(np.uint8)
    X[:30, 8:12] = [0, 1, 2, 3]
    model = WDKernelSVC(degree=4, shift=1).fit(X, np.r_[np.ones(30), np.zeros(30)])
    model.training_offsets_ = offsets
    codes = rng.integers(0, 4, 200).astype(np.uint8)
    codes[52] = 4  # an N: a moved window holding it is left out
    windows = _windows(["chr1"] * 2, [30, 100], 20, ["+", "-"])
    engine = effect_engine(model)
    pos = np.r_[30:50, 100:120, 0:5, 150:160]  # in both windows, and outside
    pos = pos[codes[pos] <= 3]
    alts = (codes[pos] + rng.integers(1, 4, pos.size)) % 4
    letters = np.array(list("ACGTN"))
    args = (
        engine,
        Placement.of(engine, windows),
        codes,
        "chr1",
        pos,
        letters[codes[pos]].tolist(),
        letters[alts].tolist(),
        np.arange(pos.size),
        0,
    )
    scored, _ = scored_chunk(*args)
    alone, _ = scored_chunk(*args, scores=False)
    np.testing.assert_array_equal(alone.rows, scored.rows)
    assert np.isnan(alone.ref_score).all() and np.isnan(alone.alt_score).all()
    single = alone.strongest | (len(offsets) == 1)
    assert single.any() and (~alone.strongest).any()
    np.testing.assert_array_equal(alone.effect[single], scored.effect[single])
    np.testing.assert_allclose(alone.effect, scored.effect, rtol=0, atol=1e-12)
    for j in np.flatnonzero(~alone.strongest):  # brute force: the mean effect
        p, minus = pos[j], pos[j] >= 100
        effects = []
        for offset in offsets:
            start = (100 if minus else 30) + offset
            ref = codes[start : start + 20].copy()
            if not start <= p < start + 20 or (ref > 3).any():
                continue
            alt = ref.copy()
            alt[p - start] = alts[j]
            if minus:
                ref, alt = 3 - ref[::-1], 3 - alt[::-1]
            pair = model.decision_function(np.stack([ref, alt]))
            effects.append(pair[1] - pair[0])
        assert alone.effect[j] == pytest.approx(np.mean(effects), abs=1e-9)


def test_training_offsets_are_saved_with_the_model(tmp_path):
    data = _copied_data()
    model = WDKernelSVC(degree=3).fit(data.X, data.y)
    model.training_offsets_ = (0, -10, -5, 5, 10)
    model.save(tmp_path / "m.npz")
    from poimkit import load_model

    assert load_model(tmp_path / "m.npz").training_offsets_ == (0, -10, -5, 5, 10)
    WDKernelSVC(degree=3).fit(data.X, data.y).save(tmp_path / "plain.npz")
    assert load_model(tmp_path / "plain.npz").training_offsets_ == (0,)
