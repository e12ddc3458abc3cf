"""Template workbooks: planning models in plain Excel formulas, no Python needed.

Each template is data: its inputs (a defined name, the library argument it feeds,
a default, a number format), its outputs (a defined name, an Excel formula written
with the names, and the library function that is its reference), scenario tables
and charts. :func:`build_template` lays it out the way a finance team expects:
inputs, calculations and outputs in separate sections, input cells styled and
unlocked, validation on every input, a units column, each formula explained
beside it, protected sheets, print set-up and notes.

The Python library is the reference: every formula cell gets its cached value
from the library (so previews show the numbers) and the tests recalculate the
files in LibreOffice and compare. Input domains come from
:mod:`xlfuncs.arguments`, so a template accepts what the function accepts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import openpyxl
from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.chart.data_source import NumFmt
from openpyxl.styles import Alignment, Border, Font, PatternFill, Protection, Side
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.header_footer import HeaderFooterItem
from openpyxl.worksheet.header_footer import _HeaderFooterPart as _Text
from openpyxl.worksheet.properties import PageSetupProperties

from ..registry import ARGS, REGISTRY, InputError

LANGS = ("en", "es")

#: A table a template adds below its scenarios: it writes from ``row`` on, adds the
#: cached values of its formula cells, and returns the next free row.
Block = Callable[..., int]

# ----------------------------------------------------------------- definitions


@dataclass(frozen=True)
class Input:
    """An input cell: a defined name feeding one library argument."""

    name: str  # workbook-scoped defined name
    arg: str  # the library argument whose domain and unit it shares
    default: float | str
    fmt: str
    whole: bool = False  # whole numbers only (GPUs, examples), at least 1
    choices: str | None = None  # defined name of the list a text input picks from


class Lit(str):
    """A literal argument of an output's reference function, e.g. Lit("hoffmann")."""


@dataclass(frozen=True)
class Output:
    """A formula cell with a defined name, and its reference in the library.

    ``formula`` is the Excel expression, written with defined names only;
    ``needs`` are the names it reads. The reference value is
    ``REGISTRY[function].api(*(inputs[a] for a in args))``, or ``value(inputs)``
    for compositions of library functions.
    """

    name: str
    formula: str
    needs: tuple[str, ...]
    fmt: str
    function: str | None = None
    args: tuple[str, ...] = ()
    value: Callable[[Mapping[str, Any]], float] | None = None
    section: str = "sec.outputs"  # a text key; "sec.calculations" is shaded grey
    positive: bool = False  # the result itself must be > 0 (a table look-up)
    message: str = "msg.check_inputs"  # text key of what it shows when it cannot

    def reference(self, values: Mapping[str, Any]) -> float:
        """The library's value, given the inputs and the outputs before this one."""
        if self.value is not None:
            return float(self.value(values))
        args = (a if isinstance(a, Lit) else values[a] for a in self.args)
        assert self.function is not None
        return float(REGISTRY[self.function].api(*args))


@dataclass(frozen=True)
class Scenario:
    """A table: one input varied down the rows, chosen outputs across."""

    key: str  # text key of its title
    vary: str  # the input varied
    values: tuple[float, ...]
    columns: tuple[str, ...]  # output names
    chart: tuple[str, ...] = ()  # outputs plotted against the varied input
    log_x: bool = False
    log_y: bool = False


@dataclass(frozen=True)
class Template:
    slug: str  # file name stem
    inputs: tuple[Input, ...]
    outputs: tuple[Output, ...]
    scenarios: tuple[Scenario, ...]
    notes: tuple[str, ...]  # text keys
    text: Mapping[str, Mapping[str, str]] = field(repr=False)  # key -> lang -> text
    sections: tuple[str, ...] = ("sec.calculations", "sec.outputs")  # output order
    data: Callable[[openpyxl.Workbook, str], None] | None = None  # a reference sheet
    # Further tables placed after the scenarios, e.g. the planner's IsoFLOP curve.
    blocks: tuple[Block, ...] = ()

    def t(self, key: str, lang: str) -> str:
        return self.text[key][lang]

    def fmt(self, fmt: str, lang: str) -> str:
        """A number format, or a text key naming one per language."""
        return self.text[fmt][lang] if fmt in self.text else fmt

    def input(self, name: str) -> Input:
        return next(i for i in self.inputs if i.name == name)

    def output(self, name: str) -> Output:
        return next(o for o in self.outputs if o.name == name)

    @property
    def defaults(self) -> dict[str, float | str]:
        return {i.name: i.default for i in self.inputs}

    def filename(self, lang: str) -> str:
        return f"{self.slug}.xlsx" if lang == "en" else f"{self.slug}-{lang}.xlsx"

    def reference(self, inputs: Mapping[str, Any]) -> dict[str, float | None]:
        """Every output computed by the Python library for these inputs.

        None where the library refuses the inputs (the workbook shows a message
        there), and in every output that reads such a one.
        """
        values: dict[str, Any] = dict(inputs)
        for o in self.outputs:
            if any(values.get(n) is None for n in o.needs):
                values[o.name] = None
                continue
            try:
                values[o.name] = o.reference(values)
            except InputError:
                values[o.name] = None
        return {o.name: values[o.name] for o in self.outputs}

    def is_output(self, name: str) -> bool:
        return any(o.name == name for o in self.outputs)


