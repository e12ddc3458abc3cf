"""Excel formulas as a tree: one definition prints the formula and computes its value.

Every formula the workbooks hold is a tree of :class:`Expr` nodes: built by a
template (``Ref("TrainingHours") / 24``, ``F.IF(…)``) or parsed from a library
function's Excel expression (``@formula(excel=…)``) with openpyxl's tokenizer.
:meth:`Expr.excel` prints it as Excel stores it; :meth:`Expr.value` computes what
Excel computes from it (the rules are in :mod:`~xlfuncs.templates.semantics`). So
the cached value of a cell and its formula cannot disagree: there is no second,
hand-written Python version of a sheet formula.

A :class:`Call` is a library function applied to sub-trees. It prints as the
function's Excel expression written out (:func:`inline`: arguments bound, sibling
calls written out or read from a cell that holds them, constant tests folded
away), and its value is the Python library's: the one answer the API, the CLI,
the cells and the LAMBDAs give, and which the tests prove the expression equal to.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

from openpyxl.formula import Tokenizer

from ..registry import REGISTRY, InputError
from ..registry.excel import ExcelFunction, Functions, literal, xl
from ..registry.formula import excel_functions
from . import semantics as S
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
    to write in its place) and which calls a cell already holds (``reuse``)."""

    reuse: Mapping[Call, Expr] = {}
    lang: str = "en"  # the edition whose words :class:`Say` prints
    #: Print library calls as calls (``FT_THROUGHPUT(…)``), as their expressions
    #: are written, rather than written out.
    keep_calls: bool = False

    def ref(self, name: str) -> str | Expr:
        return name

    def written_out(self, call: Call) -> Expr:
        return inline(call, reuse=self.reuse)


PLAIN = Ctx()


class _AsWritten(Ctx):
    keep_calls = True


AS_WRITTEN = _AsWritten()


class Expr:
    """A node. Arithmetic and comparison operators build larger trees."""

    prec: ClassVar[int] = ATOM

    def excel(self, ctx: Ctx = PLAIN) -> str:
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
        try:
            return float(REGISTRY[self.function].api(*values))
        except InputError as err:
            return XlError(err.code)

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


# ------------------------------------------------------------------ parsing


def parse(text: str, functions: Functions | None = None) -> Expr:
    """A formula's text as a tree; calls of ``functions`` become :class:`Call`."""
    known = _functions() if functions is None else functions
    tokens = [
        t
        for t in Tokenizer(text if text.startswith("=") else "=" + text).items
        if t.type != "WHITE-SPACE"
    ]
    parser = _Parser(tokens, known)
    tree = parser.expression()
    if parser.pos != len(tokens):
        raise ValueError(f"unexpected {tokens[parser.pos].value!r} in {text!r}")
    return tree


