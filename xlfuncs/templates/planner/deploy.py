"""The planner after pre-training: a fine-tune of a published model on some of
the cluster's GPUs (its speed, time, cost and memory, from the rows the
fine-tuning workbook uses), serving it (the GPUs a traffic needs, the cost per
million tokens and per month), and the energy and emissions of the runs.
"""

from __future__ import annotations

import dataclasses

from ...data.prices import API_8B
from ...data.serving import REQUEST_MS
from ...registry.domains import Domain
from .. import texts as tx
from ..blocks import Check, Input, Inputs, Result, Results, Verdict
from ..checks import figure
from ..expr import F, Ref, Say, call
from ..shared import (
    API_PRICE_INPUT,
    API_PRICE_OUTPUT,
    DATASET_EXAMPLES,
    EPOCHS,
    FT_METHOD,
    FT_MFU,
    FT_MODEL,
    HOURS_IN_A_MONTH,
    LORA_SPEED,
    PEAK_TO_AVERAGE,
    PREFILL_MFU_INPUT,
    SERVING_BATCH,
    SERVING_UTILIZATION,
    TOKENS_PER_EXAMPLE,
    estimate_rows,
    memory_rows,
    memory_verdicts,
    shape_rows,
    time_checks,
)
from ..texts import T

SECONDS_A_DAY = 86_400

FT_INPUTS = Inputs(
    T("Fine-tuning on this cluster", "Ajuste fino en este clúster"),
    (
        FT_MODEL,
        FT_METHOD,
        Input(
            "FTGPUs", "gpus", 8,
            T("GPUs for the fine-tune", "GPU del ajuste fino"), T("GPUs", "GPU"),
            T("GPUs of the model above that fine-tune, often one server's 8. A whole "
              "number, 1 or more.",
              "GPU del modelo de arriba que hacen el ajuste, a menudo las 8 de un "
              "servidor. Un entero, 1 o más."),
            whole=True,
        ),
        Input(
            "FTEfficiency", "efficiency", 0.9,
            T("Scaling efficiency", "Eficiencia de escalado"), T("% of ideal", "% del ideal"),
            T("Share of ideal linear scaling the fine-tune reaches: losses to "
              "communication, evaluation and short sequences the MFU does not count.",
              "Parte del escalado lineal ideal que alcanza el ajuste: pérdidas por "
              "comunicación, evaluación y secuencias cortas que la MFU no cuenta."),
            fmt=tx.PERCENT_FMT,
        ),
        dataclasses.replace(FT_MFU, name="FTMFU"),
        TOKENS_PER_EXAMPLE,
        DATASET_EXAMPLES,
        EPOCHS,
        Input(
            "FTSeqLen", "seq_len", 2048,
            T("Fine-tune sequence length", "Longitud de secuencia del ajuste"), T("tokens", "tokens"),
            T("The longest sequence a batch is padded to (not the mean).",
              "La secuencia más larga a la que se rellena un lote (no la media)."),
        ),
        Input(
            "FTMicroBatch", "micro_batch", 4,
            T("Fine-tune micro-batch per GPU", "Microlote por GPU del ajuste"), T("sequences", "secuencias"),
            T("Sequences each GPU holds at once. A whole number, 1 or more.",
              "Secuencias que procesa cada GPU a la vez. Un entero, 1 o más."),
        ),
        Input(
            "FTZeroStage", "zero_stage", 3,
            T("Fine-tune ZeRO stage", "Etapa de ZeRO del ajuste"), T("0 to 3", "0 a 3"),
            T("How the fine-tune's GPUs share the model state: 3 shards weights, "
              "gradients and optimizer states; LoRA and QLoRA shard their frozen weights "
              "at 3 too.",
              "Cómo se reparten el estado del modelo las GPU del ajuste: 3 reparte "
              "pesos, gradientes y estados del optimizador; LoRA y QLoRA reparten también "
              "sus pesos congelados en la 3."),
        ),
        Input(
            "LoRARank", "rank", 16,
            T("LoRA rank (r)", "Rango de LoRA (r)"), T("dimensions", "dimensiones"),
            T("Rank of the adapters on every linear layer (q, k, v, o, gate, up, down).",
              "Rango de los adaptadores en todas las capas lineales (q, k, v, o, gate, "
              "up, down)."),
        ),
        LORA_SPEED,
    ),
)  # fmt: skip

