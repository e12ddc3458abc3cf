"""GPU memory: model states, LoRA adapters, activations, the KV cache, a step's peak.

Does a training or fine-tuning run fit in the GPUs' memory, and on how many
GPUs? Each function estimates one term, per GPU, in GB of 10^9 bytes (as ZeRO
and the vendors' datasheets count them):

- :mod:`~xlfuncs.functions.memory.states`: model states (weights, gradients,
  the optimizer's states) with ZeRO's sharding, and LoRA's adapters;
- :mod:`~xlfuncs.functions.memory.activations`: activations after Korthikanti
  et al. 2022 and the key/value cache of serving;
- :mod:`~xlfuncs.functions.memory.peak`: a training step's peak from the shape
  as numbers, and the fewest GPUs it fits;
- :mod:`~xlfuncs.functions.memory.named`: the same for a named model.

``docs/memory.md`` puts the peak beside measured ones. Importing the package
registers the functions, in that order.
"""

# isort: off
from . import states, activations, peak, named  # noqa: F401

# isort: on
from .activations import activation_gb, kv_cache_gb, model_kv_cache_gb
from .named import (
    min_gpus_for_training,
    model_embedding_params,
    model_lora_params,
    training_memory_gb,
)
from .peak import min_gpus_for_peak, training_peak_gb
from .states import (
    lora_params,
    min_gpus_for_memory,
    model_state_gb,
    optimizer_state_bytes,
)

__all__ = [
    "activation_gb",
    "kv_cache_gb",
    "lora_params",
    "min_gpus_for_memory",
    "min_gpus_for_peak",
    "min_gpus_for_training",
    "model_embedding_params",
    "model_kv_cache_gb",
    "model_lora_params",
    "model_state_gb",
    "optimizer_state_bytes",
    "training_memory_gb",
    "training_peak_gb",
]
