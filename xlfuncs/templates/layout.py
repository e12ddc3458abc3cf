"""Lay a template out in a workbook: the sheet a finance team reads and prints.

:func:`build_template` writes a cover sheet, the model sheet (a title, the model
check, then the template's blocks top to bottom) and, where formulas read
reference tables, the data sheet. Every formula is native Excel, written from the
library's Excel expressions; every formula cell carries its value as computed by
the Python library (:func:`compute`), so previews show numbers and the tests can
compare the workbook, recalculated by LibreOffice, with the library.

Layout conventions: columns A label, B value, C unit, D check, E explanation;
yellow unlocked cells with blue figures are inputs, everything else is protected;
one typeface; text wraps and rows are tall enough for their longest text; print
scaling keeps 10-pt text at 8 pt on A4 and Letter, page breaks fall between
blocks, the title row repeats, and the footer names the file, the page and the
version.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any, cast

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Font, PatternFill, Protection
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from .. import __version__
from ..data.accelerators import ACCELERATORS
from ..data.models import MODELS
from ..data.units import DTYPES, RECOMPUTE_MODES, TRAINING_DTYPES
from ..registry import REGISTRY, InputError
from ..registry.excel import OMITTED, Bound, expand, paren, xl
from ..registry.formula import excel_functions
from . import charts, checks
from . import styles as st
from . import texts as tx
from .blocks import (
    Call,
    Custom,
    Expr,
    Fallback,
    Fit,
    Grid,
    Input,
    Inputs,
    Lit,
    Notes,
    Result,
    Results,
    Scenarios,
    Sum,
    Sweep,
    Template,
)
from .cover import add_cover
from .data_sheet import add_data_sheet
from .page import LINE, PAGE, SCALE, lines, setup_print
from .texts import LANGS, Text

#: Release date of this version: builds are dated by it unless SOURCE_DATE_EPOCH says.
RELEASE_DATE = date(2026, 12, 2)

COLUMNS = {"A": 26, "B": 14, "C": 14, "D": 14, "E": 14, "F": 36}
CHART_ROWS = 18  # rows a chart takes below its table
# Print scales of the Data and Models sheets, landscape: the Models sheet's 13
# columns and its sources fit one page wide at 72 % (10-pt text at 7.2 pt).
DATA_SCALES = (85, 72)

#: The lists a choice input is picked from, as the data sheet writes them.
LISTS: dict[str, list[str]] = {
    "AcceleratorNames": [a.name for a in ACCELERATORS],
    "DtypeNames": list(DTYPES),
    "TrainingDtypeNames": list(TRAINING_DTYPES),
    "ModelNames": [m.name for m in MODELS],
    "RecomputeNames": list(RECOMPUTE_MODES),
}


class _NotAvailable:
    """A result whose inputs are not valid: the sheet shows tx.NA there."""

    def __repr__(self) -> str:
        return "NA"


NA = _NotAvailable()


def build_date() -> date:
    """The date a build is stamped with: SOURCE_DATE_EPOCH if set (reproducible).

    Raises ValueError, naming the variable, unless it is what the convention asks
    for: whole seconds since 1970-01-01 UTC in decimal digits, as `date +%s`
    prints them, within the years a date holds.
    """
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return RELEASE_DATE
    if not re.fullmatch(r"[0-9]+", epoch.strip()):
        raise ValueError(
            "SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, as "
            f"`date +%s` prints them, not {epoch!r}"
        )
    try:
        return datetime.fromtimestamp(int(epoch), tz=timezone.utc).date()
    except (OverflowError, OSError, ValueError):  # past year 9999, or the C library's
        raise ValueError(
            f"SOURCE_DATE_EPOCH={epoch.strip()} is past the last date a build can "
            "carry (9999-12-31)"
        ) from None


# ------------------------------------------------------------------ the values


def compute(tpl: Template, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Every input and result as the Python library computes it; NA where not.

    The workbook shows the same: a result is n/a when an input it reads breaks
    an error rule, or when the library refuses the inputs.
    """
    env: dict[str, Any] = {**tpl.defaults, **inputs, "@lists": LISTS}
    results = {r.name: r for r in tpl.results}

    def need(name: str) -> None:  # the rows a result reads come first
        if name in env or name not in results:
            return
        r = results[name]
        e = r.expr
        reads = e.terms if isinstance(e, Sum) else (
            (e.input, e.fallback) if isinstance(e, Fallback)
            else tuple(a for a in e.args if isinstance(a, str))
        )  # fmt: skip
        for n in reads:
            need(n)
        env[name] = _value(tpl, r, env)

    for r in tpl.results:
        need(r.name)
    return env


def _value(tpl: Template, r: Result, env: dict[str, Any]) -> Any:
    if not all(checks.valid(tpl.input(x), env[x], env) for x in tpl.leaves(r.name)):
        return NA
    expr = r.expr
    if isinstance(expr, Fallback):
        value = env[expr.input]
        return env[expr.fallback] if value is None else value
    if isinstance(expr, Sum):
        terms = [env[t] for t in expr.terms]
        return NA if any(t is NA for t in terms) else float(sum(terms))
    args = [a.value if isinstance(a, Lit) else env[a] for a in expr.args]
    if any(a is NA for a in args):
        return NA
    try:
        return float(REGISTRY[expr.function].api(*args))
    except InputError:
        return NA


