"""Planning assumptions the template workbooks start from, each with its source.

Every figure here is a default the reader sees, can change, and can trace: a
workbook shows it as a visible input with this text beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Contingency for failed runs, restarts and re-runs, as a share of the compute
#: cost. Meta's Llama 3 pre-training reached "higher than 90% effective training
#: time" over a 54-day snapshot with 466 job interruptions (Dubey et al. 2024,
#: "The Llama 3 Herd of Models", §3.3.4, arXiv 2407.21783): paying for 100 hours
#: of which 90 train means 1/0.9 = 1.11 times the useful hours, 11 % on top.
CONTINGENCY = 0.11
CONTINGENCY_SOURCE = (
    "Dubey et al. 2024, 'The Llama 3 Herd of Models', §3.3.4, "
    "https://arxiv.org/abs/2407.21783"
)

#: LoRA's compute per token against full fine-tuning: the frozen weights need no
#: weight gradients, so the backward pass costs about 2N FLOPs a token instead of
#: 4N, 4N in all against 6N: two thirds, 1.5 times the tokens per second at the
#: same utilisation. Schulman et al. (Thinking Machines, 2025, "LoRA Without
#: Regret") measure "~67% of the compute"; Hu et al. 2021 (LoRA, §4.2) report a
#: 25 % speed-up on GPT-3 175B, with the optimizer step and I/O included.
LORA_SPEEDUP = 1.5
LORA_SOURCE = (
    "Hu et al. 2021, 'LoRA', https://arxiv.org/abs/2106.09685; Schulman et al. "
    "2025, 'LoRA Without Regret' (Thinking Machines)"
)

#: Public on-demand and spot prices of one data-centre GPU-hour run from about
#: 1.2 USD (an A100 80GB, spot) to 12.3 USD (an H100, Azure on demand) in late
#: 2026 (CoreWeave, Lambda, AWS, Google Cloud and Azure price pages): a price
#: outside a band around them is worth a second look (cents typed for dollars).
PRICE_USD_BAND = (0.25, 25.0)


@dataclass(frozen=True)
class Currency:
    code: str
    per_usd: float  # units of the currency a US dollar buys, rounded


#: Rounded exchange rates, for an order of magnitude only (the price band above
#: in the reader's currency): ECB euro reference rates, 2024 averages, divided by
#: the dollar's (1.0824 per euro), then rounded to two figures.
CURRENCIES = (
    Currency("USD", 1.0),
    Currency("EUR", 0.92),
    Currency("GBP", 0.78),
    Currency("CHF", 0.88),
    Currency("JPY", 150.0),
    Currency("CNY", 7.2),
    Currency("INR", 84.0),
    Currency("KRW", 1400.0),
    Currency("CAD", 1.4),
    Currency("AUD", 1.5),
    Currency("BRL", 5.4),
    Currency("MXN", 18.0),
    Currency("SEK", 11.0),
)
CURRENCY_SOURCE = (
    "Exchange rates, rounded, for an order of magnitude only: ECB euro foreign "
    "exchange reference rates, 2024 averages, "
    "https://www.ecb.europa.eu/stats/policy_and_exchange_rates/"
    "euro_reference_exchange_rates/html/index.en.html"
)


#: Fine-tuning methods as a workbook's drop-down offers them, and every word it
#: accepts (lower case, as the look-ups compare), with the method's number:
#: 1 full fine-tuning, 2 LoRA, 3 QLoRA. Both editions accept both words.
METHOD_NAMES = ("full", "LoRA", "QLoRA")
METHOD_KEYS = (("full", 1), ("completo", 1), ("lora", 2), ("qlora", 3))
#: Where the throughput per GPU comes from: 1 measured (typed), 2 estimated (from
#: the model, the GPU's peak and an MFU).
SOURCE_NAMES = ("measured", "estimated")
SOURCE_KEYS = (("measured", 1), ("medido", 1), ("estimated", 2), ("estimado", 2))
