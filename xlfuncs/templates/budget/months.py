"""The budget month by month: each run's cost and GPUs spread over the months it
runs, the reserved commitment and its idle cost, overheads and contingency, the
all-in cost a month (``MonthlyCost``), a chart, and scenarios against the base.

A run that starts in month s and lasts D months (its hours ÷ 730) is charged
in month m its cost × the share of it that falls in m: (min(m, s−1+D) −
max(m−1, s−1)) ÷ D, at least 0. Its GPUs count in m by the same share: the
average GPUs busy that month.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openpyxl.chart import BarChart, LineChart, Reference, Series
from openpyxl.chart.data_source import AxDataSource
from openpyxl.worksheet.pagebreak import Break

from ...registry.domains import Domain
from ...workbook import charts
from ...workbook import writer as wr
from ...workbook.writer import SheetWriter
from .. import texts as tx
from ..blocks import Check, Input
from ..expr import Expr, F, Guard, Ref, Span
from ..layout import Layout
from ..model import check_name, severity_name
from ..render import (
    CHART_ROWS,
    FACTOR,
    Item,
    check_line,
    note,
    place_chart,
    section,
    subhead,
)
from ..table import cell
from ..texts import T, Text
from .runs import HOURS_A_MONTH, MONTHS, RUN_ROWS

THOUSANDS = "#,##0,;-#,##0,;0"  # money in thousands: a year of runs fits a column
GPUS_FMT = "#,##0;-#,##0;0"
_K = T("thousands of {currency}", "miles de {currency}")

RESERVED = Input(
    "ReservedGPUsMonth", "", 0,
    T("GPUs reserved", "GPU reservadas"), T("GPUs", "GPU"),
    T("GPUs of the reserved model committed for the month: paid whether used or not.",
      "GPU del modelo reservado comprometidas en el mes: se pagan se usen o no."),
    domain=Domain(0.0, float("inf"), True, False, "be a whole number, 0 or more", whole=True),
    usual=False,
)  # fmt: skip
#: The commitment each month by default: none while the assistant is not served.
COMMITMENT = (0, 0) + (64,) * (MONTHS - 2)


def _share(k: int, m: int) -> Expr:
    """The share of run k's months that falls in month m."""
    s, d = Ref(cell("RunStart", k)), Ref(cell("RunDuration", k))
    return F.MAX(0, F.MIN(m, s - 1 + d) - F.MAX(m - 1, s - 1)) / d


def _spread(k: int, m: int, what: str, per_month: bool) -> Expr:
    """Run k's cost (or GPUs) in month m; blank when the run has none."""
    x = Ref(cell(what, k))
    tree = x * _share(k, m) * (Ref(cell("RunDuration", k)) if per_month else 1)
    return F.IFERROR(F.IF(F.ISNUMBER(Ref(cell("RunCost", k))), tree, ""), "")


