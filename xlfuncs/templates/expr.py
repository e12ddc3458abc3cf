"""Excel formulas as a tree: one definition prints the formula and computes its value.

Every formula the workbooks hold is a tree of :class:`Expr` nodes: built by a
template (``Ref("TrainingHours") / 24``, ``F.IF(…)``) or parsed from a library
function's Excel expression (``@formula(excel=…)``) with openpyxl's tokenizer.
:meth:`Expr.excel` prints it as Excel stores it; :meth:`Expr.value` computes what
Excel computes from it (the rules are in :mod:`~xlfuncs.templates.semantics`). So
the cached value of a cell and its formula cannot disagree: there is no second,
hand-written Python version of a sheet formula.

A :class:`Call` is a library function applied to sub-trees. In a cell it prints
as the function's Excel expression written out
(:func:`~xlfuncs.templates.written.inline`: arguments bound, sibling calls
written out or read from a cell that holds them, constant tests folded away),
and its value is the Python library's: the one answer the API, the CLI,
the cells and the LAMBDAs give, and which the tests prove the expression equal to.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, TypeAlias

from openpyxl.utils import column_index_from_string

from ..registry import REGISTRY, InputError, UnusualValueWarning
from ..registry.excel import literal, xl
from . import semantics as S
from . import semantics_more  # noqa: F401  (registers SUMIF, LARGE and dates)
from .semantics import Range, Value, XlError
from .texts import Text

# Precedence, loosest first; Excel's negation binds tighter than ^ (-2^2 is 4).
CMP, CAT, ADD, MUL, POW, NEG, ATOM = range(7)
BINARY = {
    **dict.fromkeys(("=", "<>", "<", "<=", ">", ">="), CMP),
    "&": CAT,
    "+": ADD,
    "-": ADD,
    "*": MUL,
    "/": MUL,
    "^": POW,
}
#: Functions newer than Excel 2007, stored with this prefix (openpyxl adds none).
PREFIXED = {
    "UNICHAR": "_xlfn.",
    "PERCENTILE.INC": "_xlfn.",
    "LAMBDA": "_xlfn.",
    "ISOMITTED": "_xlfn.",
    "LET": "_xlfn.",
    "IFNA": "_xlfn.",
}


class Env:
    """What a tree's names are worth: ``values`` or ``lookup``, and the reader's
    language (FIXED's separators)."""

    def __init__(
        self,
        values: Mapping[str, Value] | None = None,
        lookup: Callable[[str], Value] | None = None,
        lang: str = "en",
    ) -> None:
        self.values = dict(values or {})
        self.lookup = lookup
        self.lang = lang

    def __getitem__(self, name: str) -> Value:
        if name in self.values:
            return self.values[name]
        if self.lookup is None:
            raise KeyError(name)
        return self.lookup(name)


class Ctx:
    """How a tree prints: what a name reads (a cell, a defined name, or a tree
    to write in its place) and how a library call is written. This one keeps
    calls as calls (``FT_THROUGHPUT(…)``), as library expressions are written;
    :class:`~xlfuncs.templates.written.Writing` writes them out for a cell."""

    reuse: Mapping[Call, Expr] = {}
    lang: str = "en"  # the edition whose words :class:`Say` prints
    keep_calls: bool = True

    def ref(self, name: str) -> str | Expr:
        return name

    def written_out(self, call: Call) -> Expr:
        raise TypeError(f"{call.function}(…) is only written out by a Writing context")


AS_WRITTEN = Ctx()


class Expr:
    """A node. Arithmetic and comparison operators build larger trees."""

    prec: ClassVar[int] = ATOM

    def excel(self, ctx: Ctx = AS_WRITTEN) -> str:
        """The formula text (no leading "=")."""
        return self.printed(ctx)[0]

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        raise NotImplementedError

    def value(self, env: Env) -> Value:
        raise NotImplementedError

    def children(self) -> tuple[Expr, ...]:
        return ()

    def rebuilt(self, children: Sequence[Expr]) -> Expr:
        return self

    def walk(self) -> Iterator[Expr]:
        yield self
        for c in self.children():
            yield from c.walk()

    def names(self) -> set[str]:
        """The names the tree reads."""
        return {e.name for e in self.walk() if isinstance(e, Ref)}

    # Building trees: x + 1, x / y, -x, x.ge(0), x.cat(" GB")
    def __add__(self, o: Operand) -> Expr:
        return Op("+", self, lift(o))

    def __radd__(self, o: Operand) -> Expr:
        return Op("+", lift(o), self)

    def __sub__(self, o: Operand) -> Expr:
        return Op("-", self, lift(o))

    def __rsub__(self, o: Operand) -> Expr:
        return Op("-", lift(o), self)

    def __mul__(self, o: Operand) -> Expr:
        return Op("*", self, lift(o))

    def __rmul__(self, o: Operand) -> Expr:
        return Op("*", lift(o), self)

    def __truediv__(self, o: Operand) -> Expr:
        return Op("/", self, lift(o))

    def __rtruediv__(self, o: Operand) -> Expr:
        return Op("/", lift(o), self)

    def __pow__(self, o: Operand) -> Expr:
        return Op("^", self, lift(o))

    def __neg__(self) -> Expr:
        return Neg(self)

    def eq(self, o: Operand) -> Expr:
        return Op("=", self, lift(o))

    def ne(self, o: Operand) -> Expr:
        return Op("<>", self, lift(o))

    def lt(self, o: Operand) -> Expr:
        return Op("<", self, lift(o))

    def le(self, o: Operand) -> Expr:
        return Op("<=", self, lift(o))

    def gt(self, o: Operand) -> Expr:
        return Op(">", self, lift(o))

    def ge(self, o: Operand) -> Expr:
        return Op(">=", self, lift(o))

    def cat(self, *others: Operand) -> Expr:
        out: Expr = self
        for o in others:
            out = Op("&", out, lift(o))
        return out


Operand: TypeAlias = "Expr | Text | float | int | str | bool"


def lift(v: Operand | Text) -> Expr:
    """A literal as a node (a Text as the edition's words); a node as itself."""
    if isinstance(v, Text):
        return Say(v)
    return v if isinstance(v, Expr) else Lit(v)


@dataclass(frozen=True)
class Lit(Expr):
    """A number, a text, TRUE/FALSE or an error value."""

    value_: float | int | str | bool | XlError
    # What kind of literal: TRUE is not 1 here, although True == 1 in Python.
    kind: type = field(init=False, repr=False)

    def __post_init__(self) -> None:
        v = self.value_
        kind = type(v) if isinstance(v, (bool, str, XlError)) else float
        object.__setattr__(self, "kind", kind)

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        v = self.value_
        if isinstance(v, bool):
            return ("TRUE" if v else "FALSE"), ATOM
        if isinstance(v, XlError):
            return v.code, ATOM
        if not isinstance(v, str) and v < 0:
            return xl(v), NEG
        return literal(v), ATOM

    def value(self, env: Env) -> Value:
        v = self.value_
        return float(v) if isinstance(v, int) and not isinstance(v, bool) else v


@dataclass(frozen=True)
class Say(Expr):
    """A text in the edition's language: a message, a unit, OK."""

    text: Text

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        return literal(self.text(ctx.lang)), ATOM

    def value(self, env: Env) -> Value:
        return self.text(env.lang)


@dataclass(frozen=True)
class Ref(Expr):
    """A name: a row of a template, a reference table, a LAMBDA parameter."""

    name: str

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        target = ctx.ref(self.name)
        return (target, ATOM) if isinstance(target, str) else target.printed(ctx)

    def value(self, env: Env) -> Value:
        return env[self.name]


@dataclass(frozen=True)
class Whole(Expr):
    """A table's whole column, read from one of its own rows (where the field's
    name means the row's cell): printed as the column's workbook name."""

    name: str

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        return self.name, ATOM

    def value(self, env: Env) -> Value:
        return env[column_name(self.name)]


def column_name(field: str) -> str:
    """The internal name of a table field's whole column, as :class:`Whole` reads it."""
    return f"{field}.column"


@dataclass(frozen=True)
class Op(Expr):
    op: str
    left: Expr
    right: Expr

    @property
    def prec(self) -> int:  # type: ignore[override]
        return BINARY[self.op]

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        p = BINARY[self.op]
        lt, lp = self.left.printed(ctx)
        rt, rp = self.right.printed(ctx)
        # Left to right, as Excel reads: a-(b-c) keeps its brackets, (a-b)-c not.
        lt = lt if lp >= p else f"({lt})"
        rt = rt if rp > p else f"({rt})"
        return f"{lt}{self.op}{rt}", p

    def value(self, env: Env) -> Value:
        left, right = self.left.value(env), self.right.value(env)
        return S.arithmetic(self.op, left, right, env.lang)

    def children(self) -> tuple[Expr, ...]:
        return (self.left, self.right)

    def rebuilt(self, children: Sequence[Expr]) -> Expr:
        return Op(self.op, children[0], children[1])


@dataclass(frozen=True)
class Neg(Expr):
    arg: Expr

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        t, p = self.arg.printed(ctx)
        return ("-" + (t if p >= NEG else f"({t})")), NEG

    def value(self, env: Env) -> Value:
        return S.arithmetic("-", 0.0, self.arg.value(env))

    def children(self) -> tuple[Expr, ...]:
        return (self.arg,)

    def rebuilt(self, children: Sequence[Expr]) -> Expr:
        return Neg(children[0])


@dataclass(frozen=True)
class Fn(Expr):
    """An Excel function, by its name without prefix (``UNICHAR``)."""

    name: str
    args: tuple[Expr, ...] = ()

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        inner = ",".join(a.printed(ctx)[0] for a in self.args)
        return f"{PREFIXED.get(self.name, '')}{self.name}({inner})", ATOM

    def value(self, env: Env) -> Value:
        impl = S.FUNCTIONS.get(self.name)
        if impl is None:
            raise NotImplementedError(f"no value for Excel's {self.name}")
        thunks = [functools.partial(a.value, env) for a in self.args]
        return impl(thunks, env.lang)

    def children(self) -> tuple[Expr, ...]:
        return self.args

    def rebuilt(self, children: Sequence[Expr]) -> Expr:
        return Fn(self.name, tuple(children))


@dataclass(frozen=True)
class Array(Expr):
    """An array constant, ``{"none","selective","full"}``."""

    rows: tuple[tuple[Lit, ...], ...]

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        rows = (",".join(v.excel(ctx) for v in row) for row in self.rows)
        return "{" + ";".join(rows) + "}", ATOM

    def value(self, env: Env) -> Value:
        return Range(tuple(tuple(v.value(env) for v in row) for row in self.rows))


@dataclass(frozen=True)
class Omitted(Expr):
    """``OMITTED(x)`` in a library expression: decided when it is written out."""

    param: str

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        if not ctx.keep_calls:
            raise ValueError(f"OMITTED({self.param}) must be decided before printing")
        return f"OMITTED({self.param})", ATOM


@dataclass(frozen=True)
class Call(Expr):
    """A library function (its Excel name) applied to trees; fewer arguments
    than it takes leave the rest to their defaults."""

    function: str
    args: tuple[Expr, ...] = field(default=())

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        if ctx.keep_calls:
            inner = ",".join(a.printed(ctx)[0] for a in self.args)
            return f"{self.function}({inner})", ATOM
        return ctx.written_out(self).printed(ctx)

    def value(self, env: Env) -> Value:
        values = []
        for a in self.args:
            v = a.value(env)
            if isinstance(v, XlError):
                return v
            values.append(v.flat() if isinstance(v, Range) else v)
        # A sheet warns of unusual inputs in its own check cells; the API's
        # unit-slip warning is not for whoever builds the workbook.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnusualValueWarning)
            try:
                return float(REGISTRY[self.function].api(*values))
            except InputError as err:
                return XlError(err.code)

    def children(self) -> tuple[Expr, ...]:
        return self.args

    def rebuilt(self, children: Sequence[Expr]) -> Expr:
        return Call(self.function, tuple(children))


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

    def __init__(self, names: list[str], across: bool = False) -> None:
        self.cells, self.across = names, across

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        refs = [ctx.ref(n) for n in self.cells]
        assert all(isinstance(r, str) for r in refs), self.cells
        if not _one_range(refs):  # type: ignore[arg-type]
            raise ValueError(f"cells {refs[0]} to {refs[-1]} are no one range")
        first, last = refs[0], refs[-1]
        return f"{first}:{last.split('!')[-1]}", ATOM  # type: ignore[union-attr]

    def value(self, env: Env) -> Value:
        values = [env[n] for n in self.cells]
        return Range.row(values) if self.across else Range.column(values)


def call(function: str, *args: Expr | str | float) -> Call:
    """``call("FT_COST", "GPUs", …)``: names read rows, numbers are literals."""
    return Call(
        function, tuple(Ref(a) if isinstance(a, str) else lift(a) for a in args)
    )


class _Functions:
    """``F.IF(a, b, c)``: Excel's functions as node builders."""

    def __getattr__(self, name: str) -> Callable[..., Fn]:
        excel = name.replace("_", ".")
        return lambda *args: Fn(excel, tuple(lift(a) for a in args))


F = _Functions()
TRUE, FALSE, ONE = Lit(True), Lit(False), Lit(1.0)


__all__ = [
    "AS_WRITTEN",
    "FALSE",
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
    "column_name",
    "call",
    "lift",
]
