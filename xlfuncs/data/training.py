"""Training memory: the methods, and the bytes a training step keeps, each sourced.

``TRAINING_MEMORY_GB`` (:mod:`xlfuncs.functions.memory`) reads these. The
activation bytes follow Hugging Face transformers' Llama layer as PyTorch's
autograd saves it (bf16, FlashAttention or SDPA); ``docs/memory.md`` puts the
total beside published measured peaks.
"""

from __future__ import annotations

from .names import finder, normalize, spelled

#: Fine-tuning methods: every weight trains (full), low-rank adapters on a frozen
#: 16-bit model (LoRA), or on a 4-bit one (QLoRA).
METHODS = ("full", "lora", "qlora")
METHOD_ALIASES = {
    "fullfinetuning": "full",
    "fullfinetune": "full",
    "fft": "full",
    "completo": "full",
}


#: The key of a fine-tuning method, or None: ``"QLoRA"`` is ``"qlora"``.
find_method = finder(METHODS, METHOD_ALIASES)


#: A method as a number, for the functions that take the shape as numbers
#: (TRAINING_PEAK_GB): 1 full fine-tuning, 2 LoRA, 3 QLoRA, the templates' method
#: code (xlfuncs.data.planning.METHOD_KEYS).
METHOD_CODES = {method: k for k, method in enumerate(METHODS, start=1)}
#: Every spelling a method is accepted in, as normalize() writes it, with its
#: code: the look-up the Excel expressions make.
METHOD_SPELLINGS = tuple(
    (normalize(s), METHOD_CODES[METHOD_ALIASES.get(s, s)])
    for s in (*METHODS, *METHOD_ALIASES)
)


#: Bytes per weight of QLoRA's frozen linear layers: NF4 (4 bits) and, with double
#: quantization, 0.127 bits of quantization constants (Dettmers et al. 2023,
#: arXiv 2305.14314, section 3). The embeddings, the output layer and the norms
#: stay in 16 bits (bitsandbytes quantizes nn.Linear layers only, and
#: transformers leaves lm_head out).
QLORA_WEIGHT_BYTES = (4 + 0.127) / 8

#: The LoRA rank when none is given: r = 16 on every linear layer, the runs the
#: LoRA factor and the memory check of issue 28 measured (PEFT's
#: ``target_modules="all-linear"``).
LORA_RANK = 16

#: Bytes a transformer layer keeps for the backward pass, per token, without
#: recomputation, with FlashAttention (no s² scores): per d_model, the two
#: RMSNorms' fp32 inputs (4 + 4) and the 16-bit inputs of the attention and MLP
#: projections (2 + 2), and 4 more where the norms and the residual stream train
#: in fp32 (PyTorch autocast over fp32 master weights); per attention dimension,
#: the query and the attention output kept by FlashAttention (2 + 2) and the
#: output projection's input (2); per key/value dimension, the key and value
#: (2 + 2); per MLP dimension and routed expert, the gate's and the up
#: projection's outputs, the SiLU's and the product (4 × 2). A mixture of
#: experts' token goes through experts_per_token MLPs.
ACTIVATION_BYTES_PER_D_MODEL = 16
ACTIVATION_BYTES_PER_ATTENTION_DIM = 6
ACTIVATION_BYTES_PER_KV_DIM = 4
ACTIVATION_BYTES_PER_FFN_DIM = 8
#: With full recomputation (gradient checkpointing) a layer keeps its 16-bit
#: input only (Korthikanti et al. 2022, arXiv 2205.05198, section 5: 2·s·b·h),
#: and the layer being recomputed holds its whole working set again.
CHECKPOINT_BYTES_PER_D_MODEL = 2

#: Bytes per token and vocabulary entry of the loss: the logits in bf16 (lm_head's
#: output), their fp32 copy (transformers' ForCausalLMLoss: ``logits =
#: logits.float()``) and its fp32 gradient: 2 + 4 + 4. For Llama 3's 128,256-token
#: vocabulary at 8,192 tokens, 10.5 GB a sequence.
LOSS_BYTES_PER_LOGIT = 10

