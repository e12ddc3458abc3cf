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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.chart.data_source import NumFmt
from openpyxl.styles import Alignment, Border, Font, PatternFill, Protection, Side
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from .arguments import ARGS
from .spec import REGISTRY
from .xlsx import save_workbook

LANGS = ("en", "es")

# ----------------------------------------------------------------- definitions


@dataclass(frozen=True)
class Input:
    """An input cell: a defined name feeding one library argument."""

    name: str  # workbook-scoped defined name
    arg: str  # the library argument whose domain and unit it shares
    default: float
    fmt: str
    whole: bool = False  # whole numbers only (GPUs, examples), at least 1


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
    value: Callable[[Mapping[str, float]], float] | None = None
    section: str = "outputs"  # or "calculations"

    def reference(self, inputs: Mapping[str, float]) -> float:
        if self.value is not None:
            return float(self.value(inputs))
        return float(REGISTRY[self.function].api(*(inputs[a] for a in self.args)))


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
    def defaults(self) -> dict[str, float]:
        return {i.name: i.default for i in self.inputs}

    def filename(self, lang: str) -> str:
        return f"{self.slug}.xlsx" if lang == "en" else f"{self.slug}-{lang}.xlsx"

    def reference(self, inputs: Mapping[str, float]) -> dict[str, float]:
        """Every output computed by the Python library for these inputs."""
        return {o.name: o.reference(inputs) for o in self.outputs}


# ------------------------------------------------------------- Excel formulas


def _num(x: float) -> str:
    """A number as an Excel formula literal: 8.64E+19, 0.5, 6."""
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x).upper()


def conditions(inp: Input, ref: str | None = None) -> list[str]:
    """Excel tests that an input is valid, from its argument's domain."""
    r = ref or inp.name
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
        if any(o.name == need for o in tpl.outputs):
            expr = re.sub(rf"\b{need}\b", f"({_expand(tpl, need)})", expr)
    return expr


def _leaf_inputs(tpl: Template, name: str) -> list[str]:
    seen: list[str] = []
    for need in tpl.output(name).needs:
        leaves = (
            _leaf_inputs(tpl, need)
            if any(o.name == need for o in tpl.outputs)
            else [need]
        )
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
    return _guarded(out.formula, tests, tpl.t("msg.check_inputs", lang))


def scenario_formula(
    tpl: Template, sc: Scenario, column: str, ref: str, lang: str
) -> str:
    """A scenario cell: the output written from inputs, the varied one at ``ref``."""
    expr = re.sub(rf"\b{sc.vary}\b", ref, _expand(tpl, column))
    tests: list[str] = []
    for name in _leaf_inputs(tpl, column):
        tests += conditions(tpl.input(name), ref if name == sc.vary else None)
    return _guarded(expr, tests, tpl.t("msg.check_inputs", lang))


def check_formula(tpl: Template, inp: Input, lang: str) -> str:
    ok = tpl.t("msg.ok", lang).replace('"', '""')
    bad = invalid_message(tpl, inp, lang).replace('"', '""')
    return f'=IF(AND({",".join(conditions(inp))}),"{ok}","{bad}")'


def invalid_message(tpl: Template, inp: Input, lang: str) -> str:
    d = ARGS[inp.arg].domain
    if inp.whole:
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
WIDTHS = {"A": 34, "B": 17, "C": 17, "D": 17, "E": 17, "F": 58}
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
    if inp.whole:
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
    ws = wb.active
    ws.title = t("sheet")
    sheet = ws.title
    cached: dict[tuple[str, str], Any] = {}
    defaults = tpl.defaults
    values = tpl.reference(defaults)

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

    for sec, fill in (("calculations", CALC_FILL), ("outputs", OUTPUT_FILL)):
        outs = [o for o in tpl.outputs if o.section == sec]
        if not outs:
            continue
        section(f"sec.{sec}")
        for out in outs:
            coord = f"B{row}"
            _text(ws[f"A{row}"], t(f"{out.name}.label"))
            cell = ws[coord]
            cell.value = output_formula(tpl, out, lang)
            cell.number_format = tpl.fmt(out.fmt, lang)
            cell.fill, cell.border = fill, BOX
            if sec == "outputs":
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
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.horizontalCentered = True
    ws.oddFooter.center.text = t("title") + " — xlfuncs"
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


