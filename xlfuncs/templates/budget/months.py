"""The budget month by month, as months grids
(:class:`~xlfuncs.templates.blocks.MonthGrid`): each run's cost and GPUs spread
over the months it runs, the reserved commitments by GPU model with their use,
idle cost and use above them, overheads, contingency and experiments, the
all-in cost a month (``MonthlyCost``) and its chart, and scenarios against the
base.

A run that starts in month s and lasts D months (its hours ÷ 730), finishing
at f = s − 1 + D, runs min(m, f) − max(m, s) + 1 of month m (at least 0): it is
charged its cost a month (cost ÷ D) times that, and its GPUs count by the same
share, the average GPUs busy that month.
"""

from __future__ import annotations

from collections.abc import Callable

from ...registry.domains import Domain
from ...workbook import writer as wr
from ...workbook.writer import SheetWriter
from .. import texts as tx
from ..blocks import Check, Heading, Input, Line, MonthChart, MonthGrid
from ..expr import Expr, F, Guard, Ref, Say, Span
from ..layout import Layout
from ..monthgrid import COUNTER
from ..monthgrid import cell as month
from ..render import FACTOR, Item, check_line, note, section
from ..table import cell
from ..texts import T
from .reservations import RESERVATION_ROWS
from .runs import MONTHS, PRICE_ROWS, RUN_ROWS

THOUSANDS = "#,##0,;-#,##0,;0"  # money in thousands: a year of runs fits a column
GPUS_FMT = "#,##0;-#,##0;0"
IN_THOUSANDS = T("thousands of {currency}", "miles de {currency}")


_START = "PlanStart"


def _spread(k: int, m: int, what: str) -> Expr:
    """Run k's ``what`` a month (cost, GPUs) times the share of month m it runs;
    blank when the row has none."""
    x, n = Ref(cell(what, k)), Ref(month(COUNTER, m))
    share = F.MAX(
        0, F.MIN(n, Ref(cell("RunFinish", k))) - F.MAX(n, Ref(cell("RunStart", k))) + 1
    )
    return F.IF(F.ISNUMBER(x), x * share, "")


def _runs(what: str, m: int) -> Span:
    """Month m's cells of every run's line of ``what`` (a column of its grid)."""
    return Span([month(f"{what}.{k}", m) for k in range(1, RUN_ROWS + 1)])


def _run_name(k: int) -> Expr:
    return F.IF(
        Ref(cell("RunNameUsed", k)), F.IFERROR(Ref(cell("RunName", k)).cat(""), ""), ""
    )


def _sum(*names: str) -> Callable[[int], Expr]:
    def tree(m: int) -> Expr:
        out: Expr = Ref(month(names[0], m))
        for n in names[1:]:
            out = out + Ref(month(n, m))
        return out

    return tree


_RUNS = ("MonthPretraining", "MonthFinetuning", "MonthServing")


def _column(what: str, m: int, rows: int) -> Span:
    """Month m's cells of a grid's lines ``what.1`` … ``what.{rows}``."""
    return Span([month(f"{what}.{k}", m) for k in range(1, rows + 1)])


def _models(what: str, m: int) -> Span:
    """Month m's cells of a by-model block's eight lines (``what1`` …)."""
    return Span([month(f"{what}{i}", m) for i in range(1, PRICE_ROWS + 1)])


def _gpu_name(i: int) -> Expr:
    gpu = Ref(cell("PriceGPU", i))
    return F.IF(F.ISBLANK(gpu), "", F.IFERROR(gpu.cat(""), ""))


def _by_model(name: str, tree: Callable[[int, int, Expr], Expr], fmt: str = GPUS_FMT,
              year: str = "max") -> tuple[Line, ...]:  # fmt: skip
    """A line for each of the Prices sheet's GPU models (row i), blank for a
    row with no GPU: ``tree(i, m, row)`` over the model's row on the Data sheet."""

    def line(i: int) -> Line:
        row = Ref(cell("PriceGPURow", i))
        return Line(f"{name}{i}", _gpu_name(i),
                    lambda m: F.IF(F.ISNUMBER(row), tree(i, m, row), ""), fmt, year,
                    public=False)  # fmt: skip

    return tuple(line(i) for i in range(1, PRICE_ROWS + 1))


def _reserved_runs(row: Expr) -> tuple[Expr | int, ...]:
    return (Ref("RunTierCode"), 2, Ref("RunGPURow"), row)


def _needed(i: int, m: int, row: Expr) -> Expr:
    """Every run of the model active in the month, counted whole: ops buy GPUs
    at once, not GPU-months."""
    return F.SUMIFS(
        Ref("RunGPUsUsed"), Ref("RunGPURow"), row, _runs("RunMonthGPUs", m), ">0"
    )


