"""`matador conform` against engines built to break it: it always finishes, says what is wrong,
exits non-zero, leaves no process behind and loses nothing.

Each test runs the real command in a subprocess (tests/hostile/harness.py checks the hang,
the traceback and the leftover processes); the engines are tests/hostile/fake_engine.py.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from fitting import flat

from reference_engine.exits import ExitStatus

from .harness import HERE, Signal, fake_engine, matador_argv, run_matador

#: Every test here runs the real command in subprocesses: slow (run with --slow).
pytestmark = pytest.mark.slow

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"
#: Two case runs (gamerules-com and britannica-1911), from one small file.
TWO = ("--cases", str(CASES / "survey-opening.yaml"))
#: A dozen case runs of one variant, enough to see an engine give up.
MANY = ("--cases", str(CASES / "dutch.yaml"))
#: Enough case runs to be interrupted half-way with a slow engine.
LONG = ("--cases", str(CASES / "pagat.yaml"))
#: A deadline the fake engine meets with room to spare on a loaded machine (it warms
#: up before its handshake), and that its "slow" modes miss by far.
FAST = ("--timeout", "1", "--start-timeout", "5")
#: Modes whose misbehaviour takes the fake engine longer than FAST to show.
NEEDS_TIME = {
    "never_answers": ("--timeout", "0.5", "--start-timeout", "0.5"),
    "partial_line": ("--timeout", "0.5", "--start-timeout", "1"),
}

UNAVAILABLE = ExitStatus.ENGINE_UNAVAILABLE
INVALID = ExitStatus.INVALID


# mode, selection, exit status, what the output must say
HANDSHAKE_FAILURES = [
    ("crash_at_start", UNAVAILABLE, "cannot load my rule tables"),
    ("never_answers", UNAVAILABLE, "no reply to 'hello' within 0.5 s"),
    ("garbage", UNAVAILABLE, "is not strict JSON"),
    ("huge_line", UNAVAILABLE, "longer than 1048576 bytes"),
    ("partial_line", UNAVAILABLE, "no reply to 'hello'"),
    ("not_object", UNAVAILABLE, "not a JSON object"),
    ("wrong_id", UNAVAILABLE, "expected id 1, got 2"),
    ("id_as_string", UNAVAILABLE, "expected id 1, got '1'"),
    ("id_as_float", UNAVAILABLE, "expected id 1, got 1.0"),
    ("id_as_bool", UNAVAILABLE, "expected id 1, got True"),
    ("bad_utf8", UNAVAILABLE, "is not strict JSON (not UTF-8)"),
    ("nan", UNAVAILABLE, "is not strict JSON (NaN is not JSON"),
    ("duplicate_key", UNAVAILABLE, "the key 'id' is given twice"),
    ("tamper:version_number", UNAVAILABLE, "version must be a string, not 1.0"),
    ("deep_json", UNAVAILABLE, "is not strict JSON"),
    ("wrong_protocol", UNAVAILABLE, "speaks protocol 'matador-engine/99'"),
    ("unsupported_protocol", UNAVAILABLE, "unsupported_protocol"),
    ("no_hello", UNAVAILABLE, "not a hello"),
    ("hello_no_name", UNAVAILABLE, "has no name"),
    ("hello_bad_variants", UNAVAILABLE, "must be a list of option values"),
    ("hello_variants_list", UNAVAILABLE, "must be null or an object"),
    ("declares_nothing", UNAVAILABLE, "declares no variant the suite knows"),
    ("hello_no_variants", UNAVAILABLE, "does not say which variants it plays"),
    ("declares_unknown", UNAVAILABLE, "it declares: my-house-rules, tiddlywinks"),
    ("fork_child_exit", UNAVAILABLE, "before answering 'hello'"),
]


@pytest.mark.parametrize(("mode", "status", "says"), HANDSHAKE_FAILURES)
def test_an_engine_that_fails_its_handshake_is_reported_once_and_nothing_runs(
    mode: str, status: int, says: str
) -> None:
    timeout = NEEDS_TIME.get(mode, FAST)
    done = run_matador("conform", "--engine", fake_engine(mode), *timeout, *TWO)
    assert done.status == status, done.output
    assert flat(says) in done.said
    assert done.output.count("ENGINE UNAVAILABLE") == 1
    assert "2 not run" in done.stdout
    assert done.seconds < 10


# Engines that greet properly and then break: each case errors, and the engine is restarted.
CASE_FAILURES = [
    ("exit_after_hello", "exited (status 0) before answering 'new_match'"),
    ("close_stdout", "closed its output before answering 'new_match'"),
    ("stop_reading", "no reply to 'new_match' within 1 s"),
    ("slow:2.5", "no reply to 'new_match' within 1 s"),
    ("wrong_shape:legal", "the legal actions must be a list of strings, got '6-6'"),
    ("wrong_shape:to_act", "the seat to act must be a seat number or null, got '0'"),
    ("wrong_shape:ends", "the open ends must be a list of strings, got 5"),
    ("tamper:legal_twice", "the legal actions: '6-6' given more than once"),
    ("crash_on:legal", "segmentation fault in legal"),
    ("crash_on:apply", "segmentation fault in apply"),
]


@pytest.mark.parametrize(("mode", "says"), CASE_FAILURES)
def test_an_engine_that_breaks_mid_case_errors_that_case_and_is_restarted(
    mode: str, says: str
) -> None:
    done = run_matador("conform", "--engine", fake_engine(mode), *FAST, *TWO)
    assert done.status == INVALID, done.output
    assert flat(says) in flat(done.stdout)
    assert "0 passed, 0 failed, 2 errored" in done.stdout


#: One case whose hand ends with a result and whose match totals are checked.
SCORED = ("--cases", str(CASES / "gamerules-com.yaml"), "--case", "*three-handed-block-difference")

# Replies that equal the right answer under Python's == but break the protocol's types.
WRONG_TYPES = [
    ("tamper:points_as_floats", "the result's pips must be a list of integers"),
    ("tamper:winner_as_bool", "the result's winner must be a seat number or null, got"),
    ("tamper:result_extra_field", "unknown 'extra'"),
    ("tamper:points_as_text", "the result's pips must be a list of integers, got 'lots'"),
    ("tamper:match_as_floats", "the match scores must be a list of integers"),
]


@pytest.mark.parametrize(("mode", "says"), WRONG_TYPES)
def test_a_reply_of_the_wrong_type_is_an_error_even_when_it_compares_equal(
    mode: str, says: str
) -> None:
    done = run_matador("conform", "--engine", fake_engine(mode), *FAST, *SCORED)
    assert done.status == INVALID, done.output
    assert flat(says) in flat(done.stdout)
    assert "0 passed, 0 failed, 1 errored" in done.stdout


@pytest.mark.parametrize("mode", ["crash_on:legal", "exit_after_hello", "slow:2.5"])
def test_an_engine_that_dies_again_and_again_is_given_up_after_three_tries(mode: str) -> None:
    done = run_matador("conform", "--engine", fake_engine(mode), *FAST, *MANY)
    assert done.status == UNAVAILABLE, done.output
    assert "failed 3 times in a row" in done.stdout
    assert done.output.count("ENGINE UNAVAILABLE") == 1
    assert "3 errored" in done.stdout and "not run" in done.stdout


def test_the_tail_of_a_failing_engines_stderr_is_in_the_json_report(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = run_matador(
        "conform", "--engine", fake_engine("crash_on:legal"), *FAST, *TWO,
        "--report", "json", "--output", str(report),
    )  # fmt: skip
    assert done.status == INVALID
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    errored = [line for line in lines if line["type"] == "case"]
    assert {line["verdict"] for line in errored} == {"error"}
    assert all("segmentation fault in legal" in line["stderr"] for line in errored)
    assert {line["failure"] for line in errored} == {"exited"}


# Engines that misbehave in ways a correct judge must tolerate: the run passes.
TOLERATED = [
    "good",
    "flood_stderr",
    "flood_stderr_forever",
    "fork_child",
    "ignore_term",
    "slow:0.01",
]


@pytest.mark.parametrize("mode", TOLERATED)
def test_an_engine_that_is_noisy_slow_or_leaves_children_still_passes_and_is_stopped(
    mode: str,
) -> None:
    done = run_matador("conform", "--engine", fake_engine(mode), "--timeout", "2", *TWO)
    assert done.status == ExitStatus.OK, done.output
    assert "2 passed" in done.stdout


def test_an_engine_that_ignores_sigterm_is_killed() -> None:
    done = run_matador("conform", "--engine", fake_engine("ignore_term"), *TWO)
    assert done.status == ExitStatus.OK
    # The harness has checked that no process carrying the test's marker is left.


# ---------------------------------------------------------------- the command line


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "abc", "", "1e400"])
def test_a_timeout_that_is_not_a_finite_positive_number_is_a_usage_error(value: str) -> None:
    done = run_matador("conform", "--timeout", value, *TWO)
    assert done.status == ExitStatus.USAGE
    assert "--timeout" in done.stderr


@pytest.mark.parametrize(
    ("engine", "says"),
    [
        ("", "--engine is empty"),
        ("python:", "is not MODULE:FACTORY"),
        ("python:no_such_module_anywhere:make", "cannot import 'no_such_module_anywhere'"),
        ("python:no_such_file_anywhere.py:make", "cannot load 'no_such_file_anywhere.py'"),
    ],
)
@pytest.mark.parametrize("mode", [(), ("--in-process",)], ids=["hosted", "in-process"])
def test_an_engine_spec_that_names_no_engine_is_a_clear_usage_error(
    engine: str, says: str, mode: tuple[str, ...]
) -> None:
    """What the spec's form and whereabouts tell, without running any of its code."""
    done = run_matador("conform", "--engine", engine, *mode, *TWO, env=_python_engines())
    assert done.status == ExitStatus.USAGE, done.output
    assert says in done.stderr


