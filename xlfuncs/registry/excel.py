"""Excel expressions: the building blocks each function's formula is written with.

A registered function may carry ``excel``: its result as an Excel expression over
its own argument names (``gpus*tokens_per_sec_per_gpu*efficiency``). It may call
other registered functions by their Excel names (``FT_THROUGHPUT(gpus, …)/t``),
read the reference tables by their workbook names (``AcceleratorPeaks``), and test
``OMITTED(arg)`` for an optional argument left out. This module gives the pieces
such texts are written with (literals, the look-up key of a typed name, the
tables' names); :mod:`xlfuncs.templates.expr` parses them into trees, writes them
out for one use (a template's cell, a LAMBDA) and computes their values. The
template workbooks and the LAMBDA library both build their formulas this way, so
the Excel math of a function is written in one place, next to its Python.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..data.names import IGNORED
from ..excel.tree import Expr
from ..excel.values import literal as literal
from ..excel.values import xl as xl

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


class ExcelFunction(NamedTuple):
    """A registered function, as :func:`xlfuncs.templates.written.inline` writes
    its calls out."""

    params: Sequence[str]  # its argument names, in order
    defaults: Mapping[str, object]  # optional arguments and their defaults
    expr: Expr  # its result as an Excel expression over ``params``
    # Its declaration: named parts, each over the params and the parts before
    # it, and the result over both (a LAMBDA's LET holds them).
    parts: Sequence[tuple[str, Expr]] = ()
    result: Expr | None = None


#: Every function with an Excel expression, by its Excel name.
Functions = Mapping[str, ExcelFunction]
