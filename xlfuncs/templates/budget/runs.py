"""The budget's runs, a row each, and the price list they are charged from.

Every figure of a run is a library function through its one Excel expression
(:func:`~xlfuncs.templates.expr.call`): a fine-tune's hours are FT_TRAINING_HOURS
of the tokens at the speed TOKENS_PER_SEC_PER_GPU gives (LoRA and QLoRA 1.5
times faster, as in the fine-tuning workbook); a pre-training run the same
(6·N FLOPs a token, as TRAINING_DAYS counts them); a serving line its GPUs by
SERVING_GPUS from the decode bound MODEL_DECODE_TOKENS_PER_SEC, its cost by
SERVING_COST_PER_MTOK; energy and emissions by TRAINING_ENERGY_MWH and
TRAINING_CO2_TONNES; memory by MIN_GPUS_FOR_MEMORY and MAX_DECODE_BATCH.
"""

from __future__ import annotations

from ...data.planning import LORA_SPEEDUP
from ...registry.domains import POSITIVE, WHOLE, Domain
from .. import texts as tx
from ..blocks import Check, Field, Notes, Table
from ..checks import figure, looked_up
from ..expr import Expr, F, Lit, Ref, Say, call
from ..shared import code, time_checks
from ..table import choice, table_input
from ..texts import T

MONTHS = 12  # columns of the Months sheet: the plan's length
HOURS_A_MONTH = 730  # 8,760 hours a year ÷ 12, as the planner's serving
SECONDS_A_MONTH = HOURS_A_MONTH * 3600
RUN_ROWS = 30
_MONEY = T("{currency}", "{currency}")
_START = Domain(
    1.0, float("inf"), True, False, "be a whole number, 1 or more", whole=True
)

KINDS = (T("pre-training", "preentrenamiento"), T("fine-tuning", "ajuste fino"),
         T("serving", "servicio"))  # fmt: skip
TIERS = (T("on-demand", "bajo demanda"), T("reserved", "reservada"), T("spot", "spot"))


def _field(
    name: str, label: T, unit: T, fmt: str | T = tx.COUNT, **kw: object
) -> Field:
    return Field(name, label, unit, fmt, **kw)  # type: ignore[arg-type]


def _typed(name: str, label: T, unit: T, help_: T, fmt: str | T = tx.COUNT,
           **kw: object) -> Field:  # fmt: skip
    """A typed field: its input's checks apply to each row."""
    field_kw = {k: kw.pop(k) for k in ("choices", "checks", "width") if k in kw}
    inp = table_input(name, label, unit, help_, fmt=fmt, usual=False, **kw)
    return Field(name, label, unit, fmt, input=inp, **field_kw)  # type: ignore[arg-type]


K = Ref("RunKindCode")  # 1 pre-training, 2 fine-tuning, 3 serving
TRAINING = K.lt(3)
SERVES = K.eq(3)
_NAMED = F.NOT(F.ISNUMBER(Ref("RunModel")))


def _spec(field_: str) -> Expr:
    return call("MODEL_SPEC", "RunModel", Lit(field_))


# The speed a training run's GPUs reach: the tokens/s typed (above 1), or the
# estimate from the MFU typed (1 or less), LoRA and QLoRA 1.5 times faster.
# The attention's FLOPs counted where the model is a published one (its shape known).
_ESTIMATE = F.IF(
    _NAMED,
    call("TOKENS_PER_SEC_PER_GPU", "RunActiveParams", "RunPeakTFLOPS", "RunSpeed",
         _spec("layers"), _spec("attention_width"), "SeqLen"),
    call("TOKENS_PER_SEC_PER_GPU", "RunActiveParams", "RunPeakTFLOPS", "RunSpeed"),
) * F.CHOOSE(Ref("RunMethodCode"), 1, LORA_SPEEDUP, LORA_SPEEDUP)  # fmt: skip
_TRAIN_SPEED = F.IF(Ref("RunSpeed").gt(1), Ref("RunSpeed"), _ESTIMATE)
_REPLICA = F.IF(F.ISNUMBER(Ref("RunGPUs")), Ref("RunGPUs"), 1)
_REPLICA_SPEED = call(
    "MODEL_DECODE_TOKENS_PER_SEC", "RunModel", call("GPU_BANDWIDTH_TBS", "RunGPU"),
    "ServingBatch", "ServingContext", 2, _REPLICA,
) * Ref("ServingUtilization")  # fmt: skip
_AVERAGE_RATE = Ref("RunTokens") / SECONDS_A_MONTH  # tokens/s over a month
_PRICE_ROW = F.MATCH(F.TRIM(Ref("RunGPU")), Ref("PriceGPU"), 0)
_TRAIN = ("RunTokens", 1, "RunGPUs", "RunTokensPerSec", 1, 1)  # tokens as 1 epoch

