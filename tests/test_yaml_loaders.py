"""The two YAML loaders, libyaml and PyYAML's own, read every document alike, equally strictly.

Files are parsed by libyaml where PyYAML has it (reference_engine/rules/yamldoc.py),
which must change nothing a reader sees: every hostile or odd document is refused
by both loaders with the same problem at the same place, in the same words, and
every valid one is read into the same data and positions. The strictness cases
run through both loaders; a differential test feeds both the same generated
text; the pure-Python loader still does the whole job where libyaml is missing.
What the project's own files were read into is remembered between runs, and that
must not change what is read either.
"""

from __future__ import annotations

import functools
import marshal
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples
from test_loader import BILLION_LAUGHS

from reference_engine.rules import Problem, ProblemCode
from reference_engine.rules.yamldoc import (
    LOADERS,
    MAX_DEPTH,
    MAX_VALUES,
    Document,
    LibyamlLoader,
    libyaml_agrees,
    parse_yaml,
    read_yaml_file,
)

REPO = Path(__file__).resolve().parents[1]

#: Every YAML file the project ships.
SHIPPED = sorted(
    [
        *(REPO / "variants").glob("*.yaml"),
        *(REPO / "conformance").rglob("*.yaml"),
        *(REPO / "spec").glob("*.yaml"),
        *(REPO / "reference_engine").rglob("*.yaml"),
    ]
)


@functools.cache
def _parsed(raw: bytes, loader: str) -> tuple[Document | None, list[Problem]]:
    """``parse_yaml(raw, "x.yaml", loader=loader)``, once per document and loader.

    The strictness cases read each refused document twice (for each loader's own
    verdict, and to compare the two), and a few of them are large on purpose.
    """
    return parse_yaml(raw, "x.yaml", loader=loader)


def _reading(raw: bytes, loader: str) -> tuple[object, object, list[str]]:
    """What ``loader`` reads ``raw`` into: data, positions and every problem as printed."""
    document, problems = _parsed(raw, loader)
    if document is None:
        return None, None, [str(problem) for problem in problems]
    return document.data, document.positions, []


# --------------------------------------------------------------------------- strictness

#: Plain scalars YAML readers disagree on, or that are easily misread.
AMBIGUOUS = ["yes", "No", "ON", "off", "y", "N", "True", "017", "00", "0x1F", "0b101", "0o17"]
AMBIGUOUS += ["089", "1e3", "1:30", "-1:30:00", "1_000", "1_000.5", ".nan", ".inf", "-.Inf"]

