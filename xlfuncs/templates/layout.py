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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any

from openpyxl import Workbook
from openpyxl.worksheet.pagebreak import Break

from .. import __version__
from ..excel.values import Range, Value, XlError
from ..workbook import writer as wr
from ..workbook.numfmt import shown
from ..workbook.writer import Column, SheetWriter, Style
from . import checks as ck
from . import texts as tx
from .blocks import Check, Input, Result, Template
from .expr import Env, Expr, F, Lit, Ref, Say, Span
from .model import MESSAGES, Model, SheetCtx, check_name, severity_name
from .texts import Text

#: Release date of this version: builds are dated by it unless SOURCE_DATE_EPOCH says.
RELEASE_DATE = date(2026, 12, 4)

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


def wide_columns(widths: tuple[float, ...], side: int = 0) -> tuple[Column, ...]:
    """A wide sheet's columns (a table's, the months'): the first five named as
    on a model sheet, the last printed "how", so titles and notes span them all;
    then ``side`` columns beyond the print (``s1``, ``s2``…) for workings."""
    assert len(widths) >= 6, widths
    keys = ["label", "value", "unit", "check", "note"]
    keys += [f"c{k}" for k in range(5, len(widths) - 1)] + ["how"]
    printed = tuple(Column(k, w) for k, w in zip(keys, widths))
    return printed + tuple(Column(f"s{k}", SIDE_WIDTH) for k in range(1, side + 1))


#: The width of a column beyond the print (a table's workings and checks).
SIDE_WIDTH = 12.0


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


