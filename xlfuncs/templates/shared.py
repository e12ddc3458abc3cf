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
    kind="text",
)  # fmt: skip

FINETUNE_CALCULATOR = T(
    "Method: plain arithmetic, effective throughput = GPUs × tokens/s per GPU × "
    "efficiency, and examples/s = throughput ÷ tokens per example. The defaults "
    "reproduce the worked example of a Spanish web calculator, 'Estimador de "
    "throughput para fine-tuning': 8 GPUs × 2,500 tokens/s × 82 % at 900 tokens per "
    "example, 18.22 examples/s.",
    "Método: aritmética simple, throughput efectivo = GPU × tokens/s por GPU × "
    "eficiencia, y ejemplos/s = throughput ÷ tokens por ejemplo. Los valores por "
    "defecto reproducen el ejemplo resuelto de una calculadora web en español, "
    "'Estimador de throughput para fine-tuning': 8 GPU × 2.500 tokens/s × 82 % con "
    "900 tokens por ejemplo, 18,22 ejemplos/s.",
)
SIZE_CALCULATOR = T(
    "Method: C = 6·N·D (Kaplan et al. 2020) with D = 20·N (Hoffmann et al. 2022), "
    "solved for N. The defaults reproduce the worked example of a Spanish web "
    "calculator, 'Calculadora de tamaño de modelo de cómputo óptimo': 6,000 "
    "PF/s-days at 20 tokens per parameter, 65.7 B parameters and 1.31 T tokens.",
    "Método: C = 6·N·D (Kaplan et al. 2020) con D = 20·N (Hoffmann et al. 2022), "
    "despejando N. Los valores por defecto reproducen el ejemplo resuelto de una "
    "calculadora web en español, 'Calculadora de tamaño de modelo de cómputo "
    "óptimo': 6.000 PF/s-días con 20 tokens por parámetro, 65,7 mil millones de "
    "parámetros y 1,31 billones de tokens.",
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
