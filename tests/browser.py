"""A real headless browser for the tests of the static site and the HTML report.

The pages are opened in Debian's Chromium (``/usr/bin/chromium``, or the program
``MATADOR_CHROMIUM`` names) driven by Playwright. The browser starts once per test
process; every test gets a fresh page that records what the console and the page
report, and fails when a page logged an error. Screenshots go to
``test-artifacts/screenshots/`` (or ``$MATADOR_ARTIFACTS/screenshots``), which CI
keeps.

Where Playwright or Chromium is missing the browser tests skip, unless
``MATADOR_REQUIRE_BROWSER`` is set (CI sets it after installing both): then they
fail, so a broken install never passes as a skip.

The fixtures are registered in ``conftest.py``: ``browser`` (session) and
``page`` (one per test); ``shoot(page, name)`` saves a screenshot.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPO = Path(__file__).resolve().parents[1]

#: Where screenshots are kept for people to look at.
ARTIFACTS = Path(os.environ.get("MATADOR_ARTIFACTS", REPO / "test-artifacts")) / "screenshots"

#: Chromium's switches for a closed machine: no sandbox (CI runs as root), and no
#: background connections, which a machine without a network refuses by the dozen.
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

#: The width of a phone screen in CSS pixels, for the tests that read a page there.
PHONE = {"width": 390, "height": 844}


def _chromium() -> str | None:
    """The Chromium program, or None where there is none."""
    named = os.environ.get("MATADOR_CHROMIUM")
    if named:
        return named
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _unavailable(why: str) -> None:
    """Skip, or fail where CI requires the browser."""
    if os.environ.get("MATADOR_REQUIRE_BROWSER"):
        pytest.fail(f"a browser is required here (MATADOR_REQUIRE_BROWSER) but {why}")
    pytest.skip(why)


@dataclass
class PageLog:
    """What one page reported: console errors and uncaught exceptions."""

    errors: list[str] = field(default_factory=list)


def browser_session() -> Iterator[Browser]:
    """Start headless Chromium under Playwright for the whole test process."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright is not installed (pip install playwright)")
    program = _chromium()
    if program is None:
        _unavailable("Chromium is not installed (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=program, args=list(CHROMIUM_ARGS), headless=True
        )
        try:
            yield browser
        finally:
            browser.close()


def fresh_page(browser: Browser, **context: Any) -> Iterator[tuple[Page, PageLog]]:
    """A new page in its own context, with its console errors collected."""
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    log = PageLog()
    page.on(
        "console",
        lambda message: (
            log.errors.append(f"console {message.type}: {message.text}")
            if message.type == "error"
            else None
        ),
    )
    page.on("pageerror", lambda error: log.errors.append(f"page error: {error}"))
    try:
        yield page, log
    finally:
        ctx.close()


def shoot(page: Page, name: str, *, full_page: bool = True) -> Path:
    """Save a screenshot of ``page`` as ``<ARTIFACTS>/<name>.png`` and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path