def _committed(i: int, m: int, row: Expr) -> Expr:
    """The model's commitments in the month, added up."""
    return F.SUMIFS(_column("ReservationMonthGPUs", m, RESERVATION_ROWS),
                    Ref("ReservationGPURow"), row)  # fmt: skip


def _at_once(i: int, m: int, row: Expr) -> Expr:
    return F.SUMIFS(
        Ref("RunGPUsUsed"), *_reserved_runs(row), _runs("RunMonthGPUs", m), ">0"
    )


def _average(i: int, m: int, row: Expr) -> Expr:
    return F.SUMIFS(_runs("RunMonthGPUs", m), *_reserved_runs(row))


def _filled(i: int, m: int, row: Expr) -> Expr:
    """The reserved runs' average GPUs within the commitment: all of them while
    their GPUs at once fit it, else the share the commitment holds."""
    at_once, average = (
        Ref(month(f"MonthReservedAtOnce{i}", m)),
        Ref(month(f"MonthReservedAverage{i}", m)),
    )
    committed = Ref(month(f"MonthCommitted{i}", m))
    return F.IF(at_once.gt(committed), average * committed / at_once, average)


def _commitment_cost(i: int, m: int, row: Expr) -> Expr:
    return F.SUMIFS(_column("ReservationMonthCost", m, RESERVATION_ROWS),
                    Ref("ReservationGPURow"), row)  # fmt: skip


def _idle(i: int, m: int, row: Expr) -> Expr:
    """The commitments' cost less what the runs within them are charged at the
    Prices sheet's reserved price: the idle GPU-hours (and a contract price
    that differs from the Prices sheet's)."""
    used = (
        Ref(month(f"MonthFilled{i}", m))
        * Ref("HoursAMonth")
        * Ref(cell("PriceReserved", i))
    )
    return Ref(month(f"MonthCommitCost{i}", m)) - used


def _above(i: int, m: int, row: Expr) -> Expr:
    """The reserved runs' GPU-hours above the commitment, billed on demand:
    charged reserved on the Runs sheet, the difference here."""
    over = Ref(month(f"MonthReservedAverage{i}", m)) - Ref(month(f"MonthFilled{i}", m))
    premium = Ref(cell("PriceOnDemand", i)) - Ref(cell("PriceReserved", i))
    return over * Ref("HoursAMonth") * premium


