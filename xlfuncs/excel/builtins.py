"""The values of Excel's functions that the workbooks' formulas use.

Each function is registered in :data:`FUNCTIONS` by its Excel name, with Excel's
rules as ``tests/semantics_spec.py`` states them (:mod:`~xlfuncs.excel.values`
has the rules for values, comparisons and arithmetic). An eager function gets its
arguments' values, a lazy one thunks it evaluates when it needs them (IF,
IFERROR). Only what the formulas use is here: an unknown function raises when a
tree is valued.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal, localcontext
from typing import Any

from .values import (
    DIV0,
    NA,
    NUM,
    REF,
    SEPARATORS,
    VALUE,
    Range,
    Value,
    XlError,
    approx_value,
    compare,
    digits15,
    fold,
    number,
    power,
    text,
    truth,
)

#: Functions whose value depends on the reader's language: never folded at build.
LOCAL = frozenset({"FIXED"})
#: Functions that write a number given as text with the reader's separators.
TEXTUAL = frozenset({"TRIM", "LEN", "LEFT", "SUBSTITUTE"})
Thunk = Callable[[], Value]  # an argument, evaluated when the function asks
Function = Callable[[Sequence[Thunk], str], Value]  # (arguments, language)
FUNCTIONS: dict[str, Function] = {}


def function(*names: str, lazy: bool = False) -> Callable[[Callable[..., Value]], Any]:
    """Register an Excel function. Eager ones get values; an error argument is
    passed on unless the function handles errors itself (``lazy``)."""

    def register(impl: Callable[..., Value]) -> Callable[..., Value]:
        def call(args: Sequence[Thunk], lang: str) -> Value:
            if lazy:
                return impl(args, lang)
            return impl([a() for a in args], lang)

        for name in names:
            FUNCTIONS[name] = call
        return impl

    return register


def first_error(values: Sequence[Value]) -> XlError | None:
    return next((v for v in values if isinstance(v, XlError)), None)


@function("IF", lazy=True)
def _if(args: Sequence[Thunk], _: str) -> Value:
    test = truth(args[0]())
    if isinstance(test, XlError):
        return test
    if test:
        return args[1]() if len(args) > 1 else True
    return args[2]() if len(args) > 2 else False


@function("IFERROR", lazy=True)
def _iferror(args: Sequence[Thunk], _: str) -> Value:
    """IFERROR(value, value_if_error): a blank cell in either is "" (Microsoft's
    IFERROR page: "IFERROR treats it as an empty string value")."""
    v = args[0]()
    if isinstance(v, XlError):
        v = args[1]()
    return "" if v is None else v


@function("CHOOSE", lazy=True)
def _choose(args: Sequence[Thunk], _: str) -> Value:
    k = number(args[0]())
    if isinstance(k, XlError):
        return k
    k = math.floor(k)
    return args[int(k)]() if 1 <= k < len(args) else VALUE


def _logical(all_: bool) -> Function:
    def impl(args: Sequence[Thunk], _: str) -> Value:
        seen: list[bool] = []
        for a in args:
            v = a()
            for x in v.flat() if isinstance(v, Range) else [v]:
                if isinstance(x, XlError):
                    return x
                if isinstance(x, str) or x is None:
                    continue  # text and blanks in a range are skipped
                seen.append(bool(truth(x)))
        if not seen:
            return VALUE
        return all(seen) if all_ else any(seen)

    return impl


FUNCTIONS["AND"], FUNCTIONS["OR"] = _logical(True), _logical(False)


@function("NOT")
def _not(v: Sequence[Value], _: str) -> Value:
    t = truth(v[0])
    return t if isinstance(t, XlError) else not t


@function("ISNUMBER")
def _isnumber(v: Sequence[Value], _: str) -> Value:
    return isinstance(v[0], (int, float)) and not isinstance(v[0], bool)


@function("ISTEXT")
def _istext(v: Sequence[Value], _: str) -> Value:
    return isinstance(v[0], str)


@function("ISBLANK")
def _isblank(v: Sequence[Value], _: str) -> Value:
    return v[0] is None


@function("ISERROR", lazy=True)
def _iserror(args: Sequence[Thunk], _: str) -> Value:
    return isinstance(args[0](), XlError)


@function("ISNA", lazy=True)
def _isna(args: Sequence[Thunk], _: str) -> Value:
    return args[0]() == NA


@function("NA")
def _na(_v: Sequence[Value], _: str) -> Value:
    return NA


def _numbers(values: Sequence[Value], lang: str = "en") -> list[float] | XlError:
    out = []
    for v in values:
        n = number(v, lang)
        if isinstance(n, XlError):
            return n
        out.append(n)
    return out


def numeric(impl: Callable[..., float | XlError]) -> Function:
    """A function of numbers: errors and text in its arguments give an error."""

    def call(args: Sequence[Thunk], lang: str) -> Value:
        xs = _numbers([a() for a in args], lang)
        if isinstance(xs, XlError):
            return xs
        if not all(math.isfinite(x) for x in xs):
            return NUM  # no cell holds one; never raise on it
        try:
            out = impl(*xs)
        except (OverflowError, ValueError):
            return NUM
        if isinstance(out, XlError):
            return out
        return out + 0.0 if math.isfinite(out) else NUM

    return call


def rounded(x: float, digits: float, mode: str = ROUND_HALF_UP) -> Decimal:
    """``x`` rounded to ``digits`` places (to the left when negative), on its
    shortest decimal after :func:`approx_value`: ROUND(2.15, 1) is 2.2 and
    ROUNDUP(0.1*3, 1) is 0.3, as in Excel, although neither 2.15 nor 0.1*3 is
    exact in binary. ``digits`` is truncated; past 400 places nothing changes."""
    places = max(-400, min(400, int(digits)))
    with localcontext() as ctx:
        ctx.prec = 1000  # 309 digits before the point and 400 after, exactly
        exact = Decimal(repr(approx_value(x)))
        return exact.quantize(Decimal(1).scaleb(-places), rounding=mode)


def _round(x: float, digits: float, mode: str = ROUND_HALF_UP) -> float:
    """Excel's ROUND (half away from zero), ROUNDUP and ROUNDDOWN."""
    return float(rounded(x, digits, mode)) + 0.0


