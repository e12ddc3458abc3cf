"""Each function's Excel expression, computed by an Excel engine, equals its Python.

The expression is written once (``@formula(excel=...)``) and used by the template
workbooks and the LAMBDA library alike; here each is written out with literal
arguments into a cell, beside the reference data sheet, and computed by the
``formulas`` package on random valid inputs.
"""

from __future__ import annotations

import math
import random
import warnings

import openpyxl
import pytest
from formulas_engine import calculate, is_error, number
from libreoffice import recalculate, require_libreoffice

from xlfuncs.data.accelerators import ACCELERATORS
from xlfuncs.data.fits import FITS
from xlfuncs.data.models import FIELD_ALIASES, FIELDS, MODELS, spellings
from xlfuncs.data.models import value as model_value
from xlfuncs.data.names import IGNORED, normalize
from xlfuncs.data.serving import SERVING_PRECISION_ALIASES, SERVING_PRECISIONS
from xlfuncs.data.training import (
    METHOD_ALIASES,
    METHODS,
    OPTIMIZER_ALIASES,
    OPTIMIZER_BYTES,
)
from xlfuncs.data.units import DTYPE_ALIASES, RECOMPUTE_MODES
from xlfuncs.excel.rewrite import fold
from xlfuncs.registry import REGISTRY, Formula, InputError, UnusualValueWarning
from xlfuncs.registry.domains import (
    FLAG,
    FRACTION,
    NONNEGATIVE,
    PERCENTILE,
    PUE,
    WHOLE_OR_ZERO,
    ZERO_STAGE,
)
from xlfuncs.registry.excel import key
from xlfuncs.templates.data_sheet import add_data_sheet
from xlfuncs.templates.expr import AS_WRITTEN, FALSE, TRUE, Call, Expr, Lit, Ref
from xlfuncs.templates.written import PLAIN, bind, parse


def written(name: str, *args: Expr | None) -> str:
    """A call of ``name`` with ``args`` (None: left out) as Excel text."""
    spec = REGISTRY[name]
    while args and args[-1] is None:
        args = args[:-1]
    given = tuple(Lit(0) if a is None else a for a in args)
    text = Call(name, given).excel(PLAIN)
    if None in args:  # left out in the middle: bind by hand
        bindings = {a.name: v for a, v in zip(spec.args, given)}
        omitted = {a.name: TRUE for a, v in zip(spec.args, args) if v is None}
        omitted |= {a.name: FALSE for a, v in zip(spec.args, args) if v is not None}
        for a in spec.args[len(args) :]:
            d = spec.defaults[a.name]
            bindings[a.name] = Lit(0) if d is None else Lit(d)
            omitted[a.name] = TRUE
        for a, v in zip(spec.args, args):
            if v is None and spec.defaults.get(a.name) is not None:
                bindings[a.name] = Lit(spec.defaults[a.name])
        assert spec.excel is not None
        text = bind(parse(spec.excel), bindings, omitted).excel(PLAIN)
    return text


