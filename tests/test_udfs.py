"""The Excel functions as xlwings calls them: values, ranges, error codes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import xlfuncs as xf
from xlfuncs import cells, udfs
from xlfuncs.registry import ERROR_CODES, REGISTRY, domains
from xlfuncs.registry.domains import FRACTION, POSITIVE
from xlfuncs.registry.errors import NEWER_ERROR_CODES, shown_error


def cell(x):
    """A single cell as xlwings delivers it with ndim=2."""
    return [[x]]


# An error cell as Windows Excel's COM interface hands it over: CVErr(xlErrNA),
# -2146828288 + 2042 (Microsoft's XlCVError numbering).
COM = {-2146826246: "#N/A"}


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


def test_worked_examples_in_cells():
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
    (
        "zero GPUs",
        (0.0, 2500.0, 0.82, 900.0),
        "#NUM!",
        "gpus must be a whole number, 1 or more",
    ),
    (
        "negative GPUs",
        (-8.0, 2500.0, 0.82, 900.0),
        "#NUM!",
        "gpus must be a whole number, 1 or more",
    ),
    (
        "a fraction of a GPU",
        (1.5, 2500.0, 0.82, 900.0),
        "#NUM!",
        "gpus must be a whole number",
    ),
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
    (
        "a date",
        (8.0, 2500.0, 0.82, __import__("datetime").date(2026, 1, 1)),
        "#VALUE!",
        "not a date",
    ),
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


def test_percentile_follows_percentile_inc():
    # PERCENTILE.INC takes k from 0 to 1: a cell showing 90% holds 0.9.
    lengths = [[100.0], [200.0], [None]]
    assert udfs.FT_TOKENS_PER_EXAMPLE(lengths, cell(0.0)) == 100
    assert udfs.FT_TOKENS_PER_EXAMPLE(lengths, cell(1.0)) == 200
    assert udfs.FT_TOKENS_PER_EXAMPLE(lengths, cell(0.9)) == pytest.approx(190)
    ninety = udfs.FT_TOKENS_PER_EXAMPLE(lengths, cell(90.0))  # typed 90, not 90%
    assert code(ninety) == "#NUM!" and "enter 90% or 0.9" in ninety
    assert code(udfs.FT_TOKENS_PER_EXAMPLE(lengths, cell(-0.1))) == "#NUM!"
    assert udfs.FT_TOKENS_PER_EXAMPLE(lengths, cell(None)) == 150  # blank: the mean
    assert code(udfs.FT_TOKENS_PER_EXAMPLE([[None], [None]])) == "#DIV/0!"
    assert udfs.FT_TOKENS_PER_EXAMPLE([[100.0], ["n/a"]]) == 100  # text: skipped
    assert code(udfs.FT_TOKENS_PER_EXAMPLE([[100.0], [-5.0]])) == "#NUM!"
    # Several percentiles at once: {50%; 90%} over 600..1200 gives 900 and 1120.
    out = udfs.FT_TOKENS_PER_EXAMPLE(
        [[600.0], [800.0], [900.0], [1000.0], [1200.0]], [[0.5], [0.9]]
    )
    assert out == [[900.0], [pytest.approx(1120.0)]]


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
    want = [[g * 2500 * 0.82 / t for t in (256, 512, 1024)] for g in (1, 2, 4, 8)]
    np.testing.assert_allclose(out, want, rtol=1e-12)
    assert all(type(v) is float for row in out for v in row)  # no numpy scalars


def test_column_stays_a_column():
    out = udfs.CHINCHILLA_PARAMS([[1.0], [10.0], [100.0]])
    assert [len(r) for r in out] == [1, 1, 1]


def test_bad_cells_in_a_range_do_not_spoil_good_ones():
    out = udfs.FT_EXAMPLES_PER_SEC(
        [[8.0], [-1.0], ["x"], [None], [4.0], [True]], 2500.0, 0.82, 900.0
    )
    assert out[0][0] == pytest.approx(18.2222222, rel=1e-8)
    assert [code(out[i][0]) for i in (1, 2, 3, 5)] == [
        "#NUM!",
        "#VALUE!",
        "#VALUE!",
        "#VALUE!",
    ]
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


def test_a_divisor_that_rounds_to_zero():
    # 1e-200 × 1e-200 is 0 in floating point: the budget would divide by zero.
    out = udfs.CLUSTER_DAYS(6000.0, 1.0, 1e-200, 1e-200)
    assert code(out) == "#DIV/0!" and "too small" in out


def test_numpy_in_numpy_out():
    g = np.array([1.0, 2.0, 4.0])
    out = udfs.FT_EXAMPLES_PER_SEC(g, 2500.0, 0.82, 900.0)
    assert isinstance(out, np.ndarray) and out.dtype == float
    np.testing.assert_allclose(out, g * 2500 * 0.82 / 900)
    bad = udfs.FT_EXAMPLES_PER_SEC(np.array([1.0, -1.0, np.inf]), 2500.0, 0.82, 900.0)
    assert bad[0] == pytest.approx(2500 * 0.82 / 900)
    assert [code(b) for b in bad[1:]] == ["#NUM!", "#NUM!"]


# ------------------------------------------------------------ errors passed on


CALLS = {
    # One call per argument kind; the marked argument receives the error cell.
    "number": lambda x: udfs.FT_THROUGHPUT(cell(x), cell(2500.0), cell(0.82)),
    "number in a range": lambda x: udfs.FT_THROUGHPUT(
        [[8.0], [x]], cell(2500.0), cell(0.82)
    )[1][0],
    "optional number": lambda x: udfs.CHINCHILLA_PARAMS(cell(6000.0), cell(x)),
    "sample": lambda x: udfs.FT_TOKENS_PER_EXAMPLE([[600.0], [x]], cell(0.5)),
    "choice": lambda x: udfs.GPU_PEAK_TFLOPS(cell(x), cell("bf16")),
    "optional choice": lambda x: udfs.GPU_PEAK_TFLOPS(cell("H100"), cell(x)),
    "fit": lambda x: udfs.CHINCHILLA_LOSS(cell(70e9), cell(1.4e12), cell(x)),
}


@pytest.mark.parametrize("kind", sorted(CALLS))
@pytest.mark.parametrize("shown", [*ERROR_CODES, *NEWER_ERROR_CODES])
def test_an_error_a_cell_receives_passes_on_with_its_code(kind, shown):
    out = CALLS[kind](shown)
    assert code(out) == shown, out
    assert "refers to a cell showing" in out


@pytest.mark.parametrize("kind", sorted(CALLS))
def test_our_own_error_text_passes_on_with_its_code(kind):
    upstream = udfs.FT_THROUGHPUT(8.0, 2500.0, 82.0)  # a cell showing our error
    assert upstream.startswith("#NUM! efficiency must be a fraction")
    out = CALLS[kind](upstream)
    assert code(out) == "#NUM!" and "efficiency must be" in out
    assert "not text" not in out and "unknown" not in out


def test_windows_error_values_for_newer_codes():
    # xlwings leaves #SPILL! and friends as the COM error integer.
    assert code(udfs.FT_THROUGHPUT(-2146826243, 2500.0, 0.82)) == "#SPILL!"
    assert code(udfs.FT_THROUGHPUT([[-2146826238]], 2500.0, 0.82)) == "#CALC!"


def test_error_texts_fit_in_a_cell():
    # xlwings shows #VALUE! for a string over 255 characters.
    long_name = "x" * 400
    texts = [
        udfs.GPU_PEAK_TFLOPS(long_name),
        udfs.GPU_PEAK_TFLOPS("Nvidia X"),
        udfs.FT_THROUGHPUT("#N/A " + "y" * 400, 1.0, 1.0),
        udfs.FT_THROUGHPUT(long_name, 1.0, 1.0),
    ]
    for text in texts:
        assert text.startswith("#") and len(text) <= 255, len(text)


@pytest.mark.parametrize(
    "spacing",
    [
        " H100",
        "H100 ",
        "\tH100\n",
        "\u00a0H100\u00a0",
        "\u200bH100\ufeff",
        "\u3000H100",
    ],
)
def test_whitespace_of_any_kind_around_a_name(spacing):
    assert (
        udfs.GPU_PEAK_TFLOPS(
            cell(spacing), cell(f" {spacing}bf16 ".replace("H100", ""))
        )
        == 989.4
    )
    assert udfs.CHINCHILLA_LOSS(70e9, 1.4e12, spacing.replace("H100", "Hoffmann")) == (
        pytest.approx(xf.chinchilla_loss(70e9, 1.4e12))
    )


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (10**400, "too large"),
        ([[10**400]], "too large"),
        ([[1.0, 10**400]], "too large"),
        ([], "empty range"),
        ([[]], "not a rectangular range"),
        ([[1.0, 2.0], [3.0]], "not a rectangular range"),
        ([[[1.0]]], "nested too deep"),
        ([[[1.0, 2.0]], [[3.0, 4.0]]], "nested too deep"),
        (np.array([["a", "b"]]), "not text"),
        (np.array(1.0 + 2j), "not complex"),
        (object(), "not object"),
    ],
)
def test_strange_input_is_an_error_not_an_internal_error(value, words):
    out = udfs.FT_THROUGHPUT(value, 2500.0, 0.82)
    flat = np.array(out, dtype=object).ravel().tolist()
    text = next(v for v in flat if isinstance(v, str))
    assert text.startswith("#") and words in text and "internal" not in text, text


# ------------------------------------------------------------ large ranges


def _large_inputs(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    return [
        rng.integers(1, 65, n).astype(float),
        rng.uniform(500, 5000, n),
        rng.uniform(0.3, 1.0, n),
        rng.uniform(128, 8192, n),
    ]


def _no_cell_by_cell(*args):
    raise AssertionError("a range of numbers was read cell by cell")


def test_a_range_of_numbers_is_converted_once(monkeypatch):
    monkeypatch.setattr(cells, "_each_cell", _no_cell_by_cell)
    g, v, e, t = (x.reshape(100, 100).tolist() for x in _large_inputs(10_000))
    out = udfs.FT_EXAMPLES_PER_SEC(g, v, e, t)
    want = np.array(g) * np.array(v) * np.array(e) / np.array(t)
    assert np.array_equal(np.array(out), want)
    assert type(out) is list and type(out[0][0]) is float


def test_large_numpy_arrays_give_numpy_arrays():
    g, v, e, t = _large_inputs(200_000)
    out = udfs.FT_EXAMPLES_PER_SEC(g, v, e, t)
    assert isinstance(out, np.ndarray) and out.dtype == float
    np.testing.assert_array_equal(out, g * v * e / t)


@pytest.mark.parametrize("as_list", [False, True], ids=["numpy", "list of rows"])
@pytest.mark.parametrize(
    ("arg", "at", "value", "want"),
    [
        (3, -1, np.inf, "#NUM!"),  # in a divisor: the result there would be 0.0
        (0, 7_000, 0.0, "#NUM!"),
        (1, 14_000, np.nan, "#NUM!"),
        (2, 5, 1.5, "#NUM!"),  # efficiency over 1, only max sees it
        (3, 10_000, 0.0, "#DIV/0!"),
        (0, 3, -np.inf, "#NUM!"),
        (0, 9, -0.0, "#NUM!"),
    ],
)
def test_one_bad_value_in_a_large_range_is_found_in_place(
    arg, at, value, want, as_list
):
    n = 15_000  # a long column of a sheet; every size takes the same path
    args = _large_inputs(n)
    good = args[0] * args[1] * args[2] / args[3]
    args[arg][at] = value
    if as_list:
        out = np.array(
            udfs.FT_EXAMPLES_PER_SEC(*(a.reshape(-1, 1).tolist() for a in args)),
            dtype=object,
        ).ravel()
    else:
        out = udfs.FT_EXAMPLES_PER_SEC(*args)
    assert out.dtype == object and code(out[at]) == want
    rest = np.delete(np.arange(n), at if at >= 0 else n + at)
    np.testing.assert_array_equal(out[rest].astype(float), good[rest])


def test_large_result_overflow_is_num_in_place():
    n = 100_001
    params = np.full(n, 1e150)
    params[-1] = 1e300
    out = udfs.TRAINING_FLOPS(params, 1e10)
    assert code(out[-1]) == "#NUM!" and out[0] == pytest.approx(6e160)


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_array_subclasses_are_checked_as_plain_arrays():
    n = 100_005
    g = np.ma.masked_array(np.ones(n), mask=False)
    g[5] = -3.0
    g.mask[5] = True  # a mask does not hide a bad value from the checks
    assert code(udfs.FT_EXAMPLES_PER_SEC(g, 2500.0, 0.5, 900.0)[5]) == "#NUM!"
    m = udfs.FT_EXAMPLES_PER_SEC(np.matrix([[1.0, 2.0]]), 900.0, 1.0, [[900.0]])
    np.testing.assert_array_equal(m, [[900.0 / 900.0, 1800.0 / 900.0]])  # elementwise


def test_whole_array_domain_check_reads_every_block():
    block = domains.BLOCK
    x = np.ones(5 * block + 7)
    assert POSITIVE.all_inside(x) and FRACTION.all_inside(x)
    for at, value in ((x.size - 1, np.inf), (3 * block, 0.0), (block + 1, np.nan)):
        y = x.copy()
        y[at] = value
        assert not POSITIVE.all_inside(y)
        assert not POSITIVE.all_inside(y[at % 2 :: 2])  # strided: not by blocks
    assert not FRACTION.all_inside(np.append(x, 1.0 + 1e-12))
    assert POSITIVE.all_inside(np.array([]))


NUMBER_ONLY = sorted(
    name for name, f in REGISTRY.items() if all(a.kind == "number" for a in f.args)
)
ELEMENT = st.one_of(
    st.floats(1e-3, 1.0),
    st.floats(1.0, 1e6),
    st.sampled_from([0.0, -0.0, -1.0, 1.5, 100.0, 101.0, np.nan, np.inf, -np.inf]),
)


@st.composite
def array_arg(draw):
    """Scalars, 0-d, empty, rows, columns, strided, int and float32 arrays."""
    kind = draw(st.sampled_from(["scalar", "0-d", "row", "column", "strided", "empty"]))
    if kind == "scalar":
        return draw(ELEMENT)
    k = draw(st.integers(1, 6))
    values = np.array(draw(st.lists(ELEMENT, min_size=2 * k, max_size=2 * k)))
    dtype = draw(st.sampled_from([float, np.float32, "int"]))
    if dtype == "int":
        values = np.nan_to_num(values, posinf=9, neginf=-9).astype(np.int64)
    else:
        values = values.astype(dtype)
    return {
        "0-d": lambda: values[0].reshape(()),
        "row": lambda: values[:k].reshape(1, k),
        "column": lambda: values[:k].reshape(k, 1),
        "strided": lambda: values[::2],
        "empty": lambda: values[:0],
    }[kind]()


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.shape == b.shape
            and a.dtype == b.dtype
            and all(x == y for x, y in zip(a.ravel().tolist(), b.ravel().tolist()))
        )
    return a == b


def each_cell(udf, args):
    """What the cells of a range show, each computed alone: the call with that
    cell's value of every argument (numpy arrays and lists of rows broadcast)."""
    arrays = [np.asarray(a, dtype=object) for a in args]
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    out = np.empty(shape, dtype=object)
    for index in np.ndindex(*shape):
        cell = [np.broadcast_to(a, shape)[index] for a in arrays]
        out[index] = udf(*(float(c) if isinstance(c, np.floating) else c for c in cell))
    return out