def check_text(tpl: Template, inp: Input, env: dict[str, Any], lang: str) -> str:
    problem = checks.first_problem(inp, env[inp.name], env)
    return tx.OK(lang) if problem is None else problem(lang)


# ------------------------------------------------------------------ the writer


@dataclass
class Built:
    """A laid-out workbook and the cached value of each formula cell."""

    workbook: Workbook
    cached: dict[tuple[str, str], Any]


def quoted(text: str) -> str:
    """A string literal in an Excel formula."""
    return '"' + text.replace('"', '""') + '"'


def _width(cols: str) -> float:
    first, _, last = cols.partition(":")
    letters = [
        get_column_letter(i) for i in range(_col(first), _col(last or first) + 1)
    ]
    return sum(COLUMNS[c] for c in letters)


def _col(letter: str) -> int:
    return ord(re.sub(r"\d", "", letter)) - ord("A") + 1


class Sheet:
    """Writes one template's model sheet, block by block, row by row."""

    def __init__(self, tpl: Template, lang: str, wb: Workbook, ws: Worksheet) -> None:
        self.tpl, self.lang, self.wb, self.ws = tpl, lang, wb, ws
        self.title = ws.title
        self.cached: dict[tuple[str, str], Any] = {}
        self.env = compute(tpl, {})
        self.functions = excel_functions()
        self.row = 0
        self.heights: dict[int, float] = {}
        self.blocks: list[tuple[int, int]] = []  # (first row, last row) of each block
        self.problems: list[tuple[str, str, str]] = []  # (prefix, check cell, cached)

    # ---------------------------------------------------------- cell writing

    def t(self, text: Text | str) -> str:
        return text if isinstance(text, str) else text(self.lang)

    def fmt(self, fmt: str | Text) -> str:
        return self.t(fmt)

    def cell(
        self,
        coord: str,
        value: Any = None,
        *,
        font: Font = st.BODY,
        fill: PatternFill | None = None,
        fmt: str | None = None,
        align: Alignment = st.TOP,
        box: bool = False,
        unlocked: bool = False,
        is_formula: bool = False,
    ) -> Cell:
        c = cast(Cell, self.ws[coord])
        if value is not None:
            c.value = value
            if isinstance(value, str) and not is_formula:
                c.data_type = (
                    "s"  # text never becomes a formula, whatever it starts with
                )
        c.font, c.alignment = font, align
        if fill is not None:
            c.fill = fill
        if fmt is not None:
            c.number_format = fmt
        if box:
            c.border = st.BOX
        if unlocked:
            c.protection = Protection(locked=False)
        return c

    def text(
        self,
        cols: str,
        text: str,
        *,
        font: Font = st.BODY,
        fill: PatternFill | None = None,
    ) -> None:
        """Wrapped text over one cell or a merged span; the row grows to fit."""
        first = cols.split(":")[0] + str(self.row)
        self.cell(first, text, font=font, fill=fill, align=st.WRAP)
        if ":" in cols:
            last = cols.split(":")[1] + str(self.row)
            self.ws.merge_cells(f"{first}:{last}")
        self.fit(lines(text, _width(cols)))

    def fit(self, lines: int, row: int | None = None) -> None:
        row = self.row if row is None else row
        self.heights[row] = max(self.heights.get(row, LINE + 2), lines * LINE + 2)

    def formula(self, coord: str, formula: str, cached: Any, **kw: Any) -> Cell:
        assert formula.startswith("="), formula
        c = self.cell(coord, formula, is_formula=True, **kw)
        value = tx.NA(self.lang) if cached is NA else cached
        if value is not None:
            self.cached[(self.title, coord)] = value
        return c

    def define(self, name: str, coord: str) -> None:
        col, row = re.match(r"([A-Z]+)(\d+)", coord).groups()  # type: ignore[union-attr]
        self.wb.defined_names[name] = DefinedName(
            name, attr_text=f"{quote_sheetname(self.title)}!${col}${row}"
        )

    def next_row(self) -> int:
        self.row += 1
        return self.row

    # ---------------------------------------------------------- formulas

    def ref(self, name: str, scope: Mapping[str, str]) -> str:
        """How a formula in ``scope`` reads a row: its cell there, or its name."""
        if name in scope:
            return scope[name]
        if scope and not self.tpl.is_input(name):
            moved = set(self.tpl.leaves(name)) & set(scope)
            if moved:  # a result the scope's inputs change: computed in place
                return paren(self.expr(self.tpl.result(name).expr, scope))
        return name

    def expr(self, expr: Expr, scope: Mapping[str, str]) -> str:
        """A result's Excel expression, its arguments read as ``scope`` says."""
        if isinstance(expr, Fallback):
            x, f = self.ref(expr.input, scope), self.ref(expr.fallback, scope)
            return f"IF(ISBLANK({x}),{f},{x})"
        if isinstance(expr, Sum):
            return "+".join(paren(self.ref(t, scope)) for t in expr.terms)
        spec = REGISTRY[expr.function]
        assert spec.excel is not None, f"{spec.name} has no Excel expression"
        bindings: dict[str, Bound] = {}
        for k, a in enumerate(spec.args):
            if k < len(expr.args):
                v = expr.args[k]
                bindings[a.name] = Bound(
                    _literal(v.value) if isinstance(v, Lit) else self.ref(v, scope)
                )
            elif spec.defaults.get(a.name) is not None:
                bindings[a.name] = Bound(_literal(spec.defaults[a.name]), "TRUE")
            else:
                bindings[a.name] = OMITTED
        return expand(spec.excel, bindings, self.functions, self.reuser(scope))

    def reuser(
        self, scope: Mapping[str, str]
    ) -> Callable[[str, tuple[str, ...]], str | None]:
        """Sibling calls a result of the sheet already holds: read its cell."""

        def reuse(function: str, args: tuple[str, ...]) -> str | None:
            for r in self.tpl.results:
                e = r.expr
                if not isinstance(e, Call) or e.function != function:
                    continue
                mine = tuple(
                    _literal(a.value)
                    if isinstance(a, Lit)
                    else paren(self.ref(a, scope))
                    for a in e.args
                )
                if mine == args[: len(mine)] and len(args) == len(mine):
                    if r.name in scope:
                        return scope[r.name]
                    if not (set(self.tpl.leaves(r.name)) & set(scope)):
                        return r.name
            return None

        return reuse

    def guarded(self, name: str, scope: Mapping[str, str]) -> str:
        """The result's formula: n/a unless every input it reads is valid."""
        conds: list[str] = []
        for x in self.tpl.leaves(name):
            conds += checks.error_conditions(self.tpl.input(x), self.ref(x, scope))
        na = quoted(tx.NA(self.lang))
        body = self.expr(self.tpl.result(name).expr, scope)
        return f"=IFERROR(IF(AND({','.join(conds)}),{body},{na}),{na})"

    def unit(self, coord: str, unit: Text, **kw: Any) -> None:
        """A unit; ``{currency}`` in it reads the Currency input."""
        text = unit(self.lang)
        if "{currency}" in text:
            before, _, after = text.partition("{currency}")
            # &"" makes a blank Currency read as empty text, not as 0.
            parts = [quoted(before), "Currency", quoted(after)]
            value = text.replace("{currency}", _text_of(self.env["Currency"]))
            self.formula(coord, "=" + "&".join(parts), value, **kw)
        else:
            self.cell(coord, text, **kw)

    def label_with_unit(self, coord: str, label: Text, unit: Text, **kw: Any) -> None:
        """A column heading "Label (unit)", the unit maybe read from Currency."""
        lab, u = label(self.lang), unit(self.lang)
        if "{currency}" in u:
            before, _, after = u.partition("{currency}")
            value = f"{lab} ({before}{_text_of(self.env['Currency'])}{after})"
            self.formula(
                coord,
                f"={quoted(lab + ' (' + before)}&Currency&{quoted(after + ')')}",
                value,
                **kw,
            )
        else:
            self.cell(coord, heading(lab, u), **kw)

    # ---------------------------------------------------------- top of the sheet

    def head(self) -> None:
        for col, w in COLUMNS.items():
            self.ws.column_dimensions[col].width = w
        self.next_row()
        self.cell("A1", self.t(self.tpl.title), font=st.TITLE)
        self.heights[1] = 24
        self.next_row()
        self.text("A:F", self.t(self.tpl.subtitle))
        self.next_row()
        self.text("A:F", self.t(tx.LEGEND), font=st.NOTE)
        self.next_row()
        self.check_row = self.row
        self.cell(
            f"A{self.row}",
            self.t(tx.MODEL_CHECK),
            font=st.BOLD,
            fill=st.CHECK_FILL,
            box=True,
        )
        self.ws.merge_cells(f"B{self.row}:F{self.row}")
        self.define("ModelCheck", f"B{self.row}")
        self.next_row()
        self.text("A:F", self.t(tx.MODEL_CHECK_HELP), font=st.NOTE)

    def section(self, title: Text) -> int:
        """A blank row, then the block's title; the block starts at the blank."""
        start = self.next_row()
        self.next_row()
        self.cell(f"A{self.row}", self.t(title), font=st.SECTION)
        self.heights[self.row] = 20
        return start

    def headings(self, titles: Sequence[tuple[str, str | Text]]) -> None:
        """A navy row of column headings: (columns, text)."""
        self.next_row()
        n_lines = 1
        for cols, title in titles:
            first = cols.split(":")[0]
            text = self.t(title)
            self.cell(
                f"{first}{self.row}",
                text,
                font=st.HEADER,
                fill=st.HEADER_FILL,
                align=st.CENTER if first != "A" else st.WRAP,
            )
            if ":" in cols:
                self.ws.merge_cells(f"{first}{self.row}:{cols.split(':')[1]}{self.row}")
            n_lines = max(n_lines, lines(text, _width(cols) * 0.85))  # bold is wider
        for col in COLUMNS:
            self.ws[f"{col}{self.row}"].fill = st.HEADER_FILL
        self.fit(n_lines)

    # ---------------------------------------------------------- blocks

    def inputs(self, block: Inputs) -> None:
        start = self.section(block.title)
        self.headings(
            [
                ("A", tx.ITEM),
                ("B", tx.VALUE),
                ("C", tx.UNIT),
                ("D:E", tx.CHECK),
                ("F", tx.HOW),
            ]
        )
        for inp in block.rows:
            r = self.next_row()
            label = self.t(inp.label)
            self.cell(f"A{r}", label, align=st.WRAP)
            value = inp.default
            fmt = "@" if (inp.text or inp.choices) else self.fmt(inp.fmt)
            self.cell(
                f"B{r}", value, font=st.INPUT, fill=st.INPUT_FILL, fmt=fmt,
                box=True, unlocked=True, align=st.RIGHT if not (inp.text or inp.choices) else st.TOP,
            )  # fmt: skip
            self.unit(f"C{r}", inp.unit)
            self.formula(
                f"D{r}", checks.check_formula(inp, inp.name, self.lang),
                check_text(self.tpl, inp, self.env, self.lang), align=st.WRAP, font=st.BODY,
            )  # fmt: skip
            self.ws.merge_cells(f"D{r}:E{r}")
            self.problems.append(
                (label, f"D{r}", check_text(self.tpl, inp, self.env, self.lang))
            )
            self.cell(f"F{r}", self.t(inp.help), align=st.WRAP)
            longest = max(
                lines(m, _width("D:E")) for m in checks.messages(inp, self.lang)
            )
            self.fit(
                max(
                    longest,
                    lines(self.t(inp.help), COLUMNS["F"]),
                    lines(label, COLUMNS["A"]),
                )
            )
            self.define(inp.name, f"B{r}")
            dv = checks.validation(inp, self.lang, label, self.t(inp.help))
            dv.add(f"B{r}")
            self.ws.add_data_validation(dv)
        self.blocks.append((start, self.row))

    def results(self, block: Results) -> None:
        start = self.section(block.title)
        self.headings(
            [("A", tx.ITEM), ("B", tx.VALUE), ("C", tx.UNIT), ("D:F", tx.HOW)]
        )
        for res in block.rows:
            r = self.next_row()
            key = res.key and not block.steps
            label = self.t(res.label)
            self.cell(f"A{r}", label, font=st.BOLD if key else st.BODY, align=st.WRAP)
            self.formula(
                f"B{r}", self.guarded(res.name, {}), self.env[res.name],
                font=st.BOLD if key else st.BODY, fill=st.CALC_FILL if block.steps else st.RESULT_FILL,
                fmt=self.fmt(res.fmt), box=True, align=st.RIGHT,
            )  # fmt: skip
            self.unit(f"C{r}", res.unit)
            self.ws.merge_cells(f"D{r}:F{r}")
            how = self.t(res.how)
            self.cell(f"D{r}", how, align=st.WRAP)
            self.fit(max(lines(how, _width("D:F")), lines(label, COLUMNS["A"])))
            self.define(res.name, f"B{r}")
        for fit in block.fits:
            self.fit_line(fit)
        self.blocks.append((start, self.row))

    def fit_line(self, fit: Fit) -> None:
        """OK if the memory needed per GPU fits the GPU's; else by how much."""
        r = self.next_row()
        label = self.t(fit.label)
        self.cell(f"A{r}", label, font=st.BOLD, align=st.WRAP)
        self.ws.merge_cells(f"B{r}:F{r}")
        need, have = fit.need, fit.have
        parts = self.t(tx.NO_FIT).split("{need}")
        head, rest = parts[0], parts[1].split("{have}")
        text = (
            f'{quoted(head)}&TEXT({need},"0.0")&{quoted(rest[0])}'
            f'&TEXT({have},"0")&{quoted(rest[1])}'
        )
        if fit.fewest:
            before, after = self.t(tx.FEWEST).split("{n}")
            text += (
                f'&IF(ISNUMBER({fit.fewest}),{quoted(before)}&TEXT({fit.fewest},"0")'
                f'&{quoted(after)},"")'
            )
        ok, na = quoted(tx.OK(self.lang)), quoted(tx.NA(self.lang))
        before, after = self.t(tx.TIGHT).split("{pct}")
        tight = f'{quoted(before)}&TEXT({need}/{have},"0%")&{quoted(after)}'
        formula = (
            f"=IF(AND(ISNUMBER({need}),ISNUMBER({have})),"
            f"IF({need}<={have}*{xl(1 - tx.SPARE)},{ok},"
            f"IF({need}<={have},{tight},{text})),{na})"
        )
        value = self.fit_text(fit, self.env)
        self.formula(f"B{r}", formula, value, align=st.WRAP, box=True)
        self.problems.append((label, f"B{r}", value))
        self.fit_row_height(r)

    def fit_text(self, fit: Fit, env: dict[str, Any]) -> str:
        need, have = env[fit.need], env[fit.have]
        if need is NA or have is NA:
            return tx.NA(self.lang)
        if need <= have * (1 - tx.SPARE):
            return tx.OK(self.lang)
        if need <= have:
            return self.t(tx.TIGHT).format(pct=f"{need / have:.0%}")
        text = self.t(tx.NO_FIT).format(need=f"{need:.1f}", have=f"{have:.0f}")
        fewest = env[fit.fewest] if fit.fewest else NA
        if fewest is not NA:
            text += self.t(tx.FEWEST).format(n=f"{fewest:.0f}")
        return text

    def fit_row_height(self, r: int) -> None:
        longest = self.t(tx.NO_FIT) + self.t(tx.FEWEST) + "99999.9 9999 99999"
        self.fit(lines(longest, _width("B:F")), r)

    def problem_formula(self, items: Sequence[tuple[str, Input, str]]) -> str:
        """The first problem among some input cells, "<where>: <message>", or OK."""
        chain = quoted(tx.OK(self.lang))
        for where, inp, ref in reversed(items):
            for c in reversed(checks.rules(inp)):
                chain = f"IF(NOT({c.condition(ref)}),{quoted(where + ': ' + c.message(self.lang))},{chain})"
        return f"=IFERROR({chain},{quoted(items[0][0] + ': ' + checks.rules(items[0][1])[0].message(self.lang))})"

    def first_problem(
        self, items: Sequence[tuple[str, Input, Any]], env: dict[str, Any]
    ) -> str:
        for where, inp, value in items:
            problem = checks.first_problem(inp, value, {**env, inp.name: value})
            if problem is not None:
                return f"{where}: {problem(self.lang)}"
        return tx.OK(self.lang)

    def input_cell(self, coord: str, inp: Input, value: Any, label: str) -> None:
        self.cell(
            coord, value, font=st.INPUT, fill=st.INPUT_FILL, fmt=self.fmt(inp.fmt),
            box=True, unlocked=True, align=st.RIGHT,
        )  # fmt: skip
        dv = checks.validation(inp, self.lang, label, self.t(inp.help))
        dv.add(coord)
        self.ws.add_data_validation(dv)

    def scenarios(self, block: Scenarios) -> None:
        start = self.section(block.title)
        self.next_row()
        self.text("A:F", self.t(block.note), font=st.NOTE)
        self.headings(
            [
                ("A", tx.ITEM),
                ("B", tx.BASE),
                ("C", block.cases[0]),
                ("D", block.cases[1]),
                ("E", tx.UNIT),
            ]
        )
        cases: dict[str, dict[str, Any]] = {"B": {}, "C": {}, "D": {}}  # by column
        scopes: dict[str, dict[str, str]] = {"B": {}, "C": {}, "D": {}}
        first_row = self.row + 1
        for name, low, high in block.vary:
            inp = self.tpl.input(name)
            r = self.next_row()
            label = self.t(inp.label)
            self.cell(f"A{r}", label, align=st.WRAP)
            self.fit(lines(label, COLUMNS["A"]))
            # =GPUs shows 0 for a blank input, as Excel does.
            base = 0 if self.env[name] is None else self.env[name]
            self.formula(
                f"B{r}",
                f"={name}",
                base,
                fill=st.CALC_FILL,
                fmt=self.fmt(inp.fmt),
                box=True,
                align=st.RIGHT,
            )
            for col, value in (("C", low), ("D", high)):
                self.input_cell(f"{col}{r}", inp, value, label)
                cases[col][name] = value
                scopes[col][name] = f"${col}${r}"
            self.unit(f"E{r}", inp.unit)
        # The cases' own check (the base case is the inputs above, checked there).
        items: list[tuple[str, Input, str]] = []
        values: list[tuple[str, Input, Any]] = []
        for col, case in zip("CD", block.cases):
            for k, (n, _, _) in enumerate(block.vary):
                inp = self.tpl.input(n)
                where = f"{self.t(case)}, {self.t(inp.label)}"
                items.append((where, inp, f"${col}${first_row + k}"))
                values.append((where, inp, cases[col].get(n, self.env[n])))
        self.check_line(block.title, items, values)
        for name in block.results:
            res = self.tpl.result(name)
            r = self.next_row()
            label = self.t(res.label)
            self.cell(
                f"A{r}", label, font=st.BOLD if res.key else st.BODY, align=st.WRAP
            )
            self.fit(lines(label, COLUMNS["A"]))
            for col in "BCD":
                env = compute(self.tpl, cases[col]) if cases[col] else self.env
                self.formula(
                    f"{col}{r}", self.guarded(name, scopes[col]), env[name],
                    fill=st.RESULT_FILL, fmt=self.fmt(res.fmt), box=True, align=st.RIGHT,
                    font=st.BOLD if res.key else st.BODY,
                )  # fmt: skip
                scopes[col][name] = f"${col}${r}"
            self.unit(f"E{r}", res.unit)
        self.blocks.append((start, self.row))

    def grid(self, block: Grid) -> None:
        start = self.section(block.title)
        self.next_row()
        self.text("A:F", self.t(block.note), font=st.NOTE)
        res = self.tpl.result(block.result)
        rname, rvalues = block.rows
        cname, cvalues = block.columns
        rin, cin = self.tpl.input(rname), self.tpl.input(cname)
        self.next_row()
        head = self.row
        # No-break spaces keep each arrow with the words it points from.
        corner = f"{self.t(rin.label)}\u00a0↓  {self.t(cin.label)}\u00a0→"
        self.cell(
            f"A{head}", corner, font=st.HEADER, fill=st.HEADER_FILL, align=st.WRAP
        )
        self.fit(lines(corner, COLUMNS["A"]))
        cols = [get_column_letter(2 + j) for j in range(len(cvalues))]
        for col, v in zip(cols, cvalues):
            self.input_cell(f"{col}{head}", cin, v, self.t(cin.label))
        items: list[tuple[str, Input, str]] = []
        values: list[tuple[str, Input, Any]] = []
        for col, v in zip(cols, cvalues):
            items.append((f"{self.t(cin.label)} {col}{head}", cin, f"${col}${head}"))
            values.append((f"{self.t(cin.label)} {col}{head}", cin, v))
        for rv in rvalues:
            r = self.next_row()
            self.input_cell(f"A{r}", rin, rv, self.t(rin.label))
            items.append((f"{self.t(rin.label)} A{r}", rin, f"$A${r}"))
            values.append((f"{self.t(rin.label)} A{r}", rin, rv))
            for col, cv in zip(cols, cvalues):
                scope = {rname: f"$A${r}", cname: f"{col}${head}"}
                env = compute(self.tpl, {rname: rv, cname: cv})
                self.formula(
                    f"{col}{r}", self.guarded(block.result, scope), env[block.result],
                    fmt=self.fmt(res.fmt), box=True, align=st.RIGHT,
                )  # fmt: skip
        self.check_line(block.title, items, values)
        self.blocks.append((start, self.row))

    def check_line(
        self,
        title: Text,
        items: list[tuple[str, Input, str]],
        values: list[tuple[str, Input, Any]],
    ) -> None:
        r = self.next_row()
        self.cell(f"A{r}", self.t(tx.CHECK), font=st.BOLD)
        self.ws.merge_cells(f"B{r}:F{r}")
        text = self.first_problem(values, self.env)
        self.formula(
            f"B{r}", self.problem_formula(items), text, align=st.WRAP, box=True
        )
        self.problems.append((self.t(title), f"B{r}", text))
        self.fit(2)

    def sweep(self, block: Sweep) -> None:
        start = self.section(block.title)
        self.next_row()
        self.text("A:F", self.t(block.note), font=st.NOTE)
        inp = self.tpl.input(block.vary)
        cols = [get_column_letter(2 + j) for j in range(len(block.results))]
        self.next_row()
        head = self.row
        self.label_with_unit(
            f"A{head}",
            inp.label,
            inp.unit,
            font=st.HEADER,
            fill=st.HEADER_FILL,
            align=st.WRAP,
        )
        n_lines = lines(heading(self.t(inp.label), self.t(inp.unit)), COLUMNS["A"])
        for col, name in zip(cols, block.results):
            res = self.tpl.result(name)
            self.label_with_unit(
                f"{col}{head}",
                res.label,
                res.unit,
                font=st.HEADER,
                fill=st.HEADER_FILL,
                align=st.CENTER,
            )
            n_lines = max(
                n_lines,
                lines(heading(self.t(res.label), self.t(res.unit)), COLUMNS[col]),
            )
        for col in "ABCDE":
            self.ws[f"{col}{head}"].fill = st.HEADER_FILL
        self.fit(n_lines)
        items: list[tuple[str, Input, str]] = []
        values: list[tuple[str, Input, Any]] = []
        table: dict[str, list[Any]] = {name: [] for name in block.results}
        for v in block.values:
            r = self.next_row()
            self.input_cell(f"A{r}", inp, v, self.t(inp.label))
            where = f"{self.t(inp.label)} A{r}"
            items.append((where, inp, f"$A${r}"))
            values.append((where, inp, v))
            env = compute(self.tpl, {block.vary: v})
            for col, name in zip(cols, block.results):
                res = self.tpl.result(name)
                self.formula(
                    f"{col}{r}", self.guarded(name, {block.vary: f"$A${r}"}), env[name],
                    fmt=self.fmt(res.fmt), box=True, align=st.RIGHT,
                )  # fmt: skip
                table[name].append(env[name])
        first, last = head + 1, self.row
        self.check_line(block.title, items, values)
        if block.chart is not None:
            self.sweep_chart(block, inp, cols, head, first, last, table)
        self.blocks.append((start, self.row))

    def sweep_chart(
        self,
        block: Sweep,
        inp: Input,
        cols: list[str],
        head: int,
        first: int,
        last: int,
        table: dict[str, list[Any]],
    ) -> None:
        ch = block.chart
        assert ch is not None
        y_fmt = self.fmt(self.tpl.result(ch.plot[0]).fmt)
        x_fmt = self.fmt(inp.fmt)
        xs = [float(v) for v in block.values]
        chart = charts.scatter(
            self.t(ch.title),
            heading(self.t(inp.label), self.t(inp.unit)),
            self.t(ch.y_title) if ch.y_title else ", ".join(self.t(self.tpl.result(n).label) for n in ch.plot),
            x_fmt=_axis(x_fmt), y_fmt=_axis(y_fmt), log_x=ch.log_x, log_y=ch.log_y,
            x_range=charts.log_bounds(xs) if ch.log_x else None,
            height_cm=CHART_ROWS * LINE * 0.0353,
        )  # fmt: skip
        sheet = quote_sheetname(self.title)
        ys_all: list[float] = []
        for k, name in enumerate(ch.plot):
            col = cols[block.results.index(name)]
            ys = [None if v is NA else float(v) for v in table[name]]
            ys_all += [y for y in ys if y is not None]
            chart.series.append(
                charts.series(
                    f"{sheet}!${col}${head}", self.ws[f"{col}{head}"].value if not str(self.ws[f"{col}{head}"].value).startswith("=") else self.cached[(self.title, f"{col}{head}")],
                    f"{sheet}!$A${first}:$A${last}", xs,
                    f"{sheet}!${col}${first}:${col}${last}", ys,
                    charts.COLOURS[k % len(charts.COLOURS)],
                )
            )  # fmt: skip
        if ch.log_y and ys_all:
            chart.y_axis.scaling.min, chart.y_axis.scaling.max = charts.log_bounds(
                ys_all
            )
        self.next_row()
        self.ws.add_chart(chart, f"A{self.row}")
        for _ in range(CHART_ROWS):
            self.heights[self.row] = LINE + 2
            self.next_row()

    def notes(self, block: Notes) -> None:
        start = self.section(block.title)
        for note in block.notes:
            self.next_row()
            self.text("A:F", "• " + self.t(note))
        self.blocks.append((start, self.row))

    # ---------------------------------------------------------- finishing

    def model_check(self) -> None:
        chain = quoted(tx.OK(self.lang))
        for prefix, coord, _ in reversed(self.problems):
            chain = f"IF({coord}<>{quoted(tx.OK(self.lang))},{quoted(prefix + ': ')}&{coord},{chain})"
        text = next(
            (f"{p}: {v}" for p, _, v in self.problems if v != tx.OK(self.lang)),
            tx.OK(self.lang),
        )
        r = self.check_row
        self.formula(
            f"B{r}",
            "=" + chain,
            text,
            font=st.BOLD,
            fill=st.CHECK_FILL,
            align=st.WRAP,
            box=True,
        )
        longest = max(
            (
                lines(f"{p}: {m}", _width("B:E"))
                for p, _, _ in self.problems
                for m in [self.t(tx.ENTER_WHOLE)] + [self.t(tx.PERCENT)]
            ),
            default=1,
        )
        self.fit(max(2, longest), r)

    def finish(self) -> None:
        ws = self.ws
        for row, h in self.heights.items():
            ws.row_dimensions[row].height = h
        last = self.row
        ws.print_area = f"A1:F{last}"
        ws.print_title_rows = "1:1"
        ws.freeze_panes = "A2"
        setup_print(ws, self.lang, portrait=True)
        ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=False)

        # Page breaks between blocks: a block starts a page when it would not fit.
        def height(a: int, b: int) -> float:
            return sum(self.heights.get(r, LINE + 2) for r in range(a, b + 1))

        used = height(1, self.blocks[0][0] - 1) if self.blocks else 0.0
        for first, end in self.blocks:
            h = height(first, end)
            if used + h > PAGE and used > 0:
                ws.row_breaks.append(Break(id=first - 1))
                used = h
            else:
                used += h
        ws.protection.sheet = True
        ws.protection.formatColumns = False  # let people widen columns
        ws.protection.formatRows = False
        ws.sheet_view.showGridLines = False


