"""The command line's output: output that cannot be written is the error it is,
and a bad SOURCE_DATE_EPOCH one line."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from xlfuncs.cli import main

POSIX = pytest.mark.skipif(os.name == "nt", reason="POSIX terminals and devices")


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
