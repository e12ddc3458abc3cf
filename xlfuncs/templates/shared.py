"""Rows, blocks and sources several templates share, worded once.

The money inputs (price, currency, contingency), the fine-tuning method and the
throughput source, the memory of full fine-tuning, LoRA and QLoRA of a named
model, the glossary and the sources: the fine-tuning workbook and the planner
build their fine-tune from the same rows, so the two answer a question alike.
"""

from __future__ import annotations

import dataclasses

from ..data.planning import (
    CONTINGENCY,
    CONTINGENCY_SOURCE,
    LORA_SOURCE,
    LORA_SPEEDUP,
    MFU_FLOOR,
    MFU_HIGH,
    PRICE_USD_BAND,
)
from ..data.prices import API_8B, API_70B, DEFAULT_GPU, DEFAULT_PRICE, PRICES_READ
from ..data.serving import BANDWIDTH_UTIL, MAX_BATCH, PREFILL_MFU, SERVING_SOURCE
from ..data.units import USABLE_MEMORY
from ..registry.domains import NONNEGATIVE, Domain
from ..registry.excel import key
from . import texts as tx
from .blocks import Check, Figures, Input, Notes, Result, Verdict
from .checks import figure, fit, looked_up
from .expr import Expr, F, Lit, Ref, Say, call
from .texts import T, Text
from .written import parse

# ------------------------------------------------------------------ money


def _rate() -> Expr:
    """Units of the Currency input a US dollar buys (Data sheet), or #N/A."""
    return F.INDEX(
        Ref("CurrencyPerUSD"), F.MATCH(F.TRIM(Ref("Currency")), Ref("CurrencyCodes"), 0)
    )


_LO, _HI = PRICE_USD_BAND
_PRICE_BAND = Check(
    F.IFERROR(F.AND(Ref("PricePerGPUHour").ge(_rate() * _LO), Ref("PricePerGPUHour").le(_rate() * _HI)), True),
    Say(T("Warning: unusual for ", "Aviso: inusual en ")).cat(
        F.TRIM(Ref("Currency")),
        T(": public prices run ", ": los precios públicos van de "),
        figure(_rate() * _LO, 2), T(" to ", " a "), figure(_rate() * _HI, 2),
        T(" a GPU-hour (was it typed in cents, or for an 8-GPU node?)",
          " por GPU-hora (¿escrito en céntimos, o por un nodo de 8 GPU?)"),
    ),
    error=False,
)  # fmt: skip

PRICE = Input(
    "PricePerGPUHour", "price_per_gpu_hour", DEFAULT_PRICE,
    T("Price per GPU-hour", "Precio por GPU-hora"), T("{currency}/GPU-h", "{currency}/GPU-h"),
    T(f"What one GPU costs for one hour, in the currency below: your contract price. "
      f"The example, {DEFAULT_PRICE} USD, is an {DEFAULT_GPU} on demand: the median "
      f"of GPU clouds' list prices, read {PRICES_READ}. A price far from public cloud "
      f"prices in that currency is flagged.",
      f"Lo que cuesta una GPU durante una hora, en la moneda de abajo: su precio de "
      f"contrato. El ejemplo, {DEFAULT_PRICE} USD, es una {DEFAULT_GPU} bajo demanda: "
      f"la mediana de los precios de lista de las nubes de GPU, leída el {PRICES_READ}. "
      f"Se avisa si se aleja mucho de los precios públicos en esa moneda."),
    fmt=tx.MONEY, usual=False, rules=(_PRICE_BAND,),
)  # fmt: skip

CURRENCY = Input(
    "Currency", "", "USD",
    T("Currency", "Moneda"), T("code", "código"),
    T("The currency of the price and of every amount: a code such as USD, EUR, GBP "
      "or JPY.",
      "La moneda del precio y de todos los importes: un código como USD, EUR, GBP o "
      "JPY."),
    kind="text",
    # Unknown, no price could be judged in it: € or "Euro" would turn the checks off.
    rules=(Check(F.ISNUMBER(F.MATCH(F.TRIM(Ref("Currency")), Ref("CurrencyCodes"), 0)),
                 T("Error: a currency code from the Data sheet's list (USD, EUR, GBP, JPY…)",
                   "Error: un código de moneda de la lista de la hoja Datos (USD, EUR, GBP, "
                   "JPY…)")),),
)  # fmt: skip

#: The hours of an average month, in a cell the formulas read: what a month of
#: a GPU and of a serving line costs, and a training run's months.
HOURS_IN_A_MONTH = Result(
    "HoursAMonth", Lit(365) * 24 / 12,
    T("Hours in a month", "Horas en un mes"), T("hours", "horas"),
    T("365 days × 24 hours ÷ 12 months: a month of a GPU and of a serving line.",
      "365 días × 24 horas ÷ 12 meses: un mes de una GPU y de un servicio."),
    fmt=tx.COUNT,
)  # fmt: skip

SHARE = Domain(0.0, 1.0, True, True, "be from 0 to 1", "be from 0% to 100%")
CONTINGENCY_INPUT = Input(
    "Contingency", "", CONTINGENCY,
    T("Contingency", "Contingencia"), T("% of cost", "% del coste"),
    T("Added for failed runs, restarts and re-runs: Llama 3's pre-training kept "
      "over 90 % of its time training, through 466 interruptions in 54 days "
      "(1/0.9 = 1.11, so 11 %).",
      "Para ejecuciones fallidas, reinicios y repeticiones: el preentrenamiento de "
      "Llama 3 entrenó más del 90 % del tiempo, con 466 interrupciones en 54 días "
      "(1/0,9 = 1,11: un 11 %)."),
    fmt=tx.PERCENT_FMT, domain=SHARE, typical=(0.0, 0.5),
    # 0.11 % for 11 %: a share typed as a percentage twice over.
    rules=(Check(F.OR(Ref("Contingency").eq(0), Ref("Contingency").ge(0.01)),
                 T("Warning: under 1 %: 0.11 typed for 11 %?",
                   "Aviso: menos del 1 %: ¿0,11 escrito por 11 %?"), error=False),),
)  # fmt: skip

