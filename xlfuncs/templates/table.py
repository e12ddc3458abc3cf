"""The table block: records a row each (a plan's runs, a price list), a field a
column, in bands (what is typed, what it gives, the workings) and totals.

Each row's cell of a computed field is the field's tree read with the field
names as that row's cells (``RunCost`` → ``RunCost.3``, :class:`InRow`), added
to the model under that internal name, so its cached value and its formula are
one tree. A
typed cell is checked with its input's own checks, applied to that row; a row's
Check cell names its first problem (errors first) and the run it belongs to on
the Checks sheet. A row whose label is blank is unused: its results are blank,
its check OK. Each field's column is a workbook name (a range over the rows).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from openpyxl.worksheet.pagebreak import Break

from ..workbook import writer as wr
from ..workbook.writer import SheetWriter
from . import checks as ck
from . import texts as tx
from .blocks import Check, Field, Input, Table
from .expr import ATOM, Array, Call, Ctx, Env, Expr, F, Lit, Ref, Say
from .layout import Cells, Layout
from .render import RENDERERS, note, section
from .semantics import Range, Value
from .texts import Text
from .written import rename, renamed_call


def cell(field: str, k: int) -> str:
    """The internal name of row ``k``'s (from 1) cell of ``field``."""
    return f"{field}.{k}"


def words(field: Field) -> Array:
    """Every spelling a choice field accepts, both editions', as one array."""
    return Array(((*(Lit(c.en) for c in field.choices),
                   *(Lit(c.es) for c in field.choices)),))  # fmt: skip


def choice(field: Field, name: str | None = None) -> Expr:
    """The position (from 1) of the typed word among the choices, or #N/A."""
    n = len(field.choices)
    found = F.MATCH(F.TRIM(Ref(name or field.name)), words(field), 0)
    return F.MOD(found - 1, n) + 1


def edition(f: Field, value: object, lang: str) -> object:
    """A typed choice in the edition's words (the example's "serving" is
    "servicio" in Spanish); any other value as it is."""
    for c in f.choices:
        if isinstance(value, str) and value.strip().lower() in (
            c.en.lower(),
            c.es.lower(),
        ):
            return c(lang)
    return value


def field_checks(table: Table, f: Field) -> list[Check]:
    """A typed field's checks over its own name; the label field has none. A
    field that may be blank passes every check when blank."""
    if f.name == table.label or f.input is None:
        return []
    if f.checks is not None:
        out = list(f.checks)
    elif f.choices:
        out = [Check(F.ISNUMBER(choice(f)), tx.PICK)]
    else:
        out = ck.input_checks(f.input)
    if not f.input.blank or not (
        f.checks is not None or f.choices or f.input.kind == "list"
    ):
        return out  # a number's own checks let a blank through already
    x = Ref(f.name)
    return [dataclasses.replace(c, cond=F.OR(F.ISBLANK(x), c.cond)) for c in out]


def naming(message: Text | Expr, label: Text) -> Text | Expr:
    """A field's message, "Error: enter a number", as "Error: GPUs: enter a number":
    still beginning with its severity, which the model check ranks by."""
    if not isinstance(message, Text):
        return message
    en, es = message.en.split(": ", 1), message.es.split(": ", 1)
    if len(en) < 2 or len(es) < 2:
        return label + ": " + message
    return Text(f"{en[0]}: {label.en}: {en[1]}", f"{es[0]}: {label.es}: {es[1]}")


def typed_deps(table: Table, name: str, seen: set[str] | None = None) -> list[str]:
    """The typed fields a field reads, through the computed ones, in order."""
    fields = {f.name: f for f in table.fields}
    seen = set() if seen is None else seen
    f = fields[name]
    if f.input is not None:
        return [name]
    out: list[str] = []
    assert f.expr is not None, name
    for n in sorted(f.expr.names()):
        if n in fields and n not in seen:
            seen.add(n)
            out += [d for d in typed_deps(table, n, seen) if d not in out]
    return out


def read_inputs(lay: Layout, table: Table, name: str) -> set[str]:
    """The template inputs a field reads, through the computed fields."""
    fields = {f.name: f for f in table.fields}
    out: set[str] = set()
    todo, seen = [name], {name}
    while todo:
        f = fields[todo.pop()]
        for n in f.expr.names() if f.expr is not None else ():
            if lay.tpl.is_input(n):
                out.add(n)
            elif n in fields and n not in seen:
                seen.add(n)
                todo.append(n)
    return out


def blank(table: Table, k: int) -> Expr:
    return F.LEN(F.TRIM(Ref(cell(table.label, k)))).eq(0)


