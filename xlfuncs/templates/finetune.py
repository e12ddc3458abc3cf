"""The fine-tuning workbook: how fast a cluster works through a dataset, how long
the run takes, what it costs, and whether the model fits the GPUs with the method
chosen. It follows the "Estimador de throughput para fine-tuning" calculator:
effective throughput = G·V·η, examples/s = G·V·η / T. Figures in ``{braces}`` in
its texts are the defaults' own results, filled in as the workbook is built.
"""

from __future__ import annotations

from . import texts as tx
from .blocks import (
    Axis,
    Case,
    Chart,
    Check,
    Cover,
    Figures,
    Grid,
    Input,
    Inputs,
    Notes,
    Result,
    Results,
    Scenarios,
    Sheet,
    Stamp,
    Sweep,
    Template,
)
from .expr import F, Ref, call
from .shared import (
    CONTINGENCY_INPUT,
    CURRENCY,
    DATASET_EXAMPLES,
    DTYPE,
    EPOCHS,
    FT_METHOD,
    FT_MFU,
    FT_MODEL,
    GPU_MODEL,
    LORA_SPEED,
    OPTIMIZER,
    PRICE,
    RECOMPUTE,
    SOURCE,
    SOURCES_FINETUNE,
    STATE_BYTES,
    TOKENS_PER_EXAMPLE,
    USABLE,
    estimate_rows,
    glossary,
    memory_rows,
    memory_verdicts,
    mfu_checks,
    shape_rows,
    time_checks,
    with_contingency,
)
from .texts import T

_FT = ("GPUs", "TokensPerSecUsed", "Efficiency")
_RUN = ("DatasetExamples", "Epochs", *_FT, "TokensPerExample")

RUN = Inputs(
    T("The run", "La ejecución"),
    (
        Input(
            "GPUs", "gpus", 8,
            T("GPUs (G)", "GPU (G)"), T("GPUs", "GPU"),
            T("GPUs training in parallel. A whole number, 1 or more.",
              "GPU que entrenan en paralelo. Un entero, 1 o más."),
            whole=True,
        ),
        Input(
            "Efficiency", "efficiency", 0.82,
            T("Scaling efficiency (η)", "Eficiencia de escalado (η)"), T("% of ideal", "% del ideal"),
            T("Share of ideal linear scaling the cluster reaches: losses to "
              "communication, synchronisation, I/O and evaluation. Type 82%.",
              "Parte del escalado lineal ideal que alcanza el clúster: pérdidas por "
              "comunicación, sincronización, E/S y evaluación. Escriba 82 %."),
            fmt=tx.PERCENT_FMT,
        ),
        TOKENS_PER_EXAMPLE,
        DATASET_EXAMPLES,
        EPOCHS,
        PRICE,
        CURRENCY,
    ),
)  # fmt: skip

SPEED = Inputs(
    T("Model, method and speed", "Modelo, método y velocidad"),
    (
        FT_MODEL,
        FT_METHOD,
        GPU_MODEL,
        Input(
            "ThroughputSource", "", "measured",
            T("Throughput per GPU from", "Rendimiento por GPU"), T("source", "origen"),
            T("measured: the tokens/s typed below, from your own benchmark; estimated: "
              "from the model, the GPU's peak in the precision below and the MFU.",
              "medido: los tokens/s de abajo, de su propia prueba; estimado: del "
              "modelo, el pico de la GPU en la precisión de abajo y la MFU."),
            kind="list", keys="SourceKeys", menu="SourceNames",
        ),
        Input(
            "TokensPerSecPerGPU", "tokens_per_sec_per_gpu", 2500,
            T("Measured tokens/s per GPU (V)", "Tokens/s medidos por GPU (V)"), T("tokens/s", "tokens/s"),
            T("Tokens per second one GPU sustains for this model and method, measured "
              "with a representative batch and sequence length.",
              "Tokens por segundo que sostiene una GPU con este modelo y método, "
              "medidos con un lote y una secuencia representativos."),
        ),
        DTYPE,
        FT_MFU,
        LORA_SPEED,
    ),
)  # fmt: skip

