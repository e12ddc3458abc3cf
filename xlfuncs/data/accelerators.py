"""Common ML accelerators: dense peaks, memory, bandwidth, power, each cited.

The table backs ``GPU_PEAK_TFLOPS(gpu, [dtype="bf16"])``, ``GPU_MEMORY_GB``,
``GPU_BANDWIDTH_TBS`` and ``GPU_POWER_W`` in :mod:`xlfuncs.functions.hardware`.

Conventions
-----------
* Every figure is the **dense** peak (no 2:4 structured sparsity), per chip,
  in TFLOP/s (TOP/s for ``int8``). Since Ampere, NVIDIA datasheets print the
  tensor-core rows *with sparsity* and mark them with an asterisk; where a
  sheet gives only that figure we store half of it and say so in ``note``.
  AMD and Google sheets print dense figures (AMD lists the sparse ones next
  to them), so those are stored unchanged.
* dtype keys are lower case: ``bf16``, ``fp16``, ``fp8``, ``tf32``, ``fp32``,
  ``int8``, ``fp4``. A key is missing when the chip has no such mode or the
  vendor publishes no figure for it. ``fp16``/``bf16``/``fp8``/``tf32``/``int8``
  /``fp4`` are tensor/matrix-core rates. On NVIDIA ``fp32`` is the plain
  (non-tensor) FP32 rate; on AMD it is the datasheet's "FP32 Matrix" row.
  ``fp4`` is the 4-bit float rate: "FP4 Tensor Core" (NVFP4) on NVIDIA's
  Blackwell sheets, "MXFP4" on AMD's CDNA 4 ones (FP6 runs at the FP8 rate on
  Blackwell and at the FP4 one on CDNA 4; no column is kept for it).
* The Blackwell Ultra exception: the Blackwell Ultra datasheet prints FP4 as
  "sparse | dense" (18 | 14 PFLOPS for HGX B300, 20 | 15 for GB300 NVL72), and
  sparse is not twice dense there, so the dense figure is stored as printed,
  never half the sparse one. Its other tensor rows carry the usual footnote
  ("Dense is 1/2 sparse spec shown") and are halved.
* "Per chip" is per package a user rents as one accelerator: one GPU, one
  OAM module (an MI250X holds two GCDs, which ROCm shows as two devices of
  half the figure each), or one TPU chip (a TPU v4 chip holds two
  TensorCores).
* Name look-up (``find``) ignores case, spaces, hyphens and underscores, and
  strips a leading vendor word ("NVIDIA", "AMD Instinct", "Google", ...).
  A bare family name means the flagship server part: "H100" is the H100 SXM
  (the PCIe and NVL cards are slower and must be named), "A100" is the SXM4
  80 GB part, "V100" is the SXM2 32 GB part (the PCIe card is 112 / 14
  TFLOP/s), "GH200" the 96 GB HBM3 superchip, "H200" is the H200 SXM,
  "B200" is the HGX B200 (GB200 is a separate, faster-clocked entry), "B300"
  the HGX B300 (GB300 likewise), and "RTX PRO 6000" the Server Edition (the
  Workstation Edition, "RTX PRO 6000 WS", has faster memory).
* Memory: ``memory_gb`` is the memory the device has, in GB of 10^9 bytes.
  Memory chips come in powers of two, so a datasheet's "80GB" of HBM is 80 GiB,
  85.90 GB: where a published nvidia-smi output is cited, its total (an H100
  SXM reports 81,559 MiB, 85.52 GB; an A100 80GB 81,920 MiB, 85.90 GB; an H200
  143,771 MiB, 150.75 GB), else the datasheet's size read as GiB (:func:`gib`,
  :func:`mib`). ``specs_source`` says which, row by row. A plan fits when its
  memory per GPU is at most :data:`.units.USABLE_MEMORY` of this figure.
* Bandwidth and power: ``bandwidth_tbs`` in TB/s (10^12 bytes per second, as
  vendors print it), ``power_w`` the maximum TDP or total board power in W
  (None where the vendor publishes none). Parts that differ only in
  memory (A100 40 GB and 80 GB, SXM and PCIe; V100 16 and 32 GB; GH200 HBM3
  and HBM3e) are separate entries with the same peaks, so that each name gets
  its own memory, bandwidth and power.
* Between servers: ``network_gbps`` is the scale-out network per GPU in Gb/s
  (bits, as NICs are sold: a ConnectX-7 port of 400 Gb/s for each GPU of an
  HGX H100, H200 or B200; a ConnectX-8 of 800 Gb/s on HGX B300 and GB300), and
  ``node_gpus`` the GPUs the in-node link (``interconnect_gbs``) joins: 8 on an
  HGX board or an 8-GPU AMD platform, 72 in a GB200 or GB300 NVL72 rack. None
  where no source was found; ``network_source`` cites both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .names import normalize
from .units import BYTES_PER_GB, BYTES_PER_GIB, BYTES_PER_MIB


def gib(n: float) -> float:
    """GB (10^9 bytes) in ``n`` GiB: the size a datasheet's "80GB" of HBM means."""
    return n * BYTES_PER_GIB / BYTES_PER_GB


def mib(n: float) -> float:
    """GB (10^9 bytes) in ``n`` MiB: nvidia-smi's memory total."""
    return n * BYTES_PER_MIB / BYTES_PER_GB


@dataclass(frozen=True)
class Accelerator:
    """One accelerator model and its dense peak throughput per chip."""

    name: str  # canonical display name, e.g. "H100 SXM"
    aliases: tuple[str, ...]  # other spellings users type
    vendor: str
    # Dense peak TFLOP/s per chip, by lower-case dtype key.
    peak_tflops: dict[str, float] = field(hash=False)
    source: str  # datasheet title and URL
    note: str = ""  # how the figures were derived, caveats
    # Memory in GB (10^9 bytes) the device has (see the module's conventions),
    # memory bandwidth in TB/s and board power
    # (maximum TDP or total board power) in W; None where the vendor publishes
    # no figure. ``specs_source`` cites them; ``specs_note`` gives caveats.
    memory_gb: float | None = None
    bandwidth_tbs: float | None = None
    power_w: float | None = None
    specs_source: str = ""
    specs_note: str = ""
    # GPU-to-GPU bandwidth in GB/s, both directions together, as the vendor
    # prints it (NVLink 900 GB/s for an H100 SXM); None where none is printed.
    interconnect_gbs: float | None = None
    interconnect_source: str = ""
    # The scale-out network per GPU in Gb/s, and the GPUs one in-node link
    # joins (see the module's conventions); None where no source gives them.
    network_gbps: float | None = None
    node_gpus: int | None = None
    network_source: str = ""


_V100_PEAKS = {"fp16": 125.0, "fp32": 15.7}
_V100_SOURCE = (
    "NVIDIA Tesla V100 GPU Accelerator datasheet, "
    "https://images.nvidia.com/content/technologies/volta/pdf/"
    "volta-v100-datasheet-update-us-1165301-r5.pdf"
)
_A100_PEAKS = {
    "bf16": 312.0,
    "fp16": 312.0,
    "tf32": 156.0,
    "fp32": 19.5,
    "int8": 624.0,
}
_A100_SOURCE = (
    "NVIDIA A100 Tensor Core GPU datasheet, "
    "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/"
    "a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf"
)
_A100_NOTE = (
    "Datasheet prints dense and sparse side by side; dense used. 40GB/80GB and "
    "SXM/PCIe share the same peak figures (the 300 W PCIe card sustains lower "
    "clocks in practice)."
)

_GH200_PEAKS = {
    "bf16": 990.0,
    "fp16": 990.0,
    "fp8": 1979.0,
    "tf32": 494.0,
    "fp32": 67.0,
    "int8": 1979.0,
}
_GH200_SOURCE = (
    "NVIDIA GH200 Grace Hopper Superchip datasheet, "
    "https://nvdam.widen.net/s/rrgqqnpbz8/"
    "grace-datasheet-gh200-grace-hopper-superchip-3773000"
)
_GH200_NOTE = (
    "Datasheet prints dense and sparse side by side; dense used. Hopper GPU of "
    "one superchip (the Grace CPU is not counted)."
)

_HGX_HOPPER_NETWORK = (
    "one ConnectX-7 NDR port of 400 Gb/s per GPU: NVIDIA's aiconfigurator system "
    "file for the H100 SXM ('1:1 CX7 NDR 400Gb/s per node', "
    "https://github.com/ai-dynamo/aiconfigurator/blob/"
    "095f58a51c4ca8e61b66ec108d86f223f8d559ce/aic-core/src/aiconfigurator_core/"
    "systems/h100_sxm.yaml); 8 GPUs on one NVSwitch fabric: 'The HGX H100 8-GPU "
    "... hosts eight H100 Tensor Core GPUs and four third-generation NVSwitch' "
    "(NVIDIA technical blog, 'Introducing NVIDIA HGX H100', "
    "https://developer.nvidia.com/blog/introducing-nvidia-hgx-h100-an-accelerated-"
    "server-platform-for-ai-and-high-performance-computing/)"
)

_BLACKWELL_ULTRA_SOURCE = (
    "NVIDIA Blackwell Ultra datasheet (October 2025), p. 5, "
    "https://resources.nvidia.com/en-us-blackwell-architecture/"
    "blackwell-ultra-datasheet, as two independent transcriptions of its table "
    "agree cell for cell, and NVIDIA's ai-dynamo/aiconfigurator (b300_sxm.yaml, "
    "gb300.yaml) repeats it"
)

_HALVED = (
    "Tensor-core rows are half of the datasheet figures, which are printed "
    "with sparsity (*); FP32 is the datasheet's non-tensor figure."
)