def _as_cells(result, shape):
    """A result as cells: a one-cell range comes back as one value."""
    return np.asarray(result, dtype=object).reshape(shape)


def _blank_in_a_range(spec, args) -> bool:
    """A blank cell in a range given for an optional argument: a gap there, not
    the default a blank single cell stands for (tested on its own)."""
    return any(
        a.name in spec.defaults
        and np.size(x) > 1
        and any(c is None for c in np.asarray(x, dtype=object).ravel().tolist())
        for a, x in zip(spec.args, args)
    )


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(NUMBER_ONLY), data=st.data())
def test_numpy_arrays_give_what_each_cell_gives_alone(name, data):
    f = REGISTRY[name]
    args = [data.draw(array_arg(), label=a.name) for a in f.args]
    udf = getattr(udfs, name)
    try:
        np.broadcast_shapes(*(np.shape(a) for a in args))
    except ValueError:
        assert code(udf(*args)) == "#VALUE!"
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(domains, "BLOCK", 3)  # so small that even these go by blocks
        result = udf(*args)
    alone = each_cell(udf, args)
    whole = _as_cells(result, alone.shape)
    for got, want in zip(whole.ravel().tolist(), alone.ravel().tolist()):
        assert _same(got, want), (got, want)


LIST_CELL = st.one_of(
    ELEMENT,
    ELEMENT,  # mostly numbers, so that ranges of numbers and a few others are common
    st.integers(-5, 10**6),
    st.sampled_from([None, True, "x", "#N/A", 10**400, -2146826246, "#NUM! x"]),
    st.sampled_from(["2.5", "0.5", "0", "-1", "NaN", "sNaN", "1e400"]).map(
        __import__("decimal").Decimal
    ),  # Currency cells
)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(NUMBER_ONLY), data=st.data())
def test_range_of_numbers_gives_what_each_cell_gives_alone(name, data):
    # The whole-range conversion gives what each cell, called alone, gives.
    f = REGISTRY[name]
    rows, cols = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4))
    args = [
        data.draw(
            st.lists(
                st.lists(LIST_CELL, min_size=cols, max_size=cols),
                min_size=rows,
                max_size=rows,
            )
        )
        for _ in f.args
    ]
    assume(not _blank_in_a_range(f, args))
    udf = getattr(udfs, name)
    alone = each_cell(udf, args)
    whole = _as_cells(udf(*args), alone.shape)
    assert whole.ravel().tolist() == alone.ravel().tolist()


