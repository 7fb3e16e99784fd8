"""Hostile files and outputs, handled as a trusted tool handles them.

Each item runs the real ``matador`` in a subprocess (``run_matador``: a hard
timeout, no traceback, no process left behind) and checks the exit status and
a message that names the problem and the file, with its line and column where
there is one. Inputs that are not regular files are refused before they are
read (a pipe never blocks, ``/dev/zero`` is never streamed); files over the
size limit are refused before they are parsed; YAML that readers disagree on
is refused where it is written. Outputs that cannot be written end with a
clear message, and an existing file is never destroyed or truncated.
"""

from __future__ import annotations

import fcntl
import os
import select
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fitting import flat

from reference_engine.conformance.suite.casedata import load_cases
from reference_engine.exits import ExitStatus
from reference_engine.rules import Catalog
from reference_engine.safeio import DEFAULT_LIMITS, FileKind

from .harness import Finished, matador_argv, run_matador

#: Every test here runs the real command in subprocesses: slow (run with --slow).
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SHIPPED_VARIANT = REPO / "variants" / "gamerules-com.yaml"
YAML_LIMIT = DEFAULT_LIMITS[FileKind.YAML]

#: A small valid case file; hostile versions change its last line.
CASE_FILE = """\
suite_version: "1.0"
cases:
  - id: hostile-redeal-without-doubles
    description: Two players and no double in either hand; the hand is void.
    applies_to:
      - {variant: gamerules-com}
    exercises: [nobody_has_double=redeal, players=2, hand_size=7]
    cite:
      - publication: gamerules-com
        text: "000"
        section: "Distribution et pioche : là où les sources divergent"
        says: The survey lists gamerules.com among the sources where the highest double opens.
    deal:
      hands:
        - ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2"]
        - ["1-3", "1-4", "1-5", "1-6", "2-3", "2-4", "2-5"]
    steps:
      - act: "0-1"
        error: hand_over
    result: {termination: redeal, winner: null, points: [0, 0]}
"""
CASE_POINTS = "points: [0, 0]"

#: The rule entries of the shipped variant where a boolean and a count are written.
BOOLEAN_ENTRY = "  double_blank_opens:\n    value: true\n"
COUNT_ENTRY = "  max_pip:\n    value: 6\n"


# --------------------------------------------------------------------------- helpers


def position(text: str, needle: str) -> tuple[int, int]:
    """The 1-based line and column where ``needle`` first occurs in ``text``."""
    offset = text.index(needle)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def variant_text(old: str = "", new: str = "") -> str:
    """The shipped gamerules-com variant under the id ``my-variant``, with one edit."""
    text = SHIPPED_VARIANT.read_text(encoding="utf-8")
    text = text.replace("id: gamerules-com\n", "id: my-variant\n", 1)
    if old:
        assert text.count(old) == 1, f"{old!r} is not in the shipped variant once"
        text = text.replace(old, new)
    return text


def case_text(points: str) -> str:
    """The small case file with ``points: [0, POINTS]`` in its result."""
    return CASE_FILE.replace(CASE_POINTS, f"points: [0, {points}]")


