"""Fitted scaling laws: predicted loss, compute-optimal and inference-aware sizes.

Hoffmann et al. 2022 (arXiv 2203.15556) fit the final training loss of a dense
transformer with N parameters trained on D tokens as

    L(N, D) = E + A / N^α + B / D^β.

Two fits are built in (``fit`` argument), with their constants in
:mod:`xlfuncs.data.fits`: ``"hoffmann"`` (the paper's equation 10) and ``"epoch"``
(Besiroglu et al. 2024's replication, arXiv 2404.10102).

Minimising L at fixed compute C = 6·N·D gives N = G·(C/6)^a and D = C/(6N), with
a = β/(α+β) and G = (αA/(βB))^(1/(α+β)). Sardana et al. 2024 (arXiv 2401.00448)
add inference: the model that reaches a target loss with the least total FLOPs
6·N·D + 2·N·D_inference is smaller and trained longer than the compute-optimal one.
"""

from __future__ import annotations

import math

import numpy as np

from ..data.fits import FITS
from ..data.units import (
    FLOPS_PER_PARAM_TOKEN,
    FLOPS_PER_PFDAY,
    INFERENCE_FLOPS_PER_PARAM_TOKEN,
)
from ..registry import Floats, Numbers, OptionalName, formula
from ..registry.lookups import (
    fit_a,
    fit_alpha,
    fit_b,
    fit_beta,
    fit_e,
    fit_exponent,
    fit_g,
)

# Why these two have no Excel expression (the LAMBDA library's cover says it;
# docs/excel.md gives the testing reason: the formulas engine cannot run
# REDUCE over SEQUENCE, so such a formula could not be checked).
_NO_EXCEL = "it needs an iterative solver (120 bisection steps), not a formula"

_BELOW_E = "target_loss must be above the fit's irreducible loss E: " + ", ".join(
    f"{f.E} ({k})" for k, f in FITS.items()
)


@formula("CHINCHILLA_LOSS", unit="nats/token")
def chinchilla_loss(
    params: Numbers, tokens: Numbers, fit: OptionalName = "hoffmann"
) -> Floats:
    """Predicted final training loss of N parameters on D tokens: E + A/N^α + B/D^β.

    Formula: ``E + A / N**alpha + B / D**beta`` with the chosen fit's constants.

    Returns
    -------
    float or ndarray
        Loss in nats per token (the fits' units; only differences between
        configurations are meaningful outside the paper's data).

    References
    ----------
    Hoffmann et al. 2022, arXiv 2203.15556, eq. 10; Besiroglu et al. 2024,
    arXiv 2404.10102.

    Examples
    --------
    Chinchilla, 70 B parameters on 1.4 T tokens:

    >>> round(chinchilla_loss(70e9, 1.4e12), 4)
    1.9366
    """
    return (
        fit_e(fit)
        + fit_a(fit) / params ** fit_alpha(fit)
        + fit_b(fit) / tokens ** fit_beta(fit)
    )


@formula("CHINCHILLA_FIT_PARAMS", unit="parameters")
def chinchilla_fit_params(
    budget_pf_days: Numbers, fit: OptionalName = "hoffmann"
) -> Floats:
    """Compute-optimal parameters by the fitted law: N = G·(C/6)^a, a = β/(α+β).

    Formula: ``G * (C / 6) ** a`` with C = budget × 8.64e19 FLOPs,
    a = β/(α+β) and G = (αA/(βB))^(1/(α+β)).

    Returns
    -------
    float or ndarray
        Parameters N.

    References
    ----------
    Hoffmann et al. 2022, arXiv 2203.15556, appendix D.2 (Approach 3); with the
    rounded constants a = 0.4516 (their table 2 prints 0.46 from the unrounded fit).

    Examples
    --------
    GPT-3's budget, 3,640 PF/s-days:

    >>> f"{chinchilla_fit_params(3640) / 1e9:.1f} B"
    '24.5 B'
    """
    flops = budget_pf_days * FLOPS_PER_PFDAY
    return fit_g(fit) * (flops / FLOPS_PER_PARAM_TOKEN) ** fit_exponent(fit)


@formula("CHINCHILLA_FIT_TOKENS", unit="tokens")
def chinchilla_fit_tokens(
    budget_pf_days: Numbers, fit: OptionalName = "hoffmann"
) -> Floats:
    """Compute-optimal training tokens by the fitted law: D = C / (6N).

    Formula: ``C / (6 * N)`` with N from CHINCHILLA_FIT_PARAMS.

    Returns
    -------
    float or ndarray
        Training tokens D.

    References
    ----------
    Hoffmann et al. 2022, arXiv 2203.15556, appendix D.2.

    Examples
    --------
    >>> f"{chinchilla_fit_tokens(3640) / 1e12:.2f} T"
    '2.14 T'
    """
    flops = budget_pf_days * FLOPS_PER_PFDAY
    return flops / (FLOPS_PER_PARAM_TOKEN * chinchilla_fit_params(budget_pf_days, fit))


