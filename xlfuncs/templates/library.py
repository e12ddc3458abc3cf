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
from openpyxl.styles import PatternFill
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.worksheet import Worksheet

from .. import __version__
from ..registry import REGISTRY, Formula
from ..registry.domains import FRACTION, PERCENTILE
from ..registry.excel import xl
from ..registry.formula import excel_functions
from ..workbook import styles as st
from ..workbook import writer as wr
from ..workbook.writer import Column, SheetWriter
from . import texts as tx
from .build import Built, add_data_sheets, set_properties
from .cover import write_cover
from .lambdas import (
    RENAMED,
    afe_module,
    lambda_text,
    parameter_name,
    tables_read,
)
from .layout import STAMP, build_date
from .shared import (
    BESIROGLU,
    DATASHEETS,
    HOFFMANN,
    KAPLAN,
    PALM,
    SEED_FINETUNE,
    SEED_SIZE,
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
# 123 characters: whole on a landscape page at full size (workbook.page).
COLUMNS = {"A": 22, "B": 26, "C": 27, "D": 8, "E": 18, "F": 11, "G": 11}
HEADINGS = (
    "Function",
    "Arguments ([optional], units)",
    "What it returns",
    "Unit",
    "Example",
    "Result (live)",
    "Expected",
)
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
    """The arguments by their LAMBDA names, as Excel's tooltip shows them."""
    parts = []
    for a in spec.args:
        unit = a.unit if a.unit != "currency/GPU-hour" else "per GPU-hour"
        name = parameter_name(a.name)
        if a.name in spec.defaults:
            d = spec.defaults[a.name]
            default = "" if d is None else f", default {_shown(a.name, spec, d)}"
            parts.append(f"[{name}] ({unit}{default})")
        else:
            parts.append(f"{name} ({unit})")
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


def renamed() -> str:
    """``gpu_count for gpus, …``: the LAMBDA parameters named otherwise."""
    return ", ".join(f"{new} for {old}" for old, new in RENAMED.items())


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
            "serving, energy, accelerators and published models; all but those "
            "listed under Not in this library) as native Excel functions: no "
            "Python, no add-in, no macros. On the Try sheet, or any sheet you "
            "add, =FT_EXAMPLES_PER_SEC(8, 2500, 82%, 900) gives 18.22 "
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
            "the functions are LAMBDA functions stored as workbook names (the "
            "longest compute their parts once, in LET variables). Excel "
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
            "copy its 'Refers to' text; in your workbook add a name, the same "
            "name, and paste into 'Refers to' (Formulas › Name Manager › New in "
            "Excel for Windows, Formulas › Define Name in Excel for Mac). Each "
            "function is complete on "
            "its own: the functions it builds on are written out inside it. "
            "{look_ups} look names up in tables, so they also need the Data, "
            "Models and Keys sheets (as in 2).",
            "4. With Excel Labs (Microsoft's free add-in; Formulas › Advanced "
            "Formula Environment): the text file xlfuncs-functions.lambda.txt, "
            "shipped beside this workbook, is a module. On the Modules tab, open "
            "the Workbook module and paste the file's text at its end, then save: "
            "the names stay as they are (FT_EXAMPLES_PER_SEC). Imported from a "
            "GitHub gist, use the Modules tab too and leave the module name empty, "
            "so the functions join the open module; from the Names tab, Excel Labs "
            "asks for a module name and puts it before every function "
            "(=Xlfuncs.FT_EXAMPLES_PER_SEC(…)). The look-up functions need the "
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
            "functions and the Python library. A few names differ, so that no "
            "argument shares its name with a function or a named cell of a "
            "workbook they may join (MFU, a template's GPUs): {renamed}. An "
            "optional argument (in brackets "
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
            SEED_FINETUNE(LANG),
            SEED_SIZE(LANG),
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
    "independent Excel formula engine (formulas, or IronCalc for those with LET)."
)
COVER_WIDTH = 100


def _cover(wb: Workbook, ws: Worksheet, lookups: Sequence[str]) -> None:
    ws.title = "About this workbook"
    sections = []
    for heading, paragraphs in COVER:
        if heading == "Not in this library":
            paragraphs = [f"{f.name}: {f.excel_note}." for f in left_out()] + [
                "Use the xlwings functions (Excel for Windows with Python), the "
                "Python library or the xlfuncs command line for them."
            ]
        texts = []
        for text in paragraphs:
            bullet = "" if text[:2] in {f"{k}." for k in range(1, 10)} else "• "
            if len(paragraphs) == 1 or heading == "What it is":
                bullet = ""
            text = text.replace("{look_ups}", listed(lookups))
            texts.append(bullet + text.replace("{renamed}", renamed()))
        sections.append((heading, texts))
    sections.append(
        ("Version", [BUILT.format(version=__version__, date=build_date().isoformat())])
    )
    write_cover(wb, ws, LANG, TITLE, sections)


# ------------------------------------------------------------------ Functions


CARD = tuple(Column(k, w) for k, w in zip(
    ("function", "arguments", "returns", "unit", "example", "result", "expected"),
    COLUMNS.values(),
))  # fmt: skip


def _function(w: SheetWriter, spec: Formula) -> tuple[str, float]:
    """A function's row: syntax, what it returns, a live example, the value."""
    w.next()
    w.put("function", spec.name, wr.BOLD.but(box=True))
    w.put("arguments", arguments_text(spec), wr.WRAPPED.but(box=True))
    w.put("returns", spec.description, wr.WRAPPED.but(box=True))
    w.put("unit", unit_text(spec), wr.WRAPPED.but(align=st.CENTER, box=True))
    w.put("example", example_call(spec), wr.WRAPPED.but(font=FORMULA_FONT, box=True))
    value = float(spec.api(*spec.example.args))
    fmt = number_format(spec, value)
    style = wr.RESULT.but(fmt=fmt)
    w.formula("result", example_call(spec, ",")[1:], value, style)
    w.put("expected", value, wr.BODY.but(fmt=fmt, align=st.RIGHT, box=True))
    return w.coord("result"), value


