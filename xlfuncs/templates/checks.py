"""One rule turns an argument's domain into the Excel check, the validation and
the message.

Every input is checked by the domain of the library argument it feeds
(:mod:`xlfuncs.registry.arguments`): the same interval the UDFs and the Python
API accept. :func:`rules` lists, in order, each condition an input must meet
with what its Check cell says when it does not: errors first (the results then
show n/a), then the warning for a value outside the argument's typical range
(the results still compute). The Excel and the Python side of each rule are
written together, so the cached check texts are what Excel computes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from openpyxl.worksheet.datavalidation import DataValidation

from ..registry import ARGS, Arg
from ..registry.domains import FRACTION
from ..registry.excel import exact, xl
from . import texts as tx
from .blocks import Input, Rule
from .texts import Text


@dataclass(frozen=True)
class Check:
    """A condition on one input: Excel text over ``{x}``, the same test in Python."""

    excel: str  # holds when all is well; {x} is the input's cell or name
    python: Callable[[Any, dict[str, Any]], bool]  # (value, all values)
    message: Text
    error: bool = True

    def condition(self, ref: str) -> str:
        return self.excel.replace("{x}", ref)


# An input no library function takes (a table's multiples): a positive number.
_TEMPLATE_ONLY = Arg("template_only", "", "")


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _number_text(v: float, fmt: str, lang: str) -> str:
    """A bound as the reader sees it: 30%, 100,000, 0.05 (Spanish separators)."""
    if "%" in fmt:
        text = f"{v:.0%}"
    elif v >= 1000:
        text = f"{v:,.0f}" if v < 1e7 else f"{v:.0e}"
    else:
        text = f"{v:g}"
    if lang == "es":
        text = text.replace(",", "\u00a0").replace(".", ",").replace("\u00a0", ".")
        text = text.replace("%", " %")
    return text


Test = Callable[[Any, dict[str, Any]], bool]


def _with(message: Text, **bounds: float) -> Text:
    """``message`` with its bounds written as each edition writes numbers."""
    return Text(
        message.en.format(**{k: _number_text(v, "0", "en") for k, v in bounds.items()}),
        message.es.format(**{k: _number_text(v, "0", "es") for k, v in bounds.items()}),
    )


def _interval(lo: float, hi: float, lo_closed: bool, hi_closed: bool) -> Test:
    def test(v: Any, _: dict[str, Any]) -> bool:
        above = v >= lo if lo_closed else v > lo
        below = v <= hi if hi_closed else v < hi
        return bool(above and below)

    return test


def _in_list(name: str) -> Test:
    def test(v: Any, env: dict[str, Any]) -> bool:
        names = {n.lower() for n in env["@lists"][name]}
        return isinstance(v, str) and v.strip().lower() in names

    return test


def _from_rule(r: Rule) -> Check:
    def test(_: Any, env: dict[str, Any]) -> bool:
        return r.python(env)

    return Check(r.excel, test, r.message, r.error)


def _or_blank(c: Check) -> Check:
    def test(v: Any, env: dict[str, Any]) -> bool:
        return v is None or c.python(v, env)

    return Check(f"OR(ISBLANK({{x}}),{c.excel})", test, c.message, c.error)


def _short_text(v: Any, _: dict[str, Any]) -> bool:
    return isinstance(v, str) and len(v.strip()) >= 1 and len(v) <= 12


def _number(v: Any, _: dict[str, Any]) -> bool:
    return is_number(v)


def _whole_from(lo: float) -> Test:
    def test(v: Any, _: dict[str, Any]) -> bool:
        return bool(v >= lo and float(v).is_integer())

    return test


INF = math.inf


def _least_whole(inp: Input) -> float:
    """The least whole number a whole-number input takes: 1 for counts, else its
    domain's (0 for a ZeRO stage, 1 for a LoRA rank, which must be above 0)."""
    d = ARGS.get(inp.arg, _TEMPLATE_ONLY).domain
    if inp.whole or d is None:
        return 1.0
    return float(math.ceil(d.lo) if d.lo_closed else math.floor(d.lo) + 1)


