"""``matador cases``: the suite's cases, chosen as ``conform`` chooses them, as a table that
fits 80 columns, JSON or Markdown.

What each selection must list is read here from the case files with a plain
YAML parser, not from the program's loader.
"""

from __future__ import annotations

import fnmatch
import io
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml

from reference_engine.cli import run

if TYPE_CHECKING:
    from conftest import CliResult

SUITE = Path(__file__).resolve().parents[1] / "conformance" / "cases"

#: PyYAML's safe loader, on libyaml where PyYAML has it: ten times faster on the
#: suite (a second less per test process), and just as plain.
_PLAIN = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def _suite(path: Path | None = None) -> list[dict[str, Any]]:
    """Every case of the shipped files (or of one file), in file order (read once)."""
    files = [path] if path else sorted(SUITE.rglob("*.yaml"))
    found = []
    for file in files:
        found.extend(yaml.load(file.read_text(encoding="utf-8"), Loader=_PLAIN)["cases"])
    return found


def _variants(case: dict[str, Any]) -> set[str]:
    return {target["variant"] for target in case["applies_to"]}


def _listed(matador: Callable[..., CliResult], *argv: str) -> list[dict[str, Any]]:
    result = matador("cases", *argv, "--format", "json")
    assert result.code == 0, result.err
    listed: list[dict[str, Any]] = json.loads(result.out)
    return listed


def test_every_case_of_the_suite_is_listed_with_its_description_and_rules(
    matador: Callable[..., CliResult],
) -> None:
    listed = {case["id"]: case for case in _listed(matador)}

    expected = _suite()
    assert sorted(listed) == sorted(case["id"] for case in expected)
    for case in expected:
        shown = listed[case["id"]]
        assert shown["description"] == case["description"]
        assert shown["exercises"] == case["exercises"]
        assert len(shown["variants"]) == len(case["applies_to"])


def test_variant_case_and_rule_filters_choose_as_conform_does(
    matador: Callable[..., CliResult],
) -> None:
    german = [case["id"] for case in _suite() if "german" in _variants(case)]
    assert {case["id"] for case in _listed(matador, "--variant", "german")} == set(german)

    globbed = [case["id"] for case in _suite() if fnmatch.fnmatchcase(case["id"], "*-draw-*")]
    assert {case["id"] for case in _listed(matador, "--case", "*-draw-*")} == set(globbed)

    # A rule alone matches every value of it; RULE=VALUE only that value.
    draws = [
        case["id"]
        for case in _suite()
        if any(rule.split("=")[0] == "draw_when" for rule in case["exercises"])
    ]
    no_play = [case["id"] for case in _suite() if "draw_when=no_play" in case["exercises"]]
    assert {case["id"] for case in _listed(matador, "--rule", "draw_when")} == set(draws)
    assert {case["id"] for case in _listed(matador, "--rule", "draw_when=no_play")} == set(no_play)
    assert set(no_play) < set(draws)

    listed = _listed(matador, "--variant", "german", "--rule", "draw_when")
    assert {case["id"] for case in listed} == set(german) & set(draws)
    for case in listed:  # only the german runs of each case are listed
        assert case["variants"]
        assert all(label == "german" or label.startswith("german[") for label in case["variants"])


def test_cases_reads_the_case_files_it_is_given(matador: Callable[..., CliResult]) -> None:
    path = SUITE / "german.yaml"

    listed = _listed(matador, "--cases", str(path))

    assert [case["id"] for case in listed] == [case["id"] for case in _suite(path)]


def test_a_rule_that_does_not_exist_is_invalid_input(matador: Callable[..., CliResult]) -> None:
    result = matador("cases", "--rule", "no_such_rule")

    assert result.code == 1
    assert result.err.startswith("matador cases: --rule: no rule called 'no_such_rule'")


def test_a_selection_that_matches_nothing_says_so(matador: Callable[..., CliResult]) -> None:
    result = matador("cases", "--case", "no-such-case-*")

    assert result.code == 1
    assert result.err == "matador cases: no case matches the selection\n"


