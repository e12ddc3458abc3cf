"""SERVING_TOKENS_PER_SEC beside measured maximum-throughput runs (issue 35).

Reads ``tests/data/serving_measured.csv`` (one row per measured configuration,
each with its source, see ``tests/test_serving_calibration.py``), computes our
estimate for every row and the ratio ours / measured, and prints:

- the per-row table (``--no-rows`` to skip it),
- summaries by role (fit / held_out), by engine and version, by family, by
  dense vs mixture-of-experts, by accelerator, and by tp / ep,
- the share of rows within 0.70-1.45 and 0.75-1.35, the smallest and largest
  ratio, and every row outside 0.5-2.0,
- the latency-target path against NVIDIA NIM's concurrency curve and the time
  to first token against NIM's and TensorRT-LLM's measured ones.

``--fit`` grid-searches bandwidth_util (0.40-0.90) and prefill_mfu (0.30-0.80)
on the rows whose role is ``fit`` only, minimising the mean |log(ours /
measured)|, and prints the same summaries at the best pair: the held-out rows
are never used to choose it.

``--what-if`` rebuilds the estimate from the public parts (SERVING_BATCH,
PREFILL_MS, DECODE_STEP_MS: ``B·o / (B·P + o·S)``, times the ranks under "ep";
identical to SERVING_TOKENS_PER_SEC when nothing is switched on) and switches
on the physics changes proposed in /work/research/calibration_report.md, one
at a time and together, to show their expected effect. They are proposals, not
the code under test.

    python benchmarks/serving_calibration.py [--no-rows] [--fit] [--what-if]
        [--csv out.csv]

Standard library and numpy only (plus xlfuncs, the code under test).
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import xlfuncs as xf  # noqa: E402
from xlfuncs.data.serving import PRECISION_BYTES  # noqa: E402
from xlfuncs.registry import InvalidValueError  # noqa: E402

DATA = ROOT / "tests" / "data" / "serving_measured.csv"
WIDE = (0.70, 1.45)  # issue 35's band
NARROW = (0.75, 1.35)  # issue 28's band
LIMITS = (0.5, 2.0)  # no row may be off by more than 2x
MOE = {"mixtral", "llama4", "qwen3", "deepseek3", "gptoss"}
DEFAULTS = {"bandwidth_util": 0.55, "prefill_mfu": 0.6}


def load(path: Path = DATA) -> list[dict]:
    """The measured rows, numbers as numbers."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["gpus"] = int(r["gpus"])
        r["prompt"] = int(r["prompt"])
        r["output"] = int(r["output"])
        r["measured"] = float(r["measured"])
        r["max_batch"] = int(r["max_batch"]) if r.get("max_batch") else None
        r["bytes_per_value"] = (
            float(r["bytes_per_value"]) if r.get("bytes_per_value") else None
        )
        r["moe"] = r["family"] in MOE
    return rows


def estimate(row: dict, **kw) -> float:
    """Our output tokens/s for the row's replica; nan where we refuse it."""
    extra = {}
    if row["max_batch"] is not None:
        extra["max_batch"] = row["max_batch"]
    if row["bytes_per_value"] is not None:
        extra["bytes_per_value"] = row["bytes_per_value"]
    try:
        return float(
            xf.serving_tokens_per_sec(
                row["model"], row["gpu"], row["gpus"], row["prompt"], row["output"],
                row["precision"], parallel=row["parallel"], **extra, **kw,
            )
        )  # fmt: skip
    except (InvalidValueError, ValueError, KeyError) as e:  # #NUM! etc.
        row["error"] = str(e)
        return math.nan


def batch(row: dict, **kw) -> float:
    extra = {} if row["max_batch"] is None else {"max_batch": row["max_batch"]}
    if row["bytes_per_value"] is not None:
        extra["bytes_per_value"] = row["bytes_per_value"]
    try:
        return float(
            xf.serving_batch(
                row["model"], row["gpu"], row["gpus"], row["prompt"], row["output"],
                row["precision"], parallel=row["parallel"], **extra, **kw,
            )
        )  # fmt: skip
    except (InvalidValueError, ValueError, KeyError):
        return math.nan


