"""A disk that fills while a report is written: one line, status 1, the old file as it was.

The disk is made full by the file itself: its stream fails with ``ENOSPC`` once
it has taken a few hundred characters, as a real full disk fails mid-report.
"""

from __future__ import annotations

import errno
import io
from pathlib import Path
from typing import Any

import pytest
from fitting import unfitted

from reference_engine import safeio
from reference_engine.cli import run
from reference_engine.conformance.reports.writers import WRITERS
from reference_engine.exits import ExitStatus


class _FillingStream:
    """A file's stream that takes ``room`` characters, then fails as a full disk does."""

    def __init__(self, stream: Any, room: int) -> None:
        self._stream, self._room = stream, room

    def write(self, text: str) -> int:
        if len(text) > self._room:
            raise OSError(errno.ENOSPC, "No space left on device")
        self._room -= len(text)
        return int(self._stream.write(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    made = safeio.AtomicFile.__init__

    def filling(self: safeio.AtomicFile, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        self.stream = _FillingStream(self.stream, 300)  # type: ignore[assignment]

    monkeypatch.setattr(safeio.AtomicFile, "__init__", filling)


@pytest.mark.usefixtures("full_disk")
@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_a_report_the_disk_cannot_hold_leaves_the_old_file(kind: str, tmp_path: Path) -> None:
    report = tmp_path / f"report.{kind}"
    report.write_text("the last report\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()

    status = run(["conform", "--variant", "pagat", "--report", kind, "-o", str(report)], out, err)

    assert status == ExitStatus.INVALID, err.getvalue()
    assert unfitted(err.getvalue()) == [
        f"matador conform: cannot write {report}: No space left on device"
    ]
    assert report.read_text(encoding="utf-8") == "the last report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [report.name]  # no part left


def test_a_failed_write_throws_the_file_away(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    file = safeio.AtomicFile(target)
    file.stream = _FillingStream(file.stream, 3)  # type: ignore[assignment]
    stream = file.guarded()
    stream.write("abc")
    with pytest.raises(safeio.OutputError, match="No space left"):
        stream.write("d")
    file.commit()  # (a commit after the failure writes nothing)
    assert list(tmp_path.iterdir()) == []
