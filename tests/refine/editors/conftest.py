"""Fixtures shared by the editor tests on pages a test draws with Chromium."""

import pytest


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium per test module (skipped where Debian's ``chromium`` is missing)."""
    from documents.engines.browser import Browser, chromium_path

    if chromium_path() is None:
        pytest.skip("chromium not installed")
    with Browser() as b:
        yield b