def ratios(rows: list[dict], **kw) -> np.ndarray:
    return np.array([estimate(r, **kw) / r["measured"] for r in rows])


def within(r: np.ndarray, band: tuple[float, float]) -> np.ndarray:
    return (r >= band[0]) & (r <= band[1])


def stats(r: np.ndarray) -> dict:
    r = r[np.isfinite(r)]
    if not len(r):
        return {"n": 0}
    return {
        "n": len(r),
        "gmean": float(np.exp(np.mean(np.log(r)))),
        "median": float(np.median(r)),
        "min": float(r.min()),
        "max": float(r.max()),
        "wide": float(within(r, WIDE).mean()),
        "narrow": float(within(r, NARROW).mean()),
        "outside": int((~within(r, LIMITS)).sum()),
        "mean_abs_log": float(np.mean(np.abs(np.log(r)))),
    }


HEAD = (
    f"{'group':<44} {'n':>4} {'gmean':>6} {'median':>6} {'min':>5} {'max':>5} "
    f"{'0.70-1.45':>9} {'0.75-1.35':>9} {'out 0.5-2':>9}"
)


def line(name: str, s: dict) -> str:
    if not s["n"]:
        return f"{name:<44} {0:>4}"
    return (
        f"{name:<44} {s['n']:>4} {s['gmean']:>6.2f} {s['median']:>6.2f} "
        f"{s['min']:>5.2f} {s['max']:>5.2f} {s['wide']:>9.0%} {s['narrow']:>9.0%} "
        f"{s['outside']:>9}"
    )


def group_table(title: str, rows: list[dict], r: np.ndarray, key) -> None:
    groups: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        groups[key(row)].append(i)
    print(f"\n## {title}\n{HEAD}")
    for name in sorted(groups):
        print(line(name, stats(r[groups[name]])))


def dense_moe(row: dict) -> str:
    return f"{row['role']:<8} {'MoE' if row['moe'] else 'dense'}"


def report(rows: list[dict], r: np.ndarray, *, show_rows: bool) -> None:
    if show_rows:
        print(
            f"{'source':<24} {'ver':<13} {'model':<16} {'gpu':<8} {'g':>2} {'par':<3} "
            f"{'prec':<4} {'p/o':>11} {'measured':>10} {'ours':>10} {'ratio':>6} "
            f"{'batch':>5} role"
        )
        for row, x in zip(rows, r):
            ours = x * row["measured"]
            print(
                f"{row['source']:<24} {row['version']:<13} {row['model']:<16} "
                f"{row['gpu']:<8} {row['gpus']:>2} {row['parallel']:<3} "
                f"{row['precision']:<4} {row['prompt']:>5}/{row['output']:<5} "
                f"{row['measured']:>10,.0f} {ours:>10,.0f} {x:>6.2f} "
                f"{batch(row):>5.0f} {row['role']}"
            )
    print(f"\n## all rows\n{HEAD}")
    print(line("all", stats(r)))
    group_table("by role", rows, r, lambda x: x["role"])
    group_table("by role, dense vs MoE", rows, r, dense_moe)
    group_table(
        "by engine and version", rows, r, lambda x: f"{x['engine']} {x['version']}"
    )
    group_table("by family", rows, r, lambda x: x["family"])
    group_table("by accelerator", rows, r, lambda x: x["gpu"])
    moe = [i for i, x in enumerate(rows) if x["moe"]]
    group_table(
        "by parallelism (MoE only)",
        [rows[i] for i in moe],
        r[moe],
        lambda x: f"{x['family']} {x['parallel']}",
    )
    newest, newest_r = newest_dense(rows, r)
    group_table(
        "newest TensorRT-LLM dense tables (release/1.2; post-1.0 for H100)",
        newest,
        newest_r,
        lambda x: "all",
    )
    group_table(
        "newest TensorRT-LLM dense tables, by accelerator",
        newest,
        newest_r,
        lambda x: f"{x['version']} {x['model']} {x['gpu']} {x['precision']}",
    )
    last = [i for i, x in enumerate(rows) if is_last_v10_dense(x)]
    group_table(
        "v1.0 dense Llama 3.1 8B and 405B (their last tables)",
        [rows[i] for i in last],
        r[last],
        lambda x: f"{x['model']} {x['gpu']} {x['precision']}",
    )
    bad = [(row, x) for row, x in zip(rows, r) if not (LIMITS[0] <= x <= LIMITS[1])]
    print(f"\n## rows outside {LIMITS[0]}-{LIMITS[1]} ({len(bad)})")
    for row, x in sorted(bad, key=lambda t: t[1] if np.isfinite(t[1]) else 0):
        why = row.get("error", "")
        print(
            f"{x:6.2f}  {row['source']} {row['version']} {row['model']}, "
            f"{row['gpus']} x {row['gpu']} {row['parallel']} {row['precision']}, "
            f"{row['prompt']}/{row['output']}: measured {row['measured']:,.0f} {why}"
        )


