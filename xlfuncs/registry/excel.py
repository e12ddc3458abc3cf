"""Excel expressions: each function's formula in Excel, written once.

A registered function may carry ``excel``: its result as an Excel expression over
its own argument names (``gpus*tokens_per_sec_per_gpu*efficiency``). It may call
other registered functions by their Excel names (``FT_THROUGHPUT(gpus, …)/t``),
read the reference tables by their workbook names (``AcceleratorPeaks``), and test
``OMITTED(arg)`` for an optional argument left out. :func:`expand` writes such an
expression out for one use: with the arguments bound to cells, names or a LAMBDA's
parameters, sibling calls written out (or, through ``reuse``, replaced by a cell
that already holds them) and ``OMITTED`` decided. The template workbooks and the
LAMBDA library both build their formulas this way, so the Excel math of a
function is written in one place, next to its Python.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..data.names import IGNORED

# Strings, error literals, numbers, names (PERCENTILE.INC, _xlfn.LAMBDA), the rest.
_TOKEN = re.compile(
    r'(?P<str>"(?:[^"]|"")*")'
    r"|(?P<err>#(?:NULL!|DIV/0!|VALUE!|REF!|NAME\?|NUM!|N/A))"
    r"|(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<name>[A-Za-z_\\][A-Za-z0-9_.]*)"
    r"|(?P<space>\s+)"
    r"|(?P<op>.)",
    re.S,
)


# The reference tables expressions read, as workbook names a data sheet defines
# (xlfuncs.templates.data_sheet writes them).
ACCELERATOR_KEYS = "AcceleratorKeys"  # every accepted spelling, as key() makes it
ACCELERATOR_ROW = "AcceleratorRow"  # beside each key: its accelerator's row
ACCELERATOR_PEAKS = "AcceleratorPeaks"  # dense TFLOP/s: an accelerator × dtype
ACCELERATOR_MEMORY = "AcceleratorMemory"  # GB, a column beside the peaks
ACCELERATOR_BANDWIDTH = "AcceleratorBandwidth"  # TB/s
ACCELERATOR_POWER = "AcceleratorPower"  # W
DTYPE_KEYS = "DtypeKeys"  # every accepted precision spelling
DTYPE_COLUMN = "DtypeColumn"  # beside each: its column in AcceleratorPeaks
FIT_NAMES = "FitNames"
MODEL_KEYS = "ModelKeys"  # every accepted model spelling, as key() makes it
MODEL_ROW = "ModelRow"  # beside each key: its model's row
MODEL_SPECS = "ModelSpecs"  # the models' table: a model × a field
MODEL_FIELD_KEYS = "ModelFieldKeys"  # every accepted field spelling
MODEL_FIELD_COLUMN = "ModelFieldColumn"  # beside each: its column in ModelSpecs
FIT = {  # a column of the fits' table each: FitE, FitA, ..., FitG, FitExponent
    c: f"Fit{c}" for c in ("E", "A", "B", "Alpha", "Beta", "G", "Exponent")
}


def char(ch: str) -> str:
    """One character as an Excel expression: ``"-"``, ``CHAR(9)``,
    ``_xlfn.UNICHAR(160)``.

    Above 127 UNICHAR, not CHAR: CHAR reads the system's code page (CHAR(160) is
    a non-breaking space in Windows-1252 but "†" in Mac Roman; LibreOffice on a
    UTF-8 system gives U+FFFD).
    """
    n = ord(ch)
    if 32 <= n < 127:
        return literal(ch)
    return f"CHAR({n})" if n < 32 else f"_xlfn.UNICHAR({n})"


def exact(expr: str) -> str:
    """Text for MATCH(…, 0) to compare as it is: ``~``, ``*`` and ``?`` escaped.

    MATCH reads ``*`` and ``?`` in its first argument as wildcards ("H*" would
    find the H100) and ``~`` as their escape; so ``~`` is doubled first.
    """
    for ch in ("~", "*", "?"):
        expr = f'SUBSTITUTE({expr},"{ch}","~{ch}")'
    return expr


def key(expr: str) -> str:
    """A typed name as the key tables hold it, ready for MATCH(…, 0).

    The characters of :data:`xlfuncs.data.names.IGNORED` removed (MATCH ignores
    case, so this is the Python look-ups' :func:`~xlfuncs.data.names.normalize`),
    then :func:`exact`, so that no character of the name acts as a wildcard.
    """
    for ch in IGNORED:
        expr = f'SUBSTITUTE({expr},{char(ch)},"")'
    return exact(expr)


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


def tokens(expr: str) -> list[tuple[str, str]]:
    """``expr`` as (kind, text) tokens; kinds: str, err, num, name, space, op."""
    out = []
    for m in _TOKEN.finditer(expr):
        kind = m.lastgroup
        assert kind is not None
        out.append((kind, m.group()))
    return out


def names_in(expr: str) -> set[str]:
    """The names an expression reads (functions called excluded)."""
    toks = [t for t in tokens(expr) if t[0] != "space"]
    return {
        text
        for i, (kind, text) in enumerate(toks)
        if kind == "name" and not (i + 1 < len(toks) and toks[i + 1][1] == "(")
    }


def calls_in(expr: str) -> set[str]:
    """The functions an expression calls, upper case."""
    toks = [t for t in tokens(expr) if t[0] != "space"]
    return {
        text.upper()
        for i, (kind, text) in enumerate(toks)
        if kind == "name" and i + 1 < len(toks) and toks[i + 1][1] == "("
    }


class ExcelFunction(NamedTuple):
    """A registered function as :func:`expand` writes its calls out."""

    params: Sequence[str]  # its argument names, in order
    defaults: Mapping[str, object]  # optional arguments and their defaults
    expr: str  # its result as an Excel expression over ``params``


#: Every function with an Excel expression, by its Excel name.
Functions = Mapping[str, ExcelFunction]


@dataclass(frozen=True)
class Bound:
    """What an argument stands for in one use of an expression.

    ``expr`` replaces the argument's name; ``omitted`` is the Excel test that it
    was left out (``"TRUE"``, ``"FALSE"``, or ``_xlfn.ISOMITTED(_xlpm.k)``).
    """

    expr: str
    omitted: str = "FALSE"


OMITTED = Bound("0", "TRUE")  # an optional argument a call leaves out


def _atomic(expr: str) -> bool:
    toks = [t for t in tokens(expr) if t[0] != "space"]
    if len(toks) == 1:
        return True
    # NAME(...) and (...) as a whole are atomic too.
    start = 1 if toks[0][0] == "name" else 0
    if toks[start][1] == "(":
        depth = 0
        for i, (_, text) in enumerate(toks[start:], start=start):
            depth += text == "("
            depth -= text == ")"
            if depth == 0:
                return i == len(toks) - 1
    return False


def paren(expr: str) -> str:
    """``expr`` in parentheses unless it is one name, number or call, or is in
    parentheses already."""
    return expr if _atomic(expr) else f"({expr})"


#: (function name, the formula's arguments) -> an expression to use instead.
Reuse = Callable[[str, tuple[str, ...]], "str | None"]


def expand(
    expr: str,
    bindings: Mapping[str, Bound],
    functions: Functions,
    reuse: Reuse | None = None,
) -> str:
    """``expr`` with its arguments bound and its sibling calls written out.

    ``functions`` maps an Excel name to (parameter names, defaults, expression).
    A sibling call is replaced by ``reuse(name, args)`` when that gives an
    expression, else by the sibling's own expression with its parameters bound
    to the call's arguments (an omitted optional one: its default, or OMITTED).
    """
    toks = [t for t in tokens(expr) if t[0] != "space"]
    out: list[str] = []
    i = 0
    while i < len(toks):
        kind, text = toks[i]
        call = kind == "name" and i + 1 < len(toks) and toks[i + 1][1] == "("
        if call:
            args, end = _arguments(toks, i + 1)
            name = text.upper()
            if name == "OMITTED":
                (arg,) = args
                out.append(bindings[arg.strip()].omitted)
            elif name in functions:
                out.append(_call(name, args, bindings, functions, reuse))
            else:
                done = [expand(a, bindings, functions, reuse) for a in args]
                out.append(_fold(text, done))
            i = end + 1
            continue
        if kind == "name" and text in bindings:
            out.append(paren(bindings[text].expr))
        else:
            out.append(text)
        i += 1
    return "".join(out)


def _call(
    name: str,
    raw_args: list[str],
    bindings: Mapping[str, Bound],
    functions: Functions,
    reuse: Reuse | None,
) -> str:
    params, defaults, body = functions[name]
    args = [expand(a, bindings, functions, reuse) for a in raw_args]
    if reuse is not None:
        hit = reuse(name, tuple(args))
        if hit is not None:
            return hit
    inner: dict[str, Bound] = {}
    for k, p in enumerate(params):
        raw = raw_args[k].strip() if k < len(raw_args) else ""
        if raw in bindings:  # passed through: it keeps its own "omitted" test
            inner[p] = bindings[raw]
        elif raw:
            inner[p] = Bound(args[k])
        elif defaults.get(p) is not None:
            inner[p] = Bound(literal(defaults[p]), "TRUE")
        else:
            inner[p] = OMITTED
    return paren(expand(body, inner, functions, reuse))


def _fold(function: str, args: list[str]) -> str:
    """A call, simplified where its logical arguments are known (TRUE/FALSE)."""
    f = function.upper()
    test = truth(args[0]) if f == "IF" and args else None
    if test is not None:
        pick = args[1] if test else (args[2] if len(args) > 2 else "FALSE")
        return paren(pick)
    if f in ("AND", "OR") and all(a in ("TRUE", "FALSE") for a in args):
        values = [a == "TRUE" for a in args]
        return "TRUE" if (all(values) if f == "AND" else any(values)) else "FALSE"
    if f == "NOT" and args in (["TRUE"], ["FALSE"]):
        return "FALSE" if args[0] == "TRUE" else "TRUE"
    return f"{function}({','.join(args)})"


def truth(expr: str) -> bool | None:
    """The value of ``expr`` if it is TRUE and FALSE joined by ``*`` (and), ``+``
    (or) and parentheses, as an expression whose OMITTED tests are decided is;
    None for anything else."""
    toks = [t for k, t in tokens(expr) if k != "space"]
    pos = 0

    def operand() -> bool | None:
        nonlocal pos
        if pos < len(toks) and toks[pos] in ("TRUE", "FALSE"):
            pos += 1
            return toks[pos - 1] == "TRUE"
        if pos < len(toks) and toks[pos] == "(":
            pos += 1
            value = either()
            if value is None or pos >= len(toks) or toks[pos] != ")":
                return None
            pos += 1
            return value
        return None

    def joined(part: Callable[[], bool | None], op: str) -> bool | None:
        """``part op part op …``: * binds tighter than +, as in Excel."""
        nonlocal pos
        value = part()
        while value is not None and pos < len(toks) and toks[pos] == op:
            pos += 1
            other = part()
            if other is None:
                return None
            value = (value and other) if op == "*" else (value or other)
        return value

    def either() -> bool | None:
        return joined(lambda: joined(operand, "*"), "+")

    value = either()
    return value if pos == len(toks) else None


def _arguments(toks: list[tuple[str, str]], open_at: int) -> tuple[list[str], int]:
    """The top-level arguments of the call whose "(" is at ``open_at``, and its ")"."""
    depth = 0
    args: list[str] = []
    current: list[str] = []
    for j in range(open_at, len(toks)):
        text = toks[j][1]
        if text in "({" and toks[j][0] == "op":
            depth += 1
            if depth == 1:
                continue
        elif text in ")}" and toks[j][0] == "op":
            depth -= 1
            if depth == 0:
                args.append("".join(current))
                return ([] if args == [""] else args), j
        elif text == "," and depth == 1 and toks[j][0] == "op":
            args.append("".join(current))
            current = []
            continue
        current.append(text)
    raise ValueError("unbalanced parentheses in an Excel expression")
