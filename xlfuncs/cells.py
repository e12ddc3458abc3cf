"""Evaluate a registered formula the way a spreadsheet cell calls it.

Excel hands a UDF numbers, text, booleans, blanks and error values, one cell or a
whole range each (xlwings gives ranges as lists of rows because the UDFs declare
``ndim=2``). :func:`cell_function` turns a :class:`~xlfuncs.spec.Formula` into a
function that never raises: each bad cell becomes the Excel error code Excel itself
would use plus a short reason, good cells still compute, ranges broadcast like
numpy arrays, and ranges that do not line up give ``#VALUE!``.

Excel calls a UDF once per cell, so the common call (every argument one valid
number) takes a fast path in plain Python; anything else takes the general path.
Numpy arrays in give numpy arrays out, checked with whole-array reductions (a
min and a max per input); on large arrays they run on a second core while this
one computes.
"""

from __future__ import annotations

import math
import os
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from functools import cache
from typing import Any

import numpy as np

from .spec import ERROR_CODES, Arg, Domain, Formula, InputError, all_finite, input_error

_NEVER = (math.inf, -math.inf)  # fast-path bounds no number satisfies
# Input elements from which checking them on a second core, while this one
# computes, saves more than handing the work over costs (tens of microseconds).
_OVERLAP_FROM = 1 << 17
# The cores this process may run on (a container or taskset may allow fewer).
_CORES = (
    len(os.sched_getaffinity(0))
    if hasattr(os, "sched_getaffinity")
    else (os.cpu_count() or 1)
)


def office_js() -> bool:
    """True when xlwings runs as Office.js custom functions (xlwings Lite).

    There a returned string that is exactly an error code becomes a real error
    cell, so errors are returned bare; desktop Excel shows text only, so the
    reason goes with the code.
    """
    return os.environ.get("XLWINGS_ON_SERVER") == "true"  # xlwings' own test


def cell_text(err: InputError) -> str:
    return err.code if office_js() else err.cell_text


def cell_function(spec: Formula) -> Callable[..., Any]:
    """A function of the formula's arguments that returns values or error text."""
    raw = spec.raw
    n_args, n_required = len(spec.args), spec.n_required
    tail = tuple(spec.defaults.values())
    # Per argument: open bounds a plain number must lie strictly within, the
    # name lookup for choices, and whether a blank means "use the default None".
    fast = tuple(
        (
            *(
                (a.domain.lo, a.domain.hi)
                if a.kind == "number" and a.domain
                else _NEVER
            ),
            a.lookup if a.kind == "choice" else None,
            a.name in spec.defaults and spec.defaults[a.name] is None,
        )
        for a in spec.args
    )
    general = _General(spec)

    def call(*args: Any) -> Any:
        n = len(args)
        if n != n_args:
            if not n_required <= n <= n_args:
                return cell_text(spec.arity_error(n))
            args = args + tail[n - n_required :]
        values = []
        for a, (lo, hi, lookup, blank_ok) in zip(args, fast):
            if type(a) is list:  # xlwings gives a single cell as [[x]]
                if len(a) != 1 or type(a[0]) is not list or len(a[0]) != 1:
                    return general(args)
                a = a[0][0]
            t = type(a)
            if t is float or t is int:
                if lo < a < hi:
                    values.append(a)
                    continue
            elif a is None:
                if blank_ok:
                    values.append(None)
                    continue
            elif t is str and lookup is not None:
                key = lookup(a)
                if key is not None:
                    values.append(key)
                    continue
            return general(args)
        try:
            result = raw(*values)
        except InputError as err:
            return cell_text(err)
        except ArithmeticError:
            return cell_text(general.invalid)
        if result - result == 0:  # finite: inf - inf and nan - nan are nan
            return result
        return cell_text(general.invalid)

    return call


