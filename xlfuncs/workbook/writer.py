"""One sheet writer for every sheet the project prints.

A :class:`SheetWriter` holds a row cursor and the sheet's columns by name
(``w.put("label", "GPUs")``, never ``ws["A7"]``); every cell goes through
:meth:`~SheetWriter.put` (a value, text never read as a formula) or
:meth:`~SheetWriter.formula` (a formula and the value it is cached with). Rows
grow to fit their wrapped text, blocks of rows are kept together when pages
break, and :meth:`~SheetWriter.finish` sets heights, print area, paper, footer,
frozen panes and protection. The template sheets, the LAMBDA library's reference
card, the covers and the data sheets are all written through it.
"""

from __future__ import annotations

import contextlib
import re
import weakref
from collections.abc import Iterator, Sequence
from copy import copy
from dataclasses import dataclass, replace
from typing import Any

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Font, PatternFill, Protection
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.worksheet import Worksheet

from . import styles as st
from .page import LINE, PAGE, lines, setup_print


@dataclass(frozen=True)
class Column:
    """A column of a sheet: the name code uses, its width in characters."""

    key: str
    width: float


@dataclass(frozen=True)
class Style:
    """How a cell looks: font, fill, number format, alignment, box, unlocked."""

    font: Font = st.BODY
    fill: PatternFill | None = None
    fmt: str | None = None
    align: Alignment = st.TOP
    box: bool = False
    unlocked: bool = False

    def but(self, **changes: Any) -> Style:
        return replace(self, **changes)


BODY = Style()
WRAPPED = Style(align=st.WRAP)
BOLD = Style(font=st.BOLD, align=st.WRAP)
NOTE = Style(font=st.NOTE, align=st.WRAP)
TITLE = Style(font=st.TITLE)
SECTION = Style(font=st.SECTION)
HEADER = Style(font=st.HEADER, fill=st.HEADER_FILL, align=st.WRAP)
HEADER_CENTRED = HEADER.but(align=st.CENTER)
INPUT = Style(
    font=st.INPUT, fill=st.INPUT_FILL, box=True, unlocked=True, align=st.RIGHT
)
RESULT = Style(fill=st.RESULT_FILL, box=True, align=st.RIGHT)
KEY_RESULT = RESULT.but(font=st.BOLD)
GRID_RESULT = RESULT.but(align=st.RIGHT_SHRINK)
STEP = Style(fill=st.CALC_FILL, box=True, align=st.RIGHT)
CHECK = Style(align=st.WRAP, box=True)
MODEL_CHECK = Style(font=st.BOLD, fill=st.CHECK_FILL, align=st.WRAP, box=True)

#: The height of a row of one line, in points.
ROW = LINE + 2
#: Style arrays already made, by workbook (gone with it) and style (see
#: SheetWriter._cell).
_ARRAYS: weakref.WeakKeyDictionary[Workbook, dict[tuple[Any, ...], Any]] = (
    weakref.WeakKeyDictionary()
)