#: Documents either loader must refuse: (text, code, line, column, document path).
REFUSED = [
    pytest.param(b"a: 1\nb: 2\na: 3\n", ProblemCode.DUPLICATE_KEY, 3, 1, "$.a", id="duplicate"),
    pytest.param(b"x:\n  k: 1\n  k: 2\n", ProblemCode.DUPLICATE_KEY, 3, 3, "$.x.k", id="dup-deep"),
    pytest.param(b"{a: 1, a: 2}\n", ProblemCode.DUPLICATE_KEY, 1, 8, "$.a", id="dup-flow"),
    pytest.param(
        b"base: &x {a: 1}\nother:\n  <<: *x\n  b: 2\n",
        ProblemCode.YAML_ALIAS,
        3,
        3,
        "$.other",
        id="merge-key",
    ),
    pytest.param(b"&a [*a]\n", ProblemCode.YAML_ALIAS, 1, 1, "$[0]", id="recursive-alias"),
    pytest.param(
        b"loop: &a {self: *a}\n", ProblemCode.YAML_ALIAS, 1, 7, "$.loop.self", id="recursive-map"
    ),
    pytest.param(b"a: *nowhere\n", ProblemCode.YAML_SYNTAX, 1, 4, "$", id="undefined-alias"),
    pytest.param(b"a: &x 1\nb: &x 2\n", ProblemCode.YAML_SYNTAX, 2, 4, "$", id="anchor-twice"),
    pytest.param(b"x: !!python/object:os.system {}\n", ProblemCode.YAML_TAG, 1, 4, "$.x", id="tag"),
    pytest.param(b"x: !include other.yaml\n", ProblemCode.YAML_TAG, 1, 4, "$.x", id="local-tag"),
    pytest.param(b"x: !!binary aGk=\n", ProblemCode.YAML_TAG, 1, 4, "$.x", id="binary"),
    pytest.param(b"1: one\n", ProblemCode.NON_STRING_KEY, 1, 1, "$", id="int-key"),
    pytest.param(b"yes: one\n", ProblemCode.NON_STRING_KEY, 1, 1, "$", id="bool-key"),
    pytest.param(b"? [1, 2]\n: x\n", ProblemCode.NON_STRING_KEY, 1, 3, "$", id="list-key"),
    *[
        pytest.param(
            f"v: {form}\n".encode(), ProblemCode.YAML_AMBIGUOUS, 1, 4, "$.v", id=f"ambiguous-{form}"
        )
        for form in AMBIGUOUS
    ],
    pytest.param(b"v: [1, yes]\n", ProblemCode.YAML_AMBIGUOUS, 1, 8, "$.v[1]", id="ambiguous-flow"),
    pytest.param(
        b"v: " + b"9" * 101 + b"\n", ProblemCode.YAML_SYNTAX, 1, 4, "$.v", id="long-number"
    ),
    pytest.param(b"a: 1\nb: 'x\x07'\n", ProblemCode.YAML_SYNTAX, 2, 6, "$", id="control"),
    pytest.param(b"a: \x00\n", ProblemCode.YAML_SYNTAX, 1, 4, "$", id="nul"),
    pytest.param(b"a: 1\nb: \xe9\n", ProblemCode.NOT_UTF8, 2, 4, "$", id="latin-1"),
    pytest.param(b"a: [1, 2\nb: 3\n", ProblemCode.YAML_SYNTAX, 2, 2, "$", id="unclosed-flow"),
    pytest.param(b"a: b: c\n", ProblemCode.YAML_SYNTAX, 1, 5, "$", id="mapping-values"),
    pytest.param(b"a: 'open\n", ProblemCode.YAML_SYNTAX, 2, 1, "$", id="unclosed-quote"),
    pytest.param(b'a: "\\q"\n', ProblemCode.YAML_SYNTAX, 1, 6, "$", id="bad-escape"),
    pytest.param(b"--- 1\n--- 2\n", ProblemCode.YAML_SYNTAX, 2, 1, "$", id="two-documents"),
    pytest.param(b"a:\tb\n", ProblemCode.YAML_SYNTAX, 1, 3, "$", id="tab-separator"),
    pytest.param(b"a: x\ty\n", ProblemCode.YAML_SYNTAX, 1, 5, "$", id="tab-in-plain"),
    pytest.param(b"a: |#\n  x\n", ProblemCode.YAML_SYNTAX, 1, 5, "$", id="block-header"),
    pytest.param(b"[a ?b]\n", ProblemCode.YAML_SYNTAX, 1, 4, "$", id="flow-question"),
    pytest.param(
        b"[" * 10_000 + b"]" * 10_000,
        ProblemCode.YAML_DEPTH,
        1,
        MAX_DEPTH + 1,
        "$",
        id="deep-flow",
        marks=pytest.mark.slow,  # a hostile document, as the other hostile-input tests
    ),
    pytest.param(
        b"- " * 10_000 + b"x\n", ProblemCode.YAML_DEPTH, 1, 2 * MAX_DEPTH + 1, "$", id="deep-block"
    ),
    pytest.param(
        BILLION_LAUGHS.encode(),
        ProblemCode.YAML_ALIAS,
        None,
        None,
        "$",
        id="billion-laughs",
        marks=pytest.mark.slow,  # a hostile document, as the other hostile-input tests
    ),
]


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize(("raw", "code", "line", "column", "json_path"), REFUSED)
def test_each_loader_refuses_where_and_why_the_other_does(
    loader: str, raw: bytes, code: ProblemCode, line: int | None, column: int | None, json_path: str
) -> None:
    document, problems = _parsed(raw, loader)

    assert document is None
    assert [problem.code for problem in problems][:1] == [code]
    first = problems[0]
    if line is not None:
        assert (first.line, first.column) == (line, column)
    assert first.json_path == json_path
    if code is ProblemCode.YAML_ALIAS and line is None:
        assert f"more than {MAX_VALUES} values" in first.message


@pytest.mark.parametrize(("raw", "code", "line", "column", "json_path"), REFUSED)
def test_both_loaders_say_the_very_same(
    raw: bytes, code: ProblemCode, line: int | None, column: int | None, json_path: str
) -> None:
    readings = {loader: _reading(raw, loader) for loader in LOADERS}

    assert len({repr(reading) for reading in readings.values()}) == 1, readings


