"""Reserved capacity as ops buy it: a table of commitments, a row each (a GPU
model, GPUs at once, a start month, a term that may run past the plan, a
price that defaults to the Prices sheet's reserved one), and their GPUs and
cost month by month (``ReservationGPUs``, reservations × months).

The Months sheet adds the commitments up by GPU model (the Prices sheet's
rows), against the reserved runs of that model counted at once.
"""

from __future__ import annotations

from collections.abc import Callable

from openpyxl.utils import quote_sheetname
from openpyxl.workbook.defined_name import DefinedName

from ...registry.domains import NONNEGATIVE, WHOLE, Domain
from ...registry.excel import key
from ...workbook.writer import SheetWriter
from .. import texts as tx
from ..blocks import Check, Field, Heading, Line, MonthGrid, Table
from ..checks import looked_up
from ..expr import Expr, F, Ref
from ..layout import Layout
from ..monthgrid import COUNTER
from ..monthgrid import cell as month
from ..table import cell, table_input
from ..texts import T
from ..written import parse
from .runs import MONTHS

RESERVATION_ROWS = 8  # commitments a plan may hold
_START = Domain(
    1.0, float("inf"), True, False, "be a whole number, 1 or more", whole=True
)
_PER_HOUR = T("{currency}/GPU-h", "{currency}/GPU-h")
_MONEY = T("{currency}", "{currency}")
_HOURS = Ref("HoursAMonth")


def _typed(name: str, label: T, unit: T, help_: T, fmt: str | T = tx.COUNT,
           **kw: object) -> Field:  # fmt: skip
    field_kw = {k: kw.pop(k) for k in ("checks",) if k in kw}
    inp = table_input(name, label, unit, help_, fmt=fmt, usual=False, **kw)
    return Field(name, label, unit, fmt, input=inp, **field_kw)  # type: ignore[arg-type]


def _working(name: str, label: T, unit: T, expr: Expr, fmt: str | T = tx.COUNT,
             **kw: object) -> Field:  # fmt: skip
    """A computed field beside the rows, off the printed page (band 3)."""
    return Field(name, label, unit, fmt, expr=expr, band=3, **kw)  # type: ignore[arg-type]


_PRICES_ROW = F.MATCH(Ref("ReservationGPURow"), Ref("PriceGPURow"), 0)

