"""Dense peak TFLOP/s of common ML accelerators, each cited to its vendor's sheet.

The table backs ``GPU_PEAK_TFLOPS(gpu, [dtype="bf16"])`` and its siblings in
:mod:`xlfuncs.functions.hardware`.

Conventions
-----------
* Every figure is the **dense** peak (no 2:4 structured sparsity), per chip,
  in TFLOP/s (TOP/s for ``int8``). Since Ampere, NVIDIA datasheets print the
  tensor-core rows *with sparsity* and mark them with an asterisk; where a
  sheet gives only that figure we store half of it and say so in ``note``.
  AMD and Google sheets print dense figures (AMD lists the sparse ones next
  to them), so those are stored unchanged.
* dtype keys are lower case: ``bf16``, ``fp16``, ``fp8``, ``tf32``, ``fp32``,
  ``int8``. A key is missing when the chip has no such mode or the vendor
  publishes no figure for it. ``fp16``/``bf16``/``fp8``/``tf32``/``int8`` are
  tensor/matrix-core rates. On NVIDIA ``fp32`` is the plain (non-tensor)
  FP32 rate; on AMD it is the datasheet's "FP32 Matrix" row.
* "Per chip" is per package a user rents as one accelerator: one GPU, one
  OAM module (an MI250X holds two GCDs, which ROCm shows as two devices of
  half the figure each), or one TPU chip (a TPU v4 chip holds two
  TensorCores).
* Name look-up (``find``) ignores case, spaces, hyphens and underscores, and
  strips a leading vendor word ("NVIDIA", "AMD Instinct", "Google", ...).
  A bare family name means the flagship server part: "H100" is the H100 SXM
  (the PCIe and NVL cards are slower and must be named), "A100" is the SXM4
  part (the PCIe card has the same datasheet peaks), "V100" is the SXM2 part
  (the PCIe card is 112 / 14 TFLOP/s), "H200" is the H200 SXM and "B200" is
  the HGX B200 (GB200 is a separate, faster-clocked entry).
"""

from __future__ import annotations