# Memory: the method's weights held, parameters trained and bytes a weight
# (full 16-bit, LoRA 16-bit base, QLoRA 4-bit base), as the fine-tuning workbook.
_LORA = F.IF(_NAMED, call(
    "LORA_PARAMS", _spec("layers"), _spec("d_model"), "LoRARank", 2, 3, _spec("ffn_dim"), 2,
    _spec("kv_width"), _spec("experts")), 0)  # fmt: skip
_HELD = F.CHOOSE(Ref("RunMethodCode"), Ref("RunParams"), Ref("RunParams") + Ref("RunLoRAParams"),
                 Ref("RunParams") + Ref("RunLoRAParams"))  # fmt: skip
_TRAINED = F.CHOOSE(Ref("RunMethodCode"), Ref("RunParams"), Ref("RunLoRAParams"),
                    Ref("RunLoRAParams"))  # fmt: skip
_BYTES = F.CHOOSE(Ref("RunMethodCode"), 2, 2, 0.5)
_ACTIVATIONS = F.IF(_NAMED, call(
    "ACTIVATION_GB", _spec("layers"), _spec("d_model"), _spec("heads"), "SeqLen", "MicroBatch",
    1, Lit("full")), 0)  # fmt: skip
_FEWEST = call("MIN_GPUS_FOR_MEMORY", _HELD, "RunGPUMemoryGB", _ACTIVATIONS, _TRAINED, _BYTES,
               "ZeroStage", 1, "UsableMemory")  # fmt: skip
_KV = call(
    "KV_CACHE_GB",
    _spec("layers"),
    _spec("kv_heads"),
    _spec("head_dim"),
    "ServingContext",
    1,
)
_MOST = call(
    "MAX_DECODE_BATCH", "RunParams", "RunGPUMemoryGB", _KV, 2, _REPLICA, "UsableMemory"
)

_TRAIN_FIT = F.IF(
    F.NOT(F.ISNUMBER(Ref("RunFewestGPUs"))),
    Say(T("Error: does not fit at any GPU count: what ZeRO does not shard exceeds a GPU",
          "Error: no cabe con ninguna cantidad de GPU: lo que ZeRO no reparte excede una GPU")),
    F.IF(Ref("RunGPUs").ge(Ref("RunFewestGPUs")), Say(tx.OK),
         Say(T("Error: does not fit: needs ", "Error: no cabe: necesita ")).cat(
             figure(Ref("RunFewestGPUs"), 0), T(" GPUs or more", " GPU o más"))),
)  # fmt: skip
_SERVE_FIT = F.IF(
    _MOST.ge(Ref("ServingBatch")), Say(tx.OK),
    Say(T("Error: does not fit: a replica holds ", "Error: no cabe: una réplica admite ")).cat(
        figure(F.MAX(0, _MOST), 0),
        T(" sequences, not the batch: more GPUs per replica",
          " secuencias, no el lote: más GPU por réplica")),
)  # fmt: skip

_HELP_SPEED = T(
    "An MFU (a share of the GPU's dense peak, 35-55 % for large runs: type 40%) or "
    "measured tokens/s per GPU (a number above 1). Blank for serving.",
    "Una MFU (parte del pico denso de la GPU, 35-55 % en grandes entrenamientos: "
    "escriba 40 %) o tokens/s medidos por GPU (un número mayor que 1). En blanco "
    "para servicio.",
)
_SPEED_FMT = "[<=1]0%;#,##0"

