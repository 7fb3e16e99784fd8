"""`matador replay` against corrupted and hostile records: it always finishes, names the
problem and where it is, exits 1, and never shows a traceback.

Each test runs the real command in a subprocess (tests/hostile/harness.py checks the hang,
the traceback and the leftover processes). The corrupted records are the cases of
tests/test_replay.py, which checks every one of them in-process; here a representative
subset goes through the command line, with files that are not JSON records at all.
The commands run two at a time, so the module stays fast.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from fitting import flat, message_count
from test_replay import BY_ID, Corruption

from reference_engine.exits import ExitStatus
from reference_engine.safeio import DEFAULT_LIMITS, FileKind

from .harness import Finished, run_matador

#: Every test here runs the real command in subprocesses: slow (run with --slow).
pytestmark = pytest.mark.slow

#: Corruptions run through the command line: every kind of finding, every part of a record.
THROUGH_THE_COMMAND = [
    "players-1",
    "players-99",
    "players-string",
    "players-float",
    "players-true",
    "format-wrong",
    "variant-missing",
    "options-list",
    "hands-object",
    "extra-field",
    "action-number",
    "tile-x",
    "designated-string",
    "top-level-array",
    "huge-string-tile",
    "variant-unknown",
    "huge-string-variant",
    "option-unknown",
    "option-value-unknown",
    "option-name-with-escape",
    "players-2-in-pagat",
    "players-3-deals-of-2",
    "players-2-deals-of-4",
    "hand-of-6",
    "tile-missing",
    "tile-twice",
    "tile-7-7",
    "boneyard-extra-tile",
    "designated-5",
    "designated-against-rotation",
    "designated-missing",
    "lot-names-another-seat",
    "lot-tile-twice",
    "hand-after-the-match",
    "action-bad-notation",
    "opening-by-the-wrong-seat",
    "opener-plays-again",
    "out-of-turn",
    "draw-holding-a-play",
    "action-after-the-end",
    "unfinished-then-another-hand",
    "result-points",
    "match-winner",
    "hands-empty",
]


@dataclass(frozen=True)
class BrokenFile:
    """A file that is not a JSON record at all, and what the command must say of it."""

    content: bytes
    says: str


BROKEN_FILES = {
    "nan": BrokenFile(b'{"players": NaN}', "NaN is not a JSON number"),
    "minus-infinity": BrokenFile(b'{"players": -Infinity}', "-Infinity is not a JSON number"),
    "5000-digits": BrokenFile(b'{"seed": ' + b"7" * 5000 + b"}", "a number of 5,000 digits"),
    "30000-deep": BrokenFile(b"[" * 30000 + b"]" * 30000, "nested too deeply"),
    "latin-1": BrokenFile('{"strategy": "à la main"}'.encode("latin-1"), "not UTF-8 text"),
    "empty": BrokenFile(b"", "the file is empty"),
    "too-large": BrokenFile(
        b" " * (DEFAULT_LIMITS[FileKind.JSON] + 1) + b"{}", "larger than the limit"
    ),
}


def _write(folder: Path, name: str, content: bytes) -> Path:
    path = folder / f"{name}.json"
    path.write_bytes(content)
    return path


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Future[Finished]]]:
    """Every command of this module, started two at a time: case id -> how it ended."""
    folder = tmp_path_factory.mktemp("records")
    paths = {
        case_id: _write(folder, case_id, json.dumps(BY_ID[case_id].build()).encode())
        for case_id in THROUGH_THE_COMMAND
    }
    paths |= {name: _write(folder, name, file.content) for name, file in BROKEN_FILES.items()}
    with ThreadPoolExecutor(max_workers=2) as pool:
        yield {name: pool.submit(run_matador, "replay", str(path)) for name, path in paths.items()}


def _shown(pointer: str) -> str:
    """A pointer as the command prints it (control characters escaped)."""
    return pointer.encode("unicode_escape").decode() if not pointer.isprintable() else pointer


def test_the_subset_is_large_and_covers_every_kind() -> None:
    assert len(set(THROUGH_THE_COMMAND)) == len(THROUGH_THE_COMMAND) >= 40
    assert {BY_ID[case_id].kind for case_id in THROUGH_THE_COMMAND} == {
        case.kind for case in BY_ID.values()
    }


@pytest.mark.parametrize("case_id", THROUGH_THE_COMMAND)
def test_a_corrupted_record_is_refused_at_its_place(
    records: dict[str, Future[Finished]], case_id: str
) -> None:
    case: Corruption = BY_ID[case_id]
    done = records[case_id].result()
    assert done.status == ExitStatus.INVALID, done.output
    assert done.stdout == ""
    lines = done.messages
    first = lines[0]
    assert f"{case_id}.json: " in first, first
    place = first.split(f"{case_id}.json: ", 1)[1]
    if case.pointer:
        assert place.startswith(f"{_shown(case.pointer)}: "), first
    else:
        assert not place.startswith("/"), first
    code = f"{case.kind}: {case.reason}" if case.reason else str(case.kind)
    assert f"[{code}]" in first, first  # (a line of its own may follow it)
    assert case.says in first
    if case.rule is not None:
        assert f"  rule: {case.rule}" in done.stderr.splitlines(), done.stderr
    assert len(first) < 1200
    assert lines[-1].endswith("problem(s)") or "not shown" in lines[-1]


@pytest.mark.parametrize("name", sorted(BROKEN_FILES))
def test_a_file_that_is_not_a_record_is_refused_with_a_reason(
    records: dict[str, Future[Finished]], name: str
) -> None:
    done = records[name].result()
    assert done.status == ExitStatus.INVALID, done.output
    assert done.stdout == ""
    assert len(done.messages) == 1, done.stderr
    assert f"{name}.json: " in done.said
    assert flat(BROKEN_FILES[name].says) in done.said


def test_a_named_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    done = run_matador("replay", str(fifo), timeout=10)
    assert done.status == ExitStatus.INVALID
    assert f"matador replay: {fifo}: a named pipe" in done.said
    assert message_count(done.stderr) == 1


def test_a_loop_of_links_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    (tmp_path / "b.json").symlink_to(tmp_path / "a.json")
    done = run_matador("replay", str(tmp_path / "a.json"), timeout=10)
    assert done.status == ExitStatus.INVALID
    assert "a loop of symbolic links" in done.stderr


@pytest.mark.parametrize("key", ["variant", "players", "points"])
def test_a_record_with_a_key_given_twice_is_refused(tmp_path: Path, key: str) -> None:
    """Readers that keep the first and readers that keep the last would replay other games."""
    path = tmp_path / "record.json"
    text = {
        "variant": '{"format": "matador-record/1", "variant": "pagat", "variant": "german", ',
        "players": '{"format": "matador-record/1", "players": 2, "players": 3, ',
        "points": '{"format": "matador-record/1", "result": {"points": [1], "points": [2]}, ',
    }[key]
    path.write_text(text + '"options": {}, "hands": []}', encoding="utf-8")
    result = run_matador("replay", str(path))
    assert result.status == ExitStatus.INVALID
    assert f"the key {key!r} is given twice" in result.stderr
