"""Render the template workbooks to PNG, as LibreOffice prints them.

Usage::

    python3 docs/screenshots.py            # docs/img/<template>.png: each English
                                           # template's one-page Summary
    python3 docs/screenshots.py --all DIR  # every page of every workbook in
                                           # workbooks/ (both editions) into DIR

Needs LibreOffice (``soffice``) and poppler's ``pdftoppm`` (Debian packages
libreoffice-calc-nogui and poppler-utils). The workbooks are rendered as
committed, headless: workbook → PDF (their own print set-up) → PNG. Before a
template change is done, render ``--all`` and look at every page.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from libreoffice import make_profile  # noqa: E402

from xlfuncs.templates import TEMPLATES  # noqa: E402


def to_pdf(files: list[Path], out: Path, profile: Path, soffice: str) -> None:
    subprocess.run(
        [
            soffice,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(out),
            *map(str, files),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Without --all it overwrites docs/img/<template>.png (each English "
        "template's one-page Summary), the pictures the docs show. Writes "
        "PNG files and prints their paths. Needs LibreOffice (soffice) and "
        "pdftoppm: apt-get install libreoffice-calc-nogui poppler-utils.",
    )
    parser.add_argument(
        "--all", metavar="DIR", type=Path, help="render every page into DIR"
    )
    parser.add_argument("--dpi", type=int, default=110, help="resolution (110)")
    ns = parser.parse_args(argv)
    soffice, pdftoppm = shutil.which("soffice"), shutil.which("pdftoppm")
    if not (soffice and pdftoppm):
        print(
            "screenshots.py: needs soffice and pdftoppm: apt-get install "
            "libreoffice-calc-nogui poppler-utils",
            file=sys.stderr,
        )
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        profile = make_profile(tmp_path / "profile")
        if ns.all:
            files = sorted((ROOT / "workbooks").glob("*.xlsx"))
        else:
            files = [ROOT / "workbooks" / t.filename("en") for t in TEMPLATES]
        to_pdf(files, tmp_path, profile, soffice)
        for f in files:
            pdf = tmp_path / f"{f.stem}.pdf"
            if ns.all:
                ns.all.mkdir(parents=True, exist_ok=True)
                target = ns.all / f.stem
                args = [pdftoppm, "-png", "-r", str(ns.dpi), str(pdf), str(target)]
            else:
                # The Summary is the first page, what the reader who signs sees.
                target = ROOT / "docs" / "img" / f.stem
                args = [pdftoppm, "-png", "-r", str(ns.dpi), "-f", "1", "-l", "1",
                        "-singlefile", str(pdf), str(target)]  # fmt: skip
            subprocess.run(args, check=True, timeout=300)
            print(f"wrote {target}*.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
