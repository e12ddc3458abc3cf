"""A training step's peak memory a GPU, from the model's shape as numbers.

TRAINING_PEAK_GB and MIN_GPUS_FOR_PEAK take the shape as numbers (a workbook's
cells); TRAINING_MEMORY_GB and MIN_GPUS_FOR_TRAINING
(:mod:`~xlfuncs.functions.memory.named`) call them with a published model's.
The terms and their constants: :mod:`xlfuncs.data.training`; docs/memory.md
puts the total beside measured peaks.
"""

from __future__ import annotations

from typing import Any

from ...data.training import (
    ACTIVATION_BYTES_PER_ATTENTION_DIM,
    ACTIVATION_BYTES_PER_D_MODEL,
    ACTIVATION_BYTES_PER_FFN_DIM,
    ACTIVATION_BYTES_PER_KV_DIM,
    ALLOCATOR_RESERVE,
    CHECKPOINT_BYTES_PER_D_MODEL,
    CUDA_CONTEXT_GB,
    GATHERED_LAYERS,
    LOSS_BYTES_PER_LOGIT,
    METHOD_CODES,
    QLORA_WEIGHT_BYTES,
)
from ...data.units import (
    ADAM_STATE_BYTES,
    BYTES_PER_GB,
    GRADIENT_BYTES,
    HALF_PRECISION_BYTES,
    RECOMPUTE_MODES,
    USABLE_MEMORY,
)
from ...excel.ops import choose, fail, given, omitted, roundup, where
from ...registry import Floats, Numbers, OptionalName, formula
from ...registry.lookups import recompute_code
from .states import sharded_by

#: Input embeddings and output layer: two vocab × d_model matrices unless tied.
UNTIED = 2
#: The tensors and the caching allocator's reserve on top of them.
RESERVE = 1 + ALLOCATOR_RESERVE
_FULL = RECOMPUTE_MODES.index("full") + 1
_NEED_ADAPTERS = (
    "give adapter_params with LoRA or QLoRA (method_code 2 or 3): the adapters' "
    "count, e.g. MODEL_LORA_PARAMS"
)
_EMBEDDINGS = "embedding_params must not exceed params"
NO_GPUS = (
    "no number of GPUs holds it: what ZeRO's stage does not shard, the activations "
    "and the loss exceed the usable memory (a higher zero_stage, recomputation, "
    "shorter sequences or a smaller micro-batch)"
)


def _adapters(adapter_params: Any) -> Any:
    """The adapters, needed by LoRA and QLoRA (read in their branches only)."""
    return where(
        omitted(adapter_params), fail("#VALUE!", _NEED_ADAPTERS), adapter_params
    )


def _weights(method_code: Any, params: Any, embedding: Any, adapter_params: Any) -> Any:
    """Bytes of the weights held: 16-bit (full), 16-bit with the adapters
    (LoRA), 4.127-bit frozen linear layers with 16-bit embeddings and
    adapters (QLoRA)."""
    adapters = _adapters(adapter_params)
    h, q = HALF_PRECISION_BYTES, QLORA_WEIGHT_BYTES
    return choose(
        method_code,
        params * h,
        (params + adapters) * h,
        (params - embedding) * q + (embedding + adapters) * h,
    )


def _trained(method_code: Any, params: Any, adapter_params: Any) -> Any:
    adapters = _adapters(adapter_params)
    return choose(method_code, params, adapters, adapters)


def _rest(
    layers: Any, d_model: Any, attention_width: Any, kv_width: Any, ffn_dim: Any,
    vocab: Any, seq_len: Any, micro_batch: Any, recompute: Any,
    experts_per_token: Any, model_parallel: Any,
) -> Any:  # fmt: skip
    """Bytes of activations and the loss a GPU holds: per layer and token 16·h
    + 6·a + 4·kv + 8·f·k (FlashAttention stores no scores); with full
    recomputation each layer's 2·h input and one layer's whole set; the
    loss's logits in bf16 and fp32 with their gradient, 10 bytes a token and
    vocabulary entry. Tensor parallelism divides all but the inputs kept."""
    tokens = seq_len * micro_batch
    per_token = (
        ACTIVATION_BYTES_PER_D_MODEL * d_model
        + ACTIVATION_BYTES_PER_ATTENTION_DIM * attention_width
        + ACTIVATION_BYTES_PER_KV_DIM * kv_width
        + ACTIVATION_BYTES_PER_FFN_DIM * ffn_dim * experts_per_token
    )
    layer = tokens * per_token / model_parallel
    kept = layers * tokens * CHECKPOINT_BYTES_PER_D_MODEL * d_model
    activations = where(
        recompute_code(recompute).eq(_FULL), kept + layer, layers * layer
    )
    loss = tokens * vocab * LOSS_BYTES_PER_LOGIT / model_parallel
    return activations + loss


