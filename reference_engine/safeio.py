"""Reading the files users give and writing the files the project makes, safely.

Reading: a file named by a user (a variant, a case file, a record, a
situation) is looked at before it is opened. Anything that is not a regular
file (a directory, a named pipe, a device, a socket, a symlink loop) is refused
with a message and never read, so nothing blocks on a pipe or streams
``/dev/zero``; a file over its size limit is refused before it is parsed. The
limits are :data:`DEFAULT_LIMITS`; a command raises them with ``--max-bytes``
through :func:`size_limit`.

Writing: every file the project writes (reports, sheets, records, coverage)
goes to a temporary file in the destination folder and is renamed into place,
so a failed or interrupted write never destroys or truncates an existing file.
:func:`check_output_path` says before any work starts whether a path can be
written at all.

Every refusal is an :class:`InputError` or :class:`OutputError` whose ``code``
comes from :class:`FileProblem`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import IO, Any

from .errors import InputProblem, MachineProblem
from .textenum import TextEnum


class FileProblem(TextEnum):
    """Why a file could not be read or written: a closed vocabulary."""

    NOT_FOUND = "not_found"
    NOT_A_FILE = "not_a_file"
    SYMLINK_LOOP = "symlink_loop"
    TOO_LARGE = "too_large"
    UNREADABLE = "unreadable"
    NO_FOLDER = "no_folder"
    NOT_WRITABLE = "not_writable"
    WRITE_FAILED = "write_failed"


class FileKind(TextEnum):
    """The kinds of input file with their own size limits."""

    YAML = "yaml"
    JSON = "json"


#: The largest file of each kind read without ``--max-bytes``. Real variant and
#: case files are under 100 kB; a long match record is a few hundred kB.
DEFAULT_LIMITS: dict[FileKind, int] = {
    FileKind.YAML: 1_000_000,
    FileKind.JSON: 8_000_000,
}

_limit_override: ContextVar[int | None] = ContextVar("matador_max_bytes", default=None)


class InputError(InputProblem, ValueError):
    """A file that cannot be read as input: what, where, and why (a :class:`FileProblem`)."""

    def __init__(self, code: FileProblem, path: str | os.PathLike[str], message: str) -> None:
        self.code = code
        self.path = str(path)
        self.message = message
        super().__init__(f"{self.path}: {message}")


class OutputError(MachineProblem, OSError):
    """A file that cannot be written: what, where, and why (a :class:`FileProblem`)."""

    def __init__(self, code: FileProblem, path: str | os.PathLike[str], message: str) -> None:
        self.code = code
        self.path = str(path)
        self.message = message
        super().__init__(f"cannot write {self.path}: {message}")

    def __str__(self) -> str:
        return f"cannot write {self.path}: {self.message}"


@contextlib.contextmanager
def size_limit(max_bytes: int | None) -> Iterator[None]:
    """Within the block, every kind of input file may be up to ``max_bytes`` (None: defaults)."""
    token = _limit_override.set(max_bytes)
    try:
        yield
    finally:
        _limit_override.reset(token)


def limit_for(kind: FileKind) -> int:
    """The size limit in force for ``kind``."""
    override = _limit_override.get()
    return DEFAULT_LIMITS[kind] if override is None else override


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind_name(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _stat_problem(error: OSError, path: str | os.PathLike[str]) -> InputError:
    if error.errno == errno.ELOOP:
        return InputError(FileProblem.SYMLINK_LOOP, path, "a loop of symbolic links")
    if error.errno in (errno.ENOENT, errno.ENOTDIR):
        return InputError(FileProblem.NOT_FOUND, path, "no such file")
    if error.errno == errno.ENAMETOOLONG:
        return InputError(FileProblem.NOT_FOUND, path, "the file name is too long")
    return InputError(
        FileProblem.UNREADABLE, path, f"cannot read the file: {error.strerror or error}"
    )


def read_input(path: str | os.PathLike[str], kind: FileKind) -> bytes:
    """The bytes of a regular file no larger than the limit for ``kind``; else InputError."""
    limit = limit_for(kind)
    try:
        info = os.stat(path)
    except (OSError, ValueError) as error:
        if isinstance(error, ValueError):  # an embedded NUL byte
            raise InputError(FileProblem.NOT_FOUND, path, "not a valid file name") from None
        raise _stat_problem(error, path) from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(
            FileProblem.NOT_A_FILE,
            path,
            f"{_kind_name(info.st_mode)}, not a regular file; give a file",
        )
    _check_size(info.st_size, limit, path)
    # O_NONBLOCK: if the path became a pipe since the stat, opening does not block.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise _stat_problem(error, path) from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(
                FileProblem.NOT_A_FILE,
                path,
                f"{_kind_name(info.st_mode)}, not a regular file; give a file",
            )
        chunks = []
        size = 0
        while True:
            chunk = os.read(descriptor, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                _check_size(size, limit, path)
    except OSError as error:
        raise InputError(
            FileProblem.UNREADABLE, path, f"cannot read the file: {error.strerror or error}"
        ) from None
    finally:
        os.close(descriptor)
    return b"".join(chunks)


def _check_size(size: int, limit: int, path: str | os.PathLike[str]) -> None:
    if size > limit:
        raise InputError(
            FileProblem.TOO_LARGE,
            path,
            f"larger than the limit of {limit:,} bytes; "
            "if the file is really meant, raise the limit with --max-bytes",
        )


# --------------------------------------------------------------------------- writing


def check_output_path(path: str | os.PathLike[str]) -> None:
    """Raise :class:`OutputError` unless ``path`` can be written as a file, before any work."""
    target = Path(path)
    folder = target.parent
    if not str(target.name):
        raise OutputError(FileProblem.NOT_A_FILE, path, "give a file name, not a folder")
    try:
        os.lstat(target)
    except OSError as error:
        # pathlib's checks below raise on these instead of answering False.
        if error.errno == errno.ENAMETOOLONG:
            raise OutputError(FileProblem.NOT_WRITABLE, path, "the file name is too long") from None
    except ValueError:
        raise OutputError(FileProblem.NOT_WRITABLE, path, "not a valid file name") from None
    if not folder.exists():
        raise OutputError(FileProblem.NO_FOLDER, path, f"the folder {folder} does not exist")
    if not folder.is_dir():
        raise OutputError(FileProblem.NO_FOLDER, path, f"{folder} is not a folder")
    if target.is_symlink() and not target.exists():
        raise OutputError(FileProblem.NOT_A_FILE, path, "a dangling or looping symbolic link")
    if target.exists() and not target.is_file():
        try:
            kind = _kind_name(os.stat(target).st_mode)
        except OSError:
            kind = "not a regular file"
        raise OutputError(
            FileProblem.NOT_A_FILE, path, f"it is {kind}; give the path of a regular file"
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(FileProblem.NOT_WRITABLE, path, f"the folder {folder} is not writable")


class AtomicFile:
    """A file written under a temporary name beside ``path`` and renamed into place.

    Use as a context manager: leaving the block normally (or calling
    :meth:`commit`) renames the finished file over ``path``; leaving it with an
    exception removes the temporary file and leaves ``path`` as it was. With
    ``keep_partial=True`` an interrupted write is renamed into place too (a
    streamed report that keeps every finished line).
    """

    def __init__(
        self, path: str | os.PathLike[str], *, binary: bool = False, keep_partial: bool = False
    ) -> None:
        check_output_path(path)
        self.path = Path(path)
        self.keep_partial = keep_partial
        target = self.path.resolve() if self.path.is_symlink() else self.path
        self._target = target
        import tempfile  # here: most commands write no file, and it costs a start-up 5 ms

        try:
            descriptor, temporary = tempfile.mkstemp(
                prefix=f".{target.name}.", suffix=".part", dir=target.parent
            )
        except OSError as error:
            raise OutputError(
                FileProblem.NOT_WRITABLE, path, error.strerror or str(error)
            ) from None
        self._temporary = Path(temporary)
        # A file replaced keeps its permissions (a private 0600 file stays private);
        # a new one gets what the umask gives. The file a run streams into has them
        # from the start (mkstemp makes it private), so an interrupted run's part
        # can be read as the finished file could.
        try:
            self._mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            self._mode = 0o666 & ~_umask()
        with contextlib.suppress(OSError):
            os.fchmod(descriptor, self._mode)
        mode = "wb" if binary else "w"
        self.stream: IO[str] | IO[bytes]
        if binary:
            self.stream = os.fdopen(descriptor, mode)
        else:
            self.stream = os.fdopen(descriptor, mode, encoding="utf-8", newline="\n")
        self._done = False

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        if kind is None or self.keep_partial:
            self.commit()
        else:
            self.discard()

    def commit(self) -> None:
        """Flush, sync and rename the temporary file over the destination."""
        if self._done:
            return
        self._done = True
        try:
            self.stream.flush()
            os.fsync(self.stream.fileno())
            self.stream.close()
            os.chmod(self._temporary, self._mode)
            os.replace(self._temporary, self._target)
        except OSError as error:
            with contextlib.suppress(OSError):
                self.stream.close()
            with contextlib.suppress(OSError):
                self._temporary.unlink()
            raise OutputError(
                FileProblem.WRITE_FAILED, self.path, error.strerror or str(error)
            ) from None

    def guarded(self) -> Any:
        """The stream, but a write or flush that fails (a full disk) throws the file away,
        leaving the destination as it was, and raises :class:`OutputError` (a failure to
        write is not an interruption: no partial file is kept)."""
        return _FailingWrites(self)

    def discard(self) -> None:
        """Throw the temporary file away; the destination is untouched."""
        if self._done:
            return
        self._done = True
        with contextlib.suppress(OSError):
            self.stream.close()
        with contextlib.suppress(OSError):
            self._temporary.unlink()


class _FailingWrites:
    """An :class:`AtomicFile`'s stream whose write failures end the file (see ``guarded``)."""

    def __init__(self, file: AtomicFile) -> None:
        self._file = file

    def write(self, text: Any) -> int:
        try:
            return self._file.stream.write(text)
        except OSError as error:
            raise self._failed(error) from None

    def flush(self) -> None:
        try:
            self._file.stream.flush()
        except OSError as error:
            raise self._failed(error) from None

    def _failed(self, error: OSError) -> OutputError:
        self._file.discard()
        return OutputError(FileProblem.WRITE_FAILED, self._file.path, error.strerror or str(error))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file.stream, name)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(path: str | os.PathLike[str], content: str | bytes) -> None:
    """Write ``content`` to ``path`` atomically; raise :class:`OutputError` on failure."""
    with AtomicFile(path, binary=isinstance(content, bytes)) as out:
        try:
            out.stream.write(content)  # type: ignore[arg-type]
        except OSError as error:
            out.discard()
            raise OutputError(
                FileProblem.WRITE_FAILED, path, error.strerror or str(error)
            ) from None
