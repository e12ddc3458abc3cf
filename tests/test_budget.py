"""The compute budget (issues 19, 27, 28): its structure, its figures by hand,
and the slips its checks catch.

Every expected figure below is worked out by hand from the example programme's
inputs and published constants, never read back from the code under test:
H100 SXM 989.4 dense bf16 TFLOP/s and 700 W (NVIDIA's datasheet); Llama 3.1 8B
8.0e9 parameters, 32 layers of width 4,096 (Meta's config); the example prices
of xlfuncs/data/prices.py (read 2026-12-04, sources there). The one oracle is
the Python library itself, for a serving replica's speed: the workbook's cells
write out its Excel expression. Values are the builder's cached ones (the
model's); tests/test_budget_engines.py has LibreOffice, Gnumeric and IronCalc
recalculate them.
"""

from __future__ import annotations

import math

import openpyxl
import pytest
from workbook_tools import TIES, named_values, reserve, with_reservations, with_rows

import xlfuncs
from xlfuncs.excel.values import Range
from xlfuncs.templates import BUDGET, TEMPLATES
from xlfuncs.templates import texts as tx
from xlfuncs.templates.blocks import Table
from xlfuncs.templates.build import build_template, laid_out
from xlfuncs.workbook.xlsx import save_workbook

HOURS_A_MONTH = 730
SECONDS_A_MONTH = HOURS_A_MONTH * 3600
RUNS = "Runs"
ROWS = 20
# The example prices (USD a GPU-hour, xlfuncs/data/prices.py, read 2026-12-04).
H100_ON_DEMAND, H100_RESERVED = 3.99, 2.72
API = 0.72  # USD a million tokens, in and out: Llama 3.3 70B's median list price


def built(tmp_path, tpl=BUDGET, lang="en", values=None):
    b = build_template(tpl, lang, values or {})
    path = tmp_path / f"{tpl.slug}-{lang}.xlsx"
    save_workbook(b.workbook, path, b.cached)
    return openpyxl.load_workbook(path, data_only=True)


def figures(tpl=BUDGET, lang="en", values=None):
    """The workbook's figures by name, from the model whose values the builder
    caches in its cells (laid out, no file written): a range as a list."""
    model = laid_out(tpl, lang, values or {}).model

    def value(name):
        v = model.value(name)
        return v.flat() if isinstance(v, Range) else v

    return value


def runs(changes, values=None, lang="en"):
    """The figures with some runs changed: ``{row from 0: {field: value}}``."""
    return figures(with_rows(BUDGET, RUNS, changes), lang, values)


@pytest.fixture(scope="module")
def default(tmp_path_factory):
    return built(tmp_path_factory.mktemp("budget"))


@pytest.fixture(scope="module")
def base():
    return figures()


def v(wb, name):
    return named_values(wb, name)


def filled(values):
    return [x for x in values if x not in (None, "")]


# ------------------------------------------------------------------ structure


def test_the_budget_is_a_template_built_like_the_others():
    assert BUDGET in TEMPLATES
    assert BUDGET.filename("en") == "llm-compute-budget.xlsx"
    assert BUDGET.filename("es") == "llm-compute-budget-es.xlsx"
    assert BUDGET.sheets[0].summary  # the Summary first, one printed page


def test_sheets_in_reading_order(default):
    assert default.sheetnames[:7] == [
        "Summary", "About this workbook", "Assumptions", "Runs", "Prices", "Months",
        "Checks",
    ]  # fmt: skip
    assert default.active.title == "Summary"  # the workbook opens on it


def test_the_runs_table_holds_the_example_programme(default):
    table = next(
        b for b in BUDGET.blocks if isinstance(b, Table) and b.title.en == RUNS
    )
    assert table.size == ROWS
    kinds = [r["RunKind"] for r in table.rows]
    assert kinds.count("pre-training") == 1 and kinds.count("serving") == 1
    methods = {r["RunMethod"] for r in table.rows if r["RunKind"] == "fine-tuning"}
    assert kinds.count("fine-tuning") == 4 and methods == {"full", "LoRA", "QLoRA"}
    for name in (
        "RunModel",
        "RunMFU",
        "RunMeasuredSpeed",
        "RunPromptTokens",
        "RunCost",
    ):
        assert len(v(default, name)) == ROWS, name
    assert filled(v(default, "RunModel")) == [
        "Llama 3.1 8B", "Llama 3.1 70B", "Qwen2.5 7B", "Llama 3.1 8B", "Llama 3.3 70B",
        "Llama 3.1 70B",
    ]  # fmt: skip
    assert len(v(default, "MonthlyCost")) == 12


def test_every_name_the_first_budget_had_is_kept(default):
    # Issue 27: names are added, never renamed. These are the first budget's
    # (commit bca97c7), RunTokensPerSec included: the speed a GPU (a replica).
    for name in ("RunName", "RunKind", "RunModel", "RunMethod", "RunTokens", "RunGPU",
                 "RunGPUs", "RunStart", "RunMonths", "RunTier", "RunCost", "RunGPUHours",
                 "RunTokensPerSec", "RunMemory", "BudgetTotal", "MonthlyCost",
                 "ReservedGPU", "PeakGPUs", "BudgetIdle", "CostliestRun1"):  # fmt: skip
        assert name in default.defined_names, name
    speed = v(default, "RunTokensPerSec")
    assert speed[5] == pytest.approx(2 * v(default, "RunSpeed")[5], rel=1e-12)
    assert speed[0] == v(default, "RunSpeed")[0]


def test_each_timeline_row_is_one_formula_across_its_months():
    # Issue 33 (FAST): a month's formula is the row's copied across: it reads
    # the period counter and the row's validity, never a month by number or a
    # validity cell of its own. Only the counter's first month (1) differs.
    from openpyxl.formula.translate import Translator

    ws = build_template(BUDGET, "en", {}).workbook["Months"]
    rows = differ = 0
    for r in range(1, ws.max_row + 1):
        cells = [ws.cell(r, k) for k in range(2, 14)]
        if not all(isinstance(c.value, str) and c.value.startswith("=") for c in cells):
            continue
        rows += 1
        first = cells[0].coordinate
        forms = {Translator(c.value, origin=c.coordinate).translate_formula(first)
                 for c in cells[1:]}  # fmt: skip
        if forms != {cells[0].value}:
            differ += 1
            assert ws.cell(r, 1).value == "Month number", (r, ws.cell(r, 1).value)
    assert rows >= 80 and differ == 1