def newest_dense(rows: list[dict], r: np.ndarray) -> tuple[list[dict], np.ndarray]:
    picked = [i for i, x in enumerate(rows) if is_newest_dense(x)]
    return [rows[i] for i in picked], r[picked]


def is_newest_dense(x: dict) -> bool:
    """A dense row of TensorRT-LLM's newest tables: release/1.2, and the
    post-1.0 page for the H100, which 1.2 no longer prints. Both hold one dense
    model, Llama 3.3 70B (8B and 405B were last printed by v1.0)."""
    if x["engine"] != "TensorRT-LLM" or x["moe"]:
        return False
    return x["source"] == "TRTLLM_REL_1_2" or (
        x["source"] == "TRTLLM_DEVGUIDE_POST1_0" and x["gpu"] == "H100 SXM"
    )


def is_last_v10_dense(x: dict) -> bool:
    """Llama 3.1 8B and 405B in v1.0, the last tables that print them."""
    return x["source"] == "TRTLLM_V1_0" and x["model"] in (
        "Llama 3.1 8B",
        "Llama 3.1 405B",
    )


def latency_path(**kw) -> None:
    """The latency target against NIM 1.8.0's curve (Llama 3.3 70B, 2 x H100,
    fp8 TP2, 5000/500): ITL 38.75 ms at 25 concurrent requests, 623.4 tokens/s."""
    args = ("Llama 3.3 70B", "H100 SXM", 2, 5000, 500, "fp8")
    print("\n## latency target vs NIM 1.8.0 (Llama 3.3 70B, 2 x H100, fp8, 5000/500)")
    print(f"{'ms_per_token':>12} {'batch':>6} {'tokens/s':>9} {'step ms':>8}   NIM")
    nim = {20: (1, 18.58, 51.67), 40: (25, 38.75, 623.4), 60: (50, 59.73, 814.37),
           0: (250, 93.2, 920.12)}  # fmt: skip
    for ms in (20, 25, 30, 40, 50, 60, 0):
        c, itl, tps = nim.get(ms, (None, None, None))
        ref = f"concurrency {c}, ITL {itl} ms, {tps} tokens/s" if c else ""
        try:
            b = xf.serving_batch(*args, ms_per_token=ms, **kw)
            t = xf.serving_tokens_per_sec(*args, ms_per_token=ms, **kw)
        except InvalidValueError:
            print(f"{ms or 'none':>12} {'#NUM!':>6} {'':>9} {'':>8}   {ref}")
            continue
        step = xf.decode_step_ms(
            "Llama 3.3 70B", "H100 SXM", 2, b, 5250, "fp8",
            **{k: v for k, v in kw.items() if k in ("bandwidth_util", "prefill_mfu")},
        )  # fmt: skip
        print(f"{ms or 'none':>12} {b:>6.0f} {t:>9.1f} {step:>8.1f}   {ref}")
    print("\n## time to first token (idle replica)")
    for model, gpu, g, p, prec, measured, src in [
        ("Llama 3.3 70B", "H100 SXM", 2, 5000, "fp8", 406.77, "NIM 1.8.0, c=1"),
        ("Llama 3.3 70B", "H100 SXM", 2, 500, "fp8", 47.77, "NIM 1.8.0, c=1"),
        ("Llama 2 7B", "H100 SXM", 1, 128, "fp8", 7, "TensorRT-LLM v0.5, batch 1"),
        ("Llama 2 7B", "H100 SXM", 1, 2048, "fp8", 36, "TensorRT-LLM v0.5, batch 1"),
        ("Llama 2 70B", "H100 SXM", 4, 128, "fp8", 26, "TensorRT-LLM v0.5, batch 1"),
        ("Llama 2 70B", "H100 SXM", 4, 2048, "fp8", 109, "TensorRT-LLM v0.5, batch 1"),
    ]:
        ours = xf.time_to_first_token_ms(model, gpu, g, p, prec)
        print(
            f"{model}, {g} x {gpu}, {prec}, {p}-token prompt: ours {ours:7.1f} ms, "
            f"measured {measured:7.2f} ms ({src}): {ours / measured:.2f}"
        )


