"""What Excel computes: values, coercions, comparisons and the functions the
templates' formulas use.

:mod:`~xlfuncs.templates.expr` prints a tree as a formula and asks this module
for its value, so the cached value of a cell is what a spreadsheet computes from
the formula. The rules are Excel's, as LibreOffice also applies them to .xlsx
files (the tests recalculate every workbook with it):

- a blank cell is 0 in arithmetic and comparisons with numbers, "" with text;
- an error value passes through arithmetic, comparisons and most functions;
- ``=``, ``<=`` and ``>=`` compare numbers to about 15 significant digits, and
  ``a-b`` of two nearly equal numbers is 0 (LibreOffice's ``approxEqual`` and
  ``approxSub``; Excel rounds to 15 digits alike);
- text compares after numbers and ignores case; MATCH(…, 0) reads ``*``, ``?``
  and ``~`` in text as wildcards; TRIM removes spaces, not other white space;
- FIXED writes a number with the separators of the reader's language.

Only what the formulas use is here; an unknown function raises at build time.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, TypeAlias


@dataclass(frozen=True)
class XlError:
    """An Excel error value, e.g. ``XlError("#N/A")``."""

    code: str

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True)
class Range:
    """The values of a range, row by row (a column is rows of one)."""

    rows: tuple[tuple[Any, ...], ...]

    @staticmethod
    def column(values: Sequence[Any]) -> Range:
        return Range(tuple((v,) for v in values))

    @staticmethod
    def row(values: Sequence[Any]) -> Range:
        return Range((tuple(values),))

    def flat(self) -> list[Any]:
        return [v for row in self.rows for v in row]

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.rows), len(self.rows[0]) if self.rows else 0


#: A cell's value: a number, text, TRUE/FALSE, None for a blank, an error, or a
#: range's values.
Value: TypeAlias = float | str | bool | None | XlError | Range

VALUE = XlError("#VALUE!")
NUM = XlError("#NUM!")
DIV0 = XlError("#DIV/0!")
NA = XlError("#N/A")
REF = XlError("#REF!")

SEPARATORS = {"en": (",", "."), "es": (".", ",")}  # (thousands, decimal)


def approx_equal(a: float, b: float) -> bool:
    """LibreOffice's rtl::math::approxEqual: equal to 2^-48 of the larger."""
    if a == b:
        return True
    return abs(a - b) < abs(a) * 2.0**-48


_WHOLE_TEXT = re.compile(r"\s*[+-]?\d{1,15}\s*")


def number(v: Value) -> float | XlError:
    """A value as arithmetic reads it: blank 0, TRUE 1, text that is a whole
    number (" 8") that number, other text #VALUE!. Excel and LibreOffice also
    read decimals in text, by the reader's separators; the templates guard every
    number with ISNUMBER first, so no formula depends on that."""
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v)
    if v is None:
        return 0.0
    if isinstance(v, XlError):
        return v
    if isinstance(v, str) and _WHOLE_TEXT.fullmatch(v):
        return float(int(v))
    return VALUE


def general(x: float, lang: str = "en") -> str:
    """A number as the General format shows it in text (``&``, SUBSTITUTE),
    with the reader's decimal separator."""
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    text = f"{x:.15g}"
    if "e" in text:
        mantissa, exp = text.split("e")
        text = f"{mantissa}E{int(exp):+03d}"
    return text.replace(".", SEPARATORS[lang][1])


def text(v: Value, lang: str = "en") -> str | XlError:
    if isinstance(v, XlError):
        return v
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, (int, float)):
        return general(float(v), lang)
    if isinstance(v, str):
        return v
    return VALUE


def truth(v: Value) -> bool | XlError:
    if isinstance(v, XlError):
        return v
    if isinstance(v, str):
        return VALUE
    n = number(v)
    return n if isinstance(n, XlError) else n != 0


def _rank(v: Any) -> int:
    """Excel orders numbers (and blanks) before text before TRUE/FALSE."""
    return 2 if isinstance(v, bool) else 1 if isinstance(v, str) else 0