#: Specs whose code must run to tell they name no engine.
LOADED = [
    ("python:os:sep", "not a callable"),
    ("python:os:no_such_factory", "has no attribute"),
    ("python:hostile_broken_engine:make", "importing 'hostile_broken_engine' failed"),
]


@pytest.mark.parametrize(("engine", "says"), LOADED)
def test_a_spec_that_loads_no_engine_in_process_is_a_usage_error(engine: str, says: str) -> None:
    done = run_matador("conform", "--engine", engine, "--in-process", *TWO, env=_python_engines())
    assert done.status == ExitStatus.USAGE, done.output
    assert says in done.stderr


@pytest.mark.parametrize(("engine", "says"), LOADED)
def test_a_hosted_spec_that_loads_no_engine_is_unavailable_saying_why(
    engine: str, says: str
) -> None:
    done = run_matador("conform", "--engine", engine, *TWO, env=_python_engines())
    assert done.status == UNAVAILABLE, done.output
    assert flat(says) in done.said and "ENGINE UNAVAILABLE" in done.output


#: How each misbehaving Python engine is judged, in the judge and in a process of its own.
MISBEHAVING = [
    ("not_an_engine", UNAVAILABLE, "lacks the engine method(s)", None),
    ("factory_raises", UNAVAILABLE, "RuntimeError: no tables", None),
    ("hello_returns_text", UNAVAILABLE, "must return an EngineInfo", None),
    ("HangsInLegal", INVALID, "no answer to legal within 1 s", "no reply to 'legal' within 1 s"),
    ("RaisesInLegal", INVALID, "ZeroDivisionError", None),
    (
        "LegalIsNotAList", INVALID, "legal() must be a list of strings",
        "the legal actions must be a list of strings",
    ),
    (
        "SwallowsTheDeadline", INVALID, "no answer to legal within 1 s",
        "no reply to 'legal' within 1 s",
    ),
    ("RaisesGeneratorExit", INVALID, "raised GeneratorExit", "failed on legal: GeneratorExit"),
    (
        "RaisesKeyboardInterrupt", INVALID, "raised KeyboardInterrupt",
        "failed on legal: KeyboardInterrupt",
    ),
    ("LegalThatCannotBeRead", INVALID, "cannot be read", "cannot list my items"),
    ("LeavesAThreadRunning", ExitStatus.OK, "2 passed", None),
    ("ExitsInApply", INVALID, "SystemExit", None),
]  # fmt: skip