class SheetWriter:
    """Writes one sheet row by row; columns are named."""

    def __init__(self, wb: Workbook, ws: Worksheet, columns: Sequence[Column]) -> None:
        self.wb, self.ws, self.title = wb, ws, ws.title
        self.columns = {c.key: c for c in columns}
        self.letters = {
            c.key: get_column_letter(k) for k, c in enumerate(columns, start=1)
        }
        self.row = 0
        self.heights: dict[int, float] = {}
        # A row to repeat atop each printed page instead of the title (a
        # timeline's months), set by what the sheet holds.
        self.title_row: int | None = None
        self.blocks: list[tuple[int, int]] = []  # (first, last) rows kept together
        self._first = 1  # the first row of the block being written
        self.cached: dict[tuple[str, str], Any] = {}
        for c in columns:
            ws.column_dimensions[self.letters[c.key]].width = c.width

    # ------------------------------------------------------------ where

    def next(self) -> int:
        self.row += 1
        return self.row

    def letter_key(self, index: int) -> str:
        """The name of the column at ``index`` (0 is the first)."""
        return list(self.columns)[index]

    def letter(self, key: str) -> str:
        return self.letters[key]

    def coord(self, key: str, row: int | None = None, *, fixed: bool = False) -> str:
        r = self.row if row is None else row
        col = self.letters[key]
        return f"${col}${r}" if fixed else f"{col}{r}"

    def keys(self, first: str, last: str) -> list[str]:
        """The column names from ``first`` to ``last``, in order."""
        names = list(self.columns)
        return names[names.index(first) : names.index(last) + 1]

    def width(self, first: str, last: str | None = None) -> float:
        return sum(self.columns[k].width for k in self.keys(first, last or first))

    # ------------------------------------------------------------ cells

    def put(
        self,
        key: str,
        value: Any,
        style: Style = BODY,
        *,
        to: str | None = None,
        row: int | None = None,
        fit: bool = True,
    ) -> Cell:
        """A value in column ``key`` (merged across to ``to``); text is always
        text, whatever it starts with, and the row grows to show it whole. An
        empty text is no value: the cell keeps its style and stays blank."""
        cell = self._cell(key, row, style, to)
        cell.value = None if isinstance(value, str) and not value else value
        if isinstance(value, str) and value:
            cell.data_type = "s"
            if fit and style.align.wrap_text:
                bold = 0.85 if style.font.b else 1.0  # bold text is wider
                self.fit(lines(value, self.width(key, to) * bold), cell.row)
        return cell

    def formula(
        self,
        key: str,
        text: str,
        cached: Any,
        style: Style = BODY,
        *,
        to: str | None = None,
        row: int | None = None,
    ) -> Cell:
        """A formula (``text`` without "=") cached with ``cached`` (None: no
        cached value, for a cell whose value is empty)."""
        cell = self._cell(key, row, style, to)
        cell.value = "=" + text
        if cached is not None:
            self.cached[(self.title, cell.coordinate)] = cached
        return cell

    def _cell(self, key: str, row: int | None, style: Style, to: str | None) -> Cell:
        r = self.row if row is None else row
        cell: Cell = self.ws[f"{self.letters[key]}{r}"]
        # Each new style costs openpyxl a hash of every part; a style seen
        # before in this workbook is copied whole, as openpyxl copies styles
        # itself. The cache keeps each style it saw, so the ids in its keys
        # stay those styles' parts (a freed object's id may be reused).
        seen = _ARRAYS.setdefault(self.wb, {})
        sig = (id(style.font), id(style.fill), style.fmt, id(style.align), style.box,
               style.unlocked)  # fmt: skip
        if sig in seen:
            cell._style = copy(seen[sig][0])  # type: ignore[attr-defined]
        else:
            cell.font, cell.alignment = style.font, style.align
            if style.fill is not None:
                cell.fill = style.fill
            if style.fmt is not None:
                cell.number_format = style.fmt
            if style.box:
                cell.border = st.BOX
            if style.unlocked:
                cell.protection = Protection(locked=False)
            seen[sig] = (copy(cell._style), style)  # type: ignore[attr-defined]
        if to is not None and to != key:
            self.ws.merge_cells(f"{cell.coordinate}:{self.letters[to]}{r}")
        return cell

    def fill(self, first: str, last: str, fill: PatternFill) -> None:
        """Paint the cells of this row from ``first`` to ``last``."""
        for k in self.keys(first, last):
            self.ws[self.coord(k)].fill = fill

    def fit(self, n_lines: int, row: int | None = None) -> None:
        """Make the row tall enough for ``n_lines`` lines of body text."""
        r = self.row if row is None else row
        self.heights[r] = max(self.heights.get(r, ROW), n_lines * LINE + 2)

    def height(self, points: float, row: int | None = None) -> None:
        self.heights[self.row if row is None else row] = points

    def validate(self, dv: DataValidation, key: str, row: int | None = None) -> None:
        dv.add(self.coord(key, row))
        self.ws.add_data_validation(dv)

    # ------------------------------------------------------------ names

    def define(self, name: str, key: str, row: int | None = None) -> None:
        """A workbook name for one cell of this sheet."""
        ref = self.coord(key, row, fixed=True)
        self.wb.defined_names[name] = DefinedName(
            name, attr_text=f"{quote_sheetname(self.title)}!{ref}"
        )

    def define_range(
        self, name: str, first: str, last: str, top: int, bottom: int
    ) -> None:
        """A workbook name for a block of this sheet."""
        top_left = self.coord(first, top, fixed=True)
        ref = f"{top_left}:{self.coord(last, bottom, fixed=True)}"
        self.wb.defined_names[name] = DefinedName(
            name, attr_text=f"{quote_sheetname(self.title)}!{ref}"
        )

    def reference(self, key: str, row: int | None = None) -> str:
        """This sheet's cell as another sheet's formula reads it."""
        return f"{quote_sheetname(self.title)}!{self.coord(key, row, fixed=True)}"

    # ------------------------------------------------------------ blocks

    @contextlib.contextmanager
    def block(self) -> Iterator[None]:
        """Rows written inside are kept on one page when they fit on one."""
        self._first = self.row + 1
        yield
        if self.row >= self._first:
            self.blocks.append((self._first, self.row))

    def split(self) -> None:
        """End the block here and go on in a new one: a chart below its table
        is kept whole on a page of its own rather than cut with the table."""
        if self.row >= self._first:
            self.blocks.append((self._first, self.row))
        self._first = self.row + 1

    def finish(
        self,
        lang: str,
        *,
        last: str,
        portrait: bool = True,
        breaks: bool = False,
        title_rows: str | None = None,
        freeze: str | None = None,
        stamp: str = "",
        protect: bool = True,
        one_page: bool = False,
        appendix: str = "",
        pages_wide: int = 1,
    ) -> None:
        """Heights, print area to column ``last``, paper and footer, page breaks
        between blocks (``breaks``), frozen panes and protection (no password;
        columns and rows may be resized)."""
        ws = self.ws
        for r, h in self.heights.items():
            ws.row_dimensions[r].height = h
        ws.print_area = f"A1:{self.letters[last]}{max(self.row, 1)}"
        if title_rows:
            ws.print_title_rows = title_rows
        if freeze:
            ws.freeze_panes = freeze
        setup_print(ws, lang, portrait=portrait, stamp=stamp, one_page=one_page,
                    appendix=appendix, pages_wide=pages_wide)  # fmt: skip
        if breaks:
            self._breaks(PAGE["portrait" if portrait else "landscape"])
        ws.sheet_view.showGridLines = False
        if protect:
            ws.protection.sheet = True
            ws.protection.formatColumns = False
            ws.protection.formatRows = False

    def _breaks(self, page: float) -> None:
        """A block starts a new page when it would not fit on the current one:
        when it fits on a page by itself and this page is a quarter full, and
        a block longer than a page when this page is half full."""

        def height(a: int, b: int) -> float:
            return sum(self.heights.get(r, ROW) for r in range(a, b + 1))

        if not self.blocks:
            return
        used = height(1, self.blocks[0][0] - 1)
        for first, end in self.blocks:
            h = height(first, end)
            if first == self.blocks[0][0]:  # the sheet's head leads into it
                used = (used + h) % page
                continue
            # A block that fits on a page starts one rather than be cut, unless
            # that leaves three quarters of this page blank; a longer one is cut
            # anyway, so it starts one only when this page is half full.
            if used + h > page and used > (page / 4 if h <= page else page / 2):
                self.ws.row_breaks.append(Break(id=first - 1))
                used = h
            else:
                used += h
            used %= page  # what a block longer than a page leaves on its last


def column_key(coord: str) -> str:
    """The letters of a coordinate: ``"$B$7"`` -> ``"B"``."""
    return re.sub(r"[$\d]", "", coord)


__all__ = [
    "BODY",
    "BOLD",
    "CHECK",
    "HEADER",
    "HEADER_CENTRED",
    "INPUT",
    "KEY_RESULT",
    "MODEL_CHECK",
    "NOTE",
    "RESULT",
    "ROW",
    "SECTION",
    "STEP",
    "TITLE",
    "WRAPPED",
    "Column",
    "SheetWriter",
    "Style",
]
