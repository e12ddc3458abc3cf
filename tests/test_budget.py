"""The compute budget (issue 19): its structure, and its figures by hand.

Every expected figure below is worked out by hand from the example programme's
inputs and published constants (an H100 SXM's 989.4 dense bf16 TFLOP/s and
3.35 TB/s, 700 W; Llama 3.1 8B's 8.0e9 and 70B's 70e9 parameters, 80 layers,
8 key/value heads of 128), never read back from the code under test. Values
are the builder's cached ones; tests/test_budget_engines.py has LibreOffice
and Gnumeric recalculate them.
"""

from __future__ import annotations

import openpyxl
import pytest
from workbook_tools import named_values, with_rows

from xlfuncs.templates import BUDGET, TEMPLATES
from xlfuncs.templates.blocks import Table
from xlfuncs.templates.build import build_template, laid_out
from xlfuncs.templates.semantics import Range
from xlfuncs.workbook.xlsx import save_workbook

HOURS_A_MONTH = 730
RUNS = "Runs"


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


@pytest.fixture(scope="module")
def default(tmp_path_factory):
    return built(tmp_path_factory.mktemp("budget"))


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


def test_the_runs_table_holds_30_rows_and_the_example_programme(default):
    table = next(
        b for b in BUDGET.blocks if isinstance(b, Table) and b.title.en == RUNS
    )
    assert table.size == 30
    kinds = [r["RunKind"] for r in table.rows]
    assert kinds.count("pre-training") == 1 and kinds.count("serving") == 1
    methods = {r["RunMethod"] for r in table.rows if r["RunKind"] == "fine-tuning"}
    assert kinds.count("fine-tuning") == 4 and methods == {"full", "LoRA", "QLoRA"}
    for name in ("RunModel", "RunGPUs", "RunCost"):
        assert len(v(default, name)) == 30, name
    assert filled(v(default, "RunModel")) == [
        "Llama 3.1 8B", "Llama 3.1 70B", "Qwen2.5 7B", "Llama 3.1 8B", "Llama 3.3 70B",
        "Llama 3.1 70B",
    ]  # fmt: skip
    assert len(v(default, "MonthlyCost")) == 12


def test_unused_rows_show_blank_results_and_an_ok_check(default):
    cost = v(default, "RunCost")
    assert all(isinstance(x, float) for x in cost[:6])
    assert all(x in (None, "") for x in cost[6:])  # empty, not an error or n/a
    assert set(named_values(default, "CheckStatus")) == {"OK"}
    assert v(default, "ModelCheck") == "OK"


# ------------------------------------------------------------------ by hand


def test_pre_training_cost_by_hand(default):
    # 2e12 tokens × 6 × 8.0e9 FLOPs on 256 H100s at 40 % of 989.4 TFLOP/s:
    # 8,245 tokens/s a GPU, 2e12 / (256 × 8,245) / 3,600 = 263.21 hours,
    # 67,380.90 GPU-hours at 6.16 USD on demand = 415,066.37 USD.
    assert v(default, "RunDays")[0] == pytest.approx(263.2066 / 24, rel=1e-5)
    assert v(default, "RunGPUHours")[0] == pytest.approx(67_380.904, rel=1e-7)
    assert v(default, "RunCost")[0] == pytest.approx(415_066.37, abs=0.01)
    # 67,380.90 GPU-hours × 700 W × PUE 1.2 = 56.60 MWh; × 0.37 kg/kWh = 20.94 t.
    assert v(default, "RunEnergy")[0] == pytest.approx(56.600, abs=5e-4)
    assert v(default, "RunCO2")[0] == pytest.approx(20.942, abs=5e-4)


