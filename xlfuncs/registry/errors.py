"""The library's errors, and the Excel error codes they carry.

Every bad input raises an :class:`InputError`: an :class:`InvalidTypeError`
(a ``TypeError``) for a value of the wrong kind, an :class:`InvalidValueError`
(a ``ValueError``) for a value outside its domain. Each carries the error code an
Excel cell would show and two wordings of the reason: one in Python terms for the
API and the CLI (``None``, ``str``, ``0.82``), one in spreadsheet terms for a cell
(a blank cell, text, ``82%``).
"""

from __future__ import annotations

import re

#: Excel's own error codes, in the order Excel numbers them (ERROR.TYPE 1-7).
ERROR_CODES = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A")
#: Codes newer versions of Excel show (dynamic arrays, linked data types).
NEWER_ERROR_CODES = (
    "#GETTING_DATA",
    "#SPILL!",
    "#CONNECT!",
    "#BLOCKED!",
    "#UNKNOWN!",
    "#FIELD!",
    "#CALC!",
)
#: The longest text an xlwings UDF may return: longer strings show #VALUE!.
MAX_CELL_TEXT = 255

# A cell that shows an error: the bare code, or an xlfuncs error text after it.
_SHOWS_ERROR = re.compile(
    "(" + "|".join(re.escape(c) for c in ERROR_CODES + NEWER_ERROR_CODES) + ")(?: |$)"
)


class InputError(Exception):
    """Bad input, with the Excel error code a cell would show for it."""

    def __init__(
        self,
        code: str,
        reason: str,
        cell_reason: str | None = None,
        got: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.cell_reason = reason if cell_reason is None else cell_reason
        #: The offending value as text, where ``cell_reason`` leaves it out (a
        #: cell shows it beside the formula); the CLI adds it back.
        self.got = got

    @property
    def cell_text(self) -> str:
        """What a desktop Excel cell shows, e.g. ``#NUM! gpus must be …``."""
        return shorten(f"{self.code} {self.cell_reason}")


class InvalidValueError(InputError, ValueError):
    """A value outside its domain, an unknown name, shapes that do not fit."""


class InvalidTypeError(InputError, TypeError):
    """A value of the wrong kind: text, a boolean or None where a number is needed."""


class UnusualValueWarning(UserWarning):
    """A valid value outside the range real plans use: most likely a unit slip.

    The Python API warns (it still computes) where a template's input check
    says "Warning: unusual": a value outside the argument's ``typical`` range
    (:class:`xlfuncs.registry.Arg`). The message names the argument, the value
    and, where one is likely, the slip ("params 70: did you mean 70e9 (a count
    in billions)?"). Spreadsheet cells do not warn; ``xlfuncs calc`` prints it
    as one line on stderr.
    """

    def __init__(self, message: str, name: str = "", value: float = 0.0) -> None:
        super().__init__(message)
        self.name = name
        self.value = value


# Users meet these as xlfuncs.InputError & co.: say so in tracebacks.
for _cls in (InputError, InvalidValueError, InvalidTypeError, UnusualValueWarning):
    _cls.__module__ = "xlfuncs"


def divisor_too_small() -> InvalidValueError:
    """A divisor that rounds to 0 although every input is valid (1e-200 × 1e-200).

    The one definition for cells, ranges, the Python API and the CLI; a new
    exception each time, so that no traceback collects on a shared one.
    """
    return InvalidValueError(
        "#DIV/0!", "a divisor rounds to 0: the inputs are too small for a float"
    )


def shorten(text: str, limit: int = MAX_CELL_TEXT) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis where it was cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def shown_error(value: object) -> str | None:
    """The error code a cell value shows (``"#N/A"``, ``"#NUM! gpus …"``), or None."""
    if type(value) is not str:
        return None
    m = _SHOWS_ERROR.match(value)
    return m.group(1) if m else None
