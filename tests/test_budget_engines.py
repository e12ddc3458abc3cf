"""The compute budget recalculated by LibreOffice and by Gnumeric (issues 19, 27).

Each variant is built, stripped of its cached values and recalculated: every
formula cell must be what the builder cached, no cell may show a raw error,
and the model check must name the slip each variant makes (issue 27: an MFU
typed as 35, a measured speed past the GPU's peak, a 70B model on one GPU,
prices in cents or in another currency, tokens in millions, a run with no
name, use above the commitment, an error value typed into an input), in both
editions with LibreOffice and in English with Gnumeric.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
from typing import Any

import openpyxl
import pytest
import workbook_tools
from libreoffice import recalculate, require_libreoffice
from workbook_tools import (
    TIES,
    named_values,
    reserve,
    strip_cached_values,
    with_reservations,
    with_rows,
)

from xlfuncs.templates import BUDGET
from xlfuncs.templates.build import build_template
from xlfuncs.workbook.xlsx import save_workbook

pytestmark = pytest.mark.engine

RUNS, PRICES = "Runs", "Prices per GPU-hour"


def committed(gpus: int):
    """The budget with ``gpus`` H100s committed from month 3 (12 by default)."""
    return with_reservations(BUDGET, {0: {"ReservationGPUCount": gpus}})


#: name: (template, language, inputs, the model check's start in that edition).
VARIANTS: dict[str, tuple[Any, str, dict[str, Any], str]] = {
    "default-en": (BUDGET, "en", {}, "OK"),
    "default-es": (BUDGET, "es", {}, "OK"),
    "more-contingency": (BUDGET, "en", {"Contingency": 0.21}, "OK"),
    # Full fine-tuning of 70 B on 2 H200s: the memory check refuses it.
    "no-fit": (with_rows(BUDGET, RUNS, {4: {"RunGPUs": 2}}), "en", {},
               "Runs, Multilingual 70B: Error: does not fit: needs 11 GPUs or more"),
    "gpus-text": (with_rows(BUDGET, RUNS, {2: {"RunGPUs": "eight"}}), "es", {},
                  "Ejecuciones, Code 7B: Error: GPU (o réplica): introduzca un número"),
    "mfu-35-en": (with_rows(BUDGET, RUNS, {1: {"RunMFU": 35}}), "en", {},
                  "Runs, Support 70B: Error: MFU: enter a percentage"),
    "mfu-35-es": (with_rows(BUDGET, RUNS, {1: {"RunMFU": 35}}), "es", {},
                  "Ejecuciones, Support 70B: Error: MFU: introduzca un porcentaje"),
    "too-fast": (with_rows(BUDGET, RUNS, {0: {"RunMeasuredSpeed": 150_000}}), "en", {},
                 "Runs, Base 8B: Error: faster than this GPU can run this model"),
    "one-gpu-en": (with_rows(BUDGET, RUNS, {5: {"RunGPUs": 1, "RunPrecision": None}}), "en",
                   {}, "Runs, Assistant 70B: Error: does not fit: the weights leave no room"),
    "one-gpu-es": (with_rows(BUDGET, RUNS, {5: {"RunGPUs": 1, "RunPrecision": None}}), "es",
                   {}, "Ejecuciones, Assistant 70B: Error: no cabe: los pesos no dejan sitio"),
    "cents": (with_rows(BUDGET, PRICES, {0: {"PriceOnDemand": 399}}), "en", {},
              "Prices per GPU-hour, H100 SXM: Warning: over 3 times or under a third"),
    "node-price-es": (with_rows(BUDGET, PRICES, {3: {"PriceOnDemand": 18}}), "es", {},
                      "Precios por GPU-hora, A100 SXM: Aviso: más del triple o menos de un "
                      "tercio del ejemplo de esta GPU, 2,25 USD"),
    "euro-sign": (BUDGET, "en", {"Currency": "€"},
                  "Currency: Error: a currency code from the Data sheet's list"),
    # The API's prices judged in yen (108 is 0.72 USD); the example prices, USD,
    # under a third of their yen figure.
    "yen": (BUDGET, "en", {"Currency": "JPY", "ApiPriceInput": 108, "ApiPriceOutput": 108},
            "Prices per GPU-hour, H100 SXM: Warning: over 3 times or under a third of this "
            "GPU's example, 598.50 JPY"),
    "euro": (BUDGET, "es", {"Currency": "EUR"},
             "Precios por GPU-hora, H100 SXM: Aviso: aún el precio del ejemplo en USD, con "
             "otra moneda"),
    "millions": (with_rows(BUDGET, RUNS, {0: {"RunTokens": 2e6}}), "en", {},
                 "Runs, Base 8B: Error: under a thousandth of a pre-training's usual tokens"),
    "unnamed-en": (with_rows(BUDGET, RUNS, {1: {"RunName": None}}), "en", {},
                   "Runs, row 2: Error: name this run or clear the row"),
    "unnamed-es": (with_rows(BUDGET, RUNS, {1: {"RunName": None}}), "es", {},
                   "Ejecuciones, fila 2: Error: dé nombre a esta ejecución o borre la fila"),
    "above": (committed(8), "en", {},
              "Month by month: month 3: Warning: reserved runs use more GPUs than committed"),
    "idle": (committed(24), "es", {}, "Compromiso usado: Aviso: se usa menos del 70 %"),
    "no-tier-price": (with_rows(BUDGET, RUNS, {3: {"RunTier": "reserved"}}), "en", {},
                      "Runs, Summaries 8B: Error: no price for this GPU and tier"),
    # Issue 34's reservations: a second one of the same GPU model adds to the
    # first; GPUs committed with no model, or none on the Prices sheet; a
    # reserved run counted at once against the month's commitment.
    "same-model-twice": (with_reservations(BUDGET, {1: reserve("H100 SXM", 12, 3, 10)}), "en",
                         {}, "Commitment used: Warning: under 70 %"),
    "no-model-en": (with_reservations(BUDGET, {1: reserve(None, 12, 3, 10)}), "en", {},
                    "Reserved capacity, row 2: Error: name this commitment's GPU or clear the row"),
    "no-model-es": (with_reservations(BUDGET, {1: reserve(None, 12, 3, 10)}), "es", {},
                    "Capacidad reservada, fila 2: Error: escriba la GPU de este compromiso"),
    "no-prices-row": (with_reservations(BUDGET, {0: {"ReservationGPU": "MI300X"}}), "en", {},
                      "Reserved capacity, MI300X: Error: this GPU has no row on the Prices sheet"),
    "reserved-peak": (with_reservations(with_rows(BUDGET, RUNS, {0: {"RunTier": "reserved"}}),
                                        {0: reserve("H100 SXM", 105, 1, 1)}), "en", {},
                      "Commitment used: Warning: under 70 %"),
    # The commitment after the plan, a contract price of its own, and credits.
    "contract-price": (with_reservations(BUDGET, {0: {"ReservationPrice": 2.0}}), "en", {}, "OK"),
    "credits": (with_reservations(BUDGET, {0: {"ReservationPrice": 0}}), "en", {},
                "Reserved capacity, H100 SXM: Warning: a price of 0: credits?"),
    # The assistant typed as requests a day of 1,000 prompt and 500 output tokens
    # (a day: 730 h ÷ 24): the same line, in Spanish.
    "requests-es": (with_rows(BUDGET, RUNS, {5: {"RunTokens": None, "RunPromptTokens": None,
                                                 "RunRequestsDay": 24e9 / (500 * 730 / 24),
                                                 "RunPromptPerRequest": 1000,
                                                 "RunOutputPerRequest": 500}}), "es", {}, "OK"),
    # An H100 on two Prices rows: the runs' results name the Prices sheet.
    "prices-twice-es": (with_rows(BUDGET, PRICES, {1: {"PriceGPU": "H100 SXM"}}), "es", {},
                        "Ejecuciones, Base 8B: Error: vea la hoja Precios"),
    # Four equal fine-tunes: ranked by row among the costliest.
    "ties": (with_rows(BUDGET, RUNS, TIES), "en", {}, "OK"),
    # Issue 33: a latency target no batch meets is the serving line's error.
    "latency-20ms": (with_rows(BUDGET, RUNS, {5: {"RunLatency": 20}}), "es", {},
                     "Ejecuciones, Assistant 70B: Error: ningún lote cumple la latencia "
                     "objetivo de 20 ms"),
    # A run added in a blank row, given by its parameters and a measured speed,
    # and running past the plan's end.
    "added": (with_rows(BUDGET, RUNS, {6: {
        "RunName": "Late 3B", "RunKind": "fine-tuning", "RunModel": 3e9,
        "RunMethod": "LoRA", "RunTokens": 1e11, "RunGPU": "A100 SXM", "RunGPUs": 8,
        "RunMeasuredSpeed": 1500, "RunStart": 12, "RunTier": "spot"}}), "en", {},
        "Runs, Late 3B: Warning: runs past month 12"),
}  # fmt: skip
#: Variants with an error value typed over an input after the build (=NA(), or
#: a look-up into a list that fails): (variant, defined name, row), the check.
TYPED_ERRORS = {
    "na-name": ("default-en", "RunName", 1, "Runs, row 2: Error: name this run or clear the row"),
    "na-gpu": ("default-es", "PriceGPU", 0, "Ejecuciones, Base 8B: Error: sin precio"),
}  # fmt: skip
#: A figure typed over a formula after the build: (variant, defined name, row,
#: value), the check. Page 1's total cross-casts (issue 33).
TYPED_OVER = {
    "q1-typed-over": ("default-en", "BudgetQ1", 0, 12_345.0,
                      "Budget, all in: Error: the total is not the sum of its quarters: a "
                      "formula was changed or typed over"),
    "pretraining-typed-over": ("default-es", "BudgetPretraining", 0, 1.0,
                               "Presupuesto, todo incluido: Error: el total no es la suma de "
                               "líneas: se cambió o sobrescribió una fórmula"),
}  # fmt: skip
SSCONVERT = shutil.which("ssconvert")


def same(want: Any, got: Any) -> bool:
    if isinstance(want, (int, float)) and not isinstance(want, bool):
        return isinstance(got, (int, float)) and math.isclose(
            want, got, rel_tol=1e-9, abs_tol=1e-9
        )
    return (want in (None, "") and got in (None, "")) or want == got


def _type_error(path, out, name: str, row: int, value: object = "=NA()") -> None:
    """``=NA()`` (or ``value``) typed over row ``row`` of the column ``name``."""
    wb = openpyxl.load_workbook(path)
    title, ref = wb.defined_names[name].attr_text.replace("$", "").rsplit("!", 1)
    first = ref.split(":")[0]
    col = "".join(ch for ch in first if ch.isalpha())
    ws = wb[title.strip("'")]
    ws[f"{col}{int(first[len(col) :]) + row}"] = value
    wb.save(out)


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    """{variant: (formulas, cached, LibreOffice's, Gnumeric's or None)}."""
    require_libreoffice()
    root = tmp_path_factory.mktemp("budget")
    built, stripped = {}, {"en": root / "en", "es": root / "es"}
    for d in stripped.values():
        d.mkdir()
    for name, (tpl, lang, values, _) in VARIANTS.items():
        b = build_template(tpl, lang, values)
        path = root / f"{name}.xlsx"
        save_workbook(b.workbook, path, b.cached)
        strip_cached_values(path, stripped[lang] / f"{name}.xlsx")
        built[name] = path
    for name, (base, column, row, _) in TYPED_ERRORS.items():
        lang = VARIANTS[base][1]
        _type_error(stripped[lang] / f"{base}.xlsx", stripped[lang] / f"{name}.xlsx",
                    column, row)  # fmt: skip
    for name, (base, column, row, value, _) in TYPED_OVER.items():
        lang = VARIANTS[base][1]
        _type_error(stripped[lang] / f"{base}.xlsx", stripped[lang] / f"{name}.xlsx",
                    column, row, value)  # fmt: skip
    lo = {}
    for lang, locale in (("en", "en-US"), ("es", "es-ES")):
        done = recalculate(
            sorted(stripped[lang].iterdir()), root / f"lo-{lang}", locale=locale
        )
        lo |= {p.stem: p for p in done}
    gnumeric = {}
    if SSCONVERT is not None:
        for name, (_, lang, _, _) in VARIANTS.items():
            if lang != "en":  # Gnumeric writes FIXED's figures in its C locale
                continue
            out = root / f"{name}-gnumeric.xlsx"
            subprocess.run(
                [SSCONVERT, "--recalc", str(stripped[lang] / f"{name}.xlsx"), str(out)],
                check=True, capture_output=True, timeout=300,
                env={**os.environ, "LC_ALL": "C"},
            )  # fmt: skip
            gnumeric[name] = openpyxl.load_workbook(out, data_only=True)
    out = {
        name: (
            openpyxl.load_workbook(path),
            openpyxl.load_workbook(path, data_only=True),
            openpyxl.load_workbook(lo[name], data_only=True),
            gnumeric.get(name),
        )
        for name, path in built.items()
    }
    for name in (*TYPED_ERRORS, *TYPED_OVER):
        out[name] = (None, None, openpyxl.load_workbook(lo[name], data_only=True), None)
    return out


def disagreements(formulas, cached, engine) -> tuple[int, list]:
    return workbook_tools.disagreements(formulas, cached, engine, same)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_libreoffice_computes_what_the_builder_cached(books, variant):
    formulas, cached, lo, _ = books[variant]
    compared, wrong = disagreements(formulas, cached, lo)
    assert not wrong, (len(wrong), wrong[:10])
    assert compared > 2000  # every formula cell of the workbook


@pytest.mark.parametrize("variant", [v for v in VARIANTS if VARIANTS[v][1] == "en"])
def test_gnumeric_computes_what_the_builder_cached(books, variant):
    formulas, cached, _, gnumeric = books[variant]
    if gnumeric is None:
        pytest.skip("Gnumeric is missing: apt-get install gnumeric")
    compared, wrong = disagreements(formulas, cached, gnumeric)
    assert not wrong, (len(wrong), wrong[:10])


@pytest.mark.parametrize("variant", [*VARIANTS, *TYPED_ERRORS])
def test_the_model_check_names_the_slip_and_no_raw_error_shows(books, variant):
    lo = books[variant][2]
    want = VARIANTS[variant][3] if variant in VARIANTS else TYPED_ERRORS[variant][3]
    assert str(named_values(lo, "ModelCheck")).startswith(want)
    for ws in lo.worksheets:
        for row in ws.iter_rows():
            for c in row:
                v = c.value
                bad = isinstance(v, str) and (v.startswith("#") or v.startswith("Err:"))
                if bad and (c.coordinate, v) != ("A1", "#N/A"):
                    bad = not _typed_over(variant, ws.title, c)
                assert not bad, (ws.title, c.coordinate, v)


def _typed_over(variant: str, title: str, cell) -> bool:
    """The input cell the variant typed =NA() into shows #N/A, as it must."""
    if variant not in TYPED_ERRORS:
        return False
    return cell.value == "#N/A" and title in (
        "Runs",
        "Prices",
        "Ejecuciones",
        "Precios",
    )


