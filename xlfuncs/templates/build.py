"""A template as a workbook: cover, its sheets, the Checks sheet, the data sheets.

:func:`build_template` lays the template's sheets out block by block
(:mod:`~xlfuncs.templates.render`), lists every check on the Checks sheet, prints
every formula and caches the value its tree computes
(:meth:`~xlfuncs.templates.layout.Layout.finish`), then adds the reference data
and the cover. ``values`` sets inputs other than the template's defaults (the
company defaults of ``xlfuncs build --set``): the cached values are computed
from them, as a spreadsheet would from the same typed values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from openpyxl import Workbook
from openpyxl.utils.cell import coordinate_from_string
from openpyxl.workbook.defined_name import DefinedName

from .. import __version__
from ..functions.hardware import gpu_peak_tflops
from ..registry import InputError
from ..workbook.writer import Column, SheetWriter
from . import texts as tx
from .blocks import Custom, Input, MonthGrid, Table, Template
from .cover import add_cover
from .data_sheet import add_data_sheet, tables
from .expr import merged
from .layout import COLUMNS, STAMP, SUMMARY_COLUMNS, Layout, build_date, wide_columns
from .model import Model, check_name
from .monthgrid import declare
from .render import head, render
from .table import render_table  # noqa: F401  (registers the table block's renderer)
from .texts import LANGS, T


@dataclass
class Built:
    """A laid-out workbook, the cached value of each formula cell, and the cells
    whose formulas are dynamic arrays, by sheet."""

    workbook: Workbook
    cached: dict[tuple[str, str], Any]
    dynamic: dict[str, set[str]] = field(default_factory=dict)


def build_template(
    tpl: Template, lang: str, values: Mapping[str, Any] | None = None
) -> Built:
    """The workbook of one template in one language, and its cached values."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
    lay = laid_out(tpl, lang, values)
    wb = lay.wb
    cached = lay.finish()
    if tpl.data_sheet:
        cached.update(add_data_sheets(wb, lang))
        name_cells(wb, lay.model.fit_cells)
    cover = wb.worksheets[0]
    add_cover(wb, cover, tpl, lang, build_date(), lay.filled)
    if tpl.sheets[0].summary:  # the page for the reader who signs comes first
        wb.move_sheet(cover, offset=1)
        wb.active = 0
    else:
        wb.active = 1  # open on the first sheet after the cover
    set_properties(wb, lang, title=tpl.title(lang), subject=tpl.subject(lang),
                   keywords=tpl.keywords(lang), description=lay.filled(tpl.subtitle))  # fmt: skip
    if tpl.is_input("Currency"):
        whole_money(wb)
    return Built(wb, cached)


def whole_money(wb: Workbook) -> None:
    """Money in a currency without cents (JPY, KRW) shown without decimals: a
    conditional format on every amount shown with two, read from the
    *Currency* input (a number format cannot read a cell)."""
    from openpyxl.formatting.rule import Rule
    from openpyxl.styles.differential import DifferentialStyle
    from openpyxl.styles.numbers import NumberFormat

    from ..data.planning import WHOLE_CURRENCIES

    codes = ",".join(f'TRIM(Currency)="{c}"' for c in WHOLE_CURRENCIES)
    for ws in wb.worksheets:
        cells = [c.coordinate for row in ws.iter_rows() for c in row
                 if c.number_format == tx.MONEY]  # fmt: skip
        if not cells:
            continue
        dxf = DifferentialStyle(numFmt=NumberFormat(numFmtId=3, formatCode="#,##0"))
        rule = Rule(type="expression", dxf=dxf, formula=[f"OR({codes})"])
        ws.conditional_formatting.add(" ".join(merged(cells)), rule)


