"""Energy, emissions and the decoding bound, against published figures."""

from __future__ import annotations

import math

import pytest

import xlfuncs as xf
from xlfuncs import udfs


def code(result) -> str:
    assert isinstance(result, str), result
    return result.split(" ", 1)[0]


def test_bloom_energy_and_emissions():
    # Luccioni, Viguier and Ligozat 2022 (arXiv 2211.02001), table 1: 1,082,990
    # GPU-hours on A100 80GB, 433,196 kWh; 57 gCO2eq/kWh; 24.69 t (section 4.2:
    # GPU-hours × the A100's 400 W TDP × 57 g).
    energy = xf.training_energy_mwh(1_082_990, 400)
    assert energy == pytest.approx(433.196, rel=1e-12)
    assert round(energy) == 433
    assert round(xf.training_co2_tonnes(energy, 0.057), 2) == 24.69
    # The A100's 400 W comes from the accelerator table.
    assert xf.training_energy_mwh(1_082_990, xf.gpu_power_w("A100")) == energy


@pytest.mark.parametrize(
    ("gpu_hours", "watts", "tonnes"),
    # Touvron et al. 2023 (Llama 2, arXiv 2307.09288), table 2: time (GPU-hours),
    # power per GPU "adjusted for power usage efficiency" (W), tCO2eq.
    [
        (184_320, 400, 31.22),
        (368_640, 400, 62.44),
        (1_038_336, 350, 153.90),
        (1_720_320, 400, 291.42),
    ],
)
def test_llama_2_table_2(gpu_hours, watts, tonnes):
    # One grid intensity reproduces every row: 291.42 t / 688.128 MWh = 0.4235.
    energy = xf.training_energy_mwh(gpu_hours, watts)
    assert energy == pytest.approx(gpu_hours * watts / 1e6, rel=1e-12)
    assert xf.training_co2_tonnes(energy, 0.4235) == pytest.approx(tonnes, rel=5e-4)


def test_pue_scales_energy():
    assert xf.training_energy_mwh(1000, 700, 1.2) == pytest.approx(0.84)
    out = udfs.TRAINING_ENERGY_MWH(1000.0, 700.0, 0.9)
    assert code(out) == "#NUM!" and "pue must be 1 or more" in out
    assert udfs.TRAINING_ENERGY_MWH(1000.0, 700.0, None) == pytest.approx(0.7)
    # A grid of zero intensity (market-based, fully offset) is allowed.
    assert xf.training_co2_tonnes(100, 0) == 0
    assert code(udfs.TRAINING_CO2_TONNES(100.0, -0.1)) == "#NUM!"


def test_databricks_decode_example():
    # Databricks, "LLM Inference Performance Engineering: Best Practices": a 7 B
    # model in 16 bits "is moving 14GB of parameters in 14ms translating to
    # 1TB/sec bandwidth usage"; at 2 TB/s peak that is an MBU of 50 %.
    assert 1 / xf.decode_tokens_per_sec(7e9, 1) == pytest.approx(0.014)
    at_peak = xf.decode_tokens_per_sec(7e9, 2)
    assert (1 / 0.014) / at_peak == pytest.approx(0.5)


def test_kipply_decode_latency():
    # kipply, "Transformer Inference Arithmetic": a 260 B model on 16 GPUs of
    # 1.5 TB/s, 2·260e9 / (16·1.5e12) ≈ 0.0217 s ≈ 22 ms per token.
    latency = 1 / xf.decode_tokens_per_sec(260e9, 1.5, 2, 16)
    assert latency == pytest.approx(2 * 260e9 / (16 * 1.5e12), rel=1e-12)
    assert round(latency * 1000) == 22


