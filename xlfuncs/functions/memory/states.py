"""Model states: weights, gradients and the optimizer's, sharded by ZeRO; LoRA's count.

Rajbhandari et al. 2020 (arXiv 1910.02054) count a trained parameter's state
in mixed precision as 2 + 2 + 12 bytes (16-bit weight and gradient, fp32
master weight, momentum and variance); ZeRO stage 1 shards the optimizer's
state over the data-parallel GPUs, stage 2 also the gradients, stage 3 also the
weights. Other optimizers keep less (``optimizer_bytes``): AdamW on a bf16
model 4, 8-bit Adam 2. Hu et al. 2021 (arXiv 2106.09685) for LoRA's adapters.
"""

from __future__ import annotations

from ...data.units import (
    ADAM_STATE_BYTES,
    BYTES_PER_GB,
    GRADIENT_BYTES,
    HALF_PRECISION_BYTES,
    USABLE_MEMORY,
)
from ...excel.ops import fail, given, maximum, omitted, roundup, where
from ...registry import Floats, Numbers, OptionalName, formula
from ...registry.lookups import optimizer_bytes

_MORE_TRAINED = "trainable_params must not exceed params (the parameters held)"


def sharded_by(stage: Numbers, at: int, gpus: Numbers) -> Numbers:
    """The GPUs a term is sharded over: gpus from ZeRO stage ``at`` on, else 1."""
    return where(stage >= at, gpus, 1)


@formula("OPTIMIZER_STATE_BYTES", unit="bytes")
def optimizer_state_bytes(optimizer: OptionalName = "adam") -> float:
    """Bytes of optimizer state a trained weight keeps: 12 Adam, 4 bf16, 2 8-bit.

    Formula: "adam" keeps an fp32 copy of the weight and two fp32 moments (4 +
    4 + 4); "bf16" keeps two moments in the weights' bf16 and no copy (2 + 2);
    "8bit" two moments of one byte each.

    Returns
    -------
    float
        Bytes a trained parameter: the optimizer_bytes of MODEL_STATE_GB and
        TRAINING_PEAK_GB.

    References
    ----------
    Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054, section 3.1: "2Ψ + 2Ψ
    + 12Ψ"; PyTorch's AdamW creates its states with ``torch.zeros_like(param)``;
    Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization",
    arXiv 2110.02861.

    Examples
    --------
    >>> optimizer_state_bytes("AdamW-8bit")
    2.0
    >>> optimizer_state_bytes()
    12.0
    """
    return optimizer_bytes(optimizer)


@formula(
    "MODEL_STATE_GB",
    unit="GB",
    invalid_result="trainable_params must not exceed params (the parameters held, "
    "adapters included), or the result is out of range",
)
def model_state_gb(
    params: Numbers,
    trainable_params: Numbers | None = None,
    weight_bytes: Numbers = HALF_PRECISION_BYTES,
    gpus: Numbers = 1,
    zero_stage: Numbers = 0,
    model_parallel: Numbers = 1,
    optimizer_bytes: Numbers = ADAM_STATE_BYTES,
) -> Floats:
    """Per-GPU GB of weights, gradients and optimizer states, sharded by ZeRO's stage.

    Formula: ``(N·w / g₃ + N_t·2 / g₂ + N_t·o / g₁) / m / 1e9`` with N the
    parameters held at w bytes each, N_t those that train (a 16-bit gradient
    and o bytes of optimizer state: 12 for Adam's fp32 master weight, momentum
    and variance), g₁, g₂, g₃ the data-parallel GPUs when the ZeRO stage is at
    least 1, 2, 3 (else 1), and m the model-parallel degree (tensor ×
    pipeline GPUs, which split the layers and so every term). Full
    fine-tuning: N_t = N, 16 bytes per parameter (8 with bf16 AdamW). LoRA: N
    is the base model plus its adapters, N_t the adapters. QLoRA: weight_bytes
    0.5 (4-bit).

    Returns
    -------
    float or ndarray
        GB (10^9 bytes) per GPU; the run uses gpus × model_parallel GPUs.
        Activations (ACTIVATION_GB), the KV cache, framework buffers and
        fragmentation come on top: see docs/memory.md. #NUM! where
        trainable_params exceeds params.

    References
    ----------
    Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training
    Trillion Parameter Models", arXiv 1910.02054, section 3.1 (2 + 2 + 12 bytes
    per parameter) and figure 1 / sections 5.1-5.3: 7.5 B parameters on 64
    GPUs take 120 GB without sharding, 31.4 GB at stage 1, 16.6 GB at stage 2
    and 1.9 GB at stage 3. Dettmers et al. 2023, "QLoRA", arXiv 2305.14314.

    Examples
    --------
    ZeRO's figure 1, stage 1 (31.4 GB in the paper):

    >>> model_state_gb(7.5e9, 7.5e9, 2, 64, 1)
    31.40625
    >>> model_state_gb(7.5e9)
    120.0
    >>> round(model_state_gb(7.5e9, gpus=64, zero_stage=3), 3)
    1.875

    AdamW in bf16 (4 bytes of state): 7.5 B × 8 bytes.

    >>> model_state_gb(7.5e9, optimizer_bytes=4)
    60.0
    """
    trainable = given(trainable_params, params)
    weights = params * weight_bytes / sharded_by(zero_stage, 3, gpus)
    gradients = trainable * GRADIENT_BYTES / sharded_by(zero_stage, 2, gpus)
    optimizer_state = trainable * optimizer_bytes / sharded_by(zero_stage, 1, gpus)
    state_gb = (weights + gradients + optimizer_state) / model_parallel / BYTES_PER_GB
    return where(trainable > params, fail("#NUM!", _MORE_TRAINED), state_gb)


