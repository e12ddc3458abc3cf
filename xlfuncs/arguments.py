"""Every argument any function takes, described once.

A function's parameter name selects its entry here; the entry's ``doc`` (units
included) becomes the Excel function-wizard help for that argument, the
*Parameters* section of the Python docstring and the docs' argument tables, and its
domain decides which values are accepted and which Excel error the rest give.
"""

from __future__ import annotations

from .spec import DIVISOR, FRACTION, NONNEGATIVE, PERCENTILE, Arg


def _accelerator(name: str) -> str | None:
    from .accelerators import find  # the table imports nothing from here

    hit = find(name)
    return hit.name if hit else None


DTYPES = {
    "bf16": "bf16", "bfloat16": "bf16",
    "fp16": "fp16", "float16": "fp16", "half": "fp16",
    "fp8": "fp8", "float8": "fp8",
    "tf32": "tf32", "tensorfloat32": "tf32",
    "fp32": "fp32", "float32": "fp32", "float": "fp32",
    "int8": "int8",
}  # fmt: skip


def _dtype(name: str) -> str | None:
    return DTYPES.get(name.strip().lower().replace("-", "").replace("_", ""))


def _fit(name: str) -> str | None:
    from .scaling_laws import FITS

    key = name.strip().lower()
    return key if key in FITS else None


_ARGS = (
    # Fine-tuning throughput (seed: "Estimador de throughput para fine-tuning")
    Arg("gpus", "Number of GPUs training in parallel (G).", "GPUs"),
    Arg(
        "tokens_per_sec_per_gpu",
        "Measured throughput of one GPU (V) in tokens/s, with a representative "
        "batch size and sequence length.",
        "tokens/s",
    ),
    Arg(
        "efficiency",
        "Share of ideal linear scaling actually reached (eta), a fraction in (0, 1]: "
        "82% or 0.82. Covers communication, synchronisation, I/O and evaluation.",
        "fraction",
        FRACTION,
    ),
    Arg(
        "tokens_per_example",
        "Mean tokens processed per example (T): input plus output, plus padding "
        "where it costs compute.",
        "tokens",
        DIVISOR,
    ),
    Arg("examples", "Examples in the dataset.", "examples"),
    Arg("epochs", "Passes over the dataset (epochs); fractions allowed.", "epochs"),
    Arg(
        "price_per_gpu_hour",
        "Price of one GPU for one hour, in your currency (currency/GPU-hour); 0 "
        "or more.",
        "currency/GPU-hour",
        NONNEGATIVE,
    ),
    Arg(
        "lengths",
        "Range of per-example lengths in tokens; blank cells are skipped.",
        "tokens",
        kind="sample",
    ),
    Arg(
        "percentile",
        "Percentile from 0 to 100 in percent: 90 (not 90%) for the 90th; leave "
        "blank for the mean.",
        "percent",
        PERCENTILE,
    ),
    # Compute-optimal sizing (seed: "Calculadora de tamaño de modelo de cómputo óptimo")
    Arg(
        "budget_pf_days",
        "Training compute budget in petaFLOP/s-days (PF/s-days; 1 PF/s-day = "
        "8.64e19 FLOPs).",
        "PF/s-days",
    ),
    Arg(
        "tokens_per_param",
        "Training tokens per parameter (r, tokens/parameter); Chinchilla's "
        "optimum is about 20.",
        "tokens/parameter",
    ),
    Arg(
        "params",
        "Model parameters (N), a plain count: 70 billion is 7E+10.",
        "parameters",
    ),
    Arg(
        "tokens",
        "Training tokens (D), a plain count: 1.4 trillion is 1.4E+12.",
        "tokens",
    ),
    Arg(
        "value",
        "The quantity to convert, in PF/s-days or FLOPs (the function's name "
        "says which).",
        "PF/s-days or FLOPs",
        NONNEGATIVE,
    ),
    # Clusters and utilisation
    Arg(
        "peak_tflops_per_gpu",
        "Dense (not sparse) peak of one accelerator in TFLOP/s for the training "
        "dtype, e.g. 989.4 for an H100 SXM in bf16 (see GPU_PEAK_TFLOPS).",
        "TFLOP/s",
    ),
    Arg(
        "mfu",
        "Model FLOPs utilisation, a fraction in (0, 1]: 40% or 0.4. Useful model "
        "FLOPs over peak, excluding recomputation.",
        "fraction",
        FRACTION,
    ),
    Arg("days", "Wall-clock days of training.", "days"),
    Arg(
        "achieved_tflops_per_gpu",
        "Model TFLOP/s each accelerator sustains (peak × utilisation), e.g. 140 "
        "for Megatron's GPT-3 run on A100s.",
        "TFLOP/s",
    ),
    Arg(
        "flops_per_param_token",
        "FLOPs per parameter per token: 6 (forward 2 + backward 4), or 8 with "
        "full activation recomputation (Megatron's convention).",
        "FLOPs",
    ),
    Arg("layers", "Transformer layers (L); give with d_model and seq_len.", "layers"),
    Arg(
        "d_model",
        "Attention width d in dimensions: heads × head size, e.g. 48 × 256 = 12,288 "
        "for PaLM 540B; give with layers and seq_len.",
        "dimensions",
    ),
    Arg(
        "seq_len",
        "Training sequence length T in tokens; give with layers and d_model.",
        "tokens",
    ),
    Arg(
        "gpu",
        "Accelerator name, e.g. H100, A100, H200, B200, L40S, MI300X, TPU v4, "
        "TPU v5p (case, spaces and hyphens ignored).",
        "text",
        None,
        kind="choice",
        lookup=_accelerator,
        unknown_code="#N/A",
        unknown_hint="; docs/functions.md lists the known accelerators",
    ),
    Arg(
        "dtype",
        "Training precision (dtype): bf16 (default), fp16, fp8, tf32, fp32 or int8.",
        "text",
        None,
        kind="choice",
        lookup=_dtype,
        unknown_code="#N/A",
        unknown_hint="; use bf16, fp16, fp8, tf32, fp32 or int8",
    ),
    Arg(
        "fit",
        'Which fitted scaling law: "hoffmann" (Hoffmann et al. 2022, eq. 10) or '
        '"epoch" (Besiroglu et al. 2024 replication).',
        "text",
        None,
        kind="choice",
        lookup=_fit,
        unknown_hint='; use "hoffmann" or "epoch"',
    ),
    Arg(
        "target_loss",
        "Training loss to reach, in nats/token; must be above the fit's "
        "irreducible loss E.",
        "nats/token",
    ),
    Arg(
        "inference_tokens",
        "Tokens the model will process at inference over its lifetime; 0 gives the "
        "compute-optimal model.",
        "tokens",
        NONNEGATIVE,
    ),
)

ARGS: dict[str, Arg] = {a.name: a for a in _ARGS}
