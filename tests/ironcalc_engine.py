"""Compute workbooks with IronCalc (PyPI ``ironcalc``), a third engine.

IronCalc is a spreadsheet engine in Rust that reads an .xlsx as Excel stores it:
named LAMBDAs with ``_xlpm.`` and ``_xlop.`` parameters, ``ISOMITTED``, calls that
leave arguments out. The LAMBDA library needs no rewrite for it (the
``formulas`` engine needs one, ``formulas_engine.for_formulas``), and it
recalculates the templates. What it reads differently from Excel, seen with
0.9.1 (the version pinned in pyproject.toml):

- ``ISNUMBER`` and ``ISERROR`` over a range give one value, not an array
  (``=ISNUMBER(A1:A4)`` entered over four cells is FALSE in each), so a LAMBDA
  called with a range cannot spill, and a range read as a whole
  (FT_TOKENS_PER_EXAMPLE's lengths) is read as no number at all;
- a LAMBDA parameter named as a defined name (case aside) reads the defined
  name (``#NAME?``): the library's parameters are named apart from every name
  (xlfuncs.templates.lambdas.RENAMED, and its test);
- a cell with a style and ``t="n"`` but no value reads as 0, not blank: the
  writer stores a blank cell as Excel does, with no type
  (xlfuncs.workbook.xlsx._empty_cells_blank).

Its loader prints "Unexpected type (empty) in Sheet!A1" for each formula cell
without a cached value (every one, once they are stripped); pytest captures it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import pytest

ironcalc = pytest.importorskip("ironcalc")

#: The edition's language as IronCalc's locale (number formats in TEXT).
LOCALES = {"en": "en", "es": "es"}


@dataclass(frozen=True)
class Error:
    """An error value IronCalc computed: ``Error("#N/A")``."""

    code: str

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True)
class Cell:
    value: Any


class Sheet:
    def __init__(self, model: Any, index: int) -> None:
        self.model, self.index = model, index

    def __getitem__(self, coord: str) -> Cell:
        from openpyxl.utils.cell import column_index_from_string as column
        from openpyxl.utils.cell import coordinate_from_string

        letters, row = coordinate_from_string(coord)
        return Cell(self.value(row, column(letters)))

    def value(self, row: int, col: int) -> Any:
        v = self.model.get_cell_value(self.index, row, col)
        kind = self.model.get_cell_type(self.index, row, col)
        return Error(v) if kind == ironcalc.CellType.ErrorValue else v


class Book:
    """A workbook IronCalc has evaluated, read as openpyxl reads one:
    ``book["Sheet"]["B4"].value``."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.titles = [p["name"] for p in model.get_worksheets_properties()]

    def __getitem__(self, title: str) -> Sheet:
        return Sheet(self.model, self.titles.index(title))


def evaluated(path: str | os.PathLike[str], lang: str = "en") -> Book:
    """The workbook at ``path``, every formula computed by IronCalc."""
    model = ironcalc.load_from_xlsx(os.fspath(path), LOCALES[lang])
    model.evaluate()
    return Book(model)


def is_error(value: Any, code: str | None = None) -> bool:
    return isinstance(value, Error) and (code is None or value.code == code)


def number(value: Any) -> float | None:
    """A computed number as a float, or None if it is an error, text or blank."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)
