"""Function specifications: the one place each function is described.

A planning function is written once, as plain math in a topic module
(:mod:`xlfuncs.finetune`, :mod:`xlfuncs.scaling`, ...), and marked with
:func:`formula`. The decorator records a :class:`Formula`: its Excel name, its
arguments (taken from the signature and described once in
:mod:`xlfuncs.arguments`), the unit of its result, its one-line description (the
docstring's summary line) and its worked example (the docstring's first doctest).
The UDFs, the CLI, ``docs/functions.md`` and the templates all read that record.

The decorated function is the Python API: it checks its arguments and raises
:class:`InvalidValueError` (a ``ValueError``) or :class:`InvalidTypeError` (a
``TypeError``) with the same reason a spreadsheet cell would show.
"""

from __future__ import annotations

import ast
import doctest
import functools
import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# Excel's own error codes, in the order Excel numbers them (ERROR.TYPE).
ERROR_CODES = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A")


class InputError(Exception):
    """Bad input, with the Excel error code a cell would show for it."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason

    @property
    def cell_text(self) -> str:
        """What a desktop Excel cell shows, e.g. ``#NUM! gpus must be > 0``."""
        return f"{self.code} {self.reason}"


class InvalidValueError(InputError, ValueError):
    """A number outside its domain (``#NUM!``, ``#DIV/0!``) or an unknown name."""


class InvalidTypeError(InputError, TypeError):
    """Text, a boolean or a blank where a number is needed (``#VALUE!``)."""


def input_error(code: str, reason: str) -> InputError:
    """The exception for an Excel error code: ``#VALUE!`` is a type error."""
    cls = InvalidTypeError if code == "#VALUE!" else InvalidValueError
    return cls(code, reason)


# --------------------------------------------------------------------------- domains


@dataclass(frozen=True)
class Domain:
    """The interval a numeric argument lives in, and what to say outside it."""

    lo: float
    hi: float
    lo_closed: bool
    hi_closed: bool
    rule: str  # completes "<name> must ...", e.g. "be > 0"
    zero_code: str = "#NUM!"  # Excel answers x/0 with #DIV/0!, so divisors say so

    def contains(self, x: float) -> bool:
        return (self.lo < x or (self.lo_closed and x == self.lo)) and (
            x < self.hi or (self.hi_closed and x == self.hi)
        )

    def mask(self, x: np.ndarray) -> np.ndarray:
        """True where ``x`` is inside the domain (NaN never is)."""
        low = x >= self.lo if self.lo_closed else x > self.lo
        high = x <= self.hi if self.hi_closed else x < self.hi
        return low & high

    def all_inside(self, x: np.ndarray) -> bool:
        """Whole-array check: an interval holds all of ``x`` if it holds its ends.

        A NaN anywhere makes ``min`` NaN, which no interval contains. Large
        contiguous arrays go by blocks, so that ``max`` reads what ``min`` has
        just brought into cache and memory is read once.
        """
        if x.size <= _BLOCK or not x.flags.c_contiguous:
            blocks: Any = (x,) if x.size else ()
        else:
            flat = x.reshape(-1)
            blocks = (flat[i : i + _BLOCK] for i in range(0, flat.size, _BLOCK))
        return all(
            self.contains(float(b.min())) and self.contains(float(b.max()))
            for b in blocks
        )


_BLOCK = 1 << 16  # elements: 512 KiB of float64, inside a core's L2 cache


def all_finite(x: np.ndarray) -> bool:
    """True if no element is NaN or infinite: ``min`` propagates NaN.

    Plain reductions, not a BLAS dot: OpenBLAS's threads spin for a while after
    each call and would take the core that :mod:`xlfuncs.cells` checks inputs on.
    """
    return x.size == 0 or bool(np.isfinite(x.min()) and np.isfinite(x.max()))


INF = math.inf
POSITIVE = Domain(0.0, INF, False, False, "be a positive number")
DIVISOR = Domain(0.0, INF, False, False, "be a positive number", zero_code="#DIV/0!")
NONNEGATIVE = Domain(0.0, INF, True, False, "be zero or a positive number")
FRACTION = Domain(0.0, 1.0, False, True, "be a fraction in (0, 1]: enter 82% or 0.82")
PERCENTILE = Domain(0.0, 100.0, True, True, "be from 0 to 100")


# ------------------------------------------------------------------------- arguments