def test_office_js_returns_bare_codes(monkeypatch):
    monkeypatch.setenv("XLWINGS_ON_SERVER", "true")
    assert udfs.FT_THROUGHPUT(8.0, 2500.0, 82.0) == "#NUM!"
    out = udfs.FT_THROUGHPUT([[8.0], ["x"]], 2500.0, 0.82)
    assert out == [[16400.0], ["#VALUE!"]]
    # Office.js turns only the seven classic codes into error cells.
    assert udfs.FT_THROUGHPUT("#SPILL!", 2500.0, 0.82) == "#VALUE!"
    monkeypatch.setenv("XLWINGS_ON_SERVER", "false")
    assert udfs.FT_THROUGHPUT(8.0, 2500.0, 82.0).startswith("#NUM! efficiency")


# ----------------------------------------------------------------- never raises

ANY_CELL = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.integers(min_value=10**300, max_value=10**400),
    st.text(max_size=5),
    st.text(max_size=300).map(lambda t: "#NUM! " + t),
    st.sampled_from([*ERROR_CODES, *NEWER_ERROR_CODES]),
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
ODD = st.sampled_from(
    [[], [[]], [[[1.0]]], [[1.0], [2.0, 3.0]], [1.0, [2.0]]]
    + [np.zeros(0), np.zeros((0, 3)), np.zeros((1, 0))]
)
# Arrays where a cell belongs: inside a range, or as a one-cell range.
NESTED = st.one_of(
    ANY_ARRAY.map(lambda a: [[a]]),
    ANY_ARRAY.map(lambda a: [a]),
    st.tuples(ANY_CELL, ANY_ARRAY).map(lambda t: [[t[0], t[1]]]),
    ANY_ARRAY.map(lambda a: [[a[0].reshape(())]]),
)
ANY_ARG = st.one_of(
    ANY_CELL, ANY_RANGE, ANY_CELL.map(lambda c: [[c]]), ANY_ARRAY, ODD, NESTED
)


