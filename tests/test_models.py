"""The published models' table and MODEL_SPEC; the accelerators' memory, bandwidth,
power look-ups."""

from __future__ import annotations

import json
import os
import time

import pytest

import xlfuncs as xf
from xlfuncs import udfs
from xlfuncs.data.accelerators import ACCELERATORS
from xlfuncs.data.configs import COUNTED, model_from_config
from xlfuncs.data.models import (
    _GEMMA3_SIGLIP,
    BY_NAME,
    MODELS,
    Model,
    find_model,
    recount,
)


def code(result) -> str:
    assert isinstance(result, str), result
    return result.split(" ", 1)[0]


#: Rows whose published active count is a label the shape misses by more than
#: 1 %, and by how much (recount / published - 1): no exact count of the
#: parameters a token uses is published for these checkpoints, so the label
#: stays (each row's params_source says so). Their totals are within 1 %.
ACTIVE_MISSES = {
    "Llama 4 Scout": 0.0102,  # "17B (Activated)": 17,172,894,720
    "Llama 4 Maverick": 0.0109,  # "17B (Activated)": 17,184,691,200
    "Qwen3 30B-A3B": 0.0161,  # "3.3B activated": 3,353,032,704
    "DeepSeek-V3": 0.0149,  # "37B activated": 37,552,282,624
    "DeepSeek-R1": 0.0149,
}


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.name)
def test_published_count_is_the_shape_within_1_percent(model):
    assert recount(model) == pytest.approx(model.params, rel=0.01)
    if model.experts:
        assert model.active_params is not None
        active = recount(model, active=True)
        if model.name in ACTIVE_MISSES:
            miss = active / model.active_params - 1
            assert miss == pytest.approx(ACTIVE_MISSES[model.name], abs=5e-5)
        else:
            assert active == pytest.approx(model.active_params, rel=0.01)
    else:
        assert model.active_params is None
        assert model.name not in ACTIVE_MISSES


def test_recount_reproduces_exact_published_counts():
    by = {m.name: m for m in MODELS}
    # Gemma 2 report (arXiv 2408.00118), table 2: non-embedding parameters
    # 2,024,517,888 / 8,324,201,984 / 26,047,480,320.
    for name, non_embedding in (
        ("Gemma 2 2B", 2_024_517_888),
        ("Gemma 2 9B", 8_324_201_984),
        ("Gemma 2 27B", 26_047_480_320),
    ):
        m = by[name]
        assert recount(m) - m.vocab * m.d_model == non_embedding
    # keras-hub's Phi-3 mini preset records 3,821,079,552 parameters.
    assert recount(by["Phi-3 mini 4k"]) == 3_821_079_552
    # PEFT's printout for Llama 2 7B: all params 6,742,609,920 with 4,194,304
    # LoRA weights (llama-recipes quickstart).
    assert recount(by["Llama 2 7B"]) == 6_742_609_920 - 4_194_304
    # Checkpoint counts recorded by others: Together AI's client
    # (togethercomputer/together-python, src/together/finetune.py) for Llama 2;
    # GGUF metadata (general.parameter_count) for Mistral Nemo and Phi-4.
    assert recount(by["Llama 2 13B"]) == 13_015_864_320
    assert recount(by["Llama 2 70B"]) == 68_976_648_192
    assert recount(by["Mistral Nemo 12B"]) == 12_247_782_400
    assert recount(by["Phi-4"]) == 14_659_507_200
    # Mixtral: "46.7B total parameters but only uses 12.9B parameters per token".
    assert round(recount(by["Mixtral 8x7B"]) / 1e9, 1) == 46.7
    assert round(recount(by["Mixtral 8x7B"], active=True) / 1e9, 1) == 12.9
    # PaLM, table 1: 540.35 B.
    assert int(recount(by["PaLM 540B"]) / 1e7) / 100 == 540.35
    # KerasHub's Qwen3 presets (keras-team/keras-hub,
    # keras_hub/src/models/qwen3/qwen3_presets.py) record each checkpoint's count.
    for name, count in (
        ("Qwen3 0.6B", 596_049_920),
        ("Qwen3 1.7B", 1_720_574_976),
        ("Qwen3 4B", 4_022_468_096),
        ("Qwen3 8B", 8_190_735_360),
        ("Qwen3 14B", 14_768_307_200),
        ("Qwen3 32B", 32_762_123_264),
    ):
        assert recount(by[name]) == count, name
    # Fireworks AI's fine-tuning catalogue (paramCount): Mistral Small 24B
    # Instruct 2501 and gpt-oss; a GGUF header's tensors of Qwen3-30B-A3B.
    assert recount(by["Mistral Small 3 24B"]) == 23_572_403_200
    assert recount(by["gpt-oss-20b"]) == 20_914_757_184
    assert recount(by["gpt-oss-120b"]) == 116_829_156_672
    assert recount(by["Qwen3 30B-A3B"]) == 30_532_122_624
    # Gemma 3 report (arXiv 2503.19786), table 1: vision encoder 417M and
    # non-embedding parameters 3,209M / 10,759M / 25,600M.
    for name, non_embedding in (
        ("Gemma 3 4B", 3_209),
        ("Gemma 3 12B", 10_759),
        ("Gemma 3 27B", 25_600),
    ):
        m = by[name]
        text = recount(m) - m.extra_params
        assert round((text - m.vocab * m.d_model) / 1e6) == non_embedding, name
        assert round(_GEMMA3_SIGLIP / 1e6) == 417
    # The DeepSeek-V3 README: "671B of the Main Model weights".
    assert round(recount(by["DeepSeek-V3"]) / 1e9) == 671


