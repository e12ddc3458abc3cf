"""The compute budget: a year of runs, month by month, on one page for the CFO.

A portfolio, not one run: pre-training runs, fine-tunes and serving lines on
the Runs sheet (:mod:`.runs`), each computed by the library's functions;
charged at the Prices sheet's rate for its GPU and tier; spread over the months
(:mod:`.months`) with the reserved commitment's idle cost, overheads and
contingency; summed on the Summary, the first sheet, in money first.
"""

from __future__ import annotations

import dataclasses

from ...data.planning import CONTINGENCY_SOURCE, PRETRAINING_MFU
from ...data.prices import (
    API_70B,
    EXPERIMENTS_RANGE,
    EXPERIMENTS_SOURCE,
    GPU_PRICE_SOURCES,
    PRICES_READ,
)
from ...data.serving import SERVING_SOURCE
from ...registry.domains import NONNEGATIVE, Domain
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
    Template,
)
from ..checks import figure
from ..expr import Array, Expr, F, Lit, Ref, Say
from ..monthgrid import HEAD
from ..monthgrid import cell as month
from ..shared import (
    API_PRICE_INPUT,
    API_PRICE_OUTPUT,
    CONTINGENCY_INPUT,
    CURRENCY,
    DATASHEETS,
    HOURS_IN_A_MONTH,
    LORA_CITE,
    LORA_SPEED,
    MEMORY_SOURCES,
    PEAK_TO_AVERAGE,
    PREFILL_MFU_INPUT,
    RECOMPUTE,
    SERVING_BATCH,
    SERVING_UTILIZATION,
    USABLE,
    mfu_checks,
)
from ..texts import T
from .months import (
    CHART,
    IN_THOUSANDS,
    MONTHS_GRID,
    RUN_COSTS,
    RUN_GPUS,
    THOUSANDS,
    draw_scenarios,
)
from .reservations import (
    RESERVATION_COSTS,
    RESERVATION_GPUS,
    RESERVATIONS,
    first_reservation_name,
)
from .runs import MONTHS, PRICE_NOTES, PRICES, RUNS

_MONEY = T("{currency}", "{currency}")
_PER_M = T("{currency}/M tokens", "{currency}/M tokens")
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
        Input("ServingContingency", "", 0.0,
              T("Contingency, serving", "Contingencia, servicio"), T("% of cost", "% del coste"),
              T("Added to serving for traffic above the plan (0 %: the peak-to-average and "
                "the spare replicas already size it). The contingency above covers the "
                "training runs only, as in the planner.",
                "Se suma al servicio por un tráfico mayor que el previsto (0 %: la punta "
                "sobre la media y las réplicas de reserva ya lo dimensionan). La "
                "contingencia de arriba cubre solo los entrenamientos, como en el "
                "planificador."),
              fmt=tx.PERCENT_FMT, domain=_SHARE, typical=(0.0, 0.5)),
        Input("ExperimentsMultiplier", "", 1.0,
              T("Experiments, times the final runs", "Experimentos (× ejecuciones)"),
              T("×", "×"),
              T(f"Compute spent before the final training runs (ablations, smaller models, "
                f"failed recipes) as a multiple of theirs: {EXPERIMENTS_RANGE[0]} to "
                f"{EXPERIMENTS_RANGE[2]} for frontier models, median {EXPERIMENTS_RANGE[1]} "
                "(Cottier et al. 2024). 1: none counted.",
                "Cómputo gastado antes de los entrenamientos finales (ablaciones, modelos "
                "menores, recetas fallidas) como múltiplo del suyo: de 1,2 a 4 en modelos "
                "de frontera, mediana 2,2 (Cottier et al. 2024). 1: no se cuentan."),
              fmt=tx.TWO, domain=Domain(1.0, 100.0, True, True, "be from 1 to 100"),
              typical=(1.0, 4.0)),
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


