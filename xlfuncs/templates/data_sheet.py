"""The reference data sheet: the tables the Excel expressions look names up in.

Every workbook whose formulas read an accelerator's figures, a model's shape or a
fit's constants carries this sheet: the accelerator table (a row per accelerator,
a column per precision, then memory, bandwidth and power, and their sources), the
fits' constants (with G and the exponent as formulas over them), the models' table
(a row per model, a column per MODEL_SPEC field, its sources), and the key tables
that let a formula accept every spelling the Python look-ups accept ("nvidia
h100-sxm" is the H100 SXM, "meta-llama/Llama-3.1-8B" is Llama 3.1 8B). A figure
the vendor does not publish is a dash, which ``+0`` turns into an error. The
workbook names it defines are the ones :mod:`xlfuncs.registry.excel` declares.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from itertools import permutations
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.worksheet import Worksheet

from ..data.accelerators import ACCELERATORS, find
from ..data.fits import FITS
from ..data.models import FIELD_ALIASES, FIELDS, MODELS, find_field, find_model
from ..data.models import spellings as model_spellings
from ..data.models import value as model_value
from ..data.names import normalize
from ..data.units import (
    DTYPE_ALIASES,
    DTYPES,
    RECOMPUTE_MODES,
    TRAINING_DTYPES,
    find_dtype,
)
from ..registry.excel import (
    ACCELERATOR_BANDWIDTH,
    ACCELERATOR_KEYS,
    ACCELERATOR_MEMORY,
    ACCELERATOR_PEAKS,
    ACCELERATOR_POWER,
    ACCELERATOR_ROW,
    DTYPE_COLUMN,
    DTYPE_KEYS,
    FIT,
    FIT_NAMES,
    MODEL_FIELD_COLUMN,
    MODEL_FIELD_KEYS,
    MODEL_KEYS,
    MODEL_ROW,
    MODEL_SPECS,
)
from .page import LINE, lines

#: Words a vendor's names may start with; the Python look-up strips them too.
VENDOR_WORDS = {
    "NVIDIA": ("nvidia", "tesla"),
    "AMD": ("amd", "instinct"),
    "Google": ("google", "cloud"),
    "Intel": ("intel", "habana"),
}
MISSING = "–"  # a figure the vendor does not publish


#: (cell, value): the cached value of each formula cell the sheet writes.
Cached = dict[tuple[str, str], Any]


def accelerator_keys() -> Iterator[tuple[str, int]]:
    """Every spelling a formula accepts, as key() writes it, and its table row."""
    seen: set[str] = set()
    for row, acc in enumerate(ACCELERATORS, start=1):
        words = VENDOR_WORDS.get(acc.vendor, ())
        prefixes = [""] + ["".join(p) for n in (1, 2) for p in permutations(words, n)]
        for spelling in (acc.name, *acc.aliases):
            for prefix in prefixes:
                k = prefix + normalize(spelling)
                if k not in seen and find(k) is acc:  # the Python look-up agrees
                    seen.add(k)
                    yield k, row


def model_keys() -> Iterator[tuple[str, int]]:
    """Every model spelling a formula accepts, as key() writes it, and its row."""
    seen: set[str] = set()
    for row, model in enumerate(MODELS, start=1):
        for spelling in model_spellings(model):
            k = normalize(spelling)
            if k not in seen and find_model(k) is model:  # the Python look-up agrees
                seen.add(k)
                yield k, row


def field_keys() -> Iterator[tuple[str, int]]:
    """Every MODEL_SPEC field spelling, as key() writes it, and its column."""
    seen: set[str] = set()
    for spelling in (*FIELDS, *FIELD_ALIASES):
        field = find_field(spelling)
        assert field is not None
        k = normalize(spelling)
        if k not in seen:
            seen.add(k)
            yield k, 1 + FIELDS.index(field)


def dtype_keys() -> Iterator[tuple[str, int]]:
    for spelling in (*DTYPES, *DTYPE_ALIASES):
        canonical = find_dtype(spelling)
        assert canonical is not None
        yield normalize(spelling), 1 + DTYPES.index(canonical)


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


def _source_list(
    ws: Worksheet, row: int, last_col: int, title: str, entries: list[str]
) -> int:
    """A bold title and one line per entry from ``row``, each merged over columns
    A to ``last_col`` and wrapped; returns the last row."""
    width = sum(
        ws.column_dimensions[get_column_letter(c)].width or 8
        for c in range(1, last_col + 1)
    )
    for k, text in enumerate([title, *entries]):
        c = ws.cell(row + k, 1, text)
        c.data_type = "s"
        c.alignment = Alignment(wrap_text=True, vertical="top")
        if k == 0:
            c.font = Font(name="Calibri", sz=10, bold=True)
        ws.merge_cells(
            start_row=row + k, start_column=1, end_row=row + k, end_column=last_col
        )
        # A line across the page fits more than its columns' widths add up to
        # (no padding per cell); bold is wider.
        n = lines(text, width * (1.0 if k == 0 else 1.05))
        ws.row_dimensions[row + k].height = LINE * n + 2
    return row + len(entries)


def _title(ws: Worksheet, last_col: int, text: str) -> None:
    """The sheet's title in row 1, across the table, wrapped if it must."""
    c = ws.cell(1, 1, text)
    c.font = Font(name="Calibri", sz=12, bold=True, color=HEADER_FILL.fgColor.rgb)
    c.alignment = Alignment(vertical="center", wrap_text=True)
    ws.merge_cells(start_row=1, start_column=1, end_row=1, end_column=last_col)
    width = sum(
        ws.column_dimensions[get_column_letter(k)].width or 8
        for k in range(1, last_col + 1)
    )
    # 12-pt bold takes about 1.4 times the room of the 10-pt body text.
    ws.row_dimensions[1].height = 8 + 16 * lines(text, width / 1.4)