def test_chinchilla_needs_its_relative_positions():
    # Without Transformer-XL's relative-position weights Chinchilla's shape
    # (Hoffmann et al. 2022, table 4) counts 64.7 B, 7.6 % short of its 70 B.
    chinchilla = next(m for m in MODELS if m.name == "Chinchilla 70B")
    plain = Model(**{**chinchilla.__dict__, "relative_positions": False})
    assert recount(plain) / 70e9 == pytest.approx(0.924, abs=0.001)


def test_every_row_is_cited_and_well_formed():
    names = set()
    for m in MODELS:
        assert "http" in m.source or "arXiv" in m.source or "et al." in m.source
        assert m.params_source, m.name
        assert m.name not in names
        names.add(m.name)
        assert m.kv_heads <= m.heads and m.heads % m.kv_heads == 0, m.name
        assert xf.model_spec(m.name, "params") == m.params
        for alias in m.aliases:
            assert xf.model_spec(alias, "layers") == m.layers, alias


@pytest.mark.parametrize(
    "name",
    [
        "Llama 3.1 70B",
        "llama-3.1-70b",
        "LLAMA_3.1_70B",
        " Llama 3.1 70B\u00a0",
        "meta-llama/Llama-3.1-70B",
        "Llama-3.1-70B-Instruct",
        "Meta-Llama-3.1-70B",
        "llama3.1:70b",
    ],
)
def test_model_spec_by_name_variants(name):
    # meta-llama/Llama-3.1-70B config.json: 80 layers, hidden 8,192, 64 heads,
    # 8 key/value heads, intermediate 28,672, vocab 128,256, 131,072 positions.
    want = {
        "layers": 80,
        "d_model": 8192,
        "heads": 64,
        "kv_heads": 8,
        "head_dim": 128,
        "ffn_dim": 28672,
        "vocab": 128256,
        "context": 131072,
    }
    for field, value in want.items():
        assert xf.model_spec(name, field) == value
        assert udfs.MODEL_SPEC(name, field) == value


def test_field_names_and_derived_fields():
    assert xf.model_spec("Mistral 7B", "hidden_size") == 4096
    assert xf.model_spec("Mistral 7B", "num_key_value_heads") == 8
    assert xf.model_spec("Mistral 7B", "D-Model") == 4096
    # PaLM's attention width is 48 × 256 = 12,288, not its d_model 18,432.
    assert xf.model_spec("PaLM 540B", "attention_width") == 12288
    assert xf.model_spec("Llama 3 8B", "kv_width") == 1024
    # A dense model uses all its parameters per token; Mixtral 12.9 B of 46.7 B.
    assert xf.model_spec("Llama 3 8B", "active_params") == 8e9
    assert xf.model_spec("Mixtral 8x7B", "active_params") == 12.9e9
    assert xf.model_spec("Mixtral 8x7B", "params") == 46.7e9


def test_model_spec_feeds_the_other_functions():
    # Llama 2 7B, r = 8 on q_proj and v_proj, from the table: PEFT's 4,194,304.
    layers = xf.model_spec("Llama 2 7B", "layers")
    d = xf.model_spec("Llama 2 7B", "d_model")
    assert xf.lora_params(layers, d, 8, 2) == 4_194_304
    # PaLM's FLOPs per token take its attention width.
    width = xf.model_spec("PaLM 540B", "attention_width")
    assert xf.flops_per_token(540.35e9, 118, width, 2048) == pytest.approx(
        6 * 540.35e9 + 12 * 118 * 12288 * 2048
    )


def test_experts_of_mixtures_and_dense_models():
    # mistralai/Mixtral-8x7B-v0.1 and Mixtral-8x22B-v0.1 config.json:
    # "num_local_experts": 8, "num_experts_per_tok": 2.
    for name in ("Mixtral 8x7B", "Mixtral 8x22B"):
        assert xf.model_spec(name, "experts") == 8
        assert xf.model_spec(name, "experts_per_token") == 2
        assert xf.model_spec(name, "num_local_experts") == 8
        assert xf.model_spec(name, "num_experts_per_tok") == 2
    # A dense model: one expert, which every token uses.
    assert xf.model_spec("Llama 3.1 8B", "experts") == 1
    assert xf.model_spec("Llama 3.1 8B", "experts_per_token") == 1
    assert udfs.MODEL_SPEC("Mixtral 8x7B", [["experts", "experts_per_token"]]) == [
        [8.0, 2.0]
    ]
    # Every mixture in the table says both.
    for m in MODELS:
        assert (m.experts is None) == (m.experts_per_token is None), m.name


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        # The family first, then the nearest size: not the Llama 3 70B that a
        # plain string comparison finds closest to "Llama 3 7B".
        ("Llama 3 7B", "Llama 3 8B"),
        ("Llama 3.1 7B", "Llama 3.1 8B"),
        ("meta-llama/Llama-3-7B", "Llama 3 8B"),
        ("llama3:7b", "Llama 3 8B"),
        ("Llama-3.1-8B-Instruct-v2", "Llama 3.1 8B"),
        ("Llama 2 8B", "Llama 2 7B"),
        ("Qwen2.5 70B", "Qwen2.5 72B"),
        ("Gemma 2 8B", "Gemma 2 9B"),
        ("Mistral 7.2B", "Mistral 7B v0.1"),  # not Mixtral 8x7B
        ("Mixtral 8x8B", "Mixtral 8x7B"),
        ("Llama 3.1 400B", "Llama 3.1 405B"),
        # No size typed: the closest spelling, as before.
        ("Chinchila 70B", "Chinchilla 70B"),
        ("Phi 5", "Phi-4"),
    ],
)
def test_suggestions_rank_family_then_size(typed, meant):
    out = udfs.MODEL_SPEC(typed, "layers")
    assert code(out) == "#N/A" and f"did you mean {meant}?" in out, out
    with pytest.raises(xf.InvalidValueError, match=f"did you mean '{meant}'"):
        xf.model_spec(typed, "layers")