from dataclasses import dataclass, field


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
            "V100 SXM2 16GB",
            "V100 SXM2 32GB",
            "V100 16GB",
            "V100 32GB",
        ),
        vendor="NVIDIA",
        # Datasheet: Tensor Performance 125 TFLOPS, FP32 15.7, FP64 7.8.
        # Volta has no sparsity, no BF16, no TF32. Cross-check: Marin/fray
        # device_flops ("v100-sxm": fp16 125, fp32 15.7) agrees.
        peak_tflops={"fp16": 125.0, "fp32": 15.7},
        source=(
            "NVIDIA Tesla V100 GPU Accelerator datasheet, "
            "https://images.nvidia.com/content/technologies/volta/pdf/"
            "volta-v100-datasheet-update-us-1165301-r5.pdf"
        ),
        note=(
            "Volta has no BF16, TF32, FP8 or sparsity; fp16 is the tensor-core "
            "figure. V100 PCIe is lower (112 fp16, 14 fp32) and is not listed."
        ),
    ),
    Accelerator(
        name="A100 SXM",
        aliases=(
            "A100",
            "A100 SXM4",
            "A100 80GB",
            "A100 40GB",
            "A100 SXM 80GB",
            "A100 SXM 40GB",
            "A100 SXM4 80GB",
            "A100 SXM4 40GB",
            "A100 PCIe",
            "A100 PCIe 80GB",
            "A100 PCIe 40GB",
            "A100 80GB PCIe",
            "A100 40GB PCIe",
        ),
        vendor="NVIDIA",
        # Datasheet prints "dense | sparse*": TF32 156 | 312*, BF16 312 | 624*,
        # FP16 312 | 624*, INT8 624 | 1248*; FP32 19.5. Cross-checks:
        # torchtitan get_peak_flops (312e12), Marin/fray (312, 156, 19.5).
        peak_tflops={
            "bf16": 312.0,
            "fp16": 312.0,
            "tf32": 156.0,
            "fp32": 19.5,
            "int8": 624.0,
        },
        source=(
            "NVIDIA A100 Tensor Core GPU datasheet, "
            "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/"
            "a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf"
        ),
        note=(
            "Datasheet prints dense and sparse side by side; dense used. "
            "40GB/80GB and SXM/PCIe share the same peak figures (the 300 W "
            "PCIe card sustains lower clocks in practice)."
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
    ),
    Accelerator(
        name="GH200",
        aliases=("GH200 Grace Hopper", "GH200 96GB", "GH200 144GB", "GH200 480GB"),
        vendor="NVIDIA",
        # GH200 datasheet prints "sparse* | dense" (per superchip, one GPU):
        # TF32 989* | 494, BF16 1,979* | 990, FP16 1,979* | 990,
        # FP8 3,958* | 1,979, INT8 3,958* | 1,979; FP32 67.
        peak_tflops={
            "bf16": 990.0,
            "fp16": 990.0,
            "fp8": 1979.0,
            "tf32": 494.0,
            "fp32": 67.0,
            "int8": 1979.0,
        },
        source=(
            "NVIDIA GH200 Grace Hopper Superchip datasheet, "
            "https://nvdam.widen.net/s/rrgqqnpbz8/"
            "grace-datasheet-gh200-grace-hopper-superchip-3773000"
        ),
        note="Datasheet prints dense and sparse side by side; dense used. "
        "Hopper GPU of one superchip (the Grace CPU is not counted).",
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
        peak_tflops={
            "bf16": 2250.0,
            "fp16": 2250.0,
            "fp8": 4500.0,
            "tf32": 1100.0,
            "fp32": 75.0,
            "int8": 4500.0,
        },
        source=(
            "NVIDIA Blackwell datasheet (HGX B200 column), "
            "https://nvdam.widen.net/s/wwnsxrhm2w/blackwell-datasheet-3384703"
        ),
        note=_HALVED + " HGX B200 at up to 1,000 W.",
    ),
    Accelerator(
        name="GB200",
        aliases=("GB200 NVL72", "GB200 NVL4", "B200 NVL72"),
        vendor="NVIDIA",
        # Same datasheet, GB200 NVL72 per-GPU column (sparse*): FP8 10 PF*,
        # INT8 10 POPS*, FP16/BF16 5 PF*, TF32 2.5 PF*, FP32 80 TF.
        # Cross-check: Marin/fray "b200" (5e15/2 etc., from rack totals / 72).
        peak_tflops={
            "bf16": 2500.0,
            "fp16": 2500.0,
            "fp8": 5000.0,
            "tf32": 1250.0,
            "fp32": 80.0,
            "int8": 5000.0,
        },
        source=(
            "NVIDIA Blackwell datasheet (GB200 NVL72 column, per GPU), "
            "https://nvdam.widen.net/s/wwnsxrhm2w/blackwell-datasheet-3384703"
        ),
        note=_HALVED + " Per Blackwell GPU (a GB200 superchip has two), "
        "at up to 1,200 W.",
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
            "Intel (R. Kaplan), 'Intel Gaudi 3 AI Accelerator: Architected for "
            "Gen AI Training and Inference', Hot Chips 2024 slides, Gaudi "
            "generations table (URL not confirmed; product page "
            "https://www.intel.com/content/www/us/en/products/details/"
            "processors/ai-accelerators/gaudi2.html)"
        ),
        note="MME (matrix engine) peak; lower confidence, fp8 not recorded.",
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


def _normalize(text: str) -> str:
    """Lower-case and drop spaces, hyphens and underscores."""
    return "".join(ch for ch in text.lower() if ch not in " -_\t")


def _build_index() -> dict[str, Accelerator]:
    index: dict[str, Accelerator] = {}
    for acc in ACCELERATORS:
        for spelling in (acc.name, *acc.aliases):
            key = _normalize(spelling)
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

    Matching ignores case, spaces, hyphens and underscores, covers the
    canonical name and every alias, and retries after stripping a leading
    vendor word, so "h100", "H100-SXM", "NVIDIA H100 80GB HBM3" and
    "AMD Instinct MI300X" all resolve. Plain "H100" is the H100 SXM.
    """
    if not isinstance(name, str):
        return None
    key = _normalize(name)
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
