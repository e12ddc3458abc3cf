"""Every argument any function takes, described once.

A function's parameter name selects its entry in :data:`ARGS`; the entry's ``doc``
(units included) becomes the Excel function-wizard help for that argument, the
*Parameters* section of the Python docstring and the docs' argument tables, and its
domain decides which values are accepted and which Excel error the rest give.
"""

from __future__ import annotations

import datetime
import difflib
import functools
import math
import numbers
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np

from ..data.accelerators import ACCELERATORS
from ..data.accelerators import find as find_accelerator
from ..data.fits import FITS, find_fit
from ..data.models import (
    FIELDS,
    MODELS,
    find_field,
    find_model,
    spellings,
    suggest_model,
)
from ..data.serving import (
    PARALLEL_CODES,
    SERVING_PRECISION_KEYS,
    SERVING_PRECISIONS,
    find_parallel,
    find_serving_precision,
)
from ..data.training import (
    METHOD_SPELLINGS,
    METHODS,
    OPTIMIZER_BYTES,
    find_method,
    find_optimizer,
)
from ..data.units import (
    BYTES_PER_GB,
    BYTES_PER_MIB,
    DTYPES,
    RECOMPUTE_MODES,
    find_dtype,
    find_recompute,
)
from .domains import (
    DIVISOR,
    FLAG,
    FRACTION,
    NONNEGATIVE,
    PERCENTILE,
    POSITIVE,
    PUE,
    WHOLE,
    WHOLE_OR_ZERO,
    ZERO_STAGE,
    Domain,
)
from .errors import (
    InputError,
    InvalidTypeError,
    InvalidValueError,
    UnusualValueWarning,
)

# Characters a pasted name may carry around it that str.strip() keeps.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"


def _blank(ch: str) -> bool:
    return ch.isspace() or ch in _INVISIBLE


def clean_name(text: str) -> str:
    """A typed name without whitespace of any kind around it, in any mix."""
    start, end = 0, len(text)
    while start < end and _blank(text[start]):
        start += 1
    while end > start and _blank(text[end - 1]):
        end -= 1
    return text[start:end]


@dataclass(frozen=True)
class Choice:
    """How a name argument is looked up, and what to suggest for a name it lacks."""

    what: str  # e.g. "accelerator"
    find: Callable[[str], str | None]  # the key for a name, or None
    names: Callable[[], Iterable[str]]  # the names to list
    listed_by: str  # where a Python or CLI user finds the list
    spellings: Callable[[], Iterable[str]] | None = None  # to suggest from
    # The name a misspelt one most likely means (models: family, then size);
    # None: the closest spelling, by difflib.
    suggest: Callable[[str], str | None] | None = None


#: A unit slip: (factor, what was typed) or (factor, what was typed, test).
Slip = tuple[float, str] | tuple[float, str, Callable[[float], bool]]


def _not_thousands(x: float) -> bool:
    """A memory size not in round thousands: nvidia-smi's MiB (81,559 for an H100
    SXM, 81,920 for an A100 80GB), not a size in MB someone rounded (80,000)."""
    return x % 1000 != 0


#: The dearest public price of one data-centre GPU-hour, in USD: 12.3 for an
#: H100 on Azure on demand (xlfuncs.data.planning.PRICE_USD_BAND's sources).
_DEAREST_GPU_HOUR = 12.5
#: GPUs in the server a cloud prices as one instance: 8 (an HGX or DGX node).
_NODE_GPUS = 8


def _a_node(x: float) -> bool:
    """A price that, divided by a node's 8 GPUs, is still a public GPU price."""
    return x / _NODE_GPUS <= _DEAREST_GPU_HOUR


