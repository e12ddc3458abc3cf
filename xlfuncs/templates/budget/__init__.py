"""The compute budget: a year of runs, month by month, on one page for the CFO.

A portfolio, not one run: pre-training runs, fine-tunes and serving lines on
the Runs sheet (:mod:`.runs`), each computed by the library's functions;
charged at the Prices sheet's rate for its GPU and tier; spread over the months
(:mod:`.months`) with the reserved commitment's idle cost, overheads and
contingency; summed on the Summary, the first sheet, in money first.
"""

from __future__ import annotations

from ...data.planning import CONTINGENCY_SOURCE
from ...registry.domains import NONNEGATIVE, Domain
from ...workbook import writer as wr
from ...workbook.writer import SheetWriter
from .. import texts as tx
from ..blocks import (
    Check,
    Cover,
    Custom,
    Figures,
    Input,
    Inputs,
    Notes,
    Result,
    Results,
    Sheet,
    Stamp,
    Template,
)
from ..expr import Array, F, Lit, Ref
from ..layout import Layout
from ..render import section
from ..shared import (
    CONTINGENCY_INPUT,
    CURRENCY,
    DATASHEETS,
    LORA_CITE,
    MEMORY_SOURCES,
    USABLE,
)
from ..texts import T
from .months import draw, draw_grids, draw_scenarios
from .runs import MONTHS, PRICE_NOTES, PRICES, RUNS

_MONEY = T("{currency}", "{currency}")
_DATE = Domain(36526.0, 73050.0, True, True, "be a date from 2000 to 2099")
_SHARE = Domain(0.0, 1.0, True, True, "be from 0 to 1", "be from 0% to 100%")

PLAN = Inputs(
    T("The plan", "El plan"),
    (
        Input("PlanStart", "", 46388.0,
              T("First month", "Primer mes"), T("date", "fecha"),
              T("The plan's first month (any day of it): the Months sheet counts 12 "
                "months from it.",
                "El primer mes del plan (cualquier día): la hoja Meses cuenta 12 meses "
                "desde él."),
              fmt="mmm yyyy", domain=_DATE, usual=False),
        CURRENCY,
        CONTINGENCY_INPUT,
        Input("OverheadShare", "", 0.10,
              T("Overheads, share", "Gastos generales, parte"), T("% of GPU cost", "% del coste GPU"),
              T("Storage, networking and evaluation as a share of the GPU cost: 5 % storage "
                "and data, 5 % evaluation, networking inside a cloud's price. An "
                "assumption to replace with your own.",
                "Almacenamiento, red y evaluación como parte del coste de GPU: 5 % "
                "almacenamiento y datos, 5 % evaluación, la red incluida en el precio de "
                "la nube. Un supuesto a sustituir por el suyo."),
              fmt=tx.PERCENT_FMT, domain=_SHARE, typical=(0.0, 0.5)),
        Input("OverheadMonthly", "", 0.0,
              T("Overheads, a month", "Gastos generales, al mes"), _MONEY,
              T("A fixed amount each month (a storage contract, a team's tools).",
                "Un importe fijo al mes (un contrato de almacenamiento, herramientas)."),
              fmt=tx.MONEY, domain=NONNEGATIVE, usual=False),
    ),
)  # fmt: skip

_PRICED = Check(
    F.ISNUMBER(F.INDEX(Ref("PriceReserved"), F.MATCH(F.TRIM(Ref("ReservedGPU")), Ref("PriceGPU"), 0))),
    T("Error: no reserved price for this GPU on the Prices sheet",
      "Error: sin precio reservado para esta GPU en la hoja Precios"),
)  # fmt: skip

CAPACITY = Inputs(
    T("Reserved capacity", "Capacidad reservada"),
    (
        Input("ReservedGPU", "gpu", "H100 SXM",
              T("GPU model reserved", "Modelo de GPU reservado"), T("name", "nombre"),
              T("The GPU model committed; the GPUs committed each month are typed on the "
                "Months sheet, and runs priced 'reserved' use them.",
                "El modelo de GPU comprometido; las GPU comprometidas cada mes se escriben "
                "en la hoja Meses, y las ejecuciones con tarifa 'reservada' las usan."),
              kind="list", keys="AcceleratorKeys", menu="AcceleratorNames", rules=(_PRICED,)),
    ),
)  # fmt: skip

