"""Decoding's bounds, the batch memory allows, and what serving costs.

At small batch sizes each decoded token reads every weight once from memory,
so decoding speed is bounded by bandwidth ÷ bytes read per step (kipply 2022;
Databricks' "model bandwidth utilisation", MBU, is achieved over that bound); at
large batch sizes by the FLOPs of the step. A step reads the weights the batch
touches and the key/value cache of every sequence in it, and computes 2 FLOPs a
weight a token it uses, plus the attention over the cache. The cost of serving
is the GPUs' price over the tokens they produce. Every function broadcasts like
a ufunc.
"""

from __future__ import annotations

from ...data.serving import TOKENS_PER_MTOK
from ...data.units import (
    BYTES_PER_GB,
    BYTES_PER_TB,
    FLOPS_PER_TFLOPS,
    HALF_PRECISION_BYTES,
    INFERENCE_FLOPS_PER_PARAM_TOKEN,
    SECONDS_PER_HOUR,
    USABLE_MEMORY,
)
from ...excel.ops import fail, given, maximum, rounddown, roundup, where
from ...registry import Floats, Numbers, formula
from ..models import model_spec
from ..shape import ATTENTION_DECODE, cached_tokens, experts_untouched

_NEED_PEAK = (
    "give peak_tflops_per_gpu past batch 1: the FLOPs of a large batch may take "
    "longer than its reads (GPU_PEAK_TFLOPS)"
)


@formula("DECODE_TOKENS_PER_SEC", unit="tokens/s")
def decode_tokens_per_sec(
    params: Numbers,
    bandwidth_tb_per_s: Numbers,
    bytes_per_param: Numbers = HALF_PRECISION_BYTES,
    gpus: Numbers = 1,
    batch: Numbers = 1,
    kv_cache_gb: Numbers = 0,
    peak_tflops_per_gpu: Numbers | None = None,
) -> Floats:
    """Decoding's bound: batch ÷ the slower of a step's reads and its FLOPs.

    Formula: ``batch / max(reads, flops)`` with reads = ``(params ×
    bytes_per_param + kv_cache_gb × 1e9) / (gpus × bandwidth × 1e12)`` and
    flops = ``batch × 2 × params / (gpus × peak × 1e12)``: each step reads all
    the weights once (split over the GPUs of a tensor-parallel group) and the
    key/value cache of every sequence of the batch (kv_cache_gb: KV_CACHE_GB for
    the batch and its context), computes 2 FLOPs a weight for each sequence,
    and yields one token per sequence. An upper bound: a server reaches a share
    of each (MBU, MFU), communication lowers it further. params is what a step
    reads and computes with; MODEL_DECODE_TOKENS_PER_SEC counts the experts a
    mixture's batch touches. Past batch 1 the FLOPs may bind: give
    peak_tflops_per_gpu (#VALUE! without it); at batch 1 a step's 2 FLOPs a
    weight are far below any GPU's peak for the bytes it reads.

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
    (16·1.5e12) ≈ 22 ms per token at small batch; the FLOPs bind from a batch
    of peak ÷ bandwidth × bytes ÷ 2. Williams et al. 2009, "Roofline", CACM
    52(4): the slower of the two.

    Examples
    --------
    Databricks' example, a 7 B model in 16 bits at 1 TB/s: 14 ms a token.

    >>> round(decode_tokens_per_sec(7e9, 1), 2)
    71.43

    Llama 3 8B on an H100 (3.35 TB/s, 989.4 TFLOP/s) at batch 1,024: the
    reads allow 214,400 tokens/s, the FLOPs 61,838 (16.6 ms a step of 1.6e13
    FLOPs).

    >>> round(decode_tokens_per_sec(8e9, 3.35, 2, 1, 1024, 0, 989.4))
    61838
    """
    read_s = (params * bytes_per_param + kv_cache_gb * BYTES_PER_GB) / (
        gpus * bandwidth_tb_per_s * BYTES_PER_TB
    )
    peak = given(peak_tflops_per_gpu, fail("#VALUE!", _NEED_PEAK))
    flops = batch * INFERENCE_FLOPS_PER_PARAM_TOKEN * params
    compute_s = where(batch > 1, flops / (gpus * peak * FLOPS_PER_TFLOPS), 0)
    return batch / maximum(read_s, compute_s)