def _left_out(w: SheetWriter, spec: Formula) -> None:
    w.next()
    muted = wr.WRAPPED.but(fill=MUTED_FILL, box=True)
    w.put("function", spec.name, muted.but(font=st.BOLD))
    w.put("arguments", arguments_text(spec), muted)
    note = f"Not in this library: {spec.excel_note}."
    w.put("returns", f"{spec.description} {note}", muted, to="expected")


NOTE = (
    "Result calls the function: Excel for Microsoft 365 and Excel 2024 compute it "
    "(Excel 2021 and older show #NAME?, LibreOffice Err:509). Expected is what the "
    "xlfuncs Python library computes for the same call: the two agree. Optional "
    "arguments are in [brackets]; left out or blank, they take their default. "
    "Percentages are fractions (82% is 0.82). To try the functions, use the Try "
    "sheet: this one is protected so that its examples stay as they are."
)


def _functions_sheet(
    wb: Workbook, ws: Worksheet, library: Sequence[Formula]
) -> SheetWriter:
    """The reference card; its writer holds the example cells' values."""
    w = SheetWriter(wb, ws, CARD)
    w.next()
    w.put("function", "Functions: a reference card", wr.TITLE)
    w.height(24)
    w.next()
    w.put("function", NOTE, wr.NOTE, to="expected")
    w.next()
    for key, title in zip(w.columns, HEADINGS):
        centred = key in ("unit", "result", "expected")
        w.put(key, title, wr.HEADER_CENTRED if centred else wr.HEADER)
    by_name = {f.name: f for f in library}
    groups = [("The two calculators' worked examples", [by_name[n] for n in WORKED])]
    for module, title in TOPICS.items():
        members = [f for f in library if f.topic == module]
        if members:
            groups.append((title, members))
    assert {f.topic for f in library} <= set(TOPICS), "a topic has no title"
    for title, members in groups:
        with w.block():
            w.next()
            w.next()
            w.put("function", title, wr.SECTION)
            w.height(20)
            for f in members:
                _function(w, f)
    missing = left_out()
    if missing:
        with w.block():
            w.next()
            w.next()
            w.put("function", "Not in this library", wr.SECTION)
            for f in missing:
                _left_out(w, f)
    w.finish(LANG, last="expected", portrait=False, breaks=True,
             title_rows="3:3", freeze="B4", stamp=STAMP)  # fmt: skip
    return w


#: The Try sheet's worked calls: the two calculators', then one of each kind.
TRY = ("FT_EXAMPLES_PER_SEC", "CHINCHILLA_PARAMS", "GPU_PEAK_TFLOPS", "MODEL_SPEC",
       "MODEL_STATE_GB", "TRAINING_CO2_TONNES")  # fmt: skip
TRY_NOTE = (
    "This sheet is yours: nothing is protected. Each row below calls a function; "
    "click its Result cell to see the formula, copy it anywhere and change the "
    "numbers. Or type a new one in any empty cell, e.g. =FT_COST(100000, 3, 8, "
    "2500, 82%, 900, 2.5): as you type =FT_, Excel lists the functions, as it "
    "lists its own. Formulas › Name Manager (Formulas › Define Name on a Mac) "
    "shows each one's formula and description."
)


def _try_sheet(wb: Workbook, library: Sequence[Formula]) -> SheetWriter:
    """An unprotected sheet with worked calls to copy."""
    ws = wb.create_sheet("Try")
    w = SheetWriter(wb, ws, (Column("function", 28), Column("call", 46),
                             Column("result", 16), Column("space", 30)))  # fmt: skip
    w.next()
    w.put("function", "Try the functions here", wr.TITLE)
    w.height(24)
    w.next()
    w.put("function", TRY_NOTE, wr.NOTE, to="space")
    w.next()
    for key, title in zip(w.columns, ("Function", "The call, to copy", "Result", "")):
        w.put(key, title, wr.HEADER)
    by_name = {f.name: f for f in library}
    for name in TRY:
        spec = by_name[name]
        w.next()
        w.put("function", name, wr.BOLD)
        w.put("call", example_call(spec), wr.WRAPPED.but(font=FORMULA_FONT))
        value = float(spec.api(*spec.example.args))
        w.formula("result", example_call(spec, ",")[1:], value,
                  wr.RESULT.but(fmt=number_format(spec, value)))  # fmt: skip
    w.finish(LANG, last="space", portrait=False, stamp=STAMP, protect=False)
    return w


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
    sheets = [_try_sheet(wb, library)]
    sheets.append(_functions_sheet(wb, wb.create_sheet("Functions"), library))
    cached = {k: v for w in sheets for k, v in w.cached.items()}
    cached.update(add_data_sheets(wb, LANG))
    _cover(wb, cover, look_ups(texts))
    wb.active = 1  # open on the Try sheet
    set_properties(
        wb,
        LANG,
        title=TITLE,
        subject="LLM training and fine-tuning planning functions as Excel LAMBDAs",
        keywords="LAMBDA, LLM, fine-tuning, Chinchilla, GPU, Excel functions",
        description="The xlfuncs functions as named LAMBDAs (all but those its "
        "cover lists): Excel for Microsoft 365 and Excel 2024, no Python.",
    )
    # Every call of a library function is a dynamic-array formula: Excel 365
    # shows a legacy one (no metadata) with an implicit-intersection @.
    dynamic = {w.title: {c for _, c in w.cached} for w in sheets}
    return Built(wb, cached, dynamic)


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