def numbers(values) -> list[float]:
    return [x for x in values if isinstance(x, (int, float))]


@pytest.mark.parametrize("variant", ["default-en", "default-es", "more-contingency"])
def test_the_total_is_the_months_and_covers_the_runs_with_contingency(books, variant):
    _, _, lo, _ = books[variant]
    total = named_values(lo, "BudgetTotal")
    assert total == pytest.approx(
        sum(numbers(named_values(lo, "MonthlyCost"))), rel=1e-12
    )
    costs, kinds = named_values(lo, "RunCost"), named_values(lo, "RunKindCode")
    training = sum(c for c, k in zip(costs, kinds) if k in (1, 2))
    # Every run is inside the year: the runs and the training's contingency.
    assert total >= sum(numbers(costs)) + named_values(lo, "Contingency") * training
    assert named_values(lo, "ModelCheck") == "OK"


def test_a_run_in_error_leaves_no_total_and_others_no_cost(books):
    for variant in ("gpus-text", "one-gpu-en", "mfu-35-es"):
        lo = books[variant][2]
        assert str(named_values(lo, "BudgetTotal")).startswith("n/")
        # No other run says it costs nothing: one row's problem is that row's.
        statuses = [s for s in named_values(lo, "CheckStatus") if s not in (None, "OK")]
        assert not any("costs nothing" in s or "no cuesta" in s for s in statuses), (
            statuses
        )