# Shared texts: headers, sections, messages.
COMMON = {
    "legend": {
        "en": "Yellow cells with blue figures are inputs; every other figure is "
        "calculated. Only input cells can be edited (Review > Unprotect Sheet, no "
        "password, to change the model).",
        "es": "Las celdas amarillas con cifras azules son datos de entrada; el resto "
        "se calcula. Solo se pueden editar las entradas (Revisar > Desproteger hoja, "
        "sin contraseña, para cambiar el modelo).",
    },
    "hdr.item": {"en": "Item", "es": "Concepto"},
    "hdr.value": {"en": "Value", "es": "Valor"},
    "hdr.unit": {"en": "Unit", "es": "Unidad"},
    "hdr.check": {"en": "Check", "es": "Validación"},
    "hdr.how": {
        "en": "What it is / how it is calculated",
        "es": "Qué es / cómo se calcula",
    },
    "sec.inputs": {"en": "Inputs", "es": "Datos de entrada"},
    "sec.calculations": {"en": "Calculations", "es": "Cálculos"},
    "sec.outputs": {"en": "Results", "es": "Resultados"},
    "sec.notes": {"en": "Notes and caveats", "es": "Notas y advertencias"},
    "msg.ok": {"en": "OK", "es": "OK"},
    # Counts shown in billions and trillions (B/T; Spanish: mil M, bill. = 10^12).
    "fmt.billions": {"en": '#,##0.0,,," B"', "es": '#,##0.0,,," mil M"'},
    "fmt.trillions": {"en": '#,##0.00,,,," T"', "es": '#,##0.00,,,," bill."'},
    # Inputs and results that several templates share, worded the same.
    "GPUs.unit": {"en": "GPUs", "es": "GPU"},
    "PricePerGPUHour.label": {"en": "Price per GPU-hour", "es": "Precio por GPU-hora"},
    "PricePerGPUHour.unit": {"en": "currency/GPU-h", "es": "moneda/GPU-h"},
    "PricePerGPUHour.help": {
        "en": "What one GPU costs for one hour, in your currency; 0 or more.",
        "es": "Coste de una GPU durante una hora, en su moneda; 0 o más.",
    },
    "TokensPerExample.unit": {"en": "tokens", "es": "tokens"},
    "DatasetExamples.unit": {"en": "examples", "es": "ejemplos"},
    "Epochs.unit": {"en": "passes", "es": "pasadas"},
    "GPUHours.label": {"en": "GPU-hours", "es": "GPU-horas"},
    "GPUHours.unit": {"en": "GPU-hours", "es": "GPU-horas"},
    "TrainingCost.label": {"en": "Training cost", "es": "Coste del entrenamiento"},
    "TrainingCost.unit": {"en": "currency", "es": "moneda"},
    "TrainingCost.how": {
        "en": "GPU-hours × price per GPU-hour.",
        "es": "GPU-horas × precio por GPU-hora.",
    },
    "TokensPerParam.label": {
        "en": "Tokens per parameter (r)",
        "es": "Tokens por parámetro (r)",
    },
    "TokensPerParam.unit": {"en": "tokens/param", "es": "tokens/parám."},
    "ComputeBudgetPFDays.label": {
        "en": "Compute budget (C)",
        "es": "Presupuesto de cómputo (C)",
    },
    "ComputeBudgetPFDays.unit": {"en": "PF/s-days", "es": "PF/s-días"},
    "TrainingFLOPs.label": {"en": "Training compute", "es": "Cómputo de entrenamiento"},
    "TrainingFLOPs.unit": {"en": "FLOPs", "es": "FLOPs"},
    "msg.check_inputs": {
        "en": "Check the inputs above",
        "es": "Revise los datos de entrada",
    },
    "msg.invalid_title": {"en": "Invalid input", "es": "Dato no válido"},
    "msg.whole": {
        "en": "Enter a whole number, 1 or more.",
        "es": "Introduzca un número entero, 1 o más.",
    },
    "msg.positive": {
        "en": "Enter a number greater than 0.",
        "es": "Introduzca un número mayor que 0.",
    },
    "msg.nonnegative": {
        "en": "Enter 0 or a positive number.",
        "es": "Introduzca 0 o un número positivo.",
    },
    "msg.choice": {
        "en": "Pick a value from the list.",
        "es": "Elija un valor de la lista.",
    },
    "msg.fraction": {
        "en": "Enter a percentage above 0% and at most 100% (e.g. 82%).",
        "es": "Introduzca un porcentaje mayor que 0 % y como máximo 100 % "
        "(p. ej. 82 %).",
    },
}