@pytest.mark.parametrize(("name", "status", "in_process", "hosted"), MISBEHAVING)
@pytest.mark.parametrize("mode", [(), ("--in-process",)], ids=["hosted", "in-process"])
def test_a_python_engine_that_misbehaves_is_judged_like_a_program(
    name: str, status: int, in_process: str, hosted: str | None, mode: tuple[str, ...]
) -> None:
    engine = f"python:hostile_engines:{name}"
    done = run_matador("conform", "--engine", engine, *mode, *FAST, *TWO, env=_python_engines())
    assert done.status == status, done.output
    assert flat(in_process if mode else hosted or in_process) in done.said


def _python_engines() -> dict[str, str]:
    return {"PYTHONPATH": str(HERE)}


# ---------------------------------------------------------------- outputs


def test_an_output_in_a_missing_folder_is_refused_before_the_engine_starts(
    tmp_path: Path,
) -> None:
    done = run_matador(
        "conform", "--engine", fake_engine("slow:2.5"), *TWO,
        "--output", str(tmp_path / "missing" / "report.json"),
    )  # fmt: skip
    assert done.status == ExitStatus.USAGE
    assert "does not exist" in done.stderr
    assert done.seconds < 3, "the output path is checked before the run"


def test_an_output_that_is_a_directory_is_refused(tmp_path: Path) -> None:
    done = run_matador("conform", *TWO, "--output", str(tmp_path))
    assert done.status == ExitStatus.USAGE
    assert "directory" in done.stderr


