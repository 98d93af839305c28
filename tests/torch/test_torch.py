"""poimkit.torch: torch modules as scorers, the CNN family, and what explains them."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from sklearn.metrics import roc_auc_score  # noqa: E402

from poimkit import (  # noqa: E402
    InputError,
    MarkovBackground,
    WDKernelSVC,
    compute_poim,
    load_model,  # noqa: E402
)
from poimkit.datasets import make_gattaca, random_dna  # noqa: E402
from poimkit.io.files import torch_model_kind  # noqa: E402
from poimkit.poim.sampled import sampled_poim  # noqa: E402
from poimkit.torch import (  # noqa: E402
    CNNClassifier,
    DilatedCNN,
    as_scorer,
    load_scorer,
    one_hot,
)
from poimkit.torch.training import held_out_rows  # noqa: E402

from ..naive import dense_tables  # noqa: E402


class Heads(torch.nn.Module):
    """A profile model: (profile (N, 2, L), counts (N, 2)) from one conv."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.conv = torch.nn.Conv1d(4, 2, 3, padding=1)

    def forward(self, x):
        profile = self.conv(x)
        return profile, profile.sum(dim=2)


class WDModule(torch.nn.Module):
    """The score of positional k-mer weights, written in torch (a WD SVM)."""

    def __init__(self, weights):
        super().__init__()
        self.bias = weights.bias
        self.tables = [torch.from_numpy(t) for t in dense_tables(weights)]

    def forward(self, x):
        codes = x.argmax(dim=1)
        score = torch.full((x.shape[0],), self.bias, dtype=torch.float64)
        for k, table in enumerate(self.tables, start=1):
            windows = codes.unfold(1, k, 1)  # (N, L - k + 1, k)
            index = (windows * 4 ** torch.arange(k - 1, -1, -1)).sum(dim=2)
            score += table[torch.arange(table.shape[0]), index].sum(dim=1)
        return score


def test_one_hot_rows_are_acgt_and_padding_is_zero():
    x = one_hot([np.array([0, 1, 2, 3], np.uint8), np.array([3], np.uint8)])
    assert x.shape == (2, 4, 4)
    assert np.array_equal(x[0], np.eye(4, dtype=np.float32))
    assert x[1, 3, 0] == 1 and x[1, :, 1:].sum() == 0


def test_scorer_picks_a_head_and_reduces_a_profile():
    module = Heads()
    X = np.random.default_rng(0).integers(0, 4, (5, 12)).astype(np.uint8)
    with torch.no_grad():
        profile, counts = module(torch.from_numpy(one_hot(X)))
    summed = as_scorer(module, output=0, reduce="sum").decision_function(X)
    assert np.allclose(summed, profile.sum(dim=(1, 2)).numpy(), atol=1e-5)
    first = as_scorer(module, output=1, reduce=lambda y: y[:, 1])
    assert np.allclose(first.decision_function(X), counts[:, 1].numpy(), atol=1e-5)
    with pytest.raises(InputError, match="choose one with output"):
        as_scorer(module).decision_function(X)
    with pytest.raises(InputError, match="reduce them"):
        as_scorer(module, output=1).decision_function(X)
    with pytest.raises(InputError, match="no output 5"):
        as_scorer(module, output=5, reduce="sum").decision_function(X)


def test_scorer_batches_counts_calls_and_restores_the_mode():
    net = DilatedCNN(filters=4, width=5, layers=1)
    net.train()
    X = np.random.default_rng(1).integers(0, 4, (7, 20)).astype(np.uint8)
    small = as_scorer(net, batch_size=2)
    scores = small.decision_function(X)
    assert (small.n_calls, small.n_sequences) == (4, 7)
    assert net.training  # the module's own mode is back
    assert np.allclose(scores, as_scorer(net).decision_function(X), atol=1e-6)
    with pytest.raises(InputError, match="record 1 has 20 letters"):
        as_scorer(net, length=21).decision_function(X)


def test_a_network_reads_a_record_the_same_alone_or_padded_and_on_either_strand():
    rng = np.random.default_rng(2)
    net = DilatedCNN(filters=6, width=7, layers=3)
    for length, left, right in [(9, 0, 5), (30, 7, 0), (17, 3, 40)]:
        x = torch.from_numpy(one_hot(rng.integers(0, 4, (1, length)).astype(np.uint8)))
        padded = torch.nn.functional.pad(x, (left, right))
        with torch.no_grad():
            assert torch.allclose(net(x), net(padded), atol=1e-5)
            assert torch.allclose(net(x), net(x.flip((1, 2))), atol=1e-5)


def test_torchscript_file_scores_as_the_network(tmp_path):
    net = DilatedCNN(filters=4, width=5, layers=2).eval()
    path = tmp_path / "net.pt"
    torch.jit.save(torch.jit.script(net), str(path))
    assert torch_model_kind(path) == "torchscript"
    X = np.random.default_rng(3).integers(0, 4, (6, 25)).astype(np.uint8)
    loaded = load_scorer(path, length=25)
    expected = as_scorer(net).decision_function(X)
    assert np.allclose(loaded.decision_function(X), expected, atol=1e-6)
    (tmp_path / "bad.pt").write_bytes(b"not a model")
    assert torch_model_kind(tmp_path / "bad.pt") is None
    with pytest.raises(InputError, match="bad.pt"):
        load_scorer(tmp_path / "bad.pt")