class _General:
    """The general path: ranges, bad cells, numpy arrays, optional blanks."""

    def __init__(self, spec: Formula) -> None:
        self.spec = spec
        self.invalid = input_error("#NUM!", spec.invalid_result)

    def __call__(self, args: tuple[Any, ...]) -> Any:
        try:
            return self._evaluate(args)
        except Exception as exc:  # noqa: BLE001 - a cell must never show a traceback
            return cell_text(
                input_error("#VALUE!", f"internal error, please report: {exc!r}")
            )

    def _evaluate(self, args: tuple[Any, ...]) -> Any:
        spec = self.spec
        # Plain arrays, as the Python API sees them: a masked array's mask would
        # hide cells from the checks, and np.matrix makes * a matrix product.
        args = tuple(
            np.asarray(a)
            if isinstance(a, np.ndarray) and type(a) is not np.ndarray
            else a
            for a in args
        )
        numpy_in = any(isinstance(a, np.ndarray) and a.ndim > 0 for a in args)
        if numpy_in:
            result = self._whole_arrays(args)
            if result is not None:
                return result
        values: list[Any] = []
        errors: list[Any] = []  # per argument: None, an InputError, or an object array
        for arg, a in zip(spec.args, args):
            if arg.name in spec.defaults and _is_blank(a):
                a = spec.defaults[arg.name]
                if a is None:
                    values.append(None)
                    errors.append(None)
                    continue
            if arg.kind == "sample":
                value, err = _sample(arg, a)
            else:
                value, err = _cells(arg, a)
            values.append(value)
            errors.append(err)

        shapes = [
            np.shape(v) if arg.kind != "sample" else ()
            for arg, v in zip(spec.args, values)
        ]
        try:
            shape = np.broadcast_shapes(*shapes)
        except ValueError:
            sizes = ", ".join(
                f"{arg.name} is {_dims(s)}" for arg, s in zip(spec.args, shapes) if s
            )
            return cell_text(input_error("#VALUE!", f"ranges do not line up: {sizes}"))

        if any(isinstance(e, InputError) for e in errors):
            # A whole argument is bad (a blank, a bad sample): nothing to compute.
            result, result_err = np.full(shape, np.nan), None
        else:
            result, result_err = self._compute(values, shape)
        if result_err is None and all(e is None for e in errors) and all_finite(result):
            return _output(result, None, shape, numpy_in)
        err_cells = np.full(shape, None, dtype=object)
        for err in (*errors, result_err):  # the first argument's error wins
            if err is None:
                continue
            free = np.equal(err_cells, None)
            if isinstance(err, InputError):
                err_cells[free] = err
            else:
                err_b = np.broadcast_to(err, shape)
                take = free & np.not_equal(err_b, None)
                err_cells[take] = err_b[take]
        bad_result = ~np.isfinite(result) & np.equal(err_cells, None)
        err_cells[bad_result] = self.invalid
        return _output(result, err_cells, shape, numpy_in)

    def _whole_arrays(self, args: tuple[Any, ...]) -> np.ndarray | None:
        """Numeric arrays and numbers all inside their domains: the math's result.

        None sends the call down the per-cell path, which finds and reports what
        is wrong. Each input array is checked by its min and max. From
        ``_OVERLAP_FROM`` input elements, and with a second core, a worker thread
        runs those reductions while this thread computes (numpy releases the GIL
        in both), so the checks add little to the time of the math alone.
        """
        spec = self.spec
        values: list[Any] = []
        todo: list[tuple[Domain, np.ndarray]] = []
        for arg, a in zip(spec.args, args):
            if arg.kind != "number":
                return None
            if isinstance(a, np.ndarray) and a.dtype.kind in "iuf":
                a = a.astype(float, copy=False)
                if arg.domain is not None:
                    todo.append((arg.domain, a))
            elif type(a) not in (float, int) or not (
                arg.domain is None or arg.domain.contains(a)
            ):
                return None
            values.append(a)
        try:
            shape = np.broadcast_shapes(*(np.shape(v) for v in values))
        except ValueError:
            return None

        checks = _Checks(todo)
        pending = None
        if _CORES > 1 and sum(x.size for _, x in todo) >= _OVERLAP_FROM:
            # Refused while the interpreter shuts down: then all is checked here.
            with suppress(RuntimeError):
                pending = _checker().submit(checks.run)
        try:
            with np.errstate(all="ignore"):
                out = np.asarray(spec.raw(*values), dtype=float)
            good = out.shape == shape and all_finite(out)
        except Exception:  # noqa: BLE001 - the per-cell path runs it again and says why
            good = False
        if not good:
            checks.ok = False  # the per-cell path will say why; no new checks
        checks.run(from_end=True)  # whatever the worker has not taken yet
        if pending is not None and not pending.cancel():  # cancelled: never ran
            try:
                pending.result()
            except Exception:  # noqa: BLE001 - the per-cell path checks again
                checks.ok = False
        return out if checks.ok else None

    def _compute(
        self, values: list[Any], shape: tuple[int, ...]
    ) -> tuple[np.ndarray, Any]:
        """Run the math; choices given as ranges run once per distinct name."""
        spec = self.spec
        choice_at = [
            i
            for i, a in enumerate(spec.args)
            if a.kind == "choice" and isinstance(values[i], np.ndarray)
        ]
        if not choice_at:
            try:
                with np.errstate(all="ignore"):
                    out = spec.raw(*values)
            except InputError as err:
                return np.full(shape, np.nan), err
            except ArithmeticError:
                return np.full(shape, np.nan), self.invalid
            out = np.asarray(out, dtype=float)
            if out.shape != shape:  # an argument the math does not use was a range
                out = np.broadcast_to(out, shape).copy()
            return out, None

        result = np.full(shape, np.nan)
        errs = np.full(shape, None, dtype=object)
        keys = [np.broadcast_to(values[i], shape) for i in choice_at]
        combos = {c for c in zip(*(k.ravel() for k in keys)) if None not in c}
        for combo in combos:
            mask = np.ones(shape, dtype=bool)
            for k, c in zip(keys, combo):
                mask &= k == c
            vals = list(values)
            for i, c in zip(choice_at, combo):
                vals[i] = c
            try:
                with np.errstate(all="ignore"):
                    out = np.broadcast_to(
                        np.asarray(spec.raw(*vals), dtype=float), shape
                    )
                result[mask] = out[mask]
            except InputError as err:
                errs[mask] = err
        return result, errs


