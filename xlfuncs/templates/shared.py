"""Rows and sources several templates share, worded once."""

from __future__ import annotations

from . import texts as tx
from .blocks import Input
from .texts import T

PRICE = Input(
    "PricePerGPUHour", "price_per_gpu_hour", 2.5,
    T("Price per GPU-hour", "Precio por GPU-hora"), T("{currency}/GPU-h", "{currency}/GPU-h"),
    T("What one GPU costs for one hour, in the currency below; 0 or more.",
      "Lo que cuesta una GPU durante una hora, en la moneda de abajo; 0 o más."),
    fmt=tx.MONEY,
)  # fmt: skip

CURRENCY = Input(
    "Currency", "", "USD",
    T("Currency", "Moneda"), T("code", "código"),
    T("The currency of the price and of every cost: a code such as USD, EUR or GBP.",
      "La moneda del precio y de todos los costes: un código como USD, EUR o GBP."),
    text=True,
)  # fmt: skip

FINETUNE_CALCULATOR = T(
    "'Estimador de throughput para fine-tuning', a published Spanish calculator "
    "page (effective throughput = G·V·η; examples/s = throughput ÷ T): the method "
    "and the worked example of 8 GPUs × 2,500 tokens/s × 82 % at 900 tokens per "
    "example, 18.22 examples/s.",
    "'Estimador de throughput para fine-tuning', una calculadora publicada en "
    "español (throughput efectivo = G·V·η; ejemplos/s = throughput ÷ T): el método "
    "y el ejemplo resuelto de 8 GPU × 2.500 tokens/s × 82 % con 900 tokens por "
    "ejemplo, 18,22 ejemplos/s.",
)
SIZE_CALCULATOR = T(
    "'Calculadora de tamaño de modelo de cómputo óptimo', a published Spanish "
    "calculator page (C = 6·N·D with D = r·N): the method and the worked example "
    "of 6,000 PF/s-days at 20 tokens per parameter, 65.7 B parameters and 1.31 T "
    "tokens.",
    "'Calculadora de tamaño de modelo de cómputo óptimo', una calculadora publicada "
    "en español (C = 6·N·D con D = r·N): el método y el ejemplo resuelto de 6.000 "
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
    "Accelerator peaks: each vendor's datasheet, cited per accelerator on the Data "
    "sheet (dense figures: NVIDIA prints tensor-core figures with sparsity, twice as "
    "high).",
    "Picos de los aceleradores: la ficha técnica de cada fabricante, citada por "
    "acelerador en la hoja Datos (cifras densas: NVIDIA imprime las de los núcleos "
    "tensoriales con dispersión, el doble).",
)

SOURCES_FINETUNE = (FINETUNE_CALCULATOR,)
SOURCES_SIZE = (SIZE_CALCULATOR, HOFFMANN, KAPLAN, PALM)
SOURCES_PLANNER = (
    SIZE_CALCULATOR,
    FINETUNE_CALCULATOR,
    HOFFMANN,
    BESIROGLU,
    KAPLAN,
    PALM,
    DATASHEETS,
)