def test_runs_left_n_a_by_a_prices_row_name_the_prices_sheet(books):
    got = books["prices-twice-es"][2]  # LibreOffice, Spanish
    assert named_values(got, "RunCost")[:6] == ["n/d: ver Precios"] * 6


@pytest.mark.parametrize("engine", [2, 3], ids=["libreoffice", "gnumeric"])
def test_tied_runs_are_ranked_by_row_in_every_engine(books, engine):
    got = books["ties"][engine]
    if got is None:
        pytest.skip("Gnumeric is missing: apt-get install gnumeric")
    names = [named_values(got, f"CostliestRunName{k}") for k in (1, 2, 3)]
    assert names == ["Assistant 70B", "Twin A", "Twin B"]


def test_a_serving_line_by_requests_a_day_is_the_same_line(books):
    got = books["requests-es"][2]  # LibreOffice, Spanish
    assert named_values(got, "BudgetTotal") == pytest.approx(681_148.82, abs=0.01)
    assert named_values(got, "RunOutputMonth")[5] == pytest.approx(24e9, rel=1e-9)


def test_use_above_the_commitment_is_billed_at_on_demand(books):
    lo = books["above"][2]
    # 12 reserved GPUs' use against 8 committed, 10 months, at 3.99 - 2.72 USD.
    assert named_values(lo, "BudgetAbove") == pytest.approx(
        4 * 730 * 10 * (3.99 - 2.72), rel=1e-9
    )


