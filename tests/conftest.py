"""Test-run set-up shared by every test file."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # An engine file's module fixture (one LibreOffice run for all its cases)
    # is costly: its tests go to one worker together, so it runs once, while
    # the quick tests spread over every worker (pytest-xdist --dist loadgroup).
    for item in items:
        if item.get_closest_marker("engine"):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
