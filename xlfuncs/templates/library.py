"""The LAMBDA library workbook: the functions as native Excel functions.

``xlfuncs-functions.xlsx`` holds each registered function that has an Excel
expression as a workbook-scoped named LAMBDA (:mod:`~xlfuncs.templates.lambdas`),
the reference tables its look-ups read (:mod:`~xlfuncs.templates.data_sheet`), a
*Functions* sheet that reads like a reference card (syntax, description, unit,
a live example and the value the Python library computes for it) and a cover
saying which Excel runs it and how to bring the functions into one's own
workbook. ``xlfuncs-functions.lambda.txt`` is the same library as a module for
Excel Labs' Advanced Formula Environment.

One edition, in English: the function names, argument names and descriptions
are the registry's (the xlwings functions' help), which is English only, and
defined names are not translated by Excel; a Spanish frame around English
descriptions would be half a translation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from .. import __version__
from ..registry import REGISTRY, Formula
from ..registry.domains import FRACTION, PERCENTILE
from ..registry.excel import xl
from ..registry.formula import excel_functions
from ..workbook import styles as st
from ..workbook.page import LINE, lines, setup_print
from . import texts as tx
from .build import Built, add_data_sheets, set_properties
from .lambdas import afe_module, lambda_text, tables_read
from .layout import STAMP, build_date
from .shared import (
    BESIROGLU,
    DATASHEETS,
    FINETUNE_CALCULATOR,
    HOFFMANN,
    KAPLAN,
    PALM,
    SIZE_CALCULATOR,
)

FILENAME = "xlfuncs-functions.xlsx"
MODULE_FILENAME = "xlfuncs-functions.lambda.txt"
LANG = "en"
TITLE = "xlfuncs functions for Excel: the LAMBDA library"

#: The two calculators' worked examples, shown first.
WORKED = ("FT_EXAMPLES_PER_SEC", "CHINCHILLA_PARAMS")

TOPICS = {
    "xlfuncs.functions.finetune": "Fine-tuning throughput, time and cost",
    "xlfuncs.functions.scaling": "Compute-optimal size: the 20-tokens rule",
    "xlfuncs.functions.cluster": "Clusters, utilisation and training time",
    "xlfuncs.functions.hardware": "Accelerators (read the Data sheet)",
    "xlfuncs.functions.models": "Published models (read the Models sheet)",
    "xlfuncs.functions.memory": "GPU memory: model states, LoRA, activations, KV cache",
    "xlfuncs.functions.serving": "Serving speed",
    "xlfuncs.functions.energy": "Energy and emissions",
    "xlfuncs.functions.scaling_laws": "Fitted scaling laws (read the Data sheet)",
}

# Functions sheet: columns and their widths (characters).
COLUMNS = {"A": 28, "B": 33, "C": 37, "D": 11, "E": 35, "F": 13, "G": 13}
HEADINGS = (
    "Function",
    "Arguments ([optional], units)",
    "What it returns",
    "Unit",
    "Example",
    "Result (live)",
    "Expected",
)
# Sheet points a landscape page holds at the print scale: Letter (8.5 in) less
# margins, at 76 %, 691; less a margin for the row heights LibreOffice and Excel
# round up.
LANDSCAPE_PAGE = 660.0
FORMULA_FONT = st.font(color="1F3864")
MUTED_FILL = PatternFill("solid", fgColor="F2F2F2")


def specs() -> list[Formula]:
    """The functions in the library: those with an Excel expression, in order."""
    return [f for f in REGISTRY.values() if f.excel is not None]


def left_out() -> list[Formula]:
    """The functions without an Excel expression, each with its reason."""
    return [f for f in REGISTRY.values() if f.excel is None]


def definitions() -> dict[str, str]:
    """{name: its LAMBDA as Excel stores it}."""
    functions = excel_functions()
    return {f.name: lambda_text(f, functions) for f in specs()}


def look_ups(texts: Mapping[str, str]) -> list[str]:
    """The functions that read the reference tables (they need the data sheets),
    given their :func:`definitions`."""
    return [name for name, text in texts.items() if tables_read(text)]


def listed(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


# ------------------------------------------------------------------ texts


def unit_text(spec: Formula) -> str:
    return "currency of the price" if spec.unit == "currency" else spec.unit


def arguments_text(spec: Formula) -> str:
    parts = []
    for a in spec.args:
        unit = a.unit if a.unit != "currency/GPU-hour" else "per GPU-hour"
        if a.name in spec.defaults:
            d = spec.defaults[a.name]
            default = "" if d is None else f", default {_shown(a.name, spec, d)}"
            parts.append(f"[{a.name}] ({unit}{default})")
        else:
            parts.append(f"{a.name} ({unit})")
    return "; ".join(parts)


def _shown(name: str, spec: Formula, value: Any) -> str:
    """An argument value as a user types it: 82%, 7E+10, "H100", {600,800}."""
    arg = next(a for a in spec.args if a.name == name)
    if isinstance(value, str):
        return '"' + value.replace('"', '""') + '"'
    if isinstance(value, (list, tuple)):
        return "{" + ",".join(_shown(name, spec, v) for v in value) + "}"
    x = float(value)
    if arg.domain in (FRACTION, PERCENTILE) and 0 < x <= 1:
        pct = round(x * 100, 10)
        return f"{pct:g}%"
    plain = xl(x)
    if abs(x) >= 1e6:
        for digits in range(16):
            text = f"{x:.{digits}E}"
            if float(text) == x:
                mantissa, exp = text.split("E")
                short = f"{mantissa.rstrip('0').rstrip('.')}E+{int(exp)}"
                return short if len(short) < len(plain) else plain
    return plain


def example_call(spec: Formula, sep: str = ", ") -> str:
    args = sep.join(
        _shown(a.name, spec, v) for a, v in zip(spec.args, spec.example.args)
    )
    return f"={spec.name}({args})"


def number_format(spec: Formula, value: float) -> str:
    """The format the templates give such a figure: M, B and T for counts, whole
    currency above 1,000, two decimals otherwise (1,093.33 examples/min)."""
    v = abs(value)
    if spec.unit == "fraction":
        return tx.PERCENT_FMT
    if spec.unit == "currency":
        return tx.MONEY
    if v >= 1e15:
        return tx.SCIENTIFIC
    if v >= 1e6:
        return tx.LARGE(LANG)
    if v >= 1 or v == 0:
        return tx.COUNT if float(value).is_integer() else tx.TWO
    return "0.0000##"


# ------------------------------------------------------------------ the cover

COVER: list[tuple[str, list[str]]] = [
    (
        "What it is",
        [
            "The xlfuncs functions (fine-tuning throughput, time and cost, "
            "compute-optimal model size, clusters and utilisation, GPU memory, "
            "serving, energy, accelerators and published models; all but the two "
            "listed under Not in this library) as native Excel functions: no "
            "Python, no add-in, no macros. In any cell of this "
            "workbook, =FT_EXAMPLES_PER_SEC(8, 2500, 82%, 900) gives 18.22 "
            "examples/s and =CHINCHILLA_PARAMS(6000) gives 65.7 billion parameters.",
            "The Functions sheet lists each function with its arguments, what it "
            "returns, its unit and a live example beside the value the xlfuncs "
            "Python library computes for it.",
        ],
    ),
    (
        "Which Excel runs it",
        [
            "Excel for Microsoft 365 (Windows, Mac and the web) and Excel 2024: "
            "the functions are LAMBDA functions stored as workbook names. Excel "
            "2021, 2019 and earlier have no LAMBDA and show #NAME? in every call; "
            "LibreOffice (Err:509) and Gnumeric (#NAME?) cannot run them either. "
            "The Expected column of the Functions sheet shows, in any program, "
            "the value each example must give.",
        ],
    ),
    (
        "How to use the functions in your own workbook",
        [
            "1. Simplest: work in this workbook. Add your sheets, or move them here "
            "(right-click a sheet tab › Move or Copy › To book: "
            "xlfuncs-functions.xlsx), and call the functions as you would SUM.",
            "2. Copy the sheets into your workbook: right-click a sheet tab › "
            "Unhide › Keys; select the Functions, Data, Models and Keys tabs "
            "(Ctrl+click); right-click › Move or Copy › To book: yours, tick "
            "'Create a copy'. Excel brings the names the sheets use; check them in "
            "Formulas › Name Manager, then hide Keys again.",
            "3. One function at a time: in Formulas › Name Manager select it and "
            "copy its 'Refers to' text; in your workbook, Formulas › Define Name, "
            "the same name, paste into 'Refers to'. Each function is complete on "
            "its own: the functions it builds on are written out inside it. "
            "{look_ups} look names up in tables, so they also need the Data, "
            "Models and Keys sheets (as in 2).",
            "4. With Excel Labs (Microsoft's free add-in; Formulas › Advanced "
            "Formula Environment): the text file xlfuncs-functions.lambda.txt, "
            "shipped beside this workbook, is a module. Paste it into the Workbook "
            "module on the Modules tab, or import it from a GitHub gist that holds "
            "it, and save: the names are the same. The look-up functions need the "
            "data sheets there too.",
        ],
    ),
    (
        "Not in the same workbook as the xlwings functions",
        [
            "The xlwings functions of xlfuncs (desktop Excel on Windows with "
            "Python) have the same names: a workbook holding both has two "
            "definitions of each. Use these in .xlsx files and the xlwings ones in "
            "their own .xlsm files.",
        ],
    ),
    (
        "Arguments, ranges and errors",
        [
            "Arguments, their order and their defaults are those of the xlwings "
            "functions and the Python library. An optional argument (in brackets "
            "on the Functions sheet) takes its default when left out or given a "
            "blank cell. Percentages are fractions: type 82% or 0.82. Counts are "
            "plain numbers: 70 billion is 7E+10.",
            "A range spills cell by cell, as Excel's own functions do: "
            "=CHINCHILLA_PARAMS(A2:A10) gives nine sizes. FT_TOKENS_PER_EXAMPLE "
            "reads its lengths range as a whole (blank cells skipped).",
            "Bad input gives Excel's own error values, the codes the xlwings "
            "functions give: #VALUE! for text, a blank cell or TRUE/FALSE where a "
            "number belongs; #NUM! for a value outside its range (a negative "
            "count, an efficiency above 100 %) or a result too large; #DIV/0! for "
            "a zero divisor; #N/A for a name the tables do not hold and for a "
            "figure a vendor does not publish. An error received is passed on. "
            "ISERROR and IFERROR see them all.",
        ],
    ),
    ("Not in this library", []),  # filled from the registry
    (
        "Sources",
        [
            FINETUNE_CALCULATOR(LANG),
            SIZE_CALCULATOR(LANG),
            HOFFMANN(LANG),
            BESIROGLU(LANG),
            KAPLAN(LANG),
            PALM(LANG),
            DATASHEETS(LANG),
            "Published models: each model's config.json or paper, cited per row "
            "on the Models sheet.",
        ],
    ),
]
BUILT = (
    "Built by xlfuncs {version} on {date}. Each function is its xlfuncs Excel "
    "expression, the one the template workbooks use, with the argument checks of "
    "the xlwings functions; each is tested against the Python library with an "
    "independent Excel formula engine."
)
COVER_WIDTH = 100


def _cover(ws: Worksheet, lookups: Sequence[str]) -> None:
    ws.title = "About this workbook"
    ws.column_dimensions["A"].width = COVER_WIDTH
    row = 0

    def put(text: str, font: Font = st.BODY, gap: bool = False) -> None:
        nonlocal row
        row += 1 + gap
        c = ws.cell(row, 1, text)
        c.data_type = "s"
        c.font, c.alignment = font, st.WRAP
        ws.row_dimensions[row].height = lines(text, COVER_WIDTH) * LINE + 3

    put(TITLE, st.TITLE)
    ws.row_dimensions[row].height = 24
    for heading, paragraphs in COVER:
        put(heading, st.SECTION, gap=True)
        if heading == "Not in this library":
            paragraphs = [f"{f.name}: {f.excel_note}." for f in left_out()] + [
                "Use the xlwings functions (Excel for Windows with Python), the "
                "Python library or the xlfuncs command line for them."
            ]
        for text in paragraphs:
            bullet = "" if text[:2] in {f"{k}." for k in range(1, 10)} else "• "
            if len(paragraphs) == 1 or heading == "What it is":
                bullet = ""
            put(bullet + text.replace("{look_ups}", listed(lookups)))
    put("Version", st.SECTION, gap=True)
    put(BUILT.format(version=__version__, date=build_date().isoformat()))
    ws.print_area = f"A1:A{row}"
    setup_print(ws, LANG, portrait=True, stamp=STAMP)
    ws.sheet_view.showGridLines = False
    ws.protection.sheet = True


# ------------------------------------------------------------------ Functions


class _Card:
    """Writes the Functions sheet row by row."""

    def __init__(self, ws: Worksheet) -> None:
        self.ws = ws
        self.row = 0
        self.cached: dict[tuple[str, str], Any] = {}
        self.heights: dict[int, float] = {}
        self.blocks: list[tuple[int, int]] = []

    def next(self) -> int:
        self.row += 1
        return self.row

    def put(
        self,
        col: str,
        value: Any,
        *,
        font: Font = st.BODY,
        fill: PatternFill | None = None,
        align: Alignment = st.WRAP,
        fmt: str | None = None,
        formula: bool = False,
    ) -> None:
        c = self.ws[f"{col}{self.row}"]
        c.value = value
        if isinstance(value, str) and not formula:
            c.data_type = "s"  # text never becomes a formula, whatever it starts with
        c.font, c.alignment = font, align
        if fill is not None:
            c.fill = fill
        if fmt is not None:
            c.number_format = fmt
        if isinstance(value, str) and not formula:
            width = COLUMNS[col] * (0.85 if font.b else 1.0)
            need = lines(value, width) * LINE + 3
            self.heights[self.row] = max(self.heights.get(self.row, LINE + 3), need)

    def text(self, value: str, font: Font = st.BODY) -> None:
        self.put("A", value, font=font)
        self.ws.merge_cells(f"A{self.row}:G{self.row}")
        total = sum(COLUMNS.values())
        self.heights[self.row] = lines(value, total) * LINE + 3

    def header(self) -> None:
        self.next()
        for col, title in zip(COLUMNS, HEADINGS):
            align = st.CENTER if col in "DFG" else st.WRAP
            self.put(col, title, font=st.HEADER, fill=st.HEADER_FILL, align=align)

    def section(self, title: str) -> int:
        start = self.next()
        self.next()
        self.put("A", title, font=st.SECTION, align=st.TOP)
        self.heights[self.row] = 20
        return start

    def function(self, spec: Formula) -> None:
        self.next()
        r = self.row
        self.put("A", spec.name, font=st.BOLD)
        self.put("B", arguments_text(spec))
        self.put("C", spec.description)
        self.put("D", unit_text(spec), align=st.CENTER)
        self.put("E", example_call(spec), font=FORMULA_FONT)
        value = float(spec.api(*spec.example.args))
        fmt = number_format(spec, value)
        self.put(
            "F", example_call(spec, ","), fmt=fmt, align=st.RIGHT,
            fill=st.RESULT_FILL, formula=True,
        )  # fmt: skip
        self.cached[(self.ws.title, f"F{r}")] = value
        self.put("G", value, fmt=fmt, align=st.RIGHT)
        for col in COLUMNS:
            self.ws[f"{col}{r}"].border = st.BOX

    def left_out(self, spec: Formula) -> None:
        self.next()
        r = self.row
        self.put("A", spec.name, font=st.BOLD, fill=MUTED_FILL)
        self.put("B", arguments_text(spec), fill=MUTED_FILL)
        note = f"Not in this library: {spec.excel_note}."
        self.put("C", f"{spec.description} {note}", fill=MUTED_FILL)
        self.ws.merge_cells(f"C{r}:G{r}")
        merged = lines(f"{spec.description} {note}", sum(COLUMNS[c] for c in "CDEFG"))
        own = lines(arguments_text(spec), COLUMNS["B"])
        self.heights[r] = max(merged, own) * LINE + 3

    def finish(self) -> None:
        ws = self.ws
        for col, w in COLUMNS.items():
            ws.column_dimensions[col].width = w
        for row, h in self.heights.items():
            ws.row_dimensions[row].height = h
        ws.print_area = f"A1:G{self.row}"
        ws.print_title_rows = "3:3"
        ws.freeze_panes = "B4"
        setup_print(ws, LANG, portrait=False, stamp=STAMP)
        ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=False)

        # Page breaks row by row, as the printer would make them, but a section
        # starts a page when its heading and first two rows would not fit.
        def height(r: int) -> float:
            return self.heights.get(r, LINE + 3)

        starts = {first: min(last, first + 3) for first, last in self.blocks}
        used = sum(height(r) for r in range(1, self.blocks[0][0]))
        for r in range(self.blocks[0][0], self.row + 1):
            need = sum(height(k) for k in range(r, starts.get(r, r) + 1))
            if used + need > LANDSCAPE_PAGE:
                ws.row_breaks.append(Break(id=r - 1))
                used = height(3)  # the heading row repeats
            used += height(r)
        ws.protection.sheet = True
        ws.protection.formatColumns = False  # let people widen columns
        ws.protection.formatRows = False
        ws.sheet_view.showGridLines = False


NOTE = (
    "Result calls the function: Excel for Microsoft 365 and Excel 2024 compute it "
    "(Excel 2021 and older show #NAME?, LibreOffice Err:509). Expected is what the "
    "xlfuncs Python library computes for the same call: the two agree. Optional "
    "arguments are in [brackets]; left out or blank, they take their default. "
    "Percentages are fractions (82% is 0.82)."
)


def _functions_sheet(ws: Worksheet, library: Sequence[Formula]) -> dict[Any, Any]:
    card = _Card(ws)
    card.next()
    card.put("A", "Functions: a reference card", font=st.TITLE, align=st.TOP)
    card.heights[1] = 24
    card.next()
    card.text(NOTE, font=st.NOTE)
    card.header()
    by_name = {f.name: f for f in library}
    start = card.section("The two calculators' worked examples")
    for name in WORKED:
        card.function(by_name[name])
    card.blocks.append((start, card.row))
    for module, title in TOPICS.items():
        members = [f for f in library if f.module == module]
        if not members:
            continue
        start = card.section(title)
        for f in members:
            card.function(f)
        card.blocks.append((start, card.row))
    assert {f.module for f in library} <= set(TOPICS), "a topic has no title"
    missing = left_out()
    if missing:
        start = card.section("Not in this library")
        for f in missing:
            card.left_out(f)
        card.blocks.append((start, card.row))
    card.finish()
    return card.cached


# ------------------------------------------------------------------ the workbook


def build_library(texts: Mapping[str, str] | None = None) -> Built:
    """The LAMBDA library workbook and the cached value of each formula cell.

    ``texts``: the :func:`definitions`, if already made (they take a while).
    """
    texts = definitions() if texts is None else texts
    wb = Workbook()
    cover = wb.worksheets[0]
    library = specs()
    for name, text in texts.items():
        spec = REGISTRY[name]
        wb.defined_names[name] = DefinedName(
            name, attr_text=text, comment=spec.description
        )
    ws = wb.create_sheet("Functions")
    cached = _functions_sheet(ws, library)
    cached.update(add_data_sheets(wb, LANG))
    _cover(cover, look_ups(texts))
    wb.active = 0
    set_properties(
        wb,
        LANG,
        title=TITLE,
        subject="LLM training and fine-tuning planning functions as Excel LAMBDAs",
        keywords="LAMBDA, LLM, fine-tuning, Chinchilla, GPU, Excel functions",
        description="The xlfuncs functions as named LAMBDAs (all but the two "
        "inference-optimal ones): Excel for Microsoft 365 and Excel 2024, no Python.",
    )
    return Built(wb, cached)


def module_text(texts: Mapping[str, str] | None = None) -> str:
    """The library as an Advanced Formula Environment module (``texts`` as in
    :func:`build_library`)."""
    texts = definitions() if texts is None else texts
    header = [
        f"xlfuncs {__version__}: LLM training and fine-tuning planning functions as "
        "Excel LAMBDAs.",
        "A module for Excel Labs' Advanced Formula Environment (Excel for Microsoft "
        "365 and Excel 2024):",
        "paste it into the Workbook module on the Modules tab, or import it from a "
        "GitHub gist holding it.",
        "Each function is complete on its own (the functions it builds on are "
        "written out inside it).",
        "These read tables of xlfuncs-functions.xlsx (its Data, Models and Keys "
        "sheets): " + ", ".join(look_ups(texts)) + ".",
        "Not included: "
        + "; ".join(f"{f.name} ({f.excel_note})" for f in left_out())
        + ".",
        "Do not use these and the xlwings functions of xlfuncs in one workbook: "
        "they share their names.",
    ]
    return afe_module(specs(), header, texts)


__all__ = [
    "FILENAME",
    "MODULE_FILENAME",
    "build_library",
    "definitions",
    "example_call",
    "left_out",
    "listed",
    "look_ups",
    "module_text",
    "specs",
]