#: Layers of weights ZeRO-3 (or FSDP's full sharding) gathers at once: the one
#: computing and the next, prefetched (DeepSpeed's stage3_prefetch_bucket_size,
#: FSDP's backward_prefetch).
GATHERED_LAYERS = 2

#: Memory a step needs besides its tensors, in GB: the CUDA context and the
#: kernels loaded. Hugging Face's "Model training anatomy" measured "GPU memory
#: occupied: 1343 MB" with one small tensor, before any model was loaded.
CUDA_CONTEXT_GB = 1.3
#: The caching allocator's reserve above the tensors it hands out (fragmentation,
#: blocks kept for reuse), as a share of them: PyTorch's memory_reserved() over
#: memory_allocated(). Our assumption, fitted to the published nvidia-smi peaks
#: of PEFT's 70 B guides (docs/memory.md), which include it; ZeRO (section 3.2)
#: saw out-of-memory errors "with over 30% of memory still available in some
#: extreme cases".
ALLOCATOR_RESERVE = 0.10

#: Bytes of optimizer state a trained parameter keeps, by optimizer.
#: "adam": mixed precision's fp32 master weight, momentum and variance, 4 + 4 +
#: 4 (Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054, section 3.1: "2Ψ +
#: 2Ψ + 12Ψ" with the 16-bit weights and gradients). "bf16": AdamW on a bf16
#: model, whose momentum and variance take the weights' type and no fp32 copy
#: is kept (PyTorch's AdamW creates its states with ``torch.zeros_like(param)``):
#: 2 + 2, 8 bytes a parameter in all, about half of what the 16-byte convention
#: predicts, as measured (docs/memory.md). "8bit": 8-bit Adam's two states of
#: one byte each (Dettmers et al. 2022, "8-bit Optimizers via Block-wise
#: Quantization", arXiv 2110.02861; bitsandbytes' AdamW8bit), on a 16-bit model.
OPTIMIZER_BYTES = {"adam": 12.0, "bf16": 4.0, "8bit": 2.0}
OPTIMIZER_ALIASES = {
    "adamw": "adam",
    "fp32": "adam",
    "mixed": "adam",
    "adamfp32": "adam",
    "bf16adamw": "bf16",
    "adamwbf16": "bf16",
    "purebf16": "bf16",
    "adam8bit": "8bit",
    "adamw8bit": "8bit",
    "adamwbnb8bit": "8bit",
    "pagedadamw8bit": "8bit",
    "bnb": "8bit",
}


#: The key of an optimizer's state, or None: ``"AdamW-8bit"`` is ``"8bit"``.
find_optimizer = finder(OPTIMIZER_BYTES, OPTIMIZER_ALIASES)
#: Every spelling of an optimizer, with its key.
OPTIMIZER_KEYS = spelled(OPTIMIZER_BYTES, OPTIMIZER_ALIASES)

__all__ = [
    "ALLOCATOR_RESERVE",
    "CUDA_CONTEXT_GB",
    "ACTIVATION_BYTES_PER_ATTENTION_DIM",
    "ACTIVATION_BYTES_PER_D_MODEL",
    "ACTIVATION_BYTES_PER_FFN_DIM",
    "ACTIVATION_BYTES_PER_KV_DIM",
    "CHECKPOINT_BYTES_PER_D_MODEL",
    "GATHERED_LAYERS",
    "LORA_RANK",
    "LOSS_BYTES_PER_LOGIT",
    "METHODS",
    "METHOD_ALIASES",
    "METHOD_CODES",
    "METHOD_SPELLINGS",
    "OPTIMIZER_ALIASES",
    "OPTIMIZER_BYTES",
    "OPTIMIZER_KEYS",
    "QLORA_WEIGHT_BYTES",
    "find_method",
    "find_optimizer",
]
