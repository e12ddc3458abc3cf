"""Where a template's cells go, and how their formulas and values are written.

:class:`Layout` holds the workbook, the :class:`~xlfuncs.templates.model.Model`
and every formula cell placed so far. A renderer
(:mod:`~xlfuncs.templates.render`) places a cell with :meth:`Layout.formula`
(a tree, under a name) or :meth:`Layout.typed` (an input); when every sheet is
laid out, :meth:`Layout.finish` prints each tree in its sheet's terms and caches
the value the same tree computes. Every check cell is listed on the Checks sheet,
and the model check names the worst problem: an error before any warning.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any

from openpyxl import Workbook

from .. import __version__
from ..workbook import writer as wr
from ..workbook.numfmt import shown
from ..workbook.writer import Column, SheetWriter, Style
from . import checks as ck
from . import texts as tx
from .blocks import Input, Result, Template
from .expr import Env, Expr, F, Lit, Ref, Say
from .model import Model, SheetCtx, check_name
from .semantics import Range, Value, XlError
from .texts import Text

#: Release date of this version: builds are dated by it unless SOURCE_DATE_EPOCH says.
RELEASE_DATE = date(2026, 12, 2)

# The model sheet, landscape: label, value, unit, check (over two columns),
# explanation; 123 characters, whole on a page at full size (page.WIDTH_PX).
COLUMNS = (
    Column("label", 26),
    Column("value", 14),
    Column("unit", 13),
    Column("check", 13),
    Column("note", 13),
    Column("how", 44),
)
# The summary page, portrait: the same columns, narrower (90 characters).
SUMMARY_COLUMNS = (
    Column("label", 30),
    Column("value", 15),
    Column("unit", 11),
    Column("check", 11),
    Column("note", 11),
    Column("how", 12),
)


def wide_columns(widths: tuple[float, ...]) -> tuple[Column, ...]:
    """A wide sheet's columns (a table's, the months'): the first five named as
    on a model sheet, the last "how", so titles and notes span them all."""
    assert len(widths) >= 6, widths
    keys = ["label", "value", "unit", "check", "note"]
    keys += [f"c{k}" for k in range(5, len(widths) - 1)] + ["how"]
    return tuple(Column(k, w) for k, w in zip(keys, widths))


#: The columns a table or grid spreads its values over, after the label.
DATA = ("value", "unit", "check", "note", "how")
STAMP = f"xlfuncs {__version__}"


def build_date() -> date:
    """The date a build is stamped with: SOURCE_DATE_EPOCH if set (reproducible).

    Raises ValueError, naming the variable, unless it is what the convention asks
    for: whole seconds since 1970-01-01 UTC in decimal digits, as `date +%s`
    prints them, within the years a date holds.
    """
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return RELEASE_DATE
    if not (epoch.strip().isascii() and epoch.strip().isdigit()):
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


@dataclass
class Placed:
    writer: SheetWriter
    coord: str
    name: str


class Layout:
    """One workbook being laid out: its model, its sheets, its formula cells."""

    def __init__(self, tpl: Template, lang: str, wb: Workbook, model: Model) -> None:
        self.tpl, self.lang, self.wb, self.model = tpl, lang, wb, model
        self.places: dict[str, tuple[str, str]] = {}
        self.public: set[str] = set(model.tables)
        self.cells: list[Placed] = []
        self.problems: list[tuple[Text | Expr, str]] = []  # (where, check cell)
        self.compact = False  # the sheet being laid out is a one-page summary
        self._ids = 0

    def t(self, text: Text | str) -> str:
        return text if isinstance(text, str) else text(self.lang)

    def filled(self, text: Text) -> str:
        """``text`` with each ``{Name}`` of an input or result replaced by its
        value as its cell shows it: a cover quotes what the defaults give."""
        rows: dict[str, Input | Result] = {r.name: r for r in self.tpl.inputs}
        rows.update((r.name, r) for r in self.tpl.results)

        def value(m: re.Match[str]) -> str:
            row = rows.get(m.group(1))
            if row is None:
                return m.group(0)
            v = self.model.value(row.name)
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                return str(v)
            return shown(float(v), self.t(row.fmt), self.lang)

        return re.sub(r"\{(\w+)\}", value, self.t(text))

    def new_name(self, hint: str) -> str:
        self._ids += 1
        return f"~{hint}.{self._ids}"

    # ------------------------------------------------------------ cells

    def formula(
        self,
        w: SheetWriter,
        key: str,
        expr: Expr | None = None,
        style: Style = wr.BODY,
        *,
        name: str | None = None,
        public: bool = False,
        to: str | None = None,
    ) -> str:
        """A formula cell: ``expr`` added to the model under ``name`` (or the
        row ``name`` already in it); printed and cached by :meth:`finish`."""
        if name is None:
            name = self.new_name(key)
        if expr is not None:
            self.model.add(name, expr)
        w.put(key, None, style, to=to)
        coord = w.coord(key)
        self.places[name] = (w.title, coord)
        self.cells.append(Placed(w, coord, name))
        if public:
            w.define(name, key)
            self.public.add(name)
        return name

    def typed(
        self,
        w: SheetWriter,
        key: str,
        inp: Input,
        value: Any,
        *,
        name: str | None = None,
        public: bool = False,
        validate: bool = True,
    ) -> str:
        """An input cell: yellow, unlocked, validated by the input's rules
        (``validate`` False: a cell that takes a name or a number)."""
        if name is None:
            name = self.new_name(inp.name)
            self.model.add(name, value=value)
        text_like = inp.kind in ("text", "list")
        style = wr.INPUT.but(
            fmt="@" if text_like else self.t(inp.fmt),
            align=wr.BODY.align if text_like else wr.INPUT.align,
        )
        w.put(key, value, style, fit=False)
        self.places[name] = (w.title, w.coord(key))
        if public:
            w.define(name, key)
            self.public.add(name)
        label = self.t(inp.label)
        dv = ck.validation(inp, self.lang, label, self.t(inp.help))
        if not validate:  # any value: the pop-up still says what it takes
            dv.type = dv.operator = dv.formula1 = dv.formula2 = None
        w.validate(dv, key)
        return name

    def unit(
        self, w: SheetWriter, key: str, unit: Text, style: Style = wr.BODY
    ) -> None:
        """A unit; ``{currency}`` in it reads the Currency input."""
        self.label(w, key, "", unit, style)

    def label(
        self, w: SheetWriter, key: str, label: Text | str, unit: Text, style: Style
    ) -> None:
        """A text, or "Label (unit)" as a heading, the unit maybe the currency's."""
        lab, u = self.t(label), self.t(unit)
        if "{currency}" not in u:
            w.put(key, heading(lab, u) if lab else u, style)
            return
        before, _, after = u.partition("{currency}")
        if lab:
            before, after = f"{lab} ({before}", f"{after})"
        tree = Lit(before).cat(Ref("Currency"), after)  # a blank reads as ""
        self.formula(w, key, tree, style)

    def check_cell(
        self, w: SheetWriter, key: str, tree: Expr, where: Text | Expr, *, to: str
    ) -> str:
        """A check: OK or the problem; listed on the Checks sheet."""
        name = self.formula(w, key, tree, wr.CHECK, to=to)
        self.problems.append((where, name))
        return name

    def input_check(self, w: SheetWriter, key: str, inp: Input, *, to: str) -> None:
        name = check_name(inp.name)
        self.formula(w, key, None, wr.CHECK.but(box=False), name=name, to=to)
        self.problems.append((inp.label, name))

    # ------------------------------------------------------------ finishing

    def checks_sheet(self) -> None:
        """Every check of the workbook on one sheet, with its severity; the
        model check reads it (names CheckWhere, CheckStatus, CheckSeverity)."""
        ws = self.wb.create_sheet(self.t(tx.CHECKS_SHEET))
        w = SheetWriter(
            self.wb,
            ws,
            (Column("where", 28), Column("status", 52), Column("severity", 9)),
        )
        w.next()
        w.put("where", self.t(tx.CHECKS_SHEET), wr.TITLE)
        w.height(24)
        w.next()
        w.put("where", self.t(tx.CHECKS_HELP), wr.NOTE, to="severity")
        w.next()
        for key, title in (
            ("where", tx.ITEM),
            ("status", tx.CHECK),
            ("severity", tx.SEVERITY),
        ):
            w.put(key, self.t(title), wr.HEADER)
        first = w.row + 1
        columns: dict[str, list[str]] = {"where": [], "status": [], "severity": []}
        for where, name in self.problems:
            w.next()
            if isinstance(where, Expr):
                columns["where"].append(self.formula(w, "where", where, wr.WRAPPED))
            else:
                w.put("where", self.t(where), wr.WRAPPED)
                columns["where"].append(
                    self.model.add(self.new_name("where"), value=self.t(where))
                )
            columns["status"].append(self.formula(w, "status", Ref(name), wr.WRAPPED))
            sev = ck.severity(Ref(name))
            columns["severity"].append(self.formula(w, "severity", sev))
        for n, key in (
            ("CheckWhere", "where"),
            ("CheckStatus", "status"),
            ("CheckSeverity", "severity"),
        ):
            w.define_range(n, key, key, first, w.row)
            self.public.add(n)
            self.model.add(n, Cells(columns[key]))
        w.finish(self.lang, last="severity", title_rows="1:1", freeze="A4", stamp=STAMP)

    def model_check(self) -> Expr:
        """OK, or the worst problem with where it is: an error before a warning."""
        worst = F.MAX(Ref("CheckSeverity"))
        k = F.MATCH(worst, Ref("CheckSeverity"), 0)
        text = F.INDEX(Ref("CheckWhere"), k).cat(": ", F.INDEX(Ref("CheckStatus"), k))
        return F.IF(worst.eq(0), Say(tx.OK), text)

    def finish(self) -> dict[tuple[str, str], Any]:
        """Print every formula in its sheet's terms, cache the value it computes."""
        cached: dict[tuple[str, str], Any] = {}
        for p in self.cells:
            node = self.model.nodes[p.name]
            assert node.expr is not None, p.name
            ctx = SheetCtx(self.model, self.places, self.public, p.writer.title)
            p.writer.ws[p.coord].value = "=" + node.expr.excel(ctx)
            cached[(p.writer.title, p.coord)] = cache(self.model.value(p.name), p.name)
        return cached


class Cells(Expr):
    """Cells of the model read as one range (a column of the Checks sheet):
    evaluated only, never printed (a workbook name stands for it)."""

    def __init__(self, names: list[str]) -> None:
        self.cells = names

    def value(self, env: Env) -> Value:
        return Range.column([env[n] for n in self.cells])


def cache(value: Value, where: str) -> float | str | bool:
    """A value as a formula cell caches it: a blank reference shows 0."""
    if value is None:
        return 0.0
    if isinstance(value, (XlError, Range)):
        raise ValueError(f"{where} computes {value}: every formula must show a value")
    return value


def heading(label: str, unit: str) -> str:
    """A column heading or axis title: "Training time (days)", but "Parameters
    (N)" when the label already names its unit, and "Compute budget (C),
    PF/s-days" rather than two pairs of brackets."""
    if all(word.lower() in label.lower() for word in unit.split()):
        return label
    return f"{label}, {unit}" if label.endswith(")") else f"{label} ({unit})"


Renderer = Callable[[Layout, SheetWriter, Any], None]

__all__ = [
    "COLUMNS",
    "DATA",
    "RELEASE_DATE",
    "STAMP",
    "Layout",
    "build_date",
    "wide_columns",
    "cache",
    "heading",
]
