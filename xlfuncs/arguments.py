"""Every argument any function takes, described once.

A function's parameter name selects its entry here; the entry's ``doc`` (units
included) becomes the Excel function-wizard help for that argument, the
*Parameters* section of the Python docstring and the docs' argument tables, and its
domain decides which values are accepted and which Excel error the rest give.
"""

from __future__ import annotations

from .spec import DIVISOR, FRACTION, NONNEGATIVE, PERCENTILE, Arg

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
    Arg("epochs", "Passes over the dataset; fractions allowed.", "epochs"),
    Arg(
        "price_per_gpu_hour",
        "Price of one GPU for one hour, in your currency.",
        "currency/GPU-hour",
        NONNEGATIVE,
    ),
    Arg(
        "lengths",
        "Range of per-example token counts; blank cells are skipped.",
        "tokens",
        kind="sample",
    ),
    Arg(
        "percentile",
        "Percentile from 0 to 100 (e.g. 90); leave blank for the mean.",
        "percent",
        PERCENTILE,
    ),
    # Compute-optimal sizing (seed: "Calculadora de tamaño de modelo de cómputo óptimo")
    Arg(
        "budget_pf_days",
        "Training compute budget in petaFLOP/s-days (1 PF/s-day = 8.64e19 FLOPs).",
        "PF/s-days",
    ),
    Arg(
        "tokens_per_param",
        "Training tokens per parameter (r); Chinchilla's optimum is about 20.",
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
    Arg("value", "The quantity to convert.", "PF/s-days or FLOPs", NONNEGATIVE),
)

ARGS: dict[str, Arg] = {a.name: a for a in _ARGS}