RUN_FIELDS = (
    _typed("RunName", T("Run", "Ejecución"), T("", ""),
           T("A name for the run; a row without a name is not counted.",
             "Un nombre para la ejecución; una fila sin nombre no cuenta."), kind="text"),
    _typed("RunKind", T("Kind", "Tipo"), T("", ""),
           T("pre-training, fine-tuning or serving.", "preentrenamiento, ajuste fino o servicio."),
           kind="text", choices=KINDS),
    _typed("RunModel", T("Model", "Modelo"), T("", ""),
           T("A model from the Models sheet, or a parameter count (then memory counts "
             "the weights and optimizer only).",
             "Un modelo de la hoja Modelos, o un número de parámetros (la memoria cuenta "
             "entonces solo pesos y optimizador)."),
           fmt="General",
           checks=(Check(F.OR(looked_up("RunModel", "ModelKeys"),
                              F.AND(F.ISNUMBER(Ref("RunModel")), Ref("RunModel").ge(1e6))),
                         T("Error: a model from the Models sheet, or its parameters (1 M or more)",
                           "Error: un modelo de la hoja Modelos, o sus parámetros (1 M o más)")),)),
    _typed("RunMethod", T("Method", "Método"), T("", ""),
           T("full, LoRA or QLoRA, for a fine-tune.", "full (completo), LoRA o QLoRA, para un ajuste."),
           kind="list", keys="MethodKeys", menu="MethodNames", blank=True),
    _typed("RunTokens", T("Tokens (a month if serving)", "Tokens (al mes en servicio)"), T("", ""),
           T("Tokens to train on (tokens × epochs), or for serving the tokens generated a month.",
             "Tokens de entrenamiento (tokens × épocas), o en servicio los tokens generados al mes."),
           fmt=tx.LARGE, domain=POSITIVE),
    _typed("RunGPU", T("GPU", "GPU"), T("", ""),
           T("A GPU from the Data sheet, priced on the Prices sheet.",
             "Una GPU de la hoja Datos, con precio en la hoja Precios."),
           kind="list", keys="AcceleratorKeys", menu="AcceleratorNames"),
    _typed("RunGPUs", T("GPUs (or replica)", "GPU (o réplica)"), T("", ""),
           T("GPUs the run trains on; for serving, the GPUs holding one copy (blank: 1).",
             "GPU del entrenamiento; en servicio, las GPU de una copia (en blanco: 1)."),
           domain=WHOLE, blank=True),
    _typed("RunSpeed", T("MFU or tokens/s", "MFU o tokens/s"), T("", ""), _HELP_SPEED,
           fmt=_SPEED_FMT, domain=POSITIVE, blank=True),
    _typed("RunStart", T("Start month", "Mes de inicio"), T("", ""),
           T("The plan's month the run starts in: 1 is the first.",
             "El mes del plan en que empieza: 1 es el primero."), domain=_START),
    _typed("RunMonths", T("Months serving", "Meses de servicio"), T("", ""),
           T("Months a serving line runs; blank for training.",
             "Meses que dura un servicio; en blanco para entrenar."), domain=WHOLE, blank=True),
    _typed("RunTier", T("Pricing", "Tarifa"), T("", ""),
           T("on-demand, reserved (counts against the commitment) or spot.",
             "bajo demanda, reservada (cuenta contra el compromiso) o spot."),
           kind="text", choices=TIERS),
    # The results, a band below.
    _field("RunCost", T("Cost", "Coste"), _MONEY, tx.MONEY, total=True,
           expr=F.IF(SERVES,
                     call("SERVING_COST_PER_MTOK", "RunPrice", _AVERAGE_RATE / Ref("RunGPUsUsed"))
                     * Ref("RunTokens") / 1e6 * Ref("RunMonths"),
                     call("FT_COST", *_TRAIN, "RunPrice"))),
    _field("RunPrice", T("Price", "Precio"), T("{currency}/GPU-h", "{currency}/GPU-h"), tx.MONEY,
           expr=F.CHOOSE(Ref("RunTierCode"), F.INDEX(Ref("PriceOnDemand"), _PRICE_ROW),
                         F.INDEX(Ref("PriceReserved"), _PRICE_ROW), F.INDEX(Ref("PriceSpot"), _PRICE_ROW))),
    _field("RunGPUsUsed", T("GPUs used", "GPU usadas"), T("GPUs", "GPU"),
           expr=F.IF(SERVES, call("SERVING_GPUS", _AVERAGE_RATE * Ref("PeakToAverage"),
                                  "RunTokensPerSec", 1) * _REPLICA, Ref("RunGPUs"))),
    _field("RunDays", T("Days", "Días"), T("days", "días"), tx.DURATION,
           expr=Ref("RunHours") / 24),
    _field("RunGPUHours", T("GPU-hours", "GPU-horas"), T("GPU-h", "GPU-h"), total=True,
           expr=F.IF(SERVES, Ref("RunGPUsUsed") * HOURS_A_MONTH * Ref("RunMonths"),
                     call("FT_GPU_HOURS", *_TRAIN))),
    _field("RunDuration", T("Months", "Meses"), T("", ""), tx.TWO,
           expr=F.IF(SERVES, Ref("RunMonths"), Ref("RunHours") / HOURS_A_MONTH)),
    _field("RunEnergy", T("Energy", "Energía"), T("MWh", "MWh"), tx.DECIMAL, total=True,
           expr=call("TRAINING_ENERGY_MWH", "RunGPUHours", call("GPU_POWER_W", "RunGPU"), "PUE")),
    _field("RunCO2", T("CO2e", "CO2e"), T("t", "t"), tx.DECIMAL, total=True,
           expr=call("TRAINING_CO2_TONNES", "RunEnergy", "GridIntensity")),
    _field("RunEnd", T("End month", "Mes final"), T("", ""), tx.COUNT,
           expr=F.ROUNDUP(Ref("RunStart") - 1 + Ref("RunDuration"), 0)),
    _field("RunPerMTok", T("Per M tokens", "Por M tokens"), T("{currency}", "{currency}"), tx.MONEY,
           expr=F.IF(SERVES, call("SERVING_COST_PER_MTOK", "RunPrice",
                                  _AVERAGE_RATE / Ref("RunGPUsUsed")), "")),
    _field("RunMemory", T("Memory check", "Control de memoria"), T("", ""), "@",
           expr=F.IF(SERVES, _SERVE_FIT, _TRAIN_FIT)),
    # The workings, a band below: grey.
    _field("RunKindCode", T("Kind code", "Código de tipo"), T("1-3", "1-3"), band=3,
           expr=choice(Field("RunKind", T("", ""), T("", ""), choices=KINDS))),
    _field("RunTierCode", T("Tier code", "Código de tarifa"), T("1-3", "1-3"), band=3,
           expr=choice(Field("RunTier", T("", ""), T("", ""), choices=TIERS))),
    _field("RunMethodCode", T("Method code", "Código de método"), T("1-3", "1-3"), band=3,
           expr=F.IF(K.eq(2), code("RunMethod", "MethodKeys", "MethodCode"), 1)),
    _field("RunParams", T("Parameters", "Parámetros"), T("N", "N"), tx.LARGE, band=3,
           expr=F.IF(_NAMED, _spec("params"), Ref("RunModel"))),
    _field("RunActiveParams", T("Per token", "Por token"), T("N", "N"), tx.LARGE, band=3,
           expr=F.IF(_NAMED, _spec("active_params"), Ref("RunModel"))),
    _field("RunPeakTFLOPS", T("Peak", "Pico"), T("TFLOP/s", "TFLOP/s"), tx.DECIMAL, band=3,
           expr=call("GPU_PEAK_TFLOPS", "RunGPU", Lit("bf16"))),
    _field("RunTokensPerSec", T("Tokens/s", "Tokens/s"), T("a GPU; a replica", "GPU; réplica"),
           band=3, expr=F.IF(SERVES, _REPLICA_SPEED, _TRAIN_SPEED)),
    _field("RunHours", T("Hours", "Horas"), T("hours", "horas"), tx.DECIMAL, band=3,
           expr=F.IF(SERVES, HOURS_A_MONTH * Ref("RunMonths"), call("FT_TRAINING_HOURS", *_TRAIN))),
    _field("RunGPUMemoryGB", T("GPU memory", "Memoria GPU"), T("GB", "GB"), tx.DECIMAL, band=3,
           expr=call("GPU_MEMORY_GB", "RunGPU")),
    _field("RunLoRAParams", T("LoRA params", "Parám. LoRA"), T("N", "N"), tx.LARGE, band=3,
           expr=_LORA),
    _field("RunFewestGPUs", T("Fewest GPUs", "Mínimo GPU"), T("training", "entreno"), band=3,
           expr=F.IF(SERVES, "", _FEWEST)),
    _field("RunMFUBased", T("Speed from MFU", "Velocidad por MFU"), T("1 yes", "1 sí"), band=3,
           expr=F.IF(F.AND(TRAINING, Ref("RunSpeed").le(1)), 1, 0)),
)  # fmt: skip

