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

import functools
from collections.abc import Callable, Iterator, Sequence
from itertools import permutations
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.utils import quote_sheetname
from openpyxl.worksheet.worksheet import Worksheet

from ..data.accelerators import ACCELERATORS, find
from ..data.fits import FITS
from ..data.models import FIELD_ALIASES, FIELDS, MODELS, find_field, find_model
from ..data.models import spellings as model_spellings
from ..data.models import value as model_value
from ..data.names import normalize
from ..data.planning import (
    CURRENCIES,
    CURRENCY_SOURCE,
    METHOD_KEYS,
    METHOD_NAMES,
    SOURCE_KEYS,
    SOURCE_NAMES,
)
from ..data.prices import GPU_PRICES
from ..data.serving import SERVING_PRECISIONS
from ..data.training import OPTIMIZER_BYTES
from ..data.units import (
    DTYPE_ALIASES,
    DTYPES,
    RECOMPUTE_MODES,
    TRAINING_DTYPES,
    find_dtype,
)
from ..excel.parse import parse
from ..excel.tree import Env
from ..excel.values import Range, as_cell
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
from ..registry.excel import key as typed_key
from ..workbook import writer as wr
from ..workbook.page import WIDTH_PX, lines
from ..workbook.writer import Column, SheetWriter, Style

#: The optimizers the memory functions take, by name, for the drop-downs.
OPTIMIZERS = tuple(OPTIMIZER_BYTES)

#: Rows at the foot of the Models sheet for models of the user's own, typed in
#: and then used by name like any other.
USER_MODELS = 4
#: A user row's fields before anything is typed: a dense model with no window,
#: a gated MLP and untied embeddings (Llama's kind).
USER_DEFAULTS = {
    "experts": 1.0, "experts_per_token": 1.0, "window": 0.0, "windowed_layers": 0.0,
    "shared_experts": 0.0, "dense_layers": 0.0, "dense_ffn_dim": 0.0,
    "mlp_matrices": 3.0, "embedding_matrices": 2.0, "kv_lora_rank": 0.0,
    "q_lora_rank": 0.0, "qk_rope_head_dim": 0.0, "v_head_dim": 0.0,
}  # fmt: skip
#: A user row's fields computed from the others, as the table's Model does
#: (xlfuncs.data.shapes): {field: Excel text over {field} placeholders}. Latent
#: attention is a kv_lora_rank above 0. active_params starts as params and
#: takes a mixture's own count typed over it.
USER_DERIVED = {
    "active_params": "{params}",
    "attention_width": "{heads}*{head_dim}",
    "kv_width": "IF({kv_lora_rank}>0,{kv_lora_rank}+{qk_rope_head_dim},"
    "{kv_heads}*{head_dim})",
    "cache_width": "IF({kv_lora_rank}>0,{kv_width},2*{kv_width})",
    "cache_heads": "IF({kv_lora_rank}>0,1,{kv_heads})",
    "active_ffn_dim": "IF({experts}<=1,{ffn_dim},(({layers}-{dense_layers})*{ffn_dim}"
    "*({experts_per_token}+{shared_experts})+{dense_layers}*{dense_ffn_dim})/{layers})",
}
#: A user row's key while it has no name: a space, which no typed name's key
#: holds (key() removes spaces), so no look-up finds the empty row.
NO_KEY = " "


@functools.cache
def user_row() -> dict[str, Any]:
    """A user row's values before anything is typed: the defaults, blanks, and
    what the formulas of :data:`USER_DERIVED` compute from them (the cached
    values the workbook is written with, and the table a computation reads)."""
    row: dict[str, Any] = {f: USER_DEFAULTS.get(f) for f in FIELDS}
    for field, text in USER_DERIVED.items():  # in order: each reads those above
        tree = parse(text.format(**{f: f for f in FIELDS}))
        row[field] = as_cell(tree.value(Env(lookup=row.__getitem__)))
    return row