class _Parser:
    LEVELS = (("=", "<>", "<", "<=", ">", ">="), ("&",), ("+", "-"), ("*", "/"), ("^",))

    def __init__(self, tokens: list[Any], functions: Functions) -> None:
        self.tokens, self.functions, self.pos = tokens, functions, 0

    def peek(self) -> Any:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> Any:
        self.pos += 1
        return self.tokens[self.pos - 1]

    def expression(self, level: int = 0) -> Expr:
        if level == len(self.LEVELS):
            return self.unary()
        left = self.expression(level + 1)
        while (t := self.peek()) and t.type == "OPERATOR-INFIX":
            if t.value not in self.LEVELS[level]:
                break
            self.take()
            left = Op(t.value, left, self.expression(level + 1))
        return left

    def unary(self) -> Expr:
        t = self.peek()
        if t is not None and t.type == "OPERATOR-PREFIX":
            self.take()
            arg = self.unary()
            return Neg(arg) if t.value == "-" else arg
        return self.primary()

    def primary(self) -> Expr:
        t = self.take()
        if t.type == "OPERAND":
            return self.operand(t)
        if t.type == "PAREN":
            inner = self.expression()
            self.take()  # ")"
            return inner
        if t.type == "ARRAY":
            return self.array()
        if t.type == "FUNC":
            return self.function(t.value[:-1])
        raise ValueError(f"unexpected {t.value!r}")

    def operand(self, t: Any) -> Expr:
        if t.subtype == "NUMBER":
            return Lit(float(t.value))
        if t.subtype == "TEXT":
            return Lit(t.value[1:-1].replace('""', '"'))
        if t.subtype == "LOGICAL":
            return Lit(t.value.upper() == "TRUE")
        if t.subtype == "ERROR":
            return Lit(XlError(t.value))
        return Ref(t.value)

    def arguments(self) -> list[Expr]:
        args: list[Expr] = []
        if (t := self.peek()) is not None and t.subtype == "CLOSE":
            self.take()
            return args
        while True:
            args.append(self.expression())
            t = self.take()
            if t.subtype == "CLOSE":
                return args

    def function(self, raw: str) -> Expr:
        name = raw.upper()
        for prefix in ("_XLFN._XLWS.", "_XLFN."):
            name = name.removeprefix(prefix)
        args = self.arguments()
        if name == "OMITTED":
            (arg,) = args
            assert isinstance(arg, Ref)
            return Omitted(arg.name)
        if name in self.functions:
            return Call(name, tuple(args))
        return Fn(name, tuple(args))

    def array(self) -> Expr:
        rows: list[tuple[Lit, ...]] = []
        row: list[Lit] = []
        while True:
            t = self.take()
            if t.type == "ARRAY" and t.subtype == "CLOSE":
                rows.append(tuple(row))
                return Array(tuple(rows))
            if t.type == "SEP":
                if t.subtype == "ROW":
                    rows.append(tuple(row))
                    row = []
                continue
            lit = self.operand(t)
            assert isinstance(lit, Lit), t.value
            row.append(lit)


# ------------------------------------------------------------------ writing out


@functools.cache
def _body(name: str, expr: str) -> Expr:
    return parse(expr, _functions())


def _functions() -> Functions:
    """The registry's Excel expressions, made again only when it grows."""
    if _SEEN[0] != len(REGISTRY):
        _FUNCTIONS.clear()
        _FUNCTIONS.update(excel_functions())
        _SEEN[0] = len(REGISTRY)
    return _FUNCTIONS


_FUNCTIONS: dict[str, ExcelFunction] = {}
_SEEN = [0]  # the registry's size when _FUNCTIONS was made


def inline(
    call_: Call,
    *,
    reuse: Mapping[Call, Expr] | None = None,
    functions: Functions | None = None,
) -> Expr:
    """``call_`` as its function's Excel expression written out: arguments bound,
    sibling calls written out too (or replaced through ``reuse`` by a cell that
    holds them), OMITTED decided and constant tests folded away."""
    functions = _functions() if functions is None else functions
    return fold(_expand(call_, {}, {}, functions, reuse or {}, top=True))


def bind(
    body: Expr,
    bindings: Mapping[str, Expr],
    omitted: Mapping[str, Expr],
    functions: Functions | None = None,
) -> Expr:
    """A library expression with its parameters bound (a LAMBDA's body): each
    name to a tree, each ``OMITTED(x)`` to a test; sibling calls written out."""
    functions = _functions() if functions is None else functions
    return fold(_expand(body, bindings, omitted, functions, {}, top=False))