_FT_METHOD = Check(
    F.OR(K.ne(2), F.NOT(F.ISBLANK(Ref("RunMethod")))),
    T("Error: a fine-tune needs its method", "Error: un ajuste necesita su método"),
)
_TRAIN_NEEDS = Check(
    F.OR(SERVES, F.AND(F.ISNUMBER(Ref("RunGPUs")), F.ISNUMBER(Ref("RunSpeed")))),
    T(
        "Error: a training run needs its GPUs and its MFU or tokens/s",
        "Error: un entrenamiento necesita sus GPU y su MFU o tokens/s",
    ),
)
_SERVE_NEEDS = Check(
    F.OR(TRAINING, F.ISNUMBER(Ref("RunMonths"))),
    T(
        "Error: a serving line needs its months",
        "Error: un servicio necesita sus meses",
    ),
)
_SERVE_NAMED = Check(
    F.OR(TRAINING, _NAMED),
    T(
        "Error: serving needs a model from the Models sheet (its shape gives the speed)",
        "Error: el servicio necesita un modelo de la hoja Modelos (su forma da la velocidad)",
    ),
)
_MFU = Check(
    F.OR(SERVES, Ref("RunSpeed").ge(0.01)),
    T(
        "Error: an MFU of under 1 %: type 40% (or tokens/s above 1)",
        "Error: una MFU de menos del 1 %: escriba 40 % (o tokens/s mayores que 1)",
    ),
)
_IN_PLAN = Check(
    Ref("RunStart").le(MONTHS),
    T(
        f"Error: starts after the plan's {MONTHS} months",
        f"Error: empieza después de los {MONTHS} meses del plan",
    ),
)
_FITS = Check(
    F.LEFT(Ref("RunMemory"), len(tx.ERROR_WORD.en)).ne(Say(tx.ERROR_WORD)),
    Ref("RunMemory"),
)
_PRICED = Check(
    F.AND(F.ISNUMBER(Ref("RunPrice")), Ref("RunPrice").gt(0)),
    T(
        "Error: no price for this GPU and tier on the Prices sheet",
        "Error: sin precio para esta GPU y tarifa en la hoja Precios",
    ),
)
_COSTS = Check(
    F.AND(F.ISNUMBER(Ref("RunCost")), Ref("RunCost").gt(0)),
    T(
        "Error: costs nothing: check its figures",
        "Error: no cuesta nada: revise sus cifras",
    ),
)
_LONG, _LONGER = time_checks("RunHours")
_ENDS = Check((Ref("RunStart") - 1 + Ref("RunDuration")).le(MONTHS),
              T(f"Warning: runs past month {MONTHS}: the months after are not budgeted",
                f"Aviso: sigue después del mes {MONTHS}: los meses siguientes no se presupuestan"),
              error=False)  # fmt: skip
