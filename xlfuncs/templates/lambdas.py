"""Each function as a named Excel LAMBDA, stored exactly as Excel stores it.

A function is declared once, as named parts (:mod:`xlfuncs.registry.formula`):
its LAMBDA is that declaration, each part a ``LET`` variable of its name
(``_xlpm.cache_bytes``), the result last, with each argument bound to the
LAMBDA's parameter, and wrapped in the argument checks the xlwings functions
make, so that the same bad input gives the same Excel error:

- an error value received is passed on (``#N/A`` in, ``#N/A`` out);
- text, a boolean or a blank cell where a number belongs: ``#VALUE!``;
- a number outside the argument's domain: ``#NUM!`` (zero for a divisor:
  ``#DIV/0!``);
- a name that is not in the tables (an accelerator, a model, a fit): ``#N/A``;
- a result too large for a number: ``#NUM!`` (Excel's own).

Checks go argument by argument, the first argument's error winning, and cell by
cell: each is ``IF(ok, rest, error)`` over booleans and their products, never
AND or OR (which would reduce a range to one value), so a range argument spills
as Excel's own functions do. A ``sample`` argument (a range of lengths reduced
to one statistic) is checked as a whole.

An optional argument is declared ``_xlop.k`` and used as ``_xlpm.k``; left out,
or given a blank cell (as the xlwings functions read one), it takes its default:
``IF(_xlfn.ISOMITTED(_xlpm.k),20,IF(ISBLANK(_xlpm.k),20,_xlpm.k))``; one whose
default is None keeps the expression's own ``OMITTED(k)`` test.

A required argument left empty between commas (``=F(8,2500,0.82,)``) reaches a
LAMBDA as *missing*, and is not tested for: the test, ISOMITTED, on a parameter
not declared ``_xlop.`` is one Excel was seen to refuse in a stored name, and
the ``formulas`` engine, which reads ISOMITTED as ISBLANK, could not tell such a
guard from the blank-cell check anyway.

A function calls its siblings by their names, as its Python body does
(``REPLICA_BATCH(…)`` in ``REPLICA_TOKENS_PER_SEC``): the library holds them
all, and a user who copies one name copies those it calls
(:func:`calls`). A body passes a sibling values, never an argument it was not
given: the functions resolve a left-out argument before passing it on.
A variable used once is put back in place, and a part the rest repeats (a
typed name's clean-up) becomes one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from openpyxl.formula import Tokenizer

from ..data.serving import PARALLEL_KEYS
from ..data.training import OPTIMIZER_KEYS
from ..data.units import RECOMPUTE_MODES
from ..excel.rewrite import fold, substituted
from ..excel.rewrite import nesting as tree_nesting
from ..registry import REGISTRY, Arg, Formula
from ..registry import arguments as A
from ..registry.excel import (
    ACCELERATOR_KEYS,
    DTYPE_KEYS,
    FIT_NAMES,
    MODEL_FIELD_KEYS,
    MODEL_KEYS,
    Functions,
    key,
    literal,
)
from ..registry.formula import excel_functions
from .expr import AS_WRITTEN, FALSE, TRUE, Call, Expr, Fn, Lit, Omitted, Op, Ref, lift
from .written import bind, parse

#: The keys a typed name is looked up in (through key(), as the function's own
#: expression does), per kind of name.
MEMBERSHIP: dict[A.Choice, str] = {
    A.GPU: ACCELERATOR_KEYS,
    A.DTYPE: DTYPE_KEYS,
    A.MODEL: MODEL_KEYS,
    A.FIELD: MODEL_FIELD_KEYS,
    A.FIT: FIT_NAMES,
    A.RECOMPUTE: "{" + ",".join(f'"{m}"' for m in RECOMPUTE_MODES) + "}",
    A.PRECISION: A.PRECISION_KEYS,
    A.METHOD: A.METHOD_KEYS,
    A.PARALLEL: "{" + ",".join(f'"{k}"' for k, _ in PARALLEL_KEYS) + "}",
    A.OPTIMIZER: "{" + ",".join(f'"{k}"' for k, _ in OPTIMIZER_KEYS) + "}",
}

#: Excel's limits for one formula: characters and levels of nested functions.
MAX_CHARS = 8192
MAX_NESTING = 64


#: LAMBDA parameters named otherwise than the Python argument (the xlwings
#: functions and the API keep theirs). Each of these arguments shares its name,
#: case aside, with a name of the library (the functions MFU, KV_CACHE_GB and
#: TOKENS_PER_SEC_PER_GPU) or of a template the library may be pasted beside
#: (GPUs, Efficiency, Epochs, Days, Dtype, Recompute, PUE, Optimizer); IronCalc then reads
#: the workbook's name, not the parameter, and another engine might. The test
#: holds every parameter apart from every name of every workbook we write.
RENAMED = {
    "gpus": "gpu_count",
    "tokens_per_sec_per_gpu": "gpu_tokens_per_sec",
    "efficiency": "scaling_efficiency",
    "epochs": "epoch_count",
    "days": "run_days",
    "mfu": "mfu_fraction",
    "dtype": "precision",
    "recompute": "recompute_mode",
    "pue": "pue_ratio",
    "kv_cache_gb": "kv_gb",
    "optimizer": "optimizer_kind",
}


def parameter_name(arg: str) -> str:
    """The LAMBDA parameter of the Python argument ``arg``: ``gpu_count``."""
    return RENAMED.get(arg, arg)


def parameter(name: str) -> str:
    """A LAMBDA parameter where the body uses it: ``_xlpm.gpu_count`` for the
    argument ``gpus``."""
    return f"_xlpm.{parameter_name(name)}"


def omitted(p: str) -> str:
    """TRUE where the optional parameter ``p`` is left out or given a blank cell."""
    return f"IF(_xlfn.ISOMITTED({p}),TRUE,ISBLANK({p}))"


def with_default(p: str, default: str) -> str:
    """The optional parameter ``p``, or its default where left out or blank."""
    return f"IF(_xlfn.ISOMITTED({p}),{default},IF(ISBLANK({p}),{default},{p}))"


def _number(x: str) -> str:
    """TRUE where ``x`` is a number: not text, even "8" (Excel's IS functions do
    not convert), nor TRUE/FALSE, a blank or an error."""
    return f"ISNUMBER({x})"


def _product(conditions: list[str]) -> str:
    if not conditions:
        return "TRUE"
    if len(conditions) == 1:
        return conditions[0]
    return "*".join(f"({c})" for c in conditions)


def _inside(arg: Arg, low: str, high: str) -> list[str]:
    """Conditions for a value inside the argument's domain (``low``/``high``: the
    value, or a range's MIN and MAX): the domain's own Excel conditions."""
    if arg.domain is None:
        return []
    conds = arg.domain.conditions(low, low, high)
    assert low == high or "whole" not in conds, "a sample of whole numbers"
    return list(conds.values())


def checks(arg: Arg, x: str) -> tuple[str, str]:
    """(ok, error): TRUE where ``x`` is a valid ``arg``, and the error elsewhere."""
    if arg.kind == "choice":
        assert arg.choice is not None
        keys = MEMBERSHIP[arg.choice]
        ok = f"IF(ISTEXT({x}),ISNUMBER(MATCH({key(x)},{keys},0)),FALSE)"
        return ok, f"IF(ISERROR({x}),{x},IF(ISTEXT({x}),#N/A,#VALUE!))"
    if arg.kind == "sample":
        # A whole range, read as AVERAGE and PERCENTILE.INC read one: an error
        # cell is passed on (MIN gives the first), blanks, text and TRUE/FALSE are
        # skipped, and no number at all is #DIV/0!. Counting ISNUMBER rather than
        # COUNT keeps a TRUE typed as the argument itself out, as in the UDF
        # (*1: SUM skips TRUE/FALSE in an array).
        error = f"OR(ISERROR({x}))"
        empty = f"SUM(ISNUMBER({x})*1)=0"
        inside = _product(_inside(arg, f"MIN({x})", f"MAX({x})"))
        ok = f"IF({error},FALSE,IF({empty},FALSE,{inside}))"
        code = f"IF({error},MIN({x}),IF({empty},#DIV/0!,#NUM!))"
        return ok, code
    number = _number(x)
    conditions = _inside(arg, x, x)
    zero = arg.domain.zero_code if arg.domain else "#NUM!"
    outside = "#NUM!" if zero == "#NUM!" else f"IF({x}=0,{zero},#NUM!)"
    if not conditions:  # no domain: an error received is told apart by its test
        return number, f"IF(ISERROR({x}),{x},IF({number},{outside},#VALUE!))"
    # ISNUMBER times the domain's conditions: 0 for text or TRUE/FALSE, and an
    # error received is an error in the product, so IF passes it on itself.
    return _product([number, *conditions]), f"IF({number},{outside},#VALUE!)"


def lambda_text(spec: Formula, functions: Functions | None = None) -> str:
    """The function as Excel stores a named LAMBDA (no leading ``=``)."""
    assert spec.excel is not None, f"{spec.name} has no Excel expression"
    functions = excel_functions() if functions is None else functions
    declared: list[str] = []
    bindings: dict[str, Expr] = {}
    left_out: dict[str, Expr] = {}
    for a in spec.args:
        p = parameter(a.name)
        if a.name not in spec.defaults:
            declared.append(p)
            bindings[a.name] = parse(p)
            continue
        assert a.kind != "sample", "an optional sample is not supported"
        declared.append(f"_xlop.{parameter_name(a.name)}")
        default = spec.defaults[a.name]
        if default is None:
            bindings[a.name], left_out[a.name] = parse(p), parse(omitted(p))
        else:
            bindings[a.name] = parse(with_default(p, literal(default)))
    tree = spec.expression
    assert tree is not None
    if spec.result is None:  # written by hand (no parts): written out
        body = _checked(spec, bind(tree, bindings, left_out, functions))
    else:
        body = let_body(spec, tree, bindings, left_out, functions)
    text = f"_xlfn.LAMBDA({','.join(declared)},{body.excel(AS_WRITTEN)})"
    depth = tree_nesting(body) + 1
    if len(text) > MAX_CHARS or depth > MAX_NESTING:
        raise ValueError(
            f"{spec.name}: its LAMBDA has {len(text):,} characters and "
            f"{depth} levels of nested functions; Excel refuses a formula "
            f"over {MAX_CHARS:,} characters or {MAX_NESTING} levels"
        )
    return text


def _has_parts(spec: Formula, functions: Functions) -> bool:
    """Whether the function or a sibling it calls is declared with parts."""
    seen: set[str] = set()
    todo = [spec.name]
    while todo:
        f = functions.get(todo.pop())
        if f is None or f.result is None:
            continue
        if f.parts:
            return True
        for x in f.result.walk():
            if isinstance(x, Call) and x.function not in seen:
                seen.add(x.function)
                todo.append(x.function)
    return False


def _checked(spec: Formula, body: Expr) -> Expr:
    """``body`` wrapped in the argument checks."""
    for a in reversed(spec.args):
        p = parameter(a.name)
        ok, error = checks(a, p)
        if a.name in spec.defaults:  # left out or blank: its default, valid
            ok = f"IF({omitted(p)},TRUE,{ok})"
        body = Fn("IF", (parse(ok), body, parse(error)))
    return body


# ------------------------------------------------------------ LET, where needed


def let_body(
    spec: Formula,
    tree: Expr,
    bindings: Mapping[str, Expr],
    left_out: Mapping[str, Expr],
    functions: Functions,
) -> Expr:
    """The LAMBDA's body: the function's parts, each a ``LET`` variable named
    after it, sibling functions called by name, the argument checks around the
    result (:func:`_checked`). An optional argument's default used more than
    once is a variable too. A variable is computed before the checks run; a
    value that is an error where an argument is bad is not read."""
    params = {a.name for a in spec.args}
    lets = _Lets(functions, params | {_written(p) for p in params})
    local: dict[str, Expr] = {k: lets.hoist(v, k) for k, v in bindings.items()}
    omitted_ = dict(left_out)
    for part, part_tree in spec.parts:
        value = fold(lets.calling(part_tree, local, omitted_))
        local[part] = lets.hoist(value, part)
    assert spec.result is not None
    body = lets.calling(spec.result, local, omitted_)
    return lets.written(_checked(spec, fold(body)))


def calls(spec: Formula) -> list[str]:
    """The library functions a function's LAMBDA calls, directly or through
    those it calls: what a user copies with it."""
    out: list[str] = []
    todo = [spec]
    while todo:
        f = todo.pop()
        trees = [t for _, t in f.parts] + ([f.result] if f.result is not None else [])
        for t in trees:
            for x in t.walk():
                if isinstance(x, Call) and x.function not in out:
                    out.append(x.function)
                    todo.append(REGISTRY[x.function])
    return out


class _Lets:
    """The variables of one LAMBDA's LET, in the order they are defined."""

    def __init__(self, functions: Functions, reserved: set[str]) -> None:
        self.functions = functions
        # A defined name (a function's) would shadow a LET name in some engines.
        self.taken = {n.lower() for n in (*reserved, *functions)}
        self.defs: dict[str, Expr] = {}  # variable (its Ref name) → its value
        self.made: dict[Expr, Ref] = {}  # a value → its variable
        self.hints: dict[str, list[str]] = {}  # names it stands for, first first
        self.called: dict[str, str] = {}  # a call's function, the last resort
        self.calls: dict[tuple[object, ...], Ref] = {}  # a call written out
        self.parts = 0  # repeated parts named so far (numbered again in order)

    def hoist(self, value: Expr, hint: str) -> Expr:
        """``value`` as a variable, or itself where it is a name or a literal."""
        if isinstance(value, Ref) and value.name in self.defs:
            self.hints[value.name].append(hint)
            return value
        if isinstance(value, (Ref, Lit)):
            return value
        ref = self.made.get(value)
        if ref is None:
            ref = self._new(value, [])
        self.hints[ref.name].append(hint)
        return ref

    def _new(self, value: Expr, hints: list[str]) -> Ref:
        ref = Ref(f"_xlpm.{len(self.hints)}")  # named at the end
        self.defs[ref.name], self.made[value], self.hints[ref.name] = value, ref, hints
        return ref

    def expand(
        self, e: Expr, bindings: Mapping[str, Expr], omitted: Mapping[str, Expr]
    ) -> Expr:
        if isinstance(e, Ref):
            return bindings.get(e.name, e)
        if isinstance(e, Omitted):
            return omitted[e.param]
        form = getattr(e, "excel_form", None)
        if form is not None:  # a look-up: the Excel expression it prints
            return self.expand(form(), bindings, omitted)
        if not isinstance(e, Call):
            return e.rebuilt([self.expand(c, bindings, omitted) for c in e.children()])
        args = [self.expand(a, bindings, omitted) for a in e.args]
        spec = self.functions[e.function]
        inner: dict[str, Expr] = {}
        inner_omitted: dict[str, Expr] = {}
        for k, p in enumerate(spec.params):  # as written.inline binds them
            raw = e.args[k] if k < len(e.args) else None
            if isinstance(raw, Ref) and raw.name in omitted:  # passed through
                inner[p], inner_omitted[p] = args[k], omitted[raw.name]
            elif raw is not None:
                inner[p], inner_omitted[p] = self.hoist(fold(args[k]), p), FALSE
            elif spec.defaults.get(p) is not None:
                inner[p], inner_omitted[p] = lift(spec.defaults[p]), TRUE  # type: ignore[arg-type]
            else:
                inner[p], inner_omitted[p] = Lit(0), TRUE
        key = (e.function, *inner.items(), *inner_omitted.items())
        if key not in self.calls:
            if spec.result is None:
                body = self.expand(spec.expr, inner, inner_omitted)
            else:  # its parts, each a variable named after it
                local = dict(inner)
                for part, tree in spec.parts:
                    value = fold(self.expand(tree, local, inner_omitted))
                    local[part] = self.hoist(value, part)
                body = self.expand(spec.result, local, inner_omitted)
            value = self.hoist(fold(body), "")  # named by where it is passed
            if not isinstance(value, Ref):
                return value
            self.called[value.name] = e.function.lower()
            self.calls[key] = value
        return self.calls[key]

    def calling(
        self, e: Expr, bindings: Mapping[str, Expr], omitted: Mapping[str, Expr]
    ) -> Expr:
        """``e`` over the LAMBDA's names: its arguments and parts bound, its
        OMITTED tests decided, look-ups as Excel reads them, sibling calls
        kept as calls (of values: see the module's docstring)."""
        if isinstance(e, Ref):
            return bindings.get(e.name, e)
        if isinstance(e, Omitted):
            return omitted[e.param]
        form = getattr(e, "excel_form", None)
        if form is not None:
            return self.calling(form(), bindings, omitted)
        kids = [self.calling(c, bindings, omitted) for c in e.children()]
        if isinstance(e, Call):  # an argument passed on: a value, named if big
            kids = [
                self.hoist(fold(k), p)
                for k, p in zip(kids, self.functions[e.function].params)
            ]
        return e.rebuilt(kids) if kids else e

    def written(self, body: Expr) -> Expr:
        """``LET(name, value, …, body)``: variables used once put back in
        place, then each part the rest repeats made a variable too."""
        body = self._once(fold(body))
        if not self.defs:
            return body
        names = {
            k: Ref(self._name([*self.hints[k], self.called.get(k, "")]))
            for k in self.defs
        }
        defs = {names[k].name: substituted(v, names) for k, v in self.defs.items()}
        body = substituted(body, names)
        parts: list[str] = []
        while (part := _repeated([*defs.values(), body])) is not None:
            known = next((k for k, v in defs.items() if v == part), None)
            name = known or self._name([_part_name(part)])
            swap = {part: Ref(name)}
            defs = {k: v if k == known else _replaced(v, swap) for k, v in defs.items()}
            body = _replaced(body, swap)
            if known is None:
                defs[name] = part
                parts.append(name)
        defs = _in_order(defs)
        # Parts numbered in the order they are defined.
        ordered = [k for k in defs if k in parts and k.startswith("_xlpm.part")]
        numbered = {k: Ref(f"_xlpm.part{n}") for n, k in enumerate(ordered, start=1)}
        items: list[Expr] = []
        for k, v in defs.items():
            items += [numbered.get(k, Ref(k)), fold(substituted(v, numbered))]
        return Fn("LET", (*items, fold(substituted(body, numbered))))

    def _once(self, body: Expr) -> Expr:
        """``body``, with each variable read once or never put back in place."""
        while True:
            uses = _uses([body, *self.defs.values()])
            once = [n for n in self.defs if uses.get(n, 0) <= 1]
            if not once:
                return body
            swap = {once[-1]: self.defs.pop(once[-1])}
            body = substituted(body, swap)
            self.defs = {k: substituted(v, swap) for k, v in self.defs.items()}

    def _name(self, hints: list[str]) -> str:
        """The first hint no other name has taken (nor a defined name, which a
        LET name would shadow in some engines), else it with "_" appended."""
        hints = [h for h in hints if h]
        if not hints:  # a repeated part with no name of its own
            self.parts += 1
            hints = [f"part{self.parts}"]
        for hint in hints:
            if not {hint.lower(), _written(hint).lower()} & self.taken:
                break
        else:
            hint = hints[0]
            while {hint.lower(), _written(hint).lower()} & self.taken:
                hint += "_"
        self.taken |= {hint.lower(), _written(hint).lower()}
        return parameter(hint)


