"""Library expressions as trees: parsed, written out for one use, folded.

:func:`parse` reads a formula's text (a library function's ``excel=``, a cell's
formula) into a tree with openpyxl's tokenizer; :func:`inline` writes a
:class:`~xlfuncs.templates.expr.Call` out as its function's expression, with the
arguments bound, sibling calls written out or read from a cell that holds them,
``OMITTED`` decided and constant tests folded away; :func:`bind` does the same
for a LAMBDA's body, its parameters bound to the LAMBDA's.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any

from openpyxl.formula import Tokenizer

from ..registry import REGISTRY
from ..registry.excel import ExcelFunction, Functions
from ..registry.formula import excel_functions
from . import semantics as S
from .expr import (
    FALSE,
    ONE,
    TRUE,
    Array,
    Call,
    Ctx,
    Env,
    Expr,
    Fn,
    Lit,
    Neg,
    Omitted,
    Op,
    Ref,
    lift,
)
from .semantics import XlError

ZERO = Lit(0.0)


def parse(text: str, functions: Functions | None = None) -> Expr:
    """A formula's text as a tree; calls of ``functions`` become :class:`Call`."""
    if functions is None:  # the library's: the same text is the same tree
        return _parse_library(text)
    return _parse(text, functions)


@functools.cache
def _parse_library(text: str) -> Expr:
    return _parse(text, _functions())


def _parse(text: str, known: Functions) -> Expr:
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


class Held(Mapping[Call, Expr]):
    """The library calls cells hold, read from those cells where another
    formula would write the call out again: a call exactly (a result's tree), or
    any call of a function (a cell holding it for formulas that call it with one
    set of arguments, a serving replica's batch), then ``parent``'s."""

    def __init__(
        self,
        calls: Mapping[Call, Expr] | None = None,
        functions: Mapping[str, Expr] | None = None,
        parent: Mapping[Call, Expr] | None = None,
    ) -> None:
        self.calls = dict(calls or {})
        self.functions = dict(functions or {})
        self.parent: Mapping[Call, Expr] = parent if parent is not None else {}

    def __contains__(self, call: object) -> bool:
        return (getattr(call, "function", None) in self.functions or call in self.calls
                or call in self.parent)  # fmt: skip

    def __getitem__(self, call: Call) -> Expr:
        if call.function in self.functions:
            return self.functions[call.function]
        if call in self.calls:
            return self.calls[call]
        return self.parent[call]

    def __iter__(self) -> Iterator[Call]:
        yield from self.calls
        yield from self.parent

    def __len__(self) -> int:
        return len(self.calls) + len(self.functions) + len(self.parent)


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
    return fold(
        _expand(call_, {}, {}, functions, {} if reuse is None else reuse, top=True)
    )


def rename(e: Expr, names: Mapping[str, str]) -> Expr:
    """``e`` with the names of ``names`` renamed (a sub-tree it holds twice,
    such as a check guarding several cells, renamed once)."""
    if not names:
        return e
    done: dict[int, tuple[Expr, Expr]] = {}  # each node kept, so its id stays its

    def renamed(e: Expr) -> Expr:
        if id(e) in done:
            return done[id(e)][1]
        if isinstance(e, Ref):
            out: Expr = Ref(names[e.name]) if e.name in names else e
        else:
            kids = e.children()
            new = [renamed(c) for c in kids]
            same = all(a is b for a, b in zip(new, kids))
            out = e if same else e.rebuilt(new)
        done[id(e)] = (e, out)
        return out

    return renamed(e)


def renamed_call(call: Call, names: Mapping[str, str]) -> Call:
    """A library call with the names of ``names`` renamed in its arguments."""
    return Call(call.function, tuple(rename(a, names) for a in call.args))


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
    CHOOSE of a known choice, IF of two like branches, ``*1``, ``/1`` and
    an arithmetic ``+0``."""
    done: dict[int, tuple[Expr, Expr]] = {}  # a sub-tree bound twice, folded once

    def folded(e: Expr) -> Expr:
        if id(e) not in done:
            done[id(e)] = (e, _fold_node(e, [folded(c) for c in e.children()]))
        return done[id(e)][1]

    return folded(e)


def _fold_node(e: Expr, kids: list[Expr]) -> Expr:
    """``e`` with its folded children, folded itself."""
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
        # x+0 is x only for arithmetic: INDEX(…)+0 turns a blank or a text
        # into a number or #VALUE!, on purpose.
        if e.op in ("+", "-") and e.right == ZERO and isinstance(e.left, (Op, Neg)):
            return e.left
    if (
        isinstance(e, Fn)
        and e.name == "IF"
        and len(e.args) == 3
        and e.args[1] == e.args[2]
    ):
        return e.args[1]  # the same either way: /IF(ZeroStage>=3,1,1) at one GPU
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


class Writing(Ctx):
    """Prints library calls written out, as a cell needs them; names as
    themselves (:class:`~xlfuncs.templates.model.SheetCtx` reads cells)."""

    keep_calls = False

    def written_out(self, call: Call) -> Expr:
        return inline(call, reuse=self.reuse)


PLAIN = Writing()

__all__ = ["PLAIN", "Writing", "bind", "fold", "inline", "nesting", "parse"]