def test_cnn_learns_a_planted_motif_and_round_trips_through_its_file(tmp_path):
    X, y = make_gattaca(n_pos=300, n_neg=300, length=40, mean=20, sd=4, random_state=0)
    Xt, yt = make_gattaca(
        n_pos=200, n_neg=200, length=40, mean=20, sd=4, random_state=1
    )
    model = CNNClassifier(filters=16, width=7, layers=2, epochs=25, patience=25)
    model.learning_rate = 5e-3
    model.fit(X, y)
    assert roc_auc_score(yt, model.decision_function(Xt)) > 0.9
    assert model.log_.best_epoch >= 1 and len(model.log_.valid_loss) >= 1
    model.calibrate(model.decision_function(Xt), yt)
    path = tmp_path / "cnn.npz"
    model.save(path)
    again = load_model(path)
    assert isinstance(again, CNNClassifier) and again.decomposition == "score_only"
    assert np.array_equal(again.decision_function(Xt), model.decision_function(Xt))
    assert np.allclose(again.predict_proba(Xt), model.predict_proba(Xt))
    assert again.get_params()["filters"] == 16


def test_cnn_does_not_separate_classes_that_differ_only_in_length():
    rng = np.random.default_rng(4)
    pos = [rng.integers(0, 4, 72).astype(np.uint8) for _ in range(300)]
    neg = [rng.integers(0, 4, 60).astype(np.uint8) for _ in range(300)]
    X = np.array(pos + neg, dtype=object)
    y = np.r_[np.ones(300), np.zeros(300)]
    model = CNNClassifier(filters=8, width=7, layers=2, epochs=8, patience=8)
    model.fit(X, y)
    test_pos = [rng.integers(0, 4, 72).astype(np.uint8) for _ in range(300)]
    test_neg = [rng.integers(0, 4, 60).astype(np.uint8) for _ in range(300)]
    scores = model.decision_function(test_pos + test_neg)
    assert abs(roc_auc_score(y, scores) - 0.5) < 0.1


def test_early_stopping_holds_out_whole_groups():
    y = np.tile([0, 1], 50)
    groups = np.repeat(np.array(["chr1", "chr2", "chr3", "chr4", "chr5"]), 20)
    valid = held_out_rows(y, 0.2, np.random.default_rng(0), groups)
    for name in np.unique(groups):
        assert len(set(valid[groups == name])) == 1  # a chromosome is on one side
    assert 0 < valid.sum() < y.size


def test_cnn_refuses_bad_parameters():
    with pytest.raises(InputError, match="width must be odd"):
        CNNClassifier(width=4).fit(["ACGT"] * 4, [0, 1, 0, 1])
    with pytest.raises(InputError, match="validation_fraction"):
        CNNClassifier(validation_fraction=1.5).fit(["ACGT"] * 4, [0, 1, 0, 1])


def test_sampled_poim_of_a_wd_svm_in_torch_matches_its_exact_poim():
    X, y = make_gattaca(n_pos=60, n_neg=60, length=8, mean=2, sd=0, random_state=5)
    svm = WDKernelSVC(degree=3, C=1.0).fit(X, y)
    module = WDModule(svm.explicit_weights())
    scorer = as_scorer(module, length=8)
    codes = random_dna(50, 8, random_state=6)
    assert np.allclose(scorer.decision_function(codes), svm.decision_function(codes))
    background = MarkovBackground.uniform(8)
    exact = compute_poim(svm, 3, background)
    sampled = sampled_poim(scorer, 3, background, n_samples=60, random_state=7)
    for l in (1, 2, 3):
        error = np.abs(sampled.q(l) - exact.q(l))
        assert np.all(error <= 5 * sampled.stderr[l - 1] + 1e-9), l
    evaluations = 60 * sum((8 - w + 1) * 4**w for w in (1, 2, 3))
    assert scorer.n_sequences == 50 + evaluations  # the 50 codes above, then it


def test_early_stopping_never_holds_out_a_third_of_the_records():
    y = np.tile([0, 1], 30)
    groups = np.repeat(np.array(["chr1", "chr2", "chr3"]), 20)
    valid = held_out_rows(y, 0.1, np.random.default_rng(0), groups)
    assert 0 < valid.sum() <= 0.2 * y.size  # records, not a whole chromosome


def test_cnn_shows_its_epochs_only_when_asked(capsys):
    X, y = make_gattaca(n_pos=20, n_neg=20, length=20, mean=8, sd=2, random_state=0)
    seen = []
    model = CNNClassifier(filters=4, width=5, layers=1, epochs=3, patience=3)
    model.fit(X, y, progress=True, on_epoch=lambda *a: seen.append(a[0]))
    err = capsys.readouterr().err
    assert "CNN epochs" in err and "held_out=" in err and "3/3" in err
    assert seen == [1, 2, 3]  # the caller's own callback still runs
    model.fit(X, y)
    assert "CNN epochs" not in capsys.readouterr().err