def draw(lay: Layout, w: SheetWriter) -> None:
    months = [w.letter_key(k) for k in range(1, MONTHS + 1)]
    # Each run's months, in the model first: the rows above sum them, the chart
    # caches their sums, and the grids below show them.
    for k in range(1, RUN_ROWS + 1):
        for m in range(1, MONTHS + 1):
            lay.model.add(cell(f"RunMonthCost.{k}", m), _spread(k, m, "RunCost", False))
            lay.model.add(
                cell(f"RunMonthGPUs.{k}", m), _spread(k, m, "RunGPUsUsed", True)
            )
    section(lay, w, T("Month by month", "Mes a mes"))
    note(lay, w, T(
        "Each run's cost is spread over the months it runs, in proportion to its time; a "
        "serving line costs the same each month. Money in thousands. Type the GPUs "
        "reserved each month in the yellow row: they are paid whether used or not.",
        "El coste de cada ejecución se reparte entre los meses en que corre, en proporción "
        "a su tiempo; un servicio cuesta lo mismo cada mes. Dinero en miles. Escriba las "
        "GPU reservadas de cada mes en la fila amarilla: se pagan se usen o no."))  # fmt: skip
    w.next()
    w.put("label", lay.t(T("Month", "Mes")), wr.HEADER)
    for m, key in enumerate(months, start=1):
        date = F.DATE(F.YEAR(Ref("PlanStart")), F.MONTH(Ref("PlanStart")) + (m - 1), 1)
        # A first month that is no date (blank is 1900's day 0 to a spreadsheet,
        # which engines date differently): M1, M2… instead.
        valid = Ref(severity_name(check_name("PlanStart"))).lt(2)
        date = F.IF(valid, date, f"M{m}")
        lay.formula(
            w,
            key,
            F.IFERROR(date, m),
            wr.HEADER_CENTRED.but(fmt="mmm yy"),
            name=f"MonthHead.{m}",
        )
    # Money adds up over the year; GPUs and shares do not: their peak month.
    w.put("how", lay.t(T("Year: sum or peak", "Año: suma o máximo")), wr.HEADER_CENTRED)
    head_row = w.row

    rows: dict[str, list[str]] = {}
    items: list[Item] = []

    def line(name: str, label: Text, trees: Sequence[Expr], fmt: str, total: str,
             style: wr.Style = wr.RESULT, unit: Text | None = None) -> None:  # fmt: skip
        w.next()
        if unit is None:
            w.put(
                "label", lay.t(label), wr.BOLD if style is wr.KEY_RESULT else wr.WRAPPED
            )
        else:
            lay.label(w, "label", label, unit, wr.WRAPPED)
        rows[name] = [
            lay.formula(w, key, Guard(tree), style.but(fmt=fmt), name=f"{name}.{m}")
            for m, (key, tree) in enumerate(zip(months, trees), start=1)
        ]
        span = Span(rows[name], across=True)
        w.define_range(name, months[0], months[-1], w.row, w.row)
        lay.public.add(name)
        lay.model.add(name, span)
        year = F.SUM(Ref(name)) if total == "sum" else F.MAX(Ref(name))
        lay.formula(w, "how", year, style.but(fmt=fmt), name=f"{name}Year")

    # The commitment, typed month by month.
    w.next()
    w.put("label", lay.t(RESERVED.label), wr.BOLD)
    reserved = []
    for m, key in enumerate(months, start=1):
        name = lay.typed(w, key, RESERVED, COMMITMENT[m - 1], name=f"ReservedGPUs.{m}")
        lay.model.add(name, value=COMMITMENT[m - 1])
        reserved.append(name)
        where = RESERVED.label + f" {w.coord(key)}"
        items.append((where, lay.model.case_checks(RESERVED, name), [name]))
    w.define_range("MonthReserved", months[0], months[-1], w.row, w.row)
    lay.public.add("MonthReserved")
    lay.model.add("MonthReserved", Span(reserved, across=True))
    lay.formula(w, "how", F.MAX(Ref("MonthReserved")), wr.RESULT.but(fmt=GPUS_FMT))

    cost = [[cell(f"RunMonthCost.{k}", m) for k in range(1, RUN_ROWS + 1)]
            for m in range(1, MONTHS + 1)]  # fmt: skip
    gpus = [[cell(f"RunMonthGPUs.{k}", m) for k in range(1, RUN_ROWS + 1)]
            for m in range(1, MONTHS + 1)]  # fmt: skip
    by_kind = [
        ("MonthPretraining", T("Pre-training", "Preentrenamiento"), 1),
        ("MonthFinetuning", T("Fine-tuning", "Ajuste fino"), 2),
        ("MonthServing", T("Serving", "Servicio"), 3),
    ]
    w.next()
    lay.label(w, "label", T("Cost", "Coste"), _K, wr.BOLD)
    w.fit(2)
    for name, label, k in by_kind:
        line(name, label, [F.SUMIF(Ref("RunKindCode"), k, Span(c)) for c in cost],
             THOUSANDS, "sum")  # fmt: skip
    runs = [Ref(f"{n}.{m}") for m in range(1, MONTHS + 1) for n, _, _ in by_kind]
    runs_m = [runs[3 * i] + runs[3 * i + 1] + runs[3 * i + 2] for i in range(MONTHS)]
    used = [F.SUMIF(Ref("RunTierCode"), 2, Span(g)) for g in gpus]
    idle_gpus = [F.MAX(0, Ref(r) - u) for r, u in zip(reserved, used)]
    line("MonthIdle", T("Reserved, idle", "Reservada, ociosa"),
         [F.IFERROR(i * HOURS_A_MONTH * Ref("ReservedPrice"), 0) for i in idle_gpus],
         THOUSANDS, "sum")  # fmt: skip
    line("MonthOverheads", T("Overheads", "Gastos generales"),
         [Ref("OverheadShare") * (r + Ref(f"MonthIdle.{m}")) + Ref("OverheadMonthly")
          for m, r in enumerate(runs_m, start=1)], THOUSANDS, "sum")  # fmt: skip
    line(
        "MonthContingency",
        T("Contingency", "Contingencia"),
        [Ref("Contingency") * r for r in runs_m],
        THOUSANDS,
        "sum",
    )
    line("MonthlyCost", T("All-in cost", "Coste total"),
         [r + Ref(f"MonthIdle.{m}") + Ref(f"MonthOverheads.{m}") + Ref(f"MonthContingency.{m}")
          for m, r in enumerate(runs_m, start=1)], THOUSANDS, "sum", wr.KEY_RESULT)  # fmt: skip
    cumulative: list[Expr] = [Ref("MonthlyCost.1")]
    for m in range(2, MONTHS + 1):
        cumulative.append(Ref(f"MonthCumulative.{m - 1}") + Ref(f"MonthlyCost.{m}"))
    line("MonthCumulative", T("Cumulative", "Acumulado"), cumulative, THOUSANDS, "max")
    subhead(lay, w, T("Capacity", "Capacidad"))
    line(
        "MonthGPUs",
        T("GPUs in use, average", "GPU en uso, media"),
        [F.SUM(Span(g)) for g in gpus],
        GPUS_FMT,
        "max",
    )
    line("MonthReservedUsed", T("of them reserved", "de ellas reservadas"), used, GPUS_FMT,
         "max")  # fmt: skip
    line("MonthGPUsActive", T("GPUs of active runs", "GPU de ejecuciones activas"),
         [F.SUMIF(Span(g), ">0", Ref("RunGPUsUsed")) for g in gpus], GPUS_FMT, "max")  # fmt: skip
    line("MonthCommitmentUse", T("Commitment used", "Compromiso usado"),
         [F.IF(Ref(r).gt(0), Ref(f"MonthReservedUsed.{m}") / Ref(r), "")
          for m, r in enumerate(reserved, start=1)], "0%", "max")  # fmt: skip
    for m, r in enumerate(reserved, start=1):
        over = Check(Ref(f"MonthReservedUsed.{m}").le(Ref(r) + 1e-9),
                     T(f"Warning: month {m}: reserved runs use more GPUs than committed",
                       f"Aviso: mes {m}: las ejecuciones reservadas usan más GPU que las "
                       "comprometidas"), error=False)  # fmt: skip
        items.append((T(f"month {m}", f"mes {m}"), [over], []))
    check_line(lay, w, items, T("Months", "Meses"))
    w.ws.row_breaks.append(Break(id=w.row))  # the chart on a page of its own
    _chart(lay, w, head_row, months, rows)


