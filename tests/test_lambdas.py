"""The LAMBDA library: stored as Excel stores it, computed by an engine nobody here
wrote, equal to the Python library, with the xlwings functions' error codes.

The ``formulas`` package (PyPI) loads the built workbook and computes calls to
every function. It reads neither optional parameters, nor LET inside a
LAMBDA, nor a LAMBDA calling another, so the test rewrites the names' text
before loading (``formulas_engine.written_out`` and ``for_formulas``): calls and
LET variables written in place, ``_xlop.k`` as ``_xlpm.k`` and
``_xlfn.ISOMITTED(`` as ``ISBLANK(``; a call that leaves an optional argument
out passes ``formulas_engine.UNWRITTEN`` (a cell never written) in its place.
The stored form, untouched, is checked separately against Excel's spelling.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from formulas_engine import (
    UNWRITTEN,
    calculate_all,
    for_formulas,
    is_error,
    number,
    written_out,
)
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.formula import ArrayFormula
from test_excel_expressions import case
from workbook_tools import (
    formula_cells_without_cached_value,
    prints_whole_at_full_size,
    summary,
)

import xlfuncs
import xlfuncs.templates as T
import xlfuncs.udfs as udfs
from xlfuncs.registry import REGISTRY, Formula
from xlfuncs.registry.excel import literal
from xlfuncs.templates import lambdas as L
from xlfuncs.templates import library as lib
from xlfuncs.workbook.xlsx import save_text, save_workbook

formulas = pytest.importorskip("formulas")

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = lib.specs()
N_CASES = 6  # random valid calls per function


@functools.cache
def with_let() -> frozenset[str]:
    """The LAMBDAs written with LET: those with a part read more than once."""
    return frozenset(n for n, t in lib.definitions().items() if "_xlfn.LET(" in t)


@functools.cache
def as_formulas_reads() -> dict[str, str]:
    """The LAMBDAs the formulas engine computes here, as it can read them:
    each call of another LAMBDA and each LET variable written in its place,
    which it cannot evaluate inside a LAMBDA ("Missing Reference _XLPM.…",
    shared/FACTS.md), then :func:`for_formulas`. Those past Excel's 8,192
    characters written out are left to IronCalc (test_lambdas_ironcalc.py)."""
    return {n: for_formulas(t) for n, t in written_out(lib.definitions()).items()}


def by_formulas() -> list[Formula]:
    return [s for s in LIBRARY if s.name in as_formulas_reads()]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("library")
    b = lib.build_library()
    save_workbook(b.workbook, out / lib.FILENAME, b.cached, dynamic=b.dynamic)
    save_text(lib.module_text(), out / lib.MODULE_FILENAME)
    return out


# ---------------------------------------------------------------- the test sheet


def udf(spec: Formula, *args: object) -> object:
    """What the xlwings function shows for these cell values."""
    return getattr(udfs, spec.name)(*args)


def full_case(spec: Formula, rng: random.Random) -> tuple:
    """A random valid call giving every argument."""
    for _ in range(200):
        args = case(spec, rng)
        if len(args) == len(spec.args):
            return args
    raise AssertionError(spec.name)


# Bad values per kind of argument: (what, in the formula, as xlwings hands it over).
BAD = {
    "number": [
        ("text", '"eight"', "eight"),
        ("numeric text", '"8"', "8"),  # Excel's ISNUMBER("8") is FALSE
        ("boolean", "TRUE", True),
        ("blank", UNWRITTEN, None),
        ("error", "NA()", "#N/A"),
        ("error", "1/0", "#DIV/0!"),
        ("negative", "-1", -1.0),
        ("zero", "0", 0.0),
        ("above 1", "1.5", 1.5),
        ("not whole", "2.5", 2.5),
    ],
    "choice": [
        ("unknown", '"nonesuch"', "nonesuch"),
        # MATCH(…, 0) would read these as wildcards and find the first key.
        ("wildcard", '"*"', "*"),
        ("wildcard", '"?*"', "?*"),
        ("number", "5", 5.0),
        ("boolean", "FALSE", False),
        ("blank", UNWRITTEN, None),
        ("error", "NA()", "#N/A"),
    ],
}
# A sample (a range of lengths) with one odd cell in it: text and TRUE are skipped,
# "=NA()" is an error cell passed on, 0 and -5 are out of range.
# Not tried: a number stored as text ("8") in the range, which Excel's AVERAGE,
# MIN and PERCENTILE.INC skip as they skip "eight"; formulas 1.3.4 does not (its
# SUM adds it, its AVERAGE and MIN give #VALUE!).
BAD_SAMPLES = [
    [600, "eight", 900],
    [600, "=NA()", 900],
    [600, True, 900],
    [None, None],
    [600, 0, 900],
    [600, -5, 900],
]


def bad_values(arg, first: bool) -> list[tuple[str, str, object]]:
    """The bad values worth trying on ``arg``: 1.5 where there is an upper bound,
    2.5 where whole numbers are wanted, #DIV/0! passed on in a first argument
    (#N/A is passed on in every one)."""
    out = []
    for what, text, value in BAD[arg.kind]:
        d = arg.domain
        if what == "above 1" and (d is None or d.hi == float("inf")):
            continue
        if what == "not whole" and (d is None or not d.whole):
            continue
        if text == "1/0" and not first:
            continue
        out.append((what, text, value))
    return out


class Sheet:
    """The test sheet: a call per row in column A, a sample's cells beside it.

    ``left_out``: what an argument left out is written as, UNWRITTEN (a cell
    never written) for the formulas engine, which has no ISOMITTED; nothing at
    all for an engine that has it, as a user leaves it out."""

    def __init__(self, ws, left_out: str = UNWRITTEN) -> None:
        self.ws, self.row, self.left_out = ws, 0, left_out

    def write(self, name: str, texts: list[str]) -> str:
        """``=name(texts)`` in the next row; arguments left out at the end are
        dropped (``=F(1,2)``, not ``=F(1,2,,)``)."""
        self.row += 1
        while texts and texts[-1] == "":
            texts = texts[:-1]
        self.ws.cell(self.row, 1, f"={name}({','.join(texts)})")
        return f"A{self.row}"

    def call(self, spec: Formula, args: tuple, n_given: int | None = None) -> str:
        """Write the call; arguments past ``n_given`` are left out."""
        n = len(args) if n_given is None else n_given
        texts = []
        for k, a in enumerate(spec.args):
            if k >= n:
                texts.append(self.left_out)
            elif a.kind == "sample":
                cells, row = args[k], self.row + 1
                for j, x in enumerate(cells):
                    if x is not None:
                        self.ws.cell(row, 3 + j, x)
                last = get_column_letter(2 + max(1, len(cells)))
                texts.append(f"C{row}:{last}{row}")
            else:
                texts.append(args[k])
        return self.write(spec.name, texts)


def formula_args(spec: Formula, args: tuple) -> tuple:
    return tuple(
        list(v) if a.kind == "sample" else literal(v) for a, v in zip(spec.args, args)
    )


SPILLS = {  # cell: (array formula, its range, the xlwings call's arguments)
    "N10": ("=FT_EXAMPLES_PER_SEC(N1:N4,2500,0.82,900)", "N10:N13", "FT_EXAMPLES_PER_SEC",
            ([[8.0], [-1.0], ["x"], ["#N/A"]], 2500.0, 0.82, 900.0)),
    "O10": ("=FT_EXAMPLES_PER_SEC(N1:N4,2500,0.82,O1:Q1)", "O10:Q13", "FT_EXAMPLES_PER_SEC",
            ([[8.0], [-1.0], ["x"], ["#N/A"]], 2500.0, 0.82, [[900.0, 0.0, 1200.0]])),
    "R10": ("=CHINCHILLA_PARAMS(R1:R3,S1:S3)", "R10:R12", "CHINCHILLA_PARAMS",
            ([[6000.0], [60000.0], [600.0]], [[20.0], [10.0], [0.0]])),
    "T10": ("=FT_TOKENS_PER_EXAMPLE(T1:T5,U1:U3)", "T10:T12", "FT_TOKENS_PER_EXAMPLE",
            ([[600.0], [800.0], [900.0], [1000.0], [1200.0]], [[0.5], [0.9], [1.5]])),
    "V10": ("=GPU_MEMORY_GB(V1:V3)", "V10:V12", "GPU_MEMORY_GB",
            ([["H100"], ["A100 40GB"], ["nonesuch"]],)),
    # The model's shape, optional, as a range with a blank cell: that cell alone
    # is #VALUE! (the other two shape arguments are given), the others compute.
    "W10": ("=FLOPS_PER_TOKEN(7E+9,W1:W3,4096,2048)", "W10:W12", "FLOPS_PER_TOKEN",
            (7e9, [[32.0], [None], [40.0]], 4096.0, 2048.0)),
    "X10": ("=MFU(3000,7E+9,989,W1:W3,4096,2048)", "X10:X12", "MFU",
            (3000.0, 7e9, 989.0, [[32.0], [None], [40.0]], 4096.0, 2048.0)),
    "Y10": ("=TOKENS_PER_SEC_PER_GPU(7E+9,989,0.4,32,Y1:Y3,2048)", "Y10:Y12",
            "TOKENS_PER_SEC_PER_GPU",
            (7e9, 989.0, 0.4, 32.0, [[4096.0], [None], [5120.0]], 2048.0)),
    # MLP matrices without their width: #VALUE! in that cell alone.
    "Z10": (f"=LORA_PARAMS(32,4096,8,4,Z1:Z2,{UNWRITTEN},{UNWRITTEN},{UNWRITTEN},"
            f"{UNWRITTEN})",
            "Z10:Z11", "LORA_PARAMS",
            (32.0, 4096.0, 8.0, 4.0, [[0.0], [2.0]])),
}  # fmt: skip
SPILL_INPUTS = {
    "N": [8, -1, "x", "=NA()"], "O1": 900, "P1": 0, "Q1": 1200,
    "R": [6000, 60000, 600], "S": [20, 10, 0],
    "T": [600, 800, 900, 1000, 1200], "U": [0.5, 0.9, 1.5],
    "V": ["H100", "A100 40GB", "nonesuch"],
    "W": [32, None, 40], "Y": [4096, None, 5120], "Z": [0, 2],
    "AA": [8, True, '=""', None], "AB": [900, None], "AC": [20, None],
}  # fmt: skip

# Calls written by hand: the function, its arguments as typed in a cell, the same
# as xlwings hands them over, and what both must give (an error code, or a number
# by hand arithmetic), or (the LAMBDA's, the xlwings function's) where they differ
# as docs/excel.md says. Arguments left out are UNWRITTEN cells for formulas.
TAB, NBSP, LF = "CHAR(9)", "_xlfn.UNICHAR(160)", "CHAR(10)"
LOSS_70B = 1.69 + 406.4 / 7e10**0.34 + 410.7 / 1.4e12**0.28  # Hoffmann eq. 10
H100_GB = 81_559 * 2**20 / 1e9  # nvidia-smi's 81,559 MiB (NVIDIA/nccl issue #1264)
EXPLICIT = [
    # Errors that depend on two arguments.
    ("MODEL_STATE_GB", ["7E+9", "8E+9"], (7e9, 8e9), "#NUM!"),  # trainable > params
    ("MIN_GPUS_FOR_MEMORY", ["7E+10", "80", "0", "7E+10", "2", "0"],
     (7e10, 80.0, 0.0, 7e10, 2.0, 0.0), "#NUM!"),  # stage 0: 1,120 GB never fits
    ("MIN_GPUS_FOR_MEMORY", ["7E+9", "80", "0", "8E+9", "2", "3"],
     (7e9, 80.0, 0.0, 8e9, 2.0, 3.0), "#NUM!"),  # trainable > params
    # The weights alone exceed 90 % of 80 GB: no batch fits (140 GB of bf16).
    ("MAX_DECODE_BATCH", ["7E+10", "80", "0.5"], (7e10, 80.0, 0.5), "#NUM!"),
    # By hand: (0.9 × 80 - 16) / 0.5 = 112 sequences; whole GPU: 128.
    ("MAX_DECODE_BATCH", ["8E+9", "80", "0.5"], (8e9, 80.0, 0.5), 112.0),
    ("MAX_DECODE_BATCH", ["8E+9", "80", "0.5", UNWRITTEN, UNWRITTEN, "1"],
     (8e9, 80.0, 0.5, None, None, 1.0), 128.0),
    # Serving: $2 an hour at 1,850 tokens/s is 2 / 6.66e6 × 1e6 = $0.3003 a
    # million; 3,700 tokens/s on 1,850-token/s GPUs is 2, at 50 % 4.
    ("SERVING_COST_PER_MTOK", ["2", "1850"], (2.0, 1850.0), 2 / (1850 * 3600) * 1e6),
    ("SERVING_GPUS", ["3700", "1850"], (3700.0, 1850.0), 2.0),
    ("SERVING_GPUS", ["3701", "1850"], (3701.0, 1850.0), 3.0),
    ("SERVING_GPUS", ["3700", "1850", "0.5"], (3700.0, 1850.0, 0.5), 4.0),
    # Mixtral 8x7B at batch 1 reads its 12.9 B active parameters.
    ("MODEL_DECODE_TOKENS_PER_SEC", ['"Mixtral 8x7B"', "3.35"], ("Mixtral 8x7B", 3.35),
     3.35e12 / (12.9e9 * 2)),
    # Llama 3 8B, batch 32, 4,096 tokens: 16 GB of weights + 17.18 GB of cache
    # read in 9.9 ms; its 32 × 2 × 8e9 FLOPs at the H100's 989 TFLOP/s take
    # 0.5 ms. Past batch 1 the peak is needed.
    ("MODEL_DECODE_TOKENS_PER_SEC",
     ['"Llama 3 8B"', "3.35", "32", "4096", UNWRITTEN, UNWRITTEN, UNWRITTEN, "989"],
     ("Llama 3 8B", 3.35, 32.0, 4096.0, None, None, None, 989.0),
     32 * 3.35e12 / (16e9 + 32 * 4096 * 2 * 32 * 8 * 128 * 2)),
    ("MODEL_DECODE_TOKENS_PER_SEC", ['"Llama 3 8B"', "3.35", "32", "4096"],
     ("Llama 3 8B", 3.35, 32.0, 4096.0), "#VALUE!"),
    # Issue 28. NVLink: the H100 SXM datasheet's 900 GB/s; TPU v4 prints none.
    ("GPU_INTERCONNECT_GBS", ['"H100"'], ("H100",), 900.0),
    ("GPU_INTERCONNECT_GBS", ['"TPU v4"'], ("TPU v4",), "#N/A"),
    # Llama 3.1 70B (80 layers, d_model 8,192) on 4 H100s, 256 tokens: 160
    # all-reduces of 256 × 8,192 × 2 bytes, 3/2 of it over 450 GB/s, + 8 µs each.
    ("TP_COMM_MS", ['"Llama 3.1 70B"', '"H100"', "4", "256"],
     ("Llama 3.1 70B", "H100", 4.0, 256.0),
     160 * (8e-6 + 1.5 * 256 * 8192 * 2 / 450e9) * 1000),
    # One GPU makes no all-reduce, and needs no figure; four TPU v4s do.
    ("TP_COMM_MS", ['"Llama 3.1 70B"', '"TPU v4"', "1", "256"],
     ("Llama 3.1 70B", "TPU v4", 1.0, 256.0), 0.0),
    ("TP_COMM_MS", ['"Llama 3.1 70B"', '"TPU v4"', "4", "256"],
     ("Llama 3.1 70B", "TPU v4", 4.0, 256.0), "#N/A"),
    ("TP_COMM_MS", ['"Llama 3.1 70B"', '"TPU v4"', "4", "256", "200"],
     ("Llama 3.1 70B", "TPU v4", 4.0, 256.0, 200.0),
     160 * (8e-6 + 1.5 * 256 * 8192 * 2 / 100e9) * 1000),
    # ZeRO-3 on 8 H100s, 8 B weights: 7/8 of 2 × 16 GB gathered and 16 GB of
    # gradients, over 450 GB/s.
    ("ZERO3_COMM_MS", ["8E+9", '"H100"', "8"], (8e9, "H100", 8.0),
     7 / 8 * (2 * 8e9 * 2 + 8e9 * 2) / 450e9 * 1000),
    # A 1,000-token prompt of Llama 3.3 70B in fp8 on 2 H100s (1,978.9 TFLOP/s):
    # 2 × 70e9 × 1,000 FLOPs and 2 × 80 × 8,192 × 1,000² of attention at 60 %,
    # then 160 all-reduces of 1,000 × 8,192 × 2 bytes over 450 GB/s.
    ("PREFILL_MS", ['"Llama 3.3 70B"', '"H100"', "2", "1000", '"fp8"'],
     ("Llama 3.3 70B", "H100", 2.0, 1000.0, "fp8"),
     (2 * 70e9 * 1000 + 2 * 80 * 8192 * 1000**2) / (2 * 1978.9e12 * 0.6) * 1000
     + 160 * (8e-6 + 1000 * 8192 * 2 / 450e9) * 1000),
    # fp8 on an A100, which has no fp8 figure: its bf16 peak, 312 TFLOP/s.
    ("PREFILL_MS", ['"Llama 3.1 8B"', '"A100"', "1", "1000", '"FP-8"'],
     ("Llama 3.1 8B", "A100", 1.0, 1000.0, "FP-8"),
     (2 * 8e9 * 1000 + 2 * 32 * 4096 * 1000**2) / (312e12 * 0.6) * 1000),
    # fp4 on an A100 likewise: weight-only, widened to 16 bits (vLLM's Marlin
    # kernels), at the bf16 peak.
    ("PREFILL_MS", ['"Llama 3.1 8B"', '"A100"', "1", "1000", '"fp4"'],
     ("Llama 3.1 8B", "A100", 1.0, 1000.0, "fp4"),
     (2 * 8e9 * 1000 + 2 * 32 * 4096 * 1000**2) / (312e12 * 0.6) * 1000),
    ("FLOPS_PER_TOKEN", ["7E+9", "32"], (7e9, 32.0), "#VALUE!"),  # shape in part
    ("TRAINING_DAYS", ["7E+9", "1E+12", "64", "400", "6", "32"],
     (7e9, 1e12, 64.0, 400.0, 6.0, 32.0), "#VALUE!"),
    # By hand: (6 × 7e9 + 12 × 32 × 4,096 × 4,096) × 1e12 / (64 × 400e12) / 86,400.
    ("TRAINING_DAYS", ["7E+9", "1E+12", "64", "400", "6", "32", "4096", "4096"],
     (7e9, 1e12, 64.0, 400.0, 6.0, 32.0, 4096.0, 4096.0),
     (6 * 7e9 + 12 * 32 * 4096 * 4096) * 1e12 / (64 * 400e12) / 86400),
    ("FLOPS_PER_TOKEN", ["7E+9", UNWRITTEN, "4096", "2048"],
     (7e9, None, 4096.0, 2048.0), "#VALUE!"),
    ("MFU", ["3000", "7E+9", "989", "32", "4096"],
     (3000.0, 7e9, 989.0, 32.0, 4096.0), "#VALUE!"),
    ("LORA_PARAMS", ["32", "4096", "8", "4", "2"], (32.0, 4096.0, 8.0, 4.0, 2.0),
     "#VALUE!"),  # MLP matrices without ffn_dim
    ("LORA_PARAMS", ["32", "4096", "8", "2", "0", UNWRITTEN, "2"],
     (32.0, 4096.0, 8.0, 2.0, 0.0, None, 2.0), "#VALUE!"),  # k, v without kv_width
    ("GPU_PEAK_TFLOPS", ['"V100"', '"bf16"'], ("V100", "bf16"), "#N/A"),
    ("GPU_PEAK_TFLOPS", ['"V100"', '"fp16"'], ("V100", "fp16"), 125.0),
    # Two bad arguments: the first one's error wins.
    ("FT_EXAMPLES_PER_SEC", ['"x"', "-1", "0.82", "900"], ("x", -1.0, 0.82, 900.0),
     "#VALUE!"),
    ("FT_EXAMPLES_PER_SEC", ["-1", '"x"', "0.82", "900"], (-1.0, "x", 0.82, 900.0),
     "#NUM!"),
    ("FT_EXAMPLES_PER_SEC", ["8", "2500", "NA()", "0"], (8.0, 2500.0, "#N/A", 0.0),
     "#N/A"),
    ("FT_EXAMPLES_PER_SEC", ["8", "2500", "82", "1/0"],
     (8.0, 2500.0, 82.0, "#DIV/0!"), "#NUM!"),
    ("GPU_PEAK_TFLOPS", ["5", '"nonesuch"'], (5.0, "nonesuch"), "#VALUE!"),
    ("CHINCHILLA_LOSS", ["-1", '"x"', '"Hoff*"'], (-1.0, "x", "Hoff*"), "#NUM!"),
    # Names: wildcards are plain characters; tabs and non-breaking spaces do not
    # count, wherever they are.
    ("GPU_MEMORY_GB", ['"H*"'], ("H*",), "#N/A"),
    ("GPU_MEMORY_GB", ['"?100"'], ("?100",), "#N/A"),
    ("GPU_MEMORY_GB", ['"~H100"'], ("~H100",), "#N/A"),
    ("CHINCHILLA_LOSS", ["7E+10", "1.4E+12", '"Hoff*"'], (7e10, 1.4e12, "Hoff*"),
     "#N/A"),
    ("CHINCHILLA_LOSS", ["7E+10", "1.4E+12", '"Hoff mann"'],
     (7e10, 1.4e12, "Hoff mann"), LOSS_70B),
    ("MODEL_SPEC", ['"Llama*"', '"layers"'], ("Llama*", "layers"), "#N/A"),
    ("GPU_MEMORY_GB", [f'"H100"&{TAB}'], ("H100\t",), H100_GB),
    ("GPU_MEMORY_GB", [f'{TAB}&"h100-sxm"'], ("\th100-sxm",), H100_GB),
    ("GPU_MEMORY_GB", [f'"H100"&{NBSP}&"SXM"'], ("H100\u00a0SXM",), H100_GB),
    ("GPU_PEAK_TFLOPS", ['"H100"', f'"BF"&{TAB}&"16"'], ("H100", "BF\t16"), 989.4),
    ("MODEL_SPEC", [f'"Llama"&{NBSP}&"3.1 8B"', '"layers"'],
     ("Llama\u00a03.1 8B", "layers"), 32.0),
    ("ACTIVATION_GB", ["80", "8192", "64", "4096", "1", "8", f'"Full"&{NBSP}'],
     (80.0, 8192.0, 64.0, 4096.0, 1.0, 8.0, "Full\u00a0"),
     80 * 2 * 4096 * 8192 / 1e9),  # full recomputation keeps L·2sbh bytes
    # A line break around a name: Python strips any white space around it; the
    # LAMBDA ignores only the characters Python ignores inside a name.
    ("GPU_MEMORY_GB", [f'"H100"&{LF}'], ("H100\n",), ("#N/A", H100_GB)),
]  # fmt: skip

# Ranges holding TRUE, "" or a blank cell: {cell: (call, its range, the xlwings
# call's arguments, what the LAMBDA gives, what the xlwings function gives)}.
EXAMPLES_8 = 8 * 2500 * 0.82 / 900  # FT_EXAMPLES_PER_SEC(8, 2500, 82%, 900)
CHINCHILLA_6000 = (6000 * 8.64e19 / (6 * 20)) ** 0.5  # at 20 tokens a parameter
RANGES = {
    "AA10": ("=FT_EXAMPLES_PER_SEC(AA1:AA4,2500,0.82,900)", "AA10:AA13",
             ([[8.0], [True], [""], [None]], 2500.0, 0.82, 900.0),
             [EXAMPLES_8, "#VALUE!", "#VALUE!", "#VALUE!"], None),
    "AB10": ("=FT_EXAMPLES_PER_SEC(8,2500,0.82,AB1:AB2)", "AB10:AB11",
             (8.0, 2500.0, 0.82, [[900.0], [None]]), [EXAMPLES_8, "#VALUE!"], None),
    # A blank in an optional argument's range: its default in the LAMBDA,
    # #VALUE! in the xlwings function (docs/excel.md says so).
    "AC10": ("=CHINCHILLA_PARAMS(6000,AC1:AC2)", "AC10:AC11",
             (6000.0, [[20.0], [None]]), [CHINCHILLA_6000, CHINCHILLA_6000],
             [CHINCHILLA_6000, "#VALUE!"]),
}  # fmt: skip


def calls(built: Path, left_out: str = UNWRITTEN, spills: bool = True):
    """The built library with every test call on a sheet T (``left_out`` as in
    :class:`Sheet`; ``spills``: with the array formulas), and the calls."""
    wb = openpyxl.load_workbook(built / lib.FILENAME)
    ws = wb.create_sheet("T")
    sheet = Sheet(ws, left_out)
    rng = random.Random(1212)
    valid, bad, examples = [], [], []
    for spec in LIBRARY:
        for _ in range(N_CASES):
            args = case(spec, rng)
            given = formula_args(spec, args)
            valid.append((spec, args, sheet.call(spec, given)))
        ex = spec.example.args
        examples.append((spec, sheet.call(spec, formula_args(spec, ex))))
        base = full_case(spec, rng)
        for k, a in enumerate(spec.args):
            if a.kind == "sample":
                for cells in BAD_SAMPLES:
                    given = formula_args(spec, base)
                    given = (*given[:k], cells, *given[k + 1 :])
                    in_udf = [["#N/A" if c == "=NA()" else c for c in cells]]
                    udf_args = (*base[:k], in_udf, *base[k + 1 :])
                    bad.append(
                        (spec, f"{a.name} {cells}", udf_args, sheet.call(spec, given))
                    )
                continue
            for what, text, value in bad_values(a, first=k == 0):
                given = formula_args(spec, base)
                given = (*given[:k], text, *given[k + 1 :])
                udf_args = (*base[:k], value, *base[k + 1 :])
                bad.append(
                    (spec, f"{a.name} {what} {text}", udf_args, sheet.call(spec, given))
                )
    explicit = []
    for name, texts, udf_args, want in EXPLICIT:
        spec = REGISTRY[name]
        texts = texts + [left_out] * (len(spec.args) - len(texts))
        coord = sheet.write(name, texts)
        explicit.append((spec, texts, udf_args, want, coord))
    cases = {"valid": valid, "bad": bad, "examples": examples, "explicit": explicit}
    if not spills:
        return wb, cases
    for key, values in SPILL_INPUTS.items():
        cells = (
            [key]
            if key[-1].isdigit()
            else [f"{key}{r}" for r in range(1, 1 + len(values))]
        )
        for coord, v in zip(cells, values if isinstance(values, list) else [values]):
            ws[coord] = v
    for coord, (text, ref, _, _) in SPILLS.items():
        ws[coord] = ArrayFormula(ref, text)
    for coord, (text, ref, *_) in RANGES.items():
        ws[coord] = ArrayFormula(ref, text)
    return wb, cases


@pytest.fixture(scope="module")
def computed(built, tmp_path_factory):
    """One formulas load of the library with every test call on a sheet T."""
    wb, cases = calls(built)
    texts = as_formulas_reads()
    for name in set(lib.definitions()) - set(texts):  # left to IronCalc
        del wb.defined_names[name]
    cases = {
        kind: [c for c in found if c[0].name in texts] for kind, found in cases.items()
    }
    for name, text in texts.items():
        wb.defined_names[name].attr_text = text
    path = tmp_path_factory.mktemp("computed") / "calls.xlsx"
    wb.save(path)
    cells, ranges = calculate_all(path)
    return {**cases, "cells": cells, "ranges": ranges}


def value_at(computed, coord):
    return computed["cells"][("T", coord)]


def same(got, want) -> bool:
    """The LAMBDA's value against the xlwings function's: its code, or the number."""
    if isinstance(want, str):
        return is_error(got, want.split()[0])
    x = number(got)
    return x is not None and x == pytest.approx(want, rel=1e-9)


# ---------------------------------------------------------------- values


@pytest.mark.engine
def test_every_function_equals_the_python_library(computed):
    assert {s.name for s, _, _ in computed["valid"]} == {s.name for s in by_formulas()}
    omitted = 0
    for spec, args, coord in computed["valid"]:
        want = spec.api(*args)
        got = value_at(computed, coord)
        assert number(got) is not None, (spec.name, args, got)
        assert number(got) == pytest.approx(want, rel=1e-9), (spec.name, args)
        omitted += len(args) < len(spec.args)
    assert omitted > 30  # calls that leave optional arguments out are among them


@pytest.mark.engine
def test_docstring_examples(computed):
    for spec, coord in computed["examples"]:
        want = spec.api(*spec.example.args)
        assert number(value_at(computed, coord)) == pytest.approx(want, rel=1e-9)


@pytest.mark.engine
def test_bad_inputs_give_the_xlwings_functions_error_codes(computed):
    wrong = []
    codes = set()
    for spec, what, udf_args, coord in computed["bad"]:
        want = udf(spec, *udf_args)
        got = value_at(computed, coord)
        if isinstance(want, str):
            codes.add(want.split()[0])
        if not same(got, want):
            wrong.append((spec.name, what, str(got), want))
    assert wrong == []
    assert codes == {"#VALUE!", "#NUM!", "#DIV/0!", "#N/A"}
    assert len(computed["bad"]) > 600


@pytest.mark.engine
def test_ranges_spill_cell_by_cell(computed):
    for text, ref, name, args in SPILLS.values():
        got = computed["ranges"][("T", ref)]
        want = udf(REGISTRY[name], *args)
        assert got.shape == (len(want), len(want[0])), text
        for r, row in enumerate(want):
            for c, w in enumerate(row):
                assert same(got[r, c], w), (text, r, c, got[r, c], w)


def agrees(got, want) -> bool:
    """A computed value (LAMBDA or xlwings) against a hand-written expectation."""
    if isinstance(want, str):
        return is_error(got, want) or (isinstance(got, str) and got.split()[0] == want)
    x = number(got)
    return x is not None and x == pytest.approx(want, rel=1e-12)


@pytest.mark.engine
def test_calls_written_by_hand(computed):
    wrong = []
    for spec, texts, udf_args, want, coord in computed["explicit"]:
        lambda_want, udf_want = want if isinstance(want, tuple) else (want, want)
        got, shown = value_at(computed, coord), udf(spec, *udf_args)
        if not (agrees(got, lambda_want) and agrees(shown, udf_want)):
            wrong.append((spec.name, texts, str(got), shown))
    assert wrong == []
    mine = [c for c in EXPLICIT if c[0] in as_formulas_reads()]
    assert len(computed["explicit"]) == len(mine) > 35


@pytest.mark.engine
def test_ranges_holding_true_text_or_blanks(computed):
    for text, ref, udf_args, lambda_want, udf_want in RANGES.values():
        got = computed["ranges"][("T", ref)]
        spec = REGISTRY[text[1:].split("(")[0]]
        shown = udf(spec, *udf_args)
        assert [agrees(g, w) for g, w in zip(got[:, 0], lambda_want)] == [True] * len(
            lambda_want
        ), (text, got)
        assert [agrees(r[0], w) for r, w in zip(shown, udf_want or lambda_want)] == [
            True
        ] * len(lambda_want), (text, shown)


@pytest.mark.engine
def test_ranges_in_the_shape_arguments_compute_cell_by_cell(computed):
    # By hand, FLOPS_PER_TOKEN(7E+9, 32, 4096, 2048) = 6*7e9 + 12*32*4096*2048.
    got = computed["ranges"][("T", "W10:W12")]
    assert number(got[0, 0]) == 6 * 7e9 + 12 * 32 * 4096 * 2048
    assert is_error(got[1, 0], "#VALUE!")
    assert number(got[2, 0]) == 6 * 7e9 + 12 * 40 * 4096 * 2048


# ---------------------------------------------------------------- IronCalc
# The same calls computed by a second engine, IronCalc (tests/ironcalc_engine.py),
# from the library as it is built: no rewrite, and an argument left out is left
# out of the call (=CHINCHILLA_PARAMS(6000)), as a user leaves it out.

#: Functions IronCalc cannot compute as Excel does, left out with the reason.
IRONCALC_LEFT_OUT = {
    "FT_TOKENS_PER_EXAMPLE": "it reads its lengths as a whole, through "
    "ISNUMBER and ISERROR over the range; IronCalc 0.9.1 gives one value for "
    "those over a range, not an array, so SUM(ISNUMBER(lengths)*1) counts one "
    "number at most and every call reads as no number at all (#DIV/0!)",
}
# Left out as well, for the same reason: SPILLS and RANGES, a LAMBDA called with
# a range and entered over several cells. Every argument check is
# IF(ISNUMBER(x), …) and IronCalc reads ISNUMBER(range) as one FALSE: each cell
# of the spill is #VALUE! (tested below, so that a release that fixes it shows).


@pytest.fixture(scope="module")
def iron(built, tmp_path_factory):
    """The built library, every test call on a sheet T, evaluated by IronCalc."""
    ironcalc_engine = pytest.importorskip("ironcalc_engine")
    wb, cases = calls(built, left_out="", spills=False)
    path = tmp_path_factory.mktemp("ironcalc") / "calls.xlsx"
    save_workbook(wb, path, {})
    return cases, ironcalc_engine.evaluated(path), ironcalc_engine


def iron_cases(iron, kind: str):
    cases, book, engine = iron
    kept = [c for c in cases[kind] if c[0].name not in IRONCALC_LEFT_OUT]
    assert len(kept) < len(cases[kind]) or kind == "explicit"
    return kept, book["T"], engine


def iron_same(engine, got, want) -> bool:
    """IronCalc's value against the xlwings function's, or a hand-written one."""
    if isinstance(want, str):
        return engine.is_error(got, want.split()[0])
    x = engine.number(got)
    return x is not None and x == pytest.approx(want, rel=1e-9)


@pytest.mark.engine
def test_ironcalc_computes_every_function_as_the_python_library(iron):
    valid, sheet, engine = iron_cases(iron, "valid")
    wrong, omitted = [], 0
    for spec, args, coord in valid:
        got = sheet[coord].value
        if not iron_same(engine, got, spec.api(*args)):
            wrong.append((spec.name, args, got))
        omitted += len(args) < len(spec.args)
    assert wrong == []
    assert len({s.name for s, _, _ in valid}) == len(LIBRARY) - len(IRONCALC_LEFT_OUT)
    assert omitted > 30  # calls that leave optional arguments out, truly left out


@pytest.mark.engine
def test_ironcalc_docstring_examples(iron):
    examples, sheet, engine = iron_cases(iron, "examples")
    for spec, coord in examples:
        want = spec.api(*spec.example.args)
        assert iron_same(engine, sheet[coord].value, want), spec.name


@pytest.mark.engine
def test_ironcalc_gives_the_xlwings_functions_error_codes(iron):
    bad, sheet, engine = iron_cases(iron, "bad")
    wrong = [
        (spec.name, what, str(sheet[coord].value), udf(spec, *udf_args))
        for spec, what, udf_args, coord in bad
        if not iron_same(engine, sheet[coord].value, udf(spec, *udf_args))
    ]
    assert wrong == []
    assert len(bad) > 600


@pytest.mark.engine
def test_ironcalc_calls_written_by_hand(iron):
    explicit, sheet, engine = iron_cases(iron, "explicit")
    wrong = []
    for spec, texts, _, want, coord in explicit:
        lambda_want = want[0] if isinstance(want, tuple) else want
        if not iron_same(engine, sheet[coord].value, lambda_want):
            wrong.append((spec.name, texts, str(sheet[coord].value)))
    assert wrong == []
    assert len(explicit) == len(EXPLICIT)


@pytest.mark.engine
def test_ironcalc_computes_the_built_files_own_examples(built):
    """The Try and Functions sheets of the file as built, every call computed
    from the stored names, equal to the value the Python library cached."""
    engine = pytest.importorskip("ironcalc_engine")
    book = engine.evaluated(built / lib.FILENAME)
    cached = openpyxl.load_workbook(built / lib.FILENAME, data_only=True)
    formulas_ = openpyxl.load_workbook(built / lib.FILENAME)
    seen, wrong = set(), []
    for title in ("Try", "Functions"):
        for row in formulas_[title].iter_rows():
            for c in row:
                if c.data_type != "f":
                    continue
                name = calls_in(c.value).pop()
                want = cached[title][c.coordinate].value
                got = book[title][c.coordinate].value
                if name in IRONCALC_LEFT_OUT:
                    assert engine.is_error(got), (name, got)  # still its quirk
                    continue
                if not iron_same(engine, got, want):
                    wrong.append((title, c.coordinate, name, got, want))
                seen.add(name)
    assert wrong == []
    assert seen == {s.name for s in LIBRARY} - set(IRONCALC_LEFT_OUT)


@pytest.mark.engine
def test_ironcalc_still_cannot_spill_a_lambda_over_a_range(built, tmp_path):
    """The reason SPILLS and RANGES are left out, tried: when a release of
    IronCalc spills them, this fails, and they can be tried there too."""
    engine = pytest.importorskip("ironcalc_engine")
    wb = openpyxl.load_workbook(built / lib.FILENAME)
    ws = wb.create_sheet("T")
    for r, v in enumerate([8, 16], start=1):
        ws.cell(r, 1, v)
    ws["B1"] = ArrayFormula("B1:B2", "=FT_EXAMPLES_PER_SEC(A1:A2,2500,0.82,900)")
    ws["C1"] = "=FT_TOKENS_PER_EXAMPLE(A1:A2)"
    save_workbook(wb, tmp_path / "spill.xlsx", {})
    sheet = engine.evaluated(tmp_path / "spill.xlsx")["T"]
    assert [str(sheet[c].value) for c in ("B1", "B2", "C1")] == ["#VALUE!"] * 2 + [
        "#DIV/0!"
    ]


# Functions that reduce a range to one value: in a LAMBDA only over a sample (a
# range read as a whole), never over an argument that spills cell by cell.
REDUCERS = {"AND", "OR", "MIN", "MAX", "SUM", "AVERAGE", "PRODUCT", "COUNT", "COUNTA"}


def reduced(text: str) -> list[tuple[str, str]]:
    """Each call of a REDUCERS function in ``text``: (function, its arguments)."""
    out = []
    for m in re.finditer(r"(?<![\w.])([A-Z]+)\(", text):
        if m.group(1) not in REDUCERS:
            continue
        depth, start = 0, m.end() - 1
        for j in range(start, len(text)):
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            if depth == 0:
                out.append((m.group(1), text[start + 1 : j]))
                break
    return out


def test_no_lambda_reduces_a_range_that_should_spill():
    samples = {a.name for s in LIBRARY for a in s.args if a.kind == "sample"}
    seen = set()
    for name, text in lib.definitions().items():
        for function, args in reduced(text):
            params = set(re.findall(r"_xlpm\.(\w+)", args))
            assert params and params <= samples, (name, function, args[:80])
            seen.add(function)
    assert seen == {"OR", "MIN", "SUM", "AVERAGE"}  # FT_TOKENS_PER_EXAMPLE's lengths
    assert reduced("IF(AND(_xlpm.a>0),OR(x),MAX(1,2))") == [
        ("AND", "_xlpm.a>0"),
        ("OR", "x"),
        ("MAX", "1,2"),
    ]


@pytest.mark.engine
def test_the_functions_sheet_examples_compute_their_cached_values(built, computed):
    wb = openpyxl.load_workbook(built / lib.FILENAME, data_only=True)
    ws = wb["Functions"]
    seen = set()
    for row in ws.iter_rows(min_row=4):
        name = row[0].value
        if name not in REGISTRY or REGISTRY[name].excel is None:
            continue
        spec, f_cell, g_cell = REGISTRY[name], row[5], row[6]
        want = spec.api(*spec.example.args)
        assert f_cell.value == want, name  # the cached value, as Python computed it
        assert g_cell.value == pytest.approx(want, rel=1e-15), name
        if name not in as_formulas_reads():  # computed with IronCalc
            seen.add(name)
            continue
        if len(spec.example.args) == len(spec.args):  # formulas needs every argument
            got = computed["cells"][("FUNCTIONS", f_cell.coordinate)]
            assert number(got) == pytest.approx(want, rel=1e-9), name
        seen.add(name)
    assert seen == {s.name for s in LIBRARY}


# ---------------------------------------------------------------- stored form


def stored(path: Path) -> dict[str, object]:
    wb = openpyxl.load_workbook(path)
    return {k: v for k, v in wb.defined_names.items() if REGISTRY.get(k)}


STORED = re.compile(
    r"_xlfn\.LAMBDA\((?P<params>(?:_xl(?:pm|op)\.\w+,)+)(?P<body>.*)\)", re.S
)


def test_stored_as_excel_stores_it(built):
    names = stored(built / lib.FILENAME)
    assert set(names) == {s.name for s in LIBRARY}
    for spec in LIBRARY:
        dn = names[spec.name]
        text = dn.attr_text
        m = STORED.fullmatch(text)
        assert m, spec.name  # _xlfn.LAMBDA( head, no leading "="
        want = [
            ("_xlop." if a.name in spec.defaults else "_xlpm.")
            + L.parameter_name(a.name)
            for a in spec.args
        ]
        assert m["params"].rstrip(",").split(",") == want, spec.name
        body = m["body"]
        assert "_xlop." not in body and not body.startswith("=")
        for a in spec.args:
            if a.name in spec.defaults:
                p = L.parameter(a.name)
                assert f"_xlfn.ISOMITTED({p})" in body, (spec.name, a.name)
        used = set(re.findall(r"_xlpm\.(\w+)", body)) - set(L.let_names(text))
        assert used == {L.parameter_name(a.name) for a in spec.args}, spec.name
        # A name Excel shows and the formulas engine reads: visible, workbook-wide.
        assert not dn.hidden and dn.localSheetId is None
        assert dn.comment == spec.description and len(dn.comment) <= 255
        assert len(text) <= L.MAX_CHARS and L.nesting(text) <= L.MAX_NESTING


def test_a_lambda_excel_would_refuse_is_not_built(monkeypatch):
    # Past the limits written out and with LET: refused. A function written
    # with LET, so that neither form passes at one character or level fewer.
    spec = REGISTRY["SERVING_TOKENS_PER_SEC"]
    text = L.lambda_text(spec)
    assert "_xlfn.LET(" in text
    monkeypatch.setattr(L, "MAX_CHARS", len(text) - 1)
    with pytest.raises(ValueError, match="SERVING_TOKENS_PER_SEC: its LAMBDA has"):
        L.lambda_text(spec)
    monkeypatch.setattr(L, "MAX_CHARS", len(text))
    monkeypatch.setattr(L, "MAX_NESTING", L.nesting(text) - 1)
    with pytest.raises(ValueError, match="levels of nested functions"):
        L.lambda_text(spec)


def test_let_variables_are_the_functions_parts():
    # A LET variable is a part the function declares, named as in its Python
    # body; else an optional argument's value (its name and "_"), a repeated
    # piece the declaration leaves unnamed (part1, part2, …) or a look-up's row.
    # A part read once is written where it is read.
    texts = lib.definitions()
    step = L.let_names(texts["REPLICA_STEP_MS"])
    assert {"experts_held", "ranks", "cached", "read_s", "compute_s"} <= set(step)
    assert "per_token_s" not in step
    for spec in LIBRARY:
        parts = {p for p, _ in spec.parts}
        args = {a.name for a in spec.args} | {
            L.parameter_name(a.name) for a in spec.args
        }
        for n in L.let_names(texts[spec.name]):
            unnamed = re.fullmatch(r"part\d+|accelerator_row", n)
            default = n.endswith("_") and n[:-1] in args
            assert n in parts or default or unnamed, (spec.name, n)


@functools.cache
def template_names() -> frozenset[str]:
    """Every defined name of every template in each language, lower case, as
    a build lays them out now."""
    from xlfuncs.templates.build import laid_out

    return frozenset(
        n.lower()
        for tpl in T.TEMPLATES
        for lang in T.LANGS
        for n in laid_out(tpl, lang).wb.defined_names
    )


def test_let_names_excel_and_the_engines_accept(built):
    # A LET name is a LAMBDA parameter's kind of name, and none is a name of a
    # workbook we write (the library, each template in each language) or of
    # the registry: IronCalc reads such a name as the defined one.
    wb = openpyxl.load_workbook(built / lib.FILENAME)
    defined = {n.lower() for n in wb.defined_names} | {n.lower() for n in REGISTRY}
    defined |= template_names()
    assert {"gpus", "acceleratorkeys", "serving_batch"} <= defined  # found them
    for name in with_let():
        text = wb.defined_names[name].attr_text
        names = L.let_names(text)
        assert names and len(set(names)) == len(names), name
        params = {a.name for a in REGISTRY[name].args}
        for n in names:
            assert refused(n, parameter=True) is None, (name, n)
            assert n.lower() not in defined and n not in params, (name, n)


def test_newer_functions_carry_the_xlfn_prefix(built):
    # formulas also reads them without it, Excel and LibreOffice do not: a test
    # that computes cannot see a missing prefix, so the names are listed here.
    known = set(formulas.get_functions())
    newer = {k[len("_XLFN.") :] for k in known if k.startswith("_XLFN.")}
    newer |= {"LAMBDA", "LET", "ISOMITTED", "SEQUENCE"}  # formulas registers none
    assert {"PERCENTILE.INC", "IFS", "SWITCH", "XLOOKUP"} <= newer
    wb = openpyxl.load_workbook(built / lib.FILENAME)
    texts = [dn.attr_text for dn in wb.defined_names.values()]
    texts += [
        c.value
        for ws in wb
        for row in ws.iter_rows()
        for c in row
        if c.data_type == "f"
    ]
    called = set()
    for text in texts:
        for f in calls_in(text):
            called.add(f)
            if f.startswith("_XLFN."):
                assert f[6:] in newer, (f, text[:80])
            else:
                assert f not in newer, (f, text[:80])
                assert f in known or f in REGISTRY, f
    assert {"_XLFN.LAMBDA", "_XLFN.ISOMITTED", "_XLFN.PERCENTILE.INC"} <= called


def calls_in(text: str) -> set[str]:
    """The functions a formula's text calls, upper case, with their prefixes."""
    from openpyxl.formula import Tokenizer

    text = getattr(text, "text", text)  # a dynamic-array formula: its text
    items = Tokenizer("=" + text.lstrip("=")).items
    return {
        t.value[:-1].upper() for t in items if t.type == "FUNC" and t.subtype == "OPEN"
    }


def refused(name: str, parameter: bool = False) -> str | None:
    """Why Excel would refuse ``name`` as a defined name (or, ``parameter``, as a
    LAMBDA parameter), or None. MS-XLSB 2.5.166 (names): letters, digits, "_",
    "\\" and "."; not TRUE or FALSE; not an A1 reference; not beginning with an
    R1C1 one; Microsoft's LAMBDA page: no "." in a parameter; "Names in formulas":
    not R or C alone."""
    allowed = r"[A-Za-z_\\][A-Za-z0-9_\\]*" if parameter else r"[A-Za-z_\\][\w\\.]*"
    if not re.fullmatch(allowed, name) or len(name) > 255:
        return "characters"
    if name.upper() in {"TRUE", "FALSE", "R", "C"}:
        return "reserved"
    if re.fullmatch(r"[A-Z]{1,3}[0-9]+", name, re.I):  # CP2, fp8, x1
        return "a cell"
    if re.match(r"[RC][0-9]", name, re.I):  # R1C1, r2_x, C3
        return "R1C1"
    return None


def test_names_excel_accepts():
    assert [
        refused(n, parameter=True) for n in ("fp8", "x1", "r1_x", "c3_x", "a.b")
    ] == [
        "a cell",
        "a cell",
        "R1C1",
        "R1C1",
        "characters",
    ]
    assert [refused(n) for n in ("rank", "kv_heads", "_x", "a.b", "r")] == [
        None,
        None,
        None,
        None,
        "reserved",
    ]
    builtins = {
        k.rpartition(".")[2] if k.startswith("_XLFN.") else k
        for k in formulas.get_functions()
    }
    for spec in LIBRARY:
        name = spec.name
        assert re.fullmatch(r"[A-Z_][A-Z0-9_]*", name) and refused(name) is None, name
        assert name not in builtins and name not in {"LAMBDA", "LET", "ISOMITTED"}
        # The part before the first "_" must not look like a cell either.
        assert not re.fullmatch(r"[A-Z]{1,3}[0-9]+", name.split("_")[0]), name
        for a in spec.args:
            assert refused(a.name, parameter=True) is None, (name, a.name)


def test_no_parameter_shares_a_name_with_any_workbook_name(built):
    """A LAMBDA parameter named as a defined name, case aside (mfu and the
    function MFU, gpus and a template's GPUs), reads the name in IronCalc, and
    might in another engine: every parameter is apart from every name of every
    workbook we write (the library, each template in each language), of the
    registry and of the tables, whatever the build adds."""
    from xlfuncs.registry import ARGS

    names = {n.lower() for n in REGISTRY}
    names |= {
        n.lower() for n in openpyxl.load_workbook(built / lib.FILENAME).defined_names
    }
    names |= template_names()
    assert {"mfu", "gpus", "efficiency", "acceleratorkeys"} <= names  # found them
    params = {L.parameter_name(a.name) for s in LIBRARY for a in s.args}
    assert sorted(p for p in params if p.lower() in names) == []
    # The renames are needed (each was a clash) and themselves apart.
    assert set(L.RENAMED) <= set(ARGS) and set(L.RENAMED).issubset(
        {a.name.lower() for s in LIBRARY for a in s.args}
    )
    assert {k for k in L.RENAMED if k in names} == set(L.RENAMED)
    assert len(set(L.RENAMED.values())) == len(L.RENAMED)
    # The cover says which names differ, and the tooltip shows them.
    wb = openpyxl.load_workbook(built / lib.FILENAME)
    cover = "\n".join(str(c.value) for c in wb.worksheets[0]["A"] if c.value)
    assert "gpu_count for gpus" in cover and "mfu_fraction for mfu" in cover


def test_every_function_is_in_the_library_or_says_why(built):
    wb = openpyxl.load_workbook(built / lib.FILENAME)
    ws = wb["Functions"]
    rows = {r[0].value: r for r in ws.iter_rows(min_row=4) if r[0].value in REGISTRY}
    assert set(rows) == set(REGISTRY)
    for spec in lib.left_out():
        assert spec.excel_note in rows[spec.name][2].value
        assert spec.name not in wb.defined_names


def test_worked_examples_first(built):
    wb = openpyxl.load_workbook(built / lib.FILENAME, data_only=True)
    names = [
        (r[0].value, r[5].value)
        for r in wb["Functions"].iter_rows(min_row=4)
        if r[0].value in REGISTRY
    ]
    (n1, v1), (n2, v2) = names[:2]
    assert (n1, round(v1, 2)) == ("FT_EXAMPLES_PER_SEC", 18.22)
    assert (n2, round(v2 / 1e9, 1)) == ("CHINCHILLA_PARAMS", 65.7)
    f = openpyxl.load_workbook(built / lib.FILENAME)["Functions"]
    calls = [r[5].value for r in f.iter_rows(min_row=4) if r[0].value in REGISTRY]
    assert [c.text for c in calls[:2]] == [
        "=FT_EXAMPLES_PER_SEC(8,2500,82%,900)",
        "=CHINCHILLA_PARAMS(6000)",
    ]


def test_the_module_for_the_advanced_formula_environment(built):
    text = (built / lib.MODULE_FILENAME).read_text(encoding="utf-8")
    assert "\t" not in text and "\r" not in text  # AFE refuses both
    assert "_xl" not in text  # as a user types it
    defs = re.findall(
        r"^/\*\* (.*) \*/\n(\w+) = LAMBDA\((.*),\n    (.*)\n\);$", text, re.M
    )
    assert [d[1] for d in defs] == [s.name for s in LIBRARY]
    texts = lib.definitions()
    for description, name, params, body in defs:
        spec = REGISTRY[name]
        assert description == spec.description
        names = [L.parameter_name(a.name) for a in spec.args]
        want = [
            f"[{n}]" if a.name in spec.defaults else n for a, n in zip(spec.args, names)
        ]
        assert params.split(", ") == want
        assert f"LAMBDA({','.join(want)},{body})" == L.typed(texts[name])
    for spec in lib.left_out():
        assert spec.name in text  # named with its reason in the header


# ---------------------------------------------------------------- the file


def test_every_formula_cell_has_a_cached_value(built):
    count, missing = formula_cells_without_cached_value(built / lib.FILENAME)
    assert missing == [] and count >= len(LIBRARY) + 2


def test_readable_print_one_face_protected(built):
    wb = openpyxl.load_workbook(built / lib.FILENAME)
    assert wb.worksheets[0].title == "About this workbook"
    assert [ws.title for ws in wb.worksheets if ws.sheet_state == "hidden"] == ["Keys"]
    for ws in wb.worksheets:
        # The Try sheet is the user's to type in; the others keep their examples.
        assert ws.protection.sheet == (ws.title != "Try"), ws.title
        assert not ws.protection.password, ws.title
        for row in ws.iter_rows():
            for c in row:
                if c.value is None and not c.has_style:
                    continue
                assert c.font.name == "Calibri" and c.font.sz >= 10, (
                    ws.title,
                    c.coordinate,
                )
        if ws.sheet_state == "hidden":
            continue
        ps = ws.page_setup
        assert prints_whole_at_full_size(ws), ws.title
        assert str(ps.paperSize) == ws.PAPERSIZE_LETTER and ws.print_area
        assert "&F" in ws.oddFooter.left.text and "&P" in ws.oddFooter.center.text
        assert xlfuncs.__version__ in ws.oddFooter.right.text
    f = wb["Functions"]
    assert f.print_title_rows and f.page_setup.orientation == "landscape"
    p = wb.properties
    assert p.version == xlfuncs.__version__ and p.creator == "xlfuncs" and p.title


def test_a_sheet_to_try_the_functions_opens_first(built):
    wb = openpyxl.load_workbook(built / lib.FILENAME)
    cached = openpyxl.load_workbook(built / lib.FILENAME, data_only=True)
    ws = wb["Try"]
    assert wb.active.title == "Try" and not ws.protection.sheet
    calls = {
        ws.cell(r, 1).value: (ws.cell(r, 2).value, ws.cell(r, 3).value, r)
        for r in range(1, ws.max_row + 1)
        if ws.cell(r, 3).data_type == "f"
    }
    assert {"FT_EXAMPLES_PER_SEC", "CHINCHILLA_PARAMS"} <= set(calls)
    # The call shown to copy is the one the cell holds (spaced as people type).
    for name, (shown, formula, _) in calls.items():
        assert shown.replace(" ", "") == formula.text.replace(" ", ""), name
    # Only what Microsoft documents: Formula AutoComplete lists defined names;
    # no "Insert Function › User Defined" claim for a LAMBDA name.
    note = ws["A2"].value
    assert "as you type =FT_, Excel lists the functions" in note
    assert "Insert Function" not in note and "User Defined" not in note
    r = calls["FT_EXAMPLES_PER_SEC"][2]
    assert round(cached["Try"].cell(r, 3).value, 2) == 18.22
    assert (
        round(cached["Try"].cell(calls["CHINCHILLA_PARAMS"][2], 3).value / 1e9, 1)
        == 65.7
    )


def test_example_cells_are_dynamic_array_formulas(built):
    # Excel 365 shows a legacy formula that calls a LAMBDA name as =@FT_…(…); a
    # dynamic-array formula (cm="1" with xl/metadata.xml) shows as typed.
    import zipfile

    with zipfile.ZipFile(built / lib.FILENAME) as z:
        names = z.namelist()
        assert "xl/metadata.xml" in names
        assert 'fDynamic="1"' in z.read("xl/metadata.xml").decode()
        assert "sheetMetadata+xml" in z.read("[Content_Types].xml").decode()
        assert "metadata.xml" in z.read("xl/_rels/workbook.xml.rels").decode()
        sheets = [n for n in names if n.startswith("xl/worksheets/sheet")]
        cells = "".join(z.read(n).decode() for n in sheets)
    dynamic = re.findall(r'<c r="(\w+)"[^>]*cm="1"[^>]*><f t="array" ref="\1">', cells)
    wb = openpyxl.load_workbook(built / lib.FILENAME)
    calls = [
        c.coordinate
        for title in ("Try", "Functions")
        for row in wb[title].iter_rows()
        for c in row
        if c.data_type == "f"
    ]
    assert len(dynamic) == len(calls) > len(lib.specs())


def test_cover_says_which_excel_and_how_to_bring_the_functions_in(built):
    wb = openpyxl.load_workbook(built / lib.FILENAME)
    text = "\n".join(str(c.value) for c in wb.worksheets[0]["A"] if c.value)
    for words in (
        "Excel for Microsoft 365", "Excel 2024", "2021", "LibreOffice", "Gnumeric",
        "#NAME?", "Name Manager", "Move or Copy", "Advanced Formula Environment",
        lib.MODULE_FILENAME, "xlwings", "same names", "INFERENCE_OPTIMAL_PARAMS",
        # The menus Microsoft's LAMBDA page names ("Step 3: Add the LAMBDA to the
        # Name Manager"): Name Manager on Windows, Define Name on a Mac.
        "Formulas › Name Manager › New in Excel for Windows",
        "Formulas › Define Name in Excel for Mac",
        "written out inside it", xlfuncs.__version__, "18.22", "65.7",
    ):  # fmt: skip
        assert words in text, words
    assert "docs/" not in text  # recipients do not have the repository


@pytest.mark.engine
def test_valid_ooxml(built):
    pytest.importorskip("openxml_audit")
    out = subprocess.run(
        [sys.executable, "-m", "openxml_audit", "-f", "microsoft365", "-o", "json",
         "-m", "0", str(built / lib.FILENAME)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    report = json.loads(out.stdout)[0]
    errors = [e for e in report["errors"] if e["severity"] == "error"]
    assert errors == [], errors[:3]


# ---------------------------------------------------------------- building


def test_built_by_xlfuncs_build_with_the_templates(tmp_path, one_template):
    written = T.build(tmp_path, ["en"])
    assert (
        tmp_path / lib.FILENAME in written and tmp_path / lib.MODULE_FILENAME in written
    )
    # One edition: a Spanish-only build writes no library.
    es = T.build(tmp_path / "es", ["es"], templates=[T.CHINCHILLA])
    assert not any(p.name.startswith("xlfuncs-functions") for p in es)
    # --force rules: an existing library file stops the whole build.
    only = tmp_path / "only"
    only.mkdir()
    (only / lib.MODULE_FILENAME).write_text("my own edits")
    with pytest.raises(FileExistsError, match="--force"):
        T.build(only, ["en"])
    assert (only / lib.MODULE_FILENAME).read_text() == "my own edits"
    assert not (only / lib.FILENAME).exists()
    T.build(only, ["en"], force=True)
    assert (only / lib.MODULE_FILENAME).read_text() == lib.module_text()


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_dangling_link_among_the_targets_stops_the_whole_build(tmp_path):
    link = tmp_path / lib.MODULE_FILENAME
    link.symlink_to(tmp_path / "elsewhere.txt")  # dangling: not .exists()
    with pytest.raises(FileExistsError, match=lib.MODULE_FILENAME):
        T.build(tmp_path, ["en"])
    assert sorted(p.name for p in tmp_path.iterdir()) == [lib.MODULE_FILENAME]
    assert link.is_symlink() and not (tmp_path / "elsewhere.txt").exists()


def test_an_error_while_building_writes_nothing(tmp_path, monkeypatch, one_template):
    def broken(texts=None):
        raise RuntimeError("the library failed to build")

    monkeypatch.setattr(T, "build_library", broken)
    with pytest.raises(RuntimeError, match="failed to build"):
        T.build(tmp_path / "out", ["en"])
    assert not (tmp_path / "out").exists()  # the templates, built first, neither


def test_the_lambdas_are_made_once_a_build(tmp_path, monkeypatch, one_template):
    calls = []
    real = lib.definitions

    def counted():
        calls.append(1)
        return real()

    monkeypatch.setattr(T, "definitions", counted)
    monkeypatch.setattr(lib, "definitions", counted)
    T.build(tmp_path, ["en"])
    assert len(calls) == 1


def test_look_ups_are_listed_in_words():
    assert lib.listed([]) == ""
    assert lib.listed(["A"]) == "A"
    assert lib.listed(["A", "B"]) == "A and B"
    assert lib.listed(["A", "B", "C"]) == "A, B and C"


def test_deterministic_and_dated_by_source_date_epoch(tmp_path, monkeypatch):
    def build(name: str) -> bytes:
        b = lib.build_library()
        return save_workbook(b.workbook, tmp_path / name, b.cached).read_bytes()

    assert build("a.xlsx") == build("b.xlsx")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01T00:00:00Z
    build("c.xlsx")
    wb = openpyxl.load_workbook(tmp_path / "c.xlsx")
    assert wb.properties.created.date().isoformat() == "2026-01-01"
    cover = "\n".join(str(c.value) for c in wb.worksheets[0]["A"] if c.value)
    assert "2026-01-01" in cover


def test_committed_library_is_what_build_produces(built):
    committed = ROOT / "workbooks" / lib.FILENAME
    assert committed.exists(), "run `xlfuncs build --force`"
    same = committed.read_bytes() == (built / lib.FILENAME).read_bytes()
    assert same or summary(committed) == summary(built / lib.FILENAME), (
        "workbooks/xlfuncs-functions.xlsx is stale: run `xlfuncs build --force`"
    )
    module = (ROOT / "workbooks" / lib.MODULE_FILENAME).read_text(encoding="utf-8")
    assert module == lib.module_text()
