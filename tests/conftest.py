"""Shared fixtures for the loader and CLI tests.

Variant files for the tests are built from the shipped ``variants/gamerules-com.yaml``
(a complete, valid variant) by small textual edits, and written to ``tmp_path``.
Every edit checks that the text it replaces is really there, so a change to the
shipped file makes the tests fail loudly instead of testing the wrong thing.

The Hypothesis profiles (tests/profiles.py) are loaded here, before any test
module is collected: derandomized by default, ``HYPOTHESIS_PROFILE=thorough`` for
ten times the examples, freshly random.
"""

from __future__ import annotations

import gc
import io
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser import browser_session, fresh_page
from fingerprint import Fingerprint
from fitting import PIPE_WIDTH, prints_data, too_wide, unfitted, width_of
from profiles import load_profile

# Imported here, before any test: pytester's in-process runs (the pytest plugin's tests)
# take back every module imported during them, and PyYAML's libyaml extension cannot
# be imported afresh after that (its events would no longer be yaml.events' classes).
import reference_engine.rules.yamlparse  # noqa: F401
from reference_engine.cli import run
from reference_engine.rules import Catalog, Problem

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPO = Path(__file__).resolve().parents[1]

#: The allocations between two collections of the youngest generation (Python's
#: default is 700); see ``pytest_configure``.
GC_THRESHOLD = 50_000
SHIPPED_VARIANT = REPO / "variants" / "gamerules-com.yaml"

#: The citation given to every rule of the variants that ``child_text`` builds.
_CITE = """\
    cite:
      - publication: gamerules-com
        text: "000"
        section: opening paragraphs
        says: A citation written for the loader tests.
"""


@pytest.fixture
def node() -> str:
    """The node program, for tests that run the Node.js example engine.

    They skip where node is missing, and fail instead where CI sets
    ``MATADOR_REQUIRE_NODE`` (it installs node).
    """
    found = shutil.which("node")
    if found is None:
        if os.environ.get("MATADOR_REQUIRE_NODE"):
            pytest.fail("node is required here (MATADOR_REQUIRE_NODE) but not installed")
        pytest.skip("node is not installed")
    return found


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless Chromium for the whole test process (tests/browser.py)."""
    yield from browser_session()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh browser page; the test fails if the page logged a console error."""
    for opened, log in fresh_page(browser):
        yield opened
        assert not log.errors, "the page reported errors:\n" + "\n".join(log.errors)


@pytest.fixture
def phone_page(browser: Browser) -> Iterator[Page]:
    """Like ``page``, at a phone's width (390 CSS pixels)."""
    from browser import PHONE

    for opened, log in fresh_page(browser, viewport=PHONE, is_mobile=True):
        yield opened
        assert not log.errors, "the page reported errors:\n" + "\n".join(log.errors)


