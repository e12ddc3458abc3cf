"""The cover sheet: what the workbook answers, how to use it, its limits and
sources, its version and build date. Readable without this repository."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from .. import __version__
from ..workbook import writer as wr
from ..workbook.writer import Column, SheetWriter
from .blocks import Template
from .texts import T, Text

WIDTH = 88  # one wide column, whole on a portrait page at full size

HEADINGS = {
    "cover": T("About this workbook", "Acerca de este libro"),
    "answers": T("What it answers", "Qué responde"),
    "steps": T("How to use it", "Cómo usarlo"),
    "check": T("The model check", "El control del modelo"),
    "check_text": T(
        "The cell 'Model check' at the top of the summary and the model sheet reads "
        "OK when every input is valid and in its usual range and every result is "
        "plausible. Otherwise it names the worst problem and where: an error first "
        "(results show n/a until it is fixed, or a plan that cannot run), then a "
        "warning (a value outside the usual range: results still compute). The "
        "Checks sheet lists every check; each input has its own Check cell beside "
        "it, and each scenario and table checks its own values.",
        "La celda 'Control del modelo', arriba en el resumen y en la hoja del modelo, "
        "muestra OK cuando todos los datos son válidos y habituales y los resultados "
        "plausibles. Si no, nombra el peor problema y dónde: primero un error (los "
        "resultados muestran n/d hasta corregirlo, o el plan no puede ejecutarse), "
        "luego un aviso (un valor fuera de lo habitual: los resultados se calculan). "
        "La hoja Controles lista todos los controles; cada dato tiene su celda de "
        "Control al lado, y cada escenario y tabla revisa sus propios valores.",
    ),
    "print": T("Printing", "Impresión"),
    "print_text": T(
        "The pages to sign are {pages}. The Checks, Data and Models sheets print as "
        "appendices A, B and C, each numbered on its own (A-1, A-2…). To print only "
        "the pages to sign, select their tabs (Ctrl+click; ⌘+click on a Mac) and "
        "print the selected sheets.",
        "Las páginas a firmar son {pages}. Las hojas Controles, Datos y Modelos se "
        "imprimen como anexos A, B y C, cada uno con su numeración (A-1, A-2…). Para "
        "imprimir solo las páginas a firmar, seleccione sus pestañas (Ctrl+clic; "
        "⌘+clic en un Mac) e imprima las hojas seleccionadas.",
    ),
    "and": T(" and ", " y "),
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


def write_cover(
    wb: Workbook,
    ws: Worksheet,
    lang: str,
    title: str,
    sections: Sequence[tuple[str, Sequence[str]]],
    intro: str = "",
) -> None:
    """A cover in one wide column: a title, an introduction, then each section's
    heading and paragraphs (the template workbooks' and the LAMBDA library's)."""
    w = SheetWriter(wb, ws, (Column("text", WIDTH),))
    w.next()
    w.put("text", title, wr.TITLE)
    w.height(24)
    if intro:
        w.next()
        w.put("text", intro, wr.WRAPPED)
    for heading, paragraphs in sections:
        w.next()
        w.next()
        w.put("text", heading, wr.SECTION)
        for text in paragraphs:
            w.next()
            w.put("text", text, wr.WRAPPED)
    w.finish(lang, last="text", stamp=f"xlfuncs {__version__}")


def add_cover(
    wb: Workbook,
    ws: Worksheet,
    tpl: Template,
    lang: str,
    built: date,
    fill: Callable[[Text], str] | None = None,
) -> None:
    """Fill ``ws`` (the first sheet) with the template's cover; ``fill`` writes a
    text with the defaults' figures in it (its ``{Name}`` placeholders)."""
    fill = fill or (lambda text: text(lang))
    ws.title = HEADINGS["cover"](lang)
    h = {k: v(lang) for k, v in HEADINGS.items()}
    day = built.isoformat()
    write_cover(
        wb, ws, lang, tpl.title(lang),
        [
            (h["answers"], [fill(tpl.cover.answers)]),
            (h["steps"], [f"{k}. {fill(s)}" for k, s in enumerate(tpl.cover.steps, 1)]),
            (h["check"], [h["check_text"]]),
            *([(h["print"], [h["print_text"].format(pages=_pages(tpl, lang, h["and"]))])]
              if tpl.data_sheet else []),
            (h["limits"], ["• " + x(lang) for x in tpl.cover.limits]),
            (h["sources"], ["• " + x(lang) for x in tpl.cover.sources]),
            (h["version"], [h["built"].format(version=__version__, date=day)]),
        ],
        intro=fill(tpl.subtitle),
    )  # fmt: skip


def _pages(tpl: Template, lang: str, and_: str) -> str:
    """The sheets to sign, named: this cover and the template's own sheets."""
    names = [HEADINGS["cover"](lang), *(s.name(lang) for s in tpl.sheets)]
    return ", ".join(names[:-1]) + and_ + names[-1]
