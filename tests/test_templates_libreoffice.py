"""The templates recalculated by a real spreadsheet engine (headless LibreOffice).

Every file is converted in one ``soffice`` call (start-up dominates). Cached values
are removed first and the profile says "always recalculate", so each number read
back was computed by LibreOffice from the formulas.
"""

from __future__ import annotations

import math
import random

import openpyxl
import pytest
from libreoffice import recalculate, require_libreoffice
from workbook_tools import read_names, set_inputs, strip_cached_values

import xlfuncs.templates as T
from xlfuncs.data.accelerators import ACCELERATORS
from xlfuncs.templates import CHINCHILLA, FINETUNE, PLANNER, TEMPLATES
from xlfuncs.templates import layout as L
from xlfuncs.templates.xlsx import save_workbook

N_RANDOM = 30


def random_inputs(tpl: T.Template, rng: random.Random) -> dict[str, float]:
    logu = lambda lo, hi: math.exp(rng.uniform(math.log(lo), math.log(hi)))  # noqa: E731
    if tpl is FINETUNE:
        return {
            "GPUs": rng.randint(1, 1024),
            "TokensPerSecPerGPU": logu(50, 50_000),
            "Efficiency": rng.uniform(0.01, 1.0),
            "TokensPerExample": logu(8, 32_768),
            "DatasetExamples": rng.randint(1, 10_000_000),
            "Epochs": rng.uniform(0.1, 20),
            "PricePerGPUHour": rng.choice([0.0, logu(0.05, 20)]),
        }
    if tpl is PLANNER:
        acc = rng.choice(ACCELERATORS)
        return {
            "GPUModel": acc.name,
            "Dtype": rng.choice(sorted(acc.peak_tflops)),
            "GPUs": rng.randint(1, 100_000),
            "MFU": rng.uniform(0.05, 0.8),
            "Days": logu(0.5, 400),
            "PricePerGPUHour": logu(0.05, 20),
            "TokensPerParam": logu(1, 500),
            "FTEfficiency": rng.uniform(0.1, 1.0),
            "TokensPerExample": logu(8, 32_768),
            "DatasetExamples": rng.randint(1, 10_000_000),
            "Epochs": rng.uniform(0.1, 20),
        }
    return {"ComputeBudgetPFDays": logu(1e-3, 1e8), "TokensPerParam": logu(1, 500)}


def is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def messages(tpl: T.Template) -> set[str]:
    """Every text an output may show instead of a number."""
    return {tpl.t(o.message, lang) for o in tpl.outputs for lang in T.LANGS}


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    """Build the cases, recalculate them all at once, return {case: values}."""
    require_libreoffice()
    root = tmp_path_factory.mktemp("lo")
    src, cases = root / "src", root / "cases"
    T.build(src)
    cases.mkdir()
    rng = random.Random(20261202)
    plan: dict[str, tuple[T.Template, dict]] = {}
    for tpl in TEMPLATES:
        for lang in T.LANGS:
            name = f"default-{tpl.filename(lang)}"
            strip_cached_values(src / tpl.filename(lang), cases / name)
            plan[name] = (tpl, tpl.defaults)
        for k in range(N_RANDOM):
            inputs = random_inputs(tpl, rng)
            name = f"random{k:02d}-{tpl.filename('en')}"
            set_inputs(src / tpl.filename("en"), cases / name, inputs)
            plan[name] = (tpl, inputs)
        for inp in tpl.inputs:
            for label, value in (("blank", None), ("zero", 0)):
                name = f"{label}-{inp.name}-{tpl.filename('es')}"
                set_inputs(src / tpl.filename("es"), cases / name, {inp.name: value})
                plan[name] = (tpl, {**tpl.defaults, inp.name: value})
    # Text pasted over a validated input (pasting skips validation).
    name = "text-GPUs-finetune-throughput.xlsx"
    set_inputs(src / FINETUNE.filename("en"), cases / name, {"GPUs": "eight"})
    plan[name] = (FINETUNE, {**FINETUNE.defaults, "GPUs": "eight"})
    name = "v100-bf16-llm-training-planner.xlsx"  # the V100 has no bf16 figure
    set_inputs(src / PLANNER.filename("en"), cases / name, {"GPUModel": "V100 SXM2"})
    plan[name] = (PLANNER, {**PLANNER.defaults, "GPUModel": "V100 SXM2"})
    # One file built with other defaults: every formula cell, scenarios included,
    # is compared with the library's cached value.
    other = {**FINETUNE.defaults, "GPUs": 64, "Efficiency": 0.55, "Epochs": 1.5}
    wide = L.Template(
        **{
            **FINETUNE.__dict__,
            "inputs": tuple(
                L.Input(**{**i.__dict__, "default": other[i.name]})
                for i in FINETUNE.inputs
            ),
        }
    )
    built = T.build_template(wide, "en")
    save_workbook(built.workbook, root / "wide.xlsx", built.cached)
    strip_cached_values(root / "wide.xlsx", cases / "wide.xlsx")

    files = sorted(cases.iterdir())
    out = recalculate(files, root / "out")
    results = {p.name: read_names(p) for p in out}
    # The Check cell beside each input (column D of its row), by input name.
    for p in out:
        wb = openpyxl.load_workbook(p, data_only=True)
        for dn_name, dn in wb.defined_names.items():
            sheet, coord = dn.attr_text.replace("$", "").split("!")
            if coord.startswith("B") and ":" not in coord:
                value = wb[sheet.strip("'")]["D" + coord[1:]].value
                results[p.name][f"check:{dn_name}"] = value
    wide_cells = openpyxl.load_workbook(root / "out" / "wide.xlsx", data_only=True)
    # Each default file as built (cached values from the library) and as
    # LibreOffice recalculated it from the formulas alone.
    defaults = {
        tpl.filename(lang): (
            openpyxl.load_workbook(src / tpl.filename(lang), data_only=True),
            openpyxl.load_workbook(
                root / "out" / f"default-{tpl.filename(lang)}", data_only=True
            ),
        )
        for tpl in TEMPLATES
        for lang in T.LANGS
    }
    return plan, results, built.cached, wide_cells, defaults