def test_decode_batch_and_bytes():
    one = xf.decode_tokens_per_sec(70e9, 3.35)
    # Batch 16 needs the peak (the FLOPs may bind past batch 1); 2 × 70e9 × 16
    # FLOPs at the H100's 989.4 TFLOP/s are 2.3 ms, far below 42 ms of reads.
    assert xf.decode_tokens_per_sec(70e9, 3.35, 2, 1, 16, 0, 989.4) == pytest.approx(
        16 * one
    )
    with pytest.raises(TypeError, match="give peak_tflops_per_gpu past batch 1"):
        xf.decode_tokens_per_sec(70e9, 3.35, 2, 1, 16)
    assert xf.decode_tokens_per_sec(70e9, 3.35, 0.5) == pytest.approx(4 * one)
    assert (
        code(udfs.DECODE_TOKENS_PER_SEC(70e9, 3.35, 2.0, 1.0, 1.5, 0.0, 989.4))
        == "#NUM!"
    )
    h100 = xf.decode_tokens_per_sec(70e9, xf.gpu_bandwidth_tbs("H100"), 2, 8)
    assert h100 == pytest.approx(8 * 3.35e12 / 140e9)


# ------------------------------------------------------------- the KV cache read

# Llama 3 8B (meta-llama/Meta-Llama-3-8B config.json): 32 layers, 8 key/value
# heads of 128 dimensions; 8 B parameters (model card). In bf16 a token's cache
# is 2 (K, V) × 32 × 8 × 128 × 2 bytes = 131,072 bytes.
KV_PER_TOKEN = 2 * 32 * 8 * 128 * 2
H100_TBS = 3.35  # NVIDIA H100 datasheet, SXM column: "3.35TB/s"


def test_decode_bound_reads_weights_and_cache_at_batch_32():
    # Batch 32, 4,096 tokens of context each: a step reads the 16 GB of weights
    # and 32 × 4,096 × 131,072 = 17,179,869,184 bytes of cache.
    weights = 8e9 * 2
    cache = 32 * 4096 * KV_PER_TOKEN
    assert cache == 17_179_869_184
    by_hand = 32 * 3.35e12 / (weights + cache)  # 3,230.9 tokens/s
    kv_gb = xf.kv_cache_gb(32, 8, 128, 4096, 32)
    assert kv_gb * 1e9 == pytest.approx(cache, rel=1e-12)
    got = xf.decode_tokens_per_sec(8e9, H100_TBS, 2, 1, 32, kv_gb, 989.4)
    # The done-when: within 10 % of weights-plus-cache by hand.
    assert got == pytest.approx(by_hand, rel=0.10)
    assert got == pytest.approx(by_hand, rel=1e-12)
    # By name, the same arithmetic from the model's shape.
    named = xf.model_decode_tokens_per_sec(
        "Llama 3 8B", H100_TBS, 32, 4096, 2, 1, 2, 989.4
    )
    assert named == pytest.approx(by_hand, rel=1e-12)
    # The weights alone would bound it at 6,700 tokens/s: 2.07 times too high.
    alone = xf.decode_tokens_per_sec(8e9, H100_TBS, 2, 1, 32, 0, 989.4)
    assert alone == pytest.approx(32 * 3.35e12 / weights)
    assert alone / got == pytest.approx((weights + cache) / weights)
    # Without a context the named bound is the weights alone, as before.
    assert (
        xf.model_decode_tokens_per_sec("Llama 3 8B", H100_TBS, 32, None, 2, 1, 2, 989.4)
        == alone
    )
    # Cells: the same, and a negative cache is #NUM!.
    assert udfs.DECODE_TOKENS_PER_SEC(8e9, 3.35, 2.0, 1.0, 32.0, kv_gb, 989.4) == got
    assert (
        code(udfs.DECODE_TOKENS_PER_SEC(8e9, 3.35, 2.0, 1.0, 32.0, -1.0, 989.4))
        == "#NUM!"
    )