MONTH_LINES: tuple[Line | Heading, ...] = (
    Heading(T("Cost", "Coste"), IN_THOUSANDS),
    Line("MonthPretraining", T("Pre-training", "Preentrenamiento"),
         lambda m: F.SUMIF(Ref("RunKindCode"), 1, _runs("RunMonthCost", m)), THOUSANDS),
    Line("MonthFinetuning", T("Fine-tuning", "Ajuste fino"),
         lambda m: F.SUMIF(Ref("RunKindCode"), 2, _runs("RunMonthCost", m)), THOUSANDS),
    Line("MonthServing", T("Serving", "Servicio"),
         lambda m: F.SUMIF(Ref("RunKindCode"), 3, _runs("RunMonthCost", m)), THOUSANDS),
    Line("MonthIdle", T("Reserved, idle", "Reservada, ociosa"),
         lambda m: F.SUM(_models("MonthIdle", m)), THOUSANDS),
    Line("MonthAbove", T("Above the commitment", "Por encima del compromiso"),
         lambda m: F.SUM(_models("MonthAbove", m)), THOUSANDS),
    Line("MonthOverheads", T("Overheads", "Gastos generales"),
         lambda m: Ref("OverheadShare") * _sum(*_RUNS, "MonthIdle", "MonthAbove")(m)
         + Ref("OverheadMonthly"), THOUSANDS),
    Line("MonthContingency", T("Contingency, training", "Contingencia, entrenamiento"),
         lambda m: Ref("Contingency") * _sum("MonthPretraining", "MonthFinetuning")(m), THOUSANDS),
    Line("MonthServingContingency", T("Contingency, serving", "Contingencia, servicio"),
         lambda m: Ref("ServingContingency") * Ref(month("MonthServing", m)), THOUSANDS),
    Line("MonthExperiments", T("Experiments before the runs", "Experimentos previos"),
         lambda m: (Ref("ExperimentsMultiplier") - 1)
         * _sum("MonthPretraining", "MonthFinetuning")(m), THOUSANDS),
    Line("MonthlyCost", T("All-in cost", "Coste total"),
         _sum(*_RUNS, "MonthIdle", "MonthAbove", "MonthOverheads", "MonthContingency",
              "MonthServingContingency", "MonthExperiments"), THOUSANDS, key=True),
    Line("MonthCumulative", T("Cumulative", "Acumulado"),
         lambda m: F.SUM(Span([month("MonthlyCost", i) for i in range(1, m + 1)],
                              across=True, anchored=True)),
         THOUSANDS, "max"),
    Heading(T("Capacity", "Capacidad"), T("GPUs", "GPU")),
    Line("MonthGPUs", T("GPUs in use, average", "GPU en uso, media"),
         lambda m: F.SUM(_runs("RunMonthGPUs", m)), GPUS_FMT, "max"),
    Line("MonthGPUsActive", T("GPUs of active runs", "GPU de ejecuciones activas"),
         lambda m: F.SUMIF(_runs("RunMonthGPUs", m), ">0", Ref("RunGPUsUsed")), GPUS_FMT, "max"),
    Line("MonthReserved", T("Reserved, committed", "Reservadas, comprometidas"),
         lambda m: F.SUM(_models("MonthCommitted", m)), GPUS_FMT, "max"),
    Line("MonthReservedUsed", T("Reserved runs' GPUs at once", "GPU de ejecuciones reservadas a la vez"),
         lambda m: F.SUM(_models("MonthReservedAtOnce", m)), GPUS_FMT, "max"),
    Line("MonthReservedFilled", T("Committed GPUs used, average", "GPU comprometidas usadas, media"),
         lambda m: F.SUM(_models("MonthFilled", m)), GPUS_FMT, "max"),
    Line("MonthCommitmentUse", T("Commitment used", "Compromiso usado"),
         lambda m: F.IF(Ref(month("MonthReserved", m)).gt(0),
                        Ref(month("MonthReservedFilled", m)) / Ref(month("MonthReserved", m)),
                        ""), "0%", "max"),
    Heading(T("Needed at once, by model", "Necesarias a la vez, por modelo"), T("GPUs", "GPU")),
    *_by_model("MonthGPUsModel", _needed),
    Heading(T("Committed, by model", "Comprometidas, por modelo"), T("GPUs", "GPU")),
    *_by_model("MonthCommitted", _committed),
    Heading(T("Needed less committed (+: on demand or spot)", "Necesarias menos comprometidas (+: bajo demanda o spot)"), T("GPUs", "GPU")),
    *_by_model("MonthGap", lambda i, m, row: Ref(month(f"MonthGPUsModel{i}", m))
               - Ref(month(f"MonthCommitted{i}", m))),
    Heading(T("Reserved runs, at once", "Ejecuciones reservadas, a la vez"), T("GPUs", "GPU")),
    *_by_model("MonthReservedAtOnce", _at_once),
    Heading(T("Reserved runs, average", "Ejecuciones reservadas, media"), T("GPUs", "GPU")),
    *_by_model("MonthReservedAverage", _average, "#,##0.0;-#,##0.0;0"),
    Heading(T("Of them committed, average", "De ellas comprometidas, media"), T("GPUs", "GPU")),
    *_by_model("MonthFilled", _filled, "#,##0.0;-#,##0.0;0"),
    Heading(T("Commitments' cost", "Coste de los compromisos"), IN_THOUSANDS),
    *_by_model("MonthCommitCost", _commitment_cost, THOUSANDS, "sum"),
    Heading(T("Reserved, idle", "Reservada, ociosa"), IN_THOUSANDS),
    *_by_model("MonthIdle", _idle, THOUSANDS, "sum"),
    Heading(T("Above the commitment", "Por encima del compromiso"), IN_THOUSANDS),
    *_by_model("MonthAbove", _above, THOUSANDS, "sum"),
)  # fmt: skip

_ABOVE_WARNINGS = tuple(
    (T(f"month {m}", f"mes {m}"),
     Check(F.OR(F.NOT(F.ISNUMBER(Ref(month("MonthAbove", m)))), Ref(month("MonthAbove", m)).le(0)),
           T("Warning: reserved runs use more GPUs than committed: the excess is billed "
             "on demand",
             "Aviso: las ejecuciones reservadas usan más GPU que las comprometidas: el "
             "exceso se factura bajo demanda"), error=False))
    for m in range(1, MONTHS + 1)
) + tuple(
    (T(f"GPU model {i} (Prices sheet)", f"modelo de GPU {i} (hoja Precios)"),
     Check(F.SUM(Span([month(f"MonthAbove{i}", m) for m in range(1, MONTHS + 1)],
                      across=True)).le(0),
           Say(T("Warning: reserved runs on ", "Aviso: las ejecuciones reservadas en ")).cat(
               _gpu_name(i),
               T(" need more GPUs at once than committed: the excess is billed on demand",
                 " necesitan más GPU a la vez que las comprometidas: el exceso se factura "
                 "bajo demanda")), error=False))
    for i in range(1, PRICE_ROWS + 1)
)  # fmt: skip