def draw_grids(lay: Layout, w: SheetWriter) -> None:
    """Each run's cost and GPUs, month by month: where the totals come from."""
    months = [w.letter_key(k) for k in range(1, MONTHS + 1)]
    _grid(lay, w, months, T("Cost by run and month", "Coste por ejecución y mes"), _K,
          "RunMonthCost", "RunCost", "#,##0.0,;-#,##0.0,;", per_month=False)  # fmt: skip
    _grid(lay, w, months, T("GPUs by run and month (average in use)",
                            "GPU por ejecución y mes (media en uso)"), T("GPUs", "GPU"),
          "RunMonthGPUs", "RunGPUsUsed", "#,##0.0;-#,##0.0;", per_month=True)  # fmt: skip


def _grid(lay: Layout, w: SheetWriter, months: list[str], title: Text, unit: Text,
          prefix: str, what: str, fmt: str, *, per_month: bool) -> None:  # fmt: skip
    """One row a run: its cost or GPUs in each month."""
    section(lay, w, title)
    w.next()
    lay.label(w, "label", "", unit, wr.NOTE)
    w.next()
    w.put("label", lay.t(T("Run", "Ejecución")), wr.HEADER)
    for m, key in enumerate(months, start=1):
        lay.formula(w, key, Ref(f"MonthHead.{m}"), wr.HEADER_CENTRED.but(fmt="mmm yy"))
    year_head = T("Year: peak", "Año: máximo") if per_month else T("Year", "Año")
    w.put("how", lay.t(year_head), wr.HEADER_CENTRED)
    for k in range(1, RUN_ROWS + 1):
        w.next()
        name = Ref(cell("RunName", k))
        lay.formula(w, "label", F.IF(F.LEN(F.TRIM(name)).eq(0), "", name), wr.WRAPPED)
        placed = [
            lay.formula(w, key, None, wr.BODY.but(fmt=fmt), name=cell(f"{prefix}.{k}", m))
            for m, key in enumerate(months, start=1)
        ]  # fmt: skip
        year = (
            F.SUM(Span(placed, across=True))
            if not per_month
            else F.MAX(Span(placed, across=True))
        )
        lay.formula(
            w, "how", F.IF(F.LEN(F.TRIM(name)).eq(0), "", year), wr.BODY.but(fmt=fmt)
        )


