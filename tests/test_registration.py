"""Registration through xlwings' own code: the VBA that "Import Functions" writes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from xlfuncs.registry import REGISTRY

SCRIPT = Path(__file__).with_name("_register_with_xlwings.py")


@pytest.fixture(scope="module")
def registered() -> dict:
    # A subprocess: the pywin32 stand-ins and patched xlwings must not leak here.
    out = subprocess.run(
        [sys.executable, str(SCRIPT)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(out.stdout)


def test_vba_defines_every_udf_with_its_arguments_in_order(registered):
    vba = registered["vba"]
    declared = dict(re.findall(r"^Function (\w+)\((.*)\)$", vba, flags=re.M))
    assert set(declared) == set(REGISTRY)
    for name, spec in REGISTRY.items():
        want = ", ".join(
            ("Optional " if a.name in spec.defaults else "") + a.name for a in spec.args
        )
        assert declared[name] == want, name
        assert f'XLPy.CallUDF("xlfuncs.udfs", "{name}"' in vba
    # The add-in form: an .xlam calls back into the active workbook.
    assert "ActiveWorkbook" in vba and "ThisWorkbook" not in vba


def test_descriptions_and_argument_docs_fit_excel(registered):
    funcs = registered["funcs"]
    assert set(funcs) == set(REGISTRY)
    for name, info in funcs.items():
        spec = REGISTRY[name]
        assert info["category"] == "xlfuncs"
        assert info["doc"] == spec.description
        assert 0 < len(info["doc"]) < 255
        assert [a["name"] for a in info["args"]] == [a.name for a in spec.args]
        for a, arg in zip(info["args"], spec.args):
            assert a["doc"] == arg.doc and 0 < len(a["doc"]) < 255
            assert a["ndim"] == 2
            assert a["optional"] == (arg.name in spec.defaults)


# The signatures the issues ask for, copied from their tables (not from the code).
SIX = "examples, epochs, gpus, tokens_per_sec_per_gpu, efficiency, tokens_per_example"
# Issue 9 renamed d_model here to what it is: heads × head size (PaLM: 12,288).
SHAPE = "Optional layers, Optional attention_width, Optional seq_len"
ASKED = {
    "FT_THROUGHPUT": "gpus, tokens_per_sec_per_gpu, efficiency",
    "FT_EXAMPLES_PER_SEC": "gpus, tokens_per_sec_per_gpu, efficiency, tokens_per_example",
    "FT_EXAMPLES_PER_MIN": "gpus, tokens_per_sec_per_gpu, efficiency, tokens_per_example",
    "FT_TOKENS_PER_MIN": "gpus, tokens_per_sec_per_gpu, efficiency",
    "FT_TRAINING_HOURS": SIX,
    "FT_GPU_HOURS": SIX,
    "FT_COST": f"{SIX}, price_per_gpu_hour",
    "FT_TOKENS_PER_EXAMPLE": "lengths, Optional percentile",
    "CHINCHILLA_PARAMS": "budget_pf_days, Optional tokens_per_param",
    "CHINCHILLA_TOKENS": "budget_pf_days, Optional tokens_per_param",
    "CHINCHILLA_TOKENS_FOR_PARAMS": "params, Optional tokens_per_param",
    "CHINCHILLA_BUDGET": "params, Optional tokens_per_param",
    "TRAINING_FLOPS": "params, tokens",
    "PFDAYS_TO_FLOPS": "value",
    "FLOPS_TO_PFDAYS": "value",
    "CLUSTER_PFDAYS": "gpus, peak_tflops_per_gpu, mfu, days",
    "CLUSTER_DAYS": "budget_pf_days, gpus, peak_tflops_per_gpu, mfu",
    "TRAINING_DAYS": "params, tokens, gpus, achieved_tflops_per_gpu, "
    f"Optional flops_per_param_token, {SHAPE}",  # issue 21: the attention term
    "FLOPS_PER_TOKEN": f"params, {SHAPE}",
    "MFU": f"tokens_per_sec_per_gpu, params, peak_tflops_per_gpu, {SHAPE}",
    "TOKENS_PER_SEC_PER_GPU": f"params, peak_tflops_per_gpu, mfu, {SHAPE}",
    "GPU_PEAK_TFLOPS": "gpu, Optional dtype",
    "CHINCHILLA_LOSS": "params, tokens, Optional fit",
    "CHINCHILLA_FIT_PARAMS": "budget_pf_days, Optional fit",
    "CHINCHILLA_FIT_TOKENS": "budget_pf_days, Optional fit",
    "INFERENCE_OPTIMAL_PARAMS": "target_loss, inference_tokens, Optional fit",
    "INFERENCE_OPTIMAL_TOKENS": "target_loss, inference_tokens, Optional fit",
}
# Issue 11's table ("Excel names and the order of their first arguments are
# fixed"), copied from the issue: [x = d] is Optional x with default d.
ASKED |= {
    "MODEL_STATE_GB": "params, Optional trainable_params, Optional weight_bytes, "
    "Optional gpus, Optional zero_stage, Optional model_parallel",
    "LORA_PARAMS": "layers, d_model, rank, Optional matrices",  # then its "…"
    "ACTIVATION_GB": "layers, d_model, heads, seq_len, micro_batch, "
    "Optional tensor_parallel, Optional recompute",
    "KV_CACHE_GB": "layers, kv_heads, head_dim, seq_len, batch, "
    "Optional bytes_per_value",
    "TRAINING_ENERGY_MWH": "gpu_hours, watts_per_gpu, Optional pue",
    "TRAINING_CO2_TONNES": "energy_mwh, kg_co2_per_kwh",
    "DECODE_TOKENS_PER_SEC": "params, bandwidth_tb_per_s, Optional bytes_per_param, "
    "Optional gpus, Optional batch, Optional kv_cache_gb",
    "GPU_MEMORY_GB": "gpu",
    "GPU_BANDWIDTH_TBS": "gpu",
    "GPU_POWER_W": "gpu",
    "MODEL_SPEC": "model, field",
}
# The issue's "…" after LORA_PARAMS' matrices: "optional arguments … for MLP
# matrices and grouped-query k/v widths", as this package designs them.
LORA_MORE = (
    ", Optional mlp_matrices, Optional ffn_dim, Optional kv_matrices, Optional kv_width"
    ", Optional experts"  # issue 21: every expert's MLP matrices
)
# Issue 28's SERVING_TOKENS_PER_SEC, copied from the issue, and bytes_per_value.
SERVING = (
    "model, gpu, gpus, prompt_tokens, output_tokens, Optional precision, "
    "Optional max_batch, Optional ms_per_token, Optional bandwidth_util, "
    "Optional prefill_mfu, Optional bytes_per_value"
)
# The shapes the numeric functions of issue 28's by-name ones take.
PEAK_SHAPE = (
    "params, layers, d_model, attention_width, kv_width, ffn_dim, vocab, seq_len, "
    "micro_batch"
)
# Issue 35: the cache's width as stored (cache_width: latent attention's
# compressed cache; kv_width for the others).
STEP_SHAPE = (
    "params, active_params, layers, cache_width, attention_width, d_model, experts, "
    "experts_per_token"
)
REPLICA = (
    "gpus, prompt_tokens, output_tokens, Optional link_gb_per_s, "
    "Optional bytes_per_param, Optional max_batch, Optional ms_per_token, "
    "Optional bandwidth_util, Optional prefill_mfu, Optional bytes_per_value"
)
# Issue 35: a replica's cache split by heads (latent attention copied under
# tensor parallelism), windowed layers, expert parallelism, the cache's share
# of the memory the weights leave.
REPLICA_35 = (
    ", Optional cache_heads, Optional window, Optional windowed_layers, "
    "Optional expert_parallel"
)
# Arguments issue 35 adds after those asked before: the windowed layers of
# Gemma 3 and gpt-oss, the optimizer's bytes (bf16 and 8-bit moments), the
# compute bound past batch 1, how a replica's GPUs share a mixture.
MORE_35 = {
    "KV_CACHE_GB": ", Optional window, Optional windowed_layers",
    "MODEL_STATE_GB": ", Optional optimizer_bytes",
    "MIN_GPUS_FOR_MEMORY": ", Optional optimizer_bytes",
    "TRAINING_MEMORY_GB": ", Optional optimizer",
    "MIN_GPUS_FOR_TRAINING": ", Optional optimizer",
    "TRAINING_PEAK_GB": ", Optional optimizer_bytes",
    "MIN_GPUS_FOR_PEAK": ", Optional optimizer_bytes",
    "DECODE_TOKENS_PER_SEC": ", Optional peak_tflops_per_gpu",
    "MODEL_DECODE_TOKENS_PER_SEC": ", Optional peak_tflops_per_gpu",
    "SERVING_TOKENS_PER_SEC": ", Optional cache_share, Optional parallel",
    "SERVING_BATCH": ", Optional cache_share, Optional parallel",
    "PREFILL_MS": ", Optional parallel",
    "DECODE_STEP_MS": ", Optional parallel",
    "REPLICA_STEP_MS": REPLICA_35,
    "REPLICA_BATCH": REPLICA_35 + ", Optional cache_share",
    "REPLICA_TOKENS_PER_SEC": REPLICA_35 + ", Optional cache_share",
    "LATENCY_BATCH": REPLICA_35,
    "REPLICA_PREFILL_MS": ", Optional window, Optional windowed_layers, "
    "Optional expert_parallel, Optional experts_per_token",
}
# Issue 35's new functions: the all-to-all of expert parallelism, the time to
# first token, a published model's cache.
NEW_35 = {
    "EP_ALLTOALL_MS": "layers, d_model, experts_per_token, gpus, step_tokens, "
    "Optional link_gb_per_s",
    "TIME_TO_FIRST_TOKEN_MS": "model, gpu, gpus, prompt_tokens, Optional precision, "
    "Optional request_ms",
    "MODEL_KV_CACHE_GB": "model, seq_len, Optional batch, Optional bytes_per_value",
    # The bytes of a serving precision and of an optimizer's state, and the MFU
    # full recomputation leaves, for the workbooks' cells.
    "SERVING_WEIGHT_BYTES": "Optional precision",
    "SERVING_CACHE_BYTES": "Optional precision",
    "OPTIMIZER_STATE_BYTES": "Optional optimizer",
    "RECOMPUTE_MFU": "hfu, Optional recompute",
}
# Siblings added for the planner workbook.
EXTRA = {
    "CLUSTER_GPU_HOURS": "gpus, days",
    "CLUSTER_COST": "gpus, days, price_per_gpu_hour",
    "ISOFLOP_TOKENS": "budget_pf_days, params",
    # The planner's "fewest GPUs that fit" (issue 11's planner part).
    # Issue 21: serving in money, the decode bound by name, the largest batch.
    "MODEL_DECODE_TOKENS_PER_SEC": "model, bandwidth_tb_per_s, Optional batch, "
    "Optional seq_len, Optional bytes_per_param, Optional gpus, "
    "Optional bytes_per_value",
    "MAX_DECODE_BATCH": "params, memory_gb, kv_gb_per_sequence, "
    "Optional bytes_per_param, Optional gpus, Optional usable",
    "SERVING_COST_PER_MTOK": "price_per_gpu_hour, tokens_per_sec_per_gpu",
    "SERVING_GPUS": "tokens_per_sec, tokens_per_sec_per_gpu, Optional utilization",
    "MIN_GPUS_FOR_MEMORY": "params, memory_gb, Optional other_gb, "
    "Optional trainable_params, Optional weight_bytes, Optional zero_stage, "
    "Optional model_parallel, Optional usable",
    # Issue 28: serving with prompt processing, its parts, and communication;
    # the KV cache's width "unless stated" is bytes_per_value, after the issue's
    # arguments.
    "SERVING_TOKENS_PER_SEC": SERVING,
    "SERVING_BATCH": SERVING,
    "PREFILL_MS": "model, gpu, gpus, prompt_tokens, Optional precision, "
    "Optional prefill_mfu",
    "DECODE_STEP_MS": "model, gpu, gpus, batch, seq_len, Optional precision, "
    "Optional bandwidth_util, Optional prefill_mfu, Optional bytes_per_value",
    "TP_COMM_MS": "model, gpu, gpus, step_tokens, Optional link_gb_per_s",
    "ZERO3_COMM_MS": "params, gpu, gpus, Optional trainable_params, "
    "Optional weight_bytes, Optional link_gb_per_s",
    "GPU_INTERCONNECT_GBS": "gpu",
    # Issue 28: the per-GPU peak of a training step, and the fewest GPUs for it.
    "TRAINING_MEMORY_GB": "model, method, seq_len, micro_batch, Optional recompute, "
    "Optional lora_rank, Optional gpus, Optional zero_stage, Optional model_parallel",
    "MIN_GPUS_FOR_TRAINING": "model, method, seq_len, micro_batch, memory_gb, "
    "Optional recompute, Optional lora_rank, Optional zero_stage, "
    "Optional model_parallel, Optional usable",
    # Issue 28's by-name functions in Excel: each is a function of the shape and
    # the GPU's figures as numbers (a workbook's cells), called with the model's
    # look-ups; two model facts the Models sheet has no column for; the peak a
    # serving precision runs at.
    "MODEL_EMBEDDING_PARAMS": "model",
    "MODEL_LORA_PARAMS": "model, Optional lora_rank",
    "TRAINING_PEAK_GB": f"{PEAK_SHAPE}, Optional method_code, Optional recompute, "
    "Optional adapter_params, Optional embedding_params, Optional experts_per_token, "
    "Optional gpus, Optional zero_stage, Optional model_parallel",
    "MIN_GPUS_FOR_PEAK": f"{PEAK_SHAPE}, memory_gb, Optional method_code, "
    "Optional recompute, Optional adapter_params, Optional embedding_params, "
    "Optional experts_per_token, Optional zero_stage, Optional model_parallel, "
    "Optional usable",
    "SERVING_PEAK_TFLOPS": "gpu, Optional precision",
    "TP_ALLREDUCE_MS": "layers, d_model, gpus, step_tokens, Optional link_gb_per_s",
    "REPLICA_PREFILL_MS": "active_params, layers, attention_width, d_model, "
    "peak_tflops_per_gpu, gpus, prompt_tokens, Optional link_gb_per_s, "
    "Optional prefill_mfu",
    "REPLICA_STEP_MS": f"{STEP_SHAPE}, bandwidth_tb_per_s, peak_tflops_per_gpu, "
    "gpus, batch, seq_len, Optional link_gb_per_s, Optional bytes_per_param, "
    "Optional bandwidth_util, Optional prefill_mfu, Optional bytes_per_value",
    # Issue 35: a latency target reads the prompt too, which shares the steps.
    "LATENCY_BATCH": f"{STEP_SHAPE}, bandwidth_tb_per_s, peak_tflops_per_gpu, gpus, "
    "prompt_tokens, output_tokens, ms_per_token, Optional link_gb_per_s, "
    "Optional bytes_per_param, Optional bandwidth_util, Optional prefill_mfu, "
    "Optional bytes_per_value",
    "REPLICA_BATCH": f"{STEP_SHAPE}, memory_gb, bandwidth_tb_per_s, "
    f"peak_tflops_per_gpu, {REPLICA}",
    "REPLICA_TOKENS_PER_SEC": f"{STEP_SHAPE}, memory_gb, bandwidth_tb_per_s, "
    f"peak_tflops_per_gpu, {REPLICA}",
}
DEFAULTS = {
    ("CHINCHILLA_PARAMS", "tokens_per_param"): 20,
    ("CHINCHILLA_TOKENS", "tokens_per_param"): 20,
    ("CHINCHILLA_TOKENS_FOR_PARAMS", "tokens_per_param"): 20,
    ("CHINCHILLA_BUDGET", "tokens_per_param"): 20,
    ("TRAINING_DAYS", "flops_per_param_token"): 6,
    ("TRAINING_DAYS", "layers"): None,
    ("GPU_PEAK_TFLOPS", "dtype"): "bf16",
    ("CHINCHILLA_LOSS", "fit"): "hoffmann",
    ("INFERENCE_OPTIMAL_PARAMS", "fit"): "hoffmann",
    # Issue 11: "[trainable_params = params]" is None, read as params.
    ("MODEL_STATE_GB", "trainable_params"): None,
    ("MODEL_STATE_GB", "weight_bytes"): 2,
    ("MODEL_STATE_GB", "gpus"): 1,
    ("MODEL_STATE_GB", "zero_stage"): 0,
    # Issue 21: tensor × pipeline parallelism divides the model state; the usable
    # share of GPU memory is the one headroom rule, 90 %.
    ("MODEL_STATE_GB", "model_parallel"): 1,
    ("MIN_GPUS_FOR_MEMORY", "model_parallel"): 1,
    ("MIN_GPUS_FOR_MEMORY", "usable"): 0.9,
    ("LORA_PARAMS", "matrices"): 4,
    ("LORA_PARAMS", "mlp_matrices"): 0,
    ("LORA_PARAMS", "kv_matrices"): 0,
    ("LORA_PARAMS", "experts"): 1,
    ("ACTIVATION_GB", "tensor_parallel"): 1,
    ("ACTIVATION_GB", "recompute"): "none",
    ("KV_CACHE_GB", "bytes_per_value"): 2,
    ("TRAINING_ENERGY_MWH", "pue"): 1,
    ("DECODE_TOKENS_PER_SEC", "bytes_per_param"): 2,
    ("DECODE_TOKENS_PER_SEC", "gpus"): 1,
    ("DECODE_TOKENS_PER_SEC", "batch"): 1,
    ("DECODE_TOKENS_PER_SEC", "kv_cache_gb"): 0,
    ("MODEL_DECODE_TOKENS_PER_SEC", "batch"): 1,
    ("MODEL_DECODE_TOKENS_PER_SEC", "seq_len"): None,
    ("MAX_DECODE_BATCH", "usable"): 0.9,
    ("SERVING_GPUS", "utilization"): 1,
    # Issue 28: bf16 unless stated, the calibrated defaults, vLLM's batch cap.
    ("SERVING_TOKENS_PER_SEC", "precision"): "bf16",
    # Issue 35: 384 sequences a rank, standing in for what a step's sequences
    # cost besides (docs/serving.md); no latency target is 0, as a cell types it.
    ("SERVING_TOKENS_PER_SEC", "max_batch"): 384,
    ("SERVING_TOKENS_PER_SEC", "ms_per_token"): 0,
    ("SERVING_TOKENS_PER_SEC", "bandwidth_util"): 0.55,
    ("SERVING_TOKENS_PER_SEC", "prefill_mfu"): 0.6,
    ("SERVING_TOKENS_PER_SEC", "bytes_per_value"): None,
    ("TRAINING_MEMORY_GB", "recompute"): "none",
    ("TRAINING_MEMORY_GB", "lora_rank"): 16,
    # The numeric functions' defaults: those of the by-name ones, full
    # fine-tuning, untied embeddings and no link (needed past one GPU).
    ("TRAINING_PEAK_GB", "method_code"): 1,
    ("TRAINING_PEAK_GB", "adapter_params"): None,
    ("TRAINING_PEAK_GB", "embedding_params"): None,
    ("MIN_GPUS_FOR_PEAK", "usable"): 0.9,
    ("REPLICA_TOKENS_PER_SEC", "link_gb_per_s"): None,
    ("REPLICA_TOKENS_PER_SEC", "bytes_per_param"): 2,
    ("REPLICA_TOKENS_PER_SEC", "max_batch"): 384,
    ("REPLICA_TOKENS_PER_SEC", "bandwidth_util"): 0.55,
    ("REPLICA_TOKENS_PER_SEC", "prefill_mfu"): 0.6,
    ("REPLICA_TOKENS_PER_SEC", "bytes_per_value"): None,
}


def test_vba_matches_the_issue_tables(registered):
    declared = dict(
        re.findall(r"^Function (\w+)\((.*)\)$", registered["vba"], flags=re.M)
    )
    lora = ASKED["LORA_PARAMS"] + LORA_MORE
    want = {**ASKED, "LORA_PARAMS": lora, **EXTRA, **NEW_35}
    want |= {name: want[name] + more for name, more in MORE_35.items()}
    assert declared == want
    for (name, arg), value in DEFAULTS.items():
        assert REGISTRY[name].defaults[arg] == value, (name, arg)


def test_units_are_in_argument_docs():
    # The help Excel shows for an argument says its unit in words.
    for spec in REGISTRY.values():
        for a in spec.args:
            if a.kind == "choice":
                continue  # a name, not a quantity
            assert a.unit.lower() in a.doc.lower(), (spec.name, a.name, a.unit)
