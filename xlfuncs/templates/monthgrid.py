"""The months grid: lines a month each under the months' dates, the year's sum
or peak at the end, their checks in one line; and its chart.

A :class:`~xlfuncs.templates.blocks.MonthGrid` is declared first
(:func:`declare`): every line's cells go into the model before any sheet is laid
out, since a line may read a line of a grid placed further down (the budget's
months read each run's months), and a chart caches their values as it is drawn.
Then :func:`render_month_grid` places them, a row a line.
"""

from __future__ import annotations

from typing import Any

from openpyxl.chart import BarChart, LineChart, Reference, Series
from openpyxl.chart.data_source import AxDataSource

from ..workbook import charts
from ..workbook import writer as wr
from ..workbook.page import lines as wrapped_lines
from ..workbook.writer import SheetWriter
from . import texts as tx
from .blocks import Heading, Line, MonthChart, MonthGrid
from .expr import Expr, F, Guard, Lit, Ref, Say, Span
from .layout import Layout
from .layout import heading as label_and_unit
from .model import check_name, severity_name
from .render import CHART_ROWS, RENDERERS, Item, check_line, note, place_chart, section
from .texts import T

HEAD = "MonthHead"  # the first grid's heading: month m's date is MonthHead.{m}
COUNTER = "MonthNumber"  # the first grid's period counter: 1, 2, … 12


def cell(line: str, m: int) -> str:
    """The internal name of month ``m``'s (from 1) cell of a line."""
    return f"{line}.{m}"


def lines(block: MonthGrid) -> list[Line]:
    return [x for x in block.lines if isinstance(x, Line)]


def declare(lay: Layout, block: MonthGrid) -> None:
    """Every line's cells, and its months as one range, in the model."""
    model = lay.model
    if block.first:  # the period counter the timeline rows read, and the dates
        counter = [cell(COUNTER, m) for m in range(1, block.months + 1)]
        for m, name in enumerate(counter, start=1):
            model.add(name, Lit(1) if m == 1 else Ref(counter[m - 2]) + 1)
        model.timeline(counter)
        model.timeline([cell(HEAD, m) for m in range(1, block.months + 1)])
    for line in lines(block):
        names = [cell(line.name, m) for m in range(1, block.months + 1)]
        for m, name in enumerate(names, start=1):
            if line.month is None:
                model.add(name, value=line.values[m - 1] if line.values else None)
            else:
                tree = line.month(m)
                model.add(name, Guard(tree) if line.guard else tree)
        model.add(line.name, Span(names, across=True))
        model.timeline(names)


def heading(block: MonthGrid, m: int) -> Expr:
    """Month m's date: the first of the month ``m - 1`` after the start; M1, M2…
    while the start is no date (a blank is 1900's day 0 to a spreadsheet, which
    engines date differently)."""
    start, n = Ref(block.start), Ref(cell(COUNTER, m))
    date = F.DATE(F.YEAR(start), F.MONTH(start) + n - 1, 1)
    valid = Ref(severity_name(check_name(block.start))).lt(2)
    return F.IFERROR(F.IF(valid, date, Say(T("M", "M")).cat(n)), n)


def render_month_grid(lay: Layout, w: SheetWriter, block: MonthGrid) -> None:
    months = [w.letter_key(k) for k in range(1, block.months + 1)]
    section(lay, w, block.title)
    if block.note is not None:
        note(lay, w, block.note)
    w.next()
    if block.first:  # the months head every printed page of the sheet
        w.title_row = w.row
    w.put("label", lay.t(block.head), wr.HEADER)
    style = wr.HEADER_CENTRED.but(fmt="mmm yy")
    for m, key in enumerate(months, start=1):
        if block.first:
            lay.formula(w, key, heading(block, m), style, name=cell(HEAD, m))
        else:
            lay.formula(w, key, Ref(cell(HEAD, m)), style)
    w.put("how", lay.t(block.year_head), wr.HEADER_CENTRED)
    if block.first:
        w.next()
        w.put("label", lay.t(T("Month number", "Número de mes")), wr.WRAPPED)
        for m, key in enumerate(months, start=1):
            lay.formula(w, key, None, wr.RESULT.but(fmt="0"), name=cell(COUNTER, m))
    items: list[Item] = []
    rows: list[int] = []
    for line in block.lines:
        if isinstance(line, Heading) and line is not block.lines[0]:
            w.split()  # the heading starts its lines' block: kept on their page
        w.next()
        if isinstance(line, Heading):
            lay.label(w, "label", line.label, line.unit or tx.NONE, wr.BOLD)
            # Its text as printed (a currency code is three letters), in bold.
            said = label_and_unit(
                lay.t(line.label), lay.t(line.unit or tx.NONE)
            ).replace("{currency}", "USD")
            w.fit(max(2, wrapped_lines(said, w.width("label") * 0.85)))
            continue
        items += _line(lay, w, months, line)
        rows.append(w.row)
    if block.name:
        w.define_range(block.name, months[0], months[-1], rows[0], rows[-1])
    items += [(where, [check], []) for where, check in block.checks]
    check_line(lay, w, items, block.title)


