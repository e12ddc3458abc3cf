"""A named model's training memory: its embeddings, its LoRA adapters, its peak.

Each figure is read from the model's published configuration (MODEL_SPEC); the
peak and the fewest GPUs are TRAINING_PEAK_GB and MIN_GPUS_FOR_PEAK with the
model's shape, generated from those look-ups
(:func:`xlfuncs.registry.by_name.by_name`).
"""

from __future__ import annotations

from typing import Any

from ...data.training import LORA_RANK
from ...excel.ops import where
from ...registry import Floats, Numbers, formula
from ...registry.by_name import by_name
from ...registry.lookups import method_code, optimizer_bytes
from ..models import model_spec
from .peak import NO_GPUS, min_gpus_for_peak, training_peak_gb


@formula("MODEL_EMBEDDING_PARAMS", unit="parameters")
def model_embedding_params(model: str) -> float:
    """Parameters of a named model's input embeddings and output layer (once if tied).

    Formula: ``vocab × d_model × 2``, or ``× 1`` where the model ties its
    output layer to its input embeddings (``tie_word_embeddings`` in its
    config.json). QLoRA keeps these in 16 bits (TRAINING_PEAK_GB's
    embedding_params), as it does not quantize them.

    Returns
    -------
    float
        Parameters, a whole number.

    References
    ----------
    Each model's config.json (vocab_size, hidden_size, tie_word_embeddings);
    e.g. meta-llama/Llama-3.1-8B: 128,256 × 4,096, untied; Llama-3.2-1B:
    128,256 × 2,048, tied. Dettmers et al. 2023, "QLoRA", arXiv 2305.14314:
    bitsandbytes quantizes the linear layers only.

    Examples
    --------
    Llama 3.1 8B: 2 × 128,256 × 4,096.

    >>> model_embedding_params("Llama 3.1 8B")
    1050673152.0

    Llama 3.2 1B ties them: 128,256 × 2,048.

    >>> model_embedding_params("Llama 3.2 1B")
    262668288.0
    """
    vocab, d_model = model_spec(model, "vocab"), model_spec(model, "d_model")
    return vocab * d_model * model_spec(model, "embedding_matrices")


@formula("MODEL_LORA_PARAMS", unit="parameters")
def model_lora_params(model: str, lora_rank: Numbers = LORA_RANK) -> Floats:
    """LoRA adapter parameters of a named model with rank r on every linear layer.

    Formula: ``r · (L · attention + (L − L_d) · (E + s) · m · (d + f) + L_d ·
    m · (d + f_d))``, each adapted d_in × d_out matrix gaining r × (d_in +
    d_out) weights: PEFT's ``target_modules="all-linear"``, which leaves the
    output layer (and here the router) out. Attention a layer: q and o (d ×
    a) and k and v (d × kv_width), 2·(d + a) + 2·(d + kv); latent attention's
    five projections instead (q_a, q_b, kv_a, kv_b, o: DeepSeek-V3's config
    names). The MLP's m matrices (3 when gated) of width f in each of the E
    routed and s shared experts of the L − L_d expert layers, and of width
    f_d in the L_d dense layers (a dense model: E = 1, s = L_d = 0).

    Returns
    -------
    float or ndarray
        Trainable parameters: TRAINING_PEAK_GB's adapter_params.

    References
    ----------
    Hu et al. 2021, "LoRA", arXiv 2106.09685, section 4.1; PEFT
    (huggingface/peft), ``target_modules="all-linear"``: every linear layer but
    the output layer. Each model's config.json for the shapes.

    Examples
    --------
    Llama 3.1 8B at r = 16: 32 × 16 × (2 × 8,192 + 2 × 5,120 + 3 × 18,432).

    >>> model_lora_params("Llama 3.1 8B", 16)
    41943040.0
    """
    d = model_spec(model, "d_model")
    layers = model_spec(model, "layers")
    latent = model_spec(model, "kv_lora_rank")
    q_rank = model_spec(model, "q_lora_rank")
    rope = model_spec(model, "qk_rope_head_dim")
    heads = model_spec(model, "heads")
    value_width = heads * model_spec(model, "v_head_dim")
    key_width = heads * (model_spec(model, "head_dim") - rope)
    width = model_spec(model, "attention_width")
    queries = where(q_rank > 0, d + 2 * q_rank + width, d + width)
    grouped = 2 * (d + width) + 2 * (d + model_spec(model, "kv_width"))
    attention = where(
        latent > 0,
        queries + (d + latent + rope) + (latent + key_width + value_width)
        + (value_width + d),
        grouped,
    )  # fmt: skip
    matrices = model_spec(model, "mlp_matrices")
    dense_layers = model_spec(model, "dense_layers")
    experts = model_spec(model, "experts") + model_spec(model, "shared_experts")
    mlp = (layers - dense_layers) * experts * matrices * (
        d + model_spec(model, "ffn_dim")
    ) + dense_layers * matrices * (d + model_spec(model, "dense_ffn_dim"))
    return lora_rank * (layers * attention + mlp)


def _field(name: str) -> Any:
    return lambda *, model, **_: model_spec(model, name)


