"""The LLM training planner: cluster → budget → model → loss → cost → fine-tune.

One sheet follows the whole chain: this cluster, for this long, buys this compute
budget; the budget buys this model and this many tokens (by the 20-tokens rule
and by two fitted scaling laws, side by side); they reach this loss; the run
costs this much; and a fine-tune of a model the user names runs at this speed on
the same cluster. The Data sheet holds the accelerator peaks and the fits'
constants the formulas read.
"""

from __future__ import annotations

from ..registry.excel import key
from . import texts as tx
from .blocks import (
    Axis,
    Case,
    Chart,
    Check,
    Cover,
    Curve,
    Grid,
    Input,
    Inputs,
    Notes,
    Point,
    Result,
    Results,
    Scenarios,
    Series,
    Sheet,
    Template,
    Verdict,
)
from .checks import fit, guarded
from .expr import F, Lit, Ref, call
from .shared import CURRENCY, PRICE, SOURCES_PLANNER
from .texts import T
from .written import parse

CLUSTER = Inputs(
    T("Cluster", "Clúster"),
    (
        Input(
            "GPUModel", "gpu", "H100 SXM",
            T("GPU model", "Modelo de GPU"), T("name", "nombre"),
            T("Pick from the list (the Data sheet): its dense peak for the precision "
              "below is used.",
              "Elija de la lista (hoja Datos): se usa su pico denso en la precisión de "
              "abajo."),
            kind="list", keys="AcceleratorKeys", menu="AcceleratorNames",
            rules=(
                Check(
                    F.ISNUMBER(call("GPU_POWER_W", "GPUModel")),
                    T("Warning: its vendor publishes no power figure, so energy shows n/a",
                      "Aviso: su fabricante no publica su potencia: la energía muestra n/d"),
                    error=False,
                ),
            ),
        ),
        Input(
            "Dtype", "dtype", "bf16",
            T("Training precision", "Precisión de entrenamiento"), T("dtype", "dtype"),
            T("bf16 for most training; fp8 where the chip and the recipe support it.",
              "bf16 en la mayoría de entrenamientos; fp8 si el chip y la receta lo "
              "admiten."),
            kind="list", keys="DtypeKeys", menu="TrainingDtypeNames",
            rules=(
                Check(
                    parse(key("Dtype")).ne("int8"),
                    T("Error: int8 is an inference rate (TOP/s), not a training precision",
                      "Error: int8 es una tasa de inferencia (TOP/s), no una precisión "
                      "de entrenamiento"),
                ),
                Check(
                    F.ISNUMBER(call("GPU_PEAK_TFLOPS", "GPUModel", "Dtype")),
                    T("Error: this GPU has no figure for this precision (see the Data sheet)",
                      "Error: esta GPU no tiene cifra para esta precisión (ver hoja Datos)"),
                ),
            ),
        ),
        Input(
            "GPUs", "gpus", 1024,
            T("GPUs", "GPU"), T("GPUs", "GPU"),
            T("Accelerators in the cluster. A whole number, 1 or more.",
              "Aceleradores del clúster. Un entero, 1 o más."),
            whole=True,
        ),
        Input(
            "MFU", "mfu", 0.4,
            T("Model FLOPs utilisation (MFU)", "Utilización de FLOPs (MFU)"), T("% of peak", "% del pico"),
            T("Useful model FLOPs as a share of peak; 35-55 % is typical for large "
              "dense runs (PaLM reached 46.2 %). Type 40%.",
              "FLOPs útiles del modelo respecto al pico; 35-55 % es habitual en "
              "grandes entrenamientos (PaLM alcanzó 46,2 %). Escriba 40 %."),
            fmt=tx.PERCENT_FMT,
        ),
        Input(
            "Days", "days", 30,
            T("Training days", "Días de entrenamiento"), T("days", "días"),
            T("Wall-clock days the cluster trains.", "Días de reloj que entrena el clúster."),
            fmt=tx.DECIMAL,
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
    T("Compute budget and cost", "Presupuesto de cómputo y coste"),
    (
        Result(
            "PeakTFLOPS", call("GPU_PEAK_TFLOPS", "GPUModel", "Dtype"),
            T("Peak per GPU", "Pico por GPU"), T("TFLOP/s", "TFLOP/s"),
            T("Dense peak of the GPU model in the chosen precision, from the Data "
              "sheet (datasheet figures, never the 'with sparsity' ones).",
              "Pico denso del modelo de GPU en la precisión elegida, de la hoja Datos "
              "(cifras de ficha técnica, nunca las 'con dispersión')."),
            fmt=tx.DECIMAL,
        ),
        Result(
            "ComputeBudgetPFDays", call("CLUSTER_PFDAYS", "GPUs", "PeakTFLOPS", "MFU", "Days"),
            T("Compute budget (C)", "Presupuesto de cómputo (C)"), T("PF/s-days", "PF/s-días"),
            T("GPUs × peak × MFU × days ÷ 1,000 (1 PF/s-day is 1,000 TFLOP/s-days).",
              "GPU × pico × MFU × días ÷ 1.000 (1 PF/s-día son 1.000 TFLOP/s-días)."),
            key=True,
        ),
        Result(
            "TrainingFLOPs", call("PFDAYS_TO_FLOPS", "ComputeBudgetPFDays"),
            T("Training compute", "Cómputo de entrenamiento"), T("FLOPs", "FLOPs"),
            T("Budget × 8.64e19 FLOPs per PF/s-day; equals 6·N·D for every model below.",
              "Presupuesto × 8,64e19 FLOPs por PF/s-día; igual a 6·N·D para cada "
              "modelo de abajo."),
            fmt=tx.SCIENTIFIC,
        ),
        Result(
            "PretrainGPUHours", call("CLUSTER_GPU_HOURS", "GPUs", "Days"),
            T("GPU-hours", "GPU-horas"), T("GPU-hours", "GPU-horas"),
            T("GPUs × days × 24.", "GPU × días × 24."),
        ),
        Result(
            "PretrainCost", call("CLUSTER_COST", "GPUs", "Days", "PricePerGPUHour"),
            T("Training cost", "Coste del entrenamiento"), T("{currency}", "{currency}"),
            T("GPU-hours × price per GPU-hour.", "GPU-horas × precio por GPU-hora."),
            fmt=tx.MONEY, key=True,
        ),
    ),
)  # fmt: skip


def _fit_rows(fit: str, label: str) -> tuple[Result, Result]:
    return (
        Result(
            f"{label}Params", call("CHINCHILLA_FIT_PARAMS", "ComputeBudgetPFDays", Lit(fit)),
            T(f"Parameters, {label} fit", f"Parámetros, ajuste de {label}"), T("parameters", "parámetros"),
            T(f"G·(C·8.64e19/6)^a with the {label} fit's G and a (Data sheet).",
              f"G·(C·8,64e19/6)^a con G y a del ajuste de {label} (hoja Datos)."),
            fmt=tx.LARGE,
        ),
        Result(
            f"{label}Tokens", call("CHINCHILLA_FIT_TOKENS", "ComputeBudgetPFDays", Lit(fit)),
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
            T("The lowest loss this budget reaches by Hoffmann's fit.",
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
            kind="list", keys="ModelKeys", menu="ModelNames",
        ),
        Input(
            "SeqLen", "seq_len", 4096,
            T("Sequence length", "Longitud de secuencia"), T("tokens", "tokens"),
            T("Tokens per training sequence.", "Tokens por secuencia de entrenamiento."),
        ),
        Input(
            "MicroBatch", "micro_batch", 1,
            T("Micro-batch per GPU", "Micro-batch por GPU"), T("sequences", "secuencias"),
            T("Sequences each GPU holds at once. A whole number, 1 or more.",
              "Secuencias que procesa cada GPU a la vez. Un entero, 1 o más."),
        ),
        Input(
            "TensorParallel", "tensor_parallel", 1,
            T("Tensor parallelism", "Paralelismo tensorial"), T("GPUs", "GPU"),
            T("GPUs that split each layer (with sequence parallelism): they divide "
              "the activations; ZeRO shards the model state.",
              "GPU que reparten cada capa (con paralelismo de secuencia): dividen las "
              "activaciones; ZeRO reparte el estado del modelo."),
        ),
        Input(
            "ZeroStage", "zero_stage", 3,
            T("ZeRO stage", "Etapa de ZeRO"), T("0 to 3", "0 a 3"),
            T("0: every GPU holds the whole state; 1 shards the Adam states over the "
              "GPUs, 2 also the gradients, 3 also the weights.",
              "0: cada GPU guarda todo el estado; 1 reparte los estados de Adam entre "
              "las GPU, 2 también los gradientes, 3 también los pesos."),
        ),
        Input(
            "Recompute", "recompute", "full",
            T("Activation recomputation", "Recálculo de activaciones"), T("mode", "modo"),
            T("none, selective (attention only) or full (each layer's input only): "
              "full saves the most memory for about a third more compute.",
              "none (sin recálculo), selective (solo la atención) o full (solo la "
              "entrada de cada "
              "capa): full ahorra más memoria a cambio de un tercio más de cómputo."),
            kind="list", keys="RecomputeNames", menu="RecomputeNames",
        ),
    ),
)  # fmt: skip

MEMORY = Results(
    T("Memory per GPU: results", "Memoria por GPU: resultados"),
    (
        Result(
            "GPUMemoryGB", call("GPU_MEMORY_GB", "GPUModel"),
            T("GPU memory", "Memoria de la GPU"), T("GB", "GB"),
            T("From the GPU model's datasheet (the Data sheet).",
              "De la ficha técnica del modelo de GPU (hoja Datos)."),
            fmt=tx.DECIMAL,
        ),
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
            call("MODEL_STATE_GB", "RuleParams", "RuleParams", Lit(2), "GPUs", "ZeroStage"),
            T("Model state", "Estado del modelo"), T("GB", "GB"),
            T("Weights, gradients and Adam states of the 20-tokens model, 16 bytes a "
              "parameter, sharded over the GPUs by the ZeRO stage (Rajbhandari et al. "
              "2020).",
              "Pesos, gradientes y estados de Adam del modelo de 20 tokens, 16 bytes "
              "por parámetro, repartidos entre las GPU según la etapa de ZeRO "
              "(Rajbhandari et al. 2020)."),
            fmt=tx.DECIMAL,
        ),
        Result(
            "PretrainActivationGB",
            call("ACTIVATION_GB", "ShapeLayers", "ShapeWidth", "ShapeHeads", "SeqLen",
                                   "MicroBatch", "TensorParallel", "Recompute"),
            T("Activations", "Activaciones"), T("GB", "GB"),
            T("Kept for the backward pass: s·b·h·(34 + 5·a·s/h) bytes a layer, less "
              "with recomputation (Korthikanti et al. 2022).",
              "Guardadas para el paso hacia atrás: s·b·h·(34 + 5·a·s/h) bytes por capa, "
              "menos con recálculo (Korthikanti et al. 2022)."),
            fmt=tx.DECIMAL,
        ),
        Result(
            "PretrainMemoryGB", Ref("PretrainStateGB") + Ref("PretrainActivationGB"),
            T("Memory per GPU", "Memoria por GPU"), T("GB", "GB"),
            T("Model state + activations. Keep 10-20 % of the GPU free for the "
              "framework, buffers and fragmentation.",
              "Estado del modelo + activaciones. Deje libre un 10-20 % de la GPU para "
              "el framework, los buffers y la fragmentación."),
            fmt=tx.DECIMAL, key=True,
        ),
        Result(
            "PretrainMinGPUs",
            call("MIN_GPUS_FOR_MEMORY", "RuleParams", "GPUMemoryGB", "PretrainActivationGB",
                                         "RuleParams", Lit(2), "ZeroStage"),
            T("Fewest GPUs that fit", "Mínimo de GPU que caben"), T("GPUs", "GPU"),
            T("The smallest cluster whose share of the state, plus the activations, "
              "fits each GPU's memory at this ZeRO stage, with nothing to spare.",
              "El clúster más pequeño cuya parte del estado, más las activaciones, cabe "
              "en la memoria de cada GPU con esta etapa de ZeRO, sin margen."),
        ),
    ),
    verdicts=(Verdict("PretrainFit", T("Memory check", "Control de memoria"),
                      fit(Ref("PretrainMemoryGB"), Ref("GPUMemoryGB"), Ref("PretrainMinGPUs"))),),
)  # fmt: skip

ENERGY_INPUTS = Inputs(
    T("Energy and emissions", "Energía y emisiones"),
    (
        Input(
            "PUE", "pue", 1.2,
            T("Power usage effectiveness (PUE)", "Eficiencia energética (PUE)"), T("ratio", "ratio"),
            T("The data centre's total power over its IT power: 1.1-1.2 for modern "
              "sites, 1.5 or more for older ones.",
              "Potencia total del centro de datos entre la de TI: 1,1-1,2 en centros "
              "modernos, 1,5 o más en antiguos."),
            fmt=tx.TWO,
        ),
        Input(
            "GridIntensity", "kg_co2_per_kwh", 0.4,
            T("Grid carbon intensity", "Intensidad de carbono de la red"), T("kg CO2e/kWh", "kg CO2e/kWh"),
            T("Of the electricity the cluster uses: 0.057 for France (BLOOM), about "
              "0.4 for the US average; your provider may publish it.",
              "De la electricidad del clúster: 0,057 en Francia (BLOOM), unos 0,4 de "
              "media en EE. UU.; su proveedor puede publicarla."),
            fmt="0.000",
        ),
    ),
)  # fmt: skip

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
            "PretrainEnergyMWh",
            call("TRAINING_ENERGY_MWH", "PretrainGPUHours", "GPUPowerW", "PUE"),
            T("Energy", "Energía"), T("MWh", "MWh"),
            T("GPU-hours × power × PUE ÷ 10^6 (Luccioni et al. 2022's method for "
              "BLOOM).",
              "GPU-horas × potencia × PUE ÷ 10^6 (el método de Luccioni et al. 2022 "
              "para BLOOM)."),
            fmt=tx.DECIMAL, key=True,
        ),
        Result(
            "PretrainCO2Tonnes",
            call("TRAINING_CO2_TONNES", "PretrainEnergyMWh", "GridIntensity"),
            T("Emissions", "Emisiones"), T("t CO2e", "t CO2e"),
            T("Energy × grid carbon intensity.", "Energía × intensidad de carbono de la red."),
            fmt=tx.DECIMAL, key=True,
        ),
    ),
)  # fmt: skip

