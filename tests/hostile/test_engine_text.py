"""An engine's text cannot act through any report: every field it controls, every format.

Two ways in. In process, Hypothesis puts arbitrary text (control and escape
sequences, bidirectional overrides, lone surrogates, HTML, Markdown, XML and
fence break-outs among it) into the name, version, refusal reasons, legal
actions, open ends and laid actions of an engine, and every report format is
checked: the terminal table and the JSON lines hold no raw control character
(and the JSON parses), the JUnit file parses, the HTML page and the Markdown
rendered as CommonMark hold no element or attribute the report does not make
itself. As a program (``text_engine.py``), the fields only a program has (its
standard error, lines nobody asked for, a refused handshake, error replies) go
through ``matador conform`` with each report format written to a file.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import shlex
import subprocess
import sys
from collections.abc import Mapping
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

import reference_engine
from reference_engine.conformance.protocol.interface import EngineInfo, ReferenceEngine
from reference_engine.conformance.reports.runreport import RunSummary
from reference_engine.conformance.reports.writers import WRITERS
from reference_engine.conformance.session.runner import Runner, select

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from shipped import shipped_cases  # noqa: E402

#: What a terminal must never be sent raw: C0 controls but tab and newline, DEL, C1
#: controls, the bidirectional marks, overrides and isolates, lone surrogates.
RAW = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)

#: Pieces of text written to act on what shows them.
PIECES = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(2)</script>",
    '"><svg onload=alert(3)>',
    "\x1b]0;title\x07",
    "\x1b[2J",
    "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
    "\x9b31m",
    "\u202eevil",
    "\u2066",
    "\ud800",
    "\udfff",
    "]]>",
    "```",
    "\n# heading\n",
    "\nFAKE LINE: 99 passed",
    "\n<div>block</div>\n",
    "*x* _y_ ~~z~~",
    "[link](javascript:alert(4))",
    "![i](x)",
    "&lt;b&gt; &#60;",
    "| cell |",
    "`code`",
    "\r\n",
    "\x00",
    "[/bold]",
]

texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=6)), max_size=6).map("".join)


class Saying(ReferenceEngine):
    """The reference engine, but its name, version, refusal reasons, legal actions,
    ends and laid plays carry :attr:`text`."""

    text = ""

    def hello(self) -> EngineInfo:
        info = super().hello()
        return dataclasses.replace(info, name=f"engine {self.text}", version=self.text)

    def legal(self) -> list[str]:
        return [*super().legal(), self.text]

    def ends(self) -> list[str]:
        return [*super().ends(), self.text]

    def apply(self, action: str, player: int | None) -> Any:
        answer = super().apply(action, player)
        if answer is None and action not in ("draw", "pass"):
            return {"laid": self.text}
        return self.text if isinstance(answer, str) else answer


def _cases() -> list[Any]:
    cases, problems = shipped_cases()
    assert not problems
    chosen = select(cases, variants=["pagat"])
    return chosen[:3] + [run for run in chosen if "refus" in run[0].id][:2]


CASES = _cases()


# --------------------------------------------------------------------------- the checks


class _Elements(HTMLParser):
    """Every element and attribute of a page, and the text of its scripts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.made: set[tuple[str, str]] = set()
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.made.add((tag, ""))
        self.made.update((tag, name) for name, _ in attrs)
        self.scripts += tag == "script"


def elements(page: str) -> _Elements:
    parser = _Elements()
    parser.feed(page)
    parser.close()
    return parser


def markdown_html(text: str) -> str:
    """Markdown rendered as CommonMark (raw HTML allowed, as CommonMark allows it), with
    the pipe tables of the reports."""
    return str(MarkdownIt("commonmark").enable("table").render(text))


def no_raw(text: str, where: str) -> None:
    found = RAW.search(text)
    if found is not None:
        start = found.start()
        pytest.fail(
            f"{where}: raw {found[0]!r} at {start}: {text[max(0, start - 60) : start + 20]!r}"
        )