def test_a_misspelt_name_is_looked_up_once_per_range():
    from xlfuncs.registry.arguments import _hints

    _hints.cache_clear()
    out = udfs.MODEL_SPEC([["Llama 3 7B"]] * 1000 + [["Llama 3 8B"]], "layers")
    assert out[-1] == [32.0]
    assert {r[0] for r in out[:-1]} == {
        "#N/A model: unknown model 'Llama 3 7B'; did you mean Llama 3 8B?"
    }
    assert _hints.cache_info().misses == 1
    # And once for all calls: a sheet of single cells asks again from the cache.
    for _ in range(100):
        udfs.MODEL_SPEC("Llama 3 7B", "layers")
    assert _hints.cache_info().misses == 1


def test_unknown_models_and_fields_are_na():
    out = udfs.MODEL_SPEC("Llama 5 9B", "layers")
    assert code(out) == "#N/A" and "unknown model" in out
    assert "did you mean" in udfs.MODEL_SPEC("Llama 3.1 7B", "layers")
    out = udfs.MODEL_SPEC("Llama 3.1 70B", "depth")
    assert code(out) == "#N/A" and "unknown field" in out
    with pytest.raises(xf.InvalidValueError) as info:
        xf.model_spec("GPT-5", "params")
    assert info.value.code == "#N/A"
    assert code(udfs.MODEL_SPEC(7.0, "layers")) == "#VALUE!"
    # Ranges: a result per name, an error where a name is unknown.
    out = udfs.MODEL_SPEC([["Llama 2 7B"], ["nope"], ["Qwen2.5 7B"]], "layers")
    assert out[0][0] == 32 and code(out[1][0]) == "#N/A" and out[2][0] == 28
    assert udfs.MODEL_SPEC("Gemma 2 9B", [["heads", "kv_heads"]]) == [[16.0, 8.0]]


# ----------------------------------------------------------------- accelerators


def test_gpu_memory_bandwidth_power_are_datasheet_figures():
    # NVIDIA H100 datasheet, SXM column: 3.35 TB/s, up to 700 W (the TDP Meta's
    # Llama 3 card uses for its emissions); memory below.
    assert xf.gpu_bandwidth_tbs("H100") == 3.35
    assert xf.gpu_power_w("H100") == 700
    # NVIDIA A100 datasheet: 80GB SXM 2,039 GB/s 400 W; 40GB PCIe 1,555 GB/s 250 W.
    assert xf.gpu_bandwidth_tbs("A100") == 2.039
    assert xf.gpu_power_w("A100") == 400  # BLOOM's and Llama 2's 400 W
    assert xf.gpu_power_w("A100 40GB PCIe") == 250
    # AMD MI300X data sheet: 5.3 TB/s (footnote: 5.325), 750 W.
    assert xf.gpu_bandwidth_tbs("AMD Instinct MI300X") == 5.325
    # Intel: Gaudi 2, "96 GB of HBM2e at 2.45 TB/s".
    assert xf.gpu_bandwidth_tbs("Gaudi2") == 2.45


MIB, GIB = 2**20, 2**30