def check_references(tpl: Template) -> Template:
    """Each output's args must feed its library function's arguments, in order."""
    args = {i.name: i.arg for i in tpl.inputs}
    for out in tpl.outputs:
        if out.function is None:
            continue
        spec = REGISTRY[out.function]
        want = [a.name for a in spec.args]
        if len(out.args) < spec.n_required or len(out.args) > len(want):
            raise ValueError(f"{tpl.slug}:{out.name}: {out.args} does not match {want}")
        for a, w in zip(out.args, want):
            # Inputs must feed the argument they describe; outputs and literals
            # (a fit's name) are the template's own business.
            if a in args and args[a] != w:
                raise ValueError(f"{tpl.slug}:{out.name}: {a} does not match {w}")
    for key in ("sheet", "title", "subtitle", "subject", "keywords"):
        tpl.t(key, "en")
    return tpl


# ------------------------------------------------------------- Excel formulas


def _num(x: float) -> str:
    """A number as an Excel formula literal: 8.64E+19, 0.5, 6."""
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x).upper()


def conditions(inp: Input, ref: str | None = None) -> list[str]:
    """Excel tests that an input is valid, from its argument's domain."""
    r = ref or inp.name
    if inp.choices:
        return [f"ISNUMBER(MATCH({r},{inp.choices},0))"]
    d = ARGS[inp.arg].domain
    out = [f"ISNUMBER({r})"]
    if inp.whole:
        out += [f"{r}>=1", f"{r}=INT({r})"]
    elif d is not None:
        out.append(f"{r}{'>=' if d.lo_closed else '>'}{_num(d.lo)}")
    if d is not None and d.hi != float("inf"):
        out.append(f"{r}{'<=' if d.hi_closed else '<'}{_num(d.hi)}")
    return out


def _expand(tpl: Template, name: str) -> str:
    """An output's formula with the outputs it reads written out, down to inputs."""
    out = tpl.output(name)
    expr = out.formula
    for need in out.needs:
        if tpl.is_output(need):
            expr = re.sub(rf"\b{need}\b", f"({_expand(tpl, need)})", expr)
    return expr


def leaf_inputs(tpl: Template, name: str) -> list[str]:
    """The inputs an output depends on, through the outputs it reads."""
    seen: list[str] = []
    for need in tpl.output(name).needs:
        leaves = leaf_inputs(tpl, need) if tpl.is_output(need) else [need]
        seen += [n for n in leaves if n not in seen]
    return seen


def _guarded(expr: str, tests: Sequence[str], message: str) -> str:
    """``=IFERROR(IF(AND(tests), expr, msg), msg)``: a message, never #DIV/0!."""
    msg = '"' + message.replace('"', '""') + '"'
    return f"=IFERROR(IF(AND({','.join(tests)}),{expr},{msg}),{msg})"


def output_formula(tpl: Template, out: Output, lang: str) -> str:
    tests: list[str] = []
    for need in out.needs:
        if any(i.name == need for i in tpl.inputs):
            tests += conditions(tpl.input(need))
        else:
            tests.append(f"ISNUMBER({need})")
    if out.positive:
        tests.append(f"{out.formula}>0")
    return _guarded(out.formula, tests, tpl.t(out.message, lang))


def scenario_formula(
    tpl: Template, sc: Scenario, column: str, ref: str, lang: str
) -> str:
    """A scenario cell: the output written from inputs, the varied one at ``ref``."""
    expr = re.sub(rf"\b{sc.vary}\b", ref, _expand(tpl, column))
    tests: list[str] = []
    for name in leaf_inputs(tpl, column):
        tests += conditions(tpl.input(name), ref if name == sc.vary else None)
    return _guarded(expr, tests, tpl.t("msg.check_inputs", lang))


