"""The variant-file loader: strict YAML, the JSON Schema, references, extends and options.

Every problem is checked for its exact :class:`ProblemCode` and for where it
says the problem is: the file, the line and column, and the document path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from reference_engine.rules import (
    Catalog,
    OptionError,
    Problem,
    ProblemCode,
    Rules,
    RulesError,
    parse_option_assignments,
)
from reference_engine.rules.schema import variant_schema
from reference_engine.rules.yamldoc import MAX_DEPTH, MAX_VALUES, parse_yaml, read_yaml_file
from reference_engine.safeio import size_limit

# --------------------------------------------------------------------------- helpers


def position(text: str, needle: str) -> tuple[int, int]:
    """The 1-based line and column where ``needle`` first occurs in ``text``."""
    offset = text.index(needle)
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def last_line(text: str) -> int:
    """The number of the last line of ``text`` (which ends with a newline)."""
    return text.count("\n")


def block_lines(text: str, header: str) -> range:
    """The line numbers of the block that starts with the line ``header``.

    The block is the header line and the following lines indented deeper than it.
    """
    lines = text.splitlines()
    start = lines.index(header)
    indent = len(header) - len(header.lstrip())
    end = start + 1
    while end < len(lines) and (
        not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent
    ):
        end += 1
    return range(start + 1, end + 1)


def only(problems: Sequence[Problem]) -> Problem:
    """The single problem of ``problems``."""
    assert len(problems) == 1, "\n".join(map(str, problems))
    return problems[0]


def assert_located(
    problem: Problem, file: Path | str, line: int, column: int, json_path: str
) -> None:
    """``problem`` is at ``file:line:column`` and document path ``json_path``, and says so."""
    assert problem.file == str(file)
    assert (problem.line, problem.column) == (line, column)
    assert problem.json_path == json_path
    assert str(problem).startswith(f"{file}:{line}:{column}: {json_path}: ")


def assert_in_block(problem: Problem, file: Path, lines: range, json_path: str) -> None:
    """``problem`` is in ``file`` at document path ``json_path``, on one of ``lines``."""
    assert problem.file == str(file)
    assert problem.json_path == json_path
    assert problem.line in lines
    assert str(problem).startswith(f"{file}:{problem.line}:{problem.column}: {json_path}: ")


MAX_PIP_CITATION = """\
  max_pip:
    value: 6
    cite:
      - publication: gamerules-com
        text: "000"
"""

BILLION_LAUGHS = """\
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


# --------------------------------------------------------------------------- valid files


def test_shipped_gamerules_com_has_no_problems(
    shipped_variant: Path, problems_of: Callable[..., list[Problem]]
) -> None:
    assert problems_of(shipped_variant) == []