CALENDAR = Results(T("Time", "Tiempo"), (HOURS_IN_A_MONTH,))

CURRENCY_RATE = Results(
    T("Currency", "Moneda"),
    (Result("CurrencyRate",
            F.INDEX(Ref("CurrencyPerUSD"), F.MATCH(F.TRIM(Ref("Currency")), Ref("CurrencyCodes"), 0)),
            T("A US dollar in the currency", "Un dólar en la moneda"), T("{currency}", "{currency}"),
            T("The Data sheet's rounded rate: the price checks' bands follow the currency.",
              "El tipo redondeado de la hoja Datos: las bandas de los precios siguen la moneda."),
            fmt=tx.TWO),),
)  # fmt: skip

TRAINING = Inputs(
    T("Training runs", "Entrenamientos"),
    (
        Input("TrainingMFU", "mfu", PRETRAINING_MFU,
              T("MFU, unless a run says", "MFU, salvo otra en la fila"),
              T("% of peak", "% del pico"),
              T("A well-tuned run's model FLOPs utilisation while it trains (Llama 3 405B "
                "38-43 %); all in, Llama 3.1's GPU-hours imply 14 % (8B) to 35 % (405B): "
                "the scenario 'All-in MFU' shows the difference.",
                "La MFU de un entrenamiento bien ajustado mientras entrena (Llama 3 405B "
                "38-43 %); con todo incluido, las GPU-horas de Llama 3.1 implican del 14 % "
                "(8B) al 35 % (405B): el escenario 'MFU con todo' muestra la diferencia."),
              fmt=tx.PERCENT_FMT, usual=False, rules=mfu_checks("TrainingMFU")[1:]),
        LORA_SPEED,
        USABLE,
        Input("SeqLen", "seq_len", 4096, T("Sequence length", "Longitud de secuencia"),
              T("tokens", "tokens"),
              T("The sequence a batch is packed or padded to: the attention's FLOPs and "
                "the activations.",
                "La secuencia a la que se empaqueta o rellena un lote: los FLOPs de la "
                "atención y las activaciones.")),
        Input("MicroBatch", "micro_batch", 1, T("Micro-batch per GPU", "Microlote por GPU"),
              T("sequences", "secuencias"),
              T("Sequences each GPU holds at once.", "Secuencias que procesa cada GPU a la vez.")),
        Input("ZeroStage", "zero_stage", 3, T("ZeRO stage", "Etapa de ZeRO"), T("0 to 3", "0 a 3"),
              T("How a run's GPUs share weights, gradients and Adam states (3: all).",
                "Cómo reparten las GPU pesos, gradientes y estados de Adam (3: todo).")),
        RECOMPUTE,
        Input("LoRARank", "rank", 16, T("LoRA rank (r)", "Rango de LoRA (r)"),
              T("dimensions", "dimensiones"),
              T("Rank of the adapters on every linear layer.",
                "Rango de los adaptadores en todas las capas lineales.")),
    ),
)  # fmt: skip


def _api_price(inp: Input) -> Input:
    """An API price judged in the plan's currency: its typical band in USD a
    million tokens, times the Data sheet's rate (a JPY plan's 108 is usual)."""
    x, rate = Ref(inp.name), Ref("CurrencyRate")
    assert inp.typical is not None
    lo, hi_usd = inp.typical
    band = Check(
        F.IFERROR(F.AND(x.ge(lo * rate), x.le(hi_usd * rate)), True),
        Say(T("Warning: unusual: hosted APIs list ", "Aviso: inusual: las API alojadas cobran de "))
        .cat(figure(lo * rate, 2), T(" to ", " a "), figure(hi_usd * rate, 2), " ",
             F.TRIM(Ref("Currency")), T(" a million tokens", " por millón de tokens")),
        error=False,
    )  # fmt: skip
    return dataclasses.replace(inp, usual=False, rules=(*inp.rules, band))