FT_INPUTS = Inputs(
    T("Fine-tuning on this cluster", "Fine-tuning en este clúster"),
    (
        Input(
            "FTModelParams", "params", None,
            T("Model to fine-tune", "Modelo a ajustar"), T("parameters", "parámetros"),
            T("Parameters of the model you fine-tune, e.g. 8E+9 for 8 B. Leave blank "
              "for the compute-optimal model above.",
              "Parámetros del modelo que ajusta, p. ej. 8E+9 para 8 mil M. Déjelo en "
              "blanco para el modelo de cómputo óptimo de arriba."),
            fmt=tx.LARGE, blank=True,
        ),
        Input(
            "FTEfficiency", "efficiency", 1.0,
            T("Fine-tune efficiency", "Eficiencia del fine-tuning"), T("% of expected", "% de lo esperado"),
            T("The MFU already counts utilisation; lower this for losses it does not "
              "cover (evaluation, short sequences).",
              "La MFU ya cuenta la utilización; redúzcala por pérdidas que no cubre "
              "(evaluación, secuencias cortas)."),
            fmt=tx.PERCENT_FMT,
        ),
        Input(
            "TokensPerExample", "tokens_per_example", 900,
            T("Tokens per example (T)", "Tokens por ejemplo (T)"), T("tokens", "tokens"),
            T("Mean tokens each example processes: input plus output, plus padding "
              "where it costs compute.",
              "Tokens medios que procesa cada ejemplo: entrada más salida, y el "
              "relleno si consume cómputo."),
        ),
        Input(
            "DatasetExamples", "examples", 100_000,
            T("Dataset size", "Tamaño del dataset"), T("examples", "ejemplos"),
            T("Examples in the fine-tuning set. A whole number, 1 or more.",
              "Ejemplos del conjunto de fine-tuning. Un entero, 1 o más."),
            whole=True,
        ),
        Input(
            "Epochs", "epochs", 3,
            T("Epochs", "Épocas"), T("passes", "pasadas"),
            T("Passes over the fine-tuning set; fractions are allowed (1.5).",
              "Pasadas por el conjunto de fine-tuning; se admiten fracciones (1,5)."),
            fmt=tx.DECIMAL,
        ),
    ),
)  # fmt: skip