# The memory each part has, in bytes, by hand from the figure its source prints:
# nvidia-smi's total in MiB where a published output is cited, else the
# datasheet's size, which memory chips make binary ("80GB" of HBM is 80 GiB).
MEMORY_BYTES = {
    # nvidia-smi totals. modal-labs/modal-client pull request #2797 lists
    # "H100: 81559MiB (85.52 GB)", "A100 80GB: 81920MiB (85.89 GB)", "A100 40GB:
    # 40960MiB (42.94 GB)", "A10: 23028MiB (24.15 GB)", "L40S: 46068MiB
    # (48.30 GB)", "L4: 23034MiB (24.15 GB)"; NVIDIA/nccl issue #1264 shows an
    # H100 80GB HBM3 at "0MiB /  81559MiB"; NVIDIA/DCGM issue #232 an A10G at
    # "8722MiB / 23028MiB"; NVIDIA/TensorRT-LLM issue #10278 a B200 at
    # "166593MiB / 183359MiB"; H200 SXM systems report 143,771 MiB.
    "H100 SXM": 81_559 * MIB,
    "A100 SXM": 81_920 * MIB,
    "A100 SXM 40GB": 40_960 * MIB,
    "A10": 23_028 * MIB,
    "A10G": 23_028 * MIB,
    "L4": 23_034 * MIB,
    "L40S": 46_068 * MIB,
    "B200": 183_359 * MIB,
    "H200 SXM": 143_771 * MIB,
    # Published nvidia-smi tables: an HGX B300 "0MiB / 275040MiB", a GB300
    # "0MiB / 284208MiB" (NVIDIA's aiconfigurator b300_sxm.yaml and gb300.yaml
    # repeat both), an H20 "3MiB / 97871MiB", an RTX PRO 6000 Blackwell, Server
    # and Workstation Editions, "0MiB / 97887MiB".
    "B300": 275_040 * MIB,
    "GB300": 284_208 * MIB,
    "H20": 97_871 * MIB,
    "RTX PRO 6000": 97_887 * MIB,
    "RTX PRO 6000 WS": 97_887 * MIB,
    # Datasheets, read as GiB: NVIDIA V100 (32 GB / 16 GB HBM2), A100 PCIe (80 GB
    # HBM2e, 40 GB HBM2), H100 PCIe (80 GB), H100 NVL (94 GB), GH200 (96 GB HBM3,
    # 144 GB HBM3e), Blackwell GB200 NVL72 per GPU (186 GB HBM3E); AMD MI250X
    # (128 GB HBM2e), MI300X (192 GB HBM3), MI325X (256 GB HBM3E); Google TPU v3
    # and v4 ("32 GiB"), v5e (16 GB), v5p (95 GiB usable), v6e (32 GB); Intel
    # Gaudi 2 (96 GB HBM2e), Gaudi 3 (128 GB HBM2e); AMD MI350X and MI355X (288
    # GB HBM3E, ROCm's "VRAM (GiB)" column: 288).
    "V100 SXM2": 32 * GIB,
    "V100 SXM2 16GB": 16 * GIB,
    "A100 PCIe": 80 * GIB,
    "A100 PCIe 40GB": 40 * GIB,
    "H100 PCIe": 80 * GIB,
    "H100 NVL": 94 * GIB,
    "GH200": 96 * GIB,
    "GH200 144GB": 144 * GIB,
    "GB200": 186 * GIB,
    "MI250X": 128 * GIB,
    "MI300X": 192 * GIB,
    "MI325X": 256 * GIB,
    "TPU v3": 32 * GIB,
    "TPU v4": 32 * GIB,
    "TPU v5e": 16 * GIB,
    "TPU v5p": 95 * GIB,
    "TPU v6e": 32 * GIB,
    "Gaudi 2": 96 * GIB,
    "Gaudi 3": 128 * GIB,
    "MI350X": 288 * GIB,
    "MI355X": 288 * GIB,
}


def test_every_accelerator_has_its_memory_in_bytes():
    assert set(MEMORY_BYTES) == {a.name for a in ACCELERATORS}
    for name, nbytes in MEMORY_BYTES.items():
        assert xf.gpu_memory_gb(name) == pytest.approx(nbytes / 1e9, rel=1e-12), name
    # The figures: an "80GB" part holds 85.9 GB; an H200 150.8 GB.
    assert round(xf.gpu_memory_gb("A100 80GB"), 1) == 85.9
    assert round(xf.gpu_memory_gb("H200"), 1) == 150.8
    # Each row says where its memory figure comes from.
    for acc in ACCELERATORS:
        assert "nvidia-smi" in acc.specs_source or "GiB" in acc.specs_source, acc.name


def test_a_figure_the_vendor_does_not_publish_is_na():
    with pytest.raises(xf.InvalidValueError) as info:
        xf.gpu_power_w("TPU v5e")
    assert info.value.code == "#N/A"
    out = udfs.GPU_POWER_W("TPU v5e")
    assert code(out) == "#N/A" and "publishes no power" in out
    assert code(udfs.GPU_MEMORY_GB("H1000")) == "#N/A"
    out = udfs.GPU_MEMORY_GB([["H100"], ["B200"]])
    assert out == [[81_559 * 2**20 / 1e9], [183_359 * 2**20 / 1e9]]


def test_accelerator_specs_are_cited():
    for acc in ACCELERATORS:
        assert acc.memory_gb and acc.bandwidth_tbs, acc.name
        assert acc.specs_source, acc.name
        assert "http" in acc.specs_source or "(above)" in acc.specs_source, acc.name
        if acc.power_w is None:
            assert "no power" in acc.specs_source, acc.name
    gaudi = next(a for a in ACCELERATORS if a.name == "Gaudi 2")
    assert "not confirmed" not in gaudi.source and "hotchips.org" in gaudi.source


def test_fp4_peaks_are_dense():
    # Blackwell datasheet: HGX B200 "Total NVFP4 Tensor Core 144 | 72 PFLOPS"
    # over 8 GPUs, GB200 NVL72 "1,440 | 720 PFLOPS" over 72. Blackwell Ultra
    # datasheet, printed sparse | dense (not 2:1): HGX B300 board 144 | 108,
    # GB300 NVL72 "20 PFLOPS | 15 PFLOPS" per GPU. AMD MI355X: "MXFP4 10.1
    # PFLOPs", dense (256 CUs x 16,384 FLOP a clock x 2.4 GHz).
    assert xf.gpu_peak_tflops("B200", "fp4") == 72_000 / 8
    assert xf.gpu_peak_tflops("GB200", "nvfp4") == 720_000 / 72
    assert xf.gpu_peak_tflops("HGX B300", "FP4") == 108_000 / 8
    assert xf.gpu_peak_tflops("GB300 NVL72", "fp4") == 15_000
    assert xf.gpu_peak_tflops("AMD Instinct MI355X", "mxfp4") == pytest.approx(
        256 * 16_384 * 2.4e9 / 1e12, abs=0.05
    )
    assert round(xf.gpu_peak_tflops("MI355X", "fp4") / 1000, 1) == 10.1
    # Blackwell Ultra's other tensor rows are halved as usual: FP8 9 PF, BF16
    # 4.5 PF, INT8 307 TOPS, all sparse.
    assert xf.gpu_peak_tflops("B300", "fp8") == 4500
    assert xf.gpu_peak_tflops("B300") == 2250
    assert xf.gpu_peak_tflops("B300", "int8") == 153.5
    # No FP4 before Blackwell and CDNA 4.
    for name in ("H100", "H200", "H20", "MI300X", "A100"):
        assert udfs.GPU_PEAK_TFLOPS(name, "fp4").startswith("#N/A"), name


