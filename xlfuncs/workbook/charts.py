"""Scatter charts that previews can draw: cached series values, readable axes.

openpyxl writes a series as a bare reference; a viewer that does not calculate
(a file preview, a mail client) then draws an empty chart. Each series here also
carries its values (``numCache``) and its title (``strCache``). Every chart has
a ``scatterStyle`` (the schema requires one; openpyxl leaves it out).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from openpyxl.chart import ScatterChart
from openpyxl.chart.data_source import (
    AxDataSource,
    NumData,
    NumDataSource,
    NumFmt,
    NumRef,
    NumVal,
    StrData,
    StrRef,
    StrVal,
)
from openpyxl.chart.marker import Marker
from openpyxl.chart.series import SeriesLabel, XYSeries
from openpyxl.chart.shapes import GraphicalProperties
from openpyxl.chart.text import RichText
from openpyxl.drawing.text import CharacterProperties, Paragraph, ParagraphProperties

COLOURS = ("1F3864", "C00000", "548235", "BF8F00")


def _num(ref: str, values: Sequence[float | None], fmt: str) -> NumRef:
    points = [
        NumVal(idx=i, v=v)
        for i, v in enumerate(values)
        if isinstance(v, (int, float)) and not isinstance(v, bool)
    ]
    return NumRef(
        f=ref, numCache=NumData(formatCode=fmt, ptCount=len(values), pt=points)
    )


def numbers(ref: str, values: Sequence[float | None], fmt: str) -> NumRef:
    """A reference with its values cached, for any chart's series."""
    return _num(ref, values, fmt)


def series(
    title_ref: str | None,
    title: str,
    x_ref: str,
    xs: Sequence[float | None],
    y_ref: str,
    ys: Sequence[float | None],
    colour: str,
    *,
    marker: str = "circle",
    line: bool = True,
) -> XYSeries:
    """A series with its values and title cached."""
    s = XYSeries()
    s.marker = Marker()
    s.tx = (
        SeriesLabel(
            strRef=StrRef(
                f=title_ref, strCache=StrData(ptCount=1, pt=[StrVal(idx=0, v=title)])
            )
        )
        if title_ref
        else SeriesLabel(v=title)
    )
    s.xVal = AxDataSource(numRef=_num(x_ref, xs, "General"))
    s.yVal = NumDataSource(numRef=_num(y_ref, ys, "General"))
    s.marker.symbol = marker  # type: ignore[assignment]
    s.marker.size = 7 if marker != "diamond" else 11
    s.marker.graphicalProperties = GraphicalProperties(solidFill=colour)
    s.marker.graphicalProperties.line.solidFill = colour
    s.graphicalProperties = GraphicalProperties()
    if line:
        s.graphicalProperties.line.solidFill = colour
        s.graphicalProperties.line.width = 22_000  # EMU: about 1.75 pt
    else:
        s.graphicalProperties.line.noFill = True
    s.smooth = False
    return s


def _text(size: int, bold: bool = False) -> RichText:
    props = CharacterProperties(latin=None, sz=size * 100, b=bold)
    props.latin = None
    return RichText(
        p=[Paragraph(pPr=ParagraphProperties(defRPr=props), endParaRPr=props)]
    )


def scatter(
    title: str,
    x_title: str,
    y_title: str,
    *,
    x_fmt: str = "General",
    y_fmt: str = "General",
    log_x: bool = False,
    log_y: bool = False,
    x_range: tuple[float, float] | None = None,
    y_range: tuple[float, float] | None = None,
    width_cm: float = 17.0,
    height_cm: float = 7.5,
) -> ScatterChart:
    """An empty scatter chart: titles, number formats in the units people read."""
    chart = ScatterChart(scatterStyle="lineMarker")
    chart.title = title
    chart.style = 2
    chart.width, chart.height = width_cm, height_cm  # type: ignore[assignment]
    chart.x_axis.title = x_title
    chart.y_axis.title = y_title
    for axis, fmt, log, bounds in (
        (chart.x_axis, x_fmt, log_x, x_range),
        (chart.y_axis, y_fmt, log_y, y_range),
    ):
        axis.delete = False
        axis.numFmt = NumFmt(formatCode=fmt, sourceLinked=False)
        axis.majorGridlines = axis.majorGridlines if axis is chart.y_axis else None
        if log:
            axis.scaling.logBase = 10
        if bounds is not None:
            axis.scaling.min, axis.scaling.max = bounds
        axis.txPr = _text(10)
    chart.legend.position = "b"  # type: ignore[union-attr]
    return chart


def log_bounds(values: Sequence[float]) -> tuple[float, float]:
    """A log axis from the power of ten at or below the least value to the one at
    or above the greatest: Excel and LibreOffice put a label at each power of ten
    counted from the minimum, so 1, 10, 100 rather than 0.8, 8, 80."""
    lo, hi = min(values), max(values)
    return 10.0 ** math.floor(math.log10(lo)), 10.0 ** math.ceil(math.log10(hi))
