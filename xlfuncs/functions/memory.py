"""GPU memory: model states, LoRA adapters, activations and the KV cache.

Does a training or fine-tuning run fit in the GPUs' memory, and on how many
GPUs? Each function estimates one term, per GPU, in GB of 10^9 bytes (as ZeRO
and the vendors' datasheets count them):

- model states (weights, gradients, Adam states) with ZeRO's sharding
  (Rajbhandari et al. 2020, arXiv 1910.02054), full fine-tuning, LoRA or QLoRA;
- the trainable parameters LoRA adds (Hu et al. 2021, arXiv 2106.09685);
- activations after Korthikanti et al. 2022 (arXiv 2205.05198), with tensor and
  sequence parallelism and selective or full recomputation;
- the key/value cache of serving (kipply 2022, "Transformer Inference
  Arithmetic"), with grouped-query attention.

The sum is a floor: frameworks also hold a CUDA context, kernels, buffers and
fragmented free memory. ``docs/memory.md`` says how much headroom to keep and
where published tools disagree. Every function broadcasts like a ufunc.
"""

from __future__ import annotations

import numpy as np

from ..data.models import BY_NAME, Model
from ..data.training import (
    ACTIVATION_BYTES_PER_ATTENTION_DIM,
    ACTIVATION_BYTES_PER_D_MODEL,
    ACTIVATION_BYTES_PER_FFN_DIM,
    ACTIVATION_BYTES_PER_KV_DIM,
    ALLOCATOR_RESERVE,
    CHECKPOINT_BYTES_PER_D_MODEL,
    CUDA_CONTEXT_GB,
    GATHERED_LAYERS,
    LORA_RANK,
    LOSS_BYTES_PER_LOGIT,
    QLORA_WEIGHT_BYTES,
)
from ..data.units import (
    ADAM_STATE_BYTES,
    BYTES_PER_GB,
    GRADIENT_BYTES,
    HALF_PRECISION_BYTES,
    RECOMPUTE_MODES,
    USABLE_MEMORY,
)
from ..registry import (
    Floats,
    InvalidTypeError,
    Numbers,
    OptionalName,
    formula,
)
from ..registry.excel import key, xl

# Korthikanti et al. 2022, section 4.1, eq. 1: bytes per layer stored for the
# backward pass, s·b·h·(34 + 5·a·s/h) with 16-bit activations and 1-byte dropout
# masks: 34·s·b·h for the linear parts (attention 11, MLP 19, layer norms 4) and
# 5·a·s²·b for the attention scores, softmax and its dropout. Section 5: full
# recomputation keeps 2·s·b·h (each layer's 16-bit input).
_LINEAR_BYTES = 34
_SCORE_BYTES = 5
_INPUT_BYTES = 2
#: Keys and values: two cached vectors per head per token.
_KV = 2


def _model_state_bytes(
    params: Floats,
    trainable: Floats,
    weight_bytes: Floats,
    gpus: Floats,
    zero_stage: Floats,
) -> Floats:
    """Bytes per GPU of weights, gradients and Adam states, ZeRO-sharded.

    NaN where trainable exceeds params: cell by cell, as Excel's IF does.
    """
    weights = params * weight_bytes / np.where(zero_stage >= 3, gpus, 1.0)
    grads = trainable * GRADIENT_BYTES / np.where(zero_stage >= 2, gpus, 1.0)
    adam = trainable * ADAM_STATE_BYTES / np.where(zero_stage >= 1, gpus, 1.0)
    total = np.where(trainable > params, np.nan, weights + grads + adam)
    return float(total) if np.ndim(total) == 0 else total


def _trainable_expr() -> str:
    return "IF(OMITTED(trainable_params),params,trainable_params)"


def _model_state_excel() -> str:
    t = _trainable_expr()
    return (
        f"IF({t}>params,#NUM!,"
        "(params*weight_bytes/IF(zero_stage>=3,gpus,1)"
        f"+{t}*{xl(GRADIENT_BYTES)}/IF(zero_stage>=2,gpus,1)"
        f"+{t}*{xl(ADAM_STATE_BYTES)}/IF(zero_stage>=1,gpus,1))"
        f"/model_parallel/{xl(BYTES_PER_GB)})"
    )


