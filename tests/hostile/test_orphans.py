"""A judge ended by any signal, SIGKILL included, leaves no worker and no engine running.

Each test starts ``matador`` with a marker in its environment (which every
process it starts inherits), lets it start its workers or engine, ends it with
a signal, and counts the processes still carrying the marker.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

from .harness import FAKE_ENGINE, MARKER, leftovers, matador_argv

pytestmark = pytest.mark.slow


def _started(*args: str) -> tuple[subprocess.Popen[bytes], str]:
    tag = uuid.uuid4().hex
    process = subprocess.Popen(
        matador_argv(*args),
        env={**os.environ, MARKER: tag},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    return process, tag


def _tagged_count(tag: str) -> int:
    return len(leftovers(tag, grace=0))


def _wait_for(tag: str, count: int, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while _tagged_count(tag) < count:
        assert time.monotonic() < deadline, f"fewer than {count} processes started"
        time.sleep(0.1)


def test_a_simulation_killed_outright_leaves_no_worker() -> None:
    process, tag = _started("simulate", "german", "--hands", "50000000", "--jobs", "2")
    _wait_for(tag, 3)  # the command and its two workers
    process.kill()
    process.wait(timeout=10)
    assert leftovers(tag, grace=5) == []


def test_a_run_killed_outright_leaves_no_engine() -> None:
    engine = f"{sys.executable} {FAKE_ENGINE} slow:0.2"
    process, tag = _started("conform", "--engine", engine, "--variant", "pagat")
    _wait_for(tag, 2)  # the command and its engine
    process.kill()
    process.wait(timeout=10)
    assert leftovers(tag, grace=5) == []


@pytest.mark.parametrize(
    ("signum", "status"), [(signal.SIGINT, 130), (signal.SIGHUP, 129), (signal.SIGTERM, 143)]
)
def test_a_simulation_stopped_by_a_signal_exits_with_its_conventional_status(
    signum: int, status: int
) -> None:
    process, tag = _started("simulate", "german", "--hands", "50000000", "--jobs", "2")
    _wait_for(tag, 3)
    time.sleep(1)  # some chunks played
    os.killpg(process.pid, signum)
    _, err = process.communicate(timeout=60)
    assert process.returncode == status, err
    assert b"Traceback" not in err
    assert leftovers(tag, grace=5) == []