USABLE = Input(
    "UsableMemory", "usable", USABLE_MEMORY,
    T("Usable GPU memory", "Memoria de GPU utilizable"), T("% of the GPU", "% de la GPU"),
    T("The share of each GPU's memory a plan may fill; the rest is for the CUDA "
      "context, buffers and fragmentation. Every memory check and the fewest GPUs "
      "use it; in serving, the cache fills this share of what the weights leave "
      "(TensorRT-LLM's default, 90 %).",
      "La parte de la memoria de cada GPU que un plan puede llenar; el resto es para "
      "el contexto CUDA, los búferes y la fragmentación. Todos los controles de "
      "memoria y el mínimo de GPU la usan; en servicio, la caché llena esta parte de "
      "lo que dejan los pesos (90 % por defecto en TensorRT-LLM)."),
    fmt=tx.PERCENT_FMT,
)  # fmt: skip

STATE_BYTES = T(
    "Full fine-tuning holds 16-bit weights and gradients (2 + 2 bytes a parameter) "
    "and the optimizer's state: 12 for Adam in mixed precision (an fp32 copy and "
    "two moments), 4 for bf16 AdamW, 2 for 8-bit Adam (the Optimizer state input). "
    "Peers that keep fp32 gradients count 2 more.",
    "El ajuste completo guarda pesos y gradientes de 16 bits (2 + 2 bytes por "
    "parámetro) y el estado del optimizador: 12 con Adam en precisión mixta (una "
    "copia fp32 y dos momentos), 4 con AdamW en bf16, 2 con Adam de 8 bits (el "
    "dato Estado del optimizador). Quien guarda gradientes en fp32 cuenta 2 más.",
)

# ------------------------------------------------------------------ method


def code(name: str, keys: str, codes: str) -> Expr:
    """The number a typed word stands for (MethodKeys → MethodCode)."""
    return F.INDEX(Ref(codes), F.MATCH(parse(key(name)), Ref(keys), 0))


METHOD = code("FTMethod", "MethodKeys", "MethodCode")  # 1 full, 2 LoRA, 3 QLoRA
SOURCE = code("ThroughputSource", "SourceKeys", "SourceCode")  # 1 measured

FT_METHOD = Input(
    "FTMethod", "", "LoRA",
    T("Fine-tuning method", "Método de ajuste"), T("method", "método"),
    T("full (every weight trains), LoRA (small adapters on a frozen 16-bit model) "
      "or QLoRA (adapters on a 4-bit model): the memory check, the speed and the "
      "cost judge this one.",
      "full o completo (entrenan todos los pesos), LoRA (adaptadores pequeños sobre "
      "un modelo congelado de 16 bits) o QLoRA (adaptadores sobre un modelo de 4 "
      "bits): el control de memoria, la velocidad y el coste juzgan este."),
    kind="list", keys="MethodKeys", menu="MethodNames",
)  # fmt: skip

GPU_MODEL = Input(
    "GPUModel", "gpu", "H100 SXM",
    T("GPU model", "Modelo de GPU"), T("name", "nombre"),
    T("Pick from the list (the Data sheet): its memory, and for an estimate its "
      "dense peak, come from its datasheet.",
      "Elija de la lista (hoja Datos): su memoria y, para una estimación, su pico "
      "denso vienen de su ficha técnica."),
    kind="list", keys="AcceleratorKeys", menu="AcceleratorNames",
)  # fmt: skip

DTYPE = Input(
    "Dtype", "dtype", "bf16",
    T("Training precision", "Precisión de entrenamiento"), T("dtype", "dtype"),
    T("bf16 for most training; fp8 where the chip and the recipe support it.",
      "bf16 en la mayoría de entrenamientos; fp8 si el chip y la receta lo admiten."),
    kind="list", keys="DtypeKeys", menu="TrainingDtypeNames",
    rules=(
        Check(
            parse(key("Dtype")).ne("int8"),
            T("Error: int8 is an inference rate (TOP/s), not a training precision",
              "Error: int8 es una tasa de inferencia (TOP/s), no una precisión de "
              "entrenamiento"),
        ),
        Check(
            F.ISNUMBER(call("GPU_PEAK_TFLOPS", "GPUModel", "Dtype")),
            T("Error: this GPU has no figure for this precision (see the Data sheet)",
              "Error: esta GPU no tiene cifra para esta precisión (ver hoja Datos)"),
        ),
    ),
)  # fmt: skip

FT_MODEL = Input(
    "FTModel", "model", "Llama 3.1 8B",
    T("Model to fine-tune", "Modelo a ajustar"), T("name", "nombre"),
    T("A published model (the Models sheet lists them with their sources): its "
      "parameters and shape give the speed estimate and the memory.",
      "Un modelo publicado (la hoja Modelos los lista con sus fuentes): sus "
      "parámetros y su forma dan la estimación de velocidad y la memoria."),
    kind="list", keys="ModelKeys", menu="ModelNames",
)  # fmt: skip


#: What to do about a measured speed faster than the GPU can run the model.
CHOOSE_ESTIMATED = T(
    "measure the speed on them, or choose estimated",
    "mida la velocidad con ellos, o elija estimado",
)


