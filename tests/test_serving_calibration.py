"""SERVING_TOKENS_PER_SEC beside published measured maximum-throughput runs (issue 35).

The measured rows are in ``tests/data/serving_measured.csv``: one row per
measured configuration, output tokens per second of ONE replica (all its GPUs
together) with requests queued at once. Every figure is copied from its
source; where a source prints tokens/s per GPU the row holds that figure times
the replica's GPUs, and its ``note`` says so (nothing else is ever changed).
``benchmarks/serving_calibration.py`` prints the whole comparison;
/work/research/calibration_report.md reads it.

Sources (the ``source`` column):

- ``TRTLLM_V0_17``: TensorRT-LLM performance overview, v0.17 (NVIDIA/TensorRT-LLM,
  docs/source/performance/perf-overview.md at commit
  258c7540c03517def55d9a5aadfa9288af474e1b, "All data in the table below was
  generated using version 0.17"), the whole throughput table: H200, H100, GH200
  and L40S in FP8 (the KV cache in fp8), A100 in FP16; ``trtllm-bench
  throughput``, ``--kv_cache_free_gpu_mem_fraction 0.95``.
- ``TRTLLM_V1_0``: the same page at commit 00f37686aa854010d68bcbd0f4ab000221541ca6
  (v1.0, PyTorch backend, "Total Output Throughput (tokens/sec)"): Llama 3.3 70B,
  3.1 8B and 405B (FP8 on H100/H200, FP4 on B200/GB200), Llama 4 Scout and
  Maverick, Qwen3-235B-A22B and Qwen3-30B-A3B, MoE printed "TPn".
- ``TRTLLM_V0_20``: the page at tag v0.20.0
  (https://nvidia.github.io/TensorRT-LLM/0.20.0/performance/perf-overview.html):
  "Llama 4 Maverick FP8", H200 and H100, TP 8 (v0.21 repeats these figures).
- ``TRTLLM_DEVGUIDE_POST1_0``: docs/source/developer-guide/perf-overview.md at
  commit 585c756579dc4d01f21fc13c2f604cdb461ac4f0 (after v1.0, before
  release/1.2; https://nvidia.github.io/TensorRT-LLM/developer-guide/perf-overview.html):
  "Output Throughput per GPU (tokens/sec/GPU)", so each row is that times its
  GPUs; "DEPn" read as attention data-parallel with expert parallelism over n
  GPUs (``parallel`` "ep").
- ``TRTLLM_REL_1_2``: the same page for release/1.2
  (https://nvidia.github.io/TensorRT-LLM/1.2.0/developer-guide/perf-overview.html),
  per GPU as well; the B300/GB300 (beta) columns are not used.
- ``TRTLLM_DSR1_GUIDE``: "How to get best performance on DeepSeek-R1 in TensorRT
  LLM" (docs/source/blogs/Best_perf_practice_on_DeepSeek-R1_in_TensorRT-LLM.md at
  commit 01c4ece911eb569e72cf4177f83238a0520641c2): the H200 max-throughput run
  (8 GPUs, --max_batch_size 128 a rank, 11,489.2671 tokens/s) and the B200 one
  with a 16-bit cache (reproduced at commit
  b6261862419c33d6ce2313aff1e7116067d6037d; --max_batch_size 384 a rank,
  36,384.0838 tokens/s); ISL 1K, OSL 2K. The row's ``max_batch`` and
  ``bytes_per_value`` hold those settings.
- ``NIM_BENCH_PERF``: NVIDIA NIM LLM benchmarking, performance page
  (https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance), Llama 3.3
  70B, version 1.8.0, "2 x H100 80G", "fp8 TP2", 5000 input / 500 output tokens:
  920.12 tokens/s at concurrency 250 (917 to 921 from 100 up: saturated), and
  the curve the latency target is checked on (TTFT 406.77 ms, ITL 18.58 ms at
  concurrency 1; ITL 38.75 ms and 623.4 tokens/s at 25; the 500-input table's
  TTFT 47.77 ms at 1).

The defaults (bandwidth_util 55 %, prefill_mfu 60 %) were fitted to the rows
whose ``role`` is ``fit``: v0.17, H100 SXM, FP8, Llama 3.1 8B on one GPU and
70B on 2, 4 and 8 (36 runs, one engine version, one accelerator, one dense
family). Every other row is held out: every mixture-of-experts family, every
other accelerator, every other engine and version.

The issue's targets are asserted as written; the ones the physics misses today
are strict xfails whose reason gives today's figure, so they flip when it is
fixed.
"""

