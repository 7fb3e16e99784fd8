"""The conformance reports: each format for a passing and a failing run; the HTML page in a browser.

The failing run plants one fault in the reference engine (:class:`OffersAPass`:
it offers a pass where none is legal), so the failures are known by hand from
the case files: in ``survey-annotated-opening`` (conformance/cases/
survey-opening.yaml) under gamerules-com, step 1 expects ``6-6`` alone and
gets ``6-6 pass``; step 2 is played on the ends 6 and 6 by seat 1, who holds
the second hand of the deal. The citations are those of
variants/gamerules-com.yaml, the titles those of spec/sources.yaml.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shipped import shipped_cases

from reference_engine.cli import run
from reference_engine.conformance.protocol.interface import EngineInfo, ReferenceEngine
from reference_engine.conformance.reports.failures import OpenEnd, read_position
from reference_engine.conformance.reports.runreport import RunSummary
from reference_engine.conformance.reports.verdicttable import alarmed, write_verdict_table
from reference_engine.conformance.reports.writers import WRITERS
from reference_engine.conformance.session.runner import CaseRun, Runner, Verdict, select
from reference_engine.text.tables import style_for

if TYPE_CHECKING:
    from playwright.sync_api import Page

CASE = "survey-annotated-opening"
#: The opener's citation in variants/gamerules-com.yaml, and its publication's title.
OPENER_SAYS = (
    "The survey lists gamerules.com among the sources in which the holder of the highest "
    "double opens."
)
GAMERULES_TITLE = "gamerules.com, Matador"
#: The second hand of the case's deal, in the order tiles are written (low first, sorted).
SEAT_1_HAND = "0-5 1-1 1-6 2-4 2-6 3-3 4-6"


class OffersAPass(ReferenceEngine):
    """The planted fault: a pass is offered among the legal actions wherever it is missing."""

    def legal(self) -> list[str]:
        actions = super().legal()
        return actions if "pass" in actions else [*actions, "pass"]


class CrashesAfterTwoMatches(ReferenceEngine):
    """Plays two matches, then fails every request to start one (it keeps count across restarts)."""

    started = 0

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        CrashesAfterTwoMatches.started += 1
        if CrashesAfterTwoMatches.started > 2:
            raise RuntimeError("the engine fell over")
        super().new_match(variant, options, players)


Judged = tuple[list[CaseRun], EngineInfo | None]


def _judge(engine: type[ReferenceEngine], variants: list[str]) -> Judged:
    cases, problems = shipped_cases()
    assert not problems
    runner = Runner(engine)
    runs = runner.run(select(cases, variants=variants))
    runner.close()
    return runs, runner.info


@pytest.fixture(scope="module")
def passing() -> Judged:
    return _judge(ReferenceEngine, ["gamerules-com"])


@pytest.fixture(scope="module")
def failing() -> Judged:
    return _judge(OffersAPass, ["gamerules-com", "pagat"])


def report(kind: str, judged: Judged, summary: RunSummary | None = None) -> str:
    runs, info = judged
    out = io.StringIO()
    WRITERS[kind](runs, info, out, summary)
    return out.getvalue()


def deviations(runs: Sequence[CaseRun]) -> int:
    return sum(len(run.deviations) for run in runs if run.verdict is Verdict.FAIL)


# --------------------------------------------------------------------------- every format


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_every_format_reports_a_passing_run(kind: str, passing: Judged) -> None:
    text = report(kind, passing)
    assert "survey-annotated-opening" in text or kind in ("table", "markdown")
    assert "legal actions differ" not in text
    if kind == "markdown":
        assert "## Failures" not in text
    if kind == "html":
        assert "No expectation failed." in text


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_every_format_reports_the_planted_fault(kind: str, failing: Judged) -> None:
    text = report(kind, failing)
    assert CASE in text
    assert "legal actions differ" in text
    assert "pass_when" in text


def test_the_markdown_report_lists_each_failure(failing: Judged) -> None:
    runs, _ = failing
    text = report("markdown", failing)
    section = text.split("\n## Failures\n", 1)[1]
    section = section.split("\n## Errors", 1)[0]
    rows = [
        line for line in section.splitlines() if line.startswith("| ") and "| step |" not in line
    ]
    assert len(rows) == deviations(runs)
    assert rows[0].count(" | ") == 4  # step, expected, got, rule, section (cited under Rules)
    assert "Rerun:" not in section  # (a run whose command is unknown says no command)
    # The case's own heading, then its rows; the citation is the Rules section's, once.
    mine = section.split(f"\n### `{CASE}` \\[gamerules-com\\]\n", 1)[1].split("\n### ", 1)[0]
    spec = "https://github.com/matador-reference/matador-reference/blob/main/spec/SPEC.md"
    opening = (
        "| hand 1, step 1: legal actions differ | `6-6` | `6-6 pass` "
        "| opener = highest_double "
        f"| [SPEC 6.3]({spec}#63-opener-opening_tile-opener_lacks_double) |"
    )
    assert opening in mine.splitlines()
    # Step 2 of the same case: the pass is blamed on pass_when, a reading of a gap there.
    second = next(row for row in mine.splitlines() if row.startswith("| hand 1, step 2:"))
    assert "| pass_when = no_play | [SPEC 8.1](" in second
    rules = text.split("\n## Rules\n", 1)[1].split("\n## Failures\n", 1)[0]
    assert rules.count(f"{GAMERULES_TITLE} (text 000, Distribution et pioche") == 1


def test_each_failure_in_the_markdown_report_gives_the_command_that_reruns_it(
    failing: Judged,
) -> None:
    runs, info = failing
    out = io.StringIO()
    command = "matador conform --engine 'my engine --deviate'"
    WRITERS["markdown"](runs, info, out, RunSummary(command=command))
    section = out.getvalue().split("\n## Failures\n", 1)[1].split("\n## Errors", 1)[0]
    assert section.count(f"Rerun: `{command} --case ") == section.count("\n### ") > 0


def test_a_passing_markdown_report_keeps_its_table(passing: Judged) -> None:
    text = report("markdown", passing)
    runs, _ = passing
    assert f"| gamerules-com | {len(runs)} | 0 | 0 | 0 | 0 | 0 |" in text


# --------------------------------------------------------------------------- JUnit

#: The attributes CI tools read (the Ant and Jenkins JUnit schemas).
SUITE_ATTRIBUTES = (
    "name", "tests", "failures", "errors", "skipped", "time", "timestamp", "hostname", "id",
    "package",
)  # fmt: skip


def _check_totals(element: ElementTree.Element, cases: list[ElementTree.Element]) -> None:
    assert element.get("tests") == str(len(cases))
    for kind, attribute in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
        assert element.get(attribute) == str(sum(1 for c in cases if c.find(kind) is not None))
    times = [float(str(case.get("time"))) for case in cases]
    assert abs(float(str(element.get("time"))) - sum(times)) < 1e-3 * (len(cases) + 1)


@pytest.mark.parametrize("which", ["passing", "failing"])
def test_junit_totals_add_up_on_every_suite_and_the_root(
    which: str, request: pytest.FixtureRequest
) -> None:
    judged: Judged = request.getfixturevalue(which)
    root = ElementTree.fromstring(report("junit", judged))
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites][-1] == "rules"
    for suite in suites:
        for attribute in SUITE_ATTRIBUTES:
            assert suite.get(attribute), (suite.get("name"), attribute)
        stamp = datetime.fromisoformat(str(suite.get("timestamp")))
        assert stamp.tzinfo is not None
        cases = suite.findall("testcase")
        for case in cases:
            assert case.get("name") and case.get("classname")
            assert float(str(case.get("time"))) >= 0
        _check_totals(suite, cases)
    # The root counts the case runs, not the rule verdicts that judge them again.
    _check_totals(root, [case for suite in suites[:-1] for case in suite.findall("testcase")])
    runs, _ = judged
    runs_in_variant_suites = sum(len(s.findall("testcase")) for s in suites[:-1])
    assert runs_in_variant_suites == len(runs) == int(str(root.get("tests")))
    assert [s.get("id") for s in suites] == [str(n) for n in range(len(suites))]


def test_junit_names_the_failing_case_and_the_broken_rule(failing: Judged) -> None:
    root = ElementTree.fromstring(report("junit", failing))
    case = root.find(f"testsuite[@name='gamerules-com']/testcase[@name='{CASE}[gamerules-com]']")
    assert case is not None
    failure = case.find("failure")
    assert failure is not None and failure.get("type") == "fail"
    assert failure.get("message") == "legal actions differ"
    rules = root.find("testsuite[@name='rules']")
    assert rules is not None
    broken = {c.get("name") for c in rules.findall("testcase") if c.find("failure") is not None}
    assert "pass_when = no_play (SPEC 8.1)" in broken
    assert "opener = highest_double (SPEC 6.3)" in broken


# --------------------------------------------------------------------------- HTML, as text

_LINK = re.compile(r"""\b(?:src|href|action|data)\s*=\s*["']?([^"'\s>]*)""", re.IGNORECASE)


def test_the_html_report_is_one_file_with_nothing_external(failing: Judged) -> None:
    text = report("html", failing)
    assert text.startswith("<!DOCTYPE html>")
    targets = _LINK.findall(text)
    # Nothing is loaded from elsewhere; the one kind of link that leaves the page goes to
    # a section of the specification, in the project's repository.
    spec = "https://github.com/matador-reference/matador-reference/blob/main/spec/SPEC.md#"
    outside = [t for t in targets if not t.startswith("#")]
    assert targets and all(t.startswith(spec) for t in outside), outside
    assert outside, "the SPEC sections are links"
    assert not re.search(r"""\b(?:src|action|data)\s*=\s*["']?https?:""", text)
    assert "<link" not in text and "@import" not in text and "url(" not in text
    assert "<script src" not in text


def test_an_html_failure_draws_its_position_and_cites_its_rule(failing: Judged) -> None:
    text = report("html", failing)
    articles = re.findall(r'<article class="failure".*?</article>', text, re.DOTALL)
    runs, _ = failing
    assert len(articles) == deviations(runs)
    first = next(a for a in articles if f"{CASE}</code> [gamerules-com], hand 1, step 1:" in a)
    assert "<title>seat 0 holds 0-3 0-4 1-2 2-5 3-5 4-4 6-6</title>" in first
    assert "no tile down yet" in first
    # the rule behind it, linked to its row of the Rules table, where its citation is said
    # once for every failure naming it; its SPEC section a link to the specification
    assert 'href="#rule-opener---highest-double">opener = highest_double</a>' in first
    assert ">SPEC 6.3</a>" in first and OPENER_SAYS not in first
    assert text.count(OPENER_SAYS) == 1 and 'id="rule-opener---highest-double"' in text
    second = next(a for a in articles if f"{CASE}</code> [gamerules-com], hand 1, step 2:" in a)
    assert "<title>the open ends: L 6, R 6</title>" in second
    assert f"<title>seat 1 holds {SEAT_1_HAND}</title>" in second
    assert second.count("<svg") >= 2


def test_the_template_ships_in_the_wheel() -> None:
    from projectfile import REPO, pyproject

    from reference_engine.conformance.reports.htmlreport import TEMPLATE_DIR

    # The wheel takes the package folder whole (hatch's ``packages``), data files included.
    assert pyproject()["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == [
        "reference_engine"
    ]
    template = TEMPLATE_DIR / "report.html.j2"
    assert template.is_file()
    assert template.resolve().is_relative_to(REPO / "reference_engine")


def test_read_position_reads_back_what_the_runner_writes() -> None:
    view = read_position("ends L:2/5 identical free R:6; seat 2 to act holds 1-2 3-4; boneyard 3")
    assert view is not None
    assert view.ends == (OpenEnd("L", (2, 5), "2/5 identical free"), OpenEnd("R", (6,), "6"))
    assert (view.seat, view.hand, view.boneyard) == (2, ((1, 2), (3, 4)), 3)
    assert read_position("") is None
    over = read_position("the hand is over")
    assert over is not None and over.over


# --------------------------------------------------------------------------- the command


def conform(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(["conform", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


def test_html_goes_to_stdout_without_output() -> None:
    code, out, _ = conform("--case", "survey-*", "--report", "html")
    assert code == 0
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")


def test_a_crash_mid_run_still_writes_the_html_report(tmp_path: Path) -> None:
    CrashesAfterTwoMatches.started = 0
    target = tmp_path / "report.html"
    code, out, err = conform(
        "--engine", "python:test_reports:CrashesAfterTwoMatches", "--in-process",
        "--variant", "pagat",
        "--report", "html", "--output", str(target),
    )  # fmt: skip
    assert code == 4, err  # the engine became unavailable
    assert "report written to" in out
    text = target.read_text(encoding="utf-8")
    assert "ENGINE UNAVAILABLE" in text
    assert text.count("verdict-pass") >= 2  # the two matches it played were judged
    assert "not run" in text and "the engine fell over" in text
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary left


# --------------------------------------------------------------------------- in a browser


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory, passing: Judged, failing: Judged) -> Path:
    folder = tmp_path_factory.mktemp("reports")
    (folder / "passing.html").write_text(report("html", passing), encoding="utf-8")
    (folder / "failing.html").write_text(report("html", failing), encoding="utf-8")
    return folder


def _visible(page: Page, selector: str) -> bool:
    return bool(page.locator(selector).first.is_visible())


@pytest.mark.slow
def test_the_failing_only_filter_hides_passing_rows_and_shows_them_again(
    page: Page, pages: Path
) -> None:
    from browser import shoot

    page.goto((pages / "failing.html").as_uri())
    passing_row = "#runs + .scroll tr[data-ok='1']"
    assert _visible(page, passing_row)
    page.check("#failing-only")
    assert not _visible(page, passing_row)
    assert _visible(page, "#runs + .scroll tr[data-ok='0']")
    page.uncheck("#failing-only")
    assert _visible(page, passing_row)
    shoot(page, "report-failing", full_page=False)  # the whole page is too long to keep


@pytest.mark.slow
def test_the_variant_and_rule_filters(page: Page, pages: Path) -> None:
    page.goto((pages / "failing.html").as_uri())
    page.select_option("#variant-filter", "pagat")
    assert not _visible(page, "article.failure[data-variant='gamerules-com']")
    assert _visible(page, "article.failure[data-variant='pagat']")
    assert not _visible(page, "#failures-gamerules-com")
    page.select_option("#variant-filter", "")
    page.select_option("#rule-filter", "opener")
    shown = page.locator("article.failure:visible")
    assert shown.count() > 0
    for index in range(shown.count()):
        assert "opener" in str(shown.nth(index).get_attribute("data-rules")).split()
    assert "Showing" in page.inner_text("#shown")


@pytest.mark.slow
def test_links_jump_from_the_table_to_the_failures(page: Page, pages: Path) -> None:
    page.goto((pages / "failing.html").as_uri())
    page.click("#compliance + .scroll a[href='#failures-pagat'] >> nth=-1")
    assert page.url.endswith("#failures-pagat")
    assert page.locator("#failures-pagat").is_visible()
    assert page.evaluate(
        "() => { const r = document.getElementById('failures-pagat').getBoundingClientRect();"
        " return r.top >= -1 && r.top < window.innerHeight; }"
    )
    # A link to a failure a filter hides: following it clears the filters and shows it.
    target = str(
        page.locator("article.failure[data-variant='gamerules-com']").first.get_attribute("id")
    )
    page.select_option("#variant-filter", "pagat")
    assert not page.locator(f"#{target}").is_visible()
    page.evaluate(f"() => {{ window.location.hash = '{target}'; }}")
    page.wait_for_function(f"() => !document.getElementById('{target}').hidden")
    assert page.locator(f"#{target}").is_visible()


@pytest.mark.slow
@pytest.mark.parametrize("fragment", ["%", "%E0%A4%A", "%ZZ", "<img src=x onerror=alert(1)>"])
def test_a_malformed_fragment_names_nothing_and_throws_nothing(
    page: Page, pages: Path, fragment: str
) -> None:
    """A link someone crafted (``report.html#%``) opens the page as it is: the fixture
    fails the test on any page error."""
    page.goto((pages / "failing.html").as_uri() + "#" + fragment)
    page.evaluate("() => { window.location.hash = '%E0%A4%A'; }")
    page.wait_for_timeout(100)
    assert page.locator("#compliance").is_visible()


@pytest.mark.slow
def test_a_failure_shows_its_tiles_and_its_citation(page: Page, pages: Path) -> None:
    page.goto((pages / "failing.html").as_uri())
    article = page.locator("article.failure", has_text=f"{CASE} [gamerules-com], hand 1, step 2")
    assert article.locator("svg").count() >= 2
    # a link to a failure folded under its case run's summary unfolds it
    page.goto((pages / "failing.html").as_uri() + "#" + str(article.get_attribute("id")))
    assert article.locator("svg").first.is_visible()
    article_1 = page.locator("article.failure", has_text=f"{CASE} [gamerules-com], hand 1, step 1")
    article_1.locator("a[href='#rule-opener---highest-double']").click()
    citation = page.locator("#rule-opener---highest-double + tr.detail blockquote.citation")
    assert citation.is_visible() and OPENER_SAYS in citation.inner_text()


@pytest.mark.slow
def test_the_page_is_keyboard_usable_and_its_headings_are_in_order(page: Page, pages: Path) -> None:
    page.goto((pages / "failing.html").as_uri())
    levels = page.evaluate(
        "() => [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map(h => +h.tagName[1])"
    )
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b <= a + 1 for a, b in itertools.pairwise(levels))
    unlabelled = page.evaluate(
        "() => [...document.querySelectorAll('input,select')]"
        ".filter(e => e.labels.length === 0).map(e => e.id)"
    )
    assert unlabelled == []
    reached = []
    for _ in range(3):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("() => document.activeElement.id"))
    assert reached == ["failing-only", "variant-filter", "rule-filter"]
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Space")
    assert page.is_checked("#failing-only")
    assert not _visible(page, "#runs + .scroll tr[data-ok='1']")


@pytest.mark.slow
@pytest.mark.parametrize("which", ["passing", "failing"])
def test_the_report_reads_at_phone_width(which: str, phone_page: Page, pages: Path) -> None:
    from browser import shoot

    phone_page.goto((pages / f"{which}.html").as_uri())
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(phone_page, f"report-{which}-phone", full_page=False)
    if which == "failing":
        phone_page.goto((pages / "failing.html").as_uri() + "#failure-2")
        shoot(phone_page, "report-failing-phone-failure", full_page=False)


@pytest.mark.slow
def test_a_passing_report_in_the_browser(page: Page, pages: Path) -> None:
    from browser import shoot

    page.goto((pages / "passing.html").as_uri())
    assert page.inner_text("#shown") == "Showing 0 of 0 failing expectation(s)."
    page.check("#failing-only")
    assert page.locator("#runs + .scroll tr[data-ok='1']:visible").count() == 0
    page.uncheck("#failing-only")
    shoot(page, "report-passing", full_page=False)


# ------------------------------------------------------------------ the compliance table


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


_ascii = st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=40)
_ids = st.from_regex(r"[a-z][a-z0-9-]{0,30}", fullmatch=True)
_counts = st.integers(0, 10**6).map(str)
_HEADER = ["variant", "pass", "fail", "error", "skip", "broken", "not run"]