# pytester drives the conformance pytest plugin in tests/test_conformance.py.
pytest_plugins = ("pytester",)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow",
        action="store_true",
        help="also run the tests marked slow (PDF sheets, hostile-input subprocesses); CI does",
    )


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Say at the end that the slow tests were left out, and how to run them.

    (Under pytest-xdist the workers deselect them, so the summary line cannot count them.)
    """
    if not config.getoption("--slow"):
        terminalreporter.write_line("slow tests left out: pass --slow to run them too (CI does)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the tests marked slow unless ``--slow`` is given.

    They are deselected rather than skipped: a skipped test still costs a setup
    and a report (sent between processes under pytest-xdist), about a thousand
    times in the quick loop. When every test asked for is slow (a slow test named
    on the command line), they are skipped instead, so the run says why.
    """
    if config.getoption("--slow"):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if len(slow) == len(items):
        skip = pytest.mark.skip(reason="slow: run with --slow (CI does)")
        for item in slow:
            item.add_marker(skip)
        return
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Load the Hypothesis profile named by ``HYPOTHESIS_PROFILE`` before any test module.

    It runs before Hypothesis's own plugin, so ``--hypothesis-profile`` still wins.
    Without ``--slow`` (the quick loop) the quick profile is the default.
    """
    load_profile(slow=bool(config.getoption("--slow")))
    # Fewer, later garbage collections: the tests keep large caches (catalogues,
    # compiled tables, parsed files) alive, and every full collection walks them
    # all; with the default thresholds that was about a tenth of the run's CPU.
    # Reference counting still frees everything not in a cycle at once.
    gc.set_threshold(GC_THRESHOLD, 20, 20)


@pytest.fixture(scope="session")
def source_fingerprint() -> Fingerprint:
    """The committed fingerprint of the source texts (tests/fingerprint.py): no texts needed."""
    return Fingerprint.load()


def edit(text: str, old: str, new: str) -> str:
    """Replace the single occurrence of ``old`` in ``text`` by ``new``."""
    count = text.count(old)
    assert count == 1, (
        f"expected exactly one {old!r} in the text (found {count}); "
        "has variants/gamerules-com.yaml changed?"
    )
    return text.replace(old, new)


@pytest.fixture(scope="session")
def shipped_variant() -> Path:
    """The path of the shipped gamerules-com variant."""
    return SHIPPED_VARIANT


@pytest.fixture(scope="session")
def shipped_text() -> str:
    """The text of the shipped gamerules-com variant."""
    return SHIPPED_VARIANT.read_text(encoding="utf-8")


@pytest.fixture
def write_yaml(tmp_path: Path) -> Callable[..., Path]:
    """``write_yaml(content, name="variant.yaml")``: write text or bytes, return the path."""

    def write(content: str | bytes, name: str = "variant.yaml") -> Path:
        path = tmp_path / name
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return path

    return write


@pytest.fixture
def variant_text(shipped_text: str) -> Callable[..., str]:
    """``variant_text(id, replace=[(old, new), ...], append="")``: a variant's text.

    With no changes it is a valid variant: the shipped gamerules-com file under
    another id. Each ``(old, new)`` pair must match exactly once.
    """

    def build(
        variant_id: str = "my-variant",
        *,
        replace: Iterable[tuple[str, str]] = (),
        append: str = "",
    ) -> str:
        text = edit(shipped_text, "id: gamerules-com\n", f"id: {variant_id}\n")
        for old, new in replace:
            text = edit(text, old, new)
        return text + append

    return build


@pytest.fixture
def child_text() -> Callable[..., str]:
    """``child_text(id, parent, rules={name: flow_value})``: a variant that extends ``parent``.

    Each rule is given with its value (YAML flow text) and a citation.
    """

    def build(variant_id: str, parent: str, rules: dict[str, str] | None = None) -> str:
        text = (
            'spec_version: "1.0"\n'
            f"id: {variant_id}\n"
            f"title: Test variant {variant_id}\n"
            "publication: gamerules-com\n"
            "summary: A variant written for the loader tests.\n"
            f"extends: {parent}\n"
        )
        if rules:
            text += "rules:\n"
            for name, value in rules.items():
                text += f"  {name}:\n    value: {value}\n{_CITE}"
        return text

    return build


@pytest.fixture
def write_variant(
    write_yaml: Callable[..., Path], variant_text: Callable[..., str]
) -> Callable[..., Path]:
    """Like ``variant_text`` but writes ``<id>.yaml`` to ``tmp_path`` and returns its path."""

    def write(variant_id: str = "my-variant", **changes: object) -> Path:
        return write_yaml(variant_text(variant_id, **changes), f"{variant_id}.yaml")

    return write


@pytest.fixture
def problems_of() -> Callable[..., list[Problem]]:
    """``problems_of(*paths)``: every problem the catalogue finds in the given files.

    The files are loaded next to the shipped variants (so they may extend them),
    as ``matador validate PATH...`` does; problems in other files are left out.
    """

    def check(*paths: Path) -> list[Problem]:
        catalog = Catalog.load(paths)
        names = {str(path) for path in paths}
        return [
            problem
            for problem in catalog.problems(sorted(catalog.given_ids))
            if problem.file in names
        ]

    return check


@dataclass(frozen=True)
class CliResult:
    """What one ``matador`` command did, and the width its lines were fitted to."""

    code: int
    out: str
    err: str
    width: int = PIPE_WIDTH

    @property
    def err_lines(self) -> list[str]:
        """Standard error's lines, each message whole (its fitted continuations joined)."""
        return unfitted(self.err, self.width)

    @property
    def out_lines(self) -> list[str]:
        """Standard output's lines, each whole (its fitted continuations joined)."""
        return unfitted(self.out, self.width)


@pytest.fixture
def matador() -> Callable[..., CliResult]:
    """``matador(*argv)``: run the CLI in-process with StringIO streams.

    Every call also checks the CLI's promises that it never shows a traceback, and
    that every line it prints for a person fits the width (``--width``, else 80).
    """

    def call(*argv: str | Path) -> CliResult:
        out, err = io.StringIO(), io.StringIO()
        words = [str(arg) for arg in argv]
        code = run(words, out, err)
        result = CliResult(code, out.getvalue(), err.getvalue(), width_of(words))
        assert "Traceback" not in result.out + result.err
        assert too_wide(result.err, result.width) == []
        if not prints_data(words):
            assert too_wide(result.out, result.width) == []
        return result

    return call