_FT = ("GPUs", "FTTokensPerSecPerGPU", "FTEfficiency")
_RUN = ("DatasetExamples", "Epochs", *_FT, "TokensPerExample")

FT = Results(
    T("Fine-tuning results", "Resultados del fine-tuning"),
    (
        Result(
            "FTParams", F.IF(F.ISBLANK(Ref("FTModelParams")), Ref("RuleParams"), Ref("FTModelParams")),
            T("Fine-tuned model", "Modelo ajustado"), T("parameters", "parámetros"),
            T("The model above, or the compute-optimal one when it is left blank.",
              "El modelo de arriba, o el de cómputo óptimo si se deja en blanco."),
            fmt=tx.LARGE,
        ),
        Result(
            "FTTokensPerSecPerGPU", call("TOKENS_PER_SEC_PER_GPU", "FTParams", "PeakTFLOPS", "MFU"),
            T("Expected tokens/s per GPU", "Tokens/s esperados por GPU"), T("tokens/s", "tokens/s"),
            T("MFU × peak × 1e12 ÷ (6 × N): full fine-tuning at the cluster's MFU, "
              "when no benchmark exists.",
              "MFU × pico × 1e12 ÷ (6 × N): fine-tuning completo con la MFU del "
              "clúster, si no hay benchmark."),
        ),
        Result(
            "FTExamplesPerSec", call("FT_EXAMPLES_PER_SEC", *_FT, "TokensPerExample"),
            T("Examples per second", "Ejemplos por segundo"), T("examples/s", "ejemplos/s"),
            T("GPUs × tokens/s per GPU × efficiency ÷ tokens per example.",
              "GPU × tokens/s por GPU × eficiencia ÷ tokens por ejemplo."),
            fmt=tx.TWO,
        ),
        Result(
            "FTTrainingHours", call("FT_TRAINING_HOURS", *_RUN),
            T("Fine-tune time", "Duración del fine-tuning"), T("hours", "horas"),
            T("Dataset × epochs × tokens per example ÷ (GPUs × tokens/s per GPU × "
              "efficiency) ÷ 3,600.",
              "Dataset × épocas × tokens por ejemplo ÷ (GPU × tokens/s por GPU × "
              "eficiencia) ÷ 3.600."),
            fmt=tx.DURATION, key=True,
        ),
        Result(
            "FTCost", call("FT_COST", *_RUN, "PricePerGPUHour"),
            T("Fine-tune cost", "Coste del fine-tuning"), T("{currency}", "{currency}"),
            T("Fine-tune hours × GPUs × price per GPU-hour.",
              "Horas de fine-tuning × GPU × precio por GPU-hora."),
            fmt=tx.MONEY, key=True,
        ),
    ),
)  # fmt: skip