def test_new_accelerators_follow_the_conventions():
    # The RTX PRO 6000 Server Edition's 4 / 2 / 1 PFLOPS, read as sparse (the
    # Workstation sheet marks its 4,000 AI TOPS "with sparsity").
    assert xf.gpu_peak_tflops("RTX PRO 6000") == 500
    assert xf.gpu_peak_tflops("RTX PRO 6000 Workstation Edition", "fp4") == 2000
    assert xf.gpu_bandwidth_tbs("RTX PRO 6000") == 1.597
    assert xf.gpu_bandwidth_tbs("RTX PRO 6000 Workstation") == 1.792
    # H20: 148 dense (129.1 measured), 400 W as the spec sheets say; boards cap
    # at 500 W, which the row says.
    h20 = next(a for a in ACCELERATORS if a.name == "H20")
    assert xf.gpu_peak_tflops("H20") == 148 and xf.gpu_power_w("H20") == 400
    assert "500 W" in h20.specs_note
    assert xf.gpu_power_w("B300") == 1100 and xf.gpu_power_w("GB300") == 1400
    assert xf.gpu_power_w("MI355X") == 1400 and xf.gpu_power_w("MI350X") == 1000


def test_network_and_node_size():
    by = {a.name: a for a in ACCELERATORS}
    # A ConnectX-7 of 400 Gb/s per GPU on HGX H100, H200 and B200; a ConnectX-8
    # of 800 Gb/s on HGX B300 and GB300; 8 GPUs an HGX board, 72 an NVL72 rack.
    for name in ("H100 SXM", "H200 SXM", "B200"):
        assert (by[name].network_gbps, by[name].node_gpus) == (400, 8), name
    assert (by["B300"].network_gbps, by["B300"].node_gpus) == (800, 8)
    assert (by["GB300"].network_gbps, by["GB300"].node_gpus) == (800, 72)
    assert by["GB200"].node_gpus == 72
    for acc in ACCELERATORS:
        if acc.network_gbps is not None or acc.node_gpus is not None:
            assert acc.network_source, acc.name
        else:
            assert not acc.network_source, acc.name


# ----------------------------------------------------------- new architectures


def test_fields_of_latent_attention_windows_and_expert_layouts():
    # DeepSeek-V3's config.json: kv_lora_rank 512 + qk_rope_head_dim 64 cached
    # a token and layer, one latent for all heads.
    assert xf.model_spec("DeepSeek-V3", "cache_width") == 576
    assert xf.model_spec("DeepSeek-R1", "cache_heads") == 1
    assert xf.model_spec("deepseek-v3", "n_shared_experts") == 1
    assert xf.model_spec("DeepSeek-V3", "first_k_dense_replace") == 3
    # gpt-oss: 128-token windows on every other layer, 8 key/value heads of 64.
    assert xf.model_spec("gpt-oss:120b", "window") == 128
    assert xf.model_spec("openai/gpt-oss-120b", "windowed_layers") == 18
    assert xf.model_spec("gpt-oss-20b", "cache_width") == 2 * 8 * 64
    # Gemma 3: 5 of every 6 layers windowed (layer i global where (i+1) % 6 == 0).
    for name, layers in (("Gemma 3 4B", 34), ("Gemma 3 12B", 48), ("Gemma 3 27B", 62)):
        assert xf.model_spec(name, "windowed_layers") == layers - layers // 6
    # Llama 4: chunks of 8,192 on 36 of 48 layers; Maverick's 24 dense layers.
    assert xf.model_spec("llama4:maverick", "dense_layers") == 24
    assert xf.model_spec("Llama 4 Scout", "windowed_layers") == 36
    # A dense model gives its context for the window.
    assert xf.model_spec("Qwen3 8B", "window") == 40_960


@pytest.mark.parametrize(
    ("spelling", "name"),
    [
        ("Qwen3 235B A22B", "Qwen3 235B-A22B"),
        ("qwen3:30b", "Qwen3 30B-A3B"),
        ("Qwen/Qwen3-8B-Base", "Qwen3 8B"),
        ("Llama-4-Maverick-17B-128E-Instruct", "Llama 4 Maverick"),
        ("llama4:scout", "Llama 4 Scout"),
        ("deepseek-ai/DeepSeek-R1", "DeepSeek-R1"),
        ("gpt-oss:20b", "gpt-oss-20b"),
        ("google/gemma-3-27b-it", "Gemma 3 27B"),
        ("gemma3:12b", "Gemma 3 12B"),
        ("mistralai/Mistral-Small-24B-Instruct-2501", "Mistral Small 3 24B"),
        ("Mistral-Small-3.2-24B-Instruct-2506", "Mistral Small 3.1 24B"),
        ("mistral-small3.1:24b", "Mistral Small 3.1 24B"),
    ],
)
def test_new_models_by_their_usual_spellings(spelling, name):
    hit = find_model(spelling)
    assert hit is not None and hit.name == name


# ------------------------------------------------------------ config.json files

