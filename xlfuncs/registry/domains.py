"""The intervals numeric arguments live in, and what to say outside them."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .errors import InvalidValueError
from .excel import xl


@dataclass(frozen=True)
class Domain:
    """An interval of valid values, with the reason given for the others.

    ``rule`` completes "<name> must …" in Python terms; ``cell_rule`` says the
    same to someone typing into a cell. Excel answers x/0 with ``#DIV/0!``, so a
    divisor's ``zero_code`` says so. A ``whole`` domain holds whole numbers only
    (layers, a ZeRO stage): 2.5 is outside it, and its ``rule`` says so.
    """

    lo: float
    hi: float
    lo_closed: bool
    hi_closed: bool
    rule: str
    cell_rule: str = ""
    zero_code: str = "#NUM!"
    whole: bool = False

    def contains(self, x: float) -> bool:
        inside = (self.lo < x or (self.lo_closed and x == self.lo)) and (
            x < self.hi or (self.hi_closed and x == self.hi)
        )
        if not (inside and self.whole):
            return inside
        try:
            return float(x).is_integer()
        except OverflowError:  # an int too large for a float: not a usable number
            return False

    def mask(self, x: np.ndarray) -> np.ndarray:
        """True where ``x`` is inside the domain (NaN never is)."""
        low = x >= self.lo if self.lo_closed else x > self.lo
        high = x <= self.hi if self.hi_closed else x < self.hi
        if self.whole:
            inside: np.ndarray = low & high & (np.floor(x) == x)
            return inside
        return low & high

    def all_inside(self, x: np.ndarray) -> bool:
        """Whole-array check: an interval holds all of ``x`` if it holds its ends.

        A NaN anywhere makes ``min`` NaN, which no interval contains. Large
        contiguous arrays go by blocks, so that ``max`` reads what ``min`` has
        just brought into cache and memory is read once.
        """
        if x.size <= BLOCK or not x.flags.c_contiguous:
            blocks: tuple[np.ndarray, ...] | list[np.ndarray] = (x,) if x.size else ()
        else:
            flat = x.reshape(-1)
            blocks = [flat[i : i + BLOCK] for i in range(0, flat.size, BLOCK)]
        return all(
            self.contains(float(b.min()))
            and self.contains(float(b.max()))
            and (not self.whole or bool((np.floor(b) == b).all()))
            for b in blocks
        )

    def conditions(
        self, x: str, low: str | None = None, high: str | None = None
    ) -> dict[str, str]:
        """Excel conditions that hold for a value inside the domain, by what they
        test: "low" (the lower end), "high" (the upper end), "whole".

        ``x`` is the value's expression; ``low`` and ``high`` stand for it at each
        end (a whole range checked by its MIN and MAX). The one source of the
        checks in the templates and the LAMBDAs, as :meth:`mask` is in Python.
        """
        lo_x, hi_x = low or x, high or x
        out = {}
        if math.isfinite(self.lo):
            out["low"] = f"{lo_x}{'>=' if self.lo_closed else '>'}{xl(self.lo)}"
        if math.isfinite(self.hi):
            out["high"] = f"{hi_x}{'<=' if self.hi_closed else '<'}{xl(self.hi)}"
        if self.whole:
            out["whole"] = f"{x}=INT({x})"
        return out

    @property
    def least_whole(self) -> float:
        """The least whole number inside a ``whole`` domain (1 for counts)."""
        return float(math.ceil(self.lo) if self.lo_closed else math.floor(self.lo) + 1)

    def validation(self) -> tuple[str, str, str, str | None]:
        """Excel's data validation of the domain: (type, operator, formula1,
        formula2). Excel's "between" is inclusive, so an open end of a decimal
        range is nudged inside."""
        if self.whole:
            least = xl(self.least_whole)
            if math.isfinite(self.hi):
                return "whole", "between", least, xl(self.hi)
            return "whole", "greaterThanOrEqual", least, None
        if math.isfinite(self.hi):
            lo = self.lo if self.lo_closed else self.lo + 1e-12
            return "decimal", "between", xl(lo), xl(self.hi)
        op = "greaterThanOrEqual" if self.lo_closed else "greaterThan"
        return "decimal", op, xl(self.lo), None

    def error(self, name: str, x: float) -> InvalidValueError | None:
        """Why ``x`` is not a valid ``name``, or None if it is."""
        if self.contains(x):
            return None
        if math.isnan(x) or math.isinf(x):
            return InvalidValueError(
                "#NUM!", f"{name} must be a finite number, not {x}",
                f"{name} must be a finite number", got=str(x),
            )  # fmt: skip
        code = self.zero_code if x == 0 else "#NUM!"
        return InvalidValueError(
            code,
            f"{name} must {self.rule}, not {x:g}",
            f"{name} must {self.cell_rule or self.rule}",
            got=f"{x:g}",
        )


BLOCK = 1 << 16  # elements: 512 KiB of float64, inside a core's L2 cache

INF = math.inf
POSITIVE = Domain(0.0, INF, False, False, "be a positive number")
DIVISOR = Domain(0.0, INF, False, False, "be a positive number", zero_code="#DIV/0!")
NONNEGATIVE = Domain(0.0, INF, True, False, "be zero or a positive number")
FRACTION = Domain(
    0.0, 1.0, False, True,
    "be a fraction in (0, 1], e.g. 0.82 for 82 %",
    "be a fraction in (0, 1]: enter 82% or 0.82",
)  # fmt: skip
# Excel's PERCENTILE.INC convention: k from 0 to 1, so a cell showing 90% holds 0.9.
PERCENTILE = Domain(
    0.0, 1.0, True, True,
    "be from 0 to 1, e.g. 0.9 for the 90th percentile",
    "be from 0 to 1: enter 90% or 0.9 for the 90th percentile",
)  # fmt: skip


WHOLE = Domain(
    0.0, INF, False, False,
    "be a whole number, 1 or more", "be a whole number, 1 or more", whole=True,
)  # fmt: skip
WHOLE_OR_ZERO = Domain(
    0.0, INF, True, False,
    "be a whole number, 0 or more", "be a whole number, 0 or more", whole=True,
)  # fmt: skip
# ZeRO's stages (Rajbhandari et al. 2020): 0 none, 1 optimizer states, 2 also
# gradients, 3 also weights.
ZERO_STAGE = Domain(
    0.0, 3.0, True, True,
    "be 0, 1, 2 or 3 (0: no sharding; 1, 2, 3: ZeRO stage)",
    "be 0, 1, 2 or 3 (0: no sharding; 1, 2, 3: ZeRO stage)", whole=True,
)  # fmt: skip
# A switch between two ways of doing a thing: 0 or 1.
FLAG = Domain(0.0, 1.0, True, True, "be 0 or 1", "be 0 or 1", whole=True)
# Power usage effectiveness: facility energy over IT energy, 1 at best.
PUE = Domain(
    1.0, INF, True, False,
    "be 1 or more (facility energy over the IT equipment's; 1 counts the "
    "GPUs alone)",
    "be 1 or more: 1.1 for a modern data centre, 1 for the GPUs alone",
)  # fmt: skip


def all_finite(x: np.ndarray) -> bool:
    """True if no element is NaN or infinite: ``min`` and ``max`` propagate NaN."""
    if x.ndim == 0:  # one value: plain float arithmetic is quicker than a reduction
        return math.isfinite(float(x))
    return x.size == 0 or bool(np.isfinite(x.min()) and np.isfinite(x.max()))