def fit(rows: list[dict]) -> dict:
    """Grid search of (bandwidth_util, prefill_mfu) on the fit rows only."""
    fit_rows = [x for x in rows if x["role"] == "fit"]
    grid_b = np.round(np.arange(0.40, 0.9001, 0.01), 2)
    grid_m = np.round(np.arange(0.30, 0.8001, 0.02), 2)
    best = None
    t0 = time.time()
    for b in grid_b:
        for m in grid_m:
            r = ratios(fit_rows, bandwidth_util=float(b), prefill_mfu=float(m))
            if not np.all(np.isfinite(r)):
                continue
            score = float(np.mean(np.abs(np.log(r))))
            if best is None or score < best[0]:
                best = (score, float(b), float(m))
    score, b, m = best
    print(
        f"\n# --fit: {len(grid_b)} x {len(grid_m)} grid on {len(fit_rows)} fit rows "
        f"({time.time() - t0:.1f} s): best bandwidth_util {b:.2f}, prefill_mfu "
        f"{m:.2f}, mean |log ratio| {score:.3f}"
    )
    return {"bandwidth_util": b, "prefill_mfu": m}


#: 16-bit activation values a step reads or writes per token and layer besides
#: the weights and the cache (proposal 1): ``RESIDUAL`` × d_model for the
#: residual stream, the norms and attention's input and output, and for each
#: expert copy a token is routed to (1 for a dense MLP) ``PER_COPY_D`` × d_model
#: (dispatch, the MLP's input and output, combine) + ``PER_COPY_F`` × ffn_dim
#: (gate/up written and read back, the activation's output written and read).
RESIDUAL, PER_COPY_D, PER_COPY_F = 8, 3, 4
ACTIVATION_BYTES = 2


def activation_ms(row: dict, batch: float, bandwidth_util: float) -> float:
    """Proposal 1: the milliseconds a step of ``batch`` sequences (a rank's
    under "ep") spends moving its tokens' activations; the ffn part is split
    over the GPUs under "tp", the d_model part is on every GPU."""
    spec = lambda field: float(xf.model_spec(row["model"], field))  # noqa: E731
    d, f, k = spec("d_model"), spec("ffn_dim"), spec("experts_per_token")
    split = 1 if row["parallel"] == "ep" else row["gpus"]
    per_token = spec("layers") * (
        RESIDUAL * d + k * (PER_COPY_D * d + PER_COPY_F * f) / split
    )
    read = float(xf.gpu_bandwidth_tbs(row["gpu"])) * 1e12 * bandwidth_util
    return batch * per_token * ACTIVATION_BYTES / read * 1000