@pytest.mark.parametrize("tpl", [BUDGET, TEMPLATES[2]], ids=["budget", "planner"])
def test_hours_in_a_month_is_a_cell_not_a_number_in_formulas(tpl):
    # Issue 33: 730 was typed into 149 of the budget's formulas; it is now the
    # Assumptions sheet's HoursAMonth, 365 × 24 ÷ 12, that every formula reads.
    import re

    wb = build_template(tpl, "en", {}).workbook
    typed = [
        f"{ws.title}!{c.coordinate}"
        for ws in wb.worksheets
        for row in ws.iter_rows()
        for c in row
        if isinstance(c.value, str) and c.value.startswith("=")
        and re.search(r"(?<![\w$.])(730|2628000)(?![\w.])", re.sub(r'"[^"]*"', "", c.value))
    ]  # fmt: skip
    assert typed == []
    assert "HoursAMonth" in wb.defined_names


def test_the_months_head_every_printed_page_and_headings_keep_their_lines():
    # Issue 34: Months pages lost the month header row, and a page ended on the
    # "Capacity (GPUs)" heading with its lines on the next.
    ws = build_template(BUDGET, "en", {}).workbook["Months"]
    head = next(r for r in range(1, 20) if ws.cell(r, 1).value == "Month")
    assert ws.print_title_rows == f"${head}:${head}"
    capacity = next(r for r in range(1, 60) if ws.cell(r, 1).value == "Capacity (GPUs)")
    breaks = {b.id for b in ws.row_breaks.brk}
    assert capacity - 1 in breaks  # the page breaks before the heading, not after it


def test_unused_rows_show_blank_results_and_the_defaults_read_ok(default):
    cost = v(default, "RunCost")
    assert all(isinstance(x, float) for x in cost[:6])
    assert all(x in (None, "") for x in cost[6:])  # empty, not an error or n/a
    assert set(filled(v(default, "CheckStatus"))) == {"OK"}
    assert v(default, "ModelCheck") == "OK"


# ------------------------------------------------------------------ by hand


def test_pre_training_cost_by_hand(base):
    # Llama 3.1 8B: 6 × 8.0e9 FLOPs a token and the attention's 12 × 32 layers
    # × 4,096 width × 4,096 tokens; at 40 % of an H100's 989.4 TFLOP/s.
    flops = 6 * 8.0e9 + 12 * 32 * 4096 * 4096  # 54.44e9 a token
    speed = 0.40 * 989.4e12 / flops  # 7,269.5 tokens/s a GPU
    gpu_hours = 2e12 / speed / 3600  # 76,424.6 GPU-hours
    assert base("RunSpeed")[0] == pytest.approx(speed, rel=1e-12)
    assert base("RunGPUHours")[0] == pytest.approx(gpu_hours, rel=1e-12)
    assert base("RunDays")[0] == pytest.approx(gpu_hours / 256 / 24, rel=1e-12)
    assert base("RunCost")[0] == pytest.approx(gpu_hours * H100_ON_DEMAND, rel=1e-12)
    # Energy: GPU-hours × 700 W × PUE 1.2; emissions × 0.37 kg a kWh.
    mwh = gpu_hours * 700 * 1.2 / 1e6
    assert base("RunEnergy")[0] == pytest.approx(mwh, rel=1e-12)
    assert base("RunCO2")[0] == pytest.approx(mwh * 0.37, rel=1e-12)
    assert base("RunImpliedMFU")[0] == pytest.approx(0.40, rel=1e-12)


def test_serving_by_hand(base):
    # The assistant: Llama 3.1 70B in fp8 on replicas of 2 H100s; 24e9 output
    # and 48e9 prompt tokens a month: a request of 1,500 tokens is 1,000 of
    # prompt and 500 of output. A replica's speed is the library's.
    replica = xlfuncs.serving_tokens_per_sec(
        "Llama 3.1 70B", "H100 SXM", 2, 1000, 500, "fp8"
    )
    assert base("RunReplicaEstimate")[5] == pytest.approx(replica, rel=1e-12)
    assert (base("RunPromptLen")[5], base("RunOutputLen")[5]) == (1000, 500)
    # The peak: 24e9 ÷ 730 h ÷ 3,600 s × 2 = 18,264.8 tokens/s, on 4.56 replicas:
    # 5, and the spare: 6 replicas, 12 GPUs, all month for 10 months.
    peak = 24e9 / SECONDS_A_MONTH * 2
    replicas = math.ceil(peak / replica) + 1
    assert replicas == 6 and base("RunGPUsUsed")[5] == 12
    cost = 12 * HOURS_A_MONTH * 10 * H100_RESERVED  # 238,272 USD
    assert base("RunCost")[5] == pytest.approx(cost, rel=1e-12)
    # 0.99 USD a million output tokens; through the API, prompts and output at
    # 0.72: (48,000 + 24,000) M × 0.72 = 51,840 USD a month, 518,400 in all.
    assert base("RunPerMTok")[5] == pytest.approx(cost / 10 / 24_000, rel=1e-12)
    assert base("RunApiCost")[5] == pytest.approx(72_000 * API * 10, rel=1e-12)
    assert base("BudgetApiAlternative") == pytest.approx(518_400, rel=1e-12)
    # Break-even: the API's 2.16 USD an M output tokens (prompts included)
    # against one replica and the spare, 2 × 2 × 730 × 2.72 = 7,942.40 USD a
    # month: 3.68e9 output tokens a month.
    assert base("RunBreakEven")[5] == pytest.approx(
        2 * 2 * 730 * 2.72 / 2.16e-6, rel=1e-12
    )


