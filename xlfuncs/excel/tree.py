"""Excel formulas as trees: one definition prints the formula and computes its value.

A formula is a tree of :class:`Expr` nodes, built in Python (``Ref("Hours") /
24``, ``F.IF(…)``), parsed from text (:mod:`~xlfuncs.excel.parse`), or declared
as a library function's parts (:mod:`xlfuncs.registry.formula`).
:meth:`Expr.excel` prints it as Excel stores it; :meth:`Expr.value` computes what
Excel computes from it (the rules are in :mod:`~xlfuncs.excel.values` and
:mod:`~xlfuncs.excel.builtins`). So the cached value of a cell and its formula
cannot disagree: there is no second, hand-written version of a formula.

A :class:`Call` is a library function applied to sub-trees: printed as a call
where a library expression is written, written out as the function's parts by
whoever prints it for a cell (it has no value of its own).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol, TypeAlias

from . import builtins as S
from . import criteria, dates  # noqa: F401  (register SUMIF, LARGE and dates)
from .values import Range, Value, XlError, arithmetic, literal, xl

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


class Python(Protocol):
    """What prints a tree as Python (:class:`xlfuncs.excel.compile.Gen`): each
    node asks it for the text of its kind."""

    @property
    def scalar(self) -> bool:
        """True for plain floats, False for numpy arrays."""
        ...

    @property
    def selected(self) -> bool:
        """True where the code runs only if its value is used (not in np.where)."""
        ...

    def literal(self, value: float | str | bool | XlError) -> str: ...
    def name(self, name: str) -> str: ...
    def operator(self, op: str, left: Expr, right: Expr) -> str: ...
    def negated(self, arg: Expr) -> str: ...
    def function(self, name: str, args: tuple[Expr, ...]) -> str: ...
    def omitted(self, param: str) -> str: ...
    def call(self, function: str, args: tuple[Expr, ...]) -> str: ...
    def bound(self, obj: object, hint: str) -> str: ...
    def __call__(self, e: Expr) -> str: ...


#: Whether a library function's body is being traced (xlfuncs.registry.formula):
#: a tree then has no truth value, and a Python ``if`` on one is a mistake.
TRACING = [False]


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

    def python(self, gen: Python) -> str:
        """The same formula as a Python expression (a library function's body,
        compiled by :mod:`~xlfuncs.excel.compile`)."""
        raise TypeError(f"{type(self).__name__} has no Python form")

    def __bool__(self) -> bool:
        if TRACING[0]:
            raise TypeError(
                "a formula's value is not known while its body is traced: "
                "write where(cond, a, b), not a Python if"
            )
        return True

    def children(self) -> tuple[Expr, ...]:
        return ()

    def rebuilt(self, children: Sequence[Expr]) -> Expr:
        return self

    def walk(self) -> Iterator[Expr]:
        """Every node, in pre-order (a shared sub-tree once per place)."""
        stack: list[Expr] = [self]
        while stack:  # a stack, not nested generators: the trees are deep
            e = stack.pop()
            yield e
            kids = e.children()
            if kids:
                stack.extend(reversed(kids))

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

    # x < y builds a tree too (a library function's body reads like numpy);
    # x == y stays Python's equality of trees: write x.eq(y).
    def __lt__(self, o: Operand) -> Expr:
        return Op("<", self, lift(o))

    def __le__(self, o: Operand) -> Expr:
        return Op("<=", self, lift(o))

    def __gt__(self, o: Operand) -> Expr:
        return Op(">", self, lift(o))

    def __ge__(self, o: Operand) -> Expr:
        return Op(">=", self, lift(o))

    def cat(self, *others: Operand) -> Expr:
        out: Expr = self
        for o in others:
            out = Op("&", out, lift(o))
        return out


Operand: TypeAlias = "Expr | float | int | str | bool | Liftable"


class Liftable(Protocol):
    """A value that stands for a node of its own (a text in both editions is
    the words of the edition a formula is printed for)."""

    def expr_node(self) -> Expr: ...


def lift(v: Operand) -> Expr:
    """A literal as a node, a node as itself, anything else by its own
    ``expr_node``."""
    if isinstance(v, Expr):
        return v
    if isinstance(v, (bool, int, float, str, XlError)):
        return Lit(v)
    return v.expr_node()


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

    def python(self, gen: Python) -> str:
        v = self.value_
        if isinstance(v, int) and not isinstance(v, bool):
            return gen.literal(float(v))
        return gen.literal(v)


@dataclass(frozen=True)
class Ref(Expr):
    """A name: a row of a template, a reference table, a LAMBDA parameter."""

    name: str

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        target = ctx.ref(self.name)
        return (target, ATOM) if isinstance(target, str) else target.printed(ctx)

    def value(self, env: Env) -> Value:
        return env[self.name]

    def python(self, gen: Python) -> str:
        return gen.name(self.name)


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
        return arithmetic(self.op, left, right, env.lang)

    def python(self, gen: Python) -> str:
        return gen.operator(self.op, self.left, self.right)

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
        return arithmetic("-", 0.0, self.arg.value(env))

    def python(self, gen: Python) -> str:
        return gen.negated(self.arg)

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

    def python(self, gen: Python) -> str:
        return gen.function(self.name, self.args)

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

    def python(self, gen: Python) -> str:
        return gen.omitted(self.param)


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
        raise TypeError(
            f"{self.function}(…) is written out as its expression before it is valued"
        )

    def python(self, gen: Python) -> str:
        return gen.call(self.function, self.args)

    def children(self) -> tuple[Expr, ...]:
        return self.args

    def rebuilt(self, children: Sequence[Expr]) -> Expr:
        return Call(self.function, tuple(children))


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
    "ONE",
    "TRUE",
    "Array",
    "Call",
    "Ctx",
    "Env",
    "Expr",
    "F",
    "Fn",
    "Liftable",
    "Lit",
    "Neg",
    "Omitted",
    "Op",
    "Python",
    "Ref",
    "TRACING",
    "call",
    "lift",
]
