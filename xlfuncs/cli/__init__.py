"""The ``xlfuncs`` command line: list, calculate, check examples, set up Excel.

Every subcommand reads the function registry, so what it prints is what Excel and
the docs show. Bad input exits with status 2 and one line on stderr; nothing the
user types, no terminal encoding and no closed pipe gives a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import math
import os
import re
import shlex
import sys
import textwrap
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO, cast

try:
    from .. import FUNCTIONS, __version__
except ImportError:  # a folder named xlfuncs in the way: said in one line
    from .shadowed import explain

    explain()
    raise
from ..data.accelerators import ACCELERATORS
from ..data.models import MODELS
from ..data.units import DTYPES
from ..registry import Arg, Formula, InputError, UnusualValueWarning
from ..registry.display import format_number, plain
from ..registry.domains import FRACTION, PERCENTILE
from .process import (
    Terminated,
    Watched,
    output_error,
    quiet_stdout,
    safe_streams,
    say,
    signals_as_exceptions,
    stdout_closed,
)

WIDTH = 100  # columns `xlfuncs list` and `xlfuncs gpus` fit in


class CliError(Exception):
    """A one-line message for the user; exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line, as every other xlfuncs error."""

    def error(self, message: str) -> NoReturn:
        wrong = re.match(r"argument COMMAND: invalid choice: '([^']*)'", message)
        if wrong:
            commands = [
                str(c)
                for a in self._actions
                if a.dest == "command"
                for c in a.choices or ()
            ]
            close = difflib.get_close_matches(wrong[1], commands, n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            message = f"unknown command {wrong[1]!r}; {hint}the commands: " + ", ".join(
                commands
            )
        say(f"{message} (`{self.prog} --help` explains)")
        raise SystemExit(2)


def lookup(name: str) -> Formula:
    """The function called ``name`` (any case), or a CliError with a suggestion."""
    spec = FUNCTIONS.get(name.strip().upper())
    if spec is not None:
        return spec
    close = difflib.get_close_matches(name.strip().upper(), FUNCTIONS, n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    raise CliError(f"unknown function {name!r}; {hint}`xlfuncs list` shows them all")


_THOUSANDS = re.compile(r"[+-]?\d{1,3}(,\d{3})+(\.\d*)?")
#: Suffixes planners write: 70B parameters, 1.5T tokens, 1M examples, 2.5k tokens.
SUFFIXES = {"k": 3, "K": 3, "M": 6, "B": 9, "b": 9, "T": 12, "t": 12}
_SUFFIXED = re.compile(r"([+-]?(?:\d[\d,_]*(?:\.\d*)?|\.\d+))\s*([A-Za-z])")


def parse_number(text: str) -> float:
    """A number as people type it: ``2,500``, ``82%`` (0.82), ``-1e3``, ``1_000``,
    and with a suffix: ``2.5k``, ``1M``, ``70B``, ``1.5T`` (thousand, million,
    billion, trillion)."""
    t = text.strip()
    percent = t.endswith("%")
    if percent:  # ÷ 100, as Excel reads 82% (0.82; × 0.01 gives 0.8200000000000001)
        t = t[:-1].strip()
    suffixed = None if percent else _SUFFIXED.fullmatch(t)
    exponent = ""
    if suffixed:
        t, letter = suffixed.groups()
        if letter not in SUFFIXES:
            hint = "; a million is M" if letter == "m" else ""
            raise ValueError(f"the suffixes are k, M, B and T{hint}")
        exponent = f"e{SUFFIXES[letter]}"
    if _THOUSANDS.fullmatch(t):
        t = t.replace(",", "")
    # 1.5e12 read at once: 0.1T is 1e11 exactly, where 0.1 * 1e12 is not.
    return float(t + exponent) / 100 if percent else float(t + exponent)


def is_fraction(arg: Arg) -> bool:
    """Whether ``arg`` is a share, typed as 82% or 0.82 (efficiency, mfu)."""
    return arg.domain in (FRACTION, PERCENTILE)


#: Where an argument's figure comes from when a name is at hand instead: the
#: function that gives it.
FIGURE_FROM = {
    "peak_tflops_per_gpu": ("gpu", "GPU_PEAK_TFLOPS {name}", "its dense peak"),
    "achieved_tflops_per_gpu": (
        "gpu",
        "GPU_PEAK_TFLOPS {name}",
        "its dense peak; times an MFU such as 40% for the achieved rate",
    ),
    "memory_gb": ("gpu", "GPU_MEMORY_GB {name}", "its memory"),
    "bandwidth_tb_per_s": ("gpu", "GPU_BANDWIDTH_TBS {name}", "its bandwidth"),
    "watts_per_gpu": ("gpu", "GPU_POWER_W {name}", "its power"),
    "params": ("model", "MODEL_SPEC {name} params", "its parameter count"),
    "layers": ("model", "MODEL_SPEC {name} layers", "its layers"),
    "d_model": ("model", "MODEL_SPEC {name} d_model", "its width"),
    "attention_width": ("model", "MODEL_SPEC {name} d_model", "its width"),
    "heads": ("model", "MODEL_SPEC {name} heads", "its attention heads"),
    "kv_heads": ("model", "MODEL_SPEC {name} kv_heads", "its key/value heads"),
    "head_dim": ("model", "MODEL_SPEC {name} head_dim", "its head width"),
    "ffn_dim": ("model", "MODEL_SPEC {name} ffn_dim", "its MLP width"),
}
#: For a name the tables lack: the function that takes its figures instead.
FROM_FIGURES = {
    "MODEL_DECODE_TOKENS_PER_SEC": "DECODE_TOKENS_PER_SEC takes its parameter count",
    "GPU_PEAK_TFLOPS": "functions take its datasheet's dense peak as a number",
    "GPU_MEMORY_GB": "functions take its memory in GB as a number",
    "GPU_BANDWIDTH_TBS": "DECODE_TOKENS_PER_SEC takes its bandwidth as a number",
    "GPU_POWER_W": "TRAINING_ENERGY_MWH takes its watts as a number",
    "MODEL_SPEC": "the functions take its figures (parameters, layers) as numbers",
}


def _known(kind: str, word: str) -> str | None:
    """The name ``word`` stands for, if it is an accelerator or a model."""
    from ..data.accelerators import find as find_accelerator
    from ..data.models import find_model
    from ..registry.arguments import clean_name

    typed = clean_name(word)
    found = find_accelerator(typed) if kind == "gpu" else find_model(typed)
    return None if found is None else found.name


def figure_hint(arg: Arg, word: str) -> str:
    """``; `xlfuncs calc GPU_PEAK_TFLOPS H100` gives its dense peak`` where
    ``word`` names an accelerator or a model whose figure ``arg`` wants."""
    source = FIGURE_FROM.get(arg.name)
    if source is None:
        return ""
    kind, call, what = source
    if _known(kind, word.strip()) is None:
        return ""
    return (
        f"; `xlfuncs calc {call.format(name=shlex.quote(word.strip()))}` gives {what}"
    )


def parse_value(spec: Formula, i: int, text: str) -> Any:
    """A command-line word as the argument's value: a number, a list or a name.

    A range argument (``lengths``) is a list separated by commas, semicolons or
    spaces, but a word that could also be one grouped number (``1,200``) is
    refused; every other number may use thousands separators (``2,500``). A
    percentage is a fraction, only where a fraction is meant: ``40%`` for a
    peak in TFLOP/s is an argument left out, not 0.4 TFLOP/s.
    """
    arg = spec.args[i]
    if not text.strip() and arg.name in spec.defaults:
        return None  # an empty word skips an optional argument, as a blank cell
    if arg.kind == "choice":
        return text
    if text.strip().endswith("%") and not is_fraction(arg):
        word = text.strip()
        shares = [a.name for a in spec.args[i + 1 :] if is_fraction(a)]
        where = f", where a share such as {word} is {shares[0]}" if shares else ""
        peak = ""
        if arg.name.startswith("achieved"):
            call = "`xlfuncs calc GPU_PEAK_TFLOPS H100`"
            peak = f"; it is a peak times an MFU: {call} × {word}"
        raise CliError(
            f"{arg.name} takes no percentage ({word} would be "
            f"{format_number(parse_number(text))} {arg.unit}){peak}; the "
            f"arguments: {signature(spec)}{where}"
        )
    if arg.kind == "sample" and _THOUSANDS.fullmatch(text.strip()):
        # 1,200 may be one length or two; guessing either gives a wrong answer.
        word = text.strip()
        raise CliError(
            f"{arg.name}: {word!r} may be one number or a list; write a number "
            f"without commas ({word.replace(',', '')}) or a list in quotes, "
            f'separated by spaces ("{word.replace(",", " ")}")'
        )
    try:
        if arg.kind == "sample":
            return [parse_number(p) for p in re.split(r"[,;\s]+", text) if p]
        value = parse_number(text)
    except ValueError as err:
        what = "numbers" if arg.kind == "sample" else "a number"
        why = f" ({err})" if str(err).startswith("the suffixes") else ""
        hint = "" if why else figure_hint(arg, text)
        raise CliError(f"{arg.name} must be {what}, not {text!r}{why}{hint}") from None
    if is_fraction(arg) and value > 1:
        # The user's own figure, as a percentage: 82 meant 82%; 150% is over.
        meant = (
            f"enter {format_number(value)}% or {format_number(value / 100)}"
            if value <= 100 and not text.strip().endswith("%")
            else "enter a share of at most 100% (1)"
        )
        raise CliError(
            f"{arg.name} must be a fraction in (0, 1]: {meant}, not {text.strip()}"
        )
    return value


def calc(spec: Formula, words: Sequence[str]) -> Any:
    err = spec.arity_error(len(words))
    if err:
        raise err
    values = [parse_value(spec, i, w) for i, w in enumerate(words)]
    for arg, value in zip(spec.args, values):
        unknown = arg.scalar_error(value) if arg.kind == "choice" and value else None
        if unknown is not None:
            raise CliError(unknown_name(spec, arg, unknown))
    return spec.api(*values)


def unknown_name(spec: Formula, arg: Arg, err: InputError) -> str:
    """A name the tables lack, with the closest one or where the list is, and
    for an accelerator or a model, what takes the figures of one not listed."""
    said = re.sub(r" \(in Python, [^)]*\)", "", err.reason)
    said = re.sub(r"did you mean '(.*)'\?$", r"did you mean \1?", said)
    other = FROM_FIGURES.get(spec.name) if arg.name in ("gpu", "model") else None
    if not other:
        return said
    return f"{said}{'' if said.endswith('?') else '.'} For one not listed, {other}."


def calc_warning_slips(
    spec: Formula, words: Sequence[str], currency: str | None = None
) -> Any:
    """:func:`calc`, each value outside its typical range (a likely unit slip,
    the API's UnusualValueWarning) said in one line on stderr, a price judged
    in its currency as the templates judge it, and the result judged as the
    templates judge theirs (:func:`judged_result`); the result is still
    returned and printed, and the exit status stays 0."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UnusualValueWarning)
        result = calc(spec, words)
    for w in caught:
        if not issubclass(w.category, UnusualValueWarning):
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
        elif getattr(w.message, "name", "") != "price_per_gpu_hour":
            say(str(w.message), "warning")
    prices = [
        parse_number(word)
        for a, word in zip(spec.args, words)
        if a.name == "price_per_gpu_hour" and word.strip()
    ]
    for price in prices:
        said = price_slip(price, currency)
        if said:
            say(said, "warning")
    said = judged_result(spec, result)
    if said:
        say(said, "warning")
    return result


def _rate(currency: str) -> float | None:
    """A US dollar in ``currency`` (the Data sheet's rate), or None for no code."""
    from ..data.planning import CURRENCIES

    code = currency.strip().upper()
    return next((c.per_usd for c in CURRENCIES if c.code == code), None)


def price_slip(price: float, currency: str | None) -> str | None:
    """The templates' price band (xlfuncs.data.planning.PRICE_USD_BAND, in the
    currency at the Data sheet's rate): outside it, one line naming the
    likely slip; cents only where cents are what was typed."""
    from ..data.planning import PRICE_USD_BAND

    code = (currency or "USD").strip().upper()
    rate = _rate(code)
    if rate is None:
        return None  # refused by the command before it gets here
    lo, hi = (x * rate for x in PRICE_USD_BAND)
    if lo <= price <= hi:
        return None
    said = (
        f"price_per_gpu_hour {format_number(price)}: unusual for {code}: public "
        f"prices run {format_number(lo)} to {format_number(hi)} a GPU-hour"
    )
    if lo <= price / 100 <= hi:
        other = "" if currency else "; in another currency, add e.g. --currency JPY"
        return f"{said} (was it typed in cents?{other})"
    if lo <= price / 8 <= hi:
        return f"{said} (an 8-GPU node's price? {format_number(price / 8)} a GPU-hour)"
    return said


def judged_result(spec: Formula, result: Any) -> str | None:
    """What the templates say of such a result, in one line, or None: a run's
    duration by their time checks (over five years no plan runs, over a year is
    rare), an MFU by the mfu argument's own range (above 100 % is faster than
    the GPU's peak)."""
    if not isinstance(result, float) or not math.isfinite(result):
        return None
    if spec.unit in ("days", "hours"):
        from ..templates.expr import Env
        from ..templates.shared import HOURS_A_YEAR, time_checks

        per_year = 365 if spec.unit == "days" else HOURS_A_YEAR
        env = Env({"x": result})
        for check in time_checks("x", per_year):
            if not check.cond.value(env):
                message = check.message.en if hasattr(check.message, "en") else ""
                text = message.split(": ", 1)[-1]
                return f"{spec.name} {result:,.0f} {spec.unit}: {text}"
        return None
    if spec.name == "MFU":
        from ..registry import ARGS

        mfu = ARGS["mfu"]
        shown = f"{format_number(round(result * 100, 1))}%"
        if mfu.domain is not None and not mfu.domain.contains(result):
            return (
                f"MFU {shown}: faster than the GPU's peak allows: tokens/s per GPU, "
                "not per cluster or per minute?"
            )
        if mfu.typical is not None and not mfu.typical[0] <= result <= mfu.typical[1]:
            lo, hi = (format_number(x * 100) for x in mfu.typical)
            return f"MFU {shown}: unusual; typical is {lo}% to {hi}%"
    return None


# ------------------------------------------------------------------ listings


def signature(spec: Formula) -> str:
    """``CHINCHILLA_PARAMS(budget_pf_days, [tokens_per_param=20])``."""
    parts = [
        a.name
        if a.name not in spec.defaults
        else f"[{a.name}]"
        if spec.defaults[a.name] is None
        else f"[{a.name}={_default(spec.defaults[a.name])}]"
        for a in spec.args
    ]
    return f"{spec.name}({', '.join(parts)})"


def _default(v: Any) -> str:
    return format_number(float(v)) if isinstance(v, (int, float)) else str(v)


def _wrap(text: str, indent: str, more: str = "") -> str:
    """``text`` in lines of at most WIDTH columns; ``more`` indents the later ones."""
    return textwrap.fill(
        plain(text),
        WIDTH,
        initial_indent=indent,
        subsequent_indent=indent + more,
        break_on_hyphens=False,
        break_long_words=False,  # a web address stays whole
    )


def cmd_list(ns: argparse.Namespace) -> None:
    if ns.name:
        print(describe(lookup(ns.name)))
        return
    for spec in FUNCTIONS.values():
        print(_wrap(f"{signature(spec)} → {spec.unit}", "", "        "))
        print(_wrap(spec.description, "    "))
    print("\n`xlfuncs list NAME` shows one function in full.")


def describe(spec: Formula) -> str:
    """One function in full: arguments, formula, source, example."""
    from ..docs import formula_line, references  # read from the same docstring

    lines = [_wrap(signature(spec), "", "    "), "", _wrap(spec.description, "")]
    lines += ["", f"Returns: {spec.unit}"]
    if formula_line(spec):
        lines.append(_wrap(formula_line(spec), "", "    "))
    lines += ["", "Arguments:"]
    for a in spec.args:
        opt = ""
        if a.name in spec.defaults:
            default = spec.defaults[a.name]
            shown = f", default {_default(default)}" if default is not None else ""
            opt = ", optional" + shown
        lines.append(f"  {a.name} ({a.unit}{opt})")
        lines.append(_wrap(a.doc, "      "))
    if references(spec):
        lines += ["", _wrap("Source: " + references(spec), "")]
    ex = spec.example
    result = format_number(spec.api(*ex.args))
    call = f"{spec.name}({', '.join(_show_input(v) for v in ex.args)})"
    lines += ["", f"Example: {call} = {result} {spec.unit}"]
    return "\n".join(lines)


def cmd_calc(ns: argparse.Namespace) -> None:
    spec = lookup(ns.name)
    words = list(ns.args)
    if "-h" in words or "--help" in words:  # `calc NAME --help`: the function
        print(describe(spec))
        return
    currency = ns.currency
    for k, word in enumerate(words):  # --currency after the arguments, too
        if word == "--currency" and k + 1 < len(words):
            currency = words[k + 1]
            del words[k : k + 2]
            break
        if word.startswith("--currency="):
            currency = word.partition("=")[2]
            del words[k]
            break
    if "--" in words:  # "the options end here": not an argument
        words.remove("--")
    if currency is not None and _rate(currency) is None:  # no price judged in it
        from ..data.planning import CURRENCIES

        codes = ", ".join(c.code for c in CURRENCIES)
        raise CliError(f"--currency {currency}: a currency code, one of {codes}")
    result = calc_warning_slips(spec, words, currency)
    print(result_text(spec, result, _terminal()))


def _terminal() -> bool:
    """Whether a person reads the output: units then; the bare number for scripts."""
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # a closed stream
        return False


def result_text(spec: Formula, result: Any, terminal: bool) -> str:
    """``18.22222222222222``, or for a person ``18.22222222222222 examples/s``, a
    large count with its short form: ``65726706900.619934 parameters (65.7 B)``."""
    text = format_number(result)
    if not terminal:
        return text
    short = short_number(result) if isinstance(result, float) else None
    unit = spec.unit
    if result == 1 and unit.endswith("s") and unit.isalpha():  # 1 GPU, not 1 GPUs
        unit = unit[:-1]
    return f"{text} {unit}" + (f" ({short})" if short else "")


def short_number(x: float) -> str | None:
    """``65.7 B`` for 6.57e10, in the suffixes the CLI reads; None below a million
    or from a quadrillion up, where the full number reads as well."""
    for letter, exponent in (("T", 12), ("B", 9), ("M", 6)):
        if 10.0**exponent <= abs(x) < 1e15:
            shown = f"{x / 10.0**exponent:.3g}"
            if "e" in shown:  # 999.95 rounds up to 1e+03
                shown = f"{float(shown):.0f}"
            return f"{shown} {letter}"
    return None


def cmd_examples(_: argparse.Namespace) -> None:
    rows = []
    for spec in FUNCTIONS.values():
        inputs = ", ".join(_show_input(v) for v in spec.example.args)
        result = spec.api(*spec.example.args)
        rows.append((f"{spec.name}({inputs})", format_number(result), spec.unit))
    w = [max(len(r[i]) for r in rows) for i in range(2)]
    for call, result, unit in rows:
        print(f"{call:<{w[0]}}  = {result:>{w[1]}}  {unit}")


def _show_input(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "{" + ", ".join(_show_input(x) for x in v) + "}"
    return format_number(float(v)) if isinstance(v, (int, float)) else repr(v)


def _table(head: list[str], rows: list[list[str]], left: int = 1) -> list[str]:
    """Columns two spaces apart: the first ``left`` to the left, numbers right;
    the numbers one space apart where two would pass WIDTH columns (each is
    as wide as its heading, so one space still parts them)."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    gap = "  " if sum(widths) + 2 * (len(widths) - 1) <= WIDTH else " "
    lines = []
    for r in [head, *rows]:
        cells = [c.ljust(w) for c, w in zip(r[:left], widths)]
        numbers = [c.rjust(w) for c, w in zip(r[left:], widths[left:])]
        lines.append("  ".join([*cells, gap.join(numbers)]).rstrip())
    return lines


def _figure(x: float | None) -> str:
    return "–" if x is None else format_number(float(x))


def _listing(
    ns: argparse.Namespace,
    table: tuple[list[str], list[list[str]]],
    legend: str,
    note: str,
    sources: list[str],
    left: int = 1,
) -> None:
    """A reference table, a line a row, and its legend; with ``--sources``, the
    note and where each row's figures come from instead."""
    if ns.sources:
        print(_wrap(note, ""))
        for line in sources:
            print(_wrap(line, "  ", "    "))
        return
    for line in _table(*table, left=left):
        print(line)
    print(_wrap(legend, ""))


def cmd_gpus(ns: argparse.Namespace) -> None:
    """The accelerator table, a line each; ``--sources``: where each figure is from."""
    head = ["accelerator", "vendor", *DTYPES, "GB", "TB/s", "W"]
    rows = [
        [
            a.name,
            a.vendor,
            *(_figure(a.peak_tflops.get(d)) for d in DTYPES),
            _gb(a.memory_gb),
            _figure(a.bandwidth_tbs),
            _figure(a.power_w),
        ]
        for a in ACCELERATORS
    ]
    _listing(
        ns,
        (head, rows),
        "Dense peak TFLOP/s per chip (int8: TOP/s), memory GB (10^9 bytes), "
        "bandwidth TB/s, "
        "board power W; – no such mode or figure. Sources: xlfuncs gpus --sources",
        "Names ignore case, spaces and hyphens; H100 means the H100 SXM, A100 the "
        "SXM4 80 GB. Tensor-core figures are dense: NVIDIA's datasheets print them "
        "with sparsity, twice as high. Sources, one per accelerator (peaks; memory, "
        "bandwidth and power):",
        [f"{a.name}: {a.source}; {a.specs_source}" for a in ACCELERATORS],
        left=2,
    )


def _gb(x: float | None) -> str:
    """Memory to a tenth of a GB, as the workbooks show it (85.5 for an H100's
    81,559 MiB), not nine decimals of a binary size in decimal units."""
    return "–" if x is None else f"{x:,.1f}"


def _billions(x: float | None) -> str:
    return "–" if x is None else f"{x / 1e9:,.2f}".rstrip("0").rstrip(".")


def cmd_models(ns: argparse.Namespace) -> None:
    """The model table, one line each; ``--sources``: where each shape is from."""
    head = ["model", "params B", "active B", "layers", "d_model", "heads", "kv"]
    head += ["head", "ffn_dim", "vocab", "context"]
    rows = [
        [
            m.name,
            _billions(m.params),
            _billions(m.active_params),
            *(f"{v:,}" for v in (m.layers, m.d_model, m.heads, m.kv_heads, m.head_dim)),
            *(f"{v:,}" for v in (m.ffn_dim, m.vocab, m.context)),
        ]
        for m in MODELS
    ]
    _listing(
        ns,
        (head, rows),
        "Parameters in billions (active: per token, mixtures of experts); kv: "
        "key/value heads; head: head_dim; ffn_dim per matrix and expert. "
        "Sources: xlfuncs models --sources",
        "Names ignore case, spaces, hyphens and underscores; Hugging Face ids work "
        "with or without the organisation (meta-llama/Llama-3.1-8B). Sources, one "
        "per model (shape; parameter count):",
        [f"{m.name}: {m.source}; {m.params_source}" for m in MODELS],
    )


# --------------------------------------------------------------- excel-setup


def cmd_excel_setup(ns: argparse.Namespace) -> None:
    from ..excel_setup import SetupError, run

    try:
        run(ns.config, print)
    except SetupError as err:
        raise CliError(str(err)) from None


# -------------------------------------------------------------- build, docs


def cmd_build(ns: argparse.Namespace) -> None:
    from ..templates import LANGS, TEMPLATES, build
    from ..templates.layout import build_date

    try:
        build_date()  # a bad SOURCE_DATE_EPOCH: one line naming it, before any work
    except ValueError as err:
        raise CliError(str(err)) from None
    values, typed = settings(ns.set or (), TEMPLATES)
    if values:
        talk_back(values, typed, TEMPLATES)
    try:
        written = build(
            ns.out, [ns.lang] if ns.lang else LANGS, force=ns.force, values=values
        )
    except KeyError as err:
        raise CliError(str(err.args[0])) from None
    for path in written:
        print(f"wrote {path}")


def setting(text: str) -> tuple[str, float | str | None]:
    """``--set NAME=VALUE``: a number read as ``calc`` reads one (82%, 2,500,
    70B), else the text as typed; nothing after "=" leaves the input blank."""
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise CliError(f"--set takes NAME=VALUE, e.g. --set Currency=EUR; not {text!r}")
    if value == "":
        return name.strip(), None
    try:
        return name.strip(), parse_number(value)
    except ValueError:
        return name.strip(), value


def settings(
    texts: Sequence[str], templates: Sequence[Any]
) -> tuple[dict[str, Any], dict[str, str]]:
    """Every ``--set`` read, and each as typed; or a CliError naming the first
    that no template has, that no cell can hold as typed, or that has a % where
    no fraction is meant."""
    from ..templates.build import unknown_inputs
    from ..workbook.limits import shown_problem, typed_problem

    values: dict[str, Any] = {}
    typed: dict[str, str] = {}
    for text in texts:
        name, value = setting(text)
        shown = text.partition("=")[2]
        why = typed_problem(value) or shown_problem(value)
        if why:
            raise CliError(f"--set {name}={_quoted(shown)}: {why}")
        if shown.strip().endswith("%") and not any(
            _is_percent(t.input(name)) for t in templates if t.is_input(name)
        ):
            # What the text would be as a number, when it is one ("%" alone is not).
            would = ""
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                would = f"; {shown.strip()} would be {format_number(float(value))}"
            raise CliError(f"--set {name}={shown}: {name} is no percentage{would}")
        values[name], typed[name] = value, shown
    unknown = unknown_inputs(values, templates)
    if unknown:
        names = {i.name.lower(): i.name for t in templates for i in t.inputs}
        close = difflib.get_close_matches(unknown[0].lower(), names, n=1, cutoff=0.7)
        hint = f" (did you mean {names[close[0]]}?)" if close else ""
        raise CliError(
            f"no template has an input named {', '.join(unknown)}{hint}; "
            "docs/templates.md lists the names"
        )
    return values, typed


def _closest_choice(name: str, value: object, templates: Sequence[Any]) -> str:
    """`` (did you mean H100 SXM?)`` for a name typed where a list's name
    belongs, or nothing."""
    from ..templates.data_sheet import tables

    if not isinstance(value, str):
        return ""
    inp = next((t.input(name) for t in templates if t.is_input(name)), None)
    menu = getattr(inp, "menu", None)
    if inp is None or inp.kind != "list" or menu not in tables():
        return ""
    choices = {str(c).lower(): str(c) for c in tables()[menu].flat() if c}
    close = difflib.get_close_matches(value.strip().lower(), choices, n=1, cutoff=0.6)
    return f" (did you mean {choices[close[0]]}?)" if close else ""


def _quoted(text: str) -> str:
    """A typed value as it reads in a message: as typed, or quoted where it
    holds what a terminal would not show as typed."""
    plain = text.isprintable() and text == text.strip() and len(text) <= 40
    return text if plain else ascii(text[:40] + ("…" if len(text) > 40 else ""))


def _is_percent(inp: Any) -> bool:
    """Whether an input is a fraction shown as a percentage (82% is 0.82)."""
    fmt = inp.fmt if isinstance(inp.fmt, str) else inp.fmt.en
    return "%" in fmt


_DECIMAL_COMMA = re.compile(r"\s*[+-]?\d+,\d+\s*")


def talk_back(
    values: Mapping[str, Any], typed: Mapping[str, str], templates: Sequence[Any]
) -> None:
    """What the workbooks' own checks say of the ``--set`` values: an error
    stops the build in one line (CliError); each warning is one line on
    stderr; which workbooks take each name goes to stdout."""
    from ..templates.build import STANDS_IN, judge, relabelled, stand_in

    judged, models = judge(values, templates)
    errors = [(j, msg, where) for j in judged for msg, where in j.errors.items()]
    if errors:
        j, msg, where = errors[0]
        hint = _closest_choice(j.name, j.value, templates)
        if isinstance(j.value, str) and _DECIMAL_COMMA.fullmatch(j.value):
            hint = (
                f" (the decimal mark is a point: {j.value.strip().replace(',', '.')})"
            )
        more = ""
        others = list(dict.fromkeys(f"{e[0].name}" for e in errors[1:]))
        if others:
            more = "; also in error: " + ", ".join(others)
        raise CliError(
            f"--set {j.name}={_quoted(typed[j.name])}: {_without_word(msg)}{hint}"
            f"{_in(where, j.applied)}{more}"
        )
    for j in judged:
        applied = ", ".join(j.applied)
        line = f"{j.name}={_quoted(typed[j.name])}: set in {applied}"
        if j.lacking:
            line += f"; not in {', '.join(j.lacking)} (no such input)"
        print(line)
        for msg, where in j.warnings.items():
            said = f"{_without_word(msg)}{_in(where, j.applied)}"
            say(f"{j.name}={_quoted(typed[j.name])}: {said}", "warning")
        other = STANDS_IN.get(j.name)
        for slug in j.lacking:
            tpl = next(t for t in templates if t.slug == slug)
            if other is None or not tpl.is_input(other) or other in values:
                continue
            figure = stand_in(j.name, j.value, values)
            default = tpl.input(other).default
            kept = format_number(float(default)) if default is not None else "blank"
            add = (
                f"; add --set {other}={format_number(figure)} for the {j.value}"
                if figure is not None
                else f"; set {other} as well"
            )
            say(f"{slug} has no {j.name}: it keeps {other}={kept}{add}", "warning")
    for slug, model in models.items():
        if not any(model.endswith(m) for j in judged for m in j.warnings):
            say(f"{slug}: its Model check reads: {model}", "warning")
    money = relabelled(values, templates)
    if money:
        by_what: dict[str, list[str]] = {}
        for slug, amounts in money.items():
            for what in amounts:
                by_what.setdefault(what, []).append(slug)
        at = "; ".join(f"{w} in {', '.join(slugs)}" for w, slugs in by_what.items())
        say(
            f"Currency={_quoted(typed['Currency'])} relabels the example amounts, "
            f"which are USD, without converting them: set or retype {at}",
            "warning",
        )


def _without_word(message: str) -> str:
    """``enter a number`` for ``Error: enter a number``."""
    for word in ("Error: ", "Warning: "):
        if message.startswith(word):
            return message[len(word) :]
    return message


def _in(where: Sequence[str], applied: Sequence[str]) -> str:
    """`` (in X)`` where not every workbook with the input says so."""
    return "" if set(where) == set(applied) else f" (in {', '.join(where)})"


def cmd_docs(ns: argparse.Namespace) -> None:
    from ..docs import write_docs

    try:
        written = write_docs(Path(ns.out), force=ns.force)
    except ValueError as err:
        raise CliError(str(err)) from None
    for path in written:
        print(f"wrote {path}")
    if not written:
        print(f"{ns.out}: the docs are up to date")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="xlfuncs",
        description="LLM training and fine-tuning planning functions for Excel.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        "  xlfuncs calc FT_EXAMPLES_PER_SEC 8 2,500 82% 900  # 18.22 examples/s\n"
        "  xlfuncs calc TRAINING_FLOPS 70B 1.4T              # 5.88e+23 FLOPs\n"
        "  xlfuncs list FT_COST                              # one function in full\n"
        "  xlfuncs build --out DIR                           # write the workbooks\n"
        "`xlfuncs COMMAND --help` describes a command.",
    )
    p.add_argument("--version", action="version", version=f"xlfuncs {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    ls = sub.add_parser(
        "list", help="the functions, or one in full: xlfuncs list FT_COST"
    )
    ls.add_argument("name", nargs="?", help="a function to show in full")
    ls.set_defaults(run=cmd_list)
    c = sub.add_parser(
        "calc",
        help="evaluate one function",
        description="Evaluate one function, e.g. `xlfuncs calc FT_EXAMPLES_PER_SEC "
        "8 2,500 82% 900`. A percentage is a fraction (82% is 0.82), for an argument "
        "that is a share (efficiency, mfu) only; the decimal "
        "mark is a point (2.5) and a comma groups thousands (2,500). A number may "
        "end in k, M, B or T for thousand, million, billion, trillion: 2.5k, 1M, "
        "70B, 1.5T. A range argument is a list in quotes, separated by spaces: "
        "\"600 800 900\". An empty argument ('') skips an optional one. On a "
        "terminal the result shows its unit (18.22 examples/s); piped or "
        "redirected, the bare number, for scripts. `xlfuncs calc NAME --help` "
        "describes the function. A result the templates would flag (a run over "
        "five years, an MFU above the peak) prints one warning line on stderr.",
    )
    c.add_argument("name", help="function name, e.g. CHINCHILLA_PARAMS")
    c.add_argument(
        "--currency",
        metavar="CODE",
        help="the currency of a price (default USD): a price is judged against "
        "public prices in it, as the templates judge one (650 JPY a GPU-hour is "
        "no slip)",
    )
    # REMAINDER: a negative number such as -1e3 is a value, not an option.
    c.add_argument("args", nargs=argparse.REMAINDER, help="arguments in order")
    c.set_defaults(run=cmd_calc)
    sub.add_parser("examples", help="evaluate every documented example").set_defaults(
        run=cmd_examples
    )
    g = sub.add_parser(
        "gpus", help="the known accelerators: peaks, memory, bandwidth, power"
    )
    g.add_argument("--sources", action="store_true", help="where each figure is from")
    g.set_defaults(run=cmd_gpus)
    m = sub.add_parser("models", help="the known models and their shapes (MODEL_SPEC)")
    m.add_argument("--sources", action="store_true", help="where each shape is from")
    m.set_defaults(run=cmd_models)
    e = sub.add_parser(
        "excel-setup",
        help="add xlfuncs.udfs to xlwings' UDF Modules setting",
        description="Prepare xlwings for the xlfuncs functions in desktop Excel "
        "for Windows: add xlfuncs.udfs to UDF Modules in the xlwings user config "
        "(%USERPROFILE%\\.xlwings\\xlwings.conf), keeping every other setting, "
        "its encoding and its line endings, and set Interpreter to this Python if "
        "none is set. Prints what it changed and the steps that remain in Excel. "
        "Run it again at any time: it changes nothing twice. On Linux and macOS, "
        "where xlwings runs no Python functions in Excel, it changes nothing "
        "unless given --config, and says what works there instead.",
    )
    e.add_argument(
        "--config", help="the xlwings.conf to edit (default: the user's, on Windows)"
    )
    e.set_defaults(run=cmd_excel_setup)
    b = sub.add_parser(
        "build",
        help="write the template workbooks and the LAMBDA library",
        description="Write the template workbooks (plain Excel formulas, no "
        "Python needed to use them) and the LAMBDA library "
        "(xlfuncs-functions.xlsx, the functions as native Excel 365 functions; "
        "English only, with its .lambda.txt module). Existing files are kept "
        "unless --force; the files are written as a set (an error or an "
        "interruption leaves the ones that were there). --set fills an input in "
        "every template that has it, "
        "by its name in docs/templates.md: company defaults such as --set "
        'GPUModel="A100 80GB" --set PricePerGPUHour=1.9 --set Currency=EUR.',
    )
    b.add_argument("--out", default="workbooks", help="folder (default: workbooks)")
    b.add_argument("--lang", choices=["en", "es"], help="one edition (default: both)")
    b.add_argument("--force", action="store_true", help="overwrite existing files")
    b.add_argument(
        "--set",
        action="append",
        metavar="NAME=VALUE",
        help="the default of an input (repeat for more); numbers as calc reads "
        "them (82%% only for a share; 2,500; 70B), text otherwise. Each is judged "
        "by the workbooks' own input checks first: an error stops the build in "
        "one line, a warning is one line; which workbooks take each name is said",
    )
    b.set_defaults(run=cmd_build)
    d = sub.add_parser(
        "docs",
        help="regenerate docs/functions.md and docs/templates.md",
        description="Write docs/functions.md (every function) and docs/templates.md "
        "(every template's inputs and results) from the registry and the templates. "
        "Existing files are kept unless --force.",
    )
    d.add_argument("--force", action="store_true", help="overwrite existing files")
    d.add_argument("--out", default="docs", help="output folder (default: docs)")
    d.set_defaults(run=cmd_docs)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    safe_streams()
    with signals_as_exceptions():
        if stdout_closed():
            # The command still runs (build still writes its files), into nowhere;
            # then the missing output is an error, as for any tool whose output
            # was lost.
            with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
                status = _main(argv)
            if status == 0:
                say("standard output is closed")
                status = 1
            return status
        out = Watched(sys.stdout)
        with contextlib.redirect_stdout(cast(TextIO, out)):
            status = _main(argv)
            with contextlib.suppress(OSError, ValueError):
                out.flush()  # before Python's own flush at exit, which exits 0
    if out.error is None:
        return status
    quiet_stdout()
    if isinstance(out.error, BrokenPipeError):  # the reader has all it wants
        return status or 1
    say(f"cannot write to standard output: {out.error.strerror or out.error}")
    return 2


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        if not args:  # `xlfuncs` alone: what it can do, not a usage error
            parser.print_help()
            return 0
        ns = parser.parse_args(args)
        ns.run(ns)
        if sys.stdout is not None:
            sys.stdout.flush()  # a closed pipe shows here, not at exit
    except SystemExit as exit_:  # argparse: --help, --version, usage errors
        return exit_.code if isinstance(exit_.code, int) else 2
    except InputError as err:
        # The cell wording (the CLI reads 82% as a cell does), with the value read.
        say(err.cell_reason + (f", not {err.got}" if err.got else ""))
        return 2
    except (CliError, FileExistsError) as err:
        say(str(err))
        return 2
    except OSError as err:  # an unwritable folder, a full disk: one line, no trace
        if err is output_error():  # stdout: main() says so
            return 1 if isinstance(err, BrokenPipeError) else 2
        quiet_stdout()
        where = f": {err.filename}" if err.filename else ""
        say(f"{err.strerror or err}{where}")
        return 2
    except KeyboardInterrupt:
        return 130
    except Terminated as sig:
        return 128 + sig.signum
    except Exception as err:  # noqa: BLE001 - one line, never a traceback
        say(f"internal error, please report: {err!r}")
        return 1
    return 0