def check_formula(tpl: Template, inp: Input, lang: str) -> str:
    ok = tpl.t("msg.ok", lang).replace('"', '""')
    bad = invalid_message(tpl, inp, lang).replace('"', '""')
    # IFERROR: INT() of pasted text is #VALUE!, and a check must never show one.
    return f'=IFERROR(IF(AND({",".join(conditions(inp))}),"{ok}","{bad}"),"{bad}")'


def invalid_message(tpl: Template, inp: Input, lang: str) -> str:
    d = ARGS[inp.arg].domain
    if inp.choices:
        key = "msg.choice"
    elif inp.whole:
        key = "msg.whole"
    elif d is not None and d.hi == 1.0:
        key = "msg.fraction"
    elif d is not None and d.lo_closed:
        key = "msg.nonnegative"
    else:
        key = "msg.positive"
    return tpl.t(key, lang)


# ------------------------------------------------------------------- styling

NAVY = "1F3864"
INPUT_FILL = PatternFill("solid", fgColor="FFF2CC")  # pale yellow: type here
INPUT_FONT = Font(color="0000FF")  # blue: a typed value (finance convention)
CALC_FILL = PatternFill("solid", fgColor="F2F2F2")
OUTPUT_FILL = PatternFill("solid", fgColor="E2EFDA")
HEADER_FILL = PatternFill("solid", fgColor=NAVY)
HEADER_FONT = Font(bold=True, color="FFFFFF")
SECTION_FONT = Font(bold=True, size=12, color=NAVY)
THIN = Side(style="thin", color="BFBFBF")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
WRAP = Alignment(wrap_text=True, vertical="top")
WIDTHS = {"A": 40, "B": 17, "C": 17, "D": 17, "E": 17, "F": 58}
# Columns: A label, B value, C unit, D-E (scenario tables), F how it is calculated.


