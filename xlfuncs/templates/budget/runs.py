"""The budget's runs, a row each, and the price list they are charged from.

Every figure of a run is a library function through its one Excel expression
(:func:`~xlfuncs.templates.expr.call`), one calculation a cell:

- a training run (pre-training or a fine-tune) trains on its tokens at the
  speed its GPUs reach: measured (tokens/s per GPU, typed), or estimated by
  TOKENS_PER_SEC_PER_GPU from its MFU (6 FLOPs a parameter and token and the
  attention's), times the LoRA speed for LoRA and QLoRA; its hours are
  FT_TRAINING_HOURS of the tokens as one epoch; the MFU its speed implies is
  judged as in every workbook;
- a serving line holds its peak traffic (a month's output tokens over 730 hours,
  times the peak over the average) on replicas of its GPUs, each at the output
  tokens/s SERVING_TOKENS_PER_SEC gives (prompts included, at its precision and
  latency target) or at a measured speed; spare replicas on top; what its tokens
  would cost through a hosted API beside it;
- the price is the Prices sheet's for its GPU and tier; energy and emissions
  TRAINING_ENERGY_MWH and TRAINING_CO2_TONNES; memory MIN_GPUS_FOR_MEMORY.
"""

from __future__ import annotations

from datetime import date

from ...data.prices import GPU_PRICE_SOURCES, GPU_PRICES, PRICES_CURRENCY, PRICES_READ
from ...data.serving import SERVING_PRECISIONS
from ...registry.domains import NONNEGATIVE, POSITIVE, WHOLE, Domain
from ...registry.excel import key
from .. import texts as tx
from ..blocks import Check, Field, Notes, Table
from ..checks import figure, looked_up, shown
from ..expr import Expr, F, Lit, Ref, Say, Span, UpTo, Whole, call
from ..shared import code, mfu_checks, time_checks
from ..table import choice, table_input
from ..texts import T, Text
from ..written import parse

MONTHS = 12  # columns of the Months sheet: the plan's length
# A month's hours: the Assumptions sheet's cell (shared.HOURS_IN_A_MONTH, 730).
_HOURS = Ref("HoursAMonth")
RUN_ROWS = 20  # rows of the Runs table: with its head, one landscape page
PRICE_ROWS = 8  # rows of the Prices table: one GPU model each
_MONEY = T("{currency}", "{currency}")
_START = Domain(
    1.0, float("inf"), True, False, "be a whole number, 1 or more", whole=True
)

KINDS = (T("pre-training", "preentrenamiento"), T("fine-tuning", "ajuste fino"),
         T("serving", "servicio"))  # fmt: skip
TIERS = (T("on-demand", "bajo demanda"), T("reserved", "reservada"), T("spot", "spot"))
PRECISIONS = tuple(T(p, p) for p in SERVING_PRECISIONS)


def _field(
    name: str, label: T, unit: T, fmt: str | T = tx.COUNT, **kw: object
) -> Field:
    return Field(name, label, unit, fmt, **kw)  # type: ignore[arg-type]


def _typed(name: str, label: T, unit: T, help_: T, fmt: str | T = tx.COUNT,
           **kw: object) -> Field:  # fmt: skip
    """A typed field: its input's checks apply to each row."""
    field_kw = {k: kw.pop(k) for k in ("choices", "checks", "width", "band") if k in kw}
    inp = table_input(name, label, unit, help_, fmt=fmt, usual=False, **kw)
    return Field(name, label, unit, fmt, input=inp, **field_kw)  # type: ignore[arg-type]


K = Ref("RunKindCode")  # 1 pre-training, 2 fine-tuning, 3 serving
TRAINING = K.lt(3)
SERVES = K.eq(3)
_NAMED = F.NOT(F.ISNUMBER(Ref("RunModel")))


def _spec(field_: str) -> Expr:
    return call("MODEL_SPEC", "RunModel", Lit(field_))


def _blank_or(name: str, default: Expr | str | float) -> Expr:
    """The row's value, or ``default`` where the row leaves it blank."""
    other = Ref(default) if isinstance(default, str) else default
    return F.IF(F.ISBLANK(Ref(name)), other, Ref(name))


# A training run's speed: the tokens/s measured, or the estimate from its MFU
# (the attention's FLOPs counted where the model is a published one).
_ESTIMATE = F.IF(
    _NAMED,
    call("TOKENS_PER_SEC_PER_GPU", "RunActiveParams", "RunPeakTFLOPS", "RunMFUUsed",
         "RunLayers", "RunAttentionWidth", "SeqLen"),
    call("TOKENS_PER_SEC_PER_GPU", "RunActiveParams", "RunPeakTFLOPS", "RunMFUUsed"),
) * F.CHOOSE(Ref("RunMethodCode"), 1, Ref("LoRASpeedup"), Ref("LoRASpeedup"))  # fmt: skip
_REPLICA = _blank_or("RunGPUs", 1)
_PEAK_RATE = (
    Ref("RunOutputMonth") / (_HOURS * 3600) * Ref("RunPeakUsed")
)  # output tokens/s
# A serving line's traffic, typed as tokens a month or as requests a day with
# their tokens a request: a day is a month's hours ÷ 24.
_BY_REQUESTS = F.ISNUMBER(Ref("RunRequestsDay"))
_DAYS = _HOURS / 24
_TRAIN = ("RunTokens", 1, "RunGPUs", "RunSpeed", 1, 1)  # tokens as one epoch
_MONTHS_IN_PLAN = F.MAX(0, F.MIN(Ref("RunFinish"), MONTHS) - (Ref("RunStart") - 1))

# Memory: a training run's peak a GPU (TRAINING_PEAK_GB, as the fine-tuning
# workbook's: weights, gradients, Adam, activations with FlashAttention, the
# loss's logits, the allocator's reserve), the fewest GPUs it fits on at the
# assumptions' ZeRO stage; a model given by its parameters counts the weights
# and optimizer only (no shape).
_FEWEST_NAMED = call(
    "MIN_GPUS_FOR_PEAK", "RunParams", "RunLayers", "RunDModel", "RunAttentionWidth",
    "RunKVWidth", "RunFFN", "RunVocab", "SeqLen", "MicroBatch", "RunGPUMemoryGB",
    "RunMethodCode", "Recompute", "RunLoRAParams", "RunEmbeddingParams",
    "RunExpertsPerToken", "ZeroStage", 1, "UsableMemory",
)  # fmt: skip
# The peak on one GPU, held in a cell: the fewest GPUs start from it.
_PEAK_ONE = call(
    "TRAINING_PEAK_GB", "RunParams", "RunLayers", "RunDModel", "RunAttentionWidth",
    "RunKVWidth", "RunFFN", "RunVocab", "SeqLen", "MicroBatch", "RunMethodCode", "Recompute",
    "RunLoRAParams", "RunEmbeddingParams", "RunExpertsPerToken", 1, "ZeroStage", 1,
)  # fmt: skip
# By its parameters, the weights and what trains: all of them in a full run,
# the adapters (none without a shape) in LoRA and QLoRA, whose frozen weights
# carry no gradients or Adam states.
_TRAINABLE = F.IF(Ref("RunMethodCode").eq(1), Ref("RunParams"), Ref("RunLoRAParams"))
_FEWEST_COUNT = call("MIN_GPUS_FOR_MEMORY", "RunParams", "RunGPUMemoryGB", 0, _TRAINABLE,
                     F.CHOOSE(Ref("RunMethodCode"), 2, 2, 0.5), "ZeroStage", 1,
                     "UsableMemory")  # fmt: skip

# Serving: a replica's output tokens/s (REPLICA_TOKENS_PER_SEC, the function
# SERVING_TOKENS_PER_SEC calls with the model's shape and the GPU's figures),
# its parts held in cells of their own: the largest batch memory allows
# (MAX_DECODE_BATCH), the batch the latency target allows (LATENCY_BATCH), the
# batch run (REPLICA_BATCH), a request's prompt time and a decode step's time.
_REQUEST = Ref("RunPromptLen") + Ref("RunOutputLen") / 2  # a sequence's average context
_SHAPE = ("RunParams", "RunActiveParams", "RunLayers", "RunCacheWidth", "RunAttentionWidth",
          "RunDModel", "RunExperts", "RunExpertsPerToken")  # fmt: skip
