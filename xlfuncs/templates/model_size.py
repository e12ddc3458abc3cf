"""The compute-optimal model size template: the Chinchilla 20-tokens rule, and
what training that model costs on a cluster. It follows the "Calculadora de
tamaño de modelo de cómputo óptimo" calculator: C = 6·N·D with D = r·N, so
N = √(C·8.64e19 / (6r)).
"""

from __future__ import annotations

from . import texts as tx
from .blocks import (
    Chart,
    Cover,
    Figures,
    Input,
    Inputs,
    Notes,
    Result,
    Results,
    Sheet,
    Stamp,
    Sweep,
    Template,
)
from .expr import Ref, call
from .shared import (
    CONTINGENCY_INPUT,
    CURRENCY,
    MFU,
    PRICE,
    SOURCES_SIZE,
    glossary,
    time_checks,
    with_contingency,
)
from .texts import T

_CH = ("ComputeBudgetPFDays", "TokensPerParam")

BUDGET = Inputs(
    T("Training compute (the compute budget)", "Cómputo de entrenamiento (presupuesto de cómputo)"),
    (
        Input(
            "ComputeBudgetPFDays", "budget_pf_days", 6000,
            T("Training compute (C)", "Cómputo de entrenamiento (C)"), T("PF/s-days", "PF/s-días"),
            T("Training compute in petaFLOP/s-days: 1 PF/s-day = 10^15 FLOP/s for a "
              "day = 8.64e19 FLOPs.",
              "Cómputo de entrenamiento en petaFLOP/s-días: 1 PF/s-día = 10^15 FLOP/s "
              "durante un día = 8,64e19 FLOPs."),
        ),
        Input(
            "TokensPerParam", "tokens_per_param", 20,
            T("Tokens per parameter (r)", "Tokens por parámetro (r)"), T("tokens/param", "tokens/parám."),
            T("Training tokens per parameter; Chinchilla's compute-optimal ratio is "
              "about 20.",
              "Tokens de entrenamiento por parámetro; la proporción óptima de "
              "Chinchilla es de unos 20."),
            fmt=tx.DECIMAL,
        ),
    ),
)  # fmt: skip

SIZE = Results(
    T("Compute-optimal model", "Modelo de cómputo óptimo"),
    (
        Result(
            "OptimalParams", call("CHINCHILLA_PARAMS", *_CH),
            T("Parameters (N)", "Parámetros (N)"), T("parameters", "parámetros"),
            T("√(C × 8.64e19 ÷ (6 × r)): the budget through C = 6·N·D with D = r·N. "
              "In billions (B).",
              "√(C × 8,64e19 ÷ (6 × r)): el presupuesto con C = 6·N·D y D = r·N. En "
              "miles de millones (mil M)."),
            fmt=tx.LARGE, key=True,
        ),
        Result(
            "OptimalTokens", call("CHINCHILLA_TOKENS", *_CH),
            T("Training tokens (D)", "Tokens de entrenamiento (D)"), T("tokens", "tokens"),
            T("r × N. In trillions (T, 10^12).", "r × N. En billones (bill., 10^12)."),
            fmt=tx.LARGE, key=True,
        ),
        Result(
            "TrainingFLOPs", call("PFDAYS_TO_FLOPS", "ComputeBudgetPFDays"),
            T("Training compute in FLOPs", "Cómputo de entrenamiento en FLOPs"), T("FLOPs", "FLOPs"),
            T("C × 8.64e19 FLOPs per PF/s-day; equals 6 × N × D.",
              "C × 8,64e19 FLOPs por PF/s-día; igual a 6 × N × D."),
            fmt=tx.SCIENTIFIC,
        ),
    ),
)  # fmt: skip

CLUSTER = Inputs(
    T("Your cluster", "Su clúster"),
    (
        Input(
            "GPUs", "gpus", 1024,
            T("GPUs", "GPU"), T("GPUs", "GPU"),
            T("Accelerators that train the model. A whole number, 1 or more.",
              "Aceleradores que entrenan el modelo. Un entero, 1 o más."),
            whole=True,
        ),
        Input(
            "PeakTFLOPSPerGPU", "peak_tflops_per_gpu", 989.4,
            T("Peak per GPU", "Pico por GPU"), T("TFLOP/s", "TFLOP/s"),
            T("Dense peak of one accelerator in the training precision: 989.4 for an "
              "H100 SXM in bf16 (its datasheet's 1,979 is with sparsity), 312 for an "
              "A100.",
              "Pico denso de un acelerador en la precisión de entrenamiento: 989,4 "
              "para una H100 SXM en bf16 (el 1.979 de su ficha es con dispersión), 312 "
              "para una A100."),
            fmt=tx.DECIMAL,
        ),
        MFU,
        PRICE,
        CURRENCY,
    ),
)  # fmt: skip

