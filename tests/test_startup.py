"""Start-up stays light, and what start-up skips for the project's own files is checked here.

Every command imports only what it needs (tests/test_layout.py checks the
in-process imports; these tests run the real ``matador`` process and read what
it imported). The shipped variant and case files are not checked against their
JSON Schemas each time they are read, which would be a quarter of a
conformance run: the tests below check every one of them instead, and check
that a file a user gives, and ``matador validate``, still get the full check.
The protocol server's shortcut past its schema validator is checked the same
way. Speed itself is measured, not asserted (README, issue 13).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from shipped import shipped_cases

from reference_engine.conformance.protocol.requestcheck import definition_validator, plainly_valid
from reference_engine.conformance.suite.casedata import case_schema, cases_dir, load_cases
from reference_engine.rules import Catalog, ProblemCode
from reference_engine.rules.schema import schema_problems, variant_schema
from reference_engine.rules.variantfile import read_variant_file
from reference_engine.rules.yamldoc import read_yaml_file

REPO = Path(__file__).resolve().parents[1]

#: Stacks no command but their own may load.
HEAVY = {"jsonschema", "weasyprint", "matplotlib", "jinja2", "rich"}
#: What the quickest commands do without: the random numbers, JSON, threads, and
#: shutil (which argparse asks for the terminal's width, and which loads two
#: compression libraries), each a few milliseconds of ``matador list``'s hundred.
SPARE = {"random", "json", "threading", "shutil", "lzma", "bz2", "hashlib"}


def _imported(*argv: str, env: dict[str, str] | None = None) -> set[str]:
    """The top-level packages a real Python process imported running ``argv``."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    names = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            names.add(name.split(".")[0])
    return names


@pytest.mark.parametrize(
    ("argv", "also_not"),
    [
        pytest.param(["-c", "import reference_engine.engine.hand"], {"yaml"}, id="engine"),
        pytest.param(["-m", "reference_engine.cli", "--help"], {"yaml", *SPARE}, id="help"),
        pytest.param(["-m", "reference_engine.cli", "list"], SPARE, id="list"),
        pytest.param(["-m", "reference_engine.cli", "show", "pagat"], set(), id="show"),
    ],
)
def test_a_command_loads_no_stack_it_does_not_use(
    argv: list[str], also_not: set[str], tmp_path: Path
) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    # Once to remember the shipped files' readings (writing them takes tempfile,
    # which loads random and shutil), then as a user runs it every other time.
    _imported(*argv, env=env)
    assert _imported(*argv, env=env) & (HEAVY | also_not) == set()


