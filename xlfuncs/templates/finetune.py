"""The fine-tuning template: how fast a cluster works through a dataset, how long
the run takes and what it costs. It follows the "Estimador de throughput para
fine-tuning" calculator: effective throughput = G·V·η, examples/s = G·V·η / T.
"""

from __future__ import annotations

from . import texts as tx
from .blocks import (
    Axis,
    Case,
    Chart,
    Cover,
    Grid,
    Input,
    Inputs,
    Notes,
    Result,
    Results,
    Scenarios,
    Sheet,
    Sweep,
    Template,
    Verdict,
)
from .checks import fit
from .expr import Lit, Ref, call
from .shared import CURRENCY, PRICE, SOURCES_FINETUNE
from .texts import T

_FT = ("GPUs", "TokensPerSecPerGPU", "Efficiency")
_RUN = ("DatasetExamples", "Epochs", *_FT, "TokensPerExample")

INPUTS = Inputs(
    T("Inputs", "Datos de entrada"),
    (
        Input(
            "GPUs", "gpus", 8,
            T("GPUs (G)", "GPU (G)"), T("GPUs", "GPU"),
            T("GPUs training in parallel. A whole number, 1 or more.",
              "GPU que entrenan en paralelo. Un entero, 1 o más."),
            whole=True,
        ),
        Input(
            "TokensPerSecPerGPU", "tokens_per_sec_per_gpu", 2500,
            T("Throughput per GPU (V)", "Throughput por GPU (V)"), T("tokens/s", "tokens/s"),
            T("Tokens per second one GPU sustains, measured with a representative "
              "batch size and sequence length.",
              "Tokens por segundo que sostiene una GPU, medidos con un batch y una "
              "secuencia representativos."),
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
            T("Examples in the training set. A whole number, 1 or more.",
              "Ejemplos del conjunto de entrenamiento. Un entero, 1 o más."),
            whole=True,
        ),
        Input(
            "Epochs", "epochs", 3,
            T("Epochs", "Épocas"), T("passes", "pasadas"),
            T("Passes over the dataset; fractions are allowed (1.5).",
              "Pasadas sobre el conjunto de datos; se admiten fracciones (1,5)."),
            fmt=tx.DECIMAL,
        ),
        PRICE,
        CURRENCY,
    ),
)  # fmt: skip

STEPS = Results(
    T("Calculations", "Cálculos"),
    (
        Result(
            "EffectiveThroughput", call("FT_THROUGHPUT", *_FT),
            T("Effective throughput", "Throughput efectivo"), T("tokens/s", "tokens/s"),
            T("GPUs × throughput per GPU × efficiency (G·V·η): tokens per second "
              "of the whole cluster.",
              "GPU × throughput por GPU × eficiencia (G·V·η): tokens por segundo de "
              "todo el clúster."),
        ),
        Result(
            "TokensPerMin", call("FT_TOKENS_PER_MIN", *_FT),
            T("Tokens per minute", "Tokens por minuto"), T("tokens/min", "tokens/min"),
            T("Effective throughput × 60 s.", "Throughput efectivo × 60 s."),
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
              "Throughput efectivo ÷ tokens por ejemplo (G·V·η / T)."),
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
              "Dataset × épocas × tokens por ejemplo ÷ throughput efectivo ÷ 3.600 s "
              "por hora: tiempo de reloj."),
            fmt=tx.DURATION, key=True,
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
            T("GPU-hours × price per GPU-hour.", "GPU-horas × precio por GPU-hora."),
            fmt=tx.MONEY, key=True,
        ),
    ),
)  # fmt: skip

