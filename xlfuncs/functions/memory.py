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

from typing import NamedTuple

import numpy as np

from ..data.models import BY_NAME, MODELS, Model, value
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
    METHOD_CODES,
    METHOD_SPELLINGS,
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
from ..registry.arguments import METHOD_KEYS
from ..registry.excel import MODEL_KEYS, MODEL_ROW, key, xl

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


def _plain(out: Floats) -> Floats:
    """A numpy scalar as a float; arrays as they are."""
    return float(out) if np.ndim(out) == 0 else out


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


def _row_array(values: list[float]) -> str:
    """A figure per published model, read at the named model's row of the
    models' table (MODELS' order): for facts the table has no column for."""
    array = "{" + ",".join(xl(v) for v in values) + "}"
    # A row constant read as INDEX(row,1,k): Gnumeric reads INDEX(row,k) as row k.
    return f"INDEX({array},1,INDEX({MODEL_ROW},MATCH({key('model')},{MODEL_KEYS},0)))"


def _spec(field: str) -> str:
    """A field of the named model, as a sibling call: a workbook that holds
    that call in a cell reads the cell instead."""
    return f'MODEL_SPEC(model,"{field}")'


#: Input embeddings and output layer: two vocab × d_model matrices, or one
#: shared (tied, as in Llama 3.2 1B and 3B, Gemma, GPT-3).
_UNTIED = 2


def _embedding_params(m: Model) -> float:
    """The input embeddings and the output layer: vocab × d_model, once if tied."""
    return float(m.vocab * m.d_model * (1 if m.tied_embeddings else _UNTIED))


def _mlp_matrices(m: Model) -> int:
    """Linear layers of the MLP: gate, up and down of a gated MLP, else two."""
    return 3 if m.gated_mlp else 2


def _lora_all_linear(m: Model, rank: Floats) -> Floats:
    """Adapter weights on every linear layer (PEFT's "all-linear"): q and o
    (d_model × heads·head_dim), k and v (d_model × kv_width), and the MLP's
    matrices in each expert."""
    per_rank = (
        2 * (m.d_model + m.attention_width)
        + 2 * (m.d_model + m.kv_width)
        + _mlp_matrices(m) * (m.d_model + m.ffn_dim) * (m.experts or 1)
    )
    return m.layers * rank * per_rank


@formula(
    "MODEL_EMBEDDING_PARAMS",
    unit="parameters",
    excel=f"{_spec('vocab')}*{_spec('d_model')}"
    f"*{_row_array([1.0 if m.tied_embeddings else _UNTIED for m in MODELS])}",
)
def model_embedding_params(model: str) -> float:
    """Parameters of a named model's input embeddings and output layer (once if tied).

    Formula: ``vocab × d_model × 2``, or ``× 1`` where the model ties its
    output layer to its input embeddings (``tie_word_embeddings`` in its
    config.json). QLoRA keeps these in 16 bits (TRAINING_PEAK_GB's
    embedding_params), as it does not quantize them.

    Returns
    -------
    float
        Parameters, a whole number.

    References
    ----------
    Each model's config.json (vocab_size, hidden_size, tie_word_embeddings);
    e.g. meta-llama/Llama-3.1-8B: 128,256 × 4,096, untied; Llama-3.2-1B:
    128,256 × 2,048, tied. Dettmers et al. 2023, "QLoRA", arXiv 2305.14314:
    bitsandbytes quantizes the linear layers only.

    Examples
    --------
    Llama 3.1 8B: 2 × 128,256 × 4,096.

    >>> model_embedding_params("Llama 3.1 8B")
    1050673152.0

    Llama 3.2 1B ties them: 128,256 × 2,048.

    >>> model_embedding_params("Llama 3.2 1B")
    262668288.0
    """
    return _embedding_params(BY_NAME[model])