def usable_of_free(row: dict, free_share: float) -> float:
    """Proposal 5: the ``usable`` that leaves ``free_share`` of the memory the
    weights leave free for the cache (TensorRT-LLM's
    kv_cache_free_gpu_mem_fraction), as a share of the whole memory."""
    spec = lambda field: float(xf.model_spec(row["model"], field))  # noqa: E731
    width = PRECISION_BYTES[row["precision"]]
    n, a, e, k = (spec(f) for f in ("params", "active_params", "experts",
                                     "experts_per_token"))  # fmt: skip
    gpus = row["gpus"]
    weights = n * width
    if row["parallel"] == "ep":  # one rank: dense weights and 1/g of the experts
        routed = (n - a) * e / (e - k) if e > k else 0.0
        weights, gpus = (n - routed + routed / gpus) * width, 1
    memory = float(xf.gpu_memory_gb(row["gpu"])) * 1e9 * gpus
    return min(1.0, (free_share * (memory - weights) + weights) / memory)


def composed(row: dict, *, cap: int | None = None, activations: bool = False,
             stall: float = 0.0, fp4_share: float = 1.0,
             free_share: float | None = None, bandwidth_util: float = 0.55,
             prefill_mfu: float = 0.6) -> float:  # fmt: skip
    """Our tokens/s from the parts, with proposals switched on: ``cap`` the
    most sequences a rank decodes (proposal 3), ``activations`` adds
    activation_ms to the step (proposal 1), ``stall`` f makes every rank of an
    "ep" replica of n wait for a share f of the other ranks' prompts,
    (1 + (n − 1)·f)·B·P (proposal 2; f = 1: never overlapped), and
    ``fp4_share`` scales prefill_mfu for fp4 rows (proposal 4: NVFP4 products
    reach a smaller share of their datasheet peak), ``free_share`` sizes the
    cache from the memory the weights leave (proposal 5)."""
    if row["precision"] == "fp4":
        prefill_mfu *= fp4_share
    extra = {}
    if free_share is not None:
        extra["usable"] = usable_of_free(row, free_share)
    if row["bytes_per_value"] is not None:
        extra["bytes_per_value"] = row["bytes_per_value"]
    most = row["max_batch"] or 4096
    if cap is not None:
        most = min(most, cap)
    par, n, o = row["parallel"], row["gpus"], row["output"]
    common = (row["model"], row["gpu"], n)
    step_extra = {k: v for k, v in extra.items() if k != "usable"}
    try:
        b = float(xf.serving_batch(
            *common, row["prompt"], o, row["precision"], max_batch=most,
            bandwidth_util=bandwidth_util, prefill_mfu=prefill_mfu, parallel=par,
            **extra))  # fmt: skip
    except InvalidValueError:
        return math.nan
    p = float(xf.prefill_ms(*common, row["prompt"], row["precision"],
                            prefill_mfu=prefill_mfu, parallel=par))  # fmt: skip
    step = float(xf.decode_step_ms(
        *common, b, row["prompt"] + o / 2, row["precision"],
        bandwidth_util=bandwidth_util, prefill_mfu=prefill_mfu, parallel=par,
        **step_extra))  # fmt: skip
    if activations:
        step += activation_ms(row, b, bandwidth_util)
    ranks = n if par == "ep" else 1
    waits = 1 + (ranks - 1) * stall
    return ranks * b * o / (waits * b * p + o * step) * 1000


