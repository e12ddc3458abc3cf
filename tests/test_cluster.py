"""Cluster compute, training time and MFU against published figures."""

from __future__ import annotations

import numpy as np
import pytest

import xlfuncs as xf
from xlfuncs import udfs


def code(result) -> str:
    assert isinstance(result, str), result
    return result.split(" ", 1)[0]


def test_megatron_gpt3_training_days():
    # Narayanan et al. 2021: GPT-3 175B on 300B tokens, 1,024 A100s at 140 TFLOP/s,
    # 8 FLOPs per parameter-token (activation recomputation) -> about 34 days.
    days = xf.training_days(175e9, 300e9, 1024, 140, 8)
    assert days == pytest.approx(34, abs=0.5)
    assert days == pytest.approx(8 * 175e9 * 300e9 / (1024 * 140e12) / 86400, rel=1e-12)
    # The default is 6 FLOPs per parameter-token.
    assert xf.training_days(175e9, 300e9, 1024, 140) == pytest.approx(days * 6 / 8)


def test_training_days_takes_the_attention_term():
    # Narayanan et al. 2021, FLOPs per iteration 96·B·s·l·h²·(1 + s/6h + V/16lh):
    # the s/6h term is 16·l·h·s FLOPs per token with recomputation (k = 8), for
    # GPT-3 (96 layers, h = 12,288, s = 2,048) 16 × 96 × 12,288 × 2,048.
    attention = 16 * 96 * 12288 * 2048
    days = xf.training_days(175e9, 300e9, 1024, 140, 8, 96, 12288, 2048)
    by_hand = (8 * 175e9 + attention) * 300e9 / (1024 * 140e12) / 86400
    assert days == pytest.approx(by_hand, rel=1e-12)
    assert days == pytest.approx(34, abs=1)  # "about 34 days"
    # At k = 6 the term is PaLM's 12·L·(H·Q)·T, as FLOPS_PER_TOKEN's: Llama 2
    # 7B (6,738,415,616 parameters, 32 layers, 32 heads of 128) at 4,096 tokens.
    n = 6_738_415_616
    per_token = 6 * n + 12 * 32 * 4096 * 4096
    assert xf.flops_per_token(n, 32, 4096, 4096) == per_token
    with_attention = xf.training_days(n, 1e12, 64, 400, 6, 32, 4096, 4096)
    assert with_attention == pytest.approx(per_token * 1e12 / (64 * 400e12) / 86400)
    # Without it the time is the "14 % short".
    without = xf.training_days(n, 1e12, 64, 400)
    assert 1 - without / with_attention == pytest.approx(0.137, abs=0.001)
    # The shape comes whole, as for FLOPS_PER_TOKEN.
    with pytest.raises(TypeError, match="together"):
        xf.training_days(n, 1e12, 64, 400, 6, 32)
    out = udfs.TRAINING_DAYS(n, 1e12, 64.0, 400.0, 6.0, 32.0)
    assert code(out) == "#VALUE!"


def test_palm_mfu():
    # Chowdhery et al. 2022, appendix B: 540.35B parameters, 118 layers, attention
    # width 48 x 256 = 12,288, 2,048 tokens, 238.3K tokens/s on 6,144 TPU v4 chips
    # at 275 TFLOP/s -> 46.2 % MFU.
    per_chip = 238.3e3 / 6144
    m = xf.mfu(per_chip, 540.35e9, 275, 118, 12288, 2048)
    assert round(m * 100, 1) == 46.2
    # Without the attention term the MFU is lower (6N only):
    # 38.786 × 6 × 540.35e9 / 275e12 = 45.7 %.
    m6 = xf.mfu(per_chip, 540.35e9, 275)
    assert round(m6 * 100, 1) == 45.7
    assert m6 == pytest.approx(per_chip * 6 * 540.35e9 / 275e12, rel=1e-12)
    assert xf.flops_per_token(540.35e9, 118, 12288, 2048) == pytest.approx(
        6 * 540.35e9 + 12 * 118 * 12288 * 2048, rel=1e-12
    )


def test_tokens_per_sec_inverts_mfu():
    v = xf.tokens_per_sec_per_gpu(540.35e9, 275, 0.462, 118, 12288, 2048)
    assert xf.mfu(v, 540.35e9, 275, 118, 12288, 2048) == pytest.approx(0.462)
    assert v * 6144 == pytest.approx(238.3e3, rel=2e-3)


