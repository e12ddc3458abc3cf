"""Formula text as a tree, read with openpyxl's tokenizer.

:func:`parse` reads what Excel stores (``=IF(A1>0,A1,0)``, a defined name's
text, a LAMBDA's body) into :mod:`~xlfuncs.excel.tree` nodes: the names of
``functions`` (library functions) become :class:`~xlfuncs.excel.tree.Call`,
every other function :class:`~xlfuncs.excel.tree.Fn`, ``OMITTED(x)`` an
:class:`~xlfuncs.excel.tree.Omitted`. Postfix ``%`` is a division by 100, as
Excel reads it.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any

from openpyxl.formula import Tokenizer

from .tree import Array, Call, Expr, Fn, Lit, Neg, Omitted, Op, Ref
from .values import XlError


def parse(text: str, functions: Collection[str] = ()) -> Expr:
    """A formula's text as a tree; calls of ``functions`` become :class:`Call`."""
    return _parse(text, frozenset(functions))


@functools.lru_cache(maxsize=4096)
def _parse(text: str, known: frozenset[str]) -> Expr:
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

    def __init__(self, tokens: list[Any], functions: Collection[str]) -> None:
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


__all__ = ["parse"]
