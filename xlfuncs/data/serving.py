"""Serving: the precisions a model is served in, and the calibrated defaults.

``SERVING_TOKENS_PER_SEC`` and its parts (:mod:`xlfuncs.functions.serving`) read
these. The defaults were fitted to published measured maximum-throughput runs;
``docs/serving.md`` gives the table of ours beside theirs, and the rows held out of
the fit (``tests/test_serving_calibration.py`` holds them all, with sources).
"""

from __future__ import annotations

from .names import finder, spelled

#: Precisions a model's weights are served in, and the bytes of each weight. The
#: key/value cache is stored at the same width unless ``bytes_per_value`` says
#: otherwise (an fp8 checkpoint of TensorRT-LLM caches in fp8: its perf-overview,
#: "If you specify FP8 quantization, the KV cache will automatically be set to FP8
#: as well").
SERVING_PRECISIONS = ("bf16", "fp16", "fp8", "int8", "int4", "fp4")
#: fp4 is NVIDIA's NVFP4: 4-bit values with an fp8 scale per block of 16, 4.5
#: bits a weight (NVIDIA, "Introducing NVFP4 for Efficient and Accurate
#: Low-Precision Inference", 2025); MXFP4 (gpt-oss's experts) scales blocks of
#: 32, 4.25 bits.
PRECISION_BYTES = {
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    "int4": 0.5,
    "fp4": 4.5 / 8,
}
#: Bytes of each cached key or value unless ``bytes_per_value`` says: 16 bits,
#: but 8 where the server caches in fp8 with fp8 or fp4 weights (TensorRT-LLM's
#: perf-overview: "If you specify FP8 quantization, the KV cache will
#: automatically be set to FP8 as well"; its NVFP4 runs cache in fp8). Weight-only
#: int4 (AWQ, GPTQ) and W8A8 int8 keep a 16-bit cache (vLLM's default
#: ``--kv-cache-dtype auto``).
PRECISION_CACHE_BYTES = {
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": 1.0,
    "int8": 2.0,
    "int4": 2.0,
    "fp4": 1.0,
}
#: The accelerator table's column whose peak the matrix products run at: int4
#: weights (AWQ, GPTQ) are widened to 16 bits before they are multiplied, so they
#: run at the 16-bit peak. Where an accelerator has no figure for the column (fp8
#: on an A100, which vLLM serves as weight-only fp8), the bf16 peak is used, and
#: the fp16 one where bf16 is missing too (a V100).
PRECISION_COMPUTE = {
    "bf16": "bf16",
    "fp16": "fp16",
    "fp8": "fp8",
    "int8": "int8",
    "int4": "bf16",
    "fp4": "fp4",
}
SERVING_PRECISION_ALIASES = {
    "bfloat16": "bf16",
    "float16": "fp16",
    "half": "fp16",
    "float8": "fp8",
    "e4m3": "fp8",
    "w8a8": "int8",
    "w4a16": "int4",
    "nvfp4": "fp4",
    "mxfp4": "fp4",
    "float4": "fp4",
}


#: The key of a serving precision, or None: ``"FP-8"`` is ``"fp8"``.
find_serving_precision = finder(SERVING_PRECISIONS, SERVING_PRECISION_ALIASES)
#: Every spelling a serving precision is accepted in, with its key.
SERVING_PRECISION_KEYS = spelled(SERVING_PRECISIONS, SERVING_PRECISION_ALIASES)

#: Tokens in the "million tokens" prices are quoted per.
TOKENS_PER_MTOK = 1e6

#: How a replica's GPUs share a model: "tp" splits every layer over them
#: (tensor parallelism); "ep" runs attention on each GPU for its own sequences
#: and spreads a mixture's experts over them (attention data-parallel with
#: expert parallelism, TensorRT-LLM's "DEP", SGLang's "DP attention"): its code.
PARALLEL_CODES = {"tp": 0.0, "ep": 1.0}
PARALLEL_ALIASES = {
    "tensor": "tp",
    "tensorparallel": "tp",
    "expert": "ep",
    "expertparallel": "ep",
    "dep": "ep",
    "dpattention": "ep",
    "attentiondp": "ep",
}


