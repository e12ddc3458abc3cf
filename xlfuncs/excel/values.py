"""What Excel computes: values, coercions, comparisons and arithmetic.

:mod:`~xlfuncs.excel.tree` prints a tree as a formula and asks this module (and
:mod:`~xlfuncs.excel.builtins` for functions) for its value, so the cached value
of a cell is what a spreadsheet computes from the formula. The rules are Excel's
where Microsoft documents them, else LibreOffice's (the engine the tests
recalculate every workbook with). Each rule is a case of
``tests/semantics_spec.py``, a table of formulas with what Excel, LibreOffice,
Gnumeric and IronCalc give and the reason for our choice where they differ; the
engine tests run the table on all three engines and docs/semantics.md lists the
differences. In short:

- a blank cell is 0 in arithmetic, "" with text and FALSE with TRUE/FALSE; a
  formula that ends in a blank cell shows 0 (:func:`as_cell`);
- an error value passes through arithmetic, comparisons and most functions;
- numbers hold 15 significant digits: ``=``, ``<=`` and ``>=`` compare to about
  that (LibreOffice's ``approxEqual``), ``a-b`` of two nearly equal numbers is
  0, INT, ROUND and FIXED work on the 15-digit value, and a number written as
  text shows at most 15 digits (:func:`general`);
- numbers come before text, text before FALSE and TRUE; text compares ignoring
  case (beyond ASCII too: "É" is "é") and, for order, accents first;
- text that reads as a number in the reader's language ("8", "1,5" in Spanish,
  "1e3", "50%") is that number in arithmetic; TRUE/FALSE are never numbers;
- MATCH(…, 0), COUNTIF and SUMIF read ``*``, ``?`` and ``~`` in text as
  wildcards; TRIM removes spaces (U+0020), not other white space; LEN counts
  UTF-16 units, as Excel does;
- FIXED writes a number with the separators of the reader's language.

The functions are in :mod:`~xlfuncs.excel.builtins`.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, localcontext
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


def digits15(x: float) -> Decimal:
    """``x`` to 15 significant digits, exactly: the digits Excel shows ("Excel
    specifications and limits": number precision 15 digits)."""
    return Decimal(f"{x:.14e}")


def approx_value(x: float) -> float:
    """``x`` as INT and ROUND see it (LibreOffice's rtl::math::approxValue): to 15
    significant digits when that only removes binary noise, so 2.9999999999999996
    is 3 and 0.1*3 is 0.3; unchanged when it is whole, has at most 11 binary
    places (0.5, 1.375), or is above 2^41 (its digits are all meant).

    >>> approx_value(2.9999999999999996), approx_value(0.1 * 3), approx_value(1.375)
    (3.0, 0.3, 1.375)
    """
    if not math.isfinite(x) or x == int(x) or abs(x) > 2.0**41:
        return x
    mantissa, exponent = math.frexp(x)
    m, e = int(abs(mantissa) * 2**53), exponent - 53
    tz = (m & -m).bit_length() - 1
    if -(e + tz) <= 11:
        return x
    return float(digits15(x))


#: Where the year 1900 begins: serial numbers count days from 1899-12-30, so
#: that the 1900 system's false 29 February (serial 60) keeps later dates right.
EPOCH = date(1899, 12, 30)
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")


def serial(day: date) -> float:
    """A date as the 1900 date system numbers it: 1900-01-01 is 1, and every
    day from 1900-03-01 on is one later than a count from 1899-12-31 gives,
    since Excel holds 29 February 1900 as a day (Microsoft: "Excel incorrectly
    assumes that the year 1900 is a leap year")."""
    days = (day - EPOCH).days
    return float(days if day >= date(1900, 3, 1) else days - 1)


@functools.cache
def _number_text(lang: str) -> re.Pattern[str]:
    thousands, decimal = (re.escape(s) for s in SEPARATORS[lang])
    return re.compile(
        rf"(?P<int>\d{{1,3}}(?:{thousands}\d{{3}})+|\d+)?"
        rf"(?:{decimal}(?P<frac>\d*))?(?:[eE](?P<exp>[+-]?\d+))?"
    )


def parse_number(t: str, lang: str = "en") -> float | None:
    """Text as a number, as Excel's VALUE and LibreOffice read it in the reader's
    language: spaces around it, a sign or brackets (negative), thousands
    separators in threes, a decimal separator, an exponent, a trailing %, a
    leading $ (English), or an ISO date (2026-01-31, its serial number). None
    when the text is no number: "eight", "1,5" in English, "TRUE", "inf".

    >>> parse_number(" 1,000.5 "), parse_number("1,5", "es"), parse_number("50%")
    (1000.5, 1.5, 0.5)
    >>> parse_number("1,5") is None, parse_number("TRUE") is None
    (True, True)
    """
    t = t.strip(" \u00a0")
    iso = _ISO_DATE.fullmatch(t)
    if iso is not None:
        try:
            return serial(date(*(int(g) for g in iso.groups())))
        except ValueError:
            return None
    negative = t.startswith("(") and t.endswith(")")
    if negative:
        t = t[1:-1]
    if t[:1] in ("+", "-"):
        negative ^= t[0] == "-"
        t = t[1:]
    if lang == "en" and t.startswith("$"):
        t = t[1:]
    percent = t.endswith("%")
    if percent:
        t = t[:-1].rstrip(" ")
    m = _number_text(lang).fullmatch(t)
    if m is None or not (m["int"] or m["frac"]):
        return None
    whole = (m["int"] or "0").replace(SEPARATORS[lang][0], "")
    x = float(f"{whole}.{m['frac'] or '0'}e{m['exp'] or '0'}")
    if not math.isfinite(x):
        return None
    x = x / 100 if percent else x
    return (-x if negative else x) + 0.0


def number(v: Value, lang: str = "en") -> float | XlError:
    """A value as arithmetic reads it: blank 0, TRUE 1, text that reads as a
    number (:func:`parse_number`) that number, other text #VALUE!."""
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v) + 0.0  # Excel has no -0
    if v is None:
        return 0.0
    if isinstance(v, XlError):
        return v
    if isinstance(v, str):
        x = parse_number(v, lang)
        return VALUE if x is None else x
    return VALUE


