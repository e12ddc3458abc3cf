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
from collections.abc import Callable, Mapping, Sequence

from openpyxl.worksheet.pagebreak import Break

from ..data.names import normalize
from ..excel.rewrite import rename
from ..excel.values import Value
from ..registry.excel import key
from ..workbook import writer as wr
from ..workbook.writer import SheetWriter
from . import checks as ck
from . import texts as tx
from .blocks import Check, Field, Input, Table
from .expr import (
    Array,
    Call,
    Ctx,
    Env,
    Expr,
    F,
    Fn,
    Guard,
    Lit,
    Ref,
    Refs,
    Say,
    Span,
    UpTo,
    column_name,
)
from .layout import Cells, Layout
from .model import Model, ValidOf, check_name, key_name
from .render import RENDERERS, note, section
from .texts import Text
from .written import Held, can_fail, held_functions, numeric_reads, parse


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


#: A row's own workings, after the fields: a key per typed name, a check per
#: typed field and per table check, and whether its results can be computed.
KEY = Text(" (key)", " (clave)")
CHECK_OF = Text("Check: ", "Control: ")
RULE = Text("Check", "Control")
ROW_OK = Text("Results computed", "Resultados calculados")
ROW_NA = Text("Else shown", "Si no, se muestra")
IN_USE = Text("In use", "En uso")
UNNAMED = Text(
    "Error: name this row or clear it", "Error: dé nombre a esta fila o bórrela"
)


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


def _spans(
    names: Sequence[str], where: Mapping[str, tuple[int, int, int]]
) -> list[Span]:
    """``names`` as runs of neighbouring cells of a row: a band is drawn in parts
    of as many fields as the sheet is wide, each part its own rows. ``where``:
    each field's (band, part, column)."""
    runs: list[list[str]] = []
    last: tuple[int, int, int] | None = None
    for n in sorted(names, key=lambda n: where[n]):
        band, part, col = where[n]
        if last is not None and last[:2] == (band, part) and last[2] == col - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
        last = where[n]
    return [Span(r, across=True) for r in runs]


