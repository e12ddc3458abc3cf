"""The LLM training planner template: cluster → budget → model → loss → cost → fine-tune.

One sheet follows the whole chain: this cluster, for this long, buys this compute
budget; the budget buys this model and this many tokens (by the 20-tokens rule and
by both fitted laws, side by side); it reaches this loss; it costs this much; and
the fine-tune afterwards runs at this speed. A second sheet holds the reference
data the formulas read by name: the accelerator peak table (the GPU model input is
validated against it) and the fits' constants.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import openpyxl
from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.chart.data_source import NumFmt
from openpyxl.chart.shapes import GraphicalProperties
from openpyxl.styles import Font, Protection
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from ..data.accelerators import ACCELERATORS
from ..data.fits import FITS
from ..data.units import (
    DTYPES,
    FLOPS_PER_PARAM_TOKEN,
    FLOPS_PER_PFDAY,
    SECONDS_PER_HOUR,
)
from ..registry import REGISTRY
from .layout import (
    BOX,
    COMMON,
    HEADER_FILL,
    HEADER_FONT,
    INPUT_FILL,
    INPUT_FONT,
    Input,
    Lit,
    Output,
    Template,
    _define,
    _guarded,
    _num,
    _table_heading,
    _text,
)

PFDAY = _num(FLOPS_PER_PFDAY)
K = FLOPS_PER_PARAM_TOKEN


@dataclass(frozen=True)
class IsoFlop:
    """Loss against model size at the fixed budget, with the fits' optima marked.

    Rows are multiples of ``base`` (an output holding a parameter count); for
    each fit in ``fits`` (key, optimum-params output, optimum-loss output) a loss
    column, written with the fit's named constants ``Fit<Key><E|A|B|Alpha|Beta>``.
    """

    key: str
    budget: str
    base: str
    multipliers: tuple[float, ...]
    fits: tuple[tuple[str, str, str], ...]

    def __call__(
        self,
        ws: Any,
        tpl: Template,
        lang: str,
        row: int,
        cached: dict[Any, Any],
        values: Mapping[str, Any],
    ) -> int:
        return _isoflop(ws, tpl, self, lang, row, cached, values)


def fit_constant(fit: str, which: str) -> str:
    """Defined name of a fit constant on the data sheet, e.g. FitHoffmannAlpha."""
    return f"Fit{fit.capitalize()}{which}"


def loss_formula(fit: str, params: str, tokens: str) -> str:
    """E + A/N^alpha + B/D^beta with the fit's named constants."""
    c = lambda w: fit_constant(fit, w)  # noqa: E731
    return f"{c('E')}+{c('A')}/{params}^{c('Alpha')}+{c('B')}/{tokens}^{c('Beta')}"


