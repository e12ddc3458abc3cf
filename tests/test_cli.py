"""The xlfuncs command line, run as a user runs it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from xlfuncs.cli import add_udf_module, main
from xlfuncs.spec import REGISTRY


def run(*args: str) -> subprocess.CompletedProcess:
    exe = shutil.which("xlfuncs")
    cmd = [exe] if exe else [sys.executable, "-m", "xlfuncs.cli"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=120)


def test_console_script_calc_seed_example():
    out = run("calc", "FT_EXAMPLES_PER_SEC", "8", "2500", "0.82", "900")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().startswith("18.2222")


def test_calc_is_case_insensitive_and_takes_optional_args(capsys):
    assert main(["calc", "chinchilla_params", "6000"]) == 0
    assert float(capsys.readouterr().out) == pytest.approx(6.5726706900e10)
    assert main(["calc", "CHINCHILLA_PARAMS", "6000", "20"]) == 0
    assert main(["calc", "FT_TOKENS_PER_EXAMPLE", "600,800,900,1000,1200", "90"]) == 0
    assert capsys.readouterr().out.split()[-1] == "1120"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["calc", "FT_EXAMPLES_PER_SEC", "8", "2500", "82", "900"],
            "enter 82% or 0.82",
        ),
        (
            ["calc", "FT_EXAMPLES_PER_SEC", "8", "2500", "0.82", "0"],
            "tokens_per_example",
        ),
        (["calc", "FT_EXAMPLES_PER_SEC", "8", "2500", "0.82"], "takes 4 arguments"),
        (["calc", "FT_THROUGHPUT", "eight", "2500", "0.82"], "gpus must be a number"),
        (["calc", "NO_SUCH_FN", "1"], "unknown function"),
        (["calc", "TRAINING_FLOPS", "1e200", "1e200"], "out of range"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, words, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and "Traceback" not in err


def test_list_shows_every_function():
    out = run("list")
    assert out.returncode == 0
    for name in REGISTRY:
        assert name in out.stdout


def test_examples_evaluates_every_documented_example():
    out = run("examples")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == len(REGISTRY)
    seed = next(line for line in lines if line.startswith("FT_EXAMPLES_PER_SEC("))
    assert "18.2222" in seed and "examples/s" in seed
    chin = next(line for line in lines if line.startswith("CHINCHILLA_PARAMS("))
    assert "65726706900.6" in chin and "parameters" in chin


def test_excel_setup_keeps_existing_settings(tmp_path, capsys):
    conf = tmp_path / ".xlwings" / "xlwings.conf"
    conf.parent.mkdir()
    conf.write_text(
        '"INTERPRETER_WIN","C:\\\\Python\\\\python.exe"\n"UDF Modules","mymodule"\n',
        encoding="utf-8",
    )
    assert main(["excel-setup", "--config", str(conf)]) == 0
    text = conf.read_text(encoding="utf-8")
    assert '"INTERPRETER_WIN","C:\\\\Python\\\\python.exe"' in text
    assert '"UDF Modules","mymodule;xlfuncs.udfs"' in text
    assert "Import Functions" in capsys.readouterr().out
    assert add_udf_module(conf) is False  # idempotent
    assert conf.read_text(encoding="utf-8") == text


def test_excel_setup_sets_interpreter_only_if_missing(tmp_path):
    conf = tmp_path / "xlwings.conf"
    assert add_udf_module(conf, interpreter="C:\\py\\python.exe")
    assert '"INTERPRETER_WIN","C:\\py\\python.exe"' in conf.read_text(encoding="utf-8")
    conf.write_text('"INTERPRETER_WIN","D:\\mine.exe"\n', encoding="utf-8")
    add_udf_module(conf, interpreter="C:\\py\\python.exe")
    text = conf.read_text(encoding="utf-8")
    assert "mine.exe" in text and "C:\\py" not in text


def test_percent_on_the_command_line(capsys):
    assert main(["calc", "FT_EXAMPLES_PER_SEC", "8", "2500", "82%", "900"]) == 0
    assert float(capsys.readouterr().out) == pytest.approx(18.2222222, rel=1e-8)
    # A percentile is already in percent: 90% is the 90th.
    assert main(["calc", "FT_TOKENS_PER_EXAMPLE", "100,200,300", "90%"]) == 0
    assert float(capsys.readouterr().out) == pytest.approx(280)


def test_unwritable_folder_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["build", "--out", str(blocker / "sub")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("xlfuncs: error:") and "\n" not in err


def test_excel_setup_creates_config(tmp_path):
    conf = tmp_path / "new" / "xlwings.conf"
    assert add_udf_module(conf)
    assert conf.read_text(encoding="utf-8") == '"UDF Modules","xlfuncs.udfs"\n'


def test_build_command(tmp_path, capsys):
    assert main(["build", "--out", str(tmp_path), "--lang", "es"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "chinchilla-model-size-es.xlsx",
        "finetune-throughput-es.xlsx",
        "llm-training-planner-es.xlsx",
    ]
    assert main(["build", "--out", str(tmp_path), "--lang", "es"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--force" in err and "\n" not in err
    assert main(["build", "--out", str(tmp_path), "--force"]) == 0
    assert len(list(tmp_path.iterdir())) == 6


def test_output_into_a_closed_pipe_is_quiet():
    # `xlfuncs examples | head -1`: the reader has gone; no traceback, no message.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "xlfuncs.cli", "examples"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait() == 1 and err == b""