def _chart(lay: Layout, w: SheetWriter, head_row: int, months: list[str],
           rows: dict[str, list[str]]) -> None:  # fmt: skip
    """Monthly cost stacked by kind, cumulative spend as a line on its own
    axis; each series carries its values, for viewers that do not calculate."""
    bar = BarChart()
    bar.type, bar.grouping, bar.overlap = "col", "stacked", 100
    bar.title = lay.t(T("Monthly cost by kind, and cumulative spend",
                        "Coste mensual por tipo, y gasto acumulado"))  # fmt: skip
    bar.y_axis.title = lay.t(T("thousands a month", "miles al mes"))
    bar.y_axis.number_format = "#,##0,"
    bar.x_axis.number_format = "mmm yy"
    bar.height = CHART_ROWS * 13 * 0.0353
    bar.width = 24
    first, last = w.letter(months[0]), w.letter(months[-1])
    dates = [_number(lay.model.value(f"MonthHead.{m}")) for m in range(1, MONTHS + 1)]
    cats = charts.numbers(
        f"{_q(w)}!${first}${head_row}:${last}${head_row}", dates, "mmm yy"
    )

    def one(name: str, label: Text) -> Any:  # openpyxl's Series
        r = _row_of(lay, rows[name][0])
        ref = f"{_q(w)}!${first}${r}:${last}${r}"
        s = Series(Reference(range_string=ref), title=lay.t(label))
        s.val.numRef = charts.numbers(ref, [_number(lay.model.value(n)) for n in rows[name]],
                                      "#,##0")  # fmt: skip
        s.cat = AxDataSource(numRef=cats)
        return s

    colours = (*charts.COLOURS, "7F7F7F", "A5A5A5")
    for k, (name, label) in enumerate(LABELS.items()):
        s = one(name, label)
        s.graphicalProperties.solidFill = colours[k]
        bar.series.append(s)
    line = LineChart()
    cum = one("MonthCumulative", T("Cumulative", "Acumulado"))
    cum.graphicalProperties.line.solidFill = "000000"
    cum.smooth = False  # a spend is month by month: straight segments, no dip
    line.series.append(cum)
    line.y_axis.axId = 200
    line.y_axis.title = lay.t(T("thousands, cumulative", "miles, acumulado"))
    line.y_axis.number_format = "#,##0,"
    line.y_axis.crosses = "max"
    bar += line
    bar.legend.position = "b"
    place_chart(w, bar)


def _number(v: object) -> float | None:
    return float(v) if isinstance(v, float) else None


LABELS = {
    "MonthPretraining": T("Pre-training", "Preentrenamiento"),
    "MonthFinetuning": T("Fine-tuning", "Ajuste fino"),
    "MonthServing": T("Serving", "Servicio"),
    "MonthIdle": T("Reserved, idle", "Reservada, ociosa"),
    "MonthOverheads": T("Overheads", "Gastos generales"),
    "MonthContingency": T("Contingency", "Contingencia"),
}


def _q(w: SheetWriter) -> str:
    return "'" + w.title.replace("'", "''") + "'"


def _row_of(lay: Layout, name: str) -> int:
    coord = lay.places[name][1]
    return int("".join(ch for ch in coord if ch.isdigit()))


# ------------------------------------------------------------------ scenarios