def test_the_api_price_that_breaks_even(base):
    # Issue 34: build-or-buy rested on one API price. The serving line's month:
    # 48e9 prompt and 24e9 output tokens, 10 months, at 0.72 USD a million both
    # ways through an API: 518,400 USD; self-hosted on 12 reserved H100s:
    # 238,272 USD. An API at 0.72 × 238,272 ÷ 518,400 = 0.331 USD a million
    # costs the same: below it, buy.
    api = (48e9 + 24e9) * API / 1e6 * 10
    own = 12 * HOURS_A_MONTH * 10 * H100_RESERVED
    assert base("BudgetApiAlternative") == pytest.approx(api, rel=1e-12)
    assert base("BudgetBreakEvenApi") == pytest.approx(API * own / api, rel=1e-12)
    assert base("BudgetBreakEvenApi") == pytest.approx(0.3309, abs=1e-4)


def test_doubling_the_measured_serving_speed_halves_its_cost():
    # Issue 28: with no spare, a measured speed carrying the peak on exactly 8
    # replicas of 2 GPUs; twice as fast, 4.
    per_gpu = 24e9 / SECONDS_A_MONTH * 2 / 16
    slow = runs({5: {"RunMeasuredSpeed": per_gpu, "RunSpare": 0}})
    fast = runs({5: {"RunMeasuredSpeed": 2 * per_gpu, "RunSpare": 0}})
    assert slow("RunGPUsUsed")[5] == 16 and fast("RunGPUsUsed")[5] == 8
    assert fast("RunCost")[5] == pytest.approx(slow("RunCost")[5] / 2, rel=1e-12)
    assert slow("RunCost")[5] == pytest.approx(16 * 730 * 10 * H100_RESERVED, rel=1e-12)


def test_a_serving_line_typed_in_requests_a_day_costs_what_its_tokens_do():
    # Issue 34: serving in the units planners use. The assistant's 24 B output
    # and 48 B prompt tokens a month are 1,578,082.19 requests a day of 1,000
    # prompt and 500 output tokens (a day: 730 h ÷ 24): the same line.
    requests = 24e9 / (500 * HOURS_A_MONTH / 24)
    assert requests * 1000 * HOURS_A_MONTH / 24 == pytest.approx(48e9)
    by_requests = runs({5: {"RunTokens": None, "RunPromptTokens": None,
                            "RunRequestsDay": requests, "RunPromptPerRequest": 1000,
                            "RunOutputPerRequest": 500}})  # fmt: skip
    base = figures()
    assert by_requests("ModelCheck") == "OK"
    assert by_requests("RunOutputMonth")[5] == pytest.approx(24e9, rel=1e-12)
    assert by_requests("RunPromptMonth")[5] == pytest.approx(48e9, rel=1e-12)
    for name in ("RunGPUsUsed", "RunCost", "RunApiCost"):
        assert by_requests(name)[5] == pytest.approx(base(name)[5], rel=1e-12), name
    # Its own request shape: 4,000 prompt tokens and 200 output a request.
    longer = runs({5: {"RunPromptPerRequest": 4000, "RunOutputPerRequest": 200}})
    assert longer("RunPromptLen")[5] == 4000 and longer("RunOutputLen")[5] == 200


def test_a_serving_lines_own_peak_sizes_its_replicas():
    # Peak 4 × the average, not the Assumptions sheet's 2: the peak rate doubles.
    # The default line: 24e9 ÷ 2,628,000 s × 2 = 18,265 tokens/s on replicas of
    # 2 GPUs, 4 of them and a spare; at 4 ×, twice the rate: 10 and a spare.
    base, peak = figures(), runs({5: {"RunPeakToAverage": 4}})
    replica = base("RunTokensPerSec")[5]
    assert base("RunReplicas")[5] == math.ceil(24e9 / SECONDS_A_MONTH * 2 / replica) + 1
    assert peak("RunReplicas")[5] == math.ceil(24e9 / SECONDS_A_MONTH * 4 / replica) + 1
    assert peak("RunPeakUsed")[5] == 4


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"RunRequestsDay": 1000},
         "Error: the traffic typed twice: tokens a month, or requests a day, not both"),
        ({"RunTokens": None, "RunPromptTokens": None, "RunRequestsDay": 1000},
         "Error: a request needs both its prompt and its output tokens"),
        ({"RunPromptPerRequest": 1000},
         "Error: a request needs both its prompt and its output tokens"),
    ],
)  # fmt: skip
def test_a_serving_lines_traffic_is_typed_once_and_whole(change, said):
    got = runs({5: change})
    assert got("ModelCheck").startswith("Runs, Assistant 70B: " + said)
    assert got("BudgetTotal") == "n/a: see Check"


def test_tensor_parallel_that_splits_no_heads_evenly_warns():
    # Issue 34: 3 GPUs a replica for Llama 3.1 70B, whose 8 key/value heads
    # (config.json: num_key_value_heads 8) 3 neither divides nor multiplies.
    got = runs({5: {"RunGPUs": 3}})
    assert got("RunCacheHeads")[5] == 8
    assert got("ModelCheck") == (
        "Runs, Assistant 70B: Warning: a replica's GPUs split the model's 8 key/value "
        "heads: GPUs a replica that divide them, or a multiple of them"
    )
    for gpus in (4, 16):  # 8 ÷ 4; 16 = 2 × 8
        assert runs({5: {"RunGPUs": gpus}})("RunNameCheck.6") == "OK", gpus


def test_a_training_run_by_its_parameters_says_what_it_leaves_out():
    got = runs({0: {"RunModel": 8e9}})
    assert got("ModelCheck").startswith(
        "Runs, Base 8B: Warning: a model by its parameters: no attention FLOPs in its speed"
    )