def _line(lay: Layout, w: SheetWriter, months: list[str], line: Line) -> list[Item]:
    style = wr.KEY_RESULT if line.key else (wr.INPUT if line.typed else wr.RESULT)
    if isinstance(line.label, Expr):
        lay.formula(w, "label", line.label, wr.WRAPPED)
    else:
        lay.label(w, "label", line.label, line.unit or tx.NONE,
                  wr.BOLD if line.key or line.typed else wr.WRAPPED)  # fmt: skip
    items: list[Item] = []
    for m, key in enumerate(months, start=1):
        name = cell(line.name, m)
        if line.typed is not None:
            value = lay.model.nodes[name].value
            lay.typed(w, key, line.typed, value, name=name)
            where = line.typed.label + f" {w.coord(key)}"
            items.append((where, lay.model.case_checks(line.typed, name), [name]))
        else:
            lay.formula(w, key, None, style.but(fmt=line.fmt), name=name)
    if line.public:
        w.define_range(line.name, months[0], months[-1], w.row, w.row)
        lay.public.add(line.name)
    if line.year:
        fold = F.SUM if line.year == "sum" else F.MAX
        year_style = wr.RESULT if line.typed else style
        months_of: Expr = Ref(line.name)
        if not line.public:  # no workbook name: its cells, as a range
            months_of = Span([cell(line.name, m) for m in range(1, len(months) + 1)],
                             across=True)  # fmt: skip
        year = Guard(fold(months_of)) if line.guard else fold(months_of)
        if isinstance(line.label, Expr):  # a line of a row (a run): blank when it is
            year = F.IF(F.COUNT(months_of).eq(0), "", year)
        lay.formula(
            w, "how", year, year_style.but(fmt=line.fmt), name=f"{line.name}Year"
        )
    return items


def render_month_chart(lay: Layout, w: SheetWriter, block: MonthChart) -> None:
    bar = BarChart()
    bar.type, bar.grouping, bar.overlap = "col", "stacked", 100
    bar.title = lay.t(block.title)
    bar.y_axis.title = lay.t(block.y_title)
    bar.y_axis.number_format = "#,##0,"
    bar.x_axis.number_format = "mmm yy"
    bar.height = CHART_ROWS * 13 * 0.0353
    bar.width = 24
    months = _months(lay, block.line)
    head_title, head_coord = lay.places[cell(HEAD, 1)]
    head_row = _row(head_coord)
    first, last = w.letter(w.letter_key(1)), w.letter(w.letter_key(months))
    sheet = "'" + head_title.replace("'", "''") + "'"
    dates = [_number(lay.model.value(cell(HEAD, m))) for m in range(1, months + 1)]
    cats = charts.numbers(f"{sheet}!${first}${head_row}:${last}${head_row}", dates,
                          "mmm yy")  # fmt: skip

    def one(name: str, label: str) -> Any:  # openpyxl's Series
        r = _row(lay.places[cell(name, 1)][1])
        ref = f"{sheet}!${first}${r}:${last}${r}"
        s = Series(Reference(range_string=ref), title=label)
        values = [_number(lay.model.value(cell(name, m))) for m in range(1, months + 1)]
        s.val.numRef = charts.numbers(ref, values, "#,##0")
        s.cat = AxDataSource(numRef=cats)
        return s

    # A colour a series: none repeats in the legend.
    colours = (*charts.COLOURS, "7F7F7F", "A5A5A5", "C9C9C9", "7030A0", "2E75B6")
    assert len(block.stacked) <= len(colours), "a colour for each series"
    for k, (name, label) in enumerate(zip(block.stacked, block.labels)):
        s = one(name, lay.t(label))
        s.graphicalProperties.solidFill = colours[k]
        bar.series.append(s)
    line = LineChart()
    cum = one(block.line, lay.t(block.labels[-1]))
    cum.graphicalProperties.line.solidFill = "000000"
    cum.smooth = False  # a spend is month by month: straight segments, no dip
    line.series.append(cum)
    line.y_axis.axId = 200
    line.y_axis.title = lay.t(block.line_title)
    line.y_axis.number_format = "#,##0,"
    line.y_axis.crosses = "max"
    bar += line
    bar.legend.position = "b"
    place_chart(w, bar)


def _months(lay: Layout, line: str) -> int:
    k = 0
    while cell(line, k + 1) in lay.model.nodes:
        k += 1
    return k


def _row(coord: str) -> int:
    return int("".join(ch for ch in coord if ch.isdigit()))


def _number(v: object) -> float | None:
    return float(v) if isinstance(v, float) else None


RENDERERS[MonthGrid] = render_month_grid
RENDERERS[MonthChart] = render_month_chart

__all__ = ["HEAD", "cell", "declare", "render_month_chart", "render_month_grid"]
