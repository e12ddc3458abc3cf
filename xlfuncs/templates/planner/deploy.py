"""The planner after pre-training: a fine-tune of a published model on some of
the cluster's GPUs (its speed, time, cost and memory, from the rows the
fine-tuning workbook uses), serving it (the GPUs a traffic needs, the cost per
million tokens and per month), and the energy and emissions of the runs.
"""

from __future__ import annotations

from .. import texts as tx
from ..blocks import Input, Inputs, Result, Results, Verdict
from ..checks import figure
from ..expr import F, Lit, Ref, Say, call
from ..shared import (
    DATASET_EXAMPLES,
    EPOCHS,
    FT_METHOD,
    FT_MODEL,
    LORA_SPEED,
    TOKENS_PER_EXAMPLE,
    estimate_rows,
    memory_rows,
    memory_verdicts,
    shape_rows,
    time_checks,
)
from ..texts import T

HOURS_A_MONTH = 730  # 8,760 hours a year ÷ 12

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
              "gradients and Adam states; LoRA and QLoRA shard their frozen weights "
              "at 3 too.",
              "Cómo se reparten el estado del modelo las GPU del ajuste: 3 reparte "
              "pesos, gradientes y estados de Adam; LoRA y QLoRA reparten también "
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
        *estimate_rows("FTSeqLen", peak=False),
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
            "ServingTokensPerSec", "tokens_per_sec", 5_000,
            T("Peak traffic", "Tráfico punta"), T("tokens/s", "tokens/s"),
            T("Tokens per second the service generates at its busiest hour, over all "
              "users.",
              "Tokens por segundo que genera el servicio en su hora de más uso, "
              "sumando todos los usuarios."),
        ),
        Input(
            "ServingBatch", "batch", 32,
            T("Sequences per replica", "Secuencias por réplica"), T("sequences", "secuencias"),
            T("Requests a replica decodes together (its batch): more is faster per "
              "GPU and slower per user.",
              "Peticiones que una réplica decodifica a la vez (su lote): más es más "
              "rápido por GPU y más lento por usuario."),
            whole=True,
        ),
        Input(
            "ServingContext", "seq_len", 2048,
            T("Context per sequence", "Contexto por secuencia"), T("tokens", "tokens"),
            T("Prompt and output tokens a sequence keeps in the key/value cache.",
              "Tokens de entrada y salida que una secuencia guarda en la caché de "
              "claves y valores."),
        ),
        Input(
            "ServingReplicaGPUs", "gpus", 1,
            T("GPUs per replica", "GPU por réplica"), T("GPUs", "GPU"),
            T("GPUs that hold one copy of the model (tensor parallel); raise it when "
              "the weights do not fit one GPU.",
              "GPU que guardan una copia del modelo (paralelismo tensorial); súbalo si "
              "los pesos no caben en una GPU."),
            whole=True,
        ),
        Input(
            "ServingUtilization", "utilization", 0.5,
            T("Share of the bound reached", "Parte del límite alcanzada"), T("%", "%"),
            T("Decoding reads every weight once a step, so memory bandwidth bounds "
              "its speed; servers reach part of that bound (30-60 % is usual).",
              "Decodificar lee cada peso una vez por paso, así que el ancho de banda "
              "limita su velocidad; los servidores alcanzan parte de ese límite (lo "
              "habitual es 30-60 %)."),
            fmt=tx.PERCENT_FMT,
        ),
    ),
)  # fmt: skip

_KV_PER_SEQUENCE = call(
    "KV_CACHE_GB", "BaseLayers", call("MODEL_SPEC", "FTModel", Lit("kv_heads")),
    call("MODEL_SPEC", "FTModel", Lit("head_dim")), "ServingContext", 1,
)  # fmt: skip

