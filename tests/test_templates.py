"""Template workbooks: structure, conventions, cached values, safe writing."""

from __future__ import annotations

import math
import re
from pathlib import Path

import openpyxl
import pytest
from workbook_tools import read_names, summary

import xlfuncs.templates as T
from xlfuncs.templates import CHINCHILLA, FINETUNE, TEMPLATES
from xlfuncs.templates import layout as L
from xlfuncs.templates.xlsx import save_workbook

ROOT = Path(__file__).resolve().parents[1]
NAMES = {
    "finetune-throughput": {
        "GPUs",
        "TokensPerSecPerGPU",
        "Efficiency",
        "TokensPerExample",
        "DatasetExamples",
        "Epochs",
        "PricePerGPUHour",
        "EffectiveThroughput",
        "ExamplesPerSec",
        "ExamplesPerMin",
        "TokensPerMin",
        "TrainingHours",
        "GPUHours",
        "TrainingCost",
    },
    "chinchilla-model-size": {
        "ComputeBudgetPFDays",
        "TokensPerParam",
        "OptimalParams",
        "OptimalTokens",
        "TrainingFLOPs",
    },
    "llm-training-planner": {
        *[
            "GPUModel",
            "Dtype",
            "GPUs",
            "MFU",
            "Days",
            "PricePerGPUHour",
            "TokensPerParam",
        ],
        *[
            "FTEfficiency",
            "TokensPerExample",
            "DatasetExamples",
            "Epochs",
            "PeakTFLOPS",
        ],
        *[
            "ComputeBudgetPFDays",
            "TrainingFLOPs",
            "GPUHours",
            "TrainingCost",
            "RuleParams",
        ],
        *[
            "RuleTokens",
            "HoffmannParams",
            "HoffmannTokens",
            "HoffmannLoss",
            "EpochParams",
        ],
        *["EpochTokens", "EpochLoss", "RuleLoss", "FTTokensPerSecPerGPU"],
        *["FTExamplesPerSec", "FTTrainingHours", "FTCost"],
        # Reference data on the Data sheet.
        "AcceleratorNames",
        "AcceleratorPeaks",
        "DtypeNames",
        *(
            f"Fit{f}{c}"
            for f in ("Hoffmann", "Epoch")
            for c in ("E", "A", "B", "Alpha", "Beta")
        ),
    },
}
FILES = [(tpl, lang) for tpl in TEMPLATES for lang in T.LANGS]
IDS = [tpl.filename(lang) for tpl, lang in FILES]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("built")
    T.build(out)
    return out


def test_committed_workbooks_are_what_build_produces(built):
    # By content (names, formulas, cached values, styles, validation, print
    # set-up, charts), not bytes: another openpyxl release may order XML anew.
    for tpl, lang in FILES:
        name = tpl.filename(lang)
        assert (ROOT / "workbooks" / name).exists(), (
            f"run `xlfuncs build --force`: {name}"
        )
        assert summary(ROOT / "workbooks" / name) == summary(built / name), (
            f"workbooks/{name} is stale: run `xlfuncs build --force`"
        )


def test_two_builds_give_the_same_bytes(built, tmp_path):
    T.build(tmp_path)
    for tpl, lang in FILES:
        name = tpl.filename(lang)
        assert (tmp_path / name).read_bytes() == (built / name).read_bytes(), name


def test_never_overwrites_without_force(tmp_path):
    T.build(tmp_path, ["en"])
    target = tmp_path / FINETUNE.filename("en")
    target.write_bytes(b"the analyst's own edits")
    with pytest.raises(FileExistsError, match="--force"):
        T.build(tmp_path, ["en"])
    assert target.read_bytes() == b"the analyst's own edits"
    T.build(tmp_path, ["en"], force=True)
    assert target.read_bytes()[:2] == b"PK"


def test_interrupted_build_leaves_old_file(tmp_path, monkeypatch):
    T.build(tmp_path, ["en"])
    target = tmp_path / FINETUNE.filename("en")
    before = target.read_bytes()

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr("xlfuncs.templates.xlsx._zip_bytes", boom)
    with pytest.raises(KeyboardInterrupt):
        T.build(tmp_path, ["en"], force=True)
    assert target.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if not p.name.endswith(".xlsx")]


def test_unknown_language(tmp_path):
    with pytest.raises(ValueError, match="language"):
        T.build(tmp_path, ["fr"])


