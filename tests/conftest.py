"""Test-run set-up shared by every test file."""

from __future__ import annotations

import pytest
from workbook_tools import forget_opened


@pytest.fixture(scope="module", autouse=True)
def _workbooks_read_in_this_file():
    """Workbooks read once (``workbook_tools.opened``) are let go with the
    file that read them: a worker that holds every workbook it ever read
    spends seconds in each garbage collection."""
    yield
    forget_opened()


@pytest.fixture
def few_templates(monkeypatch):
    """The whole set, as ``xlfuncs build`` makes it, is the fine-tuning and
    model-size templates: for tests of how a build writes its files (refusals,
    exclusive and atomic writes, a full disk), which need files, not every
    workbook. test_templates.py builds the whole set once."""
    import xlfuncs.templates as T

    few = (T.FINETUNE, T.CHINCHILLA)
    monkeypatch.setattr(T, "TEMPLATES", few)
    return few
