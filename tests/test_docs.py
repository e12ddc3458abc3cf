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
