"""One serving replica from the model's shape as numbers: its steps, batch and speed.

A replica is g GPUs holding one copy of the model. Under tensor parallelism
(``expert_parallel`` 0) every layer is split over them and they decode one
batch together, exchanging activations twice a layer (all-reduces). Under
attention data-parallelism with expert parallelism (``expert_parallel`` 1, as
TensorRT-LLM, SGLang and vLLM serve DeepSeek-V3 and the Qwen3 mixtures) each
GPU is a *rank*: it holds the attention and every dense weight, 1/g of the
routed experts and the cache of its own sequences, runs attention for them,
and sends each token to its experts' GPUs and back (all-to-all). A rank's batch
is then its own sequences; the replica serves g of them.

A step reads weights and caches at a share of the memory bandwidth and
computes at a share of the peak; the slower of the two, plus the
communication, is its time. The functions by name
(:mod:`~xlfuncs.functions.serving.named`) call these with a published model's
shape and an accelerator's figures.
"""

from __future__ import annotations

from ...data.serving import (
    ALLREDUCE_LATENCY_S,
    BANDWIDTH_UTIL,
    CACHE_SHARE,
    MAX_BATCH,
    PREFILL_MFU,
)
from ...data.units import (
    BYTES_PER_GB,
    BYTES_PER_TB,
    FLOPS_PER_TFLOPS,
    HALF_PRECISION_BYTES,
    INFERENCE_FLOPS_PER_PARAM_TOKEN,
)
from ...excel.ops import fail, given, maximum, minimum, omitted, rounddown, where
from ...registry import Floats, Numbers, formula
from ..shape import (
    ATTENTION_DECODE,
    ATTENTION_PREFILL,
    attention_pairs,
    cached_tokens,
    expert_params,
    experts_untouched,
    refused_shape,
)

#: Bytes of a 16-bit activation, as the GPUs exchange them.
ACTIVATION_BYTES = HALF_PRECISION_BYTES
#: All-reduces a layer's forward pass makes under tensor parallelism: after
#: attention and after the MLP (Shoeybi et al. 2019, Megatron-LM, arXiv
#: 1909.08053, section 3); all-to-alls a mixture's layer makes under expert
#: parallelism: dispatch to the experts and combine (Lepikhin et al. 2020,
#: GShard, arXiv 2006.16668, section 3.2).
EXCHANGES_PER_LAYER = 2
MS = 1000  # milliseconds a second

NEED_LINK = (
    "give link_gb_per_s for more than one GPU: the GPU-to-GPU bandwidth the "
    "exchanges run over (GPU_INTERCONNECT_GBS)"
)
NO_BATCH = (
    "no batch fits: the weights leave no room for one sequence's cache (more "
    "GPUs, a narrower precision), or one sequence's step misses ms_per_token"
)


def resolved_link(gpus: Numbers, link_gb_per_s: Numbers) -> Numbers:
    """link_gb_per_s, needed past one GPU (1 on one GPU, where nothing moves):
    a body passes the result to the functions it calls."""
    return where(
        omitted(link_gb_per_s),
        where(gpus > 1, fail("#VALUE!", NEED_LINK), 1),
        link_gb_per_s,
    )


def exchanges(
    layers: Numbers,
    d_model: Numbers,
    gpus: Numbers,
    link: Numbers,
    expert_parallel: Numbers = 0,
    experts_per_token: Numbers = 1,
) -> tuple[Numbers, Numbers]:
    """How many exchanges a forward pass makes between a replica's GPUs (two a
    layer, none on one GPU), and the seconds each takes per token it carries:
    a ring all-reduce sends 2(g − 1)/g of a token's d_model-wide 16-bit
    activation from each GPU; an all-to-all sends its k copies, (g − 1)/g of
    them to other GPUs; over one direction of the links (half of ``link``,
    GB/s both ways: :func:`resolved_link`)."""
    count = where(gpus > 1, EXCHANGES_PER_LAYER * layers, 0)
    copies = where(expert_parallel, experts_per_token, 2)
    moved = copies * (gpus - 1) / gpus * d_model * ACTIVATION_BYTES
    return count, where(gpus > 1, moved / (link * BYTES_PER_GB / 2), 0)


