"""One question, one answer: the fit of a fine-tune asked of the fine-tuning
workbook (its cached values, what Excel and LibreOffice compute), the Python API
and the command line (issue 21: "Does Llama 3 70B LoRA fit on 8 × A100 80GB?").
"""

from __future__ import annotations

import pytest

import xlfuncs
from xlfuncs.cli import main
from xlfuncs.templates import FINETUNE, compute

A100 = 85.89934592  # GB: 80 GiB, what the 80 GB part holds
LORA_70B = 207_093_760  # r = 16 on the seven linear layers of Llama 3.1 70B
ACT = 10.73741824  # GB: 2·s·b·h·L = 2 × 2048 × 4 × 8192 × 80 bytes
PLAN = {"FTModel": "Llama 3.1 70B", "GPUModel": "A100 SXM", "GPUs": 8,
        "ZeroStage": 3, "ThroughputSource": "estimated"}  # fmt: skip
# method: (parameters held, trained, bytes a held weight), and by hand the GB a
# GPU holds on 8 GPUs at ZeRO-3 (16 bytes a trained parameter, weights sharded)
# and the fewest GPUs whose 90 % holds it.
METHODS = {
    # 16 × 70e9 / 8 + 10.74 = 150.74 GB; 1.12e12 / (77.31 − 10.74) GB → 17.
    "full": (70e9, 70e9, 2, 150.737, 17),
    # (2 × (70e9 + 207.1 M) + 14 × 207.1 M) / 8 + 10.74 = 28.65 GB.
    "LoRA": (70e9 + LORA_70B, LORA_70B, 2, 28.652, 3),
    # (0.5 × (70e9 + 207.1 M) + 14 × 207.1 M) / 8 + 10.74 = 15.49 GB.
    "QLoRA": (70e9 + LORA_70B, LORA_70B, 0.5, 15.488, 1),
}


@pytest.mark.parametrize("method", METHODS)
def test_the_workbook_the_api_and_the_cli_agree_on_the_fit(method, capsys):
    held, trained, weight_bytes, gb, fewest = METHODS[method]
    sheet = compute(FINETUNE, {**PLAN, "FTMethod": method})
    assert sheet["LoRAParams"] == LORA_70B
    assert sheet["FTActivationGB"] == pytest.approx(ACT, rel=1e-12)
    assert sheet["MethodMemoryGB"] == pytest.approx(gb, abs=5e-4)
    assert sheet["MethodMinGPUs"] == fewest
    fits = gb <= 0.9 * A100
    assert sheet["MemoryFit"].startswith("OK" if fits else "Error: does not fit")

    state = xlfuncs.model_state_gb(held, trained, weight_bytes, 8, 3)
    assert float(state) + ACT == pytest.approx(gb, abs=5e-4)
    args = (held, A100, ACT, trained, weight_bytes, 3, 1, 0.9)
    assert xlfuncs.min_gpus_for_memory(*args) == fewest
    assert main(["calc", "MIN_GPUS_FOR_MEMORY", *map(str, args)]) == 0
    assert float(capsys.readouterr().out) == fewest

    # At the count MIN_GPUS_FOR_MEMORY gives, the workbook reads OK.
    there = compute(FINETUNE, {**PLAN, "FTMethod": method, "GPUs": fewest})
    assert there["MemoryFit"] == "OK"