def test_list_parses_no_yaml_once_the_shipped_files_were_read(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    assert "yaml" in _imported("-m", "reference_engine.cli", "list", env=env)  # read, remembered
    assert "yaml" not in _imported("-m", "reference_engine.cli", "list", env=env)


# --------------------------------------------------------------------------- the shipped files


@pytest.mark.parametrize(
    "path", sorted((REPO / "variants").glob("*.yaml")), ids=lambda path: path.stem
)
def test_every_shipped_variant_file_follows_the_variant_schema(path: Path) -> None:
    document, problems = read_yaml_file(path)

    assert document is not None, problems
    assert schema_problems(document, variant_schema()) == []


@pytest.mark.parametrize("path", sorted(cases_dir().rglob("*.yaml")), ids=lambda path: path.stem)
def test_every_shipped_case_file_follows_the_case_schema(path: Path) -> None:
    document, problems = read_yaml_file(path)

    assert document is not None, problems
    assert schema_problems(document, case_schema()) == []


def test_validate_checks_the_schema_of_shipped_files_read_without_it(tmp_path: Path) -> None:
    text = (REPO / "variants" / "pagat.yaml").read_text(encoding="utf-8")
    path = tmp_path / "pagat.yaml"
    path.write_text(text + "colour: red\n", encoding="utf-8")

    variant, found = read_variant_file(path, trusted=True)
    assert variant is not None and found == []  # read as a shipped file: no schema check yet
    problems = Catalog({"pagat": variant}).problems()

    assert [(problem.code, problem.json_path) for problem in problems] == [
        (ProblemCode.SCHEMA, "$.colour")
    ]


def test_a_variant_file_a_user_gives_is_checked_in_full(
    write_variant: Callable[..., Path],
) -> None:
    path = write_variant(append="colour: red\n")

    catalog = Catalog.load([path])

    assert [(p.code, p.json_path) for p in catalog.load_problems] == [
        (ProblemCode.SCHEMA, "$.colour")
    ]


def test_a_case_file_a_user_gives_is_checked_in_full(tmp_path: Path) -> None:
    shipped = cases_dir() / "gamerules-com.yaml"
    path = tmp_path / "cases.yaml"
    text = shipped.read_text(encoding="utf-8").replace("\ncases:\n", "\ncolour: red\ncases:\n", 1)
    assert "colour: red" in text
    path.write_text(text, encoding="utf-8")

    cases, problems = load_cases([path])

    assert cases == []
    assert [(p.code, p.json_path) for p in problems] == [(ProblemCode.SCHEMA, "$.colour")]


def test_resolving_again_gives_the_very_same_rules() -> None:
    catalog = Catalog.shipped()

    assert catalog.resolve("pagat", {"crosswise": "berndt"}) is catalog.resolve(
        "pagat", {"crosswise": "berndt"}
    )
    assert catalog.resolve("pagat") is not catalog.resolve("pagat", {"crosswise": "berndt"})


# --------------------------------------------------------------------------- the server's shortcut

#: Values a request's fields may be given, good and bad.
_ODD: list[Any] = [
    None,
    True,
    1.0,
    0,
    1,
    -1,
    5,
    2**60,
    "",
    "x",
    "x" * 100,
    "x" * 101,
    "é",
    [],
    {},
    ["x"],
]
_TILES = ["2-5", "12-18", "2-5\n", "\u0663-5", "123-1", "2_5", "", 25]


def _edits(request: dict[str, Any], field: str, values: list[Any]) -> list[dict[str, Any]]:
    """``request`` with ``field`` left out, and with each of ``values`` in it."""
    left_out = {key: value for key, value in request.items() if key != field}
    return [left_out] + [request | {field: value} for value in values]


def _odd_requests() -> list[dict[str, Any]]:
    """Valid new_match and new_hand requests, and each of them with one field gone wrong."""
    match = {"id": 1, "type": "new_match", "variant": "pagat", "options": {}, "players": 2}
    hand = {"id": 1, "type": "new_hand", "deal": {"hands": [["0-0"], ["1-2"]]}}
    deal = hand["deal"]
    assert isinstance(deal, dict)
    requests = [match, hand, match | {"x": 1}, hand | {"x": 1}]
    for field in ("variant", "options", "players"):
        requests += _edits(match, field, [*_ODD, 2, 3, 4, {"o": "v"}, {"": "v"}, {"o": 1}])
    requests += [match | {"options": {f"o{n}": "v" for n in range(count)}} for count in (64, 65)]
    requests += [hand | {"deal": value} for value in _ODD]
    for field, values in (
        ("hands", [[["0-0"]] * count for count in range(1, 6)] + [[t] for t in _TILES]),
        ("boneyard", [[tile] for tile in _TILES] + [["0-0"] * 190, ["0-0"] * 191, "0-0"]),
        ("designated", _ODD),
        ("x", [1]),
    ):
        requests += [hand | {"deal": edited} for edited in _edits(deal, field, values)]
    requests += [hand | {"deal": {"hands": [["0-0"] * 190, [tile]]}} for tile in _TILES]
    requests += [hand | {"deal": {"hands": [["0-0"] * 191, ["1-1"]]}}]
    return requests


@pytest.mark.parametrize("request_", _odd_requests())
def test_the_servers_shortcut_passes_just_what_the_schema_passes(request_: dict[str, Any]) -> None:
    kind = str(request_["type"])
    valid = not list(definition_validator(f"{kind}_request").iter_errors(request_))

    if plainly_valid(kind, request_):
        assert valid
    elif valid:  # left to the validator though valid: a field the protocol does not name,
        # or a tile with a line break after it (the schema's pattern lets it through)
        assert "x" in request_ or "x" in request_.get("deal", ()) or '\\n"' in json.dumps(request_)


def test_the_servers_shortcut_passes_every_request_of_the_suite() -> None:
    cases, _ = shipped_cases()
    requests = [
        {
            "id": 1,
            "type": "new_match",
            "variant": t.variant,
            "options": dict(t.options),
            "players": 4,
        }
        for case in cases
        for t in case.applies_to
    ]
    requests += [
        {"id": 1, "type": "new_hand", "deal": dict(hand.deal)}
        for case in cases
        for hand in case.hands
        if not hand.refuse_deal
    ]

    assert [r for r in requests if not plainly_valid(str(r["type"]), r)] == []