_RESERVED_GPU = Check(F.OR(Ref("RunTierCode").ne(2), F.TRIM(Ref("RunGPU")).eq(F.TRIM(Ref("ReservedGPU")))),
                      T("Warning: reserved, but not on the GPU model committed (Prices sheet)",
                        "Aviso: reservada, pero no en el modelo de GPU comprometido (hoja Precios)"),
                      error=False)  # fmt: skip

RUN_CHECKS = (
    _FT_METHOD, _TRAIN_NEEDS, _SERVE_NEEDS, _SERVE_NAMED, _MFU, _IN_PLAN, _FITS, _PRICED,
    _COSTS, Check(F.OR(SERVES, _LONG.cond), _LONG.message),
    Check(F.OR(SERVES, _LONGER.cond), _LONGER.message, error=False), _ENDS, _RESERVED_GPU,
)  # fmt: skip


def _run(name: str, kind: str, model: str | float, method: str | None, tokens: float,
         gpu: str, gpus: int | None, speed: float | None, start: int, months: int | None,
         tier: str) -> dict[str, object]:  # fmt: skip
    return dict(RunName=name, RunKind=kind, RunModel=model, RunMethod=method,
                RunTokens=tokens, RunGPU=gpu, RunGPUs=gpus, RunSpeed=speed, RunStart=start,
                RunMonths=months, RunTier=tier)  # fmt: skip