def test_an_output_that_is_a_device_is_written_to_not_replaced() -> None:
    """``--output /dev/null`` discards the report, as the shell idiom expects."""
    before = os.stat("/dev/null")
    done = run_matador("conform", *TWO, "--output", "/dev/null")
    assert done.status == ExitStatus.OK, done.stderr
    assert done.stdout == ""
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_an_output_that_is_a_named_pipe_is_refused(tmp_path: Path) -> None:
    """A pipe may have no reader, and the run would wait for one forever."""
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    done = run_matador("conform", *TWO, "--output", str(fifo))
    assert done.status == ExitStatus.USAGE
    assert "named pipe" in done.stderr


@pytest.mark.parametrize("report", ["table", "json", "junit", "markdown"])
def test_a_usage_error_leaves_an_existing_report_as_it_was(tmp_path: Path, report: str) -> None:
    target = tmp_path / "report.out"
    target.write_text("the previous report\n")
    done = run_matador(
        "conform", *TWO, "--report", report, "--output", str(target), "--random", "0"
    )
    assert done.status == ExitStatus.USAGE
    assert target.read_text() == "the previous report\n"


@pytest.mark.parametrize("report", ["table", "json", "junit", "markdown"])
def test_every_report_format_names_an_unavailable_engine(tmp_path: Path, report: str) -> None:
    target = tmp_path / "report.out"
    done = run_matador(
        "conform", "--engine", fake_engine("crash_at_start"), *TWO,
        "--report", report, "--output", str(target),
    )  # fmt: skip
    assert done.status == UNAVAILABLE
    assert "cannot load my rule tables" in target.read_text()
    assert not list(tmp_path.glob(".*.part")), "no temporary file is left behind"


# ---------------------------------------------------------------- signals


def _finished_cases(text: str) -> int:
    return text.count('"type": "case"')


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_the_run_keeps_finished_cases_and_stops_the_engine(
    tmp_path: Path, signum: int, status: int
) -> None:
    report = tmp_path / "report.json"
    report.write_text("the previous report\n")

    def two_cases_written(_: str) -> bool:
        for part in tmp_path.glob(".report.json.*.part"):
            try:
                return _finished_cases(part.read_text()) >= 2
            except FileNotFoundError:  # renamed or removed since the glob: the run ended
                return False
        return False

    done = run_matador(
        "conform", "--engine", fake_engine("slow:0.01"), *LONG,
        "--report", "json", "--output", str(report),
        send=Signal(signum, two_cases_written),
    )  # fmt: skip
    assert done.status == status, done.output
    assert f"interrupted by {signal.Signals(signum).name}" in done.stderr
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert lines[0]["type"] == "header"
    finished = [line for line in lines if line["type"] == "case"]
    assert len(finished) >= 2, "the cases finished before the signal are kept"
    assert all(line["verdict"] == "pass" for line in finished)
    assert lines[-1]["type"] == "footer"
    assert lines[-1]["complete"] is False
    assert lines[-1]["interrupted"] == signal.Signals(signum).name
    assert not list(tmp_path.glob(".*.part"))


def test_a_signal_while_streaming_json_to_stdout_ends_with_a_footer() -> None:
    done = run_matador(
        "conform", "--engine", fake_engine("slow:0.01"), *LONG, "--report", "json",
        send=Signal(signal.SIGTERM, lambda out: _finished_cases(out) >= 1),
    )  # fmt: skip
    assert done.status == 143
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "footer"
    assert lines[-1]["interrupted"] == "SIGTERM"
    assert sum(1 for line in lines if line["type"] == "case") >= 1


