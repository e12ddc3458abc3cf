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
from ..registry import Floats, InvalidValueError, Numbers, OptionalName, formula
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
from .hardware import INTERCONNECT as INTERCONNECT_TABLE

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


# ---------------------------------------------------- a served model, by name
#
# The functions below take a published model and an accelerator by name, and
# the precision the model is served in. Their Excel expressions read the
# models' and accelerators' tables directly; the precision through the array
# constants below, one entry per accepted spelling.

_GPU_ROW = f"INDEX({ACCELERATOR_ROW},MATCH({key('gpu')},{ACCELERATOR_KEYS},0))"
#: Bytes of a 16-bit activation, as tensor parallelism exchanges them.
_ACTIVATION_BYTES = HALF_PRECISION_BYTES
#: All-reduces a transformer layer's forward pass makes under tensor
#: parallelism: after attention and after the MLP (Shoeybi et al. 2019,
#: Megatron-LM, arXiv 1909.08053, section 3).
_ALLREDUCES_PER_LAYER = 2


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
    return f"INDEX({_PRECISION_BYTES},{_precision('precision')})"


def _kv_bytes_excel() -> str:
    return f"IF(OMITTED(bytes_per_value),{_weight_bytes_excel()},bytes_per_value)"


def _gpu_column(table: str) -> str:
    return f"IFERROR(INDEX({table},{_GPU_ROW})+0,NA())"


def _peak_excel() -> str:
    """TFLOP/s of the precision's column; the bf16 one where the accelerator has
    none, then the fp16 one; #N/A where none of them."""
    column = f"INDEX({_PRECISION_COLUMN},{_precision('precision')})"
    at = [f"INDEX({ACCELERATOR_PEAKS},{_GPU_ROW},{c})+0" for c in (column, "1", "2")]
    return f"IFERROR({at[0]},IFERROR({at[1]},IFERROR({at[2]},NA())))"


def _link_excel(optional: bool = True) -> str:
    """GB/s between GPUs: the link_gb_per_s argument where the function has one
    and it is given, else the accelerator's."""
    table = _gpu_column(INTERCONNECT_TABLE)
    return f"IF(OMITTED(link_gb_per_s),{table},link_gb_per_s)" if optional else table


def _tp_excel(tokens: str, optional: bool = True) -> str:
    """Seconds of a forward pass's all-reduces over ``tokens`` tokens."""
    per = (
        f"({xl(ALLREDUCE_LATENCY_S)}+2*(gpus-1)/gpus*{tokens}*{_field('d_model')}"
        f"*{xl(_ACTIVATION_BYTES)}/({_link_excel(optional)}*{xl(BYTES_PER_GB)}/2))"
    )
    return f"IF(gpus>1,{xl(_ALLREDUCES_PER_LAYER)}*{_field('layers')}*{per},0)"


#: Why the by-name serving and training-memory functions have no Excel form.
_TOO_LONG = (
    "one Excel formula cannot hold it: without LET, each of its many look-ups of "
    "the model and the accelerator is written out where it is used, past Excel's "
    "8,192 characters: lay it out over a few cells (the serving guide shows how)"
)


def _served(model: str, gpu: str) -> tuple[Model, Accelerator]:
    return BY_NAME[model], ACCELERATOR[gpu]


def _bandwidth(acc: Accelerator) -> float:
    """Bytes per second of the accelerator's memory, or #N/A."""
    if acc.bandwidth_tbs is None:
        raise InvalidValueError(
            "#N/A", f"{acc.vendor} publishes no bandwidth for the {acc.name}"
        )
    return acc.bandwidth_tbs * BYTES_PER_TB


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


def _tp_seconds(
    m: Model, gpus: Floats, tokens: Floats, link_gb_per_s: Floats
) -> Floats:
    """Tensor-parallel all-reduces of one forward pass over ``tokens`` tokens.

    A ring all-reduce of S bytes over g GPUs sends 2(g − 1)/g · S from each GPU
    over one direction of its links (NCCL's PERFORMANCE.md: bus bandwidth),
    and takes at least ALLREDUCE_LATENCY_S however small S is.
    """
    volume = 2 * (gpus - 1) / gpus * tokens * m.d_model * _ACTIVATION_BYTES
    one = ALLREDUCE_LATENCY_S + volume / (link_gb_per_s * BYTES_PER_GB / 2)
    with np.errstate(invalid="ignore"):
        return np.where(gpus > 1, _ALLREDUCES_PER_LAYER * m.layers * one, 0.0)