def _written(name: str) -> str:
    """``name`` as :func:`parameter` writes it, without its prefix."""
    return parameter(name).removeprefix("_xlpm.")


#: Characters a variable costs where it is read (``_xlpm.part12``), and where it
#: is defined besides its value (the name and two commas).
_READ, _DEFINED = 12, 14


def _repeated(trees: list[Expr]) -> Expr | None:
    """The part of ``trees`` whose repeats, made a variable, save the most
    characters; None where none saves any."""
    counts: dict[Expr, int] = {}
    for t in trees:
        for e in t.walk():
            if isinstance(e, (Fn, Op)):
                counts[e] = counts.get(e, 0) + 1
    best, saved = None, 0
    for e, n in counts.items():
        if n < 2:
            continue
        gain = (n - 1) * len(e.excel(AS_WRITTEN)) - n * _READ - _DEFINED
        if gain > saved:
            best, saved = e, gain
    return best


def _in_order(defs: dict[str, Expr]) -> dict[str, Expr]:
    """``defs`` each after those it reads, otherwise in the order given."""
    out: dict[str, Expr] = {}
    while len(out) < len(defs):
        for k, v in defs.items():
            if k not in out and all(n in out for n in v.names() if n in defs):
                out[k] = v
                break
    return out


def _replaced(e: Expr, swap: Mapping[Expr, Expr]) -> Expr:
    """``e`` with each sub-tree of ``swap`` replaced."""
    if e in swap:
        return swap[e]
    kids = e.children()
    if not kids:
        return e
    return e.rebuilt([_replaced(c, swap) for c in kids])