RESERVED_PRICE = Results(
    T("Reserved capacity: its price", "Capacidad reservada: su precio"),
    (
        Result("ReservedPrice",
               F.INDEX(Ref("PriceReserved"), F.MATCH(F.TRIM(Ref("ReservedGPU")), Ref("PriceGPU"), 0)),
               T("Reserved price", "Precio reservado"), T("{currency}/GPU-h", "{currency}/GPU-h"),
               T("From the Prices sheet: what an idle committed GPU-hour costs.",
                 "De la hoja Precios: lo que cuesta una GPU-hora comprometida ociosa."),
               fmt=tx.MONEY),
    ),
)  # fmt: skip

TRAINING = Inputs(
    T("Training runs: memory", "Entrenamientos: memoria"),
    (
        USABLE,
        Input("SeqLen", "seq_len", 4096, T("Sequence length", "Longitud de secuencia"),
              T("tokens", "tokens"),
              T("The longest sequence a batch is padded to, for the activations.",
                "La secuencia más larga de un lote, para las activaciones.")),
        Input("MicroBatch", "micro_batch", 1, T("Micro-batch per GPU", "Microlote por GPU"),
              T("sequences", "secuencias"),
              T("Sequences each GPU holds at once.", "Secuencias que procesa cada GPU a la vez.")),
        Input("ZeroStage", "zero_stage", 3, T("ZeRO stage", "Etapa de ZeRO"), T("0 to 3", "0 a 3"),
              T("How a run's GPUs share weights, gradients and Adam states (3: all).",
                "Cómo reparten las GPU pesos, gradientes y estados de Adam (3: todo).")),
        Input("LoRARank", "rank", 16, T("LoRA rank (r)", "Rango de LoRA (r)"),
              T("dimensions", "dimensiones"),
              T("Rank of the adapters on every linear layer.",
                "Rango de los adaptadores en todas las capas lineales.")),
    ),
)  # fmt: skip

SERVING = Inputs(
    T("Serving lines", "Servicios"),
    (
        Input("ServingBatch", "batch", 32, T("Sequences per replica", "Secuencias por réplica"),
              T("sequences", "secuencias"),
              T("Requests a replica decodes together.", "Peticiones que una réplica decodifica a la vez."),
              whole=True),
        Input("ServingContext", "seq_len", 2048, T("Context per sequence", "Contexto por secuencia"),
              T("tokens", "tokens"),
              T("Prompt and output tokens kept in the key/value cache.",
                "Tokens de entrada y salida guardados en la caché de claves y valores.")),
        Input("ServingUtilization", "utilization", 0.5,
              T("Share of the bound reached", "Parte del límite alcanzada"), T("%", "%"),
              T("Memory bandwidth bounds decoding; servers reach part of it (30-60 %).",
                "El ancho de banda limita la decodificación; los servidores alcanzan parte "
                "(30-60 %)."), fmt=tx.PERCENT_FMT),
        Input("PeakToAverage", "", 2.0, T("Peak over average traffic", "Punta sobre tráfico medio"),
              T("×", "×"),
              T("The busiest hour's tokens/s over the month's average: GPUs are sized for "
                "the peak.",
                "Tokens/s de la hora punta sobre la media del mes: las GPU se dimensionan "
                "para la punta."), fmt=tx.TWO, domain=Domain(1.0, 100.0, True, True, "be from 1 to 100"),
              typical=(1.0, 5.0)),
    ),
)  # fmt: skip

ENERGY = Inputs(
    T("Energy and emissions", "Energía y emisiones"),
    (
        Input("PUE", "pue", 1.2, T("Power usage effectiveness (PUE)", "Eficiencia energética (PUE)"),
              T("ratio", "ratio"),
              T("Total power over IT power: 1.10 for Google (2023), 1.58 on average "
                "(Uptime Institute 2023).",
                "Potencia total sobre la de TI: 1,10 en Google (2023), 1,58 de media "
                "(Uptime Institute 2023)."), fmt=tx.TWO),
        Input("GridIntensity", "kg_co2_per_kwh", 0.37,
              T("Grid carbon intensity", "Intensidad de carbono de la red"), T("kg CO2e/kWh", "kg CO2e/kWh"),
              T("0.37 for the US average (EIA 2023), 0.02 for France (RTE 2024).",
                "0,37 de media en EE. UU. (EIA 2023), 0,02 en Francia (RTE 2024)."), fmt="0.000"),
    ),
)  # fmt: skip

