"""The planner's pre-training: the cluster, the compute it buys in the days
given, the compute-optimal model and tokens for it by three rules, the loss
they reach, the memory a GPU needs to train that model, and the tables around
the plan (scenarios, sensitivities, the IsoFLOP curve).
"""

from __future__ import annotations

import dataclasses

from .. import texts as tx
from ..blocks import (
    Axis,
    Case,
    Chart,
    Check,
    Curve,
    Grid,
    Input,
    Inputs,
    Point,
    Result,
    Results,
    Scenarios,
    Series,
    Verdict,
)
from ..checks import fit
from ..expr import F, Guard, Lit, Ref, call
from ..shared import (
    CURRENCY,
    DTYPE,
    GPU_MODEL,
    MFU,
    OPTIMIZER,
    PRICE,
    RECOMPUTE,
    gpu_memory_row,
    peak_row,
    time_checks,
)
from ..texts import T

_POWER = Check(
    F.ISNUMBER(call("GPU_POWER_W", "GPUModel")),
    T("Warning: its vendor publishes no power figure, so energy shows n/a",
      "Aviso: su fabricante no publica su potencia: la energía muestra n/d"),
    error=False,
)  # fmt: skip

CLUSTER = Inputs(
    T("Cluster", "Clúster"),
    (
        dataclasses.replace(
            GPU_MODEL,
            help=T("Pick from the list (the Data sheet): its dense peak in the "
                   "precision below, its memory, bandwidth and power are used.",
                   "Elija de la lista (hoja Datos): se usan su pico denso en la "
                   "precisión de abajo, su memoria, su ancho de banda y su potencia."),
            rules=(_POWER,),
        ),
        DTYPE,
        Input(
            "GPUs", "gpus", 1024,
            T("GPUs", "GPU"), T("GPUs", "GPU"),
            T("Accelerators in the cluster. A whole number, 1 or more.",
              "Aceleradores del clúster. Un entero, 1 o más."),
            whole=True,
        ),
        MFU,
        Input(
            "Days", "days", 30,
            T("Training days", "Días de entrenamiento"), T("days", "días"),
            T("Wall-clock days the cluster trains.", "Días de reloj que entrena el clúster."),
            fmt=tx.DECIMAL, rules=time_checks("Days", 365),
        ),
        PRICE,
        CURRENCY,
        Input(
            "TokensPerParam", "tokens_per_param", 20,
            T("Tokens per parameter (r)", "Tokens por parámetro (r)"), T("tokens/param", "tokens/parám."),
            T("For the 20-tokens rule: Chinchilla's compute-optimal ratio is about 20.",
              "Para la regla de 20 tokens: la proporción óptima de Chinchilla es de "
              "unos 20."),
            fmt=tx.DECIMAL,
        ),
    ),
)  # fmt: skip

BUDGET = Results(
    T("Training compute and cost", "Cómputo y coste del entrenamiento"),
    (
        peak_row(),
        Result(
            "ComputeBudgetPFDays", call("CLUSTER_PFDAYS", "GPUs", "PeakTFLOPS", "MFU", "Days"),
            T("Training compute (C)", "Cómputo de entrenamiento (C)"), T("PF/s-days", "PF/s-días"),
            T("GPUs × peak × MFU × days ÷ 1,000 (1 PF/s-day is 1,000 TFLOP/s-days): "
              "the compute the run delivers.",
              "GPU × pico × MFU × días ÷ 1.000 (1 PF/s-día son 1.000 TFLOP/s-días): el "
              "cómputo que aporta la ejecución."),
            key=True,
        ),
        Result(
            "TrainingFLOPs", call("PFDAYS_TO_FLOPS", "ComputeBudgetPFDays"),
            T("Training compute in FLOPs", "Cómputo de entrenamiento en FLOPs"), T("FLOPs", "FLOPs"),
            T("C × 8.64e19 FLOPs per PF/s-day; equals 6·N·D for every model below.",
              "C × 8,64e19 FLOPs por PF/s-día; igual a 6·N·D para cada modelo de abajo."),
            fmt=tx.SCIENTIFIC,
        ),
        Result(
            "PretrainGPUHours", call("CLUSTER_GPU_HOURS", "GPUs", "Days"),
            T("Pre-training GPU-hours", "GPU-horas del preentrenamiento"), T("GPU-hours", "GPU-horas"),
            T("GPUs × days × 24: what a cloud bills.", "GPU × días × 24: lo que factura la nube."),
        ),
        Result(
            "PretrainCost", call("CLUSTER_COST", "GPUs", "Days", "PricePerGPUHour"),
            T("Pre-training cost", "Coste del preentrenamiento"), T("{currency}", "{currency}"),
            T("GPU-hours × price per GPU-hour, before contingency.",
              "GPU-horas × precio por GPU-hora, sin contingencia."),
            fmt=tx.MONEY, key=True,
        ),
    ),
)  # fmt: skip