def _isoflop(
    ws,
    tpl: Template,
    iso: IsoFlop,
    lang: str,
    row: int,
    cached: dict[Any, Any],
    values: Mapping[str, float],
) -> int:
    """The IsoFLOP table and chart: loss against N at the budget, optima marked."""
    t = lambda key: tpl.t(key, lang)  # noqa: E731
    msg = t("msg.check_inputs")
    sheet = ws.title
    titles = [t(f"{iso.key}.k"), t(f"{iso.key}.params"), t(f"{iso.key}.tokens")] + [
        t(f"{iso.key}.loss.{fit}") for fit, _, _ in iso.fits
    ]
    head = _table_heading(ws, tpl, iso.key, lang, row, titles)
    base_ok = [f"ISNUMBER({iso.base})", f"ISNUMBER({iso.budget})"]
    budget = values[iso.budget]
    first = head + 1
    multiples = DataValidation(type="decimal", operator="greaterThan", formula1="0")
    multiples.showInputMessage = multiples.showErrorMessage = True
    multiples.errorStyle = "stop"
    multiples.promptTitle = t(f"{iso.key}.k")[:32]
    multiples.prompt = t(f"{iso.key}.note")[:255]
    multiples.errorTitle = t("msg.invalid_title")[:32]
    multiples.error = t("msg.positive")[:255]
    for k, mult in enumerate(iso.multipliers):
        r = first + k
        cell = ws[f"A{r}"]
        cell.value = mult
        cell.number_format = "0.00×"
        cell.fill, cell.font, cell.border = INPUT_FILL, INPUT_FONT, BOX
        cell.protection = Protection(locked=False)
        multiples.add(f"A{r}")
        n_ref, d_ref = f"B{r}", f"C{r}"
        row_ok = [*base_ok, f"ISNUMBER($A{r})", f"$A{r}>0"]
        formulas = {
            "B": (f"$A{r}*{iso.base}", row_ok),
            "C": (
                f"{iso.budget}*{_num(FLOPS_PER_PFDAY)}/({FLOPS_PER_PARAM_TOKEN}*{n_ref})",
                [*row_ok, f"ISNUMBER({n_ref})"],
            ),
        }
        params = mult * values[iso.base]
        tokens = REGISTRY["ISOFLOP_TOKENS"].api(budget, params)
        cached[(sheet, f"B{r}")] = params
        cached[(sheet, f"C{r}")] = tokens
        for j, (fit, _, _) in enumerate(iso.fits):
            col = get_column_letter(4 + j)
            formulas[col] = (
                loss_formula(fit, n_ref, d_ref),
                [f"ISNUMBER({n_ref})", f"ISNUMBER({d_ref})"],
            )
            cached[(sheet, f"{col}{r}")] = REGISTRY["CHINCHILLA_LOSS"].api(
                params, tokens, fit
            )
        for col, (expr, tests) in formulas.items():
            c = ws[f"{col}{r}"]
            c.value = _guarded(expr, tests, msg)
            c.number_format = {
                "B": tpl.fmt("fmt.billions", lang),
                "C": tpl.fmt("fmt.trillions", lang),
            }.get(col, "0.0000")
            c.border = BOX
    last = first + len(iso.multipliers) - 1
    ws.add_data_validation(multiples)

    chart = ScatterChart()
    chart.title = t(f"{iso.key}.chart")
    chart.style = 13
    chart.height, chart.width = 8, 17
    chart.x_axis.title = t(f"{iso.key}.params")
    chart.y_axis.title = t(f"{iso.key}.loss")
    xs = Reference(ws, min_col=2, min_row=first, max_row=last)
    for j, (fit, opt_params, opt_loss) in enumerate(iso.fits):
        ys = Reference(ws, min_col=4 + j, min_row=head, max_row=last)
        curve = Series(ys, xs, title_from_data=True)
        curve.marker.symbol = "none"
        chart.series.append(curve)
        # The optimum: one point, read from the named result cells.
        px = _named_ref(ws.parent, opt_params)
        py = _named_ref(ws.parent, opt_loss)
        point = Series(py, px, title=t(f"{iso.key}.optimum.{fit}"))
        point.marker.symbol = "diamond"
        point.marker.size = 11
        colour = ("C00000", "1F3864")[j % 2]
        point.marker.graphicalProperties = GraphicalProperties(solidFill=colour)
        point.marker.graphicalProperties.line.solidFill = colour
        point.graphicalProperties.line.noFill = True
        chart.series.append(point)
    chart.x_axis.scaling.logBase = 10
    chart.x_axis.numFmt = NumFmt(formatCode="0E+0", sourceLinked=False)
    chart.x_axis.delete = chart.y_axis.delete = False
    chart.legend.position = "b"  # type: ignore[union-attr]
    ws.add_chart(chart, f"A{last + 2}")
    return last + 19


def _named_ref(wb: openpyxl.Workbook, name: str) -> Reference:
    title, coord = wb.defined_names[name].attr_text.split("!")
    col, row = re.match(r"\$?([A-Z]+)\$?(\d+)", coord).groups()  # type: ignore[union-attr]
    ws = wb[title.strip("'")]
    col_idx = openpyxl.utils.column_index_from_string(col)
    return Reference(ws, min_col=col_idx, min_row=int(row))


