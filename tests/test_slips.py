"""Unit slips warn in the Python API and on the command line, not in cells.

A valid value outside the range real plans use (the argument's ``typical``, the
same range the template workbooks warn with) gives an UnusualValueWarning naming
the likely slip; a value inside it gives none.
"""

from __future__ import annotations

import warnings

import pytest

import xlfuncs as xf
from xlfuncs import udfs
from xlfuncs.cli import main
from xlfuncs.registry import ARGS, REGISTRY

# The issue's slips: (call, the argument, the text the warning must hold).
SLIPS = [
    # 70 "billion" typed as 70: 70 / 140 bytes... 23,928,571,428 tokens/s.
    (lambda: xf.decode_tokens_per_sec(70, 3.35), "params", "params 70: did you mean 70e9"),
    # GB/s typed where TB/s belong.
    (lambda: xf.decode_tokens_per_sec(70e9, 3350), "bandwidth_tb_per_s",
     "bandwidth_tb_per_s 3350: did you mean 3.35 (GB/s typed)?"),
    # g/kWh typed where kg/kWh belong: 770 MWh at "400" is 308,000 t.
    (lambda: xf.training_co2_tonnes(770, 400), "kg_co2_per_kwh",
     "kg_co2_per_kwh 400: did you mean 0.4 (g/kWh typed)?"),
    (lambda: xf.model_state_gb(70), "params", "params 70: did you mean 70e9"),
    # MB typed for a GPU's GB.
    (lambda: xf.min_gpus_for_memory(7e9, 80_000), "memory_gb",
     "memory_gb 80000: did you mean 80 (MB typed)?"),
    # 82 % typed as 0.82 %.
    (lambda: xf.throughput(8, 2500, 0.0082), "efficiency",
     "efficiency 0.0082: did you mean 0.82"),
    # A budget in FLOPs: 3.14e23 FLOPs (GPT-3) are 3,634 PF/s-days.
    (lambda: xf.chinchilla_params(3.14e23), "budget_pf_days",
     "did you mean 3634.26 (FLOPs typed)?"),
    # Bits typed for bytes.
    (lambda: xf.decode_tokens_per_sec(7e9, 3.35, 16), "bytes_per_param",
     "bytes_per_param 16: did you mean 2 (bits typed)?"),
    # Issue 28: nvidia-smi's total for an H100 SXM, 81,559 MiB (NVIDIA/nccl issue
    # #1264), is 81,559 × 1,048,576 bytes = 85.5208 GB, not 81.559 GB.
    (lambda: xf.min_gpus_for_memory(7e9, 81_559), "memory_gb",
     "memory_gb 81559: did you mean 85.5208 (MiB typed"),
    # An A100 80GB's 81,920 MiB: 85.8993 GB.
    (lambda: xf.max_decode_batch(8e9, 81_920, 0.5), "memory_gb",
     "memory_gb 81920: did you mean 85.8993 (MiB typed"),
    # Issue 28: an 8-GPU node's hourly price (AWS p5.48xlarge, 8 H100s, 98.32 USD
    # an hour on demand) is 12.29 a GPU-hour, not 0.98 typed in cents.
    (lambda: xf.serving_cost_per_mtok(98.32, 1850), "price_per_gpu_hour",
     "price_per_gpu_hour 98.32: did you mean 12.29 (an 8-GPU node's price per hour"),
    # Beyond what any GPU-hour costs even ÷ 8, cents: 250 is 2.5.
    (lambda: xf.serving_cost_per_mtok(250, 1850), "price_per_gpu_hour",
     "price_per_gpu_hour 250: did you mean 2.5 (cents typed)?"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "name", "text"), SLIPS)
def test_slips_warn_and_still_compute(call, name, text):
    with pytest.warns(xf.UnusualValueWarning) as caught:
        result = call()
    assert len(caught) == 1
    w = caught[0].message
    assert isinstance(w, UserWarning)
    assert w.name == name and text in str(w), str(w)
    # The warning points at the caller's line, not the library's.
    assert caught[0].filename == __file__
    assert result is not None