def test_the_table_fits_80_columns_and_names_every_case(
    matador: Callable[..., CliResult],
) -> None:
    result = matador("cases", "--variant", "german")

    assert result.code == 0
    lines = result.out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "\x1b" not in result.out  # not a terminal: no colour, no style
    german = [case for case in _suite() if "german" in _variants(case)]
    runs = sum(
        1 for case in german for target in case["applies_to"] if target["variant"] == "german"
    )
    assert f"{len(german)} case(s), {runs} run(s)" in lines[0]
    # Each case is a block after a blank line; its id leads it, broken only after a hyphen.
    blocks = "\n".join(lines[4:]).split("\n\n")
    assert len(blocks) == len(german)
    for block, case in zip(blocks, german, strict=True):
        left = [line[:40].rstrip() for line in block.splitlines()]
        joined = ""
        for part in left:
            joined += part
            if not part.endswith("-"):
                break
        assert joined == case["id"]
        right = " ".join(line[42:] for line in block.splitlines())
        for rule in case["exercises"]:
            assert rule in right.replace(" ", "") or rule in block


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


#: A Select Graphic Rendition sequence; its parameters say what it sets.
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def _colours(text: str) -> list[str]:
    """The colour parameters (foreground or background) of every SGR sequence in ``text``."""
    found = []
    for sequence in SGR.findall(text):
        for number in filter(None, sequence.split(";")):
            if 30 <= int(number) <= 49 or 90 <= int(number) <= 107:
                found.append(number)
    return found


def test_on_a_terminal_the_heading_is_bold_and_never_styled_with_no_color(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    out = Terminal()
    assert run(["cases", "--case", "german-*"], out, io.StringIO()) == 0
    assert SGR.search(out.getvalue())
    assert _colours(out.getvalue()) == []  # bold, no colour

    monkeypatch.setenv("NO_COLOR", "1")
    out = Terminal()
    assert run(["cases", "--case", "german-*"], out, io.StringIO()) == 0
    assert not SGR.search(out.getvalue())


def test_markdown_has_a_row_per_case(matador: Callable[..., CliResult]) -> None:
    result = matador("cases", "--variant", "german", "--format", "markdown")

    assert result.code == 0
    rows = [line for line in result.out.splitlines() if line.startswith("| `")]
    german = [case for case in _suite() if "german" in _variants(case)]
    assert len(rows) == len(german)
    assert result.out.startswith("| id | description | exercises | variants |\n|---|---|---|---|\n")
    for row, case in zip(rows, german, strict=True):
        assert row.startswith(f"| `{case['id']}` | ")
        assert row.count(" | ") == 3  # no cell holds an unescaped pipe


def test_a_variant_with_options_chooses_the_runs_under_those_values(
    matador: Callable[..., CliResult],
) -> None:
    under = {
        case["id"]
        for case in _suite()
        for target in case["applies_to"]
        if target["variant"] == "german" and target.get("options", {}).get("set") == "double_nine"
    }
    assert under  # the suite has such runs
    listed = _listed(matador, "--variant", "german:set=double_nine")
    assert {case["id"] for case in listed} == under
    assert all(
        variants == ["german[set=double_nine]"]
        for variants in (case["variants"] for case in listed)
    )


def test_every_option_value_of_every_shipped_variant_has_a_case() -> None:
    """A value no case runs under is a value no engine is judged on."""
    from shipped import shipped_cases

    from reference_engine.rules import Catalog

    catalog = Catalog.shipped()
    loaded, problems = shipped_cases()
    assert problems == ()
    chosen: dict[str, list[dict[str, str]]] = {}
    for case in loaded:
        for target in case.applies_to:
            chosen.setdefault(target.variant, []).append(dict(target.options))
    missing = []
    for variant in catalog.ids():
        for option in catalog.resolve(variant).options:
            for value in option.values:
                runs = chosen.get(variant, [])
                if value.name == option.default:
                    covered = any(option.name not in options for options in runs)
                else:
                    covered = any(options.get(option.name) == value.name for options in runs)
                if not covered:
                    missing.append(f"{variant}:{option.name}={value.name}")
    assert missing == [], "option values no case runs under: " + ", ".join(missing)