RUN = Results(
    T("Training this model on your cluster", "Entrenar este modelo en su clúster"),
    (
        Result(
            "ClusterDays",
            call("CLUSTER_DAYS", "ComputeBudgetPFDays", "GPUs", "PeakTFLOPSPerGPU", "MFU"),
            T("Training time", "Duración del entrenamiento"), T("days", "días"),
            T("C × 1,000 ÷ (GPUs × peak × MFU): 1 PF/s-day is 1,000 TFLOP/s-days.",
              "C × 1.000 ÷ (GPU × pico × MFU): 1 PF/s-día son 1.000 TFLOP/s-días."),
            fmt=tx.DURATION, key=True,
            checks=time_checks("ClusterDays", 365),
        ),
        Result(
            "ClusterGPUHours", call("CLUSTER_GPU_HOURS", "GPUs", "ClusterDays"),
            T("GPU-hours", "GPU-horas"), T("GPU-hours", "GPU-horas"),
            T("GPUs × days × 24.", "GPU × días × 24."),
        ),
        Result(
            "ClusterCost", call("CLUSTER_COST", "GPUs", "ClusterDays", "PricePerGPUHour"),
            T("Training cost", "Coste del entrenamiento"), T("{currency}", "{currency}"),
            T("GPU-hours × price per GPU-hour, before contingency.",
              "GPU-horas × precio por GPU-hora, sin contingencia."),
            fmt=tx.MONEY, key=True,
        ),
    ),
)  # fmt: skip

BUDGETS = Sweep(
    T("Budgets from {first} to {last} PF/s-days", "Presupuestos de {first} a {last} PF/s-días"),
    T("Tokens per parameter as above; type other budgets in the yellow cells. Each "
      "10× budget gives √10 ≈ 3.16× the parameters and the tokens.",
      "Tokens por parámetro como arriba; escriba otros presupuestos en las celdas "
      "amarillas. Cada presupuesto 10× da √10 ≈ 3,16× parámetros y tokens."),
    "ComputeBudgetPFDays",
    (1, 10, 100, 1_000, 10_000, 100_000),
    ("OptimalParams", "OptimalTokens", "ClusterDays", "ClusterCost"),
    Chart(T("Compute-optimal parameters and tokens against budget",
            "Parámetros y tokens óptimos según el presupuesto"),
          ("OptimalParams", "OptimalTokens"), log_x=True, log_y=True,
          y_title=T("Parameters and tokens", "Parámetros y tokens")),
)  # fmt: skip

NOTES = Notes(
    T("Notes and caveats", "Notas y advertencias"),
    (
        T("Training compute is about 6·N·D FLOPs (six operations per parameter and "
          "token). Chinchilla (Hoffmann et al. 2022) found that for a fixed budget "
          "loss is lowest when parameters and tokens grow together, at about 20 "
          "tokens per parameter.",
          "El cómputo de entrenamiento es de unas 6·N·D operaciones (seis por "
          "parámetro y token). Chinchilla (Hoffmann et al. 2022) mostró que, con un "
          "presupuesto fijo, la pérdida es mínima cuando parámetros y tokens crecen "
          "juntos, con unos 20 tokens por parámetro."),
        T("Doubling the budget raises the optimal size by about √2, not 2: compute "
          "grows with the square of N once tokens are tied to it.",
          "Duplicar el presupuesto eleva el tamaño óptimo en torno a √2, no 2: el "
          "cómputo crece con el cuadrado de N al ligar los tokens a él."),
        T("This is compute-optimal training and nothing more. Serving the model "
          "often favours a smaller model trained on more tokens, so deployed models "
          "often sit below this size.",
          "Es el entrenamiento de cómputo óptimo y nada más. Servir el modelo suele "
          "favorecer un modelo más pequeño entrenado con más tokens; los modelos "
          "desplegados suelen quedar por debajo de este tamaño."),
        T("The ratio of 20 is an estimate that shifts with data and architecture, and "
          "real runs sustain only part of the hardware's peak (the MFU): treat the "
          "results as a planning estimate.",
          "La proporción de 20 es una estimación que cambia con los datos y la "
          "arquitectura, y las ejecuciones reales solo sostienen parte del pico (la "
          "MFU): tome los resultados como estimación de planificación."),
    ),
)  # fmt: skip

#: An input on the model sheet, never on the Summary, which only shows it.
KEY_ASSUMPTIONS = Inputs(T("Key assumptions", "Supuestos clave"), (CONTINGENCY_INPUT,))

