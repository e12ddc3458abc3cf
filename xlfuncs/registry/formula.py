"""The function registry: the one place each function is described.

A planning function is written once, as plain math in a topic module of
:mod:`xlfuncs.functions`, and marked with :func:`formula`. The decorator records a
:class:`Formula`: its Excel name, its arguments (taken from the signature and
described once in :mod:`xlfuncs.registry.arguments`), the unit of its result, its
one-line description (the docstring's summary line) and its worked example (the
docstring's first doctest). The UDFs, the CLI, the docs and the templates all read
that record.

**A function is its named parts.** Its body is run once, at import, on symbols
(a :class:`~xlfuncs.excel.tree.Ref` per argument), and builds a tree: every
local variable it assigns a formula to is a *part*, named as the variable, in
the order assigned; the value it returns is the *result*, over the arguments
and the parts. A body reads like numpy (``where(c, a, b)``, ``minimum``: see
:mod:`xlfuncs.excel.ops`), calls its siblings plainly (a call of a registered
function while a body is traced is a :class:`~xlfuncs.excel.tree.Call`), and
looks tables up through :mod:`xlfuncs.registry.lookups`. From that one
declaration come:

- the Python the API and the cells run, printed from the trees and compiled
  once (:mod:`xlfuncs.excel.compile`): on floats for one value, on numpy arrays
  for ranges;
- the Excel expression (:attr:`Formula.expression`), the parts written in;
- the LAMBDA, its parts a ``LET`` each (:mod:`xlfuncs.templates.lambdas`);
- the working cells a template lays the parts out in.

The decorated function is the Python API: it checks its arguments and raises an
:class:`~xlfuncs.registry.errors.InvalidValueError` (a ``ValueError``) or an
:class:`~xlfuncs.registry.errors.InvalidTypeError` (a ``TypeError``) with a reason
in Python terms, and warns (an
:class:`~xlfuncs.registry.errors.UnusualValueWarning`) of a valid value outside
the range real plans use, naming the likely unit slip.
"""

from __future__ import annotations

import ast
import doctest
import functools
import inspect
import itertools
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt

from ..excel.compile import Refused, Sibling, python_function
from ..excel.ops import Fail
from ..excel.tree import AS_WRITTEN, TRACING, Call, Expr, Lit, Ref, lift
from .arguments import ARGS, Arg
from .domains import all_finite
from .errors import (
    InputError,
    InvalidTypeError,
    InvalidValueError,
    UnusualValueWarning,
    divisor_too_small,
)
from .excel import ExcelFunction

P = ParamSpec("P")
R = TypeVar("R")

#: A number argument. Callers pass a number (a Decimal too), or anything numpy reads
#: as an array of numbers (a list, a range, a pandas Series); the decorator checks
#: it and hands the body a float or a float64 array. Python's typing cannot say that
#: a decorator converts its arguments, so the alias is ``Any``: the body computes
#: on it as on :data:`Floats`, callers pass any array-like, and the parameter names,
#: their number and the name arguments (``str``) are still checked statically.
Numbers: TypeAlias = Any
#: An optional name whose default stands in for None (``dtype="bf16"``): callers
#: may pass None, and the decorator hands the body the default's key, a str. ``Any``
#: for the reason :data:`Numbers` is.
OptionalName: TypeAlias = Any
#: What the math returns: a float, or a numpy array of floats.
Floats: TypeAlias = "float | npt.NDArray[np.float64]"


