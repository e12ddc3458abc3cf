"""The command line's input and output: numbers as planners write them, results
with units for a person and bare for a script, short tables, and output that
cannot be written treated as the error it is."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from xlfuncs.cli import main, parse_number, short_number
from xlfuncs.data.accelerators import ACCELERATORS
from xlfuncs.data.models import MODELS

ROOT = Path(__file__).resolve().parents[1]
POSIX = pytest.mark.skipif(os.name == "nt", reason="POSIX terminals and devices")


class Terminal(io.StringIO):
    """What a terminal is to the CLI: a stream that says it is a tty."""

    def isatty(self) -> bool:
        return True


def on_a_terminal(monkeypatch, words: list[str]) -> tuple[int, str]:
    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    status = main(words)
    monkeypatch.undo()
    return status, screen.getvalue()


# ------------------------------------------------------------------ suffixes


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("70B", 70e9),
        ("1M", 1e6),
        ("1.5T", 1.5e12),
        ("0.1T", 1e11),  # read as 0.1e12, not 0.1 * 1e12 (100000000000.00002)
        ("2.5k", 2500),
        ("2.5K", 2500),
        ("405b", 405e9),
        ("1,500B", 1.5e12),
        (".5M", 5e5),
        ("-3k", -3000),
        ("82%", 0.82),  # as Excel reads it, not 82 * 0.01
        ("8200%", 82),
        ("1e3", 1000),
    ],
)
def test_numbers_with_suffixes(word, value):
    assert parse_number(word) == value


def test_suffixes_in_a_calculation(capsys):
    # 6 · N · D with N = 70 B parameters and D = 1.4 T tokens: 5.88e23 FLOPs.
    assert main(["calc", "TRAINING_FLOPS", "70B", "1.4T"]) == 0
    assert float(capsys.readouterr().out) == 6 * 70e9 * 1.4e12
    assert main(["calc", "FT_TOKENS_PER_EXAMPLE", "1k 2k 3k"]) == 0  # a list too
    assert float(capsys.readouterr().out) == 2000


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("70m", "params must be a number, not '70m' (the suffixes are k, M, B and "
         "T; a million is M)"),
        ("70x", "params must be a number, not '70x' (the suffixes are k, M, B and T)"),
        ("1e3k", "params must be a number, not '1e3k'"),
        ("70BB", "params must be a number, not '70BB'"),
    ],
)  # fmt: skip
def test_an_unknown_suffix_is_one_line(word, message, capsys):
    assert main(["calc", "TRAINING_FLOPS", word, "1.4T"]) == 2
    assert capsys.readouterr().err == f"xlfuncs: error: {message}\n"


def test_suffixes_are_documented(capsys):
    assert main(["calc", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "k, M, B or T" in help_text and "70B" in help_text and "1.5T" in help_text
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "`70B`" in readme and "`1.5T`" in readme and "`1M`" in readme


# ------------------------------------------------------------------ units


def test_a_person_sees_the_unit_a_script_the_number(monkeypatch, capsys):
    words = ["calc", "FT_EXAMPLES_PER_SEC", "8", "2,500", "82%", "900"]
    status, shown = on_a_terminal(monkeypatch, words)
    assert status == 0 and shown == "18.22222222222222 examples/s\n"
    status, shown = on_a_terminal(monkeypatch, ["calc", "CHINCHILLA_PARAMS", "6000"])
    assert shown == "65726706900.619934 parameters (65.7 B)\n"
    assert main(words) == 0  # capsys: not a terminal
    assert capsys.readouterr().out == "18.22222222222222\n"


def test_piped_output_is_the_bare_number():
    out = subprocess.run(
        [sys.executable, "-m", "xlfuncs", "calc", "CHINCHILLA_PARAMS", "6000"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and out.stdout == "65726706900.619934\n"


@POSIX
def test_a_real_terminal_gets_units():
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "xlfuncs", "calc", "TRAINING_FLOPS", "70B", "1.4T"],
        stdout=follower,
        stderr=subprocess.PIPE,
    )
    os.close(follower)
    assert proc.wait(timeout=60) == 0
    proc.stderr.close()
    shown = os.read(leader, 1000).decode()
    os.close(leader)
    assert shown.strip() == "5.88e+23 FLOPs"


@pytest.mark.parametrize(
    ("x", "shown"),
    [
        (65_726_706_900.62, "65.7 B"),
        (1.31e12, "1.31 T"),
        (999.96e9, "1000 B"),  # rounds up within its suffix
        (2_500_000.0, "2.5 M"),
        (-4.2e9, "-4.2 B"),
        (999_999.0, None),
        (1e15, None),
    ],
)
def test_short_numbers(x, shown):
    assert short_number(x) == shown


# ------------------------------------------------------------------ tables


def test_gpus_is_a_short_table(capsys):
    assert main(["gpus"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) <= len(ACCELERATORS) + 4  # a head, a row each, a short note
    for a in ACCELERATORS:  # one line a row
        rows = [line for line in lines if re.match(rf"{re.escape(a.name)}\s\s", line)]
        assert len(rows) == 1, a.name
    assert not any("http" in line for line in lines)
    assert "xlfuncs gpus --sources" in " ".join(lines)
    assert main(["gpus", "--sources"]) == 0
    sources = " ".join(capsys.readouterr().out.split())  # lines wrapped
    for a in ACCELERATORS:
        assert " ".join(f"{a.name}: {a.source}; {a.specs_source}".split()) in sources


def test_models_is_a_short_table(capsys):
    assert main(["models"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) <= len(MODELS) + 4
    for m in MODELS:
        rows = [line for line in lines if re.match(rf"{re.escape(m.name)}\s\s", line)]
        assert len(rows) == 1, m.name
    assert not any("http" in line for line in lines)
    assert "xlfuncs models --sources" in " ".join(lines)


# ------------------------------------------------- output that cannot be written


@POSIX
@pytest.mark.parametrize("unbuffered", ["1", ""])
@pytest.mark.parametrize(
    "words",
    [
        ["--version"],
        ["--help"],
        [],
        ["list"],
        ["calc", "--help"],
        ["calc", "CHINCHILLA_PARAMS", "6000"],
        ["gpus"],
    ],
    ids=" ".join,
)
def test_a_full_disk_on_stdout_is_an_error(words, unbuffered):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    env = {**os.environ, "PYTHONUNBUFFERED": unbuffered}
    with open("/dev/full", "w") as full:
        out = subprocess.run(
            [sys.executable, "-m", "xlfuncs", *words],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            env=env,
        )
    assert out.returncode == 2
    assert out.stderr == (
        "xlfuncs: error: cannot write to standard output: No space left on device\n"
    )


@pytest.mark.parametrize("words", [["--version"], ["--help"], [], ["examples"]])
def test_a_closed_pipe_exits_1_quietly(words):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "xlfuncs", *words],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 1 and err == b""


# ------------------------------------------------------------ SOURCE_DATE_EPOCH


@pytest.mark.parametrize("epoch", ["abc", "1.5", "-5", "1e9", "99999999999999"])
def test_a_bad_source_date_epoch_is_one_line(epoch, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    out = tmp_path / "out"
    assert main(["build", "--out", str(out), "--lang", "es"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("xlfuncs: error: SOURCE_DATE_EPOCH")
    assert re.search(r"whole seconds|past the last date", err)
    assert not out.exists()  # checked before any work
