"""One typeface, named and sized in every style; the finance colour conventions."""

from __future__ import annotations

from openpyxl.styles import Alignment, Border, Font, PatternFill, Side

FACE = "Calibri"  # Excel's default; LibreOffice uses the metric-compatible Carlito
SIZE = 10  # points on screen; print scaling keeps it at 7 pt or more on paper
NAVY = "1F3864"
GREY = "595959"


def font(**kw: object) -> Font:
    """A font that always names its face and size."""
    return Font(name=FACE, sz=kw.pop("sz", SIZE), **kw)  # type: ignore[arg-type]


BODY = font()
BOLD = font(b=True)
TITLE = font(sz=16, b=True, color=NAVY)
SECTION = font(sz=12, b=True, color=NAVY)
HEADER = font(b=True, color="FFFFFF")
INPUT = font(color="0000FF")  # blue figures: typed by the user (finance convention)
NOTE = font(i=True, color=GREY)
SMALL = font(sz=9, color=GREY)

INPUT_FILL = PatternFill("solid", fgColor="FFF2CC")  # pale yellow: type here
CALC_FILL = PatternFill("solid", fgColor="F2F2F2")  # grey: a step on the way
RESULT_FILL = PatternFill("solid", fgColor="E2EFDA")  # green: a result
HEADER_FILL = PatternFill("solid", fgColor=NAVY)
CHECK_FILL = PatternFill("solid", fgColor="FBE5D6")  # the model check

THIN = Side(style="thin", color="BFBFBF")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)

TOP = Alignment(vertical="top")
WRAP = Alignment(wrap_text=True, vertical="top")
RIGHT = Alignment(horizontal="right", vertical="top")
# A grid's result: "n/d: ver Control" shrinks into a column sized for figures.
RIGHT_SHRINK = Alignment(horizontal="right", vertical="top", shrink_to_fit=True)
CENTER = Alignment(horizontal="center", vertical="top", wrap_text=True)