def _acceptable(value) -> bool:
    if isinstance(value, str):
        known = value.split(" ", 1)[0] in (*ERROR_CODES, *NEWER_ERROR_CODES)
        return known and "internal error" not in value and len(value) <= 255
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
        values = list(out.ravel())
    elif isinstance(out, list):
        values = [v for row in out for v in (row if isinstance(row, list) else [row])]
    else:
        values = [out]
    assert all(_acceptable(v) for v in values), out


@settings(max_examples=60, deadline=None)
@given(
    g=st.integers(1, 10_000),  # GPUs: whole
    v=st.floats(1e-3, 1e6),
    e=st.floats(1e-3, 1.0),
    t=st.floats(1, 1e6),
)
def test_udf_equals_python_api_for_valid_input(g, v, e, t):
    assert udfs.FT_EXAMPLES_PER_SEC(cell(g), cell(v), cell(e), cell(t)) == (
        xf.examples_per_sec(g, v, e, t)
    )


# ------------------------------------------------------------ review fixes


def test_bad_cells_of_a_number_range_compute_on_a_safe_value():
    # A NaN, an infinity or a zero must not reach the math: the percentile of
    # inf raised inside numpy ("internal error") before.
    out = udfs.FT_TOKENS_PER_EXAMPLE([[600.0], [800.0]], [[0.5, math.inf]])
    assert out[0][0] == 700.0
    assert code(out[0][1]) == "#NUM!" and "percentile must be a finite" in out[0][1]
    out = udfs.FT_TOKENS_PER_EXAMPLE([[600.0]], [[0.5, np.nan, -np.inf, 2.0, -1.0]])
    assert out[0][0] == 600.0 and all(code(x) == "#NUM!" for x in out[0][1:])
    out = udfs.FT_THROUGHPUT([[8.0, 0.0, np.inf, -1.0]], 2500.0, 0.82)
    assert out[0][0] == 16_400.0
    assert "whole number" in out[0][1] and "finite" in out[0][2]
    assert "whole number" in out[0][3]