SCENARIOS = Scenarios(
    T("Scenarios", "Escenarios"),
    T("The base case is the inputs above. A smaller run (fewer GPUs, a lower MFU, "
      "fewer days, a higher price per GPU-hour) and a larger one (a volume price); "
      "type your own cases in the yellow cells. Each case has its own check.",
      "El caso base son los datos de arriba. Una ejecución menor (menos GPU, menor "
      "MFU, menos días, un precio por GPU-hora más alto) y una mayor (precio por "
      "volumen); escriba sus propios casos en las celdas amarillas. Cada caso tiene "
      "su propio control."),
    ("GPUs", "MFU", "Days", "PricePerGPUHour"),
    (
        Case(T("Smaller run", "Ejecución menor"), (512, 0.3, 20, 3.5)),
        Case(T("Larger run", "Ejecución mayor"), (2048, 0.5, 60, 2.0)),
    ),
    ("ComputeBudgetPFDays", "RuleParams", "RuleTokens", "PretrainGPUHours", "PretrainCost"),
)  # fmt: skip

_GPUS = (256, 512, 1024, 2048, 4096)
_MFU = (0.3, 0.4, 0.5, 0.6)
_DAYS = (15, 30, 60, 90)

SIZE_GRID = Grid(
    T("Sensitivity: model size", "Sensibilidad: tamaño del modelo"),
    T("Compute-optimal parameters (20-tokens rule) the cluster buys in the days "
      "above, for each cluster size and MFU.",
      "Parámetros de cómputo óptimo (regla de 20 tokens) que permite el clúster en "
      "los días de arriba, para cada tamaño y MFU."),
    "RuleParams", Axis("GPUs", _GPUS), Axis("MFU", _MFU),
)  # fmt: skip

