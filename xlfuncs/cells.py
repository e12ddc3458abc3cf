"""Evaluate a registered formula the way a spreadsheet cell calls it.

Excel hands a UDF numbers, text, booleans, blanks and error values, one cell or a
whole range each (xlwings gives a range as a list of rows because the UDFs declare
``ndim=2``, and an error cell as its code because they set ``err_to_str``).
:func:`cell_function` turns a :class:`~xlfuncs.registry.Formula` into a function
that never raises: each bad cell becomes the error code Excel itself would use,
with a short reason; an error a cell receives is passed on with its code; good
cells still compute; ranges broadcast like numpy arrays; ranges that do not line
up give ``#VALUE!``.

One path for every call, a single cell or a million: read each argument (a
range converted to numbers in one pass, checked with its domain's min and max;
only cells that hold text, blanks, booleans or errors read one by one), compute
the math once over the arrays, then map each bad cell to its error. A plain
Python fast path for single cells saved half a microsecond against an xlwings
round trip of 4 to 13 ms, so there is none. Numpy arrays in give numpy arrays
out.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from decimal import Decimal
from itertools import chain
from typing import Any

import numpy as np

from .excel.compile import Refused
from .registry import Arg, Formula, InputError, InvalidValueError
from .registry.domains import Domain, all_finite
from .registry.errors import ERROR_CODES, divisor_too_small, shorten, shown_error
from .registry.formula import cell_values

_NESTED = (list, tuple, np.ndarray)  # inside a range: a range within a range

# Error cells as Windows Excel's COM interface hands them over (CVErr values),
# for the codes xlwings leaves as ints: the newer ones, e.g. #SPILL!.
_COM_ERROR_BASE = -2146828288
_COM_ERRORS = {
    _COM_ERROR_BASE + n: code
    for n, code in (
        (2000, "#NULL!"), (2007, "#DIV/0!"), (2015, "#VALUE!"), (2023, "#REF!"),
        (2029, "#NAME?"), (2036, "#NUM!"), (2042, "#N/A"), (2043, "#GETTING_DATA"),
        (2045, "#SPILL!"), (2046, "#CONNECT!"), (2047, "#BLOCKED!"),
        (2048, "#UNKNOWN!"), (2049, "#FIELD!"), (2050, "#CALC!"),
    )
}  # fmt: skip


def office_js() -> bool:
    """True when xlwings runs as Office.js custom functions (xlwings Lite).

    There a returned string that is exactly one of Excel's seven classic error
    codes becomes a real error cell, so errors are returned bare; desktop Excel
    shows text only, so the reason goes with the code.
    """
    return os.environ.get("XLWINGS_ON_SERVER") == "true"  # xlwings' own test


def cell_text(err: InputError) -> str:
    if office_js():
        return err.code if err.code in ERROR_CODES else "#VALUE!"
    return err.cell_text


def cell_function(spec: Formula) -> Callable[..., Any]:
    """A function of the formula's arguments that returns values or error text."""
    evaluate = _Evaluator(spec)
    n_args, n_required = len(spec.args), spec.n_required

    def call(*args: Any) -> Any:
        n = len(args)
        if not n_required <= n <= n_args:
            return cell_text(spec.arity_error(n))  # type: ignore[arg-type]
        return evaluate(args + (None,) * (n_args - n))  # left out: blank

    return call