def rules(inp: Input) -> list[Check]:
    """The checks of one input, errors first, then the typical-range warning."""
    if inp.text:
        text = "AND(ISTEXT({x}),LEN(TRIM({x}))>=1,LEN({x})<=12)"
        return [Check(text, _short_text, tx.ENTER_TEXT)]
    if inp.choices:
        listed = f"ISNUMBER(MATCH({exact('{x}')},{inp.choices},0))"  # no wildcards
        return [Check(listed, _in_list(inp.choices), tx.PICK)] + [
            _from_rule(r) for r in inp.rules
        ]
    arg = ARGS.get(inp.arg, _TEMPLATE_ONLY)
    d = arg.domain
    out = [Check("ISNUMBER({x})", _number, tx.ENTER_NUMBER)]
    if d is FRACTION:  # a percentage: one message for both ends
        out.append(Check("AND({x}>0,{x}<=1)", _interval(0, 1, False, True), tx.PERCENT))
    elif inp.whole or (d is not None and d.whole):
        lo = _least_whole(inp)
        message = _with(tx.ENTER_WHOLE, lo=lo)
        out.append(
            Check(f"AND({{x}}>={xl(lo)},{{x}}=INT({{x}}))", _whole_from(lo), message)
        )
    elif d is not None:
        op, message = (">=", tx.AT_LEAST) if d.lo_closed else (">", tx.ABOVE)
        above = _interval(d.lo, INF, d.lo_closed, False)
        message = _with(message, lo=d.lo)
        out.append(Check(f"{{x}}{op}{xl(d.lo)}", above, message))
    if d is not None and d is not FRACTION and math.isfinite(d.hi):
        op = "<=" if d.hi_closed else "<"
        below = _interval(-INF, d.hi, False, d.hi_closed)
        message = _with(tx.AT_MOST, hi=d.hi)
        out.append(Check(f"{{x}}{op}{xl(d.hi)}", below, message))
    out += [_from_rule(r) for r in inp.rules]
    if arg.typical is not None:
        lo, hi = arg.typical
        fmt = inp.fmt if isinstance(inp.fmt, str) else inp.fmt.en
        message = Text(
            tx.UNUSUAL.en.format(
                lo=_number_text(lo, fmt, "en"), hi=_number_text(hi, fmt, "en")
            ),
            tx.UNUSUAL.es.format(
                lo=_number_text(lo, fmt, "es"), hi=_number_text(hi, fmt, "es")
            ),
        )
        typical = _interval(lo, hi, True, True)
        out.append(
            Check(
                f"AND({{x}}>={xl(lo)},{{x}}<={xl(hi)})", typical, message, error=False
            )
        )
    if inp.blank:  # blank is allowed, and means what the help says
        out = [_or_blank(c) for c in out]
    return out


def first_problem(inp: Input, value: Any, env: dict[str, Any]) -> Text | None:
    """What the input's Check cell says: the first rule it breaks, or None."""
    for c in rules(inp):
        try:
            ok = c.python(value, env)
        except TypeError:  # a comparison with text: Excel's IFERROR says the first
            return rules(inp)[0].message
        if not ok:
            return c.message
    return None


def valid(inp: Input, value: Any, env: dict[str, Any]) -> bool:
    """True unless an error rule fails (a warning still computes)."""
    for c in rules(inp):
        if not c.error:
            continue
        try:
            if not c.python(value, env):
                return False
        except TypeError:
            return False
    return True


def check_formula(inp: Input, ref: str, lang: str) -> str:
    """The Check cell: the first rule broken, or OK."""
    chain = _q(tx.OK(lang))
    for c in reversed(rules(inp)):
        chain = f"IF(NOT({c.condition(ref)}),{_q(c.message(lang))},{chain})"
    # Text where a number belongs makes INT() an error: the first message says it.
    return f"=IFERROR({chain},{_q(rules(inp)[0].message(lang))})"


def error_conditions(inp: Input, ref: str) -> list[str]:
    """The Excel conditions a result needs of this input (errors, not warnings)."""
    return [c.condition(ref) for c in rules(inp) if c.error]


def messages(inp: Input, lang: str) -> list[str]:
    return [c.message(lang) for c in rules(inp)]


def validation(inp: Input, lang: str, label: str, prompt: str) -> DataValidation:
    """Excel's own data validation for the input, from the same domain: its
    pop-up says what the input is, its alert every limit the input has."""
    limits = [
        c.message(lang)
        for c in rules(inp)
        if c.error and c.message is not tx.ENTER_NUMBER
    ]
    dv: DataValidation
    d = ARGS.get(inp.arg, _TEMPLATE_ONLY).domain
    if inp.text:
        dv = DataValidation(
            type="textLength", operator="between", formula1="1", formula2="12"
        )
    elif inp.choices:
        dv = DataValidation(type="list", formula1=inp.menu or inp.choices)
    elif inp.whole or (d is not None and d.whole):
        lo = _least_whole(inp)
        if d is not None and math.isfinite(d.hi):
            dv = DataValidation(
                type="whole", operator="between", formula1=xl(lo), formula2=xl(d.hi)
            )
        else:
            dv = DataValidation(
                type="whole", operator="greaterThanOrEqual", formula1=xl(lo)
            )
    else:
        assert d is not None
        if math.isfinite(d.hi):
            # Excel's "between" is inclusive: an open end is nudged inside.
            lo = d.lo if d.lo_closed else d.lo + 1e-12
            dv = DataValidation(
                type="decimal", operator="between", formula1=xl(lo), formula2=xl(d.hi)
            )
        else:
            op: Literal["greaterThanOrEqual", "greaterThan"] = (
                "greaterThanOrEqual" if d.lo_closed else "greaterThan"
            )
            dv = DataValidation(type="decimal", operator=op, formula1=xl(d.lo))
    dv.allow_blank = inp.blank
    dv.showInputMessage = dv.showErrorMessage = True
    dv.errorStyle = "stop"
    dv.promptTitle = label[:32]
    dv.prompt = prompt[:255]
    dv.errorTitle = tx.INVALID_TITLE(lang)[:32]
    # "Error: must be 0 or more; must be at most 3": every limit, one "Error:".
    first, *rest = limits or [rules(inp)[0].message(lang)]
    more = [m.split(": ", 1)[-1] for m in rest]
    dv.error = "; ".join([first, *more])[:255]
    return dv


def _q(text: str) -> str:
    """A string literal in an Excel formula."""
    return '"' + text.replace('"', '""') + '"'