class _Checks:
    """Domain checks of whole arrays, taken one at a time by either thread."""

    def __init__(self, todo: list[tuple[Domain, np.ndarray]]) -> None:
        self.todo = deque(todo)  # pop and popleft are atomic: no lock needed
        self.ok = True

    def run(self, from_end: bool = False) -> None:
        """Check until none are left or one fails; ``from_end``: last argument first.

        The worker takes arguments in order while the math reads them; the
        calling thread, once the math is done, takes the last ones, which the
        math read most recently.
        """
        take = self.todo.pop if from_end else self.todo.popleft
        while self.ok:
            try:
                domain, x = take()
            except IndexError:
                return
            if not domain.all_inside(x):
                self.ok = False


@cache
def _checker() -> ThreadPoolExecutor:
    """The one worker thread that checks large inputs, started on first use."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="xlfuncs-check")


if hasattr(os, "register_at_fork"):
    # A forked child has the executor but not its thread: it must make its own.
    os.register_at_fork(after_in_child=_checker.cache_clear)


def _is_blank(a: Any) -> bool:
    return a is None or (
        type(a) is list and len(a) == 1 and type(a[0]) is list and a[0] == [None]
    )


def _safe(domain: Domain | None) -> float:
    """A value inside the domain, computed in place of a bad cell and then masked."""
    if domain is None:
        return 1.0
    return (domain.lo + domain.hi) / 2 if math.isfinite(domain.hi) else domain.lo + 1.0


def _cells(arg: Arg, a: Any) -> tuple[Any, Any]:
    """Values and per-cell errors of one broadcast argument."""
    if arg.kind == "number" and isinstance(a, np.ndarray) and a.dtype.kind in "iuf":
        x = a.astype(float, copy=False)
        if arg.domain is None or arg.domain.all_inside(x):
            return x, None
        bad = ~arg.domain.mask(x)
        errs = np.full(x.shape, None, dtype=object)
        # One error object per kind of fault, not one per cell.
        for fault in (~np.isfinite(x), x == 0, bad):
            fault &= bad & np.equal(errs, None)
            if fault.any():
                errs[fault] = arg.domain_error(float(x[fault].flat[0]))
        return np.where(bad, _safe(arg.domain), x), errs

    try:
        cells = np.array(a, dtype=object)
    except ValueError:
        return 1.0, input_error("#VALUE!", f"{arg.name} is not a rectangular range")
    if cells.ndim == 0:
        err = arg.scalar_error(a)
        if err:
            return (_safe(arg.domain) if arg.kind == "number" else None), err
        return (arg.lookup(a) if arg.kind == "choice" else float(a)), None

    errs = np.full(cells.shape, None, dtype=object)
    any_err = False
    if arg.kind == "choice":
        values = np.full(cells.shape, None, dtype=object)
    else:
        values = np.full(cells.shape, _safe(arg.domain))
    for idx, c in np.ndenumerate(cells):
        err = arg.scalar_error(c)
        if err:
            errs[idx] = err
            any_err = True
        else:
            values[idx] = arg.lookup(c) if arg.kind == "choice" else float(c)
    return values, (errs if any_err else None)


def _sample(arg: Arg, a: Any) -> tuple[Any, Any]:
    """A range reduced to one statistic: one bad cell spoils the whole result."""
    if isinstance(a, np.ndarray) and a.dtype.kind in "iuf":
        x = a.astype(float, copy=False).ravel()
    else:
        try:
            cells = np.array(a, dtype=object).ravel()
        except ValueError:
            return None, input_error(
                "#VALUE!", f"{arg.name} is not a rectangular range"
            )
        numbers = []
        for c in cells:
            if c is None:  # blank cells at the end of a selected column
                continue
            err = arg.scalar_error(c)
            if err:
                return None, err
            numbers.append(float(c))
        x = np.array(numbers, dtype=float)
    if x.size == 0:
        return None, input_error("#DIV/0!", f"{arg.name} holds no numbers")
    if arg.domain is not None and not arg.domain.all_inside(x):
        return None, arg.domain_error(float(x[~arg.domain.mask(x)][0]))
    return x, None


def _dims(shape: tuple[int, ...]) -> str:
    return "×".join(str(n) for n in shape) if len(shape) > 1 else f"{shape[0]} cells"


def _output(
    result: np.ndarray, errs: np.ndarray | None, shape: tuple[int, ...], numpy_in: bool
) -> Any:
    if shape == () or (not numpy_in and math.prod(shape) == 1):
        e = None if errs is None else errs.flat[0]
        return cell_text(e) if e is not None else float(result.flat[0])
    if errs is None:
        return result if numpy_in else result.tolist()
    out = np.asarray(result, dtype=float).astype(object)
    where = np.not_equal(errs, None)
    codes_only = office_js()
    out[where] = [e.code if codes_only else e.cell_text for e in errs[where]]
    return out if numpy_in else out.tolist()


__all__ = ["ERROR_CODES", "cell_function", "cell_text", "office_js"]