def assert_refused(result: Finished, status: int, *needles: str) -> None:
    """``result`` ended with ``status`` and its messages say every one of ``needles``."""
    assert result.status == status, result.output
    for needle in needles:
        assert flat(needle) in flat(result.stderr), f"{needle!r} not in:\n{result.stderr}"


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A folder with a short path: a socket's path must fit in 108 bytes."""
    folder = Path(tempfile.mkdtemp(prefix="mh-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# --------------------------------------------------------------------------- what is not a file


@dataclass(frozen=True)
class NotAFile:
    """A path that must be refused before anything is read, and what the refusal says."""

    make: Callable[[Path], Path]
    says: str
    fix: str = ""


def _fifo(folder: Path) -> Path:
    path = folder / "pipe.yaml"
    os.mkfifo(path)
    return path


def _socket(folder: Path) -> Path:
    path = folder / "sock.yaml"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.close()  # the socket file stays behind, which is what the test needs
    return path


def _loop(folder: Path) -> Path:
    (folder / "a.yaml").symlink_to(folder / "b.yaml")
    (folder / "b.yaml").symlink_to(folder / "a.yaml")
    return folder / "a.yaml"


def _dangling(folder: Path) -> Path:
    path = folder / "dangling.yaml"
    path.symlink_to(folder / "nowhere.yaml")
    return path


def _link_to_fifo(folder: Path) -> Path:
    path = folder / "link.yaml"
    path.symlink_to(_fifo(folder))
    return path


def _huge(folder: Path) -> Path:
    path = folder / "huge.yaml"
    with path.open("wb") as out:
        out.truncate(40_000_000)  # 40 MB, sparse: quick to make, slow to read
    return path


NOT_FILES = {
    "fifo": NotAFile(_fifo, "a named pipe, not a regular file"),
    "dev-zero": NotAFile(lambda _: Path("/dev/zero"), "a character device, not a regular file"),
    "dev-null": NotAFile(lambda _: Path("/dev/null"), "a character device, not a regular file"),
    "socket": NotAFile(_socket, "a socket, not a regular file"),
    "symlink-loop": NotAFile(_loop, "a loop of symbolic links", "point the link at a file"),
    "dangling-symlink": NotAFile(_dangling, "no such file", "check the path"),
    "symlink-to-fifo": NotAFile(_link_to_fifo, "a named pipe, not a regular file"),
    "missing": NotAFile(lambda folder: folder / "absent.yaml", "no such file", "check the path"),
    "40-mb": NotAFile(_huge, "larger than the limit of 1,000,000 bytes", "--max-bytes"),
    "name-too-long": NotAFile(
        lambda folder: folder / ("a" * 300 + ".yaml"), "the file name is too long"
    ),
}


@pytest.mark.parametrize("case", [pytest.param(c, id=n) for n, c in NOT_FILES.items()])
def test_validate_refuses_what_is_not_a_readable_file(case: NotAFile, short_dir: Path) -> None:
    path = case.make(short_dir)

    result = run_matador("validate", str(path), timeout=10)

    assert_refused(result, ExitStatus.INVALID, f"{path}: cannot read the file: {case.says}")
    assert flat(case.fix) in flat(result.stderr)
    assert result.stderr.endswith("1 problem(s) in 1 file(s) checked\n")
    assert result.seconds < 2.5  # mostly the interpreter starting; nothing is read


@pytest.mark.parametrize("name", ["fifo", "40-mb"])
def test_conform_refuses_a_case_path_that_is_not_a_readable_file(
    name: str, short_dir: Path
) -> None:
    case = NOT_FILES[name]
    path = case.make(short_dir)

    result = run_matador("conform", "--cases", str(path), timeout=10)

    assert_refused(result, ExitStatus.BROKEN_CASE, f"{path}: cannot read the file: {case.says}")


@pytest.mark.parametrize("name", ["fifo", "dev-zero"])
def test_explain_refuses_a_situation_that_is_not_a_readable_file(
    name: str, short_dir: Path
) -> None:
    case = NOT_FILES[name]
    path = case.make(short_dir)

    result = run_matador("explain", str(path), timeout=10)

    assert_refused(
        result, ExitStatus.INVALID, f"matador explain: {path}: cannot read the file: {case.says}"
    )


def test_explain_refuses_a_directory(tmp_path: Path) -> None:
    result = run_matador("explain", str(tmp_path), timeout=10)

    assert_refused(result, ExitStatus.INVALID, f"{tmp_path}: cannot read the file: a directory")


def test_validate_refuses_a_directory_as_invalid_input(tmp_path: Path) -> None:
    result = run_matador("validate", str(tmp_path), timeout=10)

    assert_refused(
        result,
        ExitStatus.INVALID,
        f"matador validate: {tmp_path} is a directory; give variant files",
    )


# --------------------------------------------------------------------------- size limit


def limit_sized(size: int) -> bytes:
    """A file of ``size`` bytes that is broken at its first byte: once read, it fails at once."""
    return b"]\n#" + b"x" * (size - 4) + b"\n"


def test_a_file_at_the_size_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "my-variant.yaml"
    path.write_bytes(limit_sized(YAML_LIMIT))
    assert path.stat().st_size == YAML_LIMIT

    result = run_matador("validate", str(path))

    assert_refused(result, ExitStatus.INVALID, f"{path}:1:1: $: ", "found ']'")
    assert "larger than the limit" not in result.stderr


def test_a_file_one_byte_over_the_limit_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "my-variant.yaml"
    path.write_bytes(limit_sized(YAML_LIMIT + 1))

    result = run_matador("validate", str(path))

    assert_refused(
        result,
        ExitStatus.INVALID,
        f"{path}: cannot read the file: larger than the limit of 1,000,000 bytes "
        "(if the file is really meant, raise the limit with --max-bytes)",
    )
    assert "found ']'" not in result.stderr


def test_max_bytes_raises_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "my-variant.yaml"
    path.write_bytes(limit_sized(YAML_LIMIT + 1))

    result = run_matador("validate", "--max-bytes", str(YAML_LIMIT + 1), str(path))

    assert_refused(result, ExitStatus.INVALID, f"{path}:1:1: $: ", "found ']'")
    assert "larger than the limit" not in result.stderr


def test_max_bytes_applies_to_case_files(tmp_path: Path) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text(CASE_FILE, encoding="utf-8")

    result = run_matador("conform", "--max-bytes", "100", "--cases", str(path))

    assert_refused(
        result,
        ExitStatus.BROKEN_CASE,
        f"{path}: cannot read the file: larger than the limit of 100",
    )


def test_max_bytes_applies_to_situation_files(tmp_path: Path) -> None:
    path = tmp_path / "table.yaml"
    path.write_text("players: 2\nhand: [3-4]\nends: [0, 3]\n", encoding="utf-8")

    result = run_matador("explain", "--max-bytes", "10", str(path))

    # A file over the limit is a bad input (1), as a missing or unreadable one is.
    says = f"{path}: cannot read the file: larger than the limit"
    assert_refused(result, ExitStatus.INVALID, says)


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["validate", "--max-bytes", "0"], id="validate-zero"),
        pytest.param(["validate", "--max-bytes", "-1"], id="validate-negative"),
        pytest.param(["validate", "--max-bytes", "abc"], id="validate-text"),
        pytest.param(["validate", "--max-bytes", "1.5"], id="validate-fraction"),
        pytest.param(["replay", "--max-bytes", "abc", "x.json"], id="replay-text"),
    ],
)
def test_max_bytes_must_be_a_positive_whole_number(argv: list[str]) -> None:
    result = run_matador(*argv)

    assert_refused(result, ExitStatus.USAGE, "argument --max-bytes: give a positive whole number")
    assert repr(argv[2]) in result.stderr


