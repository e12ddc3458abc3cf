"""Accelerator figures from the cited table in :mod:`xlfuncs.data.accelerators`."""

from __future__ import annotations

from ..data.accelerators import ACCELERATORS, BY_NAME
from ..registry import OptionalName, formula
from ..registry.excel import ACCELERATOR_KEYS, ACCELERATOR_ROW, key, xl
from ..registry.lookups import (
    _figure,
    gpu_bandwidth,
    gpu_memory,
    gpu_peak,
    gpu_power,
    lookup,
)


@formula("GPU_PEAK_TFLOPS", unit="TFLOP/s")
def gpu_peak_tflops(gpu: str, dtype: OptionalName = "bf16") -> float:
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
    Vendor datasheets, cited per accelerator on the Data sheet of the template
    workbooks and in the accelerator table of docs/functions.md; e.g. the NVIDIA H100
    datasheet: BF16 1,979 TFLOPS with sparsity, 989.4 dense.

    Examples
    --------
    >>> gpu_peak_tflops("H100", "bf16")
    989.4
    >>> gpu_peak_tflops("A100")
    312.0
    """
    return gpu_peak(gpu, dtype)


@formula("GPU_MEMORY_GB", unit="GB")
def gpu_memory_gb(gpu: str) -> float:
    """Memory one accelerator has in GB (10^9 bytes): nvidia-smi's or the datasheet's.

    Formula: a table look-up. Memory comes in powers of two: a datasheet's "80GB"
    of HBM is 80 GiB, 85.90 GB. The table holds nvidia-smi's total where a
    published output is cited (an H100 SXM reports 81,559 MiB, 85.52 GB), else
    the datasheet's size read as GiB (TPU v4: 32 GiB, 34.36 GB). Parts that
    differ in memory are separate names: "A100" is the 80 GB SXM, "A100 40GB"
    the 40 GB.

    Returns
    -------
    float
        GB per accelerator (per chip or OAM package, as GPU_PEAK_TFLOPS). A plan
        fits when it needs at most 90 % of it (docs/memory.md, the usable share).

    References
    ----------
    nvidia-smi outputs and vendor datasheets, cited per accelerator on the Data
    sheet of the template workbooks and in the accelerator table of
    docs/functions.md; e.g. the H100 SXM's "81559MiB" in NVIDIA/nccl issue
    #1264 and the A100 80GB's "81920MiB" in modal-labs/modal-client pull
    request #2797.

    Examples
    --------
    The A100 80GB: 81,920 MiB = 80 GiB.

    >>> gpu_memory_gb("A100")
    85.89934592
    >>> gpu_memory_gb("H100")
    85.520809984
    """
    return gpu_memory(gpu)


@formula("GPU_BANDWIDTH_TBS", unit="TB/s")
def gpu_bandwidth_tbs(gpu: str) -> float:
    """Peak memory bandwidth of one accelerator in TB/s, from its datasheet.

    Formula: a table look-up; TB/s of 10^12 bytes per second, the bandwidth
    of the accelerator's own memory (HBM or GDDR).

    Returns
    -------
    float
        TB/s per accelerator: the bandwidth_tb_per_s of DECODE_TOKENS_PER_SEC.

    References
    ----------
    Vendor datasheets, cited per accelerator on the Data sheet of the template
    workbooks and in the accelerator table of docs/functions.md; e.g. the
    NVIDIA H100 datasheet, H100 SXM column: "GPU Memory Bandwidth 3.35TB/s".

    Examples
    --------
    >>> gpu_bandwidth_tbs("H100")
    3.35
    >>> gpu_bandwidth_tbs("MI300X")
    5.325
    """
    return gpu_bandwidth(gpu)


@formula("GPU_POWER_W", unit="W")
def gpu_power_w(gpu: str) -> float:
    """Board power (maximum TDP) of one accelerator in watts, from its datasheet.

    Formula: a table look-up: the maximum thermal design power or total board
    power the vendor prints; a configurable range gives its top. Google
    publishes no power for TPU v5e, v5p and v6e (``#N/A``) and a measured
    maximum for v3 and v4; GH200's is the whole superchip's, CPU included.

    Returns
    -------
    float
        Watts per accelerator: the watts_per_gpu of TRAINING_ENERGY_MWH, an upper
        bound of its average draw.

    References
    ----------
    Vendor datasheets, cited per accelerator on the Data sheet of the template
    workbooks and in the accelerator table of docs/functions.md; e.g. the
    NVIDIA A100 datasheet, 80GB SXM column: "Max Thermal Design Power (TDP)
    400W", the figure BLOOM's and Llama 2's emissions use.

    Examples
    --------
    >>> gpu_power_w("A100")
    400.0
    >>> gpu_power_w("H100")
    700.0
    """
    return gpu_power(gpu)


def _array(values: list[float | None]) -> str:
    """A column of the accelerator table as an Excel array constant, in the
    table's row order; a missing figure as text, which +0 turns into an error."""
    return "{" + ";".join('"-"' if v is None else xl(v) for v in values) + "}"


#: Each accelerator's interconnect, in the order of AcceleratorRow's numbers.
INTERCONNECT = _array([a.interconnect_gbs for a in ACCELERATORS])


def _interconnect(gpu: str) -> float:
    acc = BY_NAME[gpu]
    return _figure(acc, acc.interconnect_gbs, "GPU-to-GPU bandwidth")


_ROW = f"INDEX({ACCELERATOR_ROW},MATCH({key('gpu')},{ACCELERATOR_KEYS},0))"


_gpu_interconnect = lookup(
    "gpu_interconnect",
    _interconnect,
    f"IFERROR(INDEX({INTERCONNECT},{_ROW})+0,NA())",
    ("gpu",),
)


@formula("GPU_INTERCONNECT_GBS", unit="GB/s")
def gpu_interconnect_gbs(gpu: str) -> float:
    """GPU-to-GPU bandwidth of one accelerator in GB/s, both ways, from its datasheet.

    Formula: a table look-up: NVLink, Infinity Fabric or inter-chip bandwidth
    per accelerator as the vendor prints it, the two directions added (an H100
    SXM's 18 NVLink links carry 450 GB/s each way: 900 GB/s); the PCIe figure
    for cards usually installed without a bridge. A ring all-reduce moves each
    byte over one direction of the links: the communication functions use
    half of this figure.

    Returns
    -------
    float
        GB/s (10^9 bytes per second) per accelerator, within one server. #N/A
        where the vendor prints no GPU-to-GPU figure (TPU v3 and v4, GH200,
        Gaudi): give link_gb_per_s to the communication functions instead.

    References
    ----------
    Vendor datasheets, cited per accelerator in the accelerator table of
    docs/functions.md; e.g. the NVIDIA H100 datasheet, H100 SXM column:
    "Interconnect: NVIDIA NVLink: 900GB/s, PCIe Gen5: 128GB/s", and the A100
    datasheet's "NVIDIA NVLink: 600GB/s".

    Examples
    --------
    >>> gpu_interconnect_gbs("H100")
    900.0
    >>> gpu_interconnect_gbs("A100")
    600.0
    >>> gpu_interconnect_gbs("L40S")
    64.0
    """
    return _gpu_interconnect(gpu)