def mfu_checks(name: str, remedy: T = CHOOSE_ESTIMATED) -> tuple[Check, Check, Check]:
    """An MFU judged, typed or implied by a measured speed: one rule for every
    workbook (MFU_FLOOR, MFU_HIGH): above 100 % or under 2 % of the GPU's dense
    peak an error, above 70 % a warning. Above 100 %, the speed is blamed, with
    ``remedy``, not a unit: a measured speed typed for one model stays when the
    model or the GPU changes."""
    x = Ref(name)
    return (
        Check(x.le(1), T("Error: faster than this GPU can run this model: ",
                         "Error: más rápido de lo que esta GPU puede ejecutar este "
                         "modelo: ") + remedy),
        Check(x.ge(MFU_FLOOR),
              T(f"Error: under {MFU_FLOOR:.0%} of the GPU's peak: check the speed, the "
                "model and the GPU (was 40% typed as 0.4%?)",
                f"Error: menos del {MFU_FLOOR:.0%} del pico de la GPU: revise la "
                "velocidad, el modelo y la GPU (¿40 % escrito como 0,4 %?)")),
        Check(x.le(MFU_HIGH),
              T(f"Warning: above {MFU_HIGH:.0%} of the GPU's peak: more than large runs "
                "reach (35-55 %)",
                f"Aviso: más del {MFU_HIGH:.0%} del pico de la GPU: más de lo que "
                "alcanzan los grandes entrenamientos (35-55 %)"), error=False),
    )  # fmt: skip


MFU = Input(
    "MFU", "mfu", 0.4,
    T("Model FLOPs utilisation (MFU)", "Utilización de FLOPs (MFU)"), T("% of peak", "% del pico"),
    T("Useful model FLOPs as a share of the GPU's dense peak while the run trains; "
      "35-55 % is typical for large dense runs (PaLM reached 46.2 %, Llama 3 405B "
      "38-43 %). Type 40%.",
      "FLOPs útiles del modelo respecto al pico denso de la GPU mientras entrena; "
      "35-55 % es habitual en grandes entrenamientos (PaLM alcanzó 46,2 %, Llama 3 "
      "405B 38-43 %). Escriba 40 %."),
    fmt=tx.PERCENT_FMT, usual=False, rules=mfu_checks("MFU")[1:],
)  # fmt: skip

# The fine-tune's MFU: full recomputation, the default, spends a quarter of the
# GPUs' work on the forward pass again (RECOMPUTE_MFU(40%, "full") = 30 %).
FT_MFU = dataclasses.replace(
    MFU, default=0.3,
    help=T("Useful model FLOPs as a share of the GPU's dense peak: 30 %, the 40 % "
           "GPUs typically keep busy less the quarter full recomputation spends on "
           "the forward pass again (RECOMPUTE_MFU(40%, \"full\")); type 40 % with "
           "no recomputation, or your run's measured MFU.",
           "FLOPs útiles del modelo respecto al pico denso de la GPU: 30 %, el 40 % "
           "que suelen estar ocupadas las GPU menos la cuarta parte que el "
           "recálculo completo dedica a repetir la pasada hacia delante "
           "(RECOMPUTE_MFU(40%; \"full\")); escriba 40 % sin recálculo, o la MFU "
           "medida de su entrenamiento."),
)  # fmt: skip

LORA_SPEED = Input(
    "LoRASpeedup", "", LORA_SPEEDUP,
    T("LoRA and QLoRA speed", "Velocidad de LoRA y QLoRA"), T("× full", "× completo"),
    T("Tokens/s of LoRA and QLoRA against full fine-tuning's: measured 1.02-1.13 "
      "(0.92-0.99 with gradient checkpointing) for 1-8 B models with PEFT; Hu et al. "
      "report 1.25-1.33 on GPT-3 175B. Type your own measurement.",
      "Tokens/s de LoRA y QLoRA frente a los del ajuste completo: medido 1,02-1,13 "
      "(0,92-0,99 con recomputación) en modelos de 1-8 B con PEFT; Hu et al. dan "
      "1,25-1,33 en GPT-3 175B. Escriba su propia medida."),
    fmt=tx.TWO, typical=(0.8, 1.5), domain=Domain(0.0, 10.0, False, True, "be above 0 and at most 10"),
)  # fmt: skip


# ------------------------------------------------------------------ serving
# The serving assumptions the budget and the planner share (one rule a name).
_PER_M = T("{currency}/M tokens", "{currency}/M tokens")

SERVING_BATCH = Input("ServingBatch", "max_batch", MAX_BATCH, T("Largest batch", "Lote máximo"),
      T("sequences", "secuencias"),
      T("The most requests a replica decodes at once (vLLM's default 256).",
        "Las peticiones que como mucho decodifica a la vez una réplica (256 por "
        "defecto en vLLM)."),
      whole=True)  # fmt: skip

SERVING_UTILIZATION = Input("ServingUtilization", "bandwidth_util", BANDWIDTH_UTIL,
      T("Memory bandwidth reached", "Ancho de banda alcanzado"), T("%", "%"),
      T("Share of the GPUs' memory bandwidth a decoding step reaches: 55 %, "
        "calibrated on TensorRT-LLM's measured runs.",
        "Parte del ancho de banda de memoria que alcanza un paso de decodificación: "
        "55 %, calibrado con las ejecuciones medidas de TensorRT-LLM."),
      fmt=tx.PERCENT_FMT)  # fmt: skip

PREFILL_MFU_INPUT = Input("PrefillMFU", "prefill_mfu", PREFILL_MFU,
      T("Prompt processing MFU", "MFU al procesar entradas"), T("% of peak", "% del pico"),
      T("Share of the GPUs' dense peak prompt processing reaches: 60 %, calibrated "
        "on the same runs.",
        "Parte del pico denso de las GPU que alcanza el procesado de las entradas: "
        "60 %, calibrado con las mismas ejecuciones."),
      fmt=tx.PERCENT_FMT)  # fmt: skip

