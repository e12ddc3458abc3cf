"""Issue 28's serving and training-memory LAMBDAs, computed by IronCalc.

The by-name functions (SERVING_TOKENS_PER_SEC, SERVING_BATCH, DECODE_STEP_MS,
TRAINING_MEMORY_GB, MIN_GPUS_FOR_TRAINING and their kin) are, in Excel, their
numeric counterparts (REPLICA_TOKENS_PER_SEC, TRAINING_PEAK_GB, …) called with
the model's look-ups. Written out, several pass Excel's 8,192 characters, so the
library writes them with LET, which the ``formulas`` engine of test_lambdas.py
cannot evaluate inside a LAMBDA. IronCalc (PyPI ``ironcalc`` 0.9.1, a Rust
engine nobody here wrote) loads the built library as Excel stores it (``_xlpm.``,
``_xlop.``, ISOMITTED, LET) and computes calls of the named LAMBDAs.

test_lambdas.py computes every LAMBDA with IronCalc on random valid calls, its
first docstring example and bad arguments. Here each function issue 28 added or
rewrote is called with all its docstring's examples, and the measured runs the
serving defaults were fitted to and checked against (test_serving_calibration.py)
and the published training peaks and fewest-GPU counts (test_memory.py) are
computed both by name and on numbers: the values must be the Python library's.
"""

from __future__ import annotations

import ast
import doctest
import warnings
from pathlib import Path

import openpyxl
import pytest
from test_lambdas import formula_args
from test_memory import PEFT_PEAKS

import xlfuncs as xf
from xlfuncs.registry import REGISTRY, Formula, UnusualValueWarning
from xlfuncs.templates import lambdas as L
from xlfuncs.templates import library as lib
from xlfuncs.workbook.xlsx import save_workbook

engine = pytest.importorskip("ironcalc_engine")

pytestmark = pytest.mark.engine

#: The functions issue 28's Excel work added or rewrote: the numeric ones, the
#: two model facts and the serving peak they need, and the by-name ones.
#: Every function of the library but FT_TOKENS_PER_EXAMPLE, which takes a range
#: (test_lambdas.py's IRONCALC_LEFT_OUT says why): its docstring's examples
#: computed here.
NEW = tuple(
    n for n in lib.definitions() if all(a.kind != "sample" for a in REGISTRY[n].args)
)


def examples(spec: Formula) -> list[tuple[object, ...]]:
    """Every docstring example that calls the function with literal arguments."""
    out = []
    for ex in doctest.DocTestParser().get_examples(spec.api.__doc__ or ""):
        for node in ast.walk(ast.parse(ex.source.strip(), mode="eval")):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == spec.python_name
            ):
                out.append(tuple(ast.literal_eval(a) for a in node.args))
    return out


def texts_of(spec: Formula, args: tuple[object, ...]) -> list[str]:
    """The arguments as typed in a cell; None (its default) left empty."""
    given = formula_args(spec, tuple(0.0 if v is None else v for v in args))
    return ["" if v is None else t for t, v in zip(given, args)]


#: Replicas the calibration measured (docs/serving.md), one of each kind: dense
#: on H100 and H200, mixtures tensor- and expert-parallel, fp4 on a B200, and
#: Gemma 3's windowed layers.
SERVED = [
    ("Llama 3.3 70B", "H100 SXM", 2, 1000, 1000, "fp8", "tp"),
    ("Llama 3.1 8B", "H200 SXM", 1, 128, 2048, "fp8", "tp"),
    ("Qwen3 235B A22B", "H200 SXM", 8, 1000, 1000, "fp8", "tp"),
    ("DeepSeek-V3", "H200 SXM", 8, 1000, 1000, "fp8", "ep"),
    ("gpt-oss-120b", "B200", 1, 1000, 1000, "fp4", "tp"),
    ("Gemma 3 27B", "H100 SXM", 1, 5000, 500, "bf16", "tp"),
]
SHAPE = ("params", "active_params", "layers", "cache_width", "attention_width",
         "d_model", "experts", "experts_per_token", "cache_heads", "window",
         "windowed_layers")  # fmt: skip


def replica_numbers(model, gpu, gpus, p, o, precision, parallel) -> tuple[object, ...]:
    """REPLICA_TOKENS_PER_SEC's arguments for a published pair, every one given
    (the defaults the by-name function passes where it has none)."""
    spec = REGISTRY["REPLICA_TOKENS_PER_SEC"]
    given = {f: xf.model_spec(model, f) for f in SHAPE}
    given |= {
        "memory_gb": xf.gpu_memory_gb(gpu), "bandwidth_tb_per_s": xf.gpu_bandwidth_tbs(gpu),
        "peak_tflops_per_gpu": xf.serving_peak_tflops(gpu, precision), "gpus": gpus,
        "prompt_tokens": p, "output_tokens": o, "link_gb_per_s": xf.gpu_interconnect_gbs(gpu),
        "bytes_per_param": xf.serving_weight_bytes(precision),
        "bytes_per_value": xf.serving_cache_bytes(precision),
        "expert_parallel": 1 if parallel == "ep" else 0,
    }  # fmt: skip
    return tuple(given.get(a.name, spec.defaults.get(a.name)) for a in spec.args)