COST_GRID = Grid(
    T("Sensitivity: cost", "Sensibilidad: coste"),
    T("Cost of the run for each cluster size and number of days, at the price "
      "above. The MFU changes what the run buys (table above), not what it costs.",
      "Coste de la ejecución para cada tamaño de clúster y número de días, al "
      "precio de arriba. La MFU cambia lo que permite la ejecución (tabla de "
      "arriba), no lo que cuesta."),
    "PretrainCost", Axis("GPUs", _GPUS), Axis("Days", _DAYS),
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
    guarded(Ref("x") * Ref("RuleParams"), [F.ISNUMBER(Ref("x")), Ref("x").gt(0)]),
    tx.LARGE,
)
ISO_D = Series(
    "D",
    T("Tokens (D)", "Tokens (D)"),
    guarded(
        call("ISOFLOP_TOKENS", "ComputeBudgetPFDays", "N"),
        [F.ISNUMBER(Ref("N")), F.ISNUMBER(Ref("ComputeBudgetPFDays"))],
    ),
    tx.LARGE,
)


def _above(fit_: str, best: str, label: T) -> Series:
    """The loss of each size above the fit's lowest at this budget."""
    loss = call("CHINCHILLA_LOSS", "N", "D", Lit(fit_)) - Ref(best)
    return Series(f"above.{fit_}", label, guarded(loss, []), "0.0000")


