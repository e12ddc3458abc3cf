"""Test-run set-up shared by every test file."""

from __future__ import annotations

import gc

import pytest
from workbook_tools import forget_opened


def pytest_collection_finish(session: pytest.Session) -> None:
    # The modules imported so far (numpy, openpyxl, hypothesis, the package)
    # live as long as the run: kept out of every later garbage collection,
    # which otherwise walks them all again, many times a build.
    gc.freeze()


@pytest.fixture(scope="module", autouse=True)
def _workbooks_read_in_this_file():
    """Workbooks read once (``workbook_tools.opened``) are let go with the
    file that read them: a worker that holds every workbook it ever read
    spends seconds in each garbage collection."""
    yield
    forget_opened()


@pytest.fixture
def one_template(monkeypatch):
    """The whole set, as ``xlfuncs build`` makes it, is the model-size
    template alone (the quickest to build): for tests of how a build writes
    its files (refusals, exclusive and atomic writes, a full disk, the LAMBDA
    library beside them), which need files, not every workbook.
    test_templates.py builds the whole set once."""
    import xlfuncs.templates as T

    monkeypatch.setattr(T, "TEMPLATES", (T.CHINCHILLA,))
    return T.CHINCHILLA
