"""Checks: what an input, a result or a plan must satisfy, as trees.

Every input is checked by the domain of the library argument it feeds
(:meth:`~xlfuncs.registry.domains.Domain.conditions`: the interval the UDFs, the
LAMBDAs and the Python API accept, written once), then by its own rules, then
against the argument's typical range (a warning). Each check is a tree over the
rows it reads, so the Check cell's formula and its cached text are one
definition. Errors outrank warnings: an input lists its errors first, and the
model check names an error before any warning.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import date, timedelta

from openpyxl.worksheet.datavalidation import DataValidation

from ..registry import ARGS, Arg
from ..registry.domains import FRACTION, WHOLE, Domain
from ..registry.excel import key
from . import texts as tx
from .blocks import Check, Input
from .expr import Expr, F, Problems, Ref, Say
from .texts import Text
from .written import parse

# An input no library function takes (a table's multiple): a positive number.
_TEMPLATE_ONLY = Arg("template_only", "", "")


def domain(inp: Input) -> Domain | None:
    """The interval an input's value must lie in: its argument's, or whole
    numbers from 1 for a count the template wants whole (GPUs, examples)."""
    if inp.domain is not None:
        return inp.domain
    if inp.whole:
        return WHOLE
    return ARGS.get(inp.arg, _TEMPLATE_ONLY).domain


def typical(inp: Input) -> tuple[float, float] | None:
    return inp.typical or ARGS.get(inp.arg, _TEMPLATE_ONLY).typical


@functools.cache
def looked_up(name: str, keys: str) -> Expr:
    """TRUE where the typed name is one the library accepts: found, as the
    library's look-ups find it (:func:`~xlfuncs.registry.excel.key`), among
    ``keys``."""
    return F.ISNUMBER(F.MATCH(parse(key(name)), Ref(keys), 0))


def input_checks(inp: Input) -> list[Check]:
    """The checks of one input, errors first, then the typical-range warning."""
    x = Ref(inp.name)
    if inp.kind == "text":
        short = F.AND(F.ISTEXT(x), F.LEN(F.TRIM(x)).ge(1), F.LEN(x).le(inp.length))
        check = Check(short, tx.ENTER_TEXT)
        if inp.blank:
            return [Check(F.OR(F.ISBLANK(x), check.cond), check.message), *inp.rules]
        return _ordered([check, *inp.rules])
    if inp.kind == "list":
        assert inp.keys is not None, inp.name
        found = Check(looked_up(inp.name, inp.keys), tx.PICK)
        picked = _ordered([found, *inp.rules])
        if inp.blank:  # blank is allowed: none picked
            return [
                Check(F.OR(F.ISBLANK(x), c.cond), c.message, c.error) for c in picked
            ]
        return picked
    out = [Check(F.ISNUMBER(x), tx.ENTER_NUMBER)]
    d = domain(inp)
    if d is not None:
        conds = {k: parse(c) for k, c in d.conditions(inp.name).items()}
        if d is FRACTION:  # a percentage: one message for both ends
            out.append(Check(F.AND(conds["low"], conds["high"]), tx.PERCENT))
        elif _date(inp) and "high" in conds:  # years, not the serials beneath
            years = {"lo": _year(d.lo), "hi": _year(d.hi)}
            out.append(Check(F.AND(conds["low"], conds["high"]),
                             Text(tx.DATE_RANGE.en.format(**years),
                                  tx.DATE_RANGE.es.format(**years))))  # fmt: skip
        elif _percent(inp) and "high" in conds:  # a share, from 0 % (or -100 %)
            out.append(Check(F.AND(conds["low"], conds["high"]), _percent_range(d)))
        elif d.whole:
            lo = d.least_whole
            out.append(
                Check(F.AND(x.ge(lo), conds["whole"]), _with(tx.ENTER_WHOLE, lo=lo))
            )
            if "high" in conds:
                out.append(Check(conds["high"], _with(tx.AT_MOST, hi=d.hi)))
        else:
            message = tx.AT_LEAST if d.lo_closed else tx.ABOVE
            out.append(Check(conds["low"], _with(message, lo=d.lo)))
            if "high" in conds:
                out.append(Check(conds["high"], _with(tx.AT_MOST, hi=d.hi)))
    span = typical(inp) if inp.usual else None
    if span is not None:
        lo, hi = span
        fmt = inp.fmt if isinstance(inp.fmt, str) else inp.fmt.en
        # Three orders of magnitude off is no plan but a unit typed wrong.
        bounds = {"lo": lo, "hi": hi}
        if d is None or hi * 1000 < d.hi:  # else the domain's own limit says it
            slip = _shown_with(tx.UNIT_SLIP, fmt, bounds)
            out.append(Check(x.le(hi * 1000), slip, slip=True))
        if lo > 0:
            slip = _shown_with(tx.UNIT_SLIP_LOW, fmt, bounds)
            out.append(Check(x.ge(lo / 1000), slip, slip=True))
        message = Text(
            tx.UNUSUAL.en.format(lo=shown(lo, fmt, "en"), hi=shown(hi, fmt, "en")),
            tx.UNUSUAL.es.format(lo=shown(lo, fmt, "es"), hi=shown(hi, fmt, "es")),
        )
        out.append(Check(F.AND(x.ge(lo), x.le(hi)), message, error=False))
    out = _ordered([*out, *inp.rules])
    if inp.blank:  # blank is allowed, and means what the help says
        return [Check(F.OR(F.ISBLANK(x), c.cond), c.message, c.error) for c in out]
    return out


def _date(inp: Input) -> bool:
    """Whether the input is a date (its cells read Jan 2027)."""
    f = inp.fmt if isinstance(inp.fmt, str) else inp.fmt.en
    return "yy" in f


def _year(serial: float) -> int:
    """The year of a date serial (1900 system, from 1 March 1900 on)."""
    return (date(1899, 12, 30) + timedelta(days=int(serial))).year


def _percent(inp: Input) -> bool:
    """Whether the input is shown as a percentage (its cells read 82%)."""
    f = inp.fmt if isinstance(inp.fmt, str) else inp.fmt.en
    return "%" in f


def _percent_range(d: Domain) -> Text:
    """ "Enter a percentage from 0% to 100%": the limits as the cell shows them."""
    lo, hi = shown(d.lo, "0%", "en"), shown(d.hi, "0%", "en")
    lo_es, hi_es = shown(d.lo, "0%", "es"), shown(d.hi, "0%", "es")
    return Text(
        tx.PERCENT_RANGE.en.format(lo=lo, hi=hi),
        tx.PERCENT_RANGE.es.format(lo=lo_es, hi=hi_es),
    )


def _ordered(checks: Sequence[Check]) -> list[Check]:
    """Errors before warnings, each in the order given."""
    return [c for c in checks if c.error] + [c for c in checks if not c.error]


def first_problem(checks: Sequence[Check]) -> Expr:
    """The message of the first check that fails, or OK (errors are listed
    first by whoever orders ``checks``). The model numbers the messages
    (:class:`~xlfuncs.templates.expr.Problems`)."""
    return Problems(tuple(c.cond for c in checks), tuple(c.message for c in checks))


def errors(checks: Sequence[Check]) -> list[Expr]:
    """The conditions a result needs (errors, not warnings)."""
    return [c.cond for c in checks if c.error]


def guarded(body: Expr, conds: Sequence[Expr]) -> Expr:
    """n/a unless every condition holds; n/a for any error the body gives."""
    na = Say(tx.NA)
    if conds:
        body = F.IF(F.AND(*conds) if len(conds) > 1 else conds[0], body, na)
    return F.IFERROR(body, na)


def severity(status: Expr) -> Expr:
    """0 for OK, 2 for an error (a status that begins "Error:"), 1 for anything
    else: a warning, or n/a."""
    word = tx.ERROR_WORD
    error = F.LEFT(status, len(word.en)).eq(Say(word))
    return F.IF(status.eq(Say(tx.OK)), 0, F.IF(error, 2, 1))


# ------------------------------------------------------------------ data validation


def validation(inp: Input, lang: str, label: str, prompt: str) -> DataValidation:
    """Excel's own data validation for the input, from the same domain: its
    pop-up says what the input is, its alert every limit the input has."""
    checks = input_checks(inp)
    limits = [
        c.message(lang)
        for c in checks
        if c.error and c.message is not tx.ENTER_NUMBER and isinstance(c.message, Text)
    ]
    d = domain(inp)
    if inp.kind == "text":
        dv = DataValidation(
            type="textLength",
            operator="between",
            formula1="1",
            formula2=str(inp.length),
        )
    elif inp.kind == "list":
        dv = DataValidation(type="list", formula1=inp.menu or inp.keys)
    else:
        assert d is not None, inp.name
        kind, op, f1, f2 = d.validation()
        dv = DataValidation(type=kind, operator=op, formula1=f1, formula2=f2)  # type: ignore[arg-type]
    dv.allow_blank = inp.blank
    dv.showInputMessage = dv.showErrorMessage = True
    dv.errorStyle = "stop"
    dv.promptTitle = label[:32]
    dv.prompt = prompt[:255]
    dv.errorTitle = tx.INVALID_TITLE(lang)[:32]
    # "Error: must be 0 or more; must be at most 3": every limit, one "Error:".
    first, *rest = limits or [tx.ENTER_NUMBER(lang)]
    more = [m.split(": ", 1)[-1] for m in rest]
    dv.error = "; ".join([first, *more])[:255]
    return dv


# ------------------------------------------------------------------ numbers in words


def shown(v: float, fmt: str, lang: str) -> str:
    """A number as a cell in ``fmt`` shows it, for a message: 30%, 100,000, 0.05,
    10 B (Spanish separators in Spanish); never E-notation."""
    word = ""
    if "%" in fmt:
        text = f"{v:.0%}"
    elif abs(v) >= 1e6:
        for size, scale in ((1e12, tx.TRILLION), (1e9, tx.BILLION), (1e6, tx.MILLION)):
            if abs(v) >= size:
                text, word = f"{v / size:,.4g}", " " + scale(lang)
                break
    elif v >= 1000:
        text = f"{v:,.0f}"
    else:
        text = f"{v:g}"
    if lang == "es":  # the figure's separators, not the word's ("bill.")
        text = text.replace(",", "\u00a0").replace(".", ",").replace("\u00a0", ".")
        text = text.replace("%", " %")
    return text + word


def _shown_with(message: Text, fmt: str, bounds: dict[str, float]) -> Text:
    """``message`` with its bounds written as the input's cells show them."""
    return Text(
        message.en.format(**{k: shown(v, fmt, "en") for k, v in bounds.items()}),
        message.es.format(**{k: shown(v, fmt, "es") for k, v in bounds.items()}),
    )