@formula("TP_ALLREDUCE_MS", unit="ms")
def tp_allreduce_ms(
    layers: Numbers,
    d_model: Numbers,
    gpus: Numbers,
    step_tokens: Numbers,
    link_gb_per_s: Numbers | None = None,
) -> Floats:
    """Milliseconds of a forward pass's tensor-parallel all-reduces, from the shape.

    Formula: ``2 · L · (α + 2(g − 1)/g · d · 2 / (link / 2) · T) × 1000`` for
    g > 1 GPUs (0 on one): two all-reduces a layer of the T tokens' d_model-wide
    16-bit activations, sent by a ring over one direction of each GPU's links
    (half of link_gb_per_s), and α = 8 µs each at the least.

    Returns
    -------
    float or ndarray
        Milliseconds per forward pass; link_gb_per_s is needed for more than
        one GPU.

    References
    ----------
    Shoeybi et al. 2019, "Megatron-LM", arXiv 1909.08053, section 3; NVIDIA,
    nccl-tests doc/PERFORMANCE.md: an all-reduce moves 2(n − 1)/n of the data
    over each rank's links; cli99/llm-analysis (get_latency_fwd_per_tp_comm,
    gpu_configs/h100-sxm-80gb.json): one direction of NVLink, and 8 µs at the
    least.

    Examples
    --------
    Llama 3.1 70B's 80 layers of 8,192 on 4 H100s (NVLink 900 GB/s), 256
    tokens: 160 × (8 + 14.0) µs.

    >>> round(tp_allreduce_ms(80, 8192, 4, 256, 900), 3)
    3.517
    """
    link = resolved_link(gpus, link_gb_per_s)
    allreduces, per_token_s = exchanges(layers, d_model, gpus, link)
    return allreduces * (ALLREDUCE_LATENCY_S + per_token_s * step_tokens) * MS


@formula("EP_ALLTOALL_MS", unit="ms")
def ep_alltoall_ms(
    layers: Numbers,
    d_model: Numbers,
    experts_per_token: Numbers,
    gpus: Numbers,
    step_tokens: Numbers,
    link_gb_per_s: Numbers | None = None,
) -> Floats:
    """Milliseconds a rank spends sending its tokens to their experts and back.

    Formula: ``2 · L · (α + (g − 1)/g · k · d · 2 / (link / 2) · T) × 1000``
    for g > 1 GPUs (0 on one): in each layer a rank dispatches each of its T
    tokens' d_model-wide 16-bit activations to the k experts it is routed to,
    (g − 1)/g of them on other GPUs, and combines their outputs back, over one
    direction of its links; α = 8 µs each at the least. Every layer is counted
    as a mixture's, an upper bound where some layers are dense.

    Returns
    -------
    float or ndarray
        Milliseconds per forward pass of one rank.

    References
    ----------
    Lepikhin et al. 2020, "GShard", arXiv 2006.16668, section 3.2: an
    all-to-all dispatches tokens to the experts' devices and one combines
    them; DeepSeek-AI 2024, "DeepSeek-V3 Technical Report", arXiv 2412.19437,
    section 3.4: dispatch and combine per layer, at most 4 nodes a token.

    Examples
    --------
    DeepSeek-V3's 61 layers of 7,168, 8 experts a token, over 8 H200s (NVLink
    900 GB/s), 128 tokens a rank: each token's 8 copies, 7/8 of them leaving,
    of 7,168 values in 2 bytes is 100,352 bytes, 12.85 MB for 128, 28.54 µs at
    450 GB/s one way; 122 × (8 + 28.54) µs.

    >>> round(ep_alltoall_ms(61, 7168, 8, 8, 128, 900), 2)
    4.46
    """
    link = resolved_link(gpus, link_gb_per_s)
    alltoalls, per_token_s = exchanges(
        layers, d_model, gpus, link, 1, experts_per_token
    )
    return alltoalls * (ALLREDUCE_LATENCY_S + per_token_s * step_tokens) * MS