def test_a_signal_with_the_table_report_prints_what_was_finished(tmp_path: Path) -> None:
    progress = tmp_path / "progress"

    def engine_busy(_: str) -> bool:
        return progress.exists() and len(progress.read_text()) >= 40  # 40 answers

    done = run_matador(
        "conform", "--engine", fake_engine("slow:0.01", str(progress)), *LONG,
        send=Signal(signal.SIGTERM, engine_busy),
    )  # fmt: skip
    assert done.status == 143
    assert "INTERRUPTED by SIGTERM" in done.stdout
    assert "Matador conformance" in done.stdout


@pytest.mark.parametrize(
    ("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
)
def test_a_signal_while_a_deaf_engine_starts_stops_it_too(
    tmp_path: Path, signum: int, status: int
) -> None:
    """An engine that never reads its input, stopped before its handshake ends, is not left."""
    started = tmp_path / "started"
    done = run_matador(
        "conform", "--engine", fake_engine("deaf", str(started)), *TWO,
        send=Signal(signum, lambda _: started.exists()),
    )  # fmt: skip
    assert done.status == status, done.output
    # run_matador has checked that no process of the run is left.


def test_a_second_signal_stops_at_once_and_still_stops_the_engine(tmp_path: Path) -> None:
    """A second Ctrl-C does not wait for a clean-up that an in-process engine holds up."""
    started = tmp_path / "started"
    done = run_matador(
        "conform", "--engine", fake_engine("stubborn:0.01", str(started)), *LONG,
        send=Signal(signal.SIGINT, lambda _: started.exists(), again=0.05),
    )  # fmt: skip
    assert done.status == 130, done.output
    # The engine ignores SIGTERM: the clean-up after the first signal waits for
    # it; the second kills it and exits at once, leaving nothing behind.


def test_engine_text_cannot_drive_the_terminal() -> None:
    done = run_matador("conform", "--engine", fake_engine("escapes"), *FAST, *TWO)
    assert done.status == UNAVAILABLE
    assert "\x1b" not in done.output and "\x07" not in done.output
    assert "\\x1b]0;owned" in done.output


def test_a_signal_during_the_handshake_is_a_clean_exit(tmp_path: Path) -> None:
    started = tmp_path / "started"
    done = run_matador(
        "conform", "--engine", fake_engine("never_answers", str(started)), *TWO,
        send=Signal(signal.SIGINT, lambda _: started.exists()),
    )  # fmt: skip
    assert done.status == 130
    assert "INTERRUPTED by SIGINT after 0 of 2" in done.stdout


# ---------------------------------------------------------------- broken cases


BROKEN_DEALS = {
    "short hand": '["6-6", "3-5", "1-2", "0-4", "2-5", "4-4"]',
    "foreign tile": '["6-6", "3-5", "1-2", "0-4", "2-5", "4-4", "7-7"]',
    "duplicate tile": '["6-6", "3-5", "1-2", "0-4", "2-5", "4-4", "4-6"]',
}


SOUND_HAND = '["6-6", "3-5", "1-2", "0-4", "2-5", "4-4", "0-3"]'


def _case(case_id: str, first_hand: str, act: str, seat: int) -> str:
    return f"""\
  - id: {case_id}
    description: A case written for the hostile-input tests.
    applies_to: [{{variant: gamerules-com}}]
    exercises: [opener=highest_double]
    cite:
      - publication: gamerules-com
        text: "000"
        section: opening paragraphs
        says: A citation written for the hostile-input tests.
    deal:
      hands:
        - {first_hand}
        - ["4-6", "1-1", "0-5", "2-6", "3-3", "1-6", "2-4"]
    steps:
      - {{to_act: {seat}, act: "{act}"}}
"""


def _case_file(tmp_path: Path, first_hand: str, *, act: str = "6-6", seat: int = 0) -> Path:
    """A case file: a case with this first hand and step, and a sound case beside it."""
    path = tmp_path / "cases.yaml"
    path.write_text(
        'suite_version: "1.0"\ncases:\n'
        + _case("hostile-deal", first_hand, act, seat)
        + _case("hostile-sound", SOUND_HAND, "6-6", 0),
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("problem", sorted(BROKEN_DEALS))
def test_a_case_whose_deal_breaks_its_variant_is_broken_not_an_engine_failure(
    tmp_path: Path, problem: str
) -> None:
    cases = _case_file(tmp_path, BROKEN_DEALS[problem])
    done = run_matador("conform", "--cases", str(cases), "--engine", fake_engine("good"))
    assert done.status == ExitStatus.BROKEN_CASE, done.output
    assert "BROKEN hostile-deal" in done.stdout
    assert "the case is broken, not the engine" in done.stdout
    assert f"{cases}:" in done.stdout and "$.cases[0].deal" in done.stdout
    assert "1 passed" in done.stdout, "the sound case beside it still runs"


@pytest.mark.parametrize(
    ("act", "seat", "says"),
    [("6-6@Q", 0, "not an action in the notation"), ("6-6", 5, "seat 5 does not exist")],
)
def test_a_case_with_bad_notation_or_a_missing_seat_is_broken(
    tmp_path: Path, act: str, seat: int, says: str
) -> None:
    cases = _case_file(tmp_path, SOUND_HAND, act=act, seat=seat)
    done = run_matador("conform", "--cases", str(cases))
    assert done.status == ExitStatus.BROKEN_CASE, done.output
    assert flat(says) in flat(done.stdout)


def test_the_random_mode_survives_an_engine_that_crashes() -> None:
    done = run_matador(
        "conform", "--engine", fake_engine("crash_on:legal"), *FAST, *TWO,
        "--random", "2", "--variant", "gamerules-com",
    )  # fmt: skip
    assert done.status != ExitStatus.OK
    assert "random games:" in done.stdout


def test_the_fake_engine_is_run_by_this_interpreter() -> None:
    assert fake_engine("good").startswith(sys.executable)


@pytest.mark.parametrize("value", ["1e308", "86401", "1e400"])
def test_a_timeout_too_long_to_be_meant_is_a_usage_error(value: str) -> None:
    done = run_matador("conform", "--timeout", value, *TWO)
    assert done.status == ExitStatus.USAGE
    assert "at most 86,400" in done.stderr


def test_case_files_that_do_not_exist_are_invalid_input(tmp_path: Path) -> None:
    done = run_matador("conform", "--cases", str(tmp_path / "missing.yaml"))
    assert done.status == ExitStatus.INVALID
    assert "no such file or folder" in done.stderr


def _with_closed(fd: int, *args: str) -> subprocess.CompletedProcess[bytes]:
    """Run matador with file descriptor ``fd`` closed, as ``>&-`` or ``2>&-`` does."""
    return subprocess.run(
        matador_argv(*args),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE if fd != 1 else None,
        stderr=subprocess.PIPE if fd != 2 else None,
        preexec_fn=lambda: os.close(fd),
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("command", [("list",), ("show", "pagat"), ("conform", *TWO)])
def test_a_closed_standard_output_is_a_clear_error(command: tuple[str, ...]) -> None:
    done = _with_closed(1, *command)
    assert done.returncode == ExitStatus.INVALID
    assert b"standard output is closed" in done.stderr
    assert b"Traceback" not in done.stderr


def test_a_closed_standard_error_does_not_change_the_verdict() -> None:
    done = _with_closed(2, "conform", "--engine", fake_engine("crash_at_start"), *TWO)
    assert done.returncode == UNAVAILABLE
    assert b"ENGINE UNAVAILABLE" in done.stdout


def test_an_engine_that_refuses_everything_it_declares_is_not_a_pass() -> None:
    """A run in which every case is skipped judged nothing: it must not gate a CI job green."""
    done = run_matador("conform", "--engine", fake_engine("hollow"), *FAST, *TWO)
    assert done.status == INVALID, done.output
    assert "NOTHING JUDGED" in done.stdout
    assert "0 passed, 0 failed, 0 errored, 2 skipped" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_random_games_on_several_jobs_and_every_worker_engine(
    signum: int, status: int
) -> None:
    # run_matador fails the test if a worker or any engine program is left behind
    done = run_matador(
        "conform", "--engine", fake_engine("good"), *FAST, *TWO, "--report", "json",
        "--random", "200", "--jobs", "2",
        send=Signal(signum, lambda out: _finished_cases(out) >= 1),
    )  # fmt: skip
    assert done.status == status, done.output
    assert f"interrupted by {signal.Signals(signum).name}" in done.stderr
