"""The package's layers import one way, with no cycle, lazy imports included.

data → excel (the formula engine) → registry → functions → {cells and udfs
(xlwings), workbook → templates (openpyxl)} → cli and docs. ``xlfuncs/__init__.py`` is the public face over the
math; ``workbook/`` writes sheets and files and knows nothing of the rest.
Imports are read at any depth of the code: statements, and importlib or
__import__ calls; only udfs.py may import xlwings, only workbook/ and templates/
openpyxl.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "xlfuncs"

# Each module's layer, by the first part of its name under xlfuncs.
LAYERS = {
    "data": 0,
    "excel": 1,  # the formula engine: trees, their text, their values
    "registry": 2,
    "functions": 3,
    "": 4,  # xlfuncs/__init__.py: the public API over the math
    "cells": 5,
    "udfs": 5,
    "workbook": 5,
    "templates": 6,
    "cli": 7,
    "excel_setup": 7,  # `xlfuncs excel-setup`: reads no layer below
    "docs": 7,
    "__main__": 8,  # python -m xlfuncs
}
# Consumers that must not know each other.
APART = {
    frozenset({"cells", "templates"}),
    frozenset({"udfs", "templates"}),
    frozenset({"cells", "workbook"}),
    frozenset({"udfs", "workbook"}),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def top(module: str) -> str:
    """'xlfuncs.templates.layout' -> 'templates'; 'xlfuncs' -> ''."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


# Calls that import a module named by their first argument.
IMPORT_CALLS = {"__import__", "import_module"}
# Calls that run code from text, where any import could hide.
CODE_CALLS = {"exec", "eval", "compile"}
COMPUTED = "<computed>"  # an import whose module name is not a literal


def imported(path: Path, source: str | None = None) -> set[str]:
    """Every module ``path`` imports, at any depth of its code, absolute names.

    Import statements, and calls of ``importlib.import_module`` or
    ``__import__`` (under any alias) with a literal name, relative ones
    included; a name that is not a literal, or code run from text, gives
    COMPUTED, which no layer may import.
    """
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    tree = ast.parse(source if source is not None else path.read_text("utf-8"))
    callers = set(IMPORT_CALLS)
    for node in ast.walk(tree):  # from importlib import import_module as load
        if isinstance(node, ast.ImportFrom) and node.module == "importlib":
            callers |= {a.asname or a.name for a in node.names if a.name in callers}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            found |= _from_import(node, package)
        elif isinstance(node, ast.Call):
            func = node.func
            called = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else None
            )
            if called in CODE_CALLS and isinstance(func, ast.Name):
                found.add(COMPUTED)
            elif called in callers:
                found.add(_called_import(node, package))
    return found