PERCENTILE_CELL = st.one_of(
    st.floats(0.0, 1.0),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, -0.0, 90.0, np.nan, np.inf, -np.inf]),
)


@settings(max_examples=200, deadline=None)
@given(
    lengths=st.lists(st.floats(1.0, 1e4), min_size=1, max_size=6),
    ks=st.lists(
        st.lists(PERCENTILE_CELL, min_size=2, max_size=2), min_size=1, max_size=3
    ),
)
def test_each_cell_of_a_percentile_range_is_that_percentile_alone(lengths, ks):
    # A range of numbers goes through the whole-array check (_checked); each of
    # its cells must give what the same number alone gives.
    column = [[x] for x in lengths]
    out = udfs.FT_TOKENS_PER_EXAMPLE(column, ks)
    assert out == [[udfs.FT_TOKENS_PER_EXAMPLE(column, k) for k in row] for row in ks]


def test_an_array_inside_a_range_is_nested_too_deep_not_an_internal_error():
    for value in ([[np.array([1.0, 2.0])]], [[np.array(20.0)]], [np.array([1.0])]):
        out = udfs.CHINCHILLA_PARAMS(6000.0, value)
        assert code(out) == "#VALUE!" and "nested too deep" in out, out
    assert udfs.CHINCHILLA_PARAMS(6000.0, [[None]]) == udfs.CHINCHILLA_PARAMS(6000.0)


def test_an_empty_numpy_percentile_gives_an_empty_result():
    out = udfs.FT_TOKENS_PER_EXAMPLE(2.0, np.zeros((0, 3)))
    assert isinstance(out, np.ndarray) and out.shape == (0, 3)
    out = xf.tokens_per_example([1.0, 2.0], [[]])
    assert isinstance(out, np.ndarray) and out.shape == (1, 0)
    assert xf.throughput([], 2500, 0.82).shape == (0,)  # as for any argument


# Every character str.strip() removes, and the invisible ones it keeps.
BLANKS = "".join(chr(c) for c in range(0x3001) if chr(c).isspace())
PADDING = st.text(alphabet=BLANKS + "\u200b\u200c\u200d\u2060\ufeff", max_size=6)


@settings(max_examples=200, deadline=None)
@given(before=PADDING, after=PADDING)
def test_any_mix_of_whitespace_around_a_name_is_ignored(before, after):
    assert udfs.GPU_PEAK_TFLOPS(cell(before + "H100" + after)) == 989.4
    assert xf.gpu_peak_tflops(before + "h100" + after, after + "bf16" + before) == 989.4


def test_whitespace_then_invisible_then_whitespace():
    assert udfs.GPU_PEAK_TFLOPS(" \u200b \u00a0H100\ufeff \u200b ") == 989.4