FT_SHAPE = Results(
    T("The fine-tuned model's shape", "La forma del modelo ajustado"),
    shape_rows(),
    steps=True,
)

_FT = ("FTGPUs", "EstimatedTokensPerSec", "FTEfficiency")
_RUN = ("DatasetExamples", "Epochs", *_FT, "TokensPerExample")

FT = Results(
    T("Fine-tuning: results", "Ajuste fino: resultados"),
    (
        *estimate_rows("FTSeqLen", peak=False, mfu="FTMFU"),
        Result(
            "FTExamplesPerSec", call("FT_EXAMPLES_PER_SEC", *_FT, "TokensPerExample"),
            T("Examples per second", "Ejemplos por segundo"), T("examples/s", "ejemplos/s"),
            T("GPUs × tokens/s per GPU × efficiency ÷ tokens per example.",
              "GPU × tokens/s por GPU × eficiencia ÷ tokens por ejemplo."),
            fmt=tx.TWO,
        ),
        Result(
            "FTTrainingHours", call("FT_TRAINING_HOURS", *_RUN),
            T("Fine-tune time", "Duración del ajuste"), T("hours", "horas"),
            T("Dataset × epochs × tokens per example ÷ (GPUs × tokens/s per GPU × "
              "efficiency) ÷ 3,600.",
              "Conjunto × épocas × tokens por ejemplo ÷ (GPU × tokens/s por GPU × "
              "eficiencia) ÷ 3.600."),
            fmt=tx.DURATION, key=True, checks=time_checks("FTTrainingHours"),
        ),
        Result(
            "FTGPUHours", call("FT_GPU_HOURS", *_RUN),
            T("Fine-tune GPU-hours", "GPU-horas del ajuste"), T("GPU-hours", "GPU-horas"),
            T("Fine-tune time × GPUs.", "Duración del ajuste × GPU."), fmt=tx.TWO,
        ),
        Result(
            "FTCost", call("FT_COST", *_RUN, "PricePerGPUHour"),
            T("Fine-tune cost", "Coste del ajuste"), T("{currency}", "{currency}"),
            T("Fine-tune GPU-hours × price per GPU-hour, before contingency.",
              "GPU-horas del ajuste × precio por GPU-hora, sin contingencia."),
            fmt=tx.MONEY, key=True,
        ),
    ),
)  # fmt: skip

FT_MEMORY = Results(
    T("Fine-tuning: memory per GPU", "Ajuste fino: memoria por GPU"),
    memory_rows("FTGPUs", "FTSeqLen", "FTMicroBatch", "FTZeroStage", gpu_memory=False),
    verdicts=memory_verdicts(T("Memory check, fine-tune", "Control de memoria, ajuste")),
)  # fmt: skip

