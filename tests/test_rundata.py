"""A run is data: its JSON-lines report draws every other format, and two runs compare.

One run of an engine with a planted fault (it offers a pass where none is legal)
is written as JSON lines, read back, and drawn in every format; each must be
what the run itself drew. The run's times are rounded to what the file keeps
first, and the JUnit timestamps (when each was drawn) are set aside.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from pathlib import Path

import pytest
from fitting import flat, unfitted
from shipped import shipped_cases

from reference_engine.cli import run
from reference_engine.conformance.protocol.interface import ReferenceEngine
from reference_engine.conformance.reports.rundata import RunFileError, compare, read_run
from reference_engine.conformance.reports.runreport import RunSummary
from reference_engine.conformance.reports.writers import WRITERS
from reference_engine.conformance.session.runner import CaseRun, Runner, select
from reference_engine.exits import ExitStatus


class OffersAPass(ReferenceEngine):
    """The planted fault: a pass is offered among the legal actions wherever it is missing."""

    def legal(self) -> list[str]:
        actions = super().legal()
        return actions if "pass" in actions else [*actions, "pass"]


Judged = tuple[list[CaseRun], object]


def _judge(engine: type[ReferenceEngine]) -> Judged:
    cases, problems = shipped_cases()
    assert not problems
    runner = Runner(engine)
    runs = runner.run(select(cases, variants=["gamerules-com", "pagat"]))
    runner.close()
    for one in runs:
        one.seconds = round(one.seconds, 4)  # (what the JSON report keeps)
    return runs, runner.info


def _drawn(kind: str, judged: Judged, summary: RunSummary) -> str:
    runs, info = judged
    out = io.StringIO()
    WRITERS[kind](runs, info, out, summary)  # type: ignore[arg-type]
    return re.sub(r'timestamp="[^"]*"', 'timestamp=""', out.getvalue())


@pytest.fixture(scope="module")
def failing() -> Judged:
    return _judge(OffersAPass)


@pytest.fixture(scope="module")
def passing() -> Judged:
    return _judge(ReferenceEngine)


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_every_format_drawn_from_the_saved_run_is_the_run_s_own(kind: str, failing: Judged) -> None:
    summary = RunSummary(planned=len(failing[0]))
    saved = read_run(_drawn("json", failing, summary).splitlines(), "run.jsonl")
    again = (list(saved.runs), saved.info)
    assert _drawn(kind, again, saved.summary) == _drawn(kind, failing, summary)


def test_two_runs_compare_rule_by_rule_and_case_by_case(passing: Judged, failing: Judged) -> None:
    summary = RunSummary()
    good = read_run(_drawn("json", passing, summary).splitlines(), "good.jsonl")
    bad = read_run(_drawn("json", failing, summary).splitlines(), "bad.jsonl")
    worse = compare(good, bad)
    assert worse.worse and not worse.fixed
    assert any(rule.startswith("pass_when") for rule in worse.broken)
    failed = [label for label, before, now in worse.verdicts if (before, now) == ("pass", "fail")]
    assert "survey-annotated-opening [gamerules-com]" in failed
    better = compare(bad, good)
    assert not better.worse and better.fixed == worse.broken and not better.broken
    assert not compare(good, good).verdicts and not compare(good, good).worse


@pytest.fixture
def files(tmp_path: Path, passing: Judged, failing: Judged) -> Mapping[str, Path]:
    written = {}
    for name, judged in (("good", passing), ("bad", failing)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text(_drawn("json", judged, RunSummary()), encoding="utf-8")
        written[name] = path
    return written


def _report(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(["report", *argv], out, err)
    return status, out.getvalue(), err.getvalue()


def test_the_command_draws_and_compares(files: Mapping[str, Path]) -> None:
    status, out, err = _report(str(files["bad"]), "--format", "markdown")
    assert status == 0, err
    assert out.startswith("Matador conformance of **matador reference engine")
    status, out, _ = _report("--compare", str(files["good"]), str(files["bad"]))
    assert status == ExitStatus.INVALID
    assert "newly broken: pass_when" in out
    assert "survey-annotated-opening [gamerules-com]: pass -> fail" in out
    status, out, _ = _report("--compare", str(files["bad"]), str(files["good"]))
    assert status == 0 and "fixed: pass_when" in out


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("", "empty"),
        ("not json\n", "not a line of JSON"),
        ('{"type": "case"}\n', "the first line is no run header"),
        ('{"type": "header", "engine": null}\n', "no footer"),
        (
            '{"type": "header", "engine": null}\n{"type": "case"}\n',
            "a case line of the wrong shape",
        ),
    ],
)
def test_a_file_that_is_no_run_is_one_line(tmp_path: Path, content: str, says: str) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text(content, encoding="utf-8")
    status, out, err = _report(str(path))
    assert status == ExitStatus.INVALID and out == ""
    assert len(unfitted(err)) == 1 and says in flat(err) and str(path) in err
    with pytest.raises(RunFileError):
        read_run(content.splitlines(), "run.jsonl")


def test_compare_takes_two_runs(files: Mapping[str, Path]) -> None:
    status, _, err = _report("--compare", str(files["good"]))
    assert status == ExitStatus.USAGE and "give two runs" in err