# --------------------------------------------------------------------------- hostile contents


@pytest.mark.parametrize(
    ("content", "says", "line"),
    [
        pytest.param(b"[" * 10_000 + b"]" * 10_000, "nest more than 100 levels", 1, id="deep-list"),
        pytest.param(
            b"{a: " * 10_000 + b"}" * 10_000, "nest more than 100 levels", 1, id="deep-map"
        ),
        pytest.param(
            "".join("  " * i + "a:\n" for i in range(150)).encode(),
            "nest more than 100 levels",
            101,
            id="deep-block-map",
        ),
        pytest.param(b"id: caf\xe9\n", "not UTF-8: byte 0xe9", 1, id="latin-1"),
        pytest.param(b"id: a\x00b\n", "is not allowed in YAML", 1, id="nul-byte"),
        pytest.param(b"", "a variant file must be a mapping of fields", 1, id="empty"),
        pytest.param(
            b"just a scalar\n", "a variant file must be a mapping of fields", 1, id="scalar"
        ),
        pytest.param(b"- a\n- b\n", "a variant file must be a mapping of fields", 1, id="list"),
    ],
)
def test_validate_refuses_hostile_contents_where_they_are(
    tmp_path: Path, content: bytes, says: str, line: int
) -> None:
    path = tmp_path / "variant.yaml"
    path.write_bytes(content)

    result = run_matador("validate", str(path), timeout=15)

    assert_refused(result, ExitStatus.INVALID, says, f"{path}:{line}:")