class _Evaluator:
    """Evaluates one call: ranges, bad cells, errors passed on, numpy arrays."""

    def __init__(self, spec: Formula) -> None:
        self.spec = spec

    def __call__(self, args: tuple[Any, ...]) -> Any:
        try:
            return self._evaluate(args)
        except Exception as exc:  # noqa: BLE001 - a cell must never show a traceback
            return cell_text(
                InvalidValueError("#VALUE!", f"internal error, please report: {exc!r}")
            )

    def _evaluate(self, args: tuple[Any, ...]) -> Any:
        spec = self.spec
        # Plain arrays: a masked array's mask would hide cells from the checks,
        # and np.matrix makes * a matrix product.
        args = tuple(
            np.asarray(a)
            if isinstance(a, np.ndarray) and type(a) is not np.ndarray
            else a
            for a in args
        )
        numpy_in = any(isinstance(a, np.ndarray) and a.ndim > 0 for a in args)
        values: list[Any] = []
        errors: list[Any] = []  # per argument: None, an InputError, or an object array
        for arg, a in zip(spec.args, args):
            if arg.name in spec.defaults and _is_blank(a):
                a = spec.defaults[arg.name]
                if a is None:
                    values.append(None)
                    errors.append(None)
                    continue
            reader = _sample if arg.kind == "sample" else _cells
            value, err = reader(arg, a, arg.name in spec.defaults)
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
            return cell_text(
                InvalidValueError("#VALUE!", f"ranges do not line up: {sizes}")
            )

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
            free = _none(err_cells)
            if isinstance(err, InputError):
                err_cells[free] = err
            else:
                err_b = np.broadcast_to(err, shape)
                take = free & ~_none(err_b)
                err_cells[take] = err_b[take]
        bad_result = ~np.isfinite(result) & _none(err_cells)
        if bad_result.any():
            err_cells[bad_result] = self._result_errors(values, shape, bad_result)
        return _output(result, err_cells, shape, numpy_in)

    def _result_errors(
        self, values: list[Any], shape: tuple[int, ...], bad: np.ndarray
    ) -> Any:
        """Why each ``bad`` cell has no finite result: what a call with that
        cell's values alone says (Formula.result_error), cell by cell.

        Many such cells (a range that overflows) are first run again as whole
        arrays with numpy raising on division by zero and invalid operations: if
        none occurs, no cell divides by zero in plain floats either, and every
        one is out of range.
        """
        spec = self.spec
        n = int(np.count_nonzero(bad))
        if n > 64 and n * 100 > bad.size and self._divides_by_no_zero(values):
            return spec.invalid
        why = np.empty(n, dtype=object)
        with np.errstate(all="ignore"):
            for i, cell in enumerate(cell_values(spec.args, values, shape, bad)):
                why[i] = spec.result_error(cell)
        return why

    def _divides_by_no_zero(self, values: list[Any]) -> bool:
        """True when the non-finite cells can only be overflows: no division by
        zero or invalid operation, and no NaN (which arithmetic cannot make
        without that flag; the math sets it where it reports an error)."""
        if any(isinstance(v, np.ndarray) and v.dtype == object for v in values):
            return False  # names given as a range: computed per name, not at once
        try:
            with np.errstate(divide="raise", invalid="raise", over="ignore"):
                out = self.spec.raw(*values)
        except Exception:  # noqa: BLE001 - a flag, or anything else: ask each cell
            return False
        return not np.isnan(out).any()

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
            return self._run(values, shape)
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
            out, err = self._run(vals, shape)
            result[mask] = out[mask]
            if err is not None:
                errs[mask] = err
        return result, errs

    def _run(self, values: list[Any], shape: tuple[int, ...]) -> tuple[np.ndarray, Any]:
        try:
            with np.errstate(all="ignore"):
                out = np.asarray(self.spec.raw(*values), dtype=float)
        except InputError as err:
            return np.full(shape, np.nan), err
        except Refused as refused:  # an error value the formula gives on purpose
            return np.full(shape, np.nan), self.spec.refusal(refused)
        except ZeroDivisionError:
            return np.full(shape, np.nan), divisor_too_small()
        except ArithmeticError:
            return np.full(shape, np.nan), self.spec.invalid
        if out.shape != shape:  # an argument the math does not use was a range
            out = np.broadcast_to(out, shape).copy()
        return out, None


def _none(a: np.ndarray) -> np.ndarray:
    """True where an object array holds None (no error in that cell)."""
    return np.equal(a, None)  # type: ignore[call-overload, no-any-return]


def _is_blank(a: Any) -> bool:
    """True for a blank cell: None, or a one-cell range ``[[None]]``."""
    return a is None or (
        type(a) is list
        and len(a) == 1
        and type(a[0]) is list
        and len(a[0]) == 1
        and a[0][0] is None
    )


def _safe(domain: Domain | None) -> float:
    """A value inside the domain, computed in place of a bad cell and then masked."""
    if domain is None:
        return 1.0
    if not math.isfinite(domain.hi):
        return domain.lo + 1.0
    mid = (domain.lo + domain.hi) / 2
    return float(math.ceil(mid)) if domain.whole else mid


def _passed_on(arg: Arg, x: Any) -> InputError | None:
    """The error a cell shows, passed on with its code, or None if it shows none."""
    code = shown_error(x)
    if code is None:
        if type(x) is int and x in _COM_ERRORS:
            code = x = _COM_ERRORS[x]
        else:
            return None
    return InvalidValueError(code, shorten(f"{arg.name} refers to a cell showing {x}"))


def _cell_error(arg: Arg, x: Any, in_optional: bool = False) -> InputError | None:
    """Why one cell's value cannot be used for ``arg``, or None.

    ``in_optional``: the cell is one of a range given for an optional argument,
    where a blank is a gap, not the default.
    """
    if x is None and in_optional:
        return arg.blank_in_range()
    return _passed_on(arg, x) or arg.scalar_error(x)


