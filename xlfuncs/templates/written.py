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
from collections.abc import Callable, Iterator, Mapping

from ..excel.ops import Fail
from ..excel.parse import parse as _parse
from ..excel.rewrite import fold, nesting
from ..registry import REGISTRY
from ..registry.excel import ExcelFunction, Functions
from ..registry.formula import excel_functions
from .expr import (
    FALSE,
    TRUE,
    Call,
    Ctx,
    Expr,
    Fn,
    Lit,
    Omitted,
    Op,
    Ref,
    lift,
)


def parse(text: str, functions: Functions | None = None) -> Expr:
    """A formula's text as a tree; calls of ``functions`` (the library's by
    default) become :class:`Call`."""
    known = _functions() if functions is None else functions
    return _parse(text, tuple(known))


# ------------------------------------------------------------------ writing out


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
    body = spec.expr
    return _expand(body, inner, inner_omitted, functions, reuse)


def can_fail(function: str) -> bool:
    """Whether a library function can give an error for valid arguments (no
    batch meets a latency, no number of GPUs holds a model): its expression,
    or a sibling's it calls, has a refusal of its own."""
    return _can_fail(function, len(REGISTRY))


@functools.cache
def _can_fail(function: str, _size: int) -> bool:
    for x in _functions()[function].expr.walk():
        if isinstance(x, Fail):
            return True
        if isinstance(x, Call) and x.function != function and can_fail(x.function):
            return True
    return False


def held_functions(held: Held) -> dict[str, str]:
    """The cells of ``held`` by name, each with the function whose call it holds."""
    out = {r.name: f for f, r in held.functions.items() if isinstance(r, Ref)}
    out.update(
        {r.name: c.function for c, r in held.calls.items() if isinstance(r, Ref)}
    )
    return out


#: Functions that pass over text in a reference: a cell showing n/a (text)
#: where its calculation failed would be skipped, as if it held no figure.
_SKIP_TEXT = frozenset(
    {
        "SUM",
        "MIN",
        "MAX",
        "AVERAGE",
        "PRODUCT",
        "LARGE",
        "SMALL",
        "MEDIAN",
        "SUMPRODUCT",
    }
)


def numeric_reads(e: Expr, may_fail: Callable[[str], bool]) -> Expr:
    """``e`` with each cell that can show n/a (its calculation failed) read as
    #N/A where it is read as a figure that text would not stop: an argument of
    a function that passes over text, or the least or most of two written
    ``IF(a<b,a,b)`` (a number is less than any text). The error is the one
    the calculation gave, and the reader's own guard then names it: a latency
    batch no batch meets must not leave the memory batch as the least."""

    def numeric(a: Expr) -> Expr:
        if isinstance(a, Ref) and may_fail(a.name):
            return Fn("IF", (Fn("ISNUMBER", (a,)), a, Fn("NA", ())))
        return a

    def visit(x: Expr) -> Expr:
        kids = x.children()
        if not kids:
            return x
        new = [visit(c) for c in kids]
        if isinstance(x, Fn) and x.name in _SKIP_TEXT:
            new = [numeric(a) for a in new]
        elif isinstance(x, Fn) and x.name == "IF" and len(new) == 3:
            test, yes, no = new
            if (isinstance(test, Op) and test.op in _ORDER
                    and {test.left, test.right} == {yes, no}):  # fmt: skip
                a, b = numeric(test.left), numeric(test.right)
                pair = {test.left: a, test.right: b}
                new = [Op(test.op, a, b), pair[yes], pair[no]]
        return x if all(a is b for a, b in zip(new, kids)) else x.rebuilt(new)

    return visit(e)


_ORDER = frozenset({"<", ">", "<=", ">="})


class Writing(Ctx):
    """Prints library calls written out, as a cell needs them; names as
    themselves (:class:`~xlfuncs.templates.model.SheetCtx` reads cells)."""

    keep_calls = False

    def written_out(self, call: Call) -> Expr:
        return inline(call, reuse=self.reuse)


PLAIN = Writing()

__all__ = [
    "PLAIN",
    "Writing",
    "bind",
    "fold",
    "inline",
    "can_fail",
    "held_functions",
    "nesting",
    "numeric_reads",
    "parse",
]
