"""What a cluster delivers: compute budgets, training days, FLOPs per token, MFU.

These connect hardware to the compute budget of :mod:`xlfuncs.functions.scaling`: *this
many GPUs, at this utilisation, for this long, buy this many PF/s-days*, and back.
Peaks are dense TFLOP/s per accelerator (see :mod:`xlfuncs.data.accelerators`).

Model FLOPs per token follow Kaplan et al. 2020 (arXiv 2001.08361): 6·N for a
dense transformer's forward and backward pass, plus the attention term 12·L·H·Q·T
(H heads of size Q) that PaLM's MFU definition adds (Chowdhery et al. 2022,
arXiv 2204.02311, appendix B). MFU counts model FLOPs only: recomputed
activations are hardware FLOPs (HFU), not model FLOPs. Every function broadcasts
like a ufunc.
"""

from __future__ import annotations

from typing import Any

from ..data.units import (
    FLOPS_PER_PARAM_TOKEN,
    FLOPS_PER_TFLOPS,
    HOURS_PER_DAY,
    PFDAYS_PER_TFLOPS_DAY,
    SECONDS_PER_DAY,
)
from ..excel.ops import choose, fail, omitted, where
from ..registry import (
    Floats,
    Numbers,
    OptionalName,
    formula,
)
from ..registry.lookups import recompute_code

#: Model FLOPs over hardware FLOPs with full recomputation: 6 a parameter and
#: token for the model, 8 on the GPUs (a second forward pass).
MODEL_OVER_RECOMPUTED = 6 / 8


@formula("CLUSTER_PFDAYS", unit="PF/s-days")
def cluster_pfdays(
    gpus: Numbers, peak_tflops_per_gpu: Numbers, mfu: Numbers, days: Numbers
) -> Floats:
    """Compute budget a cluster delivers in PF/s-days: G × peak × MFU × days / 1000.

    Formula: ``gpus * peak_tflops * mfu * days / 1000`` (1 PF/s-day is 1,000
    TFLOP/s-days).

    Returns
    -------
    float or ndarray
        Useful (model) compute in petaFLOP/s-days.

    References
    ----------
    PF/s-day as defined by the "Calculadora de tamaño de modelo de cómputo
    óptimo" calculator (8.64e19 FLOPs).

    Examples
    --------
    1,024 H100s (989.4 TFLOP/s bf16) at 40 % MFU for 30 days:

    >>> round(cluster_pfdays(1024, 989.4, 0.4, 30))
    12158
    """
    return gpus * peak_tflops_per_gpu * mfu * days * PFDAYS_PER_TFLOPS_DAY


@formula("CLUSTER_DAYS", unit="days")
def cluster_days(
    budget_pf_days: Numbers, gpus: Numbers, peak_tflops_per_gpu: Numbers, mfu: Numbers
) -> Floats:
    """Days a cluster needs to spend a compute budget: 1000 × C / (G × peak × MFU).

    Formula: ``budget * 1000 / (gpus * peak_tflops * mfu)``, the inverse of
    CLUSTER_PFDAYS.

    Returns
    -------
    float or ndarray
        Wall-clock days.

    References
    ----------
    As CLUSTER_PFDAYS.

    Examples
    --------
    The worked example's 6,000 PF/s-days on 1,024 H100s at 40 % MFU:

    >>> round(cluster_days(6000, 1024, 989.4, 0.4), 2)
    14.81
    """
    return budget_pf_days / (gpus * peak_tflops_per_gpu * mfu * PFDAYS_PER_TFLOPS_DAY)


def _per_token(
    params: Any, layers: Any, attention_width: Any, seq_len: Any, k: Any
) -> Any:
    """k·N, plus the attention FLOPs per token 2k·L·(H·Q)·T when all three are
    given (PaLM's 12·L·(H·Q)·T at k = 6); #VALUE! when only some are. Left
    out: the product of the tests; any: their sum (not AND or OR, which would
    fold a range into one value)."""
    none = omitted(layers) * omitted(attention_width) * omitted(seq_len)
    some = omitted(layers) + omitted(attention_width) + omitted(seq_len)
    partial = fail(
        "#VALUE!", "give layers, attention_width and seq_len together, or none"
    )
    with_attention = k * params + 2 * k * layers * attention_width * seq_len
    return where(none, k * params, where(some, partial, with_attention))