MONTHS_GRID = MonthGrid(
    T("Month by month", "Mes a mes"),
    T("Each run's cost is spread over the months it runs, in proportion to its time; a "
      "serving line costs the same each month. Money in thousands. The commitments "
      "(Prices sheet) are paid whether used or not; the reserved runs of a GPU model "
      "fill them, counted at once, and the GPUs they need above them are billed on "
      "demand. Below, a line for each GPU model of the Prices sheet: needed at once "
      "(every run active in the month), committed, and the gap; the idle cost is the "
      "commitments' cost less what the runs within them are charged.",
      "El coste de cada ejecución se reparte entre los meses en que corre, en proporción "
      "a su tiempo; un servicio cuesta lo mismo cada mes. Dinero en miles. Los compromisos "
      "(hoja Precios) se pagan se usen o no; las ejecuciones reservadas de un modelo de "
      "GPU los llenan, contadas a la vez, y las GPU que necesitan por encima se facturan "
      "bajo demanda. Debajo, una línea por modelo de GPU de la hoja Precios: necesarias a "
      "la vez (toda ejecución activa en el mes), comprometidas y la diferencia; el coste "
      "ocioso es el coste de los compromisos menos lo que se cobra a las ejecuciones "
      "dentro de ellos."),
    _START, MONTHS, MONTH_LINES, T("Month", "Mes"), T("Year: sum or peak", "Año: suma o máximo"),
    checks=_ABOVE_WARNINGS,
)  # fmt: skip

LABELS = (
    T("Pre-training", "Preentrenamiento"), T("Fine-tuning", "Ajuste fino"),
    T("Serving", "Servicio"), T("Reserved, idle", "Reservada, ociosa"),
    T("Above the commitment", "Por encima del compromiso"),
    T("Overheads", "Gastos generales"), T("Contingency, training", "Contingencia, entrenamiento"),
    T("Contingency, serving", "Contingencia, servicio"),
    T("Experiments", "Experimentos"), T("Cumulative", "Acumulado"),
)  # fmt: skip
CHART = MonthChart(
    T("Monthly cost by kind, and cumulative spend", "Coste mensual por tipo, y gasto acumulado"),
    (*_RUNS, "MonthIdle", "MonthAbove", "MonthOverheads", "MonthContingency",
     "MonthServingContingency", "MonthExperiments"),
    "MonthCumulative", T("thousands a month", "miles al mes"),
    T("thousands, cumulative", "miles, acumulado"), LABELS,
)  # fmt: skip


def _run_lines(what: str, of: str, year: str, fmt: str) -> tuple[Line, ...]:
    """A line a run: its ``of`` a month (cost, GPUs) over the months it runs."""

    def line(k: int) -> Line:
        return Line(f"{what}.{k}", _run_name(k), lambda m: _spread(k, m, of),
                    fmt, year, public=False, guard=False)  # fmt: skip

    return tuple(line(k) for k in range(1, RUN_ROWS + 1))


RUN_COSTS = MonthGrid(
    T("Cost by run and month", "Coste por ejecución y mes"), None, _START, MONTHS,
    (Heading(T("", ""), IN_THOUSANDS), *_run_lines("RunMonthCost", "RunMonthly", "sum", "#,##0.0,;-#,##0.0,;")),
    T("Run", "Ejecución"), T("Year", "Año"), first=False,
)  # fmt: skip
RUN_GPUS = MonthGrid(
    T("GPUs by run and month (average in use)", "GPU por ejecución y mes (media en uso)"),
    None, _START, MONTHS,
    (Heading(T("", ""), T("GPUs", "GPU")), *_run_lines("RunMonthGPUs", "RunGPUsUsed", "max", "#,##0.0;-#,##0.0;")),
    T("Run", "Ejecución"), T("Year: peak", "Año: máximo"), first=False,
)  # fmt: skip


# ------------------------------------------------------------------ scenarios