SERVING_INPUTS = Inputs(
    T("Serving the fine-tuned model", "Servir el modelo ajustado"),
    (
        Input(
            "ServingRequests", "", 432_000,
            T("Requests a day", "Peticiones al día"), T("requests/day", "peticiones/día"),
            T("Requests the service answers on an average day, over all users: the "
              "month's tokens, and with the peak over the average below, the busiest "
              "hour's.",
              "Peticiones que atiende el servicio un día medio, sumando todos los "
              "usuarios: los tokens del mes y, con la punta sobre la media de abajo, "
              "los de la hora de más uso."),
            fmt="#,##0", domain=Domain(0.0, 1e15, False, True, "be a positive number"),
            typical=(1, 1e10),
        ),
        Input(
            "ServingPrompt", "prompt_tokens", 1_000,
            T("Prompt a request", "Entrada por petición"), T("tokens", "tokens"),
            T("A request's prompt and context, on average: its processing delays the "
              "first token and takes the replica's time.",
              "La entrada y el contexto de una petición, de media: procesarla retrasa "
              "el primer token y ocupa la réplica."),
        ),
        Input(
            "ServingOutput", "output_tokens", 500,
            T("Output a request", "Salida por petición"), T("tokens", "tokens"),
            T("The tokens a request generates, on average.",
              "Los tokens que genera una petición, de media."),
        ),
        Input(
            "ServingPrecision", "precision", "bf16",
            T("Serving precision", "Precisión de servicio"), T("weights", "pesos"),
            T("The weights' precision: bf16, fp16, fp8, int8, int4, or fp4 on Blackwell. "
              "fp8 and fp4 keep the key/value cache in fp8, the others in 16 bits.",
              "La precisión de los pesos: bf16, fp16, fp8, int8, int4, o fp4 en "
              "Blackwell. fp8 y fp4 guardan la caché de claves/valores en fp8; las "
              "demás, en 16 bits."),
            kind="list", keys="PrecisionNames", menu="PrecisionNames",
        ),
        Input(
            "ServingReplicaGPUs", "gpus", 1,
            T("GPUs per replica", "GPU por réplica"), T("GPUs", "GPU"),
            T("GPUs that hold one copy of the model (tensor parallel); raise it when "
              "the weights do not fit one GPU, best to a number that divides the "
              "model's heads.",
              "GPU que guardan una copia del modelo (paralelismo tensorial); súbalo si "
              "los pesos no caben en una GPU, mejor a un número que divida las cabezas "
              "del modelo."),
            whole=True,
            rules=(Check(F.IF(F.AND(F.ISNUMBER(Ref("BaseHeads")),
                                     F.ISNUMBER(Ref("ServingReplicaGPUs")),
                                     Ref("ServingReplicaGPUs").ge(1)),
                               F.MOD(Ref("BaseHeads"), Ref("ServingReplicaGPUs")).eq(0),
                               True),
                         T("Warning: these GPUs do not divide the model's attention "
                           "heads: tensor parallelism splits them evenly, and servers "
                           "refuse it",
                           "Aviso: estas GPU no dividen las cabezas de atención del "
                           "modelo: el paralelismo tensorial las reparte por igual, y "
                           "los servidores lo rechazan"), error=False),),
        ),
        Input(
            "ServingLatency", "ms_per_token", None,
            T("Latency target", "Latencia objetivo"), T("ms/token", "ms/token"),
            T("The most milliseconds a user waits for each output token (TPOT): it caps "
              "the batch. Blank: none.",
              "Los milisegundos que como mucho espera un usuario por token de salida "
              "(TPOT): limita el lote. En blanco: ninguno."),
            blank=True,
        ),
        SERVING_BATCH,
        SERVING_UTILIZATION,
        PREFILL_MFU_INPUT,
        Input(
            "RequestMs", "request_ms", REQUEST_MS,
            T("Fixed time a request", "Tiempo fijo por petición"), T("ms", "ms"),
            T("What a request costs besides its prompt (scheduling, tokenizing, the "
              "first step): 8 ms, from NVIDIA NIM's measured times to first token.",
              "Lo que cuesta una petición además de su entrada (planificar, tokenizar, "
              "el primer paso): 8 ms, de los tiempos medidos de NVIDIA NIM hasta el "
              "primer token."),
            fmt=tx.TWO,
        ),
        PEAK_TO_AVERAGE,
        # The default fine-tune is an 8 B model: its API prices.
        dataclasses.replace(API_PRICE_INPUT, default=API_8B.input),
        dataclasses.replace(API_PRICE_OUTPUT, default=API_8B.output),
    ),
)  # fmt: skip

# A replica's output tokens/s is SERVING_TOKENS_PER_SEC (docs/serving.md): its
# parts are results of their own, each the library's function on the model's
# shape and the GPU's figures at the serving precision, and the replica's
# formula reads them.
_SHAPE = ("BaseParams", "BaseActiveParams", "BaseLayers", "BaseCacheWidth",
          "BaseAttentionWidth", "BaseWidth", "BaseExperts", "BaseExpertsPerToken")  # fmt: skip
_CONTEXT = (
    Ref("ServingPrompt") + Ref("ServingOutput") / 2
)  # a sequence's average context
_LENGTH = Ref("ServingPrompt") + Ref("ServingOutput")  # a request's whole length
_GPU = ("GPUMemoryGB", "ServingBandwidth", "ServingPeakTFLOPS", "ServingReplicaGPUs")
_BYTES = ("ServingWeightBytes", "ServingBatch", "ServingLatencyUsed", "ServingUtilization",
          "PrefillMFU", "ServingCacheBytes", "BaseCacheHeads", "BaseWindow",
          "BaseWindowedLayers")  # fmt: skip