# The cache's bytes, how it splits and the windowed layers: SERVING_TOKENS_PER_SEC's
# optional arguments after the latency target and the two shares.
_CACHE = ("RunCacheBytes", "RunCacheHeads", "RunWindow", "RunWindowedLayers")
_OPTIONS = ("RunLink", "RunBytes", "ServingBatch", "RunLatency", "ServingUtilization",
            "PrefillMFU", *_CACHE)  # fmt: skip
_LATENCY = call("LATENCY_BATCH", *_SHAPE, "RunBandwidth", "RunServePeak", "RunReplicaGPUs",
                "RunPromptLen", "RunOutputLen", "RunLatency", "RunLink", "RunBytes",
                "ServingUtilization", "PrefillMFU", *_CACHE)  # fmt: skip
# Tensor parallel (no expert parallelism), and the cache's share of what the
# weights leave: the Usable GPU memory input, as every memory check.
_SHARE = (0, "UsableMemory")
_BATCH = call("REPLICA_BATCH", *_SHAPE, "RunGPUMemoryGB", "RunBandwidth", "RunServePeak",
              "RunReplicaGPUs", "RunPromptLen", "RunOutputLen", *_OPTIONS, *_SHARE)  # fmt: skip
_PREFILL = call("REPLICA_PREFILL_MS", "RunActiveParams", "RunLayers", "RunAttentionWidth",
                "RunDModel", "RunServePeak", "RunReplicaGPUs", "RunPromptLen", "RunLink",
                "PrefillMFU", "RunWindow", "RunWindowedLayers")  # fmt: skip
_STEP = call("REPLICA_STEP_MS", *_SHAPE, "RunBandwidth",
             "RunServePeak", "RunReplicaGPUs", "RunServeBatch", _REQUEST, "RunLink",
             "RunBytes", "ServingUtilization", "PrefillMFU", *_CACHE)  # fmt: skip
_REPLICA_SPEED = call(
    "REPLICA_TOKENS_PER_SEC", *_SHAPE, "RunGPUMemoryGB",
    "RunBandwidth", "RunServePeak", "RunReplicaGPUs", "RunPromptLen", "RunOutputLen",
    *_OPTIONS, *_SHARE,
)  # fmt: skip

_TRAIN_FIT = F.IF(
    F.NOT(F.ISNUMBER(Ref("RunFewestGPUs"))),
    Say(T("Error: does not fit at any GPU count: what ZeRO does not shard exceeds a GPU",
          "Error: no cabe con ninguna cantidad de GPU: lo que ZeRO no reparte excede una GPU")),
    F.IF(Ref("RunGPUs").ge(Ref("RunFewestGPUs")), Say(tx.OK),
         Say(T("Error: does not fit: needs ", "Error: no cabe: necesita ")).cat(
             figure(Ref("RunFewestGPUs"), 0), T(" GPUs or more", " GPU o más"))),
)  # fmt: skip
_SERVE_FIT = F.IF(
    F.ISNUMBER(Ref("RunServeBatch")), Say(tx.OK),
    F.IF(F.AND(F.ISNUMBER(Ref("RunLatency")), F.NOT(F.ISNUMBER(Ref("RunLatencyBatch")))),
         Say(tx.NO_LATENCY_BATCH[0]).cat(figure(Ref("RunLatency"), 0), tx.NO_LATENCY_BATCH[1]),
    Say(T("Error: does not fit: the weights leave no room for a sequence in a replica's "
          "memory (GPUs a replica: ",
          "Error: no cabe: los pesos no dejan sitio a una secuencia en la memoria de una "
          "réplica (GPU por réplica: ")).cat(
        figure(Ref("RunReplicaGPUs"), 0),
        T("): more GPUs a replica, or a smaller precision",
          "): más GPU por réplica, o menos precisión"))),
)  # fmt: skip

# Build or buy: the output tokens a month above which the API costs more than
# the line's replicas. An API charges a per output token (its prompts
# included); the replicas cost c a month each, each carrying cap tokens a month
# at the peak's sizing, with s spares. Up to cap, one replica and the spares
# serve: even at (1 + s)·c ÷ a when that is within cap; beyond, the spares'
# c·s ÷ (a − c ÷ cap), while a replica's token is cheaper than the API's.
_SPARES = Ref("RunSpares")
_A, _C, _CAP = Ref("RunApiPerToken"), Ref("RunReplicaMonth"), Ref("RunReplicaTokens")
_BREAK_EVEN = F.IF(
    (_A * _CAP).ge((1 + _SPARES) * _C), (1 + _SPARES) * _C / _A,
    F.IF(_A.gt(_C / _CAP), _SPARES * _C / (_A - _C / _CAP), Say(T("never", "nunca"))),
)  # fmt: skip