@formula(
    "MODEL_LORA_PARAMS",
    unit="parameters",
    excel=f"{_spec('layers')}*lora_rank*(2*({_spec('d_model')}"
    f"+{_spec('attention_width')})+2*({_spec('d_model')}+{_spec('kv_width')})"
    f"+{_row_array([float(_mlp_matrices(m)) for m in MODELS])}"
    f"*({_spec('d_model')}+{_spec('ffn_dim')})*{_spec('experts')})",
)
def model_lora_params(model: str, lora_rank: Numbers = LORA_RANK) -> Floats:
    """LoRA adapter parameters of a named model with rank r on every linear layer.

    Formula: ``L · r · (2·(d + a) + 2·(d + kv) + m·(d + f)·E)``: q and o
    (d_model d × heads·head_dim a), k and v (d × kv_width kv), and the MLP's m
    matrices (3 for a gated MLP, 2 otherwise) of width f in each of the E
    experts, each adapted d_in × d_out matrix gaining r × (d_in + d_out)
    weights: PEFT's ``target_modules="all-linear"``, which leaves the output
    layer out. The adapters TRAINING_MEMORY_GB counts.

    Returns
    -------
    float or ndarray
        Trainable parameters: TRAINING_PEAK_GB's adapter_params.

    References
    ----------
    Hu et al. 2021, "LoRA", arXiv 2106.09685, section 4.1; PEFT
    (huggingface/peft), ``target_modules="all-linear"``: every linear layer but
    the output layer. Each model's config.json for the shapes.

    Examples
    --------
    Llama 3.1 8B at r = 16: 32 × 16 × (2 × 8,192 + 2 × 5,120 + 3 × 18,432).

    >>> model_lora_params("Llama 3.1 8B", 16)
    41943040.0
    """
    return _plain(_lora_all_linear(BY_NAME[model], lora_rank))


# ------------------------------------------------- a training step, on numbers
#
# TRAINING_PEAK_GB and MIN_GPUS_FOR_PEAK take the model's shape as numbers (a
# workbook's cells); TRAINING_MEMORY_GB and MIN_GPUS_FOR_TRAINING call them with
# a published model's. Each term's Excel text is written once below and used
# by both; the Python mirrors it operation for operation.

_METHOD = {"full": METHOD_CODES["full"], "qlora": METHOD_CODES["qlora"]}
_RESERVE = 1 + ALLOCATOR_RESERVE  # the tensors and the allocator's reserve
_HAIR = 1e-12  # a quotient this close above a whole number is that number


#: TRAINING_PEAK_GB's arguments, in order.
_PEAK_ARGS = (
    "params", "layers", "d_model", "attention_width", "kv_width", "ffn_dim", "vocab",
    "seq_len", "micro_batch", "method_code", "recompute", "adapter_params",
    "embedding_params", "experts_per_token", "gpus", "zero_stage", "model_parallel",
)  # fmt: skip


def _peak_excel() -> dict[str, str]:
    """The terms of a training step's peak as Excel text, over the arguments of
    TRAINING_PEAK_GB: bytes per GPU unless said."""
    h, q = xl(HALF_PRECISION_BYTES), xl(QLORA_WEIGHT_BYTES)
    adapters = "IF(OMITTED(adapter_params),#VALUE!,adapter_params)"
    emb = f"IF(OMITTED(embedding_params),{xl(_UNTIED)}*vocab*d_model,embedding_params)"
    weights = (
        f"CHOOSE(method_code,params*{h},(params+{adapters})*{h},"
        f"(params-{emb})*{q}+({emb}+{adapters})*{h})"
    )
    trained = f"CHOOSE(method_code,params,{adapters},{adapters})"
    tokens = "seq_len*micro_batch"
    per_token = (
        f"({xl(ACTIVATION_BYTES_PER_D_MODEL)}*d_model"
        f"+{xl(ACTIVATION_BYTES_PER_ATTENTION_DIM)}*attention_width"
        f"+{xl(ACTIVATION_BYTES_PER_KV_DIM)}*kv_width"
        f"+{xl(ACTIVATION_BYTES_PER_FFN_DIM)}*ffn_dim*experts_per_token)"
    )
    layer = f"{tokens}*{per_token}/model_parallel"
    full = (
        f"MATCH({key('recompute')},{{{_MODES}}},0)={RECOMPUTE_MODES.index('full') + 1}"
    )
    activations = (
        f"IF({full},layers*{tokens}*{xl(CHECKPOINT_BYTES_PER_D_MODEL)}*d_model"
        f"+{layer},layers*({layer}))"
    )
    loss = f"{tokens}*vocab*{xl(LOSS_BYTES_PER_LOGIT)}/model_parallel"
    gathered = (
        f"{xl(GATHERED_LAYERS)}*(params-{emb})/layers*CHOOSE(method_code,{h},{h},{q})"
    )
    return {
        "weights": weights,
        "trained": trained,
        "grads": f"{trained}*{xl(GRADIENT_BYTES)}",
        "adam": f"{trained}*{xl(ADAM_STATE_BYTES)}",
        "rest": f"({activations}+{loss})",  # per GPU, model parallelism included
        "gathered": gathered,  # before /model_parallel, on more than one GPU
    }