def _int(x: float) -> float:
    """INT: down to a whole number, from :func:`approx_value` (LibreOffice's
    approxFloor): 2.9999999999999996 is 3, so a whole-number check passes it."""
    return float(math.floor(approx_value(x))) + 0.0


FUNCTIONS |= {
    "INT": numeric(_int),
    "ABS": numeric(abs),
    "SQRT": numeric(lambda x: math.sqrt(x) if x >= 0 else NUM),
    "POWER": numeric(power),
    "ROUND": numeric(lambda x, d=0: _round(x, d)),
    "ROUNDUP": numeric(lambda x, d=0: _round(x, d, ROUND_UP)),
    "ROUNDDOWN": numeric(lambda x, d=0: _round(x, d, ROUND_DOWN)),
    "MOD": numeric(lambda x, y: DIV0 if y == 0 else x - y * math.floor(x / y)),
}


def is_reference(arg: Thunk) -> bool:
    """Whether an argument reads a cell by its name rather than computing a value:
    SUM, MAX and MIN skip text, blanks and TRUE/FALSE in a reference, as in a
    range, but read them in a value written in the formula (Microsoft's SUM and
    MAX pages). An argument is ``functools.partial(node.value, env)``
    (:class:`~xlfuncs.templates.expr.Fn`); the node is known by its class name,
    since :mod:`~xlfuncs.templates.expr` imports this module."""
    node = getattr(getattr(arg, "func", None), "__self__", None)
    return type(node).__name__ == "Ref"


def _over_numbers(args: Sequence[Thunk], lang: str) -> list[float] | XlError:
    """The numbers of ranges, references and values, as SUM and MAX read them:
    text, blanks and TRUE/FALSE in a range or a reference are skipped, in a
    value read as numbers; an error is passed on."""
    out: list[float] = []
    for arg in args:
        v = arg()
        if isinstance(v, Range) or is_reference(arg):
            for x in v.flat() if isinstance(v, Range) else [v]:
                if isinstance(x, XlError):
                    return x
                if isinstance(x, (int, float)) and not isinstance(x, bool):
                    out.append(float(x))
        else:
            n = number(v, lang)
            if isinstance(n, XlError):
                return n
            out.append(n)
    return out


def _aggregate(fold_: Callable[[list[float]], float]) -> Function:
    def call(args: Sequence[Thunk], lang: str) -> Value:
        xs = _over_numbers(args, lang)
        return xs if isinstance(xs, XlError) else fold_(xs) + 0.0

    return call


FUNCTIONS |= {
    "SUM": _aggregate(lambda xs: math.fsum(xs)),
    "MAX": _aggregate(lambda xs: max(xs, default=0.0)),
    "MIN": _aggregate(lambda xs: min(xs, default=0.0)),
}


@function("SUMPRODUCT")
def _sumproduct(values: Sequence[Value], _: str) -> Value:
    ranges = [v if isinstance(v, Range) else Range(((v,),)) for v in values]
    cells = [r.flat() for r in ranges]
    if len({len(c) for c in cells}) != 1:
        return VALUE
    total = 0.0
    for row in zip(*cells):
        err = first_error(row)
        if err:
            return err
        product = 1.0
        for x in row:  # text and TRUE/FALSE in an array count as 0
            ok = isinstance(x, (int, float)) and not isinstance(x, bool)
            product *= float(x) if ok else 0.0
        total += product
    return total


@function("TRIM")
def _trim(v: Sequence[Value], lang: str) -> Value:
    t = text(v[0], lang)
    return t if isinstance(t, XlError) else " ".join(p for p in t.split(" ") if p)


def _utf16(t: str) -> bytes:
    return t.encode("utf-16-le", "surrogatepass")