def _text_of(value: Any) -> str:
    """A cell's value as Excel's & joins it: a blank is empty."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def heading(label: str, unit: str) -> str:
    """A column heading or axis title: "Training time (days)", but "Parameters
    (N)" when the label already names its unit, and "Compute budget (C),
    PF/s-days" rather than two pairs of brackets."""
    if all(word.lower() in label.lower() for word in unit.split()):
        return label
    return f"{label}, {unit}" if label.endswith(")") else f"{label} ({unit})"


def _axis(fmt: str) -> str:
    """A cell format fit for an axis: M, B and T as such, no decimals for them;
    whole counts with separators; other figures as few digits as they need."""
    for lang in LANGS:
        if fmt == tx.LARGE(lang):
            return tx.LARGE_AXIS(lang)
    return fmt if fmt == tx.COUNT else "General"


def _literal(value: object) -> str:
    if isinstance(value, str):
        return quoted(value)
    return xl(float(value))  # type: ignore[arg-type]


# ------------------------------------------------------------------ the workbook


def add_data_sheets(wb: Workbook, lang: str) -> dict[tuple[str, str], Any]:
    """The reference data sheets in ``lang``, set up for print; their cached values."""
    sheets, cached = add_data_sheet(wb, lambda key: _DATA[key](lang), tx.LARGE(lang))
    for data, scale in zip(sheets, DATA_SCALES):
        setup_print(data, lang, portrait=False, scale=scale)
    return cached