def _part_name(part: Expr) -> str:
    """A name for a repeated part: the table it looks up in (``model_row``), or
    none (numbered when the names are given)."""
    for e in part.walk():
        if isinstance(e, Fn) and e.name == "INDEX" and isinstance(e.args[0], Ref):
            table = e.args[0].name
            if not table.startswith("_xl"):
                return re.sub(r"(?<!^)(?=[A-Z])", "_", table).lower()
    return ""


def _uses(trees: list[Expr]) -> dict[str, int]:
    """How many times each name is read in ``trees``."""
    out: dict[str, int] = {}
    for t in trees:
        for e in t.walk():
            if isinstance(e, Ref):
                out[e.name] = out.get(e.name, 0) + 1
    return out


def let_names(text: str) -> list[str]:
    """The names a LAMBDA's LET defines (without ``_xlpm.``), in order."""
    out: list[str] = []
    for e in parse(text).walk():
        if isinstance(e, Fn) and e.name == "LET":
            out += [a.name.removeprefix("_xlpm.") for a in e.args[:-1:2]]  # type: ignore[attr-defined]
    return out


def nesting(text: str) -> int:
    """Levels of nested function calls (Excel allows 64)."""
    return tree_nesting(parse(text))


def tables_read(text: str) -> set[str]:
    """The workbook names of reference tables a LAMBDA reads."""
    return {n for n in parse(text).names() if not n.lower().startswith("_xl")}


