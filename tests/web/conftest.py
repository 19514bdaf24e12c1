"""Fixtures for the page's tests: real processes (the daemon on the simulator and `tabletap
web`) and one real browser, Debian's chromium driven by Playwright, for the whole session.

`make test` installs chromium (as root, through apt) and sets TABLETAP_REQUIRE_BROWSER=1, so there
a missing browser is a failure; a bare `pytest` on a machine without it skips the browser tests.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.table import Table

REQUIRED = os.environ.get("TABLETAP_REQUIRE_BROWSER") == "1"


def chromium_path() -> str | None:
    return os.environ.get("TABLETAP_CHROMIUM") or shutil.which("chromium") or shutil.which(
        "chromium-browser")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = chromium_path()
    why = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        why = "the playwright package is missing (pip install -e '.[dev]')"
    if path is None:
        why = "Debian's chromium is missing (apt-get install chromium)"
    if why:
        if REQUIRED:
            pytest.fail(why)
        pytest.skip(why)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture()
def page_of(browser: Any) -> Iterator[Any]:
    """A fresh phone (its own cookies) at 360x800, opened on a table's page."""
    contexts = []

    def open_page(table: Table, wait: bool = True) -> Any:
        ctx = browser.new_context(viewport={"width": 360, "height": 800}, device_scale_factor=1)
        contexts.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors
        page.goto(table.url + "/")
        if wait:  # for the first snapshot drawn
            page.wait_for_selector("body:not([data-counter=''])")
        return page

    yield open_page
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    # Every browser of these tests pairs from 127.0.0.1: more attempts a minute than a phone gets.
    t = Table(Path(tmp_path_factory.mktemp("table")), pairing_seconds=5, pairing_attempts=30)
    yield t
    t.stop()