from __future__ import annotations

import csv
import math
import re
from functools import cache
from pathlib import Path

import pytest

import xlfuncs as xf

DATA = Path(__file__).resolve().parent / "data" / "serving_measured.csv"
DOCS = Path(__file__).resolve().parents[1] / "docs"
WIDE = (0.70, 1.45)  # issue 35's band
NARROW = (0.75, 1.35)  # issue 28's band
LIMITS = (0.5, 2.0)  # none off by more than 2x
MOE_FAMILIES = {"mixtral", "llama4", "qwen3", "deepseek3", "gptoss"}
PER_GPU_SOURCES = {"TRTLLM_DEVGUIDE_POST1_0", "TRTLLM_REL_1_2"}
COLUMNS = [
    "source", "engine", "version", "model", "gpu", "gpus", "parallel",
    "precision", "prompt", "output", "measured", "family", "role", "note",
    "max_batch", "bytes_per_value",
]  # fmt: skip


@cache
def rows() -> tuple[dict, ...]:
    with open(DATA, newline="", encoding="utf-8") as f:
        read = list(csv.DictReader(f))
    for r in read:
        for k in ("gpus", "prompt", "output"):
            r[k] = int(r[k])
        r["measured"] = float(r["measured"])
        r["max_batch"] = int(r["max_batch"]) if r["max_batch"] else None
        r["bytes_per_value"] = (
            float(r["bytes_per_value"]) if r["bytes_per_value"] else None
        )
        r["moe"] = r["family"] in MOE_FAMILIES
    return tuple(read)


def ours(r: dict) -> float:
    extra = {}
    if r["max_batch"] is not None:
        extra["max_batch"] = r["max_batch"]
    if r["bytes_per_value"] is not None:
        extra["bytes_per_value"] = r["bytes_per_value"]
    return float(
        xf.serving_tokens_per_sec(
            r["model"], r["gpu"], r["gpus"], r["prompt"], r["output"],
            r["precision"], parallel=r["parallel"], **extra,
        )
    )  # fmt: skip


@cache
def ratios() -> tuple[float, ...]:
    return tuple(ours(r) / r["measured"] for r in rows())


def select(keep) -> list[float]:
    return [x for r, x in zip(rows(), ratios()) if keep(r)]


def share_within(rs: list[float], band=WIDE) -> float:
    return sum(band[0] <= x <= band[1] for x in rs) / len(rs)


def gmean(rs: list[float]) -> float:
    return math.exp(sum(map(math.log, rs)) / len(rs))


def outside(rs: list[float]) -> list[float]:
    return [x for x in rs if not LIMITS[0] <= x <= LIMITS[1]]


def held_out_moe(r: dict) -> bool:
    return r["role"] == "held_out" and r["moe"]


def held_out_dense(r: dict) -> bool:
    return r["role"] == "held_out" and not r["moe"]


def newest_dense(r: dict) -> bool:
    # TensorRT-LLM's newest tables: release/1.2, and post-1.0 for the H100 that
    # 1.2 no longer prints; their one dense model is Llama 3.3 70B.
    return not r["moe"] and (
        r["source"] == "TRTLLM_REL_1_2"
        or (r["source"] == "TRTLLM_DEVGUIDE_POST1_0" and r["gpu"] == "H100 SXM")
    )


def find(source, model, gpu, gpus, prompt, output) -> dict:
    (hit,) = [
        r for r in rows()
        if (r["source"], r["model"], r["gpu"], r["gpus"], r["prompt"], r["output"])
        == (source, model, gpu, gpus, prompt, output)
    ]  # fmt: skip
    return hit