def test_copy_of_shipped_variant_under_its_own_id_is_valid(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    assert problems_of(write_variant("my-variant")) == []


def test_utf8_bom_is_accepted(
    write_yaml: Callable[..., Path],
    variant_text: Callable[..., str],
    problems_of: Callable[..., list[Problem]],
) -> None:
    path = write_yaml(b"\xef\xbb\xbf" + variant_text().encode("utf-8"), "my-variant.yaml")

    assert problems_of(path) == []
    assert Catalog.load([path]).files["my-variant"].data["id"] == "my-variant"


def test_anchors_and_aliases_are_allowed_for_repeated_values() -> None:
    raw = b"first: &cite {publication: pagat, text: '000'}\nsecond: [*cite, *cite]\n"

    document, problems = parse_yaml(raw, "anchors.yaml")

    assert problems == []
    assert document is not None
    assert document.data["second"] == [document.data["first"], document.data["first"]]


def test_shipped_aliased_citation_resolves_to_the_anchored_one() -> None:
    rules = Catalog.shipped().resolve("gamerules-com", {"draw": "pass"})
    option = next(option for option in rules.options if option.name == "draw")

    assert rules.provenance["draw_when"].cite == option.value("until_playable").cite


# --------------------------------------------------------------------------- YAML syntax


def test_broken_yaml_is_yaml_syntax_at_the_error(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(replace=[("title: Matador as", "title: Matador: as")])
    text = path.read_text(encoding="utf-8")

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.YAML_SYNTAX
    assert_located(problem, path, *position(text, ": as summarised"), "$")
    assert "mapping values are not allowed" in problem.message


def test_unclosed_flow_sequence_is_yaml_syntax_with_its_line() -> None:
    problem = only(parse_yaml(b"a: [1, 2\nb: 3\n", "broken.yaml")[1])

    assert problem.code is ProblemCode.YAML_SYNTAX
    assert_located(problem, "broken.yaml", 2, 2, "$")
    assert problem.fix == "fix the YAML syntax at this point"


@pytest.mark.parametrize("character", ["\x00", "\x07", "\x1b"])
def test_control_character_is_reported_not_raised(character: str) -> None:
    raw = f'a: 1\nb: "x{character}"\n'.encode()

    problem = only(parse_yaml(raw, "control.yaml")[1])

    assert problem.code is ProblemCode.YAML_SYNTAX
    assert problem.line == 2


# --------------------------------------------------------------------------- duplicate keys


def test_duplicate_top_level_key_names_the_first_one(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(append="title: Another title\n")
    text = path.read_text(encoding="utf-8")

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.DUPLICATE_KEY
    assert_located(problem, path, last_line(text), 1, "$.title")
    first_line, first_column = position(text, "title:")
    assert f"first given at line {first_line}, column {first_column}" in problem.message


def test_duplicate_rule_inside_rules_names_the_first_one(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    early_tie = "  tie:\n    value: nobody_scores\n    gap: draw-rule-silent\n"
    path = write_variant(replace=[("\nrules:\n", "\nrules:\n" + early_tie)])
    text = path.read_text(encoding="utf-8")

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.DUPLICATE_KEY
    second = text.index("  tie:", text.index(early_tie) + len(early_tie))
    line = text.count("\n", 0, second) + 1
    assert_located(problem, path, line, 3, "$.rules.tie")
    first_line = position(text, early_tie)[0]
    assert f"first given at line {first_line}, column 3" in problem.message


def test_duplicate_key_is_not_merged_or_overwritten() -> None:
    problem = only(parse_yaml(b"a: 1\nb: 2\na: 3\n", "dup.yaml")[1])

    assert problem.code is ProblemCode.DUPLICATE_KEY
    assert_located(problem, "dup.yaml", 3, 1, "$.a")
    assert "nothing is merged or overwritten" in (problem.fix or "")


# --------------------------------------------------------------------------- unknown fields


def _top_level_fields() -> list[str]:
    return sorted(variant_schema()["properties"])


def _rule_entry_fields() -> list[str]:
    return sorted(variant_schema()["$defs"]["rules"]["properties"]["max_pip"]["properties"])


def _matador_mode_fields() -> list[str]:
    return sorted(variant_schema()["$defs"]["matador_mode"]["properties"])


@pytest.mark.parametrize(
    ("changes", "block", "json_path", "allowed"),
    [
        pytest.param(
            {"append": "colour: red\n"}, None, "$.colour", _top_level_fields, id="top-level"
        ),
        pytest.param(
            {"replace": [("  max_pip:\n", "  max_pip:\n    colour: red\n")]},
            "  max_pip:",
            "$.rules.max_pip.colour",
            _rule_entry_fields,
            id="rule-entry",
        ),
        pytest.param(
            {"replace": [("{tiles: all,", "{tiles: all, colour: red,")]},
            "  matador_modes:",
            "$.rules.matador_modes.value[0].colour",
            _matador_mode_fields,
            id="matador-mode",
        ),
    ],
)
def test_unknown_field_is_schema_problem_listing_allowed_fields(
    write_variant: Callable[..., Path],
    problems_of: Callable[..., list[Problem]],
    changes: dict[str, object],
    block: str | None,
    json_path: str,
    allowed: Callable[[], list[str]],
) -> None:
    path = write_variant(**changes)
    text = path.read_text("utf-8")
    lines = range(1, last_line(text) + 1) if block is None else block_lines(text, block)

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.SCHEMA
    assert problem.message == "unknown field 'colour'"
    assert problem.fix == "allowed here: " + ", ".join(allowed())
    assert_in_block(problem, path, lines, json_path)


def test_mapping_position_is_where_the_mapping_starts() -> None:
    document, _ = parse_yaml(b"a:\n  x: 1\n  y: 2\n", "positions.yaml")

    assert document is not None
    assert document.positions[("a",)] == (2, 3)


def test_unknown_top_level_field_is_located_at_the_field(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(replace=[("title:", "colour: red\ntitle:")])

    problem = only(problems_of(path))

    assert problem.line == position(path.read_text("utf-8"), "colour:")[0]


# --------------------------------------------------------------------------- types and enums


@pytest.mark.parametrize(
    ("old", "new", "needle", "json_path", "fix"),
    [
        pytest.param(
            "value: [2, 3, 4]",
            'value: "two"',
            '"two"',
            "$.rules.players.value",
            "give a value of type array",
            id="players-a-string",
        ),
        pytest.param(
            "value: {two: 7, three: 6, four: 5}",
            'value: {two: "seven", three: 6, four: 5}',
            '"seven"',
            "$.rules.hand_size.value.two",
            "give a value of type integer, or 'all'",
            id="hand-size-entry-a-string",
        ),
        pytest.param(
            "value: {two: 7, three: 6, four: 5}",
            'value: "7"',
            '"7"',
            "$.rules.hand_size.value",
            "give a value of type object",
            id="hand-size-a-string",
        ),
    ],
)
def test_wrong_type_is_schema_problem_at_the_value(
    write_variant: Callable[..., Path],
    problems_of: Callable[..., list[Problem]],
    old: str,
    new: str,
    needle: str,
    json_path: str,
    fix: str,
) -> None:
    path = write_variant(replace=[(old, new)])

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.SCHEMA
    assert_located(problem, path, *position(path.read_text("utf-8"), needle), json_path)
    assert "is not of type" in problem.message
    assert problem.fix == fix


def test_value_outside_enum_is_schema_problem_listing_allowed_values(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(replace=[("value: highest_double", "value: biggest_double")])

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.SCHEMA
    assert_located(
        problem, path, *position(path.read_text("utf-8"), "biggest_double"), "$.rules.opener.value"
    )
    assert problem.message == "'biggest_double' is not an allowed value"
    assert problem.fix == (
        "allowed: highest_double, lowest_double, top_double, highest_double_holder, designated"
    )


# --------------------------------------------------------------------------- YAML 1.1 keys


@pytest.mark.parametrize(
    ("key", "read_as"),
    [("on", True), ("off", False), ("yes", True), ("no", False), ("null", None), ("3", 3)],
)
def test_key_that_yaml_reads_as_non_string_is_non_string_key(
    write_variant: Callable[..., Path],
    problems_of: Callable[..., list[Problem]],
    key: str,
    read_as: object,
) -> None:
    path = write_variant(append=f"{key}: value\n")

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.NON_STRING_KEY
    assert_located(problem, path, last_line(path.read_text("utf-8")), 1, "$")
    assert problem.message == f"key {read_as!r} is not a string"
    assert problem.fix == "quote the key"


# --------------------------------------------------------------------------- YAML 1.1 values


@pytest.mark.parametrize(
    ("form", "says", "fix"),
    [
        *[
            (word, "is a boolean to some YAML readers", "write true or false")
            for word in ["yes", "No", "ON", "off", "y", "N", "yEs", "True", "FALSE", "tRUE"]
        ],
        ("017", "octal", "write the number in plain decimal"),
        ("00", "octal", "write the number in plain decimal"),
        ("0x1F", "hexadecimal", "write the number in plain decimal"),
        ("0b101", "binary", "write the number in plain decimal"),
        ("0o17", "a number to some YAML readers and text to others", "write the number"),
        ("089", "a number to some YAML readers and text to others", "write the number"),
        ("1e3", "a number to some YAML readers and text to others", "write the number"),
        ("1:30", "base-60", "write the number in plain decimal"),
        ("-1:30:00", "base-60", "write the number in plain decimal"),
        ("1_000", "underscores are not allowed", "write the number in plain decimal"),
        ("1_000.5", "underscores are not allowed", "write the number in plain decimal"),
        (".nan", "not-a-number and infinity", "write a finite number"),
        (".NaN", "not-a-number and infinity", "write a finite number"),
        (".inf", "not-a-number and infinity", "write a finite number"),
        ("-.Inf", "not-a-number and infinity", "write a finite number"),
    ],
)
def test_plain_scalar_readers_disagree_on_is_yaml_ambiguous_where_it_is(
    form: str, says: str, fix: str
) -> None:
    raw = f"id: x\nrules:\n  max_pip: {{value: {form}}}\n".encode()

    problem = only(parse_yaml(raw, "forms.yaml")[1])

    assert problem.code is ProblemCode.YAML_AMBIGUOUS
    assert_located(problem, "forms.yaml", 3, 20, "$.rules.max_pip.value")
    assert repr(form) in problem.message
    assert says in problem.message
    assert problem.fix is not None
    assert problem.fix.startswith(fix)
    assert problem.fix.endswith("quote it if you mean the text")


@pytest.mark.parametrize(
    ("form", "value"),
    [
        ("true", True),
        ("false", False),
        ("0", 0),
        ("42", 42),
        ("-3", -3),
        ("+5", 5),
        ("6.5", 6.5),
        ("null", None),
        ("~", None),
        ('"yes"', "yes"),
        ("'017'", "017"),
        ('"1:30"', "1:30"),
        ("'.nan'", ".nan"),
        ("2-5@R:5", "2-5@R:5"),
        ("yesterday", "yesterday"),
        ("no_play", "no_play"),
    ],
)
def test_unambiguous_scalars_and_quoted_text_are_read(form: str, value: object) -> None:
    document, problems = parse_yaml(f"v: {form}\n".encode(), "ok.yaml")

    assert problems == []
    assert document is not None
    assert document.data == {"v": value}
    assert type(document.data["v"]) is type(value)


def test_every_ambiguous_scalar_of_a_file_is_reported() -> None:
    problems = parse_yaml(b"a: yes\nb: [017, 1_000]\nc: {d: .inf}\n", "many.yaml")[1]

    assert [(p.json_path, p.line, p.column) for p in problems] == [
        ("$.a", 1, 4),
        ("$.b[0]", 2, 5),
        ("$.b[1]", 2, 10),
        ("$.c.d", 3, 8),
    ]
    assert {p.code for p in problems} == {ProblemCode.YAML_AMBIGUOUS}


@pytest.mark.parametrize(
    ("old", "new", "needle", "json_path"),
    [
        pytest.param(
            "    value: 6\n", "    value: 6.0\n", "6.0", "$.rules.max_pip.value", id="max-pip"
        ),
        pytest.param(
            "value: [2, 3, 4]",
            "value: [2, 3.0, 4]",
            "3.0",
            "$.rules.players.value[1]",
            id="players",
        ),
        pytest.param(
            "value: {two: 7, three: 6, four: 5}",
            "value: {two: 7.0, three: 6, four: 5}",
            "7.0",
            "$.rules.hand_size.value.two",
            id="hand-size",
        ),
        pytest.param(
            "value: {unit: points, value: 100}",
            "value: {unit: points, value: 100.0}",
            "100.0",
            "$.rules.target.value.value",
            id="target",
        ),
    ],
)
def test_float_where_an_integer_is_meant_is_schema_problem(
    write_variant: Callable[..., Path],
    problems_of: Callable[..., list[Problem]],
    old: str,
    new: str,
    needle: str,
    json_path: str,
) -> None:
    path = write_variant(replace=[(old, new)])

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.SCHEMA
    assert_located(problem, path, *position(path.read_text("utf-8"), needle), json_path)
    if json_path.startswith("$.rules.hand_size"):  # a number, or the word all (SPEC 5.3)
        assert problem.message == f"{needle} is not of type 'integer', nor 'all'"
        assert problem.fix == "give a value of type integer, or 'all'"
    else:
        assert problem.message == f"{needle} is not of type 'integer'"
        assert problem.fix == "give a value of type integer"


def test_boolean_where_an_integer_is_meant_is_schema_problem(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(replace=[("    value: 6\n", "    value: true\n")])

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.SCHEMA
    assert problem.json_path == "$.rules.max_pip.value"


# --------------------------------------------------------------------------- nesting


@pytest.mark.parametrize(
    ("raw", "line", "column"),
    [
        # Ten thousand levels deep: hostile documents, slow as the other hostile-input
        # tests; the block ones below are in the quick loop.
        pytest.param(
            b"[" * 10_000 + b"]" * 10_000, 1, MAX_DEPTH + 1, id="flow-lists", marks=pytest.mark.slow
        ),
        pytest.param(
            b"[" * 10_000, 1, MAX_DEPTH + 1, id="unclosed-flow-lists", marks=pytest.mark.slow
        ),
        pytest.param(
            b"{a: " * 10_000 + b"}" * 10_000,
            1,
            4 * MAX_DEPTH + 1,
            id="flow-mappings",
            marks=pytest.mark.slow,
        ),
        pytest.param(b"- " * 10_000 + b"x\n", 1, 2 * MAX_DEPTH + 1, id="block-lists"),
        pytest.param(
            "".join(" " * i + "a:\n" for i in range(MAX_DEPTH + 5)).encode(),
            MAX_DEPTH + 1,
            MAX_DEPTH + 1,
            id="block-mappings",
        ),
    ],
)
def test_nesting_deeper_than_the_limit_is_yaml_depth_not_a_recursion_error(
    raw: bytes, line: int, column: int
) -> None:
    problem = only(parse_yaml(raw, "deep.yaml")[1])

    assert problem.code is ProblemCode.YAML_DEPTH
    assert (problem.file, problem.line, problem.column) == ("deep.yaml", line, column)
    assert f"more than {MAX_DEPTH} levels" in problem.message


def test_nesting_up_to_the_limit_is_read() -> None:
    raw = b"[" * MAX_DEPTH + b"1" + b"]" * MAX_DEPTH

    document, problems = parse_yaml(raw, "deep.yaml")

    assert problems == []
    assert document is not None
    value = document.data
    for _ in range(MAX_DEPTH - 1):
        value = value[0]
    assert value == [1]


def test_aliases_count_towards_nesting_only_where_they_are_written() -> None:
    raw = b"a: &a " + b"[" * 60 + b"]" * 60 + b"\nb: " + b"[" * 60 + b"*a" + b"]" * 60 + b"\n"

    assert parse_yaml(raw, "alias.yaml")[1] == []


# --------------------------------------------------------------------------- reading files


@pytest.mark.parametrize(
    ("make", "code", "says"),
    [
        pytest.param(lambda tmp: tmp, ProblemCode.NOT_A_FILE, "a directory", id="directory"),
        pytest.param(
            lambda tmp: Path("/dev/zero"), ProblemCode.NOT_A_FILE, "a character device", id="zero"
        ),
        pytest.param(
            lambda tmp: tmp / "absent.yaml", ProblemCode.NOT_FOUND, "no such file", id="absent"
        ),
    ],
)
def test_read_yaml_file_refuses_what_is_not_a_regular_file(
    tmp_path: Path, make: Callable[[Path], Path], code: ProblemCode, says: str
) -> None:
    path = make(tmp_path)

    document, problems = read_yaml_file(path)

    problem = only(problems)
    assert document is None
    assert problem.code is code
    assert str(problem).startswith(f"{path}: cannot read the file: {says}")


def test_read_yaml_file_refuses_a_symlink_loop(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")

    problem = only(read_yaml_file(tmp_path / "a.yaml")[1])

    assert problem.code is ProblemCode.SYMLINK_LOOP
    assert problem.fix == "point the link at a file"


def test_read_yaml_file_refuses_a_file_over_the_limit_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: [" + b"1, " * 40 + b"]\n")

    with size_limit(100):
        problem = only(read_yaml_file(path)[1])
    with size_limit(1000):
        document, problems = read_yaml_file(path)

    assert problem.code is ProblemCode.TOO_LARGE
    assert problem.message == "cannot read the file: larger than the limit of 100 bytes"
    assert problem.fix == "if the file is really meant, raise the limit with --max-bytes"
    assert problems == []
    assert document is not None
    assert document.data == {"a": [1] * 40}


def test_variant_file_over_the_limit_is_too_large_and_shipped_files_still_load(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant()

    with size_limit(100):
        problems = problems_of(path)
        catalog = Catalog.load([path])

    assert only(problems).code is ProblemCode.TOO_LARGE
    assert "gamerules-com" in catalog.files


# --------------------------------------------------------------------------- tags


@pytest.mark.parametrize(
    "tagged",
    [
        "!!python/object:os.system {}",
        "!!python/object/apply:os.system ['touch {sentinel}']",
        "!!python/name:os.system ''",
        "!!binary aGVsbG8=",
        "!include other.yaml",
    ],
)
def test_custom_tag_is_yaml_tag_and_nothing_is_executed(
    write_variant: Callable[..., Path],
    problems_of: Callable[..., list[Problem]],
    tmp_path: Path,
    tagged: str,
) -> None:
    sentinel = tmp_path / "executed"
    path = write_variant(append="x: " + tagged.replace("{sentinel}", str(sentinel)) + "\n")

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.YAML_TAG
    assert_located(problem, path, last_line(path.read_text("utf-8")), 4, "$.x")
    assert "is not allowed" in problem.message
    assert not sentinel.exists()


# --------------------------------------------------------------------------- aliases


def test_alias_bomb_is_yaml_alias_and_returns_quickly(
    write_yaml: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_yaml(BILLION_LAUGHS)

    # The problem itself says the reading stopped at the limit (an expanding
    # reader would not come back at all): no clock is needed to tell.
    problem = only(problems_of(path))

    assert problem.code is ProblemCode.YAML_ALIAS
    assert f"more than {MAX_VALUES} values" in problem.message
    assert problem.file == str(path)
    assert problem.line is not None and problem.column is not None
    assert str(problem).startswith(f"{path}:{problem.line}:{problem.column}: $: ")


@pytest.mark.parametrize(
    ("raw", "line", "column", "json_path"),
    [
        pytest.param(b"&a [*a]\n", 1, 1, "$[0]", id="document"),
        pytest.param(b"id: x\nloop: &a [*a]\n", 2, 7, "$.loop[0]", id="nested"),
        pytest.param(b"loop: &a {self: *a}\n", 1, 7, "$.loop.self", id="mapping"),
    ],
)
def test_recursive_alias_is_yaml_alias(raw: bytes, line: int, column: int, json_path: str) -> None:
    problem = only(parse_yaml(raw, "loop.yaml")[1])

    assert problem.code is ProblemCode.YAML_ALIAS
    assert_located(problem, "loop.yaml", line, column, json_path)
    assert "recursive alias" in problem.message


def test_recursive_alias_in_variant_file_is_yaml_alias(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(append="loop: &a [*a]\n")

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.YAML_ALIAS
    assert_located(problem, path, last_line(path.read_text("utf-8")), 7, "$.loop[0]")


def test_merge_key_is_rejected(
    write_yaml: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_yaml("base: &x {a: 1}\nother:\n  <<: *x\n  b: 2\n")

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.YAML_ALIAS
    assert_located(problem, path, 3, 3, "$.other")
    assert "merge keys (<<) are not allowed" in problem.message


# --------------------------------------------------------------------------- encoding


def test_latin1_file_is_not_utf8_at_the_first_bad_byte(
    write_yaml: Callable[..., Path],
    variant_text: Callable[..., str],
    problems_of: Callable[..., list[Problem]],
) -> None:
    text = variant_text(replace=[("title: Matador as", "title: Matadoré as")])
    path = write_yaml(text.encode("latin-1"), "my-variant.yaml")

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.NOT_UTF8
    assert_located(problem, path, *position(text, "é"), "$")
    assert "byte 0xe9" in problem.message
    assert problem.fix == "save the file as UTF-8"


def test_not_utf8_after_a_bom_names_the_bad_byte_and_its_position() -> None:
    problem = only(parse_yaml(b"\xef\xbb\xbfab: 1\ncd: \xe9\n", "bom.yaml")[1])

    assert problem.code is ProblemCode.NOT_UTF8
    assert "byte 0xe9 at offset 13" in problem.message
    assert (problem.line, problem.column) == (2, 5)


def test_not_utf8_column_counts_characters() -> None:
    problem = only(parse_yaml('a: "dé" '.encode() + b"\xe9\n", "mixed.yaml")[1])

    assert problem.code is ProblemCode.NOT_UTF8
    assert (problem.line, problem.column) == (1, 9)


# --------------------------------------------------------------------------- not a mapping


@pytest.mark.parametrize(
    "content",
    [b"", b"# nothing but a comment\n", b"   \n"],
    ids=["empty", "comment-only", "blank"],
)
def test_empty_file_is_not_a_mapping(
    write_yaml: Callable[..., Path], problems_of: Callable[..., list[Problem]], content: bytes
) -> None:
    path = write_yaml(content)

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.NOT_A_MAPPING
    assert problem.file == str(path)
    assert problem.message == "a variant file must be a mapping of fields"
    assert str(problem).startswith(str(path))


def test_empty_file_problem_is_located_at_its_start(
    write_yaml: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_yaml(b"")

    problem = only(problems_of(path))

    assert_located(problem, path, 1, 1, "$")


@pytest.mark.parametrize(
    "content", ["- a\n- b\n", "just some text\n", "42\n"], ids=["list", "string", "number"]
)
def test_file_that_is_not_a_mapping_is_not_a_mapping(
    write_yaml: Callable[..., Path], problems_of: Callable[..., list[Problem]], content: str
) -> None:
    path = write_yaml(content)

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.NOT_A_MAPPING
    assert_located(problem, path, 1, 1, "$")


# --------------------------------------------------------------------------- id and file name


def test_id_differing_from_file_name_is_id_mismatch(
    write_yaml: Callable[..., Path],
    variant_text: Callable[..., str],
    problems_of: Callable[..., list[Problem]],
) -> None:
    text = variant_text("my-variant")
    path = write_yaml(text, "other-name.yaml")

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.ID_MISMATCH
    assert_located(problem, path, *position(text, "my-variant"), "$.id")
    assert "'other-name.yaml'" in problem.message
    assert problem.fix == "rename the file to my-variant.yaml or change the id"


# --------------------------------------------------------------------------- extends


def test_extending_a_missing_parent_is_missing_parent(
    write_yaml: Callable[..., Path],
    child_text: Callable[..., str],
    problems_of: Callable[..., list[Problem]],
) -> None:
    text = child_text("orphan", "no-such-variant")
    path = write_yaml(text, "orphan.yaml")

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.MISSING_PARENT
    assert_located(problem, path, *position(text, "no-such-variant"), "$.extends")
    assert "gamerules-com" in (problem.fix or "")


def test_two_variants_extending_each_other_is_extends_cycle(
    write_yaml: Callable[..., Path],
    child_text: Callable[..., str],
    problems_of: Callable[..., list[Problem]],
) -> None:
    first = write_yaml(child_text("first", "second"), "first.yaml")
    second = write_yaml(child_text("second", "first"), "second.yaml")

    problems = problems_of(first, second)

    assert {problem.code for problem in problems} == {ProblemCode.EXTENDS_CYCLE}
    assert {problem.file for problem in problems} <= {str(first), str(second)}
    for problem in problems:
        assert_located(problem, problem.file, 6, 10, "$.extends")
        assert "first" in problem.message and "second" in problem.message


def test_variant_extending_itself_is_extends_cycle(
    write_yaml: Callable[..., Path],
    child_text: Callable[..., str],
    problems_of: Callable[..., list[Problem]],
) -> None:
    path = write_yaml(child_text("narcissus", "narcissus"), "narcissus.yaml")

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.EXTENDS_CYCLE
    assert_located(problem, path, 6, 10, "$.extends")
    assert "narcissus -> narcissus" in problem.message


@pytest.fixture
def child_rules(write_yaml: Callable[..., Path], child_text: Callable[..., str]) -> Rules:
    """The rules of a valid child of gamerules-com that overrides hand_size and players."""
    text = child_text(
        "child",
        "gamerules-com",
        rules={"players": "[2, 3, 4]", "hand_size": "{two: 6, three: 5, four: 4}"},
    )
    path = write_yaml(text, "child.yaml")
    return Catalog.load([path]).resolve("child")


def test_child_variant_is_valid(
    write_yaml: Callable[..., Path],
    child_text: Callable[..., str],
    problems_of: Callable[..., list[Problem]],
) -> None:
    text = child_text("child", "gamerules-com", rules={"hand_size": "{two: 6, three: 5, four: 4}"})

    assert problems_of(write_yaml(text, "child.yaml")) == []


def test_child_variant_overrides_its_own_rules(child_rules: Rules) -> None:
    assert child_rules.chain == ("gamerules-com", "child")
    assert child_rules.hand_size.as_dict() == {"two": 6, "three": 5, "four": 4}
    assert child_rules.provenance["hand_size"].variant == "child"
    assert child_rules.provenance["players"].variant == "child"


def test_child_variant_inherits_the_parent_rules_it_does_not_set(child_rules: Rules) -> None:
    parent = Catalog.shipped().resolve("gamerules-com")
    inherited = set(parent.provenance) - {"players", "hand_size"}

    assert inherited
    for rule in inherited:
        assert getattr(child_rules, rule) == getattr(parent, rule), rule
        assert child_rules.provenance[rule].variant == "gamerules-com", rule
        assert child_rules.provenance[rule].cite == parent.provenance[rule].cite, rule


def test_child_variant_inherits_the_parent_options(child_rules: Rules) -> None:
    assert {option.name for option in child_rules.options} == {
        "draw",
        "difference",
        "blank_opens",
        "no_double",
    }


# --------------------------------------------------------------------------- options


def test_resolving_with_unknown_option_is_unknown_option() -> None:
    with pytest.raises(OptionError) as raised:
        Catalog.shipped().resolve("gamerules-com", {"nope": "x"})

    problem = only(raised.value.problems)
    assert problem.code is ProblemCode.UNKNOWN_OPTION
    assert "'nope'" in problem.message
    assert problem.fix == "options: blank_opens, difference, draw, no_double"


def test_resolving_with_unknown_option_value_is_unknown_option_value() -> None:
    with pytest.raises(OptionError) as raised:
        Catalog.shipped().resolve("gamerules-com", {"draw": "sometimes"})

    problem = only(raised.value.problems)
    assert problem.code is ProblemCode.UNKNOWN_OPTION_VALUE
    assert "'sometimes'" in problem.message
    assert problem.fix == "values: until_playable, pass, reserve_two, one_then_pass, one_may_keep"


def test_resolving_with_two_bad_options_reports_both() -> None:
    with pytest.raises(OptionError) as raised:
        Catalog.shipped().resolve("gamerules-com", {"nope": "x", "draw": "sometimes"})

    assert raised.value.codes == {
        ProblemCode.UNKNOWN_OPTION,
        ProblemCode.UNKNOWN_OPTION_VALUE,
    }


@pytest.mark.parametrize("item", ["draw", "=pass", "draw=", "  =  "])
def test_option_not_written_name_equals_value_is_bad_option_syntax(item: str) -> None:
    with pytest.raises(OptionError) as raised:
        parse_option_assignments([item])

    problem = only(raised.value.problems)
    assert problem.code is ProblemCode.BAD_OPTION_SYNTAX
    assert problem.file == "<command line>"
    assert problem.fix == "write it as --option NAME=VALUE"


def test_every_malformed_option_is_reported() -> None:
    with pytest.raises(OptionError) as raised:
        parse_option_assignments(["draw", "difference="])

    assert len(raised.value.problems) == 2


def test_option_given_twice_with_different_values_is_option_conflict() -> None:
    with pytest.raises(OptionError) as raised:
        parse_option_assignments(["draw=pass", "draw=reserve_two"])

    assert only(raised.value.problems).code is ProblemCode.OPTION_CONFLICT


def test_option_default_not_among_its_values_is_bad_default(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(replace=[("default: until_playable", "default: sometimes")])

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.BAD_DEFAULT
    assert_located(
        problem, path, *position(path.read_text("utf-8"), "sometimes"), "$.options.draw.default"
    )
    assert problem.fix == "values: until_playable, pass, reserve_two, one_then_pass, one_may_keep"


@pytest.mark.parametrize(
    "alternative", ["drawing=pass", "draw=never"], ids=["undeclared-name", "undeclared-value"]
)
def test_gap_alternative_naming_undeclared_option_is_unknown_option(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]], alternative: str
) -> None:
    path = write_variant(replace=[("option: draw=pass}", f"option: {alternative}}}")])

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.UNKNOWN_OPTION
    assert_located(
        problem,
        path,
        *position(path.read_text("utf-8"), alternative),
        "$.gaps[0].alternatives[0].option",
    )
    assert repr(alternative) in problem.message


# --------------------------------------------------------------------------- references


def test_citation_of_unknown_publication_is_unknown_publication(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(
        replace=[
            (MAX_PIP_CITATION, MAX_PIP_CITATION.replace("gamerules-com", "nowhere-press")),
        ]
    )

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.UNKNOWN_PUBLICATION
    assert_located(
        problem,
        path,
        *position(path.read_text("utf-8"), "nowhere-press"),
        "$.rules.max_pip.cite[0].publication",
    )
    assert "gamerules-com" in (problem.fix or "")


def test_citation_of_unknown_text_is_unknown_text(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(replace=[(MAX_PIP_CITATION, MAX_PIP_CITATION.replace('"000"', '"999"'))])

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.UNKNOWN_TEXT
    assert_located(
        problem, path, *position(path.read_text("utf-8"), '"999"'), "$.rules.max_pip.cite[0].text"
    )
    assert "'999'" in problem.message


def test_rule_referring_to_unrecorded_gap_is_unknown_gap(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(replace=[("gap: direction-silent", "gap: no-such-gap")])

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.UNKNOWN_GAP
    assert_located(
        problem,
        path,
        *position(path.read_text("utf-8"), "no-such-gap"),
        "$.rules.turn_direction.gap",
    )


def test_rule_with_neither_cite_nor_gap_needs_a_citation(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    entry = "  turn_direction:\n    value: unspecified\n"
    path = write_variant(replace=[(entry + "    gap: direction-silent\n", entry)])

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.SCHEMA
    assert_located(
        problem,
        path,
        *position(path.read_text("utf-8"), "value: unspecified"),
        "$.rules.turn_direction",
    )
    assert "needs a citation" in problem.message


def test_rule_with_neither_cite_nor_gap_says_how_to_fix_it(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    entry = "  turn_direction:\n    value: unspecified\n"
    path = write_variant(replace=[(entry + "    gap: direction-silent\n", entry)])

    problem = only(problems_of(path))

    assert problem.fix


# --------------------------------------------------------------------------- rule coherence


def test_deal_larger_than_the_set_is_deal_too_large(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(
        replace=[
            ("value: {two: 7, three: 6, four: 5}", "value: {two: 7, three: 7, four: 7}"),
            ("value: {two: 0, three: 0, four: 0}", "value: {two: 2, three: 2, four: 2}"),
        ]
    )

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.DEAL_TOO_LARGE
    lines = block_lines(path.read_text("utf-8"), "  hand_size:")
    assert_in_block(problem, path, lines, "$.rules.hand_size")
    assert "4 players x 7 tiles + a reserve of 2 is 30, more than the 28 tiles" in problem.message


def test_hand_size_for_player_counts_not_allowed_is_player_counts(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(replace=[("value: [2, 3, 4]", "value: [2, 3]")])

    problems = problems_of(path)

    assert {problem.code for problem in problems} == {ProblemCode.PLAYER_COUNTS}
    hand_size = next(p for p in problems if p.json_path == "$.rules.hand_size")
    lines = block_lines(path.read_text("utf-8"), "  hand_size:")
    assert_in_block(hand_size, path, lines, "$.rules.hand_size")
    assert hand_size.message == (
        "hand_size is given for [2, 3, 4] players but the variant allows [2, 3]"
    )


def test_two_vs_two_without_exactly_four_players_is_incoherent(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(replace=[("value: none\n", "value: two_vs_two\n")])

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.INCOHERENT
    lines = block_lines(path.read_text("utf-8"), "  partnership:")
    assert_in_block(problem, path, lines, "$.rules.partnership")
    assert problem.message == "two_vs_two needs exactly four players"


def test_incoherent_rules_make_resolve_raise(write_variant: Callable[..., Path]) -> None:
    path = write_variant(replace=[("value: none\n", "value: two_vs_two\n")])

    with pytest.raises(RulesError) as raised:
        Catalog.load([path]).resolve("my-variant")

    assert raised.value.codes == {ProblemCode.INCOHERENT}


# --------------------------------------------------------------------------- collecting


def test_every_reference_problem_in_a_file_is_reported(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    bad_citation = MAX_PIP_CITATION.replace("gamerules-com", "nowhere-press").replace(
        '"000"', '"999"'
    )
    path = write_variant(
        replace=[
            (MAX_PIP_CITATION, bad_citation),
            ("gap: direction-silent", "gap: no-such-gap"),
        ]
    )

    problems = problems_of(path)

    assert sorted(problem.code for problem in problems) == sorted(
        [ProblemCode.UNKNOWN_PUBLICATION, ProblemCode.UNKNOWN_TEXT, ProblemCode.UNKNOWN_GAP]
    )


def test_every_schema_problem_in_a_file_is_reported(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(
        replace=[
            ("value: highest_double", "value: biggest_double"),
            ("value: [2, 3, 4]", 'value: "two"'),
        ],
        append="colour: red\n",
    )

    problems = problems_of(path)

    assert [problem.code for problem in problems] == [ProblemCode.SCHEMA] * 3
    assert {problem.json_path for problem in problems} == {
        "$.colour",
        "$.rules.opener.value",
        "$.rules.players.value",
    }


def test_every_yaml_problem_in_a_file_is_reported(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(append="title: Again\non: true\nx: !!binary aGVsbG8=\n")

    problems = problems_of(path)

    assert [problem.code for problem in problems] == [
        ProblemCode.DUPLICATE_KEY,
        ProblemCode.NON_STRING_KEY,
        ProblemCode.YAML_TAG,
    ]


def test_problems_in_several_files_are_all_reported(
    write_yaml: Callable[..., Path],
    child_text: Callable[..., str],
    problems_of: Callable[..., list[Problem]],
) -> None:
    orphan = write_yaml(child_text("orphan", "no-such-variant"), "orphan.yaml")
    broken = write_yaml("a: [1, 2\n", "broken.yaml")

    problems = problems_of(orphan, broken)

    assert {(problem.file, problem.code) for problem in problems} == {
        (str(orphan), ProblemCode.MISSING_PARENT),
        (str(broken), ProblemCode.YAML_SYNTAX),
    }


# --------------------------------------------------------------------------- reading files


def test_missing_file_is_not_found(
    tmp_path: Path, problems_of: Callable[..., list[Problem]]
) -> None:
    path = tmp_path / "absent.yaml"

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.NOT_FOUND
    assert problem.file == str(path)
    assert str(problem).startswith(f"{path}: cannot read the file")


def test_unknown_variant_is_unknown_variant_error() -> None:
    with pytest.raises(RulesError) as raised:
        Catalog.shipped().resolve("nope")

    problem = only(raised.value.problems)
    assert problem.code is ProblemCode.UNKNOWN_VARIANT
    assert "gamerules-com" in (problem.fix or "")


# ------------------------------------------------------------- checks added after review


def test_gap_id_repeated_within_one_file_is_duplicate_gap(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    path = write_variant(
        replace=[
            ("  - id: partnership-silent\n", "  - id: direction-silent\n"),
            ("    gap: partnership-silent\n", "    gap: direction-silent\n"),
        ]
    )

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.DUPLICATE_GAP
    assert problem.json_path.startswith("$.gaps[")
    assert "direction-silent" in problem.message


def test_overlapping_crosswise_modes_leaving_different_values_are_incoherent(
    write_variant: Callable[..., Path], problems_of: Callable[..., list[Problem]]
) -> None:
    # Two crosswise placements of the same matador on the same end are the same
    # placement, so they must leave the same end.
    modes = (
        "      - {tiles: all, ends: any, fit: free, shape: crosswise, open: both_halves,\n"
        "         leaves: {match: identical, matadors: free}}\n"
        "      - {tiles: all, ends: blank, fit: free, shape: crosswise, open: covered_value,\n"
        "         leaves: {match: identical, matadors: free}}\n"
    )
    path = write_variant(
        replace=[
            (
                "      - {tiles: all, ends: any, fit: free, shape: inline, open: outer_half,\n"
                "         leaves: {match: sum, matadors: free}}\n",
                modes,
            )
        ]
    )

    problem = only(problems_of(path))

    assert problem.code is ProblemCode.INCOHERENT
    assert problem.json_path == "$.rules.matador_modes"
    assert "modes 0 and 1" in problem.message