def _fit_rows(fit_: str, label: str) -> tuple[Result, Result]:
    return (
        Result(
            f"{label}Params", call("CHINCHILLA_FIT_PARAMS", "ComputeBudgetPFDays", Lit(fit_)),
            T(f"Parameters, {label} fit", f"Parámetros, ajuste de {label}"), T("parameters", "parámetros"),
            T(f"G·(C·8.64e19/6)^a with the {label} fit's G and a (Data sheet).",
              f"G·(C·8,64e19/6)^a con G y a del ajuste de {label} (hoja Datos)."),
            fmt=tx.LARGE,
        ),
        Result(
            f"{label}Tokens", call("CHINCHILLA_FIT_TOKENS", "ComputeBudgetPFDays", Lit(fit_)),
            T(f"Tokens, {label} fit", f"Tokens, ajuste de {label}"), T("tokens", "tokens"),
            T("C·8.64e19 ÷ (6 × N).", "C·8,64e19 ÷ (6 × N)."),
            fmt=tx.LARGE,
        ),
    )  # fmt: skip


MODEL = Results(
    T("Compute-optimal model", "Modelo de cómputo óptimo"),
    (
        Result(
            "RuleParams", call("CHINCHILLA_PARAMS", "ComputeBudgetPFDays", "TokensPerParam"),
            T("Parameters, 20-tokens rule", "Parámetros, regla de 20 tokens"), T("parameters", "parámetros"),
            T("√(C × 8.64e19 ÷ (6 × r)), from C = 6·N·D with D = r·N.",
              "√(C × 8,64e19 ÷ (6 × r)), de C = 6·N·D con D = r·N."),
            fmt=tx.LARGE, key=True,
        ),
        Result(
            "RuleTokens", call("CHINCHILLA_TOKENS", "ComputeBudgetPFDays", "TokensPerParam"),
            T("Tokens, 20-tokens rule", "Tokens, regla de 20 tokens"), T("tokens", "tokens"),
            T("r × N.", "r × N."),
            fmt=tx.LARGE, key=True,
        ),
        *_fit_rows("hoffmann", "Hoffmann"),
        *_fit_rows("epoch", "Epoch"),
    ),
)  # fmt: skip

LOSS = Results(
    T("Predicted loss", "Pérdida prevista"),
    (
        Result(
            "RuleLoss", call("CHINCHILLA_LOSS", "RuleParams", "RuleTokens", Lit("hoffmann")),
            T("20-tokens model (Hoffmann fit)", "Modelo de 20 tokens (Hoffmann)"), T("nats/token", "nats/token"),
            T("E + A/N^α + B/D^β with Hoffmann's constants.",
              "E + A/N^α + B/D^β con las constantes de Hoffmann."),
            fmt=tx.LOSS,
        ),
        Result(
            "HoffmannLoss", call("CHINCHILLA_LOSS", "HoffmannParams", "HoffmannTokens", Lit("hoffmann")),
            T("Hoffmann optimum", "Óptimo de Hoffmann"), T("nats/token", "nats/token"),
            T("The lowest loss this compute reaches by Hoffmann's fit.",
              "La menor pérdida que alcanza el presupuesto según Hoffmann."),
            fmt=tx.LOSS,
        ),
        Result(
            "EpochLoss", call("CHINCHILLA_LOSS", "EpochParams", "EpochTokens", Lit("epoch")),
            T("Epoch optimum", "Óptimo de Epoch"), T("nats/token", "nats/token"),
            T("The lowest loss by Epoch's fit (its own scale: compare within a fit).",
              "La menor pérdida según Epoch (su propia escala: compare dentro de un "
              "ajuste)."),
            fmt=tx.LOSS,
        ),
    ),
)  # fmt: skip

