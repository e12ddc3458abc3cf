"""xlfuncs: planning math for LLM training and fine-tuning, for Python and Excel.

The functions below are the Python API; :mod:`xlfuncs.udfs` exposes the same
functions to Excel through xlwings, and :data:`FUNCTIONS` describes them all.
"""

from __future__ import annotations

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
    pfdays_to_flops,
    training_flops,
)
from .spec import REGISTRY as FUNCTIONS
from .spec import InputError, InvalidTypeError, InvalidValueError

__version__ = "0.1.0"

__all__ = [
    "FUNCTIONS",
    "InputError",
    "InvalidTypeError",
    "InvalidValueError",
    "chinchilla_budget",
    "chinchilla_params",
    "chinchilla_tokens",
    "chinchilla_tokens_for_params",
    "cost",
    "examples_per_min",
    "examples_per_sec",
    "flops_to_pfdays",
    "gpu_hours",
    "pfdays_to_flops",
    "throughput",
    "tokens_per_example",
    "tokens_per_min",
    "training_flops",
    "training_hours",
]
