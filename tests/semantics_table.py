"""The semantics table (tests/semantics_spec.py) as formulas: valued by
semantics.py, written into a workbook for the engines, and read back.

Each case's formula is parsed into the tree the templates use
(:func:`xlfuncs.templates.written.parse`); its value is that tree's value, as
the builder caches it; in the workbook it is printed with its inputs' names
replaced by the cells that hold them, each input typed as the case says.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel
from semantics_spec import Across, Case, Column

from xlfuncs.excel.values import Range, XlError, as_cell
from xlfuncs.templates.expr import Ctx, Env
from xlfuncs.templates.written import parse

SHEET, LISTS = "Cases", "Lists"


def _cell_value(v: Any) -> Any:
    return float(v) if isinstance(v, int) and not isinstance(v, bool) else v


def env(case: Case) -> Env:
    """The case's inputs as the trees read them: a range as its values."""
    values: dict[str, Any] = {}
    for name, v in case.inputs.items():
        if isinstance(v, Column):
            values[name] = Range.column([_cell_value(x) for x in v.values])
        elif isinstance(v, Across):
            values[name] = Range.row([_cell_value(x) for x in v.values])
        else:
            values[name] = _cell_value(v)
    return Env(values, lang=case.lang)


def ours(case: Case) -> Any:
    """What the builder caches for the case's formula."""
    return as_cell(parse(case.formula, {}).value(env(case)))


class _Cells(Ctx):
    def __init__(self, refs: Mapping[str, str]) -> None:
        self.refs = refs

    def ref(self, name: str) -> str:
        return self.refs[name]


def _put(cell: Any, v: Any) -> None:
    if v is None:
        return
    cell.value = v.code if isinstance(v, XlError) else v
    if isinstance(v, str):
        cell.data_type = "s"  # typed text, never a formula or an error


def write(cases: Sequence[Case], path: Path) -> None:
    """One row of ``Cases`` per case: its name (A), its formula (B), its typed
    inputs from C on; a column of inputs goes to the ``Lists`` sheet."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = SHEET
    lists = wb.create_sheet(LISTS)
    free = 1
    for r, case in enumerate(cases, start=1):
        ws.cell(r, 1, case.name)
        refs: dict[str, str] = {}
        c = 3
        for name, v in case.inputs.items():
            if isinstance(v, Column):
                letter = get_column_letter(free)
                for i, x in enumerate(v.values, start=1):
                    _put(lists.cell(i, free), x)
                refs[name] = f"{LISTS}!{letter}1:{letter}{len(v.values)}"
                free += 1
            elif isinstance(v, Across):
                first = get_column_letter(c)
                for x in v.values:
                    _put(ws.cell(r, c), x)
                    c += 1
                refs[name] = f"{first}{r}:{get_column_letter(c - 1)}{r}"
            else:
                _put(ws.cell(r, c), v)
                refs[name] = f"{get_column_letter(c)}{r}"
                c += 1
        ws.cell(r, 2).value = "=" + parse(case.formula, {}).excel(_Cells(refs))
    wb.save(path)


def read(path: Path, cases: Sequence[Case]) -> dict[str, Any]:
    """Each case's recalculated value in an engine's file (errors as XlError,
    dates an engine formatted as dates back to serial numbers)."""
    ws = openpyxl.load_workbook(path, data_only=True)[SHEET]
    out: dict[str, Any] = {}
    for r, case in enumerate(cases, start=1):
        cell = ws.cell(r, 2)
        v = cell.value
        if cell.data_type == "e":
            v = XlError(str(v))
        elif isinstance(v, (dt.datetime, dt.date)):
            v = float(to_excel(v))
        out[case.name] = v
    return out


def read_ironcalc(path: Path, cases: Sequence[Case], lang: str) -> dict[str, Any]:
    """Each case's value as IronCalc computes the file in the reader's locale."""
    import ironcalc

    model = ironcalc.load_from_xlsx(str(path), lang, "UTC", "en")
    model.evaluate()
    out: dict[str, Any] = {}
    for r, case in enumerate(cases, start=1):
        if model.get_cell_type(0, r, 2) == ironcalc.CellType.ErrorValue:
            out[case.name] = XlError(model.get_formatted_cell_value(0, r, 2))
        else:
            out[case.name] = model.get_cell_value_by_ref(f"{SHEET}!B{r}")
    return out