NOTES = Notes(
    T("Notes and caveats", "Notas y advertencias"),
    (
        T("A training run's hours are its tokens ÷ (GPUs × tokens/s per GPU), the "
          "fine-tuning workbook's FT_TRAINING_HOURS; the speed is typed, or estimated "
          "from the MFU (6 FLOPs a parameter and token, 4 for LoRA and QLoRA).",
          "Las horas de un entrenamiento son sus tokens ÷ (GPU × tokens/s por GPU), el "
          "FT_TRAINING_HOURS del libro de ajuste fino; la velocidad se escribe o se "
          "estima de la MFU (6 FLOPs por parámetro y token, 4 en LoRA y QLoRA)."),
        T("A serving line's GPUs hold its peak: the month's tokens ÷ 730 hours × the "
          "peak-over-average, at the decode bound of its GPUs (SERVING_GPUS); it pays "
          "for them all month.",
          "Las GPU de un servicio cubren su punta: los tokens del mes ÷ 730 horas × la "
          "punta sobre la media, al límite de decodificación de sus GPU (SERVING_GPUS); "
          "las paga todo el mes."),
        T("Contingency covers the runs (failed runs, restarts, re-runs), not idle "
          "reservations or overheads; experiments before a final run are not in it "
          "(Cottier et al. 2024 put them at 1.2 to 4 times the final run).",
          "La contingencia cubre las ejecuciones (fallos, reinicios, repeticiones), no "
          "las reservas ociosas ni los gastos generales; los experimentos previos no "
          "están en ella (Cottier et al. 2024 los sitúan en 1,2 a 4 veces la ejecución "
          "final)."),
        T("Energy counts the GPUs at their board power (TDP) times the PUE.",
          "La energía cuenta las GPU a su potencia de placa (TDP) por el PUE."),
    ),
)  # fmt: skip

_SUM = T("The months' sum.", "La suma de los meses.")


def _by_month(name: str, label: T, row: str) -> Result:
    return Result(name, F.SUM(Ref(row)), label, _MONEY, _SUM, fmt=tx.MONEY)


