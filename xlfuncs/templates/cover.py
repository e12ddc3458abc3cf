"""The cover sheet: what the workbook answers, how to use it, its limits and
sources, its version and build date. Readable without this repository."""

from __future__ import annotations

from datetime import date

from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from .. import __version__
from ..workbook import styles as st
from ..workbook.page import LINE, lines, setup_print
from .blocks import Template
from .texts import T

WIDTH = 100  # one wide column

HEADINGS = {
    "cover": T("About this workbook", "Acerca de este libro"),
    "answers": T("What it answers", "Qué responde"),
    "steps": T("How to use it", "Cómo usarlo"),
    "check": T("The model check", "El control del modelo"),
    "check_text": T(
        "The cell 'Model check' at the top of the model sheet reads OK when every "
        "input is valid and in its usual range. Otherwise it names the first input "
        "to look at: an error (results show n/a until it is fixed) or a warning (a "
        "value outside the usual range: results still compute). Each input has its "
        "own Check cell beside it, and each scenario and table checks its own values.",
        "La celda 'Control del modelo', arriba en la hoja del modelo, muestra OK "
        "cuando todos los datos son válidos y habituales. Si no, nombra el primer "
        "dato a revisar: un error (los resultados muestran n/d hasta corregirlo) o "
        "un aviso (un valor fuera de lo habitual: los resultados se calculan). Cada "
        "dato tiene su celda de Control al lado, y cada escenario y tabla revisa sus "
        "propios valores.",
    ),
    "limits": T("Known limits", "Límites conocidos"),
    "sources": T("Sources", "Fuentes"),
    "version": T("Version", "Versión"),
    "built": T(
        "Built by xlfuncs {version} on {date}: plain Excel formulas, no macros, "
        "nothing to install. Works in Excel (Windows, Mac, web) and LibreOffice.",
        "Generado con xlfuncs {version} el {date}: fórmulas de Excel sin macros, "
        "nada que instalar. Funciona en Excel (Windows, Mac, web) y LibreOffice.",
    ),
}


def add_cover(
    wb: Workbook, ws: Worksheet, tpl: Template, lang: str, built: date
) -> None:
    """Fill ``ws`` (the first sheet) with the template's cover."""
    ws.title = HEADINGS["cover"](lang)
    ws.column_dimensions["A"].width = WIDTH
    row = 0

    def put(text: str, font: object = st.BODY, gap: bool = False) -> None:
        nonlocal row
        if gap:
            row += 1
        row += 1
        c = ws.cell(row, 1, text)
        c.data_type = "s"
        c.font, c.alignment = font, st.WRAP  # type: ignore[assignment]
        ws.row_dimensions[row].height = lines(text, WIDTH) * LINE + 3

    put(tpl.title(lang), st.TITLE)
    ws.row_dimensions[row].height = 24
    put(tpl.subtitle(lang))
    put(HEADINGS["answers"](lang), st.SECTION, gap=True)
    put(tpl.cover.answers(lang))
    put(HEADINGS["steps"](lang), st.SECTION, gap=True)
    for k, step in enumerate(tpl.cover.steps, start=1):
        put(f"{k}. {step(lang)}")
    put(HEADINGS["check"](lang), st.SECTION, gap=True)
    put(HEADINGS["check_text"](lang))
    put(HEADINGS["limits"](lang), st.SECTION, gap=True)
    for limit in tpl.cover.limits:
        put("• " + limit(lang))
    put(HEADINGS["sources"](lang), st.SECTION, gap=True)
    for source in tpl.cover.sources:
        put("• " + source(lang))
    put(HEADINGS["version"](lang), st.SECTION, gap=True)
    day = built.isoformat()
    put(HEADINGS["built"](lang).format(version=__version__, date=day))
    ws.print_area = f"A1:A{row}"
    setup_print(ws, lang, portrait=True, stamp=f"xlfuncs {__version__}")
    ws.sheet_view.showGridLines = False
    ws.protection.sheet = True
    _ = wb