def compare(op: str, a: Value, b: Value) -> bool | XlError:
    for v in (a, b):
        if isinstance(v, XlError):
            return v
    if a is None:
        a = "" if isinstance(b, str) else 0.0
    if b is None:
        b = "" if isinstance(a, str) else 0.0
    ra, rb = _rank(a), _rank(b)
    if ra != rb:
        sign = -1 if ra < rb else 1
    elif ra == 1:
        ta, tb = str(a).lower(), str(b).lower()
        sign = (ta > tb) - (ta < tb)
    else:
        fa, fb = float(a), float(b)  # type: ignore[arg-type]
        sign = 0 if approx_equal(fa, fb) else (1 if fa > fb else -1)
    return {
        "=": sign == 0,
        "<>": sign != 0,
        "<": sign < 0,
        "<=": sign <= 0,
        ">": sign > 0,
        ">=": sign >= 0,
    }[op]


def arithmetic(op: str, a: Value, b: Value, lang: str = "en") -> Value:
    if isinstance(a, Range) or isinstance(b, Range):
        return _elementwise(op, a, b, lang)
    if op == "&":
        ta, tb = text(a, lang), text(b, lang)
        if isinstance(ta, XlError):
            return ta
        return tb if isinstance(tb, XlError) else ta + tb
    if op in ("=", "<>", "<", "<=", ">", ">="):
        return compare(op, a, b)
    x, y = number(a), number(b)
    if isinstance(x, XlError):
        return x
    if isinstance(y, XlError):
        return y
    try:
        if op == "+":
            out = 0.0 if x == -y or (x * y < 0 and approx_equal(x, -y)) else x + y
        elif op == "-":
            out = 0.0 if x * y > 0 and approx_equal(x, y) else x - y
        elif op == "*":
            out = x * y
        elif op == "/":
            if y == 0:
                return DIV0
            out = x / y
        else:
            power = _power(x, y)
            if isinstance(power, XlError):
                return power
            out = power
    except OverflowError:
        return NUM
    return out if math.isfinite(out) else NUM


def _power(x: float, y: float) -> float | XlError:
    if x == 0 and y < 0:
        return DIV0
    if x < 0 and y != int(y):
        return NUM
    return float(x**y)


def _elementwise(op: str, a: Value, b: Value, lang: str) -> Range:
    """An operator over ranges, value by value (as inside SUMPRODUCT)."""
    ra = a.rows if isinstance(a, Range) else None
    rb = b.rows if isinstance(b, Range) else None
    shape = (ra or rb or ((None,),),)[0]
    rows = []
    for i in range(len(shape)):
        row = []
        for j in range(len(shape[0])):
            x = ra[i][j] if ra else a
            y = rb[i][j] if rb else b
            row.append(arithmetic(op, x, y, lang))
        rows.append(tuple(row))
    return Range(tuple(rows))


# ------------------------------------------------------------------ functions

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
    v = args[0]()
    return args[1]() if isinstance(v, XlError) else v


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


def _numbers(values: Sequence[Value]) -> list[float] | XlError:
    out = []
    for v in values:
        n = number(v)
        if isinstance(n, XlError):
            return n
        out.append(n)
    return out


def numeric(impl: Callable[..., float | XlError]) -> Function:
    """A function of numbers: errors and text in its arguments give an error."""

    def call(args: Sequence[Thunk], _: str) -> Value:
        xs = _numbers([a() for a in args])
        if isinstance(xs, XlError):
            return xs
        try:
            out = impl(*xs)
        except (OverflowError, ValueError):
            return NUM
        if isinstance(out, XlError):
            return out
        return out if math.isfinite(out) else NUM

    return call


def _round(x: float, digits: float, mode: str = ROUND_HALF_UP) -> float:
    """Excel's ROUND: half away from zero, on the shortest decimal of ``x``."""
    q = Decimal(1).scaleb(-int(digits))
    return float(Decimal(repr(x)).quantize(q, rounding=mode))


FUNCTIONS |= {
    "INT": numeric(lambda x: float(math.floor(x))),
    "ABS": numeric(abs),
    "SQRT": numeric(lambda x: math.sqrt(x) if x >= 0 else NUM),
    "POWER": numeric(_power),
    "ROUND": numeric(lambda x, d=0: _round(x, d)),
    "ROUNDUP": numeric(lambda x, d=0: _round(x, d, "ROUND_UP")),
    "ROUNDDOWN": numeric(lambda x, d=0: _round(x, d, "ROUND_DOWN")),
    "MOD": numeric(lambda x, y: DIV0 if y == 0 else x - y * math.floor(x / y)),
}