_TOKENS_HELP = T(
    "Tokens to train on (tokens × epochs); for serving, the output tokens generated "
    "a month.",
    "Tokens de entrenamiento (tokens × épocas); en servicio, los tokens de salida "
    "generados al mes.",
)
RUN_FIELDS = (
    _typed("RunName", T("Run", "Ejecución"), T("", ""),
           T("A name for the run. A row with figures but no name is an error: name it "
             "or clear it.",
             "Un nombre para la ejecución. Una fila con cifras y sin nombre es un "
             "error: dele nombre o bórrela."), kind="text"),
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
           T("full, LoRA or QLoRA, for a fine-tune.",
             "completo (full), LoRA o QLoRA, para un ajuste."),
           kind="list", keys="MethodKeys", menu="MethodNames", blank=True),
    _typed("RunTokens", T("Tokens (output a month if serving)", "Tokens (de salida al mes en servicio)"),
           T("", ""), _TOKENS_HELP, fmt=tx.LARGE, domain=POSITIVE, blank=True),
    _typed("RunGPU", T("GPU", "GPU"), T("", ""),
           T("A GPU from the Data sheet, priced on the Prices sheet.",
             "Una GPU de la hoja Datos, con precio en la hoja Precios."),
           kind="list", keys="AcceleratorKeys", menu="AcceleratorNames"),
    _typed("RunGPUs", T("GPUs (or replica)", "GPU (o réplica)"), T("", ""),
           T("GPUs the run trains on; for serving, the GPUs holding one copy (blank: 1).",
             "GPU del entrenamiento; en servicio, las GPU de una copia (en blanco: 1)."),
           domain=WHOLE, blank=True),
    _typed("RunStart", T("Start month", "Mes de inicio"), T("", ""),
           T("The plan's month the run starts in: 1 is the first.",
             "El mes del plan en que empieza: 1 es el primero."), domain=_START),
    _typed("RunMonths", T("Months serving", "Meses de uso"), T("", ""),
           T("Months a serving line runs; blank for training.",
             "Meses que dura un servicio; en blanco para entrenar."), domain=WHOLE, blank=True),
    _typed("RunTier", T("Pricing", "Tarifa"), T("", ""),
           T("on-demand, reserved (counts against the commitment) or spot.",
             "bajo demanda, reservada (cuenta contra el compromiso) o spot."),
           kind="text", choices=TIERS),
    # Details, a band below: blank takes the Assumptions sheet's default.
    _typed("RunMFU", T("MFU", "MFU"), T("% of peak", "% del pico"),
           T("A training run's MFU: the share of the GPU's dense peak it turns into model "
             "work (type 40%). Blank: the Assumptions sheet's.",
             "La MFU de un entrenamiento: la parte del pico denso de la GPU que convierte en "
             "trabajo del modelo (escriba 40 %). En blanco: la de la hoja Supuestos."),
           fmt=tx.PERCENT_FMT, arg="mfu", blank=True, band=2),
    _typed("RunMeasuredSpeed", T("Measured tokens/s per GPU", "Tokens/s por GPU medidos"),
           T("", ""),
           T("Your own benchmark, per GPU: training tokens/s, or for serving output tokens/s "
             "at full load. It replaces the estimate, which stays as a check.",
             "Su propia prueba, por GPU: tokens/s de entrenamiento, o en servicio tokens/s "
             "de salida a plena carga. Sustituye a la estimación, que queda como control."),
           domain=POSITIVE, blank=True, band=2),
    _typed("RunPrecision", T("Precision", "Precisión"), T("", ""),
           T("For serving: the weights' precision, bf16, fp16, fp8, int8, int4 or fp4 (the "
             "key/value cache in fp8 with fp8 and fp4, else 16 bits). Blank: bf16.",
             "En servicio: la precisión de los pesos, bf16, fp16, fp8, int8, int4 o fp4 "
             "(la caché de claves y valores en fp8 con fp8 y fp4; si no, 16 bits). En "
             "blanco: bf16."),
           kind="text", choices=PRECISIONS, blank=True, band=2),
    _typed("RunLatency", T("Latency target", "Latencia objetivo"), T("ms/token", "ms/token"),
           T("For serving: the most milliseconds a user waits for each output token (TPOT); "
             "blank: none.",
             "En servicio: los milisegundos que como mucho espera un usuario por token de "
             "salida (TPOT); en blanco: ninguno."),
           arg="ms_per_token", domain=POSITIVE, blank=True, band=2),
    # The widest figure (48.0 mil M in Spanish) in the band's widest column.
    _typed("RunPromptTokens", T("Prompt tokens a month", "Tokens de entrada al mes"), T("", ""),
           T("For serving: the input tokens a month, prompts and context (0 if none).",
             "En servicio: los tokens de entrada al mes, peticiones y contexto (0 si no hay)."),
           fmt=tx.LARGE, domain=NONNEGATIVE, blank=True, band=2),
    _typed("RunSpare", T("Spare replicas", "Réplicas de reserva"), T("", ""),
           T("For serving: replicas kept on top of those the peak needs (N+1: type 1).",
             "En servicio: réplicas de más sobre las que necesita la punta (N+1: escriba 1)."),
           domain=Domain(0.0, float("inf"), True, False, "be a whole number, 0 or more",
                         whole=True), blank=True, band=2),
    # A serving line's requests, in the units planners use: blank, the tokens
    # a month above and the Assumptions sheet's request and peak.
    _typed("RunPromptPerRequest", T("Prompt a request", "Entrada por petición"),
           T("tokens", "tokens"),
           T("For serving: a request's prompt tokens. Blank: the Assumptions sheet's "
             "tokens a request, split as the tokens a month are.",
             "En servicio: los tokens de entrada de una petición. En blanco: los tokens por "
             "petición de la hoja Supuestos, repartidos como los tokens al mes."),
           domain=NONNEGATIVE, blank=True, band=2),
    _typed("RunOutputPerRequest", T("Output a request", "Salida por petición"),
           T("tokens", "tokens"),
           T("For serving: a request's output tokens (with its prompt, or neither).",
             "En servicio: los tokens de salida de una petición (con su entrada, o ninguno)."),
           domain=POSITIVE, blank=True, band=2),
    _typed("RunRequestsDay", T("Requests a day", "Peticiones al día"), T("", ""),
           T("For serving: the requests a day, instead of the tokens a month (then leave "
             "those blank, and type the tokens a request).",
             "En servicio: las peticiones al día, en lugar de los tokens al mes (deje "
             "entonces esos en blanco, y escriba los tokens por petición)."),
           domain=POSITIVE, blank=True, band=2),
    _typed("RunPeakToAverage", T("Peak over average", "Punta sobre media"), T("×", "×"),
           T("For serving: the busiest hour's traffic over the month's average. Blank: the "
             "Assumptions sheet's.",
             "En servicio: el tráfico de la hora punta sobre la media del mes. En blanco: el "
             "de la hoja Supuestos."),
           fmt=tx.TWO, domain=Domain(1.0, 100.0, True, True, "be from 1 to 100"), blank=True,
           band=2),
    # The results, a band below.
    _field("RunCost", T("Cost", "Coste"), _MONEY, tx.MONEY, total=True, band=3,
           expr=F.IF(SERVES, Ref("RunGPUsUsed") * _HOURS * Ref("RunMonths") * Ref("RunPrice"),
                     call("FT_COST", *_TRAIN, "RunPrice"))),
    _field("RunInPlan", T("Within the plan", "Dentro del plan"), _MONEY, tx.MONEY, total=True,
           # A run that ends in the plan is in it whole: its share, 1 in exact
           # arithmetic, would leave a -0.00 of rounding after month 12.
           band=3, expr=F.IF(Ref("RunFinish").le(MONTHS), Ref("RunCost"),
                             Ref("RunCost") * F.MAX(0, MONTHS + 1 - Ref("RunStart"))
                             / Ref("RunDuration"))),
    _field("RunPrice", T("Price", "Precio"), T("{currency}/GPU-h", "{currency}/GPU-h"), tx.MONEY,
           # +0: a tier with no price (a blank cell) is 0 in every engine,
           # which the run's check refuses.
           band=3, expr=F.CHOOSE(Ref("RunTierCode"), F.INDEX(Ref("PriceOnDemand"), Ref("RunPriceRow")),
                                 F.INDEX(Ref("PriceReserved"), Ref("RunPriceRow")),
                                 F.INDEX(Ref("PriceSpot"), Ref("RunPriceRow"))) + 0),
    _field("RunGPUsUsed", T("GPUs used", "GPU usadas"), T("GPUs", "GPU"), band=3,
           expr=F.IF(SERVES, Ref("RunReplicas") * Ref("RunReplicaGPUs"), Ref("RunGPUs"))),
    _field("RunDays", T("Days", "Días"), T("days", "días"), tx.DURATION, band=3,
           expr=Ref("RunHours") / 24),
    _field("RunGPUHours", T("GPU-hours", "GPU-horas"), T("GPU-h", "GPU-h"), total=True, band=3,
           expr=F.IF(SERVES, Ref("RunGPUsUsed") * _HOURS * Ref("RunMonths"),
                     call("FT_GPU_HOURS", *_TRAIN))),
    _field("RunImpliedMFU", T("MFU of its speed", "MFU de su velocidad"), T("% of peak", "% del pico"),
           tx.PERCENT_FMT, band=3,
           expr=F.IF(TRAINING, Ref("RunSpeed") / Ref("RunEstimate") * Ref("RunMFUUsed"), "")),
    _field("RunEnergy", T("Energy", "Energía"), T("MWh", "MWh"), tx.DECIMAL, total=True, band=3,
           expr=call("TRAINING_ENERGY_MWH", "RunGPUHours", call("GPU_POWER_W", "RunGPU"), "PUE")),
    _field("RunCO2", T("CO2e", "CO2e"), T("t", "t"), tx.DECIMAL, total=True, band=3,
           expr=call("TRAINING_CO2_TONNES", "RunEnergy", "GridIntensity")),
    _field("RunEnd", T("End month", "Mes final"), T("", ""), tx.COUNT, band=3,
           expr=F.ROUNDUP(Ref("RunFinish"), 0)),
    _field("RunPerMTok", T("Per M output tokens", "Por M tokens de salida"), T("{currency}", "{currency}"),
           tx.MONEY, band=3,
           expr=F.IF(SERVES, Ref("RunCost") / Ref("RunMonths") / Ref("RunOutputMonth") * 1e6, "")),
    _field("RunApiCost", T("Through an API", "Con una API"), _MONEY, tx.MONEY, total=True, band=3,
           expr=F.IF(SERVES, (Ref("RunPromptMonth") * Ref("ApiPriceInput")
                              + Ref("RunOutputMonth") * Ref("ApiPriceOutput")) / 1e6 * _MONTHS_IN_PLAN, "")),
    _field("RunBreakEven", T("API dearer above", "API más cara desde"), T("output tokens/month", "tokens de salida/mes"),
           tx.LARGE, band=3, expr=F.IF(SERVES, _BREAK_EVEN, "")),
    _field("RunMemory", T("Memory check", "Control de memoria"), T("", ""), "@", band=3,
           expr=F.IF(SERVES, _SERVE_FIT, _TRAIN_FIT)),
    # The workings, a band below: grey.
    _field("RunKindCode", T("Kind code", "Código de tipo"), T("1-3", "1-3"), band=4, guarded=False,
           expr=choice(Field("RunKind", T("", ""), T("", ""), choices=KINDS))),
    _field("RunTierCode", T("Tier code", "Código de tarifa"), T("1-3", "1-3"), band=4, guarded=False,
           expr=choice(Field("RunTier", T("", ""), T("", ""), choices=TIERS))),
    _field("RunMethodCode", T("Method code", "Código de método"), T("1-3", "1-3"), band=4, guarded=False,
           expr=F.IF(K.eq(2), code("RunMethod", "MethodKeys", "MethodCode"), 1)),
    _field("RunGPURow", T("GPU's row", "Fila de la GPU"), T("Data", "Datos"), band=4, guarded=False,
           expr=F.INDEX(Ref("AcceleratorRow"), F.MATCH(parse(key("RunGPU")), Ref("AcceleratorKeys"), 0))),
    _field("RunPriceRow", T("Price's row", "Fila del precio"), T("Prices", "Precios"), band=4,
           expr=F.MATCH(Ref("RunGPURow"), Ref("PriceGPURow"), 0)),
    _field("RunModelRow", T("Model's row", "Fila del modelo"), T("Models", "Modelos"), band=4,
           expr=F.IF(_NAMED, F.INDEX(Ref("ModelRow"),
                                     F.MATCH(parse(key("RunModel")), Ref("ModelKeys"), 0)), "")),
    _field("RunParams", T("Parameters", "Parámetros"), T("N", "N"), tx.LARGE, band=4,
           expr=F.IF(_NAMED, _spec("params"), Ref("RunModel")), holds=_spec("params")),
    _field("RunActiveParams", T("Per token", "Por token"), T("N", "N"), tx.LARGE, band=4,
           expr=F.IF(_NAMED, _spec("active_params"), Ref("RunModel")), holds=_spec("active_params")),
    _field("RunLayers", T("Layers", "Capas"), T("L", "L"), band=4,
           expr=F.IF(_NAMED, _spec("layers"), 0), holds=_spec("layers")),
    _field("RunDModel", T("Width", "Anchura"), T("h", "h"), band=4,
           expr=F.IF(_NAMED, _spec("d_model"), 0), holds=_spec("d_model")),
    _field("RunAttentionWidth", T("Attention width", "Anchura de atención"), T("", ""), band=4,
           expr=F.IF(_NAMED, _spec("attention_width"), 0), holds=_spec("attention_width")),
    _field("RunKVWidth", T("Key/value width", "Anchura k/v"), T("", ""), band=4,
           expr=F.IF(_NAMED, _spec("kv_width"), 0), holds=_spec("kv_width")),
    _field("RunCacheWidth", T("Cached a token and layer", "Caché por token y capa"), T("", ""),
           band=4, expr=F.IF(_NAMED, _spec("cache_width"), 0), holds=_spec("cache_width")),
    _field("RunCacheHeads", T("Heads the cache splits by", "Cabezas de la caché"), T("", ""),
           band=4, expr=F.IF(_NAMED, _spec("cache_heads"), 0), holds=_spec("cache_heads")),
    _field("RunWindow", T("Window", "Ventana"), T("tokens", "tokens"), band=4,
           expr=F.IF(_NAMED, _spec("window"), 0), holds=_spec("window")),
    _field("RunWindowedLayers", T("Windowed layers", "Capas con ventana"), T("", ""), band=4,
           expr=F.IF(_NAMED, _spec("windowed_layers"), 0), holds=_spec("windowed_layers")),
    _field("RunFFN", T("MLP width", "Anchura MLP"), T("", ""), band=4,
           expr=F.IF(_NAMED, _spec("ffn_dim"), 0), holds=_spec("ffn_dim")),
    _field("RunExperts", T("Experts", "Expertos"), T("", ""), band=4,
           expr=F.IF(_NAMED, _spec("experts"), 1), holds=_spec("experts")),
    _field("RunExpertsPerToken", T("Experts a token", "Expertos por token"), T("", ""), band=4,
           expr=F.IF(_NAMED, _spec("experts_per_token"), 1), holds=_spec("experts_per_token")),
    _field("RunVocab", T("Vocabulary", "Vocabulario"), T("tokens", "tokens"), band=4,
           expr=F.IF(_NAMED, _spec("vocab"), 0), holds=_spec("vocab")),
    _field("RunEmbeddingParams", T("Embedding params", "Parám. de embeddings"), T("N", "N"),
           tx.LARGE, band=4, expr=F.IF(_NAMED, call("MODEL_EMBEDDING_PARAMS", "RunModel"), 0)),
    _field("RunPeakTFLOPS", T("Peak", "Pico"), T("TFLOP/s", "TFLOP/s"), tx.DECIMAL, band=4,
           expr=call("GPU_PEAK_TFLOPS", "RunGPU", Lit("bf16"))),
    _field("RunGPUMemoryGB", T("GPU memory", "Memoria GPU"), T("GB", "GB"), tx.DECIMAL, band=4,
           expr=call("GPU_MEMORY_GB", "RunGPU")),
    _field("RunMFUUsed", T("MFU used", "MFU usada"), T("% of peak", "% del pico"),
           tx.PERCENT_FMT, band=4, expr=_blank_or("RunMFU", "TrainingMFU")),
    _field("RunEstimate", T("Estimated speed", "Velocidad estimada"),
           T("tokens/s a GPU", "tokens/s por GPU"), band=4,
           expr=F.IF(SERVES, Ref("RunReplicaEstimate") / Ref("RunReplicaGPUs"), _ESTIMATE)),
    _field("RunSpeed", T("Speed used", "Velocidad usada"), T("tokens/s a GPU", "tokens/s por GPU"),
           band=4, expr=_blank_or("RunMeasuredSpeed", "RunEstimate")),
    _field("RunTokensPerSec", T("Tokens/s (a GPU; a replica)", "Tokens/s (una GPU; una réplica)"),
           T("tokens/s", "tokens/s"), band=4,
           expr=F.IF(SERVES, Ref("RunSpeed") * Ref("RunReplicaGPUs"), Ref("RunSpeed"))),
    _field("RunReplicaGPUs", T("GPUs a replica", "GPU por réplica"), T("GPUs", "GPU"), band=4,
           expr=_REPLICA),
    _field("RunPrecisionUsed", T("Precision used", "Precisión usada"), T("", ""), band=4,
           expr=F.IF(SERVES, _blank_or("RunPrecision", Lit("bf16")), "")),
    _field("RunBytes", T("Bytes a weight", "Bytes por peso"), T("B", "B"), tx.TWO, band=4,
           expr=F.IF(SERVES, call("SERVING_WEIGHT_BYTES", "RunPrecisionUsed"), "")),
    _field("RunCacheBytes", T("Bytes a cached value", "Bytes por valor en caché"), T("B", "B"),
           tx.TWO, band=4,
           expr=F.IF(SERVES, call("SERVING_CACHE_BYTES", "RunPrecisionUsed"), "")),
    _field("RunServePeak", T("Peak at its precision", "Pico a su precisión"),
           T("TFLOP/s", "TFLOP/s"), tx.DECIMAL, band=4,
           expr=F.IF(SERVES, call("SERVING_PEAK_TFLOPS", "RunGPU", "RunPrecisionUsed"), "")),
    _field("RunBandwidth", T("Bandwidth", "Ancho de banda"), T("TB/s", "TB/s"), tx.TWO, band=4,
           expr=F.IF(SERVES, call("GPU_BANDWIDTH_TBS", "RunGPU"), "")),
    _field("RunLink", T("Link between GPUs", "Enlace entre GPU"), T("GB/s", "GB/s"), band=4,
           expr=F.IF(SERVES, call("GPU_INTERCONNECT_GBS", "RunGPU"), "")),
    _field("RunOutputMonth", T("Output a month", "Salida al mes"), T("tokens", "tokens"), tx.LARGE,
           band=4, guarded=False,
           expr=F.IF(SERVES, F.IF(_BY_REQUESTS, Ref("RunRequestsDay") * Ref("RunOutputPerRequest")
                                  * _DAYS, Ref("RunTokens")), "")),
    _field("RunPromptMonth", T("Prompts a month", "Entrada al mes"), T("tokens", "tokens"),
           tx.LARGE, band=4, guarded=False,
           expr=F.IF(SERVES, F.IF(_BY_REQUESTS, Ref("RunRequestsDay") * Ref("RunPromptPerRequest")
                                  * _DAYS, Ref("RunPromptTokens")), "")),
    _field("RunPeakUsed", T("Peak over average used", "Punta sobre media usada"), T("×", "×"),
           tx.TWO, band=4, expr=F.IF(SERVES, _blank_or("RunPeakToAverage", "PeakToAverage"), "")),
    _field("RunPromptLen", T("Prompt a request, used", "Entrada por petición, usada"),
           T("tokens", "tokens"),
           band=4, expr=F.IF(SERVES, _blank_or("RunPromptPerRequest", Ref("ServingContext")
                                                * Ref("RunPromptMonth")
                                                / (Ref("RunPromptMonth") + Ref("RunOutputMonth"))),
                             "")),
    _field("RunOutputLen", T("Output a request, used", "Salida por petición, usada"),
           T("tokens", "tokens"),
           band=4, expr=F.IF(SERVES, _blank_or("RunOutputPerRequest", Ref("ServingContext")
                                                * Ref("RunOutputMonth")
                                                / (Ref("RunPromptMonth") + Ref("RunOutputMonth"))),
                             "")),
    _field("RunLatencyBatch", T("Batch the latency allows", "Lote que permite la latencia"),
           T("sequences", "secuencias"), band=4, holds="LATENCY_BATCH",
           expr=F.IF(SERVES, F.IF(F.ISBLANK(Ref("RunLatency")), Ref("ServingBatch"), _LATENCY), "")),
    _field("RunServeBatch", T("Batch run", "Lote usado"), T("sequences", "secuencias"), band=4,
           expr=F.IF(SERVES, _BATCH, ""), holds="REPLICA_BATCH"),
    _field("RunPrefillMs", T("Prompt time", "Tiempo de entrada"), T("ms a request", "ms por petición"),
           tx.TWO, band=4, expr=F.IF(SERVES, _PREFILL, ""), holds="REPLICA_PREFILL_MS"),
    _field("RunStepMs", T("Decode step", "Paso de decodificación"), T("ms", "ms"), tx.TWO, band=4,
           expr=F.IF(SERVES, _STEP, ""), holds="REPLICA_STEP_MS"),
    _field("RunReplicaEstimate", T("Replica, estimated", "Réplica, estimada"),
           T("output tokens/s", "tokens de salida/s"), band=4,
           expr=F.IF(SERVES, _REPLICA_SPEED, "")),
    _field("RunSpares", T("Spare replicas", "Réplicas de reserva"), T("", ""), band=4,
           expr=F.IF(SERVES, _blank_or("RunSpare", 0), "")),
    _field("RunApiPerToken", T("API, an output token", "API, un token de salida"), _MONEY,
           "0.000E+00", band=4,
           expr=F.IF(SERVES, (Ref("ApiPriceOutput") + Ref("ApiPriceInput") * Ref("RunPromptMonth")
                              / Ref("RunOutputMonth")) / 1e6, "")),
    _field("RunReplicaMonth", T("A replica a month", "Una réplica al mes"), _MONEY, tx.MONEY,
           band=4, expr=F.IF(SERVES, Ref("RunReplicaGPUs") * _HOURS * Ref("RunPrice"), "")),
    _field("RunReplicaTokens", T("A replica's tokens a month", "Tokens de una réplica al mes"),
           T("output", "salida"), tx.LARGE, band=4,
           expr=F.IF(SERVES, Ref("RunTokensPerSec") * _HOURS * 3600 / Ref("RunPeakUsed"), "")),
    _field("RunReplicas", T("Replicas", "Réplicas"), T("", ""), band=4,
           expr=F.IF(SERVES, call("SERVING_GPUS", _PEAK_RATE, "RunTokensPerSec", 1)
                     + Ref("RunSpares"), "")),
    _field("RunHours", T("Hours", "Horas"), T("hours", "horas"), tx.DECIMAL, band=4,
           expr=F.IF(SERVES, _HOURS * Ref("RunMonths"), call("FT_TRAINING_HOURS", *_TRAIN))),
    _field("RunDuration", T("Months", "Meses"), T("", ""), tx.TWO, band=4,
           expr=F.IF(SERVES, Ref("RunMonths"), Ref("RunHours") / _HOURS)),
    _field("RunFinish", T("Ends after month", "Acaba tras el mes"), T("months", "meses"), tx.TWO,
           band=4, expr=Ref("RunStart") - 1 + Ref("RunDuration")),
    _field("RunMonthly", T("Cost a month", "Coste al mes"), _MONEY, tx.MONEY, band=4,
           expr=Ref("RunCost") / Ref("RunDuration")),
    _field("RunLoRAParams", T("LoRA params", "Parám. LoRA"), T("N", "N"), tx.LARGE, band=4,
           expr=F.IF(_NAMED, call("MODEL_LORA_PARAMS", "RunModel", "LoRARank"), 0)),
    _field("RunPeakOneGPU", T("Peak on one GPU", "Pico en una GPU"), T("GB", "GB"), tx.DECIMAL,
           band=4, expr=F.IF(F.AND(TRAINING, _NAMED), _PEAK_ONE, ""), holds="TRAINING_PEAK_GB"),
    _field("RunFewestGPUs", T("Fewest GPUs", "Mínimo GPU"), T("training", "entreno"), band=4,
           expr=F.IF(SERVES, "", F.IF(_NAMED, _FEWEST_NAMED, _FEWEST_COUNT))),
    # Ties among the costliest runs ranked by row. The cost to the cent, as a
    # text ("c" first: no criterion reads it as a number), the same in every
    # engine where a number's own text is not; how many rows down to this one
    # cost as much; and the two as one key, which one look-up finds.
    _field("RunCents", T("Within the plan, to the cent", "Dentro del plan, al céntimo"),
           T("text", "texto"), "@", band=4, expr=Lit("c").cat(F.FIXED(Ref("RunInPlan"), 2))),
    _field("RunSameAbove", T("Same cost, rows to here", "Mismo coste, filas hasta aquí"),
           T("runs", "ejecuciones"), band=4,
           expr=F.COUNTIF(UpTo("RunCents"), Ref("RunCents"))),
    _field("RunRankKey", T("Cost and tie, a key", "Coste y empate, una clave"), T("", ""), "@",
           band=4, expr=Ref("RunCents").cat("|", Ref("RunSameAbove"))),
    _field("RunMFUBased", T("Speed from MFU", "Velocidad por MFU"), T("1 yes", "1 sí"), band=4,
           expr=F.IF(F.AND(TRAINING, F.ISBLANK(Ref("RunMeasuredSpeed"))), 1, 0)),
)  # fmt: skip