@pytest.mark.parametrize("lang", ["en", "es"])
def test_contingency_typed_as_a_hundredth_of_itself_warns(lang):
    # Issue 34: 0.11 typed in a % cell reads 0.11 %, and the check read OK.
    got = figures(values={"Contingency": 0.0011}, lang=lang)
    assert (
        got("ModelCheck")
        == {
            "en": "Contingency: Warning: under 1 %: 0.11 typed for 11 %?",
            "es": "Contingencia: Aviso: menos del 1 %: ¿0,11 escrito por 11 %?",
        }[lang]
    )
    assert figures(values={"Contingency": 0})("ModelCheck") == "OK"


def test_each_price_row_still_at_its_usd_example_warns_under_another_currency():
    got = figures(values={"Currency": "EUR"}, lang="es")
    assert got("ModelCheck") == (
        "Precios por GPU-hora, H100 SXM: Aviso: aún el precio del ejemplo en USD, con otra "
        "moneda: escriba el suyo en la moneda del plan"
    )
    # One row typed over: the next row still at its example is named.
    typed = figures(with_rows(BUDGET, "Prices per GPU-hour", {0: {"PriceOnDemand": 3.70}}),
                    values={"Currency": "EUR"})  # fmt: skip
    assert typed("ModelCheck").startswith(
        "Prices per GPU-hour, H200 SXM: Warning: still"
    )


def test_page_1_gives_the_oldest_price_date():
    # Issue 34: the basis said "examples read 2026-12-04" whatever was typed. It
    # gives the Prices sheet's oldest date: 4 Dec 2026 is day 46,360 (1 Jan 2026
    # is 46,023, and 4 Dec is 337 days later).
    assert figures()("PricesOldest") == 46_360
    older = figures(
        with_rows(BUDGET, "Prices per GPU-hour", {2: {"PriceDate": 46_023}})
    )
    assert older("PricesOldest") == 46_023
    assert older("ModelCheck") == "OK"


def test_the_api_price_band_follows_the_currency():
    # Issue 34: a JPY plan could not reach OK: 108 JPY a million output tokens
    # (0.72 USD at the Data sheet's 150 JPY) read as "unusual", over 60.
    yen = figures(
        values={"Currency": "JPY", "ApiPriceOutput": 108, "ApiPriceInput": 108}
    )
    assert yen("CurrencyRate") == 150
    assert yen("ApiPriceOutput.check") == "OK" and yen("ApiPriceInput.check") == "OK"
    dear = figures(values={"ApiPriceOutput": 108})  # 108 USD: over 60
    assert dear("ApiPriceOutput.check") == (
        "Warning: unusual: hosted APIs list 0.01 to 60.00 USD a million tokens"
    )


def test_a_measured_serving_speed_far_under_the_estimate_warns():
    # Issue 34: 100 output tokens/s a GPU for the 70 B in fp8 on H100s (one
    # request's speed, not a server's at full load) multiplied the line's cost by
    # 8 with the check at OK. Under a third of the estimate now warns.
    slow = runs({5: {"RunMeasuredSpeed": 100}})
    assert slow("RunEstimate")[5] > 300  # so 100 is under a third of it
    assert slow("ModelCheck") == (
        "Runs, Assistant 70B: Warning: measured under a third of the estimate for this "
        "model and GPU: output tokens/s per GPU at full load, not one request's speed?"
    )
    near = runs({5: {"RunMeasuredSpeed": slow("RunEstimate")[5] / 2.9}})
    assert near("RunNameCheck.6") == "OK"  # the row's own check


def test_a_fine_tune_costs_what_the_fine_tuning_workbook_says(base):
    # "Support 70B": QLoRA of Llama 3.1 70B on 2.0e9 tokens, 8 A100 SXM at 35 %
    # MFU, on demand at 2.25 USD. The fine-tuning workbook, asked the same (its
    # speed estimated, its scaling efficiency 100 %: a budget row has none),
    # gives the same GPU-hours and cost.
    from xlfuncs.templates import FINETUNE, compute

    same_run = {
        "FTModel": "Llama 3.1 70B", "FTMethod": "QLoRA", "GPUModel": "A100 SXM",
        "GPUs": 8, "MFU": 0.35, "ThroughputSource": "estimated", "Efficiency": 1.0,
        "DatasetExamples": 2_000_000, "TokensPerExample": 1_000, "Epochs": 1,
        "PricePerGPUHour": 2.25, "SeqLen": 4096,  # the budget's sequence length
    }  # fmt: skip
    ft = compute(FINETUNE, same_run)
    assert base("RunName")[1] == "Support 70B"
    assert base("RunGPUHours")[1] == pytest.approx(ft["GPUHours"], rel=1e-12)
    assert base("RunCost")[1] == pytest.approx(ft["TrainingCost"], rel=1e-12)


def test_the_total_is_the_months_and_its_parts(base):
    total = base("BudgetTotal")
    assert total == pytest.approx(sum(base("MonthlyCost")), rel=1e-12)
    quarters = [base(f"BudgetQ{q}") for q in (1, 2, 3, 4)]
    assert sum(quarters) == pytest.approx(total, rel=1e-12)
    parts = [base(n) for n in (
        "BudgetPretraining", "BudgetFinetuning", "BudgetServing", "BudgetIdle",
        "BudgetAbove", "BudgetOverheads", "BudgetContingency", "BudgetServingContingency",
        "BudgetExperiments")]  # fmt: skip
    assert sum(parts) == pytest.approx(total, rel=1e-12)
    # Every run falls inside the year; the reservation is used in full: total =
    # training × (1 + 10 % overheads + 11 % contingency) + serving × 1.10.
    training = sum(filled(base("RunCost"))[:5])
    serving = base("RunCost")[5]
    assert total == pytest.approx(training * 1.21 + serving * 1.10, rel=1e-12)
    assert base("BudgetIdle") == 0 and base("BudgetAbove") == 0
    assert base("CommitmentUse") == 1
    # The committed amount: 12 GPUs × 730 h × 2.72 USD for 10 months.
    assert base("BudgetCommitted") == pytest.approx(12 * 730 * 2.72 * 10, rel=1e-12)
    assert base("BudgetBeyondPlan") == 0


