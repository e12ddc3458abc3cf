"""Published shapes of the open models people fine-tune, and of the papers' models.

The table backs ``MODEL_SPEC(model, field)`` in :mod:`xlfuncs.functions.models`
and the ``xlfuncs models`` listing. Each row is cited: ``source`` for its shape
(the model's Hugging Face ``config.json`` or the paper's table), ``params_source``
for its parameter count.

Conventions
-----------
* ``params`` is the published count: the figure the publisher prints where it
  prints a count (Qwen's "7.61B", Gemma 2's and Gemma 3's per-part counts,
  PaLM's 540.35B), else an exact count of the released checkpoint where the
  publisher prints only a size label, or a rounded figure more than 1 % off
  (Llama 2 7B and 70B, Mistral Nemo, Phi-4, Mistral Small 3, Qwen3 1.7B: their
  "7B", "70B", "12B", "14B", "24B", "1.7B" are 1.2 to 4.7 % off the weights
  they released), else the label (Llama 3's "8B" is within 0.4 % of its
  weights). It counts what the publisher counts: a vision encoder where the
  count includes one (Gemma 3, Llama 4, Mistral Small 3.1), which
  ``extra_params`` then holds; not DeepSeek-V3's multi-token-prediction
  module (671B, not the 685B on Hugging Face). :func:`.shapes.recount` recounts
  every row from its shape; a test finds it within 1 %.
* ``active_params`` (mixture of experts only): the parameters one token uses,
  as the publisher counts them: with the embeddings (Mistral, Qwen, Meta,
  DeepSeek), or with the unembedding only (gpt-oss: ``active_embedding``
  False). Where it is a label ("17B", "37B", "3.3B") that the shape misses by
  more than 1 % and no exact count is published, the label is kept and its
  ``params_source`` says by how much the shape differs.
* ``experts`` and ``experts_per_token`` (mixture of experts only): the routed
  MLP experts of each mixture layer and how many of them a token is routed to,
  the config's ``num_local_experts`` (``num_experts``, ``n_routed_experts``) and
  ``num_experts_per_tok``; ``MODEL_SPEC`` gives 1 and 1 for a dense model.
  ``shared_experts``: the experts every token also uses (DeepSeek-V3's
  ``n_shared_experts``, Llama 4's shared expert), each ``ffn_dim`` wide;
  ``dense_layers``: the layers with a dense MLP of ``dense_ffn_dim`` in place
  of experts (DeepSeek-V3's ``first_k_dense_replace``, Llama 4 Maverick's
  layers between its ``interleave_moe_layer_step`` ones).
* ``ffn_dim`` is ``intermediate_size``: for a gated MLP (SwiGLU, GeGLU) the
  width of each of its three matrices; for a mixture of experts, one routed
  expert's (``moe_intermediate_size`` where the config has one).
* ``head_dim`` is given, not d_model / heads: Mistral Nemo and Gemma 2 27B have
  heads × head_dim smaller than d_model. With multi-head latent attention
  (``attention`` "mla", DeepSeek-V3) it is the query and key width,
  qk_nope_head_dim + qk_rope_head_dim (192), and ``kv_heads`` the nominal
  num_key_value_heads; the latent's fields say what the cache holds.
* ``window`` and ``windowed_layers``: the layers that attend to the last
  ``window`` tokens only (Gemma 3: 5 of every 6 layers, 1,024 tokens; gpt-oss:
  every other layer, 128), or, for Llama 4, within chunks of ``window`` tokens
  (attention_chunk_size 8,192 on 36 of 48 layers).
* ``context`` is the config's ``max_position_embeddings`` for Hugging Face
  models (Instruct configs may say less, or more: Llama 4 Scout's Instruct
  config 10,485,760, its base config 262,144), the training context for the
  papers'.
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
  Ollama tags. A path to a ``.json`` file is a model described by its
  config.json (:mod:`.configs`), counted from its shape.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterator
from pathlib import Path

from .configs import read_config
from .names import normalize
from .shapes import Model as Model
from .shapes import gemma3_projector as gemma3_projector
from .shapes import llama4_vision as llama4_vision
from .shapes import mistral3_projector as mistral3_projector
from .shapes import pixtral_tower as pixtral_tower
from .shapes import recount as recount
from .shapes import siglip_tower as siglip_tower

#: Llama 4's vision encoder and projector (Scout's and Maverick's vision_config:
#: hidden 1,408, 34 layers, intermediate 5,632, image 336, patch 14, projector
#: 4,096 to 4,096, vision_output_dim 4,096; the text model's hidden 5,120):
#: 871,932,416.
_LLAMA4_VISION = llama4_vision(1_408, 34, 5_632, 336, 14, 4_096, 4_096, 4_096, 5_120)
#: Gemma 3's SigLIP encoder (vision_config: hidden 1,152, 27 layers, intermediate
#: 4,304, image 896, patch 14, no head): 416,866,032, the report's "417M".
_GEMMA3_SIGLIP = siglip_tower(1_152, 27, 4_304, 896, 14)


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
        name="Llama 4 Scout",
        aliases=(
            "meta-llama/Llama-4-Scout-17B-16E",
            "meta-llama/Llama-4-Scout-17B-16E-Instruct",
            "Llama 4 Scout 17B-16E",
            "llama4:scout",
        ),
        params=109_000_000_000,
        active_params=17_000_000_000,
        layers=48,
        d_model=5_120,
        heads=40,
        kv_heads=8,
        head_dim=128,
        ffn_dim=8_192,
        vocab=202_048,
        context=262_144,
        experts=16,
        experts_per_token=1,
        shared_experts=1,
        window=8_192,
        windowed_layers=36,
        extra_params=_LLAMA4_VISION,
        # text_config: 48 layers, hidden 5,120, 40 heads of 128, 8 key/value
        # heads; intermediate_size 8,192, the width of each routed expert and of
        # the shared expert (Llama4TextMoe.shared_expert), so both are ffn_dim;
        # 16 local experts, 1 a token; interleave_moe_layer_step 1: every layer
        # a mixture (intermediate_size_mlp 16,384 goes unused); vocab 202,048;
        # max_position_embeddings 262,144 (the Instruct config's: 10,485,760,
        # the card's "10M"). Chunked attention, not a sliding window:
        # 36 of the 48 layers (the RoPE ones; no_rope_layer_interval 4) attend
        # within their own 8,192-token chunk (attention_chunk_size), the other
        # 12 (NoPE) to the whole context. use_qk_norm true is a parameter-free
        # L2 norm: qk_norm (weights) stays False. extra_params: the vision
        # encoder and projector (_LLAMA4_VISION).
        source=(
            "https://huggingface.co/meta-llama/Llama-4-Scout-17B-16E/blob/main/"
            "config.json (text_config)"
        ),
        params_source=(
            "Llama 4 model card, https://huggingface.co/meta-llama/"
            "Llama-4-Scout-17B-16E-Instruct: 'Llama 4 Scout (17Bx16E) ... 17B "
            "(Activated) 109B (Total)'. The card does not say whether the 109B "
            "holds the vision encoder: the shape counts 108.64B with it, 107.77B "
            "without, so it is counted (extra_params). The 17B active is a label: "
            "the shape counts 17.17B a token (embeddings, attention, the shared "
            "expert and one routed expert a layer); no exact count is published"
        ),
    ),
    Model(
        name="Llama 4 Maverick",
        aliases=(
            "meta-llama/Llama-4-Maverick-17B-128E",
            "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
            "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8",
            "Llama 4 Maverick 17B-128E",
            "llama4:maverick",
        ),
        params=400_000_000_000,
        active_params=17_000_000_000,
        layers=48,
        d_model=5_120,
        heads=40,
        kv_heads=8,
        head_dim=128,
        ffn_dim=8_192,
        vocab=202_048,
        context=1_048_576,
        experts=128,
        experts_per_token=1,
        shared_experts=1,
        dense_layers=24,
        dense_ffn_dim=16_384,
        window=8_192,
        windowed_layers=36,
        extra_params=_LLAMA4_VISION,
        # text_config as Scout's but for 128 local experts, use_qk_norm false
        # and interleave_moe_layer_step 2: layers 1, 3, ..., 47 (24) are
        # mixtures (128 routed experts of 8,192, one a token, and a shared
        # expert of 8,192), layers 0, 2, ..., 46 (24) a dense MLP of
        # intermediate_size_mlp 16,384. max_position_embeddings 1,048,576 in the
        # Instruct config (the base repository's was not seen). Chunked
        # attention as Scout's: 36 layers within 8,192-token chunks, 12 global
        # (the copies read omit no_rope_layers; transformers' default interval
        # of 4 gives this split). extra_params: the vision encoder and projector.
        source=(
            "https://huggingface.co/meta-llama/Llama-4-Maverick-17B-128E-Instruct/blob/"
            "main/config.json (text_config)"
        ),
        params_source=(
            "Llama 4 model card, https://huggingface.co/meta-llama/"
            "Llama-4-Maverick-17B-128E-Instruct: 'Llama 4 Maverick (17Bx128E) ... "
            "17B (Activated) 400B (Total)'. The shape counts 401.58B with the "
            "vision encoder, 400.71B without; it is counted, as for Scout. The 17B "
            "active is a label: the shape counts 17.18B a token; no exact count is "
            "published"
        ),
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
        name="Mistral Small 3 24B",
        aliases=(
            "mistralai/Mistral-Small-24B-Base-2501",
            "mistralai/Mistral-Small-24B-Instruct-2501",
            "Mistral Small 3",
            "Mistral Small 2501",
            "mistral-small-2501",
            "mistral-small:24b",
        ),
        params=23_572_403_200,
        layers=40,
        d_model=5_120,
        heads=32,
        kv_heads=8,
        head_dim=128,
        ffn_dim=32_768,
        vocab=131_072,
        context=32_768,
        # config.json: 40 layers, hidden 5,120, 32 heads of head_dim 128 (not
        # 5,120 / 32 = 160), 8 key/value heads, intermediate 32,768, vocab
        # 131,072 (Tekken), 32,768 positions, untied, no biases. No verbatim copy
        # of the file was read: these values are those of test fixtures that
        # reproduce it and of NVIDIA's NIM page for the model ("Layers: 40, Dim:
        # 5,120, Head dim: 128, Hidden dim: 32,768").
        source=(
            "https://huggingface.co/mistralai/Mistral-Small-24B-Base-2501/blob/main/"
            "config.json; https://docs.api.nvidia.com/nim/reference/"
            "mistralai-mistral-small-24b-instruct"
        ),
        params_source=(
            "the checkpoint's own count, 23,572,403,200, as Fireworks AI's "
            "fine-tuning catalogue lists mistral-small-24b-instruct-2501 "
            "(paramCount) and KerasHub records it for the same 40 × 5,120 shape "
            "(magistral_small_2506_en, keras-team/keras-hub, "
            "keras_hub/src/models/mistral/mistral_presets.py); Mistral prints only "
            "the label '24B' "
            "(https://huggingface.co/mistralai/Mistral-Small-24B-Instruct-2501), "
            "1.8 % over the weights it released"
        ),
    ),
    Model(
        name="Mistral Small 3.1 24B",
        aliases=(
            "mistralai/Mistral-Small-3.1-24B-Base-2503",
            "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
            "mistralai/Mistral-Small-3.2-24B-Instruct-2506",
            "Mistral Small 3.1",
            "Mistral Small 3.2",
            "Mistral Small 3.2 24B",
            "mistral-small3.1:24b",
            "mistral-small3.2:24b",
        ),
        params=24_000_000_000,
        layers=40,
        d_model=5_120,
        heads=32,
        kv_heads=8,
        head_dim=128,
        ffn_dim=32_768,
        vocab=131_072,
        context=131_072,
        extra_params=pixtral_tower(1_024, 24, 4_096, 14)
        + mistral3_projector(1_024, 5_120, 2),
        # text_config: Mistral Small 3's decoder (40 × 5,120, head_dim 128,
        # intermediate 32,768, vocab 131,072, untied) with rope_theta 1e9 and
        # 131,072 positions. vision_config: a Pixtral encoder (24 layers of
        # 1,024, intermediate 4,096, patch 14) and a projector with
        # spatial_merge_size 2, no biases: extra_params 438,958,080. Mistral
        # Small 3.2 (2506) answers here: a third-party count of
        # Mistral-Small-3.2-24B-Instruct-2506 finds the same text (23,572,403,200)
        # and vision (438,958,080) parameters; its own config.json was not read.
        source=(
            "https://huggingface.co/mistralai/Mistral-Small-3.1-24B-Base-2503/blob/"
            "main/config.json (text_config, vision_config)"
        ),
        params_source=(
            "https://huggingface.co/mistralai/Mistral-Small-3.1-24B-Instruct-2503: "
            "'With 24 billion parameters, this model achieves top-tier capabilities "
            "in both text and vision tasks' (the shape counts 24.01B with the "
            "Pixtral encoder, 23.57B without: it is counted)"
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
    # Qwen3 (https://huggingface.co/collections/Qwen/qwen3): q_norm and k_norm,
    # RMSNorms over head_dim, in place of Qwen2's q, k and v biases;
    # max_position_embeddings 40,960 in every config.json (the cards: 32,768
    # natively, 131,072 with YaRN).
    Model(
        name="Qwen3 0.6B",
        aliases=(
            "Qwen/Qwen3-0.6B",
            "Qwen/Qwen3-0.6B-Base",
            "qwen3:0.6b",
        ),
        params=600_000_000,
        layers=28,
        d_model=1_024,
        heads=16,
        kv_heads=8,
        head_dim=128,
        ffn_dim=3_072,
        vocab=151_936,
        context=40_960,
        tied_embeddings=True,
        qk_norm=True,
        source="https://huggingface.co/Qwen/Qwen3-0.6B/blob/main/config.json",
        params_source=(
            "HF model card Qwen/Qwen3-0.6B, https://huggingface.co/Qwen/Qwen3-0.6B: "
            "'Number of Parameters: 0.6B'; "
            "'Number of Paramaters (Non-Embedding): 0.44B'"
        ),
    ),
    Model(
        name="Qwen3 1.7B",
        aliases=(
            "Qwen/Qwen3-1.7B",
            "Qwen/Qwen3-1.7B-Base",
            "qwen3:1.7b",
        ),
        params=1_720_574_976,
        layers=28,
        d_model=2_048,
        heads=16,
        kv_heads=8,
        head_dim=128,
        ffn_dim=6_144,
        vocab=151_936,
        context=40_960,
        tied_embeddings=True,
        qk_norm=True,
        source="https://huggingface.co/Qwen/Qwen3-1.7B/blob/main/config.json",
        params_source=(
            "the checkpoint's own count, as KerasHub's Qwen3 presets record it "
            "(qwen3_1.7b_en 'params': 1720574976, keras-team/keras-hub, "
            "keras_hub/src/models/qwen3/qwen3_presets.py) and GGUF conversions of "
            "Qwen/Qwen3-1.7B (general.parameter_count); the model card's "
            "'Number of Parameters: 1.7B' (https://huggingface.co/Qwen/Qwen3-1.7B) "
            "is 1.2 % under it"
        ),
    ),
    Model(
        name="Qwen3 4B",
        aliases=(
            "Qwen/Qwen3-4B",
            "Qwen/Qwen3-4B-Base",
            "qwen3:4b",
        ),
        params=4_000_000_000,
        layers=36,
        d_model=2_560,
        heads=32,
        kv_heads=8,
        head_dim=128,
        ffn_dim=9_728,
        vocab=151_936,
        context=40_960,
        tied_embeddings=True,
        qk_norm=True,
        source="https://huggingface.co/Qwen/Qwen3-4B/blob/main/config.json",
        params_source=(
            "HF model card Qwen/Qwen3-4B, https://huggingface.co/Qwen/Qwen3-4B: "
            "'Number of Parameters: 4.0B'; "
            "'Number of Paramaters (Non-Embedding): 3.6B'"
        ),
    ),
    Model(
        name="Qwen3 8B",
        aliases=(
            "Qwen/Qwen3-8B",
            "Qwen/Qwen3-8B-Base",
            "qwen3:8b",
        ),
        params=8_200_000_000,
        layers=36,
        d_model=4_096,
        heads=32,
        kv_heads=8,
        head_dim=128,
        ffn_dim=12_288,
        vocab=151_936,
        context=40_960,
        qk_norm=True,
        source="https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json",
        params_source=(
            "HF model card Qwen/Qwen3-8B, https://huggingface.co/Qwen/Qwen3-8B: "
            "'Number of Parameters: 8.2B'; "
            "'Number of Paramaters (Non-Embedding): 6.95B'"
        ),
    ),
    Model(
        name="Qwen3 14B",
        aliases=(
            "Qwen/Qwen3-14B",
            "Qwen/Qwen3-14B-Base",
            "qwen3:14b",
        ),
        params=14_800_000_000,
        layers=40,
        d_model=5_120,
        heads=40,
        kv_heads=8,
        head_dim=128,
        ffn_dim=17_408,
        vocab=151_936,
        context=40_960,
        qk_norm=True,
        source="https://huggingface.co/Qwen/Qwen3-14B/blob/main/config.json",
        params_source=(
            "HF model card Qwen/Qwen3-14B, https://huggingface.co/Qwen/Qwen3-14B: "
            "'Number of Parameters: 14.8B'; "
            "'Number of Paramaters (Non-Embedding): 13.2B'"
        ),
    ),
    Model(
        name="Qwen3 32B",
        aliases=(
            "Qwen/Qwen3-32B",
            "Qwen/Qwen3-32B-Base",
            "qwen3:32b",
        ),
        params=32_800_000_000,
        layers=64,
        d_model=5_120,
        heads=64,
        kv_heads=8,
        head_dim=128,
        ffn_dim=25_600,
        vocab=151_936,
        context=40_960,
        qk_norm=True,
        source="https://huggingface.co/Qwen/Qwen3-32B/blob/main/config.json",
        params_source=(
            "HF model card Qwen/Qwen3-32B, https://huggingface.co/Qwen/Qwen3-32B: "
            "'Number of Parameters: 32.8B'; "
            "'Number of Paramaters (Non-Embedding): 31.2B'"
        ),
    ),
    Model(
        name="Qwen3 30B-A3B",
        aliases=(
            "Qwen/Qwen3-30B-A3B",
            "Qwen/Qwen3-30B-A3B-Base",
            "Qwen/Qwen3-30B-A3B-FP8",
            "Qwen3 30B A3B",
            "qwen3:30b-a3b",
            "qwen3:30b",
        ),
        params=30_500_000_000,
        active_params=3_300_000_000,
        layers=48,
        d_model=2_048,
        heads=32,
        kv_heads=4,
        head_dim=128,
        ffn_dim=768,
        vocab=151_936,
        context=40_960,
        experts=128,
        experts_per_token=8,
        qk_norm=True,
        # config.json (qwen3_moe): moe_intermediate_size 768 (each expert),
        # num_experts 128, num_experts_per_tok 8, decoder_sparse_step 1 and no
        # mlp_only_layers: every layer a mixture, no shared expert
        # (intermediate_size 6,144 goes unused).
        source="https://huggingface.co/Qwen/Qwen3-30B-A3B/blob/main/config.json",
        params_source=(
            "HF model card Qwen/Qwen3-30B-A3B, https://huggingface.co/Qwen/"
            "Qwen3-30B-A3B: 'Number of Parameters: 30.5B in total and 3.3B "
            "activated'; 'Number of Paramaters (Non-Embedding): 29.9B'. The shape "
            "counts 3.35B activated (embeddings, attention, router and 8 experts a "
            "layer), 1.6 % over the card's 3.3B; no exact count is published"
        ),
    ),
    Model(
        name="Qwen3 235B-A22B",
        aliases=(
            "Qwen/Qwen3-235B-A22B",
            "Qwen/Qwen3-235B-A22B-Base",
            "Qwen/Qwen3-235B-A22B-FP8",
            "Qwen3 235B A22B",
            "qwen3:235b-a22b",
            "qwen3:235b",
        ),
        params=235_000_000_000,
        active_params=22_000_000_000,
        layers=94,
        d_model=4_096,
        heads=64,
        kv_heads=4,
        head_dim=128,
        ffn_dim=1_536,
        vocab=151_936,
        context=40_960,
        experts=128,
        experts_per_token=8,
        qk_norm=True,
        # config.json (qwen3_moe): moe_intermediate_size 1,536, 128 experts, 8 a
        # token, every layer a mixture, no shared expert.
        source="https://huggingface.co/Qwen/Qwen3-235B-A22B/blob/main/config.json",
        params_source=(
            "HF model card Qwen/Qwen3-235B-A22B, https://huggingface.co/Qwen/"
            "Qwen3-235B-A22B: 'Number of Parameters: 235B in total and 22B "
            "activated'"
        ),
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
    # Gemma 3 (config.json: Gemma3ForConditionalGeneration; text_config, whose
    # unset keys take Gemma3TextConfig's defaults: 262,208 embedding rows, tied,
    # 131,072 positions, 8 heads, 4 key/value heads and head_dim 256 for the 4B).
    # Five of every six layers attend to a 1,024-token window (sliding_window,
    # sliding_window_pattern 6: layer i is global where (i + 1) % 6 == 0); four
    # norms a layer and q_norm, k_norm as Gemma 2 and Qwen3. The report's counts
    # include the SigLIP vision encoder: extra_params is it and the projector.
    Model(
        name="Gemma 3 4B",
        aliases=(
            "google/gemma-3-4b-pt",
            "google/gemma-3-4b-it",
            "gemma3-4b",
            "gemma3:4b",
        ),
        params=4_301_000_000,
        layers=34,
        d_model=2_560,
        heads=8,
        kv_heads=4,
        head_dim=256,
        ffn_dim=10_240,
        vocab=262_208,
        context=131_072,
        tied_embeddings=True,
        norms_per_layer=4,
        qk_norm=True,
        window=1_024,
        windowed_layers=29,
        # extra_params: the SigLIP encoder, 416,866,032 (the report's "417M"),
        # and the projector to d_model, 2,950,272.
        extra_params=_GEMMA3_SIGLIP + gemma3_projector(1_152, 2_560),
        source="https://huggingface.co/google/gemma-3-4b-pt/blob/main/config.json",
        params_source=(
            "Gemma 3 technical report (arXiv 2503.19786) Table 1, vision encoder, "
            "embedding and non-embedding parameters: '4B 417M 675M 3,209M'"
        ),
    ),
    Model(
        name="Gemma 3 12B",
        aliases=(
            "google/gemma-3-12b-pt",
            "google/gemma-3-12b-it",
            "gemma3-12b",
            "gemma3:12b",
        ),
        params=12_188_000_000,
        layers=48,
        d_model=3_840,
        heads=16,
        kv_heads=8,
        head_dim=256,
        ffn_dim=15_360,
        vocab=262_208,
        context=131_072,
        tied_embeddings=True,
        norms_per_layer=4,
        qk_norm=True,
        window=1_024,
        windowed_layers=40,
        # extra_params: the SigLIP encoder, 416,866,032 (the report's "417M"),
        # and the projector to d_model, 4,424,832.
        extra_params=_GEMMA3_SIGLIP + gemma3_projector(1_152, 3_840),
        source="https://huggingface.co/google/gemma-3-12b-pt/blob/main/config.json",
        params_source=(
            "Gemma 3 technical report (arXiv 2503.19786) Table 1, vision encoder, "
            "embedding and non-embedding parameters: '12B 417M 1,012M 10,759M'"
        ),
    ),
    Model(
        name="Gemma 3 27B",
        aliases=(
            "google/gemma-3-27b-pt",
            "google/gemma-3-27b-it",
            "gemma3-27b",
            "gemma3:27b",
        ),
        params=27_433_000_000,
        layers=62,
        d_model=5_376,
        heads=32,
        kv_heads=16,
        head_dim=128,
        ffn_dim=21_504,
        vocab=262_208,
        context=131_072,
        tied_embeddings=True,
        norms_per_layer=4,
        qk_norm=True,
        window=1_024,
        windowed_layers=52,
        # extra_params: the SigLIP encoder, 416,866,032 (the report's "417M"),
        # and the projector to d_model, 6,194,304.
        extra_params=_GEMMA3_SIGLIP + gemma3_projector(1_152, 5_376),
        source="https://huggingface.co/google/gemma-3-27b-pt/blob/main/config.json",
        params_source=(
            "Gemma 3 technical report (arXiv 2503.19786) Table 1, vision encoder, "
            "embedding and non-embedding parameters: '27B 417M 1,416M 25,600M'"
        ),
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
        name="DeepSeek-V3",
        aliases=(
            "deepseek-ai/DeepSeek-V3",
            "deepseek-ai/DeepSeek-V3-Base",
            "deepseek-v3:671b",
        ),
        params=671_000_000_000,
        active_params=37_000_000_000,
        layers=61,
        d_model=7_168,
        heads=128,
        kv_heads=128,
        head_dim=192,
        ffn_dim=2_048,
        vocab=129_280,
        context=163_840,
        experts=256,
        experts_per_token=8,
        shared_experts=1,
        dense_layers=3,
        dense_ffn_dim=18_432,
        attention="mla",
        kv_lora_rank=512,
        qk_rope_head_dim=64,
        q_lora_rank=1_536,
        qk_nope_head_dim=128,
        v_head_dim=128,
        # config.json: 61 layers, hidden 7,168, 128 heads; multi-head latent
        # attention: q_lora_rank 1,536, kv_lora_rank 512, qk_nope_head_dim 128
        # and qk_rope_head_dim 64 (head_dim 192 for the queries and keys),
        # v_head_dim 128; num_key_value_heads 128 is nominal (the cache holds one
        # latent of 512 and a rotary key of 64 a token and layer). MoE:
        # first_k_dense_replace 3 (layers 0-2 a dense MLP of intermediate_size
        # 18,432), then 58 layers of n_routed_experts 256 (8 a token) and
        # n_shared_experts 1, each moe_intermediate_size 2,048 wide. Vocab
        # 129,280, untied; max_position_embeddings 163,840 (the card: 128K). The
        # multi-token-prediction layer (num_nextn_predict_layers 1) is left out,
        # as in the 671B.
        source="https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json",
        params_source=(
            "DeepSeek-V3 README, https://github.com/deepseek-ai/DeepSeek-V3: '671B "
            "total parameters with 37B activated for each token'; 'The total size "
            "of DeepSeek-V3 models on Hugging Face is 685B, which includes 671B of "
            "the Main Model weights and 14B of the Multi-Token Prediction (MTP) "
            "Module weights'. The shape counts 671.03B and 37.55B activated "
            "(embeddings, attention, the dense layers, the shared and 8 routed "
            "experts a layer): the 37B is 1.5 % under it, and README_WEIGHTS.md's "
            "'36.7B (including 0.9B for Embedding and 0.9B for the output Head)' "
            "does not reconcile either; no exact count is published"
        ),
    ),
    Model(
        name="DeepSeek-R1",
        aliases=("deepseek-ai/DeepSeek-R1", "deepseek-r1:671b"),
        params=671_000_000_000,
        active_params=37_000_000_000,
        layers=61,
        d_model=7_168,
        heads=128,
        kv_heads=128,
        head_dim=192,
        ffn_dim=2_048,
        vocab=129_280,
        context=163_840,
        experts=256,
        experts_per_token=8,
        shared_experts=1,
        dense_layers=3,
        dense_ffn_dim=18_432,
        attention="mla",
        kv_lora_rank=512,
        qk_rope_head_dim=64,
        q_lora_rank=1_536,
        qk_nope_head_dim=128,
        v_head_dim=128,
        # DeepSeek-V3's config.json, key for key (trained from DeepSeek-V3-Base).
        source="https://huggingface.co/deepseek-ai/DeepSeek-R1/blob/main/config.json",
        params_source=(
            "DeepSeek-R1 model card, https://huggingface.co/deepseek-ai/DeepSeek-R1: "
            "'| DeepSeek-R1 | 671B | 37B | 128K |' (total, activated, context); "
            "'trained based on DeepSeek-V3-Base'"
        ),
    ),
    Model(
        name="gpt-oss-20b",
        aliases=("openai/gpt-oss-20b", "gpt-oss:20b", "gpt oss 20b"),
        params=21_000_000_000,
        active_params=3_600_000_000,
        layers=24,
        d_model=2_880,
        heads=64,
        kv_heads=8,
        head_dim=64,
        ffn_dim=2_880,
        vocab=201_088,
        context=131_072,
        experts=32,
        experts_per_token=4,
        window=128,
        windowed_layers=12,
        qkv_bias=True,
        o_bias=True,
        attention_sinks=True,
        router_bias=True,
        expert_bias=True,
        active_embedding=False,
        # config.json: 24 layers, hidden 2,880, 64 heads of 64, 8 key/value
        # heads, attention_bias true (q, k, v and o), 32 local experts of
        # intermediate_size 2,880, 4 a token, vocab 201,088, untied, 131,072
        # positions; layer_types alternate sliding_attention (a 128-token
        # window) and full_attention. The reference code (openai/gpt-oss,
        # gpt_oss/torch/model.py): a learned sink logit per head, a router with
        # a bias, experts whose fused gate-and-up and down matrices have biases.
        source="https://huggingface.co/openai/gpt-oss-20b/blob/main/config.json",
        params_source=(
            "openai/gpt-oss README, https://github.com/openai/gpt-oss: "
            "'gpt-oss-20b ... (21B parameters with 3.6B active parameters)'. The "
            "3.6B counts the unembedding and not the embedding (active_embedding "
            "False): the shape counts 3.61B so, 4.19B with it"
        ),
    ),
    Model(
        name="gpt-oss-120b",
        aliases=("openai/gpt-oss-120b", "gpt-oss:120b", "gpt oss 120b"),
        params=117_000_000_000,
        active_params=5_100_000_000,
        layers=36,
        d_model=2_880,
        heads=64,
        kv_heads=8,
        head_dim=64,
        ffn_dim=2_880,
        vocab=201_088,
        context=131_072,
        experts=128,
        experts_per_token=4,
        window=128,
        windowed_layers=18,
        qkv_bias=True,
        o_bias=True,
        attention_sinks=True,
        router_bias=True,
        expert_bias=True,
        active_embedding=False,
        # gpt-oss-20b's architecture with 36 layers and 128 experts.
        source="https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json",
        params_source=(
            "openai/gpt-oss README, https://github.com/openai/gpt-oss: "
            "'gpt-oss-120b ... (117B parameters with 5.1B active parameters)'; the "
            "5.1B counts the unembedding and not the embedding (the shape: 5.13B)"
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


#: Models read from config.json files: by resolved path, with the file's
#: modification time and size when read.
_FROM_FILES: dict[str, tuple[tuple[int, int], Model]] = {}


def _from_file(name: str) -> Model | None:
    """The model of the config.json file at ``name`` (a path ending in .json,
    "~" expanded), read again only when the file has changed; None where no
    such file is. Raises ValueError where the file is not a config.json that
    :mod:`.configs` reads. The model is also put in :data:`BY_NAME` under its
    name, the resolved path, where the functions that take a model read it."""
    if not name.lower().endswith(".json"):
        return None
    try:
        path = Path(name).expanduser().resolve()
        stat = path.stat()
    except (OSError, RuntimeError):
        return None
    if not path.is_file():
        return None
    key, stamp = str(path), (stat.st_mtime_ns, stat.st_size)
    cached = _FROM_FILES.get(key)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    model = read_config(path)
    _FROM_FILES[key] = (stamp, model)
    BY_NAME[model.name] = model
    return model


def find_model(name: str) -> Model | None:
    """The model called ``name``, or None.

    Case, spaces, hyphens and underscores (all of :data:`.names.IGNORED`) do
    not matter: "llama-3.1-70b",
    "Llama 3.1 70B" and "meta-llama/Llama-3.1-70B" are the same model. A path
    to an existing ``.json`` file is the model its config.json describes
    (:func:`.configs.model_from_config`), named by the resolved path.
    """
    if not isinstance(name, str):
        return None
    hit = _INDEX.get(normalize(name))
    if hit is None:
        hit = _from_file(name.strip())
    return hit


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


#: The table's models by name, and the models find_model has read from
#: config.json files, by their resolved paths.
BY_NAME: dict[str, Model] = {m.name: m for m in MODELS}
