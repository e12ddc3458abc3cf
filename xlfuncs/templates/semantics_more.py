"""More of Excel's functions for the budget workbook: SUMIF, COUNTIF, LARGE, dates.

Registered in :data:`~xlfuncs.templates.semantics.FUNCTIONS` as the others are,
with Excel's rules as :mod:`~xlfuncs.templates.semantics_spec` states them (the
tests run that table and recalculate the budget on LibreOffice and Gnumeric).
Dates are serial numbers of Excel's 1900 date system
(:func:`~xlfuncs.templates.semantics.serial`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, timedelta

from .semantics import (
    EPOCH,
    FUNCTIONS,
    NUM,
    VALUE,
    Range,
    Value,
    XlError,
    compare,
    fold,
    function,
    numeric,
    parse_number,
    serial,
    wildcard,
)

_OPERATORS = ("<=", ">=", "<>", "<", ">", "=")


def criterion(crit: Value, lang: str = "en") -> Callable[[Value], bool]:
    """What a SUMIF or COUNTIF criterion accepts (Microsoft's COUNTIF page: 32,
    "32", ">32", "apples"), as LibreOffice reads it:

    - a number: the numbers equal to it; TRUE/FALSE: that value;
    - text, after an optional ``=``, ``<>``, ``<``, ``<=``, ``>``, ``>=``: when
      the rest reads as a number in the reader's language, numbers compared with
      it (and, for = and <>, text equal to the rest as text); otherwise text
      compared with it, case ignored, ``*``, ``?`` and ``~`` wildcards for = and
      <>. ``<>`` accepts everything ``=`` does not, blanks included; ``"="``
      accepts blank cells, ``""`` blank cells and empty text.

    An error in the range matches nothing.

    >>> hit = criterion("<>a")
    >>> hit("b"), hit(None), hit(1), hit("A")
    (True, True, True, False)
    >>> criterion(">=1,5", "es")(2.0), criterion("Error*")("error: no GPU")
    (True, True)
    """
    if isinstance(crit, bool):
        return lambda c: isinstance(c, bool) and c == crit
    if not isinstance(crit, str):
        return lambda c: _is_number(c) and compare("=", c, crit) is True
    op = next((o for o in _OPERATORS if crit.startswith(o)), "")
    rest = crit[len(op) :]
    x = parse_number(rest, lang) if rest else None
    if op in ("", "=", "<>"):
        if rest == "":
            blank = (lambda c: c in (None, "")) if op == "" else (lambda c: c is None)
            return blank if op != "<>" else (lambda c: c is not None)
        pattern = wildcard(fold(rest))

        def equal(c: Value) -> bool:
            if x is not None and _is_number(c):
                return compare("=", c, x) is True
            return isinstance(c, str) and pattern.fullmatch(fold(c)) is not None

        if op == "<>":
            return lambda c: not isinstance(c, XlError) and not equal(c)
        return equal
    if x is not None:
        return lambda c: _is_number(c) and compare(op, c, x) is True
    return lambda c: isinstance(c, str) and compare(op, c, rest) is True


def _is_number(c: Value) -> bool:
    return isinstance(c, (int, float)) and not isinstance(c, bool)


@function("SUMIF")
def _sumif(v: Sequence[Value], lang: str) -> Value:
    """SUMIF(range, criterion, sum_range)."""
    where, crit = v[0], v[1]
    sums = v[2] if len(v) > 2 else where
    if isinstance(crit, XlError):
        return crit
    if not isinstance(where, Range) or not isinstance(sums, Range):
        return VALUE
    if where.shape != sums.shape:
        return VALUE
    hit = criterion(crit, lang)
    total = 0.0
    for c, s in zip(where.flat(), sums.flat()):
        if not hit(c):
            continue
        if isinstance(s, XlError):
            return s
        if _is_number(s):
            total += float(s)
    return total


@function("COUNTIF")
def _countif(v: Sequence[Value], lang: str) -> Value:
    """COUNTIF(range, criterion): the cells the criterion accepts."""
    where, crit = v[0], v[1]
    if isinstance(crit, XlError):
        return crit
    cells = where.flat() if isinstance(where, Range) else [where]
    hit = criterion(crit, lang)
    return float(sum(1 for c in cells if hit(c)))


@function("LARGE")
def _large(v: Sequence[Value], _: str) -> Value:
    """LARGE(range, k): the k-th largest number, k truncated (as LibreOffice);
    #NUM! when k is below 1 or past the numbers (Microsoft's LARGE page)."""
    where, k = v[0], v[1]
    if isinstance(k, XlError):
        return k
    cells = where.flat() if isinstance(where, Range) else [where]
    err = next((c for c in cells if isinstance(c, XlError)), None)
    if err is not None:
        return err
    xs = sorted((float(c) for c in cells if _is_number(c)), reverse=True)  # type: ignore[arg-type]
    if not isinstance(k, (int, float)) or not 1 <= int(k) <= len(xs):
        return NUM
    return xs[int(k) - 1]


def _date(y: float, m: float, d: float) -> float | XlError:
    """DATE(year, month, day): a year from 0 to 1899 is after 1900 (DATE(108,1,2)
    is 2 January 2008, Microsoft's DATE page); months and days past their end
    roll over."""
    y, m = int(y), int(m)
    y = y + 1900 if 0 <= y < 1900 else y
    y, m = y + (m - 1) // 12, (m - 1) % 12 + 1
    if not 1900 <= y <= 9999:
        return NUM
    day = date(y, m, 1) + timedelta(days=int(d) - 1)
    return serial(day) if 1900 <= day.year <= 9999 else NUM


def _part(s: float, which: str) -> float | XlError:
    """YEAR or MONTH of a serial number, with Excel's false 29 February 1900
    (serial 60) and its 0 January 1900 (serial 0)."""
    if s < 0:
        return NUM
    if s < 61:
        month = 1 if s < 32 else 2
        return 1900.0 if which == "year" else float(month)
    day = EPOCH + timedelta(days=int(s))
    return float(day.year if which == "year" else day.month)


FUNCTIONS |= {
    "DATE": numeric(_date),
    "YEAR": numeric(lambda s: _part(s, "year")),
    "MONTH": numeric(lambda s: _part(s, "month")),
}
