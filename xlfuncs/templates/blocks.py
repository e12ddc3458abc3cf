"""What a template is made of: inputs, results, scenarios, grids, notes, a cover.

A template module lists its blocks top to bottom, as they appear on the sheet,
each row with its own texts in both editions. A result says which library
function computes it and from which rows (:class:`Call`); its Excel formula is
that function's expression (``@formula(excel=...)``) written out with the rows'
names, and its cached value is the function's Python result. Nothing here knows
about cells: :mod:`xlfuncs.templates.layout` places the blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .texts import COUNT, Text


@dataclass(frozen=True)
class Lit:
    """A literal argument, e.g. ``Lit("hoffmann")`` for a fit's name."""

    value: str | float


@dataclass(frozen=True)
class Call:
    """A library function applied to rows of the sheet (names) and literals."""

    function: str
    args: tuple[str | Lit, ...]


@dataclass(frozen=True)
class Fallback:
    """An input that may be left blank, meaning another row's value."""

    input: str
    fallback: str


@dataclass(frozen=True)
class Sum:
    """A row that adds other rows, e.g. model state + activations."""

    terms: tuple[str, ...]


Expr = Call | Fallback | Sum


@dataclass(frozen=True)
class Fit:
    """Does the memory a GPU needs fit in what it has? Checked below the rows.

    OK, or "Does not fit: …" with the fewest GPUs that would, where a row says.
    """

    label: Text
    need: str  # a result: GB needed per GPU
    have: str  # a result: the GPU's memory in GB
    fewest: str | None = None  # a result: the fewest GPUs that fit


@dataclass(frozen=True)
class Rule:
    """A check of an input beyond its domain, e.g. a GPU's figure for a dtype.

    ``excel`` is the Excel condition that holds when all is well (it may read
    other inputs by name); ``python`` the same test on the inputs' values.
    """

    excel: str
    python: Callable[[dict[str, Any]], bool]
    message: Text
    error: bool = True


@dataclass(frozen=True)
class Input:
    """A typed cell with a workbook name, checked by its library argument's domain."""

    name: str
    arg: str  # the library argument it feeds: its domain, unit and typical range
    default: float | str | None
    label: Text
    unit: Text
    help: Text
    fmt: str | Text = COUNT
    whole: bool = False  # whole numbers, 1 or more (GPUs, examples)
    choices: str | None = None  # the workbook name of the list it must be in
    menu: str | None = None  # the list its drop-down offers, if not ``choices``
    blank: bool = False  # may be left blank (its help says what blank means)
    text: bool = False  # free text, e.g. a currency code
    rules: tuple[Rule, ...] = ()


@dataclass(frozen=True)
class Result:
    """A formula cell with a workbook name."""

    name: str
    expr: Expr
    label: Text
    unit: Text
    how: Text
    fmt: str | Text = COUNT
    key: bool = False  # a headline result: bold, green


@dataclass(frozen=True)
class Inputs:
    title: Text
    rows: tuple[Input, ...]


@dataclass(frozen=True)
class Results:
    title: Text
    rows: tuple[Result, ...]
    steps: bool = False  # intermediate calculations, shaded grey
    fits: tuple[Fit, ...] = ()  # memory checks, each a line below the rows


@dataclass(frozen=True)
class Scenarios:
    """A base case and two others side by side: inputs down, results below them.

    ``cases`` names the two other cases (their column headings); ``vary`` gives
    each varied input with its value in each. The base case is the inputs above.
    Each case has its own check.
    """

    title: Text
    note: Text
    cases: tuple[Text, Text]
    vary: tuple[tuple[str, float, float], ...]
    results: tuple[str, ...]


@dataclass(frozen=True)
class Grid:
    """One result for every pair of two inputs' values (a sensitivity table)."""

    title: Text
    note: Text
    result: str
    rows: tuple[str, tuple[float, ...]]
    columns: tuple[str, tuple[float, ...]]


@dataclass(frozen=True)
class Chart:
    title: Text
    plot: tuple[str, ...]  # results drawn against the varied input
    log_x: bool = False
    log_y: bool = False
    y_title: Text | None = None


@dataclass(frozen=True)
class Sweep:
    """One input down the rows, results across: its own row values, a chart."""

    title: Text
    note: Text
    vary: str
    values: tuple[float, ...]
    results: tuple[str, ...]
    chart: Chart | None = None


@dataclass(frozen=True)
class Notes:
    title: Text
    notes: tuple[Text, ...]


@dataclass(frozen=True)
class Custom:
    """A block a template draws itself (the planner's IsoFLOP curve)."""

    draw: Callable[..., None]
    inputs: tuple[Input, ...] = ()  # inputs it adds, for the model check


Block = Inputs | Results | Scenarios | Grid | Sweep | Notes | Custom


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
    sheet: Text  # the model sheet's name
    title: Text
    subtitle: Text
    subject: Text
    keywords: Text
    cover: Cover
    blocks: tuple[Block, ...]
    data_sheet: bool = False  # carries the reference tables (accelerators, fits)
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def filename(self, lang: str) -> str:
        return f"{self.slug}.xlsx" if lang == "en" else f"{self.slug}-{lang}.xlsx"

    @property
    def inputs(self) -> tuple[Input, ...]:
        out: list[Input] = []
        for b in self.blocks:
            if isinstance(b, Inputs):
                out += b.rows
            elif isinstance(b, Custom):
                out += b.inputs
        return tuple(out)

    @property
    def results(self) -> tuple[Result, ...]:
        return tuple(r for b in self.blocks if isinstance(b, Results) for r in b.rows)

    def input(self, name: str) -> Input:
        return next(i for i in self.inputs if i.name == name)

    def result(self, name: str) -> Result:
        return next(r for r in self.results if r.name == name)

    def is_input(self, name: str) -> bool:
        return any(i.name == name for i in self.inputs)

    @property
    def defaults(self) -> dict[str, Any]:
        return {i.name: i.default for i in self.inputs}

    def leaves(self, name: str) -> list[str]:
        """The inputs a row depends on, through the results it reads, in order."""
        if self.is_input(name):
            return [name]
        expr = self.result(name).expr
        if isinstance(expr, Call):
            reads = [a for a in expr.args if isinstance(a, str)]
        elif isinstance(expr, Sum):
            reads = list(expr.terms)
        else:
            reads = [expr.input, expr.fallback]
        seen: list[str] = []
        for r in reads:
            seen += [n for n in self.leaves(r) if n not in seen]
        return seen