ACCELERATORS: tuple[Accelerator, ...] = (
    # ------------------------------------------------------------------ NVIDIA
    Accelerator(
        name="V100 SXM2",
        aliases=(
            "V100",
            "Tesla V100",
            "V100 SXM",
            "V100 SXM2 32GB",
            "V100 32GB",
        ),
        vendor="NVIDIA",
        # Datasheet: Tensor Performance 125 TFLOPS, FP32 15.7, FP64 7.8.
        # Volta has no sparsity, no BF16, no TF32. Cross-check: Marin/fray
        # device_flops ("v100-sxm": fp16 125, fp32 15.7) agrees.
        peak_tflops=_V100_PEAKS,
        source=_V100_SOURCE,
        note=(
            "Volta has no BF16, TF32, FP8 or sparsity; fp16 is the tensor-core "
            "figure. V100 PCIe is lower (112 fp16, 14 fp32) and is not listed."
        ),
        # Datasheet, V100 SXM2 column: "GPU Memory 32 GB /16 GB HBM2",
        # "Memory Bandwidth 900 GB/sec", "Max Power Consumption 300 W".
        memory_gb=gib(32),
        bandwidth_tbs=0.9,
        power_w=300.0,
        interconnect_gbs=300.0,
        interconnect_source=(
            "NVIDIA Tesla V100 datasheet (above), SXM2 column: 'Interconnect Bandwidth"
            " Bi-Directional: NVLink 300 GB/s'"
        ),
        specs_source=(
            "NVIDIA Tesla V100 datasheet (above), SXM2 column: 32 GB HBM2, "
            "900 GB/sec, 300 W"
            "; memory 32 GB read as the 32 GiB of HBM2 the part holds"
        ),
        specs_note=(
            "The 32 GB part; 'V100 SXM2 16GB' is listed separately. V100 PCIe: 250 W."
        ),
    ),
    Accelerator(
        name="V100 SXM2 16GB",
        aliases=("V100 16GB", "V100 SXM 16GB"),
        vendor="NVIDIA",
        # Same datasheet and compute as the 32 GB part; memory 16 GB HBM2
        # (AWS p3.2xlarge to p3.16xlarge have this part).
        peak_tflops=_V100_PEAKS,
        source=_V100_SOURCE,
        note="The 16 GB V100 SXM2: the 32 GB part's peaks.",
        memory_gb=gib(16),
        bandwidth_tbs=0.9,
        power_w=300.0,
        interconnect_gbs=300.0,
        interconnect_source=(
            "NVIDIA Tesla V100 datasheet (above), SXM2 column: 'Interconnect Bandwidth"
            " Bi-Directional: NVLink 300 GB/s'"
        ),
        specs_source=(
            "NVIDIA Tesla V100 datasheet (above), SXM2 column: 16 GB HBM2, "
            "900 GB/sec, 300 W"
            "; memory 16 GB read as 16 GiB"
        ),
    ),
    Accelerator(
        name="A100 SXM",
        aliases=(
            "A100",
            "A100 SXM4",
            "A100 80GB",
            "A100 SXM 80GB",
            "A100 SXM4 80GB",
        ),
        vendor="NVIDIA",
        # Datasheet prints "dense | sparse*": TF32 156 | 312*, BF16 312 | 624*,
        # FP16 312 | 624*, INT8 624 | 1248*; FP32 19.5. Cross-checks:
        # torchtitan get_peak_flops (312e12), Marin/fray (312, 156, 19.5).
        peak_tflops=_A100_PEAKS,
        source=_A100_SOURCE,
        note=_A100_NOTE + " Plain 'A100' means this SXM4 80 GB part.",
        # Datasheet, columns 40GB PCIe | 80GB PCIe | 40GB SXM | 80GB SXM:
        # "GPU Memory 40GB HBM2 | 80GB HBM2e | 40GB HBM2 | 80GB HBM2e", "GPU
        # Memory Bandwidth 1,555GB/s | 1,935GB/s | 1,555GB/s | 2,039GB/s",
        # "Max TDP 250W | 300W | 400W | 400W***".
        memory_gb=mib(81_920),
        bandwidth_tbs=2.039,
        power_w=400.0,
        interconnect_gbs=600.0,
        interconnect_source=(
            "NVIDIA A100 datasheet (above), SXM columns: 'Interconnect: NVIDIA NVLink:"
            " 600GB/s, PCIe Gen4: 64GB/s'"
        ),
        specs_source=(
            "NVIDIA A100 datasheet (above), 80GB SXM column: 80 GB HBM2e, "
            "2,039 GB/s, 400 W"
            "; memory as nvidia-smi reports it, 81,920 MiB (80 GiB): the totals of "
            "modal-labs/modal-client pull request #2797, "
            "https://github.com/modal-labs/modal-client/pull/2797"
        ),
        specs_note="HGX A100 80GB custom-thermal parts allow up to 500 W.",
    ),
    Accelerator(
        name="A100 SXM 40GB",
        aliases=("A100 40GB", "A100 SXM4 40GB"),
        vendor="NVIDIA",
        peak_tflops=_A100_PEAKS,
        source=_A100_SOURCE,
        note=_A100_NOTE,
        memory_gb=mib(40_960),
        bandwidth_tbs=1.555,
        power_w=400.0,
        interconnect_gbs=600.0,
        interconnect_source=(
            "NVIDIA A100 datasheet (above), SXM columns: 'Interconnect: NVIDIA NVLink:"
            " 600GB/s, PCIe Gen4: 64GB/s'"
        ),
        specs_source=(
            "NVIDIA A100 datasheet (above), 40GB SXM column: 40 GB HBM2, "
            "1,555 GB/s, 400 W"
            "; memory as nvidia-smi reports it, 40,960 MiB (40 GiB): "
            "modal-labs/modal-client pull request #2797, "
            "https://github.com/modal-labs/modal-client/pull/2797"
        ),
    ),
    Accelerator(
        name="A100 PCIe",
        aliases=("A100 PCIe 80GB", "A100 80GB PCIe"),
        vendor="NVIDIA",
        peak_tflops=_A100_PEAKS,
        source=_A100_SOURCE,
        note=_A100_NOTE,
        memory_gb=gib(80),
        bandwidth_tbs=1.935,
        power_w=300.0,
        interconnect_gbs=64.0,
        interconnect_source=(
            "NVIDIA A100 datasheet (above), PCIe columns: 'PCIe Gen4: 64GB/s' (an "
            "NVLink bridge joins two cards at 600GB/s; pass link_gb_per_s 600 for such"
            " a pair)"
        ),
        specs_source=(
            "NVIDIA A100 datasheet (above), 80GB PCIe column: 80 GB HBM2e, "
            "1,935 GB/s, 300 W"
            "; memory 80 GB read as 80 GiB"
        ),
    ),
    Accelerator(
        name="A100 PCIe 40GB",
        aliases=("A100 40GB PCIe",),
        vendor="NVIDIA",
        peak_tflops=_A100_PEAKS,
        source=_A100_SOURCE,
        note=_A100_NOTE,
        memory_gb=gib(40),
        bandwidth_tbs=1.555,
        power_w=250.0,
        interconnect_gbs=64.0,
        interconnect_source=(
            "NVIDIA A100 datasheet (above), PCIe columns: 'PCIe Gen4: 64GB/s' (an "
            "NVLink bridge joins two cards at 600GB/s; pass link_gb_per_s 600 for such"
            " a pair)"
        ),
        specs_source=(
            "NVIDIA A100 datasheet (above), 40GB PCIe column: 40 GB HBM2, "
            "1,555 GB/s, 250 W"
            "; memory 40 GB read as 40 GiB"
        ),
    ),
    Accelerator(
        name="A10",
        aliases=("A10 24GB", "A10 PCIe"),
        vendor="NVIDIA",
        # Datasheet: FP32 31.2; TF32 62.5 | 125*; BF16 125 | 250*;
        # FP16 125 | 250*; INT8 250 | 500*. Cross-check: Marin/fray "a10".
        peak_tflops={
            "bf16": 125.0,
            "fp16": 125.0,
            "tf32": 62.5,
            "fp32": 31.2,
            "int8": 250.0,
        },
        source=(
            "NVIDIA A10 Tensor Core GPU datasheet, "
            "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/"
            "a10/pdf/a10-datasheet.pdf"
        ),
        note="Datasheet prints dense and sparse side by side; dense used.",
        # Datasheet: "GPU Memory 24GB GDDR6", "GPU Memory Bandwidth 600 GB/s",
        # "Max thermal design power (TDP) 150W".
        memory_gb=mib(23_028),
        bandwidth_tbs=0.6,
        power_w=150.0,
        interconnect_gbs=64.0,
        interconnect_source=(
            "NVIDIA A10 datasheet (above): 'Interconnect: PCIe Gen4 64GB/s'"
        ),
        specs_source=(
            "NVIDIA A10 datasheet (above): 24 GB GDDR6, 600 GB/s, 150 W"
            "; memory as nvidia-smi reports it with ECC on, 23,028 MiB: "
            "modal-labs/modal-client pull request #2797, "
            "https://github.com/modal-labs/modal-client/pull/2797"
        ),
        specs_note="Figures as transcribed from the datasheet by several sources.",
    ),
    Accelerator(
        name="A10G",
        aliases=("A10G 24GB",),
        vendor="NVIDIA",
        # AWS-only variant (EC2 G5). Its datasheet is a scanned PDF; the
        # figures below are as transcribed by several public projects citing
        # it: BF16/FP16 70 dense (140 sparse), TF32 35, FP32 35. A published
        # bf16 8192^3 matmul measured 66.6 TFLOP/s on an A10G (95 % of 70),
        # which rules out the A10's 125.
        # CONFLICT: Marin/fray and a few other tables reuse the A10's 125 for
        # the A10G; that is wrong for tensor throughput.
        peak_tflops={"bf16": 70.0, "fp16": 70.0, "tf32": 35.0, "fp32": 35.0},
        source=(
            "NVIDIA A10G Tensor Core GPU datasheet (hosted by AWS), "
            "https://d1.awsstatic.com/product-marketing/ec2/"
            "NVIDIA_AWS_A10G_DataSheet_FINAL_02_17_2022.pdf"
        ),
        note=(
            "Not the same card as the A10: lower tensor rate, higher FP32. "
            "Figures taken from third-party transcriptions of the datasheet "
            "(not machine-readable); lower confidence than other entries."
        ),
        # The scanned datasheet again; 24 GB GDDR6 at 600 GB/s as the A10
        # (Baseten: "share the same GPU memory stats"); 300 W is the power cap
        # nvidia-smi reports on EC2 g5 ("24W / 300W").
        memory_gb=mib(23_028),
        bandwidth_tbs=0.6,
        power_w=300.0,
        interconnect_gbs=None,
        interconnect_source=(
            "the A10G datasheet, a scanned PDF, is not transcribed for its interconnect"
        ),
        specs_source=(
            "NVIDIA A10G datasheet (above), a scanned PDF: 24 GB GDDR6 at "
            "600 GB/s as transcribed; 300 W as the driver's power cap on AWS EC2 "
            "G5 instances"
            "; memory as nvidia-smi reports it on EC2 G5, 23,028 MiB: NVIDIA/DCGM "
            "issue #232, https://github.com/NVIDIA/DCGM/issues/232"
        ),
        specs_note="Lower confidence: no machine-readable vendor text.",
    ),
    Accelerator(
        name="L4",
        aliases=("L4 24GB",),
        vendor="NVIDIA",
        # Datasheet (all tensor rows with sparsity*): TF32 120*, BF16 242*,
        # FP16 242*, FP8 485*, INT8 485*; FP32 30.3. Cross-check: Marin/fray
        # (242e12/2 etc.). CONFLICT: some public tables use 242 as the L4's
        # fp16 peak (the sparse figure) and one uses 90.
        peak_tflops={
            "bf16": 121.0,
            "fp16": 121.0,
            "fp8": 242.5,
            "tf32": 60.0,
            "fp32": 30.3,
            "int8": 242.5,
        },
        source=(
            "NVIDIA L4 Tensor Core GPU datasheet, "
            "https://resources.nvidia.com/en-us-data-center-overview/"
            "l4-gpu-datasheet"
        ),
        note=_HALVED,
        # Datasheet: "GPU memory 24GB", "GPU memory bandwidth 300GB/s",
        # "Max thermal design power (TDP) 72W".
        memory_gb=mib(23_034),
        bandwidth_tbs=0.3,
        power_w=72.0,
        interconnect_gbs=64.0,
        interconnect_source=(
            "NVIDIA L4 datasheet (above): 'Interconnect: PCIe Gen4 x16 64GB/s'"
        ),
        specs_source=(
            "NVIDIA L4 datasheet (above): 24 GB GDDR6, 300 GB/s, 72 W"
            "; memory as nvidia-smi reports it, 23,034 MiB: modal-labs/modal-client "
            "pull request #2797, https://github.com/modal-labs/modal-client/pull/2797"
        ),
    ),
    Accelerator(
        name="L40S",
        aliases=("L40S 48GB", "L40-S"),
        vendor="NVIDIA",
        # Datasheet prints "dense | sparse*": TF32 183 | 366*, BF16 362.05 |
        # 733*, FP16 362.05 | 733*, FP8 733 | 1,466*, INT8 733 | 1,466*;
        # FP32 91.6. Cross-checks: torchtitan (362e12), Marin/fray (733/2).
        # CONFLICT: several public MFU tables use 366 or 733 for bf16.
        peak_tflops={
            "bf16": 362.05,
            "fp16": 362.05,
            "fp8": 733.0,
            "tf32": 183.0,
            "fp32": 91.6,
            "int8": 733.0,
        },
        source=(
            "NVIDIA L40S GPU datasheet, "
            "https://resources.nvidia.com/en-us-l40s/l40s-datasheet-28413"
        ),
        note="Datasheet prints dense and sparse side by side; dense used.",
        # Datasheet: "GPU Memory 48GB GDDR6 with ECC", "Memory Bandwidth
        # 864GB/s", "Max Power Consumption 350W".
        memory_gb=mib(46_068),
        bandwidth_tbs=0.864,
        power_w=350.0,
        interconnect_gbs=64.0,
        interconnect_source=(
            "NVIDIA L40S datasheet (above): 'PCIe Gen4 x16: 64GB/s bidirectional'"
        ),
        specs_source=(
            "NVIDIA L40S datasheet (above): 48 GB GDDR6, 864 GB/s, 350 W"
            "; memory as nvidia-smi reports it with ECC on, 46,068 MiB: "
            "modal-labs/modal-client pull request #2797, "
            "https://github.com/modal-labs/modal-client/pull/2797"
        ),
    ),
    Accelerator(
        name="H100 SXM",
        aliases=(
            "H100",
            "H100 SXM5",
            "H100 SXM 80GB",
            "H100 SXM5 80GB",
            "H100 80GB",
            "H100 80GB HBM3",
        ),
        vendor="NVIDIA",
        # Datasheet (sparse*): TF32 989*, BF16 1,979*, FP16 1,979*,
        # FP8 3,958*, INT8 3,958*; FP32 67. Tensor values below are the H100
        # whitepaper's unrounded dense column (TF32 494.7, BF16/FP16 989.4,
        # FP8/INT8 1978.9), which equal the datasheet halves to 0.02 %.
        # Cross-checks: torchtitan (989e12), Marin/fray (1.979e15/2),
        # Glenn Klockwood's H100 table (989.4 / 494.7 / 1978.9).
        peak_tflops={
            "bf16": 989.4,
            "fp16": 989.4,
            "fp8": 1978.9,
            "tf32": 494.7,
            "fp32": 67.0,
            "int8": 1978.9,
        },
        source=(
            "NVIDIA H100 Tensor Core GPU datasheet, "
            "https://resources.nvidia.com/en-us-tensor-core/"
            "nvidia-tensor-core-gpu-datasheet; dense column of the NVIDIA "
            "H100 Tensor Core GPU Architecture whitepaper, "
            "https://resources.nvidia.com/en-us-tensor-core"
        ),
        note=(
            "Datasheet tensor rows are with sparsity; stored values are the "
            "dense ones (datasheet / 2, unrounded per the whitepaper). Plain "
            "'H100' means this SXM part."
        ),
        # Datasheet, H100 SXM column: "GPU Memory 80GB", "GPU Memory
        # Bandwidth 3.35TB/s", "Max Thermal Design Power (TDP) Up to 700W
        # (configurable)". CONFLICT: 2022 launch material says 3 TB/s.
        memory_gb=mib(81_559),
        bandwidth_tbs=3.35,
        power_w=700.0,
        interconnect_gbs=900.0,
        interconnect_source=(
            "NVIDIA H100 datasheet (above), H100 SXM column: 'Interconnect: NVIDIA "
            "NVLink: 900GB/s, PCIe Gen5: 128GB/s'"
        ),
        network_gbps=400.0,
        node_gpus=8,
        network_source=_HGX_HOPPER_NETWORK,
        specs_source=(
            "NVIDIA H100 datasheet (above), H100 SXM column: 80 GB, 3.35 TB/s, "
            "up to 700 W"
            "; memory as nvidia-smi reports it, 81,559 MiB: NVIDIA/nccl issue #1264, "
            "https://github.com/NVIDIA/nccl/issues/1264, and modal-labs/modal-client "
            "pull request #2797, https://github.com/modal-labs/modal-client/pull/2797"
        ),
        specs_note="Launch material (2022) gave 3 TB/s; the current sheet 3.35.",
    ),
    Accelerator(
        name="H100 PCIe",
        aliases=("H100 PCIe 80GB", "H100 80GB PCIe"),
        vendor="NVIDIA",
        # 2022 H100 datasheet, PCIe column (sparse*): TF32 756*, BF16 1,513*,
        # FP16 1,513*, FP8 3,026*, INT8 3,026*; FP32 51. Cross-checks:
        # torchtitan (756e12), Marin/fray (1.513e15/2).
        peak_tflops={
            "bf16": 756.5,
            "fp16": 756.5,
            "fp8": 1513.0,
            "tf32": 378.0,
            "fp32": 51.0,
            "int8": 1513.0,
        },
        source=(
            "NVIDIA H100 Tensor Core GPU datasheet (2022 revision, PCIe "
            "column), https://nvdam.widen.net/content/vuzumiozpb/original/"
            "h100-datasheet-2287922.pdf"
        ),
        note=_HALVED + " The current datasheet revision drops the PCIe column.",
        # 2022 datasheet, PCIe column: 80GB, 2TB/s, "300-350W
        # (configurable)"; product brief PB-11133-001_v02: "maximum thermal
        # design power (TDP) level of 350 W".
        memory_gb=gib(80),
        bandwidth_tbs=2.0,
        power_w=350.0,
        interconnect_gbs=128.0,
        interconnect_source=(
            "NVIDIA H100 datasheet, 2022 revision (above), PCIe column: 'NVLink: "
            "600GB/s, PCIe Gen5: 128GB/s'; the PCIe figure, as the card is mostly "
            "installed without a bridge (pass link_gb_per_s 600 for a bridged pair)"
        ),
        specs_source=(
            "NVIDIA H100 datasheet, 2022 revision (above), PCIe column: 80 GB "
            "HBM2e, 2 TB/s, 300-350 W; H100 PCIe product brief PB-11133-001: "
            "350 W maximum TDP"
            "; memory 80 GB read as 80 GiB"
        ),
        specs_note="TDP configurable 300-350 W; the maximum is stored.",
    ),
    Accelerator(
        name="H100 NVL",
        aliases=("H100 NVL 94GB",),
        vendor="NVIDIA",
        # Current H100 datasheet, NVL column, per GPU (sparse*): TF32 835*,
        # BF16 1,671*, FP16 1,671*, FP8 3,341*, INT8 3,341*; FP32 60.
        # Cross-check: torchtitan (835e12). CONFLICT: the 2023 datasheet gave
        # NVL figures for a *pair* of GPUs (e.g. FP32 134, BF16 3,958*).
        peak_tflops={
            "bf16": 835.5,
            "fp16": 835.5,
            "fp8": 1670.5,
            "tf32": 417.5,
            "fp32": 60.0,
            "int8": 1670.5,
        },
        source=(
            "NVIDIA H100 Tensor Core GPU datasheet, H100 NVL column, "
            "https://resources.nvidia.com/en-us-tensor-core/"
            "nvidia-tensor-core-gpu-datasheet"
        ),
        note=_HALVED + " Per single 94 GB GPU, not per NVLink-bridged pair.",
        # Current datasheet, NVL column, per GPU: "GPU Memory 94GB", "GPU
        # Memory Bandwidth 3.9TB/s", "Max TDP 350-400W (configurable)".
        memory_gb=gib(94),
        bandwidth_tbs=3.9,
        power_w=400.0,
        interconnect_gbs=600.0,
        interconnect_source=(
            "NVIDIA H100 datasheet (above), H100 NVL column: 'NVIDIA NVLink: 600GB/s, "
            "PCIe Gen5: 128GB/s'; the NVLink figure, as the cards are sold as bridged "
            "pairs (past a pair, PCIe: pass link_gb_per_s 128)"
        ),
        specs_source=(
            "NVIDIA H100 datasheet (above), H100 NVL column: 94 GB, 3.9 TB/s, 350-400 W"
            "; memory 94 GB read as 94 GiB"
        ),
        specs_note=(
            "Per GPU; the 2023 revision printed a bridged pair (188 GB, 7.8 TB/s)."
        ),
    ),
    Accelerator(
        name="GH200",
        aliases=("GH200 Grace Hopper", "GH200 96GB", "GH200 480GB"),
        vendor="NVIDIA",
        # GH200 datasheet prints "sparse* | dense" (per superchip, one GPU):
        # TF32 989* | 494, BF16 1,979* | 990, FP16 1,979* | 990,
        # FP8 3,958* | 1,979, INT8 3,958* | 1,979; FP32 67.
        peak_tflops=_GH200_PEAKS,
        source=_GH200_SOURCE,
        note=_GH200_NOTE,
        # GH200 datasheet: "High-bandwidth memory (HBM) size 96GB HBM3 |
        # 144GB HBM3e", "Memory bandwidth Up to 4TB/s | Up to 4.9TB/s",
        # "Power (Memory + CPU + GPU) Configurable 450 to 1000W".
        memory_gb=gib(96),
        bandwidth_tbs=4.0,
        power_w=1000.0,
        interconnect_gbs=None,
        interconnect_source=(
            "the GH200 datasheet (above) prints the 900 GB/s NVLink-C2C between its "
            "CPU and GPU, not a GPU-to-GPU figure"
        ),
        specs_source=(
            "NVIDIA GH200 datasheet (above): 96 GB HBM3, up to 4 TB/s; power "
            "(memory + CPU + GPU) configurable 450 to 1000 W"
            "; memory 96 GB read as 96 GiB"
        ),
        specs_note=(
            "The 96 GB HBM3 part (clouds rent it as 'GH200 480GB'). Power is the "
            "whole superchip's, Grace CPU included: NVIDIA gives no GPU-only TDP."
        ),
    ),
    Accelerator(
        name="GH200 144GB",
        aliases=("GH200 HBM3e", "GH200 144GB HBM3e"),
        vendor="NVIDIA",
        # Same datasheet, HBM3e column: same Hopper GPU and peaks.
        peak_tflops=_GH200_PEAKS,
        source=_GH200_SOURCE,
        note=_GH200_NOTE,
        memory_gb=gib(144),
        bandwidth_tbs=4.9,
        power_w=1000.0,
        interconnect_gbs=None,
        interconnect_source=(
            "the GH200 datasheet (above) prints the 900 GB/s NVLink-C2C between its "
            "CPU and GPU, not a GPU-to-GPU figure"
        ),
        specs_source=(
            "NVIDIA GH200 datasheet (above): 144 GB HBM3e, up to 4.9 TB/s; power "
            "(memory + CPU + GPU) configurable 450 to 1000 W"
            "; memory 144 GB read as 144 GiB"
        ),
        specs_note=(
            "Power is the whole superchip's, Grace CPU included. One HBM3e "
            "system reports 141 GB usable."
        ),
    ),
    Accelerator(
        name="H200 SXM",
        aliases=("H200", "H200 SXM5", "H200 141GB", "H200 SXM 141GB"),
        vendor="NVIDIA",
        # H200 datasheet, SXM column: identical compute to H100 SXM (same
        # GH100 die and clocks): TF32 989*, BF16 1,979*, FP8 3,958*, FP32 67.
        # Same dense values as H100 SXM used. Cross-checks: torchtitan
        # (989e12), Marin/fray (1.979e15/2).
        peak_tflops={
            "bf16": 989.4,
            "fp16": 989.4,
            "fp8": 1978.9,
            "tf32": 494.7,
            "fp32": 67.0,
            "int8": 1978.9,
        },
        source=(
            "NVIDIA H200 Tensor Core GPU datasheet, "
            "https://resources.nvidia.com/en-us-gpu-resources/hpc-datasheet-sc23"
        ),
        note=_HALVED + " H200 NVL (lower clocks) is not listed.",
        # H200 datasheet, SXM column: "GPU Memory 141GB", "GPU Memory
        # Bandwidth 4.8TB/s", "Max TDP Up to 700W (configurable)".
        memory_gb=mib(143_771),
        bandwidth_tbs=4.8,
        power_w=700.0,
        interconnect_gbs=900.0,
        interconnect_source=(
            "NVIDIA H200 datasheet (above), H200 SXM column: 'Interconnect: NVIDIA "
            "NVLink: 900GB/s, PCIe Gen5: 128GB/s'"
        ),
        network_gbps=400.0,
        node_gpus=8,
        network_source=_HGX_HOPPER_NETWORK
        + "; HGX H200 is the same 8-GPU NVSwitch board with H200 GPUs",
        specs_source=(
            "NVIDIA H200 datasheet (above), H200 SXM column: 141 GB, 4.8 TB/s, "
            "up to 700 W"
            "; memory as nvidia-smi reports it on HGX H200 systems, 143,771 MiB (less "
            "than 141 GiB)"
        ),
    ),
    Accelerator(
        name="H20",
        aliases=("H20 96GB", "HGX H20", "H20 SXM"),
        vendor="NVIDIA",
        # No NVIDIA datasheet or product page for this China-market Hopper is
        # public: every figure is secondary. Dense, not sparse: zangshuxian.com
        # gives "FP16稠密算力为148TFLOPS" (dense), INT8 296, TF32 74, FP32 44;
        # verl's MFU table has "H20": 148e12; FlashAttention 3 and cuDNN forward
        # passes reach 129.1 TFLOP/s on it (flash-attention issue #1310), which
        # only a dense 148 allows. FP8 at the INT8 rate, 296. No FP4.
        peak_tflops={
            "bf16": 148.0,
            "fp16": 148.0,
            "fp8": 296.0,
            "tf32": 74.0,
            "fp32": 44.0,
            "int8": 296.0,
        },
        source=(
            "No NVIDIA datasheet is public; secondary sources: "
            "https://zangshuxian.com/new/674733024499207168 ('H20的FP16稠密算力为"
            "148TFLOPS ... INT8为296TFLOPS, FP16为148TFLOPS, TF32为74TFLOPS, "
            "FP32为44TFLOPS'); volcengine/verl's MFU table ('H20': 148e12); "
            "Dao-AILab/flash-attention issue #1310 ('only 148 TFLOPS (tensor core, "
            "FP16)', 129.1 TFLOP/s measured), "
            "https://github.com/Dao-AILab/flash-attention/issues/1310"
        ),
        note=(
            "Lower confidence: secondary sources only, dense figures (confirmed by a "
            "measured 129.1 TFLOP/s). A 141 GB HBM3e H20 is reported and not listed."
        ),
        memory_gb=mib(97_871),
        bandwidth_tbs=4.0,
        power_w=400.0,
        interconnect_gbs=900.0,
        interconnect_source=(
            "secondary: 'NVLink 4.0 (900 GB/s)' (https://willitrunai.com/es/gpus/"
            "h20-96gb); an H20 host's nvidia-smi topology shows NV18 between two "
            "GPUs, 18 fourth-generation NVLinks of 50 GB/s: 900 GB/s"
        ),
        specs_source=(
            "secondary: '96 GB HBM3 - 4,000 GB/s bandwidth', '400W TDP' "
            "(https://willitrunai.com/es/gpus/h20-96gb); 'H20的内存带宽为4.0TB/s' "
            "(zangshuxian.com, above); memory as nvidia-smi reports it, 97,871 MiB "
            "('NVIDIA H20 ... 72W / 500W | 3MiB / 97871MiB' in published outputs)"
        ),
        specs_note=(
            "NVIDIA publishes no TDP: 400 W is the spec sheets' figure; nvidia-smi "
            "outputs of shipping H20 boards show a 500 W power cap."
        ),
    ),
    Accelerator(
        name="B200",
        aliases=("HGX B200", "B200 SXM", "B200 SXM6", "B200 180GB", "B200 192GB"),
        vendor="NVIDIA",
        # Blackwell datasheet, "Individual Blackwell GPU Specifications",
        # HGX B200 column; footnote: "All Tensor Core numbers except FP64
        # with sparsity": FP8 9 PF*, INT8 9 POPS*, FP16/BF16 4.5 PF*,
        # TF32 2.2 PF*, FP32 75 TF. Cross-check: torchtitan (2.25e15).
        # CONFLICTS: TF32 2.2/2 = 1100, but BF16/2 = 1125 and some tables use
        # 1125; an earlier datasheet revision listed FP32 80 TF (now 75).
        # Marin/fray uses the faster GB200 NVL72 column (2500) for "b200".
        # FP4: "FP4 Tensor Core 18 PFLOPS" (sparse) per GPU, "Total NVFP4 Tensor
        # Core 144 | 72 PFLOPS" for the 8-GPU board: 9 PF dense, as NVIDIA's
        # aiconfigurator b200_sxm.yaml has it (fp4_tc_flops 9e15).
        peak_tflops={
            "bf16": 2250.0,
            "fp16": 2250.0,
            "fp8": 4500.0,
            "tf32": 1100.0,
            "fp32": 75.0,
            "int8": 4500.0,
            "fp4": 9000.0,
        },
        source=(
            "NVIDIA Blackwell datasheet (HGX B200 column), "
            "https://nvdam.widen.net/s/wwnsxrhm2w/blackwell-datasheet-3384703"
        ),
        note=_HALVED + " HGX B200 at up to 1,000 W.",
        # Blackwell datasheet, HGX B200 per GPU: "GPU Memory | Bandwidth
        # 180 GB HBM3E | 7.7 TB/s", "Max TDP Configurable up to 1,000 W".
        # CONFLICT: the 2024 revision said "Up to 192 GB | Up to 8 TB/s".
        memory_gb=mib(183_359),
        bandwidth_tbs=7.7,
        power_w=1000.0,
        interconnect_gbs=1800.0,
        interconnect_source=(
            "NVIDIA Blackwell datasheet (above), HGX B200 column: NVLink 1.8 TB/s per "
            "GPU"
        ),
        network_gbps=400.0,
        node_gpus=8,
        network_source=(
            "NVIDIA DGX B200 specifications: '8x single-port NVIDIA ConnectX-7 VPI - "
            "Up to 400Gb/s InfiniBand/Ethernet' for its 8 GPUs, "
            "https://www.nvidia.com/en-us/data-center/dgx-b200/; the HGX page "
            "(https://www.nvidia.com/en-us/data-center/hgx/) prints 0.8 TB/s of "
            "networking for the HGX B200 board against 1.6 TB/s for HGX B300"
        ),
        specs_source=(
            "NVIDIA Blackwell datasheet (above), HGX B200 column: 180 GB HBM3E, "
            "7.7 TB/s, up to 1,000 W"
            "; memory as nvidia-smi reports it, 183,359 MiB: NVIDIA/TensorRT-LLM issue "
            "#10278, https://github.com/NVIDIA/TensorRT-LLM/issues/10278"
        ),
        specs_note=(
            "The 2024 revision printed up to 192 GB and 8 TB/s; shipping HGX and "
            "DGX B200 parts have 180 GB."
        ),
    ),
    Accelerator(
        name="GB200",
        aliases=("GB200 NVL72", "GB200 NVL4", "B200 NVL72"),
        vendor="NVIDIA",
        # Same datasheet, GB200 NVL72 per-GPU column (sparse*): FP8 10 PF*,
        # INT8 10 POPS*, FP16/BF16 5 PF*, TF32 2.5 PF*, FP32 80 TF.
        # Cross-check: Marin/fray "b200" (5e15/2 etc., from rack totals / 72).
        # FP4: "FP4 Tensor Core 20 PFLOPS" (sparse) per GPU, "Total NVFP4 Tensor
        # Core 1,440 | 720 PFLOPS" for the rack: 10 PF dense; NVIDIA's Blackwell
        # Ultra blog: "the base architecture delivers 10 petaFLOPS of NVFP4".
        peak_tflops={
            "bf16": 2500.0,
            "fp16": 2500.0,
            "fp8": 5000.0,
            "tf32": 1250.0,
            "fp32": 80.0,
            "int8": 5000.0,
            "fp4": 10000.0,
        },
        source=(
            "NVIDIA Blackwell datasheet (GB200 NVL72 column, per GPU), "
            "https://nvdam.widen.net/s/wwnsxrhm2w/blackwell-datasheet-3384703"
        ),
        note=_HALVED + " Per Blackwell GPU (a GB200 superchip has two), "
        "at up to 1,200 W.",
        # Same datasheet, GB200 NVL72 per GPU: "186 GB HBM3E | 8 TB/s",
        # "Configurable up to 1,200 W".
        memory_gb=gib(186),
        bandwidth_tbs=8.0,
        power_w=1200.0,
        interconnect_gbs=1800.0,
        interconnect_source=(
            "NVIDIA Blackwell datasheet (above), GB200 NVL72 column: NVLink 1.8 TB/s "
            "per GPU (130 TB/s over 72 GPUs)"
        ),
        network_gbps=None,
        node_gpus=72,
        network_source=(
            "NVIDIA's multi-node NVLink tuning guide, "
            "https://docs.nvidia.com/multi-node-nvlink-systems/multi-node-tuning-guide/"
            "system.html: 'GB200 72x1 contains one rack with 72 GPUs', 18 compute "
            "trays of 4 GPUs on one NVLink fabric; the guide names the trays' "
            "ConnectX-7 NICs but no rate per GPU, so none is stored"
        ),
        specs_source=(
            "NVIDIA Blackwell datasheet (above), GB200 NVL72 column, per GPU: "
            "186 GB HBM3E, 8 TB/s, up to 1,200 W"
            "; memory 186 GB read as 186 GiB"
        ),
        specs_note="Per GPU; a superchip has two (372 GB, 16 TB/s).",
    ),
    Accelerator(
        name="B300",
        aliases=(
            "HGX B300",
            "B300 SXM",
            "B300 SXM6",
            "B300 SXM6 AC",
            "B300 288GB",
            "DGX B300",
        ),
        vendor="NVIDIA",
        # Blackwell Ultra datasheet (Oct 2025), p. 5, HGX B300 column. Footnote
        # 1 "Specification in Sparse | Dense": FP4 Tensor Core 18 | 14 PFLOPS,
        # board total 144 | 108 PFLOPS. Footnote 2 "Specification in sparse.
        # Dense is 1/2 sparse spec shown": FP8/FP6 9 PF, INT8 307 TOPS,
        # FP16/BF16 4.5 PF, TF32 2.2 PF; FP32 75 TF; FP64 1.2 TF.
        # FP4: 108 / 8 = 13.5 PF dense, 1.5 x HGX B200's 9; the per-GPU cell
        # prints 14 (8 x 14 = 112, not the board's 108), as NVIDIA's
        # aiconfigurator b300_sxm.yaml also has it. INT8: 153.5 dense
        # (aiconfigurator: "153.5 TFLOPS (307 TOPS sparse / 2)"): Blackwell
        # Ultra cut INT8 and FP64.
        peak_tflops={
            "bf16": 2250.0,
            "fp16": 2250.0,
            "fp8": 4500.0,
            "tf32": 1100.0,
            "fp32": 75.0,
            "int8": 153.5,
            "fp4": 13500.0,
        },
        source=_BLACKWELL_ULTRA_SOURCE + " (HGX B300 column)",
        note=(
            "Tensor-core rows are half of the datasheet figures (with sparsity), "
            "except FP4, which the Blackwell Ultra sheet prints sparse | dense "
            "(18 | 14 PFLOPS, not 2:1): the dense board total / 8, 13.5, is stored. "
            "FP32 is the non-tensor figure. INT8 and FP64 are cut on Blackwell "
            "Ultra (153.5 TOPS, 1.2 TFLOPS dense)."
        ),
        memory_gb=mib(275_040),
        bandwidth_tbs=7.7,
        power_w=1100.0,
        interconnect_gbs=1800.0,
        interconnect_source=(
            "Blackwell Ultra datasheet (above): 'Fifth-Generation NVLink: 1.8 TB/s, "
            "PCIe Gen6: 256 GB/s'; NVIDIA technical blog, 'Inside NVIDIA Blackwell "
            "Ultra', https://developer.nvidia.com/blog/inside-nvidia-blackwell-ultra-"
            "the-chip-powering-the-ai-factory-era/: '1.8 TB/s bidirectional (18 "
            "links x 100 GB/s)'"
        ),
        network_gbps=800.0,
        node_gpus=8,
        network_source=(
            "NVIDIA HGX B300 enterprise reference architecture, "
            "https://docs.nvidia.com/enterprise-reference-architectures/"
            "hgx-ai-factory/latest/components.html: 'a network interface of 800 Gb/s "
            "(2 x 400Gb/s Ethernet) per GPU ... 8x ConnectX-8 SuperNICs on the HGX "
            "baseboard'"
        ),
        specs_source=(
            "Blackwell Ultra datasheet (above), HGX B300 column: 'GPU Memory | "
            "Bandwidth 270 GB HBM3E | 7.7 TB/s', 'Configurable up to 1,100 W'; "
            "memory as nvidia-smi reports it, 275,040 MiB: NVIDIA's aiconfigurator "
            "b300_sxm.yaml ('275040MiB reported by nvidia-smi'), "
            "https://github.com/ai-dynamo/aiconfigurator/blob/"
            "095f58a51c4ca8e61b66ec108d86f223f8d559ce/aic-core/src/"
            "aiconfigurator_core/systems/b300_sxm.yaml, and published nvidia-smi "
            "tables ('NVIDIA B300 SXM6 AC ... 181W / 1100W | 0MiB / 275040MiB')"
        ),
        specs_note=(
            "The sheet says 270 GB, NVIDIA's blog 288 GB ('HBM capacity varies by "
            "SKU'); nvidia-smi's 275,040 MiB is 288.4 GB. One secondary table gives "
            "1,000 W; the datasheet and nvidia-smi say 1,100 W."
        ),
    ),
    Accelerator(
        name="GB300",
        aliases=("GB300 NVL72", "B300 NVL72", "GB300 Grace Blackwell Ultra"),
        vendor="NVIDIA",
        # Same datasheet, GB300 NVL72 column, per GPU: FP4 Tensor Core 20 | 15
        # PFLOPS (sparse | dense; rack 1,440 | 1,080), FP8/FP6 10 PF, INT8 330
        # TOPS, FP16/BF16 5 PF, TF32 2.5 PF (all sparse, footnote 2); FP32 80
        # TF; FP64 1.3 TF. NVIDIA's blog: "15 PetaFLOPS dense NVFP4"; "While
        # the base architecture delivers 10 petaFLOPS of NVFP4 performance,
        # Ultra pushes that to 15". aiconfigurator gb300.yaml: INT8 165.
        peak_tflops={
            "bf16": 2500.0,
            "fp16": 2500.0,
            "fp8": 5000.0,
            "tf32": 1250.0,
            "fp32": 80.0,
            "int8": 165.0,
            "fp4": 15000.0,
        },
        source=_BLACKWELL_ULTRA_SOURCE + " (GB300 NVL72 column, per GPU)",
        note=(
            "Per Blackwell Ultra GPU of a GB300 NVL72 (a superchip has two). "
            "Tensor-core rows are half the sheet's sparse figures, except FP4, "
            "printed sparse | dense (20 | 15 PFLOPS): the dense 15 PF is stored, "
            "1.5 x GB200's 10. INT8 and FP64 are cut (165 TOPS, 1.3 TFLOPS)."
        ),
        memory_gb=mib(284_208),
        bandwidth_tbs=8.0,
        power_w=1400.0,
        interconnect_gbs=1800.0,
        interconnect_source=(
            "Blackwell Ultra datasheet (above): 'Fifth-Generation NVLink: 1.8 TB/s'; "
            "NVIDIA's Blackwell Ultra blog (see B300): '72-GPU NVL72 configurations "
            "with 130 TB/s aggregate bandwidth'"
        ),
        network_gbps=800.0,
        node_gpus=72,
        network_source=(
            "NVIDIA GB300 NVL72 enterprise reference architecture, "
            "https://docs.nvidia.com/enterprise-reference-architectures/"
            "nvl72-ai-factory/latest/components.html: '9 NVSwitch trays for full "
            "non-blocking P2P connectivity of all 72 Blackwell Ultra GPUs', compute "
            "trays of '4 Blackwell Ultra GPUs' with '4 ConnectX-8' adapters; NVIDIA's "
            "Blackwell Ultra blog: 'ConnectX-8 SuperNICs provide 800 Gb/s'"
        ),
        specs_source=(
            "Blackwell Ultra datasheet (above), GB300 NVL72 column: '279 GB HBM3E | "
            "8 TB/s', 'Configurable up to 1,400 W'; memory as nvidia-smi reports "
            "it, 284,208 MiB: NVIDIA's aiconfigurator gb300.yaml ('284208MiB "
            "reported by nvidia-smi'), https://github.com/ai-dynamo/aiconfigurator/"
            "blob/095f58a51c4ca8e61b66ec108d86f223f8d559ce/aic-core/src/"
            "aiconfigurator_core/systems/gb300.yaml, and published nvidia-smi tables "
            "('NVIDIA GB300 ... 172W / 1400W | 0MiB / 284208MiB')"
        ),
        specs_note=(
            "Per GPU. Lenovo's GB300 NVL72 guide reportedly gives 1,100 W of graphics "
            "power per GPU (second-hand); NVIDIA's sheet and nvidia-smi say 1,400 W."
        ),
    ),
    Accelerator(
        name="RTX PRO 6000",
        aliases=(
            "RTX PRO 6000 Server",
            "RTX PRO 6000 Blackwell",
            "RTX PRO 6000 Blackwell Server Edition",
            "RTX PRO 6000 Server Edition",
            "RTX PRO 6000 SE",
            "RTX 6000 Pro",
            "RTX PRO 6000 96GB",
        ),
        vendor="NVIDIA",
        # Server Edition product page: "FP4 Tensor Core 4 PFLOPS", "FP8 Tensor
        # Core 2 PFLOPS", "FP16 | BF16 Tensor Core 1 PFLOP", without saying
        # sparse or dense; its datasheet: "Peak FP4 AI PFLOPS 4 PFLOPS", "TF32
        # tensor 234 TFLOPS", "FP32 120 TFLOPS". Halved as sparse: the
        # Workstation Edition sheet footnotes the same 4,000 AI TOPS "Effective
        # FP4 TOPS with sparsity". Cross-check: NVIDIA's aiconfigurator
        # rtx_pro_6000_server.yaml, "467.8 TFLOPS dense" BF16 at the observed
        # 2,430 MHz. No INT8 figure is published.
        peak_tflops={
            "bf16": 500.0,
            "fp16": 500.0,
            "fp8": 1000.0,
            "tf32": 117.0,
            "fp32": 120.0,
            "fp4": 2000.0,
        },
        source=(
            "NVIDIA RTX PRO 6000 Blackwell Server Edition product page, "
            "https://www.nvidia.com/en-us/data-center/rtx-pro-6000-blackwell-server-"
            "edition/, and datasheet, https://dam-cdn.nvd.orangelogic.com/AssetLink/"
            "707m1632ypg4du1fj3ci1jo3h4w1k78j.pdf"
        ),
        note=(
            "Tensor-core rows are half the printed figures, read as sparse (the "
            "sheets do not say; the Workstation sheet marks the same FP4 4 PFLOPS "
            "sparse); FP32 is the non-tensor figure. Dense FP4 depends on the "
            "clock: 1.87 PF at the 2,430 MHz NVIDIA's aiconfigurator observed. "
            "'RTX PRO 6000' is this Server Edition, the data-centre card clouds "
            "rent; 'RTX PRO 6000 WS' the Workstation Edition."
        ),
        memory_gb=mib(97_887),
        bandwidth_tbs=1.597,
        power_w=600.0,
        interconnect_gbs=128.0,
        interconnect_source=(
            "no NVLink: PCIe Gen5 x16, 128 GB/s both directions as NVIDIA prints it "
            "for the H100 PCIe; NVIDIA's aiconfigurator rtx_pro_6000_server.yaml: "
            "'intra_node_bw ... PCIe Gen5 x16', https://github.com/ai-dynamo/"
            "aiconfigurator/blob/095f58a51c4ca8e61b66ec108d86f223f8d559ce/aic-core/"
            "src/aiconfigurator_core/systems/rtx_pro_6000_server.yaml"
        ),
        network_gbps=200.0,
        node_gpus=8,
        network_source=(
            "AWS G7e (8 RTX PRO 6000 Server Edition in a g7e.48xlarge, '1,600 Gbps "
            "(EFA)'): 200 Gb/s per GPU, https://aws.amazon.com/blogs/"
            "machine-learning/accelerate-generative-ai-inference-on-amazon-sagemaker-"
            "ai-with-g7e-instances; the 8 GPUs share PCIe, not NVLink"
        ),
        specs_source=(
            "Server Edition product page and datasheet (above): 96 GB GDDR7 with "
            "ECC, 1,597 GB/s, up to 600 W (configurable down to 400 W); AWS: 'Each "
            "G7e GPU provides 1,597 GB/s bandwidth'; memory as nvidia-smi reports "
            "it, 97,887 MiB ('NVIDIA RTX PRO 6000 Blac... 28W / 600W | 0MiB / "
            "97887MiB' in a published output; aiconfigurator: '97887 MiB VRAM')"
        ),
    ),
    Accelerator(
        name="RTX PRO 6000 WS",
        aliases=(
            "RTX PRO 6000 Workstation",
            "RTX PRO 6000 Workstation Edition",
            "RTX PRO 6000 Blackwell Workstation Edition",
        ),
        vendor="NVIDIA",
        # Workstation Edition datasheet: "AI TOPS 4000 AI TOPS (1,2)", footnote
        # "2. Effective FP4 TOPS with sparsity" (halved: 2,000); "Single-precision
        # performance 125 TFLOPS". It prints no BF16, FP8 or TF32 figure.
        peak_tflops={"fp32": 125.0, "fp4": 2000.0},
        source=(
            "NVIDIA RTX PRO 6000 Blackwell Workstation Edition datasheet, "
            "https://www.nvidia.com/content/dam/en-zz/Solutions/data-center/"
            "rtx-pro-6000-blackwell-workstation-edition/workstation-blackwell-rtx-"
            "pro-6000-workstation-edition-nvidia-us-3519208-web.pdf"
        ),
        note=(
            "The actively cooled card: the sheet prints only FP4 (with sparsity, "
            "halved) and FP32, and a faster memory than the Server Edition's. The "
            "300 W Max-Q Workstation Edition is not listed."
        ),
        memory_gb=mib(97_887),
        bandwidth_tbs=1.792,
        power_w=600.0,
        interconnect_gbs=128.0,
        interconnect_source=(
            "Workstation Edition datasheet (above): 'System interface PCIe 5.0 x16', "
            "no NVLink: 128 GB/s both directions"
        ),
        specs_source=(
            "Workstation Edition datasheet (above): 'GPU memory 96 GB GDDR7 with "
            "ECC', 'Memory bandwidth 1792 GB/s', 'Total board power: 600 W'; memory "
            "as nvidia-smi reports it, 97,887 MiB ('NVIDIA RTX PRO 6000 Blackwell "
            "Workstation Edition ... 97887MiB' in published outputs)"
        ),
    ),
    # --------------------------------------------------------------------- AMD
    Accelerator(
        name="MI250X",
        aliases=("Instinct MI250X", "MI250X OAM"),
        vendor="AMD",
        # Datasheet (dense; CDNA2 has no sparsity): FP16/BF16 383.0,
        # INT8 383.0 TOPS, FP32 Matrix 95.7, FP32 Vector 47.9. No TF32, no FP8.
        # Cross-check: torchtitan uses 191.5e12 *per GCD* (= 383 / 2).
        peak_tflops={"bf16": 383.0, "fp16": 383.0, "fp32": 95.7, "int8": 383.0},
        source=(
            "AMD Instinct MI200 Series Accelerator datasheet (MI250X), "
            "https://www.amd.com/system/files/documents/"
            "amd-instinct-mi200-datasheet.pdf"
        ),
        note=(
            "Per OAM package = 2 GCDs; ROCm/PyTorch expose each GCD as its "
            "own device with half these figures. fp32 is FP32 Matrix (vector "
            "FP32 is 47.9)."
        ),
        # Datasheet: "Dedicated Memory Size 128 GB HBM2e", "Peak Memory
        # Bandwidth 3.2 TB/s" (footnote MI200-07: 3.2768 TB/s); product page:
        # 500 W TDP, 560 W peak TBP.
        memory_gb=gib(128),
        bandwidth_tbs=3.2768,
        power_w=560.0,
        interconnect_gbs=None,
        interconnect_source=(
            "not transcribed: the MI200 datasheet prints Infinity Fabric links per GCD"
        ),
        specs_source=(
            "AMD Instinct MI200 datasheet (above): 128 GB HBM2e, 3.2 TB/s "
            "(footnote MI200-07: 3.2768 TB/s); MI250X product page, "
            "https://www.amd.com/en/products/accelerators/instinct/mi200/"
            "mi250x.html: 500 W TDP, 560 W peak board power"
            "; memory 128 GB read as 128 GiB (two GCDs of 64 GiB)"
        ),
        specs_note="Per OAM package (two GCDs of 64 GB each); peak TBP stored.",
    ),
    Accelerator(
        name="MI300X",
        aliases=("Instinct MI300X", "MI300X OAM", "MI300X 192GB"),
        vendor="AMD",
        # Datasheet, dense (sparse in brackets): TF32 653.7 (1307.4),
        # FP16/BF16 1307.4 (2614.9), FP8 2614.9 (5229.8), INT8 2614.9
        # (5229.8); FP32 Matrix and Vector 163.4. Cross-checks: Marin/fray
        # (identical), torchtitan (1300e12). CONFLICTS: some public spec
        # sites print 2,615 as "dense FP16" (that is the sparse figure) or
        # 330.6 (a vector rate) for BF16.
        peak_tflops={
            "bf16": 1307.4,
            "fp16": 1307.4,
            "fp8": 2614.9,
            "tf32": 653.7,
            "fp32": 163.4,
            "int8": 2614.9,
        },
        source=(
            "AMD Instinct MI300X Accelerator data sheet, "
            "https://www.amd.com/content/dam/amd/en/documents/"
            "instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf"
        ),
        note="AMD prints dense figures (sparse listed separately); dense used.",
        # Data sheet: "192 GB HBM3", "Peak Memory Bandwidth 5.3 TB/s"
        # (footnote MI300-05A: 5.325 TB/s), "Maximum TBP 750W".
        memory_gb=gib(192),
        bandwidth_tbs=5.325,
        power_w=750.0,
        interconnect_gbs=896.0,
        interconnect_source=(
            "AMD Instinct MI300X data sheet (above): Infinity Fabric links of 128 GB/s "
            "peak, one to each of the other seven GPUs of an 8-GPU platform: 896 GB/s "
            "(AMD's launch presentation, December 2023, prints the same 896 GB/s)"
        ),
        node_gpus=8,
        network_source=(
            "the MI300X data sheet's 8-GPU platform (above), whose Infinity Fabric "
            "joins every GPU to the other seven; no network figure per GPU is stored"
        ),
        specs_source=(
            "AMD Instinct MI300X data sheet (above): 192 GB HBM3, 5.3 TB/s "
            "(footnote MI300-05A: 5.325 TB/s), 750 W maximum TBP"
            "; memory 192 GB read as 192 GiB"
        ),
    ),
    Accelerator(
        name="MI325X",
        aliases=("Instinct MI325X", "MI325X OAM", "MI325X 256GB"),
        vendor="AMD",
        # Datasheet: same CDNA3 compute as MI300X (304 CUs, 2100 MHz) with
        # 256 GB HBM3E. Cross-checks: Marin/fray (identical), torchtitan
        # (1300e12).
        peak_tflops={
            "bf16": 1307.4,
            "fp16": 1307.4,
            "fp8": 2614.9,
            "tf32": 653.7,
            "fp32": 163.4,
            "int8": 2614.9,
        },
        source=(
            "AMD Instinct MI325X Accelerator data sheet, "
            "https://www.amd.com/content/dam/amd/en/documents/"
            "instinct-tech-docs/product-briefs/instinct-mi325x-datasheet.pdf"
        ),
        note="AMD prints dense figures (sparse listed separately); dense used.",
        # Data sheet: "Dedicated Memory Size 256 GB HBM3E", "Peak Memory
        # Bandwidth 6 TB/s", "1000W maximum TBP".
        memory_gb=gib(256),
        bandwidth_tbs=6.0,
        power_w=1000.0,
        interconnect_gbs=None,
        interconnect_source=("not transcribed from the MI325X data sheet"),
        specs_source=(
            "AMD Instinct MI325X data sheet (above): 256 GB HBM3E, 6 TB/s, "
            "1000 W maximum TBP"
            "; memory 256 GB read as 256 GiB"
        ),
        specs_note="Announced with 288 GB (Computex 2024), shipped with 256 GB.",
    ),
    Accelerator(
        name="MI350X",
        aliases=("Instinct MI350X", "MI350X OAM", "MI350X 288GB"),
        vendor="AMD",
        # The MI355X's CDNA 4 silicon at 2.2 GHz, not 2.4, and 1,000 W: its
        # peaks scaled by 2.2 / 2.4 (ml-engineering: "everything scaled by the
        # clock ratio (144.2 vs 157.3 fp32)"; huggingface.co/hardware/mi350x:
        # BF16 2,306.9). AMD rounds to about 9.2 PF MXFP4. No TF32.
        peak_tflops={
            "bf16": 2306.9,
            "fp16": 2306.9,
            "fp8": 4613.7,
            "fp32": 144.2,
            "int8": 4613.7,
            "fp4": 9227.5,
        },
        source=(
            "AMD Instinct MI350X, https://www.amd.com/en/products/accelerators/"
            "instinct/mi350/mi350x.html (not read); figures as the MI355X's scaled "
            "by the clock, per stas00/ml-engineering, https://github.com/stas00/"
            "ml-engineering/blob/744d01e18b79512572f64a6bbd8b5f4a725203a7/compute/"
            "accelerator/README.md, and https://huggingface.co/hardware/mi350x"
        ),
        note=(
            "Lower confidence: AMD's MI350X page was not read; the MI355X's peaks "
            "x 2.2/2.4 GHz, which match the third-party BF16 2,306.9 and FP32 "
            "144.2. fp4 is MXFP4, dense."
        ),
        memory_gb=gib(288),
        bandwidth_tbs=8.0,
        power_w=1000.0,
        interconnect_gbs=1075.2,
        interconnect_source=(
            "secondary, as the MI355X (below): 7 Infinity Fabric links of 153.6 GB/s "
            "in an 8-GPU platform"
        ),
        network_gbps=400.0,
        node_gpus=8,
        network_source="secondary, as the MI355X (below)",
        specs_source=(
            "ROCm GPU specifications, https://rocm.docs.amd.com/en/7.13.0-preview/"
            "reference/gpu-specs.html: MI350X 288 GiB; Hot Chips 2025 coverage, "
            "https://wccftech.com/amd-instinct-mi350-gpuai-hardware-powerhouse-3nm-"
            "3d-chiplet-cdna-4-185-billion-transistors-1400w-tbp-over-4000b-llm-"
            "support/: 'the MI350X ... air-cooled variant with a 1000W TBP'; 8 TB/s "
            "as the MI355X; memory 288 GiB as ROCm prints it"
        ),
        specs_note="Air-cooled, 1,000 W TBP at 2.2 GHz.",
    ),
    Accelerator(
        name="MI355X",
        aliases=("Instinct MI355X", "MI355X OAM", "MI355X 288GB", "MI355"),
        vendor="AMD",
        # AMD's MI355X page, dense with sparse beside: MXFP4 and MXFP6 Matrix
        # 10.1 PFLOPs (no sparsity row), OCP-FP8 Matrix 5 PF (10.1 sparse),
        # BF16 Matrix 2.5 PF (5 sparse), INT8 5 POPs. Stored unrounded from the
        # clock: 256 CUs x FLOP/clock/CU x 2.4 GHz, FLOP/clock 4,096 BF16, 8,192
        # FP8 ("doubled the per-CU FP8 throughput ... to 8,192", ISSCC 2026),
        # 16,384 FP4, 256 FP32: 2,516.6, 5,033.2, 10,066.3, 157.3 (ml-engineering:
        # "2516.6 TFLOPS - matches AMD's published 2.5 PFLOPS"). CDNA 4 has no
        # TF32 ("Hardware support for TF32 has been REMOVED in CDNA 4").
        peak_tflops={
            "bf16": 2516.6,
            "fp16": 2516.6,
            "fp8": 5033.2,
            "fp32": 157.3,
            "int8": 5033.2,
            "fp4": 10066.3,
        },
        source=(
            "AMD Instinct MI355X, https://www.amd.com/en/products/accelerators/"
            "instinct/mi350/mi355x.html, its specifications as a public research "
            "file transcribed them on 2026-09-19 (the page itself not read); "
            "stas00/ml-engineering, https://github.com/stas00/ml-engineering/blob/"
            "744d01e18b79512572f64a6bbd8b5f4a725203a7/compute/accelerator/README.md"
        ),
        note=(
            "AMD prints dense figures (sparse listed separately); stored unrounded "
            "from the clock (256 CUs at 2.4 GHz), which AMD rounds to 2.5 / 5 / 10.1 "
            "PF. fp4 is MXFP4 (MXFP6 runs at the same rate). No TF32 on CDNA 4."
        ),
        memory_gb=gib(288),
        bandwidth_tbs=8.0,
        power_w=1400.0,
        interconnect_gbs=1075.2,
        interconnect_source=(
            "secondary: 7 Infinity Fabric links of 153.6 GB/s, one to each of the "
            "other seven GPUs of an 8-GPU platform: 1,075.2 GB/s, as the MI300X's "
            "896 (Hume Consulting, https://humeconsulting.co/amd-mi355x-strong-node-"
            "level-inference-but-not-yet-rack-scale: '~153 GB/s of bidirectional "
            "bandwidth' per link); no AMD text read"
        ),
        network_gbps=400.0,
        node_gpus=8,
        network_source=(
            "secondary: one 400 GbE RoCE NIC per GPU of the 8-GPU platform; "
            "https://www.jaredwatkins.com/research/ai-accelerators/amd-instinct/"
            "mi350-series/: '400 Gbps front-end network'"
        ),
        specs_source=(
            "AMD's MI355X page (above), as transcribed: 'Dedicated Memory Size 288 "
            "GB (HBM3E)', 'Peak Memory Bandwidth 8 TB/s', 'TBP 1400 W'; ROCm GPU "
            "specifications, https://rocm.docs.amd.com/en/7.13.0-preview/reference/"
            "gpu-specs.html: 288 in its 'VRAM (GiB)' column; memory 288 GB read as "
            "288 GiB"
        ),
        specs_note=(
            "rocm-smi reports 309,220,868,096 bytes, 16 MiB under 288 GiB. Liquid "
            "cooled, 2.4 GHz."
        ),
    ),
    # ------------------------------------------------------------------ Google
    Accelerator(
        name="TPU v3",
        aliases=("v3", "TPUv3"),
        vendor="Google",
        # Docs: "Peak compute per chip 123 teraflops (bf16)". No sparsity.
        peak_tflops={"bf16": 123.0},
        source=(
            "Google Cloud TPU documentation, TPU v3, "
            "https://cloud.google.com/tpu/docs/v3"
        ),
        note="Per chip (2 TensorCores); JAX shows each core as a device.",
        # Docs: "HBM2 capacity and bandwidth 32 GiB, 900 GBps"; "Measured
        # min/mean/max power 123/220/262 W". 32 GiB = 34.36 GB.
        memory_gb=gib(32),
        bandwidth_tbs=0.9,
        power_w=262.0,
        interconnect_gbs=None,
        interconnect_source=("Google's TPU v3 page prints no inter-chip bandwidth"),
        specs_source=(
            "Google Cloud TPU v3 documentation (above): 32 GiB HBM2, 900 GBps; "
            "measured min/mean/max power 123/220/262 W"
            "; memory 32 GiB as Google prints it"
        ),
        specs_note=(
            "32 GiB is 34.36 GB (10^9 bytes). Power: Google's measured maximum; "
            "it publishes no TDP."
        ),
    ),
    Accelerator(
        name="TPU v4",
        aliases=("v4", "TPUv4"),
        vendor="Google",
        # Docs: "Peak compute per chip 275 teraflops (bf16 or int8)". PaLM
        # uses 275 as the denominator of its MFU. Cross-check: Marin/fray.
        peak_tflops={"bf16": 275.0, "int8": 275.0},
        source=(
            "Google Cloud TPU documentation, TPU v4, "
            "https://cloud.google.com/tpu/docs/v4"
        ),
        note="Per chip (2 TensorCores, shown to JAX as one device). No sparsity.",
        # Docs: "HBM2 capacity and bandwidth 32 GiB, 1200 GBps"; "Measured
        # min/mean/max power 90/170/192 W".
        memory_gb=gib(32),
        bandwidth_tbs=1.2,
        power_w=192.0,
        interconnect_gbs=None,
        interconnect_source=(
            "Google's TPU v4 page prints no inter-chip bandwidth per chip"
        ),
        specs_source=(
            "Google Cloud TPU v4 documentation (above): 32 GiB HBM2, 1200 GBps; "
            "measured min/mean/max power 90/170/192 W"
            "; memory 32 GiB as Google prints it"
        ),
        specs_note=(
            "32 GiB is 34.36 GB (10^9 bytes). Power: Google's measured maximum; "
            "it publishes no TDP."
        ),
    ),
    Accelerator(
        name="TPU v5e",
        aliases=("v5e", "TPUv5e", "v5litepod", "TPU v5 lite", "TPU v5litepod"),
        vendor="Google",
        # Docs: bf16 197 TFLOPs, Int8 393 TOPs per chip. Cross-check:
        # Marin/fray (197e12, 393e12). CONFLICT: some tables print 394 int8.
        peak_tflops={"bf16": 197.0, "int8": 393.0},
        source=(
            "Google Cloud TPU documentation, TPU v5e, "
            "https://cloud.google.com/tpu/docs/v5e"
        ),
        note="Per chip (1 TensorCore). No sparsity.",
        # Docs: "HBM2 capacity and bandwidth 16 GB, 819 GBps". No power
        # figure published.
        memory_gb=gib(16),
        bandwidth_tbs=0.819,
        power_w=None,
        interconnect_gbs=400.0,
        interconnect_source=(
            "Google Cloud TPU v5e documentation (above): 'Bidirectional inter-chip "
            "interconnect (ICI) bandwidth (per chip) 400 GBps'"
        ),
        specs_source=(
            "Google Cloud TPU v5e documentation (above): 16 GB HBM2, 819 GBps; "
            "no power figure published"
            "; memory 16 GB read as 16 GiB"
        ),
        specs_note="Another revision of the page gives 800 GiBps.",
    ),
    Accelerator(
        name="TPU v5p",
        aliases=("v5p", "TPUv5p", "TPU v5"),
        vendor="Google",
        # Docs: "Peak compute per chip (bf16) 459 TFLOPs". Int8 918 TOPs is
        # from Google's v5p launch material (the docs page lists bf16 only);
        # it is widely repeated and equals 2 x bf16.
        peak_tflops={"bf16": 459.0, "int8": 918.0},
        source=(
            "Google Cloud TPU documentation, TPU v5p, "
            "https://cloud.google.com/tpu/docs/v5p"
        ),
        note="Per chip (2 TensorCores, shown to JAX as one device). No sparsity.",
        # Docs: "HBM2e capacity and bandwidth 95GB, 2765 GBps". No power
        # figure published.
        memory_gb=gib(95),
        bandwidth_tbs=2.765,
        power_w=None,
        interconnect_gbs=600.0,
        interconnect_source=(
            "Google Cloud TPU v5p documentation (above): 'Interchip Interconnect BW "
            "4800 Gbps', 600 GB/s"
        ),
        specs_source=(
            "Google Cloud TPU v5p documentation (above): 95 GB HBM2e, 2765 GBps; "
            "no power figure published"
            "; memory 95 GiB, the usable HBM a newer revision of the page gives (96 "
            "GiB physical)"
        ),
        specs_note=(
            "A newer revision says 95 GiB usable of 96 GiB physical HBM per chip."
        ),
    ),
    Accelerator(
        name="TPU v6e",
        aliases=("v6e", "TPUv6e", "Trillium", "TPU Trillium", "TPU v6 lite"),
        vendor="Google",
        # Docs: bf16 918 TFLOPs, Int8 1836 TOPs per chip. Cross-check:
        # Marin/fray. CONFLICT: a few secondary tables print ~926 bf16.
        peak_tflops={"bf16": 918.0, "int8": 1836.0},
        source=(
            "Google Cloud TPU documentation, TPU v6e (Trillium), "
            "https://cloud.google.com/tpu/docs/v6e"
        ),
        note="Per chip (1 TensorCore). No sparsity.",
        # Docs: "HBM capacity per chip 32 GB", "HBM bandwidth per chip
        # 1640 GBps". No power figure published.
        memory_gb=gib(32),
        bandwidth_tbs=1.64,
        power_w=None,
        interconnect_gbs=800.0,
        interconnect_source=(
            "Google Cloud TPU v6e documentation (above): 'Bidirectional inter-chip "
            "interconnect (ICI) bandwidth (per chip) 800 GBps'"
        ),
        specs_source=(
            "Google Cloud TPU v6e documentation (above): 32 GB, 1640 GBps; no "
            "power figure published"
            "; memory 32 GB read as 32 GiB"
        ),
        specs_note="Other revisions of the page give 1638 and 1600 GBps.",
    ),
    # ------------------------------------------------------------------- Intel
    Accelerator(
        name="Gaudi 2",
        aliases=("Gaudi2", "HL-225H", "Habana Gaudi 2", "Intel Gaudi 2"),
        vendor="Intel",
        # Intel's Hot Chips 2024 Gaudi deck, generations table: "Peak Compute
        # (BF16) ... Gaudi 2 432 TFLOPs". FP8 omitted: sources disagree
        # (865 vs 835 TFLOPs) and no Intel sheet was checked.
        peak_tflops={"bf16": 432.0},
        source=(
            "Intel (R. Kaplan), 'Intel Gaudi 3 AI Accelerator', Hot Chips 2024, "
            "Gaudi generations table, https://hc2024.hotchips.org/assets/"
            "program/conference/day1/60_HC2024.Intel.RomanKaplan.Gaudi3-0826.pdf; "
            "Intel Gaudi 3 AI Accelerator White Paper (Gaudi 2 vs Gaudi 3 "
            "table: BF16 432 TFLOPs), https://cdrdv2-public.intel.com/817486/"
            "gaudi-3-ai-accelerator-white-paper.pdf"
        ),
        note="MME (matrix engine) peak; lower confidence, fp8 not recorded.",
        # Intel developer article: "in-package memory has tripled to 96 GB of
        # HBM2e at 2.45 TB/s bandwidth"; HL-225H OAM card TDP 600 W.
        memory_gb=gib(96),
        bandwidth_tbs=2.45,
        power_w=600.0,
        interconnect_gbs=None,
        interconnect_source=(
            "Gaudi links are RoCE Ethernet ports (24 per chip), each to one peer: no "
            "one per-chip figure a ring all-reduce reaches"
        ),
        specs_source=(
            "Intel, 'The Habana Gaudi2 Processor for Deep Learning', "
            "https://www.intel.com/content/www/us/en/developer/articles/"
            "technical/habana-gaudi2-processor-for-deep-learning.html: 96 GB "
            "HBM2e at 2.45 TB/s; Habana Gaudi2 white paper (2022), "
            "https://habana.ai/wp-content/uploads/pdf/2022/gaudi2-whitepaper.pdf; "
            "600 W TDP of the HL-225H OAM card"
            "; memory 96 GB read as 96 GiB"
        ),
        specs_note=(
            "Intel's Gaudi 2 vs 3 table prints 2.46 TB/s. The 600 W is from "
            "launch coverage, not read in an Intel PDF: lower confidence."
        ),
    ),
    Accelerator(
        name="Gaudi 3",
        aliases=("Gaudi3", "HL-325L", "Habana Gaudi 3", "Intel Gaudi 3"),
        vendor="Intel",
        # White paper / Hot Chips 2024: BF16 Matrix 1835 TFLOPs, FP8 Matrix
        # 1835 TFLOPs, BF16 Vector 28.7 TFLOPs. No sparsity quoted.
        # CONFLICT: one press report rounds to 1,856.
        peak_tflops={"bf16": 1835.0, "fp8": 1835.0},
        source=(
            "Intel Gaudi 3 AI Accelerator White Paper, "
            "https://www.intel.com/content/www/us/en/content-details/817486/"
            "intel-gaudi-3-ai-accelerator-white-paper.html"
        ),
        note="MME (matrix engine) peak of the OAM part.",
        # White paper: 128 GB HBM2e, 3.7 TB/s; HL-325L OAM product brief:
        # 900 W (air-cooled; liquid-cooled up to 1,200 W).
        memory_gb=gib(128),
        bandwidth_tbs=3.7,
        power_w=900.0,
        interconnect_gbs=None,
        interconnect_source=(
            "Gaudi links are RoCE Ethernet ports (24 per chip), each to one peer: no "
            "one per-chip figure a ring all-reduce reaches"
        ),
        specs_source=(
            "Intel Gaudi 3 white paper (above), "
            "https://cdrdv2-public.intel.com/817486/"
            "gaudi-3-ai-accelerator-white-paper.pdf: 128 GB HBM2e, 3.7 TB/s; "
            "HL-325L OAM product brief, https://cdrdv2-public.intel.com/817487/"
            "gaudi-3-ai-accelerator-hl-325l-oam-mezzanine-card-product-brief.pdf: "
            "900 W"
            "; memory 128 GB read as 128 GiB"
        ),
        specs_note="Air-cooled OAM; liquid-cooled OAM up to 1,200 W.",
    ),
)


