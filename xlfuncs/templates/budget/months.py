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
from ...registry.excel import key
from ...workbook import writer as wr
from ...workbook.writer import SheetWriter
from .. import texts as tx
from ..blocks import Check, Heading, Input, Line, MonthChart, MonthGrid
from ..expr import Expr, F, Guard, Ref, Span
from ..layout import Layout
from ..monthgrid import COUNTER
from ..monthgrid import cell as month
from ..render import FACTOR, Item, check_line, note, section
from ..table import cell
from ..texts import T
from ..written import parse
from .runs import MONTHS, RUN_ROWS

THOUSANDS = "#,##0,;-#,##0,;0"  # money in thousands: a year of runs fits a column
GPUS_FMT = "#,##0;-#,##0;0"
IN_THOUSANDS = T("thousands of {currency}", "miles de {currency}")
RESERVATIONS = 2  # GPU models a plan may reserve
PRICE_ROWS = 8  # the Prices sheet's rows: GPUs in use, model by model


def commitment_input(j: int) -> Input:
    """Reservation j's GPUs committed a month, typed month by month: GPUs
    committed with no GPU model reserved, or one with no row on the Prices
    sheet, are an error (they would have no price)."""
    gpu = Ref(reserved("ReservedGPU", j))
    x = Ref("ReservedGPUsMonth")
    # The look-up ReservedRow holds, from the GPU's key: ReservedRow itself is
    # n/a while this check fails, and reading it here would make a loop.
    on_prices = F.ISNUMBER(F.MATCH(F.INDEX(Ref("AcceleratorRow"), F.MATCH(parse(key(gpu.name)),
                                                                          Ref("AcceleratorKeys"), 0)),
                                   Ref("PriceGPURow"), 0))  # fmt: skip
    return Input(
        "ReservedGPUsMonth", "", 0,
        T(f"GPUs reserved ({j})", f"GPU reservadas ({j})"), T("GPUs", "GPU"),
        T("GPUs of the reserved model committed for the month: paid whether used or not.",
          "GPU del modelo reservado comprometidas en el mes: se pagan se usen o no."),
        domain=Domain(0.0, float("inf"), True, False, "be a whole number, 0 or more", whole=True),
        usual=False,
        rules=(
            Check(F.OR(x.eq(0), F.NOT(F.ISBLANK(gpu))),
                  T(f"Error: GPUs committed, but no GPU model reserved ({j}) on the "
                    "Assumptions sheet: name it, or clear the commitment",
                    f"Error: GPU comprometidas, pero sin modelo de GPU reservado ({j}) en la "
                    "hoja Supuestos: nómbrelo, o borre el compromiso")),
            Check(F.OR(x.eq(0), on_prices),
                  T(f"Error: GPUs committed, but the GPU model reserved ({j}) has no row on "
                    "the Prices sheet: add its prices there",
                    f"Error: GPU comprometidas, pero el modelo de GPU reservado ({j}) no tiene "
                    "fila en la hoja Precios: añada allí sus precios")),
        ),
    )  # fmt: skip


#: The commitment each month by default: none while the assistant is not served.
COMMITMENT = (0, 0) + (12,) * (MONTHS - 2)

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


def reserved(name: str, j: int) -> str:
    """Reservation j's figure: ``ReservedPrice`` for the first, ``ReservedPrice2``…"""
    return name if j == 1 else f"{name}{j}"


def _sum(*names: str) -> Callable[[int], Expr]:
    def tree(m: int) -> Expr:
        out: Expr = Ref(month(names[0], m))
        for n in names[1:]:
            out = out + Ref(month(n, m))
        return out

    return tree


def _same(i: int, j: int) -> Expr:
    """Whether reservations i and j are of the same GPU model."""
    return Ref(reserved("ReservedRow", i)).eq(Ref(reserved("ReservedRow", j)))