def _gb(tensor_bytes: str) -> str:
    """Bytes of tensors per GPU as nvidia-smi's peak: the allocator and the context."""
    return f"({tensor_bytes})/{xl(BYTES_PER_GB)}*{xl(_RESERVE)}+{xl(CUDA_CONTEXT_GB)}"


def _training_peak_excel() -> str:
    t = _peak_excel()
    state = (
        f"({t['weights']}/IF(zero_stage>=3,gpus,1)+{t['grads']}/IF(zero_stage>=2,gpus,1)"
        f"+{t['adam']}/IF(zero_stage>=1,gpus,1))/model_parallel"
    )
    gathered = f"IF(zero_stage>=3,IF(gpus>1,{t['gathered']},0),0)/model_parallel"
    return _gb(f"{state}+{t['rest']}+{gathered}")


def _min_gpus_peak_excel() -> str:
    """MIN_GPUS_FOR_PEAK over its arguments: the peak on one GPU as a sibling
    call (a workbook holding it reads its cell), S and the gathered layers'
    share G written out. With Y = room − peak(1) and D = Y + S − G = room − F,
    the answer past one GPU is 1 + ceil((G − Y) / D): S / D − 1 without the
    subtraction, so it cannot fall below 2."""
    t = _peak_excel()
    on_one = {"gpus": "1"}  # the peak on one GPU, the other arguments as given
    one = f"TRAINING_PEAK_GB({','.join(on_one.get(a, a) for a in _PEAK_ARGS)})"
    room = "usable*memory_gb"
    y = f"({room}-{one})"
    sharded = (
        f"(IF(zero_stage>=3,{t['weights']},0)+IF(zero_stage>=2,{t['grads']},0)"
        f"+IF(zero_stage>=1,{t['adam']},0))"
    )
    s = f"{sharded}/model_parallel/{xl(BYTES_PER_GB)}*{xl(_RESERVE)}"
    g = (
        f"IF(zero_stage>=3,{t['gathered']},0)/model_parallel/{xl(BYTES_PER_GB)}"
        f"*{xl(_RESERVE)}"
    )
    d = f"({y}+{s}-{g})"
    # Nested IFs, not AND() or MAX(): those would fold a range into one value.
    return (
        f"IF({one}<={room},1,IF({d}>0,"
        f"1+ROUNDUP(({g}-{y})/{d}*(1-{xl(_HAIR)}),0),#NUM!))"
    )


def _adapters(method_code: Floats, adapter_params: Floats | None) -> Floats:
    """adapter_params, or where none is given: 0 for full fine-tuning, #VALUE! for
    LoRA and QLoRA (NaN in a range's cell, reported the same way)."""
    if adapter_params is not None:
        return adapter_params
    needed = np.asarray(method_code) != _METHOD["full"]
    if needed.ndim > 0:
        return np.where(needed, np.nan, 0.0)
    if needed:
        raise InvalidTypeError(
            "#VALUE!",
            "give adapter_params with LoRA or QLoRA (method_code 2 or 3): the "
            "adapters' count, e.g. MODEL_LORA_PARAMS",
        )
    return 0.0


class _Step(NamedTuple):
    """TRAINING_PEAK_GB's arguments up to experts_per_token."""

    params: Floats
    layers: Floats
    d_model: Floats
    attention_width: Floats
    kv_width: Floats
    ffn_dim: Floats
    vocab: Floats
    seq_len: Floats
    micro_batch: Floats
    method_code: Floats
    recompute: str
    adapter_params: Floats | None
    embedding_params: Floats | None
    experts_per_token: Floats


def _peak_terms(step: _Step, model_parallel: Floats) -> dict[str, Floats]:
    """_peak_excel's terms in Python, operation for operation."""
    (params, layers, d_model, attention_width, kv_width, ffn_dim, vocab, seq_len,
     micro_batch, method_code, recompute, adapter_params, embedding_params,
     experts_per_token) = step  # fmt: skip
    h, q = HALF_PRECISION_BYTES, QLORA_WEIGHT_BYTES
    c = method_code
    adapters = _adapters(c, adapter_params)
    emb = _UNTIED * vocab * d_model if embedding_params is None else embedding_params
    full, qlora = c == _METHOD["full"], c == _METHOD["qlora"]
    weights = np.where(
        full, params * h, np.where(qlora, (params - emb) * q + (emb + adapters) * h,
                                   (params + adapters) * h),
    )  # fmt: skip
    trained = np.where(full, params, adapters)
    per_token = (
        ACTIVATION_BYTES_PER_D_MODEL * d_model
        + ACTIVATION_BYTES_PER_ATTENTION_DIM * attention_width
        + ACTIVATION_BYTES_PER_KV_DIM * kv_width
        + ACTIVATION_BYTES_PER_FFN_DIM * ffn_dim * experts_per_token
    )
    layer = seq_len * micro_batch * per_token / model_parallel
    if recompute == "full":  # each layer's input kept, and one layer rebuilt
        kept = layers * seq_len * micro_batch * CHECKPOINT_BYTES_PER_D_MODEL * d_model
        activations = kept + layer
    else:  # FlashAttention stores no scores: selective recomputation saves nothing
        activations = layers * layer
    loss = seq_len * micro_batch * vocab * LOSS_BYTES_PER_LOGIT / model_parallel
    gathered = GATHERED_LAYERS * (params - emb) / layers * np.where(qlora, q, h)
    return {
        "weights": weights,
        "grads": trained * GRADIENT_BYTES,
        "adam": trained * ADAM_STATE_BYTES,
        "rest": activations + loss,
        "gathered": gathered,
    }