# A shape model far from the planned size misstates the activations.
_SHAPE_RATIO = call("MODEL_SPEC", "ShapeModel", Lit("params")) / Ref("RuleParams")
_NEAR = Check(
    F.IFERROR(F.AND(_SHAPE_RATIO.ge(0.25), _SHAPE_RATIO.le(4)), True),
    T("Warning: over 4 times larger or smaller than the 20-tokens model: pick a "
      "model nearer its size, or its activations are misstated",
      "Aviso: más de 4 veces mayor o menor que el modelo de 20 tokens: elija uno de "
      "tamaño más cercano, o sus activaciones no cuadran"),
    error=False,
)  # fmt: skip

_WHOLE_GROUPS = Check(
    F.IFERROR(F.MOD(Ref("GPUs"), Ref("TensorParallel")).eq(0), True),
    T("Error: the GPUs above must be a multiple of it",
      "Error: las GPU de arriba deben ser un múltiplo de este valor"),
)  # fmt: skip

MEMORY_INPUTS = Inputs(
    T("Memory per GPU", "Memoria por GPU"),
    (
        Input(
            "ShapeModel", "model", "Llama 3.1 70B",
            T("Shape from model", "Forma del modelo"), T("name", "nombre"),
            T("A published model near the planned size (the Models sheet): its "
              "layers, width and heads give the activations.",
              "Un modelo publicado de tamaño parecido (hoja Modelos): sus capas, "
              "anchura y cabezas dan las activaciones."),
            kind="list", keys="ModelKeys", menu="ModelNames", rules=(_NEAR,),
        ),
        Input(
            "SeqLen", "seq_len", 4096,
            T("Sequence length", "Longitud de secuencia"), T("tokens", "tokens"),
            T("Tokens per training sequence.", "Tokens por secuencia de entrenamiento."),
        ),
        Input(
            "MicroBatch", "micro_batch", 1,
            T("Micro-batch per GPU", "Microlote por GPU"), T("sequences", "secuencias"),
            T("Sequences each GPU holds at once. A whole number, 1 or more.",
              "Secuencias que procesa cada GPU a la vez. Un entero, 1 o más."),
        ),
        Input(
            "TensorParallel", "model_parallel", 8,
            T("Tensor parallelism", "Paralelismo tensorial"), T("GPUs", "GPU"),
            T("GPUs that split each layer (with sequence parallelism), usually the 8 "
              "of a server: they divide the model state and the activations; ZeRO "
              "shards the state over the rest.",
              "GPU que reparten cada capa (con paralelismo de secuencia), "
              "normalmente las 8 de un servidor: dividen el estado del modelo y las "
              "activaciones; ZeRO reparte el estado entre el resto."),
            rules=(_WHOLE_GROUPS,),
        ),
        Input(
            "ZeroStage", "zero_stage", 1,
            T("ZeRO stage", "Etapa de ZeRO"), T("0 to 3", "0 a 3"),
            T("0: every group holds the whole state; 1 shards the optimizer's states over "
              "the data-parallel GPUs, 2 also the gradients, 3 also the weights.",
              "0: cada grupo guarda todo el estado; 1 reparte los estados del optimizador "
              "entre las GPU de datos paralelos, 2 también los gradientes, 3 también "
              "los pesos."),
        ),
        RECOMPUTE,
        OPTIMIZER,
    ),
)  # fmt: skip

_DATA_PARALLEL = Ref("GPUs") / Ref("TensorParallel")

