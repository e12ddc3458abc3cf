"""A model's shape, and the parameters it implies.

:class:`Model` is one row of the published-models table
(:mod:`xlfuncs.data.models`, whose docstring gives the conventions of each
field) or a model read from a config.json (:mod:`xlfuncs.data.configs`).
:func:`recount` counts the parameters of a shape, written from the
architectures' papers and reference code: the table's test (every published
count is its shape within 1 %) and the counts of a model read from a file use
it, one definition.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Model:
    """One published model: its shape, its parameter count, and their sources."""

    name: str  # display name, e.g. "Llama 3.1 70B"
    aliases: tuple[str, ...]  # repository ids and other spellings
    params: int  # the published count (see the module's conventions)
    layers: int
    d_model: int  # hidden size
    heads: int  # query heads
    kv_heads: int  # key/value heads: fewer than heads with grouped-query attention
    head_dim: int
    ffn_dim: int  # intermediate size (per matrix of a gated MLP; per expert)
    vocab: int
    context: int  # tokens
    source: str  # where the shape is published
    params_source: str  # where the parameter count is published
    active_params: int | None = None  # per token, mixtures of experts only
    gated_mlp: bool = True  # three MLP matrices (SwiGLU, GeGLU), else two
    tied_embeddings: bool = False  # one vocab × d_model matrix, not two
    qkv_bias: bool = False  # biases on the query, key and value projections
    linear_bias: bool = False  # biases on every linear layer (GPT-3)
    layer_norm: bool = False  # LayerNorm (weight and bias), else RMSNorm
    norms_per_layer: int = 2
    learned_positions: bool = False  # a context × d_model position table
    relative_positions: bool = False  # Transformer-XL relative positions
    experts: int | None = None  # MLP experts per layer
    experts_per_token: int | None = None
    # A mixture's experts every token uses besides its routed ones (DeepSeek-V3
    # and Llama 4: 1), each ffn_dim wide; and its layers with a dense MLP of
    # dense_ffn_dim instead of experts (DeepSeek-V3's first 3, Llama 4
    # Maverick's every other layer).
    shared_experts: int = 0
    dense_layers: int = 0
    dense_ffn_dim: int | None = None
    # Attention. "gqa": each layer caches keys and values for each of kv_heads
    # heads of head_dim (multi-head and grouped-query attention); "mla":
    # multi-head latent attention (DeepSeek-V2/V3) caches one latent of
    # kv_lora_rank plus a rotary key of qk_rope_head_dim a token and layer.
    attention: str = "gqa"
    kv_lora_rank: int | None = None
    qk_rope_head_dim: int | None = None
    q_lora_rank: int | None = None
    qk_nope_head_dim: int | None = None
    v_head_dim: int | None = None
    # Layers that attend to the last ``window`` tokens only (sliding-window or
    # chunked attention: Gemma 3's local layers, gpt-oss's banded ones, Llama
    # 4's chunked ones); their cache stops growing at the window.
    window: int | None = None
    windowed_layers: int = 0
    # Parameter-count details for the recount (tests/test_models.py).
    o_bias: bool = False  # a bias on the attention output (gpt-oss)
    attention_sinks: bool = False  # a learned sink logit per head (gpt-oss)
    qk_norm: bool = False  # RMSNorm on each query and key head (Qwen3, Gemma 3)
    router_bias: bool = False  # a bias on the router (gpt-oss)
    expert_bias: bool = False  # biases in the experts' matrices (gpt-oss)
    extra_params: int = 0  # counted apart from the text model: a vision tower
    # The published active count includes the input embedding (Mistral, Qwen,
    # Meta, DeepSeek); gpt-oss's counts the unembedding only.
    active_embedding: bool = True

    @property
    def attention_width(self) -> int:
        """Query width: heads × head_dim (PaLM 540B: 12,288, not d_model)."""
        return self.heads * self.head_dim

    @property
    def kv_width(self) -> int:
        """Width of each of the key and value projections: kv_heads × head_dim;
        for latent attention, the latent and the rotary key it projects to."""
        if self.attention == "mla":
            return int(self.kv_lora_rank or 0) + int(self.qk_rope_head_dim or 0)
        return self.kv_heads * self.head_dim

    @property
    def cache_width(self) -> int:
        """Values a layer caches per token: a key and a value per KV head (2 ×
        kv_width), or the latent and rotary key of latent attention."""
        return self.kv_width if self.attention == "mla" else 2 * self.kv_width

    @property
    def cache_heads(self) -> int:
        """The heads the cache is split by under tensor parallelism: kv_heads,
        1 for latent attention (one latent, held whole on every GPU)."""
        return 1 if self.attention == "mla" else self.kv_heads

    @property
    def mlp_matrices(self) -> int:
        """Linear layers of an MLP: gate, up and down when gated, else two."""
        return 3 if self.gated_mlp else 2

    @property
    def embedding_matrices(self) -> int:
        """The input embeddings and the output layer: one matrix if tied."""
        return 1 if self.tied_embeddings else 2

    @property
    def moe_layers(self) -> int:
        """Layers with experts: all but the dense ones of a mixture; 0 if dense."""
        return self.layers - self.dense_layers if self.experts else 0

    @property
    def active_ffn_dim(self) -> float:
        """The MLP width a token goes through, a layer on average: a dense
        model's ffn_dim; a mixture's k routed and its shared experts of ffn_dim
        in its expert layers, dense_ffn_dim in its dense ones."""
        if not self.experts:
            return float(self.ffn_dim)
        routed = (self.experts_per_token or 1) + self.shared_experts
        dense = self.dense_layers * (self.dense_ffn_dim or 0)
        return (self.moe_layers * self.ffn_dim * routed + dense) / self.layers

    @property
    def active(self) -> int:
        """Parameters a token uses: active_params, or params for a dense model."""
        return self.params if self.active_params is None else self.active_params


# ------------------------------------------------------------------ recount


def _mlp(m: Model, width: int, biases: bool) -> int:
    """One MLP of ``width``: three d × width matrices if gated (SwiGLU, GeGLU;
    Shazeer 2020), two if not; with biases, one per output (gpt-oss fuses
    gate and up into one matrix of 2 × width outputs with a bias each)."""
    d = m.d_model
    n = (3 if m.gated_mlp else 2) * d * width
    if biases:
        n += (2 * width if m.gated_mlp else width) + d
    return n


def _attention(m: Model) -> int:
    """One layer's attention.

    Grouped-query attention (Ainslie et al. 2023; multi-head where kv_heads =
    heads): q and o of d × heads·head_dim, k and v of d × kv_heads·head_dim,
    biases where the model has them (Qwen2's on q, k and v; gpt-oss's on all
    four; GPT-3's everywhere), Transformer-XL's position projection and its u
    and v vectors (Dai et al. 2019; Gopher, Chinchilla).

    Multi-head latent attention (DeepSeek-V2, arXiv 2405.04434, section 2.1;
    DeepSeek-V3's config): queries through a low-rank q_a (d × q_lora_rank), its
    RMSNorm and q_b (q_lora_rank × heads·(qk_nope + qk_rope)), or one d × that
    matrix without a query rank; keys and values through kv_a (d × (kv_lora_rank
    + qk_rope): the latent and the shared rotary key), its RMSNorm over the
    latent and kv_b (kv_lora_rank × heads·(qk_nope + v_head_dim)); the output o
    of heads·v_head_dim × d.

    Either way, a query and a key RMSNorm of head_dim shared by the heads
    (Qwen3, Gemma 3: qk_norm) and a learned sink logit per head (gpt-oss:
    attention_sinks).
    """
    d = m.d_model
    if m.attention == "mla":
        h = m.heads
        nope, rope = int(m.qk_nope_head_dim or 0), int(m.qk_rope_head_dim or 0)
        v, kv_rank = int(m.v_head_dim or 0), int(m.kv_lora_rank or 0)
        if m.q_lora_rank:
            n = d * m.q_lora_rank + m.q_lora_rank + m.q_lora_rank * h * (nope + rope)
        else:
            n = d * h * (nope + rope)
        n += d * (kv_rank + rope) + kv_rank + kv_rank * h * (nope + v)
        n += h * v * d
    else:
        q, kv = m.heads * m.head_dim, m.kv_heads * m.head_dim
        n = d * q + 2 * d * kv + q * d
        if m.qkv_bias or m.linear_bias:
            n += q + 2 * kv
        if m.o_bias or m.linear_bias:
            n += d  # the output projection's bias
        if m.relative_positions:
            n += d * q + 2 * q
    if m.qk_norm:
        n += 2 * m.head_dim
    if m.attention_sinks:
        n += m.heads
    return n


def recount(model: Model, active: bool = False) -> int:
    """Parameters implied by a model's shape; ``active``: those one token uses.

    Per layer: the attention (:func:`_attention`: grouped-query or latent,
    with its biases, norms and sinks), the MLP, and the norms (a weight, and a
    bias for LayerNorm; two per layer, Gemma 2 and 3 four, PaLM's parallel
    block one). The MLP of a dense model is one of ffn_dim (:func:`_mlp`). A
    mixture of experts (Shazeer et al. 2017; Mixtral, arXiv 2401.04088) has,
    in each of its layers - dense_layers, a router of d × experts (with a
    bias in gpt-oss), the experts of ffn_dim (with biases in gpt-oss) and the
    shared experts every token uses (DeepSeekMoE, arXiv 2401.06066; Llama 4's
    shared expert is as wide as a routed one, intermediate_size); and in its
    dense_layers a dense MLP of dense_ffn_dim (DeepSeek-V3's first three,
    first_k_dense_replace; Llama 4 Maverick's every other layer,
    interleave_moe_layer_step 2, of intermediate_size_mlp). Then a final norm,
    the embeddings (one matrix if tied, two if not), learned positions, and
    ``extra_params`` (a vision tower, counted by :func:`siglip_tower` and
    the others below).

    ``active`` counts experts_per_token experts of each mixture layer in place
    of all of them, and leaves out extra_params (an image encoder runs on
    images, not on each text token), and leaves out the input embedding where
    the publisher does (``active_embedding`` False: gpt-oss counts the
    unembedding only).
    """
    m = model
    d = m.d_model
    if m.experts:
        routed = int(m.experts_per_token or 0) if active else m.experts
        biases = m.expert_bias or m.linear_bias
        moe = (routed + m.shared_experts) * _mlp(m, m.ffn_dim, biases)
        moe += d * m.experts + (m.experts if m.router_bias else 0)
        dense = _mlp(m, int(m.dense_ffn_dim or m.ffn_dim), m.linear_bias)
        mlps = (m.layers - m.dense_layers) * moe + m.dense_layers * dense
    else:
        mlps = m.layers * _mlp(m, m.ffn_dim, m.linear_bias)
    norm = 2 * d if m.layer_norm else d
    total = m.layers * (_attention(m) + m.norms_per_layer * norm) + mlps + norm
    matrices = 1 if m.tied_embeddings else 2
    if active and not m.active_embedding and not m.tied_embeddings:
        matrices -= 1  # the unembedding stays: every token's logits use it
    total += matrices * m.vocab * d
    if m.learned_positions:
        total += m.context * d
    if not active:
        total += m.extra_params
    return total


# Vision towers, counted from their configs' shapes, for the published totals
# that include them (extra_params). Each is the module tree of its reference
# implementation (Hugging Face transformers), parameter by parameter.


def siglip_tower(
    hidden: int, layers: int, intermediate: int, image_size: int, patch_size: int
) -> int:
    """A SigLIP vision tower without its pooling head (Zhai et al. 2023, arXiv
    2303.15343; Gemma 3's vision_use_head false): a patch convolution with a
    bias, a position per patch, per layer q, k, v and o with biases, two
    LayerNorms and a GELU MLP with biases, and a final LayerNorm."""
    h, i = hidden, intermediate
    patches = (image_size // patch_size) ** 2
    layer = 4 * (h * h + h) + 2 * 2 * h + (h * i + i) + (i * h + h)
    return 3 * patch_size**2 * h + h + patches * h + layers * layer + 2 * h


def gemma3_projector(vision_hidden: int, d_model: int) -> int:
    """Gemma 3's multimodal projector: an RMSNorm of the image features and a
    vision_hidden × d_model projection without a bias (arXiv 2503.19786)."""
    return vision_hidden + vision_hidden * d_model


def llama4_vision(
    hidden: int,
    layers: int,
    intermediate: int,
    image_size: int,
    patch_size: int,
    projector_input: int,
    projector_output: int,
    vision_output: int,
    d_model: int,
) -> int:
    """Llama 4's vision encoder and projector (transformers' Llama4VisionModel
    and Llama4MultiModalProjector): an unfolded patch projection without a bias,
    a class embedding, a position per patch and for the class, LayerNorms
    before and after, per layer q, k, v and o with biases, two LayerNorms and a
    GELU MLP with biases; the pixel-shuffle adapter's intermediate ×
    projector_input and projector_output² matrices; the projection of
    vision_output to d_model."""
    h, i = hidden, intermediate
    positions = (image_size // patch_size) ** 2 + 1
    layer = 4 * (h * h + h) + (h * i + i) + (i * h + h) + 2 * 2 * h
    tower = 3 * patch_size**2 * h + h + positions * h + 2 * 2 * h + layers * layer
    adapter = i * projector_input + projector_output * projector_output
    return tower + adapter + vision_output * d_model


def pixtral_tower(hidden: int, layers: int, intermediate: int, patch_size: int) -> int:
    """A Pixtral vision encoder (Mistral Small 3.1's; arXiv 2410.07073): a patch
    convolution without a bias, an RMSNorm, per layer q, k, v, o and a gated
    MLP without biases and two RMSNorms (2D rotary positions: no table)."""
    h = hidden
    layer = 4 * h * h + 3 * h * intermediate + 2 * h
    return 3 * patch_size**2 * h + h + layers * layer


def mistral3_projector(
    vision_hidden: int, d_model: int, merge: int, bias: bool = False
) -> int:
    """Mistral 3's multimodal projector: an RMSNorm, the patch merger's
    (merge² · vision_hidden) × vision_hidden matrix, and two linear layers to
    d_model (biases where multimodal_projector_bias says)."""
    v = vision_hidden
    n = v + merge * merge * v * v + v * d_model + d_model * d_model
    return n + (2 * d_model if bias else 0)


__all__ = [
    "Model",
    "gemma3_projector",
    "llama4_vision",
    "mistral3_projector",
    "pixtral_tower",
    "recount",
    "siglip_tower",
]