def unless(skip: Expr, cond: Expr) -> Expr:
    """``cond``, unless the row's kind skips it: IF, not OR, so that a figure
    the row does not have (a pre-training's serving estimate, n/a) reads OK
    in every engine: Excel's OR passes on an error even after a TRUE, IronCalc's
    stops at the TRUE."""
    return F.IF(skip, Lit(True), cond)


def _token_band(kind: int, lo: float, hi: float, what: T,
                tokens: str = "RunTokens") -> tuple[Check, Check, Check]:  # fmt: skip
    """A kind of run's tokens judged: under a thousandth of its usual least is a
    unit slip (tokens typed in millions), over a thousand times its usual most
    an error too, outside its usual span a warning."""
    x = Ref(tokens)

    def said(message: str, lang: str) -> str:
        return message.format(lo=shown(lo, "0", lang), hi=shown(hi, "0", lang),
                              what=what(lang))  # fmt: skip

    slip = T("Error: under a thousandth of a {what}'s usual tokens ({lo} and up): "
             "were they typed in millions?",
             "Error: menos de una milésima de los tokens habituales de un {what} ({lo} "
             "o más): ¿escritos en millones?")  # fmt: skip
    usual = T(
        "Warning: unusual tokens for a {what}: typical is {lo} to {hi}",
        "Aviso: tokens inusuales en un {what}: lo habitual es de {lo} a {hi}",
    )
    over = T("Error: over a thousand times a {what}'s usual tokens (up to {hi}): check "
             "the figure and its unit",
             "Error: más de mil veces los tokens habituales de un {what} (hasta {hi}): "
             "revise la cifra y su unidad")  # fmt: skip
    return (
        Check(unless(K.ne(kind), x.ge(lo / 1000)),
              Text(said(slip.en, "en"), said(slip.es, "es"))),
        Check(unless(K.ne(kind), x.le(hi * 1000)),
              Text(said(over.en, "en"), said(over.es, "es"))),
        Check(unless(K.ne(kind), F.AND(x.ge(lo), x.le(hi))),
              Text(said(usual.en, "en"), said(usual.es, "es")), error=False),
    )  # fmt: skip