# --- the data ------------------------------------------------------------------


def test_the_rows_are_the_curated_set():
    assert list(rows()[0])[: len(COLUMNS)] == COLUMNS
    assert len(rows()) == 796
    by_source = {}
    for r in rows():
        by_source[r["source"]] = by_source.get(r["source"], 0) + 1
    assert by_source == {
        "TRTLLM_V0_17": 373, "TRTLLM_V1_0": 210, "TRTLLM_V0_20": 13,
        "TRTLLM_DEVGUIDE_POST1_0": 123, "TRTLLM_REL_1_2": 74,
        "TRTLLM_DSR1_GUIDE": 2, "NIM_BENCH_PERF": 1,
    }  # fmt: skip
    configurations = {
        (r["source"], r["model"], r["gpu"], r["gpus"], r["parallel"],
         r["precision"], r["prompt"], r["output"])
        for r in rows()
    }  # fmt: skip
    assert len(configurations) == len(rows())  # one row per configuration
    for r in rows():
        assert r["parallel"] in ("tp", "ep") and r["role"] in ("fit", "held_out")
        assert r["precision"] in ("bf16", "fp16", "fp8", "int8", "int4", "fp4")
        assert xf.model_spec(r["model"], "layers") > 0  # the catalogue knows it
        assert xf.gpu_memory_gb(r["gpu"]) > 0
        assert r["measured"] > 0 and r["note"]


@pytest.mark.parametrize(
    "key, printed, gpus",
    [
        # as printed in each source (per-GPU tables: the printed per-GPU figure)
        (("TRTLLM_V0_17", "Llama 3.1 8B", "H100 SXM", 1, 128, 128), 28836.77, 1),
        (("TRTLLM_V0_17", "Mixtral 8x22B", "A100 SXM", 8, 20000, 2000), 575.02, 1),
        (("TRTLLM_V1_0", "Llama 3.3 70B", "H100 SXM", 2, 1000, 1000), 4205, 1),
        (("TRTLLM_V1_0", "Llama 4 Maverick", "B200", 8, 128, 128), 124323, 1),
        (("TRTLLM_V0_20", "Llama 4 Maverick", "H200 SXM", 8, 128, 4096), 18541.01, 1),
        (("TRTLLM_DEVGUIDE_POST1_0", "DeepSeek-R1", "B200", 4, 1000, 1000), 6463, 4),
        (("TRTLLM_DEVGUIDE_POST1_0", "Llama 3.3 70B", "H100 SXM", 2, 1000, 1000), 2209, 2),
        (("TRTLLM_REL_1_2", "Qwen3 235B-A22B", "H200 SXM", 4, 1024, 1024), 3494, 4),
        (("TRTLLM_REL_1_2", "gpt-oss-120b", "B200", 2, 1024, 1024), 29061, 2),
        (("TRTLLM_DSR1_GUIDE", "DeepSeek-R1", "H200 SXM", 8, 1024, 2048), 11489.2671, 1),
        (("NIM_BENCH_PERF", "Llama 3.3 70B", "H100 SXM", 2, 5000, 500), 920.12, 1),
    ],
)  # fmt: skip
def test_figures_are_copied_from_their_sources(key, printed, gpus):
    assert find(*key)["measured"] == pytest.approx(printed * gpus, abs=1e-6)


def test_per_gpu_tables_are_multiplied_by_the_gpus_and_say_so():
    # Post-1.0 tables print "output tokens per second per GPU"; the replica's
    # figure is that times its GPUs, and the note shows the product.
    for r in rows():
        if r["source"] not in PER_GPU_SOURCES:
            assert "per GPU x" not in r["note"]
            continue
        per_gpu, gpus, total = re.search(
            r"([\d,]+) tokens/s per GPU x (\d+) GPUs = ([\d,]+)", r["note"]
        ).groups()
        per_gpu, total = (float(x.replace(",", "")) for x in (per_gpu, total))
        assert int(gpus) == r["gpus"]
        assert r["measured"] == total == per_gpu * r["gpus"]


