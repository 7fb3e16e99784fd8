"""The conformance suite: it loads, it passes on the reference engine, and the runner is robust."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import sys
import textwrap
from pathlib import Path
from xml.etree import ElementTree

import pytest
from fitting import unfitted
from shipped import reference_runs, shipped_cases

from reference_engine.cli import run
from reference_engine.conformance.analysis.coverage import coverage_report
from reference_engine.conformance.games.differential import differential
from reference_engine.conformance.judging.verdicts import Check
from reference_engine.conformance.protocol.codes import ErrorCode
from reference_engine.conformance.protocol.interface import (
    EngineFailure,
    EngineInfo,
    EngineRefusal,
    FailureKind,
    ReferenceEngine,
)
from reference_engine.conformance.protocol.server import (
    MAX_LINE_BYTES,
    REQUEST_TYPES,
    answer,
    protocol_schema,
    serve,
)
from reference_engine.conformance.reports.writers import WRITERS
from reference_engine.conformance.session.runner import CaseRun, Runner, Verdict, select
from reference_engine.conformance.suite.casedata import Target
from reference_engine.conformance.transport.process import ProcessEngine
from reference_engine.errors import Reason
from reference_engine.exits import ExitStatus
from reference_engine.rules import Catalog

ROOT = Path(__file__).resolve().parents[1]
CASES, PROBLEMS = shipped_cases()
ENGINE_COMMAND = f"{sys.executable} -m reference_engine.cli engine"


def conform(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(["conform", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


# --------------------------------------------------------------------------- the suite itself


def test_the_case_files_are_valid() -> None:
    assert [str(problem) for problem in PROBLEMS] == []
    assert CASES


def test_the_reference_engine_passes_every_case_in_process() -> None:
    results = reference_runs()
    failures = [
        f"{r.case}[{r.target.label()}]: {r.message}"
        for r in results
        if r.verdict is not Verdict.PASS
    ]
    assert failures == []


@pytest.mark.slow
def test_the_reference_engine_passes_every_case_over_the_protocol() -> None:
    runner = Runner(lambda: ProcessEngine(ENGINE_COMMAND, timeout=30))
    try:
        results = runner.run(select(CASES))
    finally:
        runner.close()
    failures = [
        f"{r.case}[{r.target.label()}]: {r.message}"
        for r in results
        if r.verdict is not Verdict.PASS
    ]
    assert failures == []
    assert runner.restarts == 0


def test_conform_with_no_arguments_is_the_main_job_and_passes() -> None:
    code, out, _ = conform()
    assert code == 0
    assert "0 failed, 0 errored, 0 skipped" in out


# --------------------------------------------------------------------------- coverage


COVERAGE = coverage_report(CASES, Catalog.shipped())


def test_every_rule_value_used_by_a_shipped_variant_or_option_is_exercised() -> None:
    assert COVERAGE["uncovered"] == []


def test_every_rule_value_is_exercised_by_three_cases_or_more() -> None:
    """One case on a value is one position: three judge it from more than one side."""
    thin = {token: ids for token, ids in COVERAGE["tokens"].items() if 0 < len(ids) < 3}
    assert thin == {}


def test_cases_only_declare_rule_values_their_variants_use() -> None:
    assert COVERAGE["wrong_declarations"] == {}


def test_every_reason_code_is_provoked_by_a_case() -> None:
    assert [reason for reason, ids in COVERAGE["reasons"].items() if not ids] == []
    assert COVERAGE["unknown_reasons"] == []


@pytest.mark.parametrize("variant", Catalog.shipped().ids())
def test_every_variant_has_at_least_twelve_cases(variant: str) -> None:
    assert COVERAGE["per_variant"][variant] >= 12


def test_the_suite_includes_the_sources_worked_examples() -> None:
    ids = {case.id for case in CASES}
    assert "survey-annotated-opening" in ids
    results = {case.id: case for case in CASES}
    blocked = [
        hand.result
        for case in results.values()
        for hand in case.hands
        if hand.result and hand.result.get("pips") in ([8, 19], [19, 8])
    ]
    points = {max(result.get("points", [0])) for result in blocked}
    assert {11, 27} <= points


@pytest.mark.slow
def test_coverage_command_prints_the_matrix() -> None:
    code, out, _ = conform("--coverage")
    assert code == 0
    assert "rule value coverage" in out
    assert "matador_modes=shape_inline" in out
    assert "reason codes provoked" in out


# --------------------------------------------------------------------------- selection and reports


def test_selecting_by_case_glob_variant_and_rule() -> None:
    code, out, _ = conform("--case", "survey-annotated-*", "--variant", "gamerules-com")
    assert code == 0
    assert "1 passed" in out
    code, out, _ = conform("--rule", "doubles", "--variant", "gamerules-com")
    assert code == 0
    code, _, err = conform("--variant", "no-such-variant")
    assert code == 1
    assert "unknown variant" in err
    code, _, err = conform("--case", "no-such-case-*")
    assert code == 1
    assert "no case matches" in err


@pytest.fixture(scope="module")
def some_runs() -> tuple[list[CaseRun], EngineInfo | None]:
    runner = Runner(ReferenceEngine)
    runs = runner.run(select(CASES, case_globs=["survey-*"]))
    return runs, runner.info


def test_json_report_has_header_lines_and_footer(
    some_runs: tuple[list[CaseRun], EngineInfo | None],
) -> None:
    runs, info = some_runs
    out = io.StringIO()
    WRITERS["json"](runs, info, out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["type"] == "header"
    assert lines[0]["suite_version"] and lines[0]["protocol"] == "matador-engine/1"
    assert lines[0]["engine"]["name"] == "matador reference engine"
    kinds = [line["type"] for line in lines[1:-1]]
    assert set(kinds) == {"case", "rule"}
    assert kinds == sorted(kinds), "every case line comes before the rule lines"
    assert all(line["failed"] == 0 and line["held"] > 0 for line in lines if line["type"] == "rule")
    ended = lines[-1].pop("ended")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", ended), ended
    assert lines[-1].pop("command") is None  # (judged in process: no command line ran it)
    assert lines[-1] == {
        "type": "footer",
        "pass": len(runs),
        "fail": 0,
        "error": 0,
        "skip": 0,
        "broken": 0,
        "not_run": 0,
        "complete": True,
        "interrupted": None,
        "planned": None,
        "finished": len(runs),
        "judged": True,
        "summary": f"{len(runs)} passed, 0 failed, 0 errored, 0 skipped",
        "engine_unavailable": None,
        "engine_stderr": "",
        "slow_replies": None,
    }


def test_junit_report_is_xml_with_one_testcase_per_run(
    some_runs: tuple[list[CaseRun], EngineInfo | None],
) -> None:
    runs, info = some_runs
    out = io.StringIO()
    WRITERS["junit"](runs, info, out)
    root = ElementTree.fromstring(out.getvalue())
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    every_run = [c for s in suites if s.get("name") != "rules" for c in s.findall("testcase")]
    assert root.get("tests") == str(len(every_run)) and root.get("timestamp")
    assert sum(len(s.findall("testcase")) for s in suites if s.get("name") != "rules") == len(runs)
    rules = [s for s in suites if s.get("name") == "rules"]
    assert len(rules) == 1 and rules[0].findall("testcase")
    assert not rules[0].findall(".//failure")


def test_markdown_report_is_a_table(
    some_runs: tuple[list[CaseRun], EngineInfo | None],
) -> None:
    runs, info = some_runs
    out = io.StringIO()
    WRITERS["markdown"](runs, info, out)
    assert "| variant | pass | fail | error | skip |" in out.getvalue()


def test_report_can_go_to_a_file(tmp_path: Path) -> None:
    target = tmp_path / "report.xml"
    code, out, _ = conform("--case", "survey-*", "--report", "junit", "--output", str(target))
    assert code == 0
    assert "report written to" in out
    ElementTree.parse(target)


# ------------------------------------------------------------------ a failing engine is explained


class WrongEndsEngine(ReferenceEngine):
    """Reports the ends in the wrong order: the runner must say so, with the history."""

    def ends(self) -> list[str]:
        return list(reversed(super().ends()))


class ExtraActionEngine(ReferenceEngine):
    """Offers a pass it should not."""

    def legal(self) -> list[str]:
        actions = super().legal()
        return actions if "pass" in actions else [*actions, "pass"]


def test_a_failure_names_the_step_the_difference_and_the_history() -> None:
    runner = Runner(ExtraActionEngine)
    [result, *_] = runner.run(select(CASES, case_globs=["survey-annotated-opening"]))
    assert result.verdict is Verdict.FAIL
    assert result.step == 0
    assert result.message == "legal actions differ"
    assert "pass" in result.actual and "pass" not in result.expected
    out = io.StringIO()
    WRITERS["table"]([result], runner.info, out)
    assert "present but unexpected: pass" in out.getvalue()


def test_a_failure_later_in_a_hand_shows_the_actions_that_led_there() -> None:
    runner = Runner(WrongEndsEngine)
    [result, *_] = runner.run(select(CASES, case_globs=["survey-annotated-opening"]))
    assert result.verdict is Verdict.FAIL
    assert result.message == "open ends differ"
    assert result.step == 1  # the first step with unequal ends: after 1-1 on the left
    assert result.history == ["6-6", "1-1@L:1"]


# --------------------------------------------------------------------------- misbehaving engines


def script(tmp_path: Path, name: str, body: str) -> str:
    """A Python engine program in ``tmp_path``; returns its command line."""
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"{sys.executable} {path}"


GREET = """
import json, sys
def reply(request, **fields):
    sys.stdout.write(json.dumps({"id": request["id"], **fields}) + "\\n"); sys.stdout.flush()