N_CASES = 12  # random calls per function
WITH_EXCEL = [f for f in REGISTRY.values() if f.excel is not None]
# Magnitudes people plan with, so that products stay inside a float.
SCALE = {
    "params": (1e6, 2e12),
    "tokens": (1e8, 1e14),
    "examples": (1, 1e8),
    "budget_pf_days": (1e-2, 1e7),
    "value": (1e-2, 1e24),
    "layers": (1, 200),
    "attention_width": (64, 65_536),
    "seq_len": (128, 1e6),
    # Memory, serving, energy
    "d_model": (64, 32_768),
    "rank": (1, 256),
    "matrices": (1, 8),
    "mlp_matrices": (1, 3),
    "kv_matrices": (1, 2),
    "ffn_dim": (256, 65_536),
    "kv_width": (64, 8192),
    "heads": (1, 128),
    "micro_batch": (1, 64),
    "tensor_parallel": (1, 16),
    "model_parallel": (1, 16),
    "experts": (1, 64),
    "kv_heads": (1, 128),
    "head_dim": (32, 256),
    "batch": (1, 256),
    "weight_bytes": (0.5, 4),
    "bytes_per_value": (0.5, 4),
    "bytes_per_param": (0.5, 4),
    "bandwidth_tb_per_s": (0.1, 10),
    "gpu_hours": (1, 1e8),
    "watts_per_gpu": (50, 1500),
    "energy_mwh": (1e-3, 1e5),
    "kg_co2_per_kwh": (0.01, 1),
    # Issue 28: serving and communication
    "prompt_tokens": (1, 32_768),
    "step_tokens": (1, 32_768),
    "link_gb_per_s": (10, 2000),
    "gpus": (1, 64),
    # Issue 28's shapes as numbers
    "active_params": (1e6, 2e12),
    "vocab": (1000, 300_000),
    "experts_per_token": (1, 8),
    "adapter_params": (1e5, 1e9),
    "embedding_params": (1e6, 3e9),
    "lora_rank": (1, 256),
    "memory_gb": (16, 300),
    "output_tokens": (1, 32_768),
    "max_batch": (1, 1024),
}
# Functions that read the interconnect (GPU_INTERCONNECT_GBS's column).
LINKED = {"GPU_INTERCONNECT_GBS", "TP_COMM_MS", "ZERO3_COMM_MS", "PREFILL_MS",
          "DECODE_STEP_MS", "SERVING_BATCH", "SERVING_TOKENS_PER_SEC"}  # fmt: skip
# Functions whose valid inputs can still have no answer (no batch fits, no
# number of GPUs holds the step, more than one GPU without a link): a random
# case is drawn again until the Python library answers it.
ANSWERED = {
    "TP_ALLREDUCE_MS", "REPLICA_PREFILL_MS", "REPLICA_STEP_MS", "LATENCY_BATCH",
    "REPLICA_BATCH", "REPLICA_TOKENS_PER_SEC", "SERVING_PEAK_TFLOPS", "PREFILL_MS",
    "DECODE_STEP_MS", "SERVING_BATCH", "SERVING_TOKENS_PER_SEC", "TRAINING_PEAK_GB",
    "MIN_GPUS_FOR_PEAK", "MIN_GPUS_FOR_TRAINING",
    # Issue 35: past batch 1 the peak is needed; a request past the context.
    "DECODE_TOKENS_PER_SEC", "MODEL_DECODE_TOKENS_PER_SEC", "TIME_TO_FIRST_TOKEN_MS",
    "EP_ALLTOALL_MS",
    # Past a node, the network's figure, which some vendors do not print.
    "ZERO3_COMM_MS", "TP_COMM_MS",
}  # fmt: skip
# Functions whose optional arguments come in pairs: how many arguments a call
# may give (a count of matrices without their width is an error).
ARITIES = {
    "FLOPS_PER_TOKEN": (1, 4),  # the shape: all or none
    "TRAINING_DAYS": (4, 5, 8),
    "MFU": (3, 6),
    "TOKENS_PER_SEC_PER_GPU": (3, 6),
    "LORA_PARAMS": (3, 4, 6, 8, 9),
}


def spelling(name: str, rng: random.Random) -> str:
    """A way people type a name: other case, spaces, hyphens."""
    text = rng.choice([name, name.lower(), name.upper(), name.replace(" ", "-")])
    return rng.choice(["", " "]) + text + rng.choice(["", "  "])