_CACHE = ("ServingCacheBytes", "BaseCacheHeads", "BaseWindow", "BaseWindowedLayers")
# Tensor parallel (no expert parallelism), and the cache's share of what the
# weights leave: the Usable GPU memory input, as every memory check.
_SHARE = (0, "UsableMemory")

_TOO_LONG = Say(
    T(
        "Error: a request (prompt and output) is longer than the model's context",
        "Error: una petición (entrada y salida) es más larga que el contexto "
        "del modelo",
    )
)
_NO_ROOM = Say(
    T(
        "Error: the weights leave no room for a request in a replica's usable "
        "memory: more GPUs per replica, or a smaller precision",
        "Error: los pesos no dejan sitio a una petición en la memoria "
        "utilizable de una réplica: más GPU por réplica o una precisión menor",
    )
)
# A request past the context first (where its lengths are numbers); then the
# batch: a number, or none fits (the inputs' own checks say where one is not
# valid, before this verdict).
_LONG = F.IF(
    F.AND(
        F.ISNUMBER(Ref("ServingPrompt")),
        F.ISNUMBER(Ref("ServingOutput")),
        F.ISNUMBER(Ref("BaseContext")),
    ),
    _LENGTH.gt(Ref("BaseContext")),
    False,
)
# A latency target no batch meets (one request's step misses it) before no room.
_NO_LATENCY = F.AND(F.ISNUMBER(Ref("ServingLatency")), Ref("ServingLatency").gt(0),
                    F.NOT(F.ISNUMBER(Ref("ServingLatencyBatch"))))  # fmt: skip
_SERVING_FIT = F.IF(
    _LONG, _TOO_LONG,
    F.IF(F.ISNUMBER(Ref("ServingBatchUsed")), Say(tx.OK),
         F.IF(_NO_LATENCY, Say(tx.NO_LATENCY_BATCH[0]).cat(
             figure(Ref("ServingLatency"), 0), tx.NO_LATENCY_BATCH[1]), _NO_ROOM)),
)  # fmt: skip