@formula("REPLICA_PREFILL_MS", unit="ms")
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
    window: Numbers = 0,
    windowed_layers: Numbers = 0,
    expert_parallel: Numbers = 0,
    experts_per_token: Numbers = 1,
) -> Floats:
    """Milliseconds the GPUs spend processing one prompt, from the shape as numbers.

    Formula: ``(2 · A · p + 4 · a · pairs) / (R · peak · mfu) × 1000`` plus the
    exchanges of p tokens: the prompt's p tokens at 2 FLOPs per active
    parameter A, and causal attention over them (a = attention_width; pairs =
    L · p²/2, a windowed layer's w · p − w²/2 past its window), at prefill_mfu
    of the dense peak of the R GPUs that run it: the replica's g under tensor
    parallelism (with TP_ALLREDUCE_MS), its own rank's one under expert
    parallelism (with EP_ALLTOALL_MS).

    Returns
    -------
    float or ndarray
        Milliseconds of GPU time for one prompt; the time to first token adds
        a request's fixed cost (TIME_TO_FIRST_TOKEN_MS).

    References
    ----------
    Kaplan et al. 2020, arXiv 2001.08361, table 1: a forward pass costs 2N
    FLOPs a token, plus 2·L·d_attn·n_ctx for attention; Dao 2023,
    FlashAttention-2, arXiv 2307.08691, section 4: a causal mask halves the
    attention's FLOPs; Beltagy et al. 2020, "Longformer", arXiv 2004.05150: a
    sliding window of w makes attention linear in the length. The default
    prefill_mfu, 60 %, is calibrated on TensorRT-LLM's measured runs
    (docs/serving.md).

    Examples
    --------
    Llama 3.3 70B (80 layers of 8,192) in fp8 on 2 H100s (1,978.9 TFLOP/s, 900
    GB/s NVLink), a 1,000-token prompt: 140 TFLOPs and 1.3 of attention at 60 %,
    59.5 ms, and 7.1 ms of all-reduces.

    >>> round(replica_prefill_ms(70e9, 80, 8192, 8192, 1978.9, 2, 1000, 900), 1)
    66.6
    """
    pairs = attention_pairs(prompt_tokens, layers, window, windowed_layers)
    flops = (
        INFERENCE_FLOPS_PER_PARAM_TOKEN * active_params * prompt_tokens
        + ATTENTION_PREFILL * attention_width * pairs
    )
    ranks = where(expert_parallel, 1, gpus)
    compute_ms = (
        flops / (ranks * peak_tflops_per_gpu * FLOPS_PER_TFLOPS * prefill_mfu) * MS
    )
    link = resolved_link(gpus, link_gb_per_s)
    count, per_token_s = exchanges(
        layers, d_model, gpus, link, expert_parallel, experts_per_token
    )
    exchange_ms = count * (ALLREDUCE_LATENCY_S + per_token_s * prompt_tokens) * MS
    return compute_ms + exchange_ms