def user_key_formula(name: str) -> str:
    """A user row's key: its typed name's key, or NO_KEY while it has none."""
    return f'IF(ISBLANK({name}),"{NO_KEY}",{typed_key(name)})'


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


# A table's title on one line, running over the empty cells to its right: in
# the narrow first column a wrapped title would overrun the rows below.
_HEADING = wr.BOLD.but(align=wr.BODY.align)


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


@functools.lru_cache(maxsize=1)
def tables() -> dict[str, Range]:
    """The values behind every workbook name the data sheets define, as the
    formulas read them: the trees of the templates are evaluated over these."""
    peaks = [
        tuple(acc.peak_tflops.get(d, MISSING) for d in DTYPES) for acc in ACCELERATORS
    ]
    out = {
        "AcceleratorNames": Range.column([a.name for a in ACCELERATORS]),
        ACCELERATOR_PEAKS: Range(tuple(peaks)),
        "DtypeNames": Range.row(DTYPES),
        "TrainingDtypeNames": Range.row(TRAINING_DTYPES),
        ACCELERATOR_MEMORY: Range.column([_or_dash(a.memory_gb) for a in ACCELERATORS]),
        ACCELERATOR_BANDWIDTH: Range.column(
            [_or_dash(a.bandwidth_tbs) for a in ACCELERATORS]
        ),
        ACCELERATOR_POWER: Range.column([_or_dash(a.power_w) for a in ACCELERATORS]),
        FIT_NAMES: Range.column(list(FITS)),
        "RecomputeNames": Range.row(RECOMPUTE_MODES),
        "CurrencyCodes": Range.column([c.code for c in CURRENCIES]),
        "MethodNames": Range.row(METHOD_NAMES),
        "PrecisionNames": Range.row(SERVING_PRECISIONS),
        "OptimizerNames": Range.row(OPTIMIZERS),
        "SourceNames": Range.row(SOURCE_NAMES),
        "MethodKeys": Range.column([k for k, _ in METHOD_KEYS]),
        "MethodCode": Range.column([float(v) for _, v in METHOD_KEYS]),
        "SourceKeys": Range.column([k for k, _ in SOURCE_KEYS]),
        "SourceCode": Range.column([float(v) for _, v in SOURCE_KEYS]),
        "CurrencyPerUSD": Range.column([c.per_usd for c in CURRENCIES]),
        "ExamplePriceGPU": Range.column([p.gpu for p in GPU_PRICES]),
        "ExamplePriceUSD": Range.column([p.on_demand for p in GPU_PRICES]),
        "ModelNames": Range.column([m.name for m in MODELS] + [None] * USER_MODELS),
        MODEL_SPECS: Range(
            tuple(tuple(float(model_value(m, f)) for f in FIELDS) for m in MODELS)
            + (tuple(float(user_row()[f] or 0) for f in FIELDS),) * USER_MODELS
        ),
    }
    for which, attr in zip(
        ("E", "A", "B", "Alpha", "Beta", "G", "Exponent"),
        ("E", "A", "B", "alpha", "beta", "G", "a"),
    ):
        out[FIT[which]] = Range.column([float(getattr(f, attr)) for f in FITS.values()])
    for found, keys_name, index_name in (
        (list(accelerator_keys()), ACCELERATOR_KEYS, ACCELERATOR_ROW),
        (list(dtype_keys()), DTYPE_KEYS, DTYPE_COLUMN),
        (list(model_keys()), MODEL_KEYS, MODEL_ROW),
        (list(field_keys()), MODEL_FIELD_KEYS, MODEL_FIELD_COLUMN),
    ):
        if keys_name == MODEL_KEYS:  # the user's rows, named or not
            found += [(NO_KEY, len(MODELS) + k) for k in range(1, USER_MODELS + 1)]
        out[keys_name] = Range.column([k for k, _ in found])
        out[index_name] = Range.column([float(i) for _, i in found])
    return out


def _or_dash(v: float | None) -> float | str:
    return MISSING if v is None else float(v)


