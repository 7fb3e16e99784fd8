"""A ``python:`` engine is run in a process of its own: its code cannot act through the judge.

Each engine here is a file written for the test, whose code does at import what
a hostile or careless engine does: hang, print, start a process that would
outlive the run, raise ``KeyboardInterrupt``; or a folder holding modules named
like the libraries the judge imports. :func:`~harness.run_matador` fails the test
on a hang, a traceback or a process left behind.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from fitting import message_count

from reference_engine.exits import ExitStatus

from .harness import run_matador

pytestmark = pytest.mark.slow

TWO = ("--case", "survey-annotated-opening", "--variant", "gamerules-com")

#: The reference engine, from the file the test writes.
ENGINE = "from reference_engine.conformance.protocol.interface import ReferenceEngine as Engine\n"


def _engine(folder: Path, code: str) -> str:
    (folder / "engine.py").write_text(code + ENGINE, encoding="utf-8")
    return "python:engine.py:Engine"


def test_an_engine_whose_import_hangs_is_unavailable_at_the_start_deadline(
    tmp_path: Path,
) -> None:
    engine = _engine(tmp_path, "import time\ntime.sleep(600)\n")
    done = run_matador(
        "conform", "--engine", engine, "--start-timeout", "2", *TWO, cwd=tmp_path, timeout=30
    )
    assert done.status == ExitStatus.ENGINE_UNAVAILABLE, done.output
    assert "no reply to 'hello' within" in done.stdout  # (the start deadline)
    assert done.seconds < 20


def test_what_an_engine_prints_never_reaches_the_report(tmp_path: Path) -> None:
    code = (
        "import os, sys\n"
        "print('printed at import')\n"
        "os.write(1, b'written to descriptor 1\\n')\n"
        "sys.__stdout__.write('to the real stdout\\n'); sys.__stdout__.flush()\n"
    )
    engine = _engine(tmp_path, code)
    done = run_matador("conform", "--engine", engine, "--report", "json", *TWO, cwd=tmp_path)
    assert done.status == ExitStatus.OK, done.output
    kinds = [json.loads(line)["type"] for line in done.stdout.splitlines()]  # every line JSON
    assert kinds[0] == "header" and kinds[-1] == "footer"
    assert "printed at import" not in done.stdout


def test_a_process_the_engine_starts_does_not_outlive_the_run(tmp_path: Path) -> None:
    code = (
        "import subprocess, sys\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
    )
    engine = _engine(tmp_path, code)
    done = run_matador("conform", "--engine", engine, *TWO, cwd=tmp_path)
    assert done.status == ExitStatus.OK, done.output  # (run_matador finds any left)


def test_an_interrupt_raised_at_import_is_the_engine_s_failure_said_in_one_line(
    tmp_path: Path,
) -> None:
    engine = _engine(tmp_path, "raise KeyboardInterrupt\n")
    done = run_matador("conform", "--engine", engine, *TWO, cwd=tmp_path)
    assert done.status == ExitStatus.ENGINE_UNAVAILABLE, done.output
    first = done.out_lines[0]
    assert first.startswith("ENGINE UNAVAILABLE: the engine did not start: ")
    assert "KeyboardInterrupt" in first
    # loaded into the judge, it is a spec that does not load: one line, status 2
    done = run_matador("conform", "--engine", engine, "--in-process", *TWO, cwd=tmp_path)
    assert done.status == ExitStatus.USAGE, done.output
    assert (
        done.stderr
        == "matador conform: --engine: importing 'engine.py' failed: KeyboardInterrupt\n"
    )


@pytest.mark.parametrize("report", ["html", "junit", "markdown"])
@pytest.mark.parametrize("mode", [(), ("--in-process",)], ids=["hosted", "in-process"])
def test_modules_named_like_the_judge_s_libraries_do_not_replace_them(
    tmp_path: Path, report: str, mode: tuple[str, ...]
) -> None:
    for name in ("jinja2", "markupsafe", "xml", "statistics", "json", "rich"):
        (tmp_path / f"{name}.py").write_text("raise SystemExit('shadowed')\n", encoding="utf-8")
    engine = _engine(tmp_path, "")
    target = tmp_path / f"report.{report}"
    done = run_matador(
        "conform", "--engine", engine, *mode, *TWO, "--report", report, "-o", str(target),
        cwd=tmp_path,
    )  # fmt: skip
    assert done.status == ExitStatus.OK, done.output
    assert "shadowed" not in done.output
    assert target.stat().st_size > 0


def test_any_exception_a_module_raises_while_loaded_in_process_is_one_line(
    tmp_path: Path,
) -> None:
    engine = _engine(tmp_path, "class Boom(BaseException):\n    pass\nraise Boom('base\\nmulti')\n")
    done = run_matador("conform", "--engine", engine, "--in-process", *TWO, cwd=tmp_path)
    assert done.status == ExitStatus.USAGE, done.output
    assert message_count(done.stderr) == 1 and "Boom: base multi" in done.said


def test_processes_that_leave_the_engine_s_group_do_not_outlive_the_run(tmp_path: Path) -> None:
    """A process started in a session of its own, and a daemon's double fork: neither is
    in the engine's group, and run_matador fails the test on either left running."""
    code = (
        "import os, subprocess, sys\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'],"
        " start_new_session=True)\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        "    os._exit(0)\n"
    )
    engine = _engine(tmp_path, code)
    done = run_matador("conform", "--engine", engine, *TWO, cwd=tmp_path)
    assert done.status == ExitStatus.OK, done.output


def test_a_program_engine_s_detached_process_does_not_outlive_the_run(tmp_path: Path) -> None:
    script = tmp_path / "engine.sh"
    script.write_text(
        '#!/bin/sh\nsetsid sleep 600 &\nexec "$MATADOR_PYTHON" -m reference_engine.cli engine\n',
        encoding="utf-8",
    )
    script.chmod(0o755)
    done = run_matador(
        "conform", "--engine", str(script), *TWO, cwd=tmp_path,
        env={"MATADOR_PYTHON": sys.executable},
    )  # fmt: skip
    assert done.status == ExitStatus.OK, done.output


def test_the_judge_used_as_a_library_ends_no_process_of_its_host() -> None:
    """In a test suite (or the pytest plugin) the judge's process has children of its own:
    stopping an engine ends the engine's descendants, never the host's other children."""
    import io
    import subprocess

    from reference_engine.cli import run

    host_child = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        out, err = io.StringIO(), io.StringIO()
        engine = f"{sys.executable} -m reference_engine.cli engine"
        assert run(["conform", "--engine", engine, *TWO], out, err) == 0, err.getvalue()
        assert host_child.poll() is None
    finally:
        host_child.kill()
        host_child.wait()