def serving_rows() -> list[tuple[str, tuple[object, ...]]]:
    """The measured runs' kinds, by name and as numbers."""
    out = []
    for row in SERVED:
        model, gpu, gpus, p, o, precision, parallel = row
        named = (model, gpu, gpus, p, o, precision, *[None] * 6, parallel)
        out.append(("SERVING_TOKENS_PER_SEC", named))
        out.append(("REPLICA_TOKENS_PER_SEC", replica_numbers(*row)))
    return out


def memory_rows() -> list[tuple[str, tuple[object, ...]]]:
    """PEFT's measured peaks and the fewest GPUs of docs/memory.md, by name and
    as numbers."""
    out = [("TRAINING_MEMORY_GB", args) for args, _ in PEFT_PEAKS]
    a100 = xf.gpu_memory_gb("A100")
    for method, code in (("full", 1), ("lora", 2), ("qlora", 3)):
        model = "Llama 3.1 70B"
        out.append(
            ("MIN_GPUS_FOR_TRAINING", (model, method, 8192, 1, a100, "full", 16, 3))
        )
        shape = tuple(
            xf.model_spec(model, f)
            for f in ("params", "layers", "d_model", "attention_width", "kv_width",
                      "ffn_dim", "vocab")
        )  # fmt: skip
        extra = (xf.model_lora_params(model, 16), xf.model_embedding_params(model), 1)
        out.append(
            ("MIN_GPUS_FOR_PEAK", (*shape, 8192, 1, a100, code, "full", *extra, 3))
        )
        out.append(("TRAINING_PEAK_GB", (*shape, 8192, 1, code, "full", *extra, 8, 3)))
    return out


@pytest.fixture(scope="module")
def computed(tmp_path_factory) -> dict:
    """One IronCalc load of the built library with every call on a sheet T."""
    out = tmp_path_factory.mktemp("ironcalc")
    b = lib.build_library()
    save_workbook(b.workbook, out / lib.FILENAME, b.cached, dynamic=b.dynamic)
    wb = openpyxl.load_workbook(out / lib.FILENAME)
    ws = wb.create_sheet("T")
    calls: dict[str, list[tuple[str, tuple[object, ...], int]]] = {
        "example": [], "measured": []
    }  # fmt: skip
    row = 0

    def put(name: str, texts: list[str]) -> int:
        nonlocal row
        row += 1
        ws.cell(row, 1, f"={name}({','.join(texts)})")
        return row

    for name in NEW:
        spec = REGISTRY[name]
        for args in examples(spec):
            calls["example"].append((name, args, put(name, texts_of(spec, args))))
    for name, args in serving_rows() + memory_rows():
        spec = REGISTRY[name]
        calls["measured"].append((name, args, put(name, texts_of(spec, args))))
    path = out / "calls.xlsx"
    wb.save(path)
    sheet = engine.evaluated(path)["T"]
    return {"calls": calls, "value": lambda row: engine.number(sheet[f"A{row}"].value)}


def python(name: str, args: tuple[object, ...]) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnusualValueWarning)
        return float(REGISTRY[name].api(*args))


def agree(got: float | None, want: float) -> bool:
    return got is not None and got == pytest.approx(want, rel=1e-9)


def test_the_functions_are_in_the_library_those_with_let_among_them():
    texts = lib.definitions()
    assert set(NEW) <= set(texts)
    with_let = {n for n, t in texts.items() if "_xlfn.LET(" in t}
    # Every LAMBDA with LET is computed here; the formulas engine cannot.
    assert with_let <= set(NEW)
    assert {"SERVING_TOKENS_PER_SEC", "SERVING_BATCH", "DECODE_STEP_MS",
            "REPLICA_STEP_MS"} <= with_let  # fmt: skip
    for name in with_let:
        assert len(texts[name]) <= L.MAX_CHARS, name
        assert L.nesting(texts[name]) <= L.MAX_NESTING, name


@pytest.mark.parametrize("kind", ["example", "measured"])
def test_ironcalc_computes_what_python_does(computed, kind):
    wrong = []
    for name, args, row in computed["calls"][kind]:
        got, want = computed["value"](row), python(name, args)
        if not agree(got, want):
            wrong.append((name, args, got, want))
    assert wrong == []
    assert {n for n, _, _ in computed["calls"][kind]} >= (
        {"SERVING_TOKENS_PER_SEC", "REPLICA_TOKENS_PER_SEC", "TRAINING_MEMORY_GB",
         "TRAINING_PEAK_GB", "MIN_GPUS_FOR_TRAINING", "MIN_GPUS_FOR_PEAK"}
        if kind == "measured" else set(NEW)
    )  # fmt: skip


def test_the_calibration_rows_by_name_and_as_numbers_agree(computed):
    # A measured run computed as SERVING_TOKENS_PER_SEC and as
    # REPLICA_TOKENS_PER_SEC with the model's and the GPU's figures: one value.
    rows = computed["calls"]["measured"]
    named = [r for r in rows if r[0] == "SERVING_TOKENS_PER_SEC"]
    numbers = [r for r in rows if r[0] == "REPLICA_TOKENS_PER_SEC"]
    assert len(named) == len(numbers) == len(SERVED)
    for (_, args, a), (_, _, b) in zip(named, numbers):
        got = computed["value"](a)
        assert got == pytest.approx(computed["value"](b), rel=1e-12), args


def test_docs_name_ironcalc_for_the_let_functions():
    text = (Path(__file__).resolve().parents[1] / "docs" / "excel.md").read_text(
        encoding="utf-8"
    )
    assert "LET" in text and "IronCalc" in text
