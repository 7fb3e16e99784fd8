"""``conform --badge FILE``: a shields.io endpoint file saying how the engine fared."""

from __future__ import annotations

import io
import json
from pathlib import Path

from reference_engine.cli import run
from reference_engine.conformance.judging.divergences import DifferentialResult
from reference_engine.conformance.reports.badge import badge
from reference_engine.conformance.reports.runreport import RunSummary
from reference_engine.exits import ExitStatus


def _conform(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    return run(["conform", *argv], out, err), err.getvalue()


def test_a_passing_engine_gets_a_green_badge(tmp_path: Path) -> None:
    path = tmp_path / "badge.json"
    status, _ = _conform("--variant", "pagat", "--badge", str(path))
    assert status == ExitStatus.OK
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["schemaVersion"] == 1 and data["label"] == "Matador conformance"
    assert data["color"] == "brightgreen"
    passed, judged = data["message"].split(" ")[0].split("/")
    assert passed == judged and int(judged) > 0


def test_a_failing_run_is_red_and_an_unavailable_engine_grey(tmp_path: Path) -> None:
    failing = badge([], RunSummary(random=DifferentialResult()))
    assert failing["color"] == "red"  # nothing judged is no pass
    gone = badge([], RunSummary(unavailable="it did not start"))
    assert (gone["message"], gone["color"]) == ("engine unavailable", "lightgrey")
    stopped = badge([], RunSummary(interrupted="SIGINT"))
    assert stopped["color"] == "yellow" and "interrupted" in stopped["message"]


def test_a_badge_that_cannot_be_written_is_refused_before_the_run(tmp_path: Path) -> None:
    status, err = _conform("--variant", "pagat", "--badge", str(tmp_path / "no" / "b.json"))
    assert status == ExitStatus.USAGE and "--badge" in err


def test_coverage_takes_no_badge(tmp_path: Path) -> None:
    status, err = _conform("--coverage", "--badge", str(tmp_path / "b.json"))
    assert status == ExitStatus.USAGE and "--badge" in err


def test_the_badge_is_never_an_input_nor_the_report(tmp_path: Path) -> None:
    engine = tmp_path / "engine.js"
    engine.write_text("// an engine\n", encoding="utf-8")
    status, err = _conform("--engine", f"node {engine}", "--badge", str(engine))
    assert status == ExitStatus.USAGE and "also an input" in err
    assert engine.read_text(encoding="utf-8") == "// an engine\n"
    report = tmp_path / "report.txt"
    report.write_text("old\n", encoding="utf-8")
    status, err = _conform("--variant", "pagat", "-o", str(report), "--badge", str(report))
    assert status == ExitStatus.USAGE and "one file" in err