HEAD = 2  # the header row of the Data and Models sheets (the title is row 1)
TITLE = Style(font=Font(name="Calibri", sz=12, b=True, color="1F3864"),
              align=Alignment(vertical="center", wrap_text=True))  # fmt: skip
HEADER = wr.HEADER.but(align=Alignment(wrap_text=True, vertical="center"))
FIGURE = Style(align=Alignment(horizontal="right", vertical="top"))
SOURCE = wr.WRAPPED


def _title(w: SheetWriter, last: str, text: str) -> None:
    """The sheet's title in row 1, across the table, wrapped if it must."""
    w.next()
    w.put(w.letter_key(0), text, TITLE, to=last, fit=False)
    # 12-pt bold takes about 1.4 times the room of the 10-pt body text.
    w.height(8 + 16 * lines(text, w.width(w.letter_key(0), last) / 1.4))


def _header(w: SheetWriter, titles: list[str], height: float) -> None:
    w.next()
    for key, title in zip(w.columns, titles):
        w.put(key, title, HEADER, fit=False)
    w.height(height)


def _sources(w: SheetWriter, last: str, title: str, entries: list[str]) -> None:
    """A bold title and one line per entry, each across the table and wrapped.
    A line across the page fits more than its columns' widths add up to (no
    padding per cell); bold is wider."""
    first = w.letter_key(0)
    w.next()
    w.put(first, title, wr.BOLD, to=last, fit=False)
    w.fit(lines(title, w.width(first, last)))
    for text in entries:
        w.next()
        w.put(first, text, SOURCE, to=last, fit=False)
        w.fit(lines(text, w.width(first, last) * 1.05))


def _range(
    w: SheetWriter, name: str, first: str, last: str, top: int, bottom: int
) -> None:
    w.define_range(name, first, last, top, bottom)


def _pairs(
    w: SheetWriter,
    title: str,
    heads: tuple[str, str],
    rows: Sequence[tuple[str, float]],
    names: tuple[str, str],
    fmt: str,
) -> None:
    """A titled two-column table below the accelerators (a name, a figure),
    each column a workbook name."""
    w.next()
    w.next()
    w.put("accelerator", title, _HEADING, fit=False)
    w.next()
    w.put("accelerator", heads[0], HEADER, fit=False)
    w.put("vendor", heads[1], HEADER, fit=False)
    first = w.row + 1
    for word, figure in rows:
        w.next()
        w.put("accelerator", word, fit=False)
        w.put("vendor", figure, FIGURE.but(fmt=fmt), fit=False)
    _range(w, names[0], "accelerator", "accelerator", first, w.row)
    _range(w, names[1], "vendor", "vendor", first, w.row)


