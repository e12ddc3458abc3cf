"""A library function's tree as Python: the same formula on floats or numpy arrays.

A library function is declared once, as named parts over its arguments
(:mod:`xlfuncs.registry.formula`). :func:`python_function` prints those trees as
the body of a Python function and compiles it, once, at import: a function of
plain floats (``mode="scalar"``: ``a if c else b``, ``math.sqrt``, and an error
raised where Excel would show one) and one of numpy arrays (``mode="array"``:
``np.where``, ``np.sqrt``, NaN where Excel shows an error). Both are the text of
the same tree Excel's formula is printed from, so the API, the cells and a
workbook compute one formula; they run as fast as the same arithmetic written
by hand.

The generated source imports nothing: everything it reads (numpy, math, the
helpers below, sibling functions, look-up tables) is bound in its namespace.
"""

from __future__ import annotations

import keyword
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .ops import Fail
from .tree import Expr, Fn, Lit, Omitted, Op, Ref
from .values import XlError, approx_value


class Refused(Exception):
    """An error value a function's formula gives (``#NUM!``): its code, and why."""

    def __init__(self, code: str, why: str = "") -> None:
        super().__init__(why or code)
        self.code, self.why = code, why


def _fail(code: str, why: str) -> float:
    raise Refused(code, why)


def _pow(x: float, y: float) -> float:
    """x^y as Excel computes it: no complex result for a negative base."""
    if x < 0 and not float(y).is_integer():
        raise ValueError("a negative number to a fractional power")
    return float(x**y)


def _trunc(x: float) -> float:
    """ROUNDDOWN(x, 0) on the 15-digit value Excel rounds (72/8 is 9, not 8)."""
    return float(math.trunc(approx_value(x))) + 0.0


def _ceil(x: float) -> float:
    """ROUNDUP(x, 0): away from zero, on the 15-digit value."""
    a = approx_value(x)
    return math.copysign(math.ceil(abs(a)), a) + 0.0


def _floor(x: float) -> float:
    """INT(x): down, on the 15-digit value."""
    return float(math.floor(approx_value(x))) + 0.0


_approx = np.vectorize(approx_value, otypes=[float])


def _trunc_a(x: Any) -> Any:
    return np.trunc(_approx(x)) + 0.0


def _ceil_a(x: Any) -> Any:
    a = _approx(x)
    return np.sign(a) * np.ceil(np.abs(a)) + 0.0


def _floor_a(x: Any) -> Any:
    return np.floor(_approx(x)) + 0.0


def _average(x: Any) -> float:
    return float(np.mean(x))


def _percentile(x: Any, k: Any) -> Any:
    """PERCENTILE.INC: numpy's linear interpolation, k from 0 to 1; a range of
    k gives a value each, in its own shape (none for none)."""
    if isinstance(k, np.ndarray):
        if k.size == 0:
            return np.empty(k.shape)
        return np.quantile(x, np.ravel(k)).reshape(k.shape)
    return float(np.quantile(x, k))


HELPERS: dict[str, object] = {
    "math": math,
    "np": np,
    "_fail": _fail,
    "_pow": _pow,
    "_trunc": _trunc,
    "_ceil": _ceil,
    "_floor": _floor,
    "_trunc_a": _trunc_a,
    "_ceil_a": _ceil_a,
    "_floor_a": _floor_a,
    "_average": _average,
    "_percentile": _percentile,
}