@formula("REPLICA_STEP_MS", unit="ms")
def replica_step_ms(
    params: Numbers,
    active_params: Numbers,
    layers: Numbers,
    cache_width: Numbers,
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
    cache_heads: Numbers = 0,
    window: Numbers = 0,
    windowed_layers: Numbers = 0,
    expert_parallel: Numbers = 0,
) -> Floats:
    """Milliseconds of one decoding step of a batch, from the shape as numbers.

    Formula: ``max(reads, FLOPs) × 1000`` plus the exchanges of the batch.
    The reads: the weights the step touches at bytes_per_param, and each
    sequence's cache of seq_len tokens (cache_width values a token and layer,
    a windowed layer's at most its window, bytes_per_value each), over R ×
    bandwidth × bandwidth_util. The FLOPs: B · (2 · A + 4 · a · cached
    tokens), over R × peak × prefill_mfu. Tensor parallelism (R = g): the
    replica's batch B, all weights but the experts no token of it is routed
    to, the cache copied where the GPUs outnumber its heads (cache_heads: one
    latent under latent attention is on every GPU). Expert parallelism (R =
    1, B a rank's sequences): the rank's attention and dense weights, and its
    1/g of the experts the g·B tokens of all ranks are routed to.

    Returns
    -------
    float or ndarray
        Milliseconds per step: the time per output token (TPOT) each user sees
        between prompts; LATENCY_BATCH adds what other requests' prompts put
        into the steps.

    References
    ----------
    kipply (C. Chen), "Transformer Inference Arithmetic", 2022; Williams et
    al. 2009, "Roofline", CACM 52(4); Feller's occupancy expectation for the
    experts (MODEL_DECODE_TOKENS_PER_SEC); DeepSeek-AI 2024, arXiv
    2412.19437: latent attention caches 512 + 64 values a token and layer.

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100s (3.35 TB/s each), 256 sequences of 1,500
    tokens, the cache in fp8 (2 × 8 × 128 = 2,048 values a token and layer):

    >>> round(replica_step_ms(70e9, 70e9, 80, 2048, 8192, 8192, 1, 1, 3.35,
    ...                       1978.9, 2, 256, 1500, 900, 1), 1)
    38.8
    """
    value_bytes = given(bytes_per_value, bytes_per_param)
    cached = cached_tokens(seq_len, layers, window, windowed_layers)
    copies = where(
        expert_parallel,
        1,
        where(cache_heads > 0, maximum(gpus, cache_heads) / cache_heads, 1),
    )
    cache_bytes = batch * cached * cache_width * value_bytes * copies
    experts_held = expert_params(params, active_params, experts, experts_per_token)
    routed = where(expert_parallel, batch * gpus, batch)
    untouched = experts_untouched(
        params, active_params, experts, experts_per_token, routed
    )
    weights_read = where(
        expert_parallel,
        params - experts_held + (experts_held - untouched) / gpus,
        params - untouched,
    )
    ranks = where(expert_parallel, 1, gpus)
    read_s = (weights_read * bytes_per_param + cache_bytes) / (
        ranks * bandwidth_tb_per_s * BYTES_PER_TB * bandwidth_util
    )
    flops = batch * (
        INFERENCE_FLOPS_PER_PARAM_TOKEN * active_params
        + ATTENTION_DECODE * attention_width * cached
    )
    compute_s = flops / (ranks * peak_tflops_per_gpu * FLOPS_PER_TFLOPS * prefill_mfu)
    link = resolved_link(gpus, link_gb_per_s)
    count, per_token_s = exchanges(
        layers, d_model, gpus, link, expert_parallel, experts_per_token
    )
    exchange_ms = count * (ALLREDUCE_LATENCY_S + per_token_s * batch) * MS
    step_ms = maximum(read_s, compute_s) * MS + exchange_ms
    return refused_shape(step_ms, params, active_params, experts, experts_per_token)