def test_contingency_covers_training_and_serving_has_its_own(base):
    training = sum(filled(base("RunCost"))[:5])
    more = figures(values={"Contingency": 0.21})
    rise = more("BudgetTotal") - base("BudgetTotal")
    assert rise == pytest.approx(0.10 * training, rel=1e-12)
    served = figures(values={"ServingContingency": 0.2})
    rise = served("BudgetTotal") - base("BudgetTotal")
    assert rise == pytest.approx(0.2 * base("RunCost")[5], rel=1e-12)


def test_experiments_before_the_final_runs(base):
    # Cottier et al. 2024: 1.2-4× the final run; 2.2 adds 1.2 × the training.
    training = sum(filled(base("RunCost"))[:5])
    got = figures(values={"ExperimentsMultiplier": 2.2})
    assert got("BudgetExperiments") == pytest.approx(1.2 * training, rel=1e-12)
    # Counted as compute alone: the overheads' share is of the runs.
    assert got("BudgetTotal") - base("BudgetTotal") == pytest.approx(
        1.2 * training, rel=1e-12
    )


def test_scenarios_range_the_total(base, default):
    ws = default["Months"]
    row = next(r for r in ws.iter_rows() if str(r[0].value).startswith("All-in total"))
    cases = [c.value for c in row if isinstance(c.value, float)]
    total = base("BudgetTotal")
    assert cases[0] == pytest.approx(total, rel=1e-12)
    # Prices × 0.8: every cost scales, overheads and contingency with them.
    assert cases[1] == pytest.approx(0.8 * total, rel=1e-12)
    # All-in MFU × 0.6: every training run estimated from its MFU takes 1/0.6.
    training = sum(filled(base("RunCost"))[:5])
    assert cases[3] == pytest.approx(total + (1 / 0.6 - 1) * training * 1.21, rel=1e-12)
    assert base("BudgetLow") == pytest.approx(min(cases), rel=1e-12)
    assert base("BudgetHigh") == pytest.approx(max(cases), rel=1e-12)


def test_costliest_runs_by_name(base):
    costs = filled(base("RunCost"))
    names = filled(base("RunName"))
    order = sorted(range(len(costs)), key=lambda k: -costs[k])
    assert [base(f"CostliestRunName{k}") for k in (1, 2, 3)] == [
        names[k] for k in order[:3]
    ]
    assert base("CostliestRun1") == pytest.approx(costs[order[0]], rel=1e-12)


def test_tied_runs_are_ranked_by_row():
    got = runs(TIES)
    twin = got("RunInPlan")[0]
    assert got("RunInPlan")[:4] == [twin] * 4
    assert [got(f"CostliestRunName{k}") for k in (1, 2, 3)] == [
        "Assistant 70B",
        "Twin A",
        "Twin B",
    ]
    assert got("CostliestRun2") == got("CostliestRun3") == twin
    assert got("RunSameAbove")[:4] == [1, 2, 3, 4]


def test_capacity_by_gpu_model(base):
    # Month 3: the assistant's 12 H100s and Code 7B's 8 for part of the month.
    h100 = base("MonthGPUsModel1")
    assert base("PriceGPU")[0] == "H100 SXM"
    assert h100[2] >= 12
    assert base("MonthCommitted1")[2] == 12 and base("MonthReservedAtOnce1")[2] == 12
    assert base("MonthGap1")[2] == h100[2] - 12


# ------------------------------------------------------------------ slips (issue 27)


def test_mfu_typed_as_35_is_an_error():
    got = runs({1: {"RunMFU": 35}})
    assert got("ModelCheck") == (
        "Runs, Support 70B: Error: MFU: enter a percentage above 0% and at most 100%"
    )
    assert got("RunCost")[1] == "n/a: see Check"
    assert got("BudgetTotal") == "n/a: see Check"


def test_a_measured_speed_past_the_gpus_peak_is_an_error():
    # 150,000 tokens/s an H100 on an 8B model: 150,000 × 54.4e9 FLOPs ÷ 989.4
    # TFLOP/s is 825 % of the peak.
    got = runs({0: {"RunMeasuredSpeed": 150_000}})
    assert got("RunImpliedMFU")[0] == pytest.approx(
        150_000 * (6 * 8.0e9 + 12 * 32 * 4096 * 4096) / 989.4e12, rel=1e-12
    )
    assert got("ModelCheck").startswith(
        "Runs, Base 8B: Error: faster than this GPU can run this model"
    )


def test_a_70b_model_on_one_80gb_gpu_does_not_fit():
    got = runs({5: {"RunGPUs": 1, "RunPrecision": None}})  # 140 GB of bf16 weights
    assert got("ModelCheck") == (
        "Runs, Assistant 70B: Error: does not fit: the weights leave no room for a "
        "sequence in a replica's memory (GPUs a replica: 1): more GPUs a replica, or a "
        "smaller precision"
    )
    # Only that run: the others' checks stay OK, none says "costs nothing".
    statuses = filled(got("CheckStatus"))
    assert sum(s != "OK" for s in statuses) == 1


@pytest.mark.parametrize(
    ("values", "start"),
    [
        (
            {"PriceOnDemand": 399},
            "Prices per GPU-hour, H100 SXM: Warning: over 3 times or under a third of "
            "this GPU's example, 3.99 USD on demand (an 8-GPU node's price, or cents?)",
        ),
        (
            {"Currency": "JPY", "ApiPriceInput": 108, "ApiPriceOutput": 108},
            "Prices per GPU-hour, H100 SXM: Warning: over 3 times or under a third of "
            "this GPU's example, 598.50 JPY on demand",
        ),
        (
            {"Currency": "EUR"},
            "Prices per GPU-hour, H100 SXM: Warning: still the example's USD price",
        ),
    ],
)
def test_prices_far_from_the_market_or_in_another_currency_warn(values, start):
    if "PriceOnDemand" in values:  # cents typed for the H100
        got = figures(with_rows(BUDGET, "Prices per GPU-hour", {0: values}))
    else:
        got = figures(values=values)
    assert got("ModelCheck").startswith(start)


