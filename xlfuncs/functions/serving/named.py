"""A served model by name: its prompt, its step, its batch and its speed.

Each function here takes a published model (or a config.json) and an
accelerator by name and the precision it is served in, and is its counterpart
on numbers (:mod:`~xlfuncs.functions.serving.replica`) with the model's shape
(MODEL_SPEC) and the accelerator's figures, generated from those look-ups
(:func:`xlfuncs.registry.by_name.by_name`): written once, there. A request
longer than the model's context is refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...data.accelerators import ACCELERATORS
from ...data.accelerators import BY_NAME as ACCELERATOR
from ...data.serving import REQUEST_MS
from ...data.units import GRADIENT_BYTES, HALF_PRECISION_BYTES
from ...excel.ops import given, where
from ...registry import InvalidValueError, Numbers, OptionalName, formula
from ...registry.by_name import by_name
from ...registry.excel import ACCELERATOR_KEYS, ACCELERATOR_ROW, key, xl
from ...registry.lookups import (
    cache_bytes,
    lookup,
    parallel_code,
    precision_bytes,
    serving_peak,
)
from ..hardware import gpu_bandwidth_tbs, gpu_memory_gb
from ..models import model_spec
from .replica import (
    MS,
    replica_batch,
    replica_prefill_ms,
    replica_step_ms,
    replica_tokens_per_sec,
    tp_allreduce_ms,
)

#: GPUs an in-node link joins where the table says nothing: an HGX server's 8.
NODE_GPUS = 8
#: Bits a byte, for a network's Gb/s.
BITS = 8


def _served_link(gpu: str, gpus: Any) -> Any:
    """GB/s between the GPUs of a replica, both ways: the in-node link's
    (NVLink) up to a node's GPUs, the network's beyond (its Gb/s a GPU, each
    way, as GB/s both ways); #N/A for a figure the vendor does not print."""
    acc = ACCELERATOR[gpu]
    node = acc.node_gpus or NODE_GPUS
    network = acc.network_gbps
    inside = acc.interconnect_gbs
    between = None if network is None else 2 * network / BITS
    if np.ndim(gpus) == 0:
        figure, what = (inside, "GPU-to-GPU") if gpus <= node else (between, "network")
        if figure is None:
            if gpus <= 1:
                return 1.0  # one GPU exchanges nothing
            raise InvalidValueError(
                "#N/A", f"{acc.vendor} publishes no {what} bandwidth for the {acc.name}"
            )
        return float(figure)
    nan = float("nan")
    near = nan if inside is None else inside
    far = nan if between is None else between
    return np.where(gpus <= 1, 1.0, np.where(gpus <= node, near, far))


def _column(values: list[float | None]) -> str:
    """A figure per accelerator as an array constant, read at the named one's
    row; a missing one is text, which +0 makes an error."""
    figures = "{" + ";".join('"-"' if v is None else xl(v) for v in values) + "}"
    row = f"INDEX({ACCELERATOR_ROW},MATCH({key('gpu')},{ACCELERATOR_KEYS},0))"
    return f"INDEX({figures},{row})+0"


_NODE = _column([a.node_gpus or NODE_GPUS for a in ACCELERATORS])
_INSIDE = _column([a.interconnect_gbs for a in ACCELERATORS])
_BETWEEN = _column(
    [
        None if a.network_gbps is None else 2 * a.network_gbps / BITS
        for a in ACCELERATORS
    ]
)  # fmt: skip
#: GB/s a replica's exchanges run over (see _served_link).
served_link = lookup(
    "served_link",
    _served_link,
    f"IF(gpus<=1,1,IFERROR(IF(gpus<={_NODE},{_INSIDE},{_BETWEEN}),NA()))",
    ("gpu", "gpus"),
)


def _shape(*fields: str) -> dict[str, Any]:
    """Look-ups of the named model's fields, by the numeric argument's name."""
    return {f: (lambda f=f, *, model, **_: model_spec(model, f)) for f in fields}


def _past_context(model: Any, prompt_tokens: Any, output_tokens: Any, **_: Any) -> Any:
    return prompt_tokens + output_tokens > model_spec(model, "context")


_PAST = "a prompt and its output past the model's context (MODEL_SPEC's context)"