@formula("MODEL_DECODE_TOKENS_PER_SEC", unit="tokens/s")
def model_decode_tokens_per_sec(
    model: str,
    bandwidth_tb_per_s: Numbers,
    batch: Numbers = 1,
    seq_len: Numbers | None = None,
    bytes_per_param: Numbers = HALF_PRECISION_BYTES,
    gpus: Numbers = 1,
    bytes_per_value: Numbers | None = None,
    peak_tflops_per_gpu: Numbers | None = None,
) -> Floats:
    """Decoding bound of a named model: the weights its batch touches, its cache, FLOPs.

    Formula: ``batch / max(reads, flops)``. The reads: the parameters W a step
    reads at bytes_per_param, and each sequence's cache of seq_len tokens
    (cache_width values a token and layer, a windowed layer's at most its
    window) at bytes_per_value (16 bits by default), over gpus × bandwidth.
    W is all the parameters of a dense model; for a mixture of experts (E
    routed experts a layer, k per token, N in all, A active) those every token
    uses plus each expert the batch touches, on average ``W = N − (N − A)·E·(1
    − k/E)^B / (E − k)``: A at batch 1, nearly N at batch 32. The FLOPs: 2 a
    weight a token uses and 4 · attention_width a cached token, over gpus ×
    the peak (needed past batch 1, as for DECODE_TOKENS_PER_SEC).

    Returns
    -------
    float or ndarray
        Tokens per second, summed over the batch: an upper bound, as
        DECODE_TOKENS_PER_SEC.

    References
    ----------
    The expected number of distinct experts a batch of B tokens touches,
    E·(1 − (1 − k/E)^B), is the classical occupancy expectation (Feller, "An
    Introduction to Probability Theory and Its Applications", vol. 1, ch. IV),
    routing spread evenly, as load balancing aims at (Fedus et al. 2022, Switch
    Transformers, arXiv 2101.03961). kipply 2022 for the cache. Each model's
    figures: its config.json (MODEL_SPEC).

    Examples
    --------
    Mixtral 8x7B on an H100 (3.35 TB/s): at batch 1 the 12.9 B active
    parameters, 16-bit, bound it at 3.35e12 / 25.8e9 = 129.8 tokens/s.

    >>> round(model_decode_tokens_per_sec("Mixtral 8x7B", 3.35), 1)
    129.8

    At batch 32 the batch touches 8·(1 − 0.75^32) = 7.9992 experts of 8: nearly
    all 46.7 B parameters are read, not 32 × 129.8 (the H100's 989.4 TFLOP/s
    do not bind yet).

    >>> round(model_decode_tokens_per_sec("Mixtral 8x7B", 3.35, 32, None, 2, 1, 2,
    ...                                   989.4))
    1148
    """
    params = model_spec(model, "params")
    active = model_spec(model, "active_params")
    experts = model_spec(model, "experts")
    per_token = model_spec(model, "experts_per_token")
    untouched = experts_untouched(params, active, experts, per_token, batch)
    weights_read = params - untouched
    context = given(seq_len, 0)
    cached = cached_tokens(
        context,
        model_spec(model, "layers"),
        model_spec(model, "window"),
        model_spec(model, "windowed_layers"),
    )
    value_bytes = given(bytes_per_value, HALF_PRECISION_BYTES)
    cache_bytes = batch * cached * model_spec(model, "cache_width") * value_bytes
    read_s = (weights_read * bytes_per_param + cache_bytes) / (
        gpus * bandwidth_tb_per_s * BYTES_PER_TB
    )
    flops = batch * (
        INFERENCE_FLOPS_PER_PARAM_TOKEN * active
        + ATTENTION_DECODE * model_spec(model, "attention_width") * cached
    )
    peak = given(peak_tflops_per_gpu, fail("#VALUE!", _NEED_PEAK))
    compute_s = where(batch > 1, flops / (gpus * peak * FLOPS_PER_TFLOPS), 0)
    return batch / maximum(read_s, compute_s)


@formula(
    "MAX_DECODE_BATCH",
    unit="sequences",
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

    Formula: ``rounddown((usable × memory_gb × gpus − params × bytes_per_param
    / 1e9) / kv_gb_per_sequence)``: the weights (all of a mixture's experts)
    and one sequence's cache (KV_CACHE_GB with batch 1 at the length it grows
    to) per sequence, within usable × memory of each of the GPUs holding the
    model. Rounded down as Excel does, on the 15-digit value (72 GB in 8 GB
    sequences is 9).

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
    room_gb = usable * memory_gb * gpus - params * bytes_per_param / BYTES_PER_GB
    held = rounddown(room_gb / kv_gb_per_sequence)
    return where(held < 1, fail("#NUM!"), held)


@formula("SERVING_COST_PER_MTOK", unit="currency/M tokens")
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
    per_hour = tokens_per_sec_per_gpu * SECONDS_PER_HOUR
    return price_per_gpu_hour / per_hour * TOKENS_PER_MTOK


@formula("SERVING_GPUS", unit="GPUs")
def serving_gpus(
    tokens_per_sec: Numbers,
    tokens_per_sec_per_gpu: Numbers,
    utilization: Numbers = 1,
) -> Floats:
    """Whole GPUs a traffic level needs: tokens/s ÷ (tokens/s per GPU × utilisation).

    Formula: ``roundup(tokens_per_sec / (tokens_per_sec_per_gpu *
    utilization))``, rounded up to whole GPUs as Excel does, on the 15-digit
    value (3,700 tokens/s at 1,850 each is 2 GPUs); utilization below 1 keeps
    headroom for peaks.

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
    return roundup(tokens_per_sec / (tokens_per_sec_per_gpu * utilization))


__all__ = [
    "decode_tokens_per_sec",
    "max_decode_batch",
    "model_decode_tokens_per_sec",
    "serving_cost_per_mtok",
    "serving_gpus",
]
