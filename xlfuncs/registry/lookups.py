"""Reference tables read by name, as a library function's body reads them.

A look-up is one node of a body's tree (:class:`Lookup`): in Python, a function
of its arguments' values that reads :mod:`xlfuncs.data` and raises ``#N/A``,
with a reason, for a figure the table lacks; in Excel, its expression over the
data sheet's workbook names (:mod:`xlfuncs.registry.excel`), written once here.
The two are the same table: the data sheet is written from the same rows
(:mod:`xlfuncs.templates.data_sheet`), and the tests compute both.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..data.accelerators import BY_NAME as ACCELERATORS
from ..data.accelerators import Accelerator
from ..data.fits import FITS
from ..data.models import BY_NAME as MODELS
from ..data.models import value as model_value
from ..data.serving import (
    PARALLEL_CODES,
    PARALLEL_KEYS,
    PRECISION_BYTES,
    PRECISION_CACHE_BYTES,
    PRECISION_COMPUTE,
    SERVING_PRECISION_KEYS,
)
from ..data.training import (
    METHOD_CODES,
    METHOD_SPELLINGS,
    OPTIMIZER_BYTES,
    OPTIMIZER_KEYS,
)
from ..data.units import DTYPES, RECOMPUTE_MODES
from ..excel.rewrite import substituted
from ..excel.tree import Ctx, Env, Expr, Python, lift
from ..excel.values import Value
from .errors import InvalidValueError
from .excel import (
    ACCELERATOR_BANDWIDTH,
    ACCELERATOR_KEYS,
    ACCELERATOR_MEMORY,
    ACCELERATOR_PEAKS,
    ACCELERATOR_POWER,
    ACCELERATOR_ROW,
    DTYPE_COLUMN,
    DTYPE_KEYS,
    FIT,
    FIT_NAMES,
    MODEL_FIELD_COLUMN,
    MODEL_FIELD_KEYS,
    MODEL_KEYS,
    MODEL_ROW,
    MODEL_SPECS,
    key,
    xl,
)


@dataclass(frozen=True, eq=False)
class Lookup(Expr):
    """A figure read from a table: ``python`` computes it from the arguments'
    values; ``text`` is its Excel expression over the argument names
    ``names``, written out with the caller's trees in their place."""

    what: str  # its name in the generated Python and in messages
    python_fn: Callable[..., Any]
    text: str
    params: tuple[str, ...]
    args: tuple[Expr, ...]

    def excel_form(self) -> Expr:
        return substituted(_parsed(self.text), dict(zip(self.params, self.args)))

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        return self.excel_form().printed(ctx)

    def value(self, env: Env) -> Value:
        return self.excel_form().value(env)

    def python(self, gen: Python) -> str:
        fn = gen.bound(self.python_fn, self.what)
        return f"{fn}({', '.join(gen(a) for a in self.args)})"

    def children(self) -> tuple[Expr, ...]:
        return self.args

    def rebuilt(self, children: Any) -> Expr:
        return replace(self, args=tuple(children))


@functools.cache
def _parsed(text: str) -> Expr:
    from ..excel.parse import parse  # openpyxl's tokenizer: only when printed

    return parse(text)


def lookup(
    what: str, fn: Callable[..., Any], text: str, params: tuple[str, ...]
) -> Callable[..., Any]:
    """A look-up for bodies: ``fn`` on the arguments' values in Python,
    ``text`` (an Excel expression over ``params``) in a formula. It gives
    ``Any``, as the helpers of :mod:`xlfuncs.excel.ops` do."""

    def build(*args: Any) -> Any:
        return Lookup(what, fn, text, params, tuple(lift(a) for a in args))

    return build


# ------------------------------------------------------------------ models

_MODEL_ROW = f"INDEX({MODEL_ROW},MATCH({key('model')},{MODEL_KEYS},0))"
_FIELD_COLUMN = (
    f"INDEX({MODEL_FIELD_COLUMN},MATCH({key('field')},{MODEL_FIELD_KEYS},0))"
)


def _model_field(model: str, field: str) -> float:
    return float(model_value(MODELS[model], field))


