"""Every formula cell of a workbook as a named tree, and what each is worth.

A :class:`Model` starts from a template's rows (inputs with their typed values,
results, verdicts, each input's check and each result's) and grows as the
renderer places cases: a scenario column, a grid cell, a sweep row is a copy of
a result's tree whose varied inputs read that column's cells
(:meth:`Model.case`).

A cell's tree is *finalized* once (:meth:`Model.tree`) and that one tree gives
both its formula (:class:`SheetCtx`) and its cached value (:meth:`Model.value`):

- a library call is written out as its Excel expression
  (:func:`~xlfuncs.templates.written.inline`), a sibling call a cell already
  holds read from that cell;
- a typed name's clean-up (:func:`~xlfuncs.registry.excel.key`) is read from
  the key cell that computes it once (``GPUModelKey``);
- a :class:`~xlfuncs.templates.expr.Guard` becomes one reference to a validity
  cell: TRUE when no check the cell depends on says Error. Which checks is found
  from the graph of cells the body reads, through other formulas and ranges,
  never from the names a definition mentions; a check that reports another's
  problems stands for it (a table row's check for its fields').
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..excel.rewrite import rename
from ..excel.values import Range, Value, XlError, as_cell
from ..registry.excel import key
from . import checks as ck
from . import texts as tx
from .blocks import Check, Input, Template
from .expr import Call, Ctx, Env, Expr, F, Fn, Guard, Lit, Op, Problems, Ref, Refs, Say
from .texts import Text
from .written import (
    Held,
    Writing,
    can_fail,
    held_functions,
    inline,
    numeric_reads,
    parse,
)


@dataclass
class Node:
    """A cell: typed (``value``) or computed (``expr``)."""

    expr: Expr | None = None
    value: Value = None


def check_name(name: str) -> str:
    """The internal name of a cell's Check cell."""
    return f"{name}.check"


def severity_name(check: str) -> str:
    """The internal name of a listed check's severity (0 OK, 1 warning, 2 error)."""
    return f"{check}.sev"


def key_name(name: str) -> str:
    """The cell that holds a typed name's key (``GPUModel`` → ``GPUModelKey``)."""
    return f"{name}Key"


