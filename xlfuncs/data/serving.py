"""Serving: the precisions a model is served in, and the calibrated defaults.

``SERVING_TOKENS_PER_SEC`` and its parts (:mod:`xlfuncs.functions.serving`) read
these. The defaults were fitted to published measured maximum-throughput runs;
``docs/serving.md`` gives the table of ours beside theirs, and the rows held out of
the fit (``tests/test_serving_calibration.py`` holds them all, with sources).
"""

from __future__ import annotations

from .names import normalize

#: Precisions a model's weights are served in, and the bytes of each weight. The
#: key/value cache is stored at the same width unless ``bytes_per_value`` says
#: otherwise (an fp8 checkpoint of TensorRT-LLM caches in fp8: its perf-overview,
#: "If you specify FP8 quantization, the KV cache will automatically be set to FP8
#: as well").
SERVING_PRECISIONS = ("bf16", "fp16", "fp8", "int8", "int4")
PRECISION_BYTES = {"bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5}
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
}
SERVING_PRECISION_ALIASES = {
    "bfloat16": "bf16",
    "float16": "fp16",
    "half": "fp16",
    "float8": "fp8",
    "e4m3": "fp8",
    "w8a8": "int8",
    "w4a16": "int4",
}


def find_serving_precision(name: str) -> str | None:
    """The key of a serving precision, or None: ``"FP-8"`` is ``"fp8"``."""
    key = normalize(name)
    key = SERVING_PRECISION_ALIASES.get(key, key)
    return key if key in SERVING_PRECISIONS else None


#: Every spelling a serving precision is accepted in, as normalize() writes it,
#: with its key: the look-up the Excel expressions make.
SERVING_PRECISION_KEYS = tuple(
    (normalize(s), find_serving_precision(s) or "")
    for s in (*SERVING_PRECISIONS, *SERVING_PRECISION_ALIASES)
)

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
#: The largest batch a server decodes at once unless the caller says otherwise:
#: vLLM's default ``--max-num-seqs`` (vLLM engine arguments, docs.vllm.ai). Larger
#: batches of short sequences gain less than the bandwidth model says; capping at
#: 256 fitted the measured runs better than any larger cap, or none.
MAX_BATCH = 256
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
    "MAX_BATCH",
    "PRECISION_BYTES",
    "PRECISION_COMPUTE",
    "PREFILL_MFU",
    "SERVING_PRECISIONS",
    "SERVING_PRECISION_ALIASES",
    "SERVING_PRECISION_KEYS",
    "SERVING_SOURCE",
    "find_serving_precision",
]
