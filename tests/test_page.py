"""How many lines a label wraps to, as LibreOffice prints it with Carlito.

The printed counts were read off the budget's *Months* page rendered by
LibreOffice (Carlito, 10 pt, a 17.5-character label column): by characters
alone, "Above the commitment" (20) fitted one line and overlapped the next row.
A set row height clips its text, so the estimate may be more, never fewer.
"""

from __future__ import annotations

import pytest

from xlfuncs.workbook.page import lines


@pytest.mark.parametrize(
    ("label", "printed"),
    [
        ("Above the commitment", 2),
        ("Contingency, training", 1),
        ("GPUs of active runs", 1),
        ("Experiments before the runs", 2),
        ("Reserved runs' GPUs at once", 2),
    ],
)
def test_a_label_never_gets_fewer_lines_than_it_prints_on(label, printed):
    assert printed <= lines(label, 17.5) <= printed + 1


def test_an_address_wraps_after_its_slashes():
    url = "https://nvidia.github.io/TensorRT-LLM/performance/perf-overview.html"
    assert lines(url, 20) >= 3
