"""SERVING_TOKENS_PER_SEC beside published measured maximum-throughput runs.

Every figure below is copied from its source (output tokens per second of one
replica, all its GPUs together, requests queued at an infinite rate):

- TensorRT-LLM performance overview, v0.17 (NVIDIA/TensorRT-LLM,
  docs/source/performance/perf-overview.md at commit 258c754, "All data in the
  table below was generated using version 0.17"): engines built with
  ``--quantization FP8`` ("the KV cache will automatically be set to FP8 as
  well"), A100 in FP16; ``trtllm-bench throughput`` with
  ``--kv_cache_free_gpu_mem_fraction 0.95``.
- The same page for v1.0 (commit 00f3768, PyTorch backend, "Total Output
  Throughput (tokens/sec)"): nvidia/Llama-3.3-70B-Instruct-FP8,
  Llama-3.1-8B-Instruct-FP8, Llama-3.1-405B-Instruct-FP8.
- NVIDIA NIM LLM benchmarking, performance page (docs.nvidia.com/nim/benchmarking/
  llm, Llama-3.3-70b-instruct, version 1.8.0, 2 × H100 80G, fp8 TP2, 5000 input /
  500 output tokens): 917 to 921 tokens/s from concurrency 100 to 250, saturated.

The defaults (bandwidth_util 55 %, prefill_mfu 60 %, max_batch 256) were fitted
to the CALIBRATION rows only: v0.17, H100 SXM, FP8, Llama 3.1 8B on one GPU and
70B on 2, 4 and 8. CHECKED rows were held out of the fit; docs/serving.md
tabulates them and gives the rest.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

import xlfuncs as xf

DOCS = Path(__file__).resolve().parents[1] / "docs"
BAND = (0.75, 1.35)  # issue 28's target

# The nine prompt/output shapes of both perf-overview tables, in their order.
SHAPES = [(128, 128), (128, 2048), (128, 4096), (500, 2000), (1000, 1000),
          (2048, 128), (2048, 2048), (5000, 500), (20000, 2000)]  # fmt: skip
V017 = "TensorRT-LLM v0.17"
V10 = "TensorRT-LLM v1.0"
NIM = "NVIDIA NIM 1.8.0"


def rows(source, model, gpu, gpus, precision, measured):
    """A column of a perf-overview table: one row per shape it has a figure for."""
    return [
        (source, model, gpu, gpus, precision, p, o, m)
        for (p, o), m in zip(SHAPES, measured)
        if m is not None
    ]


# v0.17's table, H100 SXM column, FP8: the runs the defaults were fitted to.
CALIBRATION = [
    *rows(V017, "Llama 3.1 8B", "H100 SXM", 1, "fp8",
          [28836.77, 21109.38, 13593.65, 16500.69, 15244.78, 3556.73, 9488.42,
           3559.36, 1401.31]),
    *rows(V017, "Llama 3.1 70B", "H100 SXM", 2, "fp8",
          [6645.12, 6169.58, 3897.06, 4972.57, 4390.53, 772.66, 2898.16, 919.73,
           443.01]),
    *rows(V017, "Llama 3.1 70B", "H100 SXM", 4, "fp8",
          [11127.53, 11511.93, 7439.41, 9836.7, 7430.99, 1302.6, 5480.03, 1602.78,
           920.19]),
    *rows(V017, "Llama 3.1 70B", "H100 SXM", 8, "fp8",
          [14730.69, 17061.82, 14171.43, 14679.33, 11451.16, 1923.41, 8801.95,
           2457.42, 1512.6]),
]  # fmt: skip

# Held out: today's software on H100 and H200 for the models people serve most,
# at up to 2 GPUs a replica, and NIM's published saturation.
CHECKED = [
    *rows(V10, "Llama 3.3 70B", "H100 SXM", 2, "fp8",
          [6378, 6651, 4199, 5222, 4205, 762, 3082, 898, 437]),
    *rows(V10, "Llama 3.3 70B", "H200 SXM", 1, "fp8",
          [3803, 4336, 2872, 3666, 2909, 442, 2003, 566, 283]),
    *rows(V10, "Llama 3.1 8B", "H100 SXM", 1, "fp8",
          [28312, 22714, 14325, 17660, 15220, 3450, 9305, 3459, 1351]),
    *rows(V10, "Llama 3.1 8B", "H200 SXM", 1, "fp8",
          [27911, 26221, 18027, 20770, 17744, 3538, 12194, 3902, 1804]),
    (NIM, "Llama 3.3 70B", "H100 SXM", 2, "fp8", 5000, 500, 920.12),
]  # fmt: skip
# Checked rows below the band, and why: the 8B's long outputs on one H100, where
# TensorRT-LLM runs batches well past the 256 cap (its cache holds 480 sequences
# of 2,176 tokens), and its 20,000-token prompts.
BELOW = {
    ("Llama 3.1 8B", "H100 SXM", 128, 2048),
    ("Llama 3.1 8B", "H100 SXM", 128, 4096),
    ("Llama 3.1 8B", "H100 SXM", 20000, 2000),
}

# Held out too, and reported in docs/serving.md as a whole: the rest of v0.17's
# table (other GPUs, more GPUs, other models) and v1.0's Llama 3.1 405B.
OTHERS = [
    *rows(V017, "Llama 3.1 8B", "H200 SXM", 1, "fp8",
          [29526.04, 25398.86, 17370.8, 21020.81, 17537.96, 3794.14, 11968.5,
           3987.79, 1804.1]),
    *rows(V017, "Llama 3.1 8B", "GH200", 1, "fp8",
          [29852.96, 21769.55, 14189.89, 17137.29, 16482.77, 3843.95, 10265.9,
           3932.58, 1560.2]),
    *rows(V017, "Llama 3.1 8B", "L40S", 1, "fp8",
          [9104.61, 5365.81, 3025.92, 4273.75, 4054.71, 1066.52, 2225.27, 981.2,
           327.97]),
    *rows(V017, "Llama 3.1 8B", "A100 SXM", 1, "fp16",
          [6627.27, 5255.99, 3453.79, 4276.58, 3786.83, 799.61, 2424.16, 825.13,
           330.04]),
    *rows(V017, "Llama 3.1 70B", "H200 SXM", 1, "fp8",
          [4020.75, 4165.68, 2651.75, 3018.39, 2823.45, 465.99, 1913.8, 560.16,
           279.52]),
    *rows(V017, "Llama 3.1 70B", "H100 SXM", 1, "fp8",
          [3378.03, 911.62, 426.32, 775.57, 839.97, 343.29, None, 245.34, None]),
    *rows(V017, "Llama 3.1 70B", "H200 SXM", 2, "fp8",
          [6823.01, 8290.35, 6526.67, 6848.02, 5164.76, 809, 4183.88, 1025.38,
           640.62]),
    *rows(V017, "Llama 3.1 70B", "A100 SXM", 2, "fp16",
          [1313.96, 531.26, None, 439.41, 472.94, 148.96, 261.1, 121.47, None]),
    *rows(V017, "Llama 3.1 70B", "H200 SXM", 4, "fp8",
          [11098.63, 14156, 10574.06, 12452.79, 8911.29, 1358.06, 7130.44, 1811.55,
           1199.68]),
    *rows(V017, "Llama 3.1 70B", "L40S", 4, "fp8",
          [1523.52, 1942.66, 1440.23, 1634.72, 1209.25, 177.72, 969.68, 249.52,
           162.25]),
    *rows(V017, "Llama 3.1 70B", "A100 SXM", 4, "fp16",
          [2733.48, 2811.27, 1976.49, 2275.79, 1921.77, 325.15, 1393.64, 392.62,
           212.08]),
    *rows(V017, "Llama 3.1 70B", "H200 SXM", 8, "fp8",
          [15355.84, 21195.88, 16941.52, 17278.4, 13181.24, 1983.03, 11142.47,
           2717.83, 1920.45]),
    *rows(V017, "Llama 3.1 70B", "A100 SXM", 8, "fp16",
          [4717.62, 5241.5, 3724.67, 4445.37, 3320.41, 542.38, 2553.71, 696.34,
           413.38]),
    *rows(V017, "Llama 3.1 405B", "H200 SXM", 8, "fp8",
          [3874.19, 5938.09, 5168.37, 5084.29, 3399.69, 463.42, 2940.62, 669.13,
           535.31]),
    *rows(V017, "Mistral 7B v0.3", "H100 SXM", 1, "fp8",
          [31674.49, 23496.42, 14350.99, 18026.27, 16035.66, 3642.48, 9958.17,
           3591.33, 1373.24]),
    *rows(V017, "Mistral 7B v0.3", "A100 SXM", 1, "fp16",
          [6982.53, 5630.62, 3591.22, 4400.48, 3896.58, 808.58, 2489.77, 844.64,
           332.3]),
    *rows(V017, "Mixtral 8x7B", "H100 SXM", 1, "fp8",
          [15962.49, 8290.13, 4784.86, 6800.6, 6868.52, 1892.81, 3983.1, 1764.7,
           673.7]),
    *rows(V017, "Mixtral 8x7B", "H100 SXM", 2, "fp8",
          [27451.13, 22830.08, 14237.01, 17036.04, 15770.89, 3333.68, 10685.85,
           3646.09, 1757.45]),
    *rows(V017, "Mixtral 8x7B", "A100 SXM", 4, "fp16",
          [10324.28, 10911.86, 7666.51, 8456.21, 7122.84, 1237.62, 5222.98,
           1500.55, 829.59]),
    *rows(V017, "Mixtral 8x22B", "H100 SXM", 8, "fp8",
          [21876.08, 25150.03, 18387.4, 21421.86, 16573.24, 2794.97, 12244.93,
           3645.27, 2227.63]),
    *rows(V10, "Llama 3.1 405B", "H200 SXM", 8, "fp8",
          [3814, 5348, 4741, 4724, 3330, 456, 2948, 650, 505]),
    *rows(V10, "Llama 3.1 405B", "H100 SXM", 8, "fp8",
          [3627, 4340, 3116, 3994, 2919, 453, 2296, 610, 345]),
]  # fmt: skip


def ours(row) -> float:
    _, model, gpu, gpus, precision, prompt, output, _ = row
    return xf.serving_tokens_per_sec(model, gpu, gpus, prompt, output, precision)


def ratio(row) -> float:
    return ours(row) / row[-1]


def within(r: float, band=BAND) -> bool:
    return band[0] <= r <= band[1]


def test_the_done_when_row():
    # `xlfuncs calc SERVING_TOKENS_PER_SEC "Llama 3.3 70B" "H100 SXM" 2 1000 1000
    # fp8`: TensorRT-LLM v1.0 measured 4,205 tokens/s (held out of the fit).
    got = xf.serving_tokens_per_sec("Llama 3.3 70B", "H100 SXM", 2, 1000, 1000, "fp8")
    assert within(got / 4205)
    assert got == pytest.approx(4580, abs=1)


@pytest.mark.parametrize("row", CHECKED, ids=lambda r: f"{r[1]} {r[2]} {r[5]}/{r[6]}")
def test_held_out_rows_are_within_the_band(row):
    r = ratio(row)
    if (row[1], row[2], row[5], row[6]) in BELOW:
        assert 0.72 <= r < BAND[0], r  # known, and said in docs/serving.md
    else:
        assert within(r), r


def test_the_checked_rows_cover_short_prompts_one_to_one_and_long_prompts():
    shapes = {(p, o) for _, _, _, _, _, p, o, _ in CHECKED}
    assert {(128, 2048), (1000, 1000), (5000, 500), (20000, 2000)} <= shapes
    kept = [r for r in CHECKED if (r[1], r[2], r[5], r[6]) not in BELOW]
    assert len(kept) >= 34


def test_the_calibration_rows_fit():
    ratios = [ratio(r) for r in CALIBRATION]
    assert sum(within(r) for r in ratios) >= 35  # of 36
    assert math.exp(sum(map(math.log, ratios)) / len(ratios)) == pytest.approx(
        1, abs=0.1
    )


def test_every_held_out_row():
    # All of them, the ones the model reads worst included (docs/serving.md says
    # which and why): four in five within the band, none off by more than 2×.
    ratios = [ratio(r) for r in CHECKED + OTHERS]
    assert len(ratios) == 231
    assert sum(within(r) for r in ratios) >= 0.8 * len(ratios)
    assert all(0.45 <= r <= 1.75 for r in ratios)


def test_serving_md_shows_these_figures():
    # docs/serving.md's check table: measured, ours, ratio, as computed here.
    text = (DOCS / "serving.md").read_text(encoding="utf-8")
    table = re.findall(
        r"^\| (.+?) \| (.+?), (.+?) \| (\d) \| (\d+)/(\d+) \| ([\d,.]+) \| "
        r"([\d,]+) \| ([\d.]+) \|$",
        text,
        flags=re.M,
    )
    assert len(table) == len(CHECKED)
    for (source, model, gpu, gpus, p, o, measured, our, r), row in zip(table, CHECKED):
        assert (source, model, gpu) == row[:3]
        assert (int(gpus), int(p), int(o)) == (row[3], row[5], row[6])
        assert float(measured.replace(",", "")) == pytest.approx(row[-1], abs=0.5)
        assert int(our.replace(",", "")) == round(ours(row))
        assert float(r) == round(ratio(row), 2)