#: The key of a way to split a replica, or None: ``"DEP"`` is ``"ep"``.
find_parallel = finder(PARALLEL_CODES, PARALLEL_ALIASES)
PARALLEL_KEYS = spelled(PARALLEL_CODES, PARALLEL_ALIASES)

#: Share of the memory bandwidth a decoding step reaches, calibrated: the value
#: that best fits TensorRT-LLM's measured maximum throughput (v0.17, H100 SXM, FP8,
#: Llama 3.1 8B on one GPU and 70B on 2, 4 and 8; 36 runs). Databricks ("LLM
#: Inference Performance Engineering: Best Practices", 2023) calls the share
#: reached model bandwidth utilisation (MBU); here it also absorbs what a full
#: server loses to scheduling, sampling and the attention kernels' uneven reads.
BANDWIDTH_UTIL = 0.55
#: Model FLOPs utilisation of the compute-bound parts (prompt processing, and a
#: decoding step when its FLOPs take longer than its reads), of the precision's
#: dense peak: calibrated on the same 36 runs.
PREFILL_MFU = 0.6
#: The most sequences one rank decodes at once unless the caller says otherwise.
#: TensorRT-LLM's benchmark sizes its batch from the memory left for the cache,
#: each request at its whole length, and caps it at 4,096 (trtllm-bench,
#: tensorrt_llm/bench/build/tuning.py); vLLM's ``--max-num-seqs`` is 256 by
#: default (vLLM engine arguments, docs.vllm.ai). A step's time here counts the
#: weights, the cache, the FLOPs and the exchanges, not what each sequence
#: costs besides (sampling, scheduling, routing, padding to CUDA-graph sizes),
#: so past a few hundred sequences it grows too slowly: 384 stands in for that
#: cost. At 4,096 the fitted dense rows read 1.12 of measured; at 384, 1.06, 97 %
#: of them within 0.70-1.45 (benchmarks/serving_calibration.py; docs/serving.md
#: says which rows informed it).
MAX_BATCH = 384
#: Share of the memory the weights leave that the cache takes: TensorRT-LLM's
#: ``kv_cache_free_gpu_mem_fraction`` (0.9 by default, 0.95 in its performance
#: runs), the memory left for activations and the runtime.
CACHE_SHARE = 0.9
#: Milliseconds a request spends before its prompt is processed, on top of that
#: processing: scheduling, tokenizing, the first step. NVIDIA NIM 1.8.0 (Llama
#: 3.3 70B, 2 H100, fp8) measured a time to first token of 47.77 ms for a
#: 500-token prompt and 406.77 ms for 5,000 at one request at a time: a straight
#: line through them meets 0 tokens at 7.9 ms (docs/serving.md).
REQUEST_MS = 8.0
#: Seconds one tensor-parallel all-reduce takes at the least, however small:
#: llm-analysis's ``intra_node_min_message_latency`` for an H100 SXM (8 µs,
#: cli99/llm-analysis, llm_analysis/gpu_configs/h100-sxm-80gb.json).
ALLREDUCE_LATENCY_S = 8e-6
SERVING_SOURCE = (
    "Defaults fitted to TensorRT-LLM's performance overview, v0.17 "
    "(https://nvidia.github.io/TensorRT-LLM/performance/perf-overview.html): "
    "H100 SXM, FP8, Llama 3.1 8B and 70B; checked on measured runs held out of the "
    "fit"
)

__all__ = [
    "ALLREDUCE_LATENCY_S",
    "BANDWIDTH_UTIL",
    "CACHE_SHARE",
    "MAX_BATCH",
    "PARALLEL_CODES",
    "PARALLEL_KEYS",
    "PRECISION_BYTES",
    "PRECISION_CACHE_BYTES",
    "PRECISION_COMPUTE",
    "PREFILL_MFU",
    "REQUEST_MS",
    "SERVING_PRECISIONS",
    "SERVING_PRECISION_ALIASES",
    "SERVING_PRECISION_KEYS",
    "SERVING_SOURCE",
    "TOKENS_PER_MTOK",
    "find_parallel",
    "find_serving_precision",
]
