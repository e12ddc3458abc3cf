"""The printed page: text that fits its cells, paper, scale and footer."""

from __future__ import annotations

import re

from openpyxl.worksheet.header_footer import HeaderFooterItem
from openpyxl.worksheet.header_footer import _HeaderFooterPart as Part
from openpyxl.worksheet.worksheet import Worksheet

LINE = 13.0  # points a line of 10-pt text takes
SCALE = 76  # per cent: 10-pt text prints at 7.6 pt
# Sheet points a printed page holds at SCALE: A4 (297 mm) and Letter (11 in)
# less margins, footer and the repeated title row; the shorter of the two.
PAGE = 880.0


def lines(text: str, width: float) -> int:
    """Lines a wrapped text takes in a column ``width`` characters wide. A long
    address wraps after its slashes and hyphens, as LibreOffice wraps it."""
    per_line = max(1.0, width * 1.15)
    lines, used = 1, 0.0
    for word in text.split():
        for k, piece in enumerate(re.split(r"(?<=[/-])(?=.)", word)):
            space = 1 if used and k == 0 else 0
            if used and used + space + len(piece) > per_line:
                lines += 1
                used = len(piece)
            else:
                used += space + len(piece)
    return lines


def setup_print(
    ws: Worksheet, lang: str, *, portrait: bool, scale: int = SCALE, stamp: str = ""
) -> None:
    """Paper, margins, scale and the footer every printed sheet has: the file,
    the page, and ``stamp`` (the version that built it)."""
    ws.page_setup.orientation = "portrait" if portrait else "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_LETTER if lang == "en" else ws.PAPERSIZE_A4
    ws.page_setup.scale = scale
    ws.page_margins.left = ws.page_margins.right = 0.5
    ws.page_margins.top = ws.page_margins.bottom = 0.6
    ws.page_margins.header = ws.page_margins.footer = 0.3
    page = "Page &P of &N" if lang == "en" else "Página &P de &N"
    ws.oddFooter = HeaderFooterItem(
        left=Part("&F", size=8, font="Calibri"),
        center=Part(page, size=8, font="Calibri"),
        right=Part(stamp, size=8, font="Calibri"),
    )
    ws.print_options.horizontalCentered = True
