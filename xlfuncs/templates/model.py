"""Every formula cell of a workbook as a named tree, and what each is worth.

A :class:`Model` starts from a template's rows (inputs with their typed values,
results guarded by their inputs' checks, verdicts, each input's check) and grows
as the renderer places cases: a scenario column, a grid cell, a sweep row is a
copy of a result's tree whose varied inputs read that column's cells
(:meth:`Model.case`). Values are computed from the trees alone
(:meth:`Model.value`), and the same trees print the formulas
(:class:`SheetCtx`), so a cached value is what the formula computes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from . import checks as ck
from .blocks import Check, Input, Template
from .expr import Call, Env, Expr, Ref
from .semantics import Range, Value
from .texts import Text
from .written import Writing, inline, rename


@dataclass
class Node:
    """A cell: typed (``value``) or computed (``expr``)."""

    expr: Expr | None = None
    value: Value = None


def check_name(name: str) -> str:
    """The internal name of an input's Check cell."""
    return f"{name}.check"


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
        self.reuse: dict[Call, Expr] = {}
        self._memo: dict[str, Value] = {}
        given = dict(values or {})
        for i in tpl.inputs:
            self.nodes[i.name] = Node(value=_cell(given.get(i.name, i.default)))
        for r in tpl.results:
            self.add(r.name, self.guarded(r.name, r.expr))
            if isinstance(r.expr, Call):
                self.reuse.setdefault(r.expr, Ref(r.name))
        for v in tpl.verdicts:
            self.add(v.name, v.expr)
        for i in tpl.inputs:
            pairs = [(c, Text("", "")) for c in self.checks[i.name]]
            self.add(check_name(i.name), ck.first_problem(pairs))

    # ------------------------------------------------------------ the graph

    def add(self, name: str, expr: Expr | None = None, value: Any = None) -> str:
        if name in self.nodes:
            raise ValueError(f"{name} is defined twice")
        self.nodes[name] = Node(expr, None if expr is not None else _cell(value))
        self._memo.pop(name, None)
        return name

    def leaves(self, name: str) -> list[str]:
        return self.tpl.leaves(name)

    def guarded(
        self, name: str, body: Expr, renames: Mapping[str, str] | None = None
    ) -> Expr:
        """A result's cell: n/a unless every input it reads passes its errors."""
        renames = renames or {}
        conds: list[Expr] = []
        for x in self.leaves(name):
            for c in ck.errors(self.checks[x]):
                conds.append(rename(c, renames))
        return ck.guarded(body, conds)

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
            self.reuse.setdefault(body, Ref(placed[name]))
        return self.guarded(name, body, renames)

    def case_checks(
        self, inp: Input, cell: str, prefix: Text
    ) -> list[tuple[Check, Text]]:
        """The input's checks, applied to another cell (a scenario's, a grid's)."""
        own = self.checks.get(inp.name) or ck.input_checks(inp)
        return [
            (Check(rename(c.cond, {inp.name: cell}), c.message, c.error), prefix)
            for c in own
        ]

    # ------------------------------------------------------------ values

    def value(self, name: str) -> Value:
        if name in self._memo:
            return self._memo[name]
        if name in self.tables:
            return self.tables[name]
        node = self.nodes[name]
        v = node.value if node.expr is None else node.expr.value(self.env)
        self._memo[name] = v
        return v

    @property
    def env(self) -> Env:
        return Env(lookup=self.value, lang=self.lang)

    def values(self, names: Iterable[str] | None = None) -> dict[str, Value]:
        return {n: self.value(n) for n in (names or self.nodes)}


def _cell(value: Any) -> Value:
    """A typed value as a cell holds it: numbers as floats."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    return float(value)


class SheetCtx(Writing):
    """Prints the formulas of one sheet: public names as themselves, other
    cells by their coordinates (with their sheet's name when elsewhere)."""

    def __init__(
        self,
        model: Model,
        places: Mapping[str, tuple[str, str]],
        public: set[str],
        sheet: str,
    ) -> None:
        self.model, self.places, self.public, self.sheet = model, places, public, sheet
        self.reuse = model.reuse
        self.lang = model.lang

    def ref(self, name: str) -> str | Expr:
        if name in self.public or name not in self.places:
            return name
        title, coord = self.places[name]
        if title == self.sheet:
            return coord
        quoted = title if title.isalnum() else "'" + title.replace("'", "''") + "'"
        return f"{quoted}!{coord}"

    def written_out(self, call: Call) -> Expr:
        return inline(call, reuse=self.reuse)


__all__ = ["Model", "Node", "SheetCtx", "check_name"]
