"""Numbers as the CLI and the docs print them."""

from __future__ import annotations

import re
from typing import Any

_ROLE = re.compile(r":(?:\w+:)+`~?([^`]+)`")


def format_number(x: Any) -> str:
    """Full precision, as Python prints a float, without a trailing ``.0``."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e16:
        return str(int(x))
    if isinstance(x, float):
        return repr(x)
    try:  # a numpy array, e.g. from a range of percentiles
        return ", ".join(format_number(float(v)) for v in x)
    except TypeError:
        return str(x)


def plain(text: str) -> str:
    """Docstring markup as plain text: ``x`` and :data:`x` become x."""
    return _ROLE.sub(r"\1", text).replace("``", "")


def markdown(text: str) -> str:
    """Docstring markup as Markdown: ``x`` and :data:`x` become `x`."""
    return _ROLE.sub(r"`\1`", text).replace("``", "`")