@formula(
    "TP_COMM_MS",
    unit="ms",
    excel=f"{_tp_excel('step_tokens')}*1000",
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
    pays.

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
    return _plain(_tp_seconds(m, gpus, step_tokens, link) * 1000)


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


def _prefill_seconds(
    m: Model, peak: float, gpus: Floats, prompt: Floats, mfu: Floats, link: Floats
) -> Floats:
    flops = (
        INFERENCE_FLOPS_PER_PARAM_TOKEN * m.active * prompt
        + _ATTENTION_PREFILL * m.layers * m.attention_width * prompt**2
    )
    compute = flops / (gpus * peak * FLOPS_PER_TFLOPS * mfu)
    return compute + _tp_seconds(m, gpus, prompt, link)


#: FLOPs of causal attention over a prompt of p tokens, per layer and attention
#: dimension: QKᵀ and the weighted sum of V, 2 FLOPs a product, over the p²/2
#: pairs a causal mask keeps: 2 · 2 · p²/2 = 2p².
_ATTENTION_PREFILL = 2
#: FLOPs of one decoded token's attention over s cached tokens, per layer and
#: attention dimension: 2 · 2 · s.
_ATTENTION_DECODE = 4


def _prefill_excel() -> str:
    flops = (
        f"({xl(INFERENCE_FLOPS_PER_PARAM_TOKEN)}*{_field('active_params')}"
        f"*prompt_tokens+{xl(_ATTENTION_PREFILL)}*{_field('layers')}"
        f"*{_field('attention_width')}*prompt_tokens^2)"
    )
    return (
        f"({flops}/(gpus*{_peak_excel()}*{xl(FLOPS_PER_TFLOPS)}*prefill_mfu)"
        f"+{_tp_excel('prompt_tokens', optional=False)})*1000"
    )


@formula(
    "PREFILL_MS",
    unit="ms",
    excel=_prefill_excel(),
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
    prefill_mfu of the g GPUs' dense peak for the precision (GPU_PEAK_TFLOPS;
    int4 weights run at the 16-bit peak), plus the tensor-parallel
    all-reduces of p tokens.

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
    return _plain(
        _prefill_seconds(m, peak, gpus, prompt_tokens, prefill_mfu, link) * 1000
    )


def _decode_parts(
    m: Model,
    acc: Accelerator,
    gpus: Floats,
    batch: Floats,
    seq_len: Floats,
    weight_bytes: float,
    kv_bytes: Floats,
    bandwidth_util: Floats,
    peak: float,
    mfu: Floats,
) -> tuple[Floats, Floats]:
    """Seconds of a decoding step's reads and of its FLOPs, over the g GPUs."""
    weights = _weights_read(
        float(m.params),
        float(m.active),
        float(m.experts or 1),
        float(m.experts_per_token or 1),
        batch,
    )
    cache = batch * seq_len * _KV * m.layers * m.kv_width * kv_bytes
    reads = (weights * weight_bytes + cache) / (gpus * _bandwidth(acc) * bandwidth_util)
    flops = batch * (
        INFERENCE_FLOPS_PER_PARAM_TOKEN * m.active
        + _ATTENTION_DECODE * m.layers * m.attention_width * seq_len
    )
    return reads, flops / (gpus * peak * FLOPS_PER_TFLOPS * mfu)


@formula(
    "DECODE_STEP_MS",
    unit="ms",
    excel=None,
    excel_note=_TOO_LONG,
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
    peak. A step yields one token per sequence of the batch.

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
    wb = PRECISION_BYTES[precision]
    kv = wb if bytes_per_value is None else bytes_per_value
    reads, flops = _decode_parts(
        m, acc, gpus, batch, seq_len, wb, kv, bandwidth_util, peak, prefill_mfu
    )
    step = np.maximum(reads, flops) + _tp_seconds(m, gpus, batch, link)
    return _plain(step * 1000)


def _serving(
    model: str,
    gpu: str,
    gpus: Floats,
    prompt_tokens: Floats,
    output_tokens: Floats,
    precision: str,
    max_batch: Floats,
    ms_per_token: Floats | None,
    bandwidth_util: Floats,
    prefill_mfu: Floats,
    bytes_per_value: Floats | None,
) -> tuple[Floats, Floats, Floats]:
    """The batch a replica decodes, and the seconds of a prompt and of a step."""
    m, acc = _served(model, gpu)
    peak = _peak_tflops(acc, precision)
    link = _link(acc, gpus, None)
    wb = PRECISION_BYTES[precision]
    kv = wb if bytes_per_value is None else bytes_per_value
    # Each sequence of the batch holds its prompt and, on average, half its output.
    context = prompt_tokens + output_tokens / 2
    per_sequence = context * _KV * m.layers * m.kv_width * kv / BYTES_PER_GB
    if acc.memory_gb is None:
        raise InvalidValueError(
            "#N/A", f"{acc.vendor} publishes no memory for the {acc.name}"
        )
    held = _max_batch(
        float(m.params), acc.memory_gb, per_sequence, wb, gpus, USABLE_MEMORY
    )
    batch = np.minimum(held, max_batch)
    if ms_per_token is not None:
        batch = np.minimum(
            batch,
            _latency_batch(
                m, acc, gpus, context, wb, kv, bandwidth_util, peak, prefill_mfu,
                link, ms_per_token,
            ),
        )  # fmt: skip
    prefill = _prefill_seconds(m, peak, gpus, prompt_tokens, prefill_mfu, link)
    reads, flops = _decode_parts(
        m, acc, gpus, batch, context, wb, kv, bandwidth_util, peak, prefill_mfu
    )
    step = np.maximum(reads, flops) + _tp_seconds(m, gpus, batch, link)
    return batch, prefill, step


def _latency_batch(
    m: Model,
    acc: Accelerator,
    gpus: Floats,
    context: Floats,
    weight_bytes: float,
    kv_bytes: Floats,
    bandwidth_util: Floats,
    peak: float,
    mfu: Floats,
    link: Floats,
    ms_per_token: Floats,
) -> Floats:
    """The largest batch whose decoding step takes at most ms_per_token.

    A step is max(a₁ + b₁·B, b₂·B) + c₀ + c₁·B, each part linear in the batch B
    when every weight is read (a mixture of experts at its largest; the batch
    found meets the target all the more): so the largest B is the smaller of
    (T − a₁ − c₀)/(b₁ + c₁) and (T − c₀)/(b₂ + c₁). NaN where even one sequence
    misses the target.
    """
    bandwidth = gpus * _bandwidth(acc) * bandwidth_util
    compute = gpus * peak * FLOPS_PER_TFLOPS * mfu
    a1 = m.params * weight_bytes / bandwidth
    b1 = context * _KV * m.layers * m.kv_width * kv_bytes / bandwidth
    b2 = (
        INFERENCE_FLOPS_PER_PARAM_TOKEN * m.active
        + _ATTENTION_DECODE * m.layers * m.attention_width * context
    ) / compute
    one = 2 * (gpus - 1) / gpus * m.d_model * _ACTIVATION_BYTES
    with np.errstate(invalid="ignore"):
        tp = np.where(gpus > 1, _ALLREDUCES_PER_LAYER * m.layers, 0.0)
        c0 = tp * ALLREDUCE_LATENCY_S
        c1 = tp * np.where(gpus > 1, one / (link * BYTES_PER_GB / 2), 0.0)
    target = ms_per_token / 1000
    fits = np.minimum((target - a1 - c0) / (b1 + c1), (target - c0) / (b2 + c1))
    # A hair above the exact quotient, as _max_batch.
    batch = np.floor(fits * (1 + 1e-12))
    return np.where(batch >= 1, batch, np.nan)


_SERVING_ARGS = """
    The batch is the largest whose weights and key/value cache fit in 90 % of
    the g GPUs' memory (MAX_DECODE_BATCH) with each sequence holding its
    prompt and half its output, at most max_batch, and at most the batch whose
    step still meets ms_per_token where that is given."""


@formula(
    "SERVING_BATCH",
    unit="sequences",
    excel=None,
    excel_note=_TOO_LONG,
    invalid_result="no batch fits: the weights leave no room for one sequence's "
    "cache (more GPUs, a narrower precision), or one sequence's step misses "
    "ms_per_token",
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
    mixture of experts, so that the target holds all the more).

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
    batch, _, _ = _serving(
        model, gpu, gpus, prompt_tokens, output_tokens, precision, max_batch,
        ms_per_token, bandwidth_util, prefill_mfu, bytes_per_value,
    )  # fmt: skip
    return _plain(batch)


@formula(
    "SERVING_TOKENS_PER_SEC",
    unit="tokens/s",
    excel=None,
    excel_note=_TOO_LONG,
    invalid_result="no batch fits: the weights leave no room for one sequence's "
    "cache (more GPUs, a narrower precision), or one sequence's step misses "
    "ms_per_token",
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
    GPUs, with its all-reduces (TP_COMM_MS).

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
    batch, prefill, step = _serving(
        model, gpu, gpus, prompt_tokens, output_tokens, precision, max_batch,
        ms_per_token, bandwidth_util, prefill_mfu, bytes_per_value,
    )  # fmt: skip
    return _plain(batch * output_tokens / (batch * prefill + output_tokens * step))


__all__ = [
    "decode_step_ms",
    "decode_tokens_per_sec",
    "max_decode_batch",
    "model_decode_tokens_per_sec",
    "prefill_ms",
    "serving_batch",
    "serving_cost_per_mtok",
    "serving_gpus",
    "serving_tokens_per_sec",
    "tp_comm_ms",
    "zero3_comm_ms",
]