# --------------------------------------------------------------------------- YAML 1.1 surprises

#: Plain scalars that YAML readers disagree on: the form and a word of its message.
BOOLEAN_SAYS = "is a boolean to some YAML readers and text to others"
SCALAR_FORMS = {
    **{word: BOOLEAN_SAYS for word in ("yes", "no", "on", "off", "y", "n")},
    "017": "octal",
    "0o17": "a number to some YAML readers and text to others",
    "1:30": "base-60",
    "1_000": "underscores are not allowed in numbers",
    ".nan": "not-a-number and infinity are not allowed",
    ".inf": "not-a-number and infinity are not allowed",
}
#: Forms refused in variant files only: spellings of booleans and numbers beyond YAML 1.1's.
VARIANT_ONLY_FORMS = {"True": BOOLEAN_SAYS, "oFF": BOOLEAN_SAYS, "0x1F": "hexadecimal"}

FLOATS_FOR_COUNTS = {
    "max-pip": (COUNT_ENTRY, COUNT_ENTRY.replace("6", "6.0"), "$.rules.max_pip.value"),
    "players": ("value: [2, 3, 4]", "value: [2, 3.0, 4]", "$.rules.players.value[1]"),
}


@dataclass(frozen=True)
class Batch:
    """One run of matador over many hostile files, each in a folder of its own."""

    paths: dict[str, Path]
    texts: dict[str, str]
    result: Finished


def _variant_edit(form: str) -> tuple[str, str]:
    """Where a scalar form goes in the variant: a boolean rule for words, else a count."""
    if form.lower() in {"yes", "no", "on", "off", "y", "n", "true", "false"}:
        return BOOLEAN_ENTRY, BOOLEAN_ENTRY.replace("true", form)
    return COUNT_ENTRY, COUNT_ENTRY.replace("6", form)