SERVING = Inputs(
    T("Serving lines", "Servicios"),
    (
        Input("ServingContext", "seq_len", 1500, T("Tokens a request", "Tokens por petición"),
              T("tokens", "tokens"),
              T("A request's prompt and output together; each line's prompt and output "
                "tokens a month split it.",
                "La entrada y la salida de una petición juntas; los tokens de entrada y "
                "salida al mes de cada servicio la reparten.")),
        SERVING_BATCH,
        SERVING_UTILIZATION,
        PREFILL_MFU_INPUT,
        PEAK_TO_AVERAGE,
        _api_price(API_PRICE_INPUT),
        _api_price(API_PRICE_OUTPUT),
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
          "fine-tuning workbook's FT_TRAINING_HOURS; the speed is measured, or estimated "
          "from the MFU (6 FLOPs a parameter and token, and the attention's), LoRA and "
          "QLoRA at the LoRA speed typed.",
          "Las horas de un entrenamiento son sus tokens ÷ (GPU × tokens/s por GPU), el "
          "FT_TRAINING_HOURS del libro de ajuste fino; la velocidad se mide o se estima "
          "de la MFU (6 FLOPs por parámetro y token, y los de la atención), LoRA y QLoRA "
          "a la velocidad de LoRA escrita."),
        T("A serving line's replicas hold its peak: the month's output tokens ÷ 730 hours "
          "× the peak over the average, at the output tokens/s a replica sustains with its "
          "prompts (SERVING_TOKENS_PER_SEC, docs/serving.md), plus its spare replicas; it "
          "pays for them all month.",
          "Las réplicas de un servicio cubren su punta: los tokens de salida del mes ÷ 730 "
          "horas × la punta sobre la media, a los tokens de salida/s que sostiene una "
          "réplica con sus entradas (SERVING_TOKENS_PER_SEC, docs/serving.md), más sus "
          "réplicas de reserva; las paga todo el mes."),
        T("Contingency covers the training runs (failed runs, restarts, re-runs); serving "
          "has its own. Experiments before the final runs are counted only by the multiple "
          "typed above.",
          "La contingencia cubre los entrenamientos (fallos, reinicios, repeticiones); el "
          "servicio tiene la suya. Los experimentos previos solo cuentan con el múltiplo "
          "escrito arriba."),
        T("Energy counts the GPUs at their board power (TDP) times the PUE.",
          "La energía cuenta las GPU a su potencia de placa (TDP) por el PUE."),
    ),
)  # fmt: skip

_SUM = T("The months' sum.", "La suma de los meses.")


def _by_month(name: str, label: T, row: str, how: T = _SUM) -> Result:
    return Result(name, F.SUM(Ref(row)), label, _MONEY, how, fmt=tx.MONEY)