def _finish(ws: Worksheet, widths: Mapping[str, float]) -> None:
    """Every cell in the one face and size, top-aligned; widths; protection."""
    for row in ws.iter_rows():
        for c in row:
            if not c.font.b:
                c.font = BODY_FONT
            if c.alignment.vertical is None:
                c.alignment = Alignment(
                    vertical="top", horizontal=c.alignment.horizontal
                )
    for col, w in widths.items():
        ws.column_dimensions[col].width = w
    ws.protection.sheet = True


def add_data_sheet(
    wb: Workbook, t: Callable[[str], str], billions: str = '#,##0.0,,," B"'
) -> tuple[list[Worksheet], Cached]:
    """Write the reference sheets into ``wb``; ``t`` gives their texts by key.

    The Data sheet (accelerators and fits) and the Models sheet are printed; the
    Keys sheet, hidden, holds the spellings the formulas accept. Keys:
    data.sheet, data.title, data.models_title, data.accelerator, data.vendor,
    data.sources (the title of the
    list of sources below the tables), data.memory, data.bandwidth,
    data.power, data.recompute, data.fits, data.fit, data.models_sheet, data.model,
    data.model_sources, data.params_source, data.keys, data.key, data.row,
    data.column.
    ``billions`` is the number format of parameter counts (the edition's word).
    """
    ws = wb.create_sheet(t("data.sheet"))
    title = ws.title
    cached: Cached = {}
    # Accelerators: a row each, a column per precision, then memory, bandwidth
    # and power; where each row's figures come from is listed below the tables.
    specs = (t("data.memory"), t("data.bandwidth"), t("data.power"))
    c_specs = 3 + len(DTYPES)  # the memory column; bandwidth and power follow
    c_last = c_specs + 2
    widths: dict[str, float] = {"A": 15, "B": 10.5}
    widths |= {get_column_letter(3 + j): 8 for j in range(len(DTYPES))}
    widths |= {get_column_letter(c_specs + j): w for j, w in enumerate((8.5, 10, 8.5))}
    for letter, w in widths.items():
        ws.column_dimensions[letter].width = w
    # A title row, then the header row (its precision names are the list the
    # templates' precision drop-down reads), then a row per accelerator.
    _title(ws, c_last, t("data.title"))
    head = 2
    _header(ws, head, [t("data.accelerator"), t("data.vendor"), *DTYPES, *specs])
    sources = [f"{acc.name}: {acc.source}. {acc.specs_source}" for acc in ACCELERATORS]
    ws.row_dimensions[head].height = 42  # "Ancho de banda (TB/s)": three lines
    for r, acc in enumerate(ACCELERATORS, start=head + 1):
        ws.cell(r, 1, acc.name).data_type = "s"
        ws.cell(r, 2, acc.vendor).data_type = "s"
        figures = [acc.peak_tflops.get(d) for d in DTYPES]
        figures += [acc.memory_gb, acc.bandwidth_tbs, acc.power_w]
        formats = ["#,##0.0"] * len(DTYPES) + ["#,##0.##", "0.0##", "#,##0"]
        for j, (value, fmt) in enumerate(zip(figures, formats)):
            c = ws.cell(r, 3 + j, value if value is not None else MISSING)
            c.number_format = fmt
            c.alignment = Alignment(horizontal="right")
    last = head + len(ACCELERATORS)
    _name(wb, "AcceleratorNames", title, _range(1, head + 1, 1, last))
    _name(wb, ACCELERATOR_PEAKS, title, _range(3, head + 1, 2 + len(DTYPES), last))
    _name(wb, "DtypeNames", title, _range(3, head, 2 + len(DTYPES), head))
    # The precisions a model trains in come first in DTYPES; int8 is last.
    assert DTYPES[: len(TRAINING_DTYPES)] == TRAINING_DTYPES
    _name(
        wb, "TrainingDtypeNames", title, _range(3, head, 2 + len(TRAINING_DTYPES), head)
    )
    for k, name in enumerate(
        (ACCELERATOR_MEMORY, ACCELERATOR_BANDWIDTH, ACCELERATOR_POWER)
    ):
        _name(wb, name, title, _range(c_specs + k, head + 1, c_specs + k, last))

    # Fits: the constants, and G and a worked out from them by formula.
    r = last + 2
    ws.cell(r, 1, t("data.fits")).font = Font(name="Calibri", sz=10, bold=True)
    r += 1
    _header(ws, r, [t("data.fit"), "E", "A", "B", "α", "β", "G", "a"])
    first = r + 1
    for name, fit in FITS.items():
        r += 1
        ws.cell(r, 1, name).data_type = "s"
        for j, value in enumerate((fit.E, fit.A, fit.B, fit.alpha, fit.beta), start=2):
            ws.cell(r, j, value)
        # G = (αA/(βB))^(1/(α+β)) and a = β/(α+β), Hoffmann et al. 2022, eq. 4.
        g = ws.cell(r, 7, f"=POWER(E{r}*C{r}/(F{r}*D{r}),1/(E{r}+F{r}))")
        a = ws.cell(r, 8, f"=F{r}/(E{r}+F{r})")
        g.number_format = a.number_format = "0.0000"
        cached[(title, f"G{r}")] = fit.G
        cached[(title, f"H{r}")] = fit.a
        sources.append(f"{name}: {fit.source}")
    _name(wb, FIT_NAMES, title, _range(1, first, 1, r))
    for j, which in enumerate(("E", "A", "B", "Alpha", "Beta", "G", "Exponent"), 2):
        _name(wb, FIT[which], title, _range(j, first, j, r))
    # Recomputation modes ACTIVATION_GB takes, for the templates' drop-downs.
    r += 2
    ws.cell(r, 1, t("data.recompute")).font = Font(name="Calibri", sz=10, bold=True)
    r += 1
    for j, mode in enumerate(RECOMPUTE_MODES, start=1):
        ws.cell(r, j, mode).data_type = "s"
    _name(wb, "RecomputeNames", title, _range(1, r, len(RECOMPUTE_MODES), r))
    r = _source_list(ws, r + 2, c_last, t("data.sources"), sources)
    ws.print_area = f"A1:{get_column_letter(c_last)}{r}"
    ws.print_title_rows = "1:1"  # the title on every page
    ws.freeze_panes = f"B{head + 1}"
    _finish(ws, widths)

    # Models: a row each, a column per MODEL_SPEC field, the sources last.
    ms = wb.create_sheet(t("data.models_sheet"))
    m_last = 1 + len(FIELDS)
    # A field's name is what MODEL_SPEC takes: it breaks only after "_".
    # Parameter counts need room for "405,0 mil M".
    parts = [field.replace("_", "_\n") for field in FIELDS]
    _header(ms, head, [t("data.model"), *parts])
    ms.row_dimensions[head].height = 30
    m_widths: dict[str, float] = {"A": 17.0}
    m_widths |= {
        get_column_letter(2 + j): max(
            12.0 if "params" in field else 8.5,
            max(len(p) for p in part.split()) + 1.5,
        )
        for j, (field, part) in enumerate(zip(FIELDS, parts))
    }
    for letter, w in m_widths.items():
        ms.column_dimensions[letter].width = w
    _title(ms, m_last, t("data.models_title"))
    for r, model in enumerate(MODELS, start=head + 1):
        ms.cell(r, 1, model.name).data_type = "s"
        for j, field in enumerate(FIELDS, start=2):
            # Parameter counts in billions: as plain counts they overflow the
            # column (###).
            big = field in ("params", "active_params")
            fmt = billions if big else "#,##0"
            ms.cell(r, j, model_value(model, field)).number_format = fmt
    end = head + len(MODELS)
    _name(wb, "ModelNames", ms.title, _range(1, head + 1, 1, end))
    _name(wb, MODEL_SPECS, ms.title, _range(2, head + 1, 1 + len(FIELDS), end))
    sources = [
        f"{m.name}: {m.source}. {t('data.params_source')}: {m.params_source}"
        for m in MODELS
    ]
    last_row = _source_list(ms, end + 2, m_last, t("data.model_sources"), sources)
    ms.print_area = f"A1:{get_column_letter(m_last)}{last_row}"
    ms.print_title_rows = "1:1"
    ms.freeze_panes = f"B{head + 1}"
    _finish(ms, m_widths)

    # Keys, on a hidden sheet: every spelling a formula accepts, beside the row
    # or column it means.
    keys = wb.create_sheet(t("data.keys"))
    keys.sheet_state = "hidden"
    _header(
        keys, 1, [t("data.key"), t("data.row"), t("data.key"), t("data.column")] * 2
    )
    tables = (  # (keys, their name, the name of the rows or columns beside them)
        (list(accelerator_keys()), ACCELERATOR_KEYS, ACCELERATOR_ROW),
        (list(dtype_keys()), DTYPE_KEYS, DTYPE_COLUMN),
        (list(model_keys()), MODEL_KEYS, MODEL_ROW),
        (list(field_keys()), MODEL_FIELD_KEYS, MODEL_FIELD_COLUMN),
    )
    for k_table, (found, keys_name, index_name) in enumerate(tables):
        c = 1 + 2 * k_table
        for k, (text, index) in enumerate(found):
            keys.cell(2 + k, c, text).data_type = "s"
            keys.cell(2 + k, c + 1, index)
        end = 1 + len(found)
        _name(wb, keys_name, keys.title, _range(c, 2, c, end))
        _name(wb, index_name, keys.title, _range(c + 1, 2, c + 1, end))
    _finish(keys, {})
    return [ws, ms], cached


__all__ = ["MISSING", "accelerator_keys", "add_data_sheet", "dtype_keys"]