SCENARIOS = (
    (T("Cheaper GPUs", "GPU más baratas"), 0.8, 1.0, 0.0),
    (T("Dearer GPUs", "GPU más caras"), 1.25, 1.0, 0.0),
    # Llama 3.1 70B's published GPU-hours imply 25 % MFU all in; the Llama 3
    # paper's 405B steps ran at 38-43 % (Table 4): about 0.6 of a well-tuned MFU.
    (T("All-in MFU", "MFU con todo"), 1.0, 0.6, 0.0),
    # Each word of a label fits the column of 8 (no "conting-ency" in print).
    (T("More risk", "Más riesgo"), 1.0, 1.0, 0.1),
)
EXTRA = Input(
    "ScenarioContingency", "", 0.0,
    T("Contingency added", "Contingencia añadida"), T("points", "puntos"),
    T("Added to the training contingency: 10% makes 11 % into 21 %.",
      "Se suma a la contingencia de entrenamiento: 10 % convierte un 11 % en un 21 %."),
    fmt=tx.PERCENT_FMT, usual=False,
    domain=Domain(-1.0, 1.0, True, True, "be from -100% to 100%"),
)  # fmt: skip


def draw_scenarios(lay: Layout, w: SheetWriter) -> None:
    """The total under other prices, MFU and contingency, against the base.

    The budget's one hand-drawn block (about 60 lines): a scenario column is a
    closed form of the total, not a second budget: with P the training runs'
    cost in the plan (Pm of it from an MFU), S serving, I + A the reservations'
    idle cost and the use above them, Ov the overheads' share, c and cs the
    contingencies, x the experiments' multiple: total = P·(Ov + c + x) + S·(1 +
    Ov + cs) + (I + A)·(1 + Ov) + 12 · the monthly overheads. A case scales
    every price by p and the MFU-based training by 1/f, and adds d to c.
    """
    cols = [w.letter_key(k) for k in range(2, 2 + len(SCENARIOS))]
    section(lay, w, T("Scenarios against the base", "Escenarios frente a la base"))
    note(lay, w, T(
        "Each case multiplies every price (the commitment's too) and every MFU-based "
        "training speed by the factors in its column, and adds to the training "
        "contingency. Runs keep their months: a slower run is charged where it started. "
        "All-in MFU: Llama 3.1 70B's published GPU-hours imply 25 % MFU, about 0.6 of "
        "the 38-43 % Llama 3's training steps ran at.",
        "Cada caso multiplica todos los precios (también el del compromiso) y toda "
        "velocidad de entrenamiento basada en la MFU por los factores de su columna, y "
        "suma a la contingencia de entrenamiento. Las ejecuciones mantienen sus meses: "
        "una más lenta se carga donde empezó. MFU con todo: las GPU-horas publicadas de "
        "Llama 3.1 70B implican un 25 % de MFU, cerca de 0,6 del 38-43 % de los pasos de "
        "entrenamiento de Llama 3."))  # fmt: skip
    w.next()
    w.put("label", lay.t(T("Scenario", "Escenario")), wr.HEADER)
    w.put("value", lay.t(tx.BASE), wr.HEADER_CENTRED)
    for c, (label, *_) in zip(cols, SCENARIOS):
        w.put(c, lay.t(label), wr.HEADER_CENTRED)
    w.fit(3)  # "Cheaper GPUs" in a column of 8: two lines
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
    train, mfu = Ref("BudgetTraining"), Ref("BudgetMFUBased")
    rest = Ref("BudgetIdle") + Ref("BudgetAbove")
    ov, cont, x = Ref("OverheadShare"), Ref("Contingency"), Ref("ExperimentsMultiplier")
    fixed = 12 * Ref("OverheadMonthly")
    serving = Ref("BudgetServing") * (1 + ov + Ref("ServingContingency"))
    w.next()
    lay.label(w, "label", T("All-in total", "Total"), IN_THOUSANDS, wr.BOLD)
    w.fit(2)
    lay.formula(w, "value", Ref("BudgetTotal"), wr.KEY_RESULT.but(fmt=THOUSANDS))
    totals: list[str] = []
    for col, here in zip(cols, cells):
        p, f, d = Ref(here["p"]), Ref(here["f"]), Ref(here["d"])
        trained = p * (train - mfu + mfu / f)
        tree = trained * (ov + cont + d + x) + p * (serving + rest * (1 + ov)) + fixed
        totals.append(lay.formula(w, col, Guard(tree), wr.KEY_RESULT.but(fmt=THOUSANDS),
                                  name=f"ScenarioTotal{len(totals) + 1}", public=True))  # fmt: skip
    w.next()
    w.put("label", lay.t(T("Against the base", "Frente a la base")), wr.WRAPPED)
    for col, t in zip(cols, totals):
        change = F.IFERROR(Ref(t) / Ref("BudgetTotal") - 1, "")
        lay.formula(w, col, change, wr.RESULT.but(fmt="+0%;-0%;0%"))


__all__ = ["CHART", "MONTHS_GRID", "RUN_COSTS", "RUN_GPUS",
           "draw_scenarios"]  # fmt: skip