PEAK_TO_AVERAGE = Input("PeakToAverage", "", 2.0, T("Peak over average traffic", "Punta sobre tráfico medio"),
      T("×", "×"),
      T("The busiest hour's tokens/s over the month's average: GPUs are sized for "
        "the peak.",
        "Tokens/s de la hora punta sobre la media del mes: las GPU se dimensionan "
        "para la punta."), fmt=tx.TWO, domain=Domain(1.0, 100.0, True, True, "be from 1 to 100"),
      typical=(1.0, 5.0))  # fmt: skip

API_PRICE_INPUT = Input(
    "ApiPriceInput", "", API_70B.input,
    T("API price, input tokens", "Precio API, tokens de entrada"), _PER_M,
    T(f"A hosted API's price for a million prompt tokens of the served model, in the "
      f"plan's currency: AWS Bedrock lists {API_70B.model} at {API_70B.input} USD (the "
      f"median of ten providers) and {API_8B.model} at {API_8B.input} (read {PRICES_READ}).",
      f"El precio de una API alojada por un millón de tokens de entrada del modelo "
      f"servido, en la moneda del plan: AWS Bedrock cobra {API_70B.input} USD por "
      f"{API_70B.model} (la mediana de diez proveedores) y {API_8B.input} por "
      f"{API_8B.model} (leído el {PRICES_READ})."),
    fmt=tx.MONEY, domain=NONNEGATIVE, typical=(0.01, 20.0),
)  # fmt: skip

API_PRICE_OUTPUT = Input(
    "ApiPriceOutput", "", API_70B.output,
    T("API price, output tokens", "Precio API, tokens de salida"), _PER_M,
    T("The same for a million output tokens: hosted APIs sell Llama 3.x 70B's at 0.38 "
      "to 0.90 USD, Llama 3.1 8B's at 0.05 to 0.83.",
      "Lo mismo por un millón de tokens de salida: las API alojadas venden los de "
      "Llama 3.x 70B a 0,38-0,90 USD, los de Llama 3.1 8B a 0,05-0,83."),
    fmt=tx.MONEY, domain=NONNEGATIVE, typical=(0.01, 60.0),
)  # fmt: skip

# ------------------------------------------------------------------ memory

RECOMPUTE = Input(
    "Recompute", "recompute", "full",
    T("Activation recomputation", "Recálculo de activaciones"), T("mode", "modo"),
    T("none, selective (attention only) or full (each layer's input only, gradient "
      "checkpointing): full saves the most memory for about a third more compute, and a "
      "70B model fits its GPUs only with it. The MFU counts model FLOPs, so recomputing "
      "lowers the MFU a run reaches.",
      "none (sin recálculo), selective (solo la atención) o full (solo la entrada de cada "
      "capa): full ahorra más memoria a cambio de un tercio más de cómputo, y un modelo "
      "de 70B solo cabe en sus GPU con él. La MFU cuenta los FLOPs del modelo: "
      "recalcular baja la MFU que se alcanza."),
    kind="list", keys="RecomputeNames", menu="RecomputeNames",
)  # fmt: skip

OPTIMIZER = Input(
    "Optimizer", "optimizer", "adam",
    T("Optimizer state", "Estado del optimizador"), T("kind", "tipo"),
    T("adam: Adam in mixed precision, an fp32 copy and two fp32 moments, 12 bytes a "
      "trained weight; bf16: AdamW on a bf16 model, two bf16 moments, 4; 8bit: 8-bit "
      "Adam (bitsandbytes), 2.",
      "adam: Adam en precisión mixta, una copia fp32 y dos momentos fp32, 12 bytes "
      "por peso entrenado; bf16: AdamW sobre un modelo bf16, dos momentos bf16, 4; "
      "8bit: Adam de 8 bits (bitsandbytes), 2."),
    kind="list", keys="OptimizerNames", menu="OptimizerNames",
)  # fmt: skip

_PARAMS_HOW = T("From the model's published configuration (the Models sheet).",
                "De la configuración publicada del modelo (hoja Modelos).")  # fmt: skip


def shape_rows(serving: bool = False) -> tuple[Result, ...]:
    """The fine-tuned model's figures, from the Models sheet; ``serving``: the
    cache's split, the windowed layers and the context a replica reads too."""
    rows: tuple[tuple[str, str, T, T, str | T], ...] = (
        ("BaseParams", "params", T("Parameters (N)", "Parámetros (N)"), T("parameters", "parámetros"), tx.LARGE),
        ("BaseActiveParams", "active_params", T("Parameters per token", "Parámetros por token"), T("parameters", "parámetros"), tx.LARGE),
        ("BaseLayers", "layers", T("Layers (L)", "Capas (L)"), T("layers", "capas"), tx.COUNT),
        ("BaseWidth", "d_model", T("Width (h)", "Anchura (h)"), T("dimensions", "dimensiones"), tx.COUNT),
        ("BaseHeads", "heads", T("Attention heads (a)", "Cabezas de atención (a)"), T("heads", "cabezas"), tx.COUNT),
        ("BaseAttentionWidth", "attention_width", T("Attention width (heads × head size)", "Anchura de atención (cabezas × tamaño)"), T("dimensions", "dimensiones"), tx.COUNT),
        ("BaseFFN", "ffn_dim", T("MLP width", "Anchura del MLP"), T("dimensions", "dimensiones"), tx.COUNT),
        ("BaseKVWidth", "kv_width", T("Key/value width", "Anchura de claves/valores"), T("dimensions", "dimensiones"), tx.COUNT),
        ("BaseCacheWidth", "cache_width", T("Cached values a token and layer", "Valores en caché por token y capa"), T("values", "valores"), tx.COUNT),
        ("BaseExperts", "experts", T("Experts per layer", "Expertos por capa"), T("experts", "expertos"), tx.COUNT),
        ("BaseExpertsPerToken", "experts_per_token", T("Experts a token", "Expertos por token"), T("experts", "expertos"), tx.COUNT),
        ("BaseVocab", "vocab", T("Vocabulary", "Vocabulario"), T("tokens", "tokens"), tx.COUNT),
    )  # fmt: skip
    if serving:
        rows += (
            ("BaseCacheHeads", "cache_heads", T("Heads the cache splits by", "Cabezas en que se reparte la caché"), T("heads", "cabezas"), tx.COUNT),
            ("BaseWindow", "window", T("Window of a windowed layer", "Ventana de una capa con ventana"), T("tokens", "tokens"), tx.COUNT),
            ("BaseWindowedLayers", "windowed_layers", T("Windowed layers", "Capas con ventana"), T("layers", "capas"), tx.COUNT),
            ("BaseContext", "context", T("Context", "Contexto"), T("tokens", "tokens"), tx.COUNT),
        )  # fmt: skip
    return tuple(
        Result(name, call("MODEL_SPEC", "FTModel", Lit(field)), label, unit, _PARAMS_HOW, fmt=fmt)
        for name, field, label, unit, fmt in rows
    )  # fmt: skip