MEMORY = Results(
    T("Memory per GPU: results", "Memoria por GPU: resultados"),
    (
        gpu_memory_row(),
        Result(
            "ShapeLayers", call("MODEL_SPEC", "ShapeModel", Lit("layers")),
            T("Layers (L)", "Capas (L)"), T("layers", "capas"),
            T("Of the model named above (the Models sheet).",
              "Del modelo indicado arriba (hoja Modelos)."),
        ),
        Result(
            "ShapeWidth", call("MODEL_SPEC", "ShapeModel", Lit("d_model")),
            T("Width (h)", "Anchura (h)"), T("dimensions", "dimensiones"),
            T("Hidden size d_model of that model.", "Tamaño oculto d_model de ese modelo."),
        ),
        Result(
            "ShapeHeads", call("MODEL_SPEC", "ShapeModel", Lit("heads")),
            T("Attention heads (a)", "Cabezas de atención (a)"), T("heads", "cabezas"),
            T("Attention heads of that model.", "Cabezas de atención de ese modelo."),
        ),
        Result(
            "PretrainStateGB",
            call("MODEL_STATE_GB", "RuleParams", "RuleParams", Lit(2), _DATA_PARALLEL,
                 "ZeroStage", "TensorParallel", "OptimizerBytes"),
            T("Model state", "Estado del modelo"), T("GB", "GB"),
            T("Weights, gradients and the optimizer's state of the 20-tokens model "
              "(2 + 2 bytes a parameter and the optimizer's), split by the tensor "
              "parallelism and sharded over the data-parallel GPUs by the ZeRO stage "
              "(Rajbhandari et al. 2020).",
              "Pesos, gradientes y estado del optimizador del modelo de 20 tokens "
              "(2 + 2 bytes por parámetro y los del optimizador), divididos por el "
              "paralelismo tensorial y repartidos entre las GPU de datos paralelos "
              "según la etapa de ZeRO (Rajbhandari et al. 2020)."),
            fmt=tx.DECIMAL,
        ),
        Result(
            "PretrainActivationGB",
            call("ACTIVATION_GB", "ShapeLayers", "ShapeWidth", "ShapeHeads", "SeqLen",
                 "MicroBatch", "TensorParallel", "Recompute"),
            T("Activations", "Activaciones"), T("GB", "GB"),
            T("Kept for the backward pass: s·b·h·(34 + 5·a·s/h) bytes a layer, split "
              "by the tensor parallelism, less with recomputation (Korthikanti et "
              "al. 2022).",
              "Guardadas para el paso hacia atrás: s·b·h·(34 + 5·a·s/h) bytes por "
              "capa, divididas por el paralelismo tensorial, menos con recálculo "
              "(Korthikanti et al. 2022)."),
            fmt=tx.DECIMAL,
        ),
        Result(
            "PretrainMemoryGB", Ref("PretrainStateGB") + Ref("PretrainActivationGB"),
            T("Memory per GPU", "Memoria por GPU"), T("GB", "GB"),
            T("Model state + activations.", "Estado del modelo + activaciones."),
            fmt=tx.DECIMAL, key=True,
        ),
        Result(
            "PretrainMinGPUs",
            call("MIN_GPUS_FOR_MEMORY", "RuleParams", "GPUMemoryGB", "PretrainActivationGB",
                 "RuleParams", Lit(2), "ZeroStage", "TensorParallel", "UsableMemory")
            * Ref("TensorParallel"),
            T("Fewest GPUs that fit", "Mínimo de GPU que caben"), T("GPUs", "GPU"),
            T("The fewest GPUs, in groups of the tensor parallelism, whose memory "
              "fits within the usable share at this ZeRO stage.",
              "El mínimo de GPU, en grupos del paralelismo tensorial, cuya memoria "
              "cabe en la parte utilizable con esta etapa de ZeRO."),
        ),
    ),
    verdicts=(
        Verdict(
            "PretrainFit", T("Memory check, pre-training", "Control de memoria, preentrenamiento"),
            fit(Ref("PretrainMemoryGB"), Ref("GPUMemoryGB"), Ref("UsableMemory"),
                Ref("PretrainMinGPUs")),
        ),
    ),
)  # fmt: skip

SCENARIOS = Scenarios(
    T("Scenarios", "Escenarios"),
    T("Each case changes the inputs above by the multiples in its column: the "
      "smaller run has half the GPUs for half the days at a lower MFU and a higher "
      "price; the larger one twice the GPUs for twice the days at a volume price. "
      "Type other multiples in the yellow cells; each case has its own check.",
      "Cada caso cambia los datos de arriba por los múltiplos de su columna: la "
      "ejecución menor tiene la mitad de GPU la mitad de días, con menor MFU y "
      "mayor precio; la mayor, el doble de GPU el doble de días a precio por "
      "volumen. Escriba otros múltiplos en las celdas amarillas; cada caso tiene su "
      "propio control."),
    ("GPUs", "MFU", "Days", "PricePerGPUHour"),
    (
        Case(T("Smaller run", "Ejecución menor"), (0.5, 0.75, 0.5, 1.4)),
        Case(T("Larger run", "Ejecución mayor"), (2.0, 1.25, 2.0, 0.8)),
    ),
    ("ComputeBudgetPFDays", "RuleParams", "RuleTokens", "PretrainGPUHours", "PretrainCost",
     "TotalCost"),
)  # fmt: skip

_AROUND = (0.25, 0.5, 1.0, 2.0, 4.0)

