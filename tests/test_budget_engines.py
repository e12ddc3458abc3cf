"""The compute budget recalculated by LibreOffice and by Gnumeric (issue 19).

Each variant is built, stripped of its cached values and recalculated: every
formula cell must be what the builder cached, no cell may show a raw error, and
the totals must hold as the issue asks, in the engine's own figures:
``BudgetTotal`` is the sum of ``MonthlyCost`` and at least the runs' cost ×
(1 + ``Contingency``); 0.1 more contingency adds at least a tenth of the runs.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
from typing import Any

import openpyxl
import pytest
import workbook_tools
from libreoffice import recalculate, require_libreoffice
from workbook_tools import named_values, strip_cached_values, with_rows

from xlfuncs.templates import BUDGET
from xlfuncs.templates.build import build_template
from xlfuncs.workbook.xlsx import save_workbook

pytestmark = pytest.mark.engine

RUNS = "Runs"
VARIANTS = {
    "default-en": (BUDGET, "en", {}),
    "default-es": (BUDGET, "es", {}),
    # Full fine-tuning of 70 B on 2 H200s: the memory check refuses it.
    "no-fit": (with_rows(BUDGET, RUNS, {4: {"RunGPUs": 2}}), "en", {}),
    "gpus-text": (with_rows(BUDGET, RUNS, {2: {"RunGPUs": "eight"}}), "es", {}),
    "euro": (BUDGET, "en", {"Currency": "EUR"}),
    "more-contingency": (BUDGET, "en", {"Contingency": 0.21}),
    # A run added in a blank row, and one past the plan's end.
    "added": (with_rows(BUDGET, RUNS, {6: {
        "RunName": "Late 3B", "RunKind": "fine-tuning", "RunModel": 3e9,
        "RunMethod": "LoRA", "RunTokens": 1e11, "RunGPU": "A100 SXM", "RunGPUs": 8,
        "RunSpeed": 1500, "RunStart": 12, "RunTier": "spot"}}), "en", {}),
}  # fmt: skip
SSCONVERT = shutil.which("ssconvert")


def same(want: Any, got: Any) -> bool:
    if isinstance(want, (int, float)) and not isinstance(want, bool):
        return isinstance(got, (int, float)) and math.isclose(
            want, got, rel_tol=1e-9, abs_tol=1e-9
        )
    return (want in (None, "") and got in (None, "")) or want == got


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    """{variant: (formulas, cached, LibreOffice's, Gnumeric's or None)}."""
    require_libreoffice()
    root = tmp_path_factory.mktemp("budget")
    built, stripped = {}, {"en": root / "en", "es": root / "es"}
    for d in stripped.values():
        d.mkdir()
    for name, (tpl, lang, values) in VARIANTS.items():
        b = build_template(tpl, lang, values)
        path = root / f"{name}.xlsx"
        save_workbook(b.workbook, path, b.cached)
        strip_cached_values(path, stripped[lang] / f"{name}.xlsx")
        built[name] = path
    lo = {}
    for lang, locale in (("en", "en-US"), ("es", "es-ES")):
        done = recalculate(
            sorted(stripped[lang].iterdir()), root / f"lo-{lang}", locale=locale
        )
        lo |= {p.stem: p for p in done}
    gnumeric = {}
    if SSCONVERT is not None:
        for name, (_, lang, _) in VARIANTS.items():
            if lang != "en":  # Gnumeric writes FIXED's figures in its C locale
                continue
            out = root / f"{name}-gnumeric.xlsx"
            subprocess.run(
                [SSCONVERT, "--recalc", str(stripped[lang] / f"{name}.xlsx"), str(out)],
                check=True, capture_output=True, timeout=300,
                env={**os.environ, "LC_ALL": "C"},
            )  # fmt: skip
            gnumeric[name] = openpyxl.load_workbook(out, data_only=True)
    return {
        name: (
            openpyxl.load_workbook(path),
            openpyxl.load_workbook(path, data_only=True),
            openpyxl.load_workbook(lo[name], data_only=True),
            gnumeric.get(name),
        )
        for name, path in built.items()
    }


def disagreements(formulas, cached, engine) -> tuple[int, list]:
    return workbook_tools.disagreements(formulas, cached, engine, same)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_libreoffice_computes_what_the_builder_cached(books, variant):
    formulas, cached, lo, _ = books[variant]
    compared, wrong = disagreements(formulas, cached, lo)
    assert not wrong, (len(wrong), wrong[:10])
    assert compared > 2000  # every formula cell of the workbook


@pytest.mark.parametrize("variant", [v for v in VARIANTS if VARIANTS[v][1] == "en"])
def test_gnumeric_computes_what_the_builder_cached(books, variant):
    formulas, cached, _, gnumeric = books[variant]
    if gnumeric is None:
        pytest.skip("Gnumeric is missing: apt-get install gnumeric")
    compared, wrong = disagreements(formulas, cached, gnumeric)
    assert not wrong, (len(wrong), wrong[:10])


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_no_raw_error_shows(books, variant):
    _, _, lo, _ = books[variant]
    for ws in lo.worksheets:
        for row in ws.iter_rows():
            for c in row:
                v = c.value
                bad = isinstance(v, str) and (v.startswith("#") or v.startswith("Err:"))
                assert not bad, (ws.title, c.coordinate, v)


def numbers(values) -> list[float]:
    return [x for x in values if isinstance(x, (int, float))]


@pytest.mark.parametrize(
    "variant", ["default-en", "default-es", "euro", "more-contingency"]
)
def test_the_total_is_the_months_and_covers_the_runs_with_contingency(books, variant):
    _, _, lo, _ = books[variant]
    total = named_values(lo, "BudgetTotal")
    assert total == pytest.approx(
        sum(numbers(named_values(lo, "MonthlyCost"))), rel=1e-12
    )
    runs = sum(numbers(named_values(lo, "RunCost")))
    assert total >= runs * (1 + named_values(lo, "Contingency"))
    assert named_values(lo, "ModelCheck") == "OK"


def test_more_contingency_adds_a_tenth_of_the_runs(books):
    base, more = books["default-en"][2], books["more-contingency"][2]
    runs = sum(numbers(named_values(base, "RunCost")))
    rise = named_values(more, "BudgetTotal") - named_values(base, "BudgetTotal")
    assert rise >= 0.1 * runs * (1 - 1e-12)


def test_the_checks_name_the_run(books):
    lo = books["no-fit"][2]
    assert named_values(lo, "ModelCheck").startswith(
        "Runs, Multilingual 70B: Error: does not fit: needs "
    )
    lo = books["gpus-text"][2]
    assert named_values(lo, "ModelCheck") == (
        "Ejecuciones, Code 7B: Error: GPU (o réplica): introduzca un número"
    )
    assert named_values(lo, "RunCost")[2] == "n/d: ver Control"
    # A run past the plan's last month: counted up to it, and said so.
    lo = books["added"][2]
    assert named_values(lo, "ModelCheck") == (
        "Runs, Late 3B: Warning: runs past month 12: the months after are not budgeted"
    )
    assert named_values(lo, "BudgetTotal") > named_values(
        books["default-en"][2], "BudgetTotal"
    )