def test_the_fit_holds_out_whole_families_and_accelerators():
    fit = [r for r in rows() if r["role"] == "fit"]
    assert len(fit) == 36
    assert {(r["source"], r["gpu"], r["family"], r["precision"]) for r in fit} == {
        ("TRTLLM_V0_17", "H100 SXM", "llama3", "fp8")
    }
    held = [r for r in rows() if r["role"] == "held_out"]
    fitted_families = {r["family"] for r in fit}
    # every mixture-of-experts family, every other accelerator and every
    # other engine or version is held out whole
    assert not any(r["moe"] for r in fit)
    moe = [r for r in held if r["moe"]]
    assert {r["family"] for r in moe} == MOE_FAMILIES
    assert not {r["family"] for r in moe} & fitted_families
    assert {r["gpu"] for r in held} - {"H100 SXM"} >= {
        "H200 SXM",
        "B200",
        "GB200",
        "GH200",
        "L40S",
        "A100 SXM",
    }
    assert {r["engine"] for r in held} == {"TensorRT-LLM", "NIM"}
    assert {r["version"] for r in held} > {"0.17", "1.0", "1.2", "post-1.0"}


def test_every_row_has_an_estimate():
    assert all(math.isfinite(x) and x > 0 for x in ratios())


# --- the done-when row and the newest dense tables -----------------------------------


def test_the_done_when_row():
    # xlfuncs calc SERVING_TOKENS_PER_SEC "Llama 3.3 70B" "H100 SXM" 2 1000 1000
    # fp8: TensorRT-LLM v1.0 measured 4,205 tokens/s, post-1.0 2 x 2,209.
    r = find("TRTLLM_V1_0", "Llama 3.3 70B", "H100 SXM", 2, 1000, 1000)
    newest = find("TRTLLM_DEVGUIDE_POST1_0", "Llama 3.3 70B", "H100 SXM", 2, 1000, 1000)
    got = ours(r)
    assert WIDE[0] <= got / 4205 <= WIDE[1]
    assert 0.97 <= got / newest["measured"] <= 1.10


def test_dense_rows_stay_on_the_newest_tables():
    # Issue 35: dense rows stay 0.97-1.10 (their geometric mean) on
    # TensorRT-LLM's newest tables: release/1.2 (B200, GB200, H200) and post-1.0
    # (H100), Llama 3.3 70B, 14 runs.
    rs = select(newest_dense)
    assert len(rs) == 14
    assert 0.97 <= gmean(rs) <= 1.10
    assert share_within(rs) == 1


# --- held-out rows -------------------------------------------------------------------


def test_held_out_moe_rows_are_within_the_band():
    # Issue 35's target; 76 % (339 of 446) at the defaults.
    rs = select(held_out_moe)
    assert len(rs) == 446
    assert share_within(rs) >= 0.75


@pytest.mark.xfail(
    strict=True,
    reason="issue 35 target; today 24 held-out MoE rows are off by more than 2x, "
    "from 0.23 (Llama 4 Maverick, 8 H200, TP8, 128/128: TensorRT-LLM ran about "
    "4,096 sequences where the cap is 384) to 3.09 (Qwen3-30B-A3B on one GB200, "
    "128/128: host-bound); the others: Maverick v0.20 at 20000/2000, gpt-oss-20b "
    "at 32768/1024 on Blackwell, Qwen3-235B DEP4 at 32768/1024",
)
def test_no_held_out_moe_row_is_off_by_2x():
    assert outside(select(held_out_moe)) == []


def test_held_out_dense_rows():
    # Four in five within 0.70-1.45 (87 % at the defaults).
    rs = select(held_out_dense)
    assert len(rs) == 314
    assert share_within(rs) >= 0.8


def test_no_held_out_dense_row_is_off_by_2x():
    assert outside(select(held_out_dense)) == []


def test_the_fit_rows_fit():
    # 1.06 and 35 of 36 within 0.70-1.45 at the defaults; 31 within 0.75-1.35.
    rs = select(lambda r: r["role"] == "fit")
    assert gmean(rs) == pytest.approx(1, abs=0.1)
    assert sum(WIDE[0] <= x <= WIDE[1] for x in rs) >= 35
    assert sum(NARROW[0] <= x <= NARROW[1] for x in rs) >= 30


