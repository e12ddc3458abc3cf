"""The README's Python examples and command lines run as written."""

from __future__ import annotations

import doctest
import io
import re
import shlex
import sys
from pathlib import Path

from xlfuncs.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples():
    result = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted >= 3
    assert result.failed == 0


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_readme_calc_lines_print_what_their_comments_say(monkeypatch, capsys):
    # `xlfuncs calc … # 18.22222222222222 examples/s`, split as a POSIX shell
    # splits it: on a terminal the comment up to any ", …" remark, piped its
    # first word.
    lines = re.findall(r"^xlfuncs (calc .+?)\s+# (.+)$", README.read_text(), re.M)
    assert len(lines) >= 4
    for command, comment in lines:
        assert main(shlex.split(command)) == 0, command
        assert capsys.readouterr().out.strip() == comment.split()[0].rstrip(","), (
            command
        )
        screen = _Terminal()
        with monkeypatch.context() as m:
            m.setattr(sys, "stdout", screen)
            assert main(shlex.split(command)) == 0, command
        assert screen.getvalue().strip() == comment.split(", ")[0], command


def test_readme_company_rollout_builds(tmp_path, capsys, monkeypatch):
    # The template section's `xlfuncs build … --set …` line, as written, on the
    # fine-tuning and model-size workbooks (the names it sets live there).
    import xlfuncs.templates as T

    monkeypatch.setattr(T, "TEMPLATES", (T.FINETUNE, T.CHINCHILLA))
    lines = re.findall(r"^(xlfuncs build .*--set .*)$", README.read_text(), re.M)
    assert len(lines) == 1
    words = shlex.split(lines[0])[1:]
    out = words.index("--out")
    words[out + 1] = str(tmp_path / "our-workbooks")
    assert main([*words, "--lang", "en"]) == 0
    said = capsys.readouterr()
    assert "GPUModel=A100 80GB: set in finetune-throughput" in said.out
    assert "error" not in said.err
    assert (tmp_path / "our-workbooks" / T.FINETUNE.filename("en")).exists()