@pytest.mark.parametrize(("tpl", "lang"), FILES, ids=IDS)
def test_defined_names_exactly(built, tpl, lang):
    wb = openpyxl.load_workbook(built / tpl.filename(lang))
    assert set(wb.defined_names) == NAMES[tpl.slug]
    # Same names point at the same cells in every language.
    en = openpyxl.load_workbook(built / tpl.filename("en"))
    for name in NAMES[tpl.slug]:
        assert (
            wb.defined_names[name].attr_text.split("!")[1]
            == (en.defined_names[name].attr_text.split("!")[1])
        )


def test_planner_chain_in_cached_values(built):
    # Hand arithmetic from the defaults: 1,024 H100 SXM (989.4 TFLOP/s dense bf16,
    # the datasheet's 1,979 with sparsity halved) at 40 % MFU for 30 days.
    v = read_names(built / "llm-training-planner.xlsx")
    assert v["PeakTFLOPS"] == 989.4
    budget = 1024 * 989.4 * 0.4 * 30 / 1000  # TFLOP/s-days to PF/s-days
    assert v["ComputeBudgetPFDays"] == pytest.approx(budget, rel=1e-12)
    assert v["TrainingFLOPs"] == pytest.approx(budget * 8.64e19, rel=1e-12)
    assert v["GPUHours"] == pytest.approx(1024 * 30 * 24, rel=1e-12)
    n = math.sqrt(budget * 8.64e19 / (6 * 20))
    assert v["RuleParams"] == pytest.approx(n, rel=1e-12)
    assert v["RuleTokens"] == pytest.approx(20 * n, rel=1e-12)
    # Hoffmann's eq. 10: N = G (C/6)^a with a = 0.28 / 0.62, G = (αA/βB)^(1/0.62).
    g = (0.34 * 406.4 / (0.28 * 410.7)) ** (1 / 0.62)
    n_h = g * (budget * 8.64e19 / 6) ** (0.28 / 0.62)
    assert v["HoffmannParams"] == pytest.approx(n_h, rel=1e-12)
    d_h = budget * 8.64e19 / (6 * n_h)
    loss_h = 1.69 + 406.4 / n_h**0.34 + 410.7 / d_h**0.28
    assert v["HoffmannLoss"] == pytest.approx(loss_h, rel=1e-12)
    assert v["HoffmannLoss"] < v["RuleLoss"]  # the fit's own optimum is lower
    # The 20-tokens model on the same cluster: V = MFU × peak / (6N).
    assert v["FTTokensPerSecPerGPU"] == pytest.approx(
        0.4 * 989.4e12 / (6 * n), rel=1e-12
    )
    # The budget is spent: 6 N D equals the FLOPs for every sizing.
    for p, d in (
        ("RuleParams", "RuleTokens"),
        ("HoffmannParams", "HoffmannTokens"),
        ("EpochParams", "EpochTokens"),
    ):
        assert 6 * v[p] * v[d] == pytest.approx(v["TrainingFLOPs"], rel=1e-12)


def test_worked_examples_in_cached_values(built):
    ft = read_names(built / FINETUNE.filename("en"))
    assert round(ft["ExamplesPerSec"], 2) == 18.22
    assert round(ft["ExamplesPerMin"], 2) == 1093.33
    assert ft["EffectiveThroughput"] == pytest.approx(16_400)
    ch = read_names(built / CHINCHILLA.filename("es"))
    assert round(ch["OptimalParams"] / 1e9, 1) == 65.7
    assert round(ch["OptimalTokens"] / 1e12, 2) == 1.31


def _formula_cells(ws):
    for row in ws.iter_rows():
        for c in row:
            if c.data_type == "f":
                yield c


@pytest.mark.parametrize(("tpl", "lang"), FILES, ids=IDS)
def test_every_formula_cell_has_a_cached_value(built, tpl, lang):
    wb = openpyxl.load_workbook(built / tpl.filename(lang))
    cached = openpyxl.load_workbook(built / tpl.filename(lang), data_only=True)
    assert list(_formula_cells(wb.worksheets[0]))
    for ws in wb.worksheets:
        for c in _formula_cells(ws):
            assert cached[ws.title][c.coordinate].value is not None, c.coordinate


@pytest.mark.parametrize(("tpl", "lang"), FILES, ids=IDS)
def test_named_formulas_use_names_not_cell_references(built, tpl, lang):
    wb = openpyxl.load_workbook(built / tpl.filename(lang))
    for out in tpl.outputs:
        title, coord = wb.defined_names[out.name].attr_text.replace("$", "").split("!")
        formula = wb[title.strip("'")][coord].value
        body = re.sub(r'"[^"]*"', '""', formula)  # drop the message text
        assert not re.search(
            r"(?<![A-Za-z])\$?[A-Z]{1,3}\$?[0-9]+(?![0-9A-Za-z(])",
            body.replace("E+19", ""),
        ), formula
        assert formula.startswith("=IFERROR(IF(AND(")


