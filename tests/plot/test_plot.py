import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.patches import PathPatch  # noqa: E402
from numpy.testing import assert_allclose  # noqa: E402

from poimkit import compute_poim  # noqa: E402
from poimkit.alphabet import kmer_string  # noqa: E402
from poimkit.errors import InputError  # noqa: E402
from poimkit.kernels.explicit import KmerWeights  # noqa: E402
from poimkit.motifs import Motif  # noqa: E402
from poimkit.plot import (  # noqa: E402
    LOGO_COLORS,
    plot_differential,
    plot_logo,
    plot_poim_heatmap,
    plot_weight_mass,
)
from poimkit.poim import Poim  # noqa: E402

L = 12
K = 4


@pytest.fixture(scope="module")
def poim():
    rng = np.random.default_rng(5)
    sv = rng.integers(0, 4, size=(6, L)).astype(np.uint8)
    coef = rng.normal(size=6)
    weights = KmerWeights.from_support_vectors(sv, coef, bias=0.3, degree=K)
    return compute_poim(weights, K)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def tick_labels(axis):
    return [t.get_text() for t in axis.get_ticklabels()]


def visible_ticks(ax, axis="x"):
    ticks = ax.get_xticks() if axis == "x" else ax.get_yticks()
    low, high = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    return [t for t in ticks if low <= t <= high]


# --------------------------------------------------------------------------- #
# logos
# --------------------------------------------------------------------------- #


def test_logo_one_patch_per_letter():
    pwm = np.array(
        [
            [0.7, 0.1, 0.1, 0.1],  # 4 letters
            [0.0, 0.0, 1.0, 0.0],  # 1 letter
            [0.5, 0.5, 0.0, 0.0],  # 2 letters
        ]
    )
    ax = plot_logo(pwm, kind="probability")
    assert isinstance(ax, Axes)
    patches = [p for p in ax.patches if isinstance(p, PathPatch)]
    assert len(patches) == 7
    assert tick_labels(ax.xaxis) == ["1", "2", "3"]
    assert ax.get_xlim() == (0.5, 3.5)
    assert ax.get_ylim() == (0.0, 1.0)


def test_logo_information_heights_and_order():
    pwm = np.array([[0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25]])
    motif = Motif(pwm, position=3.0, spread=0.5, name="m")
    ax = plot_logo(motif)
    # the uniform column carries no information: no letters there
    assert len(ax.patches) == 4
    ic = motif.information[0]
    stacked = []
    for patch in ax.patches:
        box = patch.get_path().get_extents()
        assert box.x0 == pytest.approx(0.55) and box.x1 == pytest.approx(1.45)
        stacked.append((box.y0, box.y1 - box.y0, patch.get_facecolor()))
    stacked.sort()
    assert_allclose([h for _, h, _ in stacked], pwm[0] * ic, rtol=1e-9)
    # smallest at the bottom, letters coloured A C G T from the bottom up
    expected = [matplotlib.colors.to_rgba(LOGO_COLORS[a]) for a in "ACGT"]
    assert_allclose([c for _, _, c in stacked], expected)
    assert stacked[-1][0] + stacked[-1][1] == pytest.approx(ic)
    assert ax.get_ylim() == (0.0, 2.0)
    assert ax.get_ylabel() == "bits"
    assert ax.get_title() == "m  TA  at position 3.0"


def test_logo_on_given_axes_with_options():
    fig, (left, right) = plt.subplots(1, 2)
    motif = Motif(np.eye(4)[[0, 1, 2, 3, 3]], position=float("nan"), spread=0.0)
    got = plot_logo(motif, ax=right, colors={"T": "black"}, title="")
    assert got is right
    assert len(left.patches) == 0 and len(right.patches) == 5
    assert right.get_title() == ""
    colors = [matplotlib.colors.to_hex(p.get_facecolor()) for p in right.patches]
    assert colors.count("#000000") == 2
    assert tick_labels(right.xaxis) == ["1", "2", "3", "4", "5"]


def test_logo_errors():
    with pytest.raises(InputError, match="shape"):
        plot_logo(np.ones((3, 5)) / 5)
    with pytest.raises(InputError, match="sum to 1"):
        plot_logo(np.ones((3, 4)))
    with pytest.raises(InputError, match="kind"):
        plot_logo(np.full((2, 4), 0.25), kind="bits")
    with pytest.raises(InputError, match="colors"):
        plot_logo(np.full((2, 4), 0.25), colors={"U": "red"})


