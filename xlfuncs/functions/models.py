"""Published models by name, from the cited table in :mod:`xlfuncs.data.models`."""

from __future__ import annotations

from ..registry import formula
from ..registry.lookups import model_field


@formula("MODEL_SPEC", unit="count")
def model_spec(model: str, field: str) -> float:
    """A published model's shape by name: params, layers, d_model, heads, kv_heads, ….

    Formula: a table look-up. Fields: params (the published count),
    active_params (per token; params for a dense model), layers, d_model,
    heads, kv_heads, head_dim, attention_width (heads × head_dim),
    kv_width (kv_heads × head_dim), ffn_dim (intermediate_size, per expert),
    vocab, context, experts and experts_per_token (a mixture of experts' MLP
    experts per layer and those a token is routed to; 1 and 1 for a dense
    model). Hugging Face config names (hidden_size, num_key_value_heads,
    num_local_experts, num_experts_per_tok, …) work too. ``xlfuncs models``
    lists the models.

    Returns
    -------
    float
        The figure, a count (parameters, layers, heads, dimensions, tokens).
        An unknown model or field gives ``#N/A``.

    References
    ----------
    Each model's config.json or paper, cited per model on the Models sheet of
    the template workbooks and in docs/functions.md; e.g. meta-llama/Llama-3.1-70B's
    config.json: 80 layers, hidden size 8,192, 64 heads, 8 key/value heads;
    mistralai/Mixtral-8x7B-v0.1's: "num_local_experts": 8,
    "num_experts_per_tok": 2.

    Examples
    --------
    >>> model_spec("Llama 3.1 70B", "kv_heads")
    8.0
    >>> model_spec("meta-llama/Llama-2-7b-hf", "params")
    6738415616.0
    >>> model_spec("Mixtral 8x7B", "active_params")
    12900000000.0
    >>> model_spec("Mixtral 8x7B", "num_local_experts")
    8.0
    """
    return model_field(model, field)