def laid_out(
    tpl: Template, lang: str, values: Mapping[str, Any] | None = None
) -> Layout:
    """Every sheet of the template placed, the Checks sheet too: the model
    holds every cell, the cover still to come."""
    wb = Workbook()
    model = Model(tpl, lang, tables() if tpl.data_sheet else {}, values)
    lay = Layout(tpl, lang, wb, model)
    for block in tpl.blocks:  # a months grid's cells, before any sheet reads them
        if isinstance(block, MonthGrid):
            declare(lay, block)
    first = True
    models = 0  # model sheets laid out so far: the second on has a brief head
    for sheet in tpl.sheets:
        columns: tuple[Column, ...] = SUMMARY_COLUMNS if sheet.summary else COLUMNS
        if sheet.columns:
            columns = wide_columns(sheet.columns, sheet.side)
        w = SheetWriter(wb, wb.create_sheet(lay.t(sheet.name)), columns)
        lay.compact = sheet.summary
        lay.sheet = w.title
        head(
            lay, w, sheet, first and sheet.check, brief=models > 0 and not sheet.summary
        )
        first = first and not sheet.check
        models += not sheet.summary
        for block in sheet.blocks:
            render(lay, w, block)
        w.finish(lang, last="how", portrait=sheet.summary, breaks=not sheet.summary,
                 one_page=sheet.summary,
                 title_rows=None if sheet.summary else f"{w.title_row or 1}:{w.title_row or 1}",
                 freeze=None if sheet.summary else "A2", stamp=STAMP)  # fmt: skip
    lay.checks_sheet()
    return lay


def compute(
    tpl: Template, inputs: Mapping[str, Any] | None = None, lang: str = "en"
) -> dict[str, Any]:
    """Every input, result and verdict of ``tpl`` with ``inputs`` typed in, as
    its workbook computes them (a result whose inputs are invalid reads n/a)."""
    if any(isinstance(b, (Table, Custom, MonthGrid)) for b in tpl.blocks):
        model = laid_out(
            tpl, lang, inputs
        ).model  # a table's cells come with its layout
    else:
        model = Model(tpl, lang, tables() if tpl.data_sheet else {}, inputs)
    names = [*model.inputs, *model.results, *model.verdicts]
    return {n: model.value(n) for n in names}


def name_cells(wb: Workbook, cells: Mapping[str, tuple[str, int]]) -> None:
    """A workbook name for each cell of a data sheet's table a formula reads on
    its own (``FitHoffmannE``: row 1 of ``FitE``)."""
    for name, (table, k) in cells.items():
        sheet, area = wb.defined_names[table].attr_text.rsplit("!", 1)
        col, row = coordinate_from_string(area.split(":")[0].replace("$", ""))
        ref = f"{sheet}!${col}${row + k - 1}"
        wb.defined_names[name] = DefinedName(name, attr_text=ref)


# ------------------------------------------------------------ --set, judged


@dataclass(frozen=True)
class Judged:
    """What the workbooks say of one value ``xlfuncs build --set`` gives: the
    templates that have the input and those that lack it (by slug), and what
    the input's own Check cell reads where it is not OK, error or warning,
    with the templates that say so. One definition: the value is typed into
    each template's model and its Check cell is read, never checked apart."""

    name: str
    value: Any
    applied: tuple[str, ...]
    lacking: tuple[str, ...]
    errors: dict[str, tuple[str, ...]] = field(default_factory=dict)
    warnings: dict[str, tuple[str, ...]] = field(default_factory=dict)


def judge(
    values: Mapping[str, Any], templates: Sequence[Template], lang: str = "en"
) -> tuple[list[Judged], dict[str, str]]:
    """Each value judged as the workbooks judge it, all values typed at once
    (one input's rules may read another); and the model check of each
    template that takes any of them, where it does not read OK (a plan the
    values make implausible: a run over five years, a speed over the peak)."""
    said: dict[str, dict[str, dict[str, list[str]]]] = {
        n: {"errors": {}, "warnings": {}} for n in values
    }
    models: dict[str, str] = {}
    for tpl in templates:
        own = {k: v for k, v in values.items() if tpl.is_input(k)}
        if not own:
            continue
        model = laid_out(tpl, lang, own).model
        for name in own:
            status = str(model.value(check_name(name)))
            if status == tx.OK(lang):
                continue
            kind = "errors" if status.startswith(tx.ERROR_WORD(lang)) else "warnings"
            said[name][kind].setdefault(status, []).append(tpl.slug)
        overall = str(model.value("ModelCheck"))
        if overall != tx.OK(lang):
            models[tpl.slug] = overall
    out = []
    for name, value in values.items():
        has = tuple(t.slug for t in templates if t.is_input(name))
        lacks = tuple(t.slug for t in templates if not t.is_input(name))
        out.append(
            Judged(
                name,
                value,
                has,
                lacks,
                {k: tuple(v) for k, v in said[name]["errors"].items()},
                {k: tuple(v) for k, v in said[name]["warnings"].items()},
            )
        )
    return out, models