MEMORY_INPUTS = Inputs(
    T("Memory per GPU", "Memoria por GPU"),
    (
        Input(
            "FTModel", "model", "Llama 3.1 8B",
            T("Model to fine-tune", "Modelo a ajustar"), T("name", "nombre"),
            T("A published model (the Models sheet lists them with their sources): "
              "its parameters and shape give the memory.",
              "Un modelo publicado (la hoja Modelos los lista con sus fuentes): sus "
              "parámetros y su forma dan la memoria."),
            kind="list", keys="ModelKeys", menu="ModelNames",
        ),
        Input(
            "GPUModel", "gpu", "H100 SXM",
            T("GPU model", "Modelo de GPU"), T("name", "nombre"),
            T("Pick from the list (the Data sheet): its memory is the limit.",
              "Elija de la lista (hoja Datos): su memoria es el límite."),
            kind="list", keys="AcceleratorKeys", menu="AcceleratorNames",
        ),
        Input(
            "SeqLen", "seq_len", 2048,
            T("Sequence length", "Longitud de secuencia"), T("tokens", "tokens"),
            T("The longest sequence a batch is padded to (not the mean).",
              "La secuencia más larga a la que se rellena un batch (no la media)."),
        ),
        Input(
            "MicroBatch", "micro_batch", 4,
            T("Micro-batch per GPU", "Micro-batch por GPU"), T("sequences", "secuencias"),
            T("Sequences each GPU holds at once. A whole number, 1 or more.",
              "Secuencias que procesa cada GPU a la vez. Un entero, 1 o más."),
        ),
        Input(
            "LoRARank", "rank", 16,
            T("LoRA rank (r)", "Rango de LoRA (r)"), T("dimensions", "dimensiones"),
            T("Rank of the LoRA adapters on every linear layer (q, k, v, o, gate, up, "
              "down), as QLoRA trains them.",
              "Rango de los adaptadores LoRA en todas las capas lineales (q, k, v, o, "
              "gate, up, down), como los entrena QLoRA."),
        ),
        Input(
            "ZeroStage", "zero_stage", 3,
            T("ZeRO stage", "Etapa de ZeRO"), T("0 to 3", "0 a 3"),
            T("How full fine-tuning shards its state over the GPUs above: 3 shards "
              "weights, gradients and Adam states.",
              "Cómo reparte el ajuste completo su estado entre las GPU de arriba: 3 "
              "reparte pesos, gradientes y estados de Adam."),
        ),
    ),
)  # fmt: skip

_SHAPE = {  # result name: (MODEL_SPEC field, label, unit)
    "BaseParams": ("params", T("Parameters (N)", "Parámetros (N)"), T("parameters", "parámetros")),
    "BaseLayers": ("layers", T("Layers (L)", "Capas (L)"), T("layers", "capas")),
    "BaseWidth": ("d_model", T("Width (h)", "Anchura (h)"), T("dimensions", "dimensiones")),
    "BaseHeads": ("heads", T("Attention heads (a)", "Cabezas de atención (a)"), T("heads", "cabezas")),
    "BaseFFN": ("ffn_dim", T("MLP width", "Anchura del MLP"), T("dimensions", "dimensiones")),
    "BaseKVWidth": ("kv_width", T("Key/value width", "Anchura de claves/valores"), T("dimensions", "dimensiones")),
}  # fmt: skip

SHAPE = Results(
    T("The model's shape", "La forma del modelo"),
    tuple(
        Result(
            name, call("MODEL_SPEC", "FTModel", Lit(field)), label, unit,
            T(f"MODEL_SPEC(model, \"{field}\"): from its published configuration.",
              f"MODEL_SPEC(modelo, \"{field}\"): de su configuración publicada."),
            fmt=tx.LARGE if field == "params" else tx.COUNT,
        )
        for name, (field, label, unit) in _SHAPE.items()
    ),
    steps=True,
)  # fmt: skip

_HEADROOM = T(
    "Keep 10-20 % of the GPU free for the framework, buffers and fragmentation.",
    "Deje libre un 10-20 % de la GPU para el framework, los buffers y la fragmentación.",
)

