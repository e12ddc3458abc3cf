"""One question, one answer: the fit of a fine-tune asked of the fine-tuning
workbook (its cached values, what Excel and LibreOffice compute), the Python API
and the command line (issue 21: "Does Llama 3 70B LoRA fit on 8 × A100 80GB?";
issue 28: the answer is TRAINING_MEMORY_GB's, the peak of a training step).
"""

from __future__ import annotations

import pytest

import xlfuncs
from xlfuncs.cli import main
from xlfuncs.templates import FINETUNE, compute

A100 = 85.89934592  # GB: 80 GiB, what the 80 GB part holds
LORA_70B = 207_093_760  # r = 16 on the seven linear layers of Llama 3.1 70B (PEFT)
PLAN = {"FTModel": "Llama 3.1 70B", "GPUModel": "A100 SXM", "GPUs": 8,
        "ZeroStage": 3, "ThroughputSource": "estimated"}  # fmt: skip
# The workbook's defaults: 2,048 tokens, micro-batch 4, full recomputation,
# LoRA rank 16. The fewest GPUs each method fits on, as docs/memory.md gives
# them (full 28, LoRA 4, QLoRA 1; before issue 28's peak, 17, 3 and 1).
FEWEST = {"full": 28, "LoRA": 4, "QLoRA": 1}


@pytest.mark.parametrize("method", FEWEST)
def test_the_workbook_the_api_and_the_cli_agree_on_the_fit(method, capsys):
    sheet = compute(FINETUNE, {**PLAN, "FTMethod": method})
    assert sheet["LoRAParams"] == LORA_70B
    peak = xlfuncs.training_memory_gb(
        "Llama 3.1 70B", method, 2048, 4, "full", 16, 8, 3
    )
    assert sheet["MethodMemoryGB"] == pytest.approx(float(peak), rel=1e-12)
    fewest = xlfuncs.min_gpus_for_training("Llama 3.1 70B", method, 2048, 4, A100, "full",
                                           16, 3)  # fmt: skip
    assert sheet["MethodMinGPUs"] == fewest == FEWEST[method]
    fits = float(peak) <= 0.9 * A100
    assert sheet["MemoryFit"].startswith("OK" if fits else "Error: does not fit")

    args = ("Llama 3.1 70B", method, "2048", "4", "full", "16", "8", "3")
    assert main(["calc", "TRAINING_MEMORY_GB", *args]) == 0
    assert float(capsys.readouterr().out) == pytest.approx(float(peak), rel=1e-12)
    args = ("Llama 3.1 70B", method, "2048", "4", str(A100), "full", "16", "3")
    assert main(["calc", "MIN_GPUS_FOR_TRAINING", *args]) == 0
    assert float(capsys.readouterr().out) == fewest

    # At the count MIN_GPUS_FOR_TRAINING gives, the workbook reads OK.
    there = compute(FINETUNE, {**PLAN, "FTMethod": method, "GPUs": fewest})
    assert there["MemoryFit"] == "OK"