def test_mixture_of_experts_reads_the_experts_a_batch_touches():
    # Mixtral 8x7B: 46.7 B parameters, 12.9 B per token (mistral.ai), 8 experts
    # a layer, 2 per token (config.json). Each expert holds (46.7 - 12.9) / (8 -
    # 2) = 5.633 B parameters across the layers; config.json's shape gives 32 ×
    # 3 × 4,096 × 14,336 = 5,637,144,576: 0.07 % apart.
    per_expert = (46.7e9 - 12.9e9) / 6
    assert per_expert == pytest.approx(32 * 3 * 4096 * 14336, rel=1e-3)
    # Batch 1: the 12.9 B active parameters, 16-bit, at 3.35 TB/s.
    one = xf.model_decode_tokens_per_sec("Mixtral 8x7B", H100_TBS)
    assert one == pytest.approx(3.35e12 / (12.9e9 * 2), rel=1e-12)
    assert one == pytest.approx(xf.decode_tokens_per_sec(12.9e9, H100_TBS))
    # Batch 32: a token misses an expert with probability 1 - 2/8; 32 tokens
    # with 0.75^32; the batch touches 8 × (1 - 0.75^32) = 7.9992 experts a layer.
    touched = 8 * (1 - 0.75**32)
    read = 12.9e9 + (touched - 2) * per_expert
    by_hand = 32 * 3.35e12 / (read * 2)
    got = xf.model_decode_tokens_per_sec(
        "Mixtral 8x7B", H100_TBS, 32, None, 2, 1, 2, 989.4
    )
    assert got == pytest.approx(by_hand, rel=1e-12)
    # Nearly the total: the plain formula on the 46.7 B agrees within 0.01 %.
    total = xf.decode_tokens_per_sec(46.7e9, H100_TBS, 2, 1, 32, 0, 989.4)
    assert got == pytest.approx(total, rel=1e-4)
    # The active parameters at batch 32 overstate it 3.6 times (the issue).
    naive = xf.decode_tokens_per_sec(12.9e9, H100_TBS, 2, 1, 32, 0, 989.4)
    assert round(naive / got, 1) == 3.6
    # Batch 2: 8 × (1 - 0.75²) = 3.5 experts of 8.
    two = xf.model_decode_tokens_per_sec(
        "Mixtral 8x7B", H100_TBS, 2, None, 2, 1, 2, 989.4
    )
    read2 = 12.9e9 + (8 * (1 - 0.75**2) - 2) * per_expert
    assert two == pytest.approx(2 * 3.35e12 / (read2 * 2), rel=1e-12)
    # A dense model by name is the plain formula on its params.
    dense = xf.model_decode_tokens_per_sec(
        "Llama 3.1 70B", H100_TBS, 16, None, 2, 8, 2, 989.4
    )
    assert dense == pytest.approx(
        xf.decode_tokens_per_sec(70e9, H100_TBS, 2, 8, 16, 0, 989.4)
    )
    out = udfs.MODEL_DECODE_TOKENS_PER_SEC([["Mixtral 8x7B"], ["nope"]], 3.35)
    assert out[0][0] == pytest.approx(one) and code(out[1][0]) == "#N/A"


