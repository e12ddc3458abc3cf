"""xlfuncs: planning math for LLM training and fine-tuning, for Python and Excel.

The functions below are the Python API; :mod:`xlfuncs.udfs` exposes the same
functions to Excel through xlwings, and :data:`FUNCTIONS` describes them all.
"""

from __future__ import annotations

# isort: off
# Each topic module registers its functions as it is imported: this order is the
# order of `xlfuncs list`, `xlfuncs examples` and docs/functions.md.
from .finetune import (
    cost,
    examples_per_min,
    examples_per_sec,
    gpu_hours,
    throughput,
    tokens_per_example,
    tokens_per_min,
    training_hours,
)
from .scaling import (
    chinchilla_budget,
    chinchilla_params,
    chinchilla_tokens,
    chinchilla_tokens_for_params,
    flops_to_pfdays,
    isoflop_tokens,
    pfdays_to_flops,
    training_flops,
)
from .cluster import (
    cluster_cost,
    cluster_days,
    cluster_gpu_hours,
    cluster_pfdays,
    flops_per_token,
    mfu,
    tokens_per_sec_per_gpu,
    training_days,
)
from .accelerators import gpu_peak_tflops
from .scaling_laws import (
    chinchilla_fit_params,
    chinchilla_fit_tokens,
    chinchilla_loss,
    inference_optimal_params,
    inference_optimal_tokens,
)

# isort: on
from .spec import REGISTRY as FUNCTIONS
from .spec import InputError, InvalidTypeError, InvalidValueError

__version__ = "0.1.0"

__all__ = [
    "FUNCTIONS",
    "InputError",
    "InvalidTypeError",
    "InvalidValueError",
    "chinchilla_budget",
    "chinchilla_fit_params",
    "chinchilla_fit_tokens",
    "chinchilla_loss",
    "chinchilla_params",
    "chinchilla_tokens",
    "chinchilla_tokens_for_params",
    "cluster_cost",
    "cluster_days",
    "cluster_gpu_hours",
    "cluster_pfdays",
    "cost",
    "examples_per_min",
    "examples_per_sec",
    "flops_per_token",
    "flops_to_pfdays",
    "gpu_hours",
    "gpu_peak_tflops",
    "isoflop_tokens",
    "inference_optimal_params",
    "inference_optimal_tokens",
    "mfu",
    "pfdays_to_flops",
    "throughput",
    "tokens_per_example",
    "tokens_per_min",
    "tokens_per_sec_per_gpu",
    "training_days",
    "training_flops",
    "training_hours",
]