# --------------------------------------------------------------------------- #
# POIM heatmaps and curves
# --------------------------------------------------------------------------- #


def test_heatmap_all_dimers(poim):
    ax = plot_poim_heatmap(poim, 2)
    assert isinstance(ax, Axes)
    assert tick_labels(ax.yaxis) == [kmer_string(z, 2) for z in range(16)]
    [image] = ax.get_images()
    assert_allclose(image.get_array(), poim.q(2).T)
    assert image.get_extent() == [0.5, L - 1 + 0.5, 15.5, -0.5]
    low, high = image.get_clim()
    assert low == -high == pytest.approx(-np.abs(poim.q(2)).max())
    ticks = visible_ticks(ax)
    assert ticks and all(t == int(t) and 1 <= t <= L - 1 for t in ticks)
    assert "1-based" in ax.get_xlabel()
    assert len(ax.figure.axes) == 2  # with its colourbar


def test_heatmap_top_kmers(poim):
    q = poim.q(3)
    ax = plot_poim_heatmap(poim, 3)  # default 20 rows for l > 2
    labels = tick_labels(ax.yaxis)
    assert len(labels) == 20
    peak = np.abs(q).max(axis=0)
    expected = [kmer_string(int(z), 3) for z in np.argsort(-peak, kind="stable")[:20]]
    assert labels == expected
    ax = plot_poim_heatmap(poim, 1, top=2)
    assert len(tick_labels(ax.yaxis)) == 2
    with pytest.raises(InputError, match="top"):
        plot_poim_heatmap(poim, 2, top=0)
    with pytest.raises(InputError, match="order"):
        plot_poim_heatmap(poim, K + 1)


def test_differential(poim):
    ax = plot_differential(poim)
    assert isinstance(ax, Axes)
    [image] = ax.get_images()
    d = poim.differential()
    data = image.get_array()
    assert data.shape == (K, L)
    assert np.array_equal(data.mask, np.isnan(d))
    assert_allclose(data.filled(0.0), np.nan_to_num(d))
    assert image.get_extent() == [0.5, L + 0.5, K + 0.5, 0.5]
    assert sorted(visible_ticks(ax, "y")) == list(range(1, K + 1))
    assert all(1 <= t <= L for t in visible_ticks(ax))
    assert ax.get_ylabel() == "k-mer length"
    # 0 is the neutral colour; the scale ends at the data's extremes
    finite = d[np.isfinite(d)]
    norm = image.norm
    assert norm.vmax == pytest.approx(max(finite.max(), 0.0))
    assert norm.vmin == pytest.approx(min(finite.min(), 0.0))
    neutral = np.asarray(image.cmap(norm(0.0)))
    assert_allclose(neutral, matplotlib.colormaps["RdBu_r"](0.5), atol=0.02)


def test_differential_of_one_sign_uses_half_the_map(poim):
    """Before: D >= 0 everywhere still drew an empty blue half on the colourbar."""
    growing = [l * np.ones((L - l + 1, 4**l)) for l in range(1, K + 1)]
    image = plot_differential(Poim(growing, poim.background)).get_images()[0]
    assert (image.norm.vmin, image.norm.vmax) == (0.0, 1.0)  # D_l(j) = 1
    reds = matplotlib.colormaps["RdBu_r"]
    assert_allclose(image.cmap(0.0), reds(0.5), atol=0.02)  # 0: the neutral end
    assert_allclose(image.cmap(1.0), reds(1.0), atol=0.02)


def test_weight_mass(poim):
    ax = plot_weight_mass(poim)
    assert isinstance(ax, Axes)
    lines = ax.get_lines()
    assert len(lines) == K
    for l, line in enumerate(lines, start=1):
        assert_allclose(line.get_xdata(), np.arange(1, L - l + 2))
        mass = poim.weight_mass(l)  # each order on its own scale
        assert_allclose(line.get_ydata(), mass / mass.max())
    absolute = plot_weight_mass(poim, relative=False).get_lines()
    assert_allclose(absolute[0].get_ydata(), poim.weight_mass(1))
    ax = plot_weight_mass(poim, orders=[2])
    assert len(ax.get_lines()) == 1
    with pytest.raises(InputError, match="order"):
        plot_weight_mass(poim, orders=[0])
    with pytest.raises(InputError, match="empty"):
        plot_weight_mass(poim, orders=[])