LLAMA4_VISION = {
    "model_type": "llama4_vision_model", "hidden_size": 1408, "image_size": 336,
    "intermediate_size": 5632, "num_attention_heads": 16, "num_hidden_layers": 34,
    "patch_size": 14, "pixel_shuffle_ratio": 0.5, "projector_input_dim": 4096,
    "projector_output_dim": 4096, "vision_output_dim": 4096,
}  # fmt: skip
LLAMA4_TEXT = {
    "model_type": "llama4_text", "attention_bias": False, "attention_chunk_size": 8192,
    "head_dim": 128, "hidden_size": 5120, "intermediate_size": 8192,
    "intermediate_size_mlp": 16384, "num_attention_heads": 40, "num_experts_per_tok": 1,
    "num_hidden_layers": 48, "num_key_value_heads": 8, "vocab_size": 202048,
}  # fmt: skip


def _qwen3(h, ff, layers, heads, kv, tie):
    return {
        "model_type": "qwen3", "attention_bias": False, "head_dim": 128,
        "hidden_size": h, "intermediate_size": ff, "max_position_embeddings": 40960,
        "num_attention_heads": heads, "num_hidden_layers": layers,
        "num_key_value_heads": kv, "tie_word_embeddings": tie, "vocab_size": 151936,
        "use_sliding_window": False, "sliding_window": None,
    }  # fmt: skip


def _qwen3_moe(h, ff, moe_ff, layers, heads, kv):
    return {
        "model_type": "qwen3_moe", "attention_bias": False, "decoder_sparse_step": 1,
        "head_dim": 128, "hidden_size": h, "intermediate_size": ff,
        "max_position_embeddings": 40960, "mlp_only_layers": [],
        "moe_intermediate_size": moe_ff, "num_attention_heads": heads,
        "num_experts": 128, "num_experts_per_tok": 8, "num_hidden_layers": layers,
        "num_key_value_heads": kv, "tie_word_embeddings": False,
        "vocab_size": 151936, "use_sliding_window": False, "sliding_window": None,
    }  # fmt: skip