@pytest.mark.parametrize(("tpl", "lang"), FILES, ids=IDS)
def test_finance_conventions(built, tpl, lang):
    wb = openpyxl.load_workbook(built / tpl.filename(lang))
    ws = wb.worksheets[0]
    assert ws.protection.sheet and not ws.protection.password
    assert ws.freeze_panes
    assert ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.page_setup.fitToWidth == 1 and ws.page_setup.fitToHeight == 1
    assert ws.print_area
    p = wb.properties
    assert p.title == tpl.t("title", lang) and p.subject and p.creator == "xlfuncs"
    validated = set()
    for dv in ws.data_validations.dataValidation:
        assert dv.showErrorMessage and dv.showInputMessage
        assert dv.error and dv.prompt and dv.errorStyle == "stop"
        validated |= {str(r) for r in dv.sqref.ranges}
    for inp in tpl.inputs:
        coord = wb.defined_names[inp.name].attr_text.split("!")[1].replace("$", "")
        cell = ws[coord]
        assert coord in validated, inp.name
        assert cell.protection.locked is False, inp.name
        assert cell.fill.fgColor.rgb.endswith("FFF2CC")
        assert cell.number_format != "General"
    for c in _formula_cells(ws):
        assert c.protection.locked, c.coordinate
    # Every cell a user may type in (inputs, scenario values) is validated.
    for row in ws.iter_rows():
        for c in row:
            if c.protection.locked is False:
                assert any(
                    c.coordinate in dv.sqref
                    for dv in ws.data_validations.dataValidation
                ), c.coordinate
    eff = [i for i in tpl.inputs if i.name == "Efficiency"]
    if eff:
        assert eff[0].fmt.endswith("%")
    if tpl is CHINCHILLA:
        coord = (
            wb.defined_names["OptimalParams"].attr_text.split("!")[1].replace("$", "")
        )
        assert ",,," in ws[coord].number_format  # shown in billions
    assert ws._charts, "each template has a chart"
    for other in wb.worksheets[1:]:
        assert other.protection.sheet


def test_spanish_edition_is_translated(built):
    en = openpyxl.load_workbook(built / FINETUNE.filename("en")).worksheets[0]
    es = openpyxl.load_workbook(built / FINETUNE.filename("es")).worksheets[0]
    assert en["A1"].value != es["A1"].value
    assert "Planificador" in es["A1"].value
    # Same layout: every formula cell in the same place, with the same math.
    f_en = {c.coordinate: c.value for c in _formula_cells(en)}
    f_es = {c.coordinate: c.value for c in _formula_cells(es)}
    assert f_en.keys() == f_es.keys()
    strip = lambda f: re.sub(r'"[^"]*"', '""', f)  # noqa: E731
    assert {k: strip(v) for k, v in f_en.items()} == {
        k: strip(v) for k, v in f_es.items()
    }


def test_outside_text_is_never_a_formula(tmp_path):
    evil = '=HYPERLINK("http://example.invalid","click")'
    text = {**FINETUNE.text, "sc.length": {"en": evil, "es": evil}}
    tpl = L.Template(**{**FINETUNE.__dict__, "text": text})
    built = T.build_template(tpl, "en")
    cells = [
        c
        for row in built.workbook.worksheets[0].iter_rows()
        for c in row
        if c.value == evil
    ]
    assert cells and all(c.data_type == "s" for c in cells)
    out = tmp_path / "x.xlsx"
    save_workbook(built.workbook, out, built.cached)
    ws = openpyxl.load_workbook(out).worksheets[0]
    assert any(
        c.value == evil and c.data_type == "s" for row in ws.iter_rows() for c in row
    )


def test_template_outputs_reference_matching_library_arguments():
    # _check_references ran at import; a mismatched mapping must be refused.
    bad = L.Output(
        "X",
        "GPUs",
        ("GPUs",),
        "0",
        "FT_THROUGHPUT",
        ("Efficiency", "GPUs", "TokensPerSecPerGPU"),
    )
    from xlfuncs.templates.layout import check_references as _check_references

    with pytest.raises(ValueError, match="does not match"):
        _check_references(L.Template(**{**FINETUNE.__dict__, "outputs": (bad,)}))
