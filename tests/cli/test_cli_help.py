"""The command's help says what the package does now."""

import pytest

from poimkit.cli import main


def _help(capsys, *args) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*args, "--help"])
    assert stop.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_top_level_help_names_every_model_family_and_output(capsys):
    text = _help(capsys)
    assert "weighted-degree string-kernel classifiers" not in text
    for needle in (
        "WD/WDS",
        "gapped k-mer",
        "peaks in a genome",
        "POIMs",
        "motifs",
        "variant effects",
    ):
        assert needle in text, needle


def test_train_line_names_both_families(capsys):
    text = _help(capsys)
    line = text[text.index("train ") :]
    assert "WD/WDS-kernel SVM" not in text
    assert line.startswith("train train a WD/WDS or gapped k-mer SVM")
    assert "gapped k-mer" in _help(capsys, "train")


@pytest.mark.parametrize("command", ["score", "poim", "variants"])
def test_the_model_argument_names_ls_gkm_files_too(command, capsys):
    """Before: ``MODEL.npz (poimkit train)``, though LS-GKM files work."""
    text = _help(capsys, command)
    assert "MODEL.npz" not in text and "poimkit train)" not in text
    assert "LS-GKM model file" in text
