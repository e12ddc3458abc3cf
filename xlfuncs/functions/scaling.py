"""Compute-optimal model size by the Chinchilla 20-tokens rule, and FLOP units.

Source: the calculator "Calculadora de tamaño de modelo de cómputo óptimo" (a
published Spanish calculator page, this project's specification). Training compute
is C = 6·N·D FLOPs for N parameters and D tokens (Kaplan et al. 2020, arXiv
2001.08361); Hoffmann et al. 2022 (arXiv 2203.15556) found the loss-optimal split
keeps about r = 20 tokens per parameter. With D = r·N, C = 6·r·N², so
N = √(C / (6r)): doubling the budget multiplies N by √2. Budgets are in
petaFLOP/s-days: 1e15 FLOP/s for 86,400 s, that is 8.64e19 FLOPs. Every function
takes scalars or numpy arrays and broadcasts.
"""

from __future__ import annotations

from ..data.units import (
    CHINCHILLA_TOKENS_PER_PARAM,
    FLOPS_PER_PARAM_TOKEN,
    FLOPS_PER_PFDAY,
)
from ..excel.ops import sqrt
from ..registry import Floats, Numbers, formula


@formula("CHINCHILLA_PARAMS", unit="parameters")
def chinchilla_params(
    budget_pf_days: Numbers,
    tokens_per_param: Numbers = CHINCHILLA_TOKENS_PER_PARAM,
) -> Floats:
    """Compute-optimal parameter count for a budget in PF/s-days: N = √(C·8.64e19/(6r)).

    Formula: ``sqrt(C * 8.64e19 / (6 * r))``, inverting C = 6·N·D with D = r·N.

    Returns
    -------
    float or ndarray
        Parameters N, a plain count (65.7 billion is 6.57e10).

    References
    ----------
    "Calculadora de tamaño de modelo de cómputo óptimo"; Hoffmann et al.
    2022, "Training Compute-Optimal Large Language Models", arXiv 2203.15556.

    Examples
    --------
    6,000 PF/s-days at 20 tokens per parameter, the calculator's worked example:

    >>> chinchilla_params(6000)
    65726706900.6...
    >>> f"{chinchilla_params(6000) / 1e9:.1f} B"
    '65.7 B'
    """
    flops = budget_pf_days * FLOPS_PER_PFDAY
    return sqrt(flops / (FLOPS_PER_PARAM_TOKEN * tokens_per_param))


@formula("CHINCHILLA_TOKENS", unit="tokens")
def chinchilla_tokens(
    budget_pf_days: Numbers,
    tokens_per_param: Numbers = CHINCHILLA_TOKENS_PER_PARAM,
) -> Floats:
    """Compute-optimal training tokens for a budget in PF/s-days: D = r·N.

    Formula: ``r * sqrt(C * 8.64e19 / (6 * r))``.

    Returns
    -------
    float or ndarray
        Training tokens D, a plain count (1.31 trillion is 1.31e12).

    References
    ----------
    "Calculadora de tamaño de modelo de cómputo óptimo" (D = r·N).

    Examples
    --------
    >>> f"{chinchilla_tokens(6000) / 1e12:.2f} T"
    '1.31 T'
    """
    return tokens_per_param * chinchilla_params(budget_pf_days, tokens_per_param)


@formula("CHINCHILLA_TOKENS_FOR_PARAMS", unit="tokens")
def chinchilla_tokens_for_params(
    params: Numbers, tokens_per_param: Numbers = CHINCHILLA_TOKENS_PER_PARAM
) -> Floats:
    """Tokens a model of a given size should see at the compute optimum: D = r·N.

    Formula: ``r * N``.

    Returns
    -------
    float or ndarray
        Training tokens D.

    References
    ----------
    Hoffmann et al. 2022, arXiv 2203.15556: Chinchilla, 70 B parameters, was
    trained on 1.4 T tokens.

    Examples
    --------
    >>> chinchilla_tokens_for_params(70e9)
    1400000000000.0
    """
    return tokens_per_param * params