@pytest.fixture(scope="module")
def variant_batch(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    """``matador validate`` over one variant file per hostile form (it reports every file)."""
    root = tmp_path_factory.mktemp("variants")
    edits = {form: _variant_edit(form) for form in {**SCALAR_FORMS, **VARIANT_ONLY_FORMS}}
    edits.update({name: (old, new) for name, (old, new, _) in FLOATS_FOR_COUNTS.items()})
    paths, texts = {}, {}
    for index, (name, (old, new)) in enumerate(edits.items()):
        path = root / str(index) / "my-variant.yaml"
        path.parent.mkdir()
        texts[name] = variant_text(old, new)
        path.write_text(texts[name], encoding="utf-8")
        paths[name] = path
    return Batch(paths, texts, run_matador("validate", *map(str, paths.values())))


@pytest.fixture(scope="module")
def case_batch(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    """``matador conform --cases`` over one case file per hostile form."""
    root = tmp_path_factory.mktemp("cases")
    paths, texts = {}, {}
    for index, form in enumerate([*SCALAR_FORMS, "6.0"]):
        path = root / f"{index}.yaml"
        texts[form] = case_text(form)
        path.write_text(texts[form], encoding="utf-8")
        paths[form] = path
    argv = [item for path in paths.values() for item in ("--cases", str(path))]
    return Batch(paths, texts, run_matador("conform", *argv))


def _problem_line(result: Finished, prefix: str) -> str:
    """The one message of ``result`` that starts with ``prefix``."""
    found = [line for line in result.messages if line.startswith(prefix)]
    assert len(found) == 1, f"{prefix!r} once in:\n{result.stderr}"
    return found[0]


@pytest.mark.parametrize("form", [*SCALAR_FORMS, *VARIANT_ONLY_FORMS])
def test_variant_scalar_readers_disagree_on_is_refused_where_it_is(
    variant_batch: Batch, form: str
) -> None:
    path, text = variant_batch.paths[form], variant_batch.texts[form]
    line, column = position(text, f"value: {form}\n")
    json_path = (
        "$.rules.max_pip.value"
        if "max_pip" in _variant_edit(form)[0]
        else ("$.rules.double_blank_opens.value")
    )

    message = _problem_line(variant_batch.result, f"{path}:{line}:{column + 7}: {json_path}: ")

    assert variant_batch.result.status == ExitStatus.INVALID
    assert repr(form) in message
    assert {**SCALAR_FORMS, **VARIANT_ONLY_FORMS}[form] in message
    assert message.endswith("or quote it if you mean the text)")


@pytest.mark.parametrize("name", FLOATS_FOR_COUNTS)
def test_variant_float_for_a_count_is_refused_where_it_is(variant_batch: Batch, name: str) -> None:
    path = variant_batch.paths[name]
    json_path = FLOATS_FOR_COUNTS[name][2]

    message = _problem_line(variant_batch.result, f"{path}:")

    assert variant_batch.result.status == ExitStatus.INVALID
    assert f": {json_path}: " in message
    assert message.endswith("is not of type 'integer' (give a value of type integer)")


def test_the_small_case_file_is_valid() -> None:
    """The hostile case files differ from this valid one in one value only."""
    directory = Path(tempfile.mkdtemp(prefix="mh-"))
    try:
        path = directory / "cases.yaml"
        path.write_text(CASE_FILE, encoding="utf-8")
        cases, problems = load_cases([path], Catalog.shipped())
    finally:
        shutil.rmtree(directory)
    assert problems == []
    assert [case.id for case in cases] == ["hostile-redeal-without-doubles"]


@pytest.mark.parametrize("form", [*SCALAR_FORMS, "6.0"])
def test_case_file_scalar_readers_disagree_on_is_refused_where_it_is(
    case_batch: Batch, form: str
) -> None:
    path, text = case_batch.paths[form], case_batch.texts[form]
    line, column = position(text, f"[0, {form}]")
    where = f"{path}:{line}:{column + 4}: $.cases[0].result.points[1]: "

    message = _problem_line(case_batch.result, where)

    assert case_batch.result.status == ExitStatus.BROKEN_CASE
    if form == "6.0":
        assert message.endswith("6.0 is not of type 'integer' (give a value of type integer)")
    else:
        assert repr(form) in message
        assert SCALAR_FORMS[form] in message
        assert message.endswith("or quote it if you mean the text)")


# --------------------------------------------------------------------------- standard output


@pytest.mark.parametrize(
    "argv", [["list"], ["compare"], ["show", "gamerules-com"]], ids=["list", "compare", "show"]
)
def test_output_to_a_pipe_nobody_reads_ends_quietly(argv: list[str]) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the first byte is written
    try:
        completed = subprocess.run(
            matador_argv(*argv), stdout=writer, stderr=subprocess.PIPE, timeout=30, check=False
        )
    finally:
        os.close(writer)

    assert completed.returncode == ExitStatus.BROKEN_PIPE
    assert completed.stderr == b""


def test_output_to_a_reader_that_stops_after_one_line_ends_quietly() -> None:
    reader, writer = os.pipe()
    # A small pipe, so that compare (about 24 kB) is still writing when the reader goes.
    fcntl.fcntl(writer, fcntl.F_SETPIPE_SZ, 4096)
    # Buffered, as a user's shell runs it: unbuffered, CPython's text layer drops
    # the rest of a short write to a pipe instead of raising.
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    process = subprocess.Popen(
        matador_argv("compare"), stdout=writer, stderr=subprocess.PIPE, env=environment
    )
    os.close(writer)
    first = b""
    try:
        while not first.endswith(b"\n"):
            ready, _, _ = select.select([reader], [], [], 30)
            assert ready, "no first line within 30 s"
            chunk = os.read(reader, 1)
            assert chunk, "standard output closed before a first line"
            first += chunk
    finally:
        os.close(reader)  # as `matador compare | head -1` does
    try:
        _, errors = process.communicate(timeout=30)
    finally:
        process.kill()

    assert first.strip()
    assert process.returncode == ExitStatus.BROKEN_PIPE
    assert errors == b""


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["compare"], "compare"),
        (["show", "gamerules-com", "--json"], "show"),
    ],
    ids=["compare", "show-json"],
)
def test_output_to_a_full_disk_is_a_clear_error(argv: list[str], command: str) -> None:
    with open("/dev/full", "wb") as full:
        completed = subprocess.run(
            matador_argv(*argv), stdout=full, stderr=subprocess.PIPE, timeout=30, check=False
        )

    assert completed.returncode == ExitStatus.INVALID
    assert completed.stderr.decode() == (
        f"matador {command}: cannot write the output: No space left on device\n"
    )