FIELDS = (
    _typed("ReservationGPU", T("GPU reserved", "GPU reservada"), T("model", "modelo"),
           T("A GPU model committed for a term: runs priced 'reserved' on it use these "
             "GPUs first. It needs a row on the Prices sheet (above the commitment, runs "
             "are billed its on-demand price).",
             "Un modelo de GPU comprometido por un plazo: las ejecuciones con tarifa "
             "'reservada' en él usan primero estas GPU. Necesita una fila en la hoja "
             "Precios (por encima del compromiso se factura su precio bajo demanda)."),
           kind="text"),
    _typed("ReservationGPUCount", T("GPUs", "GPU"), T("at once", "a la vez"),
           T("GPUs committed each month of the term: paid whether used or not.",
             "GPU comprometidas cada mes del plazo: se pagan se usen o no."),
           domain=WHOLE),
    _typed("ReservationStart", T("Start month", "Mes de inicio"), T("1 to 12", "1 a 12"),
           T("The plan's month the term starts in: 1 is the first.",
             "El mes del plan en que empieza el plazo: 1 es el primero."),
           domain=_START),
    _typed("ReservationTerm", T("Term", "Plazo"), T("months", "meses"),
           T("Months committed: it may run past the plan (Summary: committed after "
             "the plan).",
             "Meses comprometidos: puede seguir tras el plan (Resumen: comprometido "
             "tras el plan)."), domain=WHOLE),
    _typed("ReservationPrice", T("Price", "Precio"), _PER_HOUR,
           T("The contract's price a GPU-hour, in the plan's currency. Blank: the Prices "
             "sheet's reserved price for the GPU. 0: credits (a warning says so).",
             "El precio del contrato por GPU-hora, en la moneda del plan. En blanco: el "
             "precio reservado de la GPU en la hoja Precios. 0: créditos (un aviso lo "
             "dice)."),
           fmt=tx.MONEY, domain=NONNEGATIVE, blank=True),
    _typed("ReservationContract", T("Contract", "Contrato"), T("", ""),
           T("The provider, the contract and its date: what the price rests on.",
             "El proveedor, el contrato y su fecha: en qué se basa el precio."),
           kind="text", blank=True, checks=()),
    # Workings, beside the rows.
    _working("ReservationGPURow", T("GPU's row", "Fila de la GPU"), T("Data", "Datos"),
             F.INDEX(Ref("AcceleratorRow"),
                     F.MATCH(parse(key("ReservationGPU")), Ref("AcceleratorKeys"), 0)),
             guarded=False),
    _working("ReservationPriceRow", T("Prices row", "Fila de precios"), T("Prices", "Precios"),
             _PRICES_ROW, guarded=False),
    # +0: a blank reserved price on the Prices sheet is 0 in every engine,
    # which the row's check refuses.
    _working("ReservationPriceUsed", T("Price used", "Precio usado"), _PER_HOUR,
             F.IF(F.ISBLANK(Ref("ReservationPrice")),
                  F.INDEX(Ref("PriceReserved"), Ref("ReservationPriceRow")) + 0,
                  Ref("ReservationPrice")), tx.MONEY, guarded=False),
    _working("ReservationEnd", T("Last month", "Último mes"), T("month", "mes"),
             Ref("ReservationStart") + Ref("ReservationTerm") - 1),
    _working("ReservationMonthly", T("A month", "Al mes"), _MONEY,
             Ref("ReservationGPUCount") * _HOURS * Ref("ReservationPriceUsed"), tx.MONEY),
    _working("ReservationInPlan", T("Months in the plan", "Meses en el plan"), T("months", "meses"),
             F.MAX(0, F.MIN(Ref("ReservationEnd"), MONTHS) - Ref("ReservationStart") + 1)),
    _working("ReservationPlanCost", T("Committed in the plan", "Comprometido en el plan"),
             _MONEY, Ref("ReservationMonthly") * Ref("ReservationInPlan"), tx.MONEY),
    _working("ReservationAfterPlan", T("Committed after the plan", "Comprometido tras el plan"),
             _MONEY,
             Ref("ReservationMonthly") * (Ref("ReservationTerm") - Ref("ReservationInPlan")),
             tx.MONEY),
)  # fmt: skip

CHECKS = (
    Check(looked_up("ReservationGPU", "AcceleratorKeys"),
          T("Error: a GPU from the Data sheet", "Error: una GPU de la hoja Datos")),
    Check(F.ISNUMBER(Ref("ReservationPriceRow")),
          T("Error: this GPU has no row on the Prices sheet: add it there (use above the "
            "commitment is billed its on-demand price)",
            "Error: esta GPU no tiene fila en la hoja Precios: añádala allí (el uso por "
            "encima del compromiso se factura a su precio bajo demanda)")),
    Check(Ref("ReservationStart").le(MONTHS),
          T(f"Error: starts after the plan's {MONTHS} months",
            f"Error: empieza después de los {MONTHS} meses del plan")),
    Check(F.OR(F.NOT(F.ISBLANK(Ref("ReservationPrice"))),
               F.AND(F.ISNUMBER(Ref("ReservationPriceUsed")), Ref("ReservationPriceUsed").gt(0))),
          T("Error: no price: type the contract's, or a reserved price for this GPU on "
            "the Prices sheet",
            "Error: sin precio: escriba el del contrato, o un precio reservado para esta "
            "GPU en la hoja Precios")),
    Check(F.OR(F.ISBLANK(Ref("ReservationPrice")), Ref("ReservationPrice").gt(0)),
          T("Warning: a price of 0: credits? The commitment costs nothing",
            "Aviso: precio 0: ¿créditos? El compromiso no cuesta nada"), error=False),
)  # fmt: skip

#: The example: the assistant's 12 H100s, a year from month 3 (two months of
#: it after the plan), at the Prices sheet's reserved rate.
EXAMPLE = (
    dict(ReservationGPU="H100 SXM", ReservationGPUCount=12, ReservationStart=3,
         ReservationTerm=12, ReservationContract="Example: a year at a published reserved rate"),
)  # fmt: skip

