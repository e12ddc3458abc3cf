"""Excel's own limits: on a formula, and on what a cell can hold as typed.

Microsoft, "Excel specifications and limits" (support.microsoft.com):

- a formula's contents hold at most 8,192 characters, 64 levels of nested
  functions and 255 arguments to one function, a text constant in a formula at
  most 255 characters ([MS-OI29500] 2.1.1085 says Excel restricts a stored
  formula to 8,192 characters). LibreOffice and Gnumeric accept more, so a file
  past them passes their recalculation and still risks Excel's "We found a
  problem with some content" repair, which drops the formulas. Every formula and
  defined name the package writes is measured here first (:func:`check`);
- a number keeps 15 significant digits, from 2.2251E-308 to 9.99999999999999E+307
  in magnitude ([MS-OI29500] 2.1.871: Office reads a smaller magnitude than
  2^-1022 as 0); a cell holds at most 32,767 characters; XML 1.0 (§2.2) allows no
  control character other than tab, line feed and carriage return, and no lone
  surrogate. A value past these does not stay as typed: Excel rounds a 16th digit
  away (1.000000000000001 becomes 1, a valid efficiency, where the workbook's
  cached check said "above 100 %"), reads a tiny number as 0, or cannot open the
  file. :func:`typed_problem` says why, so that ``xlfuncs build --set`` refuses
  such a value in one line instead of writing a workbook that disagrees with
  itself.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any, NamedTuple

from openpyxl.formula.tokenizer import Token, Tokenizer

MAX_CHARS = 8192
MAX_NESTING = 64
MAX_ARGS = 255
MAX_TEXT_CONSTANT = 255


class Measure(NamedTuple):
    """What Excel limits in one formula."""

    chars: int  # the formula's contents, without the leading "="
    nesting: int  # the deepest level of nested function calls
    args: int  # the most arguments one function call takes
    text: int  # the longest text constant, quotes doubled as written


#: No formula this short can pass a limit: 65 nested calls take at least
#: 65 × "F()" characters, 256 arguments 255 commas, a 256-character text more.
SAFE_LENGTH = 3 * MAX_NESTING


def measure(formula: str) -> Measure:
    """Count what Excel limits in ``formula`` (with or without its "=")."""
    text = formula if formula.startswith("=") else "=" + formula
    depth = deepest = most_args = longest = 0
    args: list[int] = []
    for tok in Tokenizer(text).items:
        if tok.type == Token.FUNC and tok.subtype == Token.OPEN:
            depth += 1
            deepest = max(deepest, depth)
            args.append(1)
        elif tok.type == Token.FUNC and tok.subtype == Token.CLOSE:
            depth -= 1
            most_args = max(most_args, args.pop() if args else 0)
        elif tok.type == Token.SEP and tok.subtype == Token.ARG and args:
            args[-1] += 1
        elif tok.type == Token.OPERAND and tok.subtype == Token.TEXT:
            longest = max(longest, len(tok.value) - 2)
    return Measure(len(text) - 1, deepest, most_args, longest)


class FormulaLimitError(ValueError):
    """A formula past one of Excel's limits, naming where it would be written."""


def check(formula: str, where: str) -> Measure:
    """``formula``'s measure; raises :class:`FormulaLimitError` naming ``where``
    (a cell, ``Sheet!B12``, or a defined name) if it is past any of Excel's
    limits."""
    if len(formula) <= SAFE_LENGTH:
        return Measure(len(formula.removeprefix("=")), 0, 0, 0)  # nothing to count
    m = measure(formula)
    past = [
        f"{what} {got:,} (Excel allows {limit:,})"
        for what, got, limit in (
            ("characters", m.chars, MAX_CHARS),
            ("nested functions", m.nesting, MAX_NESTING),
            ("arguments to one function", m.args, MAX_ARGS),
            ("characters in a text constant", m.text, MAX_TEXT_CONSTANT),
        )
        if got > limit
    ]
    if past:
        raise FormulaLimitError(
            f"{where}: formula past Excel's limits: " + "; ".join(past)
        )
    return m


#: Significant digits Excel keeps of a number.
PRECISION = 15
#: The largest magnitude Excel accepts, and the smallest above zero.
LARGEST = 9.99999999999999e307
SMALLEST = 2.2251e-308
#: Characters a cell holds.
MAX_TEXT = 32_767
#: From here up a whole number has more digits than Excel shows: a fixed
#: format (#,##0.00, the format of every input) pads the 16th digit on with
#: zeros Excel made up, and no input of the workbooks is anywhere near.
LARGEST_SHOWN = 1e15


def typed_problem(value: Any) -> str | None:
    """Why ``value`` cannot be typed into a cell as it is, or None.

    >>> typed_problem(1.9) is None and typed_problem("EUR") is None
    True
    >>> typed_problem(float("nan"))
    'not a number a cell can hold (NaN)'
    >>> typed_problem(1.000000000000001)
    'Excel keeps 15 significant digits: it would read 1'
    >>> typed_problem("E\\x01R")
    'a control character (U+0001) cannot be in a cell'
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        return _text_problem(value)
    x = float(value)
    if math.isnan(x):
        return "not a number a cell can hold (NaN)"
    if math.isinf(x):
        return "not a number a cell can hold (infinite)"
    if abs(x) > LARGEST:
        return f"over Excel's largest number, {LARGEST:.14E}"
    if 0 < abs(x) < SMALLEST:
        return f"closer to 0 than Excel's smallest number, {SMALLEST}: it would read 0"
    kept = f"{x:.{PRECISION}g}"
    if float(kept) != x:
        return f"Excel keeps {PRECISION} significant digits: it would read {kept}"
    return None


def shown_problem(value: Any) -> str | None:
    """Why a number typed into an input cannot be shown digit for digit by a
    fixed number format (:data:`LARGEST_SHOWN`), or None.

    >>> shown_problem(1.4e12) is None
    True
    >>> shown_problem(1e30)
    'from 1E+15 up a number has more digits than Excel shows (15)'
    """
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if number and math.isfinite(value) and abs(value) >= LARGEST_SHOWN:
        return (
            f"from {LARGEST_SHOWN:.0E} up a number has more digits than Excel "
            f"shows ({PRECISION})"
        )
    return None


def _text_problem(text: str) -> str | None:
    if len(text) > MAX_TEXT:
        return f"{len(text):,} characters; a cell holds at most {MAX_TEXT:,}"
    for ch in text:
        kind = unicodedata.category(ch)
        if kind == "Cs":  # what Python makes of bytes it cannot decode
            return "bytes that are not text in this terminal's encoding"
        if kind == "Cc":
            return f"a control character (U+{ord(ch):04X}) cannot be in a cell"
        if ord(ch) in (0xFFFE, 0xFFFF):  # no XML character
            return f"U+{ord(ch):04X} is not a character a file may hold"
    return None


__all__ = [
    "FormulaLimitError",
    "MAX_TEXT_CONSTANT",
    "Measure",
    "check",
    "measure",
    "LARGEST",
    "LARGEST_SHOWN",
    "MAX_TEXT",
    "PRECISION",
    "SMALLEST",
    "shown_problem",
    "typed_problem",
]
