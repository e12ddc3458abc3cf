"""Whatever a Python caller or a spreadsheet hands over ends in the library's own
errors: an InputError from the Python API, an Excel code from a cell function."""

from __future__ import annotations

import datetime
import decimal
import fractions

import numpy as np
import pytest

import xlfuncs
from xlfuncs import udfs
from xlfuncs.registry import REGISTRY

# numpy registers timedelta64 as an integer; datetime64, complex, structured and
# string arrays, odd shapes and Python's own odd types come along.
ODD = {
    "timedelta64 in days": np.timedelta64(5, "D"),
    "timedelta64 in ns": np.timedelta64(5, "ns"),
    "timedelta64 NaT": np.timedelta64("NaT"),
    "datetime64": np.datetime64("2024-01-01"),
    "timedelta64 array": np.array([1, 2], dtype="timedelta64[s]"),
    "timedelta64 in an object array": np.array([np.timedelta64(1, "D")], dtype=object),
    "timedelta64 in a list": [np.timedelta64(1, "D")],
    "complex": 1 + 2j,
    "complex array": np.array([1 + 0j]),
    "bytes": b"8",
    "string array": np.array(["1"]),
    "3-D array": np.full((2, 2, 2), 0.5),
    "4-D list": [[[[0.5]]]],
    "empty 2-D array": np.ones((0, 3)),
    "structured array": np.zeros(1, dtype=[("a", "f8")]),
    "datetime": datetime.datetime(2024, 1, 1),
    "timedelta": datetime.timedelta(1),
    "Fraction": fractions.Fraction(1, 2),
    "Decimal sNaN": decimal.Decimal("sNaN"),
    "Decimal 1e400": decimal.Decimal("1e400"),
    "int 10**400": 10**400,
    "object array 10**400": np.array([10**400], dtype=object),
    "set": {1, 2},
    "dict": {1: 2},
    "ragged": [[1], [1, 2]],
    "object": object(),
}


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_odd_values_end_in_input_error_or_an_excel_code(name):
    spec = REGISTRY[name]
    base = list(spec.example.args)
    udf = getattr(udfs, name)
    for i in range(len(spec.args)):
        for what, odd in ODD.items():
            args = [*base, *[None] * (len(spec.args) - len(base))][
                : max(len(base), i + 1)
            ]
            args[i] = odd
            try:
                spec.api(*args)
            except xlfuncs.InputError:
                pass
            except Exception as err:  # noqa: BLE001 - the failure names it
                pytest.fail(f"{name}, {spec.args[i].name} = {what}: {err!r}")
            cells = np.ravel(np.array(udf(*args), dtype=object))
            internal = [c for c in cells if isinstance(c, str) and "internal" in c]
            assert not internal, f"{name}, {spec.args[i].name} = {what}: {internal[0]}"


def test_timedelta64_is_no_number():
    with pytest.raises(xlfuncs.InvalidTypeError, match="gpus must be a number"):
        xlfuncs.throughput(np.timedelta64(5, "D"), 2500, 0.82)
    assert udfs.FT_THROUGHPUT(np.timedelta64(5, "ns"), 2500, 0.82).startswith(
        "#VALUE! gpus must be a number"
    )


def test_percentiles_of_any_shape_keep_it():
    # PERCENTILE.INC({600,800,900,1000,1200}, 0.9) = 1120; 0.5 gives 900.
    lengths = [600, 800, 900, 1000, 1200]
    k = np.array([0.5, 0.9] * 4).reshape(2, 2, 2)
    out = xlfuncs.tokens_per_example(lengths, k)
    assert out.shape == (2, 2, 2)
    assert np.array_equal(out, np.where(k == 0.5, 900.0, 1120.0))
    assert xlfuncs.tokens_per_example(lengths, 0.9) == 1120.0
    assert xlfuncs.tokens_per_example(lengths, [0.5, 0.9]).tolist() == [900, 1120]