@dataclass(frozen=True)
class Arg:
    """One argument: its doc (with units) and what values it takes.

    ``kind`` is ``"number"`` (a value per cell, broadcast against the others),
    ``"sample"`` (a whole range reduced to one statistic) or ``"choice"`` (a name
    looked up with ``lookup``; ``None`` from it means unknown).
    """

    name: str
    doc: str
    unit: str
    domain: Domain | None = POSITIVE
    kind: str = "number"
    lookup: Callable[[str], str | None] | None = None
    unknown_code: str = "#VALUE!"
    unknown_hint: str = ""

    def scalar_error(self, x: Any) -> InputError | None:
        """Why the single value ``x`` is not acceptable, or None if it is."""
        if self.kind == "choice":
            if isinstance(x, str):
                if self.lookup(x) is not None:  # type: ignore[misc]
                    return None
                return input_error(
                    self.unknown_code,
                    f"{self.name}: unknown {x.strip()!r}{self.unknown_hint}",
                )
            return input_error("#VALUE!", f"{self.name} must be a name, not {_show(x)}")
        if x is None:
            return input_error("#VALUE!", f"{self.name} is required (blank cell)")
        if isinstance(x, str):
            if x in ERROR_CODES:  # an error cell upstream: pass it on, as Excel does
                return input_error(x, f"{self.name} refers to a cell showing {x}")
            return input_error(
                "#VALUE!", f"{self.name} must be a number, not text {x!r}"
            )
        if isinstance(x, (bool, np.bool_)) or not isinstance(
            x, (int, float, np.integer, np.floating)
        ):
            return input_error(
                "#VALUE!", f"{self.name} must be a number, not {_show(x)}"
            )
        return self.domain_error(float(x))

    def domain_error(self, x: float) -> InputError | None:
        d = self.domain
        if d is None or d.contains(x):
            return None
        if math.isnan(x) or math.isinf(x):
            return input_error("#NUM!", f"{self.name} must be a finite number")
        code = d.zero_code if x == 0 else "#NUM!"
        return input_error(code, f"{self.name} must {d.rule}")

    def check(self, value: Any) -> Any:
        """Python API: return ``value`` ready for the math, or raise why not."""
        if self.kind == "choice":  # one name; ranges of names are for cells
            err = self.scalar_error(value)
            if err:
                raise err
            return self.lookup(value)  # type: ignore[misc]
        if self.kind == "sample":
            arr = _numeric_array(self, value).ravel()
            if arr.size == 0:
                raise input_error("#DIV/0!", f"{self.name} holds no numbers")
            self._raise_outside(arr)
            return arr
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            err = self.domain_error(float(value))
            if err:
                raise err
            return value
        if value is None or isinstance(value, (str, bool)):
            raise self.scalar_error(value)  # type: ignore[misc]
        arr = _numeric_array(self, value)
        self._raise_outside(arr)
        return arr

    def _raise_outside(self, arr: np.ndarray) -> None:
        if self.domain is not None and not self.domain.all_inside(arr):
            bad = arr[~self.domain.mask(arr)]
            raise self.domain_error(float(bad[0]))  # type: ignore[misc]


def _numeric_array(arg: Arg, value: Any) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype.kind in "iuf":
        return arr.astype(float, copy=False)
    for x in arr.flat:  # find the cell to blame
        err = arg.scalar_error(x)
        if err:
            raise err
    return arr.astype(float)


def _show(x: Any) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "TRUE" if x else "FALSE"
    if x is None:
        return "a blank cell"
    return f"{type(x).__name__} {x!r}"


# -------------------------------------------------------------------------- formulas


@dataclass(frozen=True)
class Example:
    """A worked example taken from the docstring's first doctest."""

    args: tuple[Any, ...]
    source: str  # the doctest line, e.g. "examples_per_sec(8, 2500, 0.82, 900)"


