"""What a step keeps besides the model: activations for the backward pass, the cache.

Activations follow Korthikanti et al. 2022 (arXiv 2205.05198), with tensor and
sequence parallelism and selective or full recomputation; the key/value cache
of serving follows kipply 2022 ("Transformer Inference Arithmetic"), with
grouped-query attention, latent attention and windowed layers.
"""

from __future__ import annotations

from ...data.units import BYTES_PER_GB, HALF_PRECISION_BYTES
from ...excel.ops import choose
from ...registry import Floats, Numbers, OptionalName, formula
from ...registry.lookups import recompute_code
from ..models import model_spec
from ..shape import cached_tokens

# Korthikanti et al. 2022, section 4.1, eq. 1: bytes per layer stored for the
# backward pass, s·b·h·(34 + 5·a·s/h) with 16-bit activations and 1-byte dropout
# masks: 34·s·b·h for the linear parts (attention 11, MLP 19, layer norms 4) and
# 5·a·s²·b for the attention scores, softmax and its dropout. Section 5: full
# recomputation keeps 2·s·b·h (each layer's 16-bit input).
LINEAR_BYTES = 34
SCORE_BYTES = 5
INPUT_BYTES = 2
#: Keys and values: two cached vectors per key/value head per token.
KV = 2


@formula("ACTIVATION_GB", unit="GB")
def activation_gb(
    layers: Numbers,
    d_model: Numbers,
    heads: Numbers,
    seq_len: Numbers,
    micro_batch: Numbers,
    tensor_parallel: Numbers = 1,
    recompute: OptionalName = "none",
) -> Floats:
    """Per-GPU GB of activations kept for the backward pass, after Korthikanti et al.

    Formula: per layer, in bytes, ``s·b·h·(34 + 5·a·s/h) / t`` with no
    recomputation, ``34·s·b·h / t`` with selective recomputation of the
    attention scores, ``2·s·b·h`` with full recomputation (each layer's input
    only); times L layers, over 1e9. s is seq_len, b micro_batch, h d_model, a
    heads, t tensor_parallel. Tensor parallelism is assumed to come with
    sequence parallelism, so t divides everything but full recomputation's
    inputs (the paper's table 2 does not divide those). 16-bit activations,
    dropout masks of one byte, no FlashAttention: FlashAttention stores no
    attention scores, as "selective" assumes. With pipeline parallelism and
    1F1B, the first stage holds L layers' worth of micro-batches: give all the
    layers (section 4.2.3).

    Returns
    -------
    float or ndarray
        GB (10^9 bytes) per GPU, for one micro-batch in flight per layer.

    References
    ----------
    Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
    Transformer Models", arXiv 2205.05198, section 4.1 eq. 1 and table 2.
    GPT-3 175B (h = 12,288, a = 96, s = 2,048): 5·a·s/h = 80, so selective
    recomputation saves 80 / 114 = 70 % of the activation memory.

    Examples
    --------
    The paper's 22 B model (48 layers, h 6,144, 64 heads, s 2,048, b 4) on 8
    tensor-parallel GPUs, all activations kept:

    >>> round(activation_gb(48, 6144, 64, 2048, 4, 8), 3)
    42.48
    >>> round(activation_gb(48, 6144, 64, 2048, 4, 8, "selective"), 3)
    10.268
    >>> round(activation_gb(48, 6144, 64, 2048, 4, 8, "full"), 3)
    4.832
    """
    kept = seq_len * micro_batch * d_model * layers
    scores = SCORE_BYTES * heads * seq_len / d_model
    kept_bytes = choose(
        recompute_code(recompute),
        kept * (LINEAR_BYTES + scores) / tensor_parallel,
        LINEAR_BYTES * kept / tensor_parallel,
        INPUT_BYTES * kept,
    )
    return kept_bytes / BYTES_PER_GB