def _scenario(
    ws,
    wb,
    tpl: Template,
    sc: Scenario,
    lang: str,
    row: int,
    cached: dict,
    defaults: Mapping[str, float],
) -> int:
    t = lambda key: tpl.t(key, lang)  # noqa: E731
    sheet = ws.title
    row += 1
    _text(ws[f"A{row}"], t(sc.key))
    ws[f"A{row}"].font = SECTION_FONT
    row += 1
    _text(ws[f"A{row}"], t(f"{sc.key}.note"))
    ws[f"A{row}"].font = Font(italic=True, color="595959")
    ws.merge_cells(f"A{row}:F{row}")
    row += 1
    head = row
    vary = tpl.input(sc.vary)
    cols = ["A", *(get_column_letter(2 + i) for i in range(len(sc.columns)))]
    titles = [f"{t(sc.vary + '.label')} ({t(sc.vary + '.unit')})"] + [
        f"{t(c + '.label')} ({t(c + '.unit')})" for c in sc.columns
    ]
    for col, title in zip(cols, titles):
        c = ws[f"{col}{head}"]
        _text(c, title)
        c.font, c.fill = HEADER_FONT, HEADER_FILL
        c.alignment = Alignment(wrap_text=True, vertical="center")
    ws.row_dimensions[head].height = 44
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
    _text(ws[f"F{head}"], t(f"{sc.key}.how"))
    ws[f"F{head}"].alignment = WRAP
    _fit_row(ws, head, t(f"{sc.key}.how"))
    row = last + 1

    if sc.chart:
        chart = ScatterChart()
        chart.title = t(f"{sc.key}.chart")
        chart.style = 13
        chart.height, chart.width = 7.5, 17
        chart.x_axis.title = titles[0]
        chart.y_axis.title = ", ".join(t(c + ".label") for c in sc.chart)
        xs = Reference(ws, min_col=1, min_row=first, max_row=last)
        for name in sc.chart:
            col = 2 + sc.columns.index(name)
            ys = Reference(ws, min_col=col, min_row=head, max_row=last)
            series = Series(ys, xs, title_from_data=True)
            series.marker.symbol = "circle"
            chart.series.append(series)
        for axis, log in ((chart.x_axis, sc.log_x), (chart.y_axis, sc.log_y)):
            axis.delete = False
            if log:
                axis.scaling.logBase = 10
                # Decades read best as powers of ten, whatever the cells' format.
                axis.numFmt = NumFmt(formatCode="0E+0", sourceLinked=False)
        chart.legend.position = "b"
        ws.add_chart(chart, f"A{row + 1}")
        row += 17
    return row


# ------------------------------------------------------------------- writing


def build(
    out_dir: str | Path = "workbooks",
    langs: Iterable[str] = LANGS,
    *,
    force: bool = False,
    templates: Sequence[Template] | None = None,
) -> list[Path]:
    """Write every template in every language; nothing is written if any exists.

    Raises FileExistsError (listing the files) unless ``force``; each file is
    written atomically, so an interrupted build leaves old files intact.
    """
    from .template_defs import TEMPLATES

    out = Path(out_dir)
    langs = tuple(langs)
    for lang in langs:
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; choose {' or '.join(LANGS)}")
    jobs = [
        (tpl, lang, out / tpl.filename(lang))
        for tpl in (templates or TEMPLATES)
        for lang in langs
    ]
    existing = [str(p) for _, _, p in jobs if p.exists()]
    if existing and not force:
        raise FileExistsError(
            f"{', '.join(existing)} already exist; pass --force to overwrite"
        )
    written = []
    for tpl, lang, path in jobs:
        built = build_template(tpl, lang)
        written.append(save_workbook(built.workbook, path, built.cached, force=force))
    return written