class Model:
    """The trees of one workbook in one language, and their values."""

    def __init__(
        self,
        tpl: Template,
        lang: str,
        tables: Mapping[str, Range] | None = None,
        values: Mapping[str, Any] | None = None,
    ) -> None:
        self.tpl, self.lang = tpl, lang
        self.nodes: dict[str, Node] = {}
        self.tables = dict(tables or {})
        self.inputs = {i.name: i for i in tpl.inputs}
        self.results = {r.name: r for r in tpl.results}
        self.verdicts = {v.name: v for v in tpl.verdicts}
        self.checks = {i.name: ck.input_checks(i) for i in tpl.inputs}
        self.reuse = Held()  # the calls result cells hold
        # The guard machinery: who judges a cell, which checks are listed (with a
        # severity), what a check stands for, the validity cells made so far.
        self.judge: dict[str, str] = {}  # cell → the check cell that judges it
        self.scope: dict[str, object] = {}  # cell → its table row, if any
        self.judge_scope: dict[str, object] = {}  # row check → the row it spares
        self.covers: dict[str, frozenset[str]] = {}  # check → checks it reports
        self.listed: set[str] = set()  # checks with a severity (the Checks sheet)
        self.machinery: set[str] = set()  # checks, severities, validity cells
        self.validity: dict[frozenset[str], str] = {}  # checks → validity cell
        self.valid_order: list[str] = []  # validity cells, as they were made
        self.valid_users: dict[str, list[str]] = {}  # validity cell → its readers
        self.keys: dict[str, str] = {}  # typed name → its key cell
        self.pending: list[ValidOf] = []  # validity found when first needed
        self.fit_cells: dict[str, tuple[str, int]] = {}  # name → (table, row)
        self._key_trees: dict[str, tuple[Expr, str]] = {}  # name → (tree, key cell)
        self.message_cells: list[str] = []  # the table of messages, OK first
        self._message_index: dict[object, int] = {}
        self._memo: dict[str, Value] = {}
        self._trees: dict[str, Expr] = {}
        self._guards: dict[str, frozenset[str]] = {}
        self._fails: dict[str, bool] = {}
        self._busy: set[str] = set()
        self.row_of: dict[str, tuple[str, ...]] = {}  # a timeline cell → its row
        self._holders: tuple[tuple[int, int], dict[str, str]] = ((-1, -1), {})
        given = dict(values or {})
        self.message(tx.OK)
        for i in tpl.inputs:
            self.nodes[i.name] = Node(value=_cell(given.get(i.name, i.default)))
        for i in tpl.inputs:
            if i.kind == "list":
                self.add_key(i.name)
        for r in tpl.results:
            self.add(r.name, Guard(r.expr))
            if isinstance(r.expr, Call):
                self.reuse.calls.setdefault(r.expr, Ref(r.name))
            if isinstance(r.holds, Call):
                self.reuse.calls.setdefault(r.holds, Ref(r.name))
            elif isinstance(r.holds, str) and r.holds:
                self.reuse.functions[r.holds] = Ref(r.name)
        for v in tpl.verdicts:
            if v.judged:
                self.add_check(v.name, v.expr, [])
            else:
                self.add(v.name, v.expr)
        for i in tpl.inputs:
            problems = ck.first_problem(self.checks[i.name])
            self.add_check(check_name(i.name), problems, [i.name])
        for r in tpl.results:
            if r.checks:
                self.add_check(check_name(r.name), result_check(r.name, r.checks),
                               [r.name])  # fmt: skip

    # ------------------------------------------------------------ the graph

    def timeline(self, cells: Sequence[str]) -> None:
        """A timeline row's cells, month by month: one formula along the row,
        so one guard for the row (any month's problem makes the row n/a) and
        its month cells read each other by relative references."""
        row = tuple(cells)
        for c in row:
            self.row_of[c] = row

    def add(self, name: str, expr: Expr | None = None, value: Any = None) -> str:
        if name in self.nodes:
            raise ValueError(f"{name} is defined twice")
        self.nodes[name] = Node(expr, None if expr is not None else _cell(value))
        self._memo.pop(name, None)
        return name

    def add_check(
        self,
        name: str,
        tree: Expr,
        judges: Iterable[str],
        *,
        listed: bool = True,
        covers: Iterable[str] = (),
    ) -> str:
        """A check cell: OK or its first problem, judging the cells ``judges``
        (a reader of one of them is n/a while it says Error). ``listed``: on the
        Checks sheet, with a severity; ``covers``: checks whose problems it
        reports, so a reader needs this one alone."""
        self.add(name, tree)
        self.machinery.add(name)
        for cell in judges:
            self.judge[cell] = name
        if listed:
            self.listed.add(name)
            self.add(severity_name(name), ck.severity(Ref(name)))
            self.machinery.add(severity_name(name))
        if covers:
            self.covers[name] = frozenset(covers)
        return name

    def add_key(self, name: str, cell: str | None = None) -> str:
        """The key cell of a typed name: its clean-up, computed once, read by
        every look-up of the name instead of the clean-up itself."""
        cell = cell or key_name(name)
        tree = parse(key(name))
        if cell not in self.nodes:
            self.add(cell, tree)
        self.keys[name] = cell
        self._key_trees[name] = (tree, cell)
        return cell

    def leaves(self, name: str) -> list[str]:
        return self.tpl.leaves(name)

    def guarded(self, name: str, body: Expr) -> Expr:
        """A result's cell: n/a unless the cells it reads pass their checks."""
        return Guard(body)

    def body(self, name: str) -> Expr:
        if name in self.results:
            return self.results[name].expr
        return self.verdicts[name].expr

    def case(
        self,
        name: str,
        renames: Mapping[str, str],
        placed: Mapping[str, str] | None = None,
    ) -> Expr:
        """Row ``name`` computed from other cells: the inputs of ``renames`` read
        the cells named there; results that depend on them are written out in
        place, or read from the case's own cell in ``placed``."""
        placed = placed or {}
        moved = set(renames)

        def resolve(e: Expr) -> Expr:
            if isinstance(e, Ref):
                n = e.name
                if n in renames:
                    return Ref(renames[n])
                if n in placed:
                    return Ref(placed[n])
                if (n in self.results or n in self.verdicts) and moved & set(
                    self.leaves(n)
                ):
                    return resolve(self.body(n))
                return e
            kids = [resolve(c) for c in e.children()]
            return e.rebuilt(kids) if kids else e

        body = resolve(self.body(name))
        if name in self.verdicts:
            return body
        if isinstance(body, Call) and name in placed:
            self.reuse.calls.setdefault(body, Ref(placed[name]))
        return Guard(body)

    def case_checks(self, inp: Input, cell: str, derived: bool = False) -> list[Check]:
        """The input's checks, applied to another cell (a scenario's, a grid's).
        A ``derived`` cell (the base times a multiple) is no typing: no unit
        slip, only the input's limits and usual range."""
        own = self.checks.get(inp.name) or ck.input_checks(inp)
        return [
            Check(rename(c.cond, {inp.name: cell}), c.message, c.error)
            for c in own
            if not (derived and c.slip)
        ]

    # ------------------------------------------------------------ final trees

    def tree(self, name: str) -> Expr:
        """The cell's one tree, as it prints and as it is valued: calls written
        out, keys read from their cells, its guard a validity cell."""
        if name in self._trees:
            return self._trees[name]
        node = self.nodes[name]
        assert node.expr is not None, name
        if getattr(node.expr, "final", False):  # a table row's: made final there
            out = node.expr
        else:
            written = self.written(node.expr, skip_key=name in self.keys.values())
            if name not in self.machinery:  # a check reads n/a as its own case
                written = numeric_reads(written, self._held_may_fail)
            out = self._guard(name, written)
        self._trees[name] = out
        return out

    def written(self, e: Expr, *, skip_key: bool = False) -> Expr:
        """``e`` with every library call written out, every typed name's
        clean-up read from its key cell and every constant of a named fit read
        from its own cell."""
        out = self.constants(self._write(e))
        return out if skip_key else self.keyed(out, self._key_trees)

    def constants(self, e: Expr) -> Expr:
        """A fit's constant looked up by the fit's name written as a literal,
        ``INDEX(FitE,MATCH("hoffmann",FitNames,0))``, read from the Data sheet
        cell that holds it, by a name of its own: ``FitHoffmannE``. (The
        builder defines the names beside the fits' table.)"""

        def visit(x: Expr) -> Expr:
            kids = x.children()
            if kids:
                new = [visit(c) for c in kids]
                if not all(a is b for a, b in zip(new, kids)):
                    x = x.rebuilt(new)
            if not (isinstance(x, Fn) and x.name == "INDEX" and len(x.args) == 2):
                return x
            table, found = x.args
            if not (isinstance(table, Ref) and table.name.startswith(FIT_PREFIX)):
                return x
            if not (isinstance(found, Fn) and found.name == "MATCH"
                    and found.args[1:] == (Ref(FIT_NAMES), Lit(0.0))
                    and isinstance(found.args[0], Lit)
                    and isinstance(found.args[0].value_, str)):  # fmt: skip
                return x
            fit = found.args[0].value_
            k = found.value(Env(self.tables))
            if not isinstance(k, float):
                return x
            name = f"{FIT_PREFIX}{fit.capitalize()}{table.name[len(FIT_PREFIX) :]}"
            column = self.tables[table.name]
            assert isinstance(column, Range), table.name
            self.tables.setdefault(name, column.flat()[int(k) - 1])
            self.fit_cells[name] = (table.name, int(k))
            return Ref(name)

        return visit(e)

    def _write(
        self, e: Expr, local: bool = False, reuse: Mapping[Call, Expr] | None = None
    ) -> Expr:
        """Calls written out, checks' messages numbered. ``local``: a table's
        field tree, whose names are its row's: a message that quotes them stays
        in the formula. ``reuse``: the calls cells hold, if not the model's."""
        if isinstance(e, Call):
            return inline(e, reuse=self.reuse if reuse is None else reuse)
        if isinstance(e, Problems):
            return self._numbered(e, local)
        kids = e.children()
        if not kids:
            return e
        new = [self._write(c, local, reuse) for c in kids]
        return e if all(a is b for a, b in zip(new, kids)) else e.rebuilt(new)

    def _numbered(self, p: Problems, local: bool = False) -> Expr:
        """A check as ``INDEX(Messages, k)``: k the number of the first failing
        condition's message (1 for OK; the first message when a condition is an
        error itself, the value being no usable number). A message that quotes
        a row's figures stays in the formula, as a branch of its own."""
        conds = [self._write(c, local) for c in p.conds]
        said = [m if isinstance(m, Text) else self._write(m, local) for m in p.messages]
        if local and any(isinstance(m, Expr) for m in said):
            tree: Expr = Say(tx.OK)
            for cond, m in reversed(list(zip(conds, said))):
                leaf = m if isinstance(m, Expr) else self._said(m)
                tree = F.IF(negated(cond), leaf, tree)
            first = said[0] if isinstance(said[0], Expr) else self._said(said[0])
            return F.IFERROR(tree, first)
        code: Expr = Lit(1.0)
        for cond, m in reversed(list(zip(conds, said))):
            code = F.IF(negated(cond), Lit(float(self.message(m))), code)
        first_k = Lit(float(self.message(said[0]))) if said else Lit(1.0)
        return F.INDEX(Ref(MESSAGES), F.IFERROR(code, first_k))

    def _said(self, m: Text | Expr) -> Expr:
        return F.INDEX(Ref(MESSAGES), float(self.message(m)))

    def message(self, m: Text | Expr) -> int:
        """The number of a message in the workbook's table of messages (from
        1), added if new: a text, or a tree that quotes figures."""
        token: object = ("text", m.en, m.es) if isinstance(m, Text) else m
        if token in self._message_index:
            return self._message_index[token]
        k = len(self.message_cells) + 1
        name = f"~message.{k}"
        if isinstance(m, Text):
            self.add(name, value=m(self.lang))
        else:  # its figures may be unknown while no check shows it
            self.add(name, F.IFERROR(m, ""))
        self.machinery.add(name)
        self.message_cells.append(name)
        self._message_index[token] = k
        return k

    @staticmethod
    def keyed(e: Expr, keys: Mapping[str, tuple[Expr, str]]) -> Expr:
        """``e`` with each typed name's clean-up (a SUBSTITUTE chain over the
        name) replaced by a reference to the name's key cell."""
        if not keys:
            return e

        def visit(x: Expr) -> Expr:
            if isinstance(x, Fn) and x.name == "SUBSTITUTE":
                base: Expr = x
                while isinstance(base, Fn) and base.name == "SUBSTITUTE" and base.args:
                    base = base.args[0]
                if isinstance(base, Ref) and base.name in keys:
                    tree, cell = keys[base.name]
                    if x == tree:
                        return Ref(cell)
            kids = x.children()
            if not kids:
                return x
            new = [visit(c) for c in kids]
            return x if all(a is b for a, b in zip(new, kids)) else x.rebuilt(new)

        return visit(e)

    def _guard(self, name: str, e: Expr) -> Expr:
        if not any(isinstance(x, Guard) for x in e.walk()):
            return e
        needs = self.guard_set(name, e)
        valid = self.valid(needs, name) if needs else None
        if valid is not None:
            self.valid_users.setdefault(valid, []).append(name)

        def resolve(x: Expr) -> Expr:
            if isinstance(x, Guard):
                body = resolve(x.body)
                na = Say(tx.NA)
                if self.may_fail(body):  # n/a for an error the body can give
                    return ck.guarded(body, [Ref(valid)] if valid else [])
                return F.IF(Ref(valid), body, na) if valid else body
            kids = x.children()
            if not kids:
                return x
            new = [resolve(c) for c in kids]
            return x if all(a is b for a, b in zip(new, kids)) else x.rebuilt(new)

        return resolve(e)

    def may_fail(self, e: Expr, skip: frozenset[str] | set[str] = frozenset()) -> bool:
        """Whether a tree can give an error value (or read a cell showing n/a)
        while every check it depends on passes: a look-up, a division, a
        power, an error constant, a cell that can. Its guard then keeps an
        IFERROR; a plain sum or product of checked cells needs none."""
        if isinstance(e, Lit):
            return isinstance(e.value_, XlError)
        if isinstance(e, Ref):
            return False if e.name in skip else self._cell_may_fail(e.name)
        if isinstance(e, Op) and e.op in ("/", "^"):
            return True
        if isinstance(e, Fn):
            if e.name == "IFERROR":  # its fallback may be an error: IFERROR(x, NA())
                return len(e.args) > 1 and self.may_fail(e.args[1], skip)
            if e.name in _CATCHING:
                return False
            if e.name not in _SAFE:
                return True
        cells = getattr(e, "cells", None)
        if isinstance(cells, (list, tuple)):
            return any(self._cell_may_fail(n) for n in cells if n not in skip)
        return any(self.may_fail(c, skip) for c in e.children())

    def _held_may_fail(self, name: str) -> bool:
        """Whether a cell holding a library call for other formulas can show
        n/a because the call failed (a latency no batch meets)."""
        size = (len(self.reuse.calls), len(self.reuse.functions))
        if self._holders[0] != size:  # the held calls grow while sheets are laid out
            self._holders = (size, held_functions(self.reuse))
        function = self._holders[1].get(name)
        return function is not None and can_fail(function) and self._cell_may_fail(name)

    def _cell_may_fail(self, name: str) -> bool:
        if name in self._fails:
            return self._fails[name]
        self._fails[name] = True  # a cell read while being judged: assume so
        if name in self.tables or name == MESSAGES or name not in self.nodes:
            out = name not in self.nodes and name not in self.tables
        elif self.nodes[name].expr is None:
            out = False  # a typed value: its check judges it
        else:
            tree = self.tree(name)
            if isinstance(tree, Fn) and tree.name == "IFERROR":
                out = True  # its calculation can fail, and it then shows n/a
            else:
                if isinstance(tree, Fn) and tree.name == "IF" and len(tree.args) == 3:
                    tree = tree.args[1]  # a guarded result: judge its calculation
                out = self.may_fail(tree)
        self._fails[name] = out
        return out

    # ------------------------------------------------------------ guards

    def reads(self, e: Expr) -> list[str]:
        """The cells a tree reads, ranges' cells one by one, in order."""
        out: list[str] = []
        for x in e.walk():
            if isinstance(x, Ref):
                out.append(x.name)
            cells = getattr(x, "cells", None)
            if isinstance(cells, (list, tuple)):
                out.extend(cells)
        return out

    def guard_set(self, name: str, tree: Expr | None = None) -> frozenset[str]:
        """The checks whose errors make cell ``name`` n/a: the judges of the
        cells its tree reads, through formulas and ranges, a check that reports
        another's problems standing for it."""
        if name in self._guards:
            return self._guards[name]
        if tree is None:
            if self.nodes[name].expr is None:
                return frozenset()
            tree = self.tree(name)  # a guarded cell's set is made on the way
            if name in self._guards:
                return self._guards[name]
        if name in self._busy:
            raise ValueError(f"{name} reads itself through its guard")
        row = self.row_of.get(name, (name,))
        self._busy.update(row)
        found: set[str] = set()
        for cell in row:  # a timeline row: every month's, once for the row
            here = tree if cell == name else self._unguarded(cell)
            if here is None:
                continue
            for y in dict.fromkeys(self.reads(here)):
                if y not in row:  # the row's own months add nothing
                    found |= self._through(y, cell)
        covered = set().union(*(self.covers.get(c, ()) for c in found))
        out = frozenset(found - covered)
        self._busy.difference_update(row)
        for cell in row:
            self._guards[cell] = out
        return out

    def _unguarded(self, name: str) -> Expr | None:
        """A cell's tree written out, before its guard is resolved."""
        expr = self.nodes[name].expr
        if expr is None or getattr(expr, "final", False):
            return expr
        return self.written(expr, skip_key=name in self.keys.values())

    def _through(self, y: str, reader: str) -> set[str]:
        if y in self.tables or y in self.machinery or y == MESSAGES:
            return set()
        if y not in self.nodes:
            raise KeyError(f"{reader} reads {y}, which is no cell of the model (yet)")
        out: set[str] = set()
        judge = self.judge.get(y)
        spared = self.judge_scope.get(judge) if judge else None
        if judge is not None and (spared is None or self.scope.get(reader) != spared):
            out.add(judge)
        if self.nodes[y].expr is not None:
            out |= self.guard_set(y)
        return out

    def valid(self, needs: frozenset[str], first: str) -> str:
        """The validity cell of some listed checks: TRUE when none says Error.
        The layout names it after the first result it guards (``ExamplesPerSecOK``)."""
        if needs in self.validity:
            return self.validity[needs]
        unlisted = sorted(needs - self.listed)
        assert not unlisted, f"{first} needs checks that are not listed: {unlisted}"
        name = f"~valid.{len(self.valid_order) + 1}"
        sev = Refs(tuple(severity_name(c) for c in sorted(needs)))
        self.add(name, Fn("MAX", (sev,)).lt(2))
        self.machinery.add(name)
        self.validity[needs] = name
        self.valid_order.append(name)
        return name

    # ------------------------------------------------------------ values

    def value(self, name: str) -> Value:
        if name in self._memo:
            return self._memo[name]
        if name == MESSAGES:  # still growing while the checks are written
            return Range.column([self.value(n) for n in self.message_cells])
        if name in self.tables:
            return self.tables[name]
        node = self.nodes[name]
        # A formula ending in a blank cell shows 0 (as Excel does), and the
        # cells that read it read 0 too: never a blank passed on.
        v = (
            node.value
            if node.expr is None
            else as_cell(self.tree(name).value(self.env))
        )
        self._memo[name] = v
        return v

    @property
    def env(self) -> Env:
        return Env(lookup=self.value, lang=self.lang)

    def values(self, names: Iterable[str] | None = None) -> dict[str, Value]:
        return {n: self.value(n) for n in (names or self.nodes)}