def _from_import(node: ast.ImportFrom, package: str) -> set[str]:
    if node.level:
        base = package.split(".")
        base = base[: len(base) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    if not target.startswith("xlfuncs"):
        return {target}
    found = set()
    for alias in node.names:  # `from . import finetune` imports a module
        sub = PACKAGE.parent / Path(*f"{target}.{alias.name}".split("."))
        if sub.with_suffix(".py").exists() or (sub / "__init__.py").exists():
            found.add(f"{target}.{alias.name}")
        else:
            found.add(target)
    return found


def _called_import(node: ast.Call, package: str) -> str:
    """The module an import_module(name, package) or __import__(name) call loads."""
    args = list(node.args) + [k.value for k in node.keywords if k.arg == "name"]
    if not args or not isinstance(args[0], ast.Constant):
        return COMPUTED
    name = args[0].value
    if not isinstance(name, str):
        return COMPUTED
    if name.startswith("."):  # import_module(".cli", "xlfuncs")
        given = node.args[1:2] + [k.value for k in node.keywords if k.arg == "package"]
        anchor = given[0] if given else None
        if anchor is not None and not isinstance(anchor, ast.Constant):
            return COMPUTED
        base = anchor.value if anchor is not None else package
        level = len(name) - len(name.lstrip("."))
        parts = base.split(".")
        name = ".".join(parts[: len(parts) - level + 1] + [name.lstrip(".")])
    return name


def imports(path: Path) -> set[str]:
    """Every xlfuncs module ``path`` imports (and COMPUTED, if it computes one)."""
    return {m for m in imported(path) if m.startswith("xlfuncs") or m == COMPUTED}


FILES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


@functools.cache
def graph() -> dict[str, set[str]]:
    """Each module's xlfuncs imports (read when a test asks, not on collection)."""
    return {m: imports(p) for m, p in FILES.items()}


def test_every_module_has_a_layer():
    assert {top(m) for m in graph()} <= set(LAYERS)


def test_the_workbook_writer_knows_nothing_of_the_rest():
    for module, targets in graph().items():
        if top(module) == "workbook":
            assert {top(t) for t in targets} <= {"workbook"}, (module, targets)


#: The one module that runs code from text: the Python it prints from a library
#: function's trees (test_generated_code_imports_nothing says what that reads).
GENERATES = {"xlfuncs.excel.compile"}


@pytest.mark.parametrize("module", sorted(FILES))
def test_imports_go_down_the_layers(module):
    assert module in GENERATES or COMPUTED not in graph()[module], (
        f"{module} imports a module whose name is computed (or runs code from "
        "text): the layers cannot be checked; import it by name"
    )
    for target in graph()[module] - {COMPUTED}:
        if target == "xlfuncs" and module != "xlfuncs":
            # The facade may be read by the consumers above it only.
            assert LAYERS[top(module)] > LAYERS[""], (module, target)
            continue
        a, b = top(module), top(target)
        assert LAYERS[b] <= LAYERS[a], f"{module} imports {target}, a layer above"
        assert frozenset({a, b}) not in APART, f"{module} imports {target}"


def test_generated_code_imports_nothing():
    # What xlfuncs.excel.compile runs: the functions it printed from trees,
    # which import nothing and run no further code from text.
    from xlfuncs.registry import REGISTRY

    sources = [
        fn.__source__
        for f in REGISTRY.values()
        for fn in (getattr(f.raw, "scalar", None), getattr(f.raw, "array", None))
        if fn is not None
    ]
    assert len(sources) > 10
    for source in sources:
        tree = ast.parse(source)
        assert not any(
            isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(tree)
        )
        called = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        assert not called & (CODE_CALLS | IMPORT_CALLS | {"open", "getattr"}), source


def test_no_import_cycles():
    g = graph()
    edges = {m: {t for t in ts if t in g and t != m} for m, ts in g.items()}
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in edges[m]:
            if state.get(t) == 1:
                raise AssertionError("import cycle: " + " -> ".join([*path, m, t]))
            if t not in state:
                visit(t, [*path, m])
        state[m] = 2

    for m in edges:
        if m not in state:
            visit(m, [])


def test_import_xlfuncs_loads_neither_xlwings_nor_openpyxl():
    code = (
        "import sys, xlfuncs; "
        "print(sorted(m for m in ('xlwings', 'openpyxl') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


# Where the two heavy third-party libraries may be imported, at any depth.
ALLOWED = {
    # excel-setup finds xlwings' config without importing xlwings, which reads it.
    "xlwings": ("xlfuncs/udfs.py",),
    # The engine reads formula text with openpyxl's tokenizer (never on
    # `import xlfuncs`: the test above holds it).
    "openpyxl": ("xlfuncs/workbook/", "xlfuncs/templates/", "xlfuncs/excel/parse.py"),
}


@pytest.mark.parametrize(
    "path",
    sorted(PACKAGE.rglob("*.py")),
    ids=lambda p: p.relative_to(PACKAGE.parent).as_posix(),
)
def test_xlwings_and_openpyxl_only_where_they_belong(path):
    where = path.relative_to(PACKAGE.parent).as_posix()
    for module in imported(path):
        top_name = module.partition(".")[0]
        if top_name in ALLOWED:
            assert where.startswith(ALLOWED[top_name]), f"{where} imports {module}"


def test_the_checks_see_through_lazy_and_dynamic_imports():
    # The review's bypass: imports inside a function, by importlib or __import__.
    path = PACKAGE / "registry" / "errors.py"
    source = """
def later():
    import importlib
    from importlib import import_module as load
    import openpyxl.styles
    importlib.import_module("xlfuncs.cli")
    __import__("xlfuncs.docs")
    load(".templates", "xlfuncs")
    importlib.import_module("..udfs", package="xlfuncs.functions")
    importlib.import_module(name_from_somewhere)
    exec("import xlfuncs.cli")
"""
    found = imported(path, source)
    assert {
        "openpyxl.styles",
        "xlfuncs.cli",
        "xlfuncs.docs",
        "xlfuncs.templates",
    } <= found
    assert "xlfuncs.udfs" in found and COMPUTED in found