SPEED_STEPS = Results(
    T("Speed", "Velocidad"),
    (
        *estimate_rows(),
        Result(
            "ImpliedMFU", Ref("TokensPerSecPerGPU") / Ref("EstimatedTokensPerSec") * Ref("MFU"),
            T("MFU the measured speed implies", "MFU que implica la velocidad medida"),
            T("% of peak", "% del pico"),
            T("Measured tokens/s per GPU ÷ the estimate × the MFU above: how much of the "
              "GPU's peak the measured speed reaches, to compare with the 35-55 % of "
              "large runs.",
              "Tokens/s medidos por GPU ÷ la estimación × la MFU de arriba: cuánto del "
              "pico de la GPU alcanza la velocidad medida, frente al 35-55 % de los "
              "grandes entrenamientos."),
            fmt=tx.PERCENT_FMT,
        ),
        # The measured speed judged where it is used: a speed this GPU cannot
        # reach with this model (typed for another, or per minute) makes every
        # result from it n/a, not only its MFU.
        Result(
            "TokensPerSecUsed", F.IF(SOURCE.eq(1), Ref("TokensPerSecPerGPU"), Ref("EstimatedTokensPerSec")),
            T("Tokens/s per GPU used", "Tokens/s por GPU usados"), T("tokens/s", "tokens/s"),
            T("The measured figure, or the estimate, as chosen above.",
              "La cifra medida, o la estimación, según lo elegido arriba."),
            # Unjudged while the source is not a choice (its own check says so):
            # no error inside OR, which engines pass on differently.
            checks=tuple(Check(F.OR(F.IFERROR(SOURCE.ne(1), True), c.cond), c.message, c.error)
                         for c in mfu_checks("ImpliedMFU")),
        ),
        Result(
            "EffectiveThroughput", call("FT_THROUGHPUT", *_FT),
            T("Effective throughput", "Rendimiento efectivo (throughput)"), T("tokens/s", "tokens/s"),
            T("GPUs × tokens/s per GPU × efficiency (G·V·η): tokens per second of the "
              "whole cluster.",
              "GPU × tokens/s por GPU × eficiencia (G·V·η): tokens por segundo de todo "
              "el clúster."),
        ),
        Result(
            "TokensPerMin", call("FT_TOKENS_PER_MIN", *_FT),
            T("Tokens per minute", "Tokens por minuto"), T("tokens/min", "tokens/min"),
            T("Effective throughput × 60 s.", "Rendimiento efectivo × 60 s."),
        ),
    ),
    steps=True,
)  # fmt: skip


RESULTS = Results(
    T("Results", "Resultados"),
    (
        Result(
            "ExamplesPerSec", call("FT_EXAMPLES_PER_SEC", *_FT, "TokensPerExample"),
            T("Examples per second", "Ejemplos por segundo"), T("examples/s", "ejemplos/s"),
            T("Effective throughput ÷ tokens per example (G·V·η / T).",
              "Rendimiento efectivo ÷ tokens por ejemplo (G·V·η / T)."),
            fmt=tx.TWO, key=True,
        ),
        Result(
            "ExamplesPerMin", call("FT_EXAMPLES_PER_MIN", *_FT, "TokensPerExample"),
            T("Examples per minute", "Ejemplos por minuto"), T("examples/min", "ejemplos/min"),
            T("Examples per second × 60 s.", "Ejemplos por segundo × 60 s."),
            fmt=tx.TWO,
        ),
        Result(
            "TrainingHours", call("FT_TRAINING_HOURS", *_RUN),
            T("Training time", "Duración del entrenamiento"), T("hours", "horas"),
            T("Dataset × epochs × tokens per example ÷ effective throughput ÷ 3,600 s "
              "per hour: wall-clock time.",
              "Conjunto de datos × épocas × tokens por ejemplo ÷ rendimiento efectivo ÷ "
              "3.600 s por hora: tiempo de reloj."),
            fmt=tx.DURATION, key=True, checks=time_checks("TrainingHours"),
        ),
        Result(
            "TrainingDays", Ref("TrainingHours") / 24,
            T("Training time in days", "Duración en días"), T("days", "días"),
            T("Training time ÷ 24.", "Duración ÷ 24."), fmt=tx.DURATION,
        ),
        Result(
            "GPUHours", call("FT_GPU_HOURS", *_RUN),
            T("GPU-hours", "GPU-horas"), T("GPU-hours", "GPU-horas"),
            T("Training time × GPUs: what a cloud bills.",
              "Duración × GPU: lo que factura el proveedor de nube."),
            fmt=tx.TWO,
        ),
        Result(
            "TrainingCost", call("FT_COST", *_RUN, "PricePerGPUHour"),
            T("Training cost", "Coste del entrenamiento"), T("{currency}", "{currency}"),
            T("GPU-hours × price per GPU-hour, before contingency.",
              "GPU-horas × precio por GPU-hora, sin contingencia."),
            fmt=tx.MONEY, key=True,
        ),
    ),
)  # fmt: skip

