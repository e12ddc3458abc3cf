"""The templates recalculated by a second engine, Gnumeric (``ssconvert``).

A second opinion on what LibreOffice already checks: the default workbooks and
the plans the FP&A review found reading OK (issue 18) are built, stripped of
their cached values, recalculated by Gnumeric, and every formula cell must be
what the builder cached. English edition only: Gnumeric formats numbers in
text (FIXED) by the process locale, which here is the C locale.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
from typing import Any

import openpyxl
import pytest
from test_templates_libreoffice import WORST
from workbook_tools import disagreements, strip_cached_values

from xlfuncs.templates import TEMPLATES
from xlfuncs.templates.build import build_template
from xlfuncs.workbook.xlsx import save_workbook

pytestmark = [
    pytest.mark.engine,
    # Gnumeric writes no default cell style; openpyxl says so and reads on.
    pytest.mark.filterwarnings("ignore:Workbook contains no default style"),
]

SSCONVERT = shutil.which("ssconvert")


def agree(want: Any, got: Any) -> bool:
    if isinstance(want, (int, float)) and not isinstance(want, bool):
        return isinstance(got, (int, float)) and math.isclose(
            want, got, rel_tol=1e-9, abs_tol=1e-300
        )
    # An empty text (an unused row of a table) reads back as an empty cell.
    return want == got or (want in ("", None) and got in ("", None))


@pytest.fixture(scope="module")
def recalculated(tmp_path_factory):
    if SSCONVERT is None:
        reason = "Gnumeric is missing: apt-get install gnumeric"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    tmp = tmp_path_factory.mktemp("gnumeric")
    cases = [(f"default-{t.slug}", t, {}) for t in TEMPLATES]
    cases += [(name, tpl, values) for name, tpl, values, _ in WORST]
    out = {}
    for name, tpl, values in cases:
        built = build_template(tpl, "en", values)
        path = tmp / f"{name}.xlsx"
        save_workbook(built.workbook, path, built.cached)
        strip_cached_values(path, tmp / f"{name}-stripped.xlsx")
        subprocess.run(
            [SSCONVERT, "--recalc", str(tmp / f"{name}-stripped.xlsx"),
             str(tmp / f"{name}-gnumeric.xlsx")],
            check=True, capture_output=True, timeout=120,
            env={**os.environ, "LC_ALL": "C"},
        )  # fmt: skip
        out[name] = (
            openpyxl.load_workbook(path),
            openpyxl.load_workbook(path, data_only=True),
            openpyxl.load_workbook(tmp / f"{name}-gnumeric.xlsx", data_only=True),
        )
    return out


def test_gnumeric_computes_every_formula_cell_as_the_builder_cached(recalculated):
    compared, wrong = 0, []
    for case, (formulas, cached, gnumeric) in recalculated.items():
        n, bad = disagreements(formulas, cached, gnumeric, agree)
        compared += n
        wrong += [(case, *b) for b in bad]
    assert not wrong, (len(wrong), wrong[:10])
    assert compared > 2_000


@pytest.mark.parametrize("case", WORST, ids=[c[0] for c in WORST])
def test_gnumeric_reads_the_same_master_check(recalculated, case):
    name, _, _, message = case
    _, _, gnumeric = recalculated[name]
    title, coord = (
        gnumeric.defined_names["ModelCheck"].attr_text.replace("$", "").split("!")
    )
    model = gnumeric[title.strip("'")][coord].value
    assert model.startswith(message) if message.endswith(": ") else model == message
