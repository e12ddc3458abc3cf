"""Unit constants and the list of precisions, each written once.

Every layer reads its conversions from here, so a template formula, a LAMBDA and
the Python math multiply by the same 8.64e19.
"""

from __future__ import annotations

from .names import finder, normalize

SECONDS_PER_MINUTE = 60.0
SECONDS_PER_HOUR = 3_600.0
SECONDS_PER_DAY = 86_400.0
HOURS_PER_DAY = 24.0

#: FLOP/s in one TFLOP/s.
FLOPS_PER_TFLOPS = 1e12
#: One petaFLOP/s sustained for a day: 1e15 × 86,400 = 8.64e19 FLOPs.
FLOPS_PER_PFDAY = 1e15 * SECONDS_PER_DAY
#: One TFLOP/s for a day is a thousandth of a PF/s-day.
PFDAYS_PER_TFLOPS_DAY = 1e-3

#: Training FLOPs per parameter per token: forward 2 + backward 4 (Kaplan et al.).
FLOPS_PER_PARAM_TOKEN = 6
#: Inference FLOPs per parameter per token: a forward pass only.
INFERENCE_FLOPS_PER_PARAM_TOKEN = 2
#: Chinchilla's compute-optimal ratio of training tokens to parameters.
CHINCHILLA_TOKENS_PER_PARAM = 20

#: Bytes in a GB as ZeRO and the vendors' datasheets count them (10^9).
BYTES_PER_GB = 1e9
#: Bytes in a TB, as memory bandwidth is quoted (TB/s): 10^12.
BYTES_PER_TB = 1e12
#: Bytes in a GiB and a MiB (binary units): memory chips come in powers of two, so
#: an "80GB" HBM part holds 80 GiB = 85.9 GB, and nvidia-smi reports MiB.
BYTES_PER_GIB = 2.0**30
BYTES_PER_MIB = 2.0**20

#: The usable share of a GPU's memory: the one headroom rule. A plan whose
#: estimated memory per GPU (model state, activations, cache) is at most this
#: share of GPU_MEMORY_GB fits; the other 10 % goes to the CUDA context and
#: kernels (1-2 GB, Hugging Face's "Model training anatomy"), communication
#: buffers, the logits and fragmentation. 0.9 is vLLM's default
#: ``--gpu-memory-utilization``, the share of GPU memory it lets itself use.
#: MIN_GPUS_FOR_MEMORY and MAX_DECODE_BATCH take it as their default ``usable``.
USABLE_MEMORY = 0.9

#: Mixed-precision training with Adam (Rajbhandari et al. 2020, ZeRO, section
#: 3.1): a 16-bit gradient per trainable parameter, and optimizer states of
#: 4 + 4 + 4 bytes (an fp32 copy of the weight, Adam's momentum and variance).
GRADIENT_BYTES = 2
ADAM_STATE_BYTES = 12
#: Bytes of a 16-bit weight (bf16, fp16), the usual weight_bytes.
HALF_PRECISION_BYTES = 2

#: Watt-hours in a megawatt-hour.
WH_PER_MWH = 1e6

#: Columns of the accelerator table: tensor-core precisions, then plain fp32.
#: ``int8`` is an integer rate (TOP/s), for inference, not a training precision;
#: ``fp4`` the 4-bit float rate of Blackwell and CDNA 4 (NVIDIA's NVFP4, the OCP
#: MXFP4 AMD prints), an inference precision too. New columns go last: the
#: workbooks and the serving look-ups address a column by its position.
DTYPES = ("bf16", "fp16", "fp8", "tf32", "fp32", "int8", "fp4")
#: The precisions a model trains in.
TRAINING_DTYPES = ("bf16", "fp16", "fp8", "tf32", "fp32")
#: Other spellings people type for each precision (compared as every name is:
#: case, spaces, "-" and "_" ignored; see .names).
DTYPE_ALIASES = {
    "bfloat16": "bf16",
    "float16": "fp16",
    "half": "fp16",
    "float8": "fp8",
    "nvfp4": "fp4",
    "mxfp4": "fp4",
    "tensorfloat32": "tf32",
    "float32": "fp32",
    "float": "fp32",
}


#: The table's key for a precision name, or None: ``"BF-16"`` is ``"bf16"``.
find_dtype = finder(DTYPES, DTYPE_ALIASES)


#: Activation recomputation as Korthikanti et al. 2022 (arXiv 2205.05198) name
#: it: none, selective (the attention scores), full (all but each layer's input).
RECOMPUTE_MODES = ("none", "selective", "full")


def find_recompute(name: str) -> str | None:
    """The recomputation mode called ``name``, or None: ``"Selective"`` is
    ``"selective"``."""
    key = normalize(name)
    return key if key in RECOMPUTE_MODES else None
