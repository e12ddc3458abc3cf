"""Excel's own limits held by construction (issue 26): the writer refuses a
formula or a defined name past them, naming where it would go.

Microsoft, "Excel specifications and limits": 8,192 characters of formula
contents, 64 levels of nested functions, 255 arguments, 255-character text
constants. LibreOffice and Gnumeric accept more, so no engine test would see
a formula past them: the writer counts them itself, for every workbook the
package writes (the templates, the LAMBDA library) through
:func:`xlfuncs.workbook.xlsx.workbook_bytes`.
"""

from __future__ import annotations

from dataclasses import replace

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName

from xlfuncs.templates import FINETUNE
from xlfuncs.templates.blocks import Result, Results
from xlfuncs.templates.build import build_template
from xlfuncs.templates.expr import F, Lit, Ref
from xlfuncs.workbook import limits
from xlfuncs.workbook.xlsx import workbook_bytes


def _sheet(formula: str) -> openpyxl.Workbook:
    wb = openpyxl.Workbook()
    wb.active.title = "Plan"
    wb.active["B12"] = formula
    return wb


PAST = {
    # 8,193 characters of contents: "=" is not counted.
    "characters": "=" + "+".join(["1"] * 4096) + "+1",
    # 65 nested functions, IF(…) inside IF(…).
    "nested functions": "=" + "IF(TRUE," * 65 + "1" + ",0)" * 65,
    # SUM of 256 arguments.
    "arguments to one function": "=SUM(" + ",".join(["1"] * 256) + ")",
    # A text constant of 256 characters.
    "characters in a text constant": '="' + "x" * 256 + '"',
}
AT = {
    "characters": "=" + "+".join(["1"] * 4096) + "1",
    "nested functions": "=" + "IF(TRUE," * 64 + "1" + ",0)" * 64,
    "arguments to one function": "=SUM(" + ",".join(["1"] * 255) + ")",
    "characters in a text constant": '="' + "x" * 255 + '"',
}


def test_the_limits_counted_at_and_past_each():
    assert len(AT["characters"]) - 1 == 8192 and len(PAST["characters"]) - 1 == 8193
    for what in PAST:
        assert limits.check(AT[what], "Plan!B12"), what  # at the limit: written
        with pytest.raises(limits.FormulaLimitError, match=f"Plan!B12: .*{what}"):
            limits.check(PAST[what], "Plan!B12")


@pytest.mark.parametrize("what", list(PAST))
def test_the_writer_refuses_a_cell_past_a_limit_and_names_it(what):
    with pytest.raises(limits.FormulaLimitError, match=f"^Plan!B12: .*{what}"):
        workbook_bytes(_sheet(PAST[what]), {})
    assert workbook_bytes(_sheet(AT[what]), {})  # one less: written


def test_the_writer_refuses_a_defined_name_past_a_limit():
    wb = _sheet("=1")
    wb.defined_names["TOO_LONG"] = DefinedName(
        "TOO_LONG", attr_text="_xlfn.LAMBDA(_xlpm.x," + "IF(TRUE," * 65 + "_xlpm.x"
        + ",0)" * 65 + ")"
    )  # fmt: skip
    with pytest.raises(limits.FormulaLimitError, match="the name TOO_LONG: .*nested"):
        workbook_bytes(wb, {})


def test_a_template_whose_formula_would_pass_a_limit_is_not_written():
    # A result 70 IFs deep: the model prints it, the writer refuses its cell.
    deep = Ref("GPUs")
    for _ in range(70):
        deep = F.IF(Lit(True), deep, 0)
    first = FINETUNE.results[0]
    extra = Results(
        first.label, (Result("TooDeep", deep, first.label, first.unit, first.how),)
    )
    k = next(i for i, s in enumerate(FINETUNE.sheets) if s.name.en == "Fine-tuning")
    sheet = FINETUNE.sheets[k]
    sheets = list(FINETUNE.sheets)
    sheets[k] = replace(sheet, blocks=(*sheet.blocks, extra))
    tpl = replace(FINETUNE, sheets=tuple(sheets))
    built = build_template(tpl, "en")
    with pytest.raises(limits.FormulaLimitError, match=r"Fine-tuning!B\d+: .*nested"):
        workbook_bytes(built.workbook, built.cached)
