"""Registration through xlwings' own code: the VBA that "Import Functions" writes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from xlfuncs.spec import REGISTRY

SCRIPT = Path(__file__).with_name("_register_with_xlwings.py")


@pytest.fixture(scope="module")
def registered() -> dict:
    # A subprocess: the pywin32 stand-ins and patched xlwings must not leak here.
    out = subprocess.run(
        [sys.executable, str(SCRIPT)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(out.stdout)


def test_vba_defines_every_udf_with_its_arguments_in_order(registered):
    vba = registered["vba"]
    declared = dict(re.findall(r"^Function (\w+)\((.*)\)$", vba, flags=re.M))
    assert set(declared) == set(REGISTRY)
    for name, spec in REGISTRY.items():
        want = ", ".join(
            ("Optional " if a.name in spec.defaults else "") + a.name for a in spec.args
        )
        assert declared[name] == want, name
        assert f'XLPy.CallUDF("xlfuncs.udfs", "{name}"' in vba
    # The add-in form: an .xlam calls back into the active workbook.
    assert "ActiveWorkbook" in vba and "ThisWorkbook" not in vba


def test_descriptions_and_argument_docs_fit_excel(registered):
    funcs = registered["funcs"]
    assert set(funcs) == set(REGISTRY)
    for name, info in funcs.items():
        spec = REGISTRY[name]
        assert info["category"] == "xlfuncs"
        assert info["doc"] == spec.description
        assert 0 < len(info["doc"]) < 255
        assert [a["name"] for a in info["args"]] == [a.name for a in spec.args]
        for a, arg in zip(info["args"], spec.args):
            assert a["doc"] == arg.doc and 0 < len(a["doc"]) < 255
            assert a["ndim"] == 2
            assert a["optional"] == (arg.name in spec.defaults)


def test_units_are_in_argument_docs():
    # Every argument names its unit in the help text Excel shows.
    for spec in REGISTRY.values():
        for a in spec.args:
            assert a.unit and a.doc, (spec.name, a.name)