SCENARIOS = (
    (T("Cheaper GPUs", "GPU más baratas"), 0.8, 1.0, 0.0),
    (T("Dearer GPUs", "GPU más caras"), 1.25, 1.0, 0.0),
    (T("Lower MFU", "MFU menor"), 1.0, 0.8, 0.0),
    (T("More contingency", "Más contingencia"), 1.0, 1.0, 0.1),
)
EXTRA = Input(
    "ScenarioContingency", "", 0.0,
    T("Contingency added", "Contingencia añadida"), T("points", "puntos"),
    T("Added to the contingency: 10% makes 11 % into 21 %.",
      "Se suma a la contingencia: 10 % convierte un 11 % en un 21 %."),
    fmt=tx.PERCENT_FMT, usual=False,
    domain=Domain(-1.0, 1.0, True, True, "be from -100% to 100%"),
)  # fmt: skip


def draw_scenarios(lay: Layout, w: SheetWriter) -> None:
    """The total under other prices, MFU and contingency, against the base."""
    cols = [w.letter_key(k) for k in range(2, 2 + len(SCENARIOS))]
    section(lay, w, T("Scenarios against the base", "Escenarios frente a la base"))
    note(lay, w, T(
        "Each case multiplies every price (the commitment's too) and every MFU-based "
        "training speed by the factors in its column, and adds to the contingency. "
        "Runs keep their months: a slower run is charged where it started.",
        "Cada caso multiplica todos los precios (también el del compromiso) y toda "
        "velocidad de entrenamiento basada en la MFU por los factores de su columna, y "
        "suma a la contingencia. Las ejecuciones mantienen sus meses: una más lenta se "
        "carga donde empezó."))  # fmt: skip
    w.next()
    w.put("label", lay.t(T("Scenario", "Escenario")), wr.HEADER)
    w.put("value", lay.t(tx.BASE), wr.HEADER_CENTRED)
    for c, (label, *_) in zip(cols, SCENARIOS):
        w.put(c, lay.t(label), wr.HEADER_CENTRED)
    w.fit(3)  # "Más contingencia" in a column of 8
    items: list[Item] = []
    cells: list[dict[str, str]] = [{} for _ in SCENARIOS]
    for what, label, k, inp in (("p", T("Price ×", "Precio ×"), 1, FACTOR),
                                ("f", T("MFU ×", "MFU ×"), 2, FACTOR),
                                ("d", T("Contingency +", "Contingencia +"), 3, EXTRA)):  # fmt: skip
        w.next()
        w.put("label", lay.t(label), wr.WRAPPED)
        for c, case, here in zip(cols, SCENARIOS, cells):
            here[what] = lay.typed(w, c, inp, case[k])
            items.append((case[0] + ", " + label, lay.model.case_checks(inp, here[what]),
                          [here[what]]))  # fmt: skip
    check_line(lay, w, items, T("Scenarios", "Escenarios"))
    runs = (
        F.SUM(Ref("MonthPretraining"))
        + F.SUM(Ref("MonthFinetuning"))
        + F.SUM(Ref("MonthServing"))
    )
    mfu = F.MIN(runs, F.SUMIF(Ref("RunMFUBased"), 1, Ref("RunCost")))
    idle = F.SUM(Ref("MonthIdle"))
    w.next()
    lay.label(w, "label", T("All-in total", "Total"), _K, wr.BOLD)
    w.fit(2)
    lay.formula(w, "value", Ref("BudgetTotal"), wr.KEY_RESULT.but(fmt=THOUSANDS))
    totals: list[str] = []
    for c, here in zip(cols, cells):
        p, f, d = Ref(here["p"]), Ref(here["f"]), Ref(here["d"])
        after = p * (runs - mfu + mfu / f)
        tree = (Ref("BudgetTotal") + (after - runs) * (1 + Ref("OverheadShare") + Ref("Contingency"))
                + d * after + (p - 1) * idle * (1 + Ref("OverheadShare")))  # fmt: skip
        totals.append(lay.formula(w, c, Guard(tree), wr.KEY_RESULT.but(fmt=THOUSANDS),
                                  name=f"ScenarioTotal.{len(totals) + 1}"))  # fmt: skip
    w.next()
    w.put("label", lay.t(T("Against the base", "Frente a la base")), wr.WRAPPED)
    for c, t in zip(cols, totals):
        change = F.IFERROR(Ref(t) / Ref("BudgetTotal") - 1, "")
        lay.formula(w, c, change, wr.RESULT.but(fmt="+0%;-0%;0%"))


__all__ = ["COMMITMENT", "RESERVED", "draw", "draw_scenarios"]
