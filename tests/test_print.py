"""What a reader holds: every workbook printed by LibreOffice to PDF, measured.

Body text prints at 8 pt or more on every page, with Carlito (Calibri's metric
twin, what an office machine's Calibri renders as) and without it, where
LibreOffice falls back on a wider face: every sheet prints one page wide, so
no page splits into columns. Sizes are read from the PDF as printed, scale
included (PyMuPDF's span sizes).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from libreoffice import SOFFICE, make_profile, require_libreoffice

pytestmark = pytest.mark.engine

ROOT = Path(__file__).resolve().parents[1]
WORKBOOKS = sorted((ROOT / "workbooks").glob("*.xlsx"))
# fontconfig told to ignore Carlito: Calibri then falls back on DejaVu Sans.
NO_CARLITO = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <selectfont><rejectfont><glob>*arlito*</glob></rejectfont></selectfont>
</fontconfig>
"""


def printed(tmp: Path, env: dict[str, str]) -> dict[str, list[float]]:
    """Each workbook's PDF: the smallest text size on each page."""
    require_libreoffice()
    pymupdf = pytest.importorskip("pymupdf")  # here: a second to import
    assert SOFFICE is not None
    profile = make_profile(tmp / "profile")
    subprocess.run(
        [SOFFICE, f"-env:UserInstallation={profile.as_uri()}", "--headless",
         "--convert-to", "pdf", "--outdir", str(tmp), *map(str, WORKBOOKS)],
        check=True, capture_output=True, timeout=600, env={**os.environ, **env},
    )  # fmt: skip
    out = {}
    for book in WORKBOOKS:
        pages = []
        for page in pymupdf.open(tmp / f"{book.stem}.pdf"):
            sizes = [
                span["size"]
                for block in page.get_text("dict")["blocks"]
                for line in block.get("lines", [])
                for span in line["spans"]
                if span["text"].strip()
            ]
            pages.append(min(sizes))
        out[book.name] = pages
    return out


@pytest.fixture(scope="module")
def with_carlito(tmp_path_factory):
    return printed(tmp_path_factory.mktemp("carlito"), {})


@pytest.fixture(scope="module")
def without_carlito(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("no-carlito")
    conf = tmp / "fonts.conf"
    conf.write_text(NO_CARLITO, encoding="utf-8")
    if "Carlito" in subprocess.run(
        ["fc-match", "Calibri"], capture_output=True, text=True,
        env={**os.environ, "FONTCONFIG_FILE": str(conf)},
    ).stdout:  # fmt: skip
        pytest.fail("fontconfig still finds Carlito: the test cannot remove it")
    return printed(tmp, {"FONTCONFIG_FILE": str(conf)})


def test_every_page_prints_text_at_8_pt_or_more(with_carlito):
    small = {
        b: [round(p, 1) for p in pages if p < 8] for b, pages in with_carlito.items()
    }
    assert not any(small.values()), small
    assert set(with_carlito) == {b.name for b in WORKBOOKS}


def test_without_carlito_no_page_splits_and_text_stays_8_pt(
    with_carlito, without_carlito
):
    for book, pages in without_carlito.items():
        assert min(pages) >= 8, (book, round(min(pages), 2))
        # A split page would double the count; a wider face only wraps more.
        assert len(pages) <= 1.25 * len(with_carlito[book]) + 1, book


def test_yen_and_won_print_without_cents(tmp_path):
    # Issue 34: JPY and KRW amounts showed two decimals. A conditional format on
    # every amount reads the Currency input; LibreOffice prints it.
    from xlfuncs.templates import BUDGET
    from xlfuncs.templates.build import build_template
    from xlfuncs.workbook.xlsx import save_workbook

    require_libreoffice()
    pymupdf = pytest.importorskip("pymupdf")
    assert SOFFICE is not None
    books = []
    for code in ("JPY", "KRW", "EUR"):
        b = build_template(BUDGET, "en", {"Currency": code})
        books.append(tmp_path / f"budget-{code}.xlsx")
        save_workbook(b.workbook, books[-1], b.cached)
    profile = make_profile(tmp_path / "profile")
    subprocess.run(
        [SOFFICE, f"-env:UserInstallation={profile.as_uri()}", "--headless",
         "--convert-to", "pdf", "--outdir", str(tmp_path), *map(str, books)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    # The example total, 681,148.82, relabelled (the prices are not converted).
    for code, shown in (("JPY", "681,149 JPY"), ("KRW", "681,149 KRW"),
                        ("EUR", "681,148.82 EUR")):  # fmt: skip
        page_1 = pymupdf.open(tmp_path / f"budget-{code}.pdf")[0].get_text()
        assert " ".join(page_1.split()).count(shown) == 1, code