_PRETRAIN_TOKENS = _token_band(1, 1e10, 1e14, T("pre-training", "preentrenamiento"))
_FINETUNE_TOKENS = _token_band(2, 1e6, 1e11, T("fine-tune", "ajuste"))
_SERVING_TOKENS = _token_band(
    3, 1e7, 1e13, T("serving month", "mes de servicio"), "RunOutputMonth"
)

_FT_METHOD = Check(
    F.OR(K.ne(2), F.NOT(F.ISBLANK(Ref("RunMethod")))),
    T("Error: a fine-tune needs its method", "Error: un ajuste necesita su método"),
)
_TRAIN_NEEDS = Check(
    F.OR(SERVES, F.AND(F.ISNUMBER(Ref("RunGPUs")), F.ISNUMBER(Ref("RunTokens")))),
    T(
        "Error: a training run needs its tokens and its GPUs",
        "Error: un entrenamiento necesita sus tokens y sus GPU",
    ),
)
_SERVE_NEEDS = Check(
    F.OR(TRAINING, F.AND(F.ISNUMBER(Ref("RunMonths")),
                         F.OR(_BY_REQUESTS, F.AND(F.ISNUMBER(Ref("RunTokens")),
                                                  F.ISNUMBER(Ref("RunPromptTokens")))))),
    T("Error: a serving line needs its months, and its output and prompt tokens a month (0 "
      "if none) or its requests a day",
      "Error: un servicio necesita sus meses, y sus tokens de salida y de entrada al mes (0 "
      "si no hay) o sus peticiones al día"),
)  # fmt: skip
_TRAFFIC_ONCE = Check(
    F.OR(TRAINING, F.NOT(_BY_REQUESTS),
         F.AND(F.ISBLANK(Ref("RunTokens")), F.ISBLANK(Ref("RunPromptTokens")))),
    T("Error: the traffic typed twice: tokens a month, or requests a day, not both",
      "Error: el tráfico escrito dos veces: tokens al mes, o peticiones al día, no ambos"),
)  # fmt: skip
_A_REQUEST = Check(
    F.OR(TRAINING, F.AND(F.ISBLANK(Ref("RunPromptPerRequest")),
                         F.ISBLANK(Ref("RunOutputPerRequest")), F.NOT(_BY_REQUESTS)),
         F.AND(F.ISNUMBER(Ref("RunPromptPerRequest")), F.ISNUMBER(Ref("RunOutputPerRequest")))),
    T("Error: a request needs both its prompt and its output tokens (requests a day need them)",
      "Error: una petición necesita sus tokens de entrada y de salida (las peticiones al día "
      "los necesitan)"),
)  # fmt: skip
_SERVE_NAMED = Check(
    F.OR(TRAINING, _NAMED),
    T("Error: serving needs a model from the Models sheet (its shape gives the speed)",
      "Error: el servicio necesita un modelo de la hoja Modelos (su forma da la velocidad)"),
)  # fmt: skip
_SERVING_SKIPS = Check(
    F.OR(F.NOT(SERVES), F.AND(F.ISBLANK(Ref("RunMFU")), F.ISBLANK(Ref("RunMethod")))),
    T("Warning: an MFU or a method is for training runs: a serving line's speed comes "
      "from its replicas",
      "Aviso: la MFU o el método son para entrenamientos: la velocidad de un servicio "
      "sale de sus réplicas"),
    error=False,
)  # fmt: skip
# Tensor parallel splits a model's key/value heads evenly among a replica's GPUs
# (or copies them, past their number): 3 GPUs for a 70 B's 8 heads do neither.
_HEADS = Ref("RunCacheHeads")
_SPLITS_HEADS = Check(
    # Unjudged while the row's figures are n/a: their own checks say why.
    unless(F.OR(TRAINING, F.NOT(_NAMED), Ref("RunReplicaGPUs").eq(1)),
           F.IFERROR(F.OR(F.MOD(_HEADS, Ref("RunReplicaGPUs")).eq(0),
                          F.MOD(Ref("RunReplicaGPUs"), _HEADS).eq(0)), True)),
    Say(T("Warning: a replica's GPUs split the model's ", "Aviso: las GPU de una réplica "
          "reparten las ")).cat(
        figure(_HEADS, 0),
        T(" key/value heads: GPUs a replica that divide them, or a multiple of them",
          " cabezas clave/valor del modelo: GPU por réplica que las dividan, o un múltiplo")),
    error=False,
)  # fmt: skip
_BY_PARAMETERS = Check(
    F.OR(SERVES, _NAMED),
    T("Warning: a model by its parameters: no attention FLOPs in its speed, and its "
      "memory counts the weights and optimizer only (name a model from the Models sheet)",
      "Aviso: un modelo por sus parámetros: sin los FLOPs de la atención en su velocidad, "
      "y su memoria solo cuenta pesos y optimizador (nombre un modelo de la hoja Modelos)"),
    error=False,
)  # fmt: skip
_TRAINING_ONLY = Check(
    F.OR(SERVES, F.AND(F.ISBLANK(Ref("RunPromptTokens")), F.ISBLANK(Ref("RunPrecision")),
                       F.ISBLANK(Ref("RunLatency")), F.ISBLANK(Ref("RunSpare")),
                       F.ISBLANK(Ref("RunPromptPerRequest")), F.ISBLANK(Ref("RunOutputPerRequest")),
                       F.ISBLANK(Ref("RunRequestsDay")), F.ISBLANK(Ref("RunPeakToAverage")))),
    T("Warning: prompt tokens, precision, latency, spare replicas, requests and peak are for "
      "serving lines",
      "Aviso: tokens de entrada, precisión, latencia, réplicas de reserva, peticiones y punta "
      "son para servicios"),
    error=False,
)  # fmt: skip
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
# The cause first: a Prices row in error (a GPU twice, a price typed as text)
# leaves every run's price n/a; it is that row's problem, not a missing price.
_PRICES_OK = Check(
    F.OR(F.COUNTIF(Ref("PriceGPURow"), Ref("RunGPURow")).eq(0), F.ISNUMBER(Ref("RunPrice"))),
    T("Error: see the Prices sheet: a row there is in error",
      "Error: vea la hoja Precios: una de sus filas tiene un error"),
)  # fmt: skip
_PRICED = Check(
    F.AND(F.ISNUMBER(Ref("RunPrice")), Ref("RunPrice").gt(0)),
    T("Error: no price for this GPU and tier on the Prices sheet",
      "Error: sin precio para esta GPU y tarifa en la hoja Precios"),
)  # fmt: skip
_COSTS = Check(
    F.AND(F.ISNUMBER(Ref("RunCost")), Ref("RunCost").gt(0)),
    T(
        "Error: costs nothing: check its figures",
        "Error: no cuesta nada: revise sus cifras",
    ),
)
_IMPLIED = tuple(
    Check(unless(SERVES, c.cond), c.message, c.error)
    for c in mfu_checks(
        "RunImpliedMFU",
        T(
            "measure the speed on them, or clear it to use the MFU",
            "mida la velocidad con ellas, o bórrela para usar la MFU",
        ),
    )
)
# A measured serving speed above the estimate's ceiling: the estimate is within
# 0.75-1.35 of measured runs (docs/serving.md), so 1.5 times it is suspect.
_SERVE_CEILING = Check(
    unless(TRAINING, Ref("RunSpeed").le(1.5 * Ref("RunEstimate"))),
    T("Warning: measured faster than 1.5 times the estimate for this model and GPU: "
      "output tokens/s per GPU, not per replica?",
      "Aviso: medido más rápido que 1,5 veces la estimación para este modelo y GPU: "
      "¿tokens de salida/s por GPU, no por réplica?"),
    error=False,
)  # fmt: skip
# And one under a third of it: a single request's speed, or a slow server, that
# multiplies the line's replicas (issue 34: 100 tokens/s a GPU for a 70 B in fp8).
_SERVE_FLOOR = Check(
    unless(TRAINING, F.IFERROR(Ref("RunSpeed").ge(Ref("RunEstimate") / 3), True)),
    T("Warning: measured under a third of the estimate for this model and GPU: output "
      "tokens/s per GPU at full load, not one request's speed?",
      "Aviso: medido por debajo de un tercio de la estimación para este modelo y GPU: "
      "¿tokens de salida/s por GPU a plena carga, no la velocidad de una petición?"),
    error=False,
)  # fmt: skip
_LONG, _LONGER = time_checks("RunHours")
_ENDS = Check(Ref("RunFinish").le(MONTHS),
              T(f"Warning: runs past month {MONTHS}: the months after are not in this budget "
                "(Summary: beyond the plan)",
                f"Aviso: sigue después del mes {MONTHS}: los meses siguientes no están en este "
                "presupuesto (Resumen: fuera del plan)"),
              error=False)  # fmt: skip