@function("LEN")
def _len(v: Sequence[Value], lang: str) -> Value:
    """LEN counts UTF-16 units, as Excel holds text: an emoji is 2."""
    t = text(v[0], lang)
    return t if isinstance(t, XlError) else float(len(_utf16(t)) // 2)


@function("LEFT")
def _left(v: Sequence[Value], lang: str) -> Value:
    """LEFT(text, n): the first n UTF-16 units, as LEN counts them."""
    t, n = text(v[0], lang), number(v[1], lang) if len(v) > 1 else 1.0
    if isinstance(t, XlError):
        return t
    if isinstance(n, XlError):
        return n
    if n < 0:
        return VALUE
    return _utf16(t)[: 2 * int(n)].decode("utf-16-le", "surrogatepass")


@function("SUBSTITUTE")
def _substitute(v: Sequence[Value], lang: str) -> Value:
    parts = [text(x, lang) for x in v[:3]]
    err = first_error(parts)
    if err:
        return err
    t, old, new = (str(p) for p in parts)
    return t.replace(old, new) if old else t


@function("CHAR", "UNICHAR")
def _char(v: Sequence[Value], lang: str) -> Value:
    n = number(v[0], lang)
    return n if isinstance(n, XlError) else chr(int(n))


def wildcard(pattern: str) -> re.Pattern[str]:
    """MATCH's wildcards: ``*`` any text, ``?`` one character, ``~`` escapes.
    Match :func:`fold`-ed text against the :func:`fold`-ed pattern."""
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "~" and i + 1 < len(pattern) and pattern[i + 1] in "*?~":
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "*" else "." if ch == "?" else re.escape(ch))
        i += 1
    return re.compile("".join(out), re.S)


@function("MATCH")
def _match(v: Sequence[Value], _: str) -> Value:
    """MATCH(x, cells, 0): the first cell equal to x (text: case ignored,
    wildcards read); a blank x, or a blank cell, matches nothing."""
    x, where = v[0], v[1]
    if isinstance(x, XlError):
        return x
    if not isinstance(where, Range):
        where = Range(((where,),))
    assert len(v) > 2 and v[2] == 0, "only exact MATCH(…, 0) is supported"
    if x is None:
        return NA
    cells = where.flat()
    if isinstance(x, str):
        pattern = wildcard(fold(x))
        for k, c in enumerate(cells, start=1):
            if isinstance(c, str) and pattern.fullmatch(fold(c)):
                return float(k)
        return NA
    for k, c in enumerate(cells, start=1):
        if c is None or isinstance(c, (str, XlError)):
            continue
        if compare("=", c, x) is True:
            return float(k)
    return NA


@function("INDEX")
def _index(v: Sequence[Value], _: str) -> Value:
    where = v[0]
    nums = _numbers(v[1:])
    if isinstance(nums, XlError):
        return nums
    if not isinstance(where, Range):
        return where if all(n == 1 for n in nums) else REF
    rows, cols = where.shape
    if len(nums) == 1:
        k = int(nums[0])
        if rows == 1:
            r, c = 1, k
        elif cols == 1:
            r, c = k, 1
        else:
            return REF
    else:
        r, c = int(nums[0]), int(nums[1])
    if not (0 <= r <= rows and 0 <= c <= cols):
        return REF
    # 0 is the whole column (row): one cell's value, or an array.
    picked = [
        row[c - 1 : c] if c else row
        for row in (where.rows[r - 1 : r] if r else where.rows)
    ]
    if len(picked) == 1 and len(picked[0]) == 1:
        found: Value = picked[0][0]
        return found
    return Range(tuple(tuple(row) for row in picked))


@function("FIXED")
def _fixed(v: Sequence[Value], lang: str) -> Value:
    """FIXED(number, decimals, no_commas): rounded, with the reader's separators;
    decimals up to 127 (Microsoft's FIXED page)."""
    nums = _numbers(v[:2], lang)
    if isinstance(nums, XlError):
        return nums
    x, digits = nums[0], int(nums[1]) if len(nums) > 1 else 2
    if digits > 127:
        return VALUE
    grouped = not (len(v) > 2 and truth(v[2]) is True)
    return fixed(x, digits, lang, grouped)


def fixed(x: float, digits: int, lang: str, grouped: bool = True) -> str:
    """``x`` as FIXED writes it: rounded, then shown to 15 significant digits,
    so 2^53 shows 9,007,199,254,740,990 and 1E+30 a 1 and 30 zeros.

    >>> fixed(2.0**53, 0, "en"), fixed(1234.5, 1, "es"), fixed(-0.004, 2, "en")
    ('9,007,199,254,740,990', '1.234,5', '0.00')
    """
    r = rounded(x, digits)
    if r:
        r = digits15(float(r))
    body = format(abs(r), f"{',' if grouped else ''}.{max(digits, 0)}f")
    thousands, decimal = SEPARATORS[lang]
    body = body.replace(",", "\0").replace(".", decimal).replace("\0", thousands)
    return ("-" if r < 0 else "") + body
