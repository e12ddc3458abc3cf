"""The Python API as a Python programmer meets it: names, types, errors."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

import xlfuncs
from xlfuncs.registry import REGISTRY

PUBLIC_FUNCTIONS = [getattr(xlfuncs, s.python_name) for s in REGISTRY.values()]


def test_every_registered_function_is_public():
    for spec in REGISTRY.values():
        assert spec.python_name in xlfuncs.__all__
        assert getattr(xlfuncs, spec.python_name) is spec.api


@pytest.mark.parametrize("fn", PUBLIC_FUNCTIONS, ids=lambda f: f.__name__)
def test_public_functions_are_typed_and_documented(fn):
    sig = inspect.signature(fn)
    assert sig.return_annotation is not inspect.Signature.empty, fn.__name__
    for p in sig.parameters.values():
        assert p.annotation is not inspect.Parameter.empty, (fn.__name__, p.name)
    doc = inspect.getdoc(fn) or ""
    for section in ("Parameters", "Returns", "References", "Examples"):
        assert f"\n{section}\n---" in doc, (fn.__name__, section)


def test_errors_are_the_librarys_own_and_pythons():
    assert issubclass(xlfuncs.InvalidValueError, (xlfuncs.InputError, ValueError))
    assert issubclass(xlfuncs.InvalidTypeError, (xlfuncs.InputError, TypeError))
    with pytest.raises(xlfuncs.InvalidValueError) as info:
        xlfuncs.throughput(8, 2500, 82)
    assert type(info.value).__module__ == "xlfuncs"  # as users import it


def test_package_is_marked_typed():
    assert (Path(xlfuncs.__file__).parent / "py.typed").is_file()


def test_a_type_checker_sees_the_signatures(tmp_path):
    pytest.importorskip("mypy")
    user = tmp_path / "user.py"
    user.write_text(
        "import xlfuncs\n"
        "n = xlfuncs.chinchilla_params(6000.0, tokens_per_param=20)\n"
        "xlfuncs.examples_per_sec(8, 2500, 0.82)\n"  # one argument short
        # What the API accepts, documented usage first (lines 4 on):
        "import array\n"
        "from decimal import Decimal\n"
        "import numpy as np\n"
        "t = xlfuncs.tokens_per_example([600, 800, 900], 0.9)\n"
        "xlfuncs.throughput([8, 16], 2500, 0.82)\n"
        "xlfuncs.throughput(np.array([1, 2]), 2500, 0.82)\n"
        "xlfuncs.throughput(np.float32(8), 2500, 0.82)\n"
        "xlfuncs.throughput(range(1, 3), array.array('d', [1.0]), Decimal('0.82'))\n"
        "xlfuncs.chinchilla_params(6000, None)\n"
        "xlfuncs.gpu_peak_tflops('H100', None)\n"
        "xlfuncs.chinchilla_loss(70e9, 1.4e12, None)\n"
        "xlfuncs.flops_per_token(540.35e9, 118, None, None)\n"
        "xlfuncs.training_days(1e9, 1e9, 8, 100, None)\n"
        "r: float | np.ndarray = xlfuncs.throughput(8, 2500, 0.82)\n"
        "xlfuncs.gpu_peak_tflops(8)\n"  # a name is text: refused (the last line)
    )
    # mypy cannot follow an editable install's import hook: point it at the source.
    root = str(Path(xlfuncs.__file__).parents[1])
    out = subprocess.run(
        # The cache beside the code, as mypy keeps it when run there: a second
        # run reads numpy's stubs from it, not anew.
        [
            sys.executable,
            "-m",
            "mypy",
            "--no-error-summary",
            "--cache-dir",
            str(Path(__file__).parents[1] / ".mypy_cache"),
            str(user),
        ],  # fmt: skip
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        env={**os.environ, "MYPYPATH": root},
    )
    assert 'Missing positional argument "tokens_per_example"' in out.stdout, out.stdout
    last = len(user.read_text().splitlines())
    assert f"user.py:{last}: error: Argument 1" in out.stdout, out.stdout
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    assert [e.split(":")[1] for e in errors] == ["3", str(last)], out.stdout


class Column:
    """What pandas.Series, polars and xarray offer numpy: ``__array__``."""

    def __init__(self, values, dtype=None):
        self.values = values
        self.dtype = dtype

    def __array__(self, dtype=None, copy=None):
        import numpy as np

        return np.asarray(self.values, dtype=dtype or self.dtype)


def test_array_likes_are_accepted_as_numpy_reads_them():
    import array

    import numpy as np

    want = [2050.0, 4100.0]
    for value in (
        range(1, 3),
        array.array("d", [1.0, 2.0]),
        array.array("i", [1, 2]),
        Column([1.0, 2.0]),
        Column([1, 2], dtype=object),
        (1, np.float32(2)),
        [range(1, 2), range(2, 3)],
    ):
        out = xlfuncs.throughput(value, 2500, 0.82)
        assert np.ravel(out).tolist() == want, value
    assert xlfuncs.tokens_per_example(range(600, 1201, 300)) == 900.0
    assert xlfuncs.tokens_per_example(Column([600.0, 1200.0]), Column([0.5])) == [900.0]


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ({}, "not dict"),
        ({1.0}, "not set"),
        ((x for x in [1.0]), "not generator"),
        ("8", "not str '8'"),
        (b"8", "not bytes b'8'"),
        (Column([1.0, None], dtype=object), "not None"),
        (Column([1.0, True], dtype=object), "not bool True"),
        (Column(["8"]), "not <U1 values"),
        (Column([True, False]), "not bool values"),
        ([1.0, "8"], "not str '8'"),
        (range(0, 2), "a whole number, 1 or more"),
    ],
)
def test_what_is_no_array_of_numbers_is_refused(value, words):
    with pytest.raises(xlfuncs.InputError, match=words.replace("(", r"\(")):
        xlfuncs.throughput(value, 2500, 0.82)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((8, 2500), {"effic": 0.82}),
        ((8, 2500), {}),
        ((8,), {}),
        ((8, 2500, 0.82, 1), {}),
        ((8, 2500, 0.82), {"gpus": 1}),
        ((), {"gpus": 8, "tokens_per_sec_per_gpu": 2500, "efficiency": 0.8, "x": 1}),
    ],
)
def test_wrong_arguments_are_reported_as_python_reports_them(args, kwargs):
    def throughput(gpus, tokens_per_sec_per_gpu, efficiency):
        """Plain Python, for its own error message."""

    throughput.__qualname__ = "throughput"  # as a module-level function
    with pytest.raises(TypeError) as plain:
        throughput(*args, **kwargs)
    with pytest.raises(xlfuncs.InvalidTypeError) as ours:
        xlfuncs.throughput(*args, **kwargs)
    assert str(ours.value) == str(plain.value)
    assert ours.value.__cause__ is None and ours.value.__suppress_context__
    with pytest.raises(TypeError, match="takes from 1 to 2 positional arguments"):
        xlfuncs.chinchilla_params(1, 2, 3)


def test_a_longdouble_too_large_for_a_float_is_refused_without_a_warning():
    import warnings

    import numpy as np

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(xlfuncs.InvalidValueError, match="finite"):
            xlfuncs.throughput(np.array([np.longdouble("1e400")]), 2500, 0.82)