def _reservation(j: int) -> tuple[Line, ...]:
    """A reserved GPU model's commitment, typed month by month, and what the
    reserved runs on that model make of it.

    Reservations of one GPU model add up, and its runs fill them once, the
    first reservation first. Runs active in a month are counted at once: the
    share of their GPU-hours above the model's commitment (GPUs at once over
    the commitment) is billed on demand, on the model's first reservation; the
    committed GPU-hours they leave are idle.
    """
    r, u, p = f"MonthReserved{j}", f"MonthReservedUsed{j}", f"MonthReservedAtOnce{j}"
    model, within, filled = (
        f"MonthReservedModel{j}",
        f"MonthWithin{j}",
        f"MonthFilled{j}",
    )
    row = Ref(reserved("ReservedRow", j))
    reserved_runs = (Ref("RunTierCode"), 2, Ref("RunGPURow"), row)
    at_once = lambda m: F.SUMIFS(Ref("RunGPUsUsed"), *reserved_runs,  # noqa: E731
                                 _runs("RunMonthGPUs", m), ">0")  # fmt: skip
    used = lambda m: F.SUMIFS(_runs("RunMonthGPUs", m), *reserved_runs)  # noqa: E731

    def of_model(m: int) -> Expr:
        out: Expr = Ref(month(r, m))
        for i in range(1, RESERVATIONS + 1):
            if i != j:
                out = out + F.IF(_same(i, j), Ref(month(f"MonthReserved{i}", m)), 0)
        return out

    def fill(m: int) -> Expr:
        left: Expr = Ref(month(within, m))
        for i in range(1, j):  # the same model's earlier reservations are filled first
            left = left - F.IF(_same(i, j), Ref(month(f"MonthReserved{i}", m)), 0)
        return F.MIN(Ref(month(r, m)), left if j == 1 else F.MAX(0, left))

    first = [F.NOT(_same(i, j)) for i in range(1, j)]  # no earlier one of its model
    premium = Ref(reserved("ReservedOnDemand", j)) - Ref(reserved("ReservedPrice", j))

    def above(m: int) -> Expr:
        over = Ref(month(u, m)) - Ref(month(within, m))
        return F.IF(F.AND(*first, Ref(month(u, m)).gt(Ref(month(within, m)))),
                    over * Ref("HoursAMonth") * premium, 0)  # fmt: skip

    idle = lambda m: F.IF(Ref(month(r, m)).gt(0), (Ref(month(r, m)) - Ref(month(filled, m)))  # noqa: E731
                          * Ref("HoursAMonth") * Ref(reserved("ReservedPrice", j)), 0)  # fmt: skip
    label = T(f"Reservation {j}", f"Reserva {j}")
    return (
        Line(r, label + T(": GPUs committed", ": GPU comprometidas"), None, GPUS_FMT, "max",
             typed=commitment_input(j), values=COMMITMENT if j == 1 else (0,) * MONTHS),
        Line(model, label + T(": its model's commitment", ": compromiso de su modelo"), of_model,
             GPUS_FMT, "max"),
        Line(p, label + T(": its model's reserved runs, GPUs at once",
                          ": ejecuciones reservadas de su modelo, GPU a la vez"),
             at_once, GPUS_FMT, "max"),
        Line(u, label + T(": the same, month's average", ": lo mismo, media del mes"),
             used, GPUS_FMT, "max"),
        Line(within, label + T(": of it within the commitment", ": de ello dentro del compromiso"),
             lambda m: F.IF(Ref(month(p, m)).gt(Ref(month(model, m))),
                            Ref(month(u, m)) * Ref(month(model, m)) / Ref(month(p, m)),
                            Ref(month(u, m))), GPUS_FMT, "max"),
        Line(filled, label + T(": committed GPUs used, average", ": GPU comprometidas usadas, media"),
             fill, GPUS_FMT, "max"),
        Line(f"MonthIdle{j}", label + T(": idle, cost", ": ociosa, coste"), idle, THOUSANDS, "sum"),
        Line(f"MonthAbove{j}", label + T(": above it, billed on demand", ": por encima, bajo demanda"),
             above, THOUSANDS, "sum"),
    )  # fmt: skip


_R = [f"MonthReserved{j}" for j in range(1, RESERVATIONS + 1)]
_FILLED = [f"MonthFilled{j}" for j in range(1, RESERVATIONS + 1)]
_IDLE = [f"MonthIdle{j}" for j in range(1, RESERVATIONS + 1)]
_ABOVE = [f"MonthAbove{j}" for j in range(1, RESERVATIONS + 1)]


def _first_of_model(name: str) -> Callable[[int], Expr]:
    """A line of each GPU model reserved, summed once: reservation j's when no
    earlier reservation is of its model."""

    def tree(m: int) -> Expr:
        out: Expr = Ref(month(f"{name}1", m))
        for j in range(2, RESERVATIONS + 1):
            first = [F.NOT(_same(i, j)) for i in range(1, j)]
            out = out + F.IF(F.AND(*first), Ref(month(f"{name}{j}", m)), 0)
        return out

    return tree


_RUNS = ("MonthPretraining", "MonthFinetuning", "MonthServing")