class ValidOf(Expr):
    """TRUE when the cells some trees read pass their checks: the validity cell
    of their guard set, found when first needed (a table's rows read columns
    laid out after them). Printed and valued as a reference to that cell."""

    def __init__(self, model: Model, trees: list[Expr], reader: str) -> None:
        self.model, self.trees, self.reader = model, trees, reader
        self.target: Expr | None = None
        model.pending.append(self)

    def settle(self) -> Expr:
        if self.target is None:
            m = self.model
            found: set[str] = set()
            for t in self.trees:
                for y in dict.fromkeys(m.reads(t)):
                    found |= m._through(y, self.reader)
            covered = set().union(*(m.covers.get(c, ()) for c in found))
            needs = frozenset(found - covered)
            self.target = Ref(m.valid(needs, "")) if needs else Lit(True)
            if needs:
                m.valid_users.setdefault(m.validity[needs], []).append(self.reader)
        return self.target

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        return self.settle().printed(ctx)

    def value(self, env: Env) -> Value:
        return self.settle().value(env)


FIT_PREFIX = "Fit"  # the fits' table: FitNames, FitE, FitA, …
FIT_NAMES = "FitNames"

#: Functions that give no error of their own: the rest of the tree decides.
_SAFE = frozenset({"IF", "AND", "OR", "NOT", "SUM", "MAX", "MIN", "ROUND", "ROUNDUP",
                   "ROUNDDOWN", "INT", "ABS", "LEN", "TRIM", "LEFT", "SUBSTITUTE",
                   "COUNTIF", "SUMIF", "SUMPRODUCT", "FIXED", "CHAR", "UNICHAR"})  # fmt: skip
