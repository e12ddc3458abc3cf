"""Recalculate .xlsx files with Gnumeric (``ssconvert --recalc``), for tests.

Gnumeric formats numbers in text (FIXED, ``&``) by the process locale. The C
locale gives the English separators; a Spanish reader's are those of
es_ES.UTF-8, which a bare machine lacks: :func:`spanish_locale` compiles it
into a folder of its own with ``localedef`` (no root needed) for ``LOCPATH``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SSCONVERT: str | None = shutil.which("ssconvert")
LOCALEDEF: str | None = shutil.which("localedef")
TIMEOUT = 120.0


def require_gnumeric() -> str:
    """Return the ssconvert path; skip the test without it (fail it on CI)."""
    if SSCONVERT is None:
        reason = "Gnumeric is missing: apt-get install gnumeric"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return SSCONVERT


def spanish_locale(directory: Path) -> dict[str, str] | None:
    """The environment of a process in the es_ES.UTF-8 locale, compiled into
    ``directory``; None where ``localedef`` or its locale sources are missing."""
    if LOCALEDEF is None:
        return None
    out = directory / "es_ES.UTF-8"
    if not out.is_dir():
        directory.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [LOCALEDEF, "-i", "es_ES", "-f", "UTF-8", str(out)],
            capture_output=True, timeout=TIMEOUT, check=False,
        )  # fmt: skip
        if done.returncode not in (0, 1) or not out.is_dir():  # 1: warnings only
            return None
    return {"LOCPATH": str(directory), "LC_ALL": "es_ES.UTF-8"}


def recalculate(src: Path, dst: Path, env: dict[str, str] | None = None) -> Path:
    """Recalculate ``src`` into ``dst`` with Gnumeric, in the C locale unless
    ``env`` says otherwise (:func:`spanish_locale`)."""
    subprocess.run(
        [require_gnumeric(), "--recalc", str(src), str(dst)],
        check=True, capture_output=True, timeout=TIMEOUT,
        env={**os.environ, "LC_ALL": "C", **(env or {})},
    )  # fmt: skip
    return dst
