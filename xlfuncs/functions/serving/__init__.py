"""Serving: how fast a model generates, the batch it runs, what a token costs.

- :mod:`~xlfuncs.functions.serving.decode`: decoding's bounds, the batch memory
  allows, the cost of a million tokens and the GPUs a traffic level needs;
- :mod:`~xlfuncs.functions.serving.replica`: one replica from the model's shape
  as numbers, tensor- or expert-parallel: its prompt, its step, its batch and
  its speed;
- :mod:`~xlfuncs.functions.serving.named`: the same for a model and an
  accelerator by name, generated from their look-ups.

Importing the package registers them, in that order.
"""

# isort: off
from . import decode, replica, named  # noqa: F401

# isort: on
from .decode import (
    decode_tokens_per_sec,
    max_decode_batch,
    model_decode_tokens_per_sec,
    serving_cost_per_mtok,
    serving_gpus,
)
from .named import (
    decode_step_ms,
    prefill_ms,
    serving_batch,
    serving_cache_bytes,
    serving_peak_tflops,
    serving_tokens_per_sec,
    serving_weight_bytes,
    time_to_first_token_ms,
    tp_comm_ms,
    zero3_comm_ms,
)
from .replica import (
    ep_alltoall_ms,
    latency_batch,
    replica_batch,
    replica_prefill_ms,
    replica_step_ms,
    replica_tokens_per_sec,
    tp_allreduce_ms,
)

__all__ = [
    "decode_step_ms",
    "decode_tokens_per_sec",
    "ep_alltoall_ms",
    "latency_batch",
    "max_decode_batch",
    "model_decode_tokens_per_sec",
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
    "time_to_first_token_ms",
    "tp_allreduce_ms",
    "tp_comm_ms",
    "zero3_comm_ms",
]