def _rows(arg: Arg, a: list[Any]) -> tuple[tuple[int, ...], InputError | None]:
    """The shape of a range, or why it is not one.

    A range is a list of rows of equal length (a 2-D range) or a flat list (1-D).
    """
    if not a:
        return (0,), InvalidValueError("#VALUE!", f"{arg.name} is an empty range")
    if type(a[0]) is not list:
        return (len(a),), None
    width = len(a[0])
    if width == 0 or any(type(r) is not list or len(r) != width for r in a):
        return (0,), arg.ragged()
    return (len(a), width), None


def _too_deep(arg: Arg) -> InvalidValueError:
    return InvalidValueError(
        "#VALUE!", f"{arg.name} is nested too deep for a range of cells"
    )


def _read_range(
    arg: Arg, a: list[Any]
) -> tuple[list[Any], tuple[int, ...], list[int]] | InputError:
    """A range's cells in one flat list (row by row), its shape and where its
    cells are not floats; or why it is not a range of cells."""
    shape, err = _rows(arg, a)
    if err is not None:
        return err
    cells = list(chain.from_iterable(a)) if len(shape) == 2 else a
    odd = _not_floats(cells)
    if any(isinstance(cells[i], _NESTED) for i in odd):
        return _too_deep(arg)
    return cells, shape, odd


def _not_floats(cells: list[Any]) -> list[int]:
    """Where ``cells`` holds something other than a float, in order.

    ``list.count`` compares by identity first, in C, so counting the floats of a
    span is cheap: only spans whose count falls short are halved and searched.
    """
    types = list(map(type, cells))
    found: list[int] = []
    spans = [(0, len(types))]
    while spans:
        lo, hi = spans.pop()
        floats = types[lo:hi].count(float)
        if floats == hi - lo:
            continue
        if floats == 0:
            found.extend(range(lo, hi))
        elif hi - lo <= 32:
            found.extend(i for i in range(lo, hi) if types[i] is not float)
        else:
            mid = (lo + hi) // 2
            spans += [(mid, hi), (lo, mid)]
    return sorted(found)


def _one_cell(a: Any) -> bool:
    """``[[x]]`` with x a value, not a range."""
    return (
        type(a) is list
        and len(a) == 1
        and type(a[0]) is list
        and len(a[0]) == 1
        and not isinstance(a[0][0], _NESTED)
    )


def _cells(arg: Arg, a: Any, optional: bool = False) -> tuple[Any, Any]:
    """Values and per-cell errors of one broadcast argument."""
    if isinstance(a, np.ndarray):
        if arg.kind == "number" and a.dtype.kind in "iuf":
            return _checked(arg, a.astype(float, copy=False))
        a = a.item() if a.ndim == 0 else a.tolist()
    if _one_cell(a):
        a = a[0][0]  # one cell, as xlwings hands it over: [[x]]
    if type(a) is not list:
        err = _cell_error(arg, a)
        if err:
            return (_safe(arg.domain) if arg.kind == "number" else None), err
        return (arg.key(a) if arg.kind == "choice" else float(a)), None
    read = _read_range(arg, a)
    if isinstance(read, InputError):
        return (_safe(arg.domain) if arg.kind == "number" else None), read
    cells, shape, odd = read
    if arg.kind == "choice":
        return _each_cell(arg, cells, shape, optional)
    return _numbers(arg, cells, shape, odd, optional)


def _numbers(
    arg: Arg,
    cells: list[Any],
    shape: tuple[int, ...],
    odd: list[int],
    optional: bool = False,
) -> tuple[np.ndarray, Any]:
    """A range for a number argument, converted and checked in one pass.

    ``odd`` lists the cells that are not floats (text, blanks, booleans, errors,
    ints from Python, Decimals from Currency cells): they hold a safe value
    during the conversion and are then read one by one, unless they are all
    plain ints or Decimals that convert to finite floats.
    """
    if all(_plain(cells[i]) for i in odd):
        try:
            x = np.array(cells, dtype=float).reshape(shape)
        except (OverflowError, ValueError):  # 10**400, Decimal('sNaN'): say which
            pass
        else:
            # A Decimal too large for a float became inf: the per-cell code says so.
            if not any(type(cells[i]) is Decimal for i in odd) or all_finite(x):
                return _checked(arg, x)
    safe = _safe(arg.domain)
    floats = list(cells)
    for i in odd:
        floats[i] = safe
    values, errs = _checked(arg, np.array(floats, dtype=float))
    for i in odd:
        err = _cell_error(arg, cells[i], optional)
        if err is None:
            values[i] = float(cells[i])
            continue
        if errs is None:
            errs = np.full(len(cells), None, dtype=object)
        errs[i] = err
    return values.reshape(shape), (None if errs is None else errs.reshape(shape))


