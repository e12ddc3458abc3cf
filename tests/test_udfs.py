"""The Excel functions as xlwings calls them: values, ranges, error codes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xlfuncs as xf
from xlfuncs import cells, udfs
from xlfuncs.spec import ERROR_CODES, FRACTION, POSITIVE, REGISTRY


def cell(x):
    """A single cell as xlwings delivers it with ndim=2."""
    return [[x]]


def code(result) -> str:
    assert isinstance(result, str), result
    return result.split(" ", 1)[0]


def test_every_registered_function_is_a_udf():
    assert sorted(udfs.__all__) == sorted(REGISTRY)
    for name in REGISTRY:
        assert callable(getattr(udfs, name))


def test_documented_examples_give_the_python_results():
    for spec in REGISTRY.values():
        udf = getattr(udfs, spec.name)
        expected = spec.api(*spec.example.args)
        got = udf(
            *(
                cell(a) if not isinstance(a, list) else [[x] for x in a]
                for a in spec.example.args
            )
        )
        assert got == pytest.approx(expected, rel=1e-12), spec.name


def test_seed_examples_in_cells():
    args = [cell(8.0), cell(2500.0), cell(0.82), cell(900.0)]
    assert udfs.FT_EXAMPLES_PER_SEC(*args) == pytest.approx(18.2222222, rel=1e-8)
    assert udfs.FT_EXAMPLES_PER_MIN(*args) == pytest.approx(1093.3333333, rel=1e-8)
    assert udfs.FT_THROUGHPUT(*args[:3]) == pytest.approx(16400)
    assert udfs.CHINCHILLA_PARAMS(cell(6000.0)) == pytest.approx(6.5726706900e10)
    assert udfs.CHINCHILLA_TOKENS(cell(6000.0), cell(20.0)) == pytest.approx(
        1.3145e12, rel=1e-4
    )


# The error table of the issue: what Excel itself would show.
ERROR_TABLE = [
    ("text", ("8 GPUs", 2500.0, 0.82, 900.0), "#VALUE!", "gpus must be a number"),
    ("number as text", ("8", 2500.0, 0.82, 900.0), "#VALUE!", "not text '8'"),
    ("blank required", (None, 2500.0, 0.82, 900.0), "#VALUE!", "gpus is required"),
    ("boolean", (True, 2500.0, 0.82, 900.0), "#VALUE!", "not TRUE"),
    ("NaN", (math.nan, 2500.0, 0.82, 900.0), "#NUM!", "finite"),
    ("+inf", (8.0, math.inf, 0.82, 900.0), "#NUM!", "finite"),
    ("-inf", (8.0, -math.inf, 0.82, 900.0), "#NUM!", "finite"),
    ("zero GPUs", (0.0, 2500.0, 0.82, 900.0), "#NUM!", "gpus must be a positive"),
    ("negative GPUs", (-8.0, 2500.0, 0.82, 900.0), "#NUM!", "gpus must be a positive"),
    (
        "82 not 82%",
        (8.0, 2500.0, 82.0, 900.0),
        "#NUM!",
        "efficiency must be a fraction in (0, 1]: enter 82% or 0.82",
    ),
    ("zero efficiency", (8.0, 2500.0, 0.0, 900.0), "#NUM!", "efficiency"),
    ("zero tokens/example", (8.0, 2500.0, 0.82, 0.0), "#DIV/0!", "tokens_per_example"),
    (
        "negative tokens/example",
        (8.0, 2500.0, 0.82, -9.0),
        "#NUM!",
        "tokens_per_example",
    ),
    ("upstream #N/A", ("#N/A", 2500.0, 0.82, 900.0), "#N/A", "gpus"),
]


@pytest.mark.parametrize(
    ("case", "args", "want", "words"), ERROR_TABLE, ids=[row[0] for row in ERROR_TABLE]
)
@pytest.mark.parametrize("as_cells", [False, True], ids=["scalar", "ndim2"])
def test_error_table(case, args, want, words, as_cells):
    call_args = [cell(a) for a in args] if as_cells else args
    out = udfs.FT_EXAMPLES_PER_SEC(*call_args)
    assert code(out) == want
    assert words in out
    assert "\n" not in out and len(out) < 160


def test_efficiency_of_exactly_100_percent_is_valid():
    assert udfs.FT_THROUGHPUT(8.0, 2500.0, 1.0) == 20000


def test_percentile_bounds():
    lengths = [[100.0], [200.0], [None]]
    assert udfs.FT_TOKENS_PER_EXAMPLE(lengths, cell(0.0)) == 100
    assert udfs.FT_TOKENS_PER_EXAMPLE(lengths, cell(100.0)) == 200
    assert code(udfs.FT_TOKENS_PER_EXAMPLE(lengths, cell(101.0))) == "#NUM!"
    assert code(udfs.FT_TOKENS_PER_EXAMPLE(lengths, cell(-1.0))) == "#NUM!"
    assert udfs.FT_TOKENS_PER_EXAMPLE(lengths, cell(None)) == 150  # blank: the mean
    assert code(udfs.FT_TOKENS_PER_EXAMPLE([[None], [None]])) == "#DIV/0!"
    assert code(udfs.FT_TOKENS_PER_EXAMPLE([[100.0], ["n/a"]])) == "#VALUE!"
    assert code(udfs.FT_TOKENS_PER_EXAMPLE([[100.0], [-5.0]])) == "#NUM!"


def test_optional_argument_missing_or_blank_uses_default():
    base = udfs.CHINCHILLA_PARAMS(cell(6000.0))
    assert (
        udfs.CHINCHILLA_PARAMS(cell(6000.0), 20) == base
    )  # xlwings passes the default
    assert udfs.CHINCHILLA_PARAMS(cell(6000.0), cell(None)) == base
    assert code(udfs.CHINCHILLA_PARAMS(cell(6000.0), cell(0.0))) == "#NUM!"


def test_column_times_row_gives_a_table():
    gpus = [[1.0], [2.0], [4.0], [8.0]]  # a column
    lengths = [[256.0, 512.0, 1024.0]]  # a row
    out = udfs.FT_EXAMPLES_PER_SEC(gpus, cell(2500.0), cell(0.82), lengths)
    assert isinstance(out, list) and len(out) == 4 and all(len(r) == 3 for r in out)
    want = xf.examples_per_sec(
        np.array([[1], [2], [4], [8]]), 2500, 0.82, np.array([256, 512, 1024])
    )
    np.testing.assert_allclose(out, want, rtol=1e-12)
    assert all(type(v) is float for row in out for v in row)  # no numpy scalars


def test_column_stays_a_column():
    out = udfs.CHINCHILLA_PARAMS([[1.0], [10.0], [100.0]])
    assert [len(r) for r in out] == [1, 1, 1]


def test_bad_cells_in_a_range_do_not_spoil_good_ones():
    out = udfs.FT_EXAMPLES_PER_SEC(
        [[8.0], [-1.0], ["x"], [None], [4.0]], 2500.0, 0.82, 900.0
    )
    assert out[0][0] == pytest.approx(18.2222222, rel=1e-8)
    assert [code(out[i][0]) for i in (1, 2, 3)] == ["#NUM!", "#VALUE!", "#VALUE!"]
    assert out[4][0] == pytest.approx(out[0][0] / 2)


def test_first_bad_argument_wins_per_cell():
    out = udfs.FT_EXAMPLES_PER_SEC([[-1.0], [8.0]], 2500.0, 0.82, [[0.0], [0.0]])
    assert code(out[0][0]) == "#NUM!" and "gpus" in out[0][0]
    assert code(out[1][0]) == "#DIV/0!"


def test_ranges_that_do_not_line_up():
    out = udfs.FT_EXAMPLES_PER_SEC(
        [[1.0], [2.0]], 2500.0, 0.82, [[256.0], [512.0], [1024.0]]
    )
    assert code(out) == "#VALUE!" and "do not line up" in out
    assert "2×1" in out and "3×1" in out


def test_wrong_argument_count():
    out = udfs.FT_THROUGHPUT(8.0, 2500.0)
    assert code(out) == "#VALUE!" and "takes 3 arguments" in out


def test_result_overflow_is_num():
    assert code(udfs.TRAINING_FLOPS(1e200, 1e200)) == "#NUM!"


def test_numpy_in_numpy_out():
    g = np.array([1.0, 2.0, 4.0])
    out = udfs.FT_EXAMPLES_PER_SEC(g, 2500.0, 0.82, 900.0)
    assert isinstance(out, np.ndarray) and out.dtype == float
    np.testing.assert_allclose(out, g * 2500 * 0.82 / 900)
    bad = udfs.FT_EXAMPLES_PER_SEC(np.array([1.0, -1.0, np.inf]), 2500.0, 0.82, 900.0)
    assert bad[0] == pytest.approx(2500 * 0.82 / 900)
    assert [code(b) for b in bad[1:]] == ["#NUM!", "#NUM!"]


def _large_inputs(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    return [
        rng.integers(1, 65, n).astype(float),
        rng.uniform(500, 5000, n),
        rng.uniform(0.3, 1.0, n),
        rng.uniform(128, 8192, n),
    ]


def test_large_arrays_compute_while_a_second_core_checks():
    n = cells._OVERLAP_FROM + 12_345  # above the threshold, blocks not whole
    g, v, e, t = _large_inputs(n)
    out = udfs.FT_EXAMPLES_PER_SEC(g, v, e, t)
    assert isinstance(out, np.ndarray) and out.dtype == float
    np.testing.assert_array_equal(out, g * v * e / t)


@pytest.mark.parametrize(
    ("arg", "at", "value", "want"),
    [
        (3, -1, np.inf, "#NUM!"),  # in a divisor: the result there would be 0.0
        (0, 70_000, 0.0, "#NUM!"),
        (1, 140_000, np.nan, "#NUM!"),
        (2, 5, 1.5, "#NUM!"),  # efficiency over 1, only max sees it
        (3, 100_000, 0.0, "#DIV/0!"),
        (0, 3, -np.inf, "#NUM!"),
    ],
)
def test_one_bad_value_in_a_large_array_is_found_in_place(arg, at, value, want):
    n = cells._OVERLAP_FROM + 12_345
    args = _large_inputs(n)
    good = args[0] * args[1] * args[2] / args[3]
    args[arg][at] = value
    out = udfs.FT_EXAMPLES_PER_SEC(*args)
    assert out.dtype == object and code(out[at]) == want
    rest = np.delete(np.arange(n), at if at >= 0 else n + at)
    np.testing.assert_array_equal(out[rest].astype(float), good[rest])


def test_large_result_overflow_is_num_in_place():
    n = cells._OVERLAP_FROM + 1
    params = np.full(n, 1e150)
    params[-1] = 1e300
    out = udfs.TRAINING_FLOPS(params, 1e10)
    assert code(out[-1]) == "#NUM!" and out[0] == pytest.approx(6e160)


def test_whole_array_domain_check_reads_every_block():
    x = np.ones(5 * 65_536 + 7)
    assert POSITIVE.all_inside(x) and FRACTION.all_inside(x)
    for at, value in ((x.size - 1, np.inf), (3 * 65_536, 0.0), (65_537, np.nan)):
        y = x.copy()
        y[at] = value
        assert not POSITIVE.all_inside(y)
        assert not POSITIVE.all_inside(y[at % 2 :: 2])  # strided: not by blocks
    assert not FRACTION.all_inside(np.append(x, 1.0 + 1e-12))
    assert POSITIVE.all_inside(np.array([]))


def test_office_js_returns_bare_codes(monkeypatch):
    monkeypatch.setenv("XLWINGS_ON_SERVER", "true")
    assert udfs.FT_THROUGHPUT(8.0, 2500.0, 82.0) == "#NUM!"
    out = udfs.FT_THROUGHPUT([[8.0], ["x"]], 2500.0, 0.82)
    assert out == [[16400.0], ["#VALUE!"]]
    monkeypatch.setenv("XLWINGS_ON_SERVER", "false")
    assert udfs.FT_THROUGHPUT(8.0, 2500.0, 82.0).startswith("#NUM! efficiency")


# ----------------------------------------------------------------- never raises

ANY_CELL = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.text(max_size=5),
    st.sampled_from(ERROR_CODES),
)
ANY_RANGE = st.integers(1, 3).flatmap(
    lambda rows: st.integers(1, 3).flatmap(
        lambda cols: st.lists(
            st.lists(ANY_CELL, min_size=cols, max_size=cols),
            min_size=rows,
            max_size=rows,
        )
    )
)
ANY_ARRAY = st.lists(
    st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=4
).map(np.array)
ANY_ARG = st.one_of(ANY_CELL, ANY_RANGE, ANY_CELL.map(lambda c: [[c]]), ANY_ARRAY)


def _acceptable(value) -> bool:
    if isinstance(value, str):
        return value.split(" ", 1)[0] in ERROR_CODES and "internal error" not in value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return math.isfinite(value)
    return False


@settings(max_examples=600, deadline=None)
@given(name=st.sampled_from(sorted(REGISTRY)), data=st.data())
def test_random_input_never_raises(name, data):
    spec = REGISTRY[name]
    n = data.draw(st.integers(spec.n_required, len(spec.args)), label="n_args")
    args = [data.draw(ANY_ARG, label=a.name) for a in spec.args[:n]]
    out = getattr(udfs, name)(*args)
    if isinstance(out, np.ndarray):
        cells = list(out.ravel())
    elif isinstance(out, list):
        cells = [v for row in out for v in (row if isinstance(row, list) else [row])]
    else:
        cells = [out]
    assert all(_acceptable(v) for v in cells), out


@settings(max_examples=60, deadline=None)
@given(
    g=st.floats(1, 1e4),
    v=st.floats(1e-3, 1e6),
    e=st.floats(1e-3, 1.0),
    t=st.floats(1, 1e6),
)
def test_udf_equals_python_api_for_valid_input(g, v, e, t):
    assert udfs.FT_EXAMPLES_PER_SEC(cell(g), cell(v), cell(e), cell(t)) == (
        xf.examples_per_sec(g, v, e, t)
    )
