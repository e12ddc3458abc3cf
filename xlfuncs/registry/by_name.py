"""Functions of a model and an accelerator by name, generated from their look-ups.

A function on numbers (``REPLICA_TOKENS_PER_SEC(params, layers, …, memory_gb,
…)``) is declared once (:mod:`xlfuncs.registry.formula`). Its by-name form
(``SERVING_TOKENS_PER_SEC(model, gpu, …)``) is not written again: :func:`by_name`
makes it from the look-ups that give each number from the names, and keeps the
other arguments, in their order and with their defaults. Its body is one call of
the function on numbers, with the look-ups as arguments, so the Excel formula,
the LAMBDA and the Python are that call.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..excel.ops import fail, where
from ..excel.ops import given as given_or
from .arguments import ARGS
from .formula import Floats, Numbers, OptionalName, formula

#: A look-up, given the by-name arguments (model, gpu, precision…) as trees.
Look = Callable[..., Any]


def by_name(
    name: str,
    target: Callable[..., Any],
    *,
    python_name: str,
    module: str,
    doc: str,
    lookups: Mapping[str, Look],
    front: Sequence[str] = ("model", "gpu"),
    optional: Sequence[tuple[str, object]] = (("precision", "bf16"),),
    last: Sequence[tuple[str, object]] = (),
    after: Mapping[str, str] = {},
    fallbacks: Mapping[str, Look] = {},
    refusals: Sequence[tuple[Callable[..., Any], str]] = (),
    unit: str | None = None,
    invalid_result: str | None = None,
    warns: Sequence[tuple[Callable[..., Any], str]] = (),
) -> Callable[..., Floats]:
    """``name``: ``target`` with the arguments of ``lookups`` read from the names. Its
    arguments are ``front`` (required), ``target``'s other required ones,
    ``optional`` (with their defaults), ``target``'s other optional ones, then
    ``last``; an argument of ``after`` comes right after the one named. Each look-up
    is a function of the arguments (by keyword: it takes those it needs and
    ``**_``); an argument of ``fallbacks`` is kept, and where it is left out its
    look-up stands for it; each refusal is a condition over the arguments, and the
    reason given (#NUM!) where it holds; each of ``warns`` a Python warning
    (:func:`~xlfuncs.registry.formula.formula`)."""
    spec = target.formula  # type: ignore[attr-defined]
    kept = [a.name for a in spec.args if a.name not in lookups]
    required = [*front, *(n for n in kept if n not in spec.defaults)]
    later = [n for n in kept if n in spec.defaults]
    P = inspect.Parameter

    def param(n: str, *default: object) -> inspect.Parameter:
        """A parameter typed as the hand-written functions type theirs."""
        kind = "number" if n in given_numbers else ARGS[n].kind
        hint = Numbers if kind == "number" else (OptionalName if default else str)
        return P(n, P.POSITIONAL_OR_KEYWORD, default=(*default, P.empty)[0],
                 annotation=hint)  # fmt: skip

    given_numbers = {a.name for a in spec.args if a.kind == "number"}
    params = [param(n) for n in required]
    params += [param(n, d) for n, d in optional]
    params += [param(n, spec.defaults[n]) for n in later]
    params += [param(n, d) for n, d in last]
    for moved, before in after.items():  # an argument kept where callers had it
        p = next(q for q in params if q.name == moved)
        params.remove(p)
        params.insert(next(i for i, q in enumerate(params) if q.name == before) + 1, p)

    def body(**given: Any) -> Any:
        values = {
            a.name: lookups[a.name](**given) if a.name in lookups else given[a.name]
            for a in spec.args
        }
        for arg, look in fallbacks.items():
            values[arg] = given_or(given[arg], look(**given))
        out = target(**values)
        for cond, why in refusals:
            out = where(cond(**given), fail("#NUM!", why), out)
        return out

    body.__signature__ = inspect.Signature(params, return_annotation=Floats)  # type: ignore[attr-defined]
    body.__annotations__ = {p.name: p.annotation for p in params} | {"return": Floats}
    body.__name__ = body.__qualname__ = python_name
    body.__module__ = module
    body.__doc__ = doc
    return formula(
        name,
        unit=unit or spec.unit,
        invalid_result=invalid_result or spec.invalid_result,
        warns=[(t, w) for t, w in warns if set(_needs(t)) <= {p.name for p in params}],
    )(body)


def _needs(test: Callable[..., Any]) -> list[str]:
    """The arguments a test names (those without a default)."""
    return [
        p.name
        for p in inspect.signature(test).parameters.values()
        if p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty
    ]


__all__ = ["by_name"]