def test_figures_save_to_png(poim, tmp_path):
    fig, axes = plt.subplots(2, 2, figsize=(10, 7))
    plot_logo(Motif(np.eye(4)[[2, 0, 3]], 4.0, 1.0, name="m"), ax=axes[0, 0])
    plot_poim_heatmap(poim, 3, ax=axes[0, 1])
    plot_differential(poim, ax=axes[1, 0])
    plot_weight_mass(poim, ax=axes[1, 1])
    path = tmp_path / "figure.png"
    fig.savefig(path, dpi=50)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for plot in (plot_logo, plot_poim_heatmap, plot_differential, plot_weight_mass):
        args = (np.full((3, 4), 0.25),) if plot is plot_logo else (poim,)
        if plot is plot_poim_heatmap:
            args += (2,)
        ax = plot(*args)
        ax.figure.savefig(tmp_path / f"{plot.__name__}.png", dpi=40)
        assert (tmp_path / f"{plot.__name__}.png").stat().st_size > 0


def test_nucleotide_importance_stacks_signed_q1():
    from poimkit.plot import plot_nucleotide_importance

    sv = np.array([[2, 0, 3, 3], [1, 1, 1, 0], [0, 3, 2, 1]], dtype=np.uint8)
    weights = KmerWeights.from_support_vectors(sv, [1.0, -0.5, 0.25], 0.1, 2)
    poim = compute_poim(weights, 2)
    q = poim.q(1)
    ax = plot_nucleotide_importance(poim)
    boxes = [p.get_path().get_extents() for p in ax.patches]
    assert len(boxes) == np.count_nonzero(q)
    for j in range(q.shape[0]):
        here = [b for b in boxes if abs((b.x0 + b.x1) / 2 - (j + 1)) < 0.5]
        up = sorted((b.y0, b.y1) for b in here if b.y1 > 1e-12)
        down = sorted(((b.y0, b.y1) for b in here if b.y1 <= 1e-12), reverse=True)
        positive = np.sort(q[j][q[j] > 0])
        negative = np.sort(-q[j][q[j] < 0])
        # stacked from zero outwards, smallest magnitude nearest the axis
        assert_allclose([y1 - y0 for y0, y1 in up], positive, rtol=1e-9)
        assert_allclose([y1 - y0 for y0, y1 in down], negative, rtol=1e-9)
        if up:
            assert up[0][0] == pytest.approx(0, abs=1e-12)
            assert up[-1][1] == pytest.approx(positive.sum())
        if down:
            assert down[0][1] == pytest.approx(0, abs=1e-12)
            assert down[-1][0] == pytest.approx(-negative.sum())
    plt.close(ax.figure)


def test_logo_figure_of_a_motif_without_position():
    """Before: a gkm model's logo was titled 'at nan (spread nan)'."""
    from poimkit.plot import logo_figure

    motif = Motif(np.eye(4)[[2, 0, 3, 3]], np.nan, np.nan, name="m1")
    assert logo_figure(motif).axes[0].get_title() == "m1: GATT anywhere"


def test_line_and_bar_plots_have_an_open_frame(poim):
    from poimkit.plot import plot_contributions, plot_nucleotide_importance
    from poimkit.plot.position_free import plot_kmer_importance

    contributions = plot_contributions(
        np.array([0, 1, 2], dtype=np.uint8),
        np.array([0.1, -0.2, 0.3]),
        1,
        plt.subplots()[1],
    )
    for ax in (
        plot_logo(np.full((3, 4), 0.25)),
        plot_weight_mass(poim),
        plot_nucleotide_importance(poim),
        plot_kmer_importance(poim, 2),
        contributions,
    ):
        shown = {side: ax.spines[side].get_visible() for side in ax.spines.keys()}
        assert shown == {"left": True, "bottom": True, "top": False, "right": False}
    heatmap = plot_poim_heatmap(poim, 2)  # a heatmap keeps its whole frame
    assert all(spine.get_visible() for spine in heatmap.spines.values())