SIZE_GRID = Grid(
    T("Sensitivity: model size", "Sensibilidad: tamaño del modelo"),
    T("Compute-optimal parameters (20-tokens rule) at a quarter to four times the "
      "GPUs and at 75 % to 125 % of the MFU, for the days above; the middle is the "
      "base case.",
      "Parámetros de cómputo óptimo (regla de 20 tokens) con de un cuarto a cuatro "
      "veces las GPU y del 75 % al 125 % de la MFU, con los días de arriba; el centro "
      "es el caso base."),
    "RuleParams", Axis("GPUs", _AROUND, multiples=True),
    Axis("MFU", (0.75, 0.875, 1.0, 1.125, 1.25), multiples=True),
)  # fmt: skip

COST_GRID = Grid(
    T("Sensitivity: cost", "Sensibilidad: coste"),
    T("Cost of the run at a quarter to four times the GPUs and at half to twice the "
      "days, at the price above; the middle is the base case. The MFU changes what "
      "the run buys (table above), not what it costs.",
      "Coste de la ejecución con de un cuarto a cuatro veces las GPU y de la mitad "
      "al doble de los días, al precio de arriba; el centro es el caso base. La MFU "
      "cambia lo que permite la ejecución (tabla de arriba), no lo que cuesta."),
    "PretrainCost", Axis("GPUs", _AROUND, multiples=True),
    Axis("Days", (0.5, 0.75, 1.0, 1.5, 2.0), multiples=True),
)  # fmt: skip

# The IsoFLOP curve: model sizes around the 20-tokens N, each spending the budget.
MULTIPLES = (0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0)
MULTIPLE = Input(
    "IsoFLOPMultiple", "", 1.0,
    T("× 20-tokens N", "× N de 20 tokens"), T("×", "×"),
    T("A multiple of the 20-tokens model size.", "Un múltiplo del tamaño de 20 tokens."),
    fmt='0.00"×"',
)  # fmt: skip
ISO_N = Series(
    "N",
    T("Parameters (N)", "Parámetros (N)"),
    Guard(Ref("x") * Ref("RuleParams")),
    tx.LARGE,
)
ISO_D = Series(
    "D",
    T("Tokens (D)", "Tokens (D)"),
    Guard(call("ISOFLOP_TOKENS", "ComputeBudgetPFDays", "N")),
    tx.LARGE,
)


def _above(fit_: str, best: str, label: T) -> Series:
    """The loss of each size above the fit's lowest at this budget."""
    loss = call("CHINCHILLA_LOSS", "N", "D", Lit(fit_)) - Ref(best)
    return Series(f"above.{fit_}", label, Guard(loss), "0.0000")


ISOFLOP = Curve(
    T("IsoFLOP curve: loss against model size at this compute",
      "Curva IsoFLOP: pérdida según el tamaño con este cómputo"),
    T("Each row spends the whole training compute: N = multiple × the 20-tokens N, "
      "D = C·8.64e19 ÷ (6N). The loss columns say how far each size is above "
      "each fit's lowest loss; the last two rows are the fits' optima.",
      "Cada fila gasta todo el cómputo: N = múltiplo × la N de 20 tokens, "
      "D = C·8,64e19 ÷ (6N). Las columnas de pérdida dicen cuánto queda cada "
      "tamaño por encima de la menor pérdida de cada ajuste; las dos últimas "
      "filas son los óptimos."),
    MULTIPLE, MULTIPLES,
    (ISO_N, ISO_D,
     _above("hoffmann", "HoffmannLoss", T("Loss above Hoffmann optimum", "Pérdida sobre el óptimo de Hoffmann")),
     _above("epoch", "EpochLoss", T("Loss above Epoch optimum", "Pérdida sobre el óptimo de Epoch"))),
    (Point(T("Hoffmann optimum", "Óptimo de Hoffmann"), Ref("HoffmannParams"), "above.hoffmann"),
     Point(T("Epoch optimum", "Óptimo de Epoch"), Ref("EpochParams"), "above.epoch")),
    Chart(T("IsoFLOP curves at the cluster's compute", "Curvas IsoFLOP con el cómputo del clúster"),
          ("above.hoffmann", "above.epoch"),
          y_title=T("Loss above the fit's optimum (nats/token)", "Pérdida sobre el óptimo (nats/token)")),
)  # fmt: skip

__all__ = [
    "BUDGET",
    "CLUSTER",
    "COST_GRID",
    "ISOFLOP",
    "LOSS",
    "MEMORY",
    "MEMORY_INPUTS",
    "MODEL",
    "SCENARIOS",
    "SIZE_GRID",
]
