"""Excel's date functions: DATE, YEAR and MONTH on the 1900 date system.

Dates are serial numbers of Excel's 1900 date system
(:func:`~xlfuncs.excel.values.serial`), with its false 29 February 1900.
"""

from __future__ import annotations

from datetime import date, timedelta

from .builtins import FUNCTIONS, numeric
from .values import EPOCH, NUM, XlError, serial


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