@pytest.mark.parametrize(
    ("row", "gpu", "price", "example"),
    [(3, "A100 SXM", 18.00, 2.25), (4, "L40S", 12.40, 1.55)],  # an 8-GPU node's price
)
def test_a_price_is_judged_against_its_own_gpus_example(row, gpu, price, example):
    # Issue 34: both sat inside the one band for every GPU (0.25-25 USD).
    got = figures(
        with_rows(BUDGET, "Prices per GPU-hour", {row: {"PriceOnDemand": price}})
    )
    assert got("ModelCheck") == (
        f"Prices per GPU-hour, {gpu}: Warning: over 3 times or under a third of this "
        f"GPU's example, {example:.2f} USD on demand (an 8-GPU node's price, or cents?)"
    )
    # Three times the example is still a price (a hyperscaler's list).
    ok = figures(
        with_rows(
            BUDGET, "Prices per GPU-hour", {row: {"PriceOnDemand": 2.9 * example}}
        )
    )
    assert ok("ModelCheck") == "OK"


def test_a_gpu_with_no_example_price_is_judged_by_the_wide_band():
    got = figures(with_rows(BUDGET, "Prices per GPU-hour",
                            {2: {"PriceGPU": "MI300X", "PriceOnDemand": 399}}))  # fmt: skip
    assert got("PriceExampleUSD")[2] == ""
    assert got("ModelCheck").startswith(
        "Prices per GPU-hour, MI300X: Warning: unusual for USD"
    )


@pytest.mark.parametrize("currency", ["€", "$", "Euro", "XYZ"])
def test_a_currency_that_is_no_code_is_an_error(currency):
    got = figures(values={"Currency": currency})
    assert got("ModelCheck") == (
        "Currency: Error: a currency code from the Data sheet's list (USD, EUR, GBP, JPY…)"
    )


def test_tokens_typed_in_millions_are_an_error():
    got = runs({0: {"RunTokens": 2e6}})  # 2 T tokens typed as 2 million
    assert got("ModelCheck").startswith(
        "Runs, Base 8B: Error: under a thousandth of a pre-training's usual tokens"
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "Runs, Assistant 70B: Error: over a thousand times a serving month's usual "
            "tokens (up to 10 T): check the figure and its unit"),
     ("es", "Ejecuciones, Assistant 70B: Error: más de mil veces los tokens habituales de "
            "un mes de servicio (hasta 10 bill.): revise la cifra y su unidad")],
)  # fmt: skip
def test_tokens_a_thousand_times_the_usual_are_an_error(lang, said):
    # Issue 34: 5e16 output tokens a month (5,000 times the band's top) only
    # warned, and page 1 printed ###.
    got = runs({5: {"RunTokens": 5e16}}, lang=lang)
    assert got("ModelCheck") == said
    assert got("BudgetTotal") == tx.NA(lang)


@pytest.mark.parametrize("field", [{"RunMFU": 0.4}, {"RunMethod": "LoRA"}])
def test_a_training_field_on_a_serving_line_warns(field):
    # Issue 34: an MFU or a method typed on a serving line was ignored in silence.
    got = runs({5: field})
    assert got("ModelCheck") == (
        "Runs, Assistant 70B: Warning: an MFU or a method is for training runs: a "
        "serving line's speed comes from its replicas"
    )


def test_a_row_with_figures_and_no_name_is_an_error():
    got = runs({1: {"RunName": None}})
    assert got("ModelCheck") == "Runs, row 2: Error: name this run or clear the row"
    assert got("BudgetTotal") == "n/a: see Check"


def committed(gpus: int):
    """The figures with ``gpus`` H100s committed from month 3 (12 by default)."""
    return figures(with_reservations(BUDGET, {0: {"ReservationGPUCount": gpus}}))


def test_use_above_the_commitment_is_billed_on_demand():
    got = committed(8)
    # 12 - 8 = 4 GPUs above, for 10 months, at 3.99 - 2.72 more than reserved.
    above = 4 * 730 * 10 * (H100_ON_DEMAND - H100_RESERVED)
    assert got("BudgetAbove") == pytest.approx(above, rel=1e-12)
    assert got("ModelCheck").startswith(
        "Month by month: month 3: Warning: reserved runs"
    )


def test_a_commitment_mostly_idle_warns():
    got = committed(24)
    assert got("CommitmentUse") == pytest.approx(0.5)
    assert got("BudgetIdle") == pytest.approx(12 * 730 * 10 * H100_RESERVED, rel=1e-12)
    assert got("ModelCheck").startswith("Commitment used: Warning: under 70 %")


# ------------------------------------------------------------------ reservations (issue 34)

#: The default total (page 1, reconciled by hand in test_the_total_is_the_months_and_its_parts).
DEFAULT_TOTAL = 681_148.82
OVERHEADS = 0.10  # the example's overhead share: idle commitment pays it too


def test_a_second_reservation_of_the_same_model_adds_to_the_first():
    # 12 more H100s in months 3-12 on reservation 2: the assistant's 12 GPUs fill
    # reservation 1 once, and the 12 more are idle: 12 × 730 h × 10 × 2.72 USD,
    # plus overheads. Typing 24 on reservation 1 alone is the same plan.
    twice = figures(with_reservations(BUDGET, {1: reserve("H100 SXM", 12, 3, 10)}))
    once = committed(24)
    idle = 12 * HOURS_A_MONTH * 10 * H100_RESERVED
    for got in (twice, once):
        assert got("BudgetIdle") == pytest.approx(idle, rel=1e-12)
        assert got("BudgetAbove") == 0
        assert got("BudgetTotal") == pytest.approx(DEFAULT_TOTAL + idle * (1 + OVERHEADS),
                                                   abs=0.01)  # fmt: skip
        assert got("BudgetCommitted") == pytest.approx(2 * idle, rel=1e-12)
    assert twice("BudgetTotal") == pytest.approx(
        943_248.02, abs=0.01
    )  # the review's figure


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (reserve(None, 12, 3, 10), "Reserved capacity, row 2: Error: name this commitment's GPU"),
        (reserve("MI300X", 12, 3, 10),
         "Reserved capacity, MI300X: Error: this GPU has no row on the Prices sheet"),
        (reserve("L40S", 12, 3, 10),
         "Reserved capacity, L40S: Error: no price: type the contract's, or a reserved price"),
    ],
)  # fmt: skip
def test_gpus_committed_with_no_priced_model_are_an_error_and_page_1_says_na(
    row, message
):
    got = figures(with_reservations(BUDGET, {1: row}))
    assert got("ModelCheck").startswith(message)
    for name in ("BudgetTotal", "BudgetIdle", "BudgetCommitted", "BudgetQ2"):
        assert got(name) == "n/a: see Check", name