@formula(
    "LATENCY_BATCH",
    unit="sequences",
    invalid_result="no batch meets ms_per_token: one sequence's step, with its "
    "share of the other requests' prompts, already takes longer",
)
def latency_batch(
    params: Numbers,
    active_params: Numbers,
    layers: Numbers,
    cache_width: Numbers,
    attention_width: Numbers,
    d_model: Numbers,
    experts: Numbers,
    experts_per_token: Numbers,
    bandwidth_tb_per_s: Numbers,
    peak_tflops_per_gpu: Numbers,
    gpus: Numbers,
    prompt_tokens: Numbers,
    output_tokens: Numbers,
    ms_per_token: Numbers,
    link_gb_per_s: Numbers | None = None,
    bytes_per_param: Numbers = HALF_PRECISION_BYTES,
    bandwidth_util: Numbers = BANDWIDTH_UTIL,
    prefill_mfu: Numbers = PREFILL_MFU,
    bytes_per_value: Numbers | None = None,
    cache_heads: Numbers = 0,
    window: Numbers = 0,
    windowed_layers: Numbers = 0,
    expert_parallel: Numbers = 0,
) -> Floats:
    """Largest batch whose time per output token, under load, meets a latency target.

    Formula: ``rounddown(min((T − a₁ − c₀) / (b₁ + c₁ + f), (T − c₀) / (b₂ +
    c₁ + f)))``, T = ms_per_token ÷ 1000. Under load each step of B sequences
    takes REPLICA_STEP_MS, max(a₁ + b₁·B, b₂·B) + c₀ + c₁·B with every weight
    read (a mixture at its largest, so the target holds all the more): a₁ the
    weights' read time, b₁ a sequence's cache read time, b₂ a sequence's
    compute time, c₀ + c₁·B the exchanges; and, as each request holds its
    place for o steps, B/o new prompts a step join it (chunked prefill), f·B
    with f = REPLICA_PREFILL_MS ÷ o, g times that under expert parallelism,
    where every rank waits for the g ranks' prompts. All at the average
    context, prompt + output ÷ 2.

    Returns
    -------
    float or ndarray
        Sequences (a rank's, under expert parallelism), a whole number; #NUM!
        where one sequence misses the target.

    References
    ----------
    kipply (C. Chen), "Transformer Inference Arithmetic", 2022: a step's time
    grows with the batch's cache reads and FLOPs. Agrawal et al. 2024,
    "Sarathi-Serve", arXiv 2403.02310: with chunked prefill each decoding
    iteration also carries prompt chunks. NVIDIA NIM 1.8.0's Llama 3.3 70B
    benchmark (2 H100, fp8, 5,000/500 tokens): 38.75 ms a token at 25
    concurrent requests (docs/serving.md).

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100s, 5,000-token prompts and 500-token
    outputs, 40 ms a token. At 55 % of 2 × 3.35 TB/s the weights take a₁ =
    19.00 ms and a sequence's 80 × 5,250 × 2,048 cached bytes b₁ = 0.233 ms;
    160 all-reduces c₀ = 1.28 ms and c₁ = 0.006 ms; a 5,000-token prompt takes
    339 ms, f = 0.678 ms a sequence. (40 − 19.00 − 1.28) ÷ (0.233 + 0.006 +
    0.678) = 21.5: 21 requests, where NIM ran 25 at 38.75 ms.

    >>> latency_batch(70e9, 70e9, 80, 2048, 8192, 8192, 1, 1, 3.35, 1978.9, 2,
    ...               5000, 500, 40, 900, 1)
    21.0
    """
    value_bytes = given(bytes_per_value, bytes_per_param)
    context = prompt_tokens + output_tokens / 2
    cached = cached_tokens(context, layers, window, windowed_layers)
    copies = where(
        expert_parallel,
        1,
        where(cache_heads > 0, maximum(gpus, cache_heads) / cache_heads, 1),
    )
    experts_held = expert_params(params, active_params, experts, experts_per_token)
    weights_held = where(
        expert_parallel, params - experts_held + experts_held / gpus, params
    )
    ranks = where(expert_parallel, 1, gpus)
    reads = ranks * bandwidth_tb_per_s * BYTES_PER_TB * bandwidth_util
    weights_s = weights_held * bytes_per_param / reads
    cache_s = cached * cache_width * value_bytes * copies / reads
    compute_s = (
        INFERENCE_FLOPS_PER_PARAM_TOKEN * active_params
        + ATTENTION_DECODE * attention_width * cached
    ) / (ranks * peak_tflops_per_gpu * FLOPS_PER_TFLOPS * prefill_mfu)
    link = resolved_link(gpus, link_gb_per_s)
    count, per_token_s = exchanges(
        layers, d_model, gpus, link, expert_parallel, experts_per_token
    )
    exchange_s = count * ALLREDUCE_LATENCY_S
    exchange_per_sequence_s = count * per_token_s
    # Each MoE layer's all-to-all joins a replica's ranks: under expert
    # parallelism a rank waits for every rank's prompts.
    waits = where(expert_parallel, gpus, 1)
    prompt_share_s = waits * (
        replica_prefill_ms(
            active_params, layers, attention_width, d_model, peak_tflops_per_gpu,
            gpus, prompt_tokens, link, prefill_mfu, window, windowed_layers,
            expert_parallel, experts_per_token,
        ) / MS / output_tokens
    )  # fmt: skip
    slack_s = ms_per_token / MS - exchange_s
    per_sequence_s = exchange_per_sequence_s + prompt_share_s
    by_reads = (slack_s - weights_s) / (cache_s + per_sequence_s)
    by_flops = slack_s / (compute_s + per_sequence_s)
    fits = minimum(by_reads, by_flops)
    batch = where(fits < 1, fail("#NUM!"), rounddown(fits))
    return refused_shape(batch, params, active_params, experts, experts_per_token)


