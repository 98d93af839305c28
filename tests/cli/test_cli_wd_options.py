"""The WD kernel's --reverse-complement and --mismatches on the command line."""

import pytest

from poimkit import load_model
from poimkit.errors import InputError
from poimkit.svm import WDKernelSVC, make_model

from ..cli_runs import FAST, main

#: a quick `train`: the options of FAST that train has
TRAIN = [*FAST[:5], "--quiet"]

OPTIONS = {
    "reverse-complement": (["--reverse-complement"], "reverse_complement", True),
    "mismatches": (["--mismatches", "1"], "mismatches", 1),
}


def _input(data):
    return ["--pos", data / "p.fa", "--neg", data / "n.fa"]


@pytest.mark.parametrize("name", OPTIONS)
@pytest.mark.parametrize("solver", ["auto", "kernel"])
def test_train_takes_the_wd_kernel_options(data, tmp_path, name, solver):
    flags, attribute, value = OPTIONS[name]
    out = tmp_path / "m.npz"
    code = main(
        [
            "train",
            *_input(data),
            *TRAIN,
            "--solver",
            solver,
            *flags,
            "-o",
            out,
        ]
    )
    assert code == 0
    model = load_model(out)
    assert isinstance(model, WDKernelSVC) and getattr(model, attribute) == value


@pytest.mark.parametrize("name", OPTIONS)
def test_run_takes_the_wd_kernel_options(data, tmp_path, name):
    flags, attribute, value = OPTIONS[name]
    out = tmp_path / "out"
    code = main(["run", *_input(data), *FAST, "--solver", "kernel", *flags, "-o", out])
    assert code == 0
    model = load_model(out / "model.npz")
    assert getattr(model, attribute) == value


@pytest.mark.parametrize("command", ["train", "run"])
@pytest.mark.parametrize("name", OPTIONS)
def test_linear_solver_refuses_them_truly(data, tmp_path, capsys, command, name):
    flags, _, _ = OPTIONS[name]
    out = tmp_path / ("m.npz" if command == "train" else "out")
    quick = TRAIN if command == "train" else FAST
    code = main(
        [command, *_input(data), *quick, "--solver", "linear", *flags, "-o", out]
    )
    assert code == 2 and not out.exists()
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "--solver kernel" in err and "linear solver only" not in err


@pytest.mark.parametrize("flags", [["--no-reverse-complement"], ["--mismatches", "0"]])
def test_linear_solver_takes_their_off_values(data, tmp_path, flags):
    out = tmp_path / "m.npz"
    code = main(
        [
            "train",
            *_input(data),
            *TRAIN,
            "--solver",
            "linear",
            *flags,
            "-o",
            out,
        ]
    )
    assert code == 0


def test_gkm_refuses_mismatches_and_takes_the_strands(data, tmp_path, capsys):
    gkm = ["--kernel", "gkm", "--gkm-l", "4", "--gkm-k", "2", "--no-grid", "--cv", "0"]
    out = tmp_path / "m.npz"
    code = main(["train", *_input(data), *gkm, "--mismatches", "1", "-o", out])
    assert code == 2 and "not of kernel='gkm'" in capsys.readouterr().err
    code = main(["train", *_input(data), *gkm, "--reverse-complement", "-o", out])
    assert code == 0 and load_model(out).reverse_complement


def test_make_model_names_the_solver_of_each_option():
    assert make_model("kernel", degree=3, mismatches=1).mismatches == 1
    assert make_model("kernel", reverse_complement=True).reverse_complement
    with pytest.raises(InputError, match="kernel solver only"):
        make_model("linear", reverse_complement=True)
    with pytest.raises(InputError, match="linear solver only"):
        make_model("kernel", loss="logistic")