ISOFLOP = Curve(
    T("IsoFLOP curve: loss against model size at this budget",
      "Curva IsoFLOP: pérdida según el tamaño con este presupuesto"),
    T("Each row spends the whole budget: N = multiple × the 20-tokens N, "
      "D = C·8.64e19 ÷ (6N). The loss columns say how far each size is above "
      "each fit's lowest loss; the last two rows are the fits' optima.",
      "Cada fila gasta todo el presupuesto: N = múltiplo × la N de 20 tokens, "
      "D = C·8,64e19 ÷ (6N). Las columnas de pérdida dicen cuánto queda cada "
      "tamaño por encima de la menor pérdida de cada ajuste; las dos últimas "
      "filas son los óptimos."),
    MULTIPLE, MULTIPLES,
    (ISO_N, ISO_D,
     _above("hoffmann", "HoffmannLoss", T("Loss above Hoffmann optimum", "Pérdida sobre el óptimo de Hoffmann")),
     _above("epoch", "EpochLoss", T("Loss above Epoch optimum", "Pérdida sobre el óptimo de Epoch"))),
    (Point(T("Hoffmann optimum", "Óptimo de Hoffmann"), Ref("HoffmannParams"), "above.hoffmann"),
     Point(T("Epoch optimum", "Óptimo de Epoch"), Ref("EpochParams"), "above.epoch")),
    Chart(T("IsoFLOP curves at the cluster's budget", "Curvas IsoFLOP con el presupuesto del clúster"),
          ("above.hoffmann", "above.epoch"),
          y_title=T("Loss above the fit's optimum (nats/token)", "Pérdida sobre el óptimo (nats/token)")),
)  # fmt: skip