MEMORY_INPUTS = Inputs(
    T("Memory per GPU", "Memoria por GPU"),
    (
        Input(
            "SeqLen", "seq_len", 2048,
            T("Sequence length", "Longitud de secuencia"), T("tokens", "tokens"),
            T("The longest sequence a batch is padded to (not the mean).",
              "La secuencia más larga a la que se rellena un lote (no la media)."),
        ),
        Input(
            "MicroBatch", "micro_batch", 4,
            T("Micro-batch per GPU", "Microlote por GPU"), T("sequences", "secuencias"),
            T("Sequences each GPU holds at once. A whole number, 1 or more.",
              "Secuencias que procesa cada GPU a la vez. Un entero, 1 o más."),
        ),
        Input(
            "LoRARank", "rank", 16,
            T("LoRA rank (r)", "Rango de LoRA (r)"), T("dimensions", "dimensiones"),
            T("Rank of the adapters on every linear layer (q, k, v, o, gate, up, down), "
              "as QLoRA trains them.",
              "Rango de los adaptadores en todas las capas lineales (q, k, v, o, gate, "
              "up, down), como los entrena QLoRA."),
        ),
        Input(
            "ZeroStage", "zero_stage", 3,
            T("ZeRO stage", "Etapa de ZeRO"), T("0 to 3", "0 a 3"),
            T("How the GPUs above share the model state: 3 shards weights, gradients "
              "and optimizer states; LoRA and QLoRA shard their frozen weights at 3 too.",
              "Cómo se reparten el estado del modelo las GPU de arriba: 3 reparte "
              "pesos, gradientes y estados del optimizador; LoRA y QLoRA reparten también sus "
              "pesos congelados en la 3."),
        ),
        RECOMPUTE,
        OPTIMIZER,
    ),
)  # fmt: skip

SHAPE = Results(T("The model's shape", "La forma del modelo"), shape_rows(), steps=True)

MEMORY = Results(
    T(
        "Memory per GPU: full, LoRA and QLoRA",
        "Memoria por GPU: completo, LoRA y QLoRA",
    ),
    memory_rows("GPUs"),
    verdicts=memory_verdicts(),
)

SCENARIOS = Scenarios(
    T("Scenarios", "Escenarios"),
    T("Each case changes the inputs above by the multiples in its column: the "
      "pessimistic one halves the GPUs and is slower and dearer, the optimistic one "
      "doubles them and is faster and cheaper. Type other multiples in the yellow "
      "cells; each case has its own check.",
      "Cada caso cambia los datos de arriba por los múltiplos de su columna: el "
      "pesimista reduce las GPU a la mitad y es más lento y caro, el optimista las "
      "duplica y es más rápido y barato. Escriba otros múltiplos en las celdas "
      "amarillas; cada caso tiene su propio control."),
    ("GPUs", "Efficiency", "TokensPerExample", "PricePerGPUHour"),
    (
        Case(T("Pessimistic", "Pesimista"), (0.5, 0.85, 1.25, 1.25)),
        Case(T("Optimistic", "Optimista"), (2.0, 1.1, 0.8, 0.8)),
    ),
    ("ExamplesPerSec", "TrainingHours", "GPUHours", "TrainingCost", "TotalCost"),
)  # fmt: skip

_AROUND = (0.25, 0.5, 1.0, 2.0, 4.0)
_ETA = (0.8, 0.9, 1.0, 1.1, 1.2)

HOURS_GRID = Grid(
    T("Sensitivity: training time", "Sensibilidad: duración"),
    T("Hours for the run above at a quarter to four times its GPUs and at 80 % to "
      "120 % of its efficiency (never above 100 %); the middle is the base case.",
      "Horas de la ejecución de arriba con de un cuarto a cuatro veces sus GPU y del "
      "80 % al 120 % de su eficiencia (nunca más del 100 %); el centro es el caso "
      "base."),
    "TrainingHours", Axis("GPUs", _AROUND, multiples=True), Axis("Efficiency", _ETA, multiples=True),
)  # fmt: skip

COST_GRID = Grid(
    T("Sensitivity: cost", "Sensibilidad: coste"),
    T("Cost of the run above at half to twice the price per GPU-hour and at 80 % to "
      "120 % of its efficiency (never above 100 %); the middle is the base case. The GPU count changes "
      "the time, not the cost: twice the GPUs finish in half the time.",
      "Coste de la ejecución de arriba con de la mitad al doble del precio por "
      "GPU-hora y del 80 % al 120 % de su eficiencia (nunca más del 100 %); el centro es el caso base. El "
      "número de GPU cambia la duración, no el coste: el doble de GPU termina en la "
      "mitad de tiempo."),
    "TrainingCost", Axis("PricePerGPUHour", (0.5, 0.75, 1.0, 1.5, 2.0), multiples=True),
    Axis("Efficiency", _ETA, multiples=True),
)  # fmt: skip

