"""An engine whose replies come close to their deadline is told so, in every report.

The engines here sleep a known time in ``apply`` under a known ``--timeout``; the
shares of the deadline are worked out from those two numbers.
"""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from shipped import shipped_cases

from reference_engine.cli import run
from reference_engine.conformance.protocol.interface import ReferenceEngine
from reference_engine.conformance.reports.runreport import RunSummary
from reference_engine.conformance.reports.writers import WRITERS
from reference_engine.conformance.session.runner import Runner, select
from reference_engine.conformance.transport.latency import Latency, SlowReply

REPO = Path(__file__).resolve().parents[1]
POSITIONS = REPO / "conformance" / "cases" / "positions.yaml"


def test_a_reply_over_half_its_deadline_is_counted_and_the_slowest_kept() -> None:
    latency = Latency()
    for kind, seconds in (("legal", 0.1), ("apply", 0.9), ("ends", 0.6), ("apply", 0.4)):
        latency.add(kind, seconds, 1.0)
    latency.add("hello", 3.0, 10.0)  # 30 % of the handshake's own deadline
    slowness = latency.summary()
    assert (slowness.replies, slowness.close) == (5, 2)
    assert slowness.slowest == (
        SlowReply("apply", 0.9, 1.0),
        SlowReply("ends", 0.6, 1.0),
        SlowReply("apply", 0.4, 1.0),
    )
    line = slowness.line()
    assert line is not None
    assert line.startswith("SLOW REPLIES: 2 of 5 replies took over 50% of their deadline\n")
    assert "the slowest, to 'apply': 0.90 s of 1 s (90%); then 0.60 s, 0.40 s" in line


def test_replies_well_within_their_deadline_say_nothing() -> None:
    latency = Latency()
    latency.add("apply", 0.2, 1.0)
    assert latency.summary().line() is None


class Sluggish(ReferenceEngine):
    """Takes 0.15 s over every action: 75 % of a 0.2 s deadline."""

    def apply(self, action: str, player: int | None) -> Any:
        time.sleep(0.15)
        return super().apply(action, player)


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_every_report_says_the_replies_came_close(kind: str) -> None:
    cases, problems = shipped_cases()
    assert not problems
    chosen = [
        item for item in select(cases, variants=["gamerules-com"]) if "position" in item[0].id
    ]
    runner = Runner(Sluggish, timeout=0.2)
    runs = runner.run(chosen[:1])
    runner.close()
    out = io.StringIO()
    WRITERS[kind](runs, runner.info, out, RunSummary(slowness=runner.latency.summary()))
    text = out.getvalue()
    if kind == "json":
        footer = json.loads(text.splitlines()[-1])
        slow = footer["slow_replies"]
        assert slow["over_half_the_deadline"] >= 1
        assert slow["slowest"][0]["request"] == "apply" and slow["slowest"][0]["deadline"] == 0.2
        assert 0.15 <= slow["slowest"][0]["seconds"] < 0.2
    elif kind == "junit":
        assert 'name="slow.replies" value="SLOW REPLIES: ' in text
    else:
        assert "SLOW REPLIES" in text


@pytest.mark.slow
def test_a_program_that_answers_close_to_the_deadline_is_told_so(tmp_path: Path) -> None:
    engine = tmp_path / "sluggish.py"
    engine.write_text(
        "import sys, time\n"
        "from reference_engine.conformance.protocol.interface import ReferenceEngine\n"
        "from reference_engine.conformance.protocol.server import serve\n"
        "class Sluggish(ReferenceEngine):\n"
        "    def apply(self, action, player):\n"
        "        time.sleep(0.3)\n"
        "        return super().apply(action, player)\n"
        "sys.exit(serve(sys.stdin, sys.stdout, Sluggish()))\n",
        encoding="utf-8",
    )
    out, err = io.StringIO(), io.StringIO()
    argv = ["conform", "--engine", f"{sys.executable} {engine}", "--timeout", "0.5"]
    status = run([*argv, "--cases", str(POSITIONS)], out, err)
    assert status == 0, err.getvalue()
    assert "SLOW REPLIES: " in out.getvalue()
    assert "the slowest, to 'apply': 0.3" in out.getvalue()
