"""Fine-tuning functions against the calculator's worked example and their relations."""

from __future__ import annotations

import numpy as np
import pytest

import xlfuncs as xf

# The worked example of "Estimador de throughput para fine-tuning".
SEED = dict(gpus=8, tokens_per_sec_per_gpu=2500, efficiency=0.82)


def test_worked_example():
    assert xf.throughput(**SEED) == pytest.approx(16_400, rel=1e-12)
    assert xf.examples_per_sec(**SEED, tokens_per_example=900) == pytest.approx(
        16_400 / 900, rel=1e-12
    )
    assert round(xf.examples_per_sec(**SEED, tokens_per_example=900), 2) == 18.22
    assert round(xf.examples_per_min(**SEED, tokens_per_example=900), 2) == 1093.33
    assert xf.tokens_per_min(**SEED) == pytest.approx(984_000, rel=1e-12)


def test_examples_per_sec_times_length_is_throughput():
    rng = np.random.default_rng(1)
    g, v, e, t = (
        rng.integers(1, 100, 50).astype(float),  # GPUs: whole
        rng.uniform(10, 1e4, 50),
        rng.uniform(0.01, 1, 50),
        rng.uniform(1, 1e4, 50),
    )
    np.testing.assert_allclose(
        xf.examples_per_sec(g, v, e, t) * t, xf.throughput(g, v, e), rtol=1e-12
    )
    np.testing.assert_allclose(
        xf.examples_per_min(g, v, e, t),
        60 * xf.examples_per_sec(g, v, e, t),
        rtol=1e-12,
    )


def test_longer_examples_lower_examples_per_sec_not_tokens():
    short = xf.examples_per_sec(**SEED, tokens_per_example=450)
    long = xf.examples_per_sec(**SEED, tokens_per_example=900)
    assert short == pytest.approx(2 * long)


def test_training_time_gpu_hours_and_cost():
    # 100,000 examples x 3 epochs x 900 tokens at 16,400 tokens/s.
    hours = xf.training_hours(100_000, 3, **SEED, tokens_per_example=900)
    assert hours == pytest.approx(100_000 * 3 * 900 / 16_400 / 3600, rel=1e-12)
    assert hours == pytest.approx(
        300_000 / xf.examples_per_sec(**SEED, tokens_per_example=900) / 3600, rel=1e-12
    )
    gpu_h = xf.gpu_hours(100_000, 3, **SEED, tokens_per_example=900)
    assert gpu_h == pytest.approx(8 * hours, rel=1e-12)
    assert xf.cost(
        100_000, 3, **SEED, tokens_per_example=900, price_per_gpu_hour=2.5
    ) == pytest.approx(2.5 * gpu_h, rel=1e-12)
    assert (
        xf.cost(100_000, 3, **SEED, tokens_per_example=900, price_per_gpu_hour=0) == 0
    )


def test_doubling_gpus_halves_hours_keeps_gpu_hours():
    one = xf.training_hours(1e6, 1, 8, 2500, 0.8, 1000)
    two = xf.training_hours(1e6, 1, 16, 2500, 0.8, 1000)
    assert two == pytest.approx(one / 2)
    assert xf.gpu_hours(1e6, 1, 16, 2500, 0.8, 1000) == pytest.approx(
        xf.gpu_hours(1e6, 1, 8, 2500, 0.8, 1000)
    )


def test_tokens_per_example_mean_and_percentiles_match_excel():
    lengths = [120, 300, 450, 900, 2048, 4096]
    assert xf.tokens_per_example(lengths) == pytest.approx(np.mean(lengths))
    # PERCENTILE.INC(x, k) interpolates at rank k × (n − 1): for k = 0.9 and n = 6
    # that is 4.5, halfway between 2048 and 4096: 3072. For k = 0.5, between 450
    # and 900: 675.
    assert xf.tokens_per_example(lengths, 0.9) == pytest.approx(3072)
    assert xf.tokens_per_example(lengths, 0) == 120
    assert xf.tokens_per_example(lengths, 1) == 4096
    np.testing.assert_allclose(
        xf.tokens_per_example(lengths, [0.5, 0.9]), [675, 3072], rtol=1e-12
    )


def test_broadcasting_like_ufuncs():
    out = xf.examples_per_sec(
        np.array([[1], [2], [4]]), 2500, 0.82, np.array([256, 512, 1024])
    )
    assert out.shape == (3, 3)
    assert out[2, 0] == pytest.approx(4 * 2500 * 0.82 / 256)


