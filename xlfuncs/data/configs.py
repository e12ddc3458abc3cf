"""A model described by its Hugging Face ``config.json``: its shape, and its
parameters counted from the shape.

``find_model`` (and so ``MODEL_SPEC`` and every function that takes a model by
name) accepts the path of a config.json file in place of a published model's
name: ``MODEL_SPEC("~/models/my-finetune/config.json", "params")``. The shape is
read as the model's Hugging Face configuration class reads the file: a key the
file leaves out takes that class's default (Gemma 3's files leave out most of
their text model's keys). ``params`` (and ``active_params`` for a mixture of
experts) is :func:`.shapes.recount` of the shape: the recount the published
table is tested with, so a config.json of a published model counts what its row
does (within 1 % of the published figure).

Families read: Llama (``llama``), Llama 4 (``llama4``: its ``text_config`` and
vision encoder), Mistral (``mistral``), Mistral 3 (``mistral3``: Mistral Small
3.1's ``text_config`` and Pixtral encoder), Mixtral (``mixtral``), Qwen2
(``qwen2``), Qwen3 (``qwen3``), Qwen3-MoE (``qwen3_moe``), Gemma (``gemma``),
Gemma 2 (``gemma2``), Gemma 3 (``gemma3`` with its SigLIP encoder, and the
text-only ``gemma3_text``), DeepSeek-V3 (``deepseek_v3``: latent attention) and
gpt-oss (``gpt_oss``), by the file's ``model_type``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from .shapes import (
    Model,
    gemma3_projector,
    llama4_vision,
    mistral3_projector,
    pixtral_tower,
    recount,
    siglip_tower,
)

#: What a model read from a file gives as its ``params_source``.
COUNTED = "counted from the shape"

# The defaults of the keys the reader uses, per model_type: the values of each
# Hugging Face configuration class's __init__ (transformers' configuration_*.py)
# where a file leaves the key out. A key without a default here must be in the
# file.
_DEFAULTS: dict[str, dict[str, Any]] = {
    "llama": {
        "vocab_size": 32_000,
        "max_position_embeddings": 2_048,
        "tie_word_embeddings": False,
        "attention_bias": False,
        "mlp_bias": False,
    },
    "mistral": {
        "vocab_size": 32_000,
        "num_key_value_heads": 8,
        "max_position_embeddings": 4_096 * 32,
        "tie_word_embeddings": False,
        "sliding_window": 4_096,
    },
    "mixtral": {
        "vocab_size": 32_000,
        "num_key_value_heads": 8,
        "max_position_embeddings": 4_096 * 32,
        "tie_word_embeddings": False,
        "sliding_window": None,
        "num_local_experts": 8,
        "num_experts_per_tok": 2,
    },
    "qwen2": {
        "vocab_size": 151_936,
        "max_position_embeddings": 32_768,
        "tie_word_embeddings": False,
        "use_sliding_window": False,
        "sliding_window": 4_096,
        "max_window_layers": 28,
    },
    "qwen3": {
        "vocab_size": 151_936,
        "head_dim": 128,
        "max_position_embeddings": 32_768,
        "tie_word_embeddings": False,
        "attention_bias": False,
        "use_sliding_window": False,
        "sliding_window": 4_096,
        "max_window_layers": 28,
    },
    "qwen3_moe": {
        "vocab_size": 151_936,
        "max_position_embeddings": 32_768,
        "tie_word_embeddings": False,
        "attention_bias": False,
        "use_sliding_window": False,
        "sliding_window": 4_096,
        "max_window_layers": 28,
        "decoder_sparse_step": 1,
        "moe_intermediate_size": 768,
        "num_experts_per_tok": 8,
        "num_experts": 128,
        "mlp_only_layers": [],
    },
    "gemma": {
        "vocab_size": 256_000,
        "head_dim": 256,
        "max_position_embeddings": 8_192,
        "tie_word_embeddings": True,
        "attention_bias": False,
    },
    "gemma2": {
        "vocab_size": 256_000,
        "hidden_size": 2_304,
        "intermediate_size": 9_216,
        "num_hidden_layers": 26,
        "num_attention_heads": 8,
        "num_key_value_heads": 4,
        "head_dim": 256,
        "max_position_embeddings": 8_192,
        "tie_word_embeddings": True,
        "attention_bias": False,
        "sliding_window": 4_096,
    },
    "gemma3_text": {
        "vocab_size": 262_208,
        "hidden_size": 2_304,
        "intermediate_size": 9_216,
        "num_hidden_layers": 26,
        "num_attention_heads": 8,
        "num_key_value_heads": 4,
        "head_dim": 256,
        "max_position_embeddings": 131_072,
        "tie_word_embeddings": True,
        "attention_bias": False,
        "sliding_window": 4_096,
        "sliding_window_pattern": 6,
    },
    "llama4_text": {
        "vocab_size": 202_048,
        "hidden_size": 5_120,
        "intermediate_size": 8_192,
        "intermediate_size_mlp": 16_384,
        "num_hidden_layers": 48,
        "num_attention_heads": 40,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "max_position_embeddings": 4_096 * 32,
        "tie_word_embeddings": False,
        "attention_bias": False,
        "num_experts_per_tok": 1,
        "num_local_experts": 16,
        "interleave_moe_layer_step": 1,
        "attention_chunk_size": 8_192,
        "no_rope_layer_interval": 4,
    },
    "deepseek_v3": {
        "vocab_size": 129_280,
        "hidden_size": 7_168,
        "intermediate_size": 18_432,
        "moe_intermediate_size": 2_048,
        "num_hidden_layers": 61,
        "num_attention_heads": 128,
        "num_key_value_heads": 128,
        "n_shared_experts": 1,
        "n_routed_experts": 256,
        "num_experts_per_tok": 8,
        "first_k_dense_replace": 3,
        "moe_layer_freq": 1,
        "kv_lora_rank": 512,
        "q_lora_rank": 1_536,
        "qk_rope_head_dim": 64,
        "v_head_dim": 128,
        "qk_nope_head_dim": 128,
        "max_position_embeddings": 4_096,
        "tie_word_embeddings": False,
        "attention_bias": False,
    },
    "gpt_oss": {
        "vocab_size": 201_088,
        "hidden_size": 2_880,
        "intermediate_size": 2_880,
        "num_hidden_layers": 36,
        "num_attention_heads": 64,
        "num_key_value_heads": 8,
        "head_dim": 64,
        "num_local_experts": 128,
        "num_experts_per_tok": 4,
        "sliding_window": 128,
        "max_position_embeddings": 131_072,
        "tie_word_embeddings": False,
        "attention_bias": True,
    },
}
_DEFAULTS["mistral3_text"] = _DEFAULTS["mistral"]

_VISION_DEFAULTS: dict[str, dict[str, Any]] = {
    # SiglipVisionConfig
    "siglip_vision_model": {
        "hidden_size": 768,
        "intermediate_size": 3_072,
        "num_hidden_layers": 12,
        "image_size": 224,
        "patch_size": 16,
    },
    # Llama4VisionConfig
    "llama4_vision_model": {
        "hidden_size": 768,
        "intermediate_size": 5_632,
        "num_hidden_layers": 34,
        "image_size": 448,
        "patch_size": 14,
        "projector_input_dim": 4_096,
        "projector_output_dim": 4_096,
        "vision_output_dim": 7_680,
    },
    # PixtralVisionConfig
    "pixtral": {
        "hidden_size": 1_024,
        "intermediate_size": 4_096,
        "num_hidden_layers": 24,
        "patch_size": 16,
    },
}

#: The model_type of a file, and the model_type its text model is read as.
_TEXT_TYPES = {
    "llama": "llama",
    "mistral": "mistral",
    "mixtral": "mixtral",
    "qwen2": "qwen2",
    "qwen3": "qwen3",
    "qwen3_moe": "qwen3_moe",
    "gemma": "gemma",
    "gemma2": "gemma2",
    "gemma3_text": "gemma3_text",
    "gemma3": "gemma3_text",
    "llama4_text": "llama4_text",
    "llama4": "llama4_text",
    "mistral3": "mistral3_text",
    "deepseek_v3": "deepseek_v3",
    "gpt_oss": "gpt_oss",
}
#: The model_types read, for the error that names them.
FAMILIES: tuple[str, ...] = tuple(_TEXT_TYPES)


class _Keys:
    """A config's keys with its class's defaults: ``keys["hidden_size"]``. A key
    the file holds is its value, null included ("sliding_window": null is no
    window); a key it lacks is the class's default."""

    def __init__(self, config: Mapping[str, Any], kind: str, where: str) -> None:
        self.config, self.defaults, self.where = config, _DEFAULTS[kind], where

    def __getitem__(self, key: str) -> Any:
        if key in self.config:
            return self.config[key]
        if key in self.defaults:
            return self.defaults[key]
        raise ValueError(f"{self.where} has no {key}")

    def int(self, key: str) -> int:
        value = self[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{self.where}: {key} is {value!r}, not a whole number")
        return value

    def get(self, key: str, default: Any = None) -> Any:
        if key in self.config:
            return self.config[key]
        return self.defaults.get(key, default)


def _vision_keys(config: Mapping[str, Any], kind: str) -> dict[str, int]:
    vision = config.get("vision_config") or {}
    if not isinstance(vision, Mapping):
        raise ValueError("vision_config is not an object")
    out = dict(_VISION_DEFAULTS[kind])
    out.update({k: v for k, v in vision.items() if k in out and v is not None})
    return out


def _windowed(keys: _Keys, family: str, layers: int) -> tuple[int | None, int]:
    """The window and how many layers attend within it, from layer_types where
    the file lists them, else from the family's rule."""
    if family == "llama4_text":
        chunk = keys.get("attention_chunk_size")
        flags = keys.get("no_rope_layers")
        if not flags:  # 1 = a RoPE layer, chunked; every interval-th is NoPE
            every = int(keys["no_rope_layer_interval"])
            flags = [int((i + 1) % every != 0) for i in range(layers)]
        return (int(chunk), int(sum(flags))) if chunk else (None, 0)
    window = keys.get("sliding_window")
    types = keys.get("layer_types")
    if types:
        n = sum(t in ("sliding_attention", "chunked_attention") for t in types)
        return (int(window), n) if window and n else (None, 0)
    if not window:
        return None, 0
    if family in ("mistral", "mistral3_text", "mixtral"):
        n = layers
    elif family in ("qwen2", "qwen3", "qwen3_moe"):
        if not keys.get("use_sliding_window"):
            return None, 0
        n = max(0, layers - int(keys["max_window_layers"]))
    elif family in ("gemma2", "gpt_oss"):  # every other layer, from the first
        n = (layers + 1) // 2
    elif family == "gemma3_text":
        every = int(keys["sliding_window_pattern"])
        n = sum((i + 1) % every != 0 for i in range(layers))
    else:
        return None, 0
    return (int(window), n) if n else (None, 0)


def _mixture(keys: _Keys, family: str, layers: int) -> dict[str, Any]:
    """The fields of a mixture of experts (none for a dense model): routed
    experts, those a token uses, shared experts, and the dense layers."""
    if family == "mixtral":
        return {
            "experts": keys.int("num_local_experts"),
            "experts_per_token": keys.int("num_experts_per_tok"),
        }
    if family == "qwen3_moe":
        experts, step = keys.int("num_experts"), keys.int("decoder_sparse_step")
        only_mlp = set(keys["mlp_only_layers"] or [])
        moe = sum(
            i not in only_mlp and experts > 0 and (i + 1) % step == 0
            for i in range(layers)
        )
        return {
            "experts": experts,
            "experts_per_token": keys.int("num_experts_per_tok"),
            "ffn_dim": keys.int("moe_intermediate_size"),
            "dense_layers": layers - moe,
            "dense_ffn_dim": keys.int("intermediate_size") if moe < layers else None,
        }
    if family == "deepseek_v3":
        first, every = keys.int("first_k_dense_replace"), keys.int("moe_layer_freq")
        moe = sum(i >= first and i % every == 0 for i in range(layers))
        return {
            "experts": keys.int("n_routed_experts"),
            "experts_per_token": keys.int("num_experts_per_tok"),
            "shared_experts": keys.int("n_shared_experts"),
            "ffn_dim": keys.int("moe_intermediate_size"),
            "dense_layers": layers - moe,
            "dense_ffn_dim": keys.int("intermediate_size"),
        }
    if family == "llama4_text":
        step = keys.int("interleave_moe_layer_step")
        moe_layers = keys.get("moe_layers")
        if moe_layers is None:
            moe_layers = list(range(step - 1, layers, step)) if step else []
        moe = len(moe_layers)
        dense_ffn = keys.int("intermediate_size_mlp") if moe < layers else None
        return {
            "experts": keys.int("num_local_experts"),
            "experts_per_token": keys.int("num_experts_per_tok"),
            "shared_experts": 1,  # Llama4TextMoe.shared_expert
            "dense_layers": layers - moe,
            "dense_ffn_dim": dense_ffn,
        }
    if family == "gpt_oss":
        per_token = keys.get("num_experts_per_tok") or keys.get("experts_per_token")
        return {
            "experts": keys.int("num_local_experts"),
            "experts_per_token": int(per_token),
            "router_bias": True,
            "expert_bias": True,
        }
    return {}


def _vision(config: Mapping[str, Any], model_type: str, d_model: int) -> int:
    """The parameters of the vision encoder and projector a multimodal config
    describes (none for a text model)."""
    if model_type == "gemma3" and config.get("vision_config") is not None:
        v = _vision_keys(config, "siglip_vision_model")
        tower = siglip_tower(
            v["hidden_size"],
            v["num_hidden_layers"],
            v["intermediate_size"],
            v["image_size"],
            v["patch_size"],
        )
        return tower + gemma3_projector(v["hidden_size"], d_model)
    if model_type == "llama4" and config.get("vision_config") is not None:
        v = _vision_keys(config, "llama4_vision_model")
        return llama4_vision(
            v["hidden_size"],
            v["num_hidden_layers"],
            v["intermediate_size"],
            v["image_size"],
            v["patch_size"],
            v["projector_input_dim"],
            v["projector_output_dim"],
            v["vision_output_dim"],
            d_model,
        )
    if model_type == "mistral3" and config.get("vision_config") is not None:
        v = _vision_keys(config, "pixtral")
        tower = pixtral_tower(
            v["hidden_size"], v["num_hidden_layers"], v["intermediate_size"],
            v["patch_size"],
        )  # fmt: skip
        merge = int(config.get("spatial_merge_size") or 2)
        bias = bool(config.get("multimodal_projector_bias", False))
        return tower + mistral3_projector(v["hidden_size"], d_model, merge, bias)
    return 0


def model_from_config(
    config: Mapping[str, Any], name: str, *, source: str | None = None
) -> Model:
    """The model a Hugging Face config.json describes, called ``name``.

    Its shape is the file's (the text model's, for a multimodal config), with
    its configuration class's defaults for the keys it leaves out; ``params``
    and, for a mixture of experts, ``active_params`` are :func:`.shapes.recount`
    of it, a vision encoder included in ``params``; ``source`` is where the
    config was read (``name`` unless given), ``params_source`` "counted from
    the shape". Raises ValueError for a model_type it does not read, or a
    config without a key it needs.

    >>> m = model_from_config({"model_type": "llama", "num_hidden_layers": 32,
    ...     "hidden_size": 4096, "num_attention_heads": 32,
    ...     "num_key_value_heads": 8, "intermediate_size": 14336,
    ...     "vocab_size": 128256, "max_position_embeddings": 131072},
    ...     "my Llama 3.1 8B")
    >>> m.params, m.kv_width
    (8030261248, 1024)
    """
    if not isinstance(config, Mapping):
        raise ValueError(f"{name}: a config.json holds an object, not {config!r}")
    model_type = config.get("model_type")
    if model_type not in _TEXT_TYPES:
        raise ValueError(
            f"{name}: model_type {model_type!r} is not one read here "
            f"({', '.join(FAMILIES)})"
        )
    family = _TEXT_TYPES[model_type]
    text = config
    if model_type in ("gemma3", "llama4", "mistral3"):
        text = config.get("text_config") or {}
        if not isinstance(text, Mapping):
            raise ValueError(f"{name}: text_config is not an object")
    keys = _Keys(text, family, f"{name} ({model_type})")
    if keys.get("mlp_bias"):
        raise ValueError(f"{name}: MLP biases (mlp_bias) are not counted here")

    layers, d = keys.int("num_hidden_layers"), keys.int("hidden_size")
    heads = keys.int("num_attention_heads")
    kv_heads = int(keys.get("num_key_value_heads") or heads)
    tied = text.get("tie_word_embeddings", config.get("tie_word_embeddings"))
    if tied is None:
        tied = keys["tie_word_embeddings"]
    fields: dict[str, Any] = {
        "layers": layers,
        "d_model": d,
        "heads": heads,
        "kv_heads": kv_heads,
        "head_dim": int(keys.get("head_dim") or d // heads),
        "ffn_dim": keys.int("intermediate_size"),
        "vocab": keys.int("vocab_size"),
        "context": keys.int("max_position_embeddings"),
        "tied_embeddings": bool(tied),
    }
    bias = bool(keys.get("attention_bias", False))
    if family == "qwen2":  # Qwen2Attention: q, k and v with biases, o without
        fields["qkv_bias"] = True
    elif bias:  # Llama, Qwen3 and gpt-oss: attention_bias on q, k, v and o
        fields.update(qkv_bias=True, o_bias=True)
    if family in ("qwen3", "qwen3_moe", "gemma3_text"):
        fields["qk_norm"] = True
    if family in ("gemma2", "gemma3_text"):
        fields["norms_per_layer"] = 4
    if family == "gpt_oss":
        fields.update(attention_sinks=True, active_embedding=False)
    if family == "deepseek_v3":
        nope, rope = keys.int("qk_nope_head_dim"), keys.int("qk_rope_head_dim")
        fields.update(
            attention="mla",
            head_dim=nope + rope,
            kv_lora_rank=keys.int("kv_lora_rank"),
            qk_rope_head_dim=rope,
            q_lora_rank=keys.get("q_lora_rank"),
            qk_nope_head_dim=nope,
            v_head_dim=keys.int("v_head_dim"),
        )
    fields.update(_mixture(keys, family, layers))
    fields["window"], fields["windowed_layers"] = _windowed(keys, family, layers)
    fields["extra_params"] = _vision(config, model_type, d)

    model = Model(
        name=name,
        aliases=(),
        params=0,
        source=name if source is None else source,
        params_source=COUNTED,
        **fields,
    )
    active = recount(model, active=True) if model.experts else None
    return replace(model, params=recount(model), active_params=active)


def read_config(path: str | Path) -> Model:
    """The model the config.json at ``path`` describes, named by its path."""
    where = str(path)
    try:
        with open(path, encoding="utf-8") as f:
            config = json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{where}: not a readable config.json ({err})") from None
    return model_from_config(config, where)


__all__ = ["COUNTED", "FAMILIES", "model_from_config", "read_config"]