def data_sheet(wb: openpyxl.Workbook, lang: str) -> None:
    """Reference data: accelerator peaks and the fits' constants, named."""
    t = lambda key: PLANNER.t(key, lang)  # noqa: E731
    ws = wb.create_sheet(t("data.sheet"))
    heads = [t("data.accelerator"), t("data.vendor"), *DTYPES, t("data.source")]
    for col, head in enumerate(heads, start=1):
        c = ws.cell(1, col)
        _text(c, head)
        c.font, c.fill = HEADER_FONT, HEADER_FILL
    for r, acc in enumerate(ACCELERATORS, start=2):
        _text(ws.cell(r, 1), acc.name)
        _text(ws.cell(r, 2), acc.vendor)
        for j, d in enumerate(DTYPES):
            if d in acc.peak_tflops:
                ws.cell(r, 3 + j, acc.peak_tflops[d]).number_format = "#,##0.0"
        _text(ws.cell(r, 3 + len(DTYPES)), acc.source)
    last = 1 + len(ACCELERATORS)
    end = openpyxl.utils.get_column_letter(2 + len(DTYPES))
    title = ws.title
    wb.defined_names["AcceleratorNames"] = openpyxl.workbook.defined_name.DefinedName(
        "AcceleratorNames", attr_text=f"'{title}'!$A$2:$A${last}"
    )
    wb.defined_names["AcceleratorPeaks"] = openpyxl.workbook.defined_name.DefinedName(
        "AcceleratorPeaks", attr_text=f"'{title}'!$C$2:${end}${last}"
    )
    wb.defined_names["DtypeNames"] = openpyxl.workbook.defined_name.DefinedName(
        "DtypeNames", attr_text=f"'{title}'!$C$1:${end}$1"
    )
    r = last + 2
    _text(ws.cell(r, 1), t("data.fits"))
    ws.cell(r, 1).font = Font(bold=True)
    r += 1
    for col, head in enumerate(
        (t("data.fit"), "E", "A", "B", "α", "β", t("data.fit_source"))
    ):
        c = ws.cell(r, 1 + col)
        _text(c, head)
        c.font, c.fill = HEADER_FONT, HEADER_FILL
    for key, fit in FITS.items():
        r += 1
        _text(ws.cell(r, 1), key)
        for col, (which, value) in enumerate(
            (
                ("E", fit.E),
                ("A", fit.A),
                ("B", fit.B),
                ("Alpha", fit.alpha),
                ("Beta", fit.beta),
            ),
            start=2,
        ):
            ws.cell(r, col, value)
            _define(
                wb,
                fit_constant(key, which),
                title,
                f"{openpyxl.utils.get_column_letter(col)}{r}",
            )
        _text(ws.cell(r, 7), fit.source)
    ws.column_dimensions["A"].width = 14
    ws.column_dimensions[openpyxl.utils.get_column_letter(3 + len(DTYPES))].width = 90
    ws.freeze_panes = "B2"
    ws.protection.sheet = True


def _fit_outputs(fit: str, label: str) -> tuple[Output, ...]:
    c = lambda w: fit_constant(fit, w)  # noqa: E731
    n, d = f"{label}Params", f"{label}Tokens"
    g = f"(({c('Alpha')}*{c('A')})/({c('Beta')}*{c('B')}))^(1/({c('Alpha')}+{c('Beta')}))"
    a = f"({c('Beta')}/({c('Alpha')}+{c('Beta')}))"
    return (
        Output(
            n,
            f"{g}*(ComputeBudgetPFDays*{PFDAY}/{K})^{a}",
            ("ComputeBudgetPFDays",),
            "fmt.billions",
            "CHINCHILLA_FIT_PARAMS",
            ("ComputeBudgetPFDays", Lit(fit)),
            section="sec.model",
        ),
        Output(
            d,
            f"ComputeBudgetPFDays*{PFDAY}/({K}*{n})",
            ("ComputeBudgetPFDays", n),
            "fmt.trillions",
            "CHINCHILLA_FIT_TOKENS",
            ("ComputeBudgetPFDays", Lit(fit)),
            section="sec.model",
        ),
        Output(
            f"{label}Loss",
            loss_formula(fit, n, d),
            (n, d),
            "0.0000",
            "CHINCHILLA_LOSS",
            (n, d, Lit(fit)),
            section="sec.loss",
        ),
    )


_FT = ("GPUs", "FTTokensPerSecPerGPU", "FTEfficiency")
_RUN = ("DatasetExamples", "Epochs", *_FT, "TokensPerExample")
_PEAK = "INDEX(AcceleratorPeaks,MATCH(GPUModel,AcceleratorNames,0),MATCH(Dtype,DtypeNames,0))"