_VENDOR_PREFIXES: tuple[str, ...] = (
    "nvidia",
    "amd",
    "instinct",
    "intel",
    "habana",
    "google",
    "cloud",
    "tesla",
)


def _build_index() -> dict[str, Accelerator]:
    index: dict[str, Accelerator] = {}
    for acc in ACCELERATORS:
        for spelling in (acc.name, *acc.aliases):
            key = normalize(spelling)
            other = index.get(key)
            if other is not None and other is not acc:
                raise ValueError(
                    f"ambiguous accelerator name {spelling!r}: "
                    f"{other.name!r} and {acc.name!r}"
                )
            index[key] = acc
    return index


_INDEX: dict[str, Accelerator] = _build_index()


def find(name: str) -> Accelerator | None:
    """Return the accelerator called ``name``, or None.

    Matching ignores case and the characters of :data:`.names.IGNORED`
    (spaces, hyphens, underscores, tabs, non-breaking spaces), covers the
    canonical name and every alias, and retries after stripping a leading
    vendor word, so "h100", "H100-SXM", "NVIDIA H100 80GB HBM3" and
    "AMD Instinct MI300X" all resolve. Plain "H100" is the H100 SXM.
    """
    if not isinstance(name, str):
        return None
    key = normalize(name)
    while key:
        hit = _INDEX.get(key)
        if hit is not None:
            return hit
        for prefix in _VENDOR_PREFIXES:
            if key.startswith(prefix) and len(key) > len(prefix):
                key = key[len(prefix) :]
                break
        else:
            return None
    return None


BY_NAME: dict[str, Accelerator] = {a.name: a for a in ACCELERATORS}