_SHAPE: dict[str, Any] = {
    **{f: _field(f) for f in ("params", "layers", "d_model", "attention_width",
                              "kv_width", "vocab")},
    "ffn_dim": _field("active_ffn_dim"),
    "experts_per_token": lambda **_: 1,
    "method_code": lambda method, **_: method_code(method),
    "adapter_params": lambda model, lora_rank, **_: model_lora_params(model, lora_rank),
    "embedding_params": lambda model, **_: model_embedding_params(model),
    "optimizer_bytes": lambda optimizer, **_: optimizer_bytes(optimizer),
}  # fmt: skip
_BY_NAME: dict[str, Any] = {
    "module": __name__,
    "front": ("model", "method"),
    "optional": (("lora_rank", LORA_RANK),),
    "after": {"lora_rank": "recompute"},
    "last": (("optimizer", "adam"),),
}

training_memory_gb = by_name(
    "TRAINING_MEMORY_GB", training_peak_gb, python_name="training_memory_gb",
    lookups={k: v for k, v in _SHAPE.items()}, **_BY_NAME,
    doc="""Per-GPU peak memory of a training step of a named model, in GB: does it fit?

    Formula: (model state + activations + the recomputed layer + the loss's
    logits + ZeRO-3's gathered layers) × 1.1 + 1.3 GB, per GPU. Model state as
    MODEL_STATE_GB (a 16-bit weight and gradient and the optimizer's state, 12
    bytes for Adam with an fp32 master copy, 4 for AdamW in bf16, 2 for 8-bit
    Adam, ZeRO-sharded over gpus): full fine-tuning trains every weight; LoRA
    adds r × (d_in + d_out) adapter weights on every linear layer of the
    frozen 16-bit model (MODEL_LORA_PARAMS); QLoRA stores the frozen linear
    layers in 4.127 bits and the embeddings and output layer in 16.
    Activations (FlashAttention: no s² scores, so "selective" saves nothing):
    per layer and token 16·h + 6·a + 4·kv + 8·f bytes (h d_model, a heads ×
    head_dim, kv kv_width, f the MLP width a token goes through: a mixture's
    routed and shared experts), or with full recomputation each layer's 2·h
    input plus one layer's whole set, rebuilt for its backward pass. The loss
    keeps the logits in bf16 and fp32 and their fp32 gradient, 10 bytes per
    token and vocabulary entry. ZeRO-3 (or FSDP's full sharding) on more than
    one GPU holds two layers' weights gathered. Tensor parallelism
    (model_parallel) divides all but the checkpointed inputs. The caching
    allocator's reserve (10 %) and the CUDA context (1.3 GB) come on top.
    TRAINING_PEAK_GB with the model's shape.

    Returns
    -------
    float or ndarray
        GB (10^9 bytes) per GPU at the step's peak, as nvidia-smi shows it: fits
        when at most 90 % of GPU_MEMORY_GB (the fit check's headroom, kept for
        what varies between frameworks). docs/memory.md puts it beside
        published measured peaks.

    References
    ----------
    Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054 (model states);
    Korthikanti et al. 2022, arXiv 2205.05198 (activations, recomputation);
    Dao 2023, FlashAttention-2, arXiv 2307.08691 (no stored scores);
    Dettmers et al. 2023, "QLoRA", arXiv 2305.14314 (4-bit weights, double
    quantization); Hugging Face transformers, LlamaForCausalLM and
    ForCausalLMLoss (the logits and their fp32 copy).

    Examples
    --------
    LoRA (r = 8, every linear layer) of Llama 2 70B on 8 H100s with ZeRO-3,
    8 sequences of 2,048 tokens each, gradient checkpointing: PEFT's
    DeepSpeed guide measured 64 GB a GPU.

    >>> round(training_memory_gb("Llama 2 70B", "lora", 2048, 8, "full", 8, 8, 3), 1)
    61.1
    """,
)  # fmt: skip

min_gpus_for_training = by_name(
    "MIN_GPUS_FOR_TRAINING", min_gpus_for_peak, python_name="min_gpus_for_training",
    lookups={k: v for k, v in _SHAPE.items()}, invalid_result=NO_GPUS, **_BY_NAME,
    doc="""Fewest data-parallel GPUs at which TRAINING_MEMORY_GB fits the usable memory.

    Formula: 1 if TRAINING_MEMORY_GB on one GPU is at most usable ×
    memory_gb; else the smallest whole G ≥ 2 with ``F + S / G ≤ usable ×
    memory_gb``, where S is the model state the ZeRO stage shards (with its
    share of the allocator's reserve) and F everything else at G ≥ 2 (the
    unsharded state, activations, loss, ZeRO-3's gathered layers, overhead).
    MIN_GPUS_FOR_PEAK with the model's shape.

    Returns
    -------
    float or ndarray
        Data-parallel GPUs, a whole number (the cluster is that times
        model_parallel); #NUM! when no number is enough (at stage 0 nothing
        shards: 1 or none).

    References
    ----------
    Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054, section 5; the terms
    and their sources: TRAINING_MEMORY_GB. The usable share, 90 % by
    default, is the fit check's headroom (docs/memory.md).

    Examples
    --------
    LoRA (r = 16) of Llama 3.1 70B with ZeRO-3 on A100 80GB (85.9 GB), one
    8,192-token sequence per GPU, gradient checkpointing:

    >>> min_gpus_for_training("Llama 3.1 70B", "lora", 8192, 1, 85.9, "full", 16, 3)
    4.0
    """,
)  # fmt: skip

__all__ = [
    "min_gpus_for_training",
    "model_embedding_params",
    "model_lora_params",
    "training_memory_gb",
]