RESERVATIONS = Table(
    T("Reserved capacity", "Capacidad reservada"),
    T(f"One commitment a row, up to {RESERVATION_ROWS}: a GPU model, the GPUs at once, the "
      "month it starts and its term. Commitments of one GPU model add up, and the runs "
      "priced 'reserved' on it fill them once; the GPUs they need above them are billed "
      "on demand (Months sheet).",
      f"Un compromiso por fila, hasta {RESERVATION_ROWS}: un modelo de GPU, las GPU a la "
      "vez, el mes en que empieza y su plazo. Los compromisos de un modelo se suman, y "
      "las ejecuciones con tarifa 'reservada' en él los llenan una vez; las GPU que "
      "necesitan por encima se facturan bajo demanda (hoja Meses)."),
    FIELDS, EXAMPLE, RESERVATION_ROWS, "ReservationGPU", CHECKS, side=True,
    unnamed=T("Error: name this commitment's GPU or clear the row",
              "Error: escriba la GPU de este compromiso o borre la fila"),
)  # fmt: skip


def first_reservation_name(lay: Layout, w: SheetWriter) -> None:
    """``ReservedGPU``, the first budget's name for its reserved GPU model, kept
    (names are added, never renamed): the table's first row's GPU."""
    title, coord = lay.places[cell("ReservationGPU", 1)]
    column = "".join(ch for ch in coord if ch.isalpha())
    ref = f"{quote_sheetname(title)}!${column}${coord[len(column) :]}"
    w.wb.defined_names["ReservedGPU"] = DefinedName("ReservedGPU", attr_text=ref)


def _name(k: int) -> Expr:
    gpu = Ref(cell("ReservationGPU", k))
    return F.IF(F.ISBLANK(gpu), "", F.IFERROR(gpu.cat(""), ""))


def _gpus(k: int, m: int) -> Expr:
    """Reservation k's GPUs in month m: its count within its term, 0 outside;
    blank when the row has none."""
    n, end = Ref(month(COUNTER, m)), Ref(cell("ReservationEnd", k))
    within = F.AND(n.ge(Ref(cell("ReservationStart", k))), n.le(end))
    return F.IF(
        F.ISNUMBER(end), F.IF(within, Ref(cell("ReservationGPUCount", k)), 0), ""
    )


def _gpus_line(k: int) -> Callable[[int], Expr]:
    return lambda m: _gpus(k, m)


def _cost_line(k: int) -> Callable[[int], Expr]:
    return lambda m: _cost(k, m)


def _cost(k: int, m: int) -> Expr:
    x = Ref(month(f"ReservationMonthGPUs.{k}", m))
    price = Ref(cell("ReservationPriceUsed", k))  # blank while the row has none
    return F.IF(F.AND(F.ISNUMBER(x), F.ISNUMBER(price)), x * _HOURS * price, "")


RESERVATION_GPUS = MonthGrid(
    T("GPUs committed, by reservation", "GPU comprometidas, por reserva"), None, "PlanStart",
    MONTHS,
    (Heading(T("", ""), T("GPUs", "GPU")),
     *(Line(f"ReservationMonthGPUs.{k}", _name(k), _gpus_line(k), "#,##0;-#,##0;0",
            "max", public=False, guard=False) for k in range(1, RESERVATION_ROWS + 1))),
    T("Reservation", "Reserva"), T("Year: peak", "Año: máximo"), first=False,
    name="ReservationGPUs",
)  # fmt: skip
RESERVATION_COSTS = MonthGrid(
    T("Commitments' cost, by reservation", "Coste de los compromisos, por reserva"), None,
    "PlanStart", MONTHS,
    (Heading(T("", ""), T("thousands of {currency}", "miles de {currency}")),
     *(Line(f"ReservationMonthCost.{k}", _name(k), _cost_line(k),
            "#,##0.0,;-#,##0.0,;0", "sum", public=False, guard=False)
       for k in range(1, RESERVATION_ROWS + 1))),
    T("Reservation", "Reserva"), T("Year", "Año"), first=False, name="ReservationCosts",
)  # fmt: skip

__all__ = ["RESERVATIONS", "RESERVATION_COSTS", "RESERVATION_GPUS", "RESERVATION_ROWS"]
