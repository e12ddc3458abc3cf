"""More of Excel's functions for the budget workbook: SUMIF(S), COUNTIF, COUNTA,
LARGE, dates.

Registered in :data:`~xlfuncs.templates.semantics.FUNCTIONS` as the others are,
with Excel's rules as LibreOffice and Gnumeric apply them (the tests
recalculate the budget with both). Dates are serial numbers of the 1900 date
system, days since 1899-12-30 (for dates after February 1900).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from datetime import date, timedelta

from .semantics import (
    FUNCTIONS,
    NUM,
    VALUE,
    Range,
    Value,
    XlError,
    compare,
    function,
    numeric,
    wildcard,
)

EPOCH = date(1899, 12, 30)


CRITERIA = re.compile(r"^(<=|>=|<>|<|>|=)(-?[0-9.]+)$")


def _criterion(crit: Value) -> Callable[[Value], bool]:
    """What a SUMIF or COUNTIF criterion accepts: a number, a comparison with a
    number (">0"), or a text, case ignored, whose ``*``, ``?`` and ``~`` are
    wildcards as in MATCH (``"Error:*"``)."""
    test = CRITERIA.match(crit) if isinstance(crit, str) else None
    if test is not None:
        op, x = test.group(1), float(test.group(2))
        return lambda c: _is_number(c) and compare(op, c, x) is True
    if isinstance(crit, str):
        pattern = wildcard(crit)
        return lambda c: isinstance(c, str) and pattern.fullmatch(c) is not None
    return lambda c: _is_number(c) and compare("=", c, crit) is True


def _is_number(c: Value) -> bool:
    return isinstance(c, (int, float)) and not isinstance(c, bool)


@function("SUMIF")
def _sumif(v: Sequence[Value], _: str) -> Value:
    """SUMIF(range, criterion, sum_range)."""
    where, crit = v[0], v[1]
    sums = v[2] if len(v) > 2 else where
    if isinstance(crit, XlError):
        return crit
    if not isinstance(where, Range) or not isinstance(sums, Range):
        return VALUE
    if where.shape != sums.shape:
        return VALUE
    hit = _criterion(crit)
    total = 0.0
    for c, s in zip(where.flat(), sums.flat()):
        if not hit(c):
            continue
        if isinstance(s, XlError):
            return s
        if _is_number(s):
            total += float(s)
    return total


@function("SUMIFS")
def _sumifs(v: Sequence[Value], _: str) -> Value:
    """SUMIFS(sum_range, range1, criterion1, …): the cells every criterion
    accepts, row by row, summed."""
    sums, pairs = v[0], list(zip(v[1::2], v[2::2]))
    if not isinstance(sums, Range) or not pairs:
        return VALUE
    tests = []
    for where, crit in pairs:
        if isinstance(crit, XlError):
            return crit
        if not isinstance(where, Range) or where.shape != sums.shape:
            return VALUE
        tests.append((where.flat(), _criterion(crit)))
    total = 0.0
    for k, s in enumerate(sums.flat()):
        if not all(hit(cells[k]) for cells, hit in tests):
            continue
        if isinstance(s, XlError):
            return s
        if _is_number(s):
            total += float(s)
    return total


@function("COUNTA")
def _counta(v: Sequence[Value], _: str) -> Value:
    """COUNTA(range, …): the cells that are not blank (an empty text counts)."""
    cells = [c for x in v for c in (x.flat() if isinstance(x, Range) else [x])]
    return float(sum(1 for c in cells if c is not None))


@function("COUNTIF")
def _countif(v: Sequence[Value], _: str) -> Value:
    """COUNTIF(range, criterion): the cells the criterion accepts. An error in
    the range is not counted (it matches no criterion here)."""
    where, crit = v[0], v[1]
    if isinstance(crit, XlError):
        return crit
    cells = where.flat() if isinstance(where, Range) else [where]
    hit = _criterion(crit)
    return float(sum(1 for c in cells if hit(c)))


@function("LARGE")
def _large(v: Sequence[Value], _: str) -> Value:
    where, k = v[0], v[1]
    if isinstance(k, XlError):
        return k
    cells = where.flat() if isinstance(where, Range) else [where]
    err = next((c for c in cells if isinstance(c, XlError)), None)
    if err is not None:
        return err
    xs = sorted(
        (
            float(c)
            for c in cells
            if isinstance(c, (int, float)) and not isinstance(c, bool)
        ),
        reverse=True,
    )
    if not isinstance(k, (int, float)) or not 1 <= math.ceil(k) <= len(xs):
        return NUM
    return xs[math.ceil(k) - 1]


def _date(y: float, m: float, d: float) -> float | XlError:
    y, m = int(y), int(m)
    y, m = y + (m - 1) // 12, (m - 1) % 12 + 1
    if not 1900 <= y <= 9999:
        return NUM
    return float((date(y, m, 1) - EPOCH).days + int(d) - 1)


def _part(serial: float, which: str) -> float | XlError:
    if serial < 61:  # the 1900 system's false 29 February lies before this
        return NUM
    day = EPOCH + timedelta(days=int(serial))
    return float(day.year if which == "year" else day.month)


FUNCTIONS |= {
    "DATE": numeric(_date),
    "YEAR": numeric(lambda s: _part(s, "year")),
    "MONTH": numeric(lambda s: _part(s, "month")),
}