@settings(max_examples=200)
@given(
    title=_ascii,
    rows=st.lists(st.tuples(_ids, *[_counts] * 6).map(list), min_size=1, max_size=6),
    width=st.integers(40, 160),
)
def test_the_table_fits_its_width_and_keeps_every_id_and_count_whole(
    title: str, rows: list[list[str]], width: int
) -> None:
    out = io.StringIO()
    out.width = width  # type: ignore[attr-defined]  # (as the CLI's fitted stream says it)
    write_verdict_table(out, title, _HEADER, rows)
    lines = out.getvalue().splitlines()
    assert all(len(line) <= width for line in lines[1:] if len(line.split()) > 1)
    words = set(out.getvalue().replace(",", " ").replace(":", " ").replace("*", "").split())
    for row in rows:
        assert set(row) <= words  # never broken inside


def test_the_table_is_drawn_as_every_command_draws_its_tables() -> None:
    out = io.StringIO()
    rows = [["pagat", "20", "2", "0", "0", "0", "0"], ["all", "20", "2", "0", "0", "0", "0"]]
    write_verdict_table(out, "Matador conformance: x 1.0", _HEADER, rows)
    assert out.getvalue().splitlines() == [
        "Matador conformance: x 1.0",
        "variant  pass  fail  error  skip  broken  not run",
        "-------  ----  ----  -----  ----  ------  -------",
        "pagat      20    *2      0     0       0        0",
        "all        20    *2      0     0       0        0",
    ]