def _quarter(q: int) -> Result:
    # The quarter's months picked from the row by a mask: {0,0,0,1,1,1,0,…}.
    mask = Array(
        (tuple(Lit(1 if (m - 1) // 3 == q - 1 else 0) for m in range(1, MONTHS + 1)),)
    )
    return Result(f"BudgetQ{q}", F.SUMPRODUCT(Ref("MonthlyCost"), mask),
                  T(f"Quarter {q}", f"Trimestre {q}"), _MONEY,
                  T(f"Months {3 * q - 2} to {3 * q}, all in.", f"Meses {3 * q - 2} a {3 * q}, todo incluido."),
                  fmt=tx.MONEY, beside=(Ref(month(HEAD, 3 * q - 2)), Ref(month(HEAD, 3 * q))),
                  beside_fmt="mmm yy")  # fmt: skip


def _cents(k: int) -> Expr:
    """The k-th costliest run's cost to the cent, as the Runs sheet's key
    writes it (``RunCents``)."""
    return Lit("c").cat(F.FIXED(Ref(f"CostliestRun{k}"), 2))


def _tie(k: int) -> Expr | int:
    """Which of the runs costing as much as the k-th costliest it is, in row
    order: 1 + how many of the costlier places cost the same to the cent
    (equal costs are neighbours in LARGE's order)."""
    out: Expr | int = k
    for i in range(1, k):
        out = F.IF(_cents(i).eq(_cents(k)), out, k - i)
    return out


def _costliest(k: int) -> Result:
    amount = F.LARGE(Ref("RunInPlan"), k)
    key = _cents(k).cat("|", _tie(k))
    name = F.IFERROR(F.INDEX(Ref("RunName"), F.MATCH(key, Ref("RunRankKey"), 0)), "–")
    return Result(f"CostliestRun{k}", F.IFERROR(amount, "–"), T(f"Costliest run {k}", f"Ejecución más cara {k}"),
                  _MONEY, T("In the plan, before contingency.",
                            "En el plan, sin contingencia."),
                  fmt=tx.MONEY, label_expr=name, label_name=f"CostliestRunName{k}")  # fmt: skip


_SCENARIO_TOTALS = tuple(Ref(f"ScenarioTotal{k}") for k in range(1, 5))


def _cross_cast(parts: Expr, what: T) -> Check:
    """The total against another sum of it, to the cent: a broken formula, or
    a figure typed over one, shows here."""
    total = Ref("BudgetTotal")  # n/a has its own reason
    return Check(F.IF(F.ISNUMBER(total), F.ROUND(total - parts, 2).eq(0), True),
                 T("Error: the total is not the sum of its ", "Error: el total no es la suma de ")
                 + what + T(": a formula was changed or typed over",
                            ": se cambió o sobrescribió una fórmula"))  # fmt: skip


def _sum_of(*names: str) -> Expr:
    out: Expr = Ref(names[0])
    for n in names[1:]:
        out = out + Ref(n)
    return out


#: Page 1's total cross-cast (ICAEW): by kind and line, by quarter, by month.
_CROSS_CASTS = (
    _cross_cast(_sum_of("BudgetPretraining", "BudgetFinetuning", "BudgetServing", "BudgetIdle",
                        "BudgetAbove", "BudgetOverheads", "BudgetContingency",
                        "BudgetServingContingency", "BudgetExperiments"),
                T("lines", "líneas")),
    _cross_cast(_sum_of("BudgetQ1", "BudgetQ2", "BudgetQ3", "BudgetQ4"),
                T("quarters", "trimestres")),
)  # fmt: skip

MONEY = Figures(
    T("Money", "Dinero"),
    (
        Result("BudgetTotal", F.SUM(Ref("MonthlyCost")),
               T("Budget, all in", "Presupuesto, todo incluido"), _MONEY,
               T(f"The {MONTHS} months, all in.", f"Los {MONTHS} meses, todo incluido."),
               fmt=tx.MONEY, key=True,
               checks=(*_CROSS_CASTS,
                       Check(F.COUNTIF(Ref("RunCost"), ">0").gt(0),
                             T("Warning: the plan has no runs: type them on the Runs sheet",
                               "Aviso: el plan no tiene ejecuciones: escríbalas en la hoja "
                               "Ejecuciones"), error=False),)),
        Result("BudgetLow", F.MIN(Ref("BudgetTotal"), *_SCENARIO_TOTALS),
               T("Range: the lowest scenario", "Horquilla: el escenario más bajo"), _MONEY,
               T("Least of the base and the scenarios.",
                 "El menor de la base y los escenarios."), fmt=tx.MONEY),
        Result("BudgetHigh", F.MAX(Ref("BudgetTotal"), *_SCENARIO_TOTALS),
               T("Range: the highest scenario", "Horquilla: el escenario más alto"), _MONEY,
               T("Most of the base and the scenarios.",
                 "El mayor de la base y los escenarios."), fmt=tx.MONEY),
        Result("BudgetCommitted", F.SUM(Ref("ReservationPlanCost")),
               T("Committed, in the plan", "Comprometido, en el plan"), _MONEY,
               T("Not cancellable; in the total.",
                 "No cancelable; en el total."),
               fmt=tx.MONEY),
        Result("BudgetCommittedAfter", F.SUM(Ref("ReservationAfterPlan")),
               T("Committed, after the plan", "Comprometido, tras el plan"), _MONEY,
               T(f"Owed past month {MONTHS}; not in the total.",
                 f"Debido tras el mes {MONTHS}; no en el total."),
               fmt=tx.MONEY),
        _by_month("BudgetPretraining", T("Pre-training", "Preentrenamiento"), "MonthPretraining"),
        _by_month("BudgetFinetuning", T("Fine-tuning", "Ajuste fino"), "MonthFinetuning"),
        _by_month("BudgetServing", T("Serving, self-hosted", "Servicio, propio"), "MonthServing"),
        Result("BudgetApiAlternative", F.SUM(Ref("RunApiCost")),
               T("Serving through an API instead", "Servicio con una API en su lugar"), _MONEY,
               T("Same tokens at the API prices.",
                 "Mismos tokens a precios de API."),
               fmt=tx.MONEY),
        Result("BudgetBreakEvenApi",
               F.IF(Ref("BudgetApiAlternative").gt(0),
                    Ref("ApiPriceOutput") * Ref("BudgetServing") / Ref("BudgetApiAlternative"),
                    ""),
               T("API price that breaks even", "Precio de API de equilibrio"), _PER_M,
               T("Where the API costs what self-hosting does: buy below it.",
                 "Donde la API cuesta lo que el servicio propio: compre por debajo."),
               fmt=tx.MONEY),
        _by_month("BudgetIdle", T("Reserved, idle", "Reservada, ociosa"), "MonthIdle"),
        _by_month("BudgetAbove", T("Above the commitment", "Por encima del compromiso"), "MonthAbove"),
        _by_month("BudgetOverheads", T("Overheads", "Gastos generales"), "MonthOverheads"),
        _by_month("BudgetContingency", T("Contingency, training", "Contingencia, entrenamiento"),
                  "MonthContingency"),
        _by_month("BudgetServingContingency", T("Contingency, serving", "Contingencia, servicio"),
                  "MonthServingContingency"),
        _by_month("BudgetExperiments", T("Experiments before the runs", "Experimentos previos"),
                  "MonthExperiments", T("Booked in the runs' own months.",
                                        "Cargados en los meses de las ejecuciones.")),
        *(_quarter(q) for q in range(1, MONTHS // 3 + 1)),
        Result("BudgetBeyondPlan", F.SUM(Ref("RunCost")) - F.SUM(Ref("RunInPlan")),
               T(f"Runs after month {MONTHS}", f"Ejecuciones tras el mes {MONTHS}"),
               _MONEY, T("Not in the total; no contingency.",
                         "No en el total; sin contingencia."),
               fmt=tx.MONEY),
    ),
)  # fmt: skip

SIGN_OFF = Inputs(
    T("Sign-off", "Aprobación"),
    (
        Input("PreparedBy", "", None, T("Prepared by", "Preparado por"), T("name", "nombre"),
              T("Who prepared the budget.", "Quién preparó el presupuesto."),
              kind="text", blank=True, length=60),
        Input("ApprovedBy", "", None, T("Approved by", "Aprobado por"), T("name", "nombre"),
              T("Who approves it.", "Quién lo aprueba."), kind="text", blank=True, length=60),
        Input("InputsAsOf", "", None, T("Inputs as of", "Datos a fecha de"), T("date", "fecha"),
              T("The date the prices and the runs were last checked.",
                "La fecha en que se revisaron por última vez los precios y las ejecuciones."),
              fmt="d mmm yyyy", domain=_DATE, usual=False, blank=True),
    ),
    help_below=False,
)  # fmt: skip

BASIS = Figures(
    T("The basis", "La base"),
    (Result("PricesOldest",
            F.IF(F.COUNT(Ref("PriceDate")).gt(0), F.MIN(Ref("PriceDate")), ""),
            T("Prices read, the oldest", "Precios leídos, el más antiguo"), T("date", "fecha"),
            T("The Prices sheet's dates.", "Las fechas de la hoja Precios."), fmt="d mmm yyyy"),
     "TrainingMFU", "ApiPriceOutput", "Contingency", "ServingContingency",
     "ExperimentsMultiplier", "OverheadShare"),
    note=T("Prices: the Prices sheet's, each with its date and source. Not counted: staff, "
           "data, storage beyond the overheads' share, experiments beyond the multiple "
           "above, and months after the plan.",
           "Precios: los de la hoja Precios, cada uno con su fecha y fuente. No se cuentan: "
           "personal, datos, almacenamiento fuera de los gastos generales, experimentos "
           "fuera del múltiplo, ni los meses tras el plan."),
)  # fmt: skip

SUMMARY = Sheet(
    T("Summary", "Resumen"),
    (
        MONEY,
        Figures(
            T("Runs, capacity, energy", "Ejecuciones, capacidad, energía"),
            (
                *(_costliest(k) for k in (1, 2, 3)),
                Result("PeakGPUs", F.MAX(Ref("MonthGPUs")), T("GPUs in use, busiest month", "GPU en uso, mes de más uso"),
                       T("GPUs", "GPU"), T("Its average over the month.", "Su media en el mes.")),
                Result("PeakGPUsActive", F.MAX(Ref("MonthGPUsActive")),
                       T("Most GPUs at once", "Máximo de GPU a la vez"), T("GPUs", "GPU"),
                       T("All models; Months: by model.",
                         "Todos los modelos; Meses: por modelo.")),
                Result("PeakReserved", F.MAX(Ref("MonthReserved")),
                       T("Most GPUs reserved", "Máximo de GPU reservadas"), T("GPUs", "GPU"),
                       T("The largest month's commitment.", "El compromiso del mes mayor.")),
                Result("CommitmentUse",
                       F.IF(F.SUM(Ref("MonthReserved")).gt(0),
                            F.SUM(Ref("MonthReservedFilled")) / F.SUM(Ref("MonthReserved")), Lit(0)),
                       T("Commitment used", "Compromiso usado"), T("% used", "% usado"),
                       T("GPU-months used ÷ committed.", "GPU-mes usadas ÷ comprometidas."),
                       fmt="0%",
                       checks=(Check(F.OR(F.SUM(Ref("MonthReserved")).eq(0), Ref("CommitmentUse").ge(0.7)),
                                     T("Warning: under 70 % of the commitment is used: reserve fewer GPUs, or put runs on them",
                                       "Aviso: se usa menos del 70 % del compromiso: reserve menos GPU, o ponga ejecuciones en ellas"),
                                     error=False),)),
                Result("BudgetEnergy", F.SUM(Ref("RunEnergy")), T("Energy", "Energía"), T("MWh", "MWh"),
                       T("All runs.", "Todas las ejecuciones."), fmt=tx.DECIMAL),
                Result("BudgetCO2", F.SUM(Ref("RunCO2")), T("Emissions", "Emisiones"),
                       T("t CO2e", "t CO2e"), T("All runs.", "Todas las ejecuciones."), fmt=tx.DECIMAL),
            ),
        ),
        BASIS,
        SIGN_OFF,  # the build's version and date: the cover and every footer
    ),
    summary=True,
    legend=T("Type on Runs, Prices and Assumptions (yellow cells); here, only the "
             "sign-off.",
             "Escriba en Ejecuciones, Precios y Supuestos (celdas amarillas); aquí, solo "
             "la aprobación."),
)  # fmt: skip

SCENARIO_TOTALS = Results(
    T("What the scenarios read", "Lo que leen los escenarios"),
    (
        Result("BudgetTraining", F.SUM(Ref("MonthPretraining")) + F.SUM(Ref("MonthFinetuning")),
               T("Training runs", "Entrenamientos"), IN_THOUSANDS, T("Pre-training and fine-tuning, within the plan.",
                                                          "Preentrenamiento y ajuste fino, dentro del plan."),
               fmt=THOUSANDS),
        Result("BudgetMFUBased", F.SUMIF(Ref("RunMFUBased"), 1, Ref("RunInPlan")),
               T("of them at an MFU", "de ellos a una MFU"), IN_THOUSANDS,
               T("Training runs whose speed comes from an MFU, not a measurement.",
                 "Entrenamientos cuya velocidad sale de una MFU, no de una medida."), fmt=THOUSANDS),
    ),
    steps=True,
)  # fmt: skip

_RUN_WIDTHS = (14, 13, 13, 9, 9, 11, 7, 8, 7, 10, 10, 14)  # D: "Precisión" whole
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
            T("On the Prices sheet, type your contract prices and, below them, your "
              "reserved capacity; on Assumptions, the currency, contingency and "
              "overheads.",
              "En la hoja Precios, escriba sus precios de contrato y, debajo, su "
              "capacidad reservada; en Supuestos, la moneda, la contingencia y los "
              "gastos generales."),
            T("Read the model check at the top, then print the Summary: the money first.",
              "Lea el control del modelo arriba e imprima el Resumen: primero el dinero."),
        ),
        limits=(
            T("Example prices are public list prices in USD with their date: replace "
              "them with yours.",
              "Los precios de ejemplo son precios públicos en USD con su fecha: "
              "sustitúyalos por los suyos."),
            T("A run's months follow from its hours; queueing and staff are not "
              "counted, experiments only through their multiplier.",
              "Los meses de una ejecución salen de sus horas; no cuenta esperas ni "
              "personal, y los experimentos solo por su multiplicador."),
        ),
        sources=(
            T("Contingency: " + CONTINGENCY_SOURCE, "Contingencia: " + CONTINGENCY_SOURCE),
            T(f"Prices, read {PRICES_READ}: " + GPU_PRICE_SOURCES + "; API prices: "
              + API_70B.source,
              f"Precios, leídos el {PRICES_READ} (fuentes citadas en su idioma original): "
              + GPU_PRICE_SOURCES + "; precios de API: " + API_70B.source),
            T("Experiments: " + EXPERIMENTS_SOURCE + ", https://arxiv.org/abs/2405.21015",
              "Experimentos: " + EXPERIMENTS_SOURCE + ", https://arxiv.org/abs/2405.21015"),
            T("Serving: " + SERVING_SOURCE, "Servicio: " + SERVING_SOURCE),
            MEMORY_SOURCES, LORA_CITE, DATASHEETS,
        ),
    ),
    sheets=(
        SUMMARY,
        Sheet(T("Assumptions", "Supuestos"),
              (PLAN, CALENDAR, CURRENCY_RATE, TRAINING, SERVING, ENERGY, NOTES)),
        Sheet(T("Runs", "Ejecuciones"), (RUNS,), columns=_RUN_WIDTHS, side=124),
        Sheet(T("Prices", "Precios"), (PRICES, PRICE_NOTES, RESERVATIONS,
                                      Custom(first_reservation_name)),
              columns=(16.5, 10, 10, 10, 11, 52, 18),
              side=32),
        Sheet(T("Months", "Meses"), (MONTHS_GRID, CHART, SCENARIO_TOTALS, Custom(draw_scenarios),
                                    RUN_COSTS, RUN_GPUS, RESERVATION_GPUS, RESERVATION_COSTS),
              columns=_MONTH_WIDTHS),
    ),
    data_sheet=True,
)  # fmt: skip


__all__ = ["BUDGET"]