#: A published model's figure by the field's name (a typed name, looked up).
model_field = lookup(
    "model_spec",
    _model_field,
    f"INDEX({MODEL_SPECS},{_MODEL_ROW},{_FIELD_COLUMN})",
    ("model", "field"),
)

# ------------------------------------------------------------------ accelerators

_GPU_ROW = f"INDEX({ACCELERATOR_ROW},MATCH({key('gpu')},{ACCELERATOR_KEYS},0))"
_DTYPE_COLUMN = f"INDEX({DTYPE_COLUMN},MATCH({key('dtype')},{DTYPE_KEYS},0))"


def _figure(acc: Accelerator, value: float | None, what: str) -> float:
    if value is None:
        raise InvalidValueError(
            "#N/A", f"{acc.vendor} publishes no {what} figure for the {acc.name}"
        )
    return float(value)


def _peak(gpu: str, dtype: str) -> float:
    acc = ACCELERATORS[gpu]
    value = acc.peak_tflops.get(dtype)
    if value is None:
        have = ", ".join(acc.peak_tflops)
        raise InvalidValueError(
            "#N/A", f"{acc.name} has no {dtype} figure; it has {have}"
        )
    return float(value)


#: Dense peak TFLOP/s of an accelerator for a dtype. A figure the table lacks
#: is shown as a dash: +0 makes it an error, NA() says #N/A.
gpu_peak = lookup(
    "gpu_peak",
    _peak,
    f"IFERROR(INDEX({ACCELERATOR_PEAKS},{_GPU_ROW},{_DTYPE_COLUMN})+0,NA())",
    ("gpu", "dtype"),
)


def _column(table: str, attr: str, what: str) -> Callable[..., Any]:
    def fn(gpu: str) -> float:
        acc = ACCELERATORS[gpu]
        return _figure(acc, getattr(acc, attr), what)

    return lookup(
        f"gpu_{attr}", fn, f"IFERROR(INDEX({table},{_GPU_ROW})+0,NA())", ("gpu",)
    )


gpu_memory = _column(ACCELERATOR_MEMORY, "memory_gb", "memory")
gpu_bandwidth = _column(ACCELERATOR_BANDWIDTH, "bandwidth_tbs", "bandwidth")
gpu_power = _column(ACCELERATOR_POWER, "power_w", "power")


# ------------------------------------------------------------------ serving


def _numbers(values: list[float]) -> str:
    return "{" + ",".join(xl(v) for v in values) + "}"


def _keys(pairs: tuple[tuple[str, str], ...]) -> str:
    return "{" + ",".join(f'"{k}"' for k, _ in pairs) + "}"


_PRECISION_AT = f"MATCH({key('precision')},{_keys(SERVING_PRECISION_KEYS)},0)"


def _per_precision(table: dict[str, float]) -> str:
    """A figure per spelling of a serving precision, read at the typed one's
    place (INDEX(row,1,k): Gnumeric reads INDEX(row,k) as the k-th row)."""
    figures = _numbers([table[p] for _, p in SERVING_PRECISION_KEYS])
    return f"INDEX({figures},1,{_PRECISION_AT})"


#: Bytes of each weight in a serving precision.
precision_bytes = lookup(
    "precision_bytes", lambda p: PRECISION_BYTES[p], _per_precision(PRECISION_BYTES),
    ("precision",),
)  # fmt: skip
#: Bytes of each cached key or value for a serving precision, by default.
cache_bytes = lookup(
    "cache_bytes", lambda p: PRECISION_CACHE_BYTES[p],
    _per_precision(PRECISION_CACHE_BYTES), ("precision",),
)  # fmt: skip


def _serving_peak(gpu: str, precision: str) -> float:
    """The dense peak the precision's products run at; the bf16 peak where the
    accelerator has none for it, then the fp16 one."""
    acc = ACCELERATORS[gpu]
    for dtype in (PRECISION_COMPUTE[precision], "bf16", "fp16"):
        if dtype in acc.peak_tflops:
            return float(acc.peak_tflops[dtype])
    raise InvalidValueError(
        "#N/A", f"{acc.name} has no {precision}, bf16 or fp16 figure"
    )


def _dtype_column(precision: str) -> float:
    dtype = PRECISION_COMPUTE[precision]
    return DTYPES.index(dtype if dtype in DTYPES else "bf16") + 1.0


