"""Excel's own limits on a formula, counted as Excel counts them.

Microsoft, "Excel specifications and limits": a formula's contents hold at most
8,192 characters, 64 levels of nested functions and 255 arguments to one
function; a text constant in a formula at most 255 characters. [MS-OI29500]
2.1.1085 says Excel restricts a stored formula to 8,192 characters. LibreOffice
and Gnumeric accept more, so a file past them passes their recalculation and
still risks Excel's "We found a problem with some content" repair, which drops
the formulas. Every formula and defined name the package writes is measured
here first (:func:`check`), so no file leaves it past them.
"""

from __future__ import annotations

from typing import NamedTuple

from openpyxl.formula.tokenizer import Token, Tokenizer

MAX_CHARS = 8192
MAX_NESTING = 64
MAX_ARGS = 255
MAX_TEXT = 255


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
            ("characters in a text constant", m.text, MAX_TEXT),
        )
        if got > limit
    ]
    if past:
        raise FormulaLimitError(
            f"{where}: formula past Excel's limits: " + "; ".join(past)
        )
    return m


__all__ = ["FormulaLimitError", "Measure", "check", "measure"]
