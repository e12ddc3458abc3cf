"""Serving: how fast a model can generate, what a token costs, how many GPUs.

At small batch sizes each decoded token reads every weight once from memory,
so decoding speed is bounded by bandwidth ÷ bytes read per step, not by FLOP/s
(kipply 2022; Databricks' "model bandwidth utilisation", MBU, is achieved over
that bound). A step reads the weights the batch touches and the key/value cache
of every sequence in it. The cost of serving is the GPUs' price over the tokens
they produce. Every function broadcasts like a ufunc.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np

from ..data.accelerators import BY_NAME as ACCELERATOR
from ..data.accelerators import Accelerator
from ..data.models import BY_NAME, FIELDS, Model, value
from ..data.serving import (
    ALLREDUCE_LATENCY_S,
    BANDWIDTH_UTIL,
    MAX_BATCH,
    PRECISION_BYTES,
    PRECISION_COMPUTE,
    PREFILL_MFU,
    SERVING_PRECISION_KEYS,
)
from ..data.units import (
    BYTES_PER_GB,
    BYTES_PER_TB,
    DTYPES,
    FLOPS_PER_TFLOPS,
    GRADIENT_BYTES,
    HALF_PRECISION_BYTES,
    INFERENCE_FLOPS_PER_PARAM_TOKEN,
    SECONDS_PER_HOUR,
    USABLE_MEMORY,
)
from ..registry import (
    Floats,
    InvalidTypeError,
    InvalidValueError,
    Numbers,
    OptionalName,
    formula,
)
from ..registry.arguments import PRECISION_KEYS
from ..registry.excel import (
    ACCELERATOR_KEYS,
    ACCELERATOR_PEAKS,
    ACCELERATOR_ROW,
    MODEL_KEYS,
    MODEL_ROW,
    MODEL_SPECS,
    key,
    xl,
)

#: Tokens in the "million tokens" prices are quoted per.
TOKENS_PER_MTOK = 1e6
#: Keys and values: two cached vectors per key/value head per token.
_KV = 2


def _plain(out: Floats) -> Floats:
    """A numpy scalar as a float; arrays as they are."""
    return float(out) if np.ndim(out) == 0 else out


@formula(
    "DECODE_TOKENS_PER_SEC",
    unit="tokens/s",
    excel=f"batch*gpus*bandwidth_tb_per_s*{xl(BYTES_PER_TB)}"
    f"/(params*bytes_per_param+kv_cache_gb*{xl(BYTES_PER_GB)})",
)
def decode_tokens_per_sec(
    params: Numbers,
    bandwidth_tb_per_s: Numbers,
    bytes_per_param: Numbers = HALF_PRECISION_BYTES,
    gpus: Numbers = 1,
    batch: Numbers = 1,
    kv_cache_gb: Numbers = 0,
) -> Floats:
    """Memory-bandwidth bound of decoding: batch × GPUs × bandwidth ÷ bytes per step.

    Formula: ``batch * gpus * bandwidth * 1e12 / (params * bytes_per_param +
    kv_cache_gb * 1e9)``. Each step reads all the weights once (split over the
    GPUs of a tensor-parallel group) and the key/value cache of every sequence
    of the batch (kv_cache_gb: KV_CACHE_GB for the batch and its context), and
    yields one token per sequence. An upper bound: communication between GPUs
    and compute (which binds at large batches) only lower it; the fraction a
    server reaches is Databricks' model bandwidth utilisation (MBU). params is
    what a step reads: for a mixture of experts at batch 1 the active
    parameters, at larger batches nearly all of them (MODEL_DECODE_TOKENS_PER_SEC
    counts the experts a batch touches); with the total given, the bound is
    this plain formula.

    Returns
    -------
    float or ndarray
        Tokens per second, summed over the batch (one sequence gets
        1 / batch of it).

    References
    ----------
    Databricks, "LLM Inference Performance Engineering: Best Practices", 2023:
    a 7 B model in 16 bits "is moving 14GB of parameters in 14ms translating to
    1TB/sec bandwidth usage". kipply (C. Chen), "Transformer Inference
    Arithmetic", 2022: a 260 B model on 16 GPUs of 1.5 TB/s takes 2·260e9 /
    (16·1.5e12) ≈ 22 ms per token at small batch, and the cache is read too.

    Examples
    --------
    Databricks' example, a 7 B model in 16 bits at 1 TB/s: 14 ms a token.

    >>> round(decode_tokens_per_sec(7e9, 1), 2)
    71.43

    kipply's 260 B model on 16 A100s (1.5 TB/s each): 22 ms a token.

    >>> round(1000 / decode_tokens_per_sec(260e9, 1.5, 2, 16), 2)
    21.67

    Llama 3 8B on an H100 at batch 32 with 4,096 tokens of context each: the
    cache (17.2 GB, KV_CACHE_GB(32, 8, 128, 4096, 32)) outweighs the weights.

    >>> round(decode_tokens_per_sec(8e9, 3.35, 2, 1, 32, 17.179869184))
    3231
    """
    bytes_per_step = params * bytes_per_param + kv_cache_gb * BYTES_PER_GB
    return batch * gpus * bandwidth_tb_per_s * BYTES_PER_TB / bytes_per_step


# ------------------------------------------------------------ by model name

_ROW = f"INDEX({MODEL_ROW},MATCH({key('model')},{MODEL_KEYS},0))"


def _field(name: str) -> str:
    """A field of the named model: its column of the models' table, read directly
    (MODEL_SPEC's own expression would look the field's name up each time)."""
    return f"INDEX({MODEL_SPECS},{_ROW},{FIELDS.index(name) + 1})"


def _weights_read(
    params: Floats, active: Floats, experts: Floats, per_token: Floats, batch: Floats
) -> Floats:
    """Parameters a decoding step reads: those every token uses, and each expert
    at least one token of the batch is routed to.

    With E experts per layer, k per token and routing spread evenly, a token
    misses a given expert with probability 1 − k/E, a batch of B tokens with
    (1 − k/E)^B: the batch touches E·(1 − (1 − k/E)^B) experts a layer on
    average. Each expert's parameters, x = (N − A) / (E − k), come from the
    published total N and active A. So N − x·E·(1 − k/E)^B are read.
    """
    unused = np.where(
        experts > per_token,
        (params - active)
        * experts
        * (1 - per_token / experts) ** batch
        / np.where(experts > per_token, experts - per_token, 1.0),
        0.0,
    )
    return params - unused


def _model_decode_excel() -> str:
    n, a = _field("params"), _field("active_params")
    e, k = _field("experts"), _field("experts_per_token")
    kv = f"{xl(_KV)}*{_field('layers')}*{_field('kv_heads')}*{_field('head_dim')}"
    unused = f"IF({e}>{k},({n}-{a})*{e}*(1-{k}/{e})^batch/({e}-{k}),0)"
    cache = f"IF(OMITTED(seq_len),0,{kv}*seq_len*batch*bytes_per_value)"
    return (
        f"batch*gpus*bandwidth_tb_per_s*{xl(BYTES_PER_TB)}"
        f"/(({n}-{unused})*bytes_per_param+{cache})"
    )


@formula(
    "MODEL_DECODE_TOKENS_PER_SEC",
    unit="tokens/s",
    excel=_model_decode_excel(),
)
def model_decode_tokens_per_sec(
    model: str,
    bandwidth_tb_per_s: Numbers,
    batch: Numbers = 1,
    seq_len: Numbers | None = None,
    bytes_per_param: Numbers = HALF_PRECISION_BYTES,
    gpus: Numbers = 1,
    bytes_per_value: Numbers = HALF_PRECISION_BYTES,
) -> Floats:
    """Decoding bound of a named model: the weights a batch touches and its cache.

    Formula: ``batch * gpus * bandwidth * 1e12 / (W * bytes_per_param + 2 · L ·
    kv_heads · head_dim · seq_len · batch · bytes_per_value)``, where W is the
    parameters a step reads: all of them for a dense model; for a mixture of
    experts (E experts a layer, k per token, N in all, A active) those every
    token uses plus each expert the batch touches, on average ``W = N − (N −
    A)·E·(1 − k/E)^B / (E − k)``: A at batch 1, nearly N at batch 32. The cache
    term counts seq_len tokens of context per sequence (none if seq_len is
    left out).

    Returns
    -------
    float or ndarray
        Tokens per second, summed over the batch: an upper bound, as
        DECODE_TOKENS_PER_SEC.

    References
    ----------
    The expected number of distinct experts a batch of B tokens touches,
    E·(1 − (1 − k/E)^B), is the classical occupancy expectation (Feller, "An
    Introduction to Probability Theory and Its Applications", vol. 1, ch. IV):
    a token routed to k of E experts misses a given one with probability
    1 − k/E, B independent tokens with (1 − k/E)^B, and expectation is linear.
    It assumes routing spread evenly, as load balancing aims at (Fedus et al.
    2022, Switch Transformers, arXiv 2101.03961). kipply 2022 for the cache.
    Each model's figures: its config.json and its publisher's counts
    (MODEL_SPEC).

    Examples
    --------
    Mixtral 8x7B on an H100 (3.35 TB/s): at batch 1 the 12.9 B active
    parameters, 16-bit, bound it at 3.35e12 / 25.8e9 = 129.8 tokens/s.

    >>> round(model_decode_tokens_per_sec("Mixtral 8x7B", 3.35), 1)
    129.8

    At batch 32 the batch touches 8·(1 − 0.75^32) = 7.9992 experts of 8: nearly
    all 46.7 B parameters are read, not 32 × 129.8.

    >>> round(model_decode_tokens_per_sec("Mixtral 8x7B", 3.35, 32))
    1148
    """
    m = BY_NAME[model]
    n, a = float(value(m, "params")), float(value(m, "active_params"))
    e, k = float(value(m, "experts")), float(value(m, "experts_per_token"))
    weights = _weights_read(n, a, e, k, batch)
    step = weights * bytes_per_param
    if seq_len is not None:
        per_token = _KV * m.layers * m.kv_heads * m.head_dim * bytes_per_value
        step = step + per_token * seq_len * batch
    return _plain(batch * gpus * bandwidth_tb_per_s * BYTES_PER_TB / step)


# ---------------------------------------------------------------- batch size


def _max_batch(
    params: Floats,
    memory_gb: Floats,
    kv_gb_per_sequence: Floats,
    bytes_per_param: Floats,
    gpus: Floats,
    usable: Floats,
) -> Floats:
    room = usable * memory_gb * gpus - params * bytes_per_param / BYTES_PER_GB
    # A hair above the exact quotient: 72 GB in 8 GB sequences is 9, not 8.
    batch = np.floor(room / kv_gb_per_sequence * (1 + 1e-12))
    out = np.where(batch >= 1, batch, np.nan)
    return float(out) if np.ndim(out) == 0 else out


@formula(
    "MAX_DECODE_BATCH",
    unit="sequences",
    excel=f"IF(ROUNDDOWN((usable*memory_gb*gpus-params*bytes_per_param"
    f"/{xl(BYTES_PER_GB)})/kv_gb_per_sequence*(1+1E-12),0)<1,#NUM!,"
    f"ROUNDDOWN((usable*memory_gb*gpus-params*bytes_per_param/{xl(BYTES_PER_GB)})"
    "/kv_gb_per_sequence*(1+1E-12),0))",
    invalid_result="the weights leave no room for one sequence's cache in the "
    "usable memory: more GPUs, fewer bytes per weight, or a shorter context",
)
def max_decode_batch(
    params: Numbers,
    memory_gb: Numbers,
    kv_gb_per_sequence: Numbers,
    bytes_per_param: Numbers = HALF_PRECISION_BYTES,
    gpus: Numbers = 1,
    usable: Numbers = USABLE_MEMORY,
) -> Floats:
    """Largest batch whose weights and key/value cache fit in the GPUs' usable memory.

    Formula: ``floor((usable × memory_gb × gpus − params × bytes_per_param /
    1e9) / kv_gb_per_sequence)``: the weights (all of a mixture's experts) and
    one sequence's cache (KV_CACHE_GB with batch 1 at the context served) per
    sequence, within usable × memory of each of the GPUs holding the model.

    Returns
    -------
    float or ndarray
        Sequences, a whole number, 1 or more; #NUM! when the weights leave no
        room for one.

    References
    ----------
    kipply (C. Chen), "Transformer Inference Arithmetic", 2022: with a 52 B
    model on two 80 GB A100s, "16GB left over" for the cache. vLLM sizes its
    cache the same way, from 90 % of the GPU (--gpu-memory-utilization) less
    the weights.

    Examples
    --------
    Llama 3 8B in bf16 (16 GB) on one H100 (85.52 GB, 77.0 usable) with 4,096
    tokens of context (0.537 GB of cache each, KV_CACHE_GB(32, 8, 128, 4096,
    1)): 61.0 / 0.537 = 113.5.

    >>> max_decode_batch(8e9, 85.520809984, 0.536870912)
    113.0
    """
    return _max_batch(
        params, memory_gb, kv_gb_per_sequence, bytes_per_param, gpus, usable
    )


# ------------------------------------------------------------------- money


@formula(
    "SERVING_COST_PER_MTOK",
    unit="currency/M tokens",
    excel=f"price_per_gpu_hour/(tokens_per_sec_per_gpu*{xl(SECONDS_PER_HOUR)})"
    f"*{xl(TOKENS_PER_MTOK)}",
)
def serving_cost_per_mtok(
    price_per_gpu_hour: Numbers, tokens_per_sec_per_gpu: Numbers
) -> Floats:
    """Cost of serving one million tokens: price per GPU-hour ÷ tokens per GPU-hour.

    Formula: ``price_per_gpu_hour / (tokens_per_sec_per_gpu * 3600) * 1e6``: a
    GPU at its measured serving throughput (all sequences of its batch
    together), paid by the hour, busy all the time.

    Returns
    -------
    float or ndarray
        Cost of a million tokens, in the currency of the price. Idle time
        (traffic below capacity) raises it: divide by the utilisation.

    References
    ----------
    DeepSeek, "DeepSeek-V3/R1 Inference System Overview" (2025,
    github.com/deepseek-ai/open-infra-index): H800s leased at "$2 per hour",
    each node of 8 delivering "~14.8k tokens/s output during decoding", 1,850
    a GPU: $0.30 a million output tokens.

    Examples
    --------
    DeepSeek's decoding: $2 an hour, 1,850 tokens/s per GPU.

    >>> round(serving_cost_per_mtok(2, 1850), 4)
    0.3003
    """
    return (
        price_per_gpu_hour
        / (tokens_per_sec_per_gpu * SECONDS_PER_HOUR)
        * (TOKENS_PER_MTOK)
    )


def _serving_gpus(
    tokens_per_sec: Floats, tokens_per_sec_per_gpu: Floats, utilization: Floats
) -> Floats:
    # A hair below the exact quotient: 3,700 tokens/s at 1,850 each is 2 GPUs.
    need = tokens_per_sec / (tokens_per_sec_per_gpu * utilization)
    return _plain(np.ceil(need * (1 - 1e-12)))


@formula(
    "SERVING_GPUS",
    unit="GPUs",
    excel="ROUNDUP(tokens_per_sec/(tokens_per_sec_per_gpu*utilization)*(1-1E-12),0)",
)
def serving_gpus(
    tokens_per_sec: Numbers,
    tokens_per_sec_per_gpu: Numbers,
    utilization: Numbers = 1,
) -> Floats:
    """Whole GPUs a traffic level needs: tokens/s ÷ (tokens/s per GPU × utilisation).

    Formula: ``ceil(tokens_per_sec / (tokens_per_sec_per_gpu * utilization))``,
    rounded up to whole GPUs; utilization below 1 keeps headroom for peaks.

    Returns
    -------
    float or ndarray
        GPUs, a whole number.

    References
    ----------
    DeepSeek, "DeepSeek-V3/R1 Inference System Overview" (2025): in 24 hours,
    608 B input tokens at ~73.7k tokens/s per 8-GPU node (prefill) and 168 B
    output tokens at ~14.8k (decode), on "an average occupancy of 226.75
    nodes": 764 + 1,052 GPUs by this formula, 227 nodes.

    Examples
    --------
    DeepSeek's 168 B output tokens a day, 1,944,444 tokens/s, at 1,850
    tokens/s per GPU:

    >>> serving_gpus(1944444, 1850)
    1052.0
    """
    return _serving_gpus(tokens_per_sec, tokens_per_sec_per_gpu, utilization)


# ------------------------------------------------------- a replica, on numbers
#
# The functions below take the model's shape and the GPU's figures as numbers
# (a workbook's cells); those by name further down call them with a published
# model's and an accelerator's. Each is written once in Excel, calling its
# siblings, and the Python mirrors it operation for operation.

#: Bytes of a 16-bit activation, as tensor parallelism exchanges them.
_ACTIVATION_BYTES = HALF_PRECISION_BYTES
#: All-reduces a transformer layer's forward pass makes under tensor
#: parallelism: after attention and after the MLP (Shoeybi et al. 2019,
#: Megatron-LM, arXiv 1909.08053, section 3).
_ALLREDUCES_PER_LAYER = 2
#: FLOPs of causal attention over a prompt of p tokens, per layer and attention
#: dimension: QKᵀ and the weighted sum of V, 2 FLOPs a product, over the p²/2
#: pairs a causal mask keeps: 2 · 2 · p²/2 = 2p².
_ATTENTION_PREFILL = 2
#: FLOPs of one decoded token's attention over s cached tokens, per layer and
#: attention dimension: 2 · 2 · s.
_ATTENTION_DECODE = 4
_MS = 1000  # milliseconds a second
_HAIR = 1e-12  # a quotient this close below a whole number is that number

_LINK = "IF(OMITTED(link_gb_per_s),#VALUE!,link_gb_per_s)"
_TP_COUNT = f"IF(gpus>1,{xl(_ALLREDUCES_PER_LAYER)}*layers,0)"
_TP_PER_TOKEN = (
    f"IF(gpus>1,2*(gpus-1)/gpus*d_model*{xl(_ACTIVATION_BYTES)}"
    f"/({_LINK}*{xl(BYTES_PER_GB)}/2),0)"
)
_KV_BYTES = "IF(OMITTED(bytes_per_value),bytes_per_param,bytes_per_value)"
_BANDWIDTH = f"gpus*bandwidth_tb_per_s*{xl(BYTES_PER_TB)}*bandwidth_util"
_COMPUTE = f"gpus*peak_tflops_per_gpu*{xl(FLOPS_PER_TFLOPS)}*prefill_mfu"
_CONTEXT = "prompt_tokens+output_tokens/2"  # a sequence's prompt and half its output


def _needed_link(gpus: Floats, link: Floats | None) -> Floats:
    """link_gb_per_s, needed where a replica has more than one GPU: #VALUE!
    without it (NaN in a range's cell, reported the same way)."""
    if link is not None:
        return link
    if np.ndim(gpus) == 0 and gpus > 1:
        raise InvalidTypeError(
            "#VALUE!",
            "give link_gb_per_s for more than one GPU: the GPU-to-GPU bandwidth "
            "the all-reduces run over (GPU_INTERCONNECT_GBS)",
        )
    return np.nan


def _tp_ms(
    layers: Floats, d_model: Floats, gpus: Floats, tokens: Floats, link: Floats | None
) -> Floats:
    """TP_ALLREDUCE_MS's arithmetic.

    A ring all-reduce of S bytes over g GPUs sends 2(g − 1)/g · S from each GPU
    over one direction of its links (NCCL's PERFORMANCE.md: bus bandwidth),
    and takes at least ALLREDUCE_LATENCY_S however small S is.
    """
    count, per_token = _tp_parts(layers, d_model, gpus, _needed_link(gpus, link))
    return count * (ALLREDUCE_LATENCY_S + per_token * tokens) * _MS


def _tp_parts(
    layers: Floats, d_model: Floats, gpus: Floats, link: Floats
) -> tuple[Floats, Floats]:
    """All-reduces a forward pass makes (none on one GPU), and the seconds each
    takes per token it carries: _TP_COUNT and _TP_PER_TOKEN in Python."""
    with np.errstate(invalid="ignore", divide="ignore"):
        count = np.where(gpus > 1, _ALLREDUCES_PER_LAYER * layers, 0.0)
        volume = 2 * (gpus - 1) / gpus * d_model * _ACTIVATION_BYTES
        per_token = np.where(gpus > 1, volume / (link * BYTES_PER_GB / 2), 0.0)
    return count, per_token


@formula(
    "TP_ALLREDUCE_MS",
    unit="ms",
    excel=f"{_TP_COUNT}*({xl(ALLREDUCE_LATENCY_S)}+{_TP_PER_TOKEN}*step_tokens)*{_MS}",
)
def tp_allreduce_ms(
    layers: Numbers,
    d_model: Numbers,
    gpus: Numbers,
    step_tokens: Numbers,
    link_gb_per_s: Numbers | None = None,
) -> Floats:
    """Milliseconds of a forward pass's tensor-parallel all-reduces, from the shape.

    Formula: ``2 · L · (α + 2(g − 1)/g · d · 2 / (link / 2) · T) × 1000`` for
    g > 1 GPUs (0 on one): TP_COMM_MS's arithmetic on numbers, two all-reduces
    a layer of the T tokens' d_model-wide 16-bit activations, over one
    direction of each GPU's links (half of link_gb_per_s), and α = 8 µs each at
    the least.

    Returns
    -------
    float or ndarray
        Milliseconds per forward pass; link_gb_per_s is needed for more than
        one GPU.

    References
    ----------
    Shoeybi et al. 2019, "Megatron-LM", arXiv 1909.08053, section 3; NVIDIA,
    nccl-tests doc/PERFORMANCE.md; cli99/llm-analysis
    (get_latency_fwd_per_tp_comm, gpu_configs/h100-sxm-80gb.json): as
    TP_COMM_MS.

    Examples
    --------
    Llama 3.1 70B's 80 layers of 8,192 on 4 H100s (NVLink 900 GB/s), 256
    tokens: 160 × (8 + 14.0) µs.

    >>> round(tp_allreduce_ms(80, 8192, 4, 256, 900), 3)
    3.517
    """
    return _plain(_tp_ms(layers, d_model, gpus, step_tokens, link_gb_per_s))


def _prefill_ms(
    active: Floats,
    layers: Floats,
    attention_width: Floats,
    d_model: Floats,
    peak: Floats,
    gpus: Floats,
    prompt: Floats,
    mfu: Floats,
    link: Floats | None,
) -> Floats:
    """REPLICA_PREFILL_MS's arithmetic."""
    flops = (
        INFERENCE_FLOPS_PER_PARAM_TOKEN * active * prompt
        + _ATTENTION_PREFILL * layers * attention_width * prompt**2
    )
    compute = flops / (gpus * peak * FLOPS_PER_TFLOPS * mfu) * _MS
    return compute + _tp_ms(layers, d_model, gpus, prompt, link)


@formula(
    "REPLICA_PREFILL_MS",
    unit="ms",
    excel=f"({xl(INFERENCE_FLOPS_PER_PARAM_TOKEN)}*active_params*prompt_tokens"
    f"+{xl(_ATTENTION_PREFILL)}*layers*attention_width*prompt_tokens^2)"
    f"/({_COMPUTE})*{_MS}"
    "+TP_ALLREDUCE_MS(layers,d_model,gpus,prompt_tokens,link_gb_per_s)",
)
def replica_prefill_ms(
    active_params: Numbers,
    layers: Numbers,
    attention_width: Numbers,
    d_model: Numbers,
    peak_tflops_per_gpu: Numbers,
    gpus: Numbers,
    prompt_tokens: Numbers,
    link_gb_per_s: Numbers | None = None,
    prefill_mfu: Numbers = PREFILL_MFU,
) -> Floats:
    """Milliseconds to process one prompt on a replica, from the shape as numbers.

    Formula: ``(2 · A · p + 2 · L · a · p²) / (g · peak · mfu) × 1000``, plus
    TP_ALLREDUCE_MS of the p tokens: PREFILL_MS's arithmetic on numbers,
    the prompt's p tokens at 2 FLOPs per active parameter A and causal
    attention over them (a = attention_width), at prefill_mfu of the g GPUs'
    dense peak for the precision computed in.

    Returns
    -------
    float or ndarray
        Milliseconds for one prompt on an otherwise idle replica (the time to
        first token).

    References
    ----------
    Kaplan et al. 2020, arXiv 2001.08361, table 1; Dao 2023,
    FlashAttention-2, arXiv 2307.08691, section 4: as PREFILL_MS. The default
    prefill_mfu, 60 %, is calibrated on TensorRT-LLM's measured runs
    (docs/serving.md).

    Examples
    --------
    Llama 3.3 70B (80 layers of 8,192) in fp8 on 2 H100s (1,978.9 TFLOP/s, 900
    GB/s NVLink), a 1,000-token prompt:

    >>> round(replica_prefill_ms(70e9, 80, 8192, 8192, 1978.9, 2, 1000, 900), 1)
    66.6
    """
    return _plain(
        _prefill_ms(
            active_params, layers, attention_width, d_model, peak_tflops_per_gpu,
            gpus, prompt_tokens, prefill_mfu, link_gb_per_s,
        )
    )  # fmt: skip


def _step_ms(
    params: Floats,
    active: Floats,
    layers: Floats,
    kv_width: Floats,
    attention_width: Floats,
    d_model: Floats,
    experts: Floats,
    per_token: Floats,
    bandwidth: Floats,
    peak: Floats,
    gpus: Floats,
    batch: Floats,
    seq_len: Floats,
    weight_bytes: Floats,
    bandwidth_util: Floats,
    mfu: Floats,
    kv_bytes: Floats | None,
    link: Floats | None,
) -> Floats:
    """REPLICA_STEP_MS's arithmetic: the slower of the reads and the FLOPs."""
    kv = weight_bytes if kv_bytes is None else kv_bytes
    weights = _weights_read(params, active, experts, per_token, batch)
    cache = batch * seq_len * _KV * layers * kv_width * kv
    reads = (weights * weight_bytes + cache) / (
        gpus * bandwidth * BYTES_PER_TB * bandwidth_util
    )
    flops = batch * (
        INFERENCE_FLOPS_PER_PARAM_TOKEN * active
        + _ATTENTION_DECODE * layers * attention_width * seq_len
    )
    compute = flops / (gpus * peak * FLOPS_PER_TFLOPS * mfu)
    return np.maximum(reads, compute) * _MS + _tp_ms(layers, d_model, gpus, batch, link)


def _step_excel() -> str:
    unused = (
        "IF(experts>experts_per_token,(params-active_params)*experts"
        "*(1-experts_per_token/experts)^batch/(experts-experts_per_token),0)"
    )
    reads = (
        f"((params-{unused})*bytes_per_param"
        f"+batch*seq_len*{xl(_KV)}*layers*kv_width*{_KV_BYTES})/({_BANDWIDTH})"
    )
    flops = (
        f"batch*({xl(INFERENCE_FLOPS_PER_PARAM_TOKEN)}*active_params"
        f"+{xl(_ATTENTION_DECODE)}*layers*attention_width*seq_len)/({_COMPUTE})"
    )
    # IF, not MAX(): MAX would fold a range into one value.
    return (
        f"IF({reads}>{flops},{reads},{flops})*{_MS}"
        "+TP_ALLREDUCE_MS(layers,d_model,gpus,batch,link_gb_per_s)"
    )


@formula("REPLICA_STEP_MS", unit="ms", excel=_step_excel())
def replica_step_ms(
    params: Numbers,
    active_params: Numbers,
    layers: Numbers,
    kv_width: Numbers,
    attention_width: Numbers,
    d_model: Numbers,
    experts: Numbers,
    experts_per_token: Numbers,
    bandwidth_tb_per_s: Numbers,
    peak_tflops_per_gpu: Numbers,
    gpus: Numbers,
    batch: Numbers,
    seq_len: Numbers,
    link_gb_per_s: Numbers | None = None,
    bytes_per_param: Numbers = HALF_PRECISION_BYTES,
    bandwidth_util: Numbers = BANDWIDTH_UTIL,
    prefill_mfu: Numbers = PREFILL_MFU,
    bytes_per_value: Numbers | None = None,
) -> Floats:
    """Milliseconds of one decoding step of a batch, from the shape as numbers.

    Formula: ``max(reads, FLOPs) × 1000``, plus TP_ALLREDUCE_MS of the B
    tokens: DECODE_STEP_MS's arithmetic on numbers. The reads are the weights the
    batch of B touches, ``N − (N − A)·E·(1 − k/E)^B / (E − k)`` for a mixture
    of E experts (k a token), all N for a dense model, at bytes_per_param, and
    each sequence's cache of seq_len tokens, 2 · L · kv_width ·
    bytes_per_value a token, over g × bandwidth at bandwidth_util. The FLOPs
    are B · (2 · A + 4 · L · a · seq_len) at prefill_mfu of g × the peak.

    Returns
    -------
    float or ndarray
        Milliseconds per step: the time per output token (TPOT).

    References
    ----------
    kipply (C. Chen), "Transformer Inference Arithmetic", 2022; Williams et
    al. 2009, "Roofline", CACM 52(4); Feller's occupancy expectation for the
    experts (MODEL_DECODE_TOKENS_PER_SEC): as DECODE_STEP_MS.

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100s (3.35 TB/s each), 256 sequences of 1,500
    tokens:

    >>> round(replica_step_ms(70e9, 70e9, 80, 1024, 8192, 8192, 1, 1, 3.35,
    ...                       1978.9, 2, 256, 1500, 900, 1), 1)
    38.8
    """
    return _plain(
        _step_ms(
            params, active_params, layers, kv_width, attention_width, d_model,
            experts, experts_per_token, bandwidth_tb_per_s, peak_tflops_per_gpu,
            gpus, batch, seq_len, bytes_per_param, bandwidth_util, prefill_mfu,
            bytes_per_value, link_gb_per_s,
        )
    )  # fmt: skip


def _latency_batch(
    params: Floats,
    active: Floats,
    layers: Floats,
    kv_width: Floats,
    attention_width: Floats,
    d_model: Floats,
    bandwidth: Floats,
    peak: Floats,
    gpus: Floats,
    seq_len: Floats,
    ms_per_token: Floats,
    weight_bytes: Floats,
    bandwidth_util: Floats,
    mfu: Floats,
    kv_bytes: Floats | None,
    link: Floats | None,
) -> Floats:
    """LATENCY_BATCH's arithmetic.

    A step is max(a₁ + b₁·B, b₂·B) + c₀ + c₁·B, each part linear in the batch B
    when every weight is read: the largest B is the smaller of (T − a₁ −
    c₀)/(b₁ + c₁) and (T − c₀)/(b₂ + c₁). NaN where even one sequence misses.
    """
    kv = weight_bytes if kv_bytes is None else kv_bytes
    reads = gpus * bandwidth * BYTES_PER_TB * bandwidth_util
    compute = gpus * peak * FLOPS_PER_TFLOPS * mfu
    tp, per_token = _tp_parts(layers, d_model, gpus, _needed_link(gpus, link))
    c1 = tp * per_token
    target = ms_per_token / _MS
    weights = (target - params * weight_bytes / reads - tp * ALLREDUCE_LATENCY_S) / (
        seq_len * _KV * layers * kv_width * kv / reads + c1
    )
    flops = (target - tp * ALLREDUCE_LATENCY_S) / (
        (
            INFERENCE_FLOPS_PER_PARAM_TOKEN * active
            + _ATTENTION_DECODE * layers * attention_width * seq_len
        )
        / compute
        + c1
    )
    fits = np.minimum(weights, flops) * (1 + _HAIR)
    return _plain(np.where(fits < 1, np.nan, np.floor(fits)))


def _latency_excel() -> str:
    tp = _TP_COUNT
    c1 = f"{tp}*{_TP_PER_TOKEN}"
    target = f"ms_per_token/{_MS}"
    weights = (
        f"({target}-params*bytes_per_param/({_BANDWIDTH})"
        f"-{tp}*{xl(ALLREDUCE_LATENCY_S)})/(seq_len*{xl(_KV)}*layers*kv_width"
        f"*{_KV_BYTES}/({_BANDWIDTH})+{c1})"
    )
    flops = (
        f"({target}-{tp}*{xl(ALLREDUCE_LATENCY_S)})"
        f"/(({xl(INFERENCE_FLOPS_PER_PARAM_TOKEN)}*active_params"
        f"+{xl(_ATTENTION_DECODE)}*layers*attention_width*seq_len)/({_COMPUTE})+{c1})"
    )
    fits = f"IF({weights}<{flops},{weights},{flops})*(1+{xl(_HAIR)})"
    return f"IF({fits}<1,#NUM!,ROUNDDOWN({fits},0))"


@formula(
    "LATENCY_BATCH",
    unit="sequences",
    excel=_latency_excel(),
    invalid_result="one sequence's decoding step already takes longer than "
    "ms_per_token",
)
def latency_batch(
    params: Numbers,
    active_params: Numbers,
    layers: Numbers,
    kv_width: Numbers,
    attention_width: Numbers,
    d_model: Numbers,
    bandwidth_tb_per_s: Numbers,
    peak_tflops_per_gpu: Numbers,
    gpus: Numbers,
    seq_len: Numbers,
    ms_per_token: Numbers,
    link_gb_per_s: Numbers | None = None,
    bytes_per_param: Numbers = HALF_PRECISION_BYTES,
    bandwidth_util: Numbers = BANDWIDTH_UTIL,
    prefill_mfu: Numbers = PREFILL_MFU,
    bytes_per_value: Numbers | None = None,
) -> Floats:
    """Largest batch whose decoding step, every weight read, meets a latency target.

    Formula: ``floor(min((T − a₁ − c₀) / (b₁ + c₁), (T − c₀) / (b₂ + c₁)))``
    with T = ms_per_token ÷ 1000: REPLICA_STEP_MS is max(a₁ + b₁·B, b₂·B) +
    c₀ + c₁·B, linear in the batch B where all N weights are read (a mixture
    of experts at its largest, so the target holds all the more): a₁ = N ×
    bytes_per_param and b₁ = seq_len's cache per sequence, over g ×
    bandwidth × bandwidth_util; b₂ = 2 · A + 4 · L · a · seq_len over g ×
    peak × prefill_mfu; c₀ + c₁·B the all-reduces (TP_ALLREDUCE_MS).

    Returns
    -------
    float or ndarray
        Sequences, a whole number; #NUM! where one sequence misses the target.

    References
    ----------
    kipply (C. Chen), "Transformer Inference Arithmetic", 2022: a step's time
    grows with the batch's cache reads and FLOPs; the target is a time per
    output token (TPOT), as serving benchmarks report it.

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100s, 1,500 tokens of context, 30 ms a token
    (REPLICA_STEP_MS at 134 sequences: 29.99 ms):

    >>> latency_batch(70e9, 70e9, 80, 1024, 8192, 8192, 3.35, 1978.9, 2, 1500,
    ...               30, 900, 1)
    134.0
    """
    return _latency_batch(
        params, active_params, layers, kv_width, attention_width, d_model,
        bandwidth_tb_per_s, peak_tflops_per_gpu, gpus, seq_len, ms_per_token,
        bytes_per_param, bandwidth_util, prefill_mfu, bytes_per_value,
        link_gb_per_s,
    )  # fmt: skip


def _replica_batch(
    params: Floats,
    active: Floats,
    layers: Floats,
    kv_width: Floats,
    attention_width: Floats,
    d_model: Floats,
    memory_gb: Floats,
    bandwidth: Floats,
    peak: Floats,
    gpus: Floats,
    prompt_tokens: Floats,
    output_tokens: Floats,
    weight_bytes: Floats,
    max_batch: Floats,
    ms_per_token: Floats | None,
    bandwidth_util: Floats,
    mfu: Floats,
    kv_bytes: Floats | None,
    link: Floats | None,
) -> Floats:
    """REPLICA_BATCH's arithmetic."""
    kv = weight_bytes if kv_bytes is None else kv_bytes
    context = prompt_tokens + output_tokens / 2
    per_sequence = context * _KV * layers * kv_width * kv / BYTES_PER_GB
    held = _max_batch(
        params, memory_gb, per_sequence, weight_bytes, gpus, USABLE_MEMORY
    )
    capped = np.minimum(held, max_batch)
    if ms_per_token is None:
        return _plain(np.minimum(capped, max_batch))
    fast = _latency_batch(
        params, active, layers, kv_width, attention_width, d_model, bandwidth,
        peak, gpus, context, ms_per_token, weight_bytes, bandwidth_util, mfu,
        kv_bytes, link,
    )  # fmt: skip
    return _plain(np.minimum(capped, fast))


def _replica_batch_excel() -> str:
    held = (
        f"MAX_DECODE_BATCH(params,memory_gb,({_CONTEXT})*{xl(_KV)}*layers*kv_width"
        f"*{_KV_BYTES}/{xl(BYTES_PER_GB)},bytes_per_param,gpus)"
    )
    capped = f"IF({held}<max_batch,{held},max_batch)"
    fast = (
        "IF(OMITTED(ms_per_token),max_batch,LATENCY_BATCH(params,active_params,"
        "layers,kv_width,attention_width,d_model,bandwidth_tb_per_s,"
        f"peak_tflops_per_gpu,gpus,{_CONTEXT},ms_per_token,link_gb_per_s,"
        "bytes_per_param,bandwidth_util,prefill_mfu,bytes_per_value))"
    )
    # IF, not MIN(): MIN would fold a range into one value.
    return f"IF({capped}<{fast},{capped},{fast})"


_NO_BATCH = (
    "no batch fits: the weights leave no room for one sequence's cache (more "
    "GPUs, a narrower precision), or one sequence's step misses ms_per_token"
)


@formula(
    "REPLICA_BATCH",
    unit="sequences",
    excel=_replica_batch_excel(),
    invalid_result=_NO_BATCH,
)
def replica_batch(
    params: Numbers,
    active_params: Numbers,
    layers: Numbers,
    kv_width: Numbers,
    attention_width: Numbers,
    d_model: Numbers,
    memory_gb: Numbers,
    bandwidth_tb_per_s: Numbers,
    peak_tflops_per_gpu: Numbers,
    gpus: Numbers,
    prompt_tokens: Numbers,
    output_tokens: Numbers,
    link_gb_per_s: Numbers | None = None,
    bytes_per_param: Numbers = HALF_PRECISION_BYTES,
    max_batch: Numbers = MAX_BATCH,
    ms_per_token: Numbers | None = None,
    bandwidth_util: Numbers = BANDWIDTH_UTIL,
    prefill_mfu: Numbers = PREFILL_MFU,
    bytes_per_value: Numbers | None = None,
) -> Floats:
    """Sequences a replica decodes at once at full load, from the shape as numbers.

    Formula: the smallest of MAX_DECODE_BATCH (the N weights at
    bytes_per_param and, per sequence, 2 · L · kv_width · bytes_per_value
    bytes for each of its prompt + output ÷ 2 tokens, in 90 % of g ×
    memory_gb), max_batch, and LATENCY_BATCH at that context where
    ms_per_token is given: SERVING_BATCH's arithmetic on numbers.

    Returns
    -------
    float or ndarray
        Sequences, a whole number; #NUM! where none fits.

    References
    ----------
    vLLM engine arguments (docs.vllm.ai): the cache sized from 90 % of the GPU
    less the weights (--gpu-memory-utilization 0.9), at most --max-num-seqs
    sequences, 256 by default.

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100s (85.52 GB each), prompts and outputs of
    1,000 tokens: 342 sequences fit, capped at 256; with a 30 ms target, 134.

    >>> replica_batch(70e9, 70e9, 80, 1024, 8192, 8192, 85.520809984, 3.35,
    ...               1978.9, 2, 1000, 1000, 900, 1)
    256.0
    >>> replica_batch(70e9, 70e9, 80, 1024, 8192, 8192, 85.520809984, 3.35,
    ...               1978.9, 2, 1000, 1000, 900, 1, 256, 30)
    134.0
    """
    return _replica_batch(
        params, active_params, layers, kv_width, attention_width, d_model,
        memory_gb, bandwidth_tb_per_s, peak_tflops_per_gpu, gpus, prompt_tokens,
        output_tokens, bytes_per_param, max_batch, ms_per_token, bandwidth_util,
        prefill_mfu, bytes_per_value, link_gb_per_s,
    )  # fmt: skip


def _replica_tokens(
    params: Floats,
    active: Floats,
    layers: Floats,
    kv_width: Floats,
    attention_width: Floats,
    d_model: Floats,
    experts: Floats,
    per_token: Floats,
    memory_gb: Floats,
    bandwidth: Floats,
    peak: Floats,
    gpus: Floats,
    prompt_tokens: Floats,
    output_tokens: Floats,
    weight_bytes: Floats,
    max_batch: Floats,
    ms_per_token: Floats | None,
    bandwidth_util: Floats,
    mfu: Floats,
    kv_bytes: Floats | None,
    link: Floats | None,
) -> Floats:
    """REPLICA_TOKENS_PER_SEC's arithmetic."""
    batch = _replica_batch(
        params, active, layers, kv_width, attention_width, d_model, memory_gb,
        bandwidth, peak, gpus, prompt_tokens, output_tokens, weight_bytes,
        max_batch, ms_per_token, bandwidth_util, mfu, kv_bytes, link,
    )  # fmt: skip
    prefill = _prefill_ms(
        active, layers, attention_width, d_model, peak, gpus, prompt_tokens, mfu,
        link,
    )  # fmt: skip
    step = _step_ms(
        params, active, layers, kv_width, attention_width, d_model, experts,
        per_token, bandwidth, peak, gpus, batch, prompt_tokens + output_tokens / 2,
        weight_bytes, bandwidth_util, mfu, kv_bytes, link,
    )  # fmt: skip
    out = batch * output_tokens / (batch * prefill + output_tokens * step) * _MS
    return _plain(out)


def _replica_tokens_excel() -> str:
    batch = (
        "REPLICA_BATCH(params,active_params,layers,kv_width,attention_width,"
        "d_model,memory_gb,bandwidth_tb_per_s,peak_tflops_per_gpu,gpus,"
        "prompt_tokens,output_tokens,link_gb_per_s,bytes_per_param,max_batch,"
        "ms_per_token,bandwidth_util,prefill_mfu,bytes_per_value)"
    )
    prefill = (
        "REPLICA_PREFILL_MS(active_params,layers,attention_width,d_model,"
        "peak_tflops_per_gpu,gpus,prompt_tokens,link_gb_per_s,prefill_mfu)"
    )
    step = (
        "REPLICA_STEP_MS(params,active_params,layers,kv_width,attention_width,"
        "d_model,experts,experts_per_token,bandwidth_tb_per_s,peak_tflops_per_gpu,"
        f"gpus,{batch},{_CONTEXT},link_gb_per_s,bytes_per_param,bandwidth_util,"
        "prefill_mfu,bytes_per_value)"
    )
    return f"{batch}*output_tokens/({batch}*{prefill}+output_tokens*{step})*{_MS}"


@formula(
    "REPLICA_TOKENS_PER_SEC",
    unit="tokens/s",
    excel=_replica_tokens_excel(),
    invalid_result=_NO_BATCH,
)
def replica_tokens_per_sec(
    params: Numbers,
    active_params: Numbers,
    layers: Numbers,
    kv_width: Numbers,
    attention_width: Numbers,
    d_model: Numbers,
    experts: Numbers,
    experts_per_token: Numbers,
    memory_gb: Numbers,
    bandwidth_tb_per_s: Numbers,
    peak_tflops_per_gpu: Numbers,
    gpus: Numbers,
    prompt_tokens: Numbers,
    output_tokens: Numbers,
    link_gb_per_s: Numbers | None = None,
    bytes_per_param: Numbers = HALF_PRECISION_BYTES,
    max_batch: Numbers = MAX_BATCH,
    ms_per_token: Numbers | None = None,
    bandwidth_util: Numbers = BANDWIDTH_UTIL,
    prefill_mfu: Numbers = PREFILL_MFU,
    bytes_per_value: Numbers | None = None,
) -> Floats:
    """Output tokens/s one replica sustains at full load, from the shape as numbers.

    Formula: ``B · o / (B · PREFILL + o · STEP) × 1000``: SERVING_TOKENS_PER_SEC's
    arithmetic on numbers, with B = REPLICA_BATCH, PREFILL =
    REPLICA_PREFILL_MS of the prompt and STEP = REPLICA_STEP_MS of B sequences
    at the average context, prompt + output ÷ 2 tokens. A workbook that holds
    the three in cells reads ``B*o/(B*Prefill+o*Step)*1000``.

    Returns
    -------
    float or ndarray
        Output tokens per second for the replica (all its g GPUs together).

    References
    ----------
    NVIDIA, TensorRT-LLM performance overview (github.com/NVIDIA/TensorRT-LLM,
    docs/source/performance/perf-overview.md): the measured runs the defaults
    are fitted to and checked against (docs/serving.md).

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100 SXM, prompts and outputs of 1,000 tokens
    (TensorRT-LLM v1.0 measured 4,205):

    >>> round(replica_tokens_per_sec(70e9, 70e9, 80, 1024, 8192, 8192, 1, 1,
    ...                              85.520809984, 3.35, 1978.9, 2, 1000, 1000, 900,
    ...                              1))
    4580
    """
    return _replica_tokens(
        params, active_params, layers, kv_width, attention_width, d_model,
        experts, experts_per_token, memory_gb, bandwidth_tb_per_s,
        peak_tflops_per_gpu, gpus, prompt_tokens, output_tokens, bytes_per_param,
        max_batch, ms_per_token, bandwidth_util, prefill_mfu, bytes_per_value,
        link_gb_per_s,
    )  # fmt: skip


# ---------------------------------------------------- a served model, by name
#
# The functions below take a published model and an accelerator by name, and
# the precision the model is served in: each is its numeric counterpart above,
# called with the model's shape (MODEL_SPEC) and the accelerator's figures.

_GPU_ROW = f"INDEX({ACCELERATOR_ROW},MATCH({key('gpu')},{ACCELERATOR_KEYS},0))"


def _numbers(values: list[float]) -> str:
    return "{" + ",".join(xl(v) for v in values) + "}"


_PRECISION_BYTES = _numbers([PRECISION_BYTES[p] for _, p in SERVING_PRECISION_KEYS])
_PRECISION_COLUMN = _numbers(
    [DTYPES.index(PRECISION_COMPUTE[p]) + 1.0 for _, p in SERVING_PRECISION_KEYS]
)


def _precision(name: str) -> str:
    """The position of a precision argument among the accepted spellings."""
    return f"MATCH({key(name)},{PRECISION_KEYS},0)"


def _weight_bytes_excel() -> str:
    # A row constant read as INDEX(row,1,k): Gnumeric reads INDEX(row,k) as row k.
    return f"INDEX({_PRECISION_BYTES},1,{_precision('precision')})"


def _gpu_column(table: str) -> str:
    return f"IFERROR(INDEX({table},{_GPU_ROW})+0,NA())"


def _peak_excel() -> str:
    """TFLOP/s of the precision's column; the bf16 one where the accelerator has
    none, then the fp16 one; #N/A where none of them."""
    column = f"INDEX({_PRECISION_COLUMN},1,{_precision('precision')})"
    at = [f"INDEX({ACCELERATOR_PEAKS},{_GPU_ROW},{c})+0" for c in (column, "1", "2")]
    return f"IFERROR({at[0]},IFERROR({at[1]},IFERROR({at[2]},NA())))"


def _link_excel() -> str:
    """GB/s between GPUs: the link_gb_per_s argument where it is given, else the
    accelerator's."""
    return "IF(OMITTED(link_gb_per_s),GPU_INTERCONNECT_GBS(gpu),link_gb_per_s)"


def _spec(field: str) -> str:
    """A field of the named model, as a sibling call: a workbook that holds
    that call in a cell reads the cell instead."""
    return f'MODEL_SPEC(model,"{field}")'


def _shape(*fields: str) -> str:
    return ",".join(_spec(f) for f in fields)


def _served(model: str, gpu: str) -> tuple[Model, Accelerator]:
    return BY_NAME[model], ACCELERATOR[gpu]


def _bandwidth(acc: Accelerator) -> float:
    """TB/s of the accelerator's memory, or #N/A."""
    if acc.bandwidth_tbs is None:
        raise InvalidValueError(
            "#N/A", f"{acc.vendor} publishes no bandwidth for the {acc.name}"
        )
    return acc.bandwidth_tbs


def _memory(acc: Accelerator) -> float:
    """GB of the accelerator's memory, or #N/A."""
    if acc.memory_gb is None:
        raise InvalidValueError(
            "#N/A", f"{acc.vendor} publishes no memory for the {acc.name}"
        )
    return acc.memory_gb


def _peak_tflops(acc: Accelerator, precision: str) -> float:
    """The dense peak the precision's products run at (see PRECISION_COMPUTE)."""
    peaks = acc.peak_tflops
    for dtype in (PRECISION_COMPUTE[precision], "bf16", "fp16"):
        if dtype in peaks:
            return float(peaks[dtype])
    raise InvalidValueError(
        "#N/A", f"{acc.name} has no {precision}, bf16 or fp16 figure"
    )


def _link(acc: Accelerator, gpus: Floats, link_gb_per_s: Floats | None) -> Floats:
    """GB/s between GPUs: the argument, or the table's; raise where a single
    replica of more than one GPU needs a figure the table lacks (NaN in a
    range's cell, which the registry then reports the same way)."""
    if link_gb_per_s is not None:
        return link_gb_per_s
    if acc.interconnect_gbs is not None:
        return acc.interconnect_gbs
    if np.ndim(gpus) == 0 and gpus > 1:
        raise InvalidValueError(
            "#N/A",
            f"{acc.vendor} publishes no GPU-to-GPU bandwidth for the {acc.name}: "
            "give link_gb_per_s",
        )
    return np.nan


#: The shape REPLICA_STEP_MS and REPLICA_TOKENS_PER_SEC read, in their order.
_STEP_SHAPE = (
    "params", "active_params", "layers", "kv_width", "attention_width", "d_model",
    "experts", "experts_per_token",
)  # fmt: skip
_Shape8: TypeAlias = tuple[float, float, float, float, float, float, float, float]


def _step_shape(m: Model) -> _Shape8:
    """The published model's _STEP_SHAPE, as numbers."""
    n, a, layers, kv, att, d, e, k = (float(value(m, f)) for f in _STEP_SHAPE)
    return n, a, layers, kv, att, d, e, k


@formula(
    "SERVING_PEAK_TFLOPS",
    unit="TFLOP/s",
    excel=_peak_excel(),
)
def serving_peak_tflops(gpu: str, precision: OptionalName = "bf16") -> float:
    """Dense peak TFLOP/s an accelerator runs a serving precision's products at.

    Formula: GPU_PEAK_TFLOPS of the precision's column (bf16, fp16, fp8, int8;
    int4 weights are widened to 16 bits and run at bf16); where the
    accelerator has none, its bf16 figure, then its fp16 one (fp8 on an A100,
    which vLLM serves as weight-only fp8, runs at bf16's 312).

    Returns
    -------
    float
        TFLOP/s (TOP/s for int8): the peak_tflops_per_gpu of the REPLICA_
        functions. #N/A where the accelerator has none of the three.

    References
    ----------
    Vendor datasheets (GPU_PEAK_TFLOPS); AWQ (Lin et al. 2023, arXiv
    2306.00978) and GPTQ kernels dequantize int4 weights to 16 bits before
    multiplying.

    Examples
    --------
    >>> serving_peak_tflops("H100", "fp8")
    1978.9
    >>> serving_peak_tflops("A100", "fp8")
    312.0
    """
    return _peak_tflops(ACCELERATOR[gpu], precision)


@formula(
    "TP_COMM_MS",
    unit="ms",
    excel=f"TP_ALLREDUCE_MS({_shape('layers', 'd_model')},gpus,step_tokens,"
    f"{_link_excel()})",
    invalid_result="the accelerator has no GPU-to-GPU bandwidth in the table: give "
    "link_gb_per_s",
)
def tp_comm_ms(
    model: str,
    gpu: str,
    gpus: Numbers,
    step_tokens: Numbers,
    link_gb_per_s: Numbers | None = None,
) -> Floats:
    """Milliseconds a forward pass spends in tensor-parallel all-reduces.

    Formula: ``2 · L · (α + 2(g − 1)/g · T · d · 2 / (link / 2)) × 1000`` for
    g > 1 GPUs (0 on one): two all-reduces a layer (after attention and after
    the MLP), each of the T tokens' d_model-wide 16-bit activations, sent by
    a ring over one direction of each GPU's links (half the bidirectional
    figure GPU_INTERCONNECT_GBS gives), plus α = 8 µs for each however small.
    T is the batch for a decoding step, the prompt's length for prompt
    processing. Not overlapped with compute: an upper bound of what a step
    pays. TP_ALLREDUCE_MS with the model's shape.

    Returns
    -------
    float or ndarray
        Milliseconds per forward pass, on top of its compute and memory time.

    References
    ----------
    Shoeybi et al. 2019, "Megatron-LM", arXiv 1909.08053, section 3: two
    all-reduces in each layer's forward pass. NVIDIA, nccl-tests
    doc/PERFORMANCE.md: an all-reduce moves 2(n − 1)/n of the data over
    each rank's links. cli99/llm-analysis (analysis.py,
    get_latency_fwd_per_tp_comm): the same volume over one direction of
    NVLink, and 8 µs at the least (gpu_configs/h100-sxm-80gb.json).

    Examples
    --------
    Llama 3.1 70B on 4 H100s, a decoding step of 256 sequences: 160
    all-reduces of 256 × 8,192 × 2 bytes, 3/2 of it over 450 GB/s each:
    160 × (8 + 14.0) µs.

    >>> round(tp_comm_ms("Llama 3.1 70B", "H100", 4, 256), 3)
    3.517
    """
    m, acc = _served(model, gpu)
    link = _link(acc, gpus, link_gb_per_s)
    return _plain(_tp_ms(float(m.layers), float(m.d_model), gpus, step_tokens, link))


@formula(
    "ZERO3_COMM_MS",
    unit="ms",
    excel="IF(gpus>1,(gpus-1)/gpus*(2*params*weight_bytes+IF(OMITTED("
    f"trainable_params),params,trainable_params)*{xl(GRADIENT_BYTES)})"
    f"/({_link_excel()}*{xl(BYTES_PER_GB)}/2)*1000,0)",
    invalid_result="the accelerator has no GPU-to-GPU bandwidth in the table: give "
    "link_gb_per_s",
)
def zero3_comm_ms(
    params: Numbers,
    gpu: str,
    gpus: Numbers,
    trainable_params: Numbers | None = None,
    weight_bytes: Numbers = HALF_PRECISION_BYTES,
    link_gb_per_s: Numbers | None = None,
) -> Floats:
    """Milliseconds a ZeRO-3 step spends gathering weights and scattering gradients.

    Formula: ``(g − 1)/g · (2 · N · w + N_t · 2) / (link / 2) × 1000``: each
    step gathers the N weights (w bytes each) twice, for the forward and the
    backward pass, and reduce-scatters the N_t trainable parameters' 16-bit
    gradients; each collective sends (g − 1)/g of its data from every GPU
    over one direction of its links. 0 on one GPU. ZeRO prefetches, so much
    of it hides behind compute: the time if none does.

    Returns
    -------
    float or ndarray
        Milliseconds per optimizer step (per micro-batch without gradient
        accumulation), for the g data-parallel GPUs ZeRO shards over.

    References
    ----------
    Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054, section 7.2.2: stage
    3 moves 3Ψ per step (an all-gather in the forward and in the backward
    pass, a reduce-scatter of the gradients), 1.5 times data parallelism's
    2Ψ. NVIDIA nccl-tests doc/PERFORMANCE.md: all-gather and
    reduce-scatter move (n − 1)/n of the data per rank.

    Examples
    --------
    Llama 3.1 8B, full fine-tuning, 8 H100s: 7/8 × 3 × 16 GB over 450 GB/s.

    >>> round(zero3_comm_ms(8e9, "H100", 8), 1)
    93.3
    """
    acc = ACCELERATOR[gpu]
    link = _link(acc, gpus, link_gb_per_s)
    trainable = params if trainable_params is None else trainable_params
    volume = (
        (gpus - 1) / gpus * (2 * params * weight_bytes + trainable * GRADIENT_BYTES)
    )
    with np.errstate(invalid="ignore"):
        out = np.where(gpus > 1, volume / (link * BYTES_PER_GB / 2) * 1000, 0.0)
    return _plain(out)


@formula(
    "PREFILL_MS",
    unit="ms",
    excel="REPLICA_PREFILL_MS("
    f"{_shape('active_params', 'layers', 'attention_width', 'd_model')},"
    "SERVING_PEAK_TFLOPS(gpu,precision),gpus,prompt_tokens,"
    "GPU_INTERCONNECT_GBS(gpu),prefill_mfu)",
    invalid_result="the accelerator has no GPU-to-GPU bandwidth in the table",
)
def prefill_ms(
    model: str,
    gpu: str,
    gpus: Numbers,
    prompt_tokens: Numbers,
    precision: OptionalName = "bf16",
    prefill_mfu: Numbers = PREFILL_MFU,
) -> Floats:
    """Milliseconds to process one prompt on a replica: the time to first token.

    Formula: ``(2 · A · p + 2 · L · a · p²) / (g · peak · mfu) + TP_COMM_MS`` in
    ms: the prompt's p tokens at 2 FLOPs per active parameter A (a forward
    pass), and causal attention over them (QKᵀ and the weighted sum of V, over
    the p²/2 pairs the mask keeps, a = heads × head_dim, L layers), at
    prefill_mfu of the g GPUs' dense peak for the precision
    (SERVING_PEAK_TFLOPS; int4 weights run at the 16-bit peak), plus the
    tensor-parallel all-reduces of p tokens. REPLICA_PREFILL_MS with the
    model's shape and the accelerator's figures.

    Returns
    -------
    float or ndarray
        Milliseconds for one prompt on an otherwise idle replica; under load a
        request also waits its turn.

    References
    ----------
    Kaplan et al. 2020, arXiv 2001.08361, table 1: a forward pass costs 2N
    FLOPs a token, plus 2·L·d_attn·n_ctx for attention; Dao 2023,
    FlashAttention-2, arXiv 2307.08691, section 4: a causal mask halves the
    attention's FLOPs. The default prefill_mfu, 60 %, is calibrated on
    TensorRT-LLM's measured runs (docs/serving.md).

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100s (1,978.9 TFLOP/s each), a 1,000-token
    prompt: 140 TFLOPs and 1.3 of attention at 60 %, 59.5 ms, and 7.1 ms of
    all-reduces: 160 × (8 + 36.4) µs.

    >>> round(prefill_ms("Llama 3.3 70B", "H100", 2, 1000, "fp8"), 1)
    66.6
    """
    m, acc = _served(model, gpu)
    peak = _peak_tflops(acc, precision)
    link = _link(acc, gpus, None)
    _, active, layers, _, attention_width, d_model, _, _ = _step_shape(m)
    return _plain(
        _prefill_ms(
            active, layers, attention_width, d_model, peak, gpus, prompt_tokens,
            prefill_mfu, link,
        )
    )  # fmt: skip


@formula(
    "DECODE_STEP_MS",
    unit="ms",
    excel=f"REPLICA_STEP_MS({_shape(*_STEP_SHAPE)},GPU_BANDWIDTH_TBS(gpu),"
    "SERVING_PEAK_TFLOPS(gpu,precision),gpus,batch,seq_len,"
    f"GPU_INTERCONNECT_GBS(gpu),{_weight_bytes_excel()},bandwidth_util,"
    "prefill_mfu,bytes_per_value)",
    invalid_result="the accelerator has no GPU-to-GPU bandwidth in the table",
)
def decode_step_ms(
    model: str,
    gpu: str,
    gpus: Numbers,
    batch: Numbers,
    seq_len: Numbers,
    precision: OptionalName = "bf16",
    bandwidth_util: Numbers = BANDWIDTH_UTIL,
    prefill_mfu: Numbers = PREFILL_MFU,
    bytes_per_value: Numbers | None = None,
) -> Floats:
    """Milliseconds of one decoding step of a batch: the time per output token.

    Formula: ``max(reads, FLOPs) + TP_COMM_MS`` in ms. The reads are the
    weights the batch touches (MODEL_DECODE_TOKENS_PER_SEC's count: all of a
    dense model, for a mixture of experts those the batch is routed to) at
    the precision's bytes, and each sequence's key/value cache of seq_len
    tokens (2 · L · kv_width · bytes_per_value a token), over the g GPUs'
    memory bandwidth at bandwidth_util. The FLOPs are 2 per active parameter
    and 4 · L · a · seq_len of attention per sequence, at prefill_mfu of the
    peak. A step yields one token per sequence of the batch. REPLICA_STEP_MS
    with the model's shape and the accelerator's figures.

    Returns
    -------
    float or ndarray
        Milliseconds per step: the time per output token (TPOT) each user
        sees; the replica produces batch ÷ this tokens per millisecond.

    References
    ----------
    kipply (C. Chen), "Transformer Inference Arithmetic", 2022: a step is
    bound by memory bandwidth below the batch at which its FLOPs take
    longer, and the cache is read too. Williams et al. 2009, "Roofline", CACM
    52(4): the slower of the two bounds. The defaults (bandwidth_util 55 %,
    prefill_mfu 60 %) are calibrated on TensorRT-LLM's measured runs
    (docs/serving.md).

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100s, 256 sequences of 1,500 tokens: 70 GB of
    weights and 62.9 GB of fp8 cache at 55 % of 6.7 TB/s, 36.1 ms, and 2.8
    ms of all-reduces: 160 × (8 + 9.3) µs.

    >>> round(decode_step_ms("Llama 3.3 70B", "H100", 2, 256, 1500, "fp8"), 1)
    38.8
    """
    m, acc = _served(model, gpu)
    peak = _peak_tflops(acc, precision)
    link = _link(acc, gpus, None)
    return _plain(
        _step_ms(
            *_step_shape(m), _bandwidth(acc), peak, gpus, batch,
            seq_len, PRECISION_BYTES[precision], bandwidth_util, prefill_mfu,
            bytes_per_value, link,
        )
    )  # fmt: skip


def _serving_excel(function: str, shape: tuple[str, ...]) -> str:
    """``function`` (REPLICA_BATCH or REPLICA_TOKENS_PER_SEC) called with the
    named model's ``shape`` and the accelerator's figures."""
    return (
        f"{function}({_shape(*shape)},GPU_MEMORY_GB(gpu),GPU_BANDWIDTH_TBS(gpu),"
        "SERVING_PEAK_TFLOPS(gpu,precision),gpus,prompt_tokens,output_tokens,"
        f"GPU_INTERCONNECT_GBS(gpu),{_weight_bytes_excel()},max_batch,"
        "ms_per_token,bandwidth_util,prefill_mfu,bytes_per_value)"
    )


def _serving_figures(gpu: str, gpus: Floats, precision: str) -> tuple[Floats, ...]:
    """The accelerator's memory, bandwidth and peak for the precision, and its
    link where a replica needs one: #N/A for a figure its vendor does not print."""
    acc = ACCELERATOR[gpu]
    peak = _peak_tflops(acc, precision)
    link = _link(acc, gpus, None)
    return _memory(acc), _bandwidth(acc), peak, link


#: The shape REPLICA_BATCH reads, in its order.
_BATCH_SHAPE = _STEP_SHAPE[:6]


@formula(
    "SERVING_BATCH",
    unit="sequences",
    excel=_serving_excel("REPLICA_BATCH", _BATCH_SHAPE),
    invalid_result=_NO_BATCH,
)
def serving_batch(
    model: str,
    gpu: str,
    gpus: Numbers,
    prompt_tokens: Numbers,
    output_tokens: Numbers,
    precision: OptionalName = "bf16",
    max_batch: Numbers = MAX_BATCH,
    ms_per_token: Numbers | None = None,
    bandwidth_util: Numbers = BANDWIDTH_UTIL,
    prefill_mfu: Numbers = PREFILL_MFU,
    bytes_per_value: Numbers | None = None,
) -> Floats:
    """Sequences a replica decodes at once at full load: SERVING_TOKENS_PER_SEC's batch.

    Formula: the smallest of the memory batch, max_batch and the latency
    batch. The memory batch is MAX_DECODE_BATCH's: the weights and, per
    sequence, its cache (KV_CACHE_GB at the average context, prompt + output ÷
    2 tokens, in bytes_per_value, the precision's width by default) within 90
    % of the g GPUs' memory. The latency batch, where ms_per_token is given, is
    the largest whose DECODE_STEP_MS meets it (reading every weight of a
    mixture of experts, so that the target holds all the more: LATENCY_BATCH).
    REPLICA_BATCH with the model's shape and the accelerator's figures.

    Returns
    -------
    float or ndarray
        Sequences, a whole number; #NUM! where none fits.

    References
    ----------
    vLLM sizes its cache from 90 % of the GPU less the weights
    (--gpu-memory-utilization 0.9) and decodes at most --max-num-seqs
    sequences, 256 by default (vLLM engine arguments, docs.vllm.ai).

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100s, prompts of 1,000 tokens and outputs of
    1,000: 84 GB of cache room at 1,500 tokens of 160 kB each holds 342
    sequences; the cap is 256.

    >>> serving_batch("Llama 3.3 70B", "H100", 2, 1000, 1000, "fp8")
    256.0

    With a 30 ms latency target (DECODE_STEP_MS at 134 sequences: 29.99 ms):

    >>> serving_batch("Llama 3.3 70B", "H100", 2, 1000, 1000, "fp8", 256, 30)
    134.0
    """
    m = BY_NAME[model]
    memory, bandwidth, peak, link = _serving_figures(gpu, gpus, precision)
    return _replica_batch(
        *_step_shape(m)[:6], memory, bandwidth, peak, gpus,
        prompt_tokens, output_tokens, PRECISION_BYTES[precision], max_batch,
        ms_per_token, bandwidth_util, prefill_mfu, bytes_per_value, link,
    )  # fmt: skip


@formula(
    "SERVING_TOKENS_PER_SEC",
    unit="tokens/s",
    excel=_serving_excel("REPLICA_TOKENS_PER_SEC", _STEP_SHAPE),
    invalid_result=_NO_BATCH,
)
def serving_tokens_per_sec(
    model: str,
    gpu: str,
    gpus: Numbers,
    prompt_tokens: Numbers,
    output_tokens: Numbers,
    precision: OptionalName = "bf16",
    max_batch: Numbers = MAX_BATCH,
    ms_per_token: Numbers | None = None,
    bandwidth_util: Numbers = BANDWIDTH_UTIL,
    prefill_mfu: Numbers = PREFILL_MFU,
    bytes_per_value: Numbers | None = None,
) -> Floats:
    """Output tokens/s one replica of g GPUs sustains at full load, prompts included.

    Formula: ``B · o / (B · PREFILL_MS + o · DECODE_STEP_MS) × 1000``, with B
    the SERVING_BATCH: each request's prompt is processed once (PREFILL_MS,
    on the whole replica), then it holds one of the B places of the batch
    for its o decoding steps (DECODE_STEP_MS at the average context, prompt +
    output ÷ 2). Over R requests the replica spends R · prefill + R · o ·
    step ÷ B seconds for R · o output tokens. Tensor parallelism over the g
    GPUs, with its all-reduces (TP_COMM_MS). REPLICA_TOKENS_PER_SEC with the
    model's shape and the accelerator's figures.

    Returns
    -------
    float or ndarray
        Output tokens per second for the replica (all its g GPUs together);
        ÷ g per GPU, the tokens_per_sec_per_gpu of SERVING_COST_PER_MTOK.
        An estimate of a tuned server (TensorRT-LLM, vLLM) at full load; the
        defaults are calibrated on measured runs (docs/serving.md).

    References
    ----------
    NVIDIA, TensorRT-LLM performance overview (github.com/NVIDIA/TensorRT-LLM,
    docs/source/performance/perf-overview.md): measured maximum throughput,
    the runs the defaults are fitted to (v0.17) and checked against (v1.0,
    and NVIDIA NIM's published benchmarks); docs/serving.md gives the table.
    kipply 2022, "Transformer Inference Arithmetic", for the bounds.

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100 SXM, prompts and outputs of 1,000 tokens:
    TensorRT-LLM v1.0 measured 4,205 tokens/s (perf-overview, H100 TP2 FP8).

    >>> round(serving_tokens_per_sec("Llama 3.3 70B", "H100", 2, 1000, 1000, "fp8"))
    4580
    """
    m = BY_NAME[model]
    memory, bandwidth, peak, link = _serving_figures(gpu, gpus, precision)
    return _replica_tokens(
        *_step_shape(m), memory, bandwidth, peak, gpus,
        prompt_tokens, output_tokens, PRECISION_BYTES[precision], max_batch,
        ms_per_token, bandwidth_util, prefill_mfu, bytes_per_value, link,
    )  # fmt: skip


__all__ = [
    "decode_step_ms",
    "decode_tokens_per_sec",
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
    "serving_peak_tflops",
    "serving_tokens_per_sec",
    "tp_allreduce_ms",
    "tp_comm_ms",
    "zero3_comm_ms",
]
