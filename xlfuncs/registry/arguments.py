"""Every argument any function takes, described once.

A function's parameter name selects its entry in :data:`ARGS`; the entry's ``doc``
(units included) becomes the Excel function-wizard help for that argument, the
*Parameters* section of the Python docstring and the docs' argument tables, and its
domain decides which values are accepted and which Excel error the rest give.
"""

from __future__ import annotations

import datetime
import difflib
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
from ..data.units import DTYPES, find_dtype
from .domains import DIVISOR, FRACTION, NONNEGATIVE, PERCENTILE, POSITIVE, Domain
from .errors import InputError, InvalidTypeError, InvalidValueError

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

    # ------------------------------------------------------------ one value

    def scalar_error(self, x: Any) -> InputError | None:
        """Why the single value ``x`` is not acceptable, or None if it is."""
        if self.kind == "choice":
            if isinstance(x, str):
                return None if self.key(x) is not None else self.unknown(x)
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
        assert self.choice is not None
        c, typed = self.choice, clean_name(text)
        names = list(dict.fromkeys(c.names()))
        lower = {n.lower(): n for n in (c.spellings or c.names)()}
        close = difflib.get_close_matches(typed.lower(), lower, n=1, cutoff=0.6)
        if close:
            hint = f"did you mean {lower[close[0]]!r}?"
            cell_hint = f"did you mean {lower[close[0]]}?"
        else:
            cell_hint = "use one of " + ", ".join(names)
            hint = cell_hint if len(names) <= 8 else f"{c.listed_by} lists them"
        return InvalidValueError(
            "#N/A",
            f"{self.name}: unknown {c.what} {typed!r}; {hint}",
            f"{self.name}: unknown {c.what} {typed!r}; {cell_hint}",
        )

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


def is_number(x: Any) -> bool:
    """True for a real number: a float, an int, numpy's, a Fraction or a Decimal.

    Windows Excel hands Currency- and Accounting-formatted cells to a UDF as
    Decimal (xlwings issue #65); Decimal is not a ``numbers.Real``.
    """
    return isinstance(x, (numbers.Real, Decimal)) and not isinstance(
        x, (bool, np.bool_)
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

_ARGS = (
    # Fine-tuning throughput (the "Estimador de throughput para fine-tuning" page)
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
        "Price of one GPU for one hour in your currency (currency/GPU-hour); 0 "
        "or more.",
        "currency/GPU-hour",
        NONNEGATIVE,
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
    Arg(
        "layers",
        "Transformer layers (L); give with attention_width and seq_len.",
        "layers",
    ),
    Arg(
        "attention_width",
        "Attention width in dimensions: heads × head size, e.g. 48 × 256 = 12,288 "
        "for PaLM 540B (not its d_model, 18,432); give with layers and seq_len.",
        "dimensions",
    ),
    Arg(
        "seq_len",
        "Training sequence length T in tokens; give with layers and attention_width.",
        "tokens",
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
        "Precision: bf16 (default), fp16, fp8, tf32, fp32, or int8 (TOP/s, for "
        "inference).",
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
)

ARGS: dict[str, Arg] = {a.name: a for a in _ARGS}
