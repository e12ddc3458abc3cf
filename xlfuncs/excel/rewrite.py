"""Trees rewritten: names renamed, constant parts folded, nesting counted.

:func:`fold` computes what is known when a formula is written, so that no
formula carries dead logic (``/IF(0>=3,1,1)``, a look-up of a literal);
:func:`rename` points names at other names (a field read in one row);
:func:`nesting` counts the levels of nested functions Excel limits to 64.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import builtins as S
from .tree import ONE, Array, Env, Expr, Fn, Lit, Neg, Op, Ref
from .values import XlError, truth

ZERO = Lit(0.0)


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


#: Excel's functions that give TRUE or FALSE.
_BOOLEAN = {"AND", "OR", "NOT", "TRUE", "FALSE", "XOR", "ISOMITTED"}


def _boolean(e: Expr) -> bool:
    """Whether ``e`` may be TRUE or FALSE, not a number: a comparison, a test."""
    if isinstance(e, Op):
        return e.op in _SELF
    if isinstance(e, Lit):
        return isinstance(e.value_, bool)
    return isinstance(e, Fn) and (e.name in _BOOLEAN or e.name.startswith("IS"))


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
        # x*1 is x only for a number: ISNUMBER(r)*1 makes TRUE a 1 that SUM adds.
        if e.op in ("*", "/") and e.right == ONE and not _boolean(e.left):
            return e.left
        if e.op == "*" and e.left == ONE and not _boolean(e.right):
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
                test = truth(pick)
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


def substituted(e: Expr, trees: Mapping[str, Expr]) -> Expr:
    """``e`` with each name of ``trees`` replaced by its tree (a look-up's
    expression over its own argument names, given the caller's arguments). A
    sub-tree shared by several places is rewritten once: written out, such
    trees grow exponentially."""
    if not trees:
        return e
    done: dict[
        int, tuple[Expr, Expr]
    ] = {}  # keeps each node alive while its id is a key

    def sub(x: Expr) -> Expr:
        if id(x) not in done:
            if isinstance(x, Ref):
                out = trees.get(x.name, x)
            else:
                kids = x.children()
                new = [sub(c) for c in kids]
                same = all(a is b for a, b in zip(new, kids))
                out = x if same else x.rebuilt(new)
            done[id(x)] = (x, out)
        return done[id(x)][1]

    return sub(e)


__all__ = ["ZERO", "fold", "nesting", "rename", "substituted"]