_RESERVED_GPU = Check(
    F.OR(Ref("RunTierCode").ne(2), F.COUNTIF(Ref("ReservationGPURow"), Ref("RunGPURow")).gt(0)),
    T("Warning: reserved, but no reservation of its GPU model (Prices sheet): all of it is "
      "billed on demand",
      "Aviso: reservada, pero sin reserva de su modelo de GPU (hoja Precios): todo se "
      "factura bajo demanda"),
    error=False,
)  # fmt: skip

RUN_CHECKS = (
    _FT_METHOD, _TRAIN_NEEDS, _SERVE_NEEDS, _TRAFFIC_ONCE, _A_REQUEST, _SERVE_NAMED, _IN_PLAN, *_PRETRAIN_TOKENS[:2],
    *_FINETUNE_TOKENS[:2], *_SERVING_TOKENS[:2], _FITS, _PRICES_OK, _PRICED, _COSTS,
    *_IMPLIED[:2],
    Check(unless(SERVES, _LONG.cond), _LONG.message),
    _IMPLIED[2], _SERVE_CEILING, _SERVE_FLOOR, Check(unless(SERVES, _LONGER.cond), _LONGER.message, error=False),
    _ENDS, _RESERVED_GPU, _TRAINING_ONLY, _SERVING_SKIPS, _SPLITS_HEADS, _BY_PARAMETERS, _PRETRAIN_TOKENS[2],
    _FINETUNE_TOKENS[2], _SERVING_TOKENS[2],
)  # fmt: skip


