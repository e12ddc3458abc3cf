"""The printed page: text that fits its cells, paper, scale and footer."""

from __future__ import annotations

import re
from collections.abc import Callable

from openpyxl.worksheet.header_footer import HeaderFooterItem
from openpyxl.worksheet.header_footer import _HeaderFooterPart as Part
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

LINE = 13.0  # points a line of 10-pt text takes
# Sheet points a printed page holds at full size, A4 or Letter (the shorter),
# less margins, footer and the repeated title row: where page breaks go.
PAGE = {"portrait": 690.0, "landscape": 470.0}
# The widest a sheet is designed, in pixels (96 per inch): the narrower of A4
# and Letter less half-inch margins is 698 (portrait) and 960 (landscape); with
# room for a face 26 % wider than Calibri (DejaVu Sans, where neither Calibri
# nor Carlito is installed) to print 10-pt text at 8 pt or more.
WIDTH_PX = {"portrait": 660.0, "landscape": 940.0}


def width_px(widths: list[float]) -> float:
    """Columns' printed width in pixels, as Excel sizes a column of ``w``
    characters of the default font (7 px a character and 5 px of padding)."""
    return sum(7 * w + 5 for w in widths)


# Calibri's advance widths (units of 1/2048 em; Carlito's are the same), for
# the letters, the space and the punctuation labels use; a digit is 1,038.
# fmt: off
_GLYPH = dict(zip("abcdefghijklmnopqrstuvwxyz", (
    979, 1076, 866, 1076, 1019, 625, 964, 1076, 470, 490, 931, 470, 1636, 1076, 1080,
    1076, 1076, 714, 801, 686, 1076, 925, 1464, 887, 927, 809)))
_GLYPH |= dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (
    1185, 1114, 1092, 1260, 1000, 941, 1292, 1276, 516, 653, 1064, 861, 1751, 1322,
    1356, 1058, 1378, 1112, 941, 998, 1314, 1162, 1822, 1063, 998, 959)))
_GLYPH |= {" ": 463, ",": 511, ".": 517, ":": 548, ";": 548, "(": 621, ")": 621,
           "-": 627, "/": 793, "'": 452, "’": 452, "%": 1465}
# fmt: on
_DIGIT = 1038
# A column w characters wide is 7·w + 5 pixels, less the cell's padding, and a
# character of the default font (11 pt) is a digit, 7.4 px: body text is 10 pt.
_PER_CHARACTER = 10 / 11


def text_width(text: str) -> float:
    """A text's width at 10 pt, in characters of a column's width."""
    return sum(_GLYPH.get(ch, _DIGIT) for ch in text) / _DIGIT * _PER_CHARACTER


def lines(text: str, width: float) -> int:
    """Lines a wrapped text takes in a column ``width`` characters wide: the
    more of two estimates, by characters and by Calibri's letter widths (an
    "m" is three "i"s), so that no row is set too short for its text (a set
    height clips it). A long address wraps after its slashes and hyphens, as
    LibreOffice wraps it."""
    by_width = _wrapped(text, max(1.0, (7 * width - 1) / 7.4), text_width)
    return max(by_width, _wrapped(text, max(1.0, width * 1.15), len))


def _wrapped(text: str, per_line: float, size: Callable[[str], float]) -> int:
    space = size(" ")
    count, used = 1, 0.0
    for word in text.split():
        for k, piece in enumerate(re.split(r"(?<=[/-])(?=.)", word)):
            gap = space if used and k == 0 else 0.0
            if used and used + gap + size(piece) > per_line:
                count += 1
                used = size(piece)
            else:
                used += gap + size(piece)
    return count


#: The appendix's header, for sheets the reader who signs does not print.
APPENDIX = {
    "en": "Appendix {letter}: {sheet}, for reference; not part of the pages to sign",
    "es": "Anexo {letter}: {sheet}, de referencia; no es parte de las páginas a firmar",
}


def setup_print(
    ws: Worksheet,
    lang: str,
    *,
    portrait: bool,
    stamp: str = "",
    one_page: bool = False,
    appendix: str = "",
    pages_wide: int | None = None,
) -> None:
    """Paper, margins and the footer every printed sheet has (the file, the page,
    and ``stamp``, the version that built it), printed one page wide.

    One page wide, not a fixed scale: where Calibri is missing, and with it
    its metric twin Carlito, a wider face sets the columns wider, and a fixed
    scale would then split every page in two. Each sheet is designed to print
    at full size with Calibri (:data:`WIDTH_PX`), so that a face a quarter wider
    still prints 10-pt text at 8 pt. ``one_page``: one page tall too (a summary
    designed to fit, so the shrink stays small). ``pages_wide``: a reference
    table too wide for one page prints that many pages across, its first
    column (the row's name) repeated on each (None: as the sheet was set
    up before, else one). ``appendix``: its letter, for
    a reference sheet (Checks, Data, Models): a header saying so and pages
    numbered A-1, A-2… of its own, so the pages to sign stay a set.
    """
    ws.page_setup.orientation = "portrait" if portrait else "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_LETTER if lang == "en" else ws.PAPERSIZE_A4
    if pages_wide is None:
        pages_wide = ws.page_setup.fitToWidth or 1
    ws.page_setup.fitToWidth = pages_wide
    if pages_wide > 1:
        ws.print_title_cols = "A:A"
    ws.page_setup.fitToHeight = 1 if one_page else 0
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.page_margins.left = ws.page_margins.right = 0.5
    ws.page_margins.top = ws.page_margins.bottom = 0.6
    ws.page_margins.header = ws.page_margins.footer = 0.3
    # No "of N": a spreadsheet's N counts the appendices' pages too, which are
    # numbered on their own (A-1, A-2…) apart from the pages to sign.
    page = "Page &P" if lang == "en" else "Página &P"
    if appendix:
        page = ("Page " if lang == "en" else "Página ") + f"{appendix}-&P"
        ws.page_setup.firstPageNumber = 1
        ws.page_setup.useFirstPageNumber = True
        ws.oddHeader = HeaderFooterItem(
            center=Part(APPENDIX[lang].format(letter=appendix, sheet=ws.title), size=10,
                        font="Calibri,Italic"),
        )  # fmt: skip
    ws.oddFooter = HeaderFooterItem(
        left=Part("&F", size=10, font="Calibri"),
        center=Part(page, size=10, font="Calibri"),
        right=Part(stamp, size=10, font="Calibri"),
    )
    ws.print_options.horizontalCentered = True