@pytest.mark.parametrize(
    ("call", "exc", "words"),
    [
        (lambda: xf.throughput(8, 2500, 82), ValueError, "e.g. 0.82 for 82 %, not 82"),
        (
            lambda: xf.throughput(0, 2500, 0.8),
            ValueError,
            "gpus must be a whole number, 1 or more",
        ),
        (
            lambda: xf.throughput(-1, 2500, 0.8),
            ValueError,
            "gpus must be a whole number, 1 or more",
        ),
        (
            lambda: xf.throughput(1.5, 2500, 0.8),
            ValueError,
            "gpus must be a whole number, 1 or more, not 1.5",
        ),
        (lambda: xf.throughput(float("nan"), 2500, 0.8), ValueError, "finite"),
        (lambda: xf.throughput("8", 2500, 0.8), TypeError, "not str '8'"),
        (lambda: xf.throughput(True, 2500, 0.8), TypeError, "not bool True"),
        (lambda: xf.throughput(None, 2500, 0.8), TypeError, "required, not None"),
        (
            lambda: xf.examples_per_sec(8, 2500, 0.8, 0),
            ValueError,
            "tokens_per_example",
        ),
        (lambda: xf.throughput([1, -1], 2500, 0.8), ValueError, "gpus"),
        (lambda: xf.tokens_per_example([100, 200], 90), ValueError, "0 to 1"),
        (lambda: xf.tokens_per_example([]), ValueError, "no numbers"),
        (lambda: xf.cost(1, 1, 1, 1, 1, 1, -2), ValueError, "price_per_gpu_hour"),
        # What numpy or Python would otherwise let through or raise themselves:
        (lambda: xf.throughput([8, True], 2500, 0.8), TypeError, "not bool True"),
        (lambda: xf.throughput([8, None], 2500, 0.8), TypeError, "not None"),
        (lambda: xf.throughput([[1, 2], [3]], 1, 1), ValueError, "rows of equal"),
        (lambda: xf.throughput([[1, [2]]], 1, 1), ValueError, "rows of equal"),
        (lambda: xf.throughput([1, 2], 1, [1, 1, 1]), ValueError, "do not broadcast"),
        (lambda: xf.throughput(10**400, 1, 1), ValueError, "too large for a float"),
        (lambda: xf.throughput([10**400], 1, 1), ValueError, "too large for a float"),
        (lambda: xf.throughput(np.array(["8"]), 1, 1), TypeError, "hold only numbers"),
        (lambda: xf.throughput(np.array([True]), 1, 1), TypeError, "hold only numbers"),
        (lambda: xf.throughput(1 + 2j, 1, 1), TypeError, "not complex"),
        (lambda: xf.cluster_days(1, 1, 1e-200, 1e-200), ValueError, "too small"),
        (lambda: xf.training_flops(1e200, 1e200), ValueError, "out of range"),
        (lambda: xf.gpu_peak_tflops(8), TypeError, "must be a name"),
    ],
)
def test_python_api_raises_with_reason(call, exc, words):
    with pytest.raises(exc, match=words.replace("(", r"\(")) as info:
        call()
    assert isinstance(info.value, xf.InputError)
    assert info.value.code in ("#NUM!", "#VALUE!", "#DIV/0!")
    # Python terms, not a spreadsheet's.
    assert "cell" not in str(info.value) and "enter 82%" not in str(info.value)


def test_python_api_accepts_what_python_users_pass():
    assert xf.throughput(np.int64(8), np.float32(2500), 0.82) == pytest.approx(16_400)
    assert xf.throughput((8, 16), 2500, 0.82).tolist() == [16_400, 32_800]
    assert xf.throughput(np.ma.masked_array([8.0]), 2500, 0.82)[0] == 16_400
    with pytest.raises(ValueError, match="gpus must be a whole number"):
        # A mask must not hide a bad value from the checks.
        xf.throughput(np.ma.masked_array([8.0, -1.0], mask=[0, 1]), 2500, 0.82)


def test_zero_tokens_per_example_is_div0():
    with pytest.raises(xf.InvalidValueError) as info:
        xf.examples_per_sec(8, 2500, 0.8, 0)
    assert info.value.code == "#DIV/0!"
