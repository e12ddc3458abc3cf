"""Market prices the workbooks start from: a GPU-hour by GPU and tier, and a
hosted model's tokens, each dated and sourced.

One default per GPU and tier across the pack: the planners' price per GPU-hour
is the on-demand price of their default GPU, and the budget's Prices sheet lists
every row below. They are examples to replace with a contract's prices; the
workbooks say so, and warn while they are left in another currency.

How each default was set (read 2026-12-04 from stored copies of the providers'
pages; docs/templates.md gives the table with every quote):

- **On-demand**: the median of the GPU clouds' data-centre list prices per GPU
  (CoreWeave's 8-GPU node price ÷ 8, Lambda, RunPod Secure Cloud, Nebius,
  Together, Hyperstack). Hyperscalers list far above it (an H100 at 6.88 on AWS,
  12.29 on Azure, 10.98 on Google Cloud) and marketplaces below it (2.40-2.69).
- **Reserved**: a price a provider itself publishes for committed capacity, never
  a list price less another provider's discount: Hyperstack's "reserved from"
  rates. CoreWeave, Lambda, Nebius, AWS, Azure and Google publish only maximum
  discounts or "contact sales".
- **Spot**: the median of the published interruptible prices (with two quotes,
  the higher).

GPU list prices rose in the second half of 2026 (Nebius's H100 from 3.85 to 4.50
on 2026-10-01): a CFO should have the rows read again before signing.

The B300 and RTX PRO 6000 rows were read otherwise: from a third-party
compilation of the providers' price sheets (a public research file, "GPU Cloud
Pricing and TCO - reference as of 2026-09-19", which fetched each sheet on
2026-09-19), not from the providers' pages; each says so in its source and
carries its own date (``read``). The same compilation finds no GPU cloud that
lists a GB300 or an MI355X on demand (CoreWeave, Nebius, Together and Azure
quote GB300 on request): only Oracle Cloud does (18.00 a GB300, 8.60 an MI355X
per GPU-hour), a hyperscaler's list like the ones the median leaves out (its
B200 is 14.00 against the clouds' 6.79), so those have no row.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The date the example prices were read, shown beside them.
PRICES_READ = "2026-12-04"
#: The currency the example prices are in.
PRICES_CURRENCY = "USD"


@dataclass(frozen=True)
class GPUPrice:
    """USD per GPU-hour of one accelerator by tier; None where no quote was found."""

    gpu: str  # the accelerator table's name
    on_demand: float
    reserved: float | None
    spot: float | None
    source: str  # where each figure comes from, in a line
    read: str = PRICES_READ  # the date the figures were read


_MEDIAN = "median of GPU clouds' on-demand lists"
#: The rows read from a third-party compilation, and when it was read.
_COMPILED_READ = "2026-09-19"
_COMPILED = (
    "from a third-party compilation of the providers' price sheets read "
    f"{_COMPILED_READ} (a public research file, 'GPU Cloud Pricing and TCO - "
    "reference as of 2026-09-19'), not from the providers' pages"
)
_HYPERSTACK = "reserved: Hyperstack's published rate"

#: The example price list (USD per GPU-hour, read 2026-12-04).
GPU_PRICES = (
    GPUPrice("H100 SXM", 3.99, 2.72, 2.46,
             f"{_MEDIAN} (CoreWeave ÷ 8, Lambda, RunPod, Nebius, Together, "
             f"Hyperstack); {_HYPERSTACK}; spot: CoreWeave ÷ 8"),
    GPUPrice("H200 SXM", 5.40, 2.79, 2.62,
             f"{_MEDIAN} (Hyperstack, RunPod, Nebius, Together, CoreWeave ÷ 8); "
             f"{_HYPERSTACK}; spot: CoreWeave ÷ 8"),
    GPUPrice("B200", 6.79, 5.10, 4.26,
             f"{_MEDIAN} (Hyperstack, Lambda, RunPod, Nebius, CoreWeave ÷ 8); "
             f"{_HYPERSTACK}; spot: CoreWeave ÷ 8"),
    GPUPrice("A100 SXM", 2.25, 1.36, 1.21,
             f"{_MEDIAN} (Hyperstack, RunPod, CoreWeave ÷ 8, Lambda); "
             f"{_HYPERSTACK}; spot: CoreWeave ÷ 8"),
    GPUPrice("L40S", 1.55, None, 0.94,
             f"{_MEDIAN} (RunPod, Nebius, CoreWeave ÷ 8); no reserved quote; "
             "spot: Verda"),
    GPUPrice("B300", 7.85, None, 4.48,
             f"{_MEDIAN} (Hyperstack 7.40, Nebius 7.85, RunPod Secure 7.89), "
             f"{_COMPILED}; no reserved quote; spot: CoreWeave",
             _COMPILED_READ),
    GPUPrice("RTX PRO 6000", 1.97, None, None,
             f"{_MEDIAN} (Nebius 1.80, Hyperstack 1.85, RunPod 2.09, CoreWeave "
             f"2.50), {_COMPILED}; no reserved or spot quote",
             _COMPILED_READ),
)  # fmt: skip

#: The sources behind GPU_PRICES, as a reader can find them.
GPU_PRICE_SOURCES = (
    "CoreWeave, https://www.coreweave.com/pricing (8-GPU node prices ÷ 8); Lambda, "
    "https://lambda.ai/instances; RunPod, https://www.runpod.io/pricing; Nebius, "
    "https://nebius.com/prices; Together, https://www.together.ai/pricing; "
    "Hyperstack, https://www.hyperstack.cloud/gpu-pricing (on-demand and reserved)"
)


def gpu_price(gpu: str) -> GPUPrice:
    """The example prices of one accelerator of GPU_PRICES, by its table name."""
    return next(p for p in GPU_PRICES if p.gpu == gpu)


#: The planners' default price per GPU-hour: an H100 SXM on demand.
DEFAULT_GPU = "H100 SXM"
DEFAULT_PRICE = gpu_price(DEFAULT_GPU).on_demand


@dataclass(frozen=True)
class ApiPrice:
    """A hosted model's list price, USD per million tokens."""

    model: str
    input: float
    output: float
    source: str


