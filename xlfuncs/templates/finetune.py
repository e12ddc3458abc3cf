"""The fine-tuning throughput template: speed, time and cost of a fine-tuning run.

Its formulas follow the "Estimador de throughput para fine-tuning" calculator;
each output names the library function that is its reference.
"""

from __future__ import annotations

from ..data.units import SECONDS_PER_HOUR, SECONDS_PER_MINUTE
from .layout import COMMON, Input, Output, Scenario, Template, _num

_FT = ("GPUs", "TokensPerSecPerGPU", "Efficiency")
_RUN = ("DatasetExamples", "Epochs", *_FT, "TokensPerExample")

FINETUNE = Template(
    slug="finetune-throughput",
    inputs=(
        Input("GPUs", "gpus", 8, "#,##0", whole=True),
        Input("TokensPerSecPerGPU", "tokens_per_sec_per_gpu", 2500, "#,##0"),
        Input("Efficiency", "efficiency", 0.82, "0.0%"),
        Input("TokensPerExample", "tokens_per_example", 900, "#,##0"),
        Input("DatasetExamples", "examples", 100_000, "#,##0", whole=True),
        Input("Epochs", "epochs", 3, "0.0"),
        Input("PricePerGPUHour", "price_per_gpu_hour", 2.5, "#,##0.00"),
    ),
    outputs=(
        Output(
            "EffectiveThroughput",
            "GPUs*TokensPerSecPerGPU*Efficiency",
            _FT,
            "#,##0",
            "FT_THROUGHPUT",
            _FT,
            section="sec.calculations",
        ),
        Output(
            "TokensPerMin",
            f"EffectiveThroughput*{_num(SECONDS_PER_MINUTE)}",
            ("EffectiveThroughput",),
            "#,##0",
            "FT_TOKENS_PER_MIN",
            _FT,
            section="sec.calculations",
        ),
        Output(
            "ExamplesPerSec",
            "EffectiveThroughput/TokensPerExample",
            ("EffectiveThroughput", "TokensPerExample"),
            "#,##0.00",
            "FT_EXAMPLES_PER_SEC",
            (*_FT, "TokensPerExample"),
        ),
        Output(
            "ExamplesPerMin",
            f"ExamplesPerSec*{_num(SECONDS_PER_MINUTE)}",
            ("ExamplesPerSec",),
            "#,##0.00",
            "FT_EXAMPLES_PER_MIN",
            (*_FT, "TokensPerExample"),
        ),
        Output(
            "TrainingHours",
            "DatasetExamples*Epochs*TokensPerExample/EffectiveThroughput/"
            f"{_num(SECONDS_PER_HOUR)}",
            ("DatasetExamples", "Epochs", "TokensPerExample", "EffectiveThroughput"),
            "#,##0.00",
            "FT_TRAINING_HOURS",
            _RUN,
        ),
        Output(
            "GPUHours",
            "TrainingHours*GPUs",
            ("TrainingHours", "GPUs"),
            "#,##0.00",
            "FT_GPU_HOURS",
            _RUN,
        ),
        Output(
            "TrainingCost",
            "GPUHours*PricePerGPUHour",
            ("GPUHours", "PricePerGPUHour"),
            "#,##0.00",
            "FT_COST",
            (*_RUN, "PricePerGPUHour"),
        ),
    ),
    scenarios=(
        Scenario(
            "sc.length",
            "TokensPerExample",
            (256, 512, 1024, 2048, 4096, 8192),
            ("ExamplesPerSec", "ExamplesPerMin", "TrainingHours", "TrainingCost"),
            chart=("ExamplesPerSec",),
            log_x=True,
        ),
        Scenario(
            "sc.gpus",
            "GPUs",
            (1, 2, 4, 8, 16, 32, 64),
            ("EffectiveThroughput", "ExamplesPerSec", "TrainingHours", "TrainingCost"),
        ),
    ),
    notes=(
        "note.efficiency",
        "note.padding",
        "note.percentiles",
        "note.batch",
        "note.compare",
        "note.scaling",
        "note.source",
    ),
    text={
        **COMMON,
        "sheet": {"en": "Fine-tuning", "es": "Fine-tuning"},
        "title": {
            "en": "Fine-tuning throughput planner",
            "es": "Planificador de throughput para fine-tuning",
        },
        "subtitle": {
            "en": "How many examples a GPU cluster processes per second, how long a "
            "fine-tuning run takes and what it costs. Effective throughput = G·V·η "
            "tokens/s; examples/s = throughput ÷ T. Default inputs: the worked example "
            "of 8 GPUs × 2,500 tokens/s × 82 % with 900-token examples (18.22 "
            "examples/s); dataset, epochs and price are examples to replace.",
            "es": "Cuántos ejemplos procesa por segundo un clúster de GPU, cuánto dura "
            "un fine-tuning y cuánto cuesta. Throughput efectivo = G·V·η tokens/s; "
            "ejemplos/s = throughput ÷ T. Valores por defecto: el ejemplo resuelto de "
            "8 GPU × 2.500 tokens/s × 82 % con ejemplos de 900 tokens (18,22 "
            "ejemplos/s); dataset, épocas y precio son ejemplos a sustituir.",
        },
        "subject": {
            "en": "Fine-tuning throughput, training time and cost",
            "es": "Throughput, duración y coste del fine-tuning",
        },
        "keywords": {
            "en": "fine-tuning; throughput; GPU; tokens per second; examples per "
            "second; xlfuncs",
            "es": "fine-tuning; throughput; GPU; tokens por segundo; ejemplos por "
            "segundo; xlfuncs",
        },
        "GPUs.label": {"en": "GPUs (G)", "es": "GPU (G)"},
        "GPUs.help": {
            "en": "Number of GPUs training in parallel. Whole number, 1 or more.",
            "es": "Número de GPU que entrenan en paralelo. Entero, 1 o más.",
        },
        "TokensPerSecPerGPU.label": {
            "en": "Throughput per GPU (V)",
            "es": "Throughput por GPU (V)",
        },
        "TokensPerSecPerGPU.unit": {"en": "tokens/s", "es": "tokens/s"},
        "TokensPerSecPerGPU.help": {
            "en": "Measured tokens/s of one GPU with a representative batch size and "
            "sequence length.",
            "es": "Tokens/s medidos en una GPU con un tamaño de batch y una secuencia "
            "representativos.",
        },
        "Efficiency.label": {"en": "Efficiency (η)", "es": "Eficiencia (η)"},
        "Efficiency.unit": {"en": "% of ideal", "es": "% del ideal"},
        "Efficiency.help": {
            "en": "Useful share of ideal linear scaling, above 0 % and at most 100 %: "
            "losses to communication, synchronisation, I/O and evaluation.",
            "es": "Porcentaje útil respecto al escalado lineal ideal, mayor que 0 % y "
            "como máximo 100 %: pérdidas por comunicación, sincronización, I/O y "
            "evaluación.",
        },
        "TokensPerExample.label": {
            "en": "Tokens per example (T)",
            "es": "Tokens por ejemplo (T)",
        },
        "TokensPerExample.help": {
            "en": "Mean tokens each example really processes: input plus output, plus "
            "padding where it costs compute.",
            "es": "Tokens medios que recorre cada ejemplo: entrada más salida, y el "
            "padding si consume cómputo.",
        },
        "DatasetExamples.label": {"en": "Dataset size", "es": "Tamaño del dataset"},
        "DatasetExamples.help": {
            "en": "Examples in the training set. Whole number, 1 or more.",
            "es": "Ejemplos del conjunto de entrenamiento. Entero, 1 o más.",
        },
        "Epochs.label": {"en": "Epochs", "es": "Épocas"},
        "Epochs.help": {
            "en": "Passes over the dataset; fractions allowed (1.5).",
            "es": "Pasadas por el dataset; se admiten fracciones (1,5).",
        },
        "EffectiveThroughput.label": {
            "en": "Effective throughput",
            "es": "Throughput efectivo",
        },
        "EffectiveThroughput.unit": {"en": "tokens/s", "es": "tokens/s"},
        "EffectiveThroughput.how": {
            "en": "GPUs × throughput per GPU × efficiency (G·V·η), tokens per second "
            "for the whole cluster.",
            "es": "GPU × throughput por GPU × eficiencia (G·V·η), tokens por segundo "
            "de todo el clúster.",
        },
        "TokensPerMin.label": {"en": "Tokens per minute", "es": "Tokens por minuto"},
        "TokensPerMin.unit": {"en": "tokens/min", "es": "tokens/min"},
        "TokensPerMin.how": {
            "en": "Effective throughput × 60 s.",
            "es": "Throughput efectivo × 60 s.",
        },
        "ExamplesPerSec.label": {
            "en": "Examples per second",
            "es": "Ejemplos por segundo",
        },
        "ExamplesPerSec.unit": {"en": "examples/s", "es": "ejemplos/s"},
        "ExamplesPerSec.how": {
            "en": "Effective throughput ÷ tokens per example (G·V·η / T).",
            "es": "Throughput efectivo ÷ tokens por ejemplo (G·V·η / T).",
        },
        "ExamplesPerMin.label": {
            "en": "Examples per minute",
            "es": "Ejemplos por minuto",
        },
        "ExamplesPerMin.unit": {"en": "examples/min", "es": "ejemplos/min"},
        "ExamplesPerMin.how": {
            "en": "Examples per second × 60 s.",
            "es": "Ejemplos por segundo × 60 s.",
        },
        "TrainingHours.label": {
            "en": "Training time",
            "es": "Duración del entrenamiento",
        },
        "TrainingHours.unit": {"en": "hours", "es": "horas"},
        "TrainingHours.how": {
            "en": "Dataset size × epochs × tokens per example ÷ effective throughput "
            "÷ 3,600 s per hour (wall-clock).",
            "es": "Tamaño del dataset × épocas × tokens por ejemplo ÷ throughput "
            "efectivo ÷ 3.600 s por hora (tiempo real).",
        },
        "GPUHours.how": {
            "en": "Training time × GPUs: what a cloud bills.",
            "es": "Duración × GPU: lo que factura una nube.",
        },
        "sc.length": {
            "en": "Scenario: example length",
            "es": "Escenario: longitud del ejemplo",
        },
        "sc.length.note": {
            "en": "Other inputs as above. Edit the yellow lengths to compare datasets "
            "(e.g. their median and 90th percentile).",
            "es": "Resto de datos como arriba. Cambie las longitudes amarillas para "
            "comparar datasets (p. ej. su mediana y su percentil 90).",
        },
        "sc.length.how": {
            "en": "Same formulas as the results, with this row's tokens per example: "
            "longer examples, fewer examples per second at the same token capacity.",
            "es": "Mismas fórmulas que los resultados, con los tokens por ejemplo de "
            "la fila: ejemplos más largos, menos ejemplos por segundo con la misma "
            "capacidad en tokens.",
        },
        "sc.length.chart": {
            "en": "Examples per second against tokens per example",
            "es": "Ejemplos por segundo según tokens por ejemplo",
        },
        "sc.gpus": {
            "en": "Scenario: cluster size",
            "es": "Escenario: tamaño del clúster",
        },
        "sc.gpus.note": {
            "en": "Other inputs as above, with the same efficiency at every size: "
            "measure it again for very different cluster sizes.",
            "es": "Resto de datos como arriba, con la misma eficiencia en todos los "
            "tamaños: vuelva a medirla si el clúster cambia mucho.",
        },
        "sc.gpus.how": {
            "en": "Same formulas with this row's GPUs. At constant efficiency GPU-hours "
            "and cost stay flat while time falls.",
            "es": "Mismas fórmulas con las GPU de la fila. Con eficiencia constante, "
            "GPU-horas y coste no cambian y la duración baja.",
        },
        "note.efficiency": {
            "en": "Efficiency summarises losses to communication, synchronisation, "
            "I/O, evaluation and imperfect GPU utilisation; 82 % means the cluster "
            "reaches 82 % of G times one GPU's throughput.",
            "es": "La eficiencia resume pérdidas por comunicación, sincronización, "
            "I/O, evaluación y utilización imperfecta de las GPU; 82 % significa que "
            "el clúster alcanza el 82 % de G veces el throughput de una GPU.",
        },
        "note.padding": {
            "en": "Tokens per example include input and output. If padding consumes "
            "compute in your pipeline, count it in the tokens per example or in the "
            "efficiency.",
            "es": "Los tokens por ejemplo incluyen entrada y salida. Si el padding "
            "consume cómputo en su pipeline, refléjelo en los tokens por ejemplo o en "
            "la eficiencia.",
        },
        "note.percentiles": {
            "en": "A mean length can hide very different tails. For heterogeneous "
            "datasets compare several scenarios (table above) or use percentiles "
            "(PERCENTILE.INC over the lengths, or FT_TOKENS_PER_EXAMPLE).",
            "es": "La media de tokens por ejemplo puede ocultar colas muy distintas. "
            "Para datasets heterogéneos compare varios escenarios (tabla de arriba) o "
            "use percentiles (PERCENTIL.INC sobre las longitudes, o "
            "FT_TOKENS_PER_EXAMPLE).",
        },
        "note.batch": {
            "en": "Throughput per GPU changes with batch size and sequence length: "
            "benchmark with a representative batch and sequence.",
            "es": "El throughput por GPU cambia con el batch size y la secuencia: "
            "mídalo con un batch y una secuencia representativos.",
        },
        "note.compare": {
            "en": "To compare two models, enter each one's own throughput and "
            "effective example length: memory and scaling profiles differ.",
            "es": "Para comparar dos modelos, introduzca el throughput y la longitud "
            "efectiva de cada uno: sus perfiles de memoria y escalado difieren.",
        },
        "note.scaling": {
            "en": "Training time assumes the measured throughput holds for the whole "
            "run; checkpoints and evaluation pauses belong in the efficiency.",
            "es": "La duración supone que el throughput medido se mantiene toda la "
            "ejecución; checkpoints y evaluaciones van en la eficiencia.",
        },
        "note.source": {
            "en": "Method: 'Estimador de throughput para fine-tuning' (effective "
            "throughput = G·V·η; examples/s = throughput ÷ T). Built by xlfuncs; the "
            "same functions exist as Excel add-in functions (FT_EXAMPLES_PER_SEC …).",
            "es": "Método: 'Estimador de throughput para fine-tuning' (throughput "
            "efectivo = G·V·η; ejemplos/s = throughput ÷ T). Generado con xlfuncs; "
            "las mismas funciones existen como funciones de Excel "
            "(FT_EXAMPLES_PER_SEC …).",
        },
    },
)
