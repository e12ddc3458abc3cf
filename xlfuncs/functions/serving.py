"""Serving: how fast a model can generate, what a token costs, how many GPUs.

At small batch sizes each decoded token reads every weight once from memory,
so decoding speed is bounded by bandwidth ÷ bytes read per step, not by FLOP/s
(kipply 2022; Databricks' "model bandwidth utilisation", MBU, is achieved over
that bound). A step reads the weights the batch touches and the key/value cache
of every sequence in it. The cost of serving is the GPUs' price over the tokens
they produce. Every function broadcasts like a ufunc.
"""

from __future__ import annotations

import numpy as np

from ..data.models import BY_NAME, FIELDS, value
from ..data.units import (
    BYTES_PER_GB,
    BYTES_PER_TB,
    HALF_PRECISION_BYTES,
    SECONDS_PER_HOUR,
    USABLE_MEMORY,
)
from ..registry import Floats, Numbers, formula
from ..registry.excel import MODEL_KEYS, MODEL_ROW, MODEL_SPECS, key, xl

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


__all__ = [
    "decode_tokens_per_sec",
    "max_decode_batch",
    "model_decode_tokens_per_sec",
    "serving_cost_per_mtok",
    "serving_gpus",
]
