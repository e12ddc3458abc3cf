"""Each kind of block, drawn on a sheet: a dozen lines of placement each.

A renderer reads its block and places cells through the
:class:`~xlfuncs.templates.layout.Layout` (which names them in the model) and
the sheet's :class:`~xlfuncs.workbook.writer.SheetWriter` (columns by name). It
decides where things go, never what they compute: values come from the model,
formulas from the same trees. :data:`RENDERERS` maps a block type to its renderer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openpyxl.utils import quote_sheetname

from .. import __version__
from ..excel.rewrite import rename
from ..workbook import charts
from ..workbook import writer as wr
from ..workbook.page import LINE, lines
from ..workbook.writer import SheetWriter
from . import checks as ck
from . import texts as tx
from .blocks import (
    Axis,
    Block,
    Check,
    Curve,
    Custom,
    Figures,
    Grid,
    Input,
    Inputs,
    Notes,
    Result,
    Results,
    Scenarios,
    Sheet,
    Stamp,
    Sweep,
)
from .expr import Expr, F, Guard, Ref, Say
from .layout import DATA, Entry, Layout, build_date, heading
from .model import check_name
from .texts import T, Text

CHART_ROWS = 18  # rows a chart takes below its table


# ------------------------------------------------------------------ shared parts


def head(
    lay: Layout, w: SheetWriter, sheet: Sheet, first: bool, brief: bool = False
) -> None:
    """Title, subtitle, legend and the model check; ``brief``, for a model
    sheet after the first (the budget's Runs, Prices, Months): the title and
    the model check only, the rest said once already."""
    tpl = lay.tpl
    w.next()
    w.put("label", lay.t(tpl.title), wr.TITLE)
    w.height(24)
    if brief and sheet.check:
        w.next()
        w.put("label", lay.t(tx.MODEL_CHECK), wr.MODEL_CHECK.but(align=wr.BODY.align))
        lay.formula(w, "value", Ref("ModelCheck"), wr.MODEL_CHECK, to="how")
        w.fit(2)
        return
    w.next()
    # A summary states what the plan is; the defaults the subtitle quotes are
    # the model sheet's business.
    subtitle = lay.t(tpl.subject) if lay.compact else lay.filled(tpl.subtitle)
    w.put("label", subtitle, wr.WRAPPED, to="how")
    w.next()
    legend = sheet.legend or (tx.LEGEND_SHORT if lay.compact else tx.LEGEND)
    w.put("label", lay.t(legend), wr.NOTE, to="how")
    if not sheet.check:
        return
    w.next()
    w.put("label", lay.t(tx.MODEL_CHECK), wr.MODEL_CHECK.but(align=wr.BODY.align))
    if first:
        lay.formula(w, "value", lay.model_check(), wr.MODEL_CHECK, name="ModelCheck",
                    public=True, to="how")  # fmt: skip
    else:
        lay.formula(w, "value", Ref("ModelCheck"), wr.MODEL_CHECK, to="how")
    w.fit(2 if lay.compact else 3)
    if not lay.compact:
        w.next()
        w.put("label", lay.t(tx.MODEL_CHECK_HELP), wr.NOTE, to="how")


# A scenario's factor on a base input: any positive number, usually near 1.
FACTOR = Input(
    "ScenarioFactor", "", 1.0,
    T("Multiple", "Múltiplo"), T("×", "×"),
    T("The base value is multiplied by it: 0.5 halves it, 2 doubles it.",
      "El valor base se multiplica por él: 0,5 lo reduce a la mitad, 2 lo duplica."),
    fmt=tx.MULTIPLE_FMT, typical=(0.05, 20.0),
)  # fmt: skip


def subhead(lay: Layout, w: SheetWriter, title: Text) -> None:
    """A bold line that heads part of a table."""
    w.next()
    w.put("label", lay.t(title), wr.BOLD)


def section(lay: Layout, w: SheetWriter, title: Text) -> None:
    """A blank row, then the block's title (on a one-page summary, a thinner
    blank row: the page's rows decide its print size)."""
    w.next()
    if lay.compact:
        w.height(8)
    w.next()
    w.put("label", lay.t(title), wr.SECTION)
    w.height(20)


def note(lay: Layout, w: SheetWriter, text: Text) -> None:
    w.next()
    w.put("label", lay.t(text), wr.NOTE, to="how")


def headings(
    lay: Layout, w: SheetWriter, titles: Sequence[tuple[str, str, Text | str]]
) -> None:
    """A navy row of column headings: (first column, last column, text)."""
    w.next()
    for first, last, title in titles:
        style = wr.HEADER if first == "label" else wr.HEADER_CENTRED
        w.put(first, lay.t(title), style, to=last if last != first else None)
    w.fill("label", "how", wr.HEADER.fill)  # type: ignore[arg-type]


#: A check of some cells: where, its conditions, the cells it judges.
Item = tuple["Text | Expr", Sequence[Check], Sequence[str]]


def check_line(
    lay: Layout, w: SheetWriter, items: Sequence[Item], title: Text | None = None
) -> list[Entry]:
    """Each item's check on the Checks sheet (where it is: the block's
    ``title``, then the item's own words), and one line here naming the worst of
    them (an error before a warning), or OK."""
    entries = [
        lay.listed(where if title is None else title + ": " + where, checks, judges)
        for where, checks, judges in items
    ]
    summary_line(lay, w, entries)
    return entries


def summary_line(lay: Layout, w: SheetWriter, entries: Sequence[Entry]) -> None:
    """A line that reads some Checks-sheet lines and names their worst problem."""
    if not entries:
        return
    w.next()
    w.put("label", lay.t(tx.CHECK), wr.BOLD)
    lay.formula(w, "value", lay.summary(entries), wr.CHECK, to="how")
    w.fit(2)


def fmt(lay: Layout, f: str | Text) -> str:
    return lay.t(f)


# ------------------------------------------------------------------ blocks


def inputs(lay: Layout, w: SheetWriter, block: Inputs) -> None:
    section(lay, w, block.title)
    if lay.compact:  # a summary: each input's help below it, full width
        for inp in block.rows:
            w.next()
            w.put("label", lay.t(inp.label), wr.BOLD)
            value = lay.model.nodes[inp.name].value
            lay.typed(w, "value", inp, value, name=inp.name, public=True)
            lay.unit(w, "unit", inp.unit)
            lay.input_check(w, "check", inp, to="how")
            w.fit(
                max(
                    lines(m, w.width("check", "how"))
                    for m in ck.messages(inp, lay.lang)
                )
            )
            if block.help_below:
                w.next()
                w.put("label", lay.t(inp.help), wr.NOTE, to="how")
        return
    headings(lay, w, [("label", "label", tx.ITEM), ("value", "value", tx.VALUE),
                      ("unit", "unit", tx.UNIT), ("check", "note", tx.CHECK),
                      ("how", "how", tx.HOW)])  # fmt: skip
    for inp in block.rows:
        w.next()
        w.put("label", lay.t(inp.label), wr.WRAPPED)
        lay.typed(
            w, "value", inp, lay.model.nodes[inp.name].value, name=inp.name, public=True
        )
        lay.unit(w, "unit", inp.unit)
        lay.input_check(w, "check", inp, to="note")
        w.put("how", lay.t(inp.help), wr.WRAPPED)
        longest = max(
            lines(m, w.width("check", "note")) for m in ck.messages(inp, lay.lang)
        )
        w.fit(longest)


def results(lay: Layout, w: SheetWriter, block: Results) -> None:
    section(lay, w, block.title)
    headings(lay, w, [("label", "label", tx.ITEM), ("value", "value", tx.VALUE),
                      ("unit", "unit", tx.UNIT), ("check", "how", tx.HOW)])  # fmt: skip
    for res in block.rows:
        w.next()
        key = res.key and not block.steps
        w.put("label", lay.t(res.label), wr.BOLD if key else wr.WRAPPED)
        style = wr.STEP if block.steps else (wr.KEY_RESULT if key else wr.RESULT)
        lay.formula(
            w,
            "value",
            None,
            style.but(fmt=fmt(lay, res.fmt)),
            name=res.name,
            public=True,
        )
        lay.unit(w, "unit", res.unit)
        w.put("check", lay.t(res.how), wr.WRAPPED, to="how")
        w.fit(lines(lay.t(res.how), w.width("check", "how")))
    result_checks(lay, w, block.rows)
    for v in block.verdicts:
        w.next()
        w.put("label", lay.t(v.label), wr.BOLD if v.judged else wr.WRAPPED)
        style = wr.CHECK if v.judged else wr.CHECK.but(box=False)
        lay.formula(w, "value", None, style, name=v.name, public=True, to="how")
        if v.judged:
            lay.entry(v.label, v.name, placed=True)
        w.fit(lines(lay.t(tx.NO_FIT) + lay.t(tx.FEWEST) + "99999.9 9999 99999",
                    w.width("value", "how")))  # fmt: skip


def result_checks(lay: Layout, w: SheetWriter, rows: Sequence[Result]) -> None:
    """The plausibility checks of some results (each its own line on the Checks
    sheet, made with the model) and one line here that reads them."""
    entries = [
        lay.entry(r.label, check_name(r.name), placed=False) for r in rows if r.checks
    ]
    summary_line(lay, w, entries)


def scenarios(lay: Layout, w: SheetWriter, block: Scenarios) -> None:
    section(lay, w, block.title)
    note(lay, w, block.note)
    base, *cols = DATA
    case_cols, unit_col = cols[: len(block.cases)], cols[len(block.cases)]
    headings(lay, w, [("label", "label", tx.ITEM), (base, base, tx.BASE)]
             + [(c, c, case.label) for c, case in zip(case_cols, block.cases)]
             + [(unit_col, unit_col, tx.UNIT)])  # fmt: skip
    renames: list[dict[str, str]] = [{} for _ in block.cases]
    # Per case, a column at a time as people read them: (where, checks, cell).
    items: list[list[Item]] = [[] for _ in block.cases]
    factors: list[list[str]] = []  # per varied input, the cell of each case's factor
    subhead(lay, w, tx.MULTIPLES)
    for k, name in enumerate(block.vary):
        inp = lay.tpl.input(name)
        w.next()
        w.put("label", lay.t(inp.label), wr.WRAPPED)
        row = []
        for j, (c, case) in enumerate(zip(case_cols, block.cases)):
            cell = lay.typed(w, c, FACTOR, case.values[k])
            row.append(cell)
            where = case.label + ", " + inp.label
            items[j].append((where, lay.model.case_checks(FACTOR, cell), [cell]))
        factors.append(row)
    subhead(lay, w, tx.VALUES)
    for k, name in enumerate(block.vary):
        inp = lay.tpl.input(name)
        w.next()
        w.put("label", lay.t(inp.label), wr.WRAPPED)
        style = wr.STEP.but(fmt=fmt(lay, inp.fmt))
        lay.formula(w, base, Ref(name), style)
        for j, (c, case, ren, factor) in enumerate(
            zip(case_cols, block.cases, renames, factors[k])
        ):
            cell = lay.formula(w, c, multiple(inp, Ref(factor)), style)
            ren[name] = cell
            where = case.label + ", " + inp.label
            items[j].append((where, lay.model.case_checks(inp, cell, True), [cell]))
        lay.unit(w, unit_col, inp.unit)
    check_line(lay, w, [i for case in items for i in _by_input(case, len(block.vary))],
               block.title)  # fmt: skip
    placed: list[dict[str, str]] = [{} for _ in block.cases]
    for name in block.results:
        res = lay.tpl.result(name)
        w.next()
        w.put("label", lay.t(res.label), wr.BOLD if res.key else wr.WRAPPED)
        style = (wr.KEY_RESULT if res.key else wr.RESULT).but(
            fmt=fmt(lay, res.fmt), align=wr.GRID_RESULT.align
        )
        lay.formula(w, base, Ref(name), style)
        for c, ren, done in zip(case_cols, renames, placed):
            tree = lay.model.case(name, ren, done)
            done[name] = lay.formula(w, c, tree, style)
        lay.unit(w, unit_col, res.unit)


def _by_input(items: list[Item], n_vary: int) -> list[Item]:
    """A case's checks input by input: its multiple, then the value it gives."""
    return [i for k in range(n_vary) for i in (items[k], items[n_vary + k])]


def multiple(inp: Input, m: float | Expr) -> Any:
    """The base value times ``m``: whole counts rounded, never below 1; a share
    never above its domain's top (a 95 % efficiency × 1.1 is 100 %); n/a when
    the base or the multiple is not a number (its own check says why)."""
    if isinstance(m, (int, float)) and m == 1:  # the base itself: no ×1, but
        return Guard(Ref(inp.name))  # n/a while it is blank, as in every engine
    tree = Ref(inp.name) * m
    d = ck.domain(inp)
    if d is not None and d.whole:
        tree = F.MAX(1, F.ROUND(tree, 0))
    elif (
        d is not None
        and d.hi_closed
        and d.hi < float("inf")
        and (not isinstance(m, (int, float)) or m > 1)
    ):
        tree = F.MIN(d.hi, tree)
    return Guard(tree)


def _axis(lay: Layout, w: SheetWriter, key: str, axis: Axis, k: int) -> str:
    inp = lay.tpl.input(axis.input)
    if axis.multiples:
        return lay.formula(
            w, key, multiple(inp, axis.values[k]), wr.STEP.but(fmt=fmt(lay, inp.fmt))
        )
    return lay.typed(w, key, inp, axis.values[k])


def grid(lay: Layout, w: SheetWriter, block: Grid) -> None:
    section(lay, w, block.title)
    note(lay, w, block.note)
    res = lay.tpl.result(block.result)
    rin, cin = lay.tpl.input(block.rows.input), lay.tpl.input(block.columns.input)
    w.next()  # what the values are, in what unit: a cost grid names its currency
    lay.label(w, "label", res.label, res.unit, wr.BOLD)
    w.next()
    corner = f"{lay.t(rin.label)}\u00a0↓  {lay.t(cin.label)}\u00a0→"
    w.put("label", corner, wr.HEADER)
    cols = DATA[: len(block.columns.values)]
    items: list[Item] = []
    col_cells = []
    for k, c in enumerate(cols):
        cell = _axis(lay, w, c, block.columns, k)
        col_cells.append(cell)
        items.append(
            (cin.label + f" {w.coord(c)}", lay.model.case_checks(cin, cell), [cell])
        )
    style = wr.GRID_RESULT.but(fmt=fmt(lay, res.fmt))
    for k in range(len(block.rows.values)):
        w.next()
        rcell = _axis(lay, w, "label", block.rows, k)
        items.append(
            (
                rin.label + f" {w.coord('label')}",
                lay.model.case_checks(rin, rcell),
                [rcell],
            )
        )
        for c, ccell in zip(cols, col_cells):
            tree = lay.model.case(block.result, {rin.name: rcell, cin.name: ccell})
            lay.formula(w, c, tree, style)
    check_line(lay, w, items, block.title)


def sweep(lay: Layout, w: SheetWriter, block: Sweep) -> None:
    ranged = "{first}" in block.title.en  # a title stating the typed range
    if ranged:  # its cell now, its formula once the first and last are typed
        w.next()
        w.next()
        title_cell = lay.formula(w, "label", None, wr.SECTION)
        w.height(20)
    else:
        section(lay, w, block.title)
    note(lay, w, block.note)
    inp = lay.tpl.input(block.vary)
    cols = DATA[: len(block.results)]
    w.next()
    head_row = w.row
    lay.label(w, "label", inp.label, inp.unit, wr.HEADER)
    for c, name in zip(cols, block.results):
        res = lay.tpl.result(name)
        lay.label(w, c, res.label, res.unit, wr.HEADER_CENTRED)
    w.fill("label", "how", wr.HEADER.fill)  # type: ignore[arg-type]
    items: list[Item] = []
    table: dict[str, list[str]] = {n: [] for n in block.results}
    typed: list[str] = []
    for v in block.values:
        w.next()
        cell = lay.typed(w, "label", inp, v)
        typed.append(cell)
        items.append(
            (
                inp.label + f" {w.coord('label')}",
                lay.model.case_checks(inp, cell),
                [cell],
            )
        )
        for c, name in zip(cols, block.results):
            res = lay.tpl.result(name)
            tree = lay.model.case(name, {inp.name: cell})
            here = lay.formula(w, c, tree, wr.GRID_RESULT.but(fmt=fmt(lay, res.fmt)))
            table[name].append(here)
            # A row's results are not judged: the rows span what-ifs on
            # purpose (a budget a thousand times the plan's runs for years),
            # and the plan's own results are judged where they are.
    first, last = head_row + 1, w.row
    where = block.title
    if ranged:
        lay.model.add(title_cell, _ranged_title(block.title, typed[0], typed[-1]))
        where = _unranged(block.title)
    check_line(lay, w, items, where)
    if block.chart is not None:
        ch = block.chart
        y_fmt = fmt(lay, lay.tpl.result(ch.plot[0]).fmt)
        chart = charts.scatter(
            lay.t(ch.title), heading(lay.t(inp.label), lay.t(inp.unit)),
            lay.t(ch.y_title) if ch.y_title else ", ".join(lay.t(lay.tpl.result(n).label) for n in ch.plot),
            x_fmt=_axis_fmt(fmt(lay, inp.fmt)), y_fmt=_axis_fmt(y_fmt), log_x=ch.log_x, log_y=ch.log_y,
            x_range=charts.log_bounds([float(v) for v in block.values]) if ch.log_x else None,
            height_cm=CHART_ROWS * LINE * 0.0353,
        )  # fmt: skip
        s = quote_sheetname(w.title)
        ys_all: list[float] = []
        for k, name in enumerate(ch.plot):
            col = w.letter(cols[block.results.index(name)])
            ys = [_number(lay.model.value(n)) for n in table[name]]
            ys_all += [y for y in ys if y is not None]
            title = _title(lay, name)
            chart.series.append(charts.series(
                f"{s}!${col}${head_row}", title,
                f"{s}!$A${first}:$A${last}", [float(v) for v in block.values],
                f"{s}!${col}${first}:${col}${last}", ys, charts.COLOURS[k % len(charts.COLOURS)],
            ))  # fmt: skip
        if ch.log_y and ys_all:
            chart.y_axis.scaling.min, chart.y_axis.scaling.max = charts.log_bounds(
                ys_all
            )
        place_chart(w, chart)


def _ranged_title(title: Text, first: str, last: str) -> Expr:
    """``title`` with its ``{first}`` and ``{last}`` replaced by the typed
    cells' values as the reader's Excel writes them (two decimals where one is
    not whole); an ellipsis for them while one is not a number."""
    before, rest = title.split("{first}")
    between, after = rest.split("{last}")

    def shown(cell: str) -> Expr:
        x = Ref(cell)
        return F.FIXED(x, F.IF(x.eq(F.INT(x)), 0, 2))

    return F.IFERROR(
        Say(before).cat(shown(first), between, shown(last), after),
        Say(_unranged(title)),
    )


def _unranged(title: Text) -> Text:
    """A ranged title's words with an ellipsis for each figure."""
    return Text(
        *(
            t.replace("{first}", "…").replace("{last}", "…")
            for t in (title.en, title.es)
        )
    )


def _title(lay: Layout, name: str) -> str:
    res = lay.tpl.result(name)
    u = lay.t(res.unit)
    if "{currency}" in u:
        currency = lay.model.value("Currency")
        u = u.replace("{currency}", "" if currency is None else str(currency))
    return heading(lay.t(res.label), u)


def _number(v: Any) -> float | None:
    return float(v) if isinstance(v, float) else None


def place_chart(w: SheetWriter, chart: Any) -> None:
    w.split()
    w.next()
    w.ws.add_chart(chart, w.coord("label"))
    for _ in range(CHART_ROWS):
        w.height(LINE + 2)
        w.next()


def _axis_fmt(f: str) -> str:
    """A cell format fit for an axis: M, B and T as such, no decimals for them;
    whole counts with separators; other figures as few digits as they need."""
    for lang in ("en", "es"):
        if f == tx.LARGE(lang):
            return tx.LARGE_AXIS(lang)
    return f if f == tx.COUNT else "General"


def curve(lay: Layout, w: SheetWriter, block: Curve) -> None:
    section(lay, w, block.title)
    note(lay, w, block.note)
    cols = ["label", *DATA[: len(block.columns)]]
    headings(lay, w, [("label", "label", block.x.label)]
             + [(c, c, s.label) for c, s in zip(cols[1:], block.columns)])  # fmt: skip
    head_row = w.row
    cells: dict[str, list[str]] = {s.name: [] for s in block.columns}
    items: list[Item] = []

    def row(here: dict[str, str], first: int = 0) -> None:
        for c, s in list(zip(cols[1:], block.columns))[first:]:
            here[s.name] = lay.formula(w, c, rename(s.expr, here),
                                       wr.GRID_RESULT.but(fmt=fmt(lay, s.fmt)))  # fmt: skip
            cells[s.name].append(here[s.name])

    for x in block.xs:
        w.next()
        cell = lay.typed(w, "label", block.x, x)
        items.append((block.x.label + f" {w.coord('label')}",
                      lay.model.case_checks(block.x, cell), [cell]))  # fmt: skip
        row({"x": cell})
    last_curve = w.row
    point_rows = []
    for p in block.points:  # the first column given, the rest computed from it
        w.next()
        w.put("label", lay.t(p.label), wr.BOLD)
        first_col = block.columns[0]
        cell = lay.formula(w, cols[1], p.x, wr.RESULT.but(fmt=fmt(lay, first_col.fmt)))
        cells[first_col.name].append(cell)
        row({first_col.name: cell}, first=1)
        point_rows.append(w.row)
    check_line(lay, w, items, block.title)
    ch = block.chart
    s = quote_sheetname(w.title)
    chart = charts.scatter(
        lay.t(ch.title), lay.t(ch.x_title or block.columns[0].label), lay.t(ch.y_title or ""),
        x_fmt=tx.LARGE_AXIS(lay.lang), y_fmt="0.000", height_cm=CHART_ROWS * 13 * 0.0353,
    )  # fmt: skip
    first = head_row + 1
    x_name = block.columns[0].name
    xs = [_number(lay.model.value(n)) for n in cells[x_name]]
    n_curve = len(block.xs)
    for k, (plot, p, r) in enumerate(zip(ch.plot, block.points, point_rows)):
        col = w.letter(cols[1 + [c.name for c in block.columns].index(plot)])
        ys = [_number(lay.model.value(n)) for n in cells[plot]]
        colour = charts.COLOURS[k]
        label = next(c.label for c in block.columns if c.name == plot)
        chart.series.append(charts.series(
            f"{s}!${col}${head_row}", lay.t(label),
            f"{s}!$B${first}:$B${last_curve}", xs[:n_curve], f"{s}!${col}${first}:${col}${last_curve}",
            ys[:n_curve], colour, marker="none",
        ))  # fmt: skip
        chart.series.append(charts.series(
            None, lay.t(p.label), f"{s}!$B${r}", [xs[n_curve + k]], f"{s}!${col}${r}",
            [ys[n_curve + k]], colour, marker="diamond", line=False,
        ))  # fmt: skip
    place_chart(w, chart)


def notes(lay: Layout, w: SheetWriter, block: Notes) -> None:
    section(lay, w, block.title)
    for n in block.notes:
        w.next()
        w.put("label", "• " + lay.t(n), wr.WRAPPED, to="how")


def figures(lay: Layout, w: SheetWriter, block: Figures) -> None:
    section(lay, w, block.title)
    if block.note is not None:
        note(lay, w, block.note)
    own = []
    for row in block.rows:
        w.next()
        if isinstance(row, str) and lay.tpl.is_input(row):  # an input, shown again
            inp = lay.tpl.input(row)
            w.put("label", lay.t(inp.label), wr.WRAPPED)
            style = wr.STEP.but(fmt=fmt(lay, inp.fmt))
            lay.formula(w, "value", Ref(row), style)
            lay.unit(w, "unit", inp.unit)
            continue
        res = lay.tpl.result(row) if isinstance(row, str) else row
        label_style = wr.BOLD if res.key else wr.WRAPPED
        if res.label_expr is not None:  # a label computed: a run's name
            lay.formula(w, "label", res.label_expr, label_style, name=res.label_name,
                        public=res.label_name is not None)  # fmt: skip
        else:
            w.put("label", lay.t(res.label), label_style)
        style = (wr.KEY_RESULT if res.key else wr.RESULT).but(fmt=fmt(lay, res.fmt))
        if isinstance(row, str):
            lay.formula(w, "value", Ref(row), style)
        else:
            lay.formula(w, "value", None, style, name=res.name, public=True)
            own.append(res)
        lay.unit(w, "unit", res.unit)
        for key, tree in zip(("check", "note"), res.beside):
            lay.formula(w, key, tree, wr.BODY.but(fmt=res.beside_fmt))
        if not isinstance(row, str) and not res.beside:  # explained where it is
            w.put("check", lay.t(res.how), wr.WRAPPED.but(font=wr.NOTE.font), to="how")
    result_checks(lay, w, own)


def stamp(lay: Layout, w: SheetWriter, block: Stamp) -> None:
    w.next()
    w.next()
    text = tx.BUILT.format(version=__version__, date=build_date().isoformat())
    w.put("label", lay.t(text), wr.NOTE, to="how")


def custom(lay: Layout, w: SheetWriter, block: Custom) -> None:
    block.draw(lay, w)


RENDERERS: dict[type, Any] = {
    Inputs: inputs,
    Results: results,
    Scenarios: scenarios,
    Grid: grid,
    Sweep: sweep,
    Curve: curve,
    Notes: notes,
    Figures: figures,
    Stamp: stamp,
    Custom: custom,
}


def render(lay: Layout, w: SheetWriter, block: Block) -> None:
    """Draw ``block``; a table's renderer (:mod:`~xlfuncs.templates.table`)
    adds itself to :data:`RENDERERS` when imported."""
    with w.block():
        RENDERERS[type(block)](lay, w, block)


__all__ = ["RENDERERS", "head", "render"]