def value_for(spec: Formula, name: str, rng: random.Random, chosen: dict) -> object:
    arg = next(a for a in spec.args if a.name == name)
    if name == "gpu":
        field = {"GPU_POWER_W": "power_w"}.get(spec.name)  # TPU v5e has none
        if spec.name in LINKED:  # TPU v4 and Gaudi print no GPU-to-GPU figure
            field = "interconnect_gbs"
        have = [a for a in ACCELERATORS if not field or getattr(a, field)]
        acc = chosen["acc"] = rng.choice(have)
        return spelling(rng.choice((acc.name, *acc.aliases)), rng)
    if name == "model":
        return spelling(rng.choice(list(spellings(rng.choice(MODELS)))), rng)
    if name == "field":
        return spelling(rng.choice([*FIELDS, *FIELD_ALIASES]), rng)
    if name == "recompute":
        return spelling(rng.choice(RECOMPUTE_MODES).capitalize(), rng)
    if name == "dtype":
        acc = chosen.get("acc")
        keys = sorted(acc.peak_tflops) if acc else ["bf16"]
        d = rng.choice(keys)
        aliases = [a for a, k in DTYPE_ALIASES.items() if k == d]
        return spelling(rng.choice([d, *aliases]), rng)
    if name == "fit":
        return spelling(rng.choice(sorted(FITS)).capitalize(), rng)
    if name == "precision":
        return spelling(
            rng.choice([*SERVING_PRECISIONS, *SERVING_PRECISION_ALIASES]), rng
        )
    if name == "method":
        return spelling(rng.choice([*METHODS, *METHOD_ALIASES]).capitalize(), rng)
    if name == "optimizer":
        return spelling(rng.choice([*OPTIMIZER_BYTES, *OPTIMIZER_ALIASES]), rng)
    if arg.kind == "choice" and arg.choice is not None and name != "gpu":
        return spelling(rng.choice(sorted(arg.choice.names())), rng)
    if name == "method_code":
        return float(rng.randint(1, 3))
    if name == "lengths":
        return [rng.randint(1, 8192) for _ in range(rng.randint(1, 8))]
    d = arg.domain
    if d is FLAG:
        return float(rng.randint(0, 1))
    if d is ZERO_STAGE:
        return float(rng.randint(0, 3))
    if d is PUE:
        return rng.uniform(1.0, 2.0)
    if d is WHOLE_OR_ZERO and rng.random() < 0.2:
        return 0.0
    if d is not None and d.whole:
        lo, hi = SCALE.get(name, (1, 1e5))
        return float(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))
    if d is FRACTION:
        return rng.uniform(0.01, 1.0)
    if d is PERCENTILE:
        return rng.choice([0.0, 1.0, rng.uniform(0, 1)])
    if d is NONNEGATIVE and rng.random() < 0.2:
        return 0.0
    lo, hi = SCALE.get(name, (1e-1, 1e5))
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def case(spec: Formula, rng: random.Random) -> tuple[object, ...]:
    """A random valid call of ``spec`` (ANSWERED: one with an answer)."""
    for _ in range(1000):
        args = drawn(spec, rng)
        if spec.name not in ANSWERED:
            return args
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnusualValueWarning)
            try:
                spec.api(*args)
            except InputError:
                continue
        return args
    raise AssertionError(f"no answered case of {spec.name}")


#: A served replica's figures drawn from one accelerator: its memory, its
#: bandwidth, its peak and its link.
GPU_FIGURES = {
    "memory_gb": lambda a: a.memory_gb,
    "bandwidth_tb_per_s": lambda a: a.bandwidth_tbs,
    "peak_tflops_per_gpu": lambda a: a.peak_tflops["bf16"],
    "link_gb_per_s": lambda a: a.interconnect_gbs,
}


def served_shape(rng: random.Random) -> dict[str, float]:
    """A published model's shape and an accelerator's figures, by argument
    name: a replica drawn at random from the shapes of its arguments alone
    contradicts itself (more active weights than weights, more experts a token
    than experts) and is refused."""
    model = rng.choice(MODELS)
    have = [a for a in ACCELERATORS if a.interconnect_gbs and "bf16" in a.peak_tflops]
    acc = rng.choice(have)
    shape = {f: float(model_value(model, f)) for f in FIELDS}
    shape["window"] = float(model.window or 0)
    shape.update({k: float(f(acc)) for k, f in GPU_FIGURES.items()})
    return shape