def _as_gb(tensor_bytes: Floats) -> Floats:
    return tensor_bytes / BYTES_PER_GB * _RESERVE + CUDA_CONTEXT_GB


def _training_peak(
    step: _Step, gpus: Floats, zero_stage: Floats, model_parallel: Floats
) -> Floats:
    """TRAINING_PEAK_GB's arithmetic."""
    t = _peak_terms(step, model_parallel)
    state = (
        t["weights"] / np.where(zero_stage >= 3, gpus, 1.0)
        + t["grads"] / np.where(zero_stage >= 2, gpus, 1.0)
        + t["adam"] / np.where(zero_stage >= 1, gpus, 1.0)
    ) / model_parallel
    gathered = (
        np.where(zero_stage >= 3, np.where(gpus > 1, t["gathered"], 0.0), 0.0)
        / model_parallel
    )
    return _plain(_as_gb(state + t["rest"] + gathered))


def _min_gpus_peak(
    step: _Step,
    memory_gb: Floats,
    zero_stage: Floats,
    model_parallel: Floats,
    usable: Floats,
) -> Floats:
    """MIN_GPUS_FOR_PEAK's arithmetic."""
    one = _training_peak(step, 1.0, zero_stage, model_parallel)
    t = _peak_terms(step, model_parallel)
    sharded = (
        np.where(zero_stage >= 3, t["weights"], 0.0)
        + np.where(zero_stage >= 2, t["grads"], 0.0)
        + np.where(zero_stage >= 1, t["adam"], 0.0)
    )
    room = usable * memory_gb
    y = room - one
    s = sharded / model_parallel / BYTES_PER_GB * _RESERVE
    g = np.where(zero_stage >= 3, t["gathered"], 0.0) / model_parallel
    g = g / BYTES_PER_GB * _RESERVE
    d = y + s - g
    with np.errstate(divide="ignore", invalid="ignore"):
        more = 1 + np.ceil((g - y) / d * (1 - _HAIR))
        out = np.where(one <= room, 1.0, np.where(d > 0, more, np.nan))
    return _plain(out)