@formula(
    "MIN_GPUS_FOR_MEMORY",
    unit="GPUs",
    invalid_result="no number of GPUs holds it: what ZeRO's stage does not shard, "
    "plus other_gb, exceeds the usable memory (try a higher zero_stage)",
)
def min_gpus_for_memory(
    params: Numbers,
    memory_gb: Numbers,
    other_gb: Numbers = 0,
    trainable_params: Numbers | None = None,
    weight_bytes: Numbers = HALF_PRECISION_BYTES,
    zero_stage: Numbers = 0,
    model_parallel: Numbers = 1,
    usable: Numbers = USABLE_MEMORY,
    optimizer_bytes: Numbers = ADAM_STATE_BYTES,
) -> Floats:
    """Fewest data-parallel GPUs whose usable memory holds model state plus other_gb.

    Formula: the smallest whole G ≥ 1 with ``(fixed + sharded / G) / m + other
    ≤ usable × memory``, that is ``max(1, roundup(sharded / m / (usable ×
    memory − other − fixed / m)))``, where ZeRO's stage decides which of
    MODEL_STATE_GB's terms are ``sharded`` over the G GPUs (stage 1 the
    optimizer's states, 2 also the gradients, 3 also the weights) and which
    stay ``fixed`` on every GPU, and m is the model-parallel degree.

    Returns
    -------
    float or ndarray
        Data-parallel GPUs, a whole number; the cluster is that times
        model_parallel. #NUM! when no number of GPUs is enough (at stage 0
        nothing shrinks: 1 if it fits on one GPU).

    References
    ----------
    Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054, section 5: stage 3
    divides all 16 bytes per parameter by the data-parallel degree. The usable
    share, 90 % by default, is vLLM's default --gpu-memory-utilization.

    Examples
    --------
    7.5 B parameters at stage 3 need 120 GB of model state: 2 GPUs of 80 GB at
    most 90 % full (60 GB each of 72).

    >>> min_gpus_for_memory(7.5e9, 80, 0, 7.5e9, 2, 3)
    2.0
    >>> min_gpus_for_memory(7.5e9, 80, 20, 7.5e9, 2, 3)
    3.0
    >>> min_gpus_for_memory(70e9, 80, 5, 70e9, 2, 3)
    17.0
    """
    trainable = given(trainable_params, params)
    weights = params * weight_bytes
    gradients = trainable * GRADIENT_BYTES
    optimizer_state = trainable * optimizer_bytes
    sharded = (
        where(zero_stage >= 3, weights, 0)
        + where(zero_stage >= 2, gradients, 0)
        + where(zero_stage >= 1, optimizer_state, 0)
    )
    fixed = weights + gradients + optimizer_state - sharded
    room = (usable * memory_gb - other_gb) * BYTES_PER_GB - fixed / model_parallel
    gpus = where(sharded.eq(0), 1, maximum(1, roundup(sharded / model_parallel / room)))
    no_room = fail("#NUM!")
    return where(
        room <= 0,
        no_room,
        where(trainable > params, fail("#NUM!", _MORE_TRAINED), gpus),
    )