def general(x: float, lang: str = "en") -> str:
    """A number as text (``&``, SUBSTITUTE, LEN): whole numbers below 2^53 in
    full; others to 15 significant digits, as decimals from 1E-14 to below
    1E+15 (at most 20 places), else as 1.5E+20; the reader's decimal separator.
    LibreOffice's rule, but with Excel's two exponent digits (LibreOffice 7.4
    writes 1E+020).

    >>> general(1 / 3), general(1e20), general(2.0**53), general(0.25, "es")
    ('0.333333333333333', '1E+20', '9.00719925474099E+15', '0,25')
    """
    if x == int(x) and abs(x) < 2.0**53:
        return str(int(x))
    d = digits15(x)
    e = d.adjusted()
    if -15 < e < 15:
        with localcontext() as ctx:
            ctx.prec = 60
            d = d.quantize(Decimal(1).scaleb(-20), rounding=ROUND_HALF_UP)
        text = format(d, "f")
        text = text.rstrip("0").rstrip(".") if "." in text else text
    else:
        sign, digits, _ = d.as_tuple()
        mantissa = "".join(map(str, digits)).rstrip("0") or "0"
        body = mantissa[0] + ("." + mantissa[1:] if len(mantissa) > 1 else "")
        text = f"{'-' if sign else ''}{body}E{'+' if e >= 0 else '-'}{abs(e):02d}"
    return text.replace(".", SEPARATORS[lang][1])


#: TRUE and FALSE as text in each edition (Excel writes its own language's words).
LOGICAL_WORDS = {"en": ("TRUE", "FALSE"), "es": ("VERDADERO", "FALSO")}


def text(v: Value, lang: str = "en") -> str | XlError:
    if isinstance(v, XlError):
        return v
    if v is None:
        return ""
    if isinstance(v, bool):
        return LOGICAL_WORDS[lang][0 if v else 1]
    if isinstance(v, (int, float)):
        return general(float(v), lang)
    if isinstance(v, str):
        return v
    return VALUE