@formula("CHINCHILLA_BUDGET", unit="PF/s-days")
def chinchilla_budget(
    params: Numbers, tokens_per_param: Numbers = CHINCHILLA_TOKENS_PER_PARAM
) -> Floats:
    """PF/s-days a model of N parameters needs at the optimum: 6·r·N² / 8.64e19.

    Formula: ``6 * N * (r * N) / 8.64e19``, the inverse of CHINCHILLA_PARAMS.

    Returns
    -------
    float or ndarray
        Compute budget in petaFLOP/s-days.

    References
    ----------
    "Calculadora de tamaño de modelo de cómputo óptimo", read backwards.

    Examples
    --------
    >>> round(chinchilla_budget(65726706900.62))
    6000
    """
    tokens = tokens_per_param * params
    return FLOPS_PER_PARAM_TOKEN * params * tokens / FLOPS_PER_PFDAY


@formula("ISOFLOP_TOKENS", unit="tokens")
def isoflop_tokens(budget_pf_days: Numbers, params: Numbers) -> Floats:
    """Tokens that spend a budget on a model of N parameters: D = C·8.64e19 / (6N).

    Formula: ``C * 8.64e19 / (6 * N)``: a point on the budget's IsoFLOP curve.

    Returns
    -------
    float or ndarray
        Training tokens D.

    References
    ----------
    Hoffmann et al. 2022, arXiv 2203.15556, section 3.2 (IsoFLOP profiles).

    Examples
    --------
    The worked example's budget on a 65.7 B model gives its 1.31 T tokens:

    >>> f"{isoflop_tokens(6000, 65.7267069e9) / 1e12:.2f} T"
    '1.31 T'
    """
    return budget_pf_days * FLOPS_PER_PFDAY / (FLOPS_PER_PARAM_TOKEN * params)


@formula("TRAINING_FLOPS", unit="FLOPs")
def training_flops(params: Numbers, tokens: Numbers) -> Floats:
    """Training compute of a dense transformer in FLOPs: 6·N·D.

    Formula: ``6 * N * D`` (2 FLOPs per parameter per token forward, 4 backward).

    Returns
    -------
    float or ndarray
        Floating-point operations.

    References
    ----------
    Kaplan et al. 2020, arXiv 2001.08361, section 2.1. GPT-3 (Brown et al. 2020,
    table D.1): 175 B parameters on 300 B tokens, 3.64e3 PF/s-days.

    Examples
    --------
    >>> training_flops(175e9, 300e9)
    3.15e+23
    """
    return FLOPS_PER_PARAM_TOKEN * params * tokens


@formula("PFDAYS_TO_FLOPS", unit="FLOPs")
def pfdays_to_flops(value: Numbers) -> Floats:
    """Convert petaFLOP/s-days to FLOPs: 1 PF/s-day = 1e15 × 86,400 = 8.64e19 FLOPs.

    Formula: ``value * 8.64e19``.

    Returns
    -------
    float or ndarray
        FLOPs.

    References
    ----------
    "Calculadora de tamaño de modelo de cómputo óptimo": "¿Qué es un
    petaFLOP/s-día?".

    Examples
    --------
    >>> pfdays_to_flops(1)
    8.64e+19
    """
    return value * FLOPS_PER_PFDAY


@formula("FLOPS_TO_PFDAYS", unit="PF/s-days")
def flops_to_pfdays(value: Numbers) -> Floats:
    """Convert FLOPs to petaFLOP/s-days (8.64e19 FLOPs each).

    Formula: ``value / 8.64e19``.

    Returns
    -------
    float or ndarray
        PF/s-days.

    References
    ----------
    Brown et al. 2020 report GPT-3's training compute as 3.64e3 PF/s-days.

    Examples
    --------
    >>> round(flops_to_pfdays(3.15e23))
    3646
    """
    return value / FLOPS_PER_PFDAY