def _over_numbers(values: Sequence[Value]) -> list[float] | XlError:
    """The numbers of ranges and single values, as SUM and MAX read them: text,
    blanks and TRUE/FALSE in a range are skipped; an error is passed on."""
    out: list[float] = []
    for v in values:
        if isinstance(v, Range):
            for x in v.flat():
                if isinstance(x, XlError):
                    return x
                if isinstance(x, (int, float)) and not isinstance(x, bool):
                    out.append(float(x))
        else:
            n = number(v)
            if isinstance(n, XlError):
                return n
            out.append(n)
    return out


def _aggregate(fold: Callable[[list[float]], float]) -> Function:
    def call(args: Sequence[Thunk], _: str) -> Value:
        xs = _over_numbers([a() for a in args])
        return xs if isinstance(xs, XlError) else fold(xs)

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


@function("LEN")
def _len(v: Sequence[Value], lang: str) -> Value:
    t = text(v[0], lang)
    return t if isinstance(t, XlError) else float(len(t.encode("utf-16-le")) // 2)


@function("LEFT")
def _left(v: Sequence[Value], lang: str) -> Value:
    t, n = text(v[0], lang), number(v[1]) if len(v) > 1 else 1.0
    if isinstance(t, XlError):
        return t
    return n if isinstance(n, XlError) else t[: int(n)]


@function("SUBSTITUTE")
def _substitute(v: Sequence[Value], lang: str) -> Value:
    parts = [text(x, lang) for x in v[:3]]
    err = first_error(parts)
    if err:
        return err
    t, old, new = (str(p) for p in parts)
    return t.replace(old, new) if old else t


@function("CHAR", "UNICHAR")
def _char(v: Sequence[Value], _: str) -> Value:
    n = number(v[0])
    return n if isinstance(n, XlError) else chr(int(n))


def wildcard(pattern: str) -> re.Pattern[str]:
    """MATCH's wildcards: ``*`` any text, ``?`` one character, ``~`` escapes."""
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "~" and i + 1 < len(pattern) and pattern[i + 1] in "*?~":
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "*" else "." if ch == "?" else re.escape(ch))
        i += 1
    return re.compile("".join(out), re.I | re.S)


@function("MATCH")
def _match(v: Sequence[Value], _: str) -> Value:
    x, where = v[0], v[1]
    if isinstance(x, XlError):
        return x
    if not isinstance(where, Range):
        where = Range(((where,),))
    assert len(v) > 2 and v[2] == 0, "only exact MATCH(…, 0) is supported"
    cells = where.flat()
    if isinstance(x, str):
        pattern = wildcard(x)
        for k, c in enumerate(cells, start=1):
            if isinstance(c, str) and pattern.fullmatch(c):
                return float(k)
        return NA
    for k, c in enumerate(cells, start=1):
        if not isinstance(c, (str, XlError)) and compare("=", c, x) is True:
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
    if not (1 <= r <= rows and 1 <= c <= cols):
        return REF
    found: Value = where.rows[r - 1][c - 1]
    return found


@function("FIXED")
def _fixed(v: Sequence[Value], lang: str) -> Value:
    """FIXED(number, decimals): rounded, with the reader's separators."""
    nums = _numbers(v[:2])
    if isinstance(nums, XlError):
        return nums
    x, digits = nums[0], int(nums[1]) if len(nums) > 1 else 2
    grouped = not (len(v) > 2 and truth(v[2]) is True)
    return fixed(x, digits, lang, grouped)


def fixed(x: float, digits: int, lang: str, grouped: bool = True) -> str:
    rounded = _round(x, digits)
    body = f"{abs(rounded):,.{max(digits, 0)}f}" if grouped else ""
    if not grouped:
        body = f"{abs(rounded):.{max(digits, 0)}f}"
    thousands, decimal = SEPARATORS[lang]
    body = body.replace(",", "\0").replace(".", decimal).replace("\0", thousands)
    return ("-" if rounded < 0 else "") + body