MEMORY = Results(
    T("Memory per GPU: full, LoRA and QLoRA", "Memoria por GPU: completo, LoRA y QLoRA"),
    (
        Result(
            "GPUMemoryGB", call("GPU_MEMORY_GB", "GPUModel"),
            T("GPU memory", "Memoria de la GPU"), T("GB", "GB"),
            T("From the GPU model's datasheet (the Data sheet).",
              "De la ficha técnica del modelo de GPU (hoja Datos)."),
            fmt=tx.DECIMAL,
        ),
        Result(
            "LoRAParams",
            call("LORA_PARAMS", "BaseLayers", "BaseWidth", "LoRARank", Lit(2), Lit(3),
                                 "BaseFFN", Lit(2), "BaseKVWidth"),
            T("LoRA trainable parameters", "Parámetros entrenables de LoRA"), T("parameters", "parámetros"),
            T("r × (inputs + outputs) of each adapted matrix: q and o (square), k and v "
              "(grouped-query width), gate, up and down (MLP), in every layer.",
              "r × (entradas + salidas) de cada matriz adaptada: q y o (cuadradas), k y "
              "v (anchura de grupo), gate, up y down (MLP), en cada capa."),
        ),
        Result(
            "LoRAAllParams", Ref("BaseParams") + Ref("LoRAParams"),
            T("Parameters held with LoRA", "Parámetros con LoRA"), T("parameters", "parámetros"),
            T("The base model plus its adapters.", "El modelo base más sus adaptadores."),
            fmt=tx.LARGE,
        ),
        Result(
            "FTActivationGB",
            call("ACTIVATION_GB", "BaseLayers", "BaseWidth", "BaseHeads", "SeqLen",
                                   "MicroBatch", Lit(1), Lit("full")),
            T("Activations", "Activaciones"), T("GB", "GB"),
            T("With gradient checkpointing (each layer's input kept: 2·s·b·h bytes a "
              "layer, Korthikanti et al. 2022), as fine-tuning recipes run.",
              "Con gradient checkpointing (se guarda la entrada de cada capa: 2·s·b·h "
              "bytes por capa, Korthikanti et al. 2022), como lo hacen las recetas de "
              "fine-tuning."),
            fmt=tx.DECIMAL,
        ),
        Result(
            "FullStateGB",
            call("MODEL_STATE_GB", "BaseParams", "BaseParams", Lit(2), "GPUs", "ZeroStage"),
            T("Full fine-tuning: model state", "Ajuste completo: estado del modelo"), T("GB", "GB"),
            T("16 bytes a parameter (16-bit weights and gradients, fp32 Adam states), "
              "sharded over the GPUs by the ZeRO stage.",
              "16 bytes por parámetro (pesos y gradientes de 16 bits, estados de Adam en "
              "fp32), repartidos entre las GPU según la etapa de ZeRO."),
            fmt=tx.DECIMAL,
        ),
        Result(
            "FullMemoryGB", Ref("FullStateGB") + Ref("FTActivationGB"),
            T("Full fine-tuning: per GPU", "Ajuste completo: por GPU"), T("GB", "GB"),
            _HEADROOM, fmt=tx.DECIMAL, key=True,
        ),
        Result(
            "FullMinGPUs",
            call("MIN_GPUS_FOR_MEMORY", "BaseParams", "GPUMemoryGB", "FTActivationGB",
                                         "BaseParams", Lit(2), "ZeroStage"),
            T("Full fine-tuning: fewest GPUs", "Ajuste completo: mínimo de GPU"), T("GPUs", "GPU"),
            T("The smallest cluster whose share of the state, plus the activations, "
              "fits each GPU at this ZeRO stage, with nothing to spare.",
              "El clúster más pequeño cuya parte del estado, más las activaciones, cabe "
              "en cada GPU con esta etapa de ZeRO, sin margen."),
        ),
        Result(
            "LoRAStateGB",
            call("MODEL_STATE_GB", "LoRAAllParams", "LoRAParams", Lit(2)),
            T("LoRA: model state", "LoRA: estado del modelo"), T("GB", "GB"),
            T("16-bit base weights (2 bytes a parameter) plus 16 bytes per adapter "
              "parameter; each GPU holds a whole copy.",
              "Pesos base de 16 bits (2 bytes por parámetro) más 16 bytes por parámetro "
              "de adaptador; cada GPU guarda una copia entera."),
            fmt=tx.DECIMAL,
        ),
        Result(
            "LoRAMemoryGB",
            Ref("LoRAStateGB") + Ref("FTActivationGB"),
            T("LoRA: per GPU", "LoRA: por GPU"), T("GB", "GB"),
            _HEADROOM, fmt=tx.DECIMAL, key=True,
        ),
        Result(
            "QLoRAStateGB",
            call("MODEL_STATE_GB", "LoRAAllParams", "LoRAParams", Lit(0.5)),
            T("QLoRA: model state", "QLoRA: estado del modelo"), T("GB", "GB"),
            T("4-bit base weights (0.5 bytes a parameter, Dettmers et al. 2023) plus the "
              "adapters' gradients and Adam states.",
              "Pesos base de 4 bits (0,5 bytes por parámetro, Dettmers et al. 2023) más "
              "gradientes y estados de Adam de los adaptadores."),
            fmt=tx.DECIMAL,
        ),
        Result(
            "QLoRAMemoryGB",
            Ref("QLoRAStateGB") + Ref("FTActivationGB"),
            T("QLoRA: per GPU", "QLoRA: por GPU"), T("GB", "GB"),
            _HEADROOM, fmt=tx.DECIMAL, key=True,
        ),
    ),
    verdicts=(
        Verdict("FullFit", T("Full fine-tuning", "Ajuste completo"),
                fit(Ref("FullMemoryGB"), Ref("GPUMemoryGB"), Ref("FullMinGPUs"))),
        Verdict("LoRAFit", T("LoRA", "LoRA"), fit(Ref("LoRAMemoryGB"), Ref("GPUMemoryGB"))),
        Verdict("QLoRAFit", T("QLoRA", "QLoRA"), fit(Ref("QLoRAMemoryGB"), Ref("GPUMemoryGB"))),
    ),
)  # fmt: skip