@formula(
    "TRAINING_PEAK_GB",
    unit="GB",
    excel=_training_peak_excel(),
)
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
) -> Floats:
    """Per-GPU peak memory of a training step in GB, from the model's shape as numbers.

    Formula: TRAINING_MEMORY_GB's, on numbers: ((weights ÷ g₃ + N_t·2 ÷ g₂ +
    N_t·12 ÷ g₁) ÷ m + activations + loss + gathered ÷ m) ÷ 1e9 × 1.1 + 1.3.
    By method_code: 1 full fine-tuning (weights 2·N, N_t = N), 2 LoRA (2·(N +
    A), N_t = A, the adapter_params A), 3 QLoRA (0.516·(N − e) + 2·(e + A), the
    embedding_params e in 16 bits, N_t = A). Activations per layer and token
    16·h + 6·a + 4·kv + 8·f·k bytes (h d_model, a attention_width, kv
    kv_width, f ffn_dim, k experts_per_token), times the layers; with
    recompute "full", each layer's 2·h input and one layer's whole set. The
    loss: 10 bytes per token and vocabulary entry. ZeRO stage 3 on more than
    one GPU gathers two layers' frozen or trained weights, 2·(N − e) ÷ L at 2
    bytes (0.516 for QLoRA). g₁, g₂, g₃: gpus where the stage is at least 1,
    2, 3; m: model_parallel.

    Returns
    -------
    float or ndarray
        GB (10^9 bytes) per GPU at the step's peak, as nvidia-smi shows it.

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
    step = _Step(
        params, layers, d_model, attention_width, kv_width, ffn_dim, vocab,
        seq_len, micro_batch, method_code, recompute, adapter_params,
        embedding_params, experts_per_token,
    )  # fmt: skip
    return _training_peak(step, gpus, zero_stage, model_parallel)


@formula(
    "MIN_GPUS_FOR_PEAK",
    unit="GPUs",
    excel=_min_gpus_peak_excel(),
    invalid_result="no number of GPUs holds it: what ZeRO's stage does not shard, "
    "the activations and the loss exceed the usable memory (a higher zero_stage, "
    "recomputation, shorter sequences or a smaller micro-batch)",
)
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
) -> Floats:
    """Fewest data-parallel GPUs at which TRAINING_PEAK_GB fits the usable memory.

    Formula: 1 if TRAINING_PEAK_GB on one GPU is at most usable × memory_gb;
    else the smallest whole G ≥ 2 with ``F + S / G ≤ usable × memory_gb``:
    ``max(2, ceil(S / (usable × memory_gb − F)))``. S is the model state the
    ZeRO stage shards (the weights at stage 3, the gradients from 2, the Adam
    states from 1), over m, in GB with the allocator's 10 %; F everything else
    at G ≥ 2: the unsharded state, activations, loss, ZeRO-3's two gathered
    layers, the reserve and the CUDA context. The arguments are
    TRAINING_PEAK_GB's.

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
    step = _Step(
        params, layers, d_model, attention_width, kv_width, ffn_dim, vocab,
        seq_len, micro_batch, method_code, recompute, adapter_params,
        embedding_params, experts_per_token,
    )  # fmt: skip
    return _min_gpus_peak(step, memory_gb, zero_stage, model_parallel, usable)


def _named_step(
    m: Model,
    seq_len: Floats,
    micro_batch: Floats,
    method: str,
    recompute: str,
    lora_rank: Floats,
) -> _Step:
    """TRAINING_PEAK_GB's arguments for a published model."""
    return _Step(
        float(m.params), float(m.layers), float(m.d_model),
        float(m.attention_width), float(m.kv_width), float(m.ffn_dim),
        float(m.vocab), seq_len, micro_batch, METHOD_CODES[method], recompute,
        _lora_all_linear(m, lora_rank), _embedding_params(m),
        float(value(m, "experts_per_token")),
    )  # fmt: skip


def _named_excel(function: str, between: str, after: str) -> str:
    """``function`` called with the named model's shape: its look-ups, ``between``
    (seq_len, micro_batch[, memory_gb]), the method's code, the recomputation,
    the adapters, the embeddings, experts_per_token, then ``after``."""
    shape = ",".join(
        _spec(f)
        for f in ("params", "layers", "d_model", "attention_width", "kv_width",
                  "ffn_dim", "vocab")
    )  # fmt: skip
    codes = "{" + ",".join(xl(c) for _, c in METHOD_SPELLINGS) + "}"
    method = f"INDEX({codes},1,MATCH({key('method')},{METHOD_KEYS},0))"
    return (
        f"{function}({shape},{between},{method},recompute,"
        f"MODEL_LORA_PARAMS(model,lora_rank),MODEL_EMBEDDING_PARAMS(model),"
        f"{_spec('experts_per_token')},{after})"
    )


@formula(
    "TRAINING_MEMORY_GB",
    unit="GB",
    excel=_named_excel(
        "TRAINING_PEAK_GB", "seq_len,micro_batch", "gpus,zero_stage,model_parallel"
    ),
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
    context (1.3 GB) come on top. TRAINING_PEAK_GB with the model's shape
    (MODEL_SPEC), MODEL_LORA_PARAMS and MODEL_EMBEDDING_PARAMS.

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
    step = _named_step(
        BY_NAME[model], seq_len, micro_batch, method, recompute, lora_rank
    )
    return _training_peak(step, gpus, zero_stage, model_parallel)


@formula(
    "MIN_GPUS_FOR_TRAINING",
    unit="GPUs",
    excel=_named_excel(
        "MIN_GPUS_FOR_PEAK",
        "seq_len,micro_batch,memory_gb",
        "zero_stage,model_parallel,usable",
    ),
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
    other_gb: MIN_GPUS_FOR_PEAK with the model's shape.

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
    step = _named_step(
        BY_NAME[model], seq_len, micro_batch, method, recompute, lora_rank
    )
    return _min_gpus_peak(step, memory_gb, zero_stage, model_parallel, usable)