@pytest.mark.parametrize("engine", [2, 3], ids=["libreoffice", "gnumeric"])
def test_reservations_of_one_model_add_up_and_a_missing_model_leaves_page_1_na(
    books, engine
):
    twice = books["same-model-twice"][engine]
    if twice is None:
        pytest.skip("Gnumeric is missing: apt-get install gnumeric")
    # Reservation 1's 12 H100s plus 12 more, idle: 12 × 730 h × 10 months ×
    # 2.72 USD, plus 10 % overheads, on the default 681,148.82 (issue 34).
    assert named_values(twice, "BudgetTotal") == pytest.approx(943_248.02, abs=0.01)
    peak = books["reserved-peak"][engine]
    assert named_values(peak, "MonthReservedUsed")[0] == 256  # all on the H100s
    after = named_values(books["default-en"][engine], "BudgetCommittedAfter")
    assert after == pytest.approx(12 * 730 * 2 * 2.72, rel=1e-12)  # months 13 and 14
    # 12 H100s at a contract's 2.00 USD, charged 2.72 on the Runs sheet: the
    # commitment's line takes back 12 × 730 h × 10 × 0.72, plus 10 % overheads.
    cheaper = books["contract-price"][engine]
    assert named_values(cheaper, "BudgetTotal") == pytest.approx(
        681_148.82 - 12 * 730 * 10 * 0.72 * 1.1, abs=0.01
    )
    for variant in ("no-model-en", "no-prices-row"):
        got = books[variant][engine]
        for name in ("BudgetTotal", "BudgetQ1", "BudgetIdle", "BudgetCommitted"):
            assert named_values(got, name) == "n/a: see Check", (variant, name)


@pytest.mark.parametrize("variant", list(TYPED_OVER))
def test_page_1_cross_casts_and_a_figure_typed_over_breaks_it(books, variant):
    lo = books[variant][2]
    assert named_values(lo, "ModelCheck") == TYPED_OVER[variant][4]