PLANNER = Template(
    slug="llm-training-planner",
    inputs=(
        Input("GPUModel", "gpu", "H100 SXM", "@", choices="AcceleratorNames"),
        Input("Dtype", "dtype", "bf16", "@", choices="DtypeNames"),
        Input("GPUs", "gpus", 1024, "#,##0", whole=True),
        Input("MFU", "mfu", 0.4, "0.0%"),
        Input("Days", "days", 30, "#,##0.0"),
        Input("PricePerGPUHour", "price_per_gpu_hour", 2.5, "#,##0.00"),
        Input("TokensPerParam", "tokens_per_param", 20, "#,##0.0"),
        Input("FTEfficiency", "efficiency", 1.0, "0.0%"),
        Input("TokensPerExample", "tokens_per_example", 900, "#,##0"),
        Input("DatasetExamples", "examples", 100_000, "#,##0", whole=True),
        Input("Epochs", "epochs", 3, "0.0"),
    ),
    outputs=(
        Output(
            "PeakTFLOPS",
            _PEAK,
            ("GPUModel", "Dtype"),
            "#,##0.0",
            "GPU_PEAK_TFLOPS",
            ("GPUModel", "Dtype"),
            section="sec.calculations",
            positive=True,
            message="msg.no_peak",
        ),
        Output(
            "ComputeBudgetPFDays",
            "GPUs*PeakTFLOPS*MFU*Days/1000",
            ("GPUs", "PeakTFLOPS", "MFU", "Days"),
            "#,##0",
            "CLUSTER_PFDAYS",
            ("GPUs", "PeakTFLOPS", "MFU", "Days"),
            section="sec.budget",
        ),
        Output(
            "TrainingFLOPs",
            f"ComputeBudgetPFDays*{PFDAY}",
            ("ComputeBudgetPFDays",),
            "0.00E+00",
            "PFDAYS_TO_FLOPS",
            ("ComputeBudgetPFDays",),
            section="sec.budget",
        ),
        Output(
            "GPUHours",
            "GPUs*Days*24",
            ("GPUs", "Days"),
            "#,##0",
            "CLUSTER_GPU_HOURS",
            ("GPUs", "Days"),
            section="sec.budget",
        ),
        Output(
            "TrainingCost",
            "GPUHours*PricePerGPUHour",
            ("GPUHours", "PricePerGPUHour"),
            "#,##0",
            "CLUSTER_COST",
            ("GPUs", "Days", "PricePerGPUHour"),
            section="sec.budget",
        ),
        Output(
            "RuleParams",
            f"SQRT(ComputeBudgetPFDays*{PFDAY}/({K}*TokensPerParam))",
            ("ComputeBudgetPFDays", "TokensPerParam"),
            "fmt.billions",
            "CHINCHILLA_PARAMS",
            ("ComputeBudgetPFDays", "TokensPerParam"),
            section="sec.model",
        ),
        Output(
            "RuleTokens",
            "TokensPerParam*RuleParams",
            ("TokensPerParam", "RuleParams"),
            "fmt.trillions",
            "CHINCHILLA_TOKENS",
            ("ComputeBudgetPFDays", "TokensPerParam"),
            section="sec.model",
        ),
        *_fit_outputs("hoffmann", "Hoffmann"),
        *_fit_outputs("epoch", "Epoch"),
        Output(
            "RuleLoss",
            loss_formula("hoffmann", "RuleParams", "RuleTokens"),
            ("RuleParams", "RuleTokens"),
            "0.0000",
            "CHINCHILLA_LOSS",
            ("RuleParams", "RuleTokens", Lit("hoffmann")),
            section="sec.loss",
        ),
        Output(
            "FTTokensPerSecPerGPU",
            "MFU*PeakTFLOPS*1E+12/(6*RuleParams)",
            ("MFU", "PeakTFLOPS", "RuleParams"),
            "#,##0",
            "TOKENS_PER_SEC_PER_GPU",
            ("RuleParams", "PeakTFLOPS", "MFU"),
            section="sec.finetune",
        ),
        Output(
            "FTExamplesPerSec",
            "GPUs*FTTokensPerSecPerGPU*FTEfficiency/TokensPerExample",
            ("GPUs", "FTTokensPerSecPerGPU", "FTEfficiency", "TokensPerExample"),
            "#,##0.00",
            "FT_EXAMPLES_PER_SEC",
            (*_FT, "TokensPerExample"),
            section="sec.finetune",
        ),
        Output(
            "FTTrainingHours",
            "DatasetExamples*Epochs*TokensPerExample/"
            f"(GPUs*FTTokensPerSecPerGPU*FTEfficiency)/{_num(SECONDS_PER_HOUR)}",
            (
                "DatasetExamples",
                "Epochs",
                "TokensPerExample",
                "GPUs",
                "FTTokensPerSecPerGPU",
                "FTEfficiency",
            ),
            "#,##0.00",
            "FT_TRAINING_HOURS",
            _RUN,
            section="sec.finetune",
        ),
        Output(
            "FTCost",
            "FTTrainingHours*GPUs*PricePerGPUHour",
            ("FTTrainingHours", "GPUs", "PricePerGPUHour"),
            "#,##0.00",
            "FT_COST",
            (*_RUN, "PricePerGPUHour"),
            section="sec.finetune",
        ),
    ),
    scenarios=(),
    sections=(
        "sec.calculations",
        "sec.budget",
        "sec.model",
        "sec.loss",
        "sec.finetune",
    ),
    data=data_sheet,
    blocks=(
        IsoFlop(
            "iso",
            "ComputeBudgetPFDays",
            "RuleParams",
            (0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0, 5.0),
            (
                ("hoffmann", "HoffmannParams", "HoffmannLoss"),
                ("epoch", "EpochParams", "EpochLoss"),
            ),
        ),
    ),
    notes=(
        "note.chain",
        "note.rules",
        "note.mfu",
        "note.peaks",
        "note.loss",
        "note.finetune",
        "note.sources",
    ),
    text={
        **COMMON,
        "sheet": {"en": "Planner", "es": "Planificador"},
        "title": {
            "en": "LLM training planner",
            "es": "Planificador de entrenamiento de LLM",
        },
        "subtitle": {
            "en": "From a GPU cluster to a model: the compute budget it delivers, the "
            "compute-optimal model and tokens for that budget (20-tokens rule and two "
            "fitted scaling laws), the loss they predict, the cost, and the speed of a "
            "fine-tune on the same cluster. Default: 1,024 H100s at 40 % MFU for 30 days.",
            "es": "De un clúster de GPU a un modelo: el presupuesto de cómputo que "
            "aporta, el modelo y los tokens de cómputo óptimo para ese presupuesto "
            "(regla de 20 tokens y dos leyes de escalado ajustadas), la pérdida "
            "prevista, el coste y la velocidad de un fine-tuning en el mismo clúster. "
            "Por defecto: 1.024 H100 al 40 % de MFU durante 30 días.",
        },
        "subject": {
            "en": "LLM training plan: cluster, compute budget, model size, loss, cost",
            "es": "Plan de entrenamiento de LLM: clúster, cómputo, tamaño, pérdida, coste",
        },
        "keywords": {
            "en": "LLM; training; scaling laws; Chinchilla; MFU; GPU; xlfuncs",
            "es": "LLM; entrenamiento; leyes de escalado; Chinchilla; MFU; GPU; xlfuncs",
        },
        "sec.budget": {
            "en": "Compute budget and cost",
            "es": "Presupuesto de cómputo y coste",
        },
        "sec.model": {"en": "Compute-optimal model", "es": "Modelo de cómputo óptimo"},
        "sec.loss": {"en": "Predicted loss", "es": "Pérdida prevista"},
        "sec.finetune": {
            "en": "Fine-tuning on this cluster",
            "es": "Fine-tuning en este clúster",
        },
        "data.sheet": {"en": "Data", "es": "Datos"},
        "data.accelerator": {"en": "Accelerator", "es": "Acelerador"},
        "data.vendor": {"en": "Vendor", "es": "Fabricante"},
        "data.source": {
            "en": "Source (dense peak TFLOP/s per chip)",
            "es": "Fuente (pico denso en TFLOP/s por chip)",
        },
        "data.fits": {
            "en": "Fitted scaling laws: L = E + A/N^α + B/D^β",
            "es": "Leyes de escalado ajustadas: L = E + A/N^α + B/D^β",
        },
        "data.fit": {"en": "Fit", "es": "Ajuste"},
        "data.fit_source": {
            "en": "Source of the constants",
            "es": "Fuente de las constantes",
        },
        "msg.no_peak": {
            "en": "No figure for this GPU in this dtype: pick another",
            "es": "Sin cifra para esta GPU en este dtype: elija otro",
        },
        "GPUModel.label": {"en": "GPU model", "es": "Modelo de GPU"},
        "GPUModel.unit": {"en": "name", "es": "nombre"},
        "GPUModel.help": {
            "en": "Pick from the list (the Data sheet): its dense peak TFLOP/s is used.",
            "es": "Elija de la lista (hoja Datos): se usa su pico denso en TFLOP/s.",
        },
        "Dtype.label": {"en": "Training precision (dtype)", "es": "Precisión (dtype)"},
        "Dtype.unit": {"en": "dtype", "es": "dtype"},
        "Dtype.help": {
            "en": "bf16 for most training; fp8 where the chip and recipe support it.",
            "es": "bf16 en la mayoría de entrenamientos; fp8 si el chip y la receta lo admiten.",
        },
        "GPUs.label": {"en": "GPUs", "es": "GPU"},
        "GPUs.help": {
            "en": "Accelerators in the cluster. Whole number, 1 or more.",
            "es": "Aceleradores del clúster. Entero, 1 o más.",
        },
        "MFU.label": {
            "en": "Model FLOPs utilisation (MFU)",
            "es": "Utilización de FLOPs (MFU)",
        },
        "MFU.unit": {"en": "% of peak", "es": "% del pico"},
        "MFU.help": {
            "en": "Useful model FLOPs as a share of peak, above 0 % and at most 100 %; "
            "35-55 % is typical for large dense runs (PaLM: 46.2 %).",
            "es": "FLOPs útiles del modelo respecto al pico, mayor que 0 % y como "
            "máximo 100 %; 35-55 % es habitual en grandes entrenamientos (PaLM: 46,2 %).",
        },
        "Days.label": {"en": "Training days", "es": "Días de entrenamiento"},
        "Days.unit": {"en": "days", "es": "días"},
        "Days.help": {
            "en": "Wall-clock days the cluster trains.",
            "es": "Días de reloj que entrena el clúster.",
        },
        "TokensPerParam.help": {
            "en": "For the rule-of-thumb column: Chinchilla's ratio is about 20.",
            "es": "Para la regla práctica: la proporción de Chinchilla es de unos 20.",
        },
        "FTEfficiency.label": {
            "en": "Fine-tune efficiency",
            "es": "Eficiencia del fine-tuning",
        },
        "FTEfficiency.unit": {"en": "% of expected", "es": "% de lo esperado"},
        "FTEfficiency.help": {
            "en": "MFU already counts utilisation; lower this for losses it does not "
            "cover (evaluation, short sequences).",
            "es": "La MFU ya cuenta la utilización; redúzcala por pérdidas que no "
            "cubre (evaluación, secuencias cortas).",
        },
        "TokensPerExample.label": {
            "en": "Fine-tune tokens per example",
            "es": "Tokens por ejemplo (fine-tuning)",
        },
        "TokensPerExample.help": {
            "en": "Mean tokens per example: input plus output, plus padding where it costs compute.",
            "es": "Tokens medios por ejemplo: entrada más salida, y el padding si consume cómputo.",
        },
        "DatasetExamples.label": {
            "en": "Fine-tune dataset",
            "es": "Dataset de fine-tuning",
        },
        "DatasetExamples.help": {
            "en": "Examples in the fine-tuning set.",
            "es": "Ejemplos del conjunto de fine-tuning.",
        },
        "Epochs.label": {"en": "Fine-tune epochs", "es": "Épocas de fine-tuning"},
        "Epochs.help": {
            "en": "Passes over the fine-tuning set.",
            "es": "Pasadas por el conjunto de fine-tuning.",
        },
        "PeakTFLOPS.label": {"en": "Peak per GPU", "es": "Pico por GPU"},
        "PeakTFLOPS.unit": {"en": "TFLOP/s", "es": "TFLOP/s"},
        "PeakTFLOPS.how": {
            "en": "Dense peak of the GPU model in the chosen dtype, looked up in the Data sheet (datasheet figures, never the sparsity ones).",
            "es": "Pico denso del modelo de GPU en el dtype elegido, de la hoja Datos (cifras de ficha técnica, nunca las de dispersión).",
        },
        "ComputeBudgetPFDays.how": {
            "en": "GPUs × peak × MFU × days ÷ 1,000 (1 PF/s-day = 1,000 TFLOP/s-days).",
            "es": "GPU × pico × MFU × días ÷ 1.000 (1 PF/s-día = 1.000 TFLOP/s-días).",
        },
        "TrainingFLOPs.how": {
            "en": "Budget × 8.64e19 FLOPs per PF/s-day; = 6·N·D for every model below.",
            "es": "Presupuesto × 8,64e19 FLOPs por PF/s-día; = 6·N·D para cada modelo de abajo.",
        },
        "GPUHours.how": {"en": "GPUs × days × 24.", "es": "GPU × días × 24."},
        "RuleParams.label": {
            "en": "Parameters, 20-tokens rule",
            "es": "Parámetros, regla de 20 tokens",
        },
        "RuleParams.unit": {"en": "parameters", "es": "parámetros"},
        "RuleParams.how": {
            "en": "√(C × 8.64e19 ÷ (6 × r)), from C = 6·N·D with D = r·N.",
            "es": "√(C × 8,64e19 ÷ (6 × r)), de C = 6·N·D con D = r·N.",
        },
        "RuleTokens.label": {
            "en": "Tokens, 20-tokens rule",
            "es": "Tokens, regla de 20 tokens",
        },
        "RuleTokens.unit": {"en": "tokens", "es": "tokens"},
        "RuleTokens.how": {"en": "r × N.", "es": "r × N."},
        "HoffmannParams.label": {
            "en": "Parameters, Hoffmann fit",
            "es": "Parámetros, ajuste de Hoffmann",
        },
        "HoffmannParams.unit": {"en": "parameters", "es": "parámetros"},
        "HoffmannParams.how": {
            "en": "G·(C·8.64e19/6)^a with a = β/(α+β), G = (αA/(βB))^(1/(α+β)); Hoffmann et al. 2022, eq. 10.",
            "es": "G·(C·8,64e19/6)^a con a = β/(α+β), G = (αA/(βB))^(1/(α+β)); Hoffmann et al. 2022, ec. 10.",
        },
        "HoffmannTokens.label": {
            "en": "Tokens, Hoffmann fit",
            "es": "Tokens, ajuste de Hoffmann",
        },
        "HoffmannTokens.unit": {"en": "tokens", "es": "tokens"},
        "HoffmannTokens.how": {
            "en": "C·8.64e19 ÷ (6 × N).",
            "es": "C·8,64e19 ÷ (6 × N).",
        },
        "EpochParams.label": {
            "en": "Parameters, Epoch fit",
            "es": "Parámetros, ajuste de Epoch",
        },
        "EpochParams.unit": {"en": "parameters", "es": "parámetros"},
        "EpochParams.how": {
            "en": "As the Hoffmann row with Besiroglu et al. 2024's replication constants.",
            "es": "Como la fila de Hoffmann con las constantes de la réplica de Besiroglu et al. 2024.",
        },
        "EpochTokens.label": {
            "en": "Tokens, Epoch fit",
            "es": "Tokens, ajuste de Epoch",
        },
        "EpochTokens.unit": {"en": "tokens", "es": "tokens"},
        "EpochTokens.how": {"en": "C·8.64e19 ÷ (6 × N).", "es": "C·8,64e19 ÷ (6 × N)."},
        "RuleLoss.label": {
            "en": "Loss, 20-tokens rule (Hoffmann fit)",
            "es": "Pérdida, regla de 20 tokens (Hoffmann)",
        },
        "RuleLoss.unit": {"en": "nats/token", "es": "nats/token"},
        "RuleLoss.how": {
            "en": "E + A/N^α + B/D^β with Hoffmann's constants.",
            "es": "E + A/N^α + B/D^β con las constantes de Hoffmann.",
        },
        "HoffmannLoss.label": {
            "en": "Loss at the Hoffmann optimum",
            "es": "Pérdida en el óptimo de Hoffmann",
        },
        "HoffmannLoss.unit": {"en": "nats/token", "es": "nats/token"},
        "HoffmannLoss.how": {
            "en": "The lowest loss the budget reaches by Hoffmann's fit.",
            "es": "La menor pérdida que alcanza el presupuesto según Hoffmann.",
        },
        "EpochLoss.label": {
            "en": "Loss at the Epoch optimum",
            "es": "Pérdida en el óptimo de Epoch",
        },
        "EpochLoss.unit": {"en": "nats/token", "es": "nats/token"},
        "EpochLoss.how": {
            "en": "The lowest loss by Epoch's fit (its own scale: compare within a fit).",
            "es": "La menor pérdida según Epoch (su propia escala: compare dentro de un ajuste).",
        },
        "FTTokensPerSecPerGPU.label": {
            "en": "Expected tokens/s per GPU",
            "es": "Tokens/s esperados por GPU",
        },
        "FTTokensPerSecPerGPU.unit": {"en": "tokens/s", "es": "tokens/s"},
        "FTTokensPerSecPerGPU.how": {
            "en": "MFU × peak × 1e12 ÷ (6 × N) for the 20-tokens model: the V of the fine-tuning estimator when no benchmark exists.",
            "es": "MFU × pico × 1e12 ÷ (6 × N) para el modelo de 20 tokens: la V del estimador de fine-tuning si no hay benchmark.",
        },
        "FTExamplesPerSec.label": {
            "en": "Fine-tune examples per second",
            "es": "Ejemplos por segundo (fine-tuning)",
        },
        "FTExamplesPerSec.unit": {"en": "examples/s", "es": "ejemplos/s"},
        "FTExamplesPerSec.how": {
            "en": "GPUs × tokens/s per GPU × efficiency ÷ tokens per example.",
            "es": "GPU × tokens/s por GPU × eficiencia ÷ tokens por ejemplo.",
        },
        "FTTrainingHours.label": {
            "en": "Fine-tune time",
            "es": "Duración del fine-tuning",
        },
        "FTTrainingHours.unit": {"en": "hours", "es": "horas"},
        "FTTrainingHours.how": {
            "en": "Dataset × epochs × tokens per example ÷ (GPUs × tokens/s per GPU × efficiency) ÷ 3,600.",
            "es": "Dataset × épocas × tokens por ejemplo ÷ (GPU × tokens/s por GPU × eficiencia) ÷ 3.600.",
        },
        "FTCost.label": {"en": "Fine-tune cost", "es": "Coste del fine-tuning"},
        "FTCost.unit": {"en": "currency", "es": "moneda"},
        "FTCost.how": {
            "en": "Fine-tune hours × GPUs × price per GPU-hour.",
            "es": "Horas de fine-tuning × GPU × precio por GPU-hora.",
        },
        "iso": {
            "en": "IsoFLOP curve: loss against model size at this budget",
            "es": "Curva IsoFLOP: pérdida según el tamaño con este presupuesto",
        },
        "iso.note": {
            "en": "Each row spends the whole budget: N = multiple × the 20-tokens N, D = C·8.64e19 ÷ (6N). Edit the yellow multiples freely.",
            "es": "Cada fila gasta todo el presupuesto: N = múltiplo × la N de 20 tokens, D = C·8,64e19 ÷ (6N). Cambie los múltiplos amarillos libremente.",
        },
        "iso.how": {
            "en": "Loss by each fit, E + A/N^α + B/D^β. The curve's minimum is the fit's compute-optimal model, marked in the chart.",
            "es": "Pérdida según cada ajuste, E + A/N^α + B/D^β. El mínimo de la curva es el modelo óptimo del ajuste, marcado en el gráfico.",
        },
        "iso.k": {"en": "× 20-tokens N", "es": "× N de 20 tokens"},
        "iso.params": {"en": "Parameters (N)", "es": "Parámetros (N)"},
        "iso.tokens": {"en": "Tokens (D)", "es": "Tokens (D)"},
        "iso.loss": {
            "en": "Predicted loss (nats/token)",
            "es": "Pérdida prevista (nats/token)",
        },
        "iso.loss.hoffmann": {
            "en": "Loss, Hoffmann fit",
            "es": "Pérdida, ajuste de Hoffmann",
        },
        "iso.loss.epoch": {"en": "Loss, Epoch fit", "es": "Pérdida, ajuste de Epoch"},
        "iso.optimum.hoffmann": {"en": "Hoffmann optimum", "es": "Óptimo de Hoffmann"},
        "iso.optimum.epoch": {"en": "Epoch optimum", "es": "Óptimo de Epoch"},
        "iso.chart": {
            "en": "IsoFLOP curve at the cluster's budget",
            "es": "Curva IsoFLOP con el presupuesto del clúster",
        },
        "note.chain": {
            "en": "The chain: GPUs × peak × MFU × days gives the compute budget; the budget gives the compute-optimal model and tokens; those give the predicted loss; GPU-hours give the cost; the same cluster's MFU gives the fine-tuning speed.",
            "es": "La cadena: GPU × pico × MFU × días da el presupuesto; el presupuesto da el modelo y los tokens óptimos; estos, la pérdida prevista; las GPU-horas, el coste; y la MFU del mismo clúster, la velocidad del fine-tuning.",
        },
        "note.rules": {
            "en": "The 20-tokens rule and the fits disagree: Hoffmann's published, rounded eq.-10 constants favour smaller models trained longer (a = 0.4516); Epoch's 2024 replication of the same data lands near 20 tokens per parameter. See docs/scaling.md.",
            "es": "La regla de 20 tokens y los ajustes discrepan: las constantes redondeadas de la ec. 10 de Hoffmann favorecen modelos más pequeños entrenados más tiempo (a = 0,4516); la réplica de Epoch (2024) con los mismos datos se acerca a 20 tokens por parámetro. Véase docs/scaling.md.",
        },
        "note.mfu": {
            "en": "MFU counts model FLOPs (6·N per token) against the dense peak; recomputed activations are hardware FLOPs (HFU) and do not count, so MFU is below HFU.",
            "es": "La MFU cuenta FLOPs del modelo (6·N por token) frente al pico denso; las activaciones recalculadas son FLOPs de hardware (HFU) y no cuentan, por lo que la MFU es menor que la HFU.",
        },
        "note.peaks": {
            "en": "Peaks are dense datasheet figures per chip: NVIDIA prints tensor-core figures 'with sparsity', twice the dense ones; this table stores the dense figure.",
            "es": "Los picos son cifras densas de ficha técnica por chip: NVIDIA imprime cifras 'con dispersión', el doble de las densas; esta tabla guarda la densa.",
        },
        "note.loss": {
            "en": "Losses are the fits' predictions for their training data, in nats per token; compare configurations within one fit rather than across fits or with other datasets.",
            "es": "Las pérdidas son predicciones de cada ajuste para sus datos, en nats por token; compare configuraciones dentro de un mismo ajuste, no entre ajustes ni con otros datos.",
        },
        "note.finetune": {
            "en": "The fine-tune estimate assumes the 20-tokens model, full fine-tuning (6·N FLOPs per token) and the same MFU; count padding in the tokens per example.",
            "es": "La estimación de fine-tuning supone el modelo de 20 tokens, fine-tuning completo (6·N FLOPs por token) y la misma MFU; cuente el padding en los tokens por ejemplo.",
        },
        "note.sources": {
            "en": "Sources: Hoffmann et al. 2022 (arXiv 2203.15556); Besiroglu et al. 2024 (arXiv 2404.10102); Chowdhery et al. 2022 (PaLM, MFU); vendor datasheets (Data sheet). Built by xlfuncs.",
            "es": "Fuentes: Hoffmann et al. 2022 (arXiv 2203.15556); Besiroglu et al. 2024 (arXiv 2404.10102); Chowdhery et al. 2022 (PaLM, MFU); fichas técnicas (hoja Datos). Generado con xlfuncs.",
        },
    },
)