@dataclass(frozen=True)
class Formula:
    """Everything the UDF, the CLI, the docs and the templates need to know."""

    name: str  # Excel name, e.g. FT_EXAMPLES_PER_SEC
    python_name: str
    module: str
    description: str  # the docstring's summary line; Excel's function-wizard help
    unit: str  # unit of the result
    args: tuple[Arg, ...]
    defaults: Mapping[str, Any]  # optional arguments and their defaults
    raw: Callable[..., Any] = field(repr=False)  # unchecked math
    api: Callable[..., Any] = field(repr=False)  # checked Python API
    example: Example
    invalid_result: str  # reason shown when the math has no finite answer

    @property
    def n_required(self) -> int:
        return len(self.args) - len(self.defaults)

    def arity_error(self, n: int) -> InputError | None:
        """Why ``n`` arguments are the wrong number, or None if they are not."""
        if self.n_required <= n <= len(self.args):
            return None
        want = (
            str(len(self.args))
            if self.n_required == len(self.args)
            else f"{self.n_required} to {len(self.args)}"
        )
        names = ", ".join(a.name for a in self.args)
        return input_error(
            "#VALUE!", f"{self.name} takes {want} arguments ({names}), got {n}"
        )

    def signature_text(self) -> str:
        """E.g. ``CHINCHILLA_PARAMS(budget_pf_days, [tokens_per_param])``."""
        parts = [
            f"[{a.name}]" if a.name in self.defaults else a.name for a in self.args
        ]
        return f"{self.name}({', '.join(parts)})"


REGISTRY: dict[str, Formula] = {}


def formula(
    name: str,
    *,
    unit: str,
    invalid_result: str = "the result is out of range",
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register plain math as the function ``name`` (its Excel name).

    Argument descriptions come from :data:`xlfuncs.arguments.ARGS` by parameter
    name and are added to the docstring as its numpydoc *Parameters* section.
    """
    from .arguments import ARGS  # arguments imports this module

    def decorate(raw: Callable[..., Any]) -> Callable[..., Any]:
        sig = inspect.signature(raw)
        args = tuple(ARGS[p] for p in sig.parameters)
        defaults = {
            p.name: p.default
            for p in sig.parameters.values()
            if p.default is not inspect.Parameter.empty
        }
        doc = inspect.cleandoc(raw.__doc__ or "")
        summary = doc.split("\n\n")[0].replace("\n", " ").strip()
        if not summary or len(summary) > 255:
            raise ValueError(f"{name}: the summary line must be 1-255 characters")

        @functools.wraps(raw)
        def api(*a: Any, **kw: Any) -> Any:
            bound = sig.bind(*a, **kw)
            bound.apply_defaults()
            values = []
            for arg, v in zip(args, bound.arguments.values()):
                optional = arg.name in defaults
                if v is None and optional:
                    v = defaults[arg.name]  # a blank optional argument
                values.append(None if v is None and optional else arg.check(v))
            with np.errstate(all="ignore"):
                result = raw(*values)
            if not all_finite(np.asarray(result, dtype=float)):
                raise input_error("#NUM!", invalid_result)
            return result

        api.__doc__ = _with_parameters(doc, args, defaults)
        spec = Formula(
            name=name,
            python_name=raw.__name__,
            module=raw.__module__,
            description=summary,
            unit=unit,
            args=args,
            defaults=defaults,
            raw=raw,
            api=api,
            example=_first_example(doc, raw.__name__, name),
            invalid_result=invalid_result,
        )
        known = REGISTRY.get(name)
        if known and (known.module, known.python_name) != (
            spec.module,
            spec.python_name,
        ):
            raise ValueError(f"{name} is registered twice")  # (a reload is fine)
        REGISTRY[name] = spec
        api.formula = spec  # type: ignore[attr-defined]
        return api

    return decorate


def _with_parameters(
    doc: str, args: tuple[Arg, ...], defaults: Mapping[str, Any]
) -> str:
    """Insert a numpydoc Parameters section, written from the argument table."""
    lines = ["Parameters", "----------"]
    for a in args:
        opt = f", optional (default {defaults[a.name]!r})" if a.name in defaults else ""
        lines += [f"{a.name} : {a.unit}{opt}", f"    {a.doc}"]
    head, sep, rest = doc.partition("\nReturns\n")
    return f"{head.rstrip()}\n\n" + "\n".join(lines) + f"\n\n{sep.strip()}\n{rest}"


def _first_example(doc: str, python_name: str, name: str) -> Example:
    """The first doctest that calls the function with literal arguments.

    The call may sit inside another expression (``round(f(8, 900), 2)``).
    """
    for ex in doctest.DocTestParser().get_examples(doc):
        for node in ast.walk(ast.parse(ex.source.strip(), mode="eval")):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == python_name
                and not node.keywords
            ):
                try:
                    args = tuple(ast.literal_eval(a) for a in node.args)
                except ValueError:
                    continue
                return Example(args=args, source=ast.unparse(node))
    raise ValueError(
        f"{name}: the docstring needs a doctest calling {python_name}(...)"
    )
