"""The table block: records a row each (a plan's runs, a price list), a field a
column, in bands (what is typed, what it gives, the workings) and totals.

Each row's cell of a computed field is the field's tree read with the field
names as that row's cells (``RunCost`` → ``RunCost.3``, :class:`InRow`), added
to the model under that internal name, so its cached value and its formula are
one tree.

Each row carries its own workings, in bands after its fields: a key cell per
typed name, a check cell per typed field (its input's checks, applied to the
row) and per table check, and one validity cell (``RunNameOK.3``): TRUE when no
field of the row says Error and the cells outside the row that its results read
pass their checks. Every result of the row reads that one cell. The row's Check
cell names its first problem among its check cells (errors first), and the run
it belongs to, on the Checks sheet; a reader outside the row (a total, a month)
needs it alone. A row whose label is blank is unused: its results are blank,
its check OK. Each field's column is a workbook name (a range over the rows).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from openpyxl.worksheet.pagebreak import Break

from ..data.names import normalize
from ..registry.excel import key
from ..workbook import writer as wr
from ..workbook.writer import SheetWriter
from . import checks as ck
from . import texts as tx
from .blocks import Check, Field, Input, Table
from .expr import Array, Call, Ctx, Env, Expr, F, Guard, Lit, Ref, Refs, Say, Span
from .layout import Cells, Layout
from .model import ValidOf, check_name, key_name
from .render import RENDERERS, note, section
from .semantics import Value
from .texts import Text
from .written import parse, rename


def cell(field: str, k: int) -> str:
    """The internal name of row ``k``'s (from 1) cell of ``field``."""
    return f"{field}.{k}"


def choice(field: Field, name: str | None = None) -> Expr:
    """The position (from 1) of the typed word among the choices, or #N/A: its
    key (:func:`~xlfuncs.registry.excel.key`, read from the row's key cell)
    among the choices' keys, so case, spaces, hyphens and wildcards read alike."""
    n = len(field.choices)
    words = Array(((*(Lit(_keyed(c.en)) for c in field.choices),
                    *(Lit(_keyed(c.es)) for c in field.choices)),))  # fmt: skip
    found = F.MATCH(parse(key(name or field.name)), words, 0)
    return F.MOD(found - 1, n) + 1


def _keyed(word: str) -> str:
    """A choice as its key reads: what :func:`key` leaves of it, unescaped."""
    return normalize(word)


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


def blank(table: Table, k: int) -> Expr:
    return F.LEN(F.TRIM(Ref(cell(table.label, k)))).eq(0)


#: A row's own workings, after the fields: a key per typed name, a check per
#: typed field and per table check, and whether its results can be computed.
KEY = Text(" (key)", " (clave)")
CHECK_OF = Text("Check: ", "Control: ")
RULE = Text("Check", "Control")
ROW_OK = Text("Inputs valid", "Datos válidos")


def _first_problem(spans: Sequence[Span]) -> Expr:
    """The first error among a row's check cells (in one or more runs of the
    sheet's row), else the first warning, else OK: read from the cells, never
    restated."""
    tree: Expr = Say(tx.OK)
    for word in (tx.WARNING_WORD, tx.ERROR_WORD):
        pattern = Say(word + "*")
        for span in reversed(spans):
            # INDEX(row, 1, k): Gnumeric reads INDEX(row, k) as the k-th row.
            found = F.INDEX(span, 1, F.MATCH(pattern, span, 0))
            tree = F.IF(F.COUNTIF(span, pattern).gt(0), found, tree)
    return tree