@formula(
    "MODEL_STATE_GB",
    unit="GB",
    excel=_model_state_excel(),
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
) -> Floats:
    """Per-GPU GB of weights, gradients and Adam states, sharded by ZeRO's stage.

    Formula: ``(N·w / g₃ + N_t·2 / g₂ + N_t·12 / g₁) / m / 1e9`` with N the
    parameters held at w bytes each, N_t those that train (a 16-bit gradient,
    and fp32 weight, momentum and variance: 4 + 4 + 4 bytes), g₁, g₂, g₃ the
    data-parallel GPUs when the ZeRO stage is at least 1, 2, 3 (else 1), and m
    the model-parallel degree (tensor × pipeline GPUs, which split the layers
    and so every term). Full fine-tuning: N_t = N, 16 bytes per parameter.
    LoRA: N is the base model plus its adapters (PEFT's "all params"), N_t the
    adapters: the frozen base weights shard at stage 3 like any weights, the
    adapters' gradients and Adam states at stages 2 and 1. QLoRA: weight_bytes
    0.5 (4-bit; the adapters, in 16-bit, are then counted at 0.5 bytes too: 1.5
    bytes per adapter weight short).

    Returns
    -------
    float or ndarray
        GB (10^9 bytes) per GPU; the run uses gpus × model_parallel GPUs.
        Activations (ACTIVATION_GB), the KV cache, framework buffers and
        fragmentation come on top: see docs/memory.md.

    References
    ----------
    Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training
    Trillion Parameter Models", arXiv 1910.02054, section 3.1 (2 + 2 + 12 bytes
    per parameter) and figure 1 / sections 5.1-5.3: 7.5 B parameters on 64
    GPUs take 120 GB without sharding, 31.4 GB at stage 1, 16.6 GB at stage 2
    and 1.9 GB at stage 3; section 7 combines ZeRO with model parallelism,
    which divides the model state by its degree. Dettmers et al. 2023,
    "QLoRA", arXiv 2305.14314.

    Examples
    --------
    ZeRO's figure 1, stage 1 (31.4 GB in the paper):

    >>> model_state_gb(7.5e9, 7.5e9, 2, 64, 1)
    31.40625
    >>> model_state_gb(7.5e9)
    120.0
    >>> round(model_state_gb(7.5e9, gpus=64, zero_stage=3), 3)
    1.875

    The same model split over 8 tensor-parallel GPUs, no ZeRO: 120 / 8.

    >>> model_state_gb(7.5e9, model_parallel=8)
    15.0
    """
    trainable = params if trainable_params is None else trainable_params
    state = _model_state_bytes(params, trainable, weight_bytes, gpus, zero_stage)
    return state / model_parallel / BYTES_PER_GB


def _min_gpus(
    params: Floats,
    memory_gb: Floats,
    other_gb: Floats,
    trainable: Floats,
    weight_bytes: Floats,
    zero_stage: Floats,
    model_parallel: Floats,
    usable: Floats,
) -> Floats:
    """The smallest whole G with (fixed + sharded/G)/m + other within usable memory.

    The parts of the model state the stage shards shrink with G; the rest does
    not; the model-parallel degree m divides both. NaN where nothing fits: the
    unsharded part and ``other`` alone exceed the usable memory, or the
    trainable parameters exceed those held.
    """
    weights = params * weight_bytes
    grads = trainable * GRADIENT_BYTES
    adam = trainable * ADAM_STATE_BYTES
    sharded = (
        np.where(zero_stage >= 3, weights, 0.0)
        + np.where(zero_stage >= 2, grads, 0.0)
        + np.where(zero_stage >= 1, adam, 0.0)
    ) / model_parallel
    fixed = (weights + grads + adam) / model_parallel - sharded
    room = (usable * memory_gb - other_gb) * BYTES_PER_GB - fixed
    with np.errstate(divide="ignore", invalid="ignore"):
        # A hair below the exact quotient: 120 GB in 80 GB chunks is 2, not 3.
        gpus = np.maximum(1.0, np.ceil(sharded / room * (1 - 1e-12)))
    bad = (room <= 0) | (trainable > params)
    out = np.where(bad, np.nan, gpus)
    return float(out) if np.ndim(out) == 0 else out


