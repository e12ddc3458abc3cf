"""The Excel functions as xlwings calls them: values, ranges, error codes."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
from concurrent.futures import Future, ThreadPoolExecutor
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xlfuncs as xf
from xlfuncs import cells, udfs
from xlfuncs import spec as xlspec
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


# ------------------------------------------------------------ large numpy arrays


@pytest.fixture(params=[2, 1], ids=["two cores", "one core"])
def cores(request, monkeypatch):
    monkeypatch.setattr(cells, "_CORES", request.param)
    return request.param


def _large_inputs(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    return [
        rng.integers(1, 65, n).astype(float),
        rng.uniform(500, 5000, n),
        rng.uniform(0.3, 1.0, n),
        rng.uniform(128, 8192, n),
    ]


def _per_cell_path(*args):
    raise AssertionError("the per-cell path ran")


def test_large_arrays_take_the_whole_array_path(cores, monkeypatch):
    submitted = []
    real = cells._checker()
    monkeypatch.setattr(
        cells,
        "_checker",
        lambda: SimpleNamespace(
            submit=lambda fn: submitted.append(fn) or real.submit(fn)
        ),
    )
    monkeypatch.setattr(cells, "_cells", _per_cell_path)  # good input needs none
    n = cells._OVERLAP_FROM + 12_345
    g, v, e, t = _large_inputs(n)
    out = udfs.FT_EXAMPLES_PER_SEC(g, v, e, t)
    assert isinstance(out, np.ndarray) and out.dtype == float
    np.testing.assert_array_equal(out, g * v * e / t)
    assert len(submitted) == (1 if cores > 1 else 0)  # the worker, on two cores


@pytest.mark.parametrize(
    ("arg", "at", "value", "want"),
    [
        (3, -1, np.inf, "#NUM!"),  # in a divisor: the result there would be 0.0
        (0, 70_000, 0.0, "#NUM!"),
        (1, 140_000, np.nan, "#NUM!"),
        (2, 5, 1.5, "#NUM!"),  # efficiency over 1, only max sees it
        (3, 100_000, 0.0, "#DIV/0!"),
        (0, 3, -np.inf, "#NUM!"),
        (0, 9, -0.0, "#NUM!"),
    ],
)
def test_one_bad_value_in_a_large_array_is_found_in_place(cores, arg, at, value, want):
    n = cells._OVERLAP_FROM + 12_345
    args = _large_inputs(n)
    good = args[0] * args[1] * args[2] / args[3]
    args[arg][at] = value
    out = udfs.FT_EXAMPLES_PER_SEC(*args)
    assert out.dtype == object and code(out[at]) == want
    rest = np.delete(np.arange(n), at if at >= 0 else n + at)
    np.testing.assert_array_equal(out[rest].astype(float), good[rest])


def test_large_result_overflow_is_num_in_place(cores):
    n = cells._OVERLAP_FROM + 1
    params = np.full(n, 1e150)
    params[-1] = 1e300
    out = udfs.TRAINING_FLOPS(params, 1e10)
    assert code(out[-1]) == "#NUM!" and out[0] == pytest.approx(6e160)


def _finished_future(exc: BaseException) -> Future:
    f: Future = Future()
    f.set_exception(exc)
    return f


@pytest.mark.parametrize(
    "submit",
    [
        lambda fn: _finished_future(RuntimeError("a check failed on the worker")),
        lambda fn: (_ for _ in ()).throw(RuntimeError("interpreter shutdown")),
    ],
    ids=["the worker raises", "the worker cannot start"],
)
def test_trouble_with_the_worker_still_gives_the_right_answer(monkeypatch, submit):
    monkeypatch.setattr(cells, "_CORES", 2)
    monkeypatch.setattr(cells, "_checker", lambda: SimpleNamespace(submit=submit))
    args = _large_inputs(cells._OVERLAP_FROM)
    np.testing.assert_array_equal(
        udfs.FT_EXAMPLES_PER_SEC(*args), args[0] * args[1] * args[2] / args[3]
    )
    args[2][7] = 2.0
    assert code(udfs.FT_EXAMPLES_PER_SEC(*args)[7]) == "#NUM!"


def test_calls_from_several_threads_share_the_worker(cores):
    n = cells._OVERLAP_FROM
    args = _large_inputs(n)
    want = args[0] * args[1] * args[2] / args[3]
    bad = [a.copy() for a in args]
    bad[3][n // 2] = 0.0

    def call(i: int):
        return udfs.FT_EXAMPLES_PER_SEC(*(bad if i % 2 else args))

    with ThreadPoolExecutor(8) as pool:
        outs = list(pool.map(call, range(32)))
    for i, out in enumerate(outs):
        if i % 2:
            assert code(out[n // 2]) == "#DIV/0!" and out[0] == want[0]
        else:
            np.testing.assert_array_equal(out, want)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_makes_its_own_worker():
    # multiprocessing forks on Linux: the child has the executor, not its thread.
    script = textwrap.dedent(
        """
        import os, signal, threading
        import numpy as np
        from xlfuncs import cells, udfs
        cells._CORES = 2
        x = np.ones(cells._OVERLAP_FROM)
        udfs.TRAINING_FLOPS(x, 1e10)  # the parent's worker starts
        pid = os.fork()
        if pid == 0:
            signal.alarm(20)  # a hang ends the child rather than the test run
            out = udfs.TRAINING_FLOPS(x, 1e10)
            names = [t.name for t in threading.enumerate()]
            worker = any(name.startswith("xlfuncs-check") for name in names)
            ok = worker and isinstance(out, np.ndarray) and out[0] == 6e10
            os._exit(0 if ok else 3)
        raise SystemExit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
        """
    )
    assert subprocess.run([sys.executable, "-c", script], timeout=60).returncode == 0


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_array_subclasses_are_checked_as_plain_arrays():
    n = cells._OVERLAP_FROM + 5
    g = np.ma.masked_array(np.ones(n), mask=False)
    g[5] = -3.0
    g.mask[5] = True  # a mask does not hide a bad value from the checks
    assert code(udfs.FT_EXAMPLES_PER_SEC(g, 2500.0, 0.5, 900.0)[5]) == "#NUM!"
    m = udfs.FT_EXAMPLES_PER_SEC(np.matrix([[1.0, 2.0]]), 900.0, 1.0, [[900.0]])
    np.testing.assert_array_equal(m, [[900.0 / 900.0, 1800.0 / 900.0]])  # elementwise


def test_whole_array_domain_check_reads_every_block():
    block = xlspec._BLOCK
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


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(NUMBER_ONLY), cores=st.sampled_from([1, 2]), data=st.data())
def test_whole_array_path_agrees_with_the_per_cell_path(name, cores, data):
    f = REGISTRY[name]
    args = [data.draw(array_arg(), label=a.name) for a in f.args]
    udf = getattr(udfs, name)
    with pytest.MonkeyPatch.context() as mp:
        # Thresholds this small send even these arrays through the worker and blocks.
        mp.setattr(cells, "_CORES", cores)
        mp.setattr(cells, "_OVERLAP_FROM", 4)
        mp.setattr(xlspec, "_BLOCK", 3)
        fast = udf(*args)
        mp.setattr(cells._General, "_whole_arrays", lambda self, args: None)
        slow = udf(*args)
    assert _same(fast, slow), (fast, slow)


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