def memory_rows(
    gpus: str,
    seq: str = "SeqLen",
    micro: str = "MicroBatch",
    zero: str = "ZeroStage",
    *,
    gpu_memory: bool = True,
) -> tuple[Result, ...]:
    """The peak memory a GPU of a training step of full fine-tuning, LoRA and
    QLoRA of FTModel on ``gpus`` GPUs of GPUModel (TRAINING_PEAK_GB, as
    TRAINING_MEMORY_GB: weights, gradients and Adam states sharded by the ZeRO
    stage, activations at the recomputation chosen, the loss's logits, the
    allocator's reserve), the fewest GPUs each fits on, and the method chosen's.
    ``gpu_memory`` False: the template shows GPUMemoryGB elsewhere."""
    rows = [gpu_memory_row()] if gpu_memory else []
    rows += [
        Result("OptimizerBytes", call("OPTIMIZER_STATE_BYTES", "Optimizer"),
               T("Optimizer state a trained weight", "Estado del optimizador por peso entrenado"),
               T("bytes", "bytes"),
               T("The optimizer chosen above: 12, 4 or 2 bytes.",
                 "El optimizador elegido arriba: 12, 4 o 2 bytes."), fmt=tx.COUNT),
        Result("LoRAParams", call("MODEL_LORA_PARAMS", "FTModel", "LoRARank"),
               T("LoRA trainable parameters", "Parámetros entrenables de LoRA"), T("parameters", "parámetros"),
               T("Rank × (inputs + outputs) of every linear layer's adapter (q, k, v, o, "
                 "and the MLP's), every expert's included, as PEFT counts them.",
                 "Rango × (entradas + salidas) del adaptador de cada capa lineal (q, k, "
                 "v, o y las del MLP), con las de cada experto, como cuenta PEFT."),
               fmt=tx.LARGE),
        Result("FTEmbeddingParams", call("MODEL_EMBEDDING_PARAMS", "FTModel"),
               T("Embedding and output layer", "Embeddings y capa de salida"), T("parameters", "parámetros"),
               T("Vocabulary × width, once if they are tied: QLoRA keeps them in 16 bits.",
                 "Vocabulario × anchura, una vez si están atadas: QLoRA las guarda en 16 bits."),
               fmt=tx.LARGE),
    ]  # fmt: skip
    shape = ("BaseParams", "BaseLayers", "BaseWidth", "BaseAttentionWidth", "BaseKVWidth",
             "BaseFFN", "BaseVocab", seq, micro)  # fmt: skip
    methods = (
        ("Full", 1, T("Full fine-tuning", "Ajuste completo")),
        ("LoRA", 2, T("LoRA", "LoRA")),
        ("QLoRA", 3, T("QLoRA", "QLoRA")),
    )
    for prefix, code, label in methods:
        rows += [
            Result(f"{prefix}MemoryGB",
                   call("TRAINING_PEAK_GB", *shape, code, "Recompute", "LoRAParams",
                        "FTEmbeddingParams", "BaseExpertsPerToken", gpus, zero, 1,
                        "OptimizerBytes"),
                   label + T(": per GPU", ": por GPU"), T("GB", "GB"),
                   T("A training step's peak (TRAINING_MEMORY_GB): the weights, gradients "
                     "and optimizer states the ZeRO stage shards, the activations, the "
                     "loss, the allocator's reserve.",
                     "El pico de un paso de entrenamiento (TRAINING_MEMORY_GB): pesos, "
                     "gradientes y estados del optimizador que reparte ZeRO, "
                     "activaciones, la pérdida y la reserva del asignador."), fmt=tx.DECIMAL),
            Result(f"{prefix}MinGPUs",
                   call("MIN_GPUS_FOR_PEAK", *shape, "GPUMemoryGB", code, "Recompute",
                        "LoRAParams", "FTEmbeddingParams", "BaseExpertsPerToken", zero, 1,
                        "UsableMemory", "OptimizerBytes"),
                   label + T(": fewest GPUs", ": mínimo de GPU"), T("GPUs", "GPU"),
                   T("The fewest GPUs at this ZeRO stage whose peak fits within the "
                     "usable share (MIN_GPUS_FOR_TRAINING).",
                     "El mínimo de GPU con esta etapa de ZeRO cuyo pico cabe en la "
                     "parte utilizable (MIN_GPUS_FOR_TRAINING).")),
        ]  # fmt: skip
    chosen = T("The method chosen above.", "El método elegido arriba.")
    rows += [
        Result("MethodMemoryGB", F.CHOOSE(METHOD, Ref("FullMemoryGB"), Ref("LoRAMemoryGB"), Ref("QLoRAMemoryGB")),
               T("Memory per GPU, method chosen", "Memoria por GPU, método elegido"), T("GB", "GB"),
               chosen, fmt=tx.DECIMAL, key=True),
        Result("MethodMinGPUs", F.CHOOSE(METHOD, Ref("FullMinGPUs"), Ref("LoRAMinGPUs"), Ref("QLoRAMinGPUs")),
               T("Fewest GPUs, method chosen", "Mínimo de GPU, método elegido"), T("GPUs", "GPU"),
               chosen),
    ]  # fmt: skip
    return tuple(rows)