#: Valid documents whose marks libyaml would place otherwise than PyYAML.
ODD = [
    pytest.param(b"? a", id="empty-value-at-the-end"),
    pytest.param(b"a: 1\n? b", id="empty-value-after-a-line"),
    pytest.param(b"---", id="empty-document"),
    pytest.param(b"{a: , b: 1}\n", id="empty-flow-value"),
    pytest.param(b"[a, {b: }]\n", id="empty-nested-flow-value"),
    pytest.param(b"a: !!str x\nb: ! x\n", id="explicit-tags"),
    pytest.param(b"a: x\xc2\x85b: z\n", id="next-line"),
    pytest.param(b"a: x\xe2\x80\xa8b: z\n", id="line-separator"),
    pytest.param(b'a: "x\xc2\x85y"\nb: 1\n', id="next-line-quoted"),
    pytest.param("a\ufeffb: c\n".encode(), id="byte-order-mark-in-a-key"),
    pytest.param("[a\ufeff, b]\n".encode(), id="byte-order-mark-in-a-list"),
    pytest.param(b"a: 'x\xef\xbb\xbfy'\nb: 1\n", id="byte-order-mark-inside"),
]


@pytest.mark.parametrize("raw", ODD)
def test_both_loaders_read_odd_documents_alike(raw: bytes) -> None:
    readings = [_reading(raw, loader) for loader in LOADERS]

    assert readings[0][2] == []
    assert all(reading == readings[0] for reading in readings), readings


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("v: true\n", {"v": True}),
        ("v: +5\n", {"v": 5}),
        ("v: -0.0\n", {"v": -0.0}),
        ("v: ~\n", {"v": None}),
        ("v:\n", {"v": None}),
        ("v: {a: 1, b: [x, 'y', \"z\"]}\n", {"v": {"a": 1, "b": ["x", "y", "z"]}}),
        ("a: &c {p: 1}\nb: *c\n", {"a": {"p": 1}, "b": {"p": 1}}),
        ("v: |\n  two\n  lines\n", {"v": "two\nlines\n"}),
        ("v: >-\n  folded\n  text\n", {"v": "folded text"}),
        ("v: 'a\tb'\n", {"v": "a\tb"}),
        ("v: 2-5@R:5\n", {"v": "2-5@R:5"}),
        ("\ufeffv: 1\n", {"v": 1}),
        ("v: 1", {"v": 1}),
        ("v: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n", None),
    ],
)
def test_each_loader_reads_what_is_valid(loader: str, text: str, value: object) -> None:
    document, problems = parse_yaml(text.encode(), "ok.yaml", loader=loader)

    assert problems == []
    assert document is not None
    if value is not None:
        assert document.data == value


def test_an_unknown_loader_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="no YAML loader"):
        parse_yaml(b"a: 1\n", "x.yaml", loader="fast")


# --------------------------------------------------------------------------- the shipped files


def _read_alike_in_the_quick_loop(path: Path) -> bool:
    """Whether the quick loop reads ``path`` with both loaders, or leaves it to ``--slow``.

    The pure-Python reader takes seconds over all the files. The quick loop reads
    every variant, spec and catalogue file, and one of the twenty case files and of
    each language's prose files (gamerules-com's, as they all share one shape);
    libyaml's own check below still reads every file, and CI compares them all.
    """
    relative = path.relative_to(REPO)
    many = relative.parts[0] == "conformance" or "prose" in relative.parts
    return not many or path.stem == "gamerules-com"


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(
            path,
            marks=() if _read_alike_in_the_quick_loop(path) else pytest.mark.slow,
            id=str(path.relative_to(REPO)),
        )
        for path in SHIPPED
    ],
)
def test_shipped_files_are_read_alike_by_both_loaders(path: Path) -> None:
    raw = path.read_bytes()
    readings = [parse_yaml(raw, str(path), loader=loader) for loader in LOADERS]

    for document, problems in readings:
        assert document is not None, problems
        assert (document.data, document.positions) == (
            readings[0][0].data,  # type: ignore[union-attr]
            readings[0][0].positions,  # type: ignore[union-attr]
        )


@pytest.mark.skipif("libyaml" not in LOADERS, reason="PyYAML was built without libyaml")
@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: str(path.relative_to(REPO)))
def test_shipped_files_are_read_by_libyaml_itself(path: Path) -> None:
    """None of them needs PyYAML's slower reader, so every command reads them fast."""
    text = path.read_text(encoding="utf-8-sig")

    assert libyaml_agrees(text)
    assert LibyamlLoader(text).get_single_node() is not None