def test_a_divisor_rounding_to_zero_reads_the_same_in_a_cell_a_range_and_python():
    # 1e-200 × 1e-200 is 0: the scalar call and a range cell say the same.
    scalar = udfs.CLUSTER_DAYS(6000.0, 1.0, 1e-200, 1e-200)
    assert code(scalar) == "#DIV/0!" and "rounds to 0" in scalar
    in_range = udfs.CLUSTER_DAYS(6000.0, 1.0, [[1e-200], [1.0]], [[1e-200, 1e-210]])
    assert in_range[0] == [scalar, scalar]
    assert in_range[1][0] == udfs.CLUSTER_DAYS(6000.0, 1.0, 1.0, 1e-200)  # finite
    numpy = udfs.CLUSTER_DAYS(6000.0, 1.0, np.array([1e-200, 1e3]), 1e-200)
    assert numpy[0] == scalar
    overflow = udfs.TRAINING_FLOPS([[1e200, 1.0]], 1e200)
    assert overflow[0][0] == udfs.TRAINING_FLOPS(1e200, 1e200)
    assert code(overflow[0][0]) == "#NUM!"
    with pytest.raises(xf.InvalidValueError) as one:
        xf.training_hours(1, 1, 1, 1e-200, 1e-200, 1)
    with pytest.raises(xf.InvalidValueError) as many:
        xf.training_hours(1, 1, 1, np.array([1.0, 1e-200]), 1e-200, 1)
    assert str(one.value) == str(many.value) and one.value.code == "#DIV/0!"
    assert str(one.value) in scalar  # one text, in Python and in the cell


def test_each_raise_is_a_new_exception():
    # A shared exception instance would collect every traceback it was raised with.
    caught = []
    for _ in range(2):
        with pytest.raises(xf.InvalidValueError) as info:
            xf.cluster_days(1, 1, 1e-200, 1e-200)
        caught.append(info.value)
    assert caught[0] is not caught[1]


def test_an_unexpected_exception_in_the_math_never_escapes_a_cell():
    import dataclasses

    def boom(*args):
        raise RuntimeError("boom")

    spec = dataclasses.replace(REGISTRY["FT_THROUGHPUT"], raw=boom)
    out = cells.cell_function(spec)(8.0, 2500.0, 0.82)
    assert code(out) == "#VALUE!" and "internal error" in out and "boom" in out


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("FT_THROUGHPUT", (8.0, 2500.0, 1.0)),  # efficiency 100 %: (0, 1] is closed
        ("FT_THROUGHPUT", ([[8.0]], [[2500.0]], [[1.0]])),
        ("FT_COST", (1e5, 3.0, 8.0, 2500.0, 0.82, 900.0, 0.0)),  # a price of 0
        ("FT_COST", (1e5, 3.0, 8.0, 2500.0, 0.82, 900.0, -0.0)),
        ("FT_TOKENS_PER_EXAMPLE", (600.0, 0.0)),  # percentile 0 and 1
        ("FT_TOKENS_PER_EXAMPLE", ([[600.0]], [[1.0]])),
        ("FT_TOKENS_PER_EXAMPLE", (600.0, None)),
        ("PFDAYS_TO_FLOPS", (0.0,)),
        ("MFU", (38.7858, 540.35e9, 275.0, 118.0, 12288.0, 2048.0)),
        ("GPU_PEAK_TFLOPS", ("H100", None)),
    ],
)
def test_valid_numbers_at_the_ends_of_a_domain_compute(name, args):
    want = getattr(xf, REGISTRY[name].python_name)(
        *(a[0][0] if isinstance(a, list) else a for a in args)
    )
    assert getattr(udfs, name)(*args) == want


def test_a_cell_is_an_error_exactly_where_its_domain_says():
    # A behaviour table: every number argument of every function, each edge value
    # in that argument and the worked example's values in the others.
    edges = [0.0, -0.0, 1.0, 5e-324, -5e-324, math.inf, -math.inf, math.nan]
    edges += [math.nextafter(1.0, 2.0), math.nextafter(1.0, 0.0), 1.7e308, -1.0]
    edges += [2.5, 3.0, 4.0]
    for spec in REGISTRY.values():
        udf = getattr(udfs, spec.name)
        example = list(spec.example.args) + [None] * (
            len(spec.args) - len(spec.example.args)
        )
        for k, a in enumerate(spec.args):
            if a.kind != "number" or a.domain is None or example[k] is None:
                continue
            for x in edges:
                call = [*example[:k], x, *example[k + 1 :]]
                out = udf(*call)
                inside = a.domain.contains(x) and math.isfinite(x)
                if not inside:
                    assert code(out) in ("#NUM!", "#DIV/0!"), (
                        spec.name,
                        a.name,
                        x,
                        out,
                    )
                    assert a.name in out, (spec.name, a.name, x, out)
                elif isinstance(out, str):  # a valid value: only the result may fail
                    rule = a.domain.cell_rule or a.domain.rule  # its domain's words
                    assert f"{a.name} must {rule}" not in out, (spec.name, a.name, x)