def gpu_memory_row() -> Result:
    """The GPU's memory in GB of 10^9 bytes, from the Data sheet."""
    return Result(
        "GPUMemoryGB", call("GPU_MEMORY_GB", "GPUModel"),
        T("GPU memory", "Memoria de la GPU"), T("GB", "GB"),
        T("The bytes the GPU has, in GB of 10^9 bytes (the Data sheet): an '80GB' "
          "part holds 80 GiB, 85.9 GB.",
          "Los bytes de la GPU, en GB de 10^9 bytes (hoja Datos): una pieza de "
          "'80GB' tiene 80 GiB, 85,9 GB."),
        fmt=tx.DECIMAL,
    )  # fmt: skip


def peak_row() -> Result:
    """The GPU's dense peak in the chosen precision, from the Data sheet."""
    return Result(
        "PeakTFLOPS", call("GPU_PEAK_TFLOPS", "GPUModel", "Dtype"),
        T("Peak per GPU", "Pico por GPU"), T("TFLOP/s", "TFLOP/s"),
        T("Dense peak of the GPU model in the chosen precision, from its datasheet "
          "(never the 'with sparsity' figure).",
          "Pico denso del modelo de GPU en la precisión elegida, de su ficha (nunca "
          "la cifra 'con dispersión')."),
        fmt=tx.DECIMAL,
    )  # fmt: skip


MEMORY_CHECK = T("Memory check", "Control de memoria")


def memory_verdicts(label: T = MEMORY_CHECK) -> tuple[Verdict, ...]:
    """The chosen method's memory, judged; the other methods' beside, to compare."""
    chosen = Verdict(
        "MemoryFit", label,
        fit(Ref("MethodMemoryGB"), Ref("GPUMemoryGB"), Ref("UsableMemory"), Ref("MethodMinGPUs")),
    )  # fmt: skip
    compare = tuple(
        Verdict(f"{p}Fit", label + T(" (to compare)", " (para comparar)"),
                fit(Ref(f"{p}MemoryGB"), Ref("GPUMemoryGB"), Ref("UsableMemory"), Ref(f"{p}MinGPUs"),
                    judged=False), judged=False)
        for p, label in (("Full", T("Full fine-tuning", "Ajuste completo")),
                         ("LoRA", T("LoRA", "LoRA")), ("QLoRA", T("QLoRA", "QLoRA")))
    )  # fmt: skip
    return (chosen, *compare)


def estimate_rows(
    seq: str = "SeqLen", *, peak: bool = True, mfu: str = "MFU"
) -> tuple[Result, ...]:
    """Tokens per second a GPU fine-tunes at, estimated from the model, the GPU's
    dense peak and an MFU, the attention's FLOPs at ``seq`` tokens counted; LoRA
    and QLoRA at the LoRASpeedup typed. ``peak`` False: the template shows
    PeakTFLOPS elsewhere."""
    return (
        *((peak_row(),) if peak else ()),
        Result("MethodSpeedup", F.CHOOSE(METHOD, 1, Ref("LoRASpeedup"), Ref("LoRASpeedup")),
               T("Speed against full fine-tuning", "Velocidad frente al ajuste completo"), T("×", "×"),
               T("1 for full fine-tuning; the LoRA and QLoRA speed typed above for them.",
                 "1 en el ajuste completo; la velocidad de LoRA y QLoRA escrita arriba "
                 "para ellos."), fmt=tx.TWO),
        Result("EstimatedTokensPerSec",
               call("TOKENS_PER_SEC_PER_GPU", "BaseActiveParams", "PeakTFLOPS", mfu,
                    "BaseLayers", "BaseAttentionWidth", seq)
               * Ref("MethodSpeedup"),
               T("Estimated tokens/s per GPU", "Tokens/s por GPU estimados"), T("tokens/s", "tokens/s"),
               T("MFU × peak ÷ (6 × parameters per token + the attention's 12 × layers × "
                 "attention width × sequence length), times the method's speed.",
                 "MFU × pico ÷ (6 × parámetros por token + la atención, 12 × capas × "
                 "anchura de atención × longitud de secuencia), por la velocidad del "
                 "método."),
               fmt=tx.COUNT),
    )  # fmt: skip


_TERMS = {
    "mfu": T("MFU (model FLOPs utilisation): the share of a GPU's peak arithmetic a run "
          "turns into model work; 35-55 % is typical.",
          "MFU (utilización de FLOPs del modelo): la parte del pico de una GPU que un "
          "entrenamiento convierte en trabajo útil; 35-55 % es lo habitual."),
    "pf_day": T("PF/s-day: 10^15 operations a second for a day (8.64 × 10^19 FLOPs), the "
          "unit of training compute.",
          "PF/s-día: 10^15 operaciones por segundo durante un día (8,64 × 10^19 "
          "FLOPs), la unidad del cómputo de entrenamiento."),
    "zero": T("ZeRO: sharding weights, gradients and optimizer states over the GPUs, at "
          "stage 1, 2 or 3 (Rajbhandari et al. 2020).",
          "ZeRO: repartir pesos, gradientes y estados del optimizador entre las GPU, "
          "en la etapa 1, 2 o 3 (Rajbhandari et al. 2020)."),
    "lora": T("LoRA, QLoRA: training small adapters on a frozen 16-bit or 4-bit model: "
          "far less memory than full fine-tuning.",
          "LoRA, QLoRA: entrenar adaptadores pequeños sobre un modelo congelado de 16 "
          "o 4 bits: mucha menos memoria que el ajuste completo."),
    "gpu_hour": T("GPU-hour: one GPU for one hour, what a cloud bills.",
          "GPU-hora: una GPU durante una hora, lo que factura la nube."),
}  # fmt: skip


