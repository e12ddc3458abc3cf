"""Energy, emissions and the decoding bound, against published figures."""

from __future__ import annotations

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
    assert xf.decode_tokens_per_sec(70e9, 3.35, 2, 1, 16) == pytest.approx(16 * one)
    assert xf.decode_tokens_per_sec(70e9, 3.35, 0.5) == pytest.approx(4 * one)
    assert code(udfs.DECODE_TOKENS_PER_SEC(70e9, 3.35, 2.0, 1.0, 1.5)) == "#NUM!"
    h100 = xf.decode_tokens_per_sec(70e9, xf.gpu_bandwidth_tbs("H100"), 2, 8)
    assert h100 == pytest.approx(8 * 3.35e12 / 140e9)