def test_a_reservation_past_the_plan_is_committed_after_it_not_in_the_total():
    # The example: 12 H100s for 12 months from month 3, at the Prices sheet's
    # 2.72 USD: 10 months in the plan, 2 after it.
    got = figures()
    month = 12 * HOURS_A_MONTH * H100_RESERVED
    assert got("BudgetCommitted") == pytest.approx(10 * month, rel=1e-12)
    assert got("BudgetCommittedAfter") == pytest.approx(2 * month, rel=1e-12)
    assert got("BudgetTotal") == pytest.approx(DEFAULT_TOTAL, abs=0.01)
    # A contract price of its own, 2.00 USD, for the 12 GPUs the assistant
    # fills: its runs are charged 2.72 on the Runs sheet, and the commitment's
    # line takes back the difference.
    cheaper = figures(with_reservations(BUDGET, {0: {"ReservationPrice": 2.0}}))
    saving = 12 * HOURS_A_MONTH * 10 * (H100_RESERVED - 2.0)
    assert cheaper("BudgetIdle") == pytest.approx(-saving, rel=1e-9)
    assert cheaper("BudgetCommitted") == pytest.approx(
        12 * HOURS_A_MONTH * 10 * 2.0, rel=1e-12
    )
    assert cheaper("BudgetTotal") == pytest.approx(DEFAULT_TOTAL - saving * (1 + OVERHEADS),
                                                   abs=0.01)  # fmt: skip


def test_credits_at_a_price_of_0_warn_and_cost_nothing():
    got = figures(with_reservations(BUDGET, {0: {"ReservationPrice": 0}}))
    assert got("BudgetCommitted") == 0
    assert got("ModelCheck").startswith(
        "Reserved capacity, H100 SXM: Warning: a price of 0"
    )
    # The assistant's 12 GPUs, charged 2.72 on the Runs sheet, cost nothing.
    assistant = 12 * HOURS_A_MONTH * 10 * H100_RESERVED
    assert got("BudgetTotal") == pytest.approx(DEFAULT_TOTAL - assistant * (1 + OVERHEADS),
                                               abs=0.01)  # fmt: skip


def test_a_reserved_run_is_counted_at_once_not_as_a_monthly_average():
    # Base 8B on 256 H100s, priced reserved, against 105 committed in month 1
    # (its GPU-months' average): 151 GPUs run above the commitment for the
    # run's hours, billed at on-demand less reserved; the committed GPUs idle
    # for the rest of the month.
    plan = with_reservations(with_rows(BUDGET, RUNS, {0: {"RunTier": "reserved"}}),
                             {0: reserve("H100 SXM", 105, 1, 1)})  # fmt: skip
    got = figures(plan)
    h = got("RunHours")[
        0
    ]  # by hand: tests/test_budget.py::test_pre_training_cost_by_hand
    assert got("RunGPUsUsed")[0] == 256 and h < HOURS_A_MONTH
    assert got("MonthReservedAtOnce1")[0] == 256
    above_month_1 = (256 - 105) * h * (H100_ON_DEMAND - H100_RESERVED)
    assistant = (
        12 * HOURS_A_MONTH * 10 * (H100_ON_DEMAND - H100_RESERVED)
    )  # none committed
    assert got("BudgetAbove") == pytest.approx(above_month_1 + assistant, rel=1e-12)
    assert got("BudgetIdle") == pytest.approx(
        105 * (HOURS_A_MONTH - h) * H100_RESERVED, rel=1e-12
    )
    assert got("ModelCheck") != "OK"


def test_capacity_by_model_counts_a_short_run_whole():
    # Summaries 8B: 4 L40S for about 30 hours in month 4, 0.16 GPUs on average.
    got = figures()
    row = got("PriceGPU").index("L40S")
    assert got(f"MonthGPUsModel{row + 1}")[3] == 4


def test_a_latency_target_no_batch_meets_is_the_serving_lines_error():
    # Issue 33: 20 ms a token for Llama 3.1 70B in fp8 on 2 H100s, which one
    # request's step misses, was dropped in silence and the total kept.
    got = runs({5: {"RunLatency": 20}})
    assert got("ModelCheck").startswith(
        "Runs, Assistant 70B: Error: no batch meets the latency target of 20 ms a token"
    )
    assert got("BudgetTotal") == "n/a: see Check"
    # 25 ms is met, by a smaller batch than without a target: more replicas.
    met = runs({5: {"RunLatency": 25}})
    assert met("RunServeBatch")[5] < figures()("RunServeBatch")[5]
    assert met("BudgetTotal") > DEFAULT_TOTAL


def test_the_fewest_gpus_of_a_qlora_run_is_one_answer_named_or_as_a_count():
    # Issue 33: Support 70B (QLoRA on 8 A100s) needed 1 GPU by name and 14 as a
    # count, which counted full fine-tuning's gradients and Adam states. As a
    # count, its frozen 4-bit weights: 70.55e9 × 0.5 bytes = 35.3 GB, within 90 %
    # of an A100's 80 GB.
    params = xlfuncs.model_spec("Llama 3.1 70B", "params")
    assert params * 0.5 / 1e9 < 0.9 * 80
    named = figures()("RunFewestGPUs")[1]
    counted = runs({1: {"RunModel": params}})
    assert named == counted("RunFewestGPUs")[1] == 1
    assert counted("ModelCheck").startswith(
        "Runs, Support 70B: Warning: a model by its parameters"
    )