_COLUMNS = _numbers([_dtype_column(p) for _, p in SERVING_PRECISION_KEYS])
_COLUMN_AT = f"INDEX({_COLUMNS},1,{_PRECISION_AT})"
_PEAKS_AT = [
    f"INDEX({ACCELERATOR_PEAKS},{_GPU_ROW},{c})+0" for c in (_COLUMN_AT, "1", "2")
]
#: Dense TFLOP/s a serving precision's products run at on an accelerator.
serving_peak = lookup(
    "serving_peak", _serving_peak,
    f"IFERROR({_PEAKS_AT[0]},IFERROR({_PEAKS_AT[1]},IFERROR({_PEAKS_AT[2]},NA())))",
    ("gpu", "precision"),
)  # fmt: skip

_PARALLEL_CODES = _numbers([PARALLEL_CODES[k] for _, k in PARALLEL_KEYS])
_PARALLEL_AT = f"MATCH({key('parallel')},{_keys(PARALLEL_KEYS)},0)"
#: 0 for tensor parallelism, 1 for attention data-parallel with experts spread.
parallel_code = lookup(
    "parallel_code", lambda p: PARALLEL_CODES[p],
    f"INDEX({_PARALLEL_CODES},1,{_PARALLEL_AT})",
    ("parallel",),
)  # fmt: skip


_MODES = "{" + ",".join(f'"{m}"' for m in RECOMPUTE_MODES) + "}"
#: A recomputation mode's number: 1 none, 2 selective, 3 full.
recompute_code = lookup(
    "recompute_code", lambda r: RECOMPUTE_MODES.index(r) + 1.0,
    f"MATCH({key('recompute')},{_MODES},0)", ("recompute",),
)  # fmt: skip


_METHOD_CODES = _numbers([c for _, c in METHOD_SPELLINGS])
_METHOD_KEYS = "{" + ",".join(f'"{k}"' for k, _ in METHOD_SPELLINGS) + "}"
#: A fine-tuning method's number: 1 full, 2 LoRA, 3 QLoRA.
method_code = lookup(
    "method_code", lambda m: float(METHOD_CODES[m]),
    f"INDEX({_METHOD_CODES},1,MATCH({key('method')},{_METHOD_KEYS},0))",
    ("method",),
)  # fmt: skip
_OPTIMIZER_BYTES = _numbers([OPTIMIZER_BYTES[o] for _, o in OPTIMIZER_KEYS])
#: Bytes of an optimizer's state per trained weight.
optimizer_bytes = lookup(
    "optimizer_bytes", lambda o: OPTIMIZER_BYTES[o],
    f"INDEX({_OPTIMIZER_BYTES},1,MATCH({key('optimizer')},{_keys(OPTIMIZER_KEYS)},0))",
    ("optimizer",),
)  # fmt: skip


# ------------------------------------------------------------------ fits

_FIT_ROW = f"MATCH({key('fit')},{FIT_NAMES},0)"


def _fit(which: str, attr: str) -> Callable[..., Any]:
    """A constant of the named fit of the loss (FitE, FitAlpha, …)."""
    return lookup(
        f"fit_{attr}",
        lambda fit: float(getattr(FITS[fit], attr)),
        f"INDEX({FIT[which]},{_FIT_ROW})",
        ("fit",),
    )


fit_e, fit_a, fit_b = _fit("E", "E"), _fit("A", "A"), _fit("B", "B")
fit_alpha, fit_beta = _fit("Alpha", "alpha"), _fit("Beta", "beta")
fit_g, fit_exponent = _fit("G", "G"), _fit("Exponent", "a")


__all__ = [
    "Lookup",
    "cache_bytes",
    "parallel_code",
    "precision_bytes",
    "recompute_code",
    "serving_peak",
    "fit_a",
    "fit_alpha",
    "fit_b",
    "fit_beta",
    "fit_e",
    "fit_exponent",
    "fit_g",
    "gpu_bandwidth",
    "gpu_memory",
    "gpu_peak",
    "gpu_power",
    "lookup",
    "method_code",
    "model_field",
    "optimizer_bytes",
]
