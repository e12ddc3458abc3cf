"""The templates recalculated by a real spreadsheet engine (headless LibreOffice).

Each case is a workbook built with other input values: the builder caches what
the Python library computes for every formula cell (results, checks, scenarios,
tables). The cached values are then removed and LibreOffice, whose profile says
"always recalculate", computes every cell from the formulas alone; both must
agree, and no cell may show a raw error. Every file goes through one ``soffice``
call (start-up dominates).
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

import openpyxl
import pytest
from libreoffice import recalculate, require_libreoffice
from workbook_tools import strip_cached_values

from xlfuncs.data.accelerators import ACCELERATORS
from xlfuncs.templates import CHINCHILLA, FINETUNE, PLANNER, TEMPLATES, checks
from xlfuncs.templates import layout as L
from xlfuncs.templates.blocks import Inputs, Scenarios, Template
from xlfuncs.templates.xlsx import save_workbook

N_RANDOM = 12  # random valid cases per template


def with_inputs(
    tpl: Template, values: dict[str, Any], **scenario: tuple[float, float]
) -> Template:
    """The template with other input values (and scenario low/high values)."""
    blocks = []
    for b in tpl.blocks:
        if isinstance(b, Inputs):
            b = replace(
                b,
                rows=tuple(
                    replace(i, default=values.get(i.name, i.default)) for i in b.rows
                ),
            )
        elif isinstance(b, Scenarios) and scenario:
            b = replace(
                b, vary=tuple((n, *scenario.get(n, (lo, hi))) for n, lo, hi in b.vary)
            )
        blocks.append(b)
    return replace(tpl, blocks=tuple(blocks))


def logu(rng: random.Random, lo: float, hi: float) -> float:
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def random_inputs(tpl: Template, rng: random.Random) -> dict[str, Any]:
    if tpl is FINETUNE:
        return {
            "GPUs": rng.randint(1, 1024),
            "TokensPerSecPerGPU": logu(rng, 50, 50_000),
            "Efficiency": rng.uniform(
                0.05, 1.0
            ),  # below 30 %: a warning, still computed
            "TokensPerExample": logu(rng, 8, 32_768),
            "DatasetExamples": rng.randint(1, 10_000_000),
            "Epochs": rng.uniform(0.1, 20),
            "PricePerGPUHour": rng.choice([0.0, logu(rng, 0.05, 20)]),
            "Currency": rng.choice(["USD", "EUR", "GBP", "¥"]),
        }
    if tpl is PLANNER:
        acc = rng.choice(ACCELERATORS)
        training = [
            d for d in ("bf16", "fp16", "fp8", "tf32", "fp32") if d in acc.peak_tflops
        ]
        return {
            "GPUModel": acc.name,
            "Dtype": rng.choice(training),
            "GPUs": rng.randint(1, 100_000),
            "MFU": rng.uniform(0.05, 0.8),
            "Days": logu(rng, 0.5, 400),
            "PricePerGPUHour": logu(rng, 0.05, 20),
            "TokensPerParam": logu(rng, 1, 500),
            "FTModelParams": rng.choice([None, logu(rng, 1e8, 1e12)]),
            "FTEfficiency": rng.uniform(0.1, 1.0),
            "TokensPerExample": logu(rng, 8, 32_768),
            "DatasetExamples": rng.randint(1, 10_000_000),
            "Epochs": rng.uniform(0.1, 20),
        }
    return {
        "ComputeBudgetPFDays": logu(rng, 1e-3, 1e8),
        "TokensPerParam": logu(rng, 1, 500),
        "GPUs": rng.randint(1, 100_000),
        "PeakTFLOPSPerGPU": logu(rng, 10, 5000),
        "MFU": rng.uniform(0.05, 0.8),
        "PricePerGPUHour": logu(rng, 0.05, 20),
    }


# Bad and implausible inputs, and what the input's Check cell must say (by hand,
# from the issue: the check names the problem; a warning still computes).
NAMED = [
    ("gpus-1e15", FINETUNE, {"GPUs": 1e15}, {}, "GPUs", "Warning: unusual; typical is 1 to 100,000"),
    ("eff-0.82pct", FINETUNE, {"Efficiency": 0.0082}, {}, "Efficiency", "Warning: unusual; typical is 30% to 100%"),
    ("eff-82", FINETUNE, {"Efficiency": 82}, {}, "Efficiency", "Error: enter a percentage above 0% and at most 100%"),
    ("gpus-text", FINETUNE, {"GPUs": "eight"}, {}, "GPUs", "Error: enter a number"),
    ("gpus-half", FINETUNE, {"GPUs": 2.5}, {}, "GPUs", "Error: enter a whole number, 1 or more"),
    ("currency-blank", FINETUNE, {"Currency": None}, {}, "Currency", "Error: enter a short text"),
    ("scenario-low-0", FINETUNE, {}, {"GPUs": (0, 16)}, None, "Scenarios: Pessimistic, GPUs (G): Error: enter a whole number, 1 or more"),
    ("mfu-1e-9", PLANNER, {"MFU": 1e-9}, {}, "MFU", "Warning: unusual; typical is 10% to 70%"),
    ("mfu-100", PLANNER, {"MFU": 1.0}, {}, "MFU", "Warning: unusual; typical is 10% to 70%"),
    ("v100-bf16", PLANNER, {"GPUModel": "V100 SXM2"}, {}, "Dtype", "Error: this GPU has no figure for this precision (see the Data sheet)"),
    ("int8", PLANNER, {"Dtype": "int8"}, {}, "Dtype", "Error: int8 is an inference rate (TOP/s), not a training precision"),
    ("gpu-unknown", PLANNER, {"GPUModel": "H1000"}, {}, "GPUModel", "Error: pick a name from the list"),
    ("ft-params-text", PLANNER, {"FTModelParams": "8B"}, {}, "FTModelParams", "Error: enter a number"),
    ("budget-zero", CHINCHILLA, {"ComputeBudgetPFDays": 0}, {}, "ComputeBudgetPFDays", "Error: must be above 0"),
    ("model-unknown", FINETUNE, {"FTModel": "Llama 5"}, {}, "FTModel", "Error: pick a name from the list"),
    # LibreOffice reads * and ? in MATCH(…, 0) over a range as wildcards in .xlsx
    # files, as Excel does: unescaped, these would find "H100 SXM" and "Llama 3.1 8B".
    ("gpu-wildcard", FINETUNE, {"GPUModel": "H*"}, {}, "GPUModel", "Error: pick a name from the list"),
    ("model-wildcard", FINETUNE, {"FTModel": "Llama 3.1 ?B"}, {}, "FTModel", "Error: pick a name from the list"),
    ("recompute-typo", PLANNER, {"Recompute": "fulll"}, {}, "Recompute", "Error: pick a name from the list"),
    ("zero-stage-4", PLANNER, {"ZeroStage": 4}, {}, "ZeroStage", "Error: must be at most 3"),
]  # fmt: skip

# Plans that do not fit the GPU's memory: the fit check says so, and how many
# GPUs would do (by hand: 16 bytes a parameter of Llama 3.1 405B over 8 GPUs is
# 812 GB a GPU; at ZeRO stage 0 nothing shards, so no number of GPUs fits).
FITS = [
    ("fit-405b", FINETUNE, {"FTModel": "Llama 3.1 405B"}, "Full fine-tuning", True),
    ("fit-stage-0", PLANNER, {"ZeroStage": 0}, "Memory check", False),
]
# A plan that fits with less than 10 % of the GPU free: a warning, by hand: full
# fine-tuning of Llama 3.1 8B (8.0e9 parameters) on 2 GPUs at ZeRO stage 3 holds
# 16 × 8.0e9 / 2 = 64 GB of state and 2·s·b·h·L = 2 × 2048 × 26 × 4096 × 32 bytes
# = 13.96 GB of activations per GPU: 77.96 GB, 91 % of the H100's 81,559 MiB
# (nvidia-smi) = 85.52 GB, above the 90 % usable.
TIGHT = (
    "fit-tight",
    FINETUNE,
    {"FTModel": "Llama 3.1 8B", "GPUs": 2, "ZeroStage": 3, "MicroBatch": 26},
)


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    """Build every case, recalculate them all at once: {case: (built, recalculated)}."""
    require_libreoffice()
    root = tmp_path_factory.mktemp("lo")
    built_dir, cases, out = root / "built", root / "cases", root / "out"
    built_dir.mkdir()
    cases.mkdir()
    rng = random.Random(20261202)
    plan: dict[str, tuple[Template, str, dict, str]] = {}

    def add(name: str, tpl: Template, variant: Template, lang: str) -> None:
        b = L.build_template(variant, lang)
        path = built_dir / f"{name}.xlsx"
        save_workbook(b.workbook, path, b.cached)
        strip_cached_values(path, cases / f"{name}.xlsx")
        plan[name] = (tpl, lang, {i.name: i.default for i in variant.inputs}, str(path))

    for tpl in TEMPLATES:
        for lang in ("en", "es"):
            add(f"default-{lang}-{tpl.slug}", tpl, tpl, lang)
        for k in range(N_RANDOM):
            add(
                f"random{k:02d}-{tpl.slug}",
                tpl,
                with_inputs(tpl, random_inputs(tpl, rng)),
                "en",
            )
        for inp in tpl.inputs:
            for label, value in (("blank", None), ("zero", 0), ("text", "eight")):
                add(
                    f"{label}-{inp.name}-{tpl.slug}",
                    tpl,
                    with_inputs(tpl, {inp.name: value}),
                    "es",
                )
    for name, tpl, values, scenario, _, _ in NAMED:
        add(f"named-{name}", tpl, with_inputs(tpl, values, **scenario), "en")
    for name, tpl, values, _, _ in FITS:
        add(name, tpl, with_inputs(tpl, values), "en")
    name, tpl, values = TIGHT
    add(name, tpl, with_inputs(tpl, values), "en")
    recalculated = recalculate(sorted(cases.iterdir()), out)
    return {
        p.stem: (
            openpyxl.load_workbook(plan[p.stem][3], data_only=True),
            openpyxl.load_workbook(p, data_only=True),
            openpyxl.load_workbook(plan[p.stem][3]),
            plan[p.stem],
        )
        for p in recalculated
    }


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def same(got: Any, want: Any) -> bool:
    if isinstance(want, (int, float)) and not isinstance(want, bool):
        return isinstance(got, (int, float)) and got == pytest.approx(
            want, rel=1e-9, abs=1e-300
        )
    return got == want


def test_every_formula_cell_is_what_the_library_computes(engine):
    compared, wrong = 0, []
    for case, (cached, recalc, formulas, _) in engine.items():
        for ws in formulas.worksheets:
            for row in ws.iter_rows():
                for c in row:
                    if c.data_type != "f":
                        continue
                    want = cached[ws.title][c.coordinate].value
                    got = recalc[ws.title][c.coordinate].value
                    if not same(got, want):
                        wrong.append((case, ws.title, c.coordinate, got, want))
                    compared += 1
    assert not wrong, (len(wrong), wrong[:20])
    assert compared > 10_000


def test_no_raw_error_shows_anywhere(engine):
    for case, (_, recalc, _, _) in engine.items():
        for ws in recalc.worksheets:
            for row in ws.iter_rows():
                for c in row:
                    v = c.value
                    assert not (isinstance(v, str) and (v.startswith("#") or v.startswith("Err:"))), (
                        case, ws.title, c.coordinate, v,
                    )  # fmt: skip


def check_of(wb: openpyxl.Workbook, name: str) -> Any:
    title, coord = wb.defined_names[name].attr_text.replace("$", "").split("!")
    ws = wb[title.strip("'")]
    return ws[f"D{ws[coord].row}"].value


def value_of(wb: openpyxl.Workbook, name: str) -> Any:
    title, coord = wb.defined_names[name].attr_text.replace("$", "").split("!")
    return wb[title.strip("'")][coord].value


@pytest.mark.parametrize("case", NAMED, ids=[c[0] for c in NAMED])
def test_the_check_names_the_problem(engine, case):
    name, tpl, values, scenario, inp, message = case
    _, recalc, _, _ = engine[f"named-{name}"]
    model = value_of(recalc, "ModelCheck")
    if inp is not None:
        assert check_of(recalc, inp) == message
        label = tpl.input(inp).label.en
        assert model == f"{label}: {message}"
    else:
        assert model == message
    assert not model.startswith("OK")  # only a clean model begins so
    warning = message.startswith("Warning")
    for res in tpl.results:
        v = value_of(recalc, res.name)
        if warning:  # results still compute
            assert is_number(v), (name, res.name, v)
        elif inp is not None and inp in tpl.leaves(res.name):
            assert v == "n/a: see Check", (name, res.name, v)


def test_random_valid_inputs_compute_and_check_clean_or_warn(engine):
    seen = 0
    for case, (_, recalc, _, (tpl, _, inputs, _)) in engine.items():
        if not case.startswith("random"):
            continue
        model = value_of(recalc, "ModelCheck")
        assert model == "OK" or "Warning" in model or "Does not fit" in model, (
            case,
            model,
        )
        want = L.compute(tpl, inputs)
        for res in tpl.results:
            got = value_of(recalc, res.name)
            if want[res.name] is L.NA:  # e.g. a TPU's power: its input check warns
                assert got == "n/a: see Check" and "Warning" in model, (case, res.name)
                continue
            assert is_number(got) and got == pytest.approx(want[res.name], rel=1e-9), (
                case,
                res.name,
            )
            seen += 1
    assert seen > 0.9 * N_RANDOM * sum(len(t.results) for t in TEMPLATES)


def test_blank_zero_and_text_inputs_give_messages(engine):
    for case, (_, recalc, _, (tpl, *_)) in engine.items():
        if not case.startswith(("blank", "zero", "text")):
            continue
        bad = case.split("-")[1]
        inp = tpl.input(bad)
        problem = check_of(recalc, bad)
        # Whether the input's rules accept the value (blank where blank means a
        # default, 0 where 0 is in the domain, text for a text input).
        value = {"blank": None, "zero": 0, "text": "eight"}[case.split("-")[0]]
        allowed = checks.valid(inp, value, {**L.compute(tpl, {}), bad: value})
        if allowed:
            assert not problem.startswith("Error"), (case, problem)
            continue
        assert problem.startswith("Error"), (case, problem)
        assert value_of(recalc, "ModelCheck").endswith(problem), case
        for res in tpl.results:
            if bad in tpl.leaves(res.name):
                assert value_of(recalc, res.name) == "n/d: ver Control", (
                    case,
                    res.name,
                )


def test_worked_examples_recalculated(engine):
    for lang in ("en", "es"):
        _, ft, _, _ = engine[f"default-{lang}-{FINETUNE.slug}"]
        assert value_of(ft, "EffectiveThroughput") == pytest.approx(16_400, rel=1e-12)
        assert round(value_of(ft, "ExamplesPerSec"), 2) == 18.22
        assert round(value_of(ft, "ExamplesPerMin"), 2) == 1093.33
        _, ch, _, _ = engine[f"default-{lang}-{CHINCHILLA.slug}"]
        assert round(value_of(ch, "OptimalParams") / 1e9, 1) == 65.7
        assert round(value_of(ch, "OptimalTokens") / 1e12, 2) == 1.31
        # LibreOffice computes =SQRT(6000*8.64E+19/(6*20)) as 65726706900.62.
        assert value_of(ch, "OptimalParams") == pytest.approx(
            65_726_706_900.62, rel=1e-12
        )


def test_currency_follows_the_input(engine):
    for case, (_, recalc, _, (tpl, _, inputs, _)) in engine.items():
        if not case.startswith("random") or tpl is not FINETUNE:
            continue
        title, coord = (
            recalc.defined_names["TrainingCost"].attr_text.replace("$", "").split("!")
        )
        ws = recalc[title.strip("'")]
        assert ws.cell(ws[coord].row, 3).value == inputs["Currency"]


@pytest.mark.parametrize("case", FITS, ids=[c[0] for c in FITS])
def test_the_memory_check_says_does_not_fit(engine, case):
    name, tpl, _, label, fewest = case
    _, recalc, _, _ = engine[name]
    model = value_of(recalc, "ModelCheck")
    assert model.startswith(f"{label}: Does not fit: "), model
    assert ("fewest GPUs that fit: " in model) == fewest
    # The plan still computes: only the check names the problem.
    assert all(
        is_number(value_of(recalc, r.name)) for r in tpl.results if "Memory" in r.name
    )


def test_the_memory_check_warns_when_little_memory_is_left(engine):
    _, recalc, _, _ = engine[TIGHT[0]]
    assert value_of(recalc, "ModelCheck") == (
        "Full fine-tuning: Warning: fits, but fills 91% of the GPU's memory; "
        "keep 10-20 % free"
    )