def test_one_text_cell_spoils_only_its_own_cell():
    g, v, e, t = (x.reshape(100, 100).tolist() for x in _large_inputs(10_000))
    want = udfs.FT_EXAMPLES_PER_SEC(g, v, e, t)
    g[3][7], g[99][99], e[0][0] = "x", None, 82
    out = udfs.FT_EXAMPLES_PER_SEC(g, v, e, t)
    assert code(out[3][7]) == "#VALUE!" and code(out[99][99]) == "#VALUE!"
    assert code(out[0][0]) == "#NUM!" and "efficiency" in out[0][0]
    for i, j in ((3, 7), (99, 99), (0, 0)):
        out[i][j] = want[i][j]
    assert out == want


@settings(max_examples=300, deadline=None)
@given(
    column=st.lists(LIST_CELL, min_size=1, max_size=12),
    k=st.sampled_from([None, 0.0, 0.5, 1.0]),
)
def test_a_sample_range_reads_as_average_and_percentile_do(column, k):
    # The oracle, by the rules of AVERAGE and PERCENTILE.INC: an error cell is
    # passed on, blanks, text and TRUE/FALSE are skipped, the rest are numbers.
    lengths = [[c] for c in column]
    got = udfs.FT_TOKENS_PER_EXAMPLE(lengths, k)
    shown = [c for c in column if shown_error(c) or (type(c) is int and c in COM)]
    numbers = [c for c in column if c is not None and not isinstance(c, (bool, str))]
    if shown:
        first = shown[0]
        assert code(got) == (COM[first] if type(first) is int else shown_error(first))
        return
    if not numbers:
        assert code(got) == "#DIV/0!", got
        return
    try:
        want = xf.tokens_per_example([float(x) for x in numbers], k)
    except xf.InputError as err:
        assert code(got) == err.code, (got, err)
        return
    except (OverflowError, ValueError):  # 10**400, Decimal('sNaN')
        assert code(got) == "#NUM!", got
        return
    assert got == want


# Windows Excel hands a UDF Currency- and Accounting-formatted cells as Decimal.
D = __import__("decimal").Decimal


def test_a_currency_cell_is_a_number():
    want = udfs.FT_COST(1e5, 3.0, 8.0, 2500.0, 0.82, 900.0, 2.5)
    assert udfs.FT_COST(1e5, 3.0, 8.0, 2500.0, 0.82, 900.0, D("2.5")) == want
    assert udfs.FT_COST(1e5, 3.0, 8.0, 2500.0, 0.82, 900.0, [[D("2.5")]]) == want


def test_currency_cells_in_ranges_and_samples():
    prices = [[D("2.5")], [D("0")], [3.0], [D("-1")]]
    out = udfs.CLUSTER_COST(8.0, 30.0, prices)
    assert out[:3] == [[8 * 30 * 24 * 2.5], [0.0], [8 * 30 * 24 * 3.0]]
    assert code(out[3][0]) == "#NUM!" and "price_per_gpu_hour" in out[3][0]
    assert udfs.CLUSTER_COST(8.0, 30.0, [[D("2.5"), D("3")]]) == [[14400.0, 17280.0]]
    lengths = [[D("600")], [D("800")], [None]]
    assert udfs.FT_TOKENS_PER_EXAMPLE(lengths) == 700.0
    assert udfs.FT_TOKENS_PER_EXAMPLE([[600.0], [800.0]], D("0.5")) == 700.0


@pytest.mark.parametrize(
    ("value", "words"),
    [(D("NaN"), "finite"), (D("sNaN"), "finite"), (D("-Infinity"), "finite"),
     (D("1e400"), "too large"), (D("0.0"), "whole number, 1 or more")],
)  # fmt: skip
def test_a_decimal_that_is_no_valid_float(value, words):
    for arg in (value, [[value]], [[value, 2.0]], [[1.0], [value]]):
        out = udfs.FT_THROUGHPUT(arg, 2500.0, 0.82)
        text = (
            out
            if isinstance(out, str)
            else [c for r in out for c in r if isinstance(c, str)][0]
        )
        assert code(text) == "#NUM!" and words in text, (arg, text)
    with pytest.raises(xf.InvalidValueError, match=words):
        xf.throughput(value, 2500, 0.82)
    with pytest.raises(xf.InvalidValueError, match=words):
        xf.throughput([1.0, value], 2500, 0.82)


def test_decimals_in_the_python_api():
    assert xf.cost(1e5, 3, 8, 2500, 0.82, 900, D("2.5")) == xf.cost(
        1e5, 3, 8, 2500, 0.82, 900, 2.5
    )
    assert xf.throughput([D("8"), D("16")], 2500, D("0.82")).tolist() == [
        16400.0,
        32800.0,
    ]
    assert xf.tokens_per_example([D("600"), D("800")]) == 700.0


