"""Compute workbooks with the ``formulas`` package, an Excel engine nobody here wrote.

LibreOffice recalculates the templates; it cannot evaluate LAMBDA (Err:509), so
the LAMBDA library and the Excel expressions are computed by ``formulas``
(PyPI). What it reads differently from Excel is listed in ../shared/FACTS.md; the
one rewrite the tests need is :func:`for_formulas`, and ISNUMBER is given
Excel's meaning (below).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

formulas = pytest.importorskip("formulas")
from formulas.functions import info, is_number, wrap_ranges_func  # noqa: E402
from formulas.tokens.operand import XlError  # noqa: E402

# Excel's IS functions do not convert their argument: ISNUMBER("19") is FALSE
# (Microsoft's documentation of WorksheetFunction.IsNumber, Remarks; LibreOffice
# agrees). formulas 1.3.4 calls text that reads as a number ("8") a number; it
# gets Excel's ISNUMBER here, as it stands in Excel, so that the LAMBDAs need not
# test ISTEXT too and a LAMBDA that took "8" for 8 would fail the tests.
info.FUNCTIONS["ISNUMBER"] = wrap_ranges_func(
    functools.partial(
        info.iserror,
        check=lambda x: not isinstance(x, str) and is_number(x, xl_return=False),
        array=info.FalseArray,
    )
)

# formulas has no ISOMITTED and does not read _xlop. (an optional parameter). A
# call that leaves an argument out passes a cell never written, which is blank.
UNWRITTEN = "$ZZ$9999"


def for_formulas(text: str) -> str:
    """A LAMBDA stored as Excel stores it, as ``formulas`` can evaluate it.

    ``_xlop.k`` (an optional parameter) becomes ``_xlpm.k`` and
    ``_xlfn.ISOMITTED(k)`` becomes ``ISBLANK(k)``: the test then passes an
    unwritten cell for an omitted argument.
    """
    text = re.sub(r"_xlop\.", "_xlpm.", text)
    return text.replace("_xlfn.ISOMITTED(", "ISBLANK(")


def calculate(path: Path) -> dict[tuple[str, str], Any]:
    """Every cell's computed value: {(SHEET upper case, "A1"): value}."""
    return calculate_all(path)[0]


def calculate_all(
    path: Path,
) -> tuple[dict[tuple[str, str], Any], dict[tuple[str, str], Any]]:
    """Every cell's value, and every array formula's values as a 2-D array:
    ({(SHEET, "A1"): value}, {(SHEET, "H1:H3"): array}), from one load."""
    solution = formulas.ExcelModel().loads(str(path)).finish().calculate()
    cells: dict[tuple[str, str], Any] = {}
    ranges: dict[tuple[str, str], Any] = {}
    for key, value in solution.items():
        m = re.fullmatch(r"'\[[^\]]+\](.+)'!([A-Z]+\d+)(:[A-Z]+\d+)?", key)
        if m is None:
            continue
        if m.group(3):
            ranges[(m.group(1), m.group(2) + m.group(3))] = getattr(
                value, "value", value
            )
            continue
        v = value.value[0, 0] if hasattr(value, "value") else value
        cells[(m.group(1), m.group(2))] = v
    return cells, ranges


def is_error(value: Any, code: str | None = None) -> bool:
    return isinstance(value, XlError) and (code is None or str(value) == code)


def number(value: Any) -> float | None:
    """A computed number as a float, or None if it is an error or text."""
    if isinstance(value, (XlError, str)):
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def written_out(definitions: Mapping[str, str], limit: int = 8192) -> dict[str, str]:
    """The LAMBDAs with each call of another one written in its place and each
    LET variable written where it is read: ``formulas`` 1.3.4 computes neither a
    LAMBDA that calls a defined name's LAMBDA nor a LET inside a LAMBDA
    (shared/FACTS.md). A call that leaves an optional argument out passes
    :data:`UNWRITTEN`, as a test's call does. The result computes what the
    stored text computes. Those written out past ``limit`` characters (Excel's
    8,192 for a formula) are left out: IronCalc computes them as stored."""
    from xlfuncs.excel.parse import parse
    from xlfuncs.excel.rewrite import substituted
    from xlfuncs.excel.tree import AS_WRITTEN, Call, Expr, Fn, Ref

    names = set(definitions)
    done: dict[str, Fn] = {}

    def lambda_of(name: str) -> Fn:
        if name not in done:
            tree = parse(definitions[name], names)
            assert isinstance(tree, Fn) and tree.name == "LAMBDA", name
            done[name] = Fn("LAMBDA", (*tree.args[:-1], out(tree.args[-1])))
        return done[name]

    def out(e: Expr) -> Expr:
        if isinstance(e, Fn) and e.name == "LET":
            *pairs, body = e.args
            env: dict[str, Expr] = {}
            for k in range(0, len(pairs), 2):
                name = pairs[k]
                assert isinstance(name, Ref)
                env[name.name] = substituted(out(pairs[k + 1]), env)
            return substituted(out(body), env)
        if isinstance(e, Call):
            callee = lambda_of(e.function)
            *params, body = callee.args
            args = [out(a) for a in e.args]
            env = {}
            for k, p in enumerate(params):
                assert isinstance(p, Ref)
                used = "_xlpm." + p.name.split(".", 1)[1]
                env[used] = args[k] if k < len(args) else Ref(UNWRITTEN)
            return substituted(body, env)
        kids = e.children()
        return e.rebuilt([out(c) for c in kids]) if kids else e

    sizes: dict[int, int] = {}

    def size(e: Expr) -> int:  # the tree's nodes, each shared one counted each time
        if id(e) not in sizes:
            sizes[id(e)] = 1 + sum(size(c) for c in e.children())
        return sizes[id(e)]

    texts = {}
    for n in definitions:
        tree = lambda_of(n)
        if size(tree) <= limit:  # a node prints at least one character
            text = tree.excel(AS_WRITTEN)
            if len(text) <= limit:
                texts[n] = text
    return texts