def _expand(
    e: Expr,
    bindings: Mapping[str, Expr],
    omitted: Mapping[str, Expr],
    functions: Functions,
    reuse: Mapping[Call, Expr],
    top: bool = False,
) -> Expr:
    if isinstance(e, Ref):
        return bindings.get(e.name, e)
    if isinstance(e, Omitted):
        return omitted[e.param]
    if not isinstance(e, Call):
        kids = [_expand(c, bindings, omitted, functions, reuse) for c in e.children()]
        return e.rebuilt(kids)
    args = tuple(_expand(a, bindings, omitted, functions, reuse) for a in e.args)
    here = Call(e.function, args)
    if not top and here in reuse:
        return reuse[here]
    spec: ExcelFunction = functions[e.function]
    inner: dict[str, Expr] = {}
    inner_omitted: dict[str, Expr] = {}
    for k, p in enumerate(spec.params):
        raw = e.args[k] if k < len(e.args) else None
        if isinstance(raw, Ref) and raw.name in omitted:  # passed through
            inner[p], inner_omitted[p] = args[k], omitted[raw.name]
        elif raw is not None:
            inner[p], inner_omitted[p] = args[k], FALSE
        elif spec.defaults.get(p) is not None:
            inner[p], inner_omitted[p] = lift(spec.defaults[p]), TRUE  # type: ignore[arg-type]
        else:
            inner[p], inner_omitted[p] = Lit(0), TRUE
    body = _body(e.function, spec.expr)
    return _expand(body, inner, inner_omitted, functions, reuse)


def _known(e: Expr) -> bool:
    return isinstance(e, Lit) and not isinstance(e.value_, (str, XlError))


def _constant(e: Expr) -> bool:
    """A literal, or a function of literals whose value is known as the file is
    written (not FIXED, whose separators are the reader's)."""
    if isinstance(e, (Lit, Array)):
        return True
    return (
        isinstance(e, Fn)
        and e.name in S.FUNCTIONS
        and e.name not in S.LOCAL
        and bool(e.args)
        and all(map(_constant, e.args))
        and not (e.name in S.TEXTUAL and _known(e.args[0]))
    )


def _visible(v: object) -> bool:
    """A text that reads the same typed into a formula: a tab or a no-break
    space stays CHAR(9) or UNICHAR(160), never an invisible literal."""
    return not isinstance(v, str) or v.isprintable()


#: What comparing a tree with itself gives (it cannot be an error where the
#: templates and LAMBDAs use it: their arguments are checked first).
_SELF = {"=": True, "<>": False, "<": False, ">": False, "<=": True, ">=": True}


def fold(e: Expr) -> Expr:
    """Constant parts computed, so that no formula carries dead logic such as
    ``/IF(0>=3,1,1)`` or a look-up of a literal: arithmetic and comparisons of
    known values, a tree compared with itself, functions of literals, IF and
    CHOOSE of a known choice, ``*1`` and ``/1``."""
    kids = [fold(c) for c in e.children()]
    e = e.rebuilt(kids) if kids else e
    empty = Env()
    if isinstance(e, Op):
        if _known(e.left) and _known(e.right):
            v = e.value(empty)
            if isinstance(v, (bool, float)):
                return Lit(v)
        if e.op in _SELF and e.left == e.right:
            return Lit(_SELF[e.op])
        if e.op in ("*", "/") and e.right == ONE:
            return e.left
        if e.op == "*" and e.left == ONE:
            return e.right
    if isinstance(e, Fn) and e.args:
        head = e.args[0]
        if e.name in ("IF", "CHOOSE") and _constant(head):
            pick = head.value(empty)
            if e.name == "IF":
                test = S.truth(pick)
                if isinstance(test, bool):
                    k = 1 if test else 2
                    return e.args[k] if k < len(e.args) else Lit(test)
            elif isinstance(pick, float) and 1 <= pick < len(e.args):
                return e.args[int(pick)]
        if _constant(e):
            v = e.value(empty)
            if isinstance(v, (bool, float, str)) and _visible(v):
                return Lit(v)
    return e


def nesting(e: Expr) -> int:
    """Levels of nested function calls (Excel allows 64)."""
    below = max((nesting(c) for c in e.children()), default=0)
    return below + 1 if isinstance(e, Fn) else below


__all__ = [
    "AS_WRITTEN",
    "FALSE",
    "PLAIN",
    "TRUE",
    "Array",
    "Call",
    "Ctx",
    "Env",
    "Expr",
    "F",
    "Fn",
    "Lit",
    "Neg",
    "Omitted",
    "Op",
    "Ref",
    "Say",
    "bind",
    "call",
    "fold",
    "inline",
    "lift",
    "nesting",
    "parse",
]