#: Functions that turn any error into a value.
_CATCHING = frozenset({"IFERROR", "ISNUMBER", "ISTEXT", "ISBLANK", "ISERROR", "ISNA"})

#: The workbook name of the table of messages the checks show.
MESSAGES = "Messages"

_INVERSE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "<>", "<>": "="}


def negated(cond: Expr) -> Expr:
    """NOT(cond), a comparison turned round (``x<=1`` fails as ``x>1``): Excel
    orders every value, text after numbers, so the two always agree."""
    if isinstance(cond, Op) and cond.op in _INVERSE:
        return Op(_INVERSE[cond.op], cond.left, cond.right)
    if isinstance(cond, Fn) and cond.name == "NOT" and len(cond.args) == 1:
        return cond.args[0]
    return F.NOT(cond)


def result_check(name: str, checks: Iterable[Check]) -> Expr:
    """A result's own check: its first implausibility, when it is a number (n/a
    has its own reason)."""
    judged = [
        Check(F.OR(F.NOT(F.ISNUMBER(Ref(name))), c.cond), c.message, c.error)
        for c in checks
    ]
    return ck.first_problem(
        [c for c in judged if c.error] + [c for c in judged if not c.error]
    )


def _cell(value: Any) -> Value:
    """A typed value as a cell holds it: numbers as floats."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    return float(value)


def _absolute(coord: str) -> str:
    """``B7`` as ``$B$7``."""
    col = coord.rstrip("0123456789")
    return f"${col}${coord[len(col) :]}"


class SheetCtx(Writing):
    """Prints the formulas of one sheet: public names as themselves, other
    cells by their coordinates (with their sheet's name when elsewhere)."""

    def __init__(
        self,
        model: Model,
        places: Mapping[str, tuple[str, str]],
        public: set[str],
        sheet: str,
        aliases: Mapping[str, str] | None = None,
        cell: str | None = None,
    ) -> None:
        self.model, self.places, self.public, self.sheet = model, places, public, sheet
        self.aliases = aliases or {}
        self.reuse = model.reuse
        self.lang = model.lang
        # A timeline cell's formula is the row's one formula copied across: it
        # reads other timeline cells relatively, every other cell absolutely.
        self.across = cell is not None and cell in model.row_of

    def ref(self, name: str) -> str | Expr:
        if name in self.aliases:
            return self.aliases[name]
        if name in self.public or name in self.model.tables:
            return name
        if name not in self.places:
            if name in self.model.nodes:  # a cell of the model nobody placed
                raise ValueError(f"{name} is read on {self.sheet} but has no cell")
            return name  # a library name (a LAMBDA's parameter, a table)
        title, coord = self.places[name]
        if self.across and name not in self.model.row_of:
            coord = _absolute(coord)
        if title == self.sheet:
            return coord
        quoted = title if title.isalnum() else "'" + title.replace("'", "''") + "'"
        return f"{quoted}!{coord}"

    def written_out(self, call: Call) -> Expr:
        return inline(call, reuse=self.reuse)


__all__ = [
    "Model",
    "Node",
    "SheetCtx",
    "check_name",
    "key_name",
    "result_check",
    "severity_name",
]