@formula("TRAINING_DAYS", unit="days")
def training_days(
    params: Numbers,
    tokens: Numbers,
    gpus: Numbers,
    achieved_tflops_per_gpu: Numbers,
    flops_per_param_token: Numbers = FLOPS_PER_PARAM_TOKEN,
    layers: Numbers | None = None,
    attention_width: Numbers | None = None,
    seq_len: Numbers | None = None,
) -> Floats:
    """Days to train N parameters on D tokens: k·N·D / (G × achieved TFLOP/s) / 86,400.

    Formula: ``k * (N + 2·L·(H·Q)·T) * D / (gpus * achieved_tflops * 1e12) /
    86400`` with k = 6, or k = 8 when activations are recomputed (Narayanan et
    al. 2021). The attention term, PaLM's 12·L·(H·Q)·T at k = 6 (as
    FLOPS_PER_TOKEN), comes only with all of layers, attention_width (heads ×
    head size) and seq_len: left out, the time is 14 % short for a 7 B model
    at 4,096 tokens. N counts the embedding parameters too, as 6·N does.

    Returns
    -------
    float or ndarray
        Wall-clock days.

    References
    ----------
    Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU
    Clusters Using Megatron-LM", arXiv 2104.04473, section 5.1: GPT-3 175 B on
    300 B tokens with 1,024 A100s at 140 TFLOP/s takes about 34 days; their
    FLOPs per iteration, 96·B·s·l·h²·(1 + s/6h + V/16lh), hold the same
    attention term, 16·l·h·s per token at k = 8. Chowdhery et al. 2022 (PaLM),
    appendix B, for 12·L·(H·Q)·T at k = 6.

    Examples
    --------
    >>> round(training_days(175e9, 300e9, 1024, 140, 8), 1)
    33.9

    With GPT-3's shape (96 layers, 96 heads of 128, 2,048 tokens) the
    attention adds 2.8 %:

    >>> round(training_days(175e9, 300e9, 1024, 140, 8, 96, 12288, 2048), 1)
    34.8
    """
    per_token = _per_token(
        params, layers, attention_width, seq_len, flops_per_param_token
    )
    flops = per_token * tokens
    return flops / (gpus * achieved_tflops_per_gpu * FLOPS_PER_TFLOPS) / SECONDS_PER_DAY


@formula("FLOPS_PER_TOKEN", unit="FLOPs/token")
def flops_per_token(
    params: Numbers,
    layers: Numbers | None = None,
    attention_width: Numbers | None = None,
    seq_len: Numbers | None = None,
) -> Floats:
    """Training FLOPs per token: 6·N, plus PaLM's attention term 12·L·(H·Q)·T if given.

    Formula: ``6 * N + 12 * L * (H * Q) * T``; the second term only with all of
    layers, attention_width (H heads × head size Q) and seq_len.

    Returns
    -------
    float or ndarray
        Model FLOPs per token for forward and backward passes.

    References
    ----------
    Chowdhery et al. 2022, "PaLM: Scaling Language Modeling with Pathways",
    arXiv 2204.02311, appendix B.

    Examples
    --------
    PaLM 540B: 118 layers, attention width 48 × 256 = 12,288, 2,048 tokens:

    >>> f"{flops_per_token(540.35e9, 118, 12288, 2048):.4e}"
    '3.2777e+12'
    """
    return _per_token(params, layers, attention_width, seq_len, FLOPS_PER_PARAM_TOKEN)


@formula("MFU", unit="fraction")
def mfu(
    tokens_per_sec_per_gpu: Numbers,
    params: Numbers,
    peak_tflops_per_gpu: Numbers,
    layers: Numbers | None = None,
    attention_width: Numbers | None = None,
    seq_len: Numbers | None = None,
) -> Floats:
    """Model FLOPs utilisation: tokens/s per GPU × FLOPs per token / peak FLOP/s.

    Formula: ``V * (6N + 12·L·(H·Q)·T) / (peak * 1e12)``.

    Returns
    -------
    float or ndarray
        MFU as a fraction (0.462 is 46.2 %).

    References
    ----------
    Chowdhery et al. 2022 (PaLM), appendix B: 238.3 K tokens/s on 6,144 TPU v4
    chips at 275 TFLOP/s gives 46.2 % MFU.

    Examples
    --------
    238.3 K tokens/s over 6,144 chips is 38.7858 tokens/s per chip:

    >>> round(mfu(38.7858, 540.35e9, 275, 118, 12288, 2048), 3)
    0.462
    """
    per_token = _per_token(
        params, layers, attention_width, seq_len, FLOPS_PER_PARAM_TOKEN
    )
    return tokens_per_sec_per_gpu * per_token / (peak_tflops_per_gpu * FLOPS_PER_TFLOPS)


