"""The nodes a template's sheets add to the formula engine's.

:mod:`xlfuncs.excel.tree` has what any formula is made of; a template's cells
also read a table's whole column (:class:`Whole`), cells one by one or as one
range (:class:`Refs`, :class:`Span`), are guarded by their checks
(:class:`Guard`, resolved by the model) and state their problems
(:class:`Problems`). A text in both editions is a :class:`~xlfuncs.templates.texts.Say`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from openpyxl.utils import column_index_from_string

from ..excel.tree import (
    AS_WRITTEN,
    ATOM,
    FALSE,
    ONE,
    TRUE,
    Array,
    Call,
    Ctx,
    Env,
    Expr,
    F,
    Fn,
    Lit,
    Neg,
    Omitted,
    Op,
    Ref,
    call,
    lift,
)
from ..excel.values import Range, Value
from .texts import Say, Text


@dataclass(frozen=True)
class Whole(Expr):
    """A table's whole column, read from one of its own rows (where the field's
    name means the row's cell): printed as the column's workbook name."""

    name: str

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        return self.name, ATOM

    def value(self, env: Env) -> Value:
        return env[column_name(self.name)]


@dataclass(frozen=True)
class UpTo(Expr):
    """A table's column from its first row down to the row reading it
    (``$AR$9:AR12`` in row 4): a tie among rows broken by their order. The
    table makes it a :class:`Span` for each row; it is never printed as it is."""

    name: str

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        raise ValueError(f"UpTo({self.name}) is made a range by its table")

    def value(self, env: Env) -> Value:
        raise ValueError(f"UpTo({self.name}) is made a range by its table")


def column_name(field: str) -> str:
    """The internal name of a table field's whole column, as :class:`Whole` reads it."""
    return f"{field}.column"


@dataclass(frozen=True)
class Guard(Expr):
    """A formula that shows n/a unless every cell it reads passes its checks.

    The model resolves it when it finalizes a cell's tree
    (:meth:`~xlfuncs.templates.model.Model.tree`): the checks come from the
    graph of cells the body reads, ranges included, and the guard becomes one
    reference to the validity cell that combines them. It is never printed or
    valued as it is.
    """

    body: Expr

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        raise TypeError("a guard is resolved by the model before it is printed")

    def value(self, env: Env) -> Value:
        raise TypeError("a guard is resolved by the model before it is valued")

    def children(self) -> tuple[Expr, ...]:
        return (self.body,)

    def rebuilt(self, children: Sequence[Expr]) -> Expr:
        return Guard(children[0])


@dataclass(frozen=True)
class Problems(Expr):
    """A check: the message of the first condition that fails, or OK.

    ``conds`` hold when all is well; ``messages`` are what to say when each does
    not (a text, or a tree that quotes figures). The model writes it as
    ``INDEX(Messages, k)``: ``k`` the number of the first failing condition's
    message in the workbook's table of messages (1 is OK), so the formula is
    short and the same in both editions. A condition that is an error itself
    reads as the first message: the value is not a usable number.
    """

    conds: tuple[Expr, ...]
    messages: tuple[Text | Expr, ...]

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        raise TypeError("a check's messages are numbered by the model first")

    def value(self, env: Env) -> Value:
        raise TypeError("a check's messages are numbered by the model first")

    def children(self) -> tuple[Expr, ...]:
        return (*self.conds, *(m for m in self.messages if isinstance(m, Expr)))

    def rebuilt(self, children: Sequence[Expr]) -> Expr:
        n = len(self.conds)
        conds, rest = tuple(children[:n]), iter(children[n:])
        messages = tuple(
            next(rest) if isinstance(m, Expr) else m for m in self.messages
        )
        return Problems(conds, messages)