WHAT_IF = [
    ("as coded (parts recomposed)", {}),
    ("1 activation traffic", {"activations": True}),
    ("2 attention-DP prompt stall, f=1", {"stall": 1.0}),
    ("2 attention-DP prompt stall, f=.5", {"stall": 0.5}),
    ("1+2 (f=.5)", {"activations": True, "stall": 0.5}),
    ("3 cap 256 a rank (old default)", {"cap": 256}),
    ("3 cap 512 a rank", {"cap": 512}),
    ("4 fp4 at 0.6 of prefill_mfu", {"fp4_share": 0.6}),
    ("5 cache: 0.9 of the free memory", {"free_share": 0.9}),
    ("1+2+3 (f=.5, cap 512)", {"activations": True, "stall": 0.5, "cap": 512}),
    (
        "1+2+3+4 (f=.5, cap 512)",
        {"activations": True, "stall": 0.5, "cap": 512, "fp4_share": 0.6},
    ),
    (
        "1+2+3+4+5 (f=.5, cap 512)",
        {
            "activations": True,
            "stall": 0.5,
            "cap": 512,
            "fp4_share": 0.6,
            "free_share": 0.9,
        },
    ),
    (
        "1+2+3+4+5 (f=1, cap 512)",
        {
            "activations": True,
            "stall": 1.0,
            "cap": 512,
            "fp4_share": 0.6,
            "free_share": 0.9,
        },
    ),
    (
        "1+2+3+4+5 (f=.5, cap 384)",
        {
            "activations": True,
            "stall": 0.5,
            "cap": 384,
            "fp4_share": 0.6,
            "free_share": 0.9,
        },
    ),
]


def what_if(rows: list[dict], base: np.ndarray) -> None:
    groups = [
        ("fit", lambda x: x["role"] == "fit"),
        ("held-out dense", lambda x: x["role"] != "fit" and not x["moe"]),
        ("held-out MoE", lambda x: x["role"] != "fit" and x["moe"]),
        ("newest dense", is_newest_dense),
    ]
    print("\n## what if (proposals; gmean / share in 0.70-1.45 / rows outside 0.5-2)")
    print(f"{'variant':<34}" + "".join(f"{g:>22}" for g, _ in groups))
    for name, kw in WHAT_IF:
        r = np.array([composed(x, **kw) / x["measured"] for x in rows])
        if not kw:
            assert np.allclose(r, base, equal_nan=True), "recomposition drifted"
        cells = []
        for _, keep in groups:
            s = stats(r[[i for i, x in enumerate(rows) if keep(x)]])
            cells.append(f"{s['gmean']:.2f} / {s['wide']:.0%} / {s['outside']:>3}")
        print(f"{name:<34}" + "".join(f"{c:>22}" for c in cells))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--no-rows", action="store_true", help="skip the per-row table")
    ap.add_argument(
        "--fit", action="store_true", help="fit on the fit rows, report all"
    )
    ap.add_argument("--what-if", action="store_true", help="the proposals' effect")
    ap.add_argument("--csv", help="write rows with ours and ratio at the defaults here")
    args = ap.parse_args(argv)

    rows = load()
    t0 = time.time()
    r = ratios(rows)
    print(
        f"# {len(rows)} measured rows from {DATA.relative_to(ROOT)}; defaults "
        f"bandwidth_util {DEFAULTS['bandwidth_util']}, prefill_mfu "
        f"{DEFAULTS['prefill_mfu']} ({time.time() - t0:.1f} s)"
    )
    report(rows, r, show_rows=not args.no_rows)
    latency_path()
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["source", "version", "model", "gpu", "gpus", "parallel",
                        "precision", "prompt", "output", "measured", "ours", "ratio",
                        "batch", "family", "role"])  # fmt: skip
            for row, x in zip(rows, r):
                w.writerow([row["source"], row["version"], row["model"], row["gpu"],
                            row["gpus"], row["parallel"], row["precision"],
                            row["prompt"], row["output"], row["measured"],
                            round(x * row["measured"], 1), round(x, 4),
                            batch(row), row["family"], row["role"]])  # fmt: skip
    if args.what_if:
        what_if(rows, r)
    if args.fit:
        best = fit(rows)
        r2 = ratios(rows, **best)
        report(rows, r2, show_rows=False)
        latency_path(**best)


if __name__ == "__main__":
    main()