def render_table(lay: Layout, w: SheetWriter, block: Table) -> None:
    section(lay, w, block.title)
    note(lay, w, block.note)
    fields = {f.name: f for f in block.fields}
    size = block.size
    names = [
        {f.name: cell(f.name, k) for f in block.fields} for k in range(1, size + 1)
    ]
    checks = {f.name: field_checks(block, f) for f in block.fields}
    # Each computed field's tree over the field names, guarded by the checks of
    # the typed fields it reads; the workbook's own inputs it reads (a PUE, a
    # batch) guard it too: a blank one is 0 in a formula, but its default to
    # the library.
    trees: dict[str, Expr] = {}
    for f in block.fields:
        if f.expr is None:
            continue
        conds = [F.IFERROR(c.cond, False) for d in typed_deps(block, f.name)
                 for c in checks[d] if c.error]  # fmt: skip
        inputs = [c for n in sorted(read_inputs(lay, block, f.name))
                  for c in ck.errors(lay.model.checks[n])]  # fmt: skip
        trees[f.name] = ck.guarded(f.expr, conds + inputs)
    # The row's cells, in the model first: typed values, then computed trees.
    for k, ren in enumerate(names, start=1):
        given = block.rows[k - 1] if k <= len(block.rows) else {}
        for f in block.fields:
            if f.input is not None:
                lay.model.add(
                    ren[f.name], value=edition(f, given.get(f.name), lay.lang)
                )
        for name, tree in trees.items():
            lay.model.add(ren[name], F.IF(blank(block, k), "", InRow(tree, ren)))
    bands = sorted({f.shown_in for f in block.fields})
    width = len(w.columns)
    for b in bands:
        shown = [f for f in block.fields if f.shown_in == b]
        if b == bands[0]:
            assert len(shown) < width, "the typed fields and the check fit the sheet"
            _band(lay, w, block, names, checks, shown, check=True)
            continue
        title = block.bands[bands.index(b) - 1] if block.bands else block.title
        w.next()
        w.ws.row_breaks.append(Break(id=w.row))  # each band starts a page
        w.next()
        w.put("label", lay.t(title), wr.BOLD, to="how")
        for start in range(0, len(shown), width - 1):  # the run named again
            part = [fields[block.label], *shown[start : start + width - 1]]
            _band(lay, w, block, names, checks, part, check=False)


def _band(
    lay: Layout,
    w: SheetWriter,
    block: Table,
    names: list[dict[str, str]],
    checks: dict[str, list[Check]],
    shown: list[Field],
    *,
    check: bool,
) -> None:
    """The rows of some fields, headed, with their totals and a check column."""
    keys = list(w.columns)[: len(shown) + check]
    w.next()
    for key, f in zip(keys, shown):
        lay.label(w, key, f.label, f.unit, wr.HEADER_CENTRED)
    if check:
        w.put(keys[-1], lay.t(tx.CHECK), wr.HEADER_CENTRED)
    w.height(3 * 13 + 2)
    # Totals first, under the headings: on the page the reader opens, whatever
    # the rows below run to.
    totals = [(key, f) for key, f in zip(keys, shown) if f.total]
    if totals:
        w.next()
        w.put(keys[0], lay.t(TOTAL), wr.BOLD)
        for key, f in totals:
            style = wr.KEY_RESULT.but(fmt=lay.t(f.fmt))
            lay.formula(w, key, F.SUM(Ref(f.name)), style, name=f"{f.name}Total",
                        public=True)  # fmt: skip
    first = w.row + 1
    for k, ren in enumerate(names, start=1):
        w.next()
        for key, f in zip(keys, shown):
            _cell(lay, w, key, f, ren, check, block)
        if check:
            row_check(lay, w, keys[-1], block, k, ren, checks)
    last = w.row
    for key, f in zip(keys, shown):
        if f.name == block.label and not check:
            continue
        w.define_range(f.name, key, key, first, last)
        lay.public.add(f.name)
        lay.model.add(f.name, Cells([r[f.name] for r in names]))


TOTAL = Text("Total", "Total")


def _cell(
    lay: Layout,
    w: SheetWriter,
    key: str,
    f: Field,
    ren: dict[str, str],
    typed: bool,
    block: Table,
) -> None:
    name = ren[f.name]
    if f.input is not None and typed:
        inp = f.input
        if f.choices:  # a drop-down of the edition's words
            menu = '"' + ",".join(c(lay.lang) for c in f.choices) + '"'
            inp = dataclasses.replace(inp, kind="list", keys="-", menu=menu)
        value = lay.model.nodes[name].value
        lay.typed(w, key, inp, value, name=name, validate=f.checks is None)
        return
    if f.input is not None:  # the label, shown again beside the results
        lay.formula(w, key, F.IF(blank(block, int(name.rsplit(".", 1)[1])), "",
                                 Ref(name)), wr.WRAPPED)  # fmt: skip
        return
    style = wr.STEP if f.shown_in == 3 else wr.RESULT
    lay.formula(w, key, None, style.but(fmt=lay.t(f.fmt)), name=name)