def _fit_row(ws, row: int, text: str, chars_per_line: int = 62) -> None:
    """Give a wrapped row room for its text: no viewer is relied on to autofit."""
    lines = max(1, -(-len(text) // chars_per_line))
    current = ws.row_dimensions[row].height or 15
    ws.row_dimensions[row].height = max(current, 15 * lines)


def _text(cell, value: str) -> None:
    """Write text that must never become a formula, whatever it starts with."""
    cell.value = value
    cell.data_type = "s"


def _define(wb: openpyxl.Workbook, name: str, sheet: str, coord: str) -> None:
    col, row = re.match(r"([A-Z]+)(\d+)", coord).groups()  # type: ignore[union-attr]
    wb.defined_names[name] = DefinedName(
        name, attr_text=f"{quote_sheetname(sheet)}!${col}${row}"
    )


def _validation(tpl: Template, inp: Input, lang: str, coord: str) -> DataValidation:
    d = ARGS[inp.arg].domain
    if inp.choices:
        dv = DataValidation(type="list", formula1=inp.choices)
    elif inp.whole:
        dv = DataValidation(type="whole", operator="greaterThanOrEqual", formula1="1")
    elif d is not None and d.hi == 1.0:
        dv = DataValidation(
            type="custom", formula1=f"AND(ISNUMBER({coord}),{coord}>0,{coord}<=1)"
        )
    elif d is not None and d.lo_closed:
        dv = DataValidation(type="decimal", operator="greaterThanOrEqual", formula1="0")
    else:
        dv = DataValidation(type="decimal", operator="greaterThan", formula1="0")
    dv.allow_blank = False
    dv.showInputMessage = dv.showErrorMessage = True
    dv.errorStyle = "stop"
    dv.promptTitle = tpl.t(f"{inp.name}.label", lang)[:32]
    dv.prompt = tpl.t(f"{inp.name}.help", lang)[:255]
    dv.errorTitle = tpl.t("msg.invalid_title", lang)[:32]
    dv.error = invalid_message(tpl, inp, lang)[:255]
    dv.add(coord)
    return dv


# ------------------------------------------------------------------ building


@dataclass
class Built:
    """A laid-out workbook and the cached value of each formula cell."""

    workbook: openpyxl.Workbook
    cached: dict[tuple[str, str], Any]


def build_template(tpl: Template, lang: str) -> Built:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
    t = lambda key: tpl.t(key, lang)  # noqa: E731
    wb = openpyxl.Workbook()
    ws = wb.worksheets[0]
    ws.title = t("sheet")
    sheet = ws.title
    cached: dict[tuple[str, str], Any] = {}
    defaults = tpl.defaults
    values = tpl.reference(defaults)
    if tpl.data:
        tpl.data(wb, lang)  # reference tables and named constants, a sheet of its own

    for col, width in WIDTHS.items():
        ws.column_dimensions[col].width = width
    ws["A1"].font = Font(bold=True, size=16, color=NAVY)
    _text(ws["A1"], t("title"))
    _text(ws["A2"], t("subtitle"))
    ws["A2"].alignment = Alignment(wrap_text=True, vertical="top")
    ws.merge_cells("A2:F2")
    _fit_row(ws, 2, t("subtitle"), chars_per_line=150)
    _text(ws["A3"], t("legend"))
    ws["A3"].font = Font(italic=True, color="595959")
    ws.merge_cells("A3:F3")

    row = 5
    for col, key in zip("ABCF", ("hdr.item", "hdr.value", "hdr.unit", "hdr.how")):
        c = ws[f"{col}{row}"]
        _text(c, t(key))
        c.font, c.fill = HEADER_FONT, HEADER_FILL
    for col in "DE":
        ws[f"{col}{row}"].fill = HEADER_FILL
    ws.freeze_panes = f"A{row + 1}"
    row += 1

    def section(key: str) -> None:
        nonlocal row
        row += 1
        _text(ws[f"A{row}"], t(key))
        ws[f"A{row}"].font = SECTION_FONT
        row += 1

    # Inputs: value, unit, a live check, what to enter.
    section("sec.inputs")
    _text(ws[f"D{row - 1}"], t("hdr.check"))
    ws[f"D{row - 1}"].font = Font(bold=True, color=NAVY)
    for inp in tpl.inputs:
        coord = f"B{row}"
        _text(ws[f"A{row}"], t(f"{inp.name}.label"))
        cell = ws[coord]
        cell.value = inp.default
        cell.number_format = inp.fmt
        cell.fill, cell.font, cell.border = INPUT_FILL, INPUT_FONT, BOX
        cell.protection = Protection(locked=False)
        _text(ws[f"C{row}"], t(f"{inp.name}.unit"))
        check = ws[f"D{row}"]
        check.value = check_formula(tpl, inp, lang)
        check.font = Font(color="595959")
        ws.merge_cells(f"D{row}:E{row}")
        cached[(sheet, f"D{row}")] = t("msg.ok")
        _text(ws[f"F{row}"], t(f"{inp.name}.help"))
        ws[f"F{row}"].alignment = WRAP
        _fit_row(ws, row, t(f"{inp.name}.help"))
        _define(wb, inp.name, sheet, coord)
        ws.add_data_validation(_validation(tpl, inp, lang, coord))
        row += 1

    for sec in tpl.sections:
        outs = [o for o in tpl.outputs if o.section == sec]
        fill = CALC_FILL if sec == "sec.calculations" else OUTPUT_FILL
        if not outs:
            continue
        section(sec)
        for out in outs:
            coord = f"B{row}"
            _text(ws[f"A{row}"], t(f"{out.name}.label"))
            cell = ws[coord]
            cell.value = output_formula(tpl, out, lang)
            cell.number_format = tpl.fmt(out.fmt, lang)
            cell.fill, cell.border = fill, BOX
            if sec != "sec.calculations":
                cell.font = Font(bold=True)
                ws[f"A{row}"].font = Font(bold=True)
            cached[(sheet, coord)] = values[out.name]
            _text(ws[f"C{row}"], t(f"{out.name}.unit"))
            _text(ws[f"F{row}"], t(f"{out.name}.how"))
            ws[f"F{row}"].alignment = WRAP
            _fit_row(ws, row, t(f"{out.name}.how"))
            _define(wb, out.name, sheet, coord)
            row += 1

    for sc in tpl.scenarios:
        row = _scenario(ws, wb, tpl, sc, lang, row, cached, defaults)
    for block in tpl.blocks:
        row = block(ws, tpl, lang, row, cached, values)

    section("sec.notes")
    for key in tpl.notes:
        c = ws[f"A{row}"]
        _text(c, "• " + t(key))
        c.alignment = WRAP
        ws.merge_cells(f"A{row}:F{row}")
        _fit_row(ws, row, t(key), chars_per_line=150)
        row += 1

    ws.protection.sheet = True  # no password: protects formulas from slips only
    ws.protection.formatColumns = False  # let people widen columns
    ws.print_area = f"A1:F{row}"
    ws.print_title_rows = "5:5"
    ws.page_setup.orientation = "portrait"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 1
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.print_options.horizontalCentered = True
    ws.oddFooter = HeaderFooterItem(center=_Text(t("title") + " — xlfuncs"))
    ws.sheet_view.showGridLines = False

    p = wb.properties
    p.title = t("title")
    p.subject = t("subject")
    p.creator = "xlfuncs"
    p.keywords = t("keywords")
    p.description = t("subtitle")
    p.language = {"en": "en-US", "es": "es-ES"}[lang]
    wb.calculation.fullCalcOnLoad = True
    return Built(wb, cached)


def _table_heading(
    ws, tpl: Template, key: str, lang: str, row: int, titles: Sequence[str]
) -> int:
    """A table's title, note, column headers and explanation; the header row."""
    t = lambda k: tpl.t(k, lang)  # noqa: E731
    row += 1
    _text(ws[f"A{row}"], t(key))
    ws[f"A{row}"].font = SECTION_FONT
    row += 1
    _text(ws[f"A{row}"], t(f"{key}.note"))
    ws[f"A{row}"].font = Font(italic=True, color="595959")
    ws.merge_cells(f"A{row}:F{row}")
    head = row + 1
    for i, title in enumerate(titles):
        c = ws.cell(head, 1 + i)
        _text(c, title)
        c.font, c.fill = HEADER_FONT, HEADER_FILL
        c.alignment = Alignment(wrap_text=True, vertical="center")
    ws.row_dimensions[head].height = 44
    _text(ws[f"F{head}"], t(f"{key}.how"))
    ws[f"F{head}"].alignment = WRAP
    _fit_row(ws, head, t(f"{key}.how"))
    return head


def _scenario(
    ws,
    wb,
    tpl: Template,
    sc: Scenario,
    lang: str,
    row: int,
    cached: dict[Any, Any],
    defaults: Mapping[str, Any],
) -> int:
    t = lambda key: tpl.t(key, lang)  # noqa: E731
    sheet = ws.title
    vary = tpl.input(sc.vary)
    cols = ["A", *(get_column_letter(2 + i) for i in range(len(sc.columns)))]
    titles = [f"{t(sc.vary + '.label')} ({t(sc.vary + '.unit')})"] + [
        f"{t(c + '.label')} ({t(c + '.unit')})" for c in sc.columns
    ]
    head = _table_heading(ws, tpl, sc.key, lang, row, titles)
    first = head + 1
    for k, value in enumerate(sc.values):
        r = first + k
        ref = f"$A{r}"
        cell = ws[f"A{r}"]
        cell.value = value
        cell.number_format = vary.fmt
        cell.fill, cell.font, cell.border = INPUT_FILL, INPUT_FONT, BOX
        cell.protection = Protection(locked=False)
        ws.add_data_validation(_validation(tpl, vary, lang, f"A{r}"))
        inputs = {**defaults, sc.vary: value}
        for col, name in zip(cols[1:], sc.columns):
            out = tpl.output(name)
            c = ws[f"{col}{r}"]
            c.value = scenario_formula(tpl, sc, name, ref, lang)
            c.number_format = tpl.fmt(out.fmt, lang)
            c.border = BOX
            cached[(sheet, f"{col}{r}")] = out.reference(inputs)
    last = first + len(sc.values) - 1
    row = last + 1

    if sc.chart:
        chart = ScatterChart()
        chart.title = t(f"{sc.key}.chart")
        chart.style = 13
        chart.height, chart.width = 7.5, 17
        chart.x_axis.title = titles[0]
        chart.y_axis.title = ", ".join(t(c + ".label") for c in sc.chart)
        xs = Reference(ws, min_col=1, min_row=first, max_row=last)
        for plotted in sc.chart:
            at = 2 + sc.columns.index(plotted)
            ys = Reference(ws, min_col=at, min_row=head, max_row=last)
            series = Series(ys, xs, title_from_data=True)
            series.marker.symbol = "circle"
            chart.series.append(series)
        for axis, log in ((chart.x_axis, sc.log_x), (chart.y_axis, sc.log_y)):
            axis.delete = False
            if log:
                axis.scaling.logBase = 10
                # Decades read best as powers of ten, whatever the cells' format.
                axis.numFmt = NumFmt(formatCode="0E+0", sourceLinked=False)
        chart.legend.position = "b"  # type: ignore[union-attr]
        ws.add_chart(chart, f"A{row + 1}")
        row += 17
    return row