@dataclass(frozen=True)
class Example:
    """A worked example taken from the docstring's first doctest."""

    args: tuple[Any, ...]
    source: str  # the doctest call, e.g. "examples_per_sec(8, 2500, 0.82, 900)"


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
    # The declaration: the named parts, in order, each over the arguments and
    # the parts before it, and the result over both. No result: the function
    # has no Excel form, and ``excel_note`` says why.
    parts: tuple[tuple[str, Expr], ...] = ()
    result: Expr | None = None
    excel_note: str = ""

    @functools.cached_property
    def expression(self) -> Expr | None:
        """The result as one Excel expression over the arguments: the parts
        written in where they are read, look-ups as Excel reads them, sibling
        functions as calls."""
        if self.result is None:
            return None
        return written_in(self.parts, self.result)

    @property
    def excel(self) -> str | None:
        """:attr:`expression` as Excel text (calls kept as calls), or None."""
        tree = self.expression
        return None if tree is None else tree.excel(AS_WRITTEN)

    @property
    def topic(self) -> str:
        """The topic the function belongs to: its module under
        ``xlfuncs.functions``, or the package a module sits in."""
        return ".".join(self.module.split(".")[:3])

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
        return InvalidTypeError(
            "#VALUE!", f"{self.name} takes {want} arguments ({names}), got {n}"
        )

    def signature_text(self) -> str:
        """E.g. ``CHINCHILLA_PARAMS(budget_pf_days, [tokens_per_param])``."""
        parts = [
            f"[{a.name}]" if a.name in self.defaults else a.name for a in self.args
        ]
        return f"{self.name}({', '.join(parts)})"

    @property
    def invalid(self) -> InvalidValueError:
        """The error for a result with no finite value."""
        return InvalidValueError("#NUM!", self.invalid_result)

    def result_error(self, values: Sequence[Any]) -> InputError:
        """Why one cell's checked values (plain Python floats) give no finite result.

        The one answer for a single cell, a cell of a range and the Python API: a
        divisor that rounds to 0 is ``#DIV/0!``, any other non-finite result
        ``#NUM!``. Call it inside ``np.errstate(all="ignore")``.
        """
        try:
            self.raw(*values)
        except ZeroDivisionError:
            return divisor_too_small()
        except InputError as err:
            return err
        except Refused as refused:
            return self.refusal(refused)
        except Exception:  # noqa: BLE001 - an overflow, or what numpy says of inf
            pass
        return self.invalid

    def refusal(self, refused: Refused) -> InputError:
        """The error a formula gives on purpose (``fail``), with its reason."""
        why = refused.why or self.invalid_result
        if refused.code == "#VALUE!":
            return InvalidTypeError(refused.code, why)
        return InvalidValueError(refused.code, why)


REGISTRY: dict[str, Formula] = {}


def written_in(parts: Sequence[tuple[str, Expr]], result: Expr) -> Expr:
    """``result`` with each part's name replaced by its tree, and each look-up
    by the Excel expression it prints (:meth:`Expr.excel_form`)."""
    trees: dict[str, Expr] = {}
    done: dict[int, Expr] = {}

    def visit(e: Expr) -> Expr:
        if id(e) in done:
            return done[id(e)]
        if isinstance(e, Ref) and e.name in trees:
            out = trees[e.name]
        else:
            form = getattr(e, "excel_form", None)
            base = form() if form is not None else e
            kids = base.children()
            new = [visit(c) for c in kids]
            out = base if all(a is b for a, b in zip(new, kids)) else base.rebuilt(new)
        done[id(e)] = out
        return out

    for name, tree in parts:
        trees[name] = visit(tree)
    return visit(result)