_SERVING_FIT = F.IF(
    F.NOT(F.AND(F.ISNUMBER(Ref("ServingMaxBatch")), F.ISNUMBER(Ref("ServingBatch")))),
    Say(tx.NA),
    F.IF(
        Ref("ServingMaxBatch").lt(1),
        Say(T("Error: the weights do not fit a replica's usable memory: more GPUs "
              "per replica",
              "Error: los pesos no caben en la memoria utilizable de una réplica: más "
              "GPU por réplica")),
        F.IF(
            Ref("ServingBatch").le(Ref("ServingMaxBatch")),
            Say(tx.OK),
            Say(T("Error: does not fit: at most ", "Error: no cabe: como mucho ")).cat(
                figure(Ref("ServingMaxBatch"), 0),
                T(" sequences of this context a replica", " secuencias de este contexto por réplica"),
            ),
        ),
    ),
)  # fmt: skip

SERVING = Results(
    T("Serving: results", "Servicio: resultados"),
    (
        Result(
            "KVCacheGB", _KV_PER_SEQUENCE,
            T("Key/value cache per sequence", "Caché de claves/valores por secuencia"), T("GB", "GB"),
            T("2 × layers × key/value heads × head size × context × 2 bytes (kipply "
              "2022).",
              "2 × capas × cabezas de claves/valores × tamaño de cabeza × contexto × 2 "
              "bytes (kipply 2022)."),
            fmt=tx.TWO,
        ),
        Result(
            "ServingMaxBatch",
            call("MAX_DECODE_BATCH", "BaseParams", "GPUMemoryGB", "KVCacheGB", 2,
                 "ServingReplicaGPUs", "UsableMemory"),
            T("Most sequences that fit", "Máximo de secuencias que caben"), T("sequences", "secuencias"),
            T("Sequences whose cache fits a replica's usable memory beside the 16-bit "
              "weights.",
              "Secuencias cuya caché cabe en la memoria utilizable de una réplica junto "
              "a los pesos de 16 bits."),
        ),
        Result(
            "ServingReplicaTokensPerSec",
            call("MODEL_DECODE_TOKENS_PER_SEC", "FTModel", call("GPU_BANDWIDTH_TBS", "GPUModel"),
                 "ServingBatch", "ServingContext", 2, "ServingReplicaGPUs")
            * Ref("ServingUtilization"),
            T("Tokens/s per replica", "Tokens/s por réplica"), T("tokens/s", "tokens/s"),
            T("Bandwidth × batch ÷ (the bytes a step reads: the weights the batch "
              "touches and its cache), times the share of that bound reached.",
              "Ancho de banda × lote ÷ (los bytes que lee un paso: los pesos que toca "
              "el lote y su caché), por la parte de ese límite alcanzada."),
        ),
        Result(
            "ServingGPUs",
            call("SERVING_GPUS", "ServingTokensPerSec", "ServingReplicaTokensPerSec", 1)
            * Ref("ServingReplicaGPUs"),
            T("GPUs to serve the peak", "GPU para servir la punta"), T("GPUs", "GPU"),
            T("Whole replicas the peak traffic needs, times the GPUs of a replica.",
              "Réplicas enteras que necesita el tráfico punta, por las GPU de una "
              "réplica."),
            key=True,
        ),
        Result(
            "ServingCostPerMTok",
            call("SERVING_COST_PER_MTOK", "PricePerGPUHour",
                 Ref("ServingTokensPerSec") / Ref("ServingGPUs")),
            T("Cost per million tokens", "Coste por millón de tokens"), T("{currency}/M tokens", "{currency}/M tokens"),
            T("Price per GPU-hour ÷ the tokens each GPU generates in an hour at the "
              "peak, × 1,000,000.",
              "Precio por GPU-hora ÷ los tokens que genera cada GPU en una hora en la "
              "punta, × 1.000.000."),
            fmt=tx.MONEY,
        ),
        Result(
            "ServingMonthlyCost",
            Ref("ServingGPUs") * Ref("PricePerGPUHour") * HOURS_A_MONTH,
            T("Serving cost per month", "Coste mensual del servicio"), T("{currency}/month", "{currency}/mes"),
            T("GPUs × price per GPU-hour × 730 hours: the peak's GPUs kept all month.",
              "GPU × precio por GPU-hora × 730 horas: las GPU de la punta todo el mes."),
            fmt=tx.MONEY, key=True,
        ),
    ),
    verdicts=(Verdict("ServingFit", T("Memory check, serving", "Control de memoria, servicio"),
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
    "HOURS_A_MONTH",
]