SCENARIOS = Scenarios(
    T("Scenarios", "Escenarios"),
    T("The base case is the inputs above. The pessimistic case is slower and dearer "
      "(fewer GPUs, lower throughput and efficiency, a higher price), the "
      "optimistic one faster and cheaper; type your own cases in the yellow cells. "
      "Each case has its own check.",
      "El caso base son los datos de arriba. El caso pesimista es más lento y más "
      "caro (menos GPU, menor throughput y eficiencia, un precio más alto), el "
      "optimista más rápido y barato; escriba sus propios casos en las celdas "
      "amarillas. Cada caso tiene su propio control."),
    ("GPUs", "TokensPerSecPerGPU", "Efficiency", "PricePerGPUHour"),
    (
        Case(T("Pessimistic", "Pesimista"), (4, 2000, 0.7, 3.5)),
        Case(T("Optimistic", "Optimista"), (16, 3000, 0.9, 2.0)),
    ),
    ("ExamplesPerSec", "TrainingHours", "GPUHours", "TrainingCost"),
)  # fmt: skip

_GPUS = (4, 8, 16, 32, 64)
_ETA = (0.6, 0.7, 0.8, 0.9)
_PRICES = (1.5, 2.0, 2.5, 3.0, 3.5)

HOURS_GRID = Grid(
    T("Sensitivity: training time", "Sensibilidad: duración"),
    T("Hours for the run above at each cluster size and efficiency; type other "
      "values in the yellow cells.",
      "Horas de la ejecución de arriba para cada tamaño de clúster y eficiencia; "
      "escriba otros valores en las celdas amarillas."),
    "TrainingHours", Axis("GPUs", _GPUS), Axis("Efficiency", _ETA),
)  # fmt: skip

COST_GRID = Grid(
    T("Sensitivity: cost", "Sensibilidad: coste"),
    T("Cost of the run above at each price per GPU-hour and efficiency. The GPU "
      "count changes the time, not the cost: twice the GPUs finish in half the time.",
      "Coste de la ejecución de arriba para cada precio por GPU-hora y eficiencia. "
      "El número de GPU cambia la duración, no el coste: el doble de GPU termina en "
      "la mitad de tiempo."),
    "TrainingCost", Axis("PricePerGPUHour", _PRICES), Axis("Efficiency", _ETA),
)  # fmt: skip

LENGTHS = Sweep(
    T("Example length", "Longitud del ejemplo"),
    T("Other inputs as above. Type the lengths of your datasets in the yellow cells "
      "(their mean, median or 90th percentile, say): longer examples, fewer examples "
      "per second at the same token capacity.",
      "Resto de datos como arriba. Escriba en las celdas amarillas las longitudes de "
      "sus datasets (media, mediana o percentil 90): ejemplos más largos, menos "
      "ejemplos por segundo con la misma capacidad en tokens."),
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
          "el 82 % de G veces el throughput de una GPU. Vuelva a medirla si el clúster "
          "cambia mucho de tamaño."),
        T("Tokens per example include input and output. If padding costs compute in "
          "your pipeline, count it in the tokens per example or in the efficiency.",
          "Los tokens por ejemplo incluyen entrada y salida. Si el relleno consume "
          "cómputo en su pipeline, cuéntelo en los tokens por ejemplo o en la "
          "eficiencia."),
        T("A mean length can hide very different tails: compare several lengths "
          "(table above) or use a percentile of your data (Excel's PERCENTILE.INC).",
          "Una longitud media puede ocultar colas muy distintas: compare varias "
          "longitudes (tabla de arriba) o use un percentil de sus datos "
          "(PERCENTIL.INC de Excel)."),
        T("Throughput per GPU changes with batch size and sequence length: benchmark "
          "with a representative batch and sequence, and enter each model's own "
          "figures when comparing models.",
          "El throughput por GPU cambia con el batch y la secuencia: mídalo con un "
          "batch y una secuencia representativos, y use las cifras de cada modelo al "
          "comparar modelos."),
        T("Training time assumes the measured throughput holds for the whole run; "
          "checkpoints and evaluation pauses belong in the efficiency.",
          "La duración supone que el throughput medido se mantiene toda la "
          "ejecución; checkpoints y evaluaciones van en la eficiencia."),
    ),
)  # fmt: skip