def row_check(
    lay: Layout,
    w: SheetWriter,
    key: str,
    block: Table,
    k: int,
    ren: dict[str, str],
    checks: dict[str, list[Check]],
) -> None:
    """The row's first problem, errors first: its fields' checks, then the
    table's own; OK for an unused row."""
    own: list[tuple[Check, Text]] = []
    for f in block.fields:
        for c in checks[f.name]:
            cond = F.IFERROR(rename(c.cond, ren), False)
            own.append((Check(cond, naming(c.message, f.label), c.error), Text("", "")))
    for c in block.checks:
        said = c.message if isinstance(c.message, Text) else rename(c.message, ren)
        own.append((Check(rename(c.cond, ren), said, c.error), Text("", "")))
    own = [c for c in own if c[0].error] + [c for c in own if not c[0].error]
    tree = F.IF(blank(block, k), Say(tx.OK), ck.first_problem(own))
    name = lay.formula(
        w, key, tree, wr.CHECK.but(box=False), name=f"{block.label}Check.{k}"
    )
    where = Say(block.title + ", ").cat(Ref(ren[block.label]))
    lay.problems.append((where, name))
    if k <= len(block.rows):  # a filled row: room for two lines of its check
        w.fit(2)


def table_input(name: str, label: Text, unit: Text, help: Text, **kw: object) -> Input:
    """An input for a table's field: its checks and drop-down, per row."""
    return Input(name, kw.pop("arg", ""), None, label, unit, help, **kw)  # type: ignore[arg-type]


class InRow(Expr):
    """A field's tree in one row: its field names read that row's ``cells``, as a
    relative reference reads its own row in Excel. One tree serves every row
    (renaming a copy for each is most of laying out a long table); its value
    and its formula are that tree's, read through the row's names."""

    def __init__(self, tree: Expr, cells: Mapping[str, str]) -> None:
        self.tree, self.cells = tree, cells
        self._own: tuple[Expr, ...] | None = None

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        return self.tree.printed(_RowCtx(ctx, self.cells))

    def value(self, env: Env) -> Value:
        cells = self.cells
        return self.tree.value(
            Env(lookup=lambda n: env[cells.get(n, n)], lang=env.lang)
        )

    def children(self) -> tuple[Expr, ...]:
        if self._own is None:  # the row's own tree, for a walk: made once
            self._own = (rename(self.tree, self.cells),)
        return self._own

    def rebuilt(self, children: Sequence[Expr]) -> Expr:
        return children[0]


class _RowCtx(Ctx):
    """Prints a field's tree for one row: a field name as that row's cell, all
    else as the sheet's own context prints it."""

    def __init__(self, ctx: Ctx, names: Mapping[str, str]) -> None:
        self.ctx, self.names = ctx, names
        self.reuse, self.lang, self.keep_calls = ctx.reuse, ctx.lang, ctx.keep_calls

    def __getattr__(self, name: str) -> object:
        return getattr(self.ctx, name)

    def ref(self, name: str) -> str | Expr:
        return self.ctx.ref(self.names.get(name, name))

    def written_out(self, call: Call) -> Expr:
        # Written out in the row's names, and printed by the sheet's context:
        # its names (the row's cells, the library's own) are no field's.
        out = self.ctx.written_out(renamed_call(call, self.names))
        return _PrintedBy(out, self.ctx)


class _PrintedBy(Expr):
    """A tree printed by a context of its own, whichever context asks."""

    def __init__(self, tree: Expr, ctx: Ctx) -> None:
        self.tree, self.ctx = tree, ctx

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        return self.tree.printed(self.ctx)


class Span(Expr):
    """Cells of one sheet in a row or a column, read as one range: printed as
    ``C40:C69`` (its first and last cells), its value theirs, in order."""

    def __init__(self, names: list[str], across: bool = False) -> None:
        self.cells, self.across = names, across

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        first, last = ctx.ref(self.cells[0]), ctx.ref(self.cells[-1])
        assert isinstance(first, str) and isinstance(last, str), self.cells
        return f"{first}:{last.split('!')[-1]}", ATOM

    def value(self, env: Env) -> Value:
        values = [env[n] for n in self.cells]
        return Range.row(values) if self.across else Range.column(values)


RENDERERS[Table] = render_table

__all__ = ["Span", "cell", "choice", "render_table", "table_input"]
