"""The semantics table on real engines: each engine gives what the table records.

One workbook per reader's language holds every case of
tests/semantics_spec.py as a formula cell over its typed inputs
(tests/semantics_table.py). LibreOffice (an "always recalculate" profile in
the en-US or es-ES locale), Gnumeric (``ssconvert --recalc`` in the C locale,
or es_ES.UTF-8 compiled for the test) and IronCalc (when installed) recalculate
it; every case must come out as its engine's column says. That semantics.py
gives our column is test_semantics_spec.py's (quick) test.
"""

from __future__ import annotations

import importlib.util

import pytest
from gnumeric import recalculate as gnumeric_recalculate
from gnumeric import require_gnumeric, spanish_locale
from libreoffice import recalculate, require_libreoffice
from semantics_spec import CASES, same
from semantics_table import read, read_ironcalc, write

pytestmark = [
    pytest.mark.engine,
    pytest.mark.filterwarnings("ignore:Workbook contains no default style"),
]

LANGS = {"en": "en-US", "es": "es-ES"}
BY_LANG = {lang: [c for c in CASES if c.lang == lang] for lang in LANGS}


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    root = tmp_path_factory.mktemp("semantics")
    out = {}
    for lang in LANGS:
        (root / lang).mkdir()
        out[lang] = root / lang / f"semantics-{lang}.xlsx"
        write(BY_LANG[lang], out[lang])
    return root, out


@pytest.fixture(scope="module")
def libreoffice(books):
    require_libreoffice()
    root, paths = books
    got = {}
    for lang, locale in LANGS.items():
        (done,) = recalculate([paths[lang]], root / f"lo-{lang}", locale=locale)
        got[lang] = read(done, BY_LANG[lang])
    return got


@pytest.fixture(scope="module")
def gnumeric(books):
    require_gnumeric()
    root, paths = books
    got = {}
    for lang in LANGS:
        env = spanish_locale(root / "locale") if lang == "es" else {}
        if env is None:
            continue  # no es_ES locale to be had: English only
        done = gnumeric_recalculate(paths[lang], root / f"gn-{lang}.xlsx", env)
        got[lang] = read(done, BY_LANG[lang])
    return got


@pytest.fixture(scope="module")
def ironcalc(books):
    if importlib.util.find_spec("ironcalc") is None:
        pytest.skip("IronCalc is missing: pip install ironcalc==0.9.1")
    _, paths = books
    return {lang: read_ironcalc(paths[lang], BY_LANG[lang], lang) for lang in LANGS}


def wrong(engine: str, got: dict) -> list:
    """Cases where ``engine`` did not give what the table records for it."""
    out = []
    for lang, values in got.items():
        for case in BY_LANG[lang]:
            want = case.result(engine)
            if not same(values[case.name], want):
                out.append((case.name, case.formula, values[case.name], want))
    return out


def test_libreoffice_gives_the_table(libreoffice):
    assert not wrong("libreoffice", libreoffice)
    assert sum(map(len, libreoffice.values())) == len(CASES)


def test_gnumeric_gives_the_table(gnumeric):
    assert not wrong("gnumeric", gnumeric)
    assert len(gnumeric["en"]) == len(BY_LANG["en"])
    if "es" not in gnumeric:
        pytest.skip("no es_ES locale (localedef) for Gnumeric's Spanish cases")


def test_ironcalc_gives_the_table(ironcalc):
    assert not wrong("ironcalc", ironcalc)