_COMPARE = {"=": "==", "<>": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_ARRAY_OPS = {"+": "np.add", "-": "np.subtract", "*": "np.multiply",
              "/": "np.divide", "^": "np.power"}  # fmt: skip
#: Excel functions of one number: (scalar, array) Python.
_ONE = {
    "SQRT": ("math.sqrt", "np.sqrt"),
    "EXP": ("math.exp", "np.exp"),
    "LN": ("math.log", "np.log"),
    "ABS": ("abs", "np.abs"),
    "INT": ("_floor", "_floor_a"),
}
#: ROUNDDOWN(x, 0) and ROUNDUP(x, 0): (scalar, array).
_ROUNDING = {"ROUNDDOWN": ("_trunc", "_trunc_a"), "ROUNDUP": ("_ceil", "_ceil_a")}


@dataclass(frozen=True)
class Sibling:
    """Another library function a body calls: its parameters, their defaults and
    its two compiled forms."""

    params: tuple[str, ...]
    scalar: Callable[..., Any]
    array: Callable[..., Any]


def static(e: Expr) -> bool:
    """Whether a condition is decided by which arguments were given, not by
    their values (``OMITTED(x)``, combinations of such tests): the same for
    every cell of a range, so it is a Python ``if`` in both forms, and the
    branch not taken (which may read the missing argument) is never run."""
    if isinstance(e, Omitted):
        return True
    if isinstance(e, Lit):
        return not isinstance(e.value_, str)
    if isinstance(e, Op) and e.op in ("*", "+", "=", "<>"):
        return static(e.left) and static(e.right)
    if isinstance(e, Fn) and e.name in ("AND", "OR", "NOT"):
        return all(static(a) for a in e.args)
    return False


class Gen:
    """Prints trees as Python for one mode, binding what they read."""

    def __init__(
        self, mode: str, locals_: Sequence[str], siblings: Mapping[str, Sibling]
    ) -> None:
        assert mode in ("scalar", "array"), mode
        self.mode, self.locals, self.siblings = mode, set(locals_), siblings
        self.inline: dict[str, Expr] = {}  # parts written where they are read
        self.namespace: dict[str, object] = dict(HELPERS)
        self._bound: dict[int, str] = {}
        self._per_cell = 0  # inside np.where: both branches run for every cell

    @property
    def scalar(self) -> bool:
        return self.mode == "scalar"

    @property
    def selected(self) -> bool:
        """Whether the code being printed runs only where its value is used (a
        Python branch), not for every cell whatever it holds (np.where): there
        an error value can be raised, with its reason."""
        return self.scalar or not self._per_cell

    def __call__(self, e: Expr) -> str:
        return e.python(self)

    def bound(self, obj: object, hint: str) -> str:
        """A name in the namespace for a Python object the code calls."""
        if id(obj) not in self._bound:
            safe = "".join(c if c.isalnum() else "_" for c in hint)
            name = f"_{safe}_{len(self._bound)}"
            self.namespace[name] = obj
            self._bound[id(obj)] = name
        return self._bound[id(obj)]

    def literal(self, value: float | str | bool | XlError) -> str:
        if isinstance(value, XlError):
            return f"_fail({value.code!r}, '')" if self.selected else "np.nan"
        if isinstance(value, float):
            return "np.nan" if math.isnan(value) else repr(value)
        return repr(value)

    def name(self, name: str) -> str:
        if name in self.inline:
            return f"({self(self.inline[name])})"
        if name not in self.locals:
            raise NameError(f"{name!r} is neither an argument nor a part")
        return name

    def operator(self, op: str, left: Expr, right: Expr) -> str:
        a, b = self(left), self(right)
        if op in _COMPARE:
            return f"({a} {_COMPARE[op]} {b})"
        if op == "&":
            raise TypeError("text is not joined in a library function's body")
        if not self.scalar:
            return f"{_ARRAY_OPS[op]}({a}, {b})"
        if op == "^":
            return f"_pow({a}, {b})"
        return f"({a} {op} {b})"

    def negated(self, arg: Expr) -> str:
        return f"(-{self(arg)})"

    def omitted(self, param: str) -> str:
        return f"({self.name(param)} is None)"

    def function(self, name: str, args: tuple[Expr, ...]) -> str:
        if name == "IF":
            cond, yes = args[0], args[1]
            no = args[2] if len(args) > 2 else Lit(False)
            if self.scalar or static(cond):
                return f"({self(yes)} if {self(cond)} else {self(no)})"
            self._per_cell += 1
            try:
                return f"np.where({self(cond)}, {self(yes)}, {self(no)})"
            finally:
                self._per_cell -= 1
        if name == "CHOOSE":
            k, options = self(args[0]), args[1:]
            if self.scalar:
                text = self(options[-1])
                for i in range(len(options) - 2, -1, -1):
                    text = f"({self(options[i])} if int({k}) == {i + 1} else {text})"
                return text
            conds = ", ".join(
                f"np.trunc({k}) == {i + 1}" for i in range(len(options) - 1)
            )
            self._per_cell += 1  # every option runs for every cell
            try:
                picks = ", ".join(self(o) for o in options[:-1])
                return f"np.select([{conds}], [{picks}], {self(options[-1])})"
            finally:
                self._per_cell -= 1
        if name in ("AND", "OR"):
            word = "and" if name == "AND" else "or"
            if self.scalar or all(static(a) for a in args):
                return "(" + f" {word} ".join(f"bool({self(a)})" for a in args) + ")"
            joined = ", ".join(self(a) for a in args)
            return f"np.logical_{word}.reduce([{joined}])"
        if name == "NOT":
            inner = self(args[0])
            return f"(not {inner})" if self.scalar else f"np.logical_not({inner})"
        if name in _ONE:
            scalar, array = _ONE[name]
            return f"{scalar if self.scalar else array}({self(args[0])})"
        if name in _ROUNDING:
            assert len(args) == 2 and args[1] == Lit(0.0), "whole numbers only"
            scalar, array = _ROUNDING[name]
            return f"{scalar if self.scalar else array}({self(args[0])})"
        if name in ("MAX", "MIN") and len(args) == 2:
            word = name.lower()
            a, b = self(args[0]), self(args[1])
            return f"{word}({a}, {b})" if self.scalar else f"np.{word}imum({a}, {b})"
        if name == "POWER":
            return self.operator("^", args[0], args[1])
        if name == "AVERAGE":
            return f"_average({self(args[0])})"
        if name == "PERCENTILE.INC":
            return f"_percentile({self(args[0])}, {self(args[1])})"
        raise NotImplementedError(f"no Python form for Excel's {name}")

    def call(self, function: str, args: tuple[Expr, ...]) -> str:
        sibling = self.siblings[function]
        fn = sibling.scalar if self.scalar else sibling.array
        given = [self(a) for a in args]
        given += ["None"] * (len(sibling.params) - len(given))
        return f"{self.bound(fn, function.lower())}({', '.join(given)})"


def python_function(
    name: str,
    params: Sequence[str],
    defaults: Mapping[str, object],
    parts: Sequence[tuple[str, Expr]],
    result: Expr,
    mode: str,
    siblings: Mapping[str, Sibling],
) -> Callable[..., Any]:
    """The function whose body computes ``parts`` in order, then ``result``.

    Every parameter is positional; an optional one given as None takes its
    default (a None default stays None: the body tests ``OMITTED``).
    """
    for n in (*params, *(p for p, _ in parts)):
        if not n.isidentifier() or keyword.iskeyword(n) or n.startswith("_"):
            raise ValueError(f"{name}: {n!r} cannot name a Python variable")
    gen = Gen(mode, [*params, *(p for p, _ in parts)], siblings)
    # A part that can give an error on purpose is written where it is read: a
    # variable would be computed, and raise, even where no branch reads it.
    for part, tree in parts:
        if any(
            isinstance(x, Fail) or (isinstance(x, Ref) and x.name in gen.inline)
            for x in tree.walk()
        ):
            gen.inline[part] = tree
    lines = [f"def {name.lower()}_{mode}({', '.join(params)}):"]
    for p in params:
        default = defaults.get(p)
        if default is not None:
            value = default if isinstance(default, str) else float(default)  # type: ignore[arg-type]
            lines.append(f"    if {p} is None: {p} = {gen.literal(value)}")
    for part, tree in parts:
        if part not in gen.inline:
            lines.append(f"    {part} = {gen(tree)}")
    lines.append(f"    return {gen(result)}")
    source = "\n".join(lines) + "\n"
    code = compile(source, f"<{name} ({mode})>", "exec")
    exec(code, gen.namespace)  # noqa: S102 - source printed from our own trees
    fn = gen.namespace[f"{name.lower()}_{mode}"]
    fn.__source__ = source  # type: ignore[attr-defined]
    return fn  # type: ignore[return-value]


__all__ = ["HELPERS", "Gen", "Refused", "Sibling", "python_function", "static"]
