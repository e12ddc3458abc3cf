"""The package's layers import one way, with no cycle, lazy imports included.

data → registry → functions → {cells and udfs (xlwings), templates (openpyxl)}
→ cli and docs. ``xlfuncs/__init__.py`` is the public face over the math.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "xlfuncs"

# Each module's layer, by the first part of its name under xlfuncs.
LAYERS = {
    "data": 0,
    "registry": 1,
    "functions": 2,
    "": 3,  # xlfuncs/__init__.py: the public API over the math
    "cells": 4,
    "udfs": 4,
    "templates": 4,
    "cli": 5,
    "docs": 5,
}
# Consumers on the same layer that must not know each other.
APART = {frozenset({"cells", "templates"}), frozenset({"udfs", "templates"})}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def top(module: str) -> str:
    """'xlfuncs.templates.layout' -> 'templates'; 'xlfuncs' -> ''."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def imports(path: Path) -> set[str]:
    """Every xlfuncs module ``path`` imports, at any depth of the code."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("xlfuncs")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("xlfuncs"):
                continue
            for alias in node.names:  # `from . import finetune` imports a module
                sub = PACKAGE.parent / Path(*f"{target}.{alias.name}".split("."))
                if sub.with_suffix(".py").exists() or (sub / "__init__.py").exists():
                    found.add(f"{target}.{alias.name}")
                else:
                    found.add(target)
    return found


GRAPH = {module_name(p): imports(p) for p in sorted(PACKAGE.rglob("*.py"))}


def test_every_module_has_a_layer():
    assert {top(m) for m in GRAPH} <= set(LAYERS)


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_go_down_the_layers(module):
    for target in GRAPH[module]:
        if target == "xlfuncs" and module != "xlfuncs":
            # The facade may be read by the consumers above it only.
            assert LAYERS[top(module)] > LAYERS[""], (module, target)
            continue
        a, b = top(module), top(target)
        assert LAYERS[b] <= LAYERS[a], f"{module} imports {target}, a layer above"
        assert frozenset({a, b}) not in APART, f"{module} imports {target}"


def test_no_import_cycles():
    edges = {m: {t for t in ts if t in GRAPH and t != m} for m, ts in GRAPH.items()}
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
