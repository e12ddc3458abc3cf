"""Chinchilla sizing and FLOP units against the seed and published figures."""

from __future__ import annotations

import math

import numpy as np
import pytest

import xlfuncs as xf


def test_seed_worked_example():
    n = xf.chinchilla_params(6000, 20)
    d = xf.chinchilla_tokens(6000, 20)
    assert n == pytest.approx(math.sqrt(6000 * 8.64e19 / (6 * 20)), rel=1e-12)
    assert round(n / 1e9, 1) == 65.7
    assert round(d / 1e12, 2) == 1.31
    assert d == pytest.approx(1314.5e9, rel=1e-4)  # the seed's "≈1314.5 mil millones"
    # LibreOffice computed =SQRT(6000*8.64E+19/(6*20)) as 65726706900.62 (FACTS.md).
    assert n == pytest.approx(65_726_706_900.62, rel=1e-12)


def test_default_tokens_per_param_is_20():
    assert xf.chinchilla_params(6000) == xf.chinchilla_params(6000, 20)


def test_doubling_budget_multiplies_params_by_sqrt2():
    for c in (1.0, 6000.0, 3.7e5):
        assert xf.chinchilla_params(2 * c) / xf.chinchilla_params(c) == pytest.approx(
            math.sqrt(2), rel=1e-12
        )


def test_budget_inverts_params():
    budgets = np.logspace(0, 6, 25)
    for r in (5, 20, 192):
        n = xf.chinchilla_params(budgets, r)
        np.testing.assert_allclose(xf.chinchilla_budget(n, r), budgets, rtol=1e-12)
        np.testing.assert_allclose(
            xf.chinchilla_tokens(budgets, r),
            xf.chinchilla_tokens_for_params(n, r),
            rtol=1e-12,
        )
        # And the split spends the whole budget: 6 N D = C.
        np.testing.assert_allclose(
            xf.flops_to_pfdays(xf.training_flops(n, r * n)), budgets, rtol=1e-12
        )


def test_chinchilla_70b_on_1_4t_tokens():
    # Hoffmann et al. 2022: Chinchilla, 70 B parameters on 1.4 T tokens (r = 20).
    assert xf.chinchilla_tokens_for_params(70e9) == pytest.approx(1.4e12)
    budget = xf.chinchilla_budget(70e9)
    assert xf.chinchilla_params(budget) == pytest.approx(70e9, rel=1e-12)
    assert xf.pfdays_to_flops(budget) == pytest.approx(5.88e23, rel=1e-12)


def test_gpt3_compute():
    # Brown et al. 2020, table D.1: GPT-3 175B, 300B tokens, 3.64E+03 PF/s-days.
    pfdays = xf.flops_to_pfdays(xf.training_flops(175e9, 300e9))
    assert pfdays == pytest.approx(3.64e3, rel=2e-3)


def test_pfday_unit():
    assert xf.pfdays_to_flops(1) == 8.64e19
    assert xf.flops_to_pfdays(8.64e19) == 1
    assert xf.pfdays_to_flops(0) == 0
    with pytest.raises(ValueError, match="value"):
        xf.flops_to_pfdays(-1)
