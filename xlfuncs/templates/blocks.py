"""What a template is made of: rows, blocks of rows, sheets.

A template module lists its sheets and, on each, its blocks top to bottom, as
they appear, every row with its own texts in both editions. An :class:`Input`
is a typed cell checked by the library argument it feeds; a :class:`Result` is a
formula, an :class:`~xlfuncs.templates.expr.Expr` over other rows (usually a
library :func:`~xlfuncs.templates.expr.call`, or plain arithmetic such as
``Ref("TrainingHours") / 24``). Nothing here knows about cells:
:mod:`~xlfuncs.templates.render` places the blocks, :mod:`~xlfuncs.templates.model`
computes their values, both from the same trees.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..registry.domains import Domain
from .expr import Expr, Ref
from .texts import COUNT, Text


@dataclass(frozen=True)
class Check:
    """A condition that holds when all is well, and what to say when it does not.

    ``error``: the results it guards show n/a (an input's domain); otherwise a
    warning (results still compute). ``cond`` reads rows by name.
    """

    cond: Expr
    message: Text | Expr  # a tree where the message quotes figures
    error: bool = True
    slip: bool = False  # a unit typed wrong (a value 1,000 times off): typed only


@dataclass(frozen=True)
class Input:
    """A typed cell with a workbook name, checked by its library argument's domain.

    ``kind``: "number" (the argument's domain, ``whole`` for counts), "list" (a
    name looked up as the library looks it up: ``keys`` is the workbook name of
    the accepted spellings, ``menu`` the drop-down's list), or "text" (a short
    code such as a currency). ``blank``: may be left empty, meaning what the help
    says. ``rules``: further checks, e.g. a GPU's figure for a precision.
    """

    name: str
    arg: str  # the library argument it feeds: domain, unit, typical range
    default: float | str | None
    label: Text
    unit: Text
    help: Text
    fmt: str | Text = COUNT
    whole: bool = False
    kind: str = "number"
    keys: str | None = None
    menu: str | None = None
    blank: bool = False
    rules: tuple[Check, ...] = ()
    typical: tuple[float, float] | None = None  # instead of the argument's
    usual: bool = True  # warn outside the typical range (False: a rule does)
    domain: Domain | None = None  # instead of the argument's (template-only inputs)
    length: int = 12  # the most characters a "text" input takes (a code: 12)


@dataclass(frozen=True)
class Result:
    """A formula cell with a workbook name; shows n/a unless its inputs are valid."""

    name: str
    expr: Expr
    label: Text
    unit: Text
    how: Text
    fmt: str | Text = COUNT
    key: bool = False  # a headline result: bold
    checks: tuple[Check, ...] = ()  # plausibility of the result itself
    label_expr: Expr | None = None  # a label computed (a run's name), named label_name
    label_name: str | None = None
    beside: tuple[
        Expr, ...
    ] = ()  # shown after the unit (a quarter's first and last month)
    beside_fmt: str = "General"
    # The library call this result holds for the workbook's other formulas,
    # read from its cell rather than written out in theirs: a function's name
    # (the workbook calls it with one set of arguments), or the call itself.
    holds: str | Expr = ""


@dataclass(frozen=True)
class Verdict:
    """A line that judges results, e.g. whether the memory fits: OK, a warning
    or an error, built by a function of the template (see
    :func:`~xlfuncs.templates.checks.fit`)."""

    name: str
    label: Text
    expr: Expr  # gives text: "OK", "Warning: …", "Error: …", or n/a
    judged: bool = True  # on the Checks sheet; False: shown only to compare


@dataclass(frozen=True)
class Inputs:
    title: Text
    rows: tuple[Input, ...]
    help_below: bool = True  # on a summary, each input's help on a line below it


@dataclass(frozen=True)
class Results:
    title: Text
    rows: tuple[Result, ...]
    steps: bool = False  # intermediate calculations, shaded grey
    verdicts: tuple[Verdict, ...] = ()  # lines below the rows


@dataclass(frozen=True)
class Case:
    """A column of a scenario table: each varied input given by a tree over the
    base inputs (``Ref("GPUs") * 2``) or a value typed in the column."""

    label: Text
    values: tuple[float, ...]  # one multiple of the base per varied input


@dataclass(frozen=True)
class Scenarios:
    """The base case and others side by side: inputs down, results below them.

    ``vary``: the varied inputs; each case multiplies each by a factor the
    reader sees and may retype (×0.5, ×2), so a case stays relative to the base.
    """

    title: Text
    note: Text
    vary: tuple[str, ...]
    cases: tuple[Case, ...]
    results: tuple[str, ...]


@dataclass(frozen=True)
class Axis:
    """An input varied along a grid's side: typed values, or multiples of the base."""

    input: str
    values: tuple[float, ...]
    multiples: bool = False


@dataclass(frozen=True)
class Grid:
    """One result for every pair of two inputs' values (a sensitivity table)."""

    title: Text
    note: Text
    result: str
    rows: Axis
    columns: Axis


@dataclass(frozen=True)
class Chart:
    title: Text
    plot: tuple[str, ...]  # columns drawn against the first
    log_x: bool = False
    log_y: bool = False
    y_title: Text | None = None
    x_title: Text | None = None


@dataclass(frozen=True)
class Sweep:
    """One input down the rows, results across: typed values, a chart."""

    title: Text
    note: Text
    vary: str
    values: tuple[float, ...]
    results: tuple[str, ...]
    chart: Chart | None = None


@dataclass(frozen=True)
class Series:
    """A column of a :class:`Curve`: a tree over the curve's own columns (by their
    names) and the sheet's rows."""

    name: str
    label: Text
    expr: Expr
    fmt: str | Text = COUNT


@dataclass(frozen=True)
class Point:
    """An extra row of a :class:`Curve`: its x given by a tree, its label."""

    label: Text
    x: Expr
    marker: str  # the series its point is drawn on, as a diamond


@dataclass(frozen=True)
class Curve:
    """A table of a quantity along typed values of ``x``, its columns computed
    from each row's x, with extra rows (optima) and a chart: the IsoFLOP curve."""

    title: Text
    note: Text
    x: Input  # the typed column (its check, format and drop-down)
    xs: tuple[float, ...]
    columns: tuple[Series, ...]
    points: tuple[Point, ...]
    chart: Chart


@dataclass(frozen=True)
class Field:
    """A column of a :class:`Table`: typed (an ``input``-like rule) or computed."""

    name: str  # the workbook name of the whole column
    label: Text
    unit: Text
    fmt: str | Text = COUNT
    input: Input | None = None  # typed: its checks, per row
    expr: Expr | None = None  # computed: over the row's fields, by name
    total: bool = False  # summed below the table
    width: float = 10.0
    band: int = 0  # 0: typed fields 1, computed 2; a workings band is grey
    choices: tuple[Text, ...] = ()  # a typed word from this list (both editions)
    checks: tuple[Check, ...] | None = None  # instead of the input's own
    # The library call this field holds for the row's other fields, read from
    # this cell rather than written out again in theirs: a function's name (a
    # row calls it with one set of arguments), or the call itself.
    holds: str | Expr = ""
    # False: computed whatever the row's other cells say (a typed word's code,
    # which the row's checks read), blank where it cannot be.
    guarded: bool = True

    @property
    def shown_in(self) -> int:
        return self.band or (1 if self.input is not None else 2)


@dataclass(frozen=True)
class Table:
    """Rows of records, a field a column, totals below: a plan's runs."""

    title: Text
    note: Text
    fields: tuple[Field, ...]
    rows: tuple[dict[str, Any], ...]  # typed values, one dict per filled row
    size: int  # rows in all (the rest left blank to fill)
    label: str  # the field that names a row in messages
    checks: tuple[Check, ...] = ()  # per row, over its fields: errors, then warnings
    bands: tuple[Text, ...] = ()  # the title of each band after the first
    workings: int = 3  # the band of its workings (grey): each row's keys join it
    unnamed: Text | None = None  # what a row in use without a name is told
    # Where a row's results read n/a because of another sheet: (a condition
    # over the row, the words its n/a says then), the first that holds.
    blame: tuple[tuple[Expr, Text], ...] = ()
    side: bool = False  # its workings and checks beside its rows, beyond the print


@dataclass(frozen=True)
class Line:
    """A line of a :class:`MonthGrid`: a cell a month, and the year's.

    ``month(m)`` gives month m's tree (from 1), over other lines' cells
    (``Ref(f"{name}.{m}")``) and the workbook's names; a ``typed`` line is typed
    by the reader instead, month by month, with its input's checks. The line's
    months are a workbook name (``name``), month m's cell ``{name}.{m}``.
    """

    name: str
    label: Text | Expr  # its words, or a tree (a run's name)
    month: Callable[[int], Expr] | None = None
    fmt: str = COUNT
    year: str = "sum"  # the year's cell: "sum", "max", or "" for none
    key: bool = False  # a headline: bold
    unit: Text | None = None  # said after the label: "Cost (thousands of USD)"
    typed: Input | None = None  # typed months: their input
    values: tuple[float | None, ...] = ()  # the typed months' values
    public: bool = True  # a workbook name for the line's months
    guard: bool = True  # n/a unless the cells it reads pass their checks


@dataclass(frozen=True)
class Heading:
    """A bold line heading the lines after it in a :class:`MonthGrid`."""

    label: Text
    unit: Text | None = None


@dataclass(frozen=True)
class MonthGrid:
    """Lines a month each, under a heading of the months' dates, with the year's
    sum or peak at the end: a budget month by month.

    ``start`` is the input holding the first month (any day of it); a first month
    that is no date heads the columns M1, M2… ``checks``: more checks of the
    grid's cells, (where, check) pairs; a typed line's months are checked by its
    input. ``first``: the workbook's first months grid, whose heading the others
    read.
    """

    title: Text
    note: Text | None
    start: str
    months: int
    lines: tuple[Line | Heading, ...]
    head: Text
    year_head: Text
    checks: tuple[tuple[Text, Check], ...] = ()
    first: bool = True
    name: str = ""  # a workbook name for its lines' months, as one block


@dataclass(frozen=True)
class MonthChart:
    """The months of some lines as stacked columns, one more line as a line on
    its own axis, each series with its values (for viewers that do not
    calculate)."""

    title: Text
    stacked: tuple[str, ...]  # lines of a MonthGrid, by name
    line: str
    y_title: Text
    line_title: Text
    labels: tuple[Text, ...]  # the stacked series' names, then the line's


@dataclass(frozen=True)
class Notes:
    title: Text
    notes: tuple[Text, ...]


@dataclass(frozen=True)
class Figures:
    """Figures for the reader who signs, e.g. on the summary page: results of
    other blocks shown again (by name) and results of its own."""

    title: Text
    rows: tuple[str | Result, ...]
    note: Text | None = None


@dataclass(frozen=True)
class Stamp:
    """The version of xlfuncs that built the workbook, and the date."""


@dataclass(frozen=True)
class Custom:
    """A block a template draws itself with the writer (rare)."""

    draw: Callable[..., None]


Block = (
    Inputs
    | MonthGrid
    | MonthChart
    | Results
    | Scenarios
    | Grid
    | Sweep
    | Curve
    | Table
    | Notes
    | Figures
    | Stamp
    | Custom
)


@dataclass(frozen=True)
class Sheet:
    name: Text
    blocks: tuple[Block, ...]
    check: bool = True  # the model check at the top
    summary: bool = False  # the one printed page for the reader who signs
    columns: tuple[float, ...] = ()  # widths of a wide sheet (a table, months)
    side: int = 0  # columns beyond the printed ones, for a table's workings
    legend: Text | None = (
        None  # a summary's: where the reader types (the inputs' sheets)
    )


@dataclass(frozen=True)
class Cover:
    """The first sheet: what the workbook answers and how to use it."""

    answers: Text
    steps: tuple[Text, ...]
    limits: tuple[Text, ...]
    sources: tuple[Text, ...]  # titles with public addresses: readable anywhere


@dataclass(frozen=True)
class Template:
    slug: str  # file name stem
    title: Text
    subtitle: Text
    subject: Text
    keywords: Text
    cover: Cover
    sheets: tuple[Sheet, ...]
    data_sheet: bool = False  # carries the reference tables (accelerators, fits)
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def filename(self, lang: str) -> str:
        return f"{self.slug}.xlsx" if lang == "en" else f"{self.slug}-{lang}.xlsx"

    @property
    def blocks(self) -> tuple[Block, ...]:
        return tuple(b for s in self.sheets for b in s.blocks)

    @property
    def inputs(self) -> tuple[Input, ...]:
        return tuple(i for b in self.blocks if isinstance(b, Inputs) for i in b.rows)

    @property
    def results(self) -> tuple[Result, ...]:
        out: list[Result] = []
        for b in self.blocks:
            if isinstance(b, Results):
                out += b.rows
            elif isinstance(b, Figures):
                out += [r for r in b.rows if isinstance(r, Result)]
        return tuple(out)

    @property
    def verdicts(self) -> tuple[Verdict, ...]:
        return tuple(
            v for b in self.blocks if isinstance(b, Results) for v in b.verdicts
        )

    def input(self, name: str) -> Input:
        return next(i for i in self.inputs if i.name == name)

    def result(self, name: str) -> Result:
        return next(r for r in self.results if r.name == name)

    def is_input(self, name: str) -> bool:
        return any(i.name == name for i in self.inputs)

    @property
    def defaults(self) -> dict[str, Any]:
        return {i.name: i.default for i in self.inputs}

    def with_defaults(self, values: dict[str, Any]) -> Template:
        """The template with other input defaults (company defaults, tests)."""
        from dataclasses import replace

        unknown = set(values) - {i.name for i in self.inputs}
        if unknown:
            raise KeyError(", ".join(sorted(unknown)))

        def block(b: Block) -> Block:
            if not isinstance(b, Inputs):
                return b
            rows = tuple(
                replace(i, default=values[i.name]) if i.name in values else i
                for i in b.rows
            )
            return replace(b, rows=rows)

        sheets = tuple(
            replace(s, blocks=tuple(block(b) for b in s.blocks)) for s in self.sheets
        )
        return replace(self, sheets=sheets)

    def leaves(self, name: str) -> list[str]:
        """The inputs a row depends on, through the results it reads, in order."""
        rows = {r.name: r.expr for r in self.results}
        rows |= {v.name: v.expr for v in self.verdicts}
        done: dict[str, list[str]] = {}  # a result read by many is walked once

        def walk(n: str) -> list[str]:
            if self.is_input(n):
                return [n]
            if n not in done:
                seen: list[str] = []
                for m in sorted(rows[n].names(), key=_order(rows[n])):
                    if m in rows or self.is_input(m):
                        seen += [x for x in walk(m) if x not in seen]
                done[n] = seen
            return done[n]

        return walk(name)


def _order(expr: Expr) -> Callable[[str], int]:
    """Names in the order the tree reads them."""
    order: dict[str, int] = {}
    for e in expr.walk():
        if isinstance(e, Ref):
            order.setdefault(e.name, len(order))
    return lambda n: order[n]