FINETUNE = Template(
    slug="finetune-throughput",
    title=T("Fine-tuning throughput planner", "Planificador de throughput para fine-tuning"),
    subtitle=T(
        "How many examples a GPU cluster processes per second, how long a "
        "fine-tuning run takes and what it costs. Defaults: 8 GPUs × 2,500 tokens/s "
        "× 82 % with 900-token examples (18.22 examples/s); dataset, epochs and "
        "price are examples to replace.",
        "Cuántos ejemplos procesa por segundo un clúster de GPU, cuánto dura un "
        "fine-tuning y cuánto cuesta. Por defecto: 8 GPU × 2.500 tokens/s × 82 % "
        "con ejemplos de 900 tokens (18,22 ejemplos/s); dataset, épocas y precio "
        "son ejemplos a sustituir.",
    ),
    subject=T("Fine-tuning throughput, training time and cost",
              "Throughput, duración y coste del fine-tuning"),
    keywords=T("fine-tuning; throughput; GPU; tokens per second; examples per second; xlfuncs",
               "fine-tuning; throughput; GPU; tokens por segundo; ejemplos por segundo; xlfuncs"),
    cover=Cover(
        answers=T(
            "For a fine-tuning run on a GPU cluster: its effective throughput in "
            "tokens and examples per second, the wall-clock time, the GPU-hours a "
            "cloud bills and the cost, with pessimistic and optimistic scenarios, "
            "time against cluster size and efficiency, and cost against price and "
            "efficiency; the GPU memory full fine-tuning, LoRA and QLoRA need.",
            "Para un fine-tuning en un clúster de GPU: su throughput efectivo en "
            "tokens y ejemplos por segundo, la duración, las GPU-horas que factura "
            "el proveedor de nube y el coste, con escenarios pesimista y optimista, la "
            "duración según el tamaño del clúster y la eficiencia, y el coste según "
            "el precio y la eficiencia; la memoria de GPU que necesitan el ajuste "
            "completo, LoRA y QLoRA.",
        ),
        steps=(
            T("On the Fine-tuning sheet, type your figures over the yellow cells (blue "
              "numbers): GPUs, measured tokens/s per GPU, efficiency, tokens per "
              "example, dataset size, epochs, price and currency.",
              "En la hoja Fine-tuning, escriba sus cifras en las celdas amarillas "
              "(números azules): GPU, tokens/s medidos por GPU, eficiencia, tokens por "
              "ejemplo, tamaño del dataset, épocas, precio y moneda."),
            T("Read the model check at the top: OK, or the input to fix.",
              "Lea el control del modelo arriba: OK, o el dato que corregir."),
            T("Read the results; compare the pessimistic and optimistic scenarios and "
              "the sensitivity tables below them.",
              "Lea los resultados; compare los escenarios pesimista y optimista y las "
              "tablas de sensibilidad de debajo."),
        ),
        limits=(
            T("Efficiency and throughput per GPU are your measurements: the workbook "
              "does not predict them.",
              "La eficiencia y el throughput por GPU son sus mediciones: el libro no "
              "los predice."),
            T("Time and cost cover the training passes only: no data preparation, "
              "evaluation runs or idle reserved GPUs.",
              "Duración y coste cubren solo las pasadas de entrenamiento: ni la "
              "preparación de datos, ni las evaluaciones, ni GPU reservadas ociosas."),
        ),
        sources=SOURCES_FINETUNE,
    ),
    sheets=(
        Sheet(T("Fine-tuning", "Fine-tuning"), (
            INPUTS, STEPS, RESULTS, MEMORY_INPUTS, SHAPE, MEMORY,
            SCENARIOS, HOURS_GRID, COST_GRID, LENGTHS, NOTES,
        )),
    ),
    data_sheet=True,
)  # fmt: skip
