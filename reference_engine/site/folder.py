"""Writing the site's folder safely: built beside it, then renamed into place whole.

The files go into a temporary folder next to the target (same file system), which
is renamed over the target only once every file is written, so a reader never
sees half a site and a failure leaves the target as it was. A target that
exists must be an empty folder or a site this command wrote (it carries the
marker file); anything else is refused, never overwritten.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ..safeio import FileProblem, OutputError
from .pages import MARKER, SiteFile


def check_target(target: Path) -> None:
    """Raise :class:`OutputError` unless the site may be written at ``target``."""
    parent = target.parent
    if target.is_symlink():
        raise OutputError(FileProblem.NOT_A_FILE, target, "it is a symbolic link; give a folder")
    if target.exists():
        if not target.is_dir():
            raise OutputError(FileProblem.NOT_A_FILE, target, "it is a file, not a folder")
        try:
            entries = os.listdir(target)
        except OSError as error:
            raise OutputError(
                FileProblem.NOT_WRITABLE, target, error.strerror or str(error)
            ) from None
        if entries and MARKER not in entries:
            raise OutputError(
                FileProblem.NOT_WRITABLE,
                target,
                "the folder is not empty and holds no site made by matador site "
                "(give a new or empty folder)",
            )
    if not parent.is_dir():
        raise OutputError(FileProblem.NO_FOLDER, target, f"the folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(FileProblem.NOT_WRITABLE, target, f"the folder {parent} is not writable")


def write_site(target: Path, files: Iterable[SiteFile]) -> int:
    """Write ``files`` as the folder ``target``, replacing an earlier site whole; the count."""
    target = Path(os.path.abspath(target))
    check_target(target)
    try:
        building = Path(
            tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
        )
    except OSError as error:
        why = error.strerror or str(error)
        raise OutputError(
            FileProblem.NOT_WRITABLE, target, f"cannot make a folder in {target.parent}: {why}"
        ) from None
    count = 0
    try:
        for item in files:
            path = building.joinpath(*item.path.split("/"))
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(item.content, bytes):
                path.write_bytes(item.content)
            else:
                path.write_text(item.content, encoding="utf-8", newline="\n")
            count += 1
        os.chmod(building, 0o777 & ~_umask())
        _swap(building, target)
    except OSError as error:
        raise OutputError(FileProblem.WRITE_FAILED, target, error.strerror or str(error)) from None
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return count


def _swap(building: Path, target: Path) -> None:
    """Rename ``building`` to ``target``; an earlier site there is moved aside, then removed."""
    if not target.exists():
        os.rename(building, target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
    os.rmdir(old)
    os.rename(target, old)
    try:
        os.rename(building, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.rename(old, target)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
