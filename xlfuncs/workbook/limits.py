"""What a cell can hold as typed: Excel's limits on a typed value.

Microsoft, "Excel specifications and limits" (support.microsoft.com), calculation
specifications: number precision 15 digits; largest allowed positive number
9.99999999999999E+307, smallest allowed positive number 2.2251E-308 (and the same
for negative numbers); worksheet specifications: a cell holds at most 32,767
characters. Microsoft's notes on the file format ([MS-OI29500] 2.1.871, Part 1
§18.17.5.4) add that Office reads a number of smaller magnitude than 2^-1022 as
0. XML 1.0 (§2.2) allows no control character other than tab, line feed and
carriage return, and no lone surrogate.

A value past these limits does not stay as typed: Excel rounds a 16th digit
away (1.000000000000001 becomes 1, a valid efficiency, where the workbook's
cached check said "above 100 %"), reads a tiny number as 0, or cannot open the
file. :func:`typed_problem` says why, so that ``xlfuncs build --set`` refuses
such a value in one line instead of writing a workbook that disagrees with
itself.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any

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
    "LARGEST",
    "LARGEST_SHOWN",
    "MAX_TEXT",
    "PRECISION",
    "SMALLEST",
    "shown_problem",
    "typed_problem",
]