def _run(name: str, kind: str, model: str | float, method: str | None, tokens: float,
         gpu: str, gpus: int | None, start: int, months: int | None, tier: str,
         **details: object) -> dict[str, object]:  # fmt: skip
    return dict(RunName=name, RunKind=kind, RunModel=model, RunMethod=method,
                RunTokens=tokens, RunGPU=gpu, RunGPUs=gpus, RunStart=start,
                RunMonths=months, RunTier=tier, **details)  # fmt: skip


#: An example programme for a year: a small model pre-trained, four fine-tunes
#: of different methods and sizes, and a 70 B assistant served for ten months.
EXAMPLE = (
    _run("Base 8B", "pre-training", "Llama 3.1 8B", None, 2e12, "H100 SXM", 256, 1, None, "on-demand",
         RunMFU=0.4),
    _run("Support 70B", "fine-tuning", "Llama 3.1 70B", "QLoRA", 2e9, "A100 SXM", 8, 2, None, "on-demand",
         RunMFU=0.35),
    _run("Code 7B", "fine-tuning", "Qwen2.5 7B", "full", 20e9, "H100 SXM", 8, 3, None, "spot",
         RunMFU=0.4),
    _run("Summaries 8B", "fine-tuning", "Llama 3.1 8B", "LoRA", 1e9, "L40S", 4, 4, None, "on-demand",
         RunMFU=0.35),
    _run("Multilingual 70B", "fine-tuning", "Llama 3.3 70B", "full", 20e9, "H200 SXM", 32, 6, None,
         "on-demand", RunMFU=0.4),
    _run("Assistant 70B", "serving", "Llama 3.1 70B", None, 24e9, "H100 SXM", 2, 3, 10, "reserved",
         RunPromptTokens=48e9, RunPrecision="fp8", RunSpare=1),
)  # fmt: skip

RUNS = Table(
    T("Runs", "Ejecuciones"),
    T(f"One run a row, up to {RUN_ROWS}: type over the yellow cells, or clear a row to drop it. "
      "Kind, method, GPU and pricing take the words of their drop-downs; the details "
      "band below takes each run's MFU or measured speed and a serving line's precision, "
      "latency target, prompts, spare replicas, its requests a day (instead of tokens a "
      "month) with a request's tokens, and its peak (blank: the Assumptions sheet's). "
      "Each row's check names its first problem; its results show n/a until it is fixed.",
      f"Una ejecución por fila, hasta {RUN_ROWS}: escriba en las celdas amarillas, o borre una fila "
      "para quitarla. Tipo, método, GPU y tarifa admiten las palabras de sus listas; la "
      "banda de detalles, debajo, admite la MFU o la velocidad medida de cada ejecución y, "
      "en un servicio, precisión, latencia objetivo, entradas, réplicas de reserva, sus "
      "peticiones al día (en lugar de tokens al mes) con los tokens de una petición, y su "
      "punta (en blanco: las de la hoja Supuestos). El control de cada fila nombra su primer "
      "problema; sus resultados muestran n/d hasta que se corrija."),
    RUN_FIELDS, EXAMPLE, RUN_ROWS, "RunName", RUN_CHECKS,
    (T("Details: speed, and serving (blank: the Assumptions sheet's)",
       "Detalles: velocidad y servicio (en blanco: los de la hoja Supuestos)"),
     T("What each run costs and takes (money before contingency)",
       "Lo que cuesta y ocupa cada ejecución (dinero sin contingencia)"),
     T("Workings", "Cálculos intermedios")),
    workings=4, side=True,
    unnamed=T("Error: name this run or clear the row",
              "Error: dé nombre a esta ejecución o borre la fila"),
    # The cause where it is: a Prices row in error leaves every run n/a (a run
    # reads its prices' whole columns).
    blame=((F.COUNTIF(Span([f"PriceGPUCheck.{i}" for i in range(1, PRICE_ROWS + 1)]),
                      Say(tx.ERROR_WORD + "*")).gt(0), tx.NA_PRICES),),
)  # fmt: skip

# ------------------------------------------------------------------ prices

_PRICE_HELP = T("What one GPU-hour of this tier costs you, in the currency of the Assumptions "
                "sheet: your contract price. Blank: not offered.",
                "Lo que le cuesta una GPU-hora de esta tarifa, en la moneda de la hoja "
                "Supuestos: su precio de contrato. En blanco: no se ofrece.")  # fmt: skip
_RATE = Ref("CurrencyRate")


def _price_band(name: str) -> tuple[Check, Check]:
    """A price over 3 times, or under a third of, its GPU's example price in the
    plan's currency: an 8-GPU node's price, or cents; for a GPU with no example,
    one far from every public price."""
    x = Ref(name)
    example = Ref("PriceExampleUSD") * _RATE
    lo, hi = 0.25, 25.0
    own = Check(
        F.OR(
            F.ISBLANK(x),
            F.NOT(F.ISNUMBER(Ref("PriceExampleUSD"))),
            F.IFERROR(F.AND(x.ge(example / 3), x.le(example * 3)), True),
        ),
        Say(
            T(
                "Warning: over 3 times or under a third of this GPU's example, ",
                "Aviso: más del triple o menos de un tercio del ejemplo de esta GPU, ",
            )
        ).cat(
            figure(example, 2),
            " ",
            F.TRIM(Ref("Currency")),
            T(
                " on demand (an 8-GPU node's price, or cents?)",
                " bajo demanda (¿el precio de un nodo de 8 GPU, o céntimos?)",
            ),
        ),
        error=False,
    )
    anywhere = Check(
        F.OR(
            F.ISBLANK(x),
            F.ISNUMBER(Ref("PriceExampleUSD")),
            F.IFERROR(F.AND(x.ge(_RATE * lo), x.le(_RATE * hi)), True),
        ),
        Say(T("Warning: unusual for ", "Aviso: inusual en ")).cat(
            F.TRIM(Ref("Currency")),
            T(": public prices run ", ": los precios públicos van de "),
            figure(_RATE * lo, 2),
            T(" to ", " a "),
            figure(_RATE * hi, 2),
            T(
                " a GPU-hour (cents, or an 8-GPU node's price?)",
                " por GPU-hora (¿céntimos, o el precio de un nodo de 8 GPU?)",
            ),
        ),
        error=False,
    )
    return own, anywhere  # fmt: skip