def _gpt_oss(layers, experts):
    return {
        "model_type": "gpt_oss", "attention_bias": True, "experts_per_token": 4,
        "head_dim": 64, "hidden_size": 2880, "intermediate_size": 2880,
        "layer_types": ["sliding_attention", "full_attention"] * (layers // 2),
        "max_position_embeddings": 131072, "num_attention_heads": 64,
        "num_experts_per_tok": 4, "num_hidden_layers": layers,
        "num_key_value_heads": 8, "num_local_experts": experts,
        "sliding_window": 128, "tie_word_embeddings": False, "vocab_size": 201088,
    }  # fmt: skip


SIGLIP = {
    "model_type": "siglip_vision_model", "hidden_size": 1152, "image_size": 896,
    "intermediate_size": 4304, "num_attention_heads": 16, "num_hidden_layers": 27,
    "patch_size": 14, "vision_use_head": False,
}  # fmt: skip
MISTRAL_SMALL = {
    "model_type": "mistral", "head_dim": 128, "hidden_size": 5120,
    "intermediate_size": 32768, "max_position_embeddings": 32768,
    "num_attention_heads": 32, "num_hidden_layers": 40, "num_key_value_heads": 8,
    "rope_theta": 100000000.0, "sliding_window": None, "tie_word_embeddings": False,
    "vocab_size": 131072,
}  # fmt: skip

#: Each family's config.json, with the values of the published models' files
#: (the rows' sources; /work/research's copies for the 2025 models), and the
#: row it describes.
CONFIGS = {
    "Llama 3.1 8B": {
        "model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
        "max_position_embeddings": 131072, "num_attention_heads": 32,
        "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 128256,
        "tie_word_embeddings": False, "attention_bias": False, "mlp_bias": False,
    },
    "Llama 3.2 1B": {
        "model_type": "llama", "head_dim": 64, "hidden_size": 2048,
        "intermediate_size": 8192, "max_position_embeddings": 131072,
        "num_attention_heads": 32, "num_hidden_layers": 16, "num_key_value_heads": 8,
        "vocab_size": 128256, "tie_word_embeddings": True,
    },
    "Llama 4 Scout": {
        "model_type": "llama4", "tie_word_embeddings": False,
        "text_config": {**LLAMA4_TEXT, "interleave_moe_layer_step": 1,
                        "num_local_experts": 16, "use_qk_norm": True,
                        "max_position_embeddings": 262144, "no_rope_layers": []},
        "vision_config": LLAMA4_VISION,
    },
    "Llama 4 Maverick": {
        "model_type": "llama4", "tie_word_embeddings": False,
        "text_config": {**LLAMA4_TEXT, "interleave_moe_layer_step": 2,
                        "num_local_experts": 128, "use_qk_norm": False,
                        "max_position_embeddings": 1048576},
        "vision_config": LLAMA4_VISION,
    },
    "Mistral 7B v0.1": {
        "model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336,
        "max_position_embeddings": 32768, "num_attention_heads": 32,
        "num_hidden_layers": 32, "num_key_value_heads": 8, "sliding_window": 4096,
        "tie_word_embeddings": False, "vocab_size": 32000,
    },
    "Mistral Nemo 12B": {
        "model_type": "mistral", "head_dim": 128, "hidden_size": 5120,
        "intermediate_size": 14336, "max_position_embeddings": 128000,
        "num_attention_heads": 32, "num_hidden_layers": 40, "num_key_value_heads": 8,
        "sliding_window": None, "tie_word_embeddings": False, "vocab_size": 131072,
    },
    "Mistral Small 3 24B": MISTRAL_SMALL,
    "Mistral Small 3.1 24B": {
        "model_type": "mistral3", "spatial_merge_size": 2,
        "multimodal_projector_bias": False, "tie_word_embeddings": False,
        "text_config": {**MISTRAL_SMALL, "max_position_embeddings": 131072},
        "vision_config": {"model_type": "pixtral", "head_dim": 64, "hidden_size": 1024,
                          "image_size": 1540, "intermediate_size": 4096,
                          "num_attention_heads": 16, "num_hidden_layers": 24,
                          "patch_size": 14},
    },
    "Mixtral 8x7B": {
        "model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
        "max_position_embeddings": 32768, "num_attention_heads": 32,
        "num_experts_per_tok": 2, "num_hidden_layers": 32, "num_key_value_heads": 8,
        "num_local_experts": 8, "sliding_window": None, "tie_word_embeddings": False,
        "vocab_size": 32000,
    },
    "Qwen2.5 7B": {
        "model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944,
        "max_position_embeddings": 131072, "max_window_layers": 28,
        "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4,
        "sliding_window": 131072, "tie_word_embeddings": False,
        "use_sliding_window": False, "vocab_size": 152064,
    },
    "Qwen2.5 0.5B": {
        "model_type": "qwen2", "hidden_size": 896, "intermediate_size": 4864,
        "max_position_embeddings": 32768, "max_window_layers": 24,
        "num_attention_heads": 14, "num_hidden_layers": 24, "num_key_value_heads": 2,
        "sliding_window": 32768, "tie_word_embeddings": True,
        "use_sliding_window": False, "vocab_size": 151936,
    },
    "Qwen3 0.6B": _qwen3(1024, 3072, 28, 16, 8, True),
    "Qwen3 1.7B": _qwen3(2048, 6144, 28, 16, 8, True),
    "Qwen3 8B": _qwen3(4096, 12288, 36, 32, 8, False),
    "Qwen3 32B": _qwen3(5120, 25600, 64, 64, 8, False),
    "Qwen3 30B-A3B": _qwen3_moe(2048, 6144, 768, 48, 32, 4),
    "Qwen3 235B-A22B": _qwen3_moe(4096, 12288, 1536, 94, 64, 4),
    "Gemma 2 9B": {
        "model_type": "gemma2", "head_dim": 256, "hidden_size": 3584,
        "intermediate_size": 14336, "max_position_embeddings": 8192,
        "num_attention_heads": 16, "num_hidden_layers": 42, "num_key_value_heads": 8,
        "sliding_window": 4096, "vocab_size": 256000,
    },
    # google/gemma-3-4b-pt's file is sparse: its text model's heads, key/value
    # heads, head_dim, vocabulary and tying are Gemma3TextConfig's defaults.
    "Gemma 3 4B": {
        "model_type": "gemma3", "mm_tokens_per_image": 256,
        "text_config": {"model_type": "gemma3_text", "hidden_size": 2560,
                        "intermediate_size": 10240, "num_hidden_layers": 34,
                        "sliding_window": 1024,
                        "rope_scaling": {"factor": 8.0, "rope_type": "linear"}},
        "vision_config": SIGLIP,
    },
    "Gemma 3 27B": {
        "model_type": "gemma3",
        "text_config": {"model_type": "gemma3_text", "head_dim": 128,
                        "hidden_size": 5376, "intermediate_size": 21504,
                        "num_hidden_layers": 62, "num_attention_heads": 32,
                        "num_key_value_heads": 16, "query_pre_attn_scalar": 168,
                        "sliding_window": 1024},
        "vision_config": SIGLIP,
    },
    "DeepSeek-V3": {
        "model_type": "deepseek_v3", "attention_bias": False,
        "first_k_dense_replace": 3, "hidden_size": 7168, "intermediate_size": 18432,
        "kv_lora_rank": 512, "max_position_embeddings": 163840,
        "moe_intermediate_size": 2048, "moe_layer_freq": 1, "n_group": 8,
        "n_routed_experts": 256, "n_shared_experts": 1, "num_attention_heads": 128,
        "num_experts_per_tok": 8, "num_hidden_layers": 61, "num_key_value_heads": 128,
        "num_nextn_predict_layers": 1, "q_lora_rank": 1536, "qk_nope_head_dim": 128,
        "qk_rope_head_dim": 64, "tie_word_embeddings": False, "v_head_dim": 128,
        "vocab_size": 129280,
    },
    "gpt-oss-20b": _gpt_oss(24, 32),
    "gpt-oss-120b": _gpt_oss(36, 128),
}  # fmt: skip

#: The shape fields a config.json gives, compared with the row's.
SHAPE = (
    "layers", "d_model", "heads", "kv_heads", "head_dim", "ffn_dim", "vocab",
    "context", "experts", "experts_per_token", "shared_experts", "dense_layers",
    "dense_ffn_dim", "attention", "kv_lora_rank", "tied_embeddings", "qkv_bias",
    "qk_norm", "norms_per_layer", "extra_params",
)  # fmt: skip


@pytest.mark.parametrize("name", CONFIGS)
def test_a_config_file_is_its_published_model(name, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(CONFIGS[name]))
    row = BY_NAME[name]
    m = find_model(str(path))
    assert m is not None and m.name == str(path.resolve())
    assert m.source == str(path.resolve()) and m.params_source == COUNTED
    for field in SHAPE:
        assert getattr(m, field) == getattr(row, field), field
    # The counts: the row's recount to the parameter, and so its published
    # count within 1 % (and its active count, but for the labels the test
    # above lists).
    assert m.params == recount(row)
    assert m.params == pytest.approx(row.params, rel=0.01)
    if row.experts:
        assert m.active_params == recount(row, active=True)
        if name not in ACTIVE_MISSES:
            assert m.active_params == pytest.approx(row.active_params, rel=0.01)
    else:
        assert m.active_params is None
    # The functions take the path as they take a name.
    assert xf.model_spec(str(path), "params") == m.params
    assert xf.model_spec(str(path), "kv_width") == row.kv_width


def test_config_windows():
    windows = {
        "Mistral 7B v0.1": (4096, 32),  # every layer, sliding_window 4096
        "Gemma 2 9B": (4096, 21),  # every other layer
        "Gemma 3 4B": (1024, 29),
        "Gemma 3 27B": (1024, 52),
        "gpt-oss-120b": (128, 18),
        "Llama 4 Scout": (8192, 36),  # chunked
        "Llama 4 Maverick": (8192, 36),
        "Qwen2.5 7B": (None, 0),  # use_sliding_window false
        "DeepSeek-V3": (None, 0),
    }
    for name, want in windows.items():
        m = model_from_config(CONFIGS[name], name)
        assert (m.window, m.windowed_layers) == want, name


def test_config_files_are_read_once_until_they_change(tmp_path, monkeypatch):
    path = tmp_path / "my-model" / "config.json"
    path.parent.mkdir()
    path.write_text(json.dumps(CONFIGS["Qwen3 8B"]))
    first = find_model(str(path))
    assert first is not None and find_model(str(path)) is first
    # The same file by another spelling of its path: one model.
    monkeypatch.setenv("HOME", str(tmp_path))
    assert find_model("~/my-model/config.json") is first
    assert (
        find_model(str(tmp_path / "my-model" / ".." / "my-model" / "config.json"))
        is first
    )
    # Changed: read again.
    path.write_text(json.dumps(CONFIGS["Qwen3 32B"]))
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))
    second = find_model(str(path))
    assert second is not first and second.layers == 64
    assert xf.model_spec(str(path), "layers") == 64