def _gathered(method_code: Any, params: Any, embedding: Any, layers: Any) -> Any:
    """Bytes of the two layers ZeRO-3 gathers whole on each GPU."""
    width = choose(method_code, HALF_PRECISION_BYTES, HALF_PRECISION_BYTES,
                   QLORA_WEIGHT_BYTES)  # fmt: skip
    return GATHERED_LAYERS * (params - embedding) / layers * width


@formula("TRAINING_PEAK_GB", unit="GB")
def training_peak_gb(
    params: Numbers,
    layers: Numbers,
    d_model: Numbers,
    attention_width: Numbers,
    kv_width: Numbers,
    ffn_dim: Numbers,
    vocab: Numbers,
    seq_len: Numbers,
    micro_batch: Numbers,
    method_code: Numbers = METHOD_CODES["full"],
    recompute: OptionalName = "none",
    adapter_params: Numbers | None = None,
    embedding_params: Numbers | None = None,
    experts_per_token: Numbers = 1,
    gpus: Numbers = 1,
    zero_stage: Numbers = 0,
    model_parallel: Numbers = 1,
    optimizer_bytes: Numbers = ADAM_STATE_BYTES,
) -> Floats:
    """Per-GPU peak memory of a training step in GB, from the model's shape as numbers.

    Formula: ((weights ÷ g₃ + N_t·2 ÷ g₂ + N_t·o ÷ g₁) ÷ m + activations + loss
    + gathered ÷ m) ÷ 1e9 × 1.1 + 1.3. By method_code: 1 full fine-tuning
    (weights 2·N, N_t = N), 2 LoRA (2·(N + A), N_t = A, the adapter_params A),
    3 QLoRA (0.516·(N − e) + 2·(e + A), the embedding_params e in 16 bits, N_t
    = A). o is the optimizer's bytes a trained weight: 12 for Adam with an
    fp32 master copy, 4 for AdamW in bf16, 2 for 8-bit Adam. Activations per
    layer and token 16·h + 6·a + 4·kv + 8·f·k bytes (h d_model, a
    attention_width, kv kv_width, f ffn_dim, k experts_per_token), times the
    layers; with recompute "full", each layer's 2·h input and one layer's
    whole set. The loss: 10 bytes per token and vocabulary entry. ZeRO stage 3
    on more than one GPU gathers two layers' weights, 2·(N − e) ÷ L at 2
    bytes (0.516 for QLoRA). g₁, g₂, g₃: gpus where the stage is at least 1,
    2, 3; m: model_parallel.

    Returns
    -------
    float or ndarray
        GB (10^9 bytes) per GPU at the step's peak, as nvidia-smi shows it.
        #NUM! for embedding_params above params.

    References
    ----------
    As TRAINING_MEMORY_GB (its terms, their constants and sources:
    xlfuncs.data.training); docs/memory.md puts it beside measured peaks.

    Examples
    --------
    PEFT's DeepSpeed run, LoRA r = 8 of Llama 2 70B (68.98 B parameters, 80
    layers, d_model 8,192, 8 key/value heads of 128, ffn 28,672, vocabulary
    32,000) on 8 GPUs with ZeRO-3, 8 sequences of 2,048 tokens, gradient
    checkpointing: 103.5 M adapters (MODEL_LORA_PARAMS), 524.3 M embedding and
    output weights (MODEL_EMBEDDING_PARAMS). PEFT measured 64 GB.

    >>> round(training_peak_gb(68976648192, 80, 8192, 8192, 1024, 28672, 32000,
    ...                        2048, 8, 2, "full", 103546880, 524288000, 1, 8, 3), 1)
    61.1
    """
    embedding = given(embedding_params, UNTIED * vocab * d_model)
    weights = _weights(method_code, params, embedding, adapter_params)
    trained = _trained(method_code, params, adapter_params)
    state = (
        weights / sharded_by(zero_stage, 3, gpus)
        + trained * GRADIENT_BYTES / sharded_by(zero_stage, 2, gpus)
        + trained * optimizer_bytes / sharded_by(zero_stage, 1, gpus)
    ) / model_parallel
    rest = _rest(
        layers, d_model, attention_width, kv_width, ffn_dim, vocab, seq_len,
        micro_batch, recompute, experts_per_token, model_parallel,
    )  # fmt: skip
    gathered = where(
        zero_stage >= 3,
        where(gpus > 1, _gathered(method_code, params, embedding, layers), 0),
        0,
    ) / model_parallel  # fmt: skip
    peak_gb = (state + rest + gathered) / BYTES_PER_GB * RESERVE + CUDA_CONTEXT_GB
    return where(embedding > params, fail("#NUM!", _EMBEDDINGS), peak_gb)


