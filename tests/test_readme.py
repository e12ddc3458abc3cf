"""The README's Python examples and command lines run as written."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

from xlfuncs.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples():
    result = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted >= 3
    assert result.failed == 0


def test_readme_calc_lines_print_what_their_comments_say(capsys):
    # `xlfuncs calc … # 18.22222222222222`, split as a POSIX shell splits it.
    lines = re.findall(r"^xlfuncs (calc .+?)\s+# (\S+)", README.read_text(), re.M)
    assert len(lines) >= 3
    for command, shown in lines:
        assert main(shlex.split(command)) == 0, command
        assert capsys.readouterr().out.strip() == shown.rstrip(","), command
