"""What a model's shape means for a step, a prompt or a cache: written once.

Plain Python over trees, called from the serving functions' bodies (a helper's
own variables are not parts; the body's variable that holds its result is):

- the cache a sequence of s tokens keeps: ``cached_tokens``, summed over the
  layers, a windowed layer's stopping at its window;
- the pairs of tokens causal attention computes over a prompt:
  ``attention_pairs``, a windowed layer's growing only up to its window;
- a mixture's expert weights, and those a batch leaves untouched;
- the shapes no model has (active parameters above the total, more experts a
  token than there are): ``refused_shape``.
"""

from __future__ import annotations

from typing import Any

from ..excel.ops import fail, minimum, where

#: FLOPs of one decoded token's attention over a cached token, per attention
#: dimension: QKᵀ and the weighted sum of V, 2 FLOPs a product each: 2 · 2.
ATTENTION_DECODE = 4
#: The same per pair of prompt tokens a causal mask keeps: 2 · 2.
ATTENTION_PREFILL = 4


def cached_tokens(seq_len: Any, layers: Any, window: Any, windowed_layers: Any) -> Any:
    """Tokens cached for one sequence of ``seq_len``, summed over the layers:
    all of them in a full-attention layer, at most ``window`` in a windowed
    one (a window of 0: none)."""
    w = where(window > 0, window, seq_len)
    return (layers - windowed_layers) * seq_len + windowed_layers * minimum(seq_len, w)


def attention_pairs(
    prompt_tokens: Any, layers: Any, window: Any, windowed_layers: Any
) -> Any:
    """Pairs of a prompt's tokens causal attention relates, summed over the
    layers: p²/2 in a full layer; in a windowed one each token sees at most
    the window: w·p − w²/2 once the prompt is longer than w."""
    p = prompt_tokens
    w = where(window > 0, window, p)
    windowed = where(p <= w, p * p / 2, w * p - w * w / 2)
    return (layers - windowed_layers) * p * p / 2 + windowed_layers * windowed


def expert_params(params: Any, active: Any, experts: Any, per_token: Any) -> Any:
    """A mixture's routed experts' parameters, all layers together: from the
    published total N and active A, with E experts a layer and k a token,
    (N − A) · E / (E − k); 0 for a dense model (E = k = 1)."""
    guarded = where(experts > per_token, experts - per_token, 1)
    return where(experts > per_token, (params - active) * experts / guarded, 0)


def experts_untouched(
    params: Any, active: Any, experts: Any, per_token: Any, tokens: Any
) -> Any:
    """Parameters of the experts that none of ``tokens`` is routed to, on
    average: each expert is missed by all with probability (1 − k/E)^B."""
    missed = (1 - per_token / experts) ** tokens
    return expert_params(params, active, experts, per_token) * missed


def refused_shape(
    result: Any, params: Any, active: Any, experts: Any, per_token: Any
) -> Any:
    """``result``, or #NUM! with the reason for a shape no model has."""
    too_many = fail("#NUM!", "experts_per_token must not exceed experts")
    too_active = fail("#NUM!", "active_params must not exceed params")
    return where(
        active > params, too_active, where(per_token > experts, too_many, result)
    )


__all__ = [
    "ATTENTION_DECODE",
    "ATTENTION_PREFILL",
    "attention_pairs",
    "cached_tokens",
    "expert_params",
    "experts_untouched",
    "refused_shape",
]