def hello(request):
    reply(request, type="hello", name="bad", version="0",
          protocol="matador-engine/1", variants=None)
"""


MISBEHAVIOURS = {
    "crashes": GREET
    + """
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "hello": hello(request); continue
    sys.stderr.write("boom: segmentation fault\\n"); sys.exit(3)
""",
    "hangs": GREET
    + """
import time
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "hello": hello(request); continue
    time.sleep(60)
""",
    "garbage": GREET
    + """
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "hello": hello(request); continue
    print("<html>oops</html>", flush=True)
""",
    "huge-line": GREET
    + """
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "hello": hello(request); continue
    sys.stdout.write("x" * (2 << 20) + "\\n"); sys.stdout.flush()
""",
    "out-of-order": GREET
    + """
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "hello": hello(request); continue
    request["id"] += 7; reply(request, type="ok")
""",
    "exits-early": GREET
    + """
line = sys.stdin.readline(); hello(json.loads(line)); sys.exit(0)
""",
    "silent": """
import sys, time
time.sleep(60)
""",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MISBEHAVIOURS))
def test_a_misbehaving_engine_errors_is_restarted_and_leaves_no_process(
    tmp_path: Path, name: str
) -> None:
    command = script(tmp_path, name, MISBEHAVIOURS[name])
    started: list[ProcessEngine] = []

    def factory() -> ProcessEngine:
        engine = ProcessEngine(command, timeout=1.0, start_timeout=1.0)
        started.append(engine)
        return engine

    runner = Runner(factory)
    runs = select(CASES, case_globs=["survey-annotated-opening"])
    results = runner.run(runs)
    runner.close()
    assert all(r.message for r in results)
    if name == "silent":
        # No handshake: the engine is unavailable, said once, and never restarted.
        assert [r.verdict for r in results] == [Verdict.NOT_RUN] * len(runs)
        assert len(started) == 1
        assert runner.unavailable is not None
        assert "no reply to 'hello' within 1 s" in runner.unavailable.message
    else:
        assert [r.verdict for r in results] == [Verdict.ERROR] * len(runs)
        assert len(started) == len(runs), "the engine is restarted for every case"
    for engine in started:
        assert engine._process.poll() is not None, "no engine process is left running"
    if name == "crashes":
        assert "segmentation fault" in results[0].stderr
    if name == "hangs":
        assert "within 1 s" in results[0].message


def test_an_engine_that_cannot_be_started_is_reported(tmp_path: Path) -> None:
    code, out, _ = conform("--engine", str(tmp_path / "no-such-engine"), "--case", "survey-*")
    assert code == ExitStatus.ENGINE_UNAVAILABLE
    assert "did not start" in out and "ENGINE UNAVAILABLE" in out


def test_a_python_engine_spec_that_does_not_load_is_a_usage_error() -> None:
    code, _, err = conform("--engine", "python:no_such_module_here:make")
    assert code == 2
    assert "cannot import" in err


def test_python_engine_in_process() -> None:
    code, out, _ = conform(
        "--engine",
        "python:reference_engine.conformance.protocol.interface:ReferenceEngine",
        "--case",
        "survey-*",
    )
    assert code == 0, out


# --------------------------------------------------------------------------- the protocol server


def test_the_server_answers_every_request_even_unknown_ones() -> None:
    engine = ReferenceEngine()
    reply, done = answer(engine, '{"id": 1, "type": "frobnicate"}')
    assert reply["id"] == 1 and reply["type"] == "error" and reply["code"] == "unknown_request"
    assert "frobnicate" in reply["message"]
    assert not done
    reply, _ = answer(engine, "not json")
    assert reply["type"] == "error" and reply["code"] == "bad_request" and reply["id"] is None
    reply, _ = answer(
        engine, '{"id": 2, "type": "new_match", "variant": "nope", "options": {}, "players": 2}'
    )
    assert reply["code"] == "unsupported"
    reply, _ = answer(engine, '{"id": 3, "type": "legal"}')
    assert reply["type"] == "error"
    reply, done = answer(engine, '{"id": 4, "type": "quit"}')
    assert reply == {"id": 4, "type": "bye"} and done


def test_the_server_refuses_with_reason_codes_from_the_vocabulary() -> None:
    engine = ProcessEngine(ENGINE_COMMAND, timeout=30)
    try:
        engine.hello()
        engine.new_match("gamerules-com", {}, 2)
        engine.new_hand(
            {
                "hands": [
                    ["6-6", "3-5", "1-2", "0-4", "2-5", "4-4", "0-3"],
                    ["4-6", "1-1", "0-5", "2-6", "3-3", "1-6", "2-4"],
                ]
            }
        )
        assert engine.apply("2-2", None) == Reason.TILE_NOT_IN_HAND.value
        assert engine.apply("6-6", 1) == Reason.NOT_YOUR_TURN.value
        assert engine.apply("6-6", None) is None
        assert engine.ends() == ["6", "6"]
    finally:
        engine.close()


def _table_codes(heading: str) -> list[str]:
    """The codes in the first column of the table under ``heading`` in spec/protocol.md."""
    text = (ROOT / "spec" / "protocol.md").read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n#", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)


def test_protocol_md_lists_every_error_code_once_and_no_other() -> None:
    listed = _table_codes("\n## Errors\n")
    assert len(listed) == len(set(listed)), listed
    assert set(listed) == {code.value for code in ErrorCode}


def _table_after(header: str) -> list[str]:
    """The codes of the protocol.md table whose header row starts ``| header |``."""
    text = (ROOT / "spec" / "protocol.md").read_text(encoding="utf-8")
    table = text.split(f"\n| {header} |", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.MULTILINE)


def test_protocol_md_lists_every_verdict_and_runner_failure_once_and_no_other() -> None:
    verdicts = _table_after("verdict")
    failures = _table_after("failure")
    assert len(verdicts) == len(set(verdicts)) and len(failures) == len(set(failures))
    assert set(verdicts) == {verdict.value for verdict in Verdict}
    assert set(failures) == {kind.value for kind in FailureKind}


def test_protocol_md_lists_every_refusal_reason_once_and_no_other() -> None:
    listed = _table_codes("\n### `apply`\n")
    assert len(listed) == len(set(listed)), listed
    assert set(listed) == {reason.value for reason in Reason}


def test_the_protocol_schema_defines_every_request_and_the_reasons() -> None:
    definitions = protocol_schema()["$defs"]
    requests = {name.removesuffix("_request") for name in definitions if name.endswith("_request")}
    assert requests == set(REQUEST_TYPES)
    listed = [item["$ref"].rsplit("/", 1)[1] for item in definitions["request"]["oneOf"]]
    assert sorted(listed) == sorted(f"{kind}_request" for kind in REQUEST_TYPES)
    # the closed vocabulary, then what an engine that declares reasons: false may send
    reason = definitions["refused_reply"]["properties"]["reason"]["anyOf"]
    assert reason[0]["enum"] == [reason.value for reason in Reason]
    assert reason[1:] == [{"const": "refused"}, {"type": "null"}]


def test_the_servers_fast_checks_accept_only_what_the_schema_accepts() -> None:
    from reference_engine.conformance.protocol.requestcheck import (
        definition_validator,
        plainly_valid,
    )

    requests: list[dict[str, object]] = [
        {"id": 1, "type": kind} for kind in ("legal", "ends", "to_act", "result", "match", "quit")
    ]
    for action in ("6-6", "", "x" * 64, "x" * 65, 5, None):
        for player in (None, 0, 3, -1, True, 1.0, "0"):
            requests.append({"id": 1, "type": "apply", "action": action, "player": player})
    requests += [{"id": 1, "type": "legal", "x": 1}, {"id": 1, "type": "apply", "action": "6-6"}]
    for protocol in ("matador-engine/1", "", "p" * 100, "p" * 101, 1, None):
        requests.append({"id": 1, "type": "hello", "protocol": protocol})
    requests += [{"id": 1, "type": "hello"}, {"id": 1, "type": "hello", "protocol": "x", "y": 2}]
    plain = 0
    for request in requests:
        kind = str(request["type"])
        if plainly_valid(kind, request):
            plain += 1
            assert not list(definition_validator(f"{kind}_request").iter_errors(request)), request
    # the bare requests; 2 good actions by 3 good players; 2 good hellos
    assert plain == 6 + 2 * 3 + 2


class _BrokenEngine(ReferenceEngine):
    """A reference engine with a bug in ``legal`` and an unknown refusal code in ``ends``."""

    def legal(self) -> list[str]:
        raise ZeroDivisionError("a bug")

    def ends(self) -> list[str]:
        raise EngineRefusal("made_up", "not a code of the protocol")


def test_an_engine_bug_is_an_internal_error_and_the_server_goes_on() -> None:
    stdin = io.BytesIO(
        b'{"id": 1, "type": "legal"}\n{"id": 2, "type": "ends"}\n{"id": 3, "type": "match"}\n'
    )
    out, err = io.StringIO(), io.StringIO()
    assert serve(stdin, out, _BrokenEngine(), stderr=err) == 0
    first, second, third = (json.loads(text) for text in out.getvalue().splitlines())
    assert first["id"] == 1 and first["code"] == ErrorCode.INTERNAL_ERROR
    assert "ZeroDivisionError" in first["message"] and "Traceback" in err.getvalue()
    assert second["id"] == 2 and second["code"] == ErrorCode.INTERNAL_ERROR
    assert "made_up" in second["message"]
    assert third["id"] == 3 and third["code"] == ErrorCode.NO_MATCH


def test_the_server_reads_text_and_byte_streams_and_skips_an_over_long_line() -> None:
    hello = '{"id": 1, "type": "hello", "protocol": "matador-engine/1"}\n'
    too_long = "[" + " " * MAX_LINE_BYTES + "]\n"
    for stdin in (io.StringIO(too_long + hello), io.BytesIO((too_long + hello).encode())):
        out = io.StringIO()
        assert serve(stdin, out) == 0
        first, second = (json.loads(text) for text in out.getvalue().splitlines())
        assert first == {
            "id": None,
            "type": "error",
            "code": ErrorCode.LINE_TOO_LONG,
            "message": first["message"],
        }
        assert second["id"] == 1 and second["type"] == "hello"


def test_the_reference_engine_refuses_a_deal_for_another_number_of_seats() -> None:
    engine = ReferenceEngine()
    engine.new_match("gamerules-com", {}, 2)
    three = {"hands": [["0-0", "0-1", "0-2"], ["0-3", "0-4", "0-5"], ["0-6", "1-1", "1-2"]]}
    with pytest.raises(EngineRefusal) as refusal:
        engine.new_hand(three)
    assert refusal.value.code == ErrorCode.BAD_DEAL and "2 players" in refusal.value.message


# --------------------------------------------------------------------------- the Node.js example

NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_node_example_passes_its_variant_and_skips_the_rest() -> None:
    example = ROOT / "conformance" / "examples" / "matador-engine.js"
    code, out, err = conform("--engine", f"{NODE} {example}", "--report", "json")
    lines = [json.loads(line) for line in out.splitlines()]
    cases = [line for line in lines if line["type"] == "case"]
    assert lines[0]["engine"]["name"] == "node example engine"
    at_positions = [c for c in cases if "takes positions" in c["message"]]
    declared = [
        c
        for c in cases
        if c["variant"] == "gamerules-com" and not c["options"] and c not in at_positions
    ]
    assert declared and all(c["verdict"] == "pass" for c in declared), declared
    others = [c for c in cases if c not in declared]
    assert others and all(c["verdict"] == "skip" for c in others)
    # it declares no positions: the cases that start at one are not asked of it
    assert at_positions and {c["case"].split("-")[0] for c in at_positions} == {"positions"}
    assert code == 0, err


@pytest.mark.slow
@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_node_example_agrees_with_the_reference_on_random_hands() -> None:
    example = ROOT / "conformance" / "examples" / "matador-engine.js"
    code, out, _ = conform(
        "--engine",
        f"{NODE} {example}",
        "--variant",
        "gamerules-com",
        "--random",
        "40",
        "--seed",
        "3",
    )
    assert code == 0, out
    assert "random games: 40 hand(s) compared" in out


# --------------------------------------------------------------------------- differential testing


def test_differential_testing_finds_a_divergence_with_its_history() -> None:
    runner = Runner(ExtraActionEngine)
    found = differential(
        runner, [Target("gamerules-com")], games=5, seed=1, reference=ReferenceEngine
    )
    assert found.errors == []
    assert found.hands >= 5
    legal = [d for d in found.divergences if d.check is Check.LEGAL]
    assert legal
    shortest = min(legal, key=lambda d: d.size)
    assert "pass" in shortest.actual and "pass" not in shortest.expected
    assert shortest.history == []  # it diverges before the first action
    # an extra action at the opening is the opening rules' business (SPEC 6.3)
    assert shortest.rules == ("opener",)


# --------------------------------------------------------------------------- the pytest plugin


@pytest.mark.slow
def test_the_pytest_plugin_runs_the_cases_as_tests(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        my_engine="""
        from reference_engine.conformance.protocol.interface import ReferenceEngine
        def make():
            return ReferenceEngine()
        """
    )
    pytester.syspathinsert()
    result = pytester.runpytest("--matador-engine", "my_engine:make", "--matador-case", "survey-*")
    result.assert_outcomes(passed=len(select(CASES, case_globs=["survey-*"])))


def test_the_pytest_plugin_reports_a_failing_case(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        bad_engine="""
        from reference_engine.conformance.protocol.interface import ReferenceEngine
        class Bad(ReferenceEngine):
            def legal(self):
                return [*super().legal(), "pass"]
        """
    )
    pytester.syspathinsert()
    result = pytester.runpytest(
        "--matador-engine", "bad_engine:Bad", "--matador-case", "survey-annotated-opening"
    )
    result.assert_outcomes(failed=len(select(CASES, case_globs=["survey-annotated-opening"])))
    result.stdout.fnmatch_lines(["*legal actions differ*"])


def test_process_engine_rejects_an_empty_command() -> None:
    with pytest.raises(EngineFailure):
        ProcessEngine("")


def test_no_child_process_survives_the_suite() -> None:
    # Every ProcessEngine above was closed or killed; the only children left
    # would be zombies of ours, which os.waitpid would reap.
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        pid = 0
    assert pid == 0


# ---- the engine program starts while the cases load


def _pid_engine(tmp_path: Path) -> tuple[str, Path]:
    """An engine command that records its process id, then serves as the reference engine."""
    pid_file = tmp_path / "engine.pid"
    script = tmp_path / "engine.py"
    script.write_text(
        "import os, sys\n"
        # written whole, then renamed: the test never reads a file half written
        f"part = {str(pid_file)!r} + '.part'\n"
        "with open(part, 'w') as f: f.write(str(os.getpid()))\n"
        f"os.replace(part, {str(pid_file)!r})\n"
        "from reference_engine.cli import run\n"
        "sys.exit(run(['engine'], sys.stdout, sys.stderr))\n"
    )
    return f"{sys.executable} {script}", pid_file


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie left for its parent counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1].startswith("Z")
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_an_engine_started_early_is_stopped_when_the_cases_are_broken(tmp_path: Path) -> None:
    command, pid_file = _pid_engine(tmp_path)
    broken = tmp_path / "broken.yaml"
    broken.write_text("cases: [\n")
    out, err = io.StringIO(), io.StringIO()
    code = run(["conform", "--engine", command, "--cases", str(broken)], out, err)
    assert code == ExitStatus.BROKEN_CASE
    assert "no engine was run" in err.getvalue()
    if pid_file.exists():  # the program got as far as starting: it must be gone now
        assert _gone(int(pid_file.read_text()))


def test_an_engine_started_early_still_judges_as_before(tmp_path: Path) -> None:
    command, pid_file = _pid_engine(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    code = run(["conform", "--engine", command, "--variant", "pagat", "--report", "json"], out, err)
    assert code == ExitStatus.OK, err.getvalue()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["engine"]["name"] == "matador reference engine"
    assert pid_file.exists() and _gone(int(pid_file.read_text()))


def test_an_empty_engine_command_is_still_a_usage_error() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run(["conform", "--engine", " "], out, err) == ExitStatus.USAGE
    assert len(unfitted(err.getvalue())) == 1 and "--engine is empty" in err.getvalue()


@pytest.mark.parametrize(
    "judging", [["--engine", "matador engine"], ["--random", "3"], ["--fail-fast"]]
)
def test_coverage_refuses_to_pass_for_a_judged_run(judging: list[str]) -> None:
    """``--coverage`` judges no engine: with ``--engine`` it would exit 0 whatever the engine."""
    out, err = io.StringIO(), io.StringIO()
    assert run(["conform", "--coverage", *judging], out, err) == ExitStatus.USAGE
    assert out.getvalue() == ""
    assert len(unfitted(err.getvalue())) == 1
    assert "--coverage describes the cases and judges no engine" in err.getvalue()
