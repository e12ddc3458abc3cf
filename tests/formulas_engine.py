"""Compute workbooks with the ``formulas`` package, an Excel engine nobody here wrote.

LibreOffice recalculates the templates; it cannot evaluate LAMBDA (Err:509), so
the LAMBDA library and the Excel expressions are computed by ``formulas``
(PyPI). What it reads differently from Excel is listed in ../shared/FACTS.md; the
one rewrite the tests need is :func:`for_formulas`.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest

formulas = pytest.importorskip("formulas")
from formulas.tokens.operand import XlError  # noqa: E402

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
    solution = formulas.ExcelModel().loads(str(path)).finish().calculate()
    out: dict[tuple[str, str], Any] = {}
    for key, value in solution.items():
        m = re.fullmatch(r"'\[[^\]]+\](.+)'!([A-Z]+\d+)", key)
        if m is None:
            continue
        v = value.value[0, 0] if hasattr(value, "value") else value
        out[(m.group(1), m.group(2))] = v
    return out


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