LENGTHS = Sweep(
    T("Example length", "Longitud del ejemplo"),
    T("Other inputs as above. Type the lengths of your datasets in the yellow cells "
      "(their mean, median or 90th percentile, say): longer examples, fewer examples "
      "per second at the same token capacity.",
      "Resto de datos como arriba. Escriba en las celdas amarillas las longitudes de "
      "sus conjuntos de datos (media, mediana o percentil 90): ejemplos más largos, "
      "menos ejemplos por segundo con la misma capacidad en tokens."),
    "TokensPerExample",
    (256, 512, 1024, 2048, 4096, 8192),
    ("ExamplesPerSec", "ExamplesPerMin", "TrainingHours", "TrainingCost"),
    Chart(T("Examples per second against tokens per example",
            "Ejemplos por segundo según tokens por ejemplo"),
          ("ExamplesPerSec",), log_x=True),
)  # fmt: skip

NOTES = Notes(
    T("Notes and caveats", "Notas y advertencias"),
    (
        T("Efficiency summarises losses to communication, synchronisation, I/O, "
          "evaluation and imperfect utilisation: 82 % means the cluster reaches 82 % "
          "of G times one GPU's throughput. Measure it again for very different "
          "cluster sizes.",
          "La eficiencia resume pérdidas por comunicación, sincronización, E/S, "
          "evaluación y utilización imperfecta: 82 % significa que el clúster alcanza "
          "el 82 % de G veces el rendimiento de una GPU. Vuelva a medirla si el "
          "clúster cambia mucho de tamaño."),
        T("Tokens per example include input and output. If padding costs compute in "
          "your pipeline, count it in the tokens per example or in the efficiency.",
          "Los tokens por ejemplo incluyen entrada y salida. Si el relleno consume "
          "cómputo en su proceso, cuéntelo en los tokens por ejemplo o en la "
          "eficiencia."),
        T("A measured throughput is for the model and method it was measured with; "
          "the estimate counts 6 FLOPs a parameter and token and the attention's at "
          "the MFU you type, for every method, times the LoRA and QLoRA speed.",
          "Un rendimiento medido vale para el modelo y el método con que se midió; la "
          "estimación cuenta 6 FLOPs por parámetro y token y los de la atención con "
          "la MFU que escriba, en todo método, por la velocidad de LoRA y QLoRA."),
        T("A mean length can hide very different tails: compare several lengths "
          "(table above) or use a percentile of your data (Excel's PERCENTILE.INC).",
          "Una longitud media puede ocultar colas muy distintas: compare varias "
          "longitudes (tabla de arriba) o use un percentil de sus datos "
          "(PERCENTIL.INC de Excel)."),
    ),
)  # fmt: skip

ASSUMPTIONS = Notes(
    T("Built-in assumptions", "Supuestos incorporados"),
    (
        STATE_BYTES,
        T("The memory check counts a training step's peak: the model state, the "
          "activations, the loss, 10 % for the allocator and 1.3 GB of CUDA "
          "context; it keeps the rest of each GPU free (the usable share).",
          "El control de memoria cuenta el pico de un paso de entrenamiento: el "
          "estado del modelo, las activaciones, la pérdida, un 10 % para el "
          "asignador y 1,3 GB de contexto CUDA; deja libre el resto de cada GPU "
          "(la parte utilizable)."),
    ),
)  # fmt: skip

#: Inputs on the model sheet, never on the Summary, which only shows them.
KEY_ASSUMPTIONS = Inputs(
    T("Key assumptions", "Supuestos clave"), (CONTINGENCY_INPUT, USABLE)
)

SUMMARY = Sheet(
    T("Summary", "Resumen"),
    (
        with_contingency(Ref("TrainingCost"), ("TrainingCost",)),
        Figures(
            T("Time and resources", "Tiempo y recursos"),
            ("FTModel", "FTMethod", "GPUModel", "GPUs", "TrainingHours", "GPUHours",
             "ExamplesPerSec", "MethodMemoryGB", "MethodMinGPUs"),
        ),
        Figures(T("Key assumptions (Fine-tuning sheet)", "Supuestos clave (hoja Ajuste fino)"),
                ("Contingency", "UsableMemory")),
        ASSUMPTIONS,
        glossary("mfu", "zero", "lora", "gpu_hour"),
        Stamp(),
    ),
    summary=True,
    legend=T("Your figures go in the yellow cells of the Fine-tuning sheet; this page shows "
             "what they give.",
             "Sus cifras van en las celdas amarillas de la hoja Ajuste fino; esta página "
             "muestra lo que dan."),
)  # fmt: skip

