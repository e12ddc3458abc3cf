"""Fitted scaling laws: published constants, the IsoFLOP optimum, inference-aware."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xlfuncs as xf
from xlfuncs import udfs
from xlfuncs.data.fits import FITS
from xlfuncs.functions.scaling_laws import inference_optimal


def test_published_constants():
    h, e = FITS["hoffmann"], FITS["epoch"]
    assert (h.E, h.A, h.B, h.alpha, h.beta) == (1.69, 406.4, 410.7, 0.34, 0.28)
    assert (e.E, e.A, e.B, e.alpha, e.beta) == (1.8172, 482.01, 2085.43, 0.3478, 0.3658)


def test_approach3_exponent():
    # a = beta / (alpha + beta) = 0.4516 with the rounded constants (table 2: 0.46).
    assert round(FITS["hoffmann"].a, 4) == 0.4516
    ratio = xf.chinchilla_fit_params(2000) / xf.chinchilla_fit_params(1000)
    assert ratio == pytest.approx(2**0.4516, rel=1e-4)


def test_loss_formula():
    n, d = 70e9, 1.4e12
    want = 1.69 + 406.4 / n**0.34 + 410.7 / d**0.28
    assert xf.chinchilla_loss(n, d) == pytest.approx(want, rel=1e-12)
    assert xf.chinchilla_loss(n, d, "epoch") == pytest.approx(
        1.8172 + 482.01 / n**0.3478 + 2085.43 / d**0.3658, rel=1e-12
    )


@pytest.mark.parametrize("fit", ["hoffmann", "epoch"])
def test_fit_optimum_is_the_isoflop_minimum(fit):
    budget = 6000.0
    n = xf.chinchilla_fit_params(budget, fit)
    d = xf.chinchilla_fit_tokens(budget, fit)
    flops = budget * 8.64e19
    assert 6 * n * d == pytest.approx(flops, rel=1e-12)
    grid = n * np.logspace(-1, 1, 2001)
    losses = xf.chinchilla_loss(grid, flops / (6 * grid), fit)
    assert grid[np.argmin(losses)] == pytest.approx(n, rel=3e-3)
    assert xf.chinchilla_loss(n, d, fit) <= losses.min() + 1e-12


def test_fits_disagree_with_the_20_tokens_rule_as_documented():
    # Hoffmann's rounded eq.-10 constants favour smaller models than the 20-token
    # rule; Epoch's replication lands near 20 tokens per parameter.
    budget = 6000.0
    rule = xf.chinchilla_params(budget)
    hoff = xf.chinchilla_fit_params(budget, "hoffmann")
    epoch = xf.chinchilla_fit_params(budget, "epoch")
    assert hoff < 0.6 * rule
    assert 0.7 * rule < epoch < 1.3 * rule
    assert xf.chinchilla_fit_tokens(budget, "epoch") / epoch == pytest.approx(
        20, rel=0.35
    )


def test_target_at_or_below_E_is_num():
    with pytest.raises(ValueError, match="irreducible loss E"):
        xf.inference_optimal_params(1.69, 0)
    assert udfs.INFERENCE_OPTIMAL_PARAMS(1.8, 0, "epoch").startswith(
        "#NUM! target_loss"
    )
    assert udfs.INFERENCE_OPTIMAL_TOKENS(1.69, 1e12).startswith("#NUM!")


@pytest.mark.parametrize("fit", ["hoffmann", "epoch"])
def test_zero_inference_is_the_compute_optimal_point(fit):
    for target in (FITS[fit].E + 0.05, 2.0, 2.5, 3.5):
        n = xf.inference_optimal_params(target, 0, fit)
        d = xf.inference_optimal_tokens(target, 0, fit)
        budget = xf.flops_to_pfdays(6 * n * d)
        assert xf.chinchilla_fit_params(budget, fit) == pytest.approx(n, rel=1e-9)
        assert xf.chinchilla_fit_tokens(budget, fit) == pytest.approx(d, rel=1e-9)
        assert xf.chinchilla_loss(n, d, fit) == pytest.approx(target, rel=1e-12)


def test_inference_makes_models_smaller_and_longer_trained():
    n0, d0 = inference_optimal(2.0, 0.0)
    n1, d1 = inference_optimal(2.0, 1e13)
    n2, d2 = inference_optimal(2.0, 1e14)
    assert n2 < n1 < n0 and d2 > d1 > d0


def total_flops(fit, n, d, d_inf):
    return 6 * n * d + 2 * n * d_inf


@settings(max_examples=150, deadline=None)
@given(
    fit=st.sampled_from(["hoffmann", "epoch"]),
    excess=st.floats(1e-3, 20.0),
    d_inf=st.one_of(st.just(0.0), st.floats(1.0, 1e20)),
)
def test_inference_solver_converges_for_every_valid_input(fit, excess, d_inf):
    f = FITS[fit]
    target = f.E + excess
    n, d = inference_optimal(target, d_inf, fit)
    assert math.isfinite(n) and math.isfinite(d) and n > 0 and d > 0
    # On the constraint...
    assert xf.chinchilla_loss(n, d, fit) == pytest.approx(target, rel=1e-9)
    # ...and no cheaper point nearby along it.
    best = total_flops(f, n, d, d_inf)
    for k in (0.97, 1.03):
        m = n * k
        rest = target - f.E - f.A / m**f.alpha
        if rest <= 0:
            continue
        dm = (f.B / rest) ** (1 / f.beta)
        assert total_flops(f, m, dm, d_inf) >= best * (1 - 1e-9)


def test_ranges_broadcast_with_fits():
    out = udfs.CHINCHILLA_FIT_PARAMS([[1000.0], [6000.0]], [["hoffmann", "epoch"]])
    assert out[1][0] == pytest.approx(xf.chinchilla_fit_params(6000, "hoffmann"))
    assert out[1][1] == pytest.approx(xf.chinchilla_fit_params(6000, "epoch"))
    bad = udfs.CHINCHILLA_LOSS(70e9, 1.4e12, "kaplan")
    assert bad.startswith("#N/A") and "hoffmann" in bad