def _spans(names: Sequence[str], band: Sequence[str], chunk: int) -> list[Span]:
    """``names`` as runs of neighbouring cells: a band wider than the sheet is
    drawn in parts of ``chunk`` fields, each part its own rows."""
    parts: dict[int, list[str]] = {}
    for n in names:
        parts.setdefault(band.index(n) // chunk, []).append(n)
    return [Span(p, across=True) for p in parts.values()]


def _errors(spans: Sequence[Span]) -> Expr:
    """How many of some check cells say Error."""
    counts: list[Expr] = [F.COUNTIF(s, Say(tx.ERROR_WORD + "*")) for s in spans]
    total = counts[0]
    for c in counts[1:]:
        total = total + c
    return total


def workings(block: Table) -> tuple[tuple[Field, ...], tuple[Field, ...], Field]:
    """The table's key fields, its check fields (each typed field's, then each
    table check's) and its validity field."""
    typed = [f for f in block.fields if f.input is not None and f.name != block.label]
    read = [f.expr for f in block.fields if f.expr is not None]
    read += [c.cond for f in typed for c in field_checks(block, f)]
    read += [c.cond for c in block.checks]
    keys = tuple(
        Field(key_name(f.name), f.label + KEY, Text("", ""), "@", band=3,
              expr=F.IFERROR(parse(key(f.name)), ""))
        for f in typed
        if f.choices or any(_looks_up(t, f.name) for t in read)
    )  # fmt: skip
    checks: list[Field] = []
    for f in block.fields:
        own = field_checks(block, f)
        if own:
            named = [Check(c.cond, naming(c.message, f.label), c.error) for c in own]
            checks.append(Field(check_name(f.name), CHECK_OF + f.label, Text("", ""),
                                "@", band=4, expr=ck.first_problem(_ordered(named))))  # fmt: skip
    for j, c in enumerate(block.checks, start=1):
        checks.append(Field(f"{block.label}Rule{j}", RULE + f" {j}", Text("", ""), "@",
                            band=4, expr=ck.first_problem([c])))  # fmt: skip
    ok = Field(f"{block.label}OK", ROW_OK, Text("", ""), "General", band=3)
    return keys, tuple(checks), ok


def _looks_up(tree: Expr, name: str) -> bool:
    """Whether ``tree`` cleans ``name`` up for a look-up (``key(name)``), once
    its library calls are written out."""
    cleaned = parse(key(name))
    return any(x == cleaned for x in _written(tree).walk())


def _written(tree: Expr) -> Expr:
    from .written import inline

    def visit(e: Expr) -> Expr:
        if isinstance(e, Call):
            return inline(e)
        kids = e.children()
        return e.rebuilt([visit(c) for c in kids]) if kids else e

    return visit(tree)


def _ordered(checks: list[Check]) -> list[Check]:
    return [c for c in checks if c.error] + [c for c in checks if not c.error]


def render_table(lay: Layout, w: SheetWriter, block: Table) -> None:
    section(lay, w, block.title)
    note(lay, w, block.note)
    model = lay.model
    keys, checks, ok = workings(block)
    all_fields = (*block.fields, *keys, ok, *checks)
    chunk = len(w.columns) - 1  # fields a part of a band holds, after the run
    band = [c.name for c in checks]
    own_checks = [c.name for c in checks if not c.name.startswith(f"{block.label}Rule")]
    fields = {f.name: f for f in all_fields}
    size = block.size
    names = [{f.name: cell(f.name, k) for f in all_fields} for k in range(1, size + 1)]
    own_keys = {f.name: (parse(key(f.name)), key_name(f.name)) for f in block.fields
                if key_name(f.name) in fields}  # fmt: skip
    every_key = {**model._key_trees, **own_keys}
    # The row's validity: its fields' checks, and the checks of whatever else
    # its results read (the workbook's inputs, another table's rows), found from
    # the graph of cells once every sheet is laid out.
    computed = [f for f in block.fields if f.expr is not None]
    outside = [model.written(f.expr) for f in computed]  # type: ignore[arg-type]
    local = {f.name for f in all_fields}
    reads: list[Expr] = [
        Refs(tuple(n for n in model.reads(t) if n not in local)) for t in outside
    ]
    fine = _errors(_spans(own_checks, band, chunk)).eq(0) if own_checks else Lit(True)
    ok_tree = F.AND(fine, ValidOf(model, reads, lay.t(block.title)))
    # Each field's tree, once for every row: calls written out, keys read from
    # the row's key cells; a result shows n/a unless the row is valid.
    na = Say(tx.NA)
    trees: dict[str, Expr] = {}
    for f in all_fields:
        tree: Expr
        if f is ok:
            tree = ok_tree
        elif f.expr is None:
            continue
        elif f in computed:
            tree = F.IFERROR(F.IF(Ref(ok.name), f.expr, na), na)
        else:
            tree = f.expr
        written = model._write(tree, local=True)
        trees[f.name] = written if f in keys else model.keyed(written, every_key)
    row_checks = [c.name for c in checks]
    # The row's cells, in the model first: typed values, then computed trees.
    for k, ren in enumerate(names, start=1):
        row = (block.label, k)
        given = block.rows[k - 1] if k <= len(block.rows) else {}
        for f in block.fields:
            if f.input is not None:
                model.add(ren[f.name], value=edition(f, given.get(f.name), lay.lang))
        for name, tree in trees.items():
            empty = Say(tx.OK) if name in row_checks else ""
            model.add(ren[name], F.IF(blank(block, k), empty, InRow(tree, ren)))
            if name in row_checks:
                model.machinery.add(ren[name])
        model.machinery.add(ren[ok.name])
        for f in all_fields:
            model.scope[ren[f.name]] = row
        check = f"{block.label}Check.{k}"
        spans = [Span([ren[n] for n in sp.cells], across=True)
                 for sp in _spans(row_checks, band, chunk)]  # fmt: skip
        tree = F.IF(blank(block, k), Say(tx.OK), _first_problem(spans))
        judged = [ren[f.name] for f in block.fields]
        model.add_check(check, tree, judged, covers=[ren[c] for c in row_checks])
        model.judge_scope[check] = row
    bands = sorted({f.shown_in for f in all_fields})
    width = len(w.columns)
    for b in bands:
        shown = [f for f in all_fields if f.shown_in == b]
        if b == bands[0]:
            assert len(shown) < width, "the typed fields and the check fit the sheet"
            _band(lay, w, block, names, shown, check=True)
            continue
        title = band_title(block, b)
        w.next()
        w.ws.row_breaks.append(Break(id=w.row))  # each band starts a page
        w.next()
        w.put("label", lay.t(title), wr.BOLD, to="how")
        for start in range(0, len(shown), width - 1):  # the run named again
            part = [fields[block.label], *shown[start : start + width - 1]]
            _band(lay, w, block, names, part, check=False)


def band_title(block: Table, band: int) -> Text:
    """The title of a band after the first: the table's own, or the workings'
    and the checks' of each row."""
    if band == 2:
        return block.bands[0] if block.bands else block.title
    if band == 3:
        return block.bands[1] if len(block.bands) > 1 else tx.WORKINGS
    return ROW_CHECKS


ROW_CHECKS = Text("Checks of each row", "Controles de cada fila")


def _band(
    lay: Layout,
    w: SheetWriter,
    block: Table,
    names: list[dict[str, str]],
    shown: list[Field],
    *,
    check: bool,
) -> None:
    """The rows of some fields, headed, with their totals and a check column."""
    keys = list(w.columns)[: len(shown) + check]
    w.next()
    for key_, f in zip(keys, shown):
        lay.label(w, key_, f.label, f.unit, wr.HEADER_CENTRED)
    if check:
        w.put(keys[-1], lay.t(tx.CHECK), wr.HEADER_CENTRED)
    w.height(3 * 13 + 2)
    # Totals first, under the headings: on the page the reader opens, whatever
    # the rows below run to.
    totals = [(key_, f) for key_, f in zip(keys, shown) if f.total]
    if totals:
        w.next()
        w.put(keys[0], lay.t(TOTAL), wr.BOLD)
        for key_, f in totals:
            style = wr.KEY_RESULT.but(fmt=lay.t(f.fmt))
            lay.formula(w, key_, Guard(F.SUM(Ref(f.name))), style,
                        name=f"{f.name}Total", public=True)  # fmt: skip
    first = w.row + 1
    for k, ren in enumerate(names, start=1):
        w.next()
        for key_, f in zip(keys, shown):
            _cell(lay, w, key_, f, ren, check, block)
        if check:
            row_check(lay, w, keys[-1], block, k, ren)
    last = w.row
    for key_, f in zip(keys, shown):
        if f.name == block.label and not check:
            continue
        w.define_range(f.name, key_, key_, first, last)
        lay.public.add(f.name)
        lay.model.add(f.name, Cells([r[f.name] for r in names]))


TOTAL = Text("Total", "Total")


def _cell(
    lay: Layout,
    w: SheetWriter,
    key_: str,
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
        lay.typed(w, key_, inp, value, name=name, validate=f.checks is None)
        return
    if f.input is not None:  # the label, shown again beside the results
        lay.formula(w, key_, F.IF(blank(block, int(name.rsplit(".", 1)[1])), "",
                                  Ref(name)), wr.WRAPPED)  # fmt: skip
        return
    style = wr.STEP if f.shown_in >= 3 else wr.RESULT
    lay.formula(w, key_, None, style.but(fmt=lay.t(f.fmt)), name=name)


def row_check(
    lay: Layout,
    w: SheetWriter,
    key_: str,
    block: Table,
    k: int,
    ren: dict[str, str],
) -> None:
    """The row's first problem, errors first, read from its check cells; OK for
    an unused row. Listed on the Checks sheet with the run it belongs to."""
    name = f"{block.label}Check.{k}"
    lay.formula(w, key_, None, wr.CHECK.but(box=False), name=name)
    where = Say(block.title + ", ").cat(Ref(ren[block.label]))
    lay.entry(where, name, placed=True)
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

    final = True  # made final by the table: the model takes it as it is

    def __init__(self, tree: Expr, cells: Mapping[str, str]) -> None:
        self.tree, self.row = tree, cells
        self._own: tuple[Expr, ...] | None = None

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        return self.tree.printed(_RowCtx(ctx, self.row))

    def value(self, env: Env) -> Value:
        cells = self.row
        return self.tree.value(
            Env(lookup=lambda n: env[cells.get(n, n)], lang=env.lang)
        )

    def children(self) -> tuple[Expr, ...]:
        if self._own is None:  # the row's own tree, for a walk: made once
            self._own = (rename(self.tree, self.row),)
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


RENDERERS[Table] = render_table

__all__ = ["Span", "cell", "choice", "render_table", "table_input"]