def _with(message: Text, **bounds: float) -> Text:
    """``message`` with its bounds written as each edition writes numbers."""
    return Text(
        message.en.format(**{k: shown(v, "0", "en") for k, v in bounds.items()}),
        message.es.format(**{k: shown(v, "0", "es") for k, v in bounds.items()}),
    )


def fit(
    need: Expr,
    have: Expr,
    usable: Expr,
    fewest: Expr | None = None,
    *,
    judged: bool = True,
) -> Expr:
    """Whether the memory a GPU needs fits what it has: OK within the usable
    share (the one headroom rule MIN_GPUS_FOR_MEMORY uses), a warning above it,
    an error beyond the GPU with the fewest GPUs that would fit. ``judged``
    False: the same verdict without Error/Warning, for a method shown only to
    compare."""
    pct = figure(need / have * 100, 0).cat(Text("%", "\u00a0%"))
    free = figure((1 - usable) * 100, 0).cat(Text("%", "\u00a0%"))
    if judged:
        before, rest = tx.TIGHT.split("{pct}")
        middle, after = rest.split("{free}")
        tight = Say(before).cat(pct, middle, free, after)
        head, rest = tx.NO_FIT.split("{need}")
        middle, tail = rest.split("{have}")
        no_fit = Say(head).cat(figure(need, 1), middle, figure(have, 1), tail)
        ok: Expr = Say(tx.OK)
    else:
        before, after = tx.FITS_TIGHT.split("{pct}")
        tight = Say(before).cat(pct, after)
        head, tail = tx.DOES_NOT_FIT.split("{need}")
        no_fit = Say(head).cat(figure(need, 1), tail)
        ok = Say(tx.FITS)
    if fewest is not None:
        before, after = tx.FEWEST.split("{n}")
        more = F.IF(F.ISNUMBER(fewest), Say(before).cat(figure(fewest, 0), after), "")
        no_fit = no_fit.cat(more)
    verdict = F.IF(need.le(have * usable), ok, F.IF(need.le(have), tight, no_fit))
    return F.IF(
        F.AND(F.ISNUMBER(need), F.ISNUMBER(have), F.ISNUMBER(usable)),
        verdict,
        Say(tx.NA),
    )


def figure(x: Expr, decimals: int) -> Expr:
    """A number in a message as the reader's Excel writes it (FIXED uses the
    reader's separators; TEXT with a fixed "0.0" would not)."""
    return F.FIXED(x, decimals)


def messages(inp: Input, lang: str) -> list[str]:
    """What the input's Check cell may say (a message with figures: its text
    with room for them)."""
    return [
        c.message(lang) if isinstance(c.message, Text) else "x" * 90
        for c in input_checks(inp)
    ]


__all__ = [
    "Check",
    "domain",
    "errors",
    "figure",
    "fit",
    "first_problem",
    "guarded",
    "input_checks",
    "looked_up",
    "messages",
    "severity",
    "shown",
    "typical",
    "validation",
]
