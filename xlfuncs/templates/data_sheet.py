"""The reference data sheet: the tables the Excel expressions look names up in.

Every workbook whose formulas read an accelerator's peak or a fit's constants
carries this sheet: the accelerator table (a row per accelerator, a column per
precision, its source), the fits' constants (with G and the exponent as formulas
over them), and the key tables that let a formula accept every spelling the Python
look-ups accept ("nvidia h100-sxm" is the H100 SXM). The workbook names it defines
are the ones :mod:`xlfuncs.registry.excel` declares.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import permutations
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.worksheet import Worksheet

from ..data.accelerators import ACCELERATORS, find
from ..data.fits import FITS
from ..data.units import DTYPE_ALIASES, DTYPES, TRAINING_DTYPES, find_dtype
from ..registry.excel import (
    ACCELERATOR_KEYS,
    ACCELERATOR_PEAKS,
    ACCELERATOR_ROW,
    DTYPE_COLUMN,
    DTYPE_KEYS,
    FIT,
    FIT_NAMES,
    xl,
)

#: Words a vendor's names may start with; the Python look-up strips them too.
VENDOR_WORDS = {
    "NVIDIA": ("nvidia", "tesla"),
    "AMD": ("amd", "instinct"),
    "Google": ("google", "cloud"),
    "Intel": ("intel", "habana"),
}
MISSING = "–"  # a figure the vendor does not publish
SOURCE_WIDTH = 70  # characters: the sources wrap in a column this wide


def _lines(text: str, width: float) -> int:
    per_line, lines, used = width * 1.1, 1, 0.0
    for word in text.split():
        if used and used + 1 + len(word) > per_line:
            lines, used = lines + 1, len(word)
        else:
            used += (1 if used else 0) + len(word)
    return lines


#: (cell, value): the cached value of each formula cell the sheet writes.
Cached = dict[tuple[str, str], Any]


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch not in " -_\t\u00a0")


def accelerator_keys() -> Iterator[tuple[str, int]]:
    """Every spelling a formula accepts, as key() writes it, and its table row."""
    seen: set[str] = set()
    for row, acc in enumerate(ACCELERATORS, start=1):
        words = VENDOR_WORDS.get(acc.vendor, ())
        prefixes = [""] + ["".join(p) for n in (1, 2) for p in permutations(words, n)]
        for spelling in (acc.name, *acc.aliases):
            for prefix in prefixes:
                k = prefix + _key(spelling)
                if k not in seen and find(k) is acc:  # the Python look-up agrees
                    seen.add(k)
                    yield k, row


def dtype_keys() -> Iterator[tuple[str, int]]:
    for spelling in (*DTYPES, *DTYPE_ALIASES):
        canonical = find_dtype(spelling)
        assert canonical is not None
        yield _key(spelling), 1 + DTYPES.index(canonical)


def _name(wb: Workbook, name: str, title: str, ref: str) -> None:
    wb.defined_names[name] = DefinedName(
        name, attr_text=f"{quote_sheetname(title)}!{ref}"
    )


def _range(c1: int, r1: int, c2: int, r2: int) -> str:
    return f"${get_column_letter(c1)}${r1}:${get_column_letter(c2)}${r2}"


HEADER_FONT = Font(name="Calibri", sz=10, bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="1F3864")
BODY_FONT = Font(name="Calibri", sz=10)


def _header(ws: Worksheet, row: int, titles: list[str]) -> None:
    for col, title in enumerate(titles, start=1):
        c = ws.cell(row, col, title)
        c.data_type = "s"
        c.font, c.fill = HEADER_FONT, HEADER_FILL
        c.alignment = Alignment(wrap_text=True, vertical="center")


def add_data_sheet(wb: Workbook, t: Callable[[str], str]) -> tuple[Worksheet, Cached]:
    """Write the data sheet into ``wb``; ``t`` gives its texts by key.

    Keys: data.sheet, data.accelerator, data.vendor, data.source, data.fits,
    data.fit, data.fit_source, data.keys, data.key, data.row, data.column.
    """
    ws = wb.create_sheet(t("data.sheet"))
    title = ws.title
    cached: Cached = {}
    # Accelerators: a row each, a column per precision, the source last.
    _header(ws, 1, [t("data.accelerator"), t("data.vendor"), *DTYPES, t("data.source")])
    for r, acc in enumerate(ACCELERATORS, start=2):
        ws.cell(r, 1, acc.name).data_type = "s"
        ws.cell(r, 2, acc.vendor).data_type = "s"
        for j, d in enumerate(DTYPES):
            value = acc.peak_tflops.get(d)
            c = ws.cell(r, 3 + j, value if value is not None else MISSING)
            c.number_format = "#,##0.0"
            c.alignment = Alignment(horizontal="right")
        src = ws.cell(r, 3 + len(DTYPES), acc.source)
        src.data_type = "s"
        src.alignment = Alignment(wrap_text=True, vertical="top")
        ws.row_dimensions[r].height = 13 * _lines(acc.source, SOURCE_WIDTH) + 2
    last = 1 + len(ACCELERATORS)
    _name(wb, "AcceleratorNames", title, _range(1, 2, 1, last))
    _name(wb, ACCELERATOR_PEAKS, title, _range(3, 2, 2 + len(DTYPES), last))
    _name(wb, "DtypeNames", title, _range(3, 1, 2 + len(DTYPES), 1))
    # The precisions a model trains in come first in DTYPES; int8 is last.
    assert DTYPES[: len(TRAINING_DTYPES)] == TRAINING_DTYPES
    _name(wb, "TrainingDtypeNames", title, _range(3, 1, 2 + len(TRAINING_DTYPES), 1))

    # Fits: the constants, and G and a worked out from them by formula.
    r = last + 2
    ws.cell(r, 1, t("data.fits")).font = Font(name="Calibri", sz=10, bold=True)
    r += 1
    _header(
        ws, r, [t("data.fit"), "E", "A", "B", "α", "β", "G", "a", t("data.fit_source")]
    )
    first = r + 1
    for name, fit in FITS.items():
        r += 1
        ws.cell(r, 1, name).data_type = "s"
        for col, value in enumerate(
            (fit.E, fit.A, fit.B, fit.alpha, fit.beta), start=2
        ):
            ws.cell(r, col, value)
        # G = (αA/(βB))^(1/(α+β)) and a = β/(α+β), Hoffmann et al. 2022, eq. 4.
        ws.cell(
            r, 7, f"=POWER(E{r}*C{r}/(F{r}*D{r}),1/(E{r}+F{r}))"
        ).number_format = "0.0000"
        ws.cell(r, 8, f"=F{r}/(E{r}+F{r})").number_format = "0.0000"
        cached[(title, f"G{r}")] = fit.G
        cached[(title, f"H{r}")] = fit.a
        src = ws.cell(r, 9, fit.source)
        src.data_type = "s"
        src.alignment = Alignment(wrap_text=True, vertical="top")
    _name(wb, FIT_NAMES, title, _range(1, first, 1, r))
    for col, which in enumerate(("E", "A", "B", "Alpha", "Beta", "G", "Exponent"), 2):
        _name(wb, FIT[which], title, _range(col, first, col, r))

    ws.print_area = f"A1:{get_column_letter(3 + len(DTYPES))}{r}"
    ws.print_title_rows = "1:1"

    # Keys, on a hidden sheet: every spelling a formula accepts, beside the row
    # or column it means.
    keys = wb.create_sheet(t("data.keys"))
    keys.sheet_state = "hidden"
    _header(keys, 1, [t("data.key"), t("data.row"), t("data.key"), t("data.column")])
    top = 2
    akeys, dkeys = list(accelerator_keys()), list(dtype_keys())
    for k, (text, row) in enumerate(akeys):
        keys.cell(top + k, 1, text).data_type = "s"
        keys.cell(top + k, 2, row)
    for k, (text, col) in enumerate(dkeys):
        keys.cell(top + k, 3, text).data_type = "s"
        keys.cell(top + k, 4, col)
    kt = keys.title
    _name(wb, ACCELERATOR_KEYS, kt, _range(1, top, 1, top + len(akeys) - 1))
    _name(wb, ACCELERATOR_ROW, kt, _range(2, top, 2, top + len(akeys) - 1))
    _name(wb, DTYPE_KEYS, kt, _range(3, top, 3, top + len(dkeys) - 1))
    _name(wb, DTYPE_COLUMN, kt, _range(4, top, 4, top + len(dkeys) - 1))
    keys.protection.sheet = True

    for sheet in (ws, keys):
        for row in sheet.iter_rows():
            for c in row:
                if not c.font.b:
                    c.font = BODY_FONT
                if c.alignment.vertical is None:
                    c.alignment = Alignment(
                        vertical="top", horizontal=c.alignment.horizontal
                    )
    ws.column_dimensions["A"].width = 12
    ws.column_dimensions["B"].width = 9
    for j in range(len(DTYPES)):
        ws.column_dimensions[get_column_letter(3 + j)].width = 8.5
    ws.column_dimensions[get_column_letter(3 + len(DTYPES))].width = SOURCE_WIDTH
    ws.row_dimensions[1].height = 28
    ws.freeze_panes = "B2"
    ws.protection.sheet = True
    return ws, cached


__all__ = ["add_data_sheet", "accelerator_keys", "dtype_keys", "xl"]