@dataclass(frozen=True)
class Arg:
    """One argument: its doc (with units) and what values it takes.

    ``kind`` is ``"number"`` (a value per cell, broadcast against the others),
    ``"sample"`` (a whole range reduced to one statistic) or ``"choice"`` (a name
    looked up through ``choice``).
    """

    name: str
    doc: str
    unit: str
    domain: Domain | None = POSITIVE
    kind: str = "number"
    choice: Choice | None = field(default=None, repr=False)
    # Where real plans usually lie: outside it a template warns (still computes),
    # and so does the Python API (UnusualValueWarning).
    typical: tuple[float, float] | None = None
    # Likely unit slips, tried in order on a value outside ``typical``: (factor,
    # what was typed), and optionally a test the typed value must pass for the
    # slip to be the likely one. 70 params × 1e9 lands inside: "did you mean 70e9
    # (a count in billions)?".
    slips: tuple[Slip, ...] = ()

    # ------------------------------------------------------------ one value

    def scalar_error(self, x: Any) -> InputError | None:
        """Why the single value ``x`` is not acceptable, or None if it is."""
        if self.kind == "choice":
            if isinstance(x, str):
                try:
                    return None if self.key(x) is not None else self.unknown(x)
                except InputError as err:  # a name found but unreadable
                    return err
            return InvalidTypeError(
                "#VALUE!",
                f"{self.name} must be a name (str), not {_py(x)}",
                f"{self.name} must be a name, not {_cell(x)}",
            )
        if x is None:
            return InvalidTypeError(
                "#VALUE!",
                f"{self.name} is required, not None",
                f"{self.name} is required (blank cell)",
            )
        if not is_number(x):
            return InvalidTypeError(
                "#VALUE!",
                f"{self.name} must be a number, not {_py(x)}",
                f"{self.name} must be a number, not {_cell(x)}",
            )
        try:
            value = float(x)
        except OverflowError:
            return self.too_large()
        except ValueError:  # Decimal('sNaN')
            value = math.nan
        if math.isinf(value) and isinstance(x, Decimal) and x.is_finite():
            return self.too_large()
        return self.domain.error(self.name, value) if self.domain else None

    def blank_in_range(self) -> InvalidTypeError:
        """A blank cell inside the range of an optional argument: not its default."""
        return InvalidTypeError(
            "#VALUE!",
            f"{self.name} has a blank cell in its range: fill it, or leave all of "
            f"{self.name} blank for the default",
        )

    def too_large(self) -> InvalidValueError:
        return InvalidValueError("#NUM!", f"{self.name} is too large for a float")

    def key(self, text: str) -> str | None:
        """The table key of a name argument, or None if the name is unknown."""
        assert self.choice is not None
        return self.choice.find(clean_name(text))

    def unknown(self, text: str) -> InvalidValueError:
        """The error for a name the tables lack, with a suggestion: computed
        once per distinct name (:func:`_hints`), so a range of one misspelt
        name costs what a range of a known one does."""
        assert self.choice is not None
        c, typed = self.choice, clean_name(text)
        hint, cell_hint = _hints(c, typed)
        return InvalidValueError(
            "#N/A",
            f"{self.name}: unknown {c.what} {typed!r}; {hint}",
            f"{self.name}: unknown {c.what} {typed!r}; {cell_hint}",
        )

    # ------------------------------------------------------------ unit slips

    def unusual(self, value: Any) -> UnusualValueWarning | None:
        """A warning when a checked value (a float, or an array of them) lies
        outside ``typical``, naming the likely slip; None inside it. Zero,
        where the domain admits it, is a choice (none: no window, no latency
        target, no other memory), never a slip."""
        if self.typical is None or value is None or self.kind != "number":
            return None
        lo, hi = self.typical
        zero_ok = self.domain is not None and self.domain.contains(0.0)
        if isinstance(value, np.ndarray):
            if value.size == 0 or (value.min() >= lo and value.max() <= hi):
                return None
            outside = (value < lo) | (value > hi)  # NaN is neither
            if zero_ok:
                outside &= value != 0
            if not outside.any():
                return None
            x = float(value[outside].flat[0])
        else:
            x = float(value)
            if not (x < lo or x > hi) or (zero_ok and x == 0):
                return None
        return UnusualValueWarning(self.unusual_text(x), self.name, x)

    def unusual_text(self, x: float) -> str:
        """What the warning says of ``x``: the slips that land it inside the
        typical range, else only that it lies outside."""
        assert self.typical is not None
        lo, hi = self.typical
        usual = f"usual: {_short(lo)} to {_short(hi)} {self.unit}"
        for factor, why, *when in self.slips:  # the first likely one inside
            if when and not when[0](x):
                continue
            if lo <= x * factor <= hi:
                meant = _scaled(x, factor)
                return f"{self.name} {x:g}: did you mean {meant} ({why})? ({usual})"
        return f"{self.name} {x:g} is unusual; check its unit ({usual})"

    # ------------------------------------------------------------ Python API

    def check(self, value: Any) -> Any:
        """Python API: ``value`` ready for the math, or raise why not."""
        if self.kind == "choice":  # one name; ranges of names are for cells
            err = self.scalar_error(value)
            if err:
                raise err
            return self.key(value)
        if self.kind == "sample":
            arr = self.numbers(value).ravel()
            if arr.size == 0:
                raise InvalidValueError("#DIV/0!", f"{self.name} holds no numbers")
            self.raise_outside(arr)
            return arr
        if not is_array_like(value):
            err = self.scalar_error(value)
            if err:
                raise err
            return float(value)
        arr = self.numbers(value)
        self.raise_outside(arr)
        return arr

    def numbers(self, value: Any) -> np.ndarray:
        """Numbers, or an array-like of them, as a float array, or raise why not.

        A sequence (list, tuple, range, array.array) is read element by element;
        an object with ``__array__`` (numpy, pandas, polars) as numpy reads it.
        Booleans, None and text inside are refused rather than read as 1, NaN or
        a parsed number.
        """
        if isinstance(value, np.ndarray) or (
            hasattr(type(value), "__array__") and not isinstance(value, Sequence)
        ):
            try:  # np.asarray: a masked array's mask must not hide values
                arr = np.asarray(value)
            except (TypeError, ValueError):
                raise self.ragged() from None
            if arr.dtype.kind in "iuf":
                with np.errstate(over="ignore"):  # a longdouble beyond: inf, refused
                    return arr.astype(float)
            if arr.dtype.kind != "O":
                raise self.not_numbers(f"{arr.dtype} values")
        else:
            try:
                arr = np.array(value, dtype=object)
            except ValueError:
                raise self.ragged() from None
        for x in arr.flat:
            if type(x) in (float, int):
                continue
            if isinstance(x, (list, tuple, np.ndarray)):
                raise self.ragged()
            if not is_number(x):
                raise self.not_numbers(_py(x))
            err = self.scalar_error(x)  # a Decimal or numpy number: its value
            if err:
                raise err
        try:
            return arr.astype(float)
        except OverflowError:
            raise self.too_large() from None

    def not_numbers(self, what: str) -> InvalidTypeError:
        """An array-like holding something other than numbers (Python API)."""
        return InvalidTypeError(
            "#VALUE!", f"{self.name} must hold only numbers, not {what}"
        )

    def ragged(self) -> InvalidValueError:
        return InvalidValueError(
            "#VALUE!",
            f"{self.name} must be a flat list of numbers or rows of equal length",
            f"{self.name} is not a rectangular range",
        )

    def raise_outside(self, arr: np.ndarray) -> None:
        if self.domain is not None and not self.domain.all_inside(arr):
            bad = arr[~self.domain.mask(arr)]
            raise self.domain.error(self.name, float(bad[0]))  # type: ignore[misc]