def drawn(spec: Formula, rng: random.Random) -> tuple[object, ...]:
    chosen: dict = {}
    if "active_params" in (a.name for a in spec.args) and "cache_width" in (
        a.name for a in spec.args
    ):
        shape = served_shape(rng)
        n = rng.randint(spec.n_required, len(spec.args))
        return tuple(
            shape[a.name] if a.name in shape else value_for(spec, a.name, rng, chosen)
            for a in spec.args[:n]
        )
    n = len(spec.args)
    if spec.defaults:
        n = rng.randint(spec.n_required, len(spec.args))
    if spec.name in ARITIES:
        n = rng.choice(ARITIES[spec.name])
    args = [value_for(spec, a.name, rng, chosen) for a in spec.args[:n]]
    if spec.name == "GPU_PEAK_TFLOPS" and "bf16" not in chosen["acc"].peak_tflops:
        args = args[:1] + [value_for(spec, "dtype", rng, chosen)]  # no default
    if spec.name == "MODEL_STATE_GB" and n > 1:  # trainable within params
        args[1] = args[0] * rng.choice([1.0, rng.uniform(1e-4, 1.0)])
    if spec.name == "MIN_GPUS_FOR_MEMORY":
        # A case that some number of GPUs holds: stage 3 shards the whole state.
        args = [rng.uniform(1e8, 2e12), rng.uniform(16, 300), rng.uniform(0, 10)]
        args += [args[0] * rng.uniform(1e-3, 1.0), rng.choice([0.5, 2.0]), 3.0][: n - 3]
        if len(args) < 6:
            args = args[:3] + [args[0], 2.0, 3.0]
        # Then the model-parallel degree, the usable share and the optimizer's
        # bytes (Adam's 12, bf16 moments' 4 or 8-bit moments' 2), where given.
        more = [float(rng.randint(1, 8)), rng.uniform(0.8, 1.0), rng.choice([12, 4, 2])]
        args += more[: max(0, n - 6)]
    if spec.name == "MAX_DECODE_BATCH":
        # Weights that leave room for a sequence's cache: at most 30 % of the
        # memory at 4 bytes a weight, at least half of it usable.
        memory = rng.uniform(40, 300)
        args = [rng.uniform(0.05, 0.3) * memory * 1e9 / 4, memory, rng.uniform(0.01, 1)]
        more = [rng.uniform(0.5, 4), float(rng.randint(1, 8)), rng.uniform(0.5, 1)]
        args += more[: n - 3]
    return tuple(args)


#: Excel's limit on a formula's characters: a call written out past it is not
#: a formula any workbook can hold (a cell keeps 32,767 characters at most, and
#: the formulas engine reads it cut). Such a function's parts are held in
#: cells in a workbook; the LAMBDA library writes it with LET, and IronCalc
#: computes it there (test_lambdas_ironcalc.py).
MAX_CHARS = 8192


@pytest.fixture(scope="module")
def computed(tmp_path_factory):
    rng = random.Random(12)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "T"
    add_data_sheet(wb, lambda key: key.split(".")[-1].capitalize())
    plan, too_long = [], []
    row = 0
    for spec in WITH_EXCEL:
        for _ in range(N_CASES):
            args = case(spec, rng)
            given: list[Expr] = []
            for k, a in enumerate(spec.args[: len(args)]):
                if a.kind == "sample":
                    for j, x in enumerate(args[k]):
                        ws.cell(row, 3 + j, x)
                    last = openpyxl.utils.get_column_letter(2 + len(args[k]))
                    given.append(Ref(f"C{row}:{last}{row}"))
                else:
                    given.append(Lit(args[k]))
            text = Call(spec.name, tuple(given)).excel(PLAIN)
            if len(text) > MAX_CHARS:
                too_long.append(spec.name)
                continue
            row += 1
            ws.cell(row, 1, "=" + text)
            plan.append((spec, args, row))
    path = tmp_path_factory.mktemp("expr") / "expressions.xlsx"
    wb.save(path)
    return plan, calculate(path), too_long


@pytest.mark.engine
def test_every_expression_equals_the_python_library(computed):
    plan, values, too_long = computed
    for spec, args, row in plan:
        want = spec.api(*args)
        got = number(values[("T", f"A{row}")])
        assert got is not None, (spec.name, args, values[("T", f"A{row}")])
        assert got == pytest.approx(want, rel=1e-9), (spec.name, args)
    assert len(plan) + len(too_long) == N_CASES * len(WITH_EXCEL)
    # Past Excel's limits written out: only functions whose LAMBDA holds its
    # parts in LET variables or calls its siblings by name, within the limits.
    from xlfuncs.templates import lambdas as L
    from xlfuncs.templates import library as lib

    texts = lib.definitions()
    shorter = {n for n, t in texts.items() if "_xlfn.LET(" in t or L.calls(REGISTRY[n])}
    assert set(too_long) <= shorter, set(too_long) - shorter
    assert all(len(texts[n]) <= MAX_CHARS for n in too_long)
    assert len(set(too_long)) < len(WITH_EXCEL) / 5  # the rest computed here