def _price(name: str, label: T) -> Field:
    inp = table_input(name, label, T("{currency}/GPU-h", "{currency}/GPU-h"), _PRICE_HELP,
                      fmt=tx.MONEY, usual=False, domain=POSITIVE, blank=True,
                      rules=_price_band(name))  # fmt: skip
    return Field(
        name, label, T("{currency}/GPU-h", "{currency}/GPU-h"), tx.MONEY, input=inp
    )


_DAY = Domain(36526.0, 73050.0, True, True, "be a date from 2000 to 2099")


def _serial(iso: str) -> float:
    """A date as a spreadsheet holds it: days since 30 December 1899."""
    return float((date.fromisoformat(iso) - date(1899, 12, 30)).days)


def _price_row(p: object) -> dict[str, object]:
    from ...data.prices import GPUPrice

    assert isinstance(p, GPUPrice)
    return dict(PriceGPU=p.gpu, PriceOnDemand=p.on_demand, PriceReserved=p.reserved,
                PriceSpot=p.spot, PriceDate=_serial(PRICES_READ), PriceSource=p.source)  # fmt: skip


PRICES = Table(
    T("Prices per GPU-hour", "Precios por GPU-hora"),
    T(f"Examples: public prices in {PRICES_CURRENCY}, read {PRICES_READ}, with their "
      "source; replace them with your contract prices in your currency. Reserved is paid "
      "for the GPUs committed (the reserved capacity below), used or not; use above the "
      "commitment is billed on demand.",
      f"Ejemplos: precios públicos en {PRICES_CURRENCY}, leídos el {PRICES_READ}, con su "
      "fuente; sustitúyalos por sus precios de contrato en su moneda. La reservada se "
      "paga por las GPU comprometidas (la capacidad reservada, debajo), se usen o no; el "
      "uso por encima del compromiso se factura bajo demanda."),
    (
        _typed("PriceGPU", T("GPU", "GPU"), T("model", "modelo"),
               T("A GPU from the Data sheet.", "Una GPU de la hoja Datos."), kind="text"),
        _price("PriceOnDemand", T("On-demand", "Bajo demanda")),
        _price("PriceReserved", T("Reserved", "Reservada")),
        _price("PriceSpot", T("Spot", "Spot")),
        _typed("PriceDate", T("Date", "Fecha"), T("read", "leída"),
               T("When the price was read, or the contract signed: page 1 gives the oldest.",
                 "Cuándo se leyó el precio, o se firmó el contrato: la página 1 da el más "
                 "antiguo."), fmt="yyyy-mm-dd", domain=_DAY, blank=True),
        _typed("PriceSource", T("Source", "Fuente"), T("", ""),
               T("Where the price comes from: your contract, or a public page.",
                 "De dónde sale el precio: su contrato, o una página pública."), kind="text",
               checks=()),
        # Not guarded by the row's checks, which read it (through the example).
        _field("PriceGPURow", T("GPU's row", "Fila de la GPU"), T("Data", "Datos"), band=3,
               guarded=False,
               expr=F.INDEX(Ref("AcceleratorRow"),
                            F.MATCH(parse(key("PriceGPU")), Ref("AcceleratorKeys"), 0))),
        # Not found: no example for this GPU (its prices are judged by the wide band).
        _field("PriceExampleUSD", T("Example, on demand", "Ejemplo, bajo demanda"),
               T("USD/GPU-h", "USD/GPU-h"), tx.MONEY, band=3, guarded=False,
               expr=F.IFERROR(F.INDEX(Ref("ExamplePriceUSD"),
                                      F.MATCH(F.INDEX(Ref("AcceleratorNames"), Ref("PriceGPURow")),
                                              Ref("ExamplePriceGPU"), 0)), "")),
    ),
    tuple(_price_row(p) for p in GPU_PRICES),
    PRICE_ROWS, "PriceGPU",
    (Check(looked_up("PriceGPU", "AcceleratorKeys"),
           T("Error: a GPU from the Data sheet", "Error: una GPU de la hoja Datos")),
     Check(F.COUNTIF(Whole("PriceGPURow"), Ref("PriceGPURow")).le(1),
           T("Error: this GPU has another row above or below: one row a GPU",
             "Error: esta GPU tiene otra fila arriba o abajo: una fila por GPU")),
     # The examples are USD: in another currency, a row still at its example
     # would be a USD figure relabelled.
     Check(F.OR(F.TRIM(Ref("Currency")).eq(PRICES_CURRENCY), F.ISBLANK(Ref("PriceOnDemand")),
                F.NOT(F.ISNUMBER(Ref("PriceExampleUSD"))),
                Ref("PriceOnDemand").ne(Ref("PriceExampleUSD"))),
           T(f"Warning: still the example's {PRICES_CURRENCY} price, under another currency: "
             "type yours in the plan's currency",
             f"Aviso: aún el precio del ejemplo en {PRICES_CURRENCY}, con otra moneda: "
             "escriba el suyo en la moneda del plan"), error=False),
     Check(F.OR(F.ISBLANK(Ref("PriceReserved")), F.ISBLANK(Ref("PriceOnDemand")),
                Ref("PriceReserved").le(Ref("PriceOnDemand"))),
           T("Warning: reserved dearer than on-demand", "Aviso: reservada más cara que bajo demanda"),
           error=False)),
    side=True,
    unnamed=T("Error: name this row's GPU or clear the row",
              "Error: escriba la GPU de esta fila o bórrela"),
)  # fmt: skip

PRICE_NOTES = Notes(
    T("Where the example prices come from", "De dónde salen los precios de ejemplo"),
    (
        T(f"On-demand: the median of GPU clouds' list prices per GPU, read {PRICES_READ}: "
          + GPU_PRICE_SOURCES + ". Hyperscalers list far above (an H100 at 6.88 USD on "
          "AWS, 12.29 on Azure).",
          f"Bajo demanda: la mediana de los precios de lista por GPU de las nubes de GPU, "
          f"leídos el {PRICES_READ} (fuentes citadas en su idioma original): "
          + GPU_PRICE_SOURCES + ". Los hiperescaladores cobran mucho más (una H100 a "
          "6,88 USD en AWS, 12,29 en Azure)."),
        T("Reserved: the rate a provider publishes for committed capacity (Hyperstack's "
          "'reserved from' rates); CoreWeave, Lambda, Nebius, AWS, Azure and Google "
          "publish only their largest discounts. Spot: published interruptible prices.",
          "Reservada: la tarifa que un proveedor publica para capacidad comprometida (la "
          "'reserved from' de Hyperstack); CoreWeave, Lambda, Nebius, AWS, Azure y Google "
          "solo publican su mayor descuento. Spot: precios interrumpibles publicados."),
        T("GPU list prices rose in late 2026 (Nebius's H100 from 3.85 to 4.50 USD on "
          "1 October): read them again, or type your contract's, before signing. The "
          "examples are in USD: a budget in another currency needs its own.",
          "Los precios de lista de GPU subieron a finales de 2026 (la H100 de Nebius de "
          "3,85 a 4,50 USD el 1 de octubre): reléalos, o escriba los de su contrato, antes "
          "de firmar. Los ejemplos están en USD: un presupuesto en otra moneda necesita "
          "los suyos."),
    ),
)  # fmt: skip

__all__ = ["EXAMPLE", "MONTHS", "PRICES", "PRICE_ROWS", "RUNS", "RUN_ROWS"]
