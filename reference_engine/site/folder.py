"""Writing the site's folder safely: built beside it, then renamed into place whole.

The files go into a temporary folder next to the target (same file system), which
is renamed over the target only once every file is written, so a reader never
sees half a site and a failure leaves the target as it was. A target that
exists must be an empty folder or a site this command wrote: it carries the
manifest (:data:`~.pages.MARKER`), which lists every file of that site. A
later build replaces those files, and only those: anything else in the folder
(a ``CNAME`` the user added, notes) is carried into the new site as it is,
unless the new site would write a file of that name, which is refused. A
folder with a file of the manifest's name that is not one is refused too.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ..safeio import FileProblem, OutputError
from .pages import MARKER, SiteFile

#: The top-level entries of every site, for a manifest written before manifests
#: listed their files: those were the site's, anything else the user's.
_SITE_TOP = frozenset({"index.html", "assets", "sheets", "spec", "variants"})


def check_target(target: Path) -> frozenset[str] | None:
    """Raise :class:`OutputError` unless the site may be written at ``target``; the files
    of the earlier site there (None: no earlier site)."""
    try:
        return _check_target(target)
    except OutputError:
        raise
    except OSError as error:  # (a name too long, a loop of links)
        raise OutputError(FileProblem.NOT_WRITABLE, target, error.strerror or str(error)) from None


def _check_target(target: Path) -> frozenset[str] | None:
    parent = target.parent
    if target.is_symlink():
        raise OutputError(FileProblem.NOT_A_FILE, target, "it is a symbolic link; give a folder")
    listed: frozenset[str] | None = None
    if target.exists():
        if not target.is_dir():
            raise OutputError(FileProblem.NOT_A_FILE, target, "it is a file, not a folder")
        entries = os.listdir(target)
        if entries and MARKER not in entries:
            raise OutputError(
                FileProblem.NOT_WRITABLE,
                target,
                "the folder is not empty and holds no site made by matador site "
                "(give a new or empty folder)",
            )
        if entries:
            listed = _manifest(target)
    if not parent.is_dir():
        raise OutputError(FileProblem.NO_FOLDER, target, f"the folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(FileProblem.NOT_WRITABLE, target, f"the folder {parent} is not writable")
    return listed


def _manifest(target: Path) -> frozenset[str]:
    """The files the earlier site at ``target`` lists (its manifest's ``files``, or for an
    older manifest every file under the site's own top-level names)."""
    marker = target / MARKER
    refused = OutputError(
        FileProblem.NOT_WRITABLE,
        target,
        f"{MARKER} there is not the manifest of a site made by matador site; nothing was "
        "written (give a new or empty folder)",
    )
    if marker.is_symlink() or not marker.is_file() or marker.stat().st_size > 1 << 20:
        raise refused
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise refused from None
    if not isinstance(data, dict) or data.get("generator") != "matador site":
        raise refused
    files = data.get("files")
    if files is None and {"spec_version", "variants"} <= data.keys():
        # (a site written before manifests listed their files)
        return frozenset(path for path in _files(target) if path.split("/")[0] in _SITE_TOP)
    if not isinstance(files, list) or not all(isinstance(name, str) for name in files):
        raise refused
    return frozenset(files)


def _files(folder: Path) -> list[str]:
    """Every file and link under ``folder`` (not following links), and every empty folder
    (written ``name/``), as relative paths."""
    found = []
    for root, folders, names in os.walk(folder):
        base = Path(root).relative_to(folder)
        links = [name for name in folders if (Path(root) / name).is_symlink()]
        found += [(base / name).as_posix() for name in [*names, *links]]
        if not folders and not names and base != Path("."):
            found.append(base.as_posix() + "/")
    return found


def write_site(target: Path, files: Iterable[SiteFile]) -> int:
    """Write ``files`` as the folder ``target``, replacing an earlier site whole; the count."""
    listed = check_target(target)
    target = Path(os.path.abspath(target))
    files = list(files)
    kept = _kept(target, listed, {item.path for item in files})
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
        for name in kept:  # the user's files and folders beside the earlier site, as they are
            parts = name.rstrip("/").split("/")
            copy = building.joinpath(*parts)
            copy.parent.mkdir(parents=True, exist_ok=True)
            if name.endswith("/"):
                copy.mkdir(exist_ok=True)
                shutil.copystat(target.joinpath(*parts), copy)
            else:
                shutil.copy2(target.joinpath(*parts), copy, follow_symlinks=False)
        # (a folder written again keeps its permissions: a private one stays private)
        mode = stat.S_IMODE(target.stat().st_mode) if target.is_dir() else None
        os.chmod(building, 0o777 & ~_umask() if mode is None else mode)
        _swap(building, target)
    except OSError as error:
        raise OutputError(FileProblem.WRITE_FAILED, target, error.strerror or str(error)) from None
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return count


def _kept(target: Path, listed: frozenset[str] | None, written: set[str]) -> list[str]:
    """The files at ``target`` that are not the earlier site's (``listed``): kept; refused
    when the new site would write one of them."""
    if listed is None:
        return []
    kept = [path for path in _files(target) if path not in listed and path != MARKER]
    clash = sorted(path for path in kept if path in written)
    if clash:
        raise OutputError(
            FileProblem.NOT_WRITABLE,
            target,
            f"{', '.join(clash[:3])} there is not the earlier site's, and the new site would "
            "write it; nothing was written (move it, or give another folder)",
        )
    return kept


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