def test_serving_gpus_and_cost_by_hand(default):
    # Llama 3.1 70B on replicas of 4 H100s, batch 32, 2,048 tokens of context:
    # a step reads 140 GB of weights and 32 × 2,048 × (2 × 80 × 8 × 128 × 2 B)
    # = 21.47 GB of cache; 32 × 4 × 3.35 TB/s ÷ 161.47 GB × 50 % = 1,327.8
    # tokens/s a replica. 20e9 tokens a month over 730 h, twice at the peak:
    # 15,220.7 tokens/s, 11.46 replicas, so 12 of 4 GPUs: 48 GPUs.
    assert v(default, "RunGPUsUsed")[5] == 48
    # 48 GPUs × 730 h × 10 months × 4.28 USD reserved = 1,499,712 USD.
    assert v(default, "RunCost")[5] == pytest.approx(1_499_712, abs=1e-6)
    # Per million tokens: 48 × 730 × 4.28 / 20,000 M = 7.4986 USD.
    assert v(default, "RunPerMTok")[5] == pytest.approx(7.49856, rel=1e-9)


def test_idle_reservation_by_hand(default):
    # 64 H100s committed from month 3, 48 used by the reserved serving line:
    # 16 idle × 730 h × 4.28 USD × 10 months = 499,904 USD.
    assert v(default, "BudgetIdle") == pytest.approx(499_904, abs=1e-6)
    assert v(default, "CommitmentUse") == pytest.approx(48 / 64)
    assert v(default, "PeakReserved") == 64
    # Month 1: the pre-training run's 256 GPUs for 11 of its 30.4 days, 92.3 on
    # average; at once, at most 256. Month 6: 32 (a fine-tune) + 48 (serving).
    assert v(default, "PeakGPUs") == pytest.approx(256 * 263.2066 / 730, rel=1e-5)
    assert v(default, "PeakGPUsActive") == 256
    assert v(default, "MonthGPUsActive")[5] == 32 + 48


def test_the_total_is_the_months_and_covers_contingency(default):
    runs = sum(filled(v(default, "RunCost")))
    total = v(default, "BudgetTotal")
    assert total == pytest.approx(sum(v(default, "MonthlyCost")), rel=1e-12)
    assert total >= runs * (1 + v(default, "Contingency"))
    # Every run falls inside the year: total = runs × (1 + 10 % overheads + 11 %
    # contingency) + idle × (1 + 10 % overheads).
    assert total == pytest.approx(runs * 1.21 + 499_904 * 1.1, rel=1e-12)
    quarters = [v(default, f"BudgetQ{q}") for q in (1, 2, 3, 4)]
    assert sum(quarters) == pytest.approx(total, rel=1e-12)
    kinds = [v(default, n) for n in ("BudgetPretraining", "BudgetFinetuning",
             "BudgetServing", "BudgetIdle", "BudgetOverheads", "BudgetContingency")]  # fmt: skip
    assert sum(kinds) == pytest.approx(total, rel=1e-12)


def test_costliest_runs_by_name(default):
    assert [v(default, f"CostliestRunName{k}") for k in (1, 2, 3)] == [
        "Assistant 70B", "Base 8B", "Multilingual 70B",
    ]  # fmt: skip
    assert v(default, "CostliestRun1") == pytest.approx(1_499_712, abs=1e-6)


def test_more_contingency_raises_the_total_by_a_tenth_of_the_runs(default):
    more = figures(values={"Contingency": 0.21})
    runs = sum(filled(v(default, "RunCost")))
    rise = more("BudgetTotal") - v(default, "BudgetTotal")
    assert rise == pytest.approx(0.1 * runs, rel=1e-12)
    # The scenario "More contingency" (+10 points) says the same of the base.
    ws = default["Months"]
    row = next(r for r in ws.iter_rows() if str(r[0].value).startswith("All-in total"))
    scenario = [c.value for c in row if isinstance(c.value, float)]
    assert scenario[-1] == pytest.approx(
        v(default, "BudgetTotal") + 0.1 * runs, rel=1e-12
    )
    # Prices × 0.8: every cost scales, overheads and contingency with them.
    assert scenario[1] == pytest.approx(0.8 * v(default, "BudgetTotal"), rel=1e-12)


# ------------------------------------------------------------------ checks