def unknown_inputs(
    values: Mapping[str, Any], templates: Sequence[Template]
) -> list[str]:
    """The names in ``values`` that no template has, sorted."""
    return sorted(set(values) - {i.name for t in templates for i in t.inputs})


def money_inputs(tpl: Template) -> list[Input]:
    """The inputs in the workbook's currency ("{currency}" in their unit)."""
    return [i for i in tpl.inputs if "{currency}" in i.unit.en]


def relabelled(
    values: Mapping[str, Any], templates: Sequence[Template]
) -> dict[str, list[str]]:
    """Where a Currency other than a template's own relabels example amounts
    without converting them: {template slug: the money inputs left at their
    example figure, and the tables of typed amounts (the budget's Prices)}."""
    currency = values.get("Currency")
    out: dict[str, list[str]] = {}
    for tpl in templates:
        if not tpl.is_input("Currency") or not isinstance(currency, str):
            continue
        default = tpl.input("Currency").default
        if not isinstance(default, str) or currency.strip().upper() == default:
            continue
        kept = [
            i.name
            for i in money_inputs(tpl)
            if i.name not in values
            and isinstance(i.default, (int, float))
            and i.default
        ]
        for sheet in tpl.sheets:
            for b in sheet.blocks:
                typed = [f for f in getattr(b, "fields", ()) if f.input is not None]
                money = [f.name for f in typed if "{currency}" in f.unit.en]
                if isinstance(b, Table) and any(
                    r.get(n) is not None for r in b.rows for n in money
                ):  # example amounts (the reservations' price is blank: the Prices')
                    kept.append(f"the {sheet.name.en} sheet")
        if kept:
            out[tpl.slug] = kept
    return out


#: An input a template has in place of another it lacks, and the figure that
#: stands for the other's value: the model-size workbook has the GPU's peak,
#: not its name.
STANDS_IN = {"GPUModel": "PeakTFLOPSPerGPU"}


def stand_in(name: str, value: Any, values: Mapping[str, Any]) -> float | None:
    """The figure of :data:`STANDS_IN` for ``value`` (an A100's bf16 peak, or in
    the precision set with --set Dtype), or None if there is none."""
    if name != "GPUModel" or not isinstance(value, str):
        return None
    dtype = values.get("Dtype")
    try:
        return gpu_peak_tflops(value, dtype if isinstance(dtype, str) else "bf16")
    except InputError:
        return None


def add_data_sheets(wb: Workbook, lang: str) -> dict[tuple[str, str], Any]:
    """The reference data sheets in ``lang``, set up for print; their cached values."""
    from ..workbook.page import setup_print

    sheets, cached = add_data_sheet(wb, lambda key: DATA_TEXTS[key](lang))
    shown = [s for s in sheets if s.sheet_state == "visible"]  # the Keys sheet: hidden
    for data, letter in zip(shown, "BCDEF"):  # the Checks sheet is appendix A
        setup_print(data, lang, portrait=False, stamp=STAMP, appendix=letter)
    for data in sheets[len(shown) :]:
        setup_print(data, lang, portrait=False, stamp=STAMP)
    return cached


def set_properties(
    wb: Workbook,
    lang: str,
    *,
    title: str,
    subject: str,
    keywords: str,
    description: str,
) -> None:
    """The document's properties, dated by :func:`build_date`, and a full
    recalculation when Excel opens it."""
    p = wb.properties
    p.title = title
    p.subject = subject
    p.creator = "xlfuncs"
    p.keywords = keywords
    p.description = description
    p.language = {"en": "en-US", "es": "es-ES"}[lang]
    p.version = __version__
    stamp = datetime.combine(build_date(), datetime.min.time())
    p.created = p.modified = stamp
    wb.calculation.fullCalcOnLoad = True