def test_pasted_text_shows_messages_not_errors(engine):
    _, results, *_ = engine
    got = results["text-GPUs-finetune-throughput.xlsx"]
    assert got["check:GPUs"] == FINETUNE.t("msg.whole", "en")
    for out in FINETUNE.outputs:
        if "GPUs" in L.leaf_inputs(FINETUNE, out.name):
            assert got[out.name] in messages(FINETUNE), out.name
    assert got["check:Efficiency"] == "OK"


def test_unavailable_dtype_shows_a_message(engine):
    plan, results, *_ = engine
    got = results["v100-bf16-llm-training-planner.xlsx"]
    assert got["PeakTFLOPS"] in messages(PLANNER)
    assert got["RuleParams"] in messages(PLANNER)
    assert is_number(got["GPUHours"])


def test_worked_examples_recalculated(engine):
    _, results, *_ = engine
    for lang in T.LANGS:
        ft = results[f"default-{FINETUNE.filename(lang)}"]
        assert ft["EffectiveThroughput"] == pytest.approx(16_400, rel=1e-12)
        assert round(ft["ExamplesPerSec"], 2) == 18.22
        assert round(ft["ExamplesPerMin"], 2) == 1093.33
        ch = results[f"default-{CHINCHILLA.filename(lang)}"]
        assert round(ch["OptimalParams"] / 1e9, 1) == 65.7
        assert round(ch["OptimalTokens"] / 1e12, 2) == 1.31
        assert ch["OptimalParams"] == pytest.approx(65_726_706_900.62, rel=1e-12)


def test_random_inputs_match_the_python_library(engine):
    plan, results, *_ = engine
    checked = 0
    for name, (tpl, inputs) in plan.items():
        if not name.startswith("random"):
            continue
        got = results[name]
        for key, want in tpl.reference(inputs).items():
            assert want is not None and is_number(got[key]), (name, key, got[key])
            assert got[key] == pytest.approx(want, rel=1e-9), (name, key)
            checked += 1
    assert checked == N_RANDOM * sum(len(t.outputs) for t in TEMPLATES)


def test_blank_and_zero_inputs_give_a_message_not_an_error(engine):
    plan, results, *_ = engine
    for name, (tpl, inputs) in plan.items():
        if not name.startswith(("blank", "zero")):
            continue
        bad = name.split("-")[1]
        allowed_zero = name.startswith("zero") and bad == "PricePerGPUHour"
        for out in tpl.outputs:
            value = results[name][out.name]
            depends = bad in L.leaf_inputs(tpl, out.name)
            if depends and not allowed_zero:
                assert value in messages(tpl), (name, out.name, value)
            else:
                assert is_number(value), (name, out.name, value)
                want = tpl.reference(inputs)[out.name]
                assert value == pytest.approx(want, rel=1e-9), (name, out.name)


def test_every_formula_cell_matches_the_library(engine):
    _, _, cached, wide, _ = engine
    assert len(cached) > 40
    for (sheet, coord), want in cached.items():
        got = wide[sheet][coord].value
        if isinstance(want, str):
            assert got == want, coord
        else:
            assert got == pytest.approx(want, rel=1e-9), coord


def test_cached_values_are_what_libreoffice_computes(engine):
    # The cached values (the library's numbers) against an engine nobody here
    # wrote, recalculating the same file from its formulas: every formula cell.
    *_, defaults = engine
    compared = 0
    for name, (built, recalculated) in defaults.items():
        for ws in built.worksheets:
            for row in ws.iter_rows():
                for c in row:
                    if c.value is None:
                        continue
                    got = recalculated[ws.title][c.coordinate].value
                    if isinstance(c.value, (int, float)) and not isinstance(
                        c.value, bool
                    ):
                        assert got == pytest.approx(c.value, rel=1e-9), (
                            name,
                            c.coordinate,
                        )
                    else:
                        assert got == c.value, (name, c.coordinate)
                    compared += 1
    assert compared > 500