def positions(
    block: Table, fields: Sequence[Field], printed: int, side: bool
) -> dict[str, tuple[int, int, int]]:
    """Where each field's cell of a row goes: (band, part, column from 0). The
    first band holds the typed fields and the check; a later band is cut into
    parts of ``printed - 1`` fields, each after the row's label again. With
    ``side``, the workings and checks go beside the first band's rows, beyond
    the ``printed`` columns."""
    out: dict[str, tuple[int, int, int]] = {}
    bands = sorted({f.shown_in for f in fields})
    first = bands[0]
    beside = [f for f in fields if side and f.shown_in in (block.workings, CHECKS_BAND)]
    for b in bands:
        shown = [f for f in fields if f.shown_in == b and f not in beside]
        if b == first:
            out |= {f.name: (b, 0, k) for k, f in enumerate(shown)}
            out |= {f.name: (b, 0, printed + k) for k, f in enumerate(beside)}
            continue
        for k, f in enumerate(shown):
            out[f.name] = (b, k // (printed - 1), 1 + k % (printed - 1))
    return out


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
    # Every sub-tree the row's formulas hold once their library calls are
    # written out: a typed name is keyed where one of them cleans it up.
    looked_up = {x for t in read for x in _written(t).walk()}
    keys = tuple(
        Field(key_name(f.name), f.label + KEY, Text("", ""), "@", band=block.workings,
              expr=F.IFERROR(parse(key(f.name)), ""))
        for f in typed
        if f.choices or parse(key(f.name)) in looked_up
    )  # fmt: skip
    checks: list[Field] = []
    for f in block.fields:
        own = field_checks(block, f)
        if own:
            named = [Check(c.cond, naming(c.message, f.label), c.error) for c in own]
            checks.append(Field(check_name(f.name), CHECK_OF + f.label, Text("", ""),
                                "@", band=CHECKS_BAND, expr=ck.first_problem(_ordered(named))))  # fmt: skip
    has_name = Check(F.LEN(F.TRIM(Ref(block.label))).gt(0), block.unnamed or UNNAMED)
    for j, c in enumerate((has_name, *block.checks), start=1):
        checks.append(Field(f"{block.label}Rule{j}", RULE + f" {j}", Text("", ""), "@",
                            band=CHECKS_BAND, expr=ck.first_problem([c])))  # fmt: skip
    ok = Field(f"{block.label}OK", ROW_OK, Text("", ""), "General", band=block.workings)
    return keys, tuple(checks), ok


def used_field(block: Table) -> Field:
    """Whether a row is in use: any of its typed cells holds something."""
    return Field(
        f"{block.label}Used", IN_USE, Text("", ""), "General", band=block.workings
    )


def na_field(block: Table) -> Field:
    """What a result of the row shows while it cannot be computed: nothing in an
    unused row, n/a in a row in use."""
    return Field(f"{block.label}NA", ROW_NA, Text("", ""), "@", band=block.workings)


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


def _failing_holder(
    holders: Mapping[str, str], fails: Mapping[str, bool]
) -> Callable[[str], bool]:
    """Whether a field holds a library call that can fail, and may then show n/a."""
    return lambda n: n in holders and can_fail(holders[n]) and fails.get(n, False)


def render_table(lay: Layout, w: SheetWriter, block: Table) -> None:
    section(lay, w, block.title)
    note(lay, w, block.note)
    model = lay.model
    keys, checks, ok = workings(block)
    used, na_cell = used_field(block), na_field(block)
    all_fields = (*block.fields, *keys, used, ok, na_cell, *checks)
    keys_ = list(w.columns)
    printed = keys_.index("how") + 1
    where = positions(block, all_fields, printed, block.side)
    row_checks = [c.name for c in checks]
    own_checks = [c.name for c in checks if not c.name.startswith(f"{block.label}Rule")]
    typed = [f.name for f in block.fields if f.input is not None]
    fields = {f.name: f for f in all_fields}
    size = block.size
    names = [{f.name: cell(f.name, k) for f in all_fields} for k in range(1, size + 1)]
    own_keys = {f.name: (parse(key(f.name)), key_name(f.name)) for f in block.fields
                if key_name(f.name) in fields}  # fmt: skip
    every_key = {**model._key_trees, **own_keys}
    # The row's validity: in use, its fields' checks, and the checks of whatever
    # else its results read (the workbook's inputs, another table's rows), found
    # from the graph of cells once every sheet is laid out.
    computed = [f for f in block.fields if f.expr is not None]
    outside = [model.written(f.expr) for f in computed]  # type: ignore[arg-type]
    local = {f.name for f in all_fields}
    reads: list[Expr] = [
        Refs(tuple(n for n in model.reads(t) if n not in local)) for t in outside
    ]
    fine = _errors(_spans(own_checks, where)).eq(0) if own_checks else Lit(True)
    ok_tree = F.AND(Ref(used.name), fine, ValidOf(model, reads, lay.t(block.title)))
    counts: list[Expr] = [F.COUNTA(s) for s in _spans(typed, where)]
    filled = counts[0]
    for c in counts[1:]:
        filled = filled + c
    # Each field's tree, once for every row: calls written out, keys read from
    # the row's key cells; a result shows the row's n/a text unless the row's
    # results can be computed (an IFERROR only where the tree can fail).
    na = Ref(na_cell.name)
    fails = _failing(model, computed)
    trees: dict[str, Expr] = {}
    for f in all_fields:
        tree: Expr
        if f is ok:
            tree = ok_tree
        elif f is used:
            tree = filled.gt(0)
        elif f is na_cell:
            said: Expr = Say(tx.NA)
            for cond, words in reversed(block.blame):
                said = F.IF(F.IFERROR(cond, False), Say(words), said)
            tree = F.IF(Ref(used.name), said, "")
        elif f.expr is None:
            continue
        elif f in computed and not f.guarded:
            tree = F.IF(Ref(used.name), F.IFERROR(f.expr, ""), "")
        elif f in computed:
            tree = F.IF(Ref(ok.name), f.expr, na)
            tree = F.IFERROR(tree, na) if fails[f.name] else tree
        else:
            tree = f.expr
        held_by = Held({g.holds: Ref(g.name) for g in computed
                        if isinstance(g.holds, Call) and g is not f},
                       {g.holds: Ref(g.name) for g in computed
                        if isinstance(g.holds, str) and g.holds and g is not f},
                       model.reuse)  # fmt: skip
        written = model._write(tree, local=True, reuse=held_by)
        holders = held_functions(held_by)
        written = numeric_reads(written, _failing_holder(holders, fails))
        trees[f.name] = written if f in keys else model.keyed(written, every_key)
    # A look-up a field holds (a model's row) is read from it by the others.
    held: dict[Expr, str] = {}
    for f in computed:
        found = (
            _lookup(model.keyed(model.written(f.expr), every_key)) if f.expr else None
        )
        if found is not None:
            held[found] = f.name
    if held:
        trees = {
            n: t if n in held.values() else _held(t, held) for n, t in trees.items()
        }
    # The row's cells, in the model first: typed values, then computed trees; a
    # row nobody uses shows nothing.
    plain = {used.name, ok.name, na_cell.name, *(f.name for f in computed)}
    for k, ren in enumerate(names, start=1):
        row = (block.label, k)
        given = block.rows[k - 1] if k <= len(block.rows) else {}
        for f in block.fields:
            if f.input is not None:
                model.add(ren[f.name], value=edition(f, given.get(f.name), lay.lang))
        in_use = Ref(ren[used.name])
        for name, tree in trees.items():
            tree = _up_to(tree, k)
            if name in plain:
                model.add(ren[name], InRow(tree, ren))
            else:
                model.add(ren[name], F.IF(in_use, InRow(tree, ren), ""))
            if name in row_checks:
                model.machinery.add(ren[name])
        model.machinery.add(ren[ok.name])
        for f in all_fields:
            model.scope[ren[f.name]] = row
        check = f"{block.label}Check.{k}"
        spans = [Span([ren[n] for n in sp.cells], across=True)
                 for sp in _spans(row_checks, where)]  # fmt: skip
        tree = F.IF(in_use, _first_problem(spans), Say(tx.OK))
        judged = [ren[f.name] for f in block.fields]
        model.add_check(check, tree, judged, covers=[ren[c] for c in row_checks])
        model.judge_scope[check] = row
    bands = sorted({f.shown_in for f in all_fields})
    beside = [f for f in all_fields
              if block.side and f.shown_in in (block.workings, CHECKS_BAND)]  # fmt: skip
    for b in bands:
        shown = [f for f in all_fields if f.shown_in == b and f not in beside]
        if not shown:
            continue
        if b == bands[0]:
            assert len(shown) < printed, "the typed fields and the check fit the sheet"
            _band(lay, w, block, names, shown, check=True, beside=beside)
            continue
        title = band_title(block, b)
        w.next()
        w.ws.row_breaks.append(Break(id=w.row))  # each band starts a page
        w.next()
        w.put("label", lay.t(title), wr.BOLD, to="how")
        for start in range(0, len(shown), printed - 1):  # the run named again
            if start:  # a band's second part: whole on a page, not cut by one
                w.split()
            part = [fields[block.label], *shown[start : start + printed - 1]]
            _band(lay, w, block, names, part, check=False)


def _up_to(tree: Expr, k: int) -> Expr:
    """``tree`` for row ``k``: each :class:`UpTo` a column's rows 1 to k."""
    if isinstance(tree, UpTo):
        return Span([cell(tree.name, i) for i in range(1, k + 1)], anchored=True)
    kids = tree.children()
    if not kids:
        return tree
    new = [_up_to(c, k) for c in kids]
    return tree if all(a is b for a, b in zip(new, kids)) else tree.rebuilt(new)


def _lookup(tree: Expr) -> Expr | None:
    """``tree`` if it is a row look-up a field may hold for the others
    (``INDEX(ModelRow,MATCH(RunModelKey,ModelKeys,0))``), else None."""
    if isinstance(tree, Fn) and tree.name == "IF" and len(tree.args) == 3:
        tree = tree.args[1]  # a look-up made where it applies: IF(named, look-up, "")
    if not (isinstance(tree, Fn) and tree.name == "INDEX" and len(tree.args) == 2):
        return None
    table, found = tree.args
    if isinstance(table, Ref) and isinstance(found, Fn) and found.name == "MATCH":
        return tree
    return None


def _held(tree: Expr, held: Mapping[Expr, str]) -> Expr:
    """``tree`` with each look-up a field holds read from that field."""
    if isinstance(tree, Fn) and tree.name == "INDEX" and tree in held:
        return Ref(held[tree])
    kids = tree.children()
    if not kids:
        return tree
    new = [_held(c, held) for c in kids]
    return tree if all(a is b for a, b in zip(new, kids)) else tree.rebuilt(new)


def _failing(model: Model, computed: Sequence[Field]) -> dict[str, bool]:
    """Which computed fields can give an error with valid inputs: their tree, or
    a field they read, can (:meth:`~xlfuncs.templates.model.Model.may_fail`)."""
    trees = {f.name: model.written(f.expr) for f in computed}  # type: ignore[arg-type]
    out: dict[str, bool] = {}

    def fails(name: str) -> bool:
        if name not in out:
            out[name] = True  # a field read while it is judged
            tree = trees[name]
            local = [n for n in model.reads(tree) if n in trees]
            bare = rename(tree, {n: "~field" for n in local})  # no field is a cell
            out[name] = model.may_fail(bare, skip={"~field"}) or any(map(fails, local))
        return out[name]

    for name in trees:
        fails(name)
    return out


#: The band of each row's check cells: the table's last.
CHECKS_BAND = 99


def band_title(block: Table, band: int) -> Text:
    """The title of a band after the first: the table's own (``block.bands``, in
    the order of the bands), or the workings' and the checks' of each row."""
    if band == CHECKS_BAND:
        return ROW_CHECKS
    own = sorted({f.shown_in for f in block.fields} | {block.workings})
    k = own.index(band) - 1
    if k < len(block.bands):
        return block.bands[k]
    return tx.WORKINGS if band == block.workings else block.title


ROW_CHECKS = Text("Checks of each row", "Controles de cada fila")


def _band(
    lay: Layout,
    w: SheetWriter,
    block: Table,
    names: list[dict[str, str]],
    shown: list[Field],
    *,
    check: bool,
    beside: Sequence[Field] = (),
) -> None:
    """The rows of some fields, headed, with their totals and a check column;
    ``beside``: fields drawn in the same rows beyond the print (workings)."""
    columns = list(w.columns)
    printed = columns.index("how") + 1
    placed = list(zip(columns, shown))
    checked = columns[len(shown)] if check else None
    side = columns[printed : printed + len(beside)]
    assert len(side) == len(beside), "the sheet has room beside the table"
    placed += list(zip(side, beside))
    w.next()
    for key_, f in placed:
        lay.label(w, key_, f.label, f.unit, wr.HEADER_CENTRED)
    if checked is not None:
        w.put(checked, lay.t(tx.CHECK), wr.HEADER_CENTRED)
    w.height(3 * 13 + 2)
    # Totals first, under the headings: on the page the reader opens, whatever
    # the rows below run to.
    totals = [(key_, f) for key_, f in placed if f.total]
    if totals:
        w.next()
        w.put(columns[0], lay.t(TOTAL), wr.BOLD)
        for key_, f in totals:
            style = wr.KEY_RESULT.but(fmt=lay.t(f.fmt))
            lay.formula(w, key_, Guard(F.SUM(Ref(f.name))), style,
                        name=f"{f.name}Total", public=True)  # fmt: skip
    first = w.row + 1
    for k, ren in enumerate(names, start=1):
        w.next()
        for key_, f in placed:
            _cell(lay, w, key_, f, ren, check, block)
        if checked is not None:
            row_check(lay, w, checked, block, k, ren)
    last = w.row
    for key_, f in placed:
        if f.name == block.label and not check:
            continue
        w.define_range(f.name, key_, key_, first, last)
        lay.public.add(f.name)
        lay.model.add(f.name, Cells([r[f.name] for r in names]))
        lay.model.add(column_name(f.name), Cells([r[f.name] for r in names]))


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
    if f.input is not None and (typed or f.name != block.label):
        inp = f.input
        if f.choices:  # a drop-down of the edition's words
            menu = '"' + ",".join(c(lay.lang) for c in f.choices) + '"'
            inp = dataclasses.replace(inp, kind="list", keys="-", menu=menu)
        value = lay.model.nodes[name].value
        lay.typed(w, key_, inp, value, name=name, validate=f.checks is None)
        return
    if f.input is not None:  # the label, shown again beside the results
        shown = F.IFERROR(Ref(name).cat(""), "")
        lay.formula(
            w, key_, F.IF(Ref(ren[f"{block.label}Used"]), shown, ""), wr.WRAPPED
        )
        return
    style = wr.STEP if f.shown_in >= block.workings else wr.RESULT
    lay.formula(w, key_, None, style.but(fmt=lay.t(f.fmt)), name=name)


def row_check(
    lay: Layout,
    w: SheetWriter,
    key_: str,
    block: Table,
    k: int,
    ren: dict[str, str],
) -> None:
    """The row's first problem, errors first, read from its check cells, shown
    for a row in use; listed on the Checks sheet (OK for an unused row) with the
    row's name, or its number while it has none."""
    name = f"{block.label}Check.{k}"
    shown = F.IF(Ref(ren[f"{block.label}Used"]), Ref(name), "")
    lay.formula(w, key_, shown, wr.CHECK.but(box=False))
    label, title = Ref(ren[block.label]), lay.t(block.title)
    numbered = f"{title}, {lay.t(ROW)} {k}"
    named = F.IF(F.LEN(F.TRIM(label)).gt(0), Lit(title + ", ").cat(label), numbered)
    # One line a row, filled or not, so that a table and its head print on one
    # page: a long message shows its start here, in full on the Checks sheet.
    lay.entry(F.IFERROR(named, numbered), name, placed=False)


ROW = Text("row", "fila")


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