def test_a_sample_skips_text_and_booleans_as_average_does():
    # A whole column selected with its header, as AVERAGE and PERCENTILE.INC
    # read it: text (a header, a number stored as text) and TRUE/FALSE are
    # skipped, blanks too; an error a cell shows is passed on.
    column = [["length"], [600.0], ["800"], [True], [800.0], [None], [False]]
    assert udfs.FT_TOKENS_PER_EXAMPLE(column) == 700.0
    assert udfs.FT_TOKENS_PER_EXAMPLE(column, 1.0) == 800.0
    assert udfs.FT_TOKENS_PER_EXAMPLE([["length", "tokens"], [600.0, 800.0]]) == 700.0
    na = udfs.FT_TOKENS_PER_EXAMPLE([["length"], [600.0], ["#N/A"]])
    assert code(na) == "#N/A" and "lengths refers to a cell showing #N/A" in na
    ours = udfs.FT_TOKENS_PER_EXAMPLE(
        [[600.0], [udfs.FT_THROUGHPUT(8.0, 2500.0, 82.0)]]
    )
    assert code(ours) == "#NUM!" and "efficiency" in ours
    none = udfs.FT_TOKENS_PER_EXAMPLE([["length"], [None], [True]])
    assert code(none) == "#DIV/0!" and "holds no numbers" in none
    assert code(udfs.FT_TOKENS_PER_EXAMPLE([[600.0], [-5.0]])) == "#NUM!"
    dated = udfs.FT_TOKENS_PER_EXAMPLE(
        [[600.0], [__import__("datetime").date(2026, 1, 1)]]
    )
    assert code(dated) == "#VALUE!"
    # The Python API stays strict: text or a bool in a list is a mistake there.
    with pytest.raises(xf.InvalidTypeError):
        xf.tokens_per_example(["length", 600, 800])


def test_messages_read_well():
    # A blank cell inside the range of an optional argument is no default.
    out = udfs.FT_TOKENS_PER_EXAMPLE([[600.0], [800.0]], [[0.5, None]])
    assert out[0][0] == 700.0
    assert out[0][1] == (
        "#VALUE! percentile has a blank cell in its range: fill it, or leave all "
        "of percentile blank for the default"
    )
    out = udfs.GPU_PEAK_TFLOPS("H100", [["bf16"], [None]])
    assert code(out[1][0]) == "#VALUE!" and "dtype has a blank cell" in out[1][0]
    assert "gpus is required (blank cell)" in udfs.FT_THROUGHPUT([[None]], 1.0, 1.0)
    # Python: an element of a list is no argument of its own.
    with pytest.raises(
        xf.InvalidTypeError, match=r"^gpus must hold only numbers, not None$"
    ):
        xf.throughput([8, None], 2500, 0.82)
    with pytest.raises(
        xf.InvalidTypeError, match=r"^gpus must hold only numbers, not bool True$"
    ):
        xf.throughput([8, True], 2500, 0.82)
    with pytest.raises(
        xf.InvalidTypeError, match=r"^gpus must hold only numbers, not str '8'$"
    ):
        xf.throughput(["8"], 2500, 0.82)
    with pytest.raises(
        xf.InvalidTypeError, match=r"^gpus must hold only numbers, not bool values$"
    ):
        xf.throughput(np.array([True]), 2500, 0.82)
    # A value whose repr names its type is not named twice.
    with pytest.raises(
        xf.InvalidTypeError, match=r"^gpu must be a name \(str\), not Decimal\('8'\)$"
    ):
        xf.gpu_peak_tflops(D("8"))
    with pytest.raises(xf.InvalidTypeError, match=r"not range\(0, 2\)$"):
        xf.gpu_peak_tflops(range(2))
    assert udfs.FT_THROUGHPUT(D("8"), 2500.0, 0.82) == 16400.0
    assert (
        udfs.GPU_PEAK_TFLOPS(D("8")) == "#VALUE! gpu must be a name, not Decimal('8')"
    )
    # An array inside a range reads as a list inside a range does.
    assert udfs.FT_THROUGHPUT([[np.array([1.0])]], 1.0, 1.0) == udfs.FT_THROUGHPUT(
        [[[1.0]]], 1.0, 1.0
    )


def test_many_cells_out_of_range_are_told_apart_from_divisors_rounding_to_zero():
    # Above 64 bad cells a whole-array rerun decides; it must say what each cell
    # alone says, overflow or a divisor rounding to 0, mixed in one range.
    n = 500
    peak = np.full(n, 1e-200)
    peak[::2] = 1.0  # even cells: a finite result
    peak[1::4] = 1e300  # some cells: CLUSTER_DAYS is finite, tiny
    days = udfs.CLUSTER_DAYS(6000.0, 1.0, peak, 1e-200)
    alone = [udfs.CLUSTER_DAYS(6000.0, 1.0, float(g), 1e-200) for g in peak]
    assert [d if isinstance(d, str) else float(d) for d in days] == alone
    assert sum(code(a) == "#DIV/0!" for a in alone if isinstance(a, str)) > 64
    flops = udfs.TRAINING_FLOPS(np.full(n, 1e200), 1e200)
    assert all(f == udfs.TRAINING_FLOPS(1e200, 1e200) for f in flops)
