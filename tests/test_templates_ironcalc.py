"""The templates recalculated by a third engine, IronCalc.

The cases LibreOffice recalculates (test_templates_libreoffice.cases: the
defaults in both languages, random valid inputs, every input blank, zero or
text, the named bad and implausible inputs, odd company defaults, plans that do
not fit, the worst problems) are built, stripped of their cached values, and
computed by IronCalc (tests/ironcalc_engine.py) in the edition's locale: every
formula cell must be what the builder cached.

IronCalc reads a styled cell with ``t="n"`` and no value as 0, not blank (the
budget's blank Method of a pre-training run then read as a bad method): the
writer stores a blank cell as Excel does, ``<c r="D10" s="23"/>``, and
test_templates.py's test_a_blank_input_is_blank_in_the_file holds it there.
"""

from __future__ import annotations

import math
import re
from datetime import date, time
from typing import Any

import openpyxl
import pytest
from openpyxl.utils.datetime import to_excel
from test_templates_libreoffice import WORST, cases
from workbook_tools import disagreements, strip_cached_values

from xlfuncs.templates.build import build_template
from xlfuncs.workbook.xlsx import save_workbook

engine = pytest.importorskip("ironcalc_engine")

pytestmark = pytest.mark.engine


def agree(want: Any, got: Any) -> bool:
    if isinstance(want, (date, time)):  # a date cell, as openpyxl reads its number
        want = to_excel(want)
    if isinstance(want, (int, float)) and not isinstance(want, bool):
        return engine.number(got) is not None and math.isclose(
            want, got, rel_tol=1e-9, abs_tol=1e-300
        )
    # An empty text (an unused row of a table) reads back as an empty cell.
    return want == got or (want in ("", None) and got in ("", None))


def agree_es(want: Any, got: Any) -> bool:
    """In the Spanish edition, a number FIXED writes into a text has IronCalc
    0.9's English separators whatever the locale (docs/semantics.md: IronCalc
    ignores the locale): 0.25 for 0,25, 100,000 for 100.000."""
    if isinstance(want, str) and isinstance(got, str):
        same_digits = re.sub(r"(?<=\d)[.,](?=\d)", "·", want)
        return same_digits == re.sub(r"(?<=\d)[.,](?=\d)", "·", got)
    return agree(want, got)


@pytest.fixture(scope="module")
def recalculated(tmp_path_factory):
    """{case: (formulas, cached values, IronCalc's values, edition)}."""
    tmp = tmp_path_factory.mktemp("ironcalc")
    out = {}
    for name, tpl, values, lang, variant in cases():
        built = build_template(variant or tpl, lang, values)
        path = tmp / f"{name}.xlsx"
        save_workbook(built.workbook, path, built.cached)
        strip_cached_values(path, tmp / f"{name}-stripped.xlsx")
        out[name] = (
            built.workbook,  # the formulas as saved
            openpyxl.load_workbook(path, data_only=True),
            engine.evaluated(tmp / f"{name}-stripped.xlsx", lang),
            lang,
        )
    return out


def test_ironcalc_computes_every_formula_cell_as_the_builder_cached(recalculated):
    compared, wrong = 0, []
    for case, (formulas, cached, iron, lang) in recalculated.items():
        n, bad = disagreements(
            formulas, cached, iron, agree_es if lang == "es" else agree
        )
        compared += n
        wrong += [(case, *b) for b in bad]
    assert not wrong, (len(wrong), wrong[:10])
    assert compared > 40_000
    for kind in ("default-es", "random", "named", "blank-all", "text-all"):
        assert any(c.startswith(kind) for c in recalculated), kind


@pytest.mark.parametrize("case", WORST, ids=[c[0] for c in WORST])
def test_ironcalc_reads_the_same_master_check(recalculated, case):
    name, _, _, message = case
    formulas, _, iron, _ = recalculated[name]
    title, coord = (
        formulas.defined_names["ModelCheck"].attr_text.replace("$", "").split("!")
    )
    model = iron[title.strip("'")][coord].value
    assert model.startswith(message) if message.endswith(": ") else model == message