def test_what_is_not_a_config_file():
    assert find_model("/no/such/config.json") is None
    assert find_model("Llama 3.1 8B.json") is None
    with pytest.raises(xf.InvalidValueError):
        xf.model_spec("/no/such/config.json", "layers")


def test_config_errors_say_why(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="not a readable config.json"):
        find_model(str(bad))
    other = tmp_path / "bert.json"
    other.write_text(json.dumps({"model_type": "bert", "hidden_size": 768}))
    with pytest.raises(ValueError, match="model_type 'bert' is not one read here"):
        find_model(str(other))
    with pytest.raises(ValueError, match="has no num_hidden_layers"):
        model_from_config({"model_type": "llama", "hidden_size": 8}, "x")
    # The functions say so, in Python and in a cell.
    with pytest.raises(xf.InvalidValueError, match="not a readable config.json"):
        xf.model_spec(str(bad), "layers")
    out = udfs.MODEL_SPEC([[str(other)], ["Qwen3 8B"]], "layers")
    assert code(out[0][0]) == "#VALUE!" and "'bert'" in out[0][0]
    assert out[1][0] == 36


def test_a_gemma_1_config_file():
    # google/gemma-7b's config.json: 28 layers of 3,072, 16 heads of 256,
    # intermediate 24,576, vocab 256,000, tied; KerasHub's gemma_7b_en preset
    # records 8,537,680,896 parameters (keras-team/keras-hub, gemma_presets.py).
    m = model_from_config(
        {
            "model_type": "gemma", "head_dim": 256, "hidden_size": 3072,
            "intermediate_size": 24576, "num_attention_heads": 16,
            "num_hidden_layers": 28, "num_key_value_heads": 16, "vocab_size": 256000,
        },
        "gemma-7b",
    )  # fmt: skip
    assert m.params == 8_537_680_896 and m.tied_embeddings and m.window is None


def test_price_rows_name_accelerators_and_their_dates():
    from xlfuncs.data.prices import GPU_PRICES, PRICES_READ

    names = {a.name for a in ACCELERATORS}
    for p in GPU_PRICES:
        assert p.gpu in names, p.gpu
        if p.read != PRICES_READ:  # read elsewhere: the source says where, when
            assert "third-party compilation" in p.source and p.read in p.source
    assert {p.gpu for p in GPU_PRICES} >= {"B300", "RTX PRO 6000"}


def test_a_user_rows_computed_fields_are_the_tables():
    # The Models sheet computes a user row's derived fields in Excel
    # (templates.data_sheet.USER_DERIVED); the table's Model computes them in
    # Python (data.shapes). Given every published model's typed fields, the
    # Excel text gives the table's value for each: one rule, twice written.
    from xlfuncs.data.models import FIELDS, MODELS, value
    from xlfuncs.excel.parse import parse
    from xlfuncs.excel.tree import Env
    from xlfuncs.templates.data_sheet import USER_DERIVED

    for model in MODELS:
        typed = {f: float(value(model, f)) for f in FIELDS}
        env = Env(lookup=typed.__getitem__)
        for field, text in USER_DERIVED.items():
            if field == "active_params" and model.experts:
                continue  # a start, typed over for a mixture
            got = parse(text.format(**{f: f for f in FIELDS})).value(env)
            assert got == pytest.approx(typed[field], rel=1e-12), (model.name, field)