SERVING = Results(
    T("Serving: results", "Servicio: resultados"),
    (
        *shape_rows(serving=True)[-4:],
        Result("ServingPeakTFLOPS", call("SERVING_PEAK_TFLOPS", "GPUModel", "ServingPrecision"),
               T("Peak at the serving precision", "Pico a la precisión de servicio"),
               T("TFLOP/s", "TFLOP/s"),
               T("The GPU's dense peak for the precision's products (the Data sheet; "
                 "int4 runs at bf16's): prompts are compute-bound.",
                 "El pico denso de la GPU para los productos de la precisión (hoja "
                 "Datos; int4 va al de bf16): las entradas dependen del cómputo."),
               fmt=tx.DECIMAL),
        Result("ServingWeightBytes", call("SERVING_WEIGHT_BYTES", "ServingPrecision"),
               T("Bytes a weight", "Bytes por peso"), T("bytes", "bytes"),
               T("The precision's bits ÷ 8 (fp4: 4.5 bits with its scales).",
                 "Los bits de la precisión ÷ 8 (fp4: 4,5 bits con sus escalas)."),
               fmt=tx.TWO),
        Result("ServingCacheBytes", call("SERVING_CACHE_BYTES", "ServingPrecision"),
               T("Bytes a cached value", "Bytes por valor en caché"), T("bytes", "bytes"),
               T("1 where fp8 or fp4 weights keep an fp8 cache, else 2.",
                 "1 si los pesos fp8 o fp4 guardan la caché en fp8; si no, 2."),
               fmt=tx.TWO),
        Result("ServingBandwidth", call("GPU_BANDWIDTH_TBS", "GPUModel"),
               T("Memory bandwidth", "Ancho de banda de memoria"), T("TB/s", "TB/s"),
               T("From its datasheet: decoding reads every weight once a step.",
                 "De su ficha: decodificar lee cada peso una vez por paso."), fmt=tx.TWO),
        Result("ServingLink", call("GPU_INTERCONNECT_GBS", "GPUModel"),
               T("Link between GPUs", "Enlace entre GPU"), T("GB/s", "GB/s"),
               T("NVLink or its like, both ways: a replica of several GPUs all-reduces "
                 "each layer's output.",
                 "NVLink o similar, en ambos sentidos: una réplica de varias GPU suma "
                 "la salida de cada capa (all-reduce)."), fmt="#,##0"),
        Result("ServingLatencyUsed", F.IF(F.ISBLANK(Ref("ServingLatency")), 0,
                                          Ref("ServingLatency")),
               T("Latency target used (0: none)", "Latencia objetivo usada (0: ninguna)"),
               T("ms/token", "ms/token"),
               T("The target, or 0 for none.", "La objetivo, o 0 si no hay."),
               fmt=tx.TWO),
        Result("KVCacheGB",
               call("MODEL_KV_CACHE_GB", "FTModel", _LENGTH, 1, "ServingCacheBytes"),
               T("Key/value cache a request", "Caché de claves/valores por petición"),
               T("GB", "GB"),
               T("Layers × cached values a token and layer × a request's whole length "
                 "(prompt and output; a windowed layer's window) × bytes a value.",
                 "Capas × valores en caché por token y capa × la longitud entera de una "
                 "petición (entrada y salida; la ventana en una capa con ventana) × "
                 "bytes por valor."),
               fmt=tx.TWO),
        Result("ServingLatencyBatch",
               F.IF(F.ISBLANK(Ref("ServingLatency")), Ref("ServingBatch"),
                    call("LATENCY_BATCH", *_SHAPE, "ServingBandwidth", "ServingPeakTFLOPS",
                         "ServingReplicaGPUs", "ServingPrompt", "ServingOutput",
                         "ServingLatency", "ServingLink", "ServingWeightBytes",
                         "ServingUtilization", "PrefillMFU", *_CACHE)),
               T("Most requests the latency allows", "Máximo de peticiones que permite la latencia"),
               T("requests", "peticiones"),
               T("The largest batch whose steps, with the prompts the batch's requests "
                 "put into them, meet the latency target (the largest batch when there "
                 "is none).",
                 "El mayor lote cuyos pasos, con las entradas que meten en ellos sus "
                 "peticiones, cumplen la latencia objetivo (el lote máximo si no hay)."),
               holds="LATENCY_BATCH"),
        Result("ServingBatchUsed",
               call("REPLICA_BATCH", *_SHAPE, *_GPU, "ServingPrompt", "ServingOutput",
                    "ServingLink", *_BYTES, *_SHARE),
               T("Requests decoded together", "Peticiones decodificadas juntas"),
               T("requests", "peticiones"),
               T("The least of what fits the usable share (Usable GPU memory) of the "
                 "memory a replica's weights leave, the largest batch and what the "
                 "latency allows (its steps shared with the prompts).",
                 "El menor de lo que cabe en la parte utilizable (Memoria de GPU "
                 "utilizable) de la memoria que dejan los pesos de una réplica, el lote "
                 "máximo y lo que permite la latencia (sus pasos compartidos con las "
                 "entradas)."),
               holds="REPLICA_BATCH"),
        Result("ServingPrefillMs",
               call("REPLICA_PREFILL_MS", "BaseActiveParams", "BaseLayers", "BaseAttentionWidth",
                    "BaseWidth", "ServingPeakTFLOPS", "ServingReplicaGPUs", "ServingPrompt",
                    "ServingLink", "PrefillMFU", "BaseWindow", "BaseWindowedLayers"),
               T("Prompt time", "Tiempo de entrada"), T("ms a request", "ms por petición"),
               T("2 FLOPs a parameter and token of the prompt at the prompt MFU, and the "
                 "replica's all-reduces.",
                 "2 FLOPs por parámetro y token de la entrada a la MFU de entradas, y las "
                 "sumas de la réplica."),
               fmt=tx.TWO, holds="REPLICA_PREFILL_MS"),
        Result("ServingFirstTokenMs",
               call("TIME_TO_FIRST_TOKEN_MS", "FTModel", "GPUModel", "ServingReplicaGPUs",
                    "ServingPrompt", "ServingPrecision", "RequestMs"),
               T("Time to first token", "Tiempo hasta el primer token"), T("ms", "ms"),
               T("The prompt's time and what a request costs besides, when a replica is "
                 "free: TIME_TO_FIRST_TOKEN_MS.",
                 "El tiempo de la entrada y lo que cuesta además cada petición, con la "
                 "réplica libre: TIME_TO_FIRST_TOKEN_MS."),
               fmt=tx.TWO),
        Result("ServingStepMs",
               call("REPLICA_STEP_MS", *_SHAPE, "ServingBandwidth",
                    "ServingPeakTFLOPS", "ServingReplicaGPUs", "ServingBatchUsed", _CONTEXT,
                    "ServingLink", "ServingWeightBytes", "ServingUtilization", "PrefillMFU",
                    *_CACHE),
               T("Decode step", "Paso de decodificación"), T("ms", "ms"),
               T("A step reads the weights and the batch's cache at the bandwidth reached "
                 "(or computes, when slower), plus the all-reduces.",
                 "Un paso lee los pesos y la caché del lote al ancho de banda alcanzado (o "
                 "calcula, si es más lento), más las sumas."),
               fmt=tx.TWO, holds="REPLICA_STEP_MS"),
        Result("ServingReplicaTokensPerSec",
               call("REPLICA_TOKENS_PER_SEC", *_SHAPE, *_GPU, "ServingPrompt",
                    "ServingOutput", "ServingLink", *_BYTES, *_SHARE),
               T("Output tokens/s per replica", "Tokens de salida/s por réplica"),
               T("tokens/s", "tokens/s"),
               T("A batch of requests, each its prompt once and then one token a step: "
                 "SERVING_TOKENS_PER_SEC, checked against measured runs (docs/serving.md).",
                 "Un lote de peticiones, cada una su entrada una vez y luego un token por "
                 "paso: SERVING_TOKENS_PER_SEC, contrastado con ejecuciones medidas "
                 "(docs/serving.md)."), fmt="#,##0"),
        Result(
            "ServingTokensPerSec",
            Ref("ServingRequests") * Ref("ServingOutput") / SECONDS_A_DAY
            * Ref("PeakToAverage"),
            T("Output tokens/s at the peak", "Tokens de salida/s en la punta"),
            T("tokens/s", "tokens/s"),
            T("Requests a day × output a request ÷ 86,400 s × the peak over the "
              "average: the busiest hour's rate.",
              "Peticiones al día × salida por petición ÷ 86.400 s × la punta sobre la "
              "media: el ritmo de la hora de más uso."),
            fmt="#,##0",
        ),
        Result(
            "ServingGPUs",
            call("SERVING_GPUS", "ServingTokensPerSec", "ServingReplicaTokensPerSec", 1)
            * Ref("ServingReplicaGPUs"),
            T("GPUs to serve the peak", "GPU para servir la punta"), T("GPUs", "GPU"),
            T("Whole replicas the peak needs, times the GPUs of a replica.",
              "Réplicas enteras que necesita la punta, por las GPU de una réplica."),
            key=True,
        ),
        Result(
            "ServingCostPerMTok",
            call("SERVING_COST_PER_MTOK", "PricePerGPUHour",
                 Ref("ServingTokensPerSec") / Ref("PeakToAverage") / Ref("ServingGPUs")),
            T("Cost per million output tokens, the month's average",
              "Coste por millón de tokens de salida, media del mes"),
            T("{currency}/M tokens", "{currency}/M tokens"),
            T("Price per GPU-hour ÷ the tokens each GPU held generates in an hour at "
              "the average traffic (the peak ÷ the peak over the average), × "
              "1,000,000: the monthly cost over the month's output tokens.",
              "Precio por GPU-hora ÷ los tokens que genera en una hora cada GPU "
              "reservada al tráfico medio (la punta ÷ la punta sobre la media), × "
              "1.000.000: el coste mensual entre los tokens de salida del mes."),
            fmt=tx.MONEY,
        ),
        HOURS_IN_A_MONTH,
        Result(
            "ServingMonthlyCost",
            Ref("ServingGPUs") * Ref("PricePerGPUHour") * Ref("HoursAMonth"),
            T("Serving cost per month", "Coste mensual del servicio"), T("{currency}/month", "{currency}/mes"),
            T("GPUs × price per GPU-hour × 730 hours: the peak's GPUs kept all month.",
              "GPU × precio por GPU-hora × 730 horas: las GPU de la punta todo el mes."),
            fmt=tx.MONEY, key=True,
        ),
        Result(
            "ServingApiMonthlyCost",
            Ref("ServingRequests") * Ref("HoursAMonth") / 24
            * (Ref("ServingPrompt") * Ref("ApiPriceInput")
               + Ref("ServingOutput") * Ref("ApiPriceOutput")) / 1e6,
            T("The same requests through an API", "Las mismas peticiones con una API"),
            T("{currency}/month", "{currency}/mes"),
            T("A month's requests (30.4 days), prompts and output, at the API prices: "
              "build or buy.",
              "Las peticiones de un mes (30,4 días), entradas y salidas, a los precios "
              "de la API: hacer o comprar."),
            fmt=tx.MONEY, key=True,
        ),
    ),
    verdicts=(Verdict("ServingFit", T("Check, serving", "Control, servicio"),
                      _SERVING_FIT),),
)  # fmt: skip

