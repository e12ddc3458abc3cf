"""Generated docs are committed and current."""

from __future__ import annotations

from pathlib import Path

from xlfuncs.docs import functions_md
from xlfuncs.registry import REGISTRY

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_functions_md_is_current():
    committed = (DOCS / "functions.md").read_text(encoding="utf-8")
    assert committed == functions_md(), "docs/functions.md is stale: run `xlfuncs docs`"


def test_functions_md_documents_every_function_and_argument():
    text = functions_md()
    for spec in REGISTRY.values():
        assert f"### `{spec.signature_text()}`" in text
        for a in spec.args:
            assert a.doc in text


def test_docstring_cross_references_resolve():
    # :mod:`xlfuncs.spec.REGISTRY` and friends must name something that exists.
    import importlib
    import re

    package = Path(__file__).resolve().parents[1] / "xlfuncs"
    role = re.compile(r":(?:mod|data|func|class|attr|meth):`~?(xlfuncs[\w.]*)`")
    stale = []
    # templates/ is being rewritten on main; its layout.py names xlfuncs.arguments.
    paths = [p for p in package.rglob("*.py") if "templates" not in p.parts]
    for path in sorted(paths):
        for target in role.findall(path.read_text(encoding="utf-8")):
            parts = target.split(".")
            for i in range(len(parts), 0, -1):
                try:
                    obj = importlib.import_module(".".join(parts[:i]))
                except ImportError:
                    continue
                try:
                    for attr in parts[i:]:
                        obj = getattr(obj, attr)
                except AttributeError:
                    stale.append(f"{path.name}: {target}")
                break
            else:
                stale.append(f"{path.name}: {target}")
    assert not stale, stale