@dataclass(frozen=True)
class Refs(Expr):
    """Cells read one by one, as a function's arguments (``MAX(C5:C9,C12)``):
    printed in the order the sheets hold them, a column's neighbours merged into
    a range; valued as a column of their values."""

    cells: tuple[str, ...]

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        refs = [ctx.ref(n) for n in self.cells]
        assert all(isinstance(r, str) for r in refs), self.cells
        return ",".join(merged(refs)), ATOM  # type: ignore[arg-type]

    def value(self, env: Env) -> Value:
        return Range.column([env[n] for n in self.cells])


_A1 = re.compile(r"^(?P<sheet>.*!)?(?P<col>\$?[A-Z]{1,3})\$?(?P<row>[0-9]+)$")


def _one_range(refs: Sequence[str]) -> bool:
    """Whether cell references, in order, are one row's or one column's
    neighbours: what ``first:last`` reads."""
    cells = [_A1.match(r) for r in refs]
    if not all(cells):
        return len(refs) == 1
    at = [(m["sheet"] or "", column_index_from_string(m["col"].lstrip("$")),
           int(m["row"])) for m in cells if m]  # fmt: skip
    if len({a[0] for a in at}) != 1:
        return False
    rows = [a[2] for a in at]
    cols = [a[1] for a in at]
    down = len(set(cols)) == 1 and rows == list(range(rows[0], rows[0] + len(rows)))
    across = len(set(rows)) == 1 and cols == list(range(cols[0], cols[0] + len(cols)))
    return down or across


def merged(refs: Sequence[str]) -> list[str]:
    """References in sheet order, neighbours in a column written as one range:
    ``["C5", "C6", "C7", "C9"]`` gives ``["C5:C7", "C9"]``. Names stay as they are."""
    cells: set[tuple[str, int, str, int]] = set()
    names: set[str] = set()
    for r in refs:
        m = _A1.match(r)
        if m is None:
            names.add(r)
            continue
        col = m["col"].lstrip("$")
        cells.add((m["sheet"] or "", len(col), col, int(m["row"])))
    runs: list[list[object]] = []  # [sheet, column, first row, last row]
    for sheet, _, col, row in sorted(cells):
        if runs and runs[-1][:2] == [sheet, col] and runs[-1][3] == row - 1:
            runs[-1][3] = row
        else:
            runs.append([sheet, col, row, row])
    out = [f"{s}{c}{a}" + (f":{c}{b}" if b != a else "") for s, c, a, b in runs]
    return out + sorted(names)


class Span(Expr):
    """Cells of one sheet in a row or a column, read as one range: printed as
    ``C40:C69`` (its first and last cells), its value theirs, in order."""

    def __init__(
        self, names: list[str], across: bool = False, anchored: bool = False
    ) -> None:
        self.cells, self.across, self.anchored = names, across, anchored

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        refs = [ctx.ref(n) for n in self.cells]
        assert all(isinstance(r, str) for r in refs), self.cells
        if not _one_range(refs):  # type: ignore[arg-type]
            raise ValueError(f"cells {refs[0]} to {refs[-1]} are no one range")
        first, last = refs[0], refs[-1]
        if self.anchored:  # from a fixed first cell: $B$20:C20, copied across
            m = _A1.match(first)  # type: ignore[arg-type]
            assert m is not None, first
            first = f"{m['sheet'] or ''}${m['col'].lstrip('$')}${m['row']}"
        return f"{first}:{last.split('!')[-1]}", ATOM  # type: ignore[union-attr]

    def value(self, env: Env) -> Value:
        values = [env[n] for n in self.cells]
        return Range.row(values) if self.across else Range.column(values)


__all__ = [
    "UpTo",
    "AS_WRITTEN",
    "FALSE",
    "ONE",
    "TRUE",
    "Array",
    "Call",
    "Ctx",
    "Env",
    "Expr",
    "F",
    "Fn",
    "Guard",
    "Lit",
    "Neg",
    "Omitted",
    "Op",
    "Problems",
    "Ref",
    "Refs",
    "Say",
    "Span",
    "Whole",
    "call",
    "column_name",
    "lift",
    "merged",
]