# --- NIM: saturation, the latency target, the time to first token ----------------------

NIM_ARGS = ("Llama 3.3 70B", "H100 SXM", 2, 5000, 500, "fp8")


def test_nim_saturation():
    # 920.12 tokens/s at concurrency 250 with an ITL of 93.2 ms: by Little's law
    # about 920.12 x 0.0932 = 86 sequences running, the rest queued.
    r = find("NIM_BENCH_PERF", *NIM_ARGS[:5])
    assert NARROW[0] <= ours(r) / 920.12 <= NARROW[1]
    running = 920.12 * 93.2 / 1000
    assert 1 / 1.25 <= xf.serving_batch(*NIM_ARGS) / running <= 1.25


def test_the_latency_target_meets_nims_curve():
    # At 40 ms a token NIM ran 25 concurrent requests (ITL 38.75 ms) for 623.4
    # tokens/s: our batch and throughput within 1.25x of those.
    batch = xf.serving_batch(*NIM_ARGS, ms_per_token=40)
    tokens = xf.serving_tokens_per_sec(*NIM_ARGS, ms_per_token=40)
    assert 1 / 1.25 <= batch / 25 <= 1.25
    assert 1 / 1.25 <= tokens / 623.4 <= 1.25


@pytest.mark.parametrize("prompt, measured", [(5000, 406.77), (500, 47.77)])
def test_time_to_first_token_against_nim(prompt, measured):
    # NIM 1.8.0, one request at a time, 2 x H100, fp8 TP2.
    got = xf.time_to_first_token_ms("Llama 3.3 70B", "H100 SXM", 2, prompt, "fp8")
    assert 1 / 1.25 <= got / measured <= 1.25


# --- docs/serving.md shows these figures ----------------------------------------------


def summary_lines() -> list[str]:
    """The tables docs/serving.md prints, as computed here: rows, geometric
    mean, range, and the shares within the bands."""

    def line(name: str, rs: list[float]) -> str:
        return (
            f"| {name} | {len(rs)} | {gmean(rs):.2f} | {min(rs):.2f}–{max(rs):.2f} "
            f"| {share_within(rs):.0%} | {share_within(rs, NARROW):.0%} "
            f"| {len(outside(rs))} |"
        )

    groups: list[tuple[str, object]] = [
        (
            "fitted: v0.17, H100, fp8, Llama 3.1 8B and 70B",
            lambda r: r["role"] == "fit",
        ),
        ("held out, dense", held_out_dense),
        ("held out, mixtures of experts", held_out_moe),
        ("TensorRT-LLM's newest dense tables", newest_dense),
    ]
    sources = [
        ("TensorRT-LLM v0.17", "TRTLLM_V0_17"), ("TensorRT-LLM v0.20", "TRTLLM_V0_20"),
        ("TensorRT-LLM v1.0", "TRTLLM_V1_0"),
        ("TensorRT-LLM after v1.0", "TRTLLM_DEVGUIDE_POST1_0"),
        ("TensorRT-LLM release/1.2", "TRTLLM_REL_1_2"),
        ("TensorRT-LLM, DeepSeek-R1 guide", "TRTLLM_DSR1_GUIDE"),
        ("NVIDIA NIM 1.8.0", "NIM_BENCH_PERF"),
    ]  # fmt: skip
    assert {s for _, s in sources} == {r["source"] for r in rows()}
    groups += [(n, lambda r, s=s: r["source"] == s) for n, s in sources]
    families = sorted({r["family"] for r in rows()})
    groups += [(f"family: {f}", lambda r, f=f: r["family"] == f) for f in families]
    return [line(name, select(keep)) for name, keep in groups]


def test_serving_md_shows_these_figures():
    text = (DOCS / "serving.md").read_text(encoding="utf-8")
    missing = [x for x in summary_lines() if x not in text]
    assert missing == [], "docs/serving.md's tables are stale:\n" + "\n".join(missing)