@pytest.mark.parametrize(
    ("change", "lang", "said"),
    [
        ({1: {"PriceGPU": "H100 SXM"}}, "en",
         "Runs, Base 8B: Error: see the Prices sheet: a row there is in error"),
        ({0: {"PriceOnDemand": "abc"}}, "es",
         "Ejecuciones, Base 8B: Error: vea la hoja Precios: una de sus filas tiene un error"),
    ],
)  # fmt: skip
def test_a_prices_row_in_error_is_blamed_not_a_missing_price(change, lang, said):
    # Issue 34: an H100 typed on two rows, or a price typed as text, made every
    # run say "no price for this GPU and tier".
    got = figures(with_rows(BUDGET, "Prices per GPU-hour", change), lang)
    assert got("ModelCheck") == said
    # Every run's results name the cause where it is (issue 34, point 6); page 1
    # reads n/a as ever.
    na = {"en": "n/a: see Prices", "es": "n/d: ver Precios"}[lang]
    assert filled(got("RunCost")) == [na] * 6
    assert got("BudgetTotal") == tx.NA(lang)


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "Budget, all in: Warning: the plan has no runs: type them on the Runs sheet"),
     ("es", "Presupuesto, todo incluido: Aviso: el plan no tiene ejecuciones: escríbalas "
            "en la hoja Ejecuciones")],
)  # fmt: skip
def test_an_empty_plan_warns(lang, said):
    # Issue 34: an empty plan read OK with 0.00.
    from dataclasses import replace

    def cleared(b):
        return replace(b, rows=()) if isinstance(b, Table) and b.title.en == RUNS else b

    empty = replace(BUDGET, sheets=tuple(replace(s, blocks=tuple(map(cleared, s.blocks)))
                                         for s in BUDGET.sheets))  # fmt: skip
    got = figures(
        with_reservations(
            empty, {0: reserve(None, None, None, None, ReservationContract=None)}
        ),
        lang,
    )
    assert got("BudgetTotal") == 0
    assert got("ModelCheck") == said


def test_a_tier_with_no_price_is_the_runs_error():
    got = runs({3: {"RunTier": "reserved"}})  # the L40S has no reserved price
    assert got("ModelCheck").startswith(
        "Runs, Summaries 8B: Error: no price for this GPU"
    )
    assert got("BudgetTotal") == "n/a: see Check"


def test_a_run_past_the_year_counts_its_months_in_the_plan():
    got = runs({2: {"RunStart": 12, "RunTokens": 2e11}})  # Code 7B, 10× its tokens
    assert got("ModelCheck").startswith("Runs, Code 7B: Warning: runs past month 12")
    beyond = got("RunCost")[2] - got("RunInPlan")[2]
    assert beyond > 0 and got("BudgetBeyondPlan") == pytest.approx(beyond, rel=1e-12)


def test_text_in_a_gpu_count_names_the_run_and_the_totals_say_na():
    got = runs({2: {"RunGPUs": "eight"}}, lang="es")
    assert got("ModelCheck") == (
        "Ejecuciones, Code 7B: Error: GPU (o réplica): introduzca un número"
    )
    assert got("RunCost")[2] == "n/d: ver Control"
    # A total that depends on a run in error says so; it never adds up the rest.
    assert got("BudgetTotal") == "n/d: ver Control"
    assert got("MonthlyCost") == ["n/d: ver Control"] * 12


def test_every_amount_with_cents_drops_them_in_yen_and_won():
    # Issue 34: a conditional format on each amount shown with two decimals
    # reads the Currency input (test_print.py has LibreOffice print it).
    from openpyxl.utils.cell import range_boundaries

    wb = build_template(BUDGET, "en", {}).workbook
    for ws in wb.worksheets:
        money = {c.coordinate for row in ws.iter_rows() for c in row
                 if c.number_format == "#,##0.00"}  # fmt: skip
        covered = set()
        for cf in ws.conditional_formatting:
            for rule in cf.rules:
                if rule.dxf is not None and rule.dxf.numFmt is not None:
                    assert rule.dxf.numFmt.formatCode == "#,##0"
                    assert 'TRIM(Currency)="JPY"' in rule.formula[0]
                    assert 'TRIM(Currency)="KRW"' in rule.formula[0]
                    for r in str(cf.sqref).split():
                        c1, r1, c2, r2 = range_boundaries(r)
                        covered |= {f"{openpyxl.utils.get_column_letter(c)}{k}"
                                    for c in range(c1, c2 + 1) for k in range(r1, r2 + 1)}  # fmt: skip
        assert money <= covered, (ws.title, sorted(money - covered)[:5])


def test_another_currency_names_every_amount(tmp_path):
    wb = built(tmp_path, values={"Currency": "EUR"})
    ws = wb["Summary"]
    units = {r[2].value for r in ws.iter_rows() if r[2].value}
    assert "EUR" in units and "USD" not in units


@pytest.mark.parametrize(
    ("model", "gpu", "gpus", "precision"),
    [
        ("Gemma 3 27B", "H100 SXM", 1, "bf16"),  # windowed layers
        ("DeepSeek-V3", "H200 SXM", 8, "fp8"),  # latent attention, shared experts
        ("gpt-oss-120b", "B200", 1, "fp4"),  # fp4 weights, an fp8 cache
    ],
)
def test_a_serving_line_of_a_2026_model_is_the_librarys(model, gpu, gpus, precision):
    # Issue 35: a budget line serves the models of 2026 as SERVING_TOKENS_PER_SEC
    # does, at the line's request lengths.
    got = runs({5: {"RunModel": model, "RunGPU": gpu, "RunGPUs": gpus,
                    "RunPrecision": precision}})  # fmt: skip
    p, o = got("RunPromptLen")[5], got("RunOutputLen")[5]
    want = xlfuncs.serving_tokens_per_sec(model, gpu, gpus, p, o, precision)
    assert got("RunReplicaEstimate")[5] == pytest.approx(want, rel=1e-12)