@formula("RECOMPUTE_MFU", unit="fraction")
def recompute_mfu(hfu: Numbers, recompute: OptionalName = "none") -> Floats:
    """MFU left by recomputing activations: utilisation × model ÷ hardware FLOPs.

    Formula: ``hfu * 6 / 8`` with full recomputation (each layer's forward pass
    runs again in the backward: 8 FLOPs a parameter and token on the GPUs for
    the model's 6), ``hfu`` otherwise (selective recomputation redoes only the
    attention's scores, a few per cent at most).

    Returns
    -------
    float or ndarray
        MFU as a fraction: the mfu of TOKENS_PER_SEC_PER_GPU.

    References
    ----------
    Chowdhery et al. 2022 (PaLM), appendix B: 46.2 % MFU, 57.8 % hardware
    FLOPs utilisation with rematerialization. Korthikanti et al. 2022,
    "Reducing Activation Recomputation in Large Transformer Models", arXiv
    2205.05198: full recomputation adds a forward pass (33 % more compute);
    selective recomputation, 2.7 % for GPT-3 175B.

    Examples
    --------
    GPUs busy at 40 % of their peak with full recomputation do 30 % of useful
    model work:

    >>> round(recompute_mfu(0.4, "full"), 3)
    0.3
    >>> recompute_mfu(0.4)
    0.4
    """
    return hfu * choose(recompute_code(recompute), 1, 1, MODEL_OVER_RECOMPUTED)


@formula("TOKENS_PER_SEC_PER_GPU", unit="tokens/s")
def tokens_per_sec_per_gpu(
    params: Numbers,
    peak_tflops_per_gpu: Numbers,
    mfu: Numbers,
    layers: Numbers | None = None,
    attention_width: Numbers | None = None,
    seq_len: Numbers | None = None,
) -> Floats:
    """Expected training tokens/s of one GPU: MFU × peak FLOP/s / FLOPs per token.

    Formula: ``mfu * peak * 1e12 / (6N + 12·L·(H·Q)·T)``: the V of the
    fine-tuning functions when no benchmark exists.

    Returns
    -------
    float or ndarray
        Tokens per second per accelerator.

    References
    ----------
    The inverse of MFU (Chowdhery et al. 2022, appendix B).

    Examples
    --------
    A 7 B model on an H100 (989.4 TFLOP/s) at 40 % MFU:

    >>> round(tokens_per_sec_per_gpu(7e9, 989.4, 0.4))
    9423
    """
    per_token = _per_token(
        params, layers, attention_width, seq_len, FLOPS_PER_PARAM_TOKEN
    )
    return mfu * peak_tflops_per_gpu * FLOPS_PER_TFLOPS / per_token


@formula("CLUSTER_GPU_HOURS", unit="GPU-hours")
def cluster_gpu_hours(gpus: Numbers, days: Numbers) -> Floats:
    """GPU-hours a cluster consumes: GPUs × days × 24.

    Formula: ``gpus * days * 24``.

    Returns
    -------
    float or ndarray
        GPU-hours, the unit clouds bill in.

    References
    ----------
    Unit conversion (24 hours a day).

    Examples
    --------
    >>> cluster_gpu_hours(1024, 30)
    737280.0
    """
    return gpus * days * HOURS_PER_DAY


@formula("CLUSTER_COST", unit="currency")
def cluster_cost(gpus: Numbers, days: Numbers, price_per_gpu_hour: Numbers) -> Floats:
    """Cost of running a cluster: GPUs × days × 24 × price per GPU-hour.

    Formula: ``gpus * days * 24 * price``.

    Returns
    -------
    float or ndarray
        Cost in the currency of ``price_per_gpu_hour``.

    References
    ----------
    GPU-hours × price, as FT_COST for fine-tuning.

    Examples
    --------
    >>> cluster_cost(1024, 30, 2.5)
    1843200.0
    """
    return cluster_gpu_hours(gpus, days) * price_per_gpu_hour