@formula("SERVING_PEAK_TFLOPS", unit="TFLOP/s")
def serving_peak_tflops(gpu: str, precision: OptionalName = "bf16") -> float:
    """Dense peak TFLOP/s an accelerator runs a serving precision's products at.

    Formula: GPU_PEAK_TFLOPS of the precision's column (bf16, fp16, fp8, int8,
    fp4; int4 weights are widened to 16 bits and run at bf16); where the
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
    return serving_peak(gpu, precision)


@formula("SERVING_WEIGHT_BYTES", unit="bytes")
def serving_weight_bytes(precision: OptionalName = "bf16") -> float:
    """Bytes a weight takes at a serving precision: 2 bf16, 1 fp8, 0.5 int4.

    Formula: the precision's bits ÷ 8; NVFP4 stores 4-bit values with an fp8
    scale for each block of 16, 4.5 bits a weight.

    Returns
    -------
    float
        Bytes a weight: the bytes_per_param of the REPLICA_ functions.

    References
    ----------
    NVIDIA, "Introducing NVFP4 for Efficient and Accurate Low-Precision
    Inference" (2025): "a shared FP8 (E4M3) scale factor" per "16 values";
    Lin et al. 2023 (AWQ, arXiv 2306.00978): 4-bit weights.

    Examples
    --------
    >>> serving_weight_bytes("fp8")
    1.0
    >>> serving_weight_bytes("fp4")
    0.5625
    """
    return precision_bytes(precision)


@formula("SERVING_CACHE_BYTES", unit="bytes")
def serving_cache_bytes(precision: OptionalName = "bf16") -> float:
    """Bytes a cached key or value takes: 1 with fp8 or fp4 weights, else 2.

    Formula: 1 byte where the server caches in fp8 (fp8 and fp4 weights, as
    TensorRT-LLM does), else 16 bits (int8 and int4 weights keep a 16-bit
    cache, vLLM's ``--kv-cache-dtype auto``).

    Returns
    -------
    float
        Bytes a cached value: the bytes_per_value of the REPLICA_ functions.

    References
    ----------
    TensorRT-LLM performance overview: "If you specify FP8 quantization, the
    KV cache will automatically be set to FP8 as well"; vLLM's engine
    arguments, ``--kv-cache-dtype`` (auto: the model's data type).

    Examples
    --------
    >>> serving_cache_bytes("fp8")
    1.0
    >>> serving_cache_bytes("int4")
    2.0
    """
    return cache_bytes(precision)


_SERVED = {
    **_shape(
        "params", "active_params", "layers", "cache_width", "attention_width",
        "d_model", "experts", "experts_per_token", "cache_heads", "window",
        "windowed_layers",
    ),
    "memory_gb": lambda gpu, **_: gpu_memory_gb(gpu),
    "bandwidth_tb_per_s": lambda gpu, **_: gpu_bandwidth_tbs(gpu),
    "peak_tflops_per_gpu": lambda gpu, precision, **_: serving_peak_tflops(
        gpu, precision
    ),
    "bytes_per_param": lambda precision, **_: serving_weight_bytes(precision),
    "expert_parallel": lambda parallel, **_: parallel_code(parallel),
}  # fmt: skip
_CACHE = {"bytes_per_value": lambda precision, **_: serving_cache_bytes(precision)}


@formula(
    "TP_COMM_MS",
    unit="ms",
    invalid_result="the accelerator has no GPU-to-GPU bandwidth in the table: give "
    "link_gb_per_s",
)
def tp_comm_ms(
    model: str,
    gpu: str,
    gpus: Numbers,
    step_tokens: Numbers,
    link_gb_per_s: Numbers | None = None,
) -> Any:
    """Milliseconds a forward pass spends in tensor-parallel all-reduces.

    Formula: TP_ALLREDUCE_MS with the model's layers and d_model, over the
    accelerator's in-node link (GPU_INTERCONNECT_GBS) up to a node's GPUs and
    its network beyond, unless link_gb_per_s is given: two all-reduces a
    layer of the T tokens' d_model-wide 16-bit activations, 8 µs each at the
    least. T is the batch for a decoding step, the prompt's length for prompt
    processing. Not overlapped with compute: what a step pays at most.

    Returns
    -------
    float or ndarray
        Milliseconds per forward pass, on top of its compute and memory time.

    References
    ----------
    As TP_ALLREDUCE_MS: Shoeybi et al. 2019, arXiv 1909.08053; NVIDIA
    nccl-tests doc/PERFORMANCE.md; cli99/llm-analysis.

    Examples
    --------
    Llama 3.1 70B on 4 H100s, a decoding step of 256 sequences: 160
    all-reduces of 256 × 8,192 × 2 bytes, 3/2 of it over 450 GB/s each:
    160 × (8 + 14.0) µs.

    >>> round(tp_comm_ms("Llama 3.1 70B", "H100", 4, 256), 3)
    3.517
    """
    link = given(link_gb_per_s, served_link(gpu, gpus))
    return tp_allreduce_ms(
        model_spec(model, "layers"), model_spec(model, "d_model"), gpus,
        step_tokens, link,
    )  # fmt: skip


@formula(
    "ZERO3_COMM_MS",
    unit="ms",
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
) -> Any:
    """Milliseconds a ZeRO-3 step spends gathering weights and scattering gradients.

    Formula: ``(g − 1)/g · (2 · N · w + N_t · 2) / (link / 2) × 1000``: each
    step gathers the N weights (w bytes each) twice, for the forward and the
    backward pass, and reduce-scatters the N_t trainable parameters' 16-bit
    gradients; each collective sends (g − 1)/g of its data from every GPU
    over one direction of its links (in-node up to a node's GPUs, the network
    beyond). 0 on one GPU. ZeRO prefetches, so much of it hides behind
    compute: the time if none does.

    Returns
    -------
    float or ndarray
        Milliseconds per optimizer step (per micro-batch without gradient
        accumulation), for the g data-parallel GPUs ZeRO shards over.

    References
    ----------
    Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054, section 7.2.2: stage
    3 moves 3Ψ per step, 1.5 times data parallelism's 2Ψ. NVIDIA nccl-tests
    doc/PERFORMANCE.md: all-gather and reduce-scatter move (n − 1)/n of the
    data per rank.

    Examples
    --------
    Llama 3.1 8B, full fine-tuning, 8 H100s: 7/8 × 3 × 16 GB over 450 GB/s.

    >>> round(zero3_comm_ms(8e9, "H100", 8), 1)
    93.3
    """
    link = given(link_gb_per_s, served_link(gpu, gpus))
    trainable = given(trainable_params, params)
    moved = (gpus - 1) / gpus * (2 * params * weight_bytes + trainable * GRADIENT_BYTES)
    return where(gpus > 1, moved / (link * 1e9 / 2) * MS, 0)


_ARGS: dict[str, Any] = {
    "module": __name__,
    "last": (("parallel", "tp"),),
}


def _named(target: Any, name: str, python_name: str, doc: str, **kw: Any) -> Any:
    """``target`` by name: the model's shape, the accelerator's figures and
    link, the precision's bytes, the way the replica is split."""
    lookups = {
        k: v for k, v in _SERVED.items() if k in {a.name for a in target.formula.args}
    }
    args = {a.name for a in target.formula.args}
    if "link_gb_per_s" in args:
        lookups["link_gb_per_s"] = lambda gpu, gpus, **_: served_link(gpu, gpus)
    fallbacks = {k: v for k, v in _CACHE.items() if k in args}
    return by_name(
        name, target, python_name=python_name, doc=doc, lookups=lookups,
        fallbacks=fallbacks, warns=((_heads_split, _HEADS_SPLIT),), **{**_ARGS, **kw},
    )  # fmt: skip


_HEADS_SPLIT = (
    "the replica's GPUs do not divide the model's attention heads: tensor "
    "parallelism splits the heads evenly, so servers refuse it; the estimate "
    "assumes an even split (use a divisor of MODEL_SPEC's heads)"
)


def _heads_split(model: Any, gpus: Any, parallel: Any = "tp", **_: Any) -> Any:
    """Where a tensor-parallel replica's GPUs do not divide the heads."""
    heads = model_spec(model, "heads")
    return (parallel != "ep") & (gpus > 1) & (np.mod(heads, gpus) != 0)


def _past_prompt(model: Any, prompt_tokens: Any, **_: Any) -> Any:
    return prompt_tokens > model_spec(model, "context")


def _past_step(model: Any, seq_len: Any, **_: Any) -> Any:
    return seq_len > model_spec(model, "context")


prefill_ms = _named(
    replica_prefill_ms, "PREFILL_MS", "prefill_ms",
    refusals=((_past_prompt, _PAST),),
    doc="""Milliseconds to process one prompt on a replica (GPU time).

    Formula: ``(2 · A · p + 4 · a · pairs) / (R · peak · mfu)`` in ms, plus
    the exchanges of the p tokens: the prompt's p tokens at 2 FLOPs per active
    parameter A (a forward pass), and causal attention over them (QKᵀ and the
    weighted sum of V over the pairs the mask keeps: p²/2 a full layer, a
    windowed layer's w · p − w²/2; a = heads × head_dim), at prefill_mfu of
    the dense peak for the precision (SERVING_PEAK_TFLOPS; int4 weights run
    at the 16-bit peak) of the R GPUs that run it: the replica's g under
    tensor parallelism (with TP_COMM_MS), one rank's under parallel "ep".
    REPLICA_PREFILL_MS with the model's shape and the accelerator's figures.

    Returns
    -------
    float or ndarray
        Milliseconds of GPU time for one prompt; TIME_TO_FIRST_TOKEN_MS adds
        a request's fixed cost. #NUM! for a prompt past the model's context.

    References
    ----------
    Kaplan et al. 2020, arXiv 2001.08361, table 1; Dao 2023, FlashAttention-2,
    arXiv 2307.08691, section 4. The default prefill_mfu, 60 %, is calibrated
    on TensorRT-LLM's measured runs (docs/serving.md).

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100s (1,978.9 TFLOP/s each), a 1,000-token
    prompt: 140 TFLOPs and 1.3 of attention at 60 %, 59.5 ms, and 7.1 ms of
    all-reduces.

    >>> round(prefill_ms("Llama 3.3 70B", "H100", 2, 1000, "fp8"), 1)
    66.6
    """,
)  # fmt: skip


decode_step_ms = _named(
    replica_step_ms, "DECODE_STEP_MS", "decode_step_ms",
    refusals=((_past_step, _PAST),),
    doc="""Milliseconds of one decoding step of a batch: the time per output token.

    Formula: ``max(reads, FLOPs)`` plus the exchanges, in ms. The reads are
    the weights the batch touches (all of a dense model; for a mixture of
    experts those the batch is routed to) at the precision's bytes, and each
    sequence's cache of seq_len tokens (cache_width values a token and layer:
    keys and values of each KV head, or latent attention's latent; a windowed
    layer's at most its window), over the GPUs' memory bandwidth at
    bandwidth_util. The FLOPs are 2 per active parameter and 4 ·
    attention_width a cached token per sequence, at prefill_mfu of the peak.
    A step yields one token per sequence of the batch (a rank's, with
    parallel "ep"). REPLICA_STEP_MS with the model's shape and the
    accelerator's figures.

    Returns
    -------
    float or ndarray
        Milliseconds per step; the replica produces batch ÷ this tokens per
        millisecond. #NUM! for a context past the model's.

    References
    ----------
    kipply (C. Chen), "Transformer Inference Arithmetic", 2022; Williams et
    al. 2009, "Roofline", CACM 52(4). The defaults (bandwidth_util 55 %,
    prefill_mfu 60 %) are what a plain decode and a prompt reach when
    measured (docs/serving.md).

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100s, 256 sequences of 1,500 tokens: 70 GB of
    weights and 62.9 GB of fp8 cache at 55 % of 6.7 TB/s, 36.1 ms, and 2.8
    ms of all-reduces.

    >>> round(decode_step_ms("Llama 3.3 70B", "H100", 2, 256, 1500, "fp8"), 1)
    38.8
    """,
)  # fmt: skip


serving_batch = _named(
    replica_batch, "SERVING_BATCH", "serving_batch",
    refusals=((_past_context, _PAST),),
    doc="""Sequences a replica decodes at once at full load: its serving batch.

    Formula: the smallest of the memory batch, max_batch and the latency
    batch. The memory batch: the cache's share of the GPUs' memory less the
    weights, over one sequence's cache at its whole length (prompt + output
    tokens, in bytes_per_value: the precision's cache width by default; a
    windowed layer's at most its window; copied on every GPU under latent
    attention). The latency batch, where ms_per_token is given, is the largest
    whose time per output token under load meets it (LATENCY_BATCH). With
    parallel "ep", a rank's: each GPU's own sequences. REPLICA_BATCH with the
    model's shape and the accelerator's figures.

    Returns
    -------
    float or ndarray
        Sequences, a whole number; #NUM! where none fits, or for a request
        past the model's context.

    References
    ----------
    TensorRT-LLM's benchmark sizes its batch from the memory left for the
    cache, each request at its whole length, up to 4,096; vLLM's
    --max-num-seqs is 256 by default: give max_batch 256 for a vLLM server.
    The default 384 stands in for what each sequence costs a step besides its
    reads and FLOPs (docs/serving.md).

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100s, prompts and outputs of 1,000 tokens:
    0.9 × (171.04 − 70) = 90.94 GB of room for 0.328 GB a sequence.

    >>> serving_batch("Llama 3.3 70B", "H100", 2, 1000, 1000, "fp8")
    277.0
    """,
)  # fmt: skip


serving_tokens_per_sec = _named(
    replica_tokens_per_sec, "SERVING_TOKENS_PER_SEC", "serving_tokens_per_sec",
    refusals=((_past_context, _PAST),),
    doc="""Output tokens/s one replica of g GPUs sustains at full load, prompts and all.

    Formula: ``n · B · o / (B · PREFILL_MS + o · DECODE_STEP_MS) × 1000``, with
    B the SERVING_BATCH: each request's prompt is processed once, then it
    holds one of the B places of the batch for its o decoding steps (at the
    average context, prompt + output ÷ 2). parallel "tp" (default): the g GPUs
    split every layer (n = 1). parallel "ep": each GPU runs attention for its
    own B sequences and holds 1/g of a mixture's experts (n = g ranks).
    REPLICA_TOKENS_PER_SEC with the model's shape and the accelerator's
    figures.

    Returns
    -------
    float or ndarray
        Output tokens per second for the replica (all its g GPUs together);
        ÷ g per GPU, the tokens_per_sec_per_gpu of SERVING_COST_PER_MTOK. An
        estimate of a tuned server (TensorRT-LLM) at full load, checked on
        measured runs (docs/serving.md); a measured figure, where you have one,
        is better.

    References
    ----------
    NVIDIA, TensorRT-LLM performance overview (github.com/NVIDIA/TensorRT-LLM,
    docs/source/performance/perf-overview.md); kipply 2022, "Transformer
    Inference Arithmetic", for the bounds.

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100 SXM, prompts and outputs of 1,000 tokens:
    TensorRT-LLM v1.0 measured 4,205 tokens/s (perf-overview, H100 TP2 FP8).

    >>> round(serving_tokens_per_sec("Llama 3.3 70B", "H100", 2, 1000, 1000, "fp8"))
    4710
    """,
)  # fmt: skip


@formula("TIME_TO_FIRST_TOKEN_MS", unit="ms")
def time_to_first_token_ms(
    model: str,
    gpu: str,
    gpus: Numbers,
    prompt_tokens: Numbers,
    precision: OptionalName = "bf16",
    request_ms: Numbers = REQUEST_MS,
) -> Any:
    """Milliseconds from a request to its first token on an idle replica.

    Formula: ``PREFILL_MS + request_ms``: the prompt's processing, and what
    every request costs whatever its length (scheduling, tokenizing, the first
    step): 8 ms by default. Under load a request also waits its turn.

    Returns
    -------
    float or ndarray
        Milliseconds; #NUM! for a prompt past the model's context.

    References
    ----------
    NVIDIA NIM 1.8.0, Llama 3.3 70B on 2 H100 in fp8, one request at a time:
    47.77 ms for a 500-token prompt, 406.77 ms for 5,000 (docs/serving.md):
    a straight line through them meets 0 tokens at 7.9 ms.

    Examples
    --------
    The 5,000-token prompt, 339 ms at 60 % of two H100s' fp8 peak and 8 ms:
    0.85 of the 406.77 ms NIM measured, whose prompts run below that share.

    >>> round(time_to_first_token_ms("Llama 3.3 70B", "H100", 2, 5000, "fp8"))
    347
    """
    return prefill_ms(model, gpu, gpus, prompt_tokens, precision) + request_ms


__all__ = [
    "decode_step_ms",
    "prefill_ms",
    "serving_batch",
    "serving_peak_tflops",
    "serving_tokens_per_sec",
    "served_link",
    "time_to_first_token_ms",
    "tp_comm_ms",
    "zero3_comm_ms",
]