def inference_optimal(
    target_loss: Floats, inference_tokens: Floats, fit: str = "hoffmann"
) -> tuple[Floats, Floats]:
    """N and D reaching ``target_loss`` with the least 6·N·D + 2·N·D_inference.

    With u = A/N^α and v = B/D^β on the constraint u + v = L − E, the optimum
    satisfies α·u / (β·v) = 1 + D_inf / (3·D) (Lagrange conditions). The left side
    falls from +∞ to 0 as v goes from 0 to L − E while the right side rises, so
    there is exactly one root, found by bisection on log v: it always converges.
    Returns NaN where the target is at or below E.
    """
    f = FITS[fit]
    target = np.asarray(target_loss, dtype=float)
    d_inf = np.asarray(inference_tokens, dtype=float)
    gap = target - f.E
    ok = gap > 0
    gap = np.where(ok, gap, 1.0)
    log_gap = np.log(gap)

    ratio = INFERENCE_FLOPS_PER_PARAM_TOKEN / FLOPS_PER_PARAM_TOKEN  # 1/3

    def excess(log_v: np.ndarray) -> np.ndarray:
        # α u / (β v) - 1 - D_inf / (3 D), decreasing in v.
        v = np.exp(log_v)
        tokens = np.exp((math.log(f.B) - log_v) / f.beta)
        return np.asarray(
            f.alpha * (gap - v) / (f.beta * v) - 1 - ratio * d_inf / tokens
        )

    shape = np.broadcast(gap, d_inf).shape
    lo = np.broadcast_to(log_gap - 700.0, shape).copy()
    hi = np.broadcast_to(log_gap, shape).copy()
    # Near v = 0, D overflows and v underflows: both only push the sign the right way.
    with np.errstate(over="ignore", divide="ignore"):
        for _ in range(120):  # halves a 700-wide log interval to below 1e-30
            mid = 0.5 * (lo + hi)
            up = excess(mid) > 0
            lo = np.where(up, mid, lo)
            hi = np.where(up, hi, mid)
    v = np.exp(0.5 * (lo + hi))
    params = np.where(ok, (f.A / (gap - v)) ** (1 / f.alpha), np.nan)
    tokens = np.where(ok, (f.B / v) ** (1 / f.beta), np.nan)
    if params.ndim == 0:
        return float(params), float(tokens)
    return params, tokens


@formula(
    "INFERENCE_OPTIMAL_PARAMS",
    unit="parameters",
    invalid_result=_BELOW_E,
    excel_note=_NO_EXCEL,
)
def inference_optimal_params(
    target_loss: Numbers, inference_tokens: Numbers, fit: OptionalName = "hoffmann"
) -> Floats:
    """Parameters that reach a loss with the least training plus inference FLOPs.

    Formula: minimise ``6·N·D + 2·N·D_inf`` subject to ``L(N, D) = target``; with
    ``D_inf = 0`` this is the compute-optimal model for that loss.

    Returns
    -------
    float or ndarray
        Parameters N.

    References
    ----------
    Sardana et al. 2024, "Beyond Chinchilla-Optimal: Accounting for Inference in
    Language Model Scaling Laws", arXiv 2401.00448.

    Examples
    --------
    To reach Chinchilla's predicted loss (1.9367) while serving 10 T tokens, a
    model about half the compute-optimal 30.0 B, trained on 2.2 times the tokens:

    >>> f"{inference_optimal_params(1.9367, 10e12) / 1e9:.1f} B"
    '15.8 B'
    """
    return inference_optimal(target_loss, inference_tokens, fit)[0]


@formula(
    "INFERENCE_OPTIMAL_TOKENS",
    unit="tokens",
    invalid_result=_BELOW_E,
    excel_note=_NO_EXCEL,
)
def inference_optimal_tokens(
    target_loss: Numbers, inference_tokens: Numbers, fit: OptionalName = "hoffmann"
) -> Floats:
    """Training tokens of the model that reaches a loss with the least total FLOPs.

    Formula: as INFERENCE_OPTIMAL_PARAMS; D = (B / (L − E − A/N^α))^(1/β).

    Returns
    -------
    float or ndarray
        Training tokens D.

    References
    ----------
    Sardana et al. 2024, arXiv 2401.00448.

    Examples
    --------
    >>> f"{inference_optimal_tokens(1.9367, 10e12) / 1e12:.2f} T"
    '6.05 T'
    """
    return inference_optimal(target_loss, inference_tokens, fit)[1]
