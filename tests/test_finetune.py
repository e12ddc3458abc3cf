"""Fine-tuning functions against the seed's worked example and their relations."""

from __future__ import annotations

import numpy as np
import pytest

import xlfuncs as xf

SEED = dict(gpus=8, tokens_per_sec_per_gpu=2500, efficiency=0.82)  # seed 000


def test_seed_worked_example():
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
        rng.uniform(1, 100, 50),
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
    # Excel: =PERCENTILE.INC({120,300,450,900,2048,4096}, 0.9) = 3072
    assert xf.tokens_per_example(lengths, 90) == pytest.approx(3072)
    assert xf.tokens_per_example(lengths, 0) == 120
    assert xf.tokens_per_example(lengths, 100) == 4096
    np.testing.assert_allclose(xf.tokens_per_example(lengths, [50, 90]), [675, 3072])


def test_broadcasting_like_ufuncs():
    out = xf.examples_per_sec(
        np.array([[1], [2], [4]]), 2500, 0.82, np.array([256, 512, 1024])
    )
    assert out.shape == (3, 3)
    assert out[2, 0] == pytest.approx(4 * 2500 * 0.82 / 256)


@pytest.mark.parametrize(
    ("call", "exc", "words"),
    [
        (lambda: xf.throughput(8, 2500, 82), ValueError, "enter 82% or 0.82"),
        (lambda: xf.throughput(0, 2500, 0.8), ValueError, "gpus must be a positive"),
        (lambda: xf.throughput(-1, 2500, 0.8), ValueError, "gpus must be a positive"),
        (lambda: xf.throughput(float("nan"), 2500, 0.8), ValueError, "finite"),
        (lambda: xf.throughput("8", 2500, 0.8), TypeError, "not text '8'"),
        (lambda: xf.throughput(True, 2500, 0.8), TypeError, "not TRUE"),
        (lambda: xf.throughput(None, 2500, 0.8), TypeError, "required"),
        (
            lambda: xf.examples_per_sec(8, 2500, 0.8, 0),
            ValueError,
            "tokens_per_example",
        ),
        (lambda: xf.throughput([1, -1], 2500, 0.8), ValueError, "gpus"),
        (lambda: xf.tokens_per_example([100, 200], 101), ValueError, "0 to 100"),
        (lambda: xf.tokens_per_example([]), ValueError, "no numbers"),
        (lambda: xf.cost(1, 1, 1, 1, 1, 1, -2), ValueError, "price_per_gpu_hour"),
    ],
)
def test_python_api_raises_with_reason(call, exc, words):
    with pytest.raises(exc, match=words.replace("(", r"\(")) as info:
        call()
    assert isinstance(info.value, xf.InputError)
    assert info.value.code in ("#NUM!", "#VALUE!", "#DIV/0!")


def test_zero_tokens_per_example_is_div0():
    with pytest.raises(xf.InvalidValueError) as info:
        xf.examples_per_sec(8, 2500, 0.8, 0)
    assert info.value.code == "#DIV/0!"