@formula("KV_CACHE_GB", unit="GB")
def kv_cache_gb(
    layers: Numbers,
    kv_heads: Numbers,
    head_dim: Numbers,
    seq_len: Numbers,
    batch: Numbers,
    bytes_per_value: Numbers = HALF_PRECISION_BYTES,
    window: Numbers = 0,
    windowed_layers: Numbers = 0,
) -> Floats:
    """GB of the key/value cache: 2 (K, V) × kv_heads × head_dim × cached tokens × B.

    Formula: ``2 · kv_heads · head_dim · T · batch · bytes / 1e9`` with T the
    tokens cached over the layers: seq_len in each full-attention layer, at
    most the window in each windowed one (L − Lw) · s + Lw · min(s, w). With
    grouped-query attention kv_heads is the number of key/value heads (8 for
    Llama 3 70B), not of query heads: counting the query heads overstates the
    cache 8 times there. Latent attention caches one latent per token and
    layer: MODEL_KV_CACHE_GB counts it by name.

    Returns
    -------
    float or ndarray
        GB (10^9 bytes) for the whole batch; split over tensor-parallel GPUs
        by dividing by their number (at most kv_heads of them).

    References
    ----------
    kipply (C. Chen), "Transformer Inference Arithmetic", 2022,
    https://kipp.ly/transformer-inference-arithmetic/: "2·2·n_layers·n_heads·
    d_head" bytes per token in 16 bits, 2,097,152 for a 52 B model with 64
    layers and d_model 8,192 (64 heads of 128). Beltagy et al. 2020,
    "Longformer", arXiv 2004.05150: a sliding window's layer keeps w tokens.

    Examples
    --------
    kipply's 52 B model (64 layers, 64 heads of 128), 2,097,152 bytes a token,
    for a sequence of 2,048 tokens:

    >>> kv_cache_gb(64, 64, 128, 2048, 1)
    4.294967296

    Llama 3 70B (80 layers, 8 key/value heads of 128) at 8,192 tokens, batch 8:

    >>> round(kv_cache_gb(80, 8, 128, 8192, 8), 2)
    21.47

    Gemma 3 27B (62 layers, 16 key/value heads of 128; 52 layers of them
    windowed at 1,024 tokens) at 32,768 tokens: 10 × 32,768 + 52 × 1,024
    tokens cached, 8,192 bytes each (2 × 16 × 128 values of 2 bytes).

    >>> round(kv_cache_gb(62, 16, 128, 32768, 1, 2, 1024, 52), 3)
    3.121
    """
    cached = cached_tokens(seq_len, layers, window, windowed_layers)
    return KV * kv_heads * head_dim * cached * batch * bytes_per_value / BYTES_PER_GB


@formula("MODEL_KV_CACHE_GB", unit="GB")
def model_kv_cache_gb(
    model: str,
    seq_len: Numbers,
    batch: Numbers = 1,
    bytes_per_value: Numbers = HALF_PRECISION_BYTES,
) -> Floats:
    """GB of a named model's key/value cache for a batch at a context length.

    Formula: ``cache_width · T · batch · bytes / 1e9``: cache_width values a
    token and layer (a key and a value for each of kv_heads heads of
    head_dim, or latent attention's latent and rotary key, 512 + 64 for
    DeepSeek-V3), T the tokens cached over the layers, a windowed layer's at
    most its window (Gemma 3's local layers 1,024, gpt-oss's 128, Llama 4's
    chunked layers 8,192).

    Returns
    -------
    float or ndarray
        GB (10^9 bytes) for the whole batch, all layers.

    References
    ----------
    DeepSeek-AI 2024, "DeepSeek-V3 Technical Report", arXiv 2412.19437,
    section 2.1.1: "only the blue-boxed vectors (i.e., c_t^KV and k_t^R) need
    to be cached"; each model's config.json (kv_lora_rank, qk_rope_head_dim,
    sliding_window, layer_types).

    Examples
    --------
    DeepSeek-V3 (61 layers, 576 values a token and layer) at 32,768 tokens in
    16 bits: 70,272 bytes a token.

    >>> round(model_kv_cache_gb("DeepSeek-V3", 32768), 3)
    2.303
    """
    cached = cached_tokens(
        seq_len,
        model_spec(model, "layers"),
        model_spec(model, "window"),
        model_spec(model, "windowed_layers"),
    )
    values = model_spec(model, "cache_width") * cached
    return values * batch * bytes_per_value / BYTES_PER_GB


__all__ = ["activation_gb", "kv_cache_gb", "model_kv_cache_gb"]