_NEED_FFN = "give ffn_dim with mlp_matrices: their width"
_NEED_KV = "give kv_width with kv_matrices: their width"


def _pair(count: Numbers, width: Numbers, d_model: Numbers, why: str) -> Numbers:
    """count × (d_model + width): matrices of one kind; 0 when there are none,
    #VALUE! for a count without its width."""
    return where(
        omitted(width),
        where(count > 0, fail("#VALUE!", why), 0),
        count * (d_model + width),
    )


@formula("LORA_PARAMS", unit="parameters")
def lora_params(
    layers: Numbers,
    d_model: Numbers,
    rank: Numbers,
    matrices: Numbers = 4,
    mlp_matrices: Numbers = 0,
    ffn_dim: Numbers | None = None,
    kv_matrices: Numbers = 0,
    kv_width: Numbers | None = None,
    experts: Numbers = 1,
) -> Floats:
    """Trainable LoRA parameters: rank × (d_in + d_out) per adapted matrix and layer.

    Formula: ``L · r · (m·2·d + m_mlp·(d + ffn)·E + m_kv·(d + kv_width))`` with
    m square attention matrices (d × d: q and o, and k and v without
    grouped-query attention), m_mlp MLP matrices (d × ffn_dim) in each of the
    E experts of a mixture of experts (1 for a dense model) and m_kv
    grouped-query key/value matrices (d × kv_heads·head_dim). Each adapted
    d_in × d_out matrix W gains B·A with A of r × d_in and B of d_out × r.
    PEFT adapts every module whose name ends in a target name, so "w1", "w2",
    "w3" (Mixtral's expert matrices) adapt all E experts of every layer; the
    router ("gate", d × E) is not counted.

    Returns
    -------
    float or ndarray
        Trainable parameters: the trainable_params of MODEL_STATE_GB. Biases and
        norms are frozen; PEFT's ``modules_to_save`` would add more.

    References
    ----------
    Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language Models",
    arXiv 2106.09685, section 4.1. Meta's llama-recipes quickstart notebook,
    PEFT's printout for Llama 2 7B, r = 8 on q_proj and v_proj: "trainable
    params: 4194304". PEFT (huggingface/peft, src/peft/tuners/tuners_utils.py,
    check_target_module_exists) matches a module whose name ends in
    "." + a target name.

    Examples
    --------
    Llama 2 7B (32 layers, d_model 4,096), r = 8 on q_proj and v_proj:

    >>> lora_params(32, 4096, 8, 2)
    4194304.0

    Llama 3 8B, r = 8 on q and o (4,096 × 4,096) and on its grouped-query k and
    v (4,096 × 1,024):

    >>> lora_params(32, 4096, 8, 2, 0, None, 2, 1024)
    6815744.0

    QLoRA's setting, every linear layer of Llama 2 7B at r = 64:

    >>> lora_params(32, 4096, 64, 4, 3, 11008)
    159907840.0

    Mixtral 8x7B at r = 16 on q, k, v, o and every expert's w1, w2, w3
    (config.json: 32 layers, hidden 4,096, 8 key/value heads of 128,
    intermediate 14,336, 8 local experts):

    >>> lora_params(32, 4096, 16, 2, 3, 14336, 2, 1024, 8)
    240123904.0
    """
    mlp = _pair(mlp_matrices, ffn_dim, d_model, _NEED_FFN)
    kv = _pair(kv_matrices, kv_width, d_model, _NEED_KV)
    return layers * rank * (matrices * 2 * d_model + mlp * experts + kv)


__all__ = ["lora_params", "min_gpus_for_memory", "model_state_gb", "sharded_by"]