#: An example programme for a year: a small model pre-trained, four fine-tunes
#: of different methods and sizes, and a 70 B assistant served for ten months.
EXAMPLE = (
    _run("Base 8B", "pre-training", "Llama 3.1 8B", None, 2e12, "H100 SXM", 256, 0.4, 1, None, "on-demand"),
    _run("Support 70B", "fine-tuning", "Llama 3.1 70B", "QLoRA", 2e9, "A100 SXM", 8, 0.35, 2, None, "on-demand"),
    _run("Code 7B", "fine-tuning", "Qwen2.5 7B", "full", 20e9, "H100 SXM", 8, 0.4, 3, None, "spot"),
    _run("Summaries 8B", "fine-tuning", "Llama 3.1 8B", "LoRA", 1e9, "L40S", 4, 0.35, 4, None, "on-demand"),
    _run("Multilingual 70B", "fine-tuning", "Llama 3.3 70B", "full", 20e9, "H200 SXM", 32, 0.4, 6, None, "on-demand"),
    _run("Assistant 70B", "serving", "Llama 3.1 70B", None, 20e9, "H100 SXM", 4, None, 3, 10, "reserved"),
)  # fmt: skip

RUNS = Table(
    T("Runs", "Ejecuciones"),
    T("One run a row, up to 30: type over the yellow cells, or clear a row's name to drop "
      "it. Kind, method, GPU and pricing take the words of their drop-downs. Each row's "
      "check names its first problem; its results below show n/a until it is fixed.",
      "Una ejecución por fila, hasta 30: escriba en las celdas amarillas, o borre el "
      "nombre de una fila para quitarla. Tipo, método, GPU y tarifa admiten las palabras "
      "de sus listas. El control de cada fila nombra su primer problema; sus resultados, "
      "debajo, muestran n/d hasta que se corrija."),
    RUN_FIELDS, EXAMPLE, RUN_ROWS, "RunName", RUN_CHECKS,
    (T("What each run costs and takes (money before contingency)",
       "Lo que cuesta y ocupa cada ejecución (dinero sin contingencia)"),
     T("Workings", "Cálculos intermedios")),
)  # fmt: skip

# ------------------------------------------------------------------ prices

# Sources are quoted as published, in English in both editions (as on the Data sheet).
_SOURCE = "coreweave.com/pricing (node ÷ 8); reserved: GCP 1-yr, -30.6 %"
_RESERVED_OFF = 1 - 0.306


def _price(gpu: str, on_demand: float, spot: float | None, date: str = "2026-09-20",
           source: str | None = None) -> dict[str, object]:  # fmt: skip
    return dict(PriceGPU=gpu, PriceOnDemand=on_demand,
                PriceReserved=round(on_demand * _RESERVED_OFF, 2), PriceSpot=spot,
                PriceDate=date, PriceSource=source or _SOURCE)  # fmt: skip


_PRICE_HELP = T("What one GPU-hour of this tier costs you, in the currency of the Assumptions "
                "sheet: your contract price. Blank: not offered.",
                "Lo que le cuesta una GPU-hora de esta tarifa, en la moneda de la hoja "
                "Supuestos: su precio de contrato. En blanco: no se ofrece.")  # fmt: skip