# --------------------------------------------------------------------------- differential

#: Pieces of YAML, legal and not, from which the differential tests build documents.
_PIECES = [
    *[" ", "  ", "\n", "\n  ", "\n- ", ": ", ":", "-", "- ", "?", "? ", "[", "]", "{", "}"],
    *[",", ", ", "#", " #", "&a ", "*a", "&b ", "*b", "!", "!!str ", "!x ", "|", "|-", ">"],
    *["'", '"', "%", "@", "`", "\\", "\t", "\r\n", "\x85", "\u2028", "\ufeff", "é", "~"],
    *["---", "\n...\n", "yes", "0o7", "1e3", "1:2", "<<", "null", "x", "key", "1", "0", "."],
]

#: Scalars as written, among them every kind libyaml and PyYAML might read apart.
_SCALARS = [
    *["x", "a b", "a\tb", "a \tb", "?x", "x?y", "x ?y", "", "~", "null", "yes", "n", "1", "-1"],
    *["+1", "1.5", "1e3", "017", "0o7", "1:30", "1_0", ".inf", "'q'", "'a\tb'", '"d"', '"\\t"'],
    *['"\\q"', "a:b", "a: b", "a #c", "a#c", "é", "\ufeffx", "x\x85y", "x\u2028y", "-x", ":x"],
    *["!x", "! x", "!!str 1", "&a x", "*a", "|", "|-\n  t", "|#", ">\n  f", "[x", "x]", "{"],
]
_KEYS = ["a", "b", "a b", "1", "yes", "?", "<<", "'q'", "", "a\t"]


def _text(node: object, indent: int, flow: bool) -> str:
    """``node`` (a scalar text, a list, or a list of key and value pairs) written as YAML."""
    if isinstance(node, str):
        return node
    assert isinstance(node, tuple)
    kind, items = node
    if flow or kind.startswith("flow"):
        if kind.endswith("seq"):
            return "[" + ", ".join(_text(item, 0, True) for item in items) + "]"
        return "{" + ", ".join(f"{k}: {_text(v, 0, True)}" for k, v in items) + "}"
    pad = " " * indent
    if kind == "seq":
        return "".join(f"\n{pad}- {_text(item, indent + 2, False)}" for item in items) or "[]"
    lines = [f"\n{pad}{k}: {_text(v, indent + 2, False)}" for k, v in items]
    return "".join(lines) or "{}"


_NODES = st.recursive(
    st.sampled_from(_SCALARS),
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["seq", "flow-seq"]), st.lists(inner, max_size=3)),
        st.tuples(
            st.sampled_from(["map", "flow-map"]),
            st.lists(st.tuples(st.sampled_from(_KEYS), inner), max_size=3),
        ),
    ),
    max_leaves=8,
)


@settings(max_examples=examples(400))
@given(_NODES, st.booleans())
def test_the_loaders_agree_on_any_document(node: object, newline: bool) -> None:
    raw = (_text(node, 0, False).lstrip("\n") + ("\n" if newline else "")).encode()

    readings = [_reading(raw, loader) for loader in LOADERS]

    assert all(reading == readings[0] for reading in readings), raw


@settings(max_examples=examples(200))
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=16), st.booleans())
def test_the_loaders_agree_on_any_text(pieces: list[str], newline: bool) -> None:
    raw = ("".join(pieces) + ("\n" if newline else "")).encode()

    readings = [_reading(raw, loader) for loader in LOADERS]

    assert all(reading == readings[0] for reading in readings), raw


@given(st.data())
def test_the_loaders_agree_on_edited_shipped_files(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(SHIPPED[:20]))
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = data.draw(st.integers(0, len(lines) - 1))
    text = "".join(lines[start : start + data.draw(st.integers(1, 40))])
    for _ in range(data.draw(st.integers(0, 2))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + data.draw(st.sampled_from(_PIECES)) + text[at + cut :]
    raw = text.encode()

    readings = [_reading(raw, loader) for loader in LOADERS]

    assert all(reading == readings[0] for reading in readings), raw


# --------------------------------------------------------------------------- without libyaml


def test_without_libyaml_the_pure_python_loader_does_everything(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "sys.modules['yaml._yaml'] = None  # as if PyYAML were built without libyaml\n"
        "from reference_engine.rules import yamldoc\n"
        "from reference_engine.rules.catalog import Catalog\n"
        "print(yamldoc.LOADERS, yamldoc.DEFAULT_LOADER)\n"
        "print(yamldoc.parse_yaml(b'a: 1\\na: 2\\n', 'x.yaml')[1][0].code.value)\n"
        "print(len(Catalog.load().files))\n"
    )
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}  # nothing remembered
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env=environment,
    )

    assert done.stdout.splitlines() == ["('python',) python", "duplicate_key", "15"], done.stderr


