"""Excel's functions over ranges with a criterion, and LARGE and COUNTA.

SUMIF, SUMIFS, COUNT, COUNTIF and COUNTA, registered in
:data:`~xlfuncs.excel.builtins.FUNCTIONS` as the others are, with Excel's rules
as ``tests/semantics_spec.py`` states them (the tests recalculate the budget on
LibreOffice and Gnumeric).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .builtins import function, wildcard
from .values import NUM, VALUE, Range, Value, XlError, compare, fold, parse_number

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


@function("SUMIFS")
def _sumifs(v: Sequence[Value], lang: str) -> Value:
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
        tests.append((where.flat(), criterion(crit, lang)))
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


@function("COUNT")
def _count(v: Sequence[Value], _: str) -> Value:
    """COUNT(range, …): the cells that hold a number (text, blanks, logicals and
    errors in a range are skipped)."""
    cells = [c for x in v for c in (x.flat() if isinstance(x, Range) else [x])]
    return float(sum(1 for c in cells if _is_number(c)))


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