def test_expressions_read_only_their_arguments_and_the_tables():
    tables = {
        "AcceleratorKeys",
        "AcceleratorRow",
        "AcceleratorPeaks",
        "DtypeKeys",
        "DtypeColumn",
        "FitNames",
        *(f"Fit{c}" for c in ("E", "A", "B", "Alpha", "Beta", "G", "Exponent")),
        "AcceleratorMemory",
        "AcceleratorBandwidth",
        "AcceleratorPower",
        "ModelKeys",
        "ModelRow",
        "ModelSpecs",
        "ModelFieldKeys",
        "ModelFieldColumn",
    }
    for spec in WITH_EXCEL:
        assert spec.excel is not None
        tree = parse(spec.excel)
        params = {a.name for a in spec.args}
        assert tree.names() <= params | tables, spec.name
        called = {e.function for e in tree.walk() if isinstance(e, Call)}
        for sibling in called:
            # A sibling is registered first, so the written-out form exists.
            assert list(REGISTRY).index(sibling) < list(REGISTRY).index(spec.name)
        assert spec.name not in called
        # Printed as written and read back, the tree is the same tree.
        assert parse(tree.excel(AS_WRITTEN)) == tree


def test_functions_without_an_expression_say_why():
    for spec in REGISTRY.values():
        if spec.excel is None:
            assert len(spec.excel_note) > 40, spec.name


@pytest.mark.engine
def test_unknown_names_give_na(tmp_path):
    wb = openpyxl.Workbook()
    wb.active.title = "T"
    add_data_sheet(wb, lambda key: key)
    gpu, loss, power = "GPU_PEAK_TFLOPS", "CHINCHILLA_LOSS", "GPU_POWER_W"
    spec, activation = "MODEL_SPEC", "ACTIVATION_GB"
    cells = {
        "A1": written(gpu, Lit("H1000"), Lit("bf16")),
        # The V100 has no bf16 figure: the table shows a dash there.
        "A2": written(gpu, Lit("V100"), Lit("bf16")),
        "A3": written(loss, Lit(7e10), Lit(1.4e12), Lit("kaplan")),
        # Google publishes no power figure for the TPU v5e: a dash, +0 an error.
        "A4": written(power, Lit("TPU v5e")),
        "A5": written(spec, Lit("Llama 5 9B"), Lit("layers")),
        "A6": written(spec, Lit("Llama 3.1 70B"), Lit("depth")),
        # A name given as a cell: a literal would be looked up as the file is
        # written (folded), and an unknown literal left as the look-up.
        "A7": written(activation, *map(Lit, (80, 8192, 64, 4096, 1, 8)), Ref("C7")),
    }
    # Names with wildcards in them: unescaped, MATCH(…, 0) would find a key.
    wildcards = {
        "A8": written(gpu, Lit("H*"), Lit("bf16")),
        "A9": written(gpu, Lit("H100"), Lit("?f16")),
        "A10": written(power, Lit("*")),
        "A11": written(spec, Lit("Llama*"), Lit("layers")),
        "A12": written(spec, Lit("Llama 3.1 8B"), Lit("kv*")),
        "A13": written(loss, Lit(7e10), Lit(1.4e12), Lit("Hoff*")),
    }
    cells |= wildcards
    wb.active["C7"] = "some"
    for coord, expr in cells.items():
        wb.active[coord] = "=" + expr
    wb.save(tmp_path / "t.xlsx")
    values = calculate(tmp_path / "t.xlsx")
    for coord in cells:
        assert is_error(values[("T", coord)], "#N/A"), coord


