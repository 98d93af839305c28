"""A batch's sheet: every error named by sheet, row and column, before any work."""

import pytest

from poimkit.batch import read_sheet
from poimkit.errors import InputError

from ..cli_runs import main


@pytest.fixture
def files(tmp_path):
    for name in ("p.fa", "n.fa", "peaks.bed", "genome.fa", "t.tsv", "m.txt"):
        (tmp_path / name).write_text(">a\nACGT\n")
    return tmp_path


def _sheet(folder, text: str):
    path = folder / "sheet.tsv"
    path.write_text(text.replace("|", "\t"))
    return path


def test_a_sheet_gives_each_row_its_road_and_resolved_files(files):
    sheet = _sheet(
        files,
        "name|pos|neg|bed|genome|fasta|targets|options\n"
        "a|p.fa|n.fa|||||--kernel wd\n"
        "b|||peaks.bed|||| \n"
        "c|||||p.fa|t.tsv|\n"
        "d|||peaks.bed|genome.fa||signal|--log1p\n",
    )
    found = read_sheet(sheet, genome=files / "genome.fa")
    assert [(e.name, e.road, e.row) for e in found] == [
        ("a", "fasta", 2),
        ("b", "peaks", 3),
        ("c", "fasta targets", 4),
        ("d", "peak targets", 5),
    ]
    assert found[0].files == {"pos": str(files / "p.fa"), "neg": str(files / "n.fa")}
    assert found[0].options == ("--kernel", "wd")
    assert found[1].files["genome"] == str(files / "genome.fa")  # --genome for all
    assert found[3].files["targets"] == "signal" and found[3].regression
    assert not found[0].regression


def test_a_model_row_explains_a_file_alone_or_with_its_records(files):
    sheet = _sheet(
        files,
        "name|model|pos|neg|bed|genome\n"
        "a|m.txt||||\n"
        "b|m.txt|p.fa|n.fa||\n"
        "c|m.txt|||peaks.bed|genome.fa\n",
    )
    found = read_sheet(sheet)
    assert [(e.road, e.explains, e.regression) for e in found] == [
        ("model", True, False),
        ("model fasta", True, False),
        ("model peaks", True, False),
    ]
    assert found[0].files == {"model": str(files / "m.txt")}
    assert set(found[2].files) == {"model", "bed", "genome"}


@pytest.mark.parametrize(
    "text, says",
    [
        ("", "the sheet is empty"),
        ("name|pos|neg\n", "a header but no experiment"),
        ("name|pos|colour\na|p.fa|x\n", "row 1: unknown column 'colour'"),
        ("pos|neg\np.fa|n.fa\n", "row 1: no name column"),
        ("name|pos|pos\na|p.fa|n.fa\n", "row 1: column 'pos' is given twice"),
        ("name|pos|neg\na|p.fa|n.fa\na|p.fa|n.fa\n", "row 3, column name: 'a' is also"),
        ("name|pos|neg\n.hidden|p.fa|n.fa\n", "row 2, column name: '.hidden'"),
        ("name|pos|neg\na/b|p.fa|n.fa\n", "row 2, column name: 'a/b'"),
        ("name|pos|neg\n|p.fa|n.fa\n", "row 2, column name: ''"),
        ("name|pos\na|p.fa\n", "row 2 (a): no road"),
        ("name|bed\na|peaks.bed\n", "row 2 (a): no road"),
        ("name|pos|neg\na|p.fa|gone.fa\n", "row 2, column neg: no file gone.fa"),
        ("name|fasta|targets\na|p.fa|signal\n", "row 2, column targets: no file"),
        ("name|pos|neg|fasta\na|p.fa|n.fa|p.fa\n", "row 2 (a), column fasta: not used"),
        ("name|pos|neg\na|p.fa|n.fa|extra\n", "row 2 has 4 cells for 3 columns"),
        ("name|model\na|gone.txt\n", "row 2, column model: no file gone.txt"),
        ("name|model|fasta\na|m.txt|p.fa\n", "row 2 (a), column fasta: not used"),
        ("name|model|pos\na|m.txt|p.fa\n", "row 2 (a), column pos: not used"),
        (
            "name|pos|neg|options\na|p.fa|n.fa|--kernel 'wd\n",
            "column options: No closing",
        ),
    ],
)
def test_every_sheet_error_names_the_row_and_the_column(files, text, says):
    sheet = _sheet(files, text)
    with pytest.raises(InputError, match=f"^{sheet}: .*") as caught:
        read_sheet(sheet)
    assert says in str(caught.value)


def test_a_missing_sheet_is_one_line(tmp_path):
    with pytest.raises(InputError, match="cannot read the sheet"):
        read_sheet(tmp_path / "none.tsv")


@pytest.mark.parametrize(
    "options, says",
    [
        ("--cv x", "row 2 (a), column options: argument --cv: invalid int value"),
        ("--colour red", "row 2 (a), column options: unrecognized arguments"),
        ("--kernel gkm --degree 6", "row 2 (a), column options: degree"),
        ("--log1p", "row 2 (a), column options: --log1p goes with --targets"),
        ("--bed other.bed", "row 2 (a), column options: --bed is not an option"),
        ("-o elsewhere", "row 2 (a), column options: -o is not an option of a row"),
    ],
)
def test_options_that_do_not_parse_stop_the_batch_before_any_work(
    files, capsys, options, says
):
    sheet = _sheet(files, f"name|pos|neg|options\na|p.fa|n.fa|{options}\n")
    out = files / "atlas"
    assert main(["batch", sheet, "-o", out]) == 2
    assert says in capsys.readouterr().err
    assert not out.exists()  # nothing made


def test_a_folder_poimkit_did_not_make_is_refused(files, capsys):
    sheet = _sheet(files, "name|pos|neg\na|p.fa|n.fa\n")
    out = files / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep")
    assert main(["batch", sheet, "-o", out, "--options", "--cv 2"]) == 2
    assert "poimkit did not make it" in capsys.readouterr().err
    assert (out / "notes.txt").read_text() == "keep"