DATA_TEXTS = {
    "data.sheet": T("Data", "Datos"),
    "data.title": T(
        "Accelerators: dense peak TFLOP/s per chip by precision (int8: TOP/s),"
        " memory, bandwidth and power",
        "Aceleradores: pico denso en TFLOP/s por chip según la precisión (int8:"
        " TOP/s), memoria, ancho de banda y potencia",
    ),
    "data.models_title": T(
        "Published models: the shape MODEL_SPEC reads (field names as it takes"
        " them; params and active_params in billions)",
        "Modelos publicados: la forma que lee MODEL_SPEC (campos con el nombre que"
        " admite; params y active_params en miles de millones)",
    ),
    "data.accelerator": T("Accelerator", "Acelerador"),
    "data.vendor": T("Vendor", "Fabricante"),
    "data.sources": T(
        "Sources. Peaks are dense TFLOP/s per chip (NVIDIA's figures “with"
        " sparsity” halved); memory, bandwidth and power as the vendor publishes"
        " them.",
        "Fuentes, citadas en su idioma original. Los picos son TFLOP/s densos por"
        " chip (las cifras de NVIDIA «with sparsity», a la mitad); memoria, ancho de"
        " banda y potencia tal como los publica el fabricante.",
    ),
    "data.memory": T("Memory (GB)", "Memoria (GB)"),
    "data.bandwidth": T("Bandwidth (TB/s)", "Ancho de banda (TB/s)"),
    "data.power": T("Power (W)", "Potencia (W)"),
    "data.models_sheet": T("Models", "Modelos"),
    "data.model": T("Model", "Modelo"),
    "data.model_sources": T(
        "Sources: each model's configuration file (config.json) or paper, and where"
        " its parameter count comes from.",
        "Fuentes, citadas en su idioma original: el archivo de configuración"
        " (config.json) o el artículo de cada modelo, y de dónde sale su número de"
        " parámetros.",
    ),
    "data.params_source": T("Parameter count", "Número de parámetros"),
    "data.user_models": T(
        "Your own models: the yellow rows under the table. Type a name and the shape"
        " from the model's config.json (params and, for a mixture, active_params;"
        " layers, d_model, heads, kv_heads, head_dim, ffn_dim, vocab, context); the"
        " other fields start as a dense model with a gated MLP, and the grey ones are"
        " computed. Every function and workbook then takes the model by that name.",
        "Sus propios modelos: las filas amarillas bajo la tabla. Escriba un nombre y"
        " la forma del config.json del modelo (params y, en una mezcla,"
        " active_params; layers, d_model, heads, kv_heads, head_dim, ffn_dim, vocab,"
        " context); los demás campos empiezan como un modelo denso con MLP con"
        " puerta, y los grises se calculan. Cada función y libro toma entonces el"
        " modelo por ese nombre.",
    ),
    "data.recompute": T("Recomputation modes", "Modos de recálculo"),
    "data.fits": T(
        "Fitted scaling laws: L = E + A/N^α + B/D^β",
        "Leyes de escalado ajustadas: L = E + A/N^α + B/D^β",
    ),
    "data.fit": T("Fit", "Ajuste"),
    "data.currencies": T(
        "Currencies: a US dollar buys", "Monedas: lo que compra un dólar"
    ),
    "data.currency": T("Currency", "Moneda"),
    "data.methods": T("Fine-tuning methods", "Métodos de ajuste"),
    "data.precisions": T("Serving precisions", "Precisiones de servicio"),
    "data.optimizers": T("Optimizers", "Optimizadores"),
    "data.sources_list": T(
        "Throughput per GPU: measured or estimated",
        "Rendimiento por GPU: medido o estimado",
    ),
    "data.per_usd": T("Per USD", "Por USD"),
    "data.example_prices": T(
        "Example on-demand prices, USD a GPU-hour (Prices sheet)",
        "Precios bajo demanda de ejemplo, USD por GPU-hora (hoja Precios)",
    ),
    "data.usd": T("USD", "USD"),
    "data.keys": T("Keys", "Claves"),
    "data.key": T("Key", "Clave"),
    "data.row": T("Row", "Fila"),
    "data.column": T("Column", "Columna"),
}

__all__ = [
    "STANDS_IN",
    "Built",
    "Judged",
    "add_data_sheets",
    "build_template",
    "judge",
    "money_inputs",
    "relabelled",
    "set_properties",
    "stand_in",
    "unknown_inputs",
]