# Published figures computed in Excel: the expressions alone, no Python between.
PUBLISHED = [
    # ZeRO (Rajbhandari et al. 2020), figure 1: 7.5 B parameters on 64 GPUs.
    ("MODEL_STATE_GB", ("7.5E+9", None, None, "64", "0"), 120.0, 1),
    ("MODEL_STATE_GB", ("7.5E+9", None, None, "64", "1"), 31.4, 1),
    ("MODEL_STATE_GB", ("7.5E+9", None, None, "64", "2"), 16.6, 1),
    ("MODEL_STATE_GB", ("7.5E+9", None, None, "64", "3"), 1.9, 1),
    # PEFT's printout for Llama 2 7B, r = 8 on q_proj and v_proj.
    ("LORA_PARAMS", ("32", "4096", "8", "2"), 4_194_304, 0),
    # Llama 3 8B, r = 8 on q, o and the grouped-query k, v (hand arithmetic).
    ("LORA_PARAMS", ("32", "4096", "8", "2", "0", None, "2", "1024"), 6_815_744, 0),
    # Korthikanti et al. 2022, table 2, the 22 B model's layer at b = 4, t = 8, in
    # bytes: 884,998,144 / 213,909,504 / 100,663,296.
    ("ACTIVATION_GB", ("1", "6144", "64", "2048", "4", "8"), 0.884998144, 9),
    (
        "ACTIVATION_GB",
        ("1", "6144", "64", "2048", "4", "8", '"selective"'),
        0.213909504,
        9,
    ),
    ("ACTIVATION_GB", ("1", "6144", "64", "2048", "4", "8", '"Full"'), 0.100663296, 9),
    # kipply: 2,097,152 bytes per token for the 52 B model.
    ("KV_CACHE_GB", ("64", "64", "128", "1", "1"), 0.002097152, 12),
    # BLOOM: 433 MWh, 24.69 t.
    ("TRAINING_ENERGY_MWH", ("1082990", "400"), 433.196, 3),
    ("TRAINING_CO2_TONNES", ("433.196", "0.057"), 24.69, 2),
    # Databricks: 7 B in 16 bits at 1 TB/s, 14 ms a token.
    ("DECODE_TOKENS_PER_SEC", ("7E+9", "1"), 71.43, 2),
    # Datasheets and configs.
    # nvidia-smi: an H100 SXM has 81,559 MiB (NVIDIA/nccl issue #1264).
    ("GPU_MEMORY_GB", ('"nvidia h100-sxm"',), 81_559 * 2**20 / 1e9, 9),
    ("GPU_BANDWIDTH_TBS", ('"A100 40GB PCIe"',), 1.555, 9),
    ("GPU_POWER_W", ('"A100"',), 400.0, 9),
    ("MODEL_SPEC", ('"meta-llama/Llama-3.1-70B"', '"kv_heads"'), 8.0, 9),
    ("MODEL_SPEC", ('"Llama-3.1-70B-Instruct"', '"hidden_size"'), 8192.0, 9),
    ("MODEL_SPEC", ('"Mixtral 8x7B"', '"active_params"'), 12.9e9, 9),
]


def published_workbook(path) -> None:
    """PUBLISHED's calls in column A of sheet T, beside the data sheet."""
    wb = openpyxl.Workbook()
    wb.active.title = "T"
    add_data_sheet(wb, lambda key: key)
    for row, (name, args, _, _) in enumerate(PUBLISHED, start=1):
        given = [None if a is None else parse(a) for a in args]
        wb.active.cell(row, 1, "=" + written(name, *given))
    wb.save(path)


@pytest.mark.engine
def test_published_figures_computed_in_excel(tmp_path):
    published_workbook(tmp_path / "published.xlsx")
    values = calculate(tmp_path / "published.xlsx")
    for row, (name, args, want, digits) in enumerate(PUBLISHED, start=1):
        got = number(values[("T", f"A{row}")])
        assert got is not None and round(got, digits) == want, (name, args, got)