def _quarter(q: int) -> Result:
    # The quarter's months picked from the row by a mask: {0,0,0,1,1,1,0,…}.
    mask = Array(
        (tuple(Lit(1 if (m - 1) // 3 == q - 1 else 0) for m in range(1, MONTHS + 1)),)
    )
    return Result(f"BudgetQ{q}", F.SUMPRODUCT(Ref("MonthlyCost"), mask),
                  T(f"Quarter {q}", f"Trimestre {q}"), _MONEY,
                  T(f"Months {3 * q - 2} to {3 * q}, all in.", f"Meses {3 * q - 2} a {3 * q}, todo incluido."),
                  fmt=tx.MONEY)  # fmt: skip


def costliest(lay: Layout, w: SheetWriter) -> None:
    """The three costliest runs, their names and costs before contingency."""
    section(lay, w, T("The costliest runs", "Las ejecuciones más caras"))
    for k in (1, 2, 3):
        w.next()
        amount = F.LARGE(Ref("RunCost"), k)
        name = F.INDEX(Ref("RunName"), F.MATCH(amount, Ref("RunCost"), 0))
        lay.formula(w, "label", F.IFERROR(name, "–"), wr.WRAPPED, name=f"CostliestRunName{k}",
                    public=True)  # fmt: skip
        lay.formula(w, "value", F.IFERROR(amount, "–"), wr.RESULT.but(fmt=tx.MONEY),
                    name=f"CostliestRun{k}", public=True)  # fmt: skip
        lay.unit(w, "unit", _MONEY)
        if k == 1:
            w.put("check", lay.t(T("Before contingency (Runs sheet).",
                                   "Sin contingencia (hoja Ejecuciones).")),
                  wr.WRAPPED.but(font=wr.NOTE.font), to="how")  # fmt: skip


SUMMARY = Sheet(
    T("Summary", "Resumen"),
    (
        Figures(
            T("Money", "Dinero"),
            (
                Result("BudgetTotal", F.SUM(Ref("MonthlyCost")),
                       T("Budget, all in", "Presupuesto, todo incluido"), _MONEY,
                       T(f"The {MONTHS} months' cost with contingency and overheads.",
                         f"El coste de los {MONTHS} meses con contingencia y gastos."),
                       fmt=tx.MONEY, key=True),
                _by_month("BudgetPretraining", T("Pre-training", "Preentrenamiento"), "MonthPretraining"),
                _by_month("BudgetFinetuning", T("Fine-tuning", "Ajuste fino"), "MonthFinetuning"),
                _by_month("BudgetServing", T("Serving", "Servicio"), "MonthServing"),
                _by_month("BudgetIdle", T("Reserved, idle", "Reservada, ociosa"), "MonthIdle"),
                _by_month("BudgetOverheads", T("Overheads", "Gastos generales"), "MonthOverheads"),
                _by_month("BudgetContingency", T("Contingency", "Contingencia"), "MonthContingency"),
                *(_quarter(q) for q in range(1, MONTHS // 3 + 1)),
            ),
        ),
        Custom(costliest),
        Figures(
            T("Capacity, energy, emissions", "Capacidad, energía, emisiones"),
            (
                Result("PeakGPUs", F.MAX(Ref("MonthGPUs")), T("GPUs in use, busiest month", "GPU en uso, mes de más uso"),
                       T("GPUs", "GPU"), T("Its average over the month.", "Su media en el mes.")),
                Result("PeakGPUsActive", F.MAX(Ref("MonthGPUsActive")),
                       T("Most GPUs at once", "Máximo de GPU a la vez"), T("GPUs", "GPU"),
                       T("At most: the GPUs of the runs active in the busiest month.",
                         "Como mucho: las GPU de las ejecuciones activas en el mes de más uso.")),
                Result("PeakReserved", F.MAX(Ref("MonthReserved")),
                       T("Most GPUs reserved", "Máximo de GPU reservadas"), T("GPUs", "GPU"),
                       T("The largest month's commitment.", "El compromiso del mes mayor.")),
                Result("CommitmentUse",
                       F.IF(F.SUM(Ref("MonthReserved")).gt(0),
                            F.SUM(Ref("MonthReservedUsed")) / F.SUM(Ref("MonthReserved")), Lit(0)),
                       T("Commitment used", "Compromiso usado"), T("% used", "% usado"),
                       T("Reserved GPU-months used ÷ committed.", "GPU-mes reservadas usadas ÷ comprometidas."),
                       fmt="0%"),
                Result("BudgetEnergy", F.SUM(Ref("RunEnergy")), T("Energy", "Energía"), T("MWh", "MWh"),
                       T("All runs.", "Todas las ejecuciones."), fmt=tx.DECIMAL),
                Result("BudgetCO2", F.SUM(Ref("RunCO2")), T("Emissions", "Emisiones"),
                       T("t CO2e", "t CO2e"), T("All runs.", "Todas las ejecuciones."), fmt=tx.DECIMAL),
            ),
        ),
        Figures(T("Key assumptions", "Supuestos clave"),
                ("Contingency", "OverheadShare", "PlanStart", "Currency")),
        Stamp(),
    ),
    summary=True,
)  # fmt: skip

_RUN_WIDTHS = (15.5, 14.5, 13, 7, 9, 11, 7, 8, 6, 7, 11, 16)
_MONTH_WIDTHS = (17.5,) + (7.8,) * MONTHS + (10.0,)

BUDGET = Template(
    slug="llm-compute-budget",
    title=T("LLM compute budget", "Presupuesto de cómputo de LLM"),
    subtitle=T(
        "A year of runs, month by month: pre-training, fine-tunes and serving, priced by "
        "GPU and tier, with the reserved capacity's idle cost, overheads and "
        "contingency: the example programme's runs are there to replace.",
        "Un año de ejecuciones, mes a mes: preentrenamiento, ajustes y servicio, con "
        "precio por GPU y tarifa, el coste ocioso de la capacidad reservada, gastos "
        "generales y contingencia: las ejecuciones del ejemplo están para sustituirlas.",
    ),
    subject=T("Compute budget for a year of LLM training and serving",
              "Presupuesto de cómputo para un año de entrenamiento y servicio de LLM"),
    keywords=T("LLM; budget; GPU; cloud; reserved; fine-tuning; serving; xlfuncs",
               "LLM; presupuesto; GPU; nube; reservada; ajuste fino; servicio; xlfuncs"),
    cover=Cover(
        answers=T(
            "What a year of LLM work costs, month by month: each run's GPU-hours, days, "
            "cost, energy and emissions, whether it fits its GPUs' memory; the reserved "
            "commitment's use and idle cost; the all-in total by kind and quarter; and "
            "what changes with the prices, the MFU and the contingency.",
            "Lo que cuesta un año de trabajo con LLM, mes a mes: las GPU-horas, días, "
            "coste, energía y emisiones de cada ejecución, si cabe en la memoria de sus "
            "GPU; el uso y el coste ocioso del compromiso reservado; el total por tipo y "
            "trimestre; y lo que cambia con los precios, la MFU y la contingencia.",
        ),
        steps=(
            T("On the Runs sheet, type your runs over the example (yellow cells), a row "
              "each; each row's check names its first problem.",
              "En la hoja Ejecuciones, escriba sus ejecuciones sobre el ejemplo (celdas "
              "amarillas), una por fila; el control de cada fila nombra su primer problema."),
            T("On the Prices sheet, type your contract prices; on the Months sheet, the "
              "GPUs reserved each month; on Assumptions, the currency, contingency and "
              "overheads.",
              "En la hoja Precios, escriba sus precios de contrato; en la hoja Meses, las "
              "GPU reservadas cada mes; en Supuestos, la moneda, la contingencia y los "
              "gastos generales."),
            T("Read the model check at the top, then print the Summary: the money first.",
              "Lea el control del modelo arriba e imprima el Resumen: primero el dinero."),
        ),
        limits=(
            T("Example prices are public list prices in USD with their date: replace "
              "them with yours.",
              "Los precios de ejemplo son precios públicos en USD con su fecha: "
              "sustitúyalos por los suyos."),
            T("A run's months follow from its hours; queueing, experiments and staff are "
              "not counted.",
              "Los meses de una ejecución salen de sus horas; no cuenta esperas, "
              "experimentos ni personal."),
        ),
        sources=(
            T("Contingency: " + CONTINGENCY_SOURCE, "Contingencia: " + CONTINGENCY_SOURCE),
            T("Prices: CoreWeave, https://www.coreweave.com/pricing (read 2026-09-20); "
              "reserved discount: Google Cloud a3-highgpu-8g 1-year commitment, 30.6 % "
              "(pricing.yml of Cyclenerd/google-cloud-pricing-cost-calculator, March 2025)",
              "Precios: CoreWeave, https://www.coreweave.com/pricing (leída el 2026-09-20); "
              "descuento reservado: compromiso de 1 año de Google Cloud a3-highgpu-8g, "
              "30,6 % (pricing.yml de Cyclenerd/google-cloud-pricing-cost-calculator, "
              "marzo de 2025)"),
            T("Overheads: Cottier et al. 2024, 'The Rising Costs of Training Frontier AI "
              "Models', https://arxiv.org/abs/2405.21015",
              "Gastos generales: Cottier et al. 2024, 'The Rising Costs of Training "
              "Frontier AI Models', https://arxiv.org/abs/2405.21015"),
            MEMORY_SOURCES, LORA_CITE, DATASHEETS,
        ),
    ),
    sheets=(
        SUMMARY,
        Sheet(T("Assumptions", "Supuestos"),
              (PLAN, CAPACITY, RESERVED_PRICE, TRAINING, SERVING, ENERGY, NOTES)),
        Sheet(T("Runs", "Ejecuciones"), (RUNS,), columns=_RUN_WIDTHS),
        Sheet(T("Prices", "Precios"), (PRICES, PRICE_NOTES), columns=(16.5, 10, 10, 10, 11, 52, 18)),
        Sheet(T("Months", "Meses"), (Custom(draw), Custom(draw_scenarios), Custom(draw_grids)), columns=_MONTH_WIDTHS),
    ),
    data_sheet=True,
)  # fmt: skip


__all__ = ["BUDGET"]
