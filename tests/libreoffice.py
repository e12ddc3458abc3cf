"""Recalculate .xlsx files with headless LibreOffice, for tests.

LibreOffice's default for .xlsx is "never recalculate on load": a cell that
has a cached value comes back unchanged, so a test would only see the values
it wrote.  :func:`recalculate` therefore starts LibreOffice with its own
profile whose settings say "always recalculate" (``OOXMLRecalcMode`` = 0).
Start-up dominates the run time (~2 s), so many files go into one call.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pytest

SOFFICE: str | None = shutil.which("soffice") or shutil.which("libreoffice")
APT_PACKAGE = "libreoffice-calc-nogui"
TIMEOUT = 180.0

# Calc > Formula > "Recalculation on file load" > Excel 2007 and newer: Always.
# Must be in the profile before LibreOffice first starts with it.
RECALC_ALWAYS_XCU = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<oor:items xmlns:oor="http://openoffice.org/2001/registry"'
    ' xmlns:xs="http://www.w3.org/2001/XMLSchema"'
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
    '<item oor:path="/org.openoffice.Office.Calc/Formula/Load">'
    '<prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop>'
    "</item>"
    # Calc > Calculate > "Enable multi-threaded calculation": off. Threaded,
    # LibreOffice 7.4's recalculation on load of a file with cached values
    # reads some cells before computing them: in the budget a run's kind code
    # came out n/a although every cell it reads was right (and the same file
    # without cached values, or with threading off, agrees with ours to the
    # last cell). docs/templates.md tells LibreOffice users the same.
    '<item oor:path="/org.openoffice.Office.Calc/Formula/Calculation">'
    '<prop oor:name="UseThreadedCalculationForFormulaGroups" oor:op="fuse">'
    "<value>false</value></prop></item></oor:items>"
)


def require_libreoffice() -> str:
    """Return the soffice path; skip the test without it (fail it on CI)."""
    if SOFFICE is None:
        reason = f"LibreOffice is missing: apt-get install {APT_PACKAGE}"
        # On CI a missing tool is a broken setup, not a reason to pass.
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return SOFFICE


# Tools > Options > Language Settings > Languages > Locale setting: the
# separators FIXED and number-to-text conversions use (es-ES: "1.234,5").
LOCALE_ITEM = (
    '<item oor:path="/org.openoffice.Setup/L10N">'
    '<prop oor:name="ooSetupSystemLocale" oor:op="fuse"><value>{}</value></prop>'
    "</item>"
)


def make_profile(directory: Path, locale: str = "en-US") -> Path:
    """Create a LibreOffice profile in `directory` that always recalculates, with
    `locale` as its locale setting."""
    user = directory / "user"
    user.mkdir(parents=True, exist_ok=True)
    xcu = RECALC_ALWAYS_XCU.replace(
        "</oor:items>", LOCALE_ITEM.format(locale) + "</oor:items>"
    )
    (user / "registrymodifications.xcu").write_text(xcu, "utf-8")
    return directory


def recalculate(
    paths: Sequence[Path],
    outdir: Path,
    *,
    profile: Path | None = None,
    timeout: float = TIMEOUT,
    locale: str = "en-US",
) -> list[Path]:
    """Open `paths` in LibreOffice, recalculate, and save them into `outdir`.

    Parameters
    ----------
    paths
        .xlsx files; their names (stems) must differ, and none may be in
        `outdir`, since the output keeps the input's name.
    outdir
        Directory for the results; created if missing.
    profile
        A profile made by :func:`make_profile`, to reuse between calls (a
        warm profile starts faster).  By default a fresh one is made in a
        temporary directory under `outdir` and removed afterwards.
    timeout
        Seconds before LibreOffice is killed.
    locale
        The locale of the profile made when none is given: the separators
        FIXED and text conversions use.

    Returns
    -------
    list[Path]
        The recalculated files, in the order of `paths`.

    Raises
    ------
    RuntimeError
        If LibreOffice is missing, fails, times out or leaves out a file.
    """
    if SOFFICE is None:
        raise RuntimeError(f"LibreOffice is missing: apt-get install {APT_PACKAGE}")
    paths = [Path(p).resolve() for p in paths]
    if not paths:
        return []
    outdir = Path(outdir).resolve()
    outdir.mkdir(parents=True, exist_ok=True)
    outputs = [outdir / f"{p.stem}.xlsx" for p in paths]
    if len(set(outputs)) != len(outputs):
        raise ValueError(f"input file names collide in {outdir}: {paths}")
    if outdir in {p.parent for p in paths}:
        raise ValueError(f"outdir {outdir} holds an input; use a separate directory")
    # A stale result would pass the "output exists" check below.
    for out in outputs:
        out.unlink(missing_ok=True)

    own_profile = profile is None
    if profile is None:
        profile = make_profile(
            Path(tempfile.mkdtemp(prefix=".lo-profile-", dir=outdir)), locale
        )
    cmd = [
        SOFFICE,
        f"-env:UserInstallation={Path(profile).resolve().as_uri()}",
        "--headless",
        "--norestore",
        "--calc",
        "--convert-to",
        "xlsx",
        "--outdir",
        str(outdir),
        *map(str, paths),
    ]
    try:
        stdout, stderr, returncode = _run(cmd, timeout)
        missing = [str(out) for out in outputs if not out.is_file()]
        if (returncode != 0 or missing) and own_profile:
            # A first start with a new profile now and then exits at once (seen
            # on CI-like machines right after another soffice quit): once more.
            stdout, stderr, returncode = _run(cmd, timeout)
    finally:
        if own_profile:
            shutil.rmtree(profile, ignore_errors=True)

    missing = [str(out) for out in outputs if not out.is_file()]
    if returncode != 0 or missing:
        raise RuntimeError(
            f"soffice exited with {returncode}; missing outputs: {missing}\n"
            f"command: {' '.join(cmd)}\nstderr:\n{stderr}\nstdout:\n{stdout}"
        )
    return outputs


def _run(cmd: list[str], timeout: float) -> tuple[str, str, int]:
    # `soffice` is a launcher script whose soffice.bin child would outlive a
    # plain kill; a new session lets a timeout kill the whole process group.
    with subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    ) as proc:
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            if hasattr(os, "killpg"):
                os.killpg(proc.pid, signal.SIGKILL)
            else:  # Windows: no process groups
                proc.kill()
            stdout, stderr = proc.communicate()
            raise RuntimeError(
                f"soffice timed out after {timeout} s\ncommand: {' '.join(cmd)}\n"
                f"stderr:\n{stderr}\nstdout:\n{stdout}"
            ) from None
    return stdout, stderr, proc.returncode