def test_largest_batch_whose_weights_and_cache_fit():
    # Llama 3 8B in bf16 on one H100 (81,559 MiB, nvidia-smi) with 90 % usable,
    # 4,096 tokens of context: (0.9 × 85.52 - 16) / 0.537 = 113.6 sequences.
    h100 = 81_559 * 2**20 / 1e9
    per_seq = 4096 * KV_PER_TOKEN / 1e9
    assert xf.kv_cache_gb(32, 8, 128, 4096, 1) == pytest.approx(per_seq)
    room = 0.9 * h100 - 16
    assert room / per_seq == pytest.approx(113.56, abs=0.01)
    got = xf.max_decode_batch(8e9, xf.gpu_memory_gb("H100"), per_seq)
    assert got == 113
    assert 16 + got * per_seq <= 0.9 * h100 < 16 + (got + 1) * per_seq
    # Llama 3 70B (80 layers, 8 key/value heads of 128) on 4 H100s at 8,192
    # tokens: (4 × 76.97 - 140) / 2.684 = 62.5.
    per_seq_70b = 2 * 80 * 8 * 128 * 8192 * 2 / 1e9
    assert xf.max_decode_batch(70e9, h100, per_seq_70b, 2, 4) == 62
    # The whole GPU usable: (85.52 - 16) / 0.537 = 129.5.
    assert xf.max_decode_batch(8e9, h100, per_seq, 2, 1, 1) == 129
    # 70 B in bf16 does not fit one H100: #NUM!.
    with pytest.raises(xf.InvalidValueError, match="no room for one sequence"):
        xf.max_decode_batch(70e9, h100, per_seq_70b)
    assert code(udfs.MAX_DECODE_BATCH(70e9, h100, per_seq_70b)) == "#NUM!"
    assert code(udfs.MAX_DECODE_BATCH(8e9, h100, 0.0)) == "#DIV/0!"


# ---------------------------------------------------------------- serving money


def test_serving_cost_per_million_tokens():
    # llmversus, "Self-Hosting DeepSeek R1 on an H100: 2026 Cost Report": an H100
    # at "$2.49/hour" that "pushes about 2,100 tokens per second ... works out
    # to $0.33 per million output tokens".
    assert round(xf.serving_cost_per_mtok(2.49, 2100), 2) == 0.33
    # DeepSeek, "DeepSeek-V3/R1 Inference System Overview" (2025): H800s leased
    # at "$2 per hour", "~14.8k tokens/s output during decoding" per node of 8.
    per_gpu = 14_800 / 8
    by_hand = 2 / (per_gpu * 3600) * 1e6  # $0.3003 a million output tokens
    assert xf.serving_cost_per_mtok(2, per_gpu) == pytest.approx(by_hand, rel=1e-12)
    assert udfs.SERVING_COST_PER_MTOK(2.0, per_gpu) == pytest.approx(by_hand)
    # A price of 0 is free; a throughput of 0 is no throughput.
    assert xf.serving_cost_per_mtok(0, 1000) == 0
    assert code(udfs.SERVING_COST_PER_MTOK(2.0, 0.0)) == "#NUM!"
    assert code(udfs.SERVING_COST_PER_MTOK(-1.0, 1000.0)) == "#NUM!"


def test_serving_gpus_for_deepseeks_day():
    # DeepSeek's 24 hours: 608 B input tokens at ~73.7k tokens/s per 8-GPU node
    # (prefill), 168 B output tokens at ~14.8k (decode), "an average occupancy
    # of 226.75 nodes (each node contains 8 H800 GPUs)".
    prefill = xf.serving_gpus(608e9 / 86400, 73_700 / 8)
    decode = xf.serving_gpus(168e9 / 86400, 14_800 / 8)
    assert prefill == math.ceil(608e9 / 86400 / (73_700 / 8)) == 764
    assert decode == math.ceil(168e9 / 86400 / (14_800 / 8)) == 1052
    # 1,816 GPUs, 227 nodes: the published average of 226.75 within 0.2 %.
    assert (prefill + decode) / 8 == pytest.approx(226.75, rel=0.002)
    # Whole GPUs: exactly two GPUs' worth is 2, a token more is 3.
    assert xf.serving_gpus(3700, 1850) == 2
    assert xf.serving_gpus(3701, 1850) == 3
    # At 50 % utilisation, twice as many.
    assert xf.serving_gpus(3700, 1850, 0.5) == 4
    assert udfs.SERVING_GPUS(3700.0, 1850.0, 0.5) == 4
    assert code(udfs.SERVING_GPUS(3700.0, 1850.0, 1.5)) == "#NUM!"
    assert udfs.SERVING_GPUS([[3700.0], [3701.0]], 1850.0) == [[2.0], [3.0]]