# --------------------------------------------------------------------------- sheet -o


SHEET = ["sheet", "gamerules-com", "--format", "markdown"]


@pytest.mark.parametrize(
    ("make", "says"),
    [
        pytest.param(
            lambda folder: folder / "no" / "sheet.md", "does not exist", id="missing-folder"
        ),
        pytest.param(lambda folder: folder, "give the path of a regular file", id="directory"),
        pytest.param(_fifo, "a named pipe", id="fifo"),
        pytest.param(_loop, "a dangling or looping symbolic link", id="symlink-loop"),
        pytest.param(lambda folder: folder / ("a" * 300), "name is too long", id="name-too-long"),
    ],
)
def test_sheet_refuses_an_output_it_cannot_write(
    short_dir: Path, make: Callable[[Path], Path], says: str
) -> None:
    path = make(short_dir)

    result = run_matador(*SHEET, "-o", str(path), timeout=10)

    assert_refused(result, ExitStatus.USAGE, f"matador sheet: cannot write {path}: ", says)
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("extra", "status"),
    [
        pytest.param(["--lang", "xx"], ExitStatus.USAGE, id="unknown-language"),
        pytest.param(["--option", "draw=sometimes"], ExitStatus.INVALID, id="unknown-option-value"),
    ],
)
def test_sheet_failing_leaves_an_existing_file_unchanged(
    tmp_path: Path, extra: list[str], status: int
) -> None:
    path = tmp_path / "sheet.md"
    path.write_text("the sheet I printed last week\n", encoding="utf-8")

    result = run_matador(*SHEET, *extra, "-o", str(path))

    assert result.status == status, result.output
    assert path.read_text(encoding="utf-8") == "the sheet I printed last week\n"
    assert sorted(tmp_path.iterdir()) == [path]


def test_sheet_replaces_an_existing_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "sheet.md"
    path.write_text("old\n" * 100_000, encoding="utf-8")

    result = run_matador(*SHEET, "-o", str(path))

    assert result.status == ExitStatus.OK, result.output
    assert result.stdout == f"matador sheet: wrote {path}\n"
    assert path.read_text(encoding="utf-8").startswith("<!-- Generated by `matador sheet")
    assert "old\n" not in path.read_text(encoding="utf-8")
    assert sorted(tmp_path.iterdir()) == [path]  # no temporary file left beside it


@pytest.mark.parametrize("digits", [101, 5000, 100_000])
def test_a_number_too_long_to_read_is_refused_where_it_is(tmp_path: Path, digits: int) -> None:
    """Python reads at most 4300 digits; no rule value needs more than a few."""
    path = tmp_path / "my-variant.yaml"
    text = variant_text(COUNT_ENTRY, COUNT_ENTRY.replace("6", "9" * digits))
    path.write_text(text, encoding="utf-8")
    line, _ = position(text, "value: 999")

    result = run_matador("validate", str(path))

    assert_refused(result, ExitStatus.INVALID, f"a number of {digits:,} digits", f"{path}:{line}:")