def _short(v: float) -> str:
    """A range's end as people read it: 1e6, 100,000, 0.05."""
    if v >= 1e6:
        exponent = round(math.log10(v))
        if v == 10.0**exponent:
            return f"1e{exponent}"
    if float(v).is_integer() and abs(v) < 1e15:
        return f"{int(v):,}"
    return f"{v:,g}"


def _scaled(x: float, factor: float) -> str:
    """``x`` times a slip's factor, as the user would type it: 70e9, 3.35."""
    if factor >= 1000 and x * factor >= 1e6:  # 70e9, not 7e+10; but 40, not 0.04e3
        exponent = round(math.log10(factor))
        if factor == 10.0**exponent:
            return f"{x:g}e{exponent}"
    return f"{x * factor:g}"


@functools.lru_cache(maxsize=4096)
def _hints(choice: Choice, typed: str) -> tuple[str, str]:
    """What to suggest for an unknown name, in Python's words and a cell's."""
    if choice.suggest is not None:
        close = choice.suggest(typed)
    else:
        lower = {n.lower(): n for n in (choice.spellings or choice.names)()}
        match = difflib.get_close_matches(typed.lower(), lower, n=1, cutoff=0.6)
        close = lower[match[0]] if match else None
    if close:
        return f"did you mean {close!r}?", f"did you mean {close}?"
    names = list(dict.fromkeys(choice.names()))
    cell_hint = "use one of " + ", ".join(names)
    hint = cell_hint if len(names) <= 8 else f"{choice.listed_by} lists them"
    return hint, cell_hint


def is_number(x: Any) -> bool:
    """True for a real number: a float, an int, numpy's, a Fraction or a Decimal.

    Windows Excel hands Currency- and Accounting-formatted cells to a UDF as
    Decimal (xlwings issue #65); Decimal is not a ``numbers.Real``. numpy
    registers ``timedelta64`` as an integer, but it is a duration in a unit of
    its own (``float()`` of one in days fails): not a number here.
    """
    if type(x) is float:  # what a cell holds; the ABC check below is slower
        return True
    return isinstance(x, (numbers.Real, Decimal)) and not isinstance(
        x, (bool, np.bool_, np.timedelta64)
    )


def is_array_like(x: Any) -> bool:
    """True for what numpy reads as an array: a sequence or an ``__array__`` object.

    Numbers (numpy's included), text, bytes and None are single values.
    """
    if x is None or isinstance(
        x, (str, bytes, bytearray, numbers.Number, Decimal, np.generic)
    ):
        return False
    return isinstance(x, (Sequence, np.ndarray)) or hasattr(type(x), "__array__")


def _py(x: Any) -> str:
    """A value as a Python programmer would name it: ``str '8'``, ``bool True``,
    ``Decimal('8')`` (a repr that names its type is not prefixed again)."""
    if x is None:
        return "None"
    if isinstance(x, np.bool_):
        x = bool(x)  # "bool True", not "bool np.True_"
    text, kind = repr(x), type(x).__name__
    return text if text.startswith(kind) else f"{kind} {text}"


def _cell(x: Any) -> str:
    """A value as a spreadsheet user sees it: ``text '8'``, ``TRUE``, a date."""
    if isinstance(x, (bool, np.bool_)):
        return "TRUE" if x else "FALSE"
    if x is None:
        return "a blank cell"
    if isinstance(x, str):
        return f"text {x!r}"
    if isinstance(x, (datetime.date, datetime.time)):
        return "a date or time"
    return _py(x)


# ------------------------------------------------------------------ name lookups


def _accelerator(name: str) -> str | None:
    hit = find_accelerator(name)
    return hit.name if hit else None


def _accelerator_names() -> list[str]:
    return [a.name for a in ACCELERATORS]


def _accelerator_spellings() -> list[str]:
    return [s for a in ACCELERATORS for s in (a.name, *a.aliases)]


GPU = Choice(
    "accelerator",
    _accelerator,
    _accelerator_names,
    "`xlfuncs gpus` (in Python, xlfuncs.ACCELERATORS)",
    _accelerator_spellings,
)
DTYPE = Choice("precision", find_dtype, lambda: DTYPES, "")
FIT = Choice("fit", find_fit, lambda: FITS, "")
RECOMPUTE = Choice("recomputation", find_recompute, lambda: RECOMPUTE_MODES, "")
METHOD = Choice("fine-tuning method", find_method, lambda: METHODS, "")
OPTIMIZER = Choice("optimizer", find_optimizer, lambda: OPTIMIZER_BYTES, "")
PRECISION = Choice(
    "serving precision", find_serving_precision, lambda: SERVING_PRECISIONS, ""
)
PARALLEL = Choice("way to split a replica", find_parallel, lambda: PARALLEL_CODES, "")
#: Every spelling of a serving precision, as key() writes a typed one: the Excel
#: array constant its look-ups MATCH against.
PRECISION_KEYS = "{" + ",".join(f'"{k}"' for k, _ in SERVING_PRECISION_KEYS) + "}"
#: Every spelling of a fine-tuning method, as key() writes a typed one.
METHOD_KEYS = "{" + ",".join(f'"{k}"' for k, _ in METHOD_SPELLINGS) + "}"
#: A fine-tuning method as a number: 1 full, 2 LoRA, 3 QLoRA.
METHOD_CODE = Domain(
    1.0, 3.0, True, True,
    "be 1 (full fine-tuning), 2 (LoRA) or 3 (QLoRA)",
    "be 1 (full fine-tuning), 2 (LoRA) or 3 (QLoRA)", whole=True,
)  # fmt: skip