def glossary(*terms: str) -> Notes:
    """The glossary of the terms a workbook uses, in this order."""
    return Notes(T("Glossary", "Glosario"), tuple(_TERMS[t] for t in terms))


_TRAINING_COST = T("Training cost", "Coste")


def with_contingency(
    cost: Expr,
    costs: tuple[str, ...],
    what: Text = _TRAINING_COST,
    more: tuple[str, ...] = (),
) -> Figures:
    """The summary's money: the all-in total first, the ``costs`` (names of
    results) it adds up, the contingency on them, ``more`` money outside the
    total, and the price they rest on."""
    money = T("{currency}", "{currency}")
    total_row = Result(
        "TotalCost", cost * (1 + Ref("Contingency")),
        T("Total, with contingency", "Total, con contingencia"), money,
        T(f"{what.en} + contingency.", f"{what.es} + contingencia."),
        fmt=tx.MONEY, key=True,
    )  # fmt: skip
    part = Result(
        "ContingencyCost", cost * Ref("Contingency"),
        T("Contingency", "Contingencia"), money,
        T(f"{what.en} × contingency %.", f"{what.es} × % de contingencia."),
        fmt=tx.MONEY,
    )  # fmt: skip
    rows: tuple[str | Result, ...] = (total_row, *costs, part, *more, "PricePerGPUHour")
    return Figures(T("Money", "Dinero"), rows)


# ------------------------------------------------------------------ a fine-tune's data
# The same three inputs in the fine-tuning workbook and the planner's fine-tune.

TOKENS_PER_EXAMPLE = Input(
    "TokensPerExample", "tokens_per_example", 900,
    T("Tokens per example (T)", "Tokens por ejemplo (T)"), T("tokens", "tokens"),
    T("Mean tokens each example processes: input plus output, plus padding "
      "where it costs compute.",
      "Tokens medios que procesa cada ejemplo: entrada más salida, y el "
      "relleno si consume cómputo."),
)  # fmt: skip

DATASET_EXAMPLES = Input(
    "DatasetExamples", "examples", 100_000,
    T("Dataset size", "Tamaño del conjunto de datos"), T("examples", "ejemplos"),
    T("Examples in the fine-tuning set. A whole number, 1 or more.",
      "Ejemplos del conjunto de ajuste. Un entero, 1 o más."),
    whole=True,
)  # fmt: skip

EPOCHS = Input(
    "Epochs", "epochs", 3,
    T("Epochs", "Épocas"), T("passes", "pasadas"),
    T("Passes over the fine-tuning set; fractions are allowed (1.5).",
      "Pasadas por el conjunto de ajuste; se admiten fracciones (1,5)."),
    fmt=tx.DECIMAL,
)  # fmt: skip

# ------------------------------------------------------------------ sources