def truth(v: Value) -> bool | XlError:
    """A value as IF reads it: numbers not 0 are TRUE, blank is FALSE, the texts
    TRUE and FALSE (any case) are themselves, other text #VALUE!."""
    if isinstance(v, XlError):
        return v
    if isinstance(v, str):
        word = v.strip(" ").upper()
        return True if word == "TRUE" else False if word == "FALSE" else VALUE
    n = number(v)
    return n if isinstance(n, XlError) else n != 0


def as_cell(v: Value) -> Value:
    """What a formula cell shows for its value: a formula that ends in a blank
    cell (``=A1``, ``=IF(TRUE,A1)``) shows 0, not blank."""
    return 0.0 if v is None else v


@functools.lru_cache(maxsize=4096)
def fold(t: str) -> str:
    """Text with case ignored, as Excel's comparisons and MATCH ignore it: each
    character as its upper case's lower case (so "ς" and "σ", "ı" and "i" are
    one), a character whose upper case is two ("ß") or whose lower case is two
    ("İ") as it is.

    >>> fold("É") == fold("é"), fold("Σ") == fold("ς")
    (True, True)
    >>> fold("straße") == fold("STRASSE")
    False
    """
    out = []
    for ch in t:
        up = ch.upper()
        low = up.lower() if len(up) == 1 else ch
        out.append(low if len(low) == 1 else ch)
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def _order_key(t: str) -> tuple[str, str]:
    """Text ordered as a collation orders it, roughly: letters first without
    their accents ("ä" before "b"), then with them ("a" before "ä")."""
    folded = fold(t)
    bare = "".join(
        c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c)
    )
    return bare, folded


def _rank(v: Any) -> int:
    """Excel orders numbers (and blanks) before text before TRUE/FALSE."""
    return 2 if isinstance(v, bool) else 1 if isinstance(v, str) else 0


def _blank_as(other: Value) -> Value:
    """A blank compared with ``other``: "" with text, FALSE with TRUE/FALSE, else 0."""
    if isinstance(other, str):
        return ""
    return False if isinstance(other, bool) else 0.0


def compare(op: str, a: Value, b: Value) -> bool | XlError:
    for v in (a, b):
        if isinstance(v, XlError):
            return v
    if a is None:
        a = _blank_as(b)
    if b is None:
        b = _blank_as(a)
    ra, rb = _rank(a), _rank(b)
    if ra != rb:
        sign = -1 if ra < rb else 1
    elif ra == 1:
        ta, tb = str(a), str(b)
        if fold(ta) == fold(tb):
            sign = 0
        else:
            ka, kb = _order_key(ta), _order_key(tb)
            sign = 1 if ka > kb else -1
    elif ra == 2:
        sign = (bool(a) > bool(b)) - (bool(a) < bool(b))
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
    x, y = number(a, lang), number(b, lang)
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
            raised = power(x, y)
            if isinstance(raised, XlError):
                return raised
            out = raised
    except OverflowError:
        return NUM
    return out + 0.0 if math.isfinite(out) else NUM


def power(x: float, y: float) -> float | XlError:
    if x == 0 and y == 0:
        return NUM  # [MS-OI29500] 2.1.1018: Office returns #NUM! for POWER(0,0)
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


# ------------------------------------------------------------------ literals


def xl(x: float) -> str:
    """A number as an Excel formula literal: ``8.64E+19``, ``0.5``, ``6``.

    Always with a signed exponent: some readers (the ``formulas`` engine) fail on
    ``1E6``; Excel writes ``1E+6`` itself.
    """
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"{x} has no Excel literal")
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    text = repr(x).upper()
    if "E" in text and "E-" not in text and "E+" not in text:
        text = text.replace("E", "E+")
    return text


def literal(value: object) -> str:
    """A text or a number as an Excel formula literal: ``"H100"``, ``8.64E+19``."""
    if isinstance(value, str):
        return '"' + value.replace('"', '""') + '"'
    return xl(float(value))  # type: ignore[arg-type]