def _plain(c: Any) -> bool:
    """An int that is no error value, or a Decimal: numpy converts it as a number."""
    t = type(c)
    return t is Decimal or (t is int and c not in _COM_ERRORS)


def _checked(arg: Arg, x: np.ndarray) -> tuple[np.ndarray, Any]:
    """A numeric array checked as a whole; per-cell errors only where it fails."""
    if arg.domain is None or arg.domain.all_inside(x):
        return x, None
    bad = ~arg.domain.mask(x)
    errs = np.full(x.shape, None, dtype=object)
    left = bad.copy()  # bad cells without an error yet; ``bad`` itself stays whole
    # One error object per kind of fault, not one per cell.
    for fault in (~np.isfinite(x), x == 0, bad):
        hit = fault & left
        if hit.any():
            errs[hit] = arg.domain.error(arg.name, float(x[hit].flat[0]))
            left &= ~hit
    return np.where(bad, _safe(arg.domain), x), errs


def _each_cell(
    arg: Arg, cells: list[Any], shape: tuple[int, ...], optional: bool = False
) -> tuple[Any, Any]:
    """Cell by cell: names, and the reference the whole-range paths must agree with."""
    errs = np.full(len(cells), None, dtype=object)
    choice = arg.kind == "choice"
    values = (
        np.full(len(cells), None, dtype=object)
        if choice
        else np.full(len(cells), _safe(arg.domain))
    )
    # A name is looked up, and an unknown one given its suggestion, once: the
    # cells that hold it share the key or the error.
    seen: dict[str, tuple[str | None, InputError | None]] = {}
    for i, c in enumerate(cells):
        if choice and type(c) is str:
            hit = seen.get(c)
            if hit is None:
                err = _cell_error(arg, c, optional)
                hit = seen[c] = (None if err else arg.key(c), err)
            values[i], errs[i] = hit
            continue
        err = _cell_error(arg, c, optional)
        if err:
            errs[i] = err
        elif choice:
            values[i] = arg.key(c)
        else:
            values[i] = float(c)
    any_err = any(e is not None for e in errs)
    return values.reshape(shape), (errs.reshape(shape) if any_err else None)


def _sample(arg: Arg, a: Any, optional: bool = False) -> tuple[Any, Any]:
    """A range reduced to one statistic: one bad cell spoils the whole result."""
    if isinstance(a, np.ndarray):
        if a.dtype.kind in "iuf":
            return _whole_sample(arg, *_checked(arg, a.astype(float).ravel()))
        a = a.tolist() if a.ndim else a.item()
    read = _read_range(arg, a if type(a) is list else [a])
    if isinstance(read, InputError):
        return None, read
    cells, _, odd = read
    for i in odd:  # an error shown anywhere is passed on, as AVERAGE does
        shown = _passed_on(arg, cells[i])
        if shown is not None:
            return None, shown
    skip = [i for i in odd if _skipped(cells[i])]
    if skip:
        cells, odd = _without(cells, odd, skip)
    return _whole_sample(arg, *_numbers(arg, cells, (len(cells),), odd))


def _skipped(c: Any) -> bool:
    """A cell a sample leaves out, as AVERAGE and PERCENTILE.INC do: a blank (the
    end of a selected column), text such as a header, TRUE or FALSE. A cell that
    shows an error is not left out: it is passed on."""
    return (
        c is None
        or isinstance(c, (bool, np.bool_))
        or (isinstance(c, str) and shown_error(c) is None)
    )


def _without(
    cells: list[Any], odd: list[int], skip: list[int]
) -> tuple[list[Any], list[int]]:
    """``cells`` without the positions ``skip`` (a sorted part of ``odd``), and
    where the rest of ``odd`` lands."""
    kept: list[Any] = []
    start = 0
    for i in skip:
        kept += cells[start:i]
        start = i + 1
    kept += cells[start:]
    dropped, moved, gone = set(skip), [], 0
    for i in odd:
        if i in dropped:
            gone += 1
        else:
            moved.append(i - gone)
    return kept, moved


def _whole_sample(arg: Arg, x: np.ndarray, errs: Any) -> tuple[Any, Any]:
    """The sample, or the error of its first bad cell."""
    if errs is not None:
        return None, errs[~_none(errs)][0]
    if x.size == 0:
        return None, InvalidValueError("#DIV/0!", f"{arg.name} holds no numbers")
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
    where = ~_none(errs)
    texts: dict[int, str] = {}  # cells share error objects: one text each
    out[where] = [
        texts[id(e)] if id(e) in texts else texts.setdefault(id(e), cell_text(e))
        for e in errs[where]
    ]
    return out if numpy_in else out.tolist()


__all__ = ["cell_function", "cell_text", "office_js"]