def _by_model(i: int) -> Line:
    """GPUs of the Prices sheet's row i's GPU model in use at once each month:
    every run active in the month counted whole (ops buy GPUs at once, not
    GPU-months)."""
    gpu = Ref(cell("PriceGPU", i))
    row = Ref(cell("PriceGPURow", i))
    return Line(
        f"MonthGPUsModel{i}", F.IF(F.ISBLANK(gpu), "", F.IFERROR(gpu.cat(""), "")),
        lambda m: F.IF(F.ISNUMBER(row), F.SUMIFS(Ref("RunGPUsUsed"), Ref("RunGPURow"), row,
                                                 _runs("RunMonthGPUs", m), ">0"), ""),
        GPUS_FMT, "max", public=False,
    )  # fmt: skip


MONTH_LINES: tuple[Line | Heading, ...] = (
    Heading(T("Cost", "Coste"), IN_THOUSANDS),
    Line("MonthPretraining", T("Pre-training", "Preentrenamiento"),
         lambda m: F.SUMIF(Ref("RunKindCode"), 1, _runs("RunMonthCost", m)), THOUSANDS),
    Line("MonthFinetuning", T("Fine-tuning", "Ajuste fino"),
         lambda m: F.SUMIF(Ref("RunKindCode"), 2, _runs("RunMonthCost", m)), THOUSANDS),
    Line("MonthServing", T("Serving", "Servicio"),
         lambda m: F.SUMIF(Ref("RunKindCode"), 3, _runs("RunMonthCost", m)), THOUSANDS),
    Line("MonthIdle", T("Reserved, idle", "Reservada, ociosa"), _sum(*_IDLE), THOUSANDS),
    Line("MonthAbove", T("Above the commitment", "Por encima del compromiso"), _sum(*_ABOVE),
         THOUSANDS),
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
    Line("MonthReserved", T("Reserved, committed", "Reservadas, comprometidas"), _sum(*_R),
         GPUS_FMT, "max"),
    Line("MonthReservedUsed", T("Reserved runs' GPUs at once", "GPU de ejecuciones reservadas a la vez"),
         _first_of_model("MonthReservedAtOnce"), GPUS_FMT, "max"),
    Line("MonthReservedFilled", T("Committed GPUs used, average", "GPU comprometidas usadas, media"),
         _sum(*_FILLED), GPUS_FMT, "max"),
    Line("MonthCommitmentUse", T("Commitment used", "Compromiso usado"),
         lambda m: F.IF(Ref(month("MonthReserved", m)).gt(0),
                        Ref(month("MonthReservedFilled", m)) / Ref(month("MonthReserved", m)),
                        ""), "0%", "max"),
    *(x for j in range(1, RESERVATIONS + 1) for x in _reservation(j)),
    Heading(T("GPUs at once, by model (Prices sheet)", "GPU a la vez, por modelo (hoja Precios)")),
    *(_by_model(i) for i in range(1, PRICE_ROWS + 1)),
)  # fmt: skip

_ABOVE_WARNINGS = tuple(
    (T(f"month {m}", f"mes {m}"),
     Check(F.OR(F.NOT(F.ISNUMBER(Ref(month("MonthAbove", m)))), Ref(month("MonthAbove", m)).le(0)),
           T("Warning: reserved runs use more GPUs than committed: the excess is billed "
             "on demand",
             "Aviso: las ejecuciones reservadas usan más GPU que las comprometidas: el "
             "exceso se factura bajo demanda"), error=False))
    for m in range(1, MONTHS + 1)
)  # fmt: skip

MONTHS_GRID = MonthGrid(
    T("Month by month", "Mes a mes"),
    T("Each run's cost is spread over the months it runs, in proportion to its time; a "
      "serving line costs the same each month. Money in thousands. Type the GPUs "
      "reserved each month in the yellow rows (the models on the Assumptions sheet): "
      "they are paid whether used or not, and reserved runs above them are billed on "
      "demand.",
      "El coste de cada ejecución se reparte entre los meses en que corre, en proporción "
      "a su tiempo; un servicio cuesta lo mismo cada mes. Dinero en miles. Escriba las "
      "GPU reservadas de cada mes en las filas amarillas (los modelos, en la hoja "
      "Supuestos): se pagan se usen o no, y las ejecuciones reservadas que las superan "
      "se facturan bajo demanda."),
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
    (T("More contingency", "Más contingencia"), 1.0, 1.0, 0.1),
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


__all__ = ["CHART", "COMMITMENT", "MONTHS_GRID", "RUN_COSTS", "RUN_GPUS",
           "draw_scenarios"]  # fmt: skip