#: What serving the budget's 70 B model would cost through a hosted API: the
#: AWS Bedrock and Google Vertex list price of Llama 3.3 70B Instruct, which is
#: the median of ten providers' (median input 0.705, output 0.735; output from
#: 0.38 to 0.90 for nine of them). Several were last checked in 2025: ±50 %.
API_70B = ApiPrice(
    "Llama 3.3 70B", 0.72, 0.72,
    "AWS Bedrock and Google Vertex list price of Llama 3.3 70B Instruct, the median "
    "of ten providers (Together 0.88/0.88, Groq 0.59/0.79, DeepInfra 0.13/0.38, "
    "Azure 0.71/0.71, Fireworks 0.90/0.90, Novita 0.39/0.39, Nebius 0.25/0.75), "
    "https://aws.amazon.com/bedrock/pricing, read 2026-12-04",
)  # fmt: skip

#: The same for an 8 B model, the planner's default fine-tune: AWS Bedrock's list
#: price of Llama 3.1 8B Instruct, within the range of 21 providers (cloudprice.net's
#: provider table, read 2026-12-04).
API_8B = ApiPrice(
    "Llama 3.1 8B", 0.22, 0.22,
    "AWS Bedrock list price of Llama 3.1 8B Instruct (DeepInfra 0.03/0.05, Databricks "
    "0.15/0.45, Together 0.20/0.60, Azure 0.30/0.61), "
    "https://cloudprice.net/models/friendliai/meta-llama-3.1-8b-instruct, "
    "read 2026-12-04",
)  # fmt: skip

#: Total compute of a model's development over its final training run: Cottier
#: et al. 2024, "The rising costs of training frontier AI models", arXiv
#: 2405.21015, section 2.5 and appendix A.6: "ranges from 1.2x to 4x, with a
#: median of 2.2x" (a 90 % credible interval).
EXPERIMENTS_RANGE = (1.2, 2.2, 4.0)
EXPERIMENTS_SOURCE = (
    "Cottier et al. 2024, 'The rising costs of training frontier AI models', "
    "arXiv 2405.21015, section 2.5 and appendix A.6: total compute 1.2x to 4x the "
    "final run (90 % interval), median 2.2x"
)

__all__ = [
    "API_70B",
    "API_8B",
    "DEFAULT_GPU",
    "DEFAULT_PRICE",
    "EXPERIMENTS_RANGE",
    "EXPERIMENTS_SOURCE",
    "GPU_PRICES",
    "GPU_PRICE_SOURCES",
    "PRICES_CURRENCY",
    "PRICES_READ",
    "ApiPrice",
    "GPUPrice",
    "gpu_price",
]
