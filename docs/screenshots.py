"""Render a PNG of each English template for docs/templates.md.

Run from the repository root: ``python3 docs/screenshots.py``. Needs LibreOffice
(``soffice``) and poppler's ``pdftoppm`` (Debian: libreoffice-calc-nogui,
poppler-utils). The workbooks are rendered exactly as committed, headless, to PDF
(their print set-up fits one page) and then to PNG.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from libreoffice import make_profile  # noqa: E402

from xlfuncs.templates import TEMPLATES  # noqa: E402


def main() -> None:
    soffice, pdftoppm = shutil.which("soffice"), shutil.which("pdftoppm")
    if not (soffice and pdftoppm):
        sys.exit(
            "needs soffice and pdftoppm: apt-get install libreoffice-calc-nogui "
            "poppler-utils"
        )
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        profile = make_profile(tmp_path / "profile")
        files = [str(ROOT / "workbooks" / t.filename("en")) for t in TEMPLATES]
        subprocess.run(
            [
                soffice,
                f"-env:UserInstallation={profile.as_uri()}",
                "--headless",
                "--convert-to",
                "pdf",
                "--outdir",
                str(tmp_path),
                *files,
            ],
            check=True,
            capture_output=True,
            timeout=300,
        )
        for t in TEMPLATES:
            pdf = tmp_path / (Path(t.filename("en")).stem + ".pdf")
            out = ROOT / "docs" / "img" / Path(t.filename("en")).stem
            subprocess.run(
                [pdftoppm, "-png", "-r", "110", "-singlefile", str(pdf), str(out)],
                check=True,
                timeout=120,
            )
            print(f"wrote {out}.png")


if __name__ == "__main__":
    main()