SUMMARY = Sheet(
    T("Summary", "Resumen"),
    (
        with_contingency(Ref("ClusterCost"), ("ClusterCost",)),
        Figures(
            T("The model and the run", "El modelo y la ejecución"),
            ("ComputeBudgetPFDays", "OptimalParams", "OptimalTokens", "GPUs",
             "PeakTFLOPSPerGPU", "ClusterDays", "ClusterGPUHours"),
        ),
        Figures(T("Key assumptions", "Supuestos clave"), ("MFU", "Contingency")),
        Notes(
            T("Built-in assumptions", "Supuestos incorporados"),
            (
                T("Training costs 6 FLOPs a parameter and token (Kaplan et al. 2020), "
                  "embeddings included; the compute-optimal ratio is 20 tokens a "
                  "parameter unless you type another.",
                  "Entrenar cuesta 6 FLOPs por parámetro y token (Kaplan et al. 2020), "
                  "incluidos los embeddings; la proporción óptima es de 20 tokens por "
                  "parámetro salvo que escriba otra."),
            ),
        ),
        glossary("mfu", "pf_day", "gpu_hour"),
        Stamp(),
    ),
    summary=True,
    legend=T("Your figures go in the yellow cells of the Model size sheet; this page shows "
             "what they give.",
             "Sus cifras van en las celdas amarillas de la hoja Tamaño del modelo; esta página "
             "muestra lo que dan."),
)  # fmt: skip

CHINCHILLA = Template(
    slug="chinchilla-model-size",
    title=T("Compute-optimal model size (Chinchilla)", "Tamaño de modelo de cómputo óptimo (Chinchilla)"),
    subtitle=T(
        "For a training compute budget in petaFLOP/s-days, the parameter count N "
        "and training tokens D that use it best by the Chinchilla rule, and the time "
        "and cost of training that model on your cluster. Default: "
        "{ComputeBudgetPFDays} PF/s-days at {TokensPerParam} tokens per parameter → "
        "{OptimalParams} parameters, {OptimalTokens} tokens.",
        "Para un presupuesto de cómputo en petaFLOP/s-días, el número de parámetros "
        "N y de tokens D que mejor lo aprovechan según Chinchilla, y la duración y el "
        "coste de entrenar ese modelo en su clúster. Por defecto: "
        "{ComputeBudgetPFDays} PF/s-días con {TokensPerParam} tokens por parámetro → "
        "{OptimalParams} parámetros, {OptimalTokens} tokens.",
    ),
    subject=T("Compute-optimal parameters and tokens for a compute budget",
              "Parámetros y tokens de cómputo óptimo para un presupuesto"),
    keywords=T("Chinchilla; scaling laws; compute budget; PF/s-days; xlfuncs",
               "Chinchilla; leyes de escalado; presupuesto de cómputo; PF/s-días; xlfuncs"),
    cover=Cover(
        answers=T(
            "How big a model a training compute budget should buy, and on how many "
            "tokens to train it (the Chinchilla rule of about 20 tokens per "
            "parameter); how long and how much training that model takes on a "
            "cluster you describe.",
            "Qué tamaño de modelo permite un presupuesto de cómputo y con "
            "cuántos tokens entrenarlo (la regla de Chinchilla, unos 20 tokens por "
            "parámetro); cuánto tarda y cuánto cuesta entrenarlo en el clúster que "
            "usted describa.",
        ),
        steps=(
            T("On the Model size sheet, type the budget in PF/s-days and the tokens per "
              "parameter over the yellow cells.",
              "En la hoja Tamaño del modelo, escriba el presupuesto en PF/s-días y los "
              "tokens por parámetro en las celdas amarillas."),
            T("Describe your cluster: GPUs, the dense peak per GPU, the MFU you expect, "
              "price and currency.",
              "Describa su clúster: GPU, pico denso por GPU, la MFU que espera, precio y "
              "moneda."),
            T("Read the model check at the top, then the results and the table of "
              "budgets.",
              "Lea el control del modelo arriba, luego los resultados y la tabla de "
              "presupuestos."),
        ),
        limits=(
            T("The 20-tokens rule is compute-optimal for training loss only; it ignores "
              "the cost of serving the model.",
              "La regla de 20 tokens es óptima solo para la pérdida de entrenamiento; "
              "ignora el coste de servir el modelo."),
            T("Time and the training cost assume the MFU holds for the whole run; "
              "restarts and re-runs are in the contingency on the Summary, "
              "evaluations nowhere.",
              "Duración y coste del entrenamiento suponen que la MFU se mantiene toda "
              "la ejecución; los reinicios y repeticiones van en la contingencia del "
              "Resumen, las evaluaciones en ninguna parte."),
        ),
        sources=SOURCES_SIZE,
    ),
    sheets=(
        SUMMARY,
        Sheet(T("Model size", "Tamaño del modelo"),
              (BUDGET, SIZE, CLUSTER, RUN, KEY_ASSUMPTIONS, BUDGETS, NOTES)),
    ),
    data_sheet=True,
)  # fmt: skip