@formula("REPLICA_BATCH", unit="sequences", invalid_result=NO_BATCH)
def replica_batch(
    params: Numbers,
    active_params: Numbers,
    layers: Numbers,
    cache_width: Numbers,
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
    ms_per_token: Numbers = 0,
    bandwidth_util: Numbers = BANDWIDTH_UTIL,
    prefill_mfu: Numbers = PREFILL_MFU,
    bytes_per_value: Numbers | None = None,
    cache_heads: Numbers = 0,
    window: Numbers = 0,
    windowed_layers: Numbers = 0,
    expert_parallel: Numbers = 0,
    cache_share: Numbers = CACHE_SHARE,
) -> Floats:
    """Sequences a replica (or a rank) decodes at once at full load, from the shape.

    Formula: the smallest of the memory batch, max_batch and, where
    ms_per_token is given, LATENCY_BATCH. The memory batch: cache_share of
    what the GPUs' memory leaves beside the weights they hold, over one
    sequence's cache
    at its whole length (prompt + output tokens: a server admits a request
    only while its whole cache fits), rounded down. Tensor parallelism: the g
    GPUs hold the weights once and the cache, copied where they outnumber its
    heads. Expert parallelism: a rank holds the attention and dense weights,
    1/g of the experts, and its own sequences' cache.

    Returns
    -------
    float or ndarray
        Sequences (a rank's, under expert parallelism), a whole number; #NUM!
        where none fits.

    References
    ----------
    TensorRT-LLM's benchmark (trtllm-bench, tensorrt_llm/bench/build/tuning.py)
    sizes its batch from the memory left for the cache, each request at its
    input plus output length, capped at 4,096, the cache taking
    kv_cache_free_gpu_mem_fraction of the memory the weights leave; vLLM decodes
    at most --max-num-seqs sequences, 256 by default (vLLM engine arguments).

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100s (85.52 GB each), prompts and outputs of
    1,000 tokens, a 2,000-token cache of 80 × 2,000 × 2,048 bytes, 0.328 GB, in
    fp8: 0.9 × (171.04 − 70) = 90.94 GB of room hold 277 sequences; with a
    30 ms target, fewer.

    >>> replica_batch(70e9, 70e9, 80, 2048, 8192, 8192, 1, 1, 85.520809984, 3.35,
    ...               1978.9, 2, 1000, 1000, 900, 1)
    277.0
    >>> replica_batch(70e9, 70e9, 80, 2048, 8192, 8192, 1, 1, 85.520809984, 3.35,
    ...               1978.9, 2, 1000, 1000, 900, 1, 4096, 30)
    69.0
    """
    value_bytes = given(bytes_per_value, bytes_per_param)
    length = prompt_tokens + output_tokens
    sequence_gb = (
        cached_tokens(length, layers, window, windowed_layers) * cache_width
        * value_bytes / BYTES_PER_GB
    )  # fmt: skip
    copies = where(
        expert_parallel,
        1,
        where(cache_heads > 0, maximum(gpus, cache_heads) / cache_heads, 1),
    )
    experts_held = expert_params(params, active_params, experts, experts_per_token)
    weights_gb = where(
        expert_parallel,
        params - experts_held + experts_held / gpus,
        params,
    ) * bytes_per_param / BYTES_PER_GB  # fmt: skip
    room_gb = cache_share * (memory_gb * where(expert_parallel, 1, gpus) - weights_gb)
    held = rounddown(room_gb / (sequence_gb * copies))
    by_memory = minimum(where(held < 1, fail("#NUM!"), held), max_batch)
    link = resolved_link(gpus, link_gb_per_s)
    batch = where(
        ms_per_token > 0,
        minimum(
            by_memory,
            latency_batch(
                params, active_params, layers, cache_width, attention_width,
                d_model, experts, experts_per_token, bandwidth_tb_per_s,
                peak_tflops_per_gpu, gpus, prompt_tokens, output_tokens,
                ms_per_token, link, bytes_per_param, bandwidth_util,
                prefill_mfu, value_bytes, cache_heads, window,
                windowed_layers, expert_parallel,
            ),
        ),
        by_memory,
    )  # fmt: skip
    return refused_shape(batch, params, active_params, experts, experts_per_token)