PRICES = Table(
    T("Prices per GPU-hour", "Precios por GPU-hora"),
    T("Examples: public list prices in USD, dated, with their source; replace them with "
      "your contract prices in your currency. Reserved is paid for the GPUs committed each "
      "month (Months sheet), used or not.",
      "Ejemplos: precios públicos de lista en USD, con fecha y fuente; sustitúyalos por "
      "sus precios de contrato en su moneda. La reservada se paga por las GPU "
      "comprometidas cada mes (hoja Meses), se usen o no."),
    (
        _typed("PriceGPU", T("GPU", "GPU"), T("model", "modelo"),
               T("A GPU from the Data sheet.", "Una GPU de la hoja Datos."), kind="text"),
        _typed("PriceOnDemand", T("On-demand", "Bajo demanda"), T("{currency}/GPU-h", "{currency}/GPU-h"),
               _PRICE_HELP, fmt=tx.MONEY, domain=POSITIVE, blank=True),
        _typed("PriceReserved", T("Reserved", "Reservada"), T("{currency}/GPU-h", "{currency}/GPU-h"),
               _PRICE_HELP, fmt=tx.MONEY, domain=POSITIVE, blank=True),
        _typed("PriceSpot", T("Spot", "Spot"), T("{currency}/GPU-h", "{currency}/GPU-h"),
               _PRICE_HELP, fmt=tx.MONEY, domain=POSITIVE, blank=True),
        _typed("PriceDate", T("Date", "Fecha"), T("read", "leído"),
               T("When the price was read.", "Cuándo se leyó el precio."), kind="text",
               checks=()),
        _typed("PriceSource", T("Source", "Fuente"), T("", ""),
               T("Where the price comes from: your contract, or a public page.",
                 "De dónde sale el precio: su contrato, o una página pública."), kind="text",
               checks=()),
    ),
    (
        _price("H100 SXM", 6.16, 2.46),
        _price("H200 SXM", 6.31, 2.62),
        _price("A100 SXM", 2.70, 1.21),
        _price("B200", 8.60, 4.26),
        _price("L40S", 2.25, None),
    ),
    8, "PriceGPU",
    (Check(F.OR(looked_up("PriceGPU", "AcceleratorKeys")),
           T("Error: a GPU from the Data sheet", "Error: una GPU de la hoja Datos")),),
)  # fmt: skip

PRICE_NOTES = Notes(
    T("Where the example prices come from", "De dónde salen los precios de ejemplo"),
    (
        T("On-demand and spot: CoreWeave's public price page, "
          "https://www.coreweave.com/pricing, an 8-GPU node's hourly price ÷ 8, read "
          "2026-09-20 (through a public transcription of the page); L40S has no spot "
          "price there.",
          "Bajo demanda y spot: la página pública de precios de CoreWeave, "
          "https://www.coreweave.com/pricing, el precio por hora de un nodo de 8 GPU "
          "÷ 8, leída el 2026-09-20 (a través de una transcripción pública); la L40S no "
          "tiene precio spot allí."),
        T("Reserved: the on-demand price less 30.6 %, Google Cloud's 1-year committed-use "
          "discount on a3-highgpu-8g in us-central1 (its price list of March 2025); "
          "providers publish no reserved GPU prices of their own.",
          "Reservada: el precio bajo demanda menos un 30,6 %, el descuento por uso "
          "comprometido de 1 año de Google Cloud en a3-highgpu-8g en us-central1 (su "
          "lista de marzo de 2025); los proveedores no publican precios reservados de GPU."),
        T("Replace every figure with your contract's, in the currency of the Assumptions "
          "sheet: the examples are in USD.",
          "Sustituya cada cifra por la de su contrato, en la moneda de la hoja Supuestos: "
          "los ejemplos están en USD."),
    ),
)  # fmt: skip

__all__ = ["EXAMPLE", "HOURS_A_MONTH", "MONTHS", "PRICES", "RUNS", "RUN_ROWS"]
