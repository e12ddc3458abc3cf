"""Accelerator figures from the cited table in :mod:`xlfuncs.data.accelerators`."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..data.accelerators import BY_NAME
from ..registry import InvalidValueError, formula
from ..registry.excel import (
    ACCELERATOR_KEYS,
    ACCELERATOR_PEAKS,
    ACCELERATOR_ROW,
    DTYPE_COLUMN,
    DTYPE_KEYS,
    key,
)

_ROW = f"INDEX({ACCELERATOR_ROW},MATCH({key('gpu')},{ACCELERATOR_KEYS},0))"
_COLUMN = f"INDEX({DTYPE_COLUMN},MATCH({key('dtype')},{DTYPE_KEYS},0))"


@formula(
    "GPU_PEAK_TFLOPS",
    unit="TFLOP/s",
    # A figure the table lacks is shown as text: +0 turns it into an error.
    excel=f"IFERROR(INDEX({ACCELERATOR_PEAKS},{_ROW},{_COLUMN})+0,NA())",
)
def gpu_peak_tflops(gpu: str, dtype: str | None = "bf16") -> float:
    """Dense peak TFLOP/s of one accelerator for a dtype, from its datasheet.

    Formula: a table look-up; dense figures only (half of NVIDIA's "with
    sparsity" rows), per chip. ``xlfuncs gpus`` lists the accelerators.

    Returns
    -------
    float
        Peak TFLOP/s (TOP/s for int8). An accelerator without that dtype gives
        ``#N/A`` with the dtypes it has.

    References
    ----------
    Vendor datasheets, cited per accelerator in
    :data:`xlfuncs.data.accelerators.ACCELERATORS`; e.g. the NVIDIA H100
    datasheet: BF16 1,979 TFLOPS with sparsity, 989.4 dense.

    Examples
    --------
    >>> gpu_peak_tflops("H100", "bf16")
    989.4
    >>> gpu_peak_tflops("A100")
    312.0
    """
    if TYPE_CHECKING:  # what the API hands the math: checked values
        dtype = cast(str, dtype)
    acc = BY_NAME[gpu]
    value = acc.peak_tflops.get(dtype)
    if value is None:
        have = ", ".join(acc.peak_tflops)
        raise InvalidValueError(
            "#N/A", f"{acc.name} has no {dtype} figure; it has {have}"
        )
    return float(value)