def test_the_issue_numbers_are_what_the_slips_give():
    # What the slips computed, by hand, silently before: 1 × 3.35e12 / (70 × 2)
    # tokens/s, and 770 MWh × 1,000 kWh/MWh × 400 kg/kWh / 1,000 kg/t.
    with pytest.warns(xf.UnusualValueWarning):
        assert xf.decode_tokens_per_sec(70, 3.35) == pytest.approx(3.35e12 / 140)
    with pytest.warns(xf.UnusualValueWarning):
        assert xf.training_co2_tonnes(770, 400) == pytest.approx(308_000)


def test_sane_values_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        xf.decode_tokens_per_sec(70e9, 3.35)
        xf.training_co2_tonnes(770, 0.4)
        xf.model_state_gb(70e9)
        xf.min_gpus_for_memory(7e9, 80, 0, None, 2, 3)
        xf.throughput(8, 2500, 0.82)
        xf.gpu_memory_gb("H100")
        # An array: a warning only for a value outside the range.
        xf.decode_tokens_per_sec([7e9, 70e9], 3.35)
    with pytest.warns(xf.UnusualValueWarning, match="params 70:"):
        xf.decode_tokens_per_sec([7e9, 70, 1e15], 3.35)


def test_no_documented_example_warns():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for spec in REGISTRY.values():
            spec.api(*spec.example.args)


def test_a_value_without_a_known_slip_says_so():
    with pytest.warns(xf.UnusualValueWarning, match="is unusual; check its unit"):
        xf.model_state_gb(1e20)
    # The warning carries the argument and the value.
    w = ARGS["params"].unusual(70.0)
    assert w is not None and (w.name, w.value) == ("params", 70.0)
    assert ARGS["params"].unusual(7e10) is None
    assert type(w).__module__ == "xlfuncs"  # as users import it


def test_cells_do_not_warn():
    # A cell has no stderr: the UDFs compute the same numbers silently.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert udfs.DECODE_TOKENS_PER_SEC(70.0, 3.35) == pytest.approx(3.35e12 / 140)
        assert udfs.TRAINING_CO2_TONNES([[770.0]], [[400.0]]) == pytest.approx(308_000)


@pytest.mark.parametrize(
    ("words", "text"),
    [
        (["DECODE_TOKENS_PER_SEC", "70", "3.35"], "params 70: did you mean 70e9"),
        (["DECODE_TOKENS_PER_SEC", "70e9", "3350"], "did you mean 3.35 (GB/s typed)?"),
        (["TRAINING_CO2_TONNES", "770", "400"], "did you mean 0.4 (g/kWh typed)?"),
        (["MODEL_STATE_GB", "70"], "params 70: did you mean 70e9"),
    ],
)
def test_the_command_line_warns_in_one_line(words, text, capsys):
    assert main(["calc", *words]) == 0
    out = capsys.readouterr()
    assert float(out.out) > 0  # the result is still printed
    lines = out.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("xlfuncs: warning: "), out.err
    assert text in lines[0]


def test_the_command_line_is_quiet_for_sane_values(capsys):
    assert main(["calc", "DECODE_TOKENS_PER_SEC", "70e9", "3.35"]) == 0
    out = capsys.readouterr()
    assert out.err == "" and float(out.out) == pytest.approx(3.35e12 / 140e9)


def test_a_latency_target_in_seconds_warns_before_it_fails():
    # 0.04 typed for 40 ms: no decoding step of Llama 3.1 8B is that short, so the
    # call has no answer; the warning says why first.
    with (
        pytest.warns(xf.UnusualValueWarning, match=r"did you mean 40 \(seconds"),
        pytest.raises(xf.InvalidValueError, match="misses ms_per_token"),
    ):
        xf.serving_batch("Llama 3.1 8B", "H100", 1, 1000, 1000, "fp8", 256, 0.04)


def test_round_thousands_of_memory_read_as_mb_not_mib():
    # 80,000 is a size someone typed in MB; nvidia-smi's MiB are not round.
    assert "(MB typed)" in str(ARGS["memory_gb"].unusual(80_000.0))
    assert "(MiB typed" in str(ARGS["memory_gb"].unusual(143_771.0))  # an H200