def add_data_sheet(
    wb: Workbook, t: Callable[[str], str], billions: str = "#,##0.0,,,"
) -> tuple[list[Worksheet], Cached]:
    """Write the reference sheets into ``wb``; ``t`` gives their texts by key.

    The Data sheet (accelerators and fits) and the Models sheet are printed; the
    Keys sheet, hidden, holds the spellings the formulas accept. Keys:
    data.sheet, data.title, data.models_title, data.accelerator, data.vendor,
    data.sources (the title of the list of sources below the tables),
    data.memory, data.bandwidth, data.power, data.recompute, data.fits,
    data.fit, data.models_sheet, data.model, data.model_sources,
    data.params_source, data.keys, data.key, data.row, data.column.
    ``billions`` is the number format of parameter counts (in billions).
    The values written are those of :func:`tables`, which the templates'
    formulas are evaluated over.
    """
    values = tables()
    # Accelerators: a row each, a column per precision, then memory, bandwidth
    # and power; where each row's figures come from is listed below the tables.
    specs = ("memory", "bandwidth", "power")
    columns = [Column("accelerator", 15), Column("vendor", 10.5)]
    columns += [Column(d, 8) for d in DTYPES]
    columns += [Column(k, w) for k, w in zip(specs, (8.5, 10, 8.5))]
    w = SheetWriter(wb, wb.create_sheet(t("data.sheet")), columns)
    _title(w, "power", t("data.title"))
    # The header's precision names are the list the precision drop-down reads.
    _header(w, [t("data.accelerator"), t("data.vendor"), *DTYPES,
                t("data.memory"), t("data.bandwidth"), t("data.power")], 42)  # fmt: skip
    head = w.row
    formats = {**dict.fromkeys(DTYPES, "#,##0.0"), "memory": "#,##0.##",
               "bandwidth": "0.0##", "power": "#,##0"}  # fmt: skip
    for k, acc in enumerate(ACCELERATORS):
        w.next()
        w.put("accelerator", acc.name, fit=False)
        w.put("vendor", acc.vendor, fit=False)
        figures = [*values[ACCELERATOR_PEAKS].rows[k],
                   values[ACCELERATOR_MEMORY].rows[k][0],
                   values[ACCELERATOR_BANDWIDTH].rows[k][0],
                   values[ACCELERATOR_POWER].rows[k][0]]  # fmt: skip
        for key, value in zip([*DTYPES, *specs], figures):
            w.put(key, value, FIGURE.but(fmt=formats[key]), fit=False)
    last = w.row
    _range(w, "AcceleratorNames", "accelerator", "accelerator", head + 1, last)
    _range(w, ACCELERATOR_PEAKS, DTYPES[0], DTYPES[-1], head + 1, last)
    _range(w, "DtypeNames", DTYPES[0], DTYPES[-1], head, head)
    # The precisions a model trains in come first in DTYPES; int8 is last.
    assert DTYPES[: len(TRAINING_DTYPES)] == TRAINING_DTYPES
    _range(w, "TrainingDtypeNames", DTYPES[0], TRAINING_DTYPES[-1], head, head)
    for name, key in zip(
        (ACCELERATOR_MEMORY, ACCELERATOR_BANDWIDTH, ACCELERATOR_POWER), specs
    ):
        _range(w, name, key, key, head + 1, last)

    # Fits: the constants, and G and a worked out from them by formula.
    cached: Cached = {}
    w.next()
    w.next()
    w.put("accelerator", t("data.fits"), _HEADING, fit=False)
    fit_keys = list(w.columns)[:8]
    w.next()
    for key, title in zip(fit_keys, [t("data.fit"), "E", "A", "B", "α", "β", "G", "a"]):
        w.put(key, title, HEADER, fit=False)
    first = w.row + 1
    sources = [f"{acc.name}: {acc.source}. {acc.specs_source}" for acc in ACCELERATORS]
    for name, fit in FITS.items():
        w.next()
        w.put(fit_keys[0], name, fit=False)
        for key, value in zip(
            fit_keys[1:6], (fit.E, fit.A, fit.B, fit.alpha, fit.beta)
        ):
            w.put(key, value, fit=False)
        _, a_, b, alpha, beta = (w.coord(k) for k in fit_keys[1:6])
        # G = (αA/(βB))^(1/(α+β)) and a = β/(α+β), Hoffmann et al. 2022, eq. 4.
        w.formula(fit_keys[6], f"POWER({alpha}*{a_}/({beta}*{b}),1/({alpha}+{beta}))",
                  fit.G, wr.BODY.but(fmt="0.0000"))  # fmt: skip
        w.formula(
            fit_keys[7], f"{beta}/({alpha}+{beta})", fit.a, wr.BODY.but(fmt="0.0000")
        )
        sources.append(f"{name}: {fit.source}")
    _range(w, FIT_NAMES, fit_keys[0], fit_keys[0], first, w.row)
    for key, which in zip(
        fit_keys[1:], ("E", "A", "B", "Alpha", "Beta", "G", "Exponent")
    ):
        _range(w, FIT[which], key, key, first, w.row)
    cached.update(w.cached)
    # Recomputation modes ACTIVATION_GB takes, for the templates' drop-downs.
    w.next()
    w.next()
    w.put("accelerator", t("data.recompute"), _HEADING, fit=False)
    w.next()
    mode_keys = list(w.columns)[: len(RECOMPUTE_MODES)]
    for key, mode in zip(mode_keys, RECOMPUTE_MODES):
        w.put(key, mode, fit=False)
    _range(w, "RecomputeNames", mode_keys[0], mode_keys[-1], w.row, w.row)
    for title, names, name in ((t("data.methods"), METHOD_NAMES, "MethodNames"),
                               (t("data.sources_list"), SOURCE_NAMES, "SourceNames"),
                               (t("data.precisions"), SERVING_PRECISIONS, "PrecisionNames"),
                               (t("data.optimizers"), OPTIMIZERS, "OptimizerNames")):  # fmt: skip
        w.next()
        w.put("accelerator", title, _HEADING, fit=False)
        w.next()
        keys = list(w.columns)[: len(names)]
        for key, word in zip(keys, names):
            w.put(key, word, fit=False)
        _range(w, name, keys[0], keys[-1], w.row, w.row)
    # Currencies: a price band in the reader's currency (order of magnitude).
    _pairs(w, t("data.currencies"), (t("data.currency"), t("data.per_usd")),
           [(c.code, c.per_usd) for c in CURRENCIES], ("CurrencyCodes", "CurrencyPerUSD"),
           "#,##0.##")  # fmt: skip
    sources.append(CURRENCY_SOURCE)
    # Example prices: a typed price is judged against its GPU's (an 8-GPU
    # node's price, or cents, is 8 or 100 times off).
    _pairs(w, t("data.example_prices"), (t("data.accelerator"), t("data.usd")),
           [(p.gpu, p.on_demand) for p in GPU_PRICES], ("ExamplePriceGPU", "ExamplePriceUSD"),
           "#,##0.00")  # fmt: skip
    w.next()
    _sources(w, "power", t("data.sources"), sources)
    w.finish("en", last="power", title_rows="1:1", freeze=f"B{head + 1}")
    data = w.ws

    # Models: a row each, a column per MODEL_SPEC field, the sources last. A
    # field's name is what MODEL_SPEC takes: it breaks only after "_". Two
    # landscape pages across, the model's name on each.
    parts = [field.replace("_", "_\n") for field in FIELDS]
    # Parameter counts in billions, without a word ("405.0"; the title says so):
    # as plain counts they overflow (###), and "405,0 mil M" would not fit.
    widths = [max(6.5, max(len(x) for x in p.split()) + 1.0) for p in parts]
    m = SheetWriter(wb, wb.create_sheet(t("data.models_sheet")),
                    [Column("model", 16.0)] + [Column(f, wd) for f, wd in zip(FIELDS, widths)])  # fmt: skip
    # Text across the table stops at the first page's edge: the table prints two
    # pages across, and a note merged over both would be cut at the fold.
    page_widths = [7 * w + 5 for w in [16.0, *widths]]
    first_page = max(
        k
        for k in range(len(page_widths))
        if sum(page_widths[: k + 1]) <= WIDTH_PX["landscape"]
    )
    fold = ["model", *FIELDS][first_page]
    _title(m, fold, t("data.models_title"))
    _header(m, [t("data.model"), *parts], 30)
    for k, model in enumerate(MODELS):
        m.next()
        m.put("model", model.name, fit=False)
        for field, value in zip(FIELDS, values[MODEL_SPECS].rows[k]):
            big = field in ("params", "active_params")
            m.put(
                field, value, wr.BODY.but(fmt=billions if big else "#,##0"), fit=False
            )
    for _ in range(USER_MODELS):
        m.next()
        m.put("model", "", wr.INPUT.but(align=Alignment(horizontal="left")), fit=False)
        cells = {f: m.coord(f) for f in FIELDS}
        for field in FIELDS:
            if field in USER_DERIVED:
                text = USER_DERIVED[field].format(**cells)
                style = wr.INPUT if field == "active_params" else wr.BODY
                # Zero, before the row is filled in, shows as blank: no data yet.
                fmt = billions if field == "active_params" else "#,##0"
                m.formula(
                    field, text, user_row()[field], style.but(fmt=f"{fmt};-{fmt};")
                )
            elif field in USER_DEFAULTS:
                m.put(field, USER_DEFAULTS[field], wr.INPUT.but(fmt="#,##0"), fit=False)
            else:
                big = field == "params"
                m.put(
                    field, "", wr.INPUT.but(fmt=billions if big else "#,##0"), fit=False
                )
    end = m.row
    _range(m, "ModelNames", "model", "model", HEAD + 1, end)
    _range(m, MODEL_SPECS, FIELDS[0], FIELDS[-1], HEAD + 1, end)
    m.next()
    sources = [f"{x.name}: {x.source}. {t('data.params_source')}: {x.params_source}"
               for x in MODELS]  # fmt: skip
    sources.append(t("data.user_models"))
    _sources(m, fold, t("data.model_sources"), sources)
    m.finish("en", last=FIELDS[-1], title_rows="1:1", freeze=f"B{HEAD + 1}",
             pages_wide=2)  # fmt: skip
    m.ws.page_setup.pageOrder = "overThenDown"  # a row's two halves together

    # Keys, on a hidden sheet: every spelling a formula accepts, beside the row
    # or column it means.
    kinds = ("accelerator", "dtype", "model", "field", "method", "source")
    keys_w = SheetWriter(wb, wb.create_sheet(t("data.keys")),
                    [Column(f"{n}.{x}", 8.43) for n in kinds for x in ("key", "index")])  # fmt: skip
    keys_w.ws.sheet_state = "hidden"
    # Accelerators, precisions and models name a row; fields a column.
    index = {"dtype": "data.column", "field": "data.column"}
    _header(
        keys_w,
        [t(x) for k in kinds for x in ("data.key", index.get(k, "data.row"))],
        15,
    )
    for kind, (keys_name, index_name) in zip(kinds, KEY_TABLES):
        found = zip(values[keys_name].flat(), values[index_name].flat())
        for row, (text, index) in enumerate(found, start=2):
            if keys_name == MODEL_KEYS and text == NO_KEY:  # a row of the user's
                name = f"{quote_sheetname(m.ws.title)}!$A${HEAD + int(index)}"
                formula = user_key_formula(name)
                blank = parse(user_key_formula("name")).value(
                    Env(lookup=lambda _: None)
                )
                keys_w.formula(f"{kind}.key", formula, blank, row=row)
            else:
                keys_w.put(f"{kind}.key", text, row=row, fit=False)
            keys_w.put(f"{kind}.index", index, row=row, fit=False)
        bottom = 1 + len(values[keys_name].rows)
        _range(keys_w, keys_name, f"{kind}.key", f"{kind}.key", 2, bottom)
        _range(keys_w, index_name, f"{kind}.index", f"{kind}.index", 2, bottom)
    keys_w.row = max(keys_w.row, 1)
    keys_w.finish("en", last="source.index")
    # Hidden, so Excel does not print it. No print area either: LibreOffice
    # prints a hidden sheet's print area (here a stray header page at the end
    # of every print), and skips a hidden sheet that has none.
    keys_w.ws.print_area = None
    cached.update(m.cached)
    cached.update(keys_w.cached)
    return [data, m.ws, keys_w.ws], cached


#: The key tables, in the order of the Keys sheet's column pairs.
KEY_TABLES = (
    (ACCELERATOR_KEYS, ACCELERATOR_ROW),
    (DTYPE_KEYS, DTYPE_COLUMN),
    (MODEL_KEYS, MODEL_ROW),
    (MODEL_FIELD_KEYS, MODEL_FIELD_COLUMN),
    ("MethodKeys", "MethodCode"),
    ("SourceKeys", "SourceCode"),
)


__all__ = ["MISSING", "accelerator_keys", "add_data_sheet", "dtype_keys", "tables"]