@dataclass(frozen=True)
class Entry:
    """A line of the Checks sheet: the cells of its where, status and severity,
    and the check it shows."""

    where: str
    status: str
    severity: str
    check: str
    sheet: str = ""  # the sheet it judges: the Checks sheet heads each sheet's lines


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
        self.entries: list[Entry] = []  # the Checks sheet's lines
        self.aliases: dict[str, str] = {}  # a cell's workbook name, given late
        self.compact = False  # the sheet being laid out is a one-page summary
        self.sheet = ""  # the title of the sheet being laid out
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
        """A check on the sheet: OK or the problem; listed on the Checks sheet."""
        name = self.model.add_check(self.new_name("check"), tree, [])
        self.formula(w, key, None, wr.CHECK, name=name, to=to)
        self.entry(where, name, placed=True)
        return name

    def input_check(self, w: SheetWriter, key: str, inp: Input, *, to: str) -> None:
        name = check_name(inp.name)
        self.formula(w, key, None, wr.CHECK.but(box=False), name=name, to=to)
        self.entry(inp.label, name, placed=True)

    def listed(
        self, where: Text | Expr, checks: Sequence[Check], judges: Sequence[str] = ()
    ) -> Entry:
        """A check shown on the Checks sheet only (a scenario's value, a grid's
        axis, a result's plausibility): its first problem among ``checks``,
        judging the cells ``judges``."""
        ordered = [c for c in checks if c.error] + [c for c in checks if not c.error]
        name = self.model.add_check(
            self.new_name("check"), ck.first_problem(ordered), judges
        )
        return self.entry(where, name, placed=False)

    def entry(self, where: Text | Expr, check: str, *, placed: bool) -> Entry:
        """A line of the Checks sheet: where, the check's status, its severity.
        A check placed elsewhere is shown there again; one that is not is
        computed in the line itself."""
        k = len(self.entries) + 1
        if isinstance(where, Expr):
            where_name = self.model.add(f"~where.{k}", where)
        else:
            where_name = self.model.add(f"~where.{k}", value=self.t(where))
        status = self.model.add(f"~status.{k}", Ref(check)) if placed else check
        if check not in self.model.listed:  # a check made before it was listed
            raise ValueError(f"{check} has no severity: add it with listed=True")
        out = Entry(where_name, status, severity_name(check), check, self.sheet)
        self.entries.append(out)
        return out

    def summary(self, entries: Sequence[Entry]) -> Expr:
        """A line naming the worst problem among some Checks-sheet lines (an
        error before a warning, the first of them), or OK: read from their
        cells, not computed again."""
        if len(entries) == 1:
            e = entries[0]
            return F.IF(Ref(e.severity).eq(0), Say(tx.OK),
                        Ref(e.where).cat(": ", Ref(e.status)))  # fmt: skip
        sev = Span([e.severity for e in entries])
        worst = F.MAX(sev)
        k = F.MATCH(worst, sev, 0)
        where = F.INDEX(Span([e.where for e in entries]), k)
        status = F.INDEX(Span([e.status for e in entries]), k)
        return F.IF(worst.eq(0), Say(tx.OK), where.cat(": ", status))

    # ------------------------------------------------------------ finishing

    def checks_sheet(self) -> None:
        """Every check of the workbook on one sheet, with its severity (the model
        check reads them: names CheckWhere, CheckStatus, CheckSeverity); then
        the cells the formulas share: each typed name's key, and which results
        can be computed (validity)."""
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
        lines: list[Entry] = []
        for e in self.entries:
            if not lines or e.sheet != lines[-1].sheet:
                lines.append(self._sheet_line(w, e.sheet, len(lines)))
            lines.append(e)
            w.next()
            if self.model.nodes[e.where].expr is None:
                w.put("where", self.model.nodes[e.where].value, wr.WRAPPED)
                self.places[e.where] = (w.title, w.coord("where"))
            else:
                self.formula(w, "where", None, wr.WRAPPED, name=e.where)
            self.formula(w, "status", None, wr.WRAPPED, name=e.status)
            self.formula(w, "severity", None, name=e.severity)
        for n, key, attr in (
            ("CheckWhere", "where", "where"),
            ("CheckStatus", "status", "status"),
            ("CheckSeverity", "severity", "severity"),
        ):
            w.define_range(n, key, key, first, w.row)
            self.public.add(n)
            self.model.add(n, Cells([getattr(e, attr) for e in lines]))
        # Every formula's final tree, so that every validity cell is made.
        for p in list(self.cells):
            self.model.tree(p.name)
        for pending in self.model.pending:
            pending.settle()
        if self.model.keys:
            self._workings(w, tx.KEYS_TITLE, tx.KEYS_HELP,
                           [(self.t(tx.KEY_OF).format(name=n), cell, True)
                            for n, cell in self.model.keys.items()
                            if cell not in self.places])  # fmt: skip
        made = len(self.model.valid_order)
        if made:
            self._workings(w, tx.VALID_TITLE, tx.VALID_HELP,
                           [(self._valid_label(v), v, False)
                            for v in self.model.valid_order])  # fmt: skip
            self._name_validity(w)
        for p in list(self.cells):  # the workings are final too
            self.model.tree(p.name)
        assert len(self.model.valid_order) == made, "a validity cell came late"
        self._messages(w)
        w.finish(self.lang, last="severity", title_rows="1:1", freeze="A4", stamp=STAMP,
                 appendix="A")  # fmt: skip

    def _sheet_line(self, w: SheetWriter, sheet: str, k: int) -> Entry:
        """A line heading the checks of one sheet: its name, no status. Each
        sheet's checks are then a block of their own, which also keeps
        LibreOffice's threaded calculation of a column's like formulas (a
        formula group) from spanning sheets that read each other's checks."""
        w.next()
        w.put("where", sheet, wr.BOLD)
        names = [self.model.add(f"~{part}.head{k}", value=sheet if part == "where" else None)
                 for part in ("where", "status", "severity")]  # fmt: skip
        return Entry(names[0], names[1], names[2], check="", sheet=sheet)

    def _workings(
        self,
        w: SheetWriter,
        title: Text,
        help_: Text,
        rows: Sequence[tuple[str, str, bool]],
    ) -> None:
        """A section of the Checks sheet: (label, cell, public) rows."""
        if not rows:
            return
        w.next()
        w.next()
        w.put("where", self.t(title), wr.SECTION)
        w.height(20)
        w.next()
        w.put("where", self.t(help_), wr.NOTE, to="severity")
        for label, name, public in rows:
            w.next()
            w.put("where", label, wr.WRAPPED)
            self.formula(w, "status", None, wr.STEP, name=name, public=public)

    def _name_validity(self, w: SheetWriter) -> None:
        """Each validity cell a result reads gets a workbook name after the
        first such result (``ExamplesPerSecOK``) or month line (``MonthIdleOK``): the result's formula reads it
        by name, as it reads everything else."""
        taken = set(self.wb.defined_names) | set(self.model.nodes)
        for v in self.model.valid_order:
            users = self.model.valid_users.get(v, [])
            first = next((u for u in users if u in self.model.results), None)
            if first is None:  # a month line's cells: after the line (MonthIdleOK)
                first = next((u.rsplit(".", 1)[0] for u in users
                              if u.rsplit(".", 1)[0] in self.public), None)  # fmt: skip
            if first is None or f"{first}OK" in taken:
                continue
            alias = f"{first}OK"
            title, coord = self.places[v]
            column = "".join(ch for ch in coord if ch.isalpha())
            row = int(coord[len(column) :])
            assert title == w.title
            w.define(alias, "status", row)
            self.aliases[v] = alias
            taken.add(alias)

    def _messages(self, w: SheetWriter) -> None:
        """The table of messages every check reads by number (``Messages``):
        the same formulas in both editions, the words in this one."""
        cells = self.model.message_cells
        w.next()
        # The list starts a page: a page break LibreOffice places by itself
        # could leave a blank page after it where a wider face than Calibri
        # lengthens its wrapped rows.
        w.ws.row_breaks.append(Break(id=w.row))
        w.next()
        w.put("where", self.t(tx.MESSAGES_TITLE), wr.SECTION)
        w.height(20)
        w.next()
        w.put("where", self.t(tx.MESSAGES_HELP), wr.NOTE, to="severity")
        first = w.row + 1
        for k, name in enumerate(cells, start=1):
            w.next()
            w.put("where", k, wr.BODY.but(align=wr.INPUT.align))
            node = self.model.nodes[name]
            if node.expr is None:
                w.put("status", node.value, wr.WRAPPED)
                self.places[name] = (w.title, w.coord("status"))
            else:
                self.formula(w, "status", None, wr.WRAPPED, name=name)
                self.model.tree(name)
        assert len(cells) == w.row - first + 1, "a message came late"
        w.define_range(MESSAGES, "status", "status", first, w.row)
        self.public.add(MESSAGES)

    def _valid_label(self, name: str) -> str:
        """What a validity cell guards: the results that read it, by label."""
        users = [self._label_of(u) for u in self.model.valid_users.get(name, [])]
        seen = list(dict.fromkeys(u for u in users if u))
        more = len(seen) - 3
        text = ", ".join(seen[:3]) + (f" (+{more})" if more > 0 else "")
        return self.t(tx.VALID_FOR).format(what=text or name)

    def _label_of(self, name: str) -> str:
        if name in self.model.results:
            return self.t(self.model.results[name].label)
        if name not in self.model.nodes:  # a reader named in words (a table)
            return name
        title, coord = self.places.get(name, ("", ""))
        return f"{title}!{coord}" if title else ""

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
            ctx = SheetCtx(
                self.model,
                self.places,
                self.public,
                p.writer.title,
                self.aliases,
                p.name,
            )
            p.writer.ws[p.coord].value = "=" + self.model.tree(p.name).excel(ctx)
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