# --------------------------------------------------------------------------- remembered readings


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder for remembered readings, in place of the user's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "matador" / "yaml"


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.marshal")) if folder.is_dir() else []


def test_a_trusted_file_is_remembered_and_read_back_the_same(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "own.yaml"
    path.write_bytes((REPO / "variants" / "pagat.yaml").read_bytes())

    first, _ = read_yaml_file(path, trusted=True)
    entries = _entries(cache)
    again, problems = read_yaml_file(path, trusted=True)

    assert len(entries) == 1
    assert problems == []
    assert isinstance(first, Document) and isinstance(again, Document)
    assert (again.name, again.data, again.positions) == (first.name, first.data, first.positions)


def test_a_changed_file_is_read_afresh_and_as_strictly(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "own.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    read_yaml_file(path, trusted=True)
    path.write_text("a: 1\na: 2\n", encoding="utf-8")

    document, problems = read_yaml_file(path, trusted=True)

    assert document is None
    assert [problem.code for problem in problems] == [ProblemCode.DUPLICATE_KEY]
    assert len(_entries(cache)) == 1  # what is refused is never remembered


def test_a_damaged_reading_is_ignored_and_replaced(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "own.yaml"
    path.write_text("a: [1, 2]\n", encoding="utf-8")
    read_yaml_file(path, trusted=True)
    (entry,) = _entries(cache)
    entry.write_bytes(entry.read_bytes()[:-3])

    document, problems = read_yaml_file(path, trusted=True)

    assert problems == []
    assert document is not None and document.data == {"a": [1, 2]}
    assert read_yaml_file(path, trusted=True)[0] == document


def test_a_file_a_user_gives_is_never_remembered(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("a: 1\n", encoding="utf-8")

    read_yaml_file(path)

    assert _entries(cache) == []


def test_a_cache_that_cannot_be_written_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    path = tmp_path / "own.yaml"
    path.write_text("a: 1\n", encoding="utf-8")

    assert read_yaml_file(path, trusted=True)[0] == read_yaml_file(path, trusted=True)[0]
    assert sorted(os.listdir(tmp_path)) == ["a-file", "own.yaml"]


#: Every tag the readers know, with scalars PyYAML's own constructors trip on
#: (an empty int or float, a lone sign or dot): each must be a problem, never a crash.
TAGS = ("int", "float", "bool", "null", "str", "timestamp", "binary")
ODD_SCALARS = ("", "-", ".", "+", "x", "0x", "_", "'-'")


@pytest.mark.parametrize("loader", LOADERS)
@pytest.mark.parametrize("tag", TAGS)
@pytest.mark.parametrize("scalar", ODD_SCALARS)
def test_a_tagged_odd_scalar_is_a_problem_as_key_or_value(
    loader: str, tag: str, scalar: str
) -> None:
    for text in (f"a: !!{tag} {scalar}\n", f"!!{tag} {scalar} : 1\n", f"- !!{tag} {scalar}\n"):
        parse_yaml(text.encode(), "odd.yaml", loader=loader)  # returns problems; never raises


def test_a_reading_whose_positions_are_damaged_has_none(tmp_path: Path, cache: Path) -> None:
    """A remembered entry whose checksum holds but whose positions do not unpack
    still reads its data; a problem is then told without a line, never a crash."""
    path = tmp_path / "own.yaml"
    path.write_text("a: [1, 2]\n", encoding="utf-8")
    read_yaml_file(path, trusted=True)
    (entry,) = _entries(cache)
    reader, text, data, _ = marshal.loads(entry.read_bytes()[4:])
    payload = marshal.dumps((reader, text, data, b"not marshal data"))
    entry.write_bytes(zlib.crc32(payload).to_bytes(4, "little") + payload)

    document, problems = read_yaml_file(path, trusted=True)

    assert problems == []
    assert document is not None and document.data == {"a": [1, 2]}
    assert document.positions == {}
    assert document.where(("a", 0)) == (None, None)
