"""What a library function's body is written with, beside + − × ÷ and ^.

A body is plain Python over its arguments, run once on symbols
(:mod:`xlfuncs.registry.formula`), so it cannot branch with ``if``: it says
``where(cond, a, b)``, as numpy does. Each helper builds the Excel function it
names, so the formula a workbook prints is the body as written:

=====================  ==========================  ===========================
body                   Excel                       Python (floats / arrays)
=====================  ==========================  ===========================
``where(c, a, b)``     ``IF(c,a,b)``               ``a if c else b`` / np.where
``minimum(a, b)``      ``IF(a<b,a,b)``             the same, cell by cell
``rounddown(x)``       ``ROUNDDOWN(x,0)``          truncated, on 15 digits
``roundup(x)``         ``ROUNDUP(x,0)``            away from 0, on 15 digits
``given(x, d)``        ``IF(OMITTED(x),d,x)``      ``d if x is None else x``
``fail(code, why)``    ``#NUM!``                   raises / NaN, with ``why``
=====================  ==========================  ===========================

IF rather than MAX or MIN: in a LAMBDA given a range, MAX would fold the range
into one value, where every other operation works cell by cell.

The helpers take and give ``Any``: a body is typed as the function it becomes,
numbers in and numbers out (:data:`xlfuncs.registry.Numbers`), although it runs
on trees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .tree import ATOM, Ctx, Env, Expr, Fn, Lit, Omitted, Python, Ref, lift
from .values import Value, XlError


def where(cond: Any, yes: Any, no: Any) -> Any:
    """``yes`` where ``cond`` holds, else ``no``: IF."""
    return Fn("IF", (lift(cond), lift(yes), lift(no)))


def minimum(a: Any, b: Any) -> Any:
    """The smaller of two values, cell by cell."""
    x, y = lift(a), lift(b)
    return Fn("IF", (x < y, x, y))


def maximum(a: Any, b: Any) -> Any:
    """The larger of two values, cell by cell."""
    x, y = lift(a), lift(b)
    return Fn("IF", (x > y, x, y))


def rounddown(x: Any) -> Any:
    """``x`` to a whole number towards 0: ROUNDDOWN(x, 0)."""
    return Fn("ROUNDDOWN", (lift(x), Lit(0.0)))


def roundup(x: Any) -> Any:
    """``x`` to a whole number away from 0: ROUNDUP(x, 0)."""
    return Fn("ROUNDUP", (lift(x), Lit(0.0)))


def sqrt(x: Any) -> Any:
    return Fn("SQRT", (lift(x),))


def exp(x: Any) -> Any:
    return Fn("EXP", (lift(x),))


def ln(x: Any) -> Any:
    return Fn("LN", (lift(x),))


def choose(k: Any, *options: Any) -> Any:
    """Option ``k`` (from 1): CHOOSE."""
    return Fn("CHOOSE", (lift(k), *(lift(o) for o in options)))


def average(sample: Any) -> Any:
    return Fn("AVERAGE", (sample,))


def percentile(sample: Any, k: Any) -> Any:
    """The k-th percentile (k from 0 to 1) of a sample: PERCENTILE.INC."""
    return Fn("PERCENTILE.INC", (sample, lift(k)))


def omitted(arg: Any) -> Any:
    """Whether an optional argument was left out: OMITTED."""
    assert isinstance(arg, Ref), "only an argument can be left out"
    return Omitted(arg.name)


def given(arg: Any, default: Any) -> Any:
    """An optional argument, or ``default`` where it is left out; anything
    else (a formula, a look-up) is given."""
    if not isinstance(arg, Ref):
        return lift(arg)
    return where(omitted(arg), default, arg)


@dataclass(frozen=True)
class Fail(Expr):
    """An error value a formula gives on purpose (``#NUM!``), with the reason
    the Python API and the cells say: ``fail("#VALUE!", "give link_gb_per_s")``."""

    code: str
    why: str = ""

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        return self.code, ATOM

    def value(self, env: Env) -> Value:
        return XlError(self.code)

    def python(self, gen: Python) -> str:
        return f"_fail({self.code!r}, {self.why!r})" if gen.selected else "np.nan"


def fail(code: str, why: str = "") -> Any:
    return Fail(code, why)


__all__ = [
    "Fail",
    "average",
    "choose",
    "exp",
    "fail",
    "given",
    "ln",
    "maximum",
    "minimum",
    "omitted",
    "percentile",
    "rounddown",
    "roundup",
    "sqrt",
    "where",
]