@formula("MIN_GPUS_FOR_PEAK", unit="GPUs", invalid_result=NO_GPUS)
def min_gpus_for_peak(
    params: Numbers,
    layers: Numbers,
    d_model: Numbers,
    attention_width: Numbers,
    kv_width: Numbers,
    ffn_dim: Numbers,
    vocab: Numbers,
    seq_len: Numbers,
    micro_batch: Numbers,
    memory_gb: Numbers,
    method_code: Numbers = METHOD_CODES["full"],
    recompute: OptionalName = "none",
    adapter_params: Numbers | None = None,
    embedding_params: Numbers | None = None,
    experts_per_token: Numbers = 1,
    zero_stage: Numbers = 0,
    model_parallel: Numbers = 1,
    usable: Numbers = USABLE_MEMORY,
    optimizer_bytes: Numbers = ADAM_STATE_BYTES,
) -> Floats:
    """Fewest data-parallel GPUs at which TRAINING_PEAK_GB fits the usable memory.

    Formula: 1 if TRAINING_PEAK_GB on one GPU is at most usable × memory_gb;
    else the smallest whole G ≥ 2 with ``F + S / G ≤ usable × memory_gb``:
    ``1 + roundup((gathered − Y) / D)`` with Y = room − the peak on one GPU and
    D = Y + S − gathered. S is the model state the ZeRO stage shards (the
    weights at stage 3, the gradients from 2, the optimizer's states from 1),
    over m, in GB with the allocator's 10 %; F everything else at G ≥ 2: the
    unsharded state, activations, loss, ZeRO-3's two gathered layers, the
    reserve and the CUDA context. The arguments are TRAINING_PEAK_GB's.

    Returns
    -------
    float or ndarray
        Data-parallel GPUs, a whole number (the cluster is that times
        model_parallel); #NUM! when no number is enough.

    References
    ----------
    Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054, section 5; the terms:
    TRAINING_PEAK_GB.

    Examples
    --------
    LoRA (r = 16, 207.1 M adapters) of Llama 3.1 70B (vocabulary 128,256) with
    ZeRO-3 on A100 80GB (85.9 GB), one 8,192-token sequence per GPU, gradient
    checkpointing:

    >>> min_gpus_for_peak(7e10, 80, 8192, 8192, 1024, 28672, 128256, 8192, 1,
    ...                   85.9, 2, "full", 207093760, 2101346304, 1, 3)
    4.0
    """
    embedding = given(embedding_params, UNTIED * vocab * d_model)
    # The peak on one GPU; the adapters as given (0 where left out: full
    # fine-tuning reads none, and LoRA without them fails below).
    one_gb = training_peak_gb(
        params, layers, d_model, attention_width, kv_width, ffn_dim, vocab, seq_len,
        micro_batch, method_code, recompute, given(adapter_params, 0), embedding,
        experts_per_token, 1, zero_stage, model_parallel, optimizer_bytes,
    )  # fmt: skip
    trained = _trained(method_code, params, adapter_params)
    weights = _weights(method_code, params, embedding, adapter_params)
    sharded = (
        where(zero_stage >= 3, weights, 0)
        + where(zero_stage >= 2, trained * GRADIENT_BYTES, 0)
        + where(zero_stage >= 1, trained * optimizer_bytes, 0)
    )  # fmt: skip
    room_gb = usable * memory_gb
    left_gb = room_gb - one_gb
    sharded_gb = sharded / model_parallel / BYTES_PER_GB * RESERVE
    gathered_gb = (
        where(zero_stage >= 3, _gathered(method_code, params, embedding, layers), 0)
        / model_parallel / BYTES_PER_GB * RESERVE
    )  # fmt: skip
    shrink_gb = left_gb + sharded_gb - gathered_gb
    more = 1 + roundup((gathered_gb - left_gb) / shrink_gb)
    return where(one_gb <= room_gb, 1, where(shrink_gb > 0, more, fail("#NUM!")))


__all__ = ["NO_GPUS", "RESERVE", "UNTIED", "min_gpus_for_peak", "training_peak_gb"]