NOTES = Notes(
    T("Notes and caveats", "Notas y advertencias"),
    (
        T("The chain: GPUs × peak × MFU × days gives the compute budget; the budget "
          "gives the compute-optimal model and tokens; those give the predicted loss; "
          "GPU-hours give the cost; the same cluster's MFU gives the fine-tuning "
          "speed.",
          "La cadena: GPU × pico × MFU × días da el presupuesto; el presupuesto da el "
          "modelo y los tokens óptimos; estos, la pérdida prevista; las GPU-horas, el "
          "coste; y la MFU del mismo clúster, la velocidad del fine-tuning."),
        T("The 20-tokens rule and the fits disagree: Hoffmann's published, rounded "
          "eq.-10 constants favour smaller models trained longer (a = 0.4516); "
          "Epoch's 2024 replication on the same data lands near 20 tokens per "
          "parameter.",
          "La regla de 20 tokens y los ajustes discrepan: las constantes redondeadas "
          "de la ec. 10 de Hoffmann favorecen modelos más pequeños entrenados más "
          "tiempo (a = 0,4516); la réplica de Epoch (2024) con los mismos datos se "
          "acerca a 20 tokens por parámetro."),
        T("MFU counts model FLOPs (6·N per token) against the dense peak; recomputed "
          "activations are hardware FLOPs (HFU) and do not count, so MFU is below "
          "HFU.",
          "La MFU cuenta FLOPs del modelo (6·N por token) frente al pico denso; las "
          "activaciones recalculadas son FLOPs de hardware (HFU) y no cuentan, por lo "
          "que la MFU es menor que la HFU."),
        T("Losses are each fit's predictions for its training data, in nats per "
          "token: compare sizes within one fit, not across fits or with other data.",
          "Las pérdidas son predicciones de cada ajuste para sus datos, en nats por "
          "token: compare tamaños dentro de un ajuste, no entre ajustes ni con otros "
          "datos."),
        T("The fine-tune estimate is full fine-tuning (6·N FLOPs per token) at the "
          "same MFU; count padding in the tokens per example.",
          "La estimación de fine-tuning es un ajuste completo (6·N FLOPs por token) "
          "con la misma MFU; cuente el relleno en los tokens por ejemplo."),
    ),
)  # fmt: skip