ENERGY_INPUTS = Inputs(
    T("Energy and emissions", "Energía y emisiones"),
    (
        Input(
            "PUE", "pue", 1.2,
            T("Power usage effectiveness (PUE)", "Eficiencia energética (PUE)"), T("ratio", "ratio"),
            T("The data centre's total power over its IT power: 1.1-1.2 for modern "
              "sites (Google reports 1.10), 1.58 on average (Uptime Institute 2023).",
              "Potencia total del centro de datos entre la de TI: 1,1-1,2 en centros "
              "modernos (Google declara 1,10), 1,58 de media (Uptime Institute 2023)."),
            fmt=tx.TWO,
        ),
        Input(
            "GridIntensity", "kg_co2_per_kwh", 0.37,
            T("Grid carbon intensity", "Intensidad de carbono de la red"), T("kg CO2e/kWh", "kg CO2e/kWh"),
            T("Of the electricity the cluster uses: 0.37 for the US average (EIA "
              "2023), 0.02 for France (RTE 2024); your provider may publish it.",
              "De la electricidad del clúster: 0,37 de media en EE. UU. (EIA 2023), "
              "0,02 en Francia (RTE 2024); su proveedor puede publicarla."),
            fmt="0.000",
        ),
    ),
)  # fmt: skip

_TOTAL = T("Pre-training and fine-tune.", "Preentrenamiento y ajuste.")