def _min_gpus_excel() -> str:
    t = _trainable_expr()
    weights, grads = "params*weight_bytes", f"{t}*{xl(GRADIENT_BYTES)}"
    adam = f"{t}*{xl(ADAM_STATE_BYTES)}"
    sharded = (
        f"(IF(zero_stage>=3,{weights},0)+IF(zero_stage>=2,{grads},0)"
        f"+IF(zero_stage>=1,{adam},0))"
    )
    fixed = f"({weights}+{grads}+{adam}-{sharded})"
    room = f"((usable*memory_gb-other_gb)*{xl(BYTES_PER_GB)}-{fixed}/model_parallel)"
    # Nested IFs, not OR() or MAX(): those would fold a range into one value.
    return (
        f"IF({room}<=0,#NUM!,IF({t}>params,#NUM!,IF({sharded}=0,1,"
        f"ROUNDUP({sharded}/model_parallel/{room}*(1-1E-12),0))))"
    )


@formula(
    "MIN_GPUS_FOR_MEMORY",
    unit="GPUs",
    excel=_min_gpus_excel(),
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
) -> Floats:
    """Fewest data-parallel GPUs whose usable memory holds model state plus other_gb.

    Formula: the smallest whole G ≥ 1 with ``(fixed + sharded / G) / m + other
    ≤ usable × memory``, that is ``max(1, ceil(sharded / m / (usable × memory −
    other − fixed / m)))``, where ZeRO's stage decides which of MODEL_STATE_GB's
    terms are ``sharded`` over the G GPUs (stage 1 the Adam states, 2 also the
    gradients, 3 also the weights) and which stay ``fixed`` on every GPU, and m
    is the model-parallel degree. At the G it returns, MODEL_STATE_GB(…, G,
    zero_stage, m) + other_gb is at most usable × memory_gb: the fit check of
    docs/memory.md reads OK.

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
    trainable = params if trainable_params is None else trainable_params
    return _min_gpus(
        params,
        memory_gb,
        other_gb,
        trainable,
        weight_bytes,
        zero_stage,
        model_parallel,
        usable,
    )


def _lora_params(
    layers: Floats,
    d_model: Floats,
    rank: Floats,
    matrices: Floats,
    mlp_matrices: Floats,
    ffn_dim: Floats | None,
    kv_matrices: Floats,
    kv_width: Floats | None,
    experts: Floats,
) -> Floats:
    """rank × (d_in + d_out) per adapted matrix, summed over the layers; the MLP's
    matrices once per expert."""
    mlp = _pair("mlp_matrices", mlp_matrices, "ffn_dim", ffn_dim, d_model)
    kv = _pair("kv_matrices", kv_matrices, "kv_width", kv_width, d_model)
    per_rank = matrices * 2 * d_model + mlp * experts + kv
    return layers * rank * per_rank


def _pair(
    count_name: str,
    count: Floats,
    width_name: str,
    width: Floats | None,
    d_model: Floats,
) -> Floats:
    """count × (d_model + width): matrices of one kind, or 0 when there are none.

    A count above 0 without its width is #VALUE!: for one value, raised; in a
    range, NaN in that cell alone, which the cell layer and the API then report
    with this same error (they run the cell again on its own).
    """
    if width is None:
        missing = np.asarray(count) > 0
        if missing.ndim > 0:
            return np.where(missing, np.nan, 0.0)
        if missing:
            raise InvalidTypeError(
                "#VALUE!", f"give {width_name} with {count_name}: their width"
            )
        return 0.0
    return count * (d_model + width)


@formula(
    "LORA_PARAMS",
    unit="parameters",
    excel="layers*rank*(matrices*2*d_model"
    "+IF(OMITTED(ffn_dim),IF(mlp_matrices>0,#VALUE!,0),"
    "mlp_matrices*(d_model+ffn_dim)*experts)"
    "+IF(OMITTED(kv_width),IF(kv_matrices>0,#VALUE!,0),kv_matrices*(d_model+kv_width)))",
)
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
    return _lora_params(
        layers,
        d_model,
        rank,
        matrices,
        mlp_matrices,
        ffn_dim,
        kv_matrices,
        kv_width,
        experts,
    )


def _activation_bytes(
    layers: Floats,
    d_model: Floats,
    heads: Floats,
    seq_len: Floats,
    micro_batch: Floats,
    tensor_parallel: Floats,
    recompute: str,
) -> Floats:
    """Korthikanti et al. 2022, table 2, times the layers."""
    sbhl = seq_len * micro_batch * d_model * layers
    if recompute == "full":  # not divided by t: broadcast against it all the same
        return _INPUT_BYTES * sbhl + 0 * tensor_parallel
    if recompute == "selective":
        return _LINEAR_BYTES * sbhl / tensor_parallel
    scores = _SCORE_BYTES * heads * seq_len / d_model
    return sbhl * (_LINEAR_BYTES + scores) / tensor_parallel


_SBHL = "seq_len*micro_batch*d_model*layers"
_ACTIVATION_EXCEL = {  # bytes per GPU, by recomputation mode
    "none": f"{_SBHL}*({xl(_LINEAR_BYTES)}+{xl(_SCORE_BYTES)}*heads*seq_len/d_model)"
    "/tensor_parallel",
    "selective": f"{xl(_LINEAR_BYTES)}*{_SBHL}/tensor_parallel",
    "full": f"{xl(_INPUT_BYTES)}*{_SBHL}",
}
_MODES = ",".join(f'"{m}"' for m in RECOMPUTE_MODES)


@formula(
    "ACTIVATION_GB",
    unit="GB",
    excel=f"CHOOSE(MATCH({key('recompute')},{{{_MODES}}},0),"
    + ",".join(_ACTIVATION_EXCEL[m] for m in RECOMPUTE_MODES)
    + f")/{xl(BYTES_PER_GB)}",
)
def activation_gb(
    layers: Numbers,
    d_model: Numbers,
    heads: Numbers,
    seq_len: Numbers,
    micro_batch: Numbers,
    tensor_parallel: Numbers = 1,
    recompute: str = "none",
) -> Floats:
    """Per-GPU GB of activations kept for the backward pass, after Korthikanti et al.

    Formula: per layer, in bytes, ``s·b·h·(34 + 5·a·s/h) / t`` with no
    recomputation, ``34·s·b·h / t`` with selective recomputation of the
    attention scores, ``2·s·b·h`` with full recomputation (each layer's input
    only); times L layers, over 1e9. s is seq_len, b micro_batch, h d_model, a
    heads, t tensor_parallel. Tensor parallelism is assumed to come with
    sequence parallelism, so t divides everything but full recomputation's
    inputs (the paper's table 2 does not divide those). 16-bit activations,
    dropout masks of one byte, no FlashAttention: FlashAttention stores no
    attention scores, as "selective" assumes. With pipeline parallelism and
    1F1B, the first stage holds L layers' worth of micro-batches: give all the
    layers (section 4.2.3).

    Returns
    -------
    float or ndarray
        GB (10^9 bytes) per GPU, for one micro-batch in flight per layer.

    References
    ----------
    Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
    Transformer Models", arXiv 2205.05198, section 4.1 eq. 1 and table 2.
    GPT-3 175B (h = 12,288, a = 96, s = 2,048): 5·a·s/h = 80, so selective
    recomputation saves 80 / 114 = 70 % of the activation memory.

    Examples
    --------
    The paper's 22 B model (48 layers, h 6,144, 64 heads, s 2,048, b 4) on 8
    tensor-parallel GPUs, all activations kept:

    >>> round(activation_gb(48, 6144, 64, 2048, 4, 8), 3)
    42.48
    >>> round(activation_gb(48, 6144, 64, 2048, 4, 8, "selective"), 3)
    10.268
    >>> round(activation_gb(48, 6144, 64, 2048, 4, 8, "full"), 3)
    4.832
    """
    per_gpu = _activation_bytes(
        layers, d_model, heads, seq_len, micro_batch, tensor_parallel, recompute
    )
    return per_gpu / BYTES_PER_GB


@formula(
    "KV_CACHE_GB",
    unit="GB",
    excel=f"{xl(_KV)}*layers*kv_heads*head_dim*seq_len*batch*bytes_per_value"
    f"/{xl(BYTES_PER_GB)}",
)
def kv_cache_gb(
    layers: Numbers,
    kv_heads: Numbers,
    head_dim: Numbers,
    seq_len: Numbers,
    batch: Numbers,
    bytes_per_value: Numbers = HALF_PRECISION_BYTES,
) -> Floats:
    """GB of the key/value cache: 2 (K, V) × layers × kv_heads × head_dim × tokens × B.

    Formula: ``2 · L · kv_heads · head_dim · seq_len · batch · bytes / 1e9``.
    With grouped-query attention kv_heads is the number of key/value heads (8
    for Llama 3 70B), not of query heads: counting the query heads overstates
    the cache 8 times there.

    Returns
    -------
    float or ndarray
        GB (10^9 bytes) for the whole batch; split over tensor-parallel GPUs
        by dividing by their number (at most kv_heads of them).

    References
    ----------
    kipply (C. Chen), "Transformer Inference Arithmetic", 2022,
    https://kipp.ly/transformer-inference-arithmetic/: "2·2·n_layers·n_heads·
    d_head" bytes per token in 16 bits, 2,097,152 for a 52 B model with 64
    layers and d_model 8,192 (64 heads of 128).

    Examples
    --------
    kipply's 52 B model (64 layers, 64 heads of 128), 2,097,152 bytes a token,
    for a sequence of 2,048 tokens:

    >>> kv_cache_gb(64, 64, 128, 2048, 1)
    4.294967296

    Llama 3 70B (80 layers, 8 key/value heads of 128) at 8,192 tokens, batch 8:

    >>> round(kv_cache_gb(80, 8, 128, 8192, 8), 2)
    21.47
    """
    tokens = seq_len * batch
    return _KV * layers * kv_heads * head_dim * tokens * bytes_per_value / BYTES_PER_GB


# ---------------------------------------------------- a training step, by name


def _embedding_params(m: Model) -> float:
    """The input embeddings and the output layer: vocab × d_model, once if tied."""
    return float(m.vocab * m.d_model * (1 if m.tied_embeddings else 2))


def _lora_all_linear(m: Model, rank: Floats) -> Floats:
    """Adapter weights on every linear layer (PEFT's "all-linear"): q and o
    (d_model × heads·head_dim), k and v (d_model × kv_width), and the gated MLP's
    three matrices in each expert."""
    per_rank = (
        2 * (m.d_model + m.attention_width)
        + 2 * (m.d_model + m.kv_width)
        + (3 if m.gated_mlp else 2) * (m.d_model + m.ffn_dim) * (m.experts or 1)
    )
    return m.layers * rank * per_rank


def _activation_bytes_per_token(m: Model) -> float:
    """One layer's bytes kept for the backward pass, per token (no recomputation)."""
    return float(
        ACTIVATION_BYTES_PER_D_MODEL * m.d_model
        + ACTIVATION_BYTES_PER_ATTENTION_DIM * m.attention_width
        + ACTIVATION_BYTES_PER_KV_DIM * m.kv_width
        + ACTIVATION_BYTES_PER_FFN_DIM * m.ffn_dim * (m.experts_per_token or 1)
    )


def _training_parts(
    model: str,
    method: str,
    seq_len: Floats,
    micro_batch: Floats,
    recompute: str,
    lora_rank: Floats,
    gpus: Floats,
    zero_stage: Floats,
    model_parallel: Floats,
) -> dict[str, Floats]:
    """The terms of TRAINING_MEMORY_GB in GB per GPU, by name."""
    m = BY_NAME[model]
    n = float(m.params)
    adapters = 0.0 if method == "full" else _lora_all_linear(m, lora_rank)
    trainable = n if method == "full" else adapters
    if method == "qlora":
        embeddings = _embedding_params(m)
        weights = (n - embeddings) * QLORA_WEIGHT_BYTES + (
            embeddings + adapters
        ) * HALF_PRECISION_BYTES
        layer_bytes = QLORA_WEIGHT_BYTES
    else:
        weights = (n + adapters) * HALF_PRECISION_BYTES
        layer_bytes = HALF_PRECISION_BYTES
    state = (
        weights / np.where(zero_stage >= 3, gpus, 1.0)
        + trainable * GRADIENT_BYTES / np.where(zero_stage >= 2, gpus, 1.0)
        + trainable * ADAM_STATE_BYTES / np.where(zero_stage >= 1, gpus, 1.0)
    ) / model_parallel
    tokens = seq_len * micro_batch
    per_layer = tokens * _activation_bytes_per_token(m) / model_parallel
    if recompute == "full":
        kept = m.layers * tokens * CHECKPOINT_BYTES_PER_D_MODEL * m.d_model
        activations, working = kept + 0 * per_layer, per_layer
    else:  # FlashAttention stores no scores: selective recomputation saves nothing
        activations, working = m.layers * per_layer, 0 * per_layer
    loss = tokens * m.vocab * LOSS_BYTES_PER_LOGIT / model_parallel
    gathered = (
        np.where(
            (zero_stage >= 3) & (gpus > 1),
            GATHERED_LAYERS * (n - _embedding_params(m)) / m.layers * layer_bytes,
            0.0,
        )
        / model_parallel
    )
    parts = {
        "model_state": state,
        "activations": activations,
        "recomputed_layer": working,
        "loss": loss,
        "gathered_layers": gathered,
    }
    out = {k: v / BYTES_PER_GB for k, v in parts.items()}
    tensors = sum(out.values())
    out["overhead"] = CUDA_CONTEXT_GB + ALLOCATOR_RESERVE * tensors
    return out


@formula(
    "TRAINING_MEMORY_GB",
    unit="GB",
    excel=None,
    excel_note="one Excel formula cannot hold it: without LET, each of its many "
    "look-ups of the model is written out where it is used, past Excel's 8,192 "
    "characters: add its terms up in cells (the memory guide shows how)",
)
def training_memory_gb(
    model: str,
    method: str,
    seq_len: Numbers,
    micro_batch: Numbers,
    recompute: OptionalName = "none",
    lora_rank: Numbers = LORA_RANK,
    gpus: Numbers = 1,
    zero_stage: Numbers = 0,
    model_parallel: Numbers = 1,
) -> Floats:
    """Per-GPU peak memory of a training step of a named model, in GB: does it fit?

    Formula: (model state + activations + the recomputed layer + the loss's
    logits + ZeRO-3's gathered layers) × 1.1 + 1.3 GB, per GPU. Model state as
    MODEL_STATE_GB (16 bytes a trained weight, ZeRO-sharded over gpus): full
    fine-tuning trains every weight; LoRA adds r × (d_in + d_out) adapter
    weights on every linear layer of the frozen 16-bit model; QLoRA stores the
    frozen linear layers in 4.127 bits and the embeddings and output layer in
    16. Activations (FlashAttention: no s² scores, so "selective" saves
    nothing): per layer and token 16·h + 6·a + 4·kv + 8·f·k bytes (h d_model,
    a heads × head_dim, kv kv_width, f ffn_dim, k experts per token), or with
    full recomputation each layer's 2·h input plus one layer's whole set,
    rebuilt for its backward pass. The loss keeps the logits in bf16 and fp32
    and their fp32 gradient, 10 bytes per token and vocabulary entry. ZeRO-3
    (or FSDP's full sharding) on more than one GPU holds two layers' weights
    gathered. Tensor parallelism (model_parallel) divides all but the
    checkpointed inputs. The caching allocator's reserve (10 %) and the CUDA
    context (1.3 GB) come on top.

    Returns
    -------
    float or ndarray
        GB (10^9 bytes) per GPU at the step's peak, as nvidia-smi shows it: fits
        when at most 90 % of GPU_MEMORY_GB (the fit check's headroom, kept for
        what varies between frameworks). docs/memory.md puts it beside
        published measured peaks.

    References
    ----------
    Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054 (model states);
    Korthikanti et al. 2022, arXiv 2205.05198 (activations, recomputation);
    Dao 2023, FlashAttention-2, arXiv 2307.08691 (no stored scores);
    Dettmers et al. 2023, "QLoRA", arXiv 2305.14314 (4-bit weights, double
    quantization); Hugging Face transformers, LlamaForCausalLM and
    ForCausalLMLoss (the logits and their fp32 copy).

    Examples
    --------
    LoRA (r = 8, every linear layer) of Llama 2 70B on 8 H100s with ZeRO-3,
    8 sequences of 2,048 tokens each, gradient checkpointing: PEFT's
    DeepSpeed guide measured 64 GB a GPU.

    >>> round(training_memory_gb("Llama 2 70B", "lora", 2048, 8, "full", 8, 8, 3), 1)
    61.1
    """
    parts = _training_parts(
        model, method, seq_len, micro_batch, recompute, lora_rank, gpus,
        zero_stage, model_parallel,
    )  # fmt: skip
    total = sum(parts.values())
    return float(total) if np.ndim(total) == 0 else total


@formula(
    "MIN_GPUS_FOR_TRAINING",
    unit="GPUs",
    excel=None,
    excel_note="it counts TRAINING_MEMORY_GB, which one Excel formula cannot "
    "hold; in a workbook, MIN_GPUS_FOR_MEMORY with the step's other terms in "
    "other_gb",
    invalid_result="no number of GPUs holds it: what ZeRO's stage does not shard, "
    "the activations and the loss exceed the usable memory (a higher zero_stage, "
    "recomputation, shorter sequences or a smaller micro-batch)",
)
def min_gpus_for_training(
    model: str,
    method: str,
    seq_len: Numbers,
    micro_batch: Numbers,
    memory_gb: Numbers,
    recompute: OptionalName = "none",
    lora_rank: Numbers = LORA_RANK,
    zero_stage: Numbers = 0,
    model_parallel: Numbers = 1,
    usable: Numbers = USABLE_MEMORY,
) -> Floats:
    """Fewest data-parallel GPUs at which TRAINING_MEMORY_GB fits the usable memory.

    Formula: 1 if TRAINING_MEMORY_GB on one GPU is at most usable ×
    memory_gb; else the smallest whole G ≥ 2 with ``F + S / G ≤ usable ×
    memory_gb``, where S is the model state the ZeRO stage shards (with its
    share of the allocator's reserve) and F everything else at G ≥ 2 (the
    unsharded state, activations, loss, ZeRO-3's gathered layers, overhead):
    ``max(2, ceil(S / (usable × memory_gb − F)))``. MIN_GPUS_FOR_MEMORY's
    rule, on the whole step's peak rather than its model state and one
    other_gb.

    Returns
    -------
    float or ndarray
        Data-parallel GPUs, a whole number (the cluster is that times
        model_parallel); #NUM! when no number is enough (at stage 0 nothing
        shards: 1 or none).

    References
    ----------
    Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054, section 5; the terms
    and their sources: TRAINING_MEMORY_GB. The usable share, 90 % by
    default, is the fit check's headroom (docs/memory.md).

    Examples
    --------
    LoRA (r = 16) of Llama 3.1 70B with ZeRO-3 on A100 80GB (85.9 GB), one
    8,192-token sequence per GPU, gradient checkpointing:

    >>> min_gpus_for_training("Llama 3.1 70B", "lora", 8192, 1, 85.9, "full", 16, 3)
    4.0
    """
    args = (
        model, method, seq_len, micro_batch, recompute, lora_rank,
    )  # fmt: skip

    def peak(g: float) -> Floats:
        parts = _training_parts(*args, g, zero_stage, model_parallel)
        return sum(parts.values())

    room = usable * memory_gb
    one, two, four = peak(1.0), peak(2.0), peak(4.0)
    # At G ≥ 2 the peak is F + S/G: two evaluations give S and F.
    sharded = 4 * (two - four)
    fixed = two - sharded / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        more = np.maximum(2.0, np.ceil(sharded / (room - fixed) * (1 - 1e-12)))
        out = np.where(
            one <= room,
            1.0,
            np.where((sharded > 0) & (room > fixed), more, np.nan),
        )
    return float(out) if np.ndim(out) == 0 else out