def formula(
    name: str,
    *,
    unit: str,
    excel_note: str = "",
    invalid_result: str = "the result is out of range",
    warns: Sequence[tuple[Callable[..., Any], str]] = (),
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Register math as the function ``name`` (its Excel name).

    The body is traced once into its parts and result (the module's
    docstring), unless ``excel_note`` says why Excel formulas cannot compute
    it (an iterative solver): then it stays plain Python. Argument
    descriptions come from :data:`~xlfuncs.registry.arguments.ARGS` by
    parameter name and are added to the docstring as its numpydoc *Parameters*
    section. ``warns``: (test, text) pairs over the checked arguments, by
    name; the Python API warns with the text where a test holds (a valid call
    the hardware serves badly), as it does for an unusual value.
    """

    def decorate(raw: Callable[P, R]) -> Callable[P, R]:
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

        params = tuple(sig.parameters)
        parts: tuple[tuple[str, Expr], ...] = ()
        result: Expr | None = None
        math_: Callable[..., Any] = raw  # called with the checked values, in order
        if not excel_note:
            parts, result = trace(raw, params)
            numeric = [i for i, a in enumerate(args) if a.kind == "number"]
            math_ = _compiled(name, params, defaults, parts, result, numeric)

        @functools.wraps(raw)
        def api(*a: P.args, **kw: P.kwargs) -> R:
            if TRACING[0]:  # a sibling's body calls it: a call in the tree
                return _traced_call(name, sig, defaults, a, kw)  # type: ignore[return-value]
            try:
                bound = sig.bind(*a, **kw)
            except TypeError as err:
                raise _arity_error(raw, a, kw, err) from None
            bound.apply_defaults()
            values = []
            for arg, v in zip(args, bound.arguments.values()):
                optional = arg.name in defaults
                if v is None and optional:
                    v = defaults[arg.name]  # None for an optional argument: its default
                values.append(None if v is None and optional else arg.check(v))
            _check_shapes(args, values)
            for arg, v in zip(args, values):
                slip = arg.unusual(v)  # valid, but outside what plans use
                if slip is not None:
                    warnings.warn(slip, stacklevel=2)
            if warns:
                named = {a.name: v for a, v in zip(args, values)}
                for test, text in warns:
                    with np.errstate(all="ignore"):
                        if np.any(test(**named)):
                            warnings.warn(UnusualValueWarning(text), stacklevel=2)
            with np.errstate(all="ignore"):
                try:
                    out_ = math_(*values)
                except ZeroDivisionError:
                    raise divisor_too_small() from None
                except InputError:  # a look-up's #N/A, with its reason
                    raise
                except Refused as refused:
                    raise spec.refusal(refused) from None
                except (OverflowError, ValueError):
                    raise spec.invalid from None
                out = np.asarray(out_, dtype=float)
                if not all_finite(out):
                    # Say why as a single call with the first bad cell's values would.
                    bad = ~np.isfinite(out)
                    shape = np.broadcast_shapes(out.shape, *_shapes(args, values))
                    first = next(cell_values(args, values, shape, _first(shape, bad)))
                    raise spec.result_error(first)
            return out_  # type: ignore[no-any-return]

        api.__doc__ = _with_parameters(doc, args, defaults)
        spec = Formula(
            name=name,
            python_name=raw.__name__,
            module=raw.__module__,
            description=summary,
            unit=unit,
            args=args,
            defaults=defaults,
            raw=math_,
            api=api,
            example=_first_example(doc, raw.__name__, name),
            invalid_result=invalid_result,
            parts=parts,
            result=result,
            excel_note=excel_note,
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


def trace(
    body: Callable[..., Any], params: Sequence[str]
) -> tuple[tuple[tuple[str, Expr], ...], Expr]:
    """Run ``body`` once on symbols: its parts (the formulas it assigns to local
    variables, in order, each over the arguments and the parts before it, those
    the result reads) and its result."""
    symbols = {p: Ref(p) for p in params}
    seen: dict[str, Any] = {}
    code = body.__code__

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "return" and frame.f_code is code:
            seen.update(frame.f_locals)

    previous = sys.getprofile()
    sys.setprofile(profile)
    TRACING[0] = True
    try:
        out = body(**symbols)
    finally:
        TRACING[0] = False
        sys.setprofile(previous)
    changed = [p for p in params if seen.get(p, symbols[p]) is not symbols[p]]
    if changed:
        raise ValueError(
            f"{body.__name__} assigns to its argument {changed[0]}: name a part"
        )
    named: dict[int, str] = {}
    for k, v in seen.items():
        # A name, a literal or an error value is written where it is read: a
        # part is computed whatever the branch, and an error would always fail.
        if (
            k not in symbols
            and isinstance(v, Expr)
            and not isinstance(v, (Ref, Lit, Fail))
        ):
            named.setdefault(id(v), k)
    returned = lift(out)
    named.pop(id(returned), None)  # ``x = …; return x``: the result, not a part
    trees = {id(v): v for v in seen.values() if isinstance(v, Expr)}
    done: dict[int, Expr] = {}

    def named_in(e: Expr, own: int) -> Expr:
        """``e`` with each part it holds (but itself) read by its name."""
        if id(e) in named and id(e) != own:
            return Ref(named[id(e)])
        key = id(e)
        if own == -1 and key in done:
            return done[key]
        kids = e.children()
        new = [named_in(c, -1) for c in kids]
        rebuilt = e if all(a is b for a, b in zip(new, kids)) else e.rebuilt(new)
        if own == -1:
            done[key] = rebuilt
        return rebuilt

    result = named_in(returned, -1)
    order = list(dict.fromkeys(named.values()))
    part_trees = {n: named_in(trees[i], i) for i, n in named.items()}
    used: set[str] = set()
    stack = [result]
    while stack:  # the parts the result reads, and the parts they read
        for x in stack.pop().walk():
            if isinstance(x, Ref) and x.name in part_trees and x.name not in used:
                used.add(x.name)
                stack.append(part_trees[x.name])
    parts = tuple((n, part_trees[n]) for n in order if n in used)
    return parts, result


def _traced_call(
    name: str,
    sig: inspect.Signature,
    defaults: Mapping[str, Any],
    a: tuple[Any, ...],
    kw: dict[str, Any],
) -> Call:
    """A call of ``name`` in a body being traced: its arguments as trees, in
    order, up to the last one given; one left out before it takes its
    default."""
    bound = sig.bind(*a, **kw)
    given = bound.arguments
    names = list(sig.parameters)
    last = max((names.index(n) for n in given), default=-1)
    out: list[Expr] = []
    for n in names[: last + 1]:
        if n in given and given[n] is not None:
            out.append(lift(given[n]))
        elif defaults.get(n) is not None:
            out.append(lift(defaults[n]))
        else:
            raise ValueError(
                f"{name}: give {n} explicitly, or leave every later one out"
            )
    return Call(name, tuple(out))


def _compiled(
    name: str,
    params: Sequence[str],
    defaults: Mapping[str, Any],
    parts: Sequence[tuple[str, Expr]],
    result: Expr,
    numeric: Sequence[int],
) -> Callable[..., Any]:
    """The declaration as Python: on floats where no number argument is an
    array, else on arrays."""
    siblings = {n: SIBLINGS[n] for n in SIBLINGS}
    scalar = python_function(name, params, defaults, parts, result, "scalar", siblings)
    array = python_function(name, params, defaults, parts, result, "array", siblings)
    SIBLINGS[name] = Sibling(tuple(params), scalar, array)

    def run(*values: Any) -> Any:
        for i in numeric:
            if isinstance(values[i], np.ndarray):
                return array(*values)
        return scalar(*values)

    run.scalar, run.array = scalar, array  # type: ignore[attr-defined]
    return run


#: Each traced function's compiled forms, for the bodies that call it.
SIBLINGS: dict[str, Sibling] = {}


def _arity_error(
    raw: Callable[..., Any], a: tuple[Any, ...], kw: dict[str, Any], err: TypeError
) -> InvalidTypeError:
    """Arguments that do not fit the signature, in Python's own words.

    ``Signature.bind`` words some cases its own way ("missing a required argument:
    'efficiency'" for an unknown keyword), so the plain function is called with
    the same arguments: they fail to bind there too, before its body runs.
    """
    try:
        raw(*a, **kw)
    except TypeError as python:
        err = python
    except Exception:  # noqa: BLE001 - it bound after all: keep bind's words
        pass
    return InvalidTypeError("#VALUE!", str(err))


def cell_values(
    args: Sequence[Arg], values: Sequence[Any], shape: tuple[int, ...], where: Any
) -> Iterator[tuple[Any, ...]]:
    """The checked values of each cell ``where`` selects, as plain Python values.

    Arrays are broadcast to ``shape`` and read where ``where`` (a boolean array of
    that shape) is true, as floats, so that x / 0 raises as it does for a scalar
    call; samples, names and None pass whole.
    """
    n = int(np.count_nonzero(where))
    columns: list[Iterable[Any]] = [
        np.broadcast_to(v, shape)[where].tolist()
        if a.kind != "sample" and isinstance(v, np.ndarray)
        else itertools.repeat(v, n)
        for a, v in zip(args, values)
    ]
    return zip(*columns)


def _shapes(args: Sequence[Arg], values: Sequence[Any]) -> list[tuple[int, ...]]:
    return [
        np.shape(v)
        for a, v in zip(args, values)
        if a.kind != "sample" and isinstance(v, np.ndarray)
    ]


def _first(shape: tuple[int, ...], bad: np.ndarray) -> np.ndarray:
    """A mask of ``shape`` true only at the first cell where ``bad`` is."""
    full = np.broadcast_to(bad, shape)
    mask = np.zeros(shape, dtype=bool)
    mask.flat[int(np.argmax(full))] = True
    return mask


def _check_shapes(args: tuple[Arg, ...], values: list[Any]) -> None:
    """Arrays that numpy cannot broadcast together: say which, in Python terms."""
    shapes = [
        (a.name, np.shape(v))
        for a, v in zip(args, values)
        if a.kind == "number" and isinstance(v, np.ndarray)
    ]
    try:
        np.broadcast_shapes(*(s for _, s in shapes))
    except ValueError:
        listed = ", ".join(f"{n} {s}" for n, s in shapes)
        raise InvalidValueError(
            "#VALUE!", f"array shapes do not broadcast together: {listed}"
        ) from None


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
                    values = tuple(ast.literal_eval(a) for a in node.args)
                except ValueError:
                    continue
                return Example(args=values, source=ast.unparse(node))
    raise ValueError(
        f"{name}: the docstring needs a doctest calling {python_name}(...)"
    )


def excel_functions() -> dict[str, ExcelFunction]:
    """Every function with an Excel expression, as
    :func:`xlfuncs.templates.written.inline` writes them out."""
    return {
        f.name: ExcelFunction(
            tuple(a.name for a in f.args), f.defaults, f.expression, f.parts, f.result
        )
        for f in REGISTRY.values()
        if f.expression is not None
    }
