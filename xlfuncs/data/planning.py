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

#: LoRA's tokens per second against full fine-tuning's, as measured: 1.0, the
#: same speed. LoRA's backward pass skips the frozen weights' gradients, about
#: 4N FLOPs a token against 6N (Schulman et al., Thinking Machines, 2025, "LoRA
#: Without Regret": "~67% of the compute"), but at the sizes people fine-tune the
#: saving does not show in tokens per second: on one H200 with Hugging Face
#: transformers 5.17, PEFT 0.21 and PyTorch 2.11, Llama 3.2 1B and 3B and 3.1 8B
#: at 2,048 and 8,192 tokens, r = 16 on every linear layer, LoRA ran at 1.02 to
#: 1.13 times full fine-tuning's tokens/s without gradient checkpointing and at
#: 0.92 to 0.99 times with it (issue 28's measurements). Hu et al. 2021 (LoRA,
#: section 4.2) report "a 25% speedup during training on GPT-3 175B compared to
#: full fine-tuning" (1.25 to 1.33 times, read as throughput or as time), at a
#: size where the weights' gradients and optimizer weigh more. A visible
#: assumption: the workbooks show it, and a measured speed replaces it.
LORA_SPEEDUP = 1.0
#: QLoRA's factor: at most LoRA's. It dequantizes every 4-bit weight in each
#: forward and backward pass; issue 28's runs measured QLoRA at or below LoRA's
#: tokens/s. LoRA's factor is its upper bound.
QLORA_SPEEDUP = LORA_SPEEDUP
LORA_SOURCE = (
    "measured on one H200 (HF transformers 5.17, PEFT 0.21, PyTorch 2.11; Llama "
    "3.2 1B, 3B, 3.1 8B; r = 16): LoRA at 1.02-1.13 times full fine-tuning's "
    "tokens/s without gradient checkpointing, 0.92-0.99 with it; Hu et al. 2021, "
    "'LoRA', https://arxiv.org/abs/2106.09685, section 4.2: 25 % faster on GPT-3 "
    "175B"
)

#: Model FLOPs utilisation the planners start from for pre-training: a
#: well-tuned run's MFU while it trains, not its all-in average. Meta trained
#: Llama 3 405B at 38 to 43 % MFU in BF16 on 8,192 to 16,384 H100s (Dubey et al.
#: 2024, "The Llama 3 Herd of Models", arXiv 2407.21783, table 4). All in, with
#: restarts, evaluation, stragglers and idle GPUs, the Llama 3.1 model card's
#: training GPU-hours (8B 1.46 M, 70B 7.0 M, 405B 30.84 M H100-hours for over 15
#: T tokens; 15.6 T for 405B) imply 6·N·D ÷ (GPU-hours × 3,600 × 989.4 TFLOP/s):
#: about 14 %, 25 % and 35 % (LLAMA31_ALL_IN_MFU). Use those for a budget that
#: must hold everything a run pays for.
PRETRAINING_MFU = 0.4
LLAMA31_TRAINING = (  # (model, parameters, H100-hours, training tokens)
    ("Llama 3.1 8B", 8.0e9, 1.46e6, 15e12),
    ("Llama 3.1 70B", 70e9, 7.0e6, 15e12),
    ("Llama 3.1 405B", 405e9, 30.84e6, 15.6e12),
)
LLAMA31_TRAINING_SOURCE = (
    "Llama 3.1 model card, 'Training Data' and 'Hardware and Software' (training "
    "time in H100-80GB GPU hours: 8B 1.46M, 70B 7.0M, 405B 30.84M), "
    "https://huggingface.co/meta-llama/Llama-3.1-8B; tokens: 'over 15 trillion', "
    "15.6 T for 405B (Dubey et al. 2024, section 3.1); H100 SXM dense BF16 peak "
    "989.4 TFLOP/s"
)
#: The all-in MFU each Llama 3.1 run implies: 6·N·D over the H100-hours at peak.
LLAMA31_ALL_IN_MFU = {
    name: 6 * n * d / (hours * 3600 * 989.4e12)
    for name, n, hours, d in LLAMA31_TRAINING
}

#: How a model FLOPs utilisation is judged, typed or implied by a measured speed,
#: in every workbook: under 2 % of the GPU's dense peak is no training run but a
#: slip (a speed per minute read per second, the wrong model or GPU): an error;
#: above 70 % is more than any published large run reaches (PaLM 46.2 %, Chowdhery
#: et al. 2022, appendix B; Llama 3 405B 38-43 %, Dubey et al. 2024, table 4): a
#: warning; above 100 % is faster than the GPU's peak: an error.
MFU_FLOOR = 0.02
MFU_HIGH = 0.70

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
#: Currencies with no minor unit in everyday prices (ISO 4217: 0 decimals):
#: their amounts show no cents.
WHOLE_CURRENCIES = ("JPY", "KRW")
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
