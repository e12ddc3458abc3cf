"""xlfuncs: planning math for LLM training and fine-tuning, for Python and Excel.

The functions below are the Python API; :data:`FUNCTIONS` describes each of them
(Excel name, arguments, units, example), :mod:`xlfuncs.udfs` gives them to Excel
through xlwings, and :mod:`xlfuncs.templates` writes workbooks that compute the same
math in native formulas.

The package is layered, each layer importing only from those above it here:

1. :mod:`xlfuncs.data`: pure data (units, the accelerator and model tables, fit
   constants);
2. :mod:`xlfuncs.excel`: the formula engine (trees, their Excel text, their
   values, and the Python they compile to);
3. :mod:`xlfuncs.registry`: argument domains, errors and the ``@formula``
   record: each function declared once, as its named parts;
4. :mod:`xlfuncs.functions`: the math, by topic;
5. :mod:`xlfuncs.cells` and :mod:`xlfuncs.udfs` (xlwings), and
   :mod:`xlfuncs.templates` (openpyxl): the two spreadsheet consumers;
6. :mod:`xlfuncs.cli` and :mod:`xlfuncs.docs`.

``import xlfuncs`` loads neither xlwings nor openpyxl.
"""

from __future__ import annotations

from .data.accelerators import ACCELERATORS
from .data.models import MODELS
from .functions.cluster import (
    cluster_cost,
    cluster_days,
    cluster_gpu_hours,
    cluster_pfdays,
    flops_per_token,
    mfu,
    recompute_mfu,
    tokens_per_sec_per_gpu,
    training_days,
)
from .functions.energy import training_co2_tonnes, training_energy_mwh
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
from .functions.hardware import (
    gpu_bandwidth_tbs,
    gpu_interconnect_gbs,
    gpu_memory_gb,
    gpu_peak_tflops,
    gpu_power_w,
)
from .functions.memory import (
    activation_gb,
    kv_cache_gb,
    lora_params,
    min_gpus_for_memory,
    min_gpus_for_peak,
    min_gpus_for_training,
    model_embedding_params,
    model_kv_cache_gb,
    model_lora_params,
    model_state_gb,
    optimizer_state_bytes,
    training_memory_gb,
    training_peak_gb,
)
from .functions.models import model_spec
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
from .functions.serving import (
    decode_step_ms,
    decode_tokens_per_sec,
    ep_alltoall_ms,
    latency_batch,
    max_decode_batch,
    model_decode_tokens_per_sec,
    prefill_ms,
    replica_batch,
    replica_prefill_ms,
    replica_step_ms,
    replica_tokens_per_sec,
    serving_batch,
    serving_cache_bytes,
    serving_cost_per_mtok,
    serving_gpus,
    serving_peak_tflops,
    serving_tokens_per_sec,
    serving_weight_bytes,
    time_to_first_token_ms,
    tp_allreduce_ms,
    tp_comm_ms,
    zero3_comm_ms,
)
from .registry import (
    REGISTRY as FUNCTIONS,
)
from .registry import (
    InputError,
    InvalidTypeError,
    InvalidValueError,
    UnusualValueWarning,
)

__version__ = "0.3.0"

__all__ = [
    "ACCELERATORS",
    "FUNCTIONS",
    "InputError",
    "InvalidTypeError",
    "InvalidValueError",
    "MODELS",
    "UnusualValueWarning",
    "__version__",
    "activation_gb",
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
    "decode_step_ms",
    "decode_tokens_per_sec",
    "ep_alltoall_ms",
    "examples_per_min",
    "examples_per_sec",
    "flops_per_token",
    "flops_to_pfdays",
    "gpu_bandwidth_tbs",
    "gpu_hours",
    "gpu_interconnect_gbs",
    "gpu_memory_gb",
    "gpu_peak_tflops",
    "gpu_power_w",
    "inference_optimal_params",
    "inference_optimal_tokens",
    "isoflop_tokens",
    "kv_cache_gb",
    "latency_batch",
    "lora_params",
    "max_decode_batch",
    "mfu",
    "min_gpus_for_memory",
    "min_gpus_for_peak",
    "min_gpus_for_training",
    "model_decode_tokens_per_sec",
    "model_embedding_params",
    "model_kv_cache_gb",
    "model_lora_params",
    "model_spec",
    "model_state_gb",
    "optimizer_state_bytes",
    "pfdays_to_flops",
    "prefill_ms",
    "replica_batch",
    "replica_prefill_ms",
    "replica_step_ms",
    "replica_tokens_per_sec",
    "serving_batch",
    "serving_cost_per_mtok",
    "serving_gpus",
    "serving_cache_bytes",
    "serving_peak_tflops",
    "serving_weight_bytes",
    "serving_tokens_per_sec",
    "throughput",
    "time_to_first_token_ms",
    "tokens_per_example",
    "tokens_per_min",
    "recompute_mfu",
    "tokens_per_sec_per_gpu",
    "tp_allreduce_ms",
    "tp_comm_ms",
    "training_co2_tonnes",
    "training_days",
    "training_energy_mwh",
    "training_flops",
    "training_hours",
    "training_memory_gb",
    "training_peak_gb",
    "zero3_comm_ms",
]
