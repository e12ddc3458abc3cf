"""Published shapes of the open models people fine-tune, and of the papers' models.

The table backs ``MODEL_SPEC(model, field)`` in :mod:`xlfuncs.functions.models`
and the ``xlfuncs models`` listing. Each row is cited: ``source`` for its shape
(the model's Hugging Face ``config.json`` or the paper's table), ``params_source``
for its parameter count.

Conventions
-----------
* ``params`` is the published count: the figure the publisher prints where it
  prints a count (Qwen's "7.61B", Gemma 2's per-part counts, PaLM's 540.35B),
  else an exact count of the released checkpoint where the publisher prints only
  a size label (Llama 2 7B and 70B, Mistral Nemo, Phi-4: their "7B", "70B",
  "12B", "14B" are 1.5 to 4.7 % off the weights they released), else the label
  (Llama 3's "8B" is within 0.4 % of its weights). A test recounts every row
  from its shape and finds it within 1 %.
* ``active_params`` (mixture of experts only): the parameters one token uses.
* ``experts`` and ``experts_per_token`` (mixture of experts only): the MLP
  experts of each layer and how many of them a token is routed to, the
  config's ``num_local_experts`` and ``num_experts_per_tok``; ``MODEL_SPEC``
  gives 1 and 1 for a dense model.
* ``ffn_dim`` is ``intermediate_size``: for a gated MLP (SwiGLU, GeGLU) the
  width of each of its three matrices; for a mixture of experts, per expert.
* ``head_dim`` is given, not d_model / heads: Mistral Nemo and Gemma 2 27B have
  heads × head_dim smaller than d_model.
* ``context`` is the config's ``max_position_embeddings`` for Hugging Face
  models (Instruct configs may say less), the training context for the papers'.
* The other fields say what the recount needs: a gated MLP (three matrices, not
  two), tied input and output embeddings, biases, norms with a bias
  (LayerNorm) or without (RMSNorm), norms per layer (Gemma 2 has four, PaLM's
  parallel block one), learned absolute positions (GPT-3: context × d_model),
  and Transformer-XL relative positions (Gopher and Chinchilla: per layer a
  d_model × (heads × head_dim) projection of the position embeddings and two
  bias vectors of heads × head_dim, the u and v of Dai et al. 2019).
* Fine-tunes have their base's shape: DeepSeek-R1-Distill-Llama-8B is Llama 3.1
  8B, for instance. Such rows are left out rather than listed unchecked.
* Name look-up (``find_model``) ignores case, spaces, hyphens and underscores;
  it knows each model's name, its Hugging Face repository ids (with or without
  the organisation: "meta-llama/Llama-3.1-70B" and "Llama-3.1-70B") and the
  Ollama tags.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

from .names import normalize


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


MODELS: tuple[Model, ...] = (
    Model(
        name="Llama 2 7B",
        aliases=(
            "meta-llama/Llama-2-7b-hf",
            "meta-llama/Llama-2-7b",
            "meta-llama/Llama-2-7b-chat-hf",
            "llama-2-7b",
            "llama2-7b",
            "llama2:7b",
        ),
        params=6_738_415_616,
        layers=32,
        d_model=4_096,
        heads=32,
        kv_heads=32,
        head_dim=128,
        ffn_dim=11_008,
        vocab=32_000,
        context=4_096,
        source="https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json",
        params_source=(
            "Meta's llama-recipes quickstart notebook, PEFT's printout for LoRA "
            "r=8 on q_proj and v_proj: 'trainable params: 4194304 || all params: "
            "6742609920', less the 4,194,304 adapter weights "
            "(https://github.com/meta-llama/llama-recipes/blob/"
            "c000c8717e0b5f31bf6baee775b72ca6190e7424/examples/quickstart.ipynb); "
            "the model card's label is '7B'"
        ),
    ),
    Model(
        name="Llama 2 13B",
        aliases=(
            "meta-llama/Llama-2-13b-hf",
            "meta-llama/Llama-2-13b",
            "meta-llama/Llama-2-13b-chat-hf",
            "llama-2-13b",
            "llama2-13b",
            "llama2:13b",
        ),
        params=13_000_000_000,
        layers=40,
        d_model=5_120,
        heads=40,
        kv_heads=40,
        head_dim=128,
        ffn_dim=13_824,
        vocab=32_000,
        context=4_096,
        source="https://huggingface.co/meta-llama/Llama-2-13b-hf/blob/main/config.json",
        params_source=(
            "Llama 2 model card (Params 13B); LLaMA-1 Table 2 gives 13.0B for the same "
            "shape"
        ),
    ),
    Model(
        name="Llama 2 70B",
        aliases=(
            "meta-llama/Llama-2-70b-hf",
            "meta-llama/Llama-2-70b",
            "meta-llama/Llama-2-70b-chat-hf",
            "llama-2-70b",
            "llama2-70b",
            "llama2:70b",
        ),
        params=68_976_648_192,
        layers=80,
        d_model=8_192,
        heads=64,
        kv_heads=8,
        head_dim=128,
        ffn_dim=28_672,
        vocab=32_000,
        context=4_096,
        source="https://huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json",
        params_source=(
            "the checkpoint's count as Together AI's fine-tuning client records "
            "it ('togethercomputer/llama-2-70b': 68976648192, "
            "https://github.com/togethercomputer/together-python, "
            "src/together/finetune.py); Meta's model card prints only the label "
            "'70B'"
        ),
    ),
    Model(
        name="Llama 3 8B",
        aliases=(
            "meta-llama/Meta-Llama-3-8B",
            "meta-llama/Meta-Llama-3-8B-Instruct",
            "llama-3-8b",
            "llama3-8b",
            "llama3:8b",
        ),
        params=8_000_000_000,
        layers=32,
        d_model=4_096,
        heads=32,
        kv_heads=8,
        head_dim=128,
        ffn_dim=14_336,
        vocab=128_256,
        context=8_192,
        source=(
            "https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json"
        ),
        params_source="Llama 3 model card (Params 8B)",
    ),
    Model(
        name="Llama 3 70B",
        aliases=(
            "meta-llama/Meta-Llama-3-70B",
            "meta-llama/Meta-Llama-3-70B-Instruct",
            "llama-3-70b",
            "llama3-70b",
            "llama3:70b",
        ),
        params=70_000_000_000,
        layers=80,
        d_model=8_192,
        heads=64,
        kv_heads=8,
        head_dim=128,
        ffn_dim=28_672,
        vocab=128_256,
        context=8_192,
        source=(
            "https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json"
        ),
        params_source="Llama 3 model card (Params 70B)",
    ),
    Model(
        name="Llama 3.1 8B",
        aliases=(
            "meta-llama/Llama-3.1-8B",
            "meta-llama/Meta-Llama-3.1-8B",
            "meta-llama/Llama-3.1-8B-Instruct",
            "meta-llama/Meta-Llama-3.1-8B-Instruct",
            "llama-3.1-8b",
            "llama3.1-8b",
            "llama3.1:8b",
        ),
        params=8_000_000_000,
        layers=32,
        d_model=4_096,
        heads=32,
        kv_heads=8,
        head_dim=128,
        ffn_dim=14_336,
        vocab=128_256,
        context=131_072,
        source="https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json",
        params_source=(
            "Llama 3.1 model card (Params 8B); Llama 3 Herd paper (arXiv 2407.21783) "
            "Table 3"
        ),
    ),
    Model(
        name="Llama 3.1 70B",
        aliases=(
            "meta-llama/Llama-3.1-70B",
            "meta-llama/Meta-Llama-3.1-70B",
            "meta-llama/Llama-3.1-70B-Instruct",
            "meta-llama/Meta-Llama-3.1-70B-Instruct",
            "llama-3.1-70b",
            "llama3.1-70b",
            "llama3.1:70b",
        ),
        params=70_000_000_000,
        layers=80,
        d_model=8_192,
        heads=64,
        kv_heads=8,
        head_dim=128,
        ffn_dim=28_672,
        vocab=128_256,
        context=131_072,
        source="https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json",
        params_source="Llama 3.1 model card (Params 70B); arXiv 2407.21783 Table 3",
    ),
    Model(
        name="Llama 3.1 405B",
        aliases=(
            "meta-llama/Llama-3.1-405B",
            "meta-llama/Meta-Llama-3.1-405B",
            "meta-llama/Llama-3.1-405B-Instruct",
            "meta-llama/Meta-Llama-3.1-405B-Instruct",
            "llama-3.1-405b",
            "llama3.1-405b",
            "llama3.1:405b",
        ),
        params=405_000_000_000,
        layers=126,
        d_model=16_384,
        heads=128,
        kv_heads=8,
        head_dim=128,
        ffn_dim=53_248,
        vocab=128_256,
        context=131_072,
        source="https://huggingface.co/meta-llama/Llama-3.1-405B/blob/main/config.json",
        params_source=(
            'Llama 3.1 model card (Params 405B); arXiv 2407.21783 ("405B parameters")'
        ),
    ),
    Model(
        name="Llama 3.2 1B",
        aliases=(
            "meta-llama/Llama-3.2-1B",
            "meta-llama/Llama-3.2-1B-Instruct",
            "llama-3.2-1b",
            "llama3.2-1b",
            "llama3.2:1b",
        ),
        params=1_230_000_000,
        layers=16,
        d_model=2_048,
        heads=32,
        kv_heads=8,
        head_dim=64,
        ffn_dim=8_192,
        vocab=128_256,
        context=131_072,
        tied_embeddings=True,
        source="https://huggingface.co/meta-llama/Llama-3.2-1B/blob/main/config.json",
        params_source="Llama 3.2 model card table: Params '1B (1.23B)'",
    ),
    Model(
        name="Llama 3.2 3B",
        aliases=(
            "meta-llama/Llama-3.2-3B",
            "meta-llama/Llama-3.2-3B-Instruct",
            "llama-3.2-3b",
            "llama3.2-3b",
            "llama3.2:3b",
            "llama3.2",
        ),
        params=3_210_000_000,
        layers=28,
        d_model=3_072,
        heads=24,
        kv_heads=8,
        head_dim=128,
        ffn_dim=8_192,
        vocab=128_256,
        context=131_072,
        tied_embeddings=True,
        source="https://huggingface.co/meta-llama/Llama-3.2-3B/blob/main/config.json",
        params_source="Llama 3.2 model card table: Params '3B (3.21B)'",
    ),
    Model(
        name="Llama 3.3 70B",
        aliases=(
            "meta-llama/Llama-3.3-70B-Instruct",
            "llama-3.3-70b",
            "llama-3.3-70b-instruct",
            "llama3.3-70b",
            "llama3.3:70b",
            "llama3.3",
        ),
        params=70_000_000_000,
        layers=80,
        d_model=8_192,
        heads=64,
        kv_heads=8,
        head_dim=128,
        ffn_dim=28_672,
        vocab=128_256,
        context=131_072,
        source=(
            "https://huggingface.co/meta-llama/Llama-3.3-70B-Instruct/blob/main/config.json"
        ),
        params_source="Llama 3.3 model card (Params 70B)",
    ),
    Model(
        name="Mistral 7B v0.1",
        aliases=(
            "mistralai/Mistral-7B-v0.1",
            "mistralai/Mistral-7B-Instruct-v0.1",
            "mistral-7b-v0.1",
            "mistral-7b",
            "mistral:7b-v0.1",
        ),
        params=7_300_000_000,
        layers=32,
        d_model=4_096,
        heads=32,
        kv_heads=8,
        head_dim=128,
        ffn_dim=14_336,
        vocab=32_000,
        context=32_768,
        source="https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json",
        params_source=(
            "https://mistral.ai/news/announcing-mistral-7b/ ('Mistral 7B is a 7.3B "
            "parameter model')"
        ),
    ),
    Model(
        name="Mistral 7B v0.3",
        aliases=(
            "mistralai/Mistral-7B-v0.3",
            "mistralai/Mistral-7B-Instruct-v0.3",
            "mistral-7b-v0.3",
            "mistral:7b",
            "mistral",
        ),
        params=7_300_000_000,
        layers=32,
        d_model=4_096,
        heads=32,
        kv_heads=8,
        head_dim=128,
        ffn_dim=14_336,
        vocab=32_768,
        context=32_768,
        source="https://huggingface.co/mistralai/Mistral-7B-v0.3/blob/main/config.json",
        params_source=(
            "mistral.ai/news/announcing-mistral-7b (v0.1); v0.3 = v0.2 + vocabulary "
            "extended to 32768"
        ),
    ),
    Model(
        name="Mistral Nemo 12B",
        aliases=(
            "mistralai/Mistral-Nemo-Base-2407",
            "mistralai/Mistral-Nemo-Instruct-2407",
            "mistral-nemo",
            "mistral-nemo-12b",
            "open-mistral-nemo",
            "mistral-nemo:12b",
        ),
        params=12_247_782_400,
        layers=40,
        d_model=5_120,
        heads=32,
        kv_heads=8,
        head_dim=128,
        ffn_dim=14_336,
        vocab=131_072,
        context=128_000,
        source=(
            "https://huggingface.co/mistralai/Mistral-Nemo-Base-2407/blob/main/config.json"
        ),
        params_source=(
            "the checkpoint's own count, as GGUF conversions record it "
            "(general.parameter_count) and hosts quote it ('12.2 billion'); "
            "Mistral prints only the label '12B' "
            "(https://mistral.ai/news/mistral-nemo)"
        ),
    ),
    Model(
        name="Mixtral 8x7B",
        aliases=(
            "mistralai/Mixtral-8x7B-v0.1",
            "mistralai/Mixtral-8x7B-Instruct-v0.1",
            "mixtral-8x7b",
            "mixtral:8x7b",
            "open-mixtral-8x7b",
        ),
        params=46_700_000_000,
        active_params=12_900_000_000,
        layers=32,
        d_model=4_096,
        heads=32,
        kv_heads=8,
        head_dim=128,
        ffn_dim=14_336,
        vocab=32_000,
        context=32_768,
        experts=8,
        experts_per_token=2,
        source=(
            "https://huggingface.co/mistralai/Mixtral-8x7B-v0.1/blob/main/config.json"
        ),
        params_source=(
            "https://mistral.ai/news/mixtral-of-experts/ ('46.7B total parameters but "
            "only uses 12.9B parameters per token')"
        ),
    ),
    Model(
        name="Mixtral 8x22B",
        aliases=(
            "mistralai/Mixtral-8x22B-v0.1",
            "mistralai/Mixtral-8x22B-Instruct-v0.1",
            "mistral-community/Mixtral-8x22B-v0.1",
            "mixtral-8x22b",
            "mixtral:8x22b",
            "open-mixtral-8x22b",
        ),
        params=141_000_000_000,
        active_params=39_000_000_000,
        layers=56,
        d_model=6_144,
        heads=48,
        kv_heads=8,
        head_dim=128,
        ffn_dim=16_384,
        vocab=32_768,
        context=65_536,
        experts=8,
        experts_per_token=2,
        source=(
            "https://huggingface.co/mistralai/Mixtral-8x22B-v0.1/blob/main/config.json"
        ),
        params_source=(
            "https://mistral.ai/news/mixtral-8x22b/ ('39B active parameters out of "
            "141B')"
        ),
    ),
    Model(
        name="Qwen2.5 0.5B",
        aliases=(
            "Qwen/Qwen2.5-0.5B",
            "Qwen/Qwen2.5-0.5B-Instruct",
            "qwen2.5-0.5b",
            "qwen2.5:0.5b",
        ),
        params=490_000_000,
        layers=24,
        d_model=896,
        heads=14,
        kv_heads=2,
        head_dim=64,
        ffn_dim=4_864,
        vocab=151_936,
        context=32_768,
        tied_embeddings=True,
        qkv_bias=True,
        source="https://huggingface.co/Qwen/Qwen2.5-0.5B/blob/main/config.json",
        params_source="HF model card Qwen/Qwen2.5-0.5B 'Number of Parameters: 0.49B'",
    ),
    Model(
        name="Qwen2.5 1.5B",
        aliases=(
            "Qwen/Qwen2.5-1.5B",
            "Qwen/Qwen2.5-1.5B-Instruct",
            "qwen2.5-1.5b",
            "qwen2.5:1.5b",
        ),
        params=1_540_000_000,
        layers=28,
        d_model=1_536,
        heads=12,
        kv_heads=2,
        head_dim=128,
        ffn_dim=8_960,
        vocab=151_936,
        context=131_072,
        tied_embeddings=True,
        qkv_bias=True,
        source="https://huggingface.co/Qwen/Qwen2.5-1.5B/blob/main/config.json",
        params_source="HF model card Qwen/Qwen2.5-1.5B 'Number of Parameters: 1.54B'",
    ),
    Model(
        name="Qwen2.5 3B",
        aliases=(
            "Qwen/Qwen2.5-3B",
            "Qwen/Qwen2.5-3B-Instruct",
            "qwen2.5-3b",
            "qwen2.5:3b",
        ),
        params=3_090_000_000,
        layers=36,
        d_model=2_048,
        heads=16,
        kv_heads=2,
        head_dim=128,
        ffn_dim=11_008,
        vocab=151_936,
        context=32_768,
        tied_embeddings=True,
        qkv_bias=True,
        source="https://huggingface.co/Qwen/Qwen2.5-3B/blob/main/config.json",
        params_source="HF model card Qwen/Qwen2.5-3B",
    ),
    Model(
        name="Qwen2.5 7B",
        aliases=(
            "Qwen/Qwen2.5-7B",
            "Qwen/Qwen2.5-7B-Instruct",
            "qwen2.5-7b",
            "qwen2.5:7b",
            "qwen2.5",
        ),
        params=7_610_000_000,
        layers=28,
        d_model=3_584,
        heads=28,
        kv_heads=4,
        head_dim=128,
        ffn_dim=18_944,
        vocab=152_064,
        context=131_072,
        qkv_bias=True,
        source="https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json",
        params_source="HF model card Qwen/Qwen2.5-7B",
    ),
    Model(
        name="Qwen2.5 14B",
        aliases=(
            "Qwen/Qwen2.5-14B",
            "Qwen/Qwen2.5-14B-Instruct",
            "qwen2.5-14b",
            "qwen2.5:14b",
        ),
        params=14_700_000_000,
        layers=48,
        d_model=5_120,
        heads=40,
        kv_heads=8,
        head_dim=128,
        ffn_dim=13_824,
        vocab=152_064,
        context=131_072,
        qkv_bias=True,
        source="https://huggingface.co/Qwen/Qwen2.5-14B/blob/main/config.json",
        params_source="HF model card Qwen/Qwen2.5-14B",
    ),
    Model(
        name="Qwen2.5 32B",
        aliases=(
            "Qwen/Qwen2.5-32B",
            "Qwen/Qwen2.5-32B-Instruct",
            "qwen2.5-32b",
            "qwen2.5:32b",
        ),
        params=32_500_000_000,
        layers=64,
        d_model=5_120,
        heads=40,
        kv_heads=8,
        head_dim=128,
        ffn_dim=27_648,
        vocab=152_064,
        context=131_072,
        qkv_bias=True,
        source="https://huggingface.co/Qwen/Qwen2.5-32B/blob/main/config.json",
        params_source="HF model card Qwen/Qwen2.5-32B",
    ),
    Model(
        name="Qwen2.5 72B",
        aliases=(
            "Qwen/Qwen2.5-72B",
            "Qwen/Qwen2.5-72B-Instruct",
            "qwen2.5-72b",
            "qwen2.5:72b",
        ),
        params=72_700_000_000,
        layers=80,
        d_model=8_192,
        heads=64,
        kv_heads=8,
        head_dim=128,
        ffn_dim=29_568,
        vocab=152_064,
        context=131_072,
        qkv_bias=True,
        source="https://huggingface.co/Qwen/Qwen2.5-72B/blob/main/config.json",
        params_source="HF model card Qwen/Qwen2.5-72B",
    ),
    Model(
        name="Gemma 2 2B",
        aliases=(
            "google/gemma-2-2b",
            "google/gemma-2-2b-it",
            "gemma-2-2b",
            "gemma2-2b",
            "gemma2:2b",
        ),
        params=2_614_636_800,
        layers=26,
        d_model=2_304,
        heads=8,
        kv_heads=4,
        head_dim=256,
        ffn_dim=9_216,
        vocab=256_000,
        context=8_192,
        tied_embeddings=True,
        norms_per_layer=4,
        source="https://huggingface.co/google/gemma-2-2b/blob/main/config.json",
        params_source=(
            "Gemma 2 report (arXiv 2408.00118) Table 2 'Parameter counts for the Gemma "
            "models'"
        ),
    ),
    Model(
        name="Gemma 2 9B",
        aliases=(
            "google/gemma-2-9b",
            "google/gemma-2-9b-it",
            "gemma-2-9b",
            "gemma2-9b",
            "gemma2:9b",
            "gemma2",
        ),
        params=9_242_164_736,
        layers=42,
        d_model=3_584,
        heads=16,
        kv_heads=8,
        head_dim=256,
        ffn_dim=14_336,
        vocab=256_000,
        context=8_192,
        tied_embeddings=True,
        norms_per_layer=4,
        source="https://huggingface.co/google/gemma-2-9b/blob/main/config.json",
        params_source="Gemma 2 report (arXiv 2408.00118) Table 2",
    ),
    Model(
        name="Gemma 2 27B",
        aliases=(
            "google/gemma-2-27b",
            "google/gemma-2-27b-it",
            "gemma-2-27b",
            "gemma2-27b",
            "gemma2:27b",
        ),
        params=27_227_718_144,
        layers=46,
        d_model=4_608,
        heads=32,
        kv_heads=16,
        head_dim=128,
        ffn_dim=36_864,
        vocab=256_000,
        context=8_192,
        tied_embeddings=True,
        norms_per_layer=4,
        source="https://huggingface.co/google/gemma-2-27b/blob/main/config.json",
        params_source="Gemma 2 report (arXiv 2408.00118) Table 2",
    ),
    Model(
        name="Phi-3 mini 4k",
        aliases=(
            "microsoft/Phi-3-mini-4k-instruct",
            "Phi-3 mini 3.8B",
            "phi-3-mini",
            "phi-3-mini-4k",
            "phi3-mini",
            "phi3:3.8b",
            "phi3",
        ),
        params=3_800_000_000,
        layers=32,
        d_model=3_072,
        heads=32,
        kv_heads=32,
        head_dim=96,
        ffn_dim=8_192,
        vocab=32_064,
        context=4_096,
        source=(
            "https://huggingface.co/microsoft/Phi-3-mini-4k-instruct/blob/main/config.json"
        ),
        params_source=(
            "Phi-3 technical report (arXiv 2404.14219) 'phi-3-mini, a 3.8 billion "
            "parameter language model'; HF card"
        ),
    ),
    Model(
        name="Phi-3 mini 128k",
        aliases=(
            "microsoft/Phi-3-mini-128k-instruct",
            "phi-3-mini-128k",
            "phi3:3.8b-mini-128k-instruct",
        ),
        params=3_800_000_000,
        layers=32,
        d_model=3_072,
        heads=32,
        kv_heads=32,
        head_dim=96,
        ffn_dim=8_192,
        vocab=32_064,
        context=131_072,
        source=(
            "https://huggingface.co/microsoft/Phi-3-mini-128k-instruct/blob/main/config.json"
        ),
        params_source="Phi-3 technical report; HF card",
    ),
    Model(
        name="Phi-3 medium 4k",
        aliases=(
            "microsoft/Phi-3-medium-4k-instruct",
            "Phi-3 medium 14B",
            "phi-3-medium",
            "phi-3-medium-4k",
            "phi3:14b",
            "phi3:medium",
        ),
        params=14_000_000_000,
        layers=40,
        d_model=5_120,
        heads=40,
        kv_heads=10,
        head_dim=128,
        ffn_dim=17_920,
        vocab=32_064,
        context=4_096,
        source=(
            "https://huggingface.co/microsoft/Phi-3-medium-4k-instruct/blob/main/config.json"
        ),
        params_source=(
            "Phi-3 technical report (phi-3-medium 14B); HF card 'a 14B parameters ... "
            "open model'"
        ),
    ),
    Model(
        name="Phi-4",
        aliases=("microsoft/phi-4", "Phi-4 14B", "phi-4", "phi4", "phi4:14b"),
        params=14_659_507_200,
        layers=40,
        d_model=5_120,
        heads=40,
        kv_heads=10,
        head_dim=128,
        ffn_dim=17_920,
        vocab=100_352,
        context=16_384,
        source="https://huggingface.co/microsoft/phi-4/blob/main/config.json",
        params_source=(
            "the checkpoint's own count, as GGUF conversions of microsoft/phi-4 "
            "record it (general.parameter_count) and NVIDIA NeMo Customizer lists "
            "it (num_parameters); the Phi-4 technical report (arXiv 2412.08905) "
            "says '14-billion': the 100,352-token vocabulary adds 0.7 B to the "
            "Phi-3 medium body"
        ),
    ),
    Model(
        name="GPT-3 175B",
        aliases=("gpt-3", "gpt3", "gpt-3-175b", "gpt3-175b", "davinci"),
        params=175_000_000_000,
        layers=96,
        d_model=12_288,
        heads=96,
        kv_heads=96,
        head_dim=128,
        ffn_dim=49_152,
        vocab=50_257,
        context=2_048,
        gated_mlp=False,
        tied_embeddings=True,
        qkv_bias=True,
        linear_bias=True,
        layer_norm=True,
        learned_positions=True,
        # Table 2.1: 96 layers, d_model 12,288, 96 heads of 128; the text: a
        # feed-forward of 4 × d_model and a 2,048-token context; GPT-2's
        # architecture otherwise (50,257-token vocabulary, learned positions,
        # biases, LayerNorm, tied embeddings).
        source=(
            "Brown et al. 2020, 'Language Models are Few-Shot Learners', Table 2.1 "
            "and section 2.1 (https://arxiv.org/abs/2005.14165)"
        ),
        params_source=(
            "Brown et al. 2020 (arXiv 2005.14165) Table 2.1, row 'GPT-3 175B or "
            '"GPT-3"\''
        ),
    ),
    Model(
        name="Chinchilla 70B",
        aliases=("chinchilla", "chinchilla-70b"),
        params=70_000_000_000,
        layers=80,
        d_model=8_192,
        heads=64,
        kv_heads=64,
        head_dim=128,
        ffn_dim=32_768,
        vocab=32_000,
        context=2_048,
        gated_mlp=False,
        tied_embeddings=True,
        relative_positions=True,
        # Table 4: 80 layers, 64 heads, key/value size 128, d_model 8,192; its
        # caption: "The feed-forward size is always set to 4 × d_model". Section
        # 4.1: Gopher's architecture (Rae et al. 2021), whose Transformer-XL
        # relative positions add 80 × (8,192² + 2 × 8,192) weights: without them
        # the shape counts 64.7 B, not 70 B.
        source=(
            "Hoffmann et al. 2022, 'Training Compute-Optimal Large Language Models', "
            "Table 4 and section 4.1 (https://arxiv.org/abs/2203.15556); Rae et al. "
            "2021 (Gopher, arXiv 2112.11446) for the relative positions"
        ),
        params_source=(
            "Hoffmann et al. 2022 (arXiv 2203.15556) Table 4 / abstract ('70B "
            "parameters')"
        ),
    ),
    Model(
        name="PaLM 540B",
        aliases=("palm", "palm-540b", "palm540b"),
        params=540_350_000_000,
        layers=118,
        d_model=18_432,
        heads=48,
        kv_heads=1,
        head_dim=256,
        ffn_dim=73_728,
        vocab=256_000,
        context=2_048,
        tied_embeddings=True,
        norms_per_layer=1,
        # Table 1: 118 layers, d_model 18,432, 48 heads of 256, feed-forward
        # 4 × d_model; section 2: multi-query attention (one key/value head),
        # SwiGLU, a parallel block with one norm, shared embeddings, no biases,
        # a 256k vocabulary.
        source=(
            "Chowdhery et al. 2022, 'PaLM: Scaling Language Modeling with Pathways', "
            "Table 1 and section 2 (https://arxiv.org/abs/2204.02311)"
        ),
        params_source=(
            "Chowdhery et al. 2022 (arXiv 2204.02311) Table 1 ('# of Parameters (in "
            "billions)' 540.35)"
        ),
    ),
)

#: The fields ``MODEL_SPEC`` returns, in the order the tables show them.
FIELDS: tuple[str, ...] = (
    "params",
    "active_params",
    "layers",
    "d_model",
    "heads",
    "kv_heads",
    "head_dim",
    "attention_width",
    "kv_width",
    "ffn_dim",
    "vocab",
    "context",
    "experts",
    "experts_per_token",
    "cache_width",
    "cache_heads",
    "window",
    "windowed_layers",
    "shared_experts",
    "dense_layers",
    "dense_ffn_dim",
    "active_ffn_dim",
    "mlp_matrices",
    "embedding_matrices",
    "kv_lora_rank",
    "q_lora_rank",
    "qk_rope_head_dim",
    "v_head_dim",
)
#: Other names for the fields: Hugging Face config keys and common spellings.
FIELD_ALIASES: dict[str, str] = {
    "parameters": "params",
    "activeparameters": "active_params",
    "numhiddenlayers": "layers",
    "nlayers": "layers",
    "hiddensize": "d_model",
    "dmodel": "d_model",
    "numattentionheads": "heads",
    "numkeyvalueheads": "kv_heads",
    "intermediatesize": "ffn_dim",
    "vocabsize": "vocab",
    "maxpositionembeddings": "context",
    "numlocalexperts": "experts",
    "numexperts": "experts",
    "numexpertspertok": "experts_per_token",
    "expertspertoken": "experts_per_token",
    "slidingwindow": "window",
    "nsharedexperts": "shared_experts",
    "firstkdensereplace": "dense_layers",
}


def value(model: Model, field: str) -> float:
    """A field of a model: ``value(m, "kv_heads")``; active_params of a dense
    model is its params, its experts and experts_per_token 1."""
    if field == "active_params":
        return model.active
    if field in ("experts", "experts_per_token"):
        number_or_none: int | None = getattr(model, field)
        return 1 if number_or_none is None else number_or_none
    if field == "window":  # no window: as wide as the context
        return model.context if model.window is None else model.window
    number: int | None = getattr(model, field)
    return 0 if number is None else number


def spellings(model: Model) -> Iterator[str]:
    """Every name a model answers to: its name, its aliases, and each repository
    id without its organisation ("meta-llama/Llama-3.1-8B" also as "Llama-3.1-8B")."""
    yield model.name
    for alias in model.aliases:
        yield alias
        if "/" in alias:
            yield alias.rsplit("/", 1)[1]


def _build_index() -> dict[str, Model]:
    index: dict[str, Model] = {}
    for model in MODELS:
        for spelling in spellings(model):
            key = normalize(spelling)
            other = index.get(key)
            if other is not None and other is not model:
                raise ValueError(
                    f"ambiguous model name {spelling!r}: "
                    f"{other.name!r} and {model.name!r}"
                )
            index[key] = model
    return index


_INDEX: dict[str, Model] = _build_index()
_FIELDS: dict[str, str] = {
    **{normalize(f): f for f in FIELDS},
    **{normalize(k): v for k, v in FIELD_ALIASES.items()},
}


def find_model(name: str) -> Model | None:
    """The model called ``name``, or None.

    Case, spaces, hyphens and underscores (all of :data:`.names.IGNORED`) do
    not matter: "llama-3.1-70b",
    "Llama 3.1 70B" and "meta-llama/Llama-3.1-70B" are the same model.
    """
    if not isinstance(name, str):
        return None
    return _INDEX.get(normalize(name))


def find_field(name: str) -> str | None:
    """The field called ``name``: "d-model", "hidden_size" and "D Model" are
    "d_model"."""
    if not isinstance(name, str):
        return None
    return _FIELDS.get(normalize(name))


# A size in a model's name: 8B, 0.5B, 560m, 8x7B (experts × size each).
_SIZE = re.compile(r"(?i)(?<![a-z0-9.])(?:(\d+)x)?(\d+(?:\.\d+)?)([bm])(?![a-z0-9])")


def _family_and_size(name: str) -> tuple[str, float | None]:
    """A name split into its family, normalized ("llama3.1"), and its size in
    parameters (8e9), or None where the name holds no size."""
    name = name.rsplit("/", 1)[-1]  # a repository id: its model part
    sizes = list(_SIZE.finditer(name))
    if not sizes:
        return normalize(name), None
    m = sizes[-1]
    size = float(m[2]) * (1e9 if m[3].lower() == "b" else 1e6) * float(m[1] or 1)
    return normalize(name[: m.start()] + " " + name[m.end() :]), size


_FAMILIES = [(m, *_family_and_size(m.name)) for m in MODELS]


def _likeness(typed: str, family: str) -> float:
    """How alike two families are: 1 if equal; if one begins the other
    ("mistral" and "mistralv0.1"), 0.9 and more the more of the longer it
    covers; else difflib's ratio."""
    if typed == family:
        return 1.0
    if family and (family.startswith(typed) or typed.startswith(family)):
        short, long = sorted((len(typed), len(family)))
        return 0.9 + 0.05 * short / long
    return difflib.SequenceMatcher(None, typed, family).ratio()


def suggest_model(name: str) -> Model | None:
    """The published model a misspelt name most likely means, or None.

    The family first, then the size: "Llama 3 7B" is the Llama 3 8B (same
    family, nearest size), not the Llama 3 70B that a plain string comparison
    finds closest. Families compare as difflib's ratio of their normalized
    names, sizes by their ratio; a name without a size, or with no family close
    enough (ratio below 0.6), falls back to the closest spelling of all.
    """
    family, size = _family_and_size(name)
    if size is not None and family:
        ratio = {m.name: _likeness(family, f) for m, f, _ in _FAMILIES}
        best = max(ratio.values())
        if best >= 0.6:
            near = [
                (abs(math.log(size / s)) if s else math.inf, i, m)
                for i, (m, _, s) in enumerate(_FAMILIES)
                if ratio[m.name] >= best - 1e-9
            ]
            return min(near)[2]
    lower = {s.lower(): m for m in MODELS for s in spellings(m)}
    close = difflib.get_close_matches(name.lower(), lower, n=1, cutoff=0.6)
    return lower[close[0]] if close else None


BY_NAME: dict[str, Model] = {m.name: m for m in MODELS}