ENERGY = Results(
    T("Energy and emissions: results", "Energía y emisiones: resultados"),
    (
        Result(
            "GPUPowerW", call("GPU_POWER_W", "GPUModel"),
            T("Power per GPU", "Potencia por GPU"), T("W", "W"),
            T("The GPU's board power (TDP) from its datasheet: an upper bound of its "
              "draw.",
              "Potencia de la tarjeta (TDP) según su ficha: un máximo de su consumo."),
        ),
        Result(
            "PretrainEnergyMWh", call("TRAINING_ENERGY_MWH", "PretrainGPUHours", "GPUPowerW", "PUE"),
            T("Energy, pre-training", "Energía, preentrenamiento"), T("MWh", "MWh"),
            T("GPU-hours × power × PUE ÷ 10^6 (Luccioni et al. 2022's method for "
              "BLOOM).",
              "GPU-horas × potencia × PUE ÷ 10^6 (el método de Luccioni et al. 2022 "
              "para BLOOM)."),
            fmt=tx.DECIMAL,
        ),
        Result(
            "FTEnergyMWh", call("TRAINING_ENERGY_MWH", "FTGPUHours", "GPUPowerW", "PUE"),
            T("Energy, fine-tune", "Energía, ajuste"), T("MWh", "MWh"),
            T("The same for the fine-tune's GPU-hours.", "Lo mismo para las GPU-horas del ajuste."),
            fmt=tx.TWO,
        ),
        Result(
            "EnergyMWh", Ref("PretrainEnergyMWh") + Ref("FTEnergyMWh"),
            T("Energy", "Energía"), T("MWh", "MWh"), _TOTAL, fmt=tx.DECIMAL, key=True,
        ),
        Result(
            "CO2Tonnes", call("TRAINING_CO2_TONNES", "EnergyMWh", "GridIntensity"),
            T("Emissions", "Emisiones"), T("t CO2e", "t CO2e"),
            T("Energy × grid carbon intensity.", "Energía × intensidad de carbono de la red."),
            fmt=tx.DECIMAL, key=True,
        ),
    ),
)  # fmt: skip

__all__ = [
    "ENERGY",
    "ENERGY_INPUTS",
    "FT",
    "FT_INPUTS",
    "FT_MEMORY",
    "FT_SHAPE",
    "SERVING",
    "SERVING_INPUTS",
]