def _model(name: str) -> str | None:
    try:
        hit = find_model(name)
    except ValueError as err:  # a .json file that is not a config.json read
        raise InvalidValueError("#VALUE!", f"model: {err}") from None
    return hit.name if hit else None


def _suggest_model(typed: str) -> str | None:
    hit = suggest_model(typed)
    return hit.name if hit else None


MODEL = Choice(
    "model",
    _model,
    lambda: [m.name for m in MODELS],
    "`xlfuncs models` (in Python, xlfuncs.MODELS)",
    lambda: [s for m in MODELS for s in spellings(m)],
    _suggest_model,
)
FIELD = Choice("field", find_field, lambda: FIELDS, "`xlfuncs list MODEL_SPEC`")

_ARGS = (
    # Fine-tuning throughput (the "Estimador de throughput para fine-tuning" page)
    Arg(
        "gpus",
        "Number of GPUs working in parallel (G); for the memory functions the "
        "data-parallel GPUs ZeRO shards over (model_parallel counts the others); "
        "for serving, one replica's. A whole number.",
        "GPUs",
        WHOLE,
        typical=(1, 100_000),
    ),
    Arg(
        "tokens_per_sec_per_gpu",
        "Measured throughput of one GPU (V) in tokens/s, with a representative "
        "batch size and sequence length.",
        "tokens/s",
        typical=(10, 100_000),
    ),
    Arg(
        "efficiency",
        "Share of ideal linear scaling actually reached (eta), a fraction in (0, 1]: "
        "82% or 0.82. Covers communication, synchronisation, I/O and evaluation.",
        "fraction",
        FRACTION,
        typical=(0.3, 1),
        slips=((100, "a percentage divided by 100 twice"),),
    ),
    Arg(
        "tokens_per_example",
        "Mean tokens processed per example (T): input plus output, plus padding "
        "where it costs compute.",
        "tokens",
        DIVISOR,
        typical=(16, 131_072),
    ),
    Arg("examples", "Examples in the dataset.", "examples", typical=(100, 1e9)),
    Arg(
        "epochs",
        "Passes over the dataset (epochs); fractions allowed.",
        "epochs",
        typical=(0.1, 20),
    ),
    Arg(
        "price_per_gpu_hour",
        "Price of one GPU for one hour in your currency (currency/GPU-hour); 0 "
        "or more.",
        "currency/GPU-hour",
        NONNEGATIVE,
        typical=(0, 20),
        slips=(
            (
                1 / _NODE_GPUS,
                "an 8-GPU node's price per hour typed; a GPU-hour is an eighth",
                _a_node,
            ),
            (0.01, "cents typed"),
        ),
    ),
    Arg(
        "lengths",
        "Range of per-example lengths in tokens. As in AVERAGE, blank cells, text "
        "(such as a header) and TRUE/FALSE are skipped, so a whole column can be "
        "selected; a cell showing an error passes it on.",
        "tokens",
        kind="sample",
    ),
    Arg(
        "percentile",
        "Percentile as a fraction from 0 to 1, as in PERCENTILE.INC: 90% or 0.9 "
        "for the 90th; leave blank for the mean.",
        "fraction",
        PERCENTILE,
    ),
    # Compute-optimal sizing ("Calculadora de tamaño de modelo de cómputo óptimo")
    Arg(
        "budget_pf_days",
        "Training compute budget in petaFLOP/s-days (PF/s-days; 1 PF/s-day = "
        "8.64e19 FLOPs).",
        "PF/s-days",
        typical=(1e-3, 1e8),
        slips=((1 / 8.64e19, "FLOPs typed"),),
    ),
    Arg(
        "tokens_per_param",
        "Training tokens per parameter (r, tokens/parameter); Chinchilla's "
        "optimum is about 20.",
        "tokens/parameter",
        typical=(1, 1000),
    ),
    Arg(
        "params",
        "Model parameters (N), a plain count: 70 billion is 7E+10.",
        "parameters",
        typical=(1e6, 1e13),
        slips=((1e9, "a count in billions"), (1e6, "a count in millions")),
    ),
    Arg(
        "tokens",
        "Training tokens (D), a plain count: 1.4 trillion is 1.4E+12.",
        "tokens",
        typical=(1e6, 1e15),
        slips=((1e9, "a count in billions"), (1e12, "a count in trillions")),
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
        "Dense (not sparse) peak of one accelerator in TFLOP/s for the dtype it "
        "computes in, e.g. 989.4 for an H100 SXM in bf16 (GPU_PEAK_TFLOPS; "
        "serving: SERVING_PEAK_TFLOPS).",
        "TFLOP/s",
        typical=(1, 20_000),
        slips=((1e-12, "FLOP/s typed"),),
    ),
    Arg(
        "mfu",
        "Model FLOPs utilisation, a fraction in (0, 1]: 40% or 0.4. Useful model "
        "FLOPs over peak, excluding recomputation.",
        "fraction",
        FRACTION,
        typical=(0.1, 0.7),
        slips=((100, "a percentage divided by 100 twice"),),
    ),
    Arg(
        "hfu",
        "Hardware FLOPs utilisation, a fraction in (0, 1]: 40% or 0.4. All the "
        "FLOPs the GPUs run, recomputed activations included, over their peak.",
        "fraction",
        FRACTION,
        typical=(0.1, 0.8),
        slips=((100, "a percentage divided by 100 twice"),),
    ),
    Arg("days", "Wall-clock days of training.", "days", typical=(0.01, 1000)),
    Arg(
        "achieved_tflops_per_gpu",
        "Model TFLOP/s each accelerator sustains (peak × utilisation), e.g. 140 "
        "for Megatron's GPT-3 run on A100s.",
        "TFLOP/s",
        typical=(0.1, 10_000),
        slips=((1e-12, "FLOP/s typed"),),
    ),
    Arg(
        "flops_per_param_token",
        "FLOPs per parameter per token: 6 (forward 2 + backward 4), or 8 with "
        "full activation recomputation (Megatron's convention).",
        "FLOPs",
    ),
    Arg(
        "layers",
        "Transformer layers (L), a whole number. FLOPS_PER_TOKEN, MFU, "
        "TOKENS_PER_SEC_PER_GPU and TRAINING_DAYS take it with attention_width "
        "and seq_len.",
        "layers",
        WHOLE,
    ),
    Arg(
        "attention_width",
        "Attention width in dimensions: heads × head size, e.g. 48 × 256 = 12,288 "
        "for PaLM 540B (not its d_model, 18,432); give with layers and seq_len.",
        "dimensions",
    ),
    Arg(
        "seq_len",
        "Sequence length (T or s) in tokens: the training context, or the tokens "
        "cached per sequence. FLOPS_PER_TOKEN & co. take it with layers and "
        "attention_width.",
        "tokens",
        typical=(128, 1_048_576),
        slips=((1024, "thousands of tokens typed"),),
    ),
    Arg(
        "gpu",
        "Accelerator name, e.g. H100, A100, H200, B200, L40S, MI300X, TPU v4, "
        "TPU v5p (case, spaces and hyphens ignored).",
        "text",
        None,
        kind="choice",
        choice=GPU,
    ),
    Arg(
        "dtype",
        "Precision: bf16 (default), fp16, fp8, tf32, fp32, int8 (TOP/s, for "
        "inference) or fp4 (NVFP4, MXFP4: Blackwell, MI350 series).",
        "text",
        None,
        kind="choice",
        choice=DTYPE,
    ),
    Arg(
        "fit",
        'Which fitted scaling law: "hoffmann" (Hoffmann et al. 2022, eq. 10) or '
        '"epoch" (Besiroglu et al. 2024 replication).',
        "text",
        None,
        kind="choice",
        choice=FIT,
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
    # Memory (model states, LoRA, activations, KV cache)
    Arg(
        "trainable_params",
        "Parameters that train, a plain count: blank for all of params (full "
        "fine-tuning), the adapters' count for LoRA (LORA_PARAMS), 0 for "
        "inference.",
        "parameters",
        NONNEGATIVE,
    ),
    Arg(
        "weight_bytes",
        "Bytes per stored weight: 2 for bf16 or fp16 (default), 1 for 8-bit, 0.5 "
        "for 4-bit as in QLoRA (0.516 with its double quantization), 4 for fp32.",
        "bytes",
        typical=(0.1, 8),
        slips=((1 / 8, "bits typed"),),
    ),
    Arg(
        "zero_stage",
        "ZeRO stage: 0 (default) no sharding; 1 shards the Adam states over the "
        "GPUs, 2 also the gradients, 3 also the weights.",
        "stage",
        ZERO_STAGE,
    ),
    Arg(
        "model_parallel",
        "Model-parallel degree, a whole number: tensor-parallel × pipeline-parallel "
        "GPUs that split each copy of the model, each holding a 1/model_parallel "
        "share of its state; 1 (default) for none. gpus counts the data-parallel "
        "copies.",
        "GPUs",
        WHOLE,
        typical=(1, 512),
    ),
    Arg(
        "usable",
        "Usable share of each GPU's memory, a fraction in (0, 1]: 90% (default) "
        "keeps 10 % for the CUDA context, buffers and fragmentation; 100% fills "
        "the GPU.",
        "fraction",
        FRACTION,
        typical=(0.5, 1),
        slips=((100, "a percentage divided by 100 twice"),),
    ),
    Arg(
        "cache_share",
        "Share of the memory the weights leave that the key/value cache takes, a "
        "fraction in (0, 1]: 90% (default), TensorRT-LLM's "
        "kv_cache_free_gpu_mem_fraction; the rest holds activations and the runtime.",
        "fraction",
        FRACTION,
        typical=(0.5, 1),
        slips=((100, "a percentage divided by 100 twice"),),
    ),
    Arg(
        "d_model",
        "Hidden size d_model in dimensions, a whole number: 4,096 for Llama 2 7B.",
        "dimensions",
        WHOLE,
    ),
    Arg(
        "rank",
        "LoRA rank r in dimensions, a whole number: 8, 16 or 64.",
        "dimensions",
        WHOLE,
        typical=(1, 512),
    ),
    Arg(
        "matrices",
        "Adapted square attention matrices per layer (d_model × d_model), a "
        "whole number: 2 for q_proj and v_proj, 4 for q, k, v and o; grouped-query "
        "k and v go in kv_matrices.",
        "matrices",
        WHOLE_OR_ZERO,
    ),
    Arg(
        "mlp_matrices",
        "Adapted MLP matrices per layer (d_model × ffn_dim), a whole number: 3 "
        "for gate, up and down of a gated MLP, 2 for a plain one; 0 (default) "
        "for none.",
        "matrices",
        WHOLE_OR_ZERO,
    ),
    Arg(
        "ffn_dim",
        "MLP width (intermediate_size) in dimensions, a whole number: 11,008 for "
        "Llama 2 7B; give with mlp_matrices.",
        "dimensions",
        WHOLE,
    ),
    Arg(
        "kv_matrices",
        "Adapted grouped-query key and value matrices per layer (d_model × "
        "kv_width), a whole number: 2 for k_proj and v_proj; 0 (default) for "
        "none.",
        "matrices",
        WHOLE_OR_ZERO,
    ),
    Arg(
        "kv_width",
        "Width of each key and value projection in dimensions, kv_heads × "
        "head_dim: 8 × 128 = 1,024 for Llama 3 8B; give with kv_matrices.",
        "dimensions",
        WHOLE,
    ),
    Arg(
        "experts",
        "MLP experts per layer, a whole number: 1 (default) for a dense model, 8 "
        'for Mixtral (MODEL_SPEC(model, "experts")); LoRA adapts the MLP '
        "matrices of each, and decoding reads those its batch is routed to.",
        "experts",
        WHOLE,
        typical=(1, 1024),
    ),
    Arg(
        "heads",
        "Attention heads (a), a whole number of query heads: 32 for Llama 2 7B.",
        "heads",
        WHOLE,
    ),
    Arg(
        "micro_batch",
        "Sequences each GPU processes per step (micro-batch b), a whole number.",
        "sequences",
        WHOLE,
        typical=(1, 256),
    ),
    Arg(
        "tensor_parallel",
        "Tensor-parallel degree t, a whole number of GPUs splitting each layer; "
        "1 (default) for none. Sequence parallelism is assumed with it.",
        "GPUs",
        WHOLE,
        typical=(1, 64),
    ),
    Arg(
        "recompute",
        'Activation recomputation: "none" (default, every activation kept), '
        '"selective" (attention scores recomputed) or "full" (only each '
        "layer's input kept).",
        "text",
        None,
        kind="choice",
        choice=RECOMPUTE,
    ),
    Arg(
        "optimizer",
        'The optimizer\'s state: "adam" (default: mixed precision, an fp32 master '
        'weight, momentum and variance, 12 bytes a trained weight), "bf16" (AdamW '
        'on a bf16 model, its states in bf16: 4) or "8bit" (8-bit Adam: 2).',
        "name",
        kind="choice",
        choice=OPTIMIZER,
    ),
    Arg(
        "optimizer_bytes",
        "Bytes of optimizer state per trained weight: 12 (default) for Adam with an "
        "fp32 master copy, 4 for AdamW in bf16, 2 for 8-bit Adam.",
        "bytes",
        typical=(0.5, 16),
    ),
    Arg(
        "method",
        'Fine-tuning method: "full" (every weight trains), "lora" (adapters on a '
        'frozen 16-bit model) or "qlora" (adapters on a 4-bit model).',
        "text",
        None,
        kind="choice",
        choice=METHOD,
    ),
    Arg(
        "lora_rank",
        "LoRA rank r in dimensions, on every linear layer, a whole number: 16 "
        "(default); ignored for full fine-tuning.",
        "dimensions",
        WHOLE,
        typical=(1, 1024),
    ),
    Arg(
        "kv_heads",
        "Key/value heads, a whole number: the heads for multi-head attention, "
        "fewer with grouped-query attention (8 for Llama 3 70B), 1 for "
        "multi-query.",
        "heads",
        WHOLE,
    ),
    Arg(
        "head_dim",
        "Dimensions per attention head, a whole number: 128 for most models.",
        "dimensions",
        WHOLE,
    ),
    Arg(
        "batch",
        "Sequences decoded at once (batch), a whole number.",
        "sequences",
        WHOLE,
    ),
    Arg(
        "bytes_per_value",
        "Bytes per cached key or value: 2 for bf16 or fp16, 1 for fp8. Default: "
        "the serving precision's (fp8 and fp4 weights cache in fp8, others in 16 "
        "bits), or bytes_per_param where only that is given.",
        "bytes",
        typical=(0.1, 8),
        slips=((1 / 8, "bits typed"),),
    ),
    Arg(
        "cache_width",
        "Values each layer caches per token: a key and a value of kv_heads × "
        "head_dim each (2 × 8 × 128 = 2,048 for Llama 3 8B), or latent "
        "attention's latent and rotary key (512 + 64 = 576 for DeepSeek-V3); "
        'MODEL_SPEC(model, "cache_width").',
        "values",
        WHOLE,
        typical=(16, 1_000_000),
    ),
    Arg(
        "cache_heads",
        "Heads the cache is split by under tensor parallelism: kv_heads, 1 for "
        "latent attention (each GPU then holds every sequence's latent whole). "
        "0 (default): split over the GPUs without copies.",
        "heads",
        WHOLE_OR_ZERO,
        typical=(1, 1024),
    ),
    Arg(
        "window",
        "Tokens a windowed layer attends to (sliding-window or chunked "
        "attention: 1,024 for Gemma 3's local layers, 128 for gpt-oss's); its "
        "cache stops growing there. 0 (default): no window.",
        "tokens",
        WHOLE_OR_ZERO,
        typical=(16, 10_000_000),
    ),
    Arg(
        "windowed_layers",
        "Layers that attend to the last window tokens only, a whole number: 0 "
        "(default) for none; 5 of every 6 for Gemma 3.",
        "layers",
        WHOLE_OR_ZERO,
        typical=(0, 1000),
    ),
    Arg(
        "parallel",
        'How a replica\'s GPUs share the model: "tp" (default) splits every layer '
        'over them; "ep" runs attention on each GPU for its own sequences and '
        "spreads a mixture's experts over the GPUs (expert parallelism).",
        "name",
        kind="choice",
        choice=PARALLEL,
    ),
    Arg(
        "request_ms",
        "Milliseconds (ms) every request costs besides its prompt's processing "
        "(scheduling, tokenizing, the first step): 8 (default, NVIDIA NIM's "
        "measured times to first token; docs/serving.md).",
        "ms",
        NONNEGATIVE,
        typical=(0, 1000),
    ),
    Arg(
        "expert_parallel",
        "How a replica's GPUs share a mixture: 0 (default, a flag) tensor parallel, "
        "every layer split over them; 1 attention data-parallel with expert "
        "parallelism: each GPU runs attention for its own sequences and holds "
        "1/gpus of the experts.",
        "flag",
        FLAG,
    ),
    # Energy and emissions
    Arg(
        "gpu_hours",
        "GPU-hours of the run (GPUs × hours), e.g. from FT_GPU_HOURS or "
        "CLUSTER_GPU_HOURS.",
        "GPU-hours",
    ),
    Arg(
        "watts_per_gpu",
        "Power per GPU in watts: its TDP for an upper bound (GPU_POWER_W; 400 for "
        "an A100 SXM) or a measured mean draw.",
        "watts",
        typical=(10, 5000),
        slips=((1e3, "kW typed"),),
    ),
    Arg(
        "pue",
        "Power usage effectiveness, the ratio of the facility's energy to the "
        "IT equipment's, 1 or more: 1 (default) counts the GPUs alone, 1.1 to "
        "1.2 is typical of large data centres.",
        "ratio",
        PUE,
        typical=(1, 2),
    ),
    Arg(
        "energy_mwh",
        "Energy in MWh (megawatt-hours), e.g. from TRAINING_ENERGY_MWH.",
        "MWh",
        NONNEGATIVE,
    ),
    Arg(
        "memory_gb",
        "Memory of one GPU in GB (10^9 bytes), the bytes it has: 85.52 for an "
        'H100 SXM, whose "80GB" are binary (GPU_MEMORY_GB).',
        "GB",
        typical=(1, 2048),
        slips=(
            (
                BYTES_PER_MIB / BYTES_PER_GB,
                "MiB typed, as nvidia-smi shows it",
                _not_thousands,
            ),
            (1e-3, "MB typed"),
            (1e-9, "bytes typed"),
            (1e3, "TB typed"),
        ),
    ),
    Arg(
        "other_gb",
        "Memory each GPU needs besides the model state, in GB: activations "
        "(ACTIVATION_GB), a cache, a known fixed overhead; 0 or more. The "
        "headroom is usable's.",
        "GB",
        NONNEGATIVE,
    ),
    Arg(
        "kg_co2_per_kwh",
        "Carbon intensity of the electricity in kg of CO2-equivalent per kWh "
        "(kg/kWh): 0.057 for the French grid BLOOM used, 0 or more.",
        "kg/kWh",
        NONNEGATIVE,
        typical=(0, 1.2),
        slips=((1e-3, "g/kWh typed"),),
    ),
    # Serving
    Arg(
        "bandwidth_tb_per_s",
        "Memory bandwidth of one GPU in TB/s: 3.35 for an H100 SXM (see "
        "GPU_BANDWIDTH_TBS).",
        "TB/s",
        typical=(0.05, 50),
        slips=((1e-3, "GB/s typed"),),
    ),
    Arg(
        "kv_cache_gb",
        "GB of key/value cache a decoding step reads, for the whole batch: "
        "KV_CACHE_GB(layers, kv_heads, head_dim, context, batch); 0 (default) "
        "counts the weights alone.",
        "GB",
        NONNEGATIVE,
    ),
    Arg(
        "kv_gb_per_sequence",
        "GB of key/value cache one sequence holds at the context served: "
        "KV_CACHE_GB(layers, kv_heads, head_dim, context, 1), 0.537 for Llama 3 "
        "8B at 4,096 tokens.",
        "GB",
        DIVISOR,
    ),
    Arg(
        "tokens_per_sec",
        "Traffic to serve in tokens/s, all users together: e.g. the busiest "
        "hour's tokens ÷ 3,600.",
        "tokens/s",
        typical=(1e-3, 1e9),
    ),
    Arg(
        "utilization",
        "Share of each GPU's measured throughput the traffic may use, a fraction "
        "in (0, 1]: 100% (default) runs every GPU flat out; 70% keeps headroom "
        "for peaks.",
        "fraction",
        FRACTION,
        typical=(0.2, 1),
        slips=((100, "a percentage divided by 100 twice"),),
    ),
    Arg(
        "bytes_per_param",
        "Bytes read per weight per token: 2 for bf16 or fp16 (default), 1 for "
        "8-bit, 0.5 for 4-bit weights.",
        "bytes",
        typical=(0.1, 8),
        slips=((1 / 8, "bits typed"),),
    ),
    Arg(
        "precision",
        "Precision the model is served in: bf16 (default), fp16, fp8, int8 or int4 "
        "(weights; the key/value cache at the same width unless bytes_per_value "
        "says otherwise).",
        "text",
        None,
        kind="choice",
        choice=PRECISION,
    ),
    Arg(
        "prompt_tokens",
        "Tokens in each request's prompt (its input), on average.",
        "tokens",
        typical=(1, 1_048_576),
    ),
    Arg(
        "output_tokens",
        "Tokens generated for each request (its output), on average.",
        "tokens",
        typical=(1, 131_072),
    ),
    Arg(
        "max_batch",
        "Most sequences decoded at once, a whole number: the server's limit "
        "(vLLM's --max-num-seqs); 256 (default).",
        "sequences",
        WHOLE,
        typical=(1, 65_536),
    ),
    Arg(
        "ms_per_token",
        "Latency target: the most milliseconds (ms) a user waits between output "
        "tokens (time per output token, e.g. 40); where optional, 0 or blank for "
        "none (maximum throughput).",
        "ms",
        NONNEGATIVE,
        typical=(1, 2000),
        slips=((1000, "seconds typed"),),
    ),
    Arg(
        "bandwidth_util",
        "Share of the memory bandwidth a decoding step reaches, a fraction in (0, "
        "1]: 55% (default, calibrated on measured runs; docs/serving.md).",
        "fraction",
        FRACTION,
        typical=(0.2, 1),
        slips=((100, "a percentage divided by 100 twice"),),
    ),
    Arg(
        "prefill_mfu",
        "Share of the precision's dense peak the compute-bound work reaches (prompt "
        "processing), a fraction in (0, 1]: 60% (default, calibrated; "
        "docs/serving.md).",
        "fraction",
        FRACTION,
        typical=(0.1, 0.95),
        slips=((100, "a percentage divided by 100 twice"),),
    ),
    Arg(
        "step_tokens",
        "Tokens one forward pass carries: the batch, for a decoding step; the "
        "prompt's length, for prompt processing.",
        "tokens",
        typical=(1, 10_000_000),
    ),
    Arg(
        "link_gb_per_s",
        "GPU-to-GPU bandwidth in GB/s, both directions together as vendors print "
        "it (NVLink 900 for an H100 SXM; GPU_INTERCONNECT_GBS); blank: a named "
        "GPU's own, else needed past one GPU. Between nodes, the network's: "
        "400 Gb/s InfiniBand is 100.",
        "GB/s",
        typical=(1, 20_000),
    ),
    # The shape as numbers (TRAINING_PEAK_GB, the REPLICA_ functions)
    Arg(
        "active_params",
        "Parameters each token uses, a plain count: params for a dense model, "
        '12.9E+9 for Mixtral 8x7B (MODEL_SPEC(model, "active_params")).',
        "parameters",
        typical=(1e6, 1e13),
        slips=((1e9, "a count in billions"), (1e6, "a count in millions")),
    ),
    Arg(
        "experts_per_token",
        "MLP experts each token is routed to, a whole number: 1 (default) for a "
        'dense model, 2 for Mixtral (MODEL_SPEC(model, "experts_per_token")).',
        "experts",
        WHOLE,
        typical=(1, 64),
    ),
    Arg(
        "vocab",
        "Vocabulary size in tokens, a whole number: 128,256 for Llama 3 "
        '(MODEL_SPEC(model, "vocab")); the loss keeps a logit for each.',
        "tokens",
        WHOLE,
        typical=(256, 2_000_000),
    ),
    Arg(
        "method_code",
        "Fine-tuning method as a code: 1 (default) full fine-tuning, 2 LoRA "
        "(adapters on a frozen 16-bit model), 3 QLoRA (on a 4-bit one).",
        "code",
        METHOD_CODE,
    ),
    Arg(
        "adapter_params",
        "LoRA adapter parameters, the weights that train, a plain count "
        "(MODEL_LORA_PARAMS or LORA_PARAMS); needed for LoRA and QLoRA, ignored "
        "for full fine-tuning.",
        "parameters",
        NONNEGATIVE,
    ),
    Arg(
        "embedding_params",
        "Parameters of the input embeddings and the output layer, which QLoRA "
        "keeps in 16 bits (MODEL_EMBEDDING_PARAMS); blank: 2 × vocab × d_model, "
        "untied.",
        "parameters",
        NONNEGATIVE,
    ),
    # Published models
    Arg(
        "model",
        "Model name, e.g. Llama 3.1 70B, Mistral 7B, Qwen2.5 7B, or a Hugging "
        "Face id such as meta-llama/Llama-3.1-8B (case, spaces and hyphens "
        "ignored).",
        "text",
        None,
        kind="choice",
        choice=MODEL,
    ),
    Arg(
        "field",
        "Which figure: params, active_params, layers, d_model, heads, kv_heads, "
        "head_dim, attention_width, kv_width, ffn_dim, vocab, context, experts "
        "or experts_per_token.",
        "text",
        None,
        kind="choice",
        choice=FIELD,
    ),
)

ARGS: dict[str, Arg] = {a.name: a for a in _ARGS}