PLANNER = Template(
    slug="llm-training-planner",
    title=T("LLM training planner", "Planificador de entrenamiento de LLM"),
    subtitle=T(
        "From a GPU cluster to a model: the compute budget it delivers, the "
        "compute-optimal model and tokens for that budget (20-tokens rule and two "
        "fitted scaling laws), the loss they predict, the cost, and the speed of a "
        "fine-tune on the same cluster. Default: 1,024 H100s at 40 % MFU for 30 days.",
        "De un clúster de GPU a un modelo: el presupuesto de cómputo que aporta, el "
        "modelo y los tokens de cómputo óptimo para ese presupuesto (regla de 20 "
        "tokens y dos leyes de escalado ajustadas), la pérdida prevista, el coste y la "
        "velocidad de un fine-tuning en el mismo clúster. Por defecto: 1.024 H100 al "
        "40 % de MFU durante 30 días.",
    ),
    subject=T("LLM training plan: cluster, compute budget, model size, loss, cost",
              "Plan de entrenamiento de LLM: clúster, cómputo, tamaño, pérdida, coste"),
    keywords=T("LLM; training; scaling laws; Chinchilla; MFU; GPU; xlfuncs",
               "LLM; entrenamiento; leyes de escalado; Chinchilla; MFU; GPU; xlfuncs"),
    cover=Cover(
        answers=T(
            "What a GPU cluster buys: the compute budget of a training run, the "
            "compute-optimal model and tokens for it by three rules, their predicted "
            "loss and the cost; then how long and how much a fine-tune of a model you "
            "name takes on the same cluster. Scenarios and sensitivity tables show "
            "what changes with the cluster size, the MFU, the days and the price.",
            "Lo que da de sí un clúster de GPU: el presupuesto de cómputo de un "
            "entrenamiento, el modelo y los tokens de cómputo óptimo según tres "
            "reglas, su pérdida prevista y el coste; después, cuánto tarda y cuesta un "
            "fine-tuning del modelo que usted indique en el mismo clúster. Escenarios "
            "y tablas de sensibilidad muestran qué cambia con el tamaño, la MFU, los "
            "días y el precio.",
        ),
        steps=(
            T("On the Planner sheet, pick the GPU model and precision from the lists, "
              "then type the GPUs, MFU, days, price and currency over the yellow "
              "cells.",
              "En la hoja Planificador, elija el modelo de GPU y la precisión de las "
              "listas, y escriba GPU, MFU, días, precio y moneda en las celdas "
              "amarillas."),
            T("For the fine-tune, type the parameters of the model you will fine-tune "
              "(or leave it blank for the compute-optimal one) and your dataset.",
              "Para el fine-tuning, escriba los parámetros del modelo que ajustará (o "
              "déjelo en blanco para el de cómputo óptimo) y su dataset."),
            T("Read the model check at the top, then the results, the scenarios and "
              "the tables below them. The Data sheet lists the accelerators and the "
              "fits' constants with their sources.",
              "Lea el control del modelo arriba, luego los resultados, los escenarios y "
              "las tablas de debajo. La hoja Datos lista los aceleradores y las "
              "constantes de los ajustes con sus fuentes."),
        ),
        limits=(
            T("Peaks are dense datasheet figures; what a run reaches depends on the "
              "MFU you enter.",
              "Los picos son cifras densas de ficha técnica; lo que alcanza una "
              "ejecución depende de la MFU que introduzca."),
            T("The three sizing rules disagree by design: they are estimates from "
              "different fits, not a single answer.",
              "Las tres reglas de tamaño discrepan por diseño: son estimaciones de "
              "ajustes distintos, no una única respuesta."),
            T("Costs cover GPU time only: no storage, networking, staff or failed "
              "runs.",
              "Los costes cubren solo el tiempo de GPU: ni almacenamiento, ni red, ni "
              "personal, ni ejecuciones fallidas."),
            T("Energy counts the GPUs at their maximum board power (TDP) times the "
              "PUE. Host CPUs, memory and network switches are not counted; GPUs "
              "seldom draw their full TDP throughout, which partly offsets that.",
              "La energía cuenta las GPU a su potencia máxima de placa (TDP) por el "
              "PUE. No cuenta las CPU de los servidores, la memoria ni los "
              "conmutadores de red; las GPU rara vez consumen todo su TDP, lo que lo "
              "compensa en parte."),
        ),
        sources=SOURCES_PLANNER,
    ),
    sheets=(
        Sheet(T("Planner", "Planificador"), (
            CLUSTER, BUDGET, MODEL, LOSS, MEMORY_INPUTS, MEMORY, ENERGY_INPUTS, ENERGY,
            FT_INPUTS, FT, SCENARIOS, SIZE_GRID, COST_GRID, ISOFLOP, NOTES,
        )),
    ),
    data_sheet=True,
)  # fmt: skip
