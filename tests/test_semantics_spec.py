"""semantics.py gives our choice in every case of its table (semantics_spec),
and the table states its reasons: Excel's result where Microsoft documents it,
the engines we follow where it does not, and why wherever an engine differs.
The engines themselves are checked in test_semantics_engines.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import semantics_spec as spec
from semantics_spec import BY_NAME, CASES, NAMES, same
from semantics_table import ours

DOC = Path(__file__).resolve().parents[1] / "docs" / "semantics.md"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_semantics_gives_our_choice(case):
    got = ours(case)
    assert same(got, case.ours), (case.formula, got, case.ours)
    # A number is a float, TRUE/FALSE a bool: never one for the other.
    assert isinstance(got, bool) == isinstance(case.ours, bool)


def test_cases_are_named_once_and_cover_every_topic():
    assert len(BY_NAME) == len(CASES) > 200
    assert {c.topic for c in CASES} >= {
        "Bounds to 15 digits", "Case beyond ASCII", "Unicode spaces",
        "Numbers as text", "Text length", "Text as a number", "Decimal commas",
        "Text against numbers", "Blanks", "Criteria and wildcards", "INDEX",
        "Rounding", "FIXED", "MOD and powers", "Errors", "Dates",
    }  # fmt: skip
    assert {c.lang for c in CASES} == {"en", "es"}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_choice_is_explained(case):
    # Excel where documented: our value is Excel's.
    if case.documented:
        assert same(case.result("excel"), case.ours)
    else:
        assert case.follows or case.why, "not documented: say whom we follow"
    # The engines named as followed give our value.
    engines = {name: key for key, name in NAMES.items() if key != "excel"}
    if case.follows == "all three engines":
        assert not case.differing()
    elif case.follows:
        for name in case.follows.split(", "):
            assert same(case.result(engines[name]), case.ours), name
    # Wherever an engine differs, the table says why.
    if case.differing():
        assert case.why, case.differing()


def test_the_issue_example_passes_the_check_as_libreoffice_does():
    # --set Efficiency=1.000000000000001: Gnumeric alone reads it above 1.
    case = BY_NAME["efficiency-check"]
    assert case.ours is True
    assert case.differing() == ["gnumeric"]


def test_docs_list_every_case_where_engines_differ():
    text = DOC.read_text("utf-8")
    table = re.search(
        r"<!-- semantics-table -->\n(.*?)<!-- /semantics-table -->", text, re.S
    )
    assert table, f"{DOC} has no table between its markers"
    assert table.group(1) == spec.differences_markdown(), (
        "regenerate with: python tests/semantics_spec.py"
    )