def test_a_run_that_does_not_fit_is_named():
    # Full fine-tuning of a 70 B model on 2 H200s: 16 bytes × 70e9 = 1,120 GB of
    # state, 560 GB a GPU even sharded.
    got = figures(with_rows(BUDGET, RUNS, {4: {"RunGPUs": 2}}))
    assert got("ModelCheck").startswith(
        "Runs, Multilingual 70B: Error: does not fit: needs "
    )
    assert got("RunMemory")[4].startswith("Error: does not fit")


def test_text_in_a_gpu_count_names_the_run_and_shows_na():
    got = figures(with_rows(BUDGET, RUNS, {2: {"RunGPUs": "eight"}}), "es")
    assert (
        got("ModelCheck")
        == "Ejecuciones, Code 7B: Error: GPU (o réplica): introduzca un número"
    )
    assert got("RunCost")[2] == "n/d: ver Control"
    # A total that depends on a run in error says so; it never adds up the rest.
    assert got("BudgetTotal") == "n/d: ver Control"
    assert got("MonthlyCost") == ["n/d: ver Control"] * 12


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"RunStart": 13}, "Runs, Code 7B: Error: starts after the plan's 12 months"),
        ({"RunKind": "training"}, "Runs, Code 7B: Error: Kind: pick a name from the list"),
        ({"RunMethod": None}, "Runs, Code 7B: Error: a fine-tune needs its method"),
        ({"RunGPU": "GH200"}, "Runs, Code 7B: Error: no price for this GPU and tier on the Prices sheet"),
        ({"RunStart": 12}, "Runs, Code 7B: Warning: runs past month 12: the months after are not budgeted"),
    ],
)  # fmt: skip
def test_the_model_check_names_the_run_and_its_problem(change, message):
    if change.get("RunStart") == 12:  # 2e11 tokens on 8 GPUs: 801 hours, over a month
        change = {**change, "RunTokens": 2e11}
    got = figures(with_rows(BUDGET, RUNS, {2: change}))
    assert got("ModelCheck") == message


def test_errors_outrank_warnings_across_runs():
    tpl = with_rows(BUDGET, RUNS, {0: {"RunStart": 12, "RunTokens": 2e13},
                                   5: {"RunGPUs": "four"}})  # fmt: skip
    assert (
        figures(tpl)("ModelCheck")
        == "Runs, Assistant 70B: Error: GPUs (or replica): enter a number"
    )


def test_another_currency_names_every_amount(tmp_path):
    wb = built(tmp_path, values={"Currency": "EUR"})
    assert v(wb, "ModelCheck") == "OK"
    ws = wb["Summary"]
    units = {r[2].value for r in ws.iter_rows() if r[2].value}
    assert "EUR" in units and "USD" not in units


def test_a_fine_tune_costs_what_the_fine_tuning_workbook_says(default):
    # "Support 70B": LoRA of Llama 3.1 70B on 2.0e9 tokens, 8 A100 SXM at 35 %
    # MFU, on demand at 2.70 USD. The fine-tuning workbook, asked the same (its
    # speed estimated, its scaling efficiency 100 %: a budget row has no
    # efficiency of its own), gives the same GPU-hours and cost.
    from xlfuncs.templates import FINETUNE, compute

    same_run = {
        "FTModel": "Llama 3.1 70B", "FTMethod": "LoRA", "GPUModel": "A100 SXM",
        "GPUs": 8, "MFU": 0.35, "ThroughputSource": "estimated", "Efficiency": 1.0,
        "DatasetExamples": 2_000_000, "TokensPerExample": 1_000, "Epochs": 1,
        "PricePerGPUHour": 2.70, "SeqLen": 4096,  # the budget's sequence length
    }  # fmt: skip
    ft = compute(FINETUNE, same_run)
    assert v(default, "RunName")[1] == "Support 70B"
    assert v(default, "RunGPUHours")[1] == pytest.approx(ft["GPUHours"], rel=1e-12)
    assert v(default, "RunCost")[1] == pytest.approx(ft["TrainingCost"], rel=1e-12)