SEED_FINETUNE = T(
    "Method: effective throughput = GPUs × tokens/s per GPU × efficiency, and "
    "examples/s = throughput ÷ tokens per example, as the Spanish web calculator "
    "'Estimador de throughput para fine-tuning' (section 'IA, datos y tecnología' of "
    "its calculator collection; search for the title) computes them; its worked "
    "example is 8 GPUs × 2,500 tokens/s × 82 % at 900 tokens per example, 18.22 "
    "examples/s.",
    "Método: rendimiento efectivo = GPU × tokens/s por GPU × eficiencia, y "
    "ejemplos/s = rendimiento ÷ tokens por ejemplo, como los calcula la calculadora "
    "web 'Estimador de throughput para fine-tuning' (sección 'IA, datos y "
    "tecnología' de su colección; búsquela por el título); su ejemplo resuelto es 8 "
    "GPU × 2.500 tokens/s × 82 % con 900 tokens por ejemplo, 18,22 ejemplos/s.",
)
SEED_SIZE = T(
    "Method: C = 6·N·D (Kaplan et al. 2020) with D = 20·N (Hoffmann et al. 2022), "
    "solved for N, as the Spanish web calculator 'Calculadora de tamaño de modelo de "
    "cómputo óptimo' computes it (search for the title); its worked example is "
    "6,000 PF/s-days at 20 tokens per parameter, 65.7 B parameters and 1.31 T tokens.",
    "Método: C = 6·N·D (Kaplan et al. 2020) con D = 20·N (Hoffmann et al. 2022), "
    "despejando N, como lo calcula la calculadora web 'Calculadora de tamaño de "
    "modelo de cómputo óptimo' (búsquela por el título); su ejemplo resuelto es 6.000 "
    "PF/s-días con 20 tokens por parámetro, 65,7 mil millones de parámetros y 1,31 "
    "billones de tokens.",
)
HOFFMANN = T(
    "Hoffmann et al. 2022, 'Training Compute-Optimal Large Language Models' "
    "(Chinchilla), https://arxiv.org/abs/2203.15556",
    "Hoffmann et al. 2022, 'Training Compute-Optimal Large Language Models' "
    "(Chinchilla), https://arxiv.org/abs/2203.15556",
)
KAPLAN = T(
    "Kaplan et al. 2020, 'Scaling Laws for Neural Language Models' (C = 6·N·D), "
    "https://arxiv.org/abs/2001.08361",
    "Kaplan et al. 2020, 'Scaling Laws for Neural Language Models' (C = 6·N·D), "
    "https://arxiv.org/abs/2001.08361",
)
BESIROGLU = T(
    "Besiroglu et al. 2024, 'Chinchilla Scaling: A replication attempt' (the Epoch "
    "fit), https://arxiv.org/abs/2404.10102",
    "Besiroglu et al. 2024, 'Chinchilla Scaling: A replication attempt' (el ajuste "
    "de Epoch), https://arxiv.org/abs/2404.10102",
)
PALM = T(
    "Chowdhery et al. 2022, 'PaLM: Scaling Language Modeling with Pathways', "
    "appendix B (model FLOPs utilisation), https://arxiv.org/abs/2204.02311",
    "Chowdhery et al. 2022, 'PaLM: Scaling Language Modeling with Pathways', "
    "apéndice B (utilización de FLOPs del modelo), https://arxiv.org/abs/2204.02311",
)
DATASHEETS = T(
    "Accelerators: each vendor's datasheet, cited per accelerator on the Data sheet "
    "(dense figures: NVIDIA prints tensor-core figures with sparsity, twice as high; "
    "memory as nvidia-smi reports it or the datasheet's binary size).",
    "Aceleradores: la ficha técnica de cada fabricante, citada por acelerador en la "
    "hoja Datos (cifras densas: NVIDIA imprime las de los núcleos tensoriales con "
    "dispersión, el doble; memoria según nvidia-smi o el tamaño binario de la ficha).",
)
MEMORY_SOURCES = T(
    "Memory: Rajbhandari et al. 2020, 'ZeRO', https://arxiv.org/abs/1910.02054; "
    "Korthikanti et al. 2022, 'Reducing Activation Recomputation in Large "
    "Transformer Models', https://arxiv.org/abs/2205.05198; Dettmers et al. 2023, "
    "'QLoRA', https://arxiv.org/abs/2305.14314",
    "Memoria: Rajbhandari et al. 2020, 'ZeRO', https://arxiv.org/abs/1910.02054; "
    "Korthikanti et al. 2022, 'Reducing Activation Recomputation in Large "
    "Transformer Models', https://arxiv.org/abs/2205.05198; Dettmers et al. 2023, "
    "'QLoRA', https://arxiv.org/abs/2305.14314",
)
CONTINGENCY_CITE = T(
    "Contingency: " + CONTINGENCY_SOURCE + ": 466 job interruptions in 54 days, "
    "over 90 % effective training time; 1/0.9 = 1.11.",
    "Contingencia: " + CONTINGENCY_SOURCE + ": 466 interrupciones en 54 días, "
    "más del 90 % del tiempo entrenando; 1/0,9 = 1,11.",
)
LORA_CITE = T(
    "LoRA's speed: " + LORA_SOURCE + ".",
    "Velocidad de LoRA (fuentes citadas en su idioma original): " + LORA_SOURCE + ".",
)
PRICES = T(
    "Prices: the price band that flags a price is public on-demand and spot prices "
    "(CoreWeave, Lambda, AWS, Google Cloud, Azure price pages, late 2026); the "
    "price you type is your own. Exchange rates: ECB reference rates, 2024 averages.",
    "Precios: la banda que señala un precio son los precios públicos bajo demanda y "
    "spot (páginas de precios de CoreWeave, Lambda, AWS, Google Cloud y Azure, "
    "finales de 2026); el precio que escribe es el suyo. Tipos de cambio: tipos de "
    "referencia del BCE, medias de 2024.",
)

SOURCES_FINETUNE = (SEED_FINETUNE, MEMORY_SOURCES, LORA_CITE, PALM, DATASHEETS,
                    CONTINGENCY_CITE, PRICES)  # fmt: skip
SOURCES_SIZE = (SEED_SIZE, HOFFMANN, KAPLAN, PALM, CONTINGENCY_CITE, PRICES)
SERVING_CITE = T(
    "Serving: " + SERVING_SOURCE + "; API prices: " + API_8B.source,
    "Servicio: " + SERVING_SOURCE + "; precios de API: " + API_8B.source,
)
SOURCES_PLANNER = (SEED_SIZE, SEED_FINETUNE, HOFFMANN, BESIROGLU, KAPLAN, PALM,
                   MEMORY_SOURCES, LORA_CITE, DATASHEETS, CONTINGENCY_CITE, PRICES,
                   SERVING_CITE)  # fmt: skip

__all__ = [
    "with_contingency",
    "DATASET_EXAMPLES",
    "EPOCHS",
    "TOKENS_PER_EXAMPLE",
    "CONTINGENCY_INPUT",
    "CURRENCY",
    "DTYPE",
    "FT_METHOD",
    "FT_MODEL",
    "glossary",
    "GPU_MODEL",
    "METHOD",
    "FT_MFU",
    "MFU",
    "OPTIMIZER",
    "LORA_SPEED",
    "mfu_checks",
    "PRICE",
    "SOURCE",
    "USABLE",
    "estimate_rows",
    "looked_up",
    "memory_rows",
    "RECOMPUTE",
    "memory_verdicts",
    "shape_rows",
]


HOURS_A_YEAR = 8_760


def time_checks(name: str, per_year: float = HOURS_A_YEAR) -> tuple[Check, Check]:
    """A run's duration judged: over five years no plan runs (an error, so a
    slipped unit cannot read OK), over a year is rare (a warning). ``per_year``
    is the duration's unit per year: 8,760 hours or 365 days."""
    return (
        Check(Ref(name).le(5 * per_year),
              T("Error: over five years; no plan runs that long: check the inputs",
                "Error: más de cinco años; ningún plan dura tanto: revise los datos")),
        Check(Ref(name).le(per_year),
              T("Warning: longer than a year", "Aviso: más de un año"), error=False),
    )  # fmt: skip