FINETUNE = Template(
    slug="finetune-throughput",
    title=T("Fine-tuning planner", "Planificador de ajuste fino (fine-tuning)"),
    subtitle=T(
        "How many examples a GPU cluster fine-tunes on per second, how long the run "
        "takes, what it costs and whether the model fits the GPUs. Defaults: "
        "{GPUs} GPUs × {TokensPerSecUsed} tokens/s × {Efficiency} with "
        "{TokensPerExample}-token examples, {ExamplesPerSec} examples/s; dataset, "
        "epochs and price are examples to replace.",
        "Cuántos ejemplos por segundo procesa un clúster de GPU en un ajuste fino, "
        "cuánto dura, cuánto cuesta y si el modelo cabe en las GPU. Por defecto: "
        "{GPUs} GPU × {TokensPerSecUsed} tokens/s × {Efficiency} con ejemplos de "
        "{TokensPerExample} tokens, {ExamplesPerSec} ejemplos/s; conjunto de datos, "
        "épocas y precio son ejemplos a sustituir.",
    ),
    subject=T("Fine-tuning throughput, time, cost and memory",
              "Rendimiento, duración, coste y memoria del ajuste fino"),
    keywords=T("fine-tuning; throughput; GPU; tokens per second; LoRA; xlfuncs",
               "ajuste fino; rendimiento; GPU; tokens por segundo; LoRA; xlfuncs"),
    cover=Cover(
        answers=T(
            "For a fine-tuning run on a GPU cluster: its effective throughput in "
            "tokens and examples per second, the wall-clock time, the GPU-hours a "
            "cloud bills and the cost with a contingency for restarts; whether the "
            "model fits the GPUs with full fine-tuning, LoRA or QLoRA; scenarios and "
            "sensitivity tables around your own plan.",
            "Para un ajuste fino en un clúster de GPU: su rendimiento efectivo en "
            "tokens y ejemplos por segundo, la duración, las GPU-horas que factura la "
            "nube y el coste con una contingencia para reinicios; si el modelo cabe "
            "en las GPU con ajuste completo, LoRA o QLoRA; escenarios y tablas de "
            "sensibilidad alrededor de su propio plan.",
        ),
        steps=(
            T("On the Fine-tuning sheet, type your figures over the yellow cells (blue "
              "numbers): the run, then the model, the method and the speed (measured, "
              "or estimated from the GPU and an MFU).",
              "En la hoja Ajuste fino, escriba sus cifras en las celdas amarillas "
              "(números azules): la ejecución, y luego el modelo, el método y la "
              "velocidad (medida, o estimada a partir de la GPU y una MFU)."),
            T("Read the model check at the top: OK, or the worst problem and where.",
              "Lea el control del modelo arriba: OK, o el peor problema y dónde."),
            T("The Summary sheet is the page to print and sign: the money first, "
              "then time and resources, and the key assumptions.",
              "La hoja Resumen es la página para imprimir y firmar: primero el "
              "dinero, luego el tiempo y los recursos, y los supuestos clave."),
        ),
        limits=(
            T("A measured throughput and the efficiency are your measurements; the "
              "estimate is as good as the MFU you type.",
              "Un rendimiento medido y la eficiencia son sus mediciones; la estimación "
              "vale lo que la MFU que escriba."),
            T("Costs cover GPU time and its contingency: no data preparation, "
              "storage, staff or idle reserved GPUs.",
              "Los costes cubren el tiempo de GPU y su contingencia: ni preparación "
              "de datos, ni almacenamiento, ni personal, ni GPU reservadas ociosas."),
        ),
        sources=SOURCES_FINETUNE,
    ),
    sheets=(
        SUMMARY,
        Sheet(T("Fine-tuning", "Ajuste fino"), (
            RUN, SPEED, SPEED_STEPS, RESULTS, KEY_ASSUMPTIONS, MEMORY_INPUTS, SHAPE, MEMORY,
            SCENARIOS, HOURS_GRID, COST_GRID, LENGTHS, NOTES,
        )),
    ),
    data_sheet=True,
)  # fmt: skip