def check(kind: str, text: str, baseline: Mapping[str, Any]) -> None:
    """``text``, a report of ``kind``, holds nothing an engine's text made live."""
    no_raw(text, kind)
    text.encode("utf-8")  # (a lone surrogate cannot be written)
    if kind in ("table", "markdown"):  # (no line of the judge's can be forged)
        # (an engine's lines may show indented, under what says whose they are)
        forged = [line for line in text.splitlines() if line.removeprefix("> ").startswith("FAKE")]
        assert not forged, forged
    if kind == "json":
        for line in text.splitlines():
            json.loads(line)
    elif kind == "junit":
        ElementTree.fromstring(text.encode("utf-8"))
    elif kind == "html":
        found = elements(text)
        assert found.made <= baseline["html"], found.made - baseline["html"]
        assert found.scripts <= 1  # (the report's own script)
    elif kind == "markdown":
        rendered = markdown_html(text)
        found = elements(rendered)
        assert found.made <= baseline["markdown"], found.made - baseline["markdown"]
        # the report's own links go to a section of the specification, and only there
        links = re.findall(r'<a href="([^"]*)"', rendered)
        assert all(link.startswith(SPEC_LINKS) for link in links), links


def _report(kind: str, engine: type[ReferenceEngine]) -> str:
    runner = Runner(engine)
    runs = runner.run(CASES)
    runner.close()
    out = io.StringIO()
    WRITERS[kind](runs, runner.info, out, RunSummary())
    return out.getvalue()


def _own_markup() -> set[tuple[str, str]]:
    """Every element and attribute the HTML report can make itself: those its template
    and the tile drawings write (read from their sources)."""
    package = Path(reference_engine.__file__).parent
    sources = [
        (package / "conformance" / "reports" / "templates" / "report.html.j2").read_text(
            encoding="utf-8"
        ),
        (package / "sheets" / "svg.py").read_text(encoding="utf-8"),
        (package / "conformance" / "reports" / "htmlreport.py").read_text(encoding="utf-8"),
    ]
    made: set[tuple[str, str]] = set()
    for source in sources:
        for tag, attributes in re.findall(r"<([a-z][a-z0-9]*)\b([^<>]*)", source):
            made.add((tag, ""))
            names = re.findall(r"([A-Za-z][A-Za-z0-9-]*)=", attributes)
            made.update((tag, name.lower()) for name in names)
    return made


#: What CommonMark makes of the Markdown report's own syntax: paragraphs, bold, pipe
#: tables (aligned), headings of level 2 and 3, quotes, fenced code, list items.
MARKDOWN_MADE = {
    ("p", ""), ("strong", ""), ("table", ""), ("thead", ""), ("tbody", ""), ("tr", ""),
    ("th", ""), ("td", ""), ("th", "style"), ("td", "style"), ("h2", ""), ("h3", ""),
    ("blockquote", ""), ("pre", ""), ("code", ""), ("code", "class"), ("ul", ""), ("li", ""),
    ("a", ""), ("a", "href"),
}  # fmt: skip

#: Where the Markdown report's own links (its SPEC sections) go.
SPEC_LINKS = "https://github.com/matador-reference/matador-reference/blob/main/spec/SPEC.md#"


@pytest.fixture(scope="module")
def baseline() -> dict[str, Any]:
    """The elements and attributes each report may hold: its own markup only."""
    return {"html": _own_markup(), "markdown": MARKDOWN_MADE}


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=texts)
@example(text="".join(PIECES))
def test_no_engine_text_acts_through_any_report(text: str, baseline: dict[str, Any]) -> None:
    class Hostile(Saying):
        pass

    Hostile.text = text
    for kind in sorted(WRITERS):
        check(kind, _report(kind, Hostile), baseline)


# --------------------------------------------------------------------------- as a program

FIELDS = [
    "name", "version", "protocol", "variants", "refusal", "error", "legal", "ends", "stderr",
    "unasked", "laid",
]  # fmt: skip
HOSTILE = "".join(PIECES)


@pytest.mark.slow
@pytest.mark.parametrize("field", FIELDS)
def test_a_program_engine_s_text_acts_through_no_report(
    field: str, tmp_path: Path, baseline: dict[str, Any]
) -> None:
    engine = shlex.join([sys.executable, str(HERE / "text_engine.py"), field, json.dumps(HOSTILE)])
    for kind in sorted(WRITERS):
        output = tmp_path / f"report.{kind}"
        done = subprocess.run(
            [sys.executable, "-m", "reference_engine.cli", "conform", "--engine", engine,
             "--variant", "pagat", "--report", kind, "-o", str(output)],
            capture_output=True, timeout=120, cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode in (0, 1, 4), done.stderr
        for stream, data in (("stdout", done.stdout), ("stderr", done.stderr)):
            no_raw(data.decode("utf-8"), f"{kind} {stream}")
            assert b"Traceback" not in data
        check(kind, output.read_text(encoding="utf-8"), baseline)
