"""xlfuncs: planning math for LLM training and fine-tuning, for Python and Excel.

The functions below are the Python API; :data:`FUNCTIONS` describes each of them
(Excel name, arguments, units, example), :mod:`xlfuncs.udfs` gives them to Excel
through xlwings, and :mod:`xlfuncs.templates` writes workbooks that compute the same
math in native formulas.

The package is layered, each layer importing only from those above it here:

1. :mod:`xlfuncs.data`: pure data (units, the accelerator table, fit constants);
2. :mod:`xlfuncs.registry`: argument domains, errors and the ``@formula`` record;
3. :mod:`xlfuncs.functions`: the math, by topic;
4. :mod:`xlfuncs.cells` and :mod:`xlfuncs.udfs` (xlwings), and
   :mod:`xlfuncs.templates` (openpyxl): the two spreadsheet consumers;
5. :mod:`xlfuncs.cli` and :mod:`xlfuncs.docs`.

``import xlfuncs`` loads neither xlwings nor openpyxl.
"""

from __future__ import annotations

from .data.accelerators import ACCELERATORS
from .functions.cluster import (
    cluster_cost,
    cluster_days,
    cluster_gpu_hours,
    cluster_pfdays,
    flops_per_token,
    mfu,
    tokens_per_sec_per_gpu,
    training_days,
)
from .functions.finetune import (
    cost,
    examples_per_min,
    examples_per_sec,
    gpu_hours,
    throughput,
    tokens_per_example,
    tokens_per_min,
    training_hours,
)
from .functions.hardware import gpu_peak_tflops
from .functions.scaling import (
    chinchilla_budget,
    chinchilla_params,
    chinchilla_tokens,
    chinchilla_tokens_for_params,
    flops_to_pfdays,
    isoflop_tokens,
    pfdays_to_flops,
    training_flops,
)
from .functions.scaling_laws import (
    chinchilla_fit_params,
    chinchilla_fit_tokens,
    chinchilla_loss,
    inference_optimal_params,
    inference_optimal_tokens,
)
from .registry import (
    REGISTRY as FUNCTIONS,
)
from .registry import (
    InputError,
    InvalidTypeError,
    InvalidValueError,
)

__version__ = "0.2.0"

__all__ = [
    "ACCELERATORS",
    "FUNCTIONS",
    "InputError",
    "InvalidTypeError",
    "InvalidValueError",
    "__version__",
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
    "inference_optimal_params",
    "inference_optimal_tokens",
    "isoflop_tokens",
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