# ------------------------------------------------------------ as a user types it

_PREFIX = re.compile(r"^(?:_xlfn\.|_xlpm\.|_xlws\.)+", re.I)


def typed(text: str) -> str:
    """A stored LAMBDA as a user types it: no ``_xlfn.``/``_xlpm.`` prefixes, an
    optional parameter in brackets (``[tokens_per_param]``), commas spaced."""
    out = []
    for t in Tokenizer("=" + text).items:
        tok = t.value
        if t.type == "OPERAND" and t.subtype == "RANGE":
            if tok.lower().startswith("_xlop."):
                tok = f"[{tok[6:]}]"
            else:
                tok = _PREFIX.sub("", tok)
        elif t.type == "FUNC" and t.subtype == "OPEN":
            tok = _PREFIX.sub("", tok)
        out.append(tok)
    return "".join(out)


def afe_module(
    specs: list[Formula], header: list[str], texts: Mapping[str, str]
) -> str:
    """A module for Excel Labs' Advanced Formula Environment.

    Its syntax: ``NAME = LAMBDA(a, [b], body);``, ``//`` comments, a leading
    ``/** … */`` doc comment that AFE saves as the name's description; no tabs
    and no carriage returns.
    """
    lines = [f"// {h}" if h else "//" for h in header]
    for spec in specs:
        text = typed(texts[spec.name])
        params = [
            f"[{parameter_name(a.name)}]"
            if a.name in spec.defaults
            else parameter_name(a.name)
            for a in spec.args
        ]
        head = f"LAMBDA({','.join(params)},"
        assert text.startswith(head) and text.endswith(")"), spec.name
        body = text[len(head) : -1]
        lines += [
            "",
            f"/** {spec.description} */",
            f"{spec.name} = LAMBDA({', '.join(params)},",
            f"    {body}",
            ");",
        ]
    out = "\n".join(lines) + "\n"
    assert "\t" not in out and "\r" not in out
    return out


__all__ = [
    "MAX_CHARS",
    "MAX_NESTING",
    "MEMBERSHIP",
    "afe_module",
    "checks",
    "lambda_text",
    "let_body",
    "let_names",
    "nesting",
    "RENAMED",
    "omitted",
    "parameter",
    "parameter_name",
    "tables_read",
    "typed",
    "with_default",
]