def set_properties(
    wb: Workbook,
    lang: str,
    *,
    title: str,
    subject: str,
    keywords: str,
    description: str,
) -> None:
    """The document's properties, dated by :func:`build_date`, and a full
    recalculation when Excel opens it."""
    p = wb.properties
    p.title = title
    p.subject = subject
    p.creator = "xlfuncs"
    p.keywords = keywords
    p.description = description
    p.language = {"en": "en-US", "es": "es-ES"}[lang]
    p.version = __version__
    stamp = datetime.combine(build_date(), datetime.min.time())
    p.created = p.modified = stamp
    wb.calculation.fullCalcOnLoad = True


def build_template(tpl: Template, lang: str) -> Built:
    """The workbook of one template in one language, and its cached values."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
    wb = Workbook()
    cover = wb.worksheets[0]
    ws = wb.create_sheet(tpl.sheet(lang))
    sheet = Sheet(tpl, lang, wb, ws)
    sheet.head()
    for block in tpl.blocks:
        if isinstance(block, Inputs):
            sheet.inputs(block)
        elif isinstance(block, Results):
            sheet.results(block)
        elif isinstance(block, Scenarios):
            sheet.scenarios(block)
        elif isinstance(block, Grid):
            sheet.grid(block)
        elif isinstance(block, Sweep):
            sheet.sweep(block)
        elif isinstance(block, Notes):
            sheet.notes(block)
        elif isinstance(block, Custom):
            start = sheet.row + 1
            block.draw(sheet)
            sheet.blocks.append((start, sheet.row))
    sheet.model_check()
    sheet.finish()
    cached = sheet.cached
    if tpl.data_sheet:
        cached.update(add_data_sheets(wb, lang))
    add_cover(wb, cover, tpl, lang, build_date())
    wb.active = 1  # open on the model
    set_properties(
        wb,
        lang,
        title=tpl.title(lang),
        subject=tpl.subject(lang),
        keywords=tpl.keywords(lang),
        description=tpl.subtitle(lang),
    )
    return Built(wb, cached)


_DATA = {
    "data.sheet": tx.T("Data", "Datos"),
    "data.title": tx.T(
        "Accelerators: dense peak TFLOP/s per chip by precision (int8: TOP/s),"
        " memory, bandwidth and power",
        "Aceleradores: pico denso en TFLOP/s por chip según la precisión (int8:"
        " TOP/s), memoria, ancho de banda y potencia",
    ),
    "data.models_title": tx.T(
        "Published models: the shape MODEL_SPEC reads (field names as it takes them)",
        "Modelos publicados: la forma que lee MODEL_SPEC (campos con el nombre que"
        " admite)",
    ),
    "data.accelerator": tx.T("Accelerator", "Acelerador"),
    "data.vendor": tx.T("Vendor", "Fabricante"),
    "data.sources": tx.T(
        "Sources. Peaks are dense TFLOP/s per chip (NVIDIA's figures “with"
        " sparsity” halved); memory, bandwidth and power as the vendor publishes"
        " them.",
        "Fuentes, citadas en su idioma original. Los picos son TFLOP/s densos por"
        " chip (las cifras de NVIDIA «with sparsity», a la mitad); memoria, ancho de"
        " banda y potencia tal como los publica el fabricante.",
    ),
    "data.memory": tx.T("Memory (GB)", "Memoria (GB)"),
    "data.bandwidth": tx.T("Bandwidth (TB/s)", "Ancho de banda (TB/s)"),
    "data.power": tx.T("Power (W)", "Potencia (W)"),
    "data.models_sheet": tx.T("Models", "Modelos"),
    "data.model": tx.T("Model", "Modelo"),
    "data.model_sources": tx.T(
        "Sources: each model's configuration file (config.json) or paper, and where"
        " its parameter count comes from.",
        "Fuentes, citadas en su idioma original: el archivo de configuración"
        " (config.json) o el artículo de cada modelo, y de dónde sale su número de"
        " parámetros.",
    ),
    "data.params_source": tx.T("Parameter count", "Número de parámetros"),
    "data.recompute": tx.T("Recomputation modes", "Modos de recálculo"),
    "data.fits": tx.T(
        "Fitted scaling laws: L = E + A/N^α + B/D^β",
        "Leyes de escalado ajustadas: L = E + A/N^α + B/D^β",
    ),
    "data.fit": tx.T("Fit", "Ajuste"),
    "data.keys": tx.T("Keys", "Claves"),
    "data.key": tx.T("Key", "Clave"),
    "data.row": tx.T("Row", "Fila"),
    "data.column": tx.T("Column", "Columna"),
}

__all__ = [
    "LANGS",
    "LINE",
    "NA",
    "DATA_SCALES",
    "SCALE",
    "Built",
    "Sheet",
    "build_template",
    "compute",
    "lines",
]