def test_failures_are_coloured_on_a_terminal_and_never_with_no_color(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rows = [["all", "1", "3", "0", "0", "0", "0"]]
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    out = _Terminal()
    write_verdict_table(out, "t", _HEADER, rows)
    assert "\x1b[" in out.getvalue() and "*3" not in out.getvalue()
    assert alarmed("FAIL case [pagat] (x.yaml:1)", style_for(out)).startswith("\x1b[1;31mFAIL")
    monkeypatch.setenv("NO_COLOR", "")
    out = _Terminal()
    write_verdict_table(out, "t", _HEADER, rows)
    assert "\x1b[" not in out.getvalue() and "*3" in out.getvalue()
    assert alarmed("FAIL case", style_for(out)) == "FAIL case"


@pytest.mark.parametrize(
    "name", ["evil [/bad] engine", "[bold]loud[/bold]", "[link=x]y", "ünï [/b]"]
)
@pytest.mark.parametrize("terminal", [False, True])
@pytest.mark.parametrize("wide", [False, True])
def test_an_engine_name_is_printed_not_read_as_markup(
    name: str, terminal: bool, wide: bool
) -> None:
    out = _Terminal() if terminal else io.StringIO()
    title = f"Matador conformance: {name}" + (" x" * 40 if wide else "")
    write_verdict_table(out, title, _HEADER, [["all", "1", "0", "0", "0", "0", "0"]])
    assert name in re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue()).replace("\n", " ")