@pytest.mark.engine
def test_published_figures_computed_by_libreoffice(tmp_path):
    # A second engine: LibreOffice 7.4, as the template tests use it.
    require_libreoffice()
    published_workbook(tmp_path / "published.xlsx")
    (out,) = recalculate([tmp_path / "published.xlsx"], tmp_path / "out")
    ws = openpyxl.load_workbook(out, data_only=True)["T"]
    for row, (name, args, want, digits) in enumerate(PUBLISHED, start=1):
        got = ws.cell(row, 1).value
        assert isinstance(got, (int, float)), (name, args, got)
        assert round(got, digits) == want, (name, args, got)


# A typed name, what the Python look-ups compare (normalize), and what key() must
# give in Excel for MATCH(…, 0): the same, with ~, * and ? escaped (by hand).
TYPED = [
    ("H100\tSXM", "h100sxm", "h100sxm"),
    ("H100\u00a0SXM", "h100sxm", "h100sxm"),
    (" h100-sxm_\t", "h100sxm", "h100sxm"),
    ("H*", "h*", "h~*"),
    ("?100", "?100", "~?100"),
    ("a~b", "a~b", "a~~b"),
    ("Llama 3.1 8B", "llama3.18b", "llama3.18b"),
]


def key_workbook(path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "T"
    for row, (typed, _, _) in enumerate(TYPED, start=1):
        ws.cell(row, 2, typed)
        ws.cell(row, 1, "=LOWER(" + key(f"B{row}") + ")")
    wb.save(path)


@pytest.mark.engine
def test_python_and_excel_ignore_the_same_characters(tmp_path):
    assert set(IGNORED) == {" ", "-", "_", "\t", "\u00a0"}
    for typed, normal, _ in TYPED:
        assert normalize(typed) == normal, typed
    key_workbook(tmp_path / "keys.xlsx")
    values = calculate(tmp_path / "keys.xlsx")
    for row, (typed, _, want) in enumerate(TYPED, start=1):
        assert values[("T", f"A{row}")] == want, typed


@pytest.mark.engine
def test_python_and_libreoffice_ignore_the_same_characters(tmp_path):
    require_libreoffice()
    key_workbook(tmp_path / "keys.xlsx")
    (out,) = recalculate([tmp_path / "keys.xlsx"], tmp_path / "out")
    ws = openpyxl.load_workbook(out, data_only=True)["T"]
    for row, (typed, _, want) in enumerate(TYPED, start=1):
        assert ws.cell(row, 1).value == want, typed


def test_fit_names_are_keys():
    # FitNames holds the fits' names as they are: they must be normalized already.
    assert all(normalize(name) == name for name in FITS)


def test_known_tests_fold_where_arguments_are_left_out():
    # TRUE and FALSE joined by * (and) and + (or) fold; anything else stays.
    assert fold(parse("IF(TRUE*TRUE*TRUE,1,2)")) == Lit(1.0)
    assert fold(parse("IF(FALSE+(FALSE+TRUE)*TRUE,1,2)")) == Lit(1.0)
    assert fold(parse("IF(FALSE+FALSE,1,2)")) == Lit(2.0)
    assert fold(parse("IF(TRUE*x,1,2)")).excel(PLAIN) == "IF(TRUE*x,1,2)"
    flops = "FLOPS_PER_TOKEN"
    assert written(flops, Ref("A1")) == "6*A1"
    shape = (Ref("LAYERS"), Ref("ATTENTION_WIDTH"), Ref("SEQ_LEN"))
    assert written(flops, Ref("A1"), *shape) == "6*A1+12*LAYERS*ATTENTION_WIDTH*SEQ_LEN"
    assert written(flops, Ref("A1"), *shape[:2]) == "#VALUE!"


def test_no_dead_logic_in_written_out_calls():
    # A ZeRO stage of 0 divides by nothing: no IF(0>=3,1,1) left (issue 18).
    state = written("MODEL_STATE_GB", Ref("P"), None, Lit(2), Ref("G"), Lit(0))
    assert state == "(P*2+P*2+P*12)/1000000000"
    # A literal recomputation mode picks its branch as the file is written; the
    # part "kept" (values kept a layer) is written in whole, in brackets.
    act = written("ACTIVATION_GB", *map(Ref, "LWHSB"), Lit(1), Lit("full"))
    assert act == "2*(S*B*W*L)/1000000000"