def test_cluster_days_inverts_pfdays():
    budget = xf.cluster_pfdays(1024, 989.4, 0.4, 30)
    assert budget == pytest.approx(1024 * 989.4e12 * 0.4 * 30 * 86400 / 8.64e19)
    assert xf.cluster_days(budget, 1024, 989.4, 0.4) == pytest.approx(30, rel=1e-12)
    # The chain: a cluster for a month buys this compute-optimal model.
    n = xf.chinchilla_params(budget)
    days = xf.training_days(n, 20 * n, 1024, 989.4 * 0.4)
    assert days == pytest.approx(30, rel=1e-12)


def test_shape_arguments_come_together():
    with pytest.raises(TypeError, match="together"):
        xf.flops_per_token(7e9, 32)
    with pytest.raises(TypeError, match="attention_width"):
        xf.mfu(1000, 7e9, 989.4, 32, seq_len=4096)
    out = udfs.FLOPS_PER_TOKEN([[7e9]], [[32.0]], [[None]], [[None]])
    assert out.startswith("#VALUE!") and "together" in out
    assert udfs.FLOPS_PER_TOKEN(7e9) == 42e9


def test_mfu_range_and_errors():
    out = udfs.MFU([[1000.0], [2000.0]], 7e9, 989.4)
    np.testing.assert_allclose(
        out, [[1000 * 42e9 / 989.4e12], [2000 * 42e9 / 989.4e12]]
    )
    assert udfs.CLUSTER_PFDAYS(8, 989.4, 40, 1).startswith(
        "#NUM! mfu must be a fraction"
    )


def test_gpu_peaks_are_dense_datasheet_figures():
    assert xf.gpu_peak_tflops("H100") == 989.4  # 1,979 with sparsity
    assert xf.gpu_peak_tflops("H100 SXM", "fp8") == pytest.approx(1978.9)
    assert xf.gpu_peak_tflops("a100") == 312
    assert xf.gpu_peak_tflops("A100", "tf32") == 156
    assert xf.gpu_peak_tflops("TPU v4") == 275  # PaLM's figure
    assert xf.gpu_peak_tflops("MI300X", "fp16") == pytest.approx(1307.4)
    for name in ("H200", "B200", "L40S", "TPU v5e", "TPU v5p"):
        assert xf.gpu_peak_tflops(name) > 0


def test_gpu_names_and_dtypes():
    assert xf.gpu_peak_tflops("nvidia h100-sxm", "BF16") == 989.4
    assert xf.gpu_peak_tflops("H100", "bfloat16") == 989.4
    with pytest.raises(ValueError) as info:
        xf.gpu_peak_tflops("H1000")
    assert info.value.code == "#N/A"
    out = udfs.GPU_PEAK_TFLOPS([["H100"], ["V100"], ["nope"]])
    assert out[0][0] == 989.4
    assert out[1][0].startswith("#N/A") and "fp16" in out[1][0]  # V100 has no bf16
    # A name it does not know: a suggestion, or the names it does know.
    assert out[2][0].startswith("#N/A") and "H100 SXM" in out[2][0]
    assert "did you mean H100?" in udfs.GPU_PEAK_TFLOPS("H1000")
    assert udfs.GPU_PEAK_TFLOPS("H100", "fp64").startswith("#N/A")
    assert udfs.GPU_PEAK_TFLOPS(3.0).startswith("#VALUE!")


def test_accelerator_table_is_consistent():
    from xlfuncs.data.accelerators import ACCELERATORS, find

    for acc in ACCELERATORS:
        assert (
            acc.source.startswith(("NVIDIA", "AMD", "Google", "Intel"))
            or "http" in acc.source
        )
        assert "http" in acc.source, acc.name
        assert find(acc.name) is acc
        for alias in acc.aliases:
            assert find(alias) is acc
        tf = acc.peak_tflops
        if "bf16" in tf and "fp8" in tf and acc.vendor in ("NVIDIA", "AMD"):
            assert tf["fp8"] == pytest.approx(2 * tf["bf16"], rel=0.02), acc.name
        if "tf32" in tf and "bf16" in tf:
            assert tf["tf32"] <= tf["bf16"] / 2 * 1.02, acc.name