@formula("REPLICA_TOKENS_PER_SEC", unit="tokens/s", invalid_result=NO_BATCH)
def replica_tokens_per_sec(
    params: Numbers,
    active_params: Numbers,
    layers: Numbers,
    cache_width: Numbers,
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
    ms_per_token: Numbers = 0,
    bandwidth_util: Numbers = BANDWIDTH_UTIL,
    prefill_mfu: Numbers = PREFILL_MFU,
    bytes_per_value: Numbers | None = None,
    cache_heads: Numbers = 0,
    window: Numbers = 0,
    windowed_layers: Numbers = 0,
    expert_parallel: Numbers = 0,
    cache_share: Numbers = CACHE_SHARE,
) -> Floats:
    """Output tokens/s one replica sustains at full load, from the shape as numbers.

    Formula: ``n · B · o / (n · B · PREFILL + o · STEP) × 1000``: each
    request's prompt is processed once (REPLICA_PREFILL_MS), then it holds one
    of the B places of the batch (REPLICA_BATCH) for its o decoding steps
    (REPLICA_STEP_MS at the average context, prompt + output ÷ 2). Over R
    requests a rank spends R · prefill + R · o · step ÷ B for R · o output
    tokens. n = 1 under tensor parallelism; under expert parallelism the g
    ranks, each of which waits for every rank's prompts (each MoE layer's
    all-to-all joins them).

    Returns
    -------
    float or ndarray
        Output tokens per second for the replica (all its g GPUs together).

    References
    ----------
    NVIDIA, TensorRT-LLM performance overview (github.com/NVIDIA/TensorRT-LLM,
    docs/source/performance/perf-overview.md): the measured runs the defaults
    are checked against (docs/serving.md).

    Examples
    --------
    Llama 3.3 70B in fp8 on 2 H100 SXM, prompts and outputs of 1,000 tokens
    (TensorRT-LLM v1.0 measured 4,205): 277 sequences (REPLICA_BATCH's
    example), each a 1,000-token prompt and then 1,000 steps:

    >>> round(replica_tokens_per_sec(70e9, 70e9, 80, 2048, 8192, 8192, 1, 1,
    ...                              85.520809984, 3.35, 1978.9, 2, 1000, 1000,
    ...                              900, 1))
    4710
    """
    link = resolved_link(gpus, link_gb_per_s)
    value_bytes = given(bytes_per_value, bytes_per_param)
    batch = replica_batch(
        params, active_params, layers, cache_width, attention_width, d_model,
        experts, experts_per_token, memory_gb, bandwidth_tb_per_s,
        peak_tflops_per_gpu, gpus, prompt_tokens, output_tokens, link,
        bytes_per_param, max_batch, ms_per_token, bandwidth_util, prefill_mfu,
        value_bytes, cache_heads, window, windowed_layers, expert_parallel,
        cache_share,
    )  # fmt: skip
    prefill_ms = replica_prefill_ms(
        active_params, layers, attention_width, d_model, peak_tflops_per_gpu,
        gpus, prompt_tokens, link, prefill_mfu, window, windowed_layers,
        expert_parallel, experts_per_token,
    )  # fmt: skip
    step_ms = replica_step_ms(
        params, active_params, layers, cache_width, attention_width, d_model,
        experts, experts_per_token, bandwidth_tb_per_s, peak_tflops_per_gpu,
        gpus, batch, prompt_tokens + output_tokens / 2, link, bytes_per_param,
        bandwidth_util, prefill_mfu, value_bytes, cache_heads, window,
        windowed_layers, expert_parallel,
    )  # fmt: skip
    # Each MoE layer's all-to-all joins the ranks of an expert-parallel replica:
    # a rank's prompts stall them all, so each waits for every rank's.
    ranks = where(expert_parallel, gpus, 1)
    per_rank = (
        batch * output_tokens / (ranks * batch * prefill_ms + output_tokens * step_ms)
    )
    return ranks * per_rank * MS


__all__ = [
    "ep_alltoall_ms",
    "exchanges",
    "resolved_link",
    "latency_batch",
    "replica_batch",
    "replica_prefill_ms",
    "replica_step_ms",
    "replica_tokens_per_sec",
    "tp_allreduce_ms",
]
