"""What an engine author meets: the Python interface's page, ``python:`` engines, the pytest
plugin from another project, and the example engines shipped with the package.

* docs/python-engines.md gives the interface exactly as conformance/protocol/interface.py
  defines it (its code block is compared with the code, signature by signature);
* docs/examples/python_engine.py, written from the SPEC, passes the suite for its variant;
* ``--engine python:MODULE:FACTORY`` and ``python:path/file.py:FACTORY`` work from the
  folder the user is in, with no PYTHONPATH, and every way of naming no engine gets one
  line (the real ``matador`` process, run from a temporary folder);
* the pytest plugin works in a project of its own, rootdir and all (pytester);
* ``matador example`` finds the examples in a checkout and in the installed layout the
  wheel's force-include table makes.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fitting import flat, message_count, unfitted
from projectfile import force_include

from reference_engine.cli import run
from reference_engine.conformance.protocol import interface as engine_module
from reference_engine.conformance.protocol.codes import ErrorCode
from reference_engine.conformance.protocol.interface import ENGINE_METHODS, EngineInfo, FailureKind
from reference_engine.conformance.suite.casedata import load_cases
from reference_engine.conformance.suite.selection import select
from reference_engine.exits import ExitStatus
from reference_engine.rules import datafiles

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "python-engines.md"
EXAMPLE = ROOT / "docs" / "examples" / "python_engine.py"
ENGINE_SOURCE = Path(engine_module.__file__)

#: The example's variant, and the option values it declares: each option's default.
VARIANT = "gamerules-com"

#: A case of the survey's annotated opening: it applies to gamerules-com and to another
#: variant, which the example does not play.
SURVEY_CASE = "survey-annotated-opening"


def matador(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------------------- the interface's page


def _doc_block() -> ast.Module:
    """The page's Python block that defines ``Engine``."""
    text = DOC.read_text(encoding="utf-8")
    blocks = [part.split("```", 1)[0] for part in text.split("```python\n")[1:]]
    found = [block for block in blocks if "class Engine(Protocol)" in block]
    assert len(found) == 1, "docs/python-engines.md has no single block defining Engine"
    return ast.parse(found[0])


def _shape(tree: ast.Module) -> dict[str, Any]:
    """The interface's signatures in ``tree``: methods, fields, the factory and the refusal."""
    shape: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in ("Engine", "EngineRefusal"):
            shape[node.name] = [
                (item.name, ast.unparse(item.args), ast.unparse(item.returns or ast.Constant(None)))
                for item in node.body
                if isinstance(item, ast.FunctionDef)
            ]
        elif isinstance(node, ast.ClassDef) and node.name == "EngineInfo":
            shape[node.name] = [
                (ast.unparse(item.target), ast.unparse(item.annotation), ast.unparse(item.value))
                for item in node.body
                if isinstance(item, ast.AnnAssign) and item.value is not None
            ] + [
                (ast.unparse(item.target), ast.unparse(item.annotation), None)
                for item in node.body
                if isinstance(item, ast.AnnAssign) and item.value is None
            ]
            shape["EngineInfo decorators"] = [ast.unparse(d) for d in node.decorator_list]
        elif isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "EngineFactory":
            shape["EngineFactory"] = ast.unparse(node.value)
    return shape


def test_the_page_gives_the_interface_exactly_as_the_code_defines_it() -> None:
    documented = _shape(_doc_block())
    defined = _shape(ast.parse(ENGINE_SOURCE.read_text(encoding="utf-8")))
    assert set(documented) == {
        "Engine",
        "EngineRefusal",
        "EngineInfo",
        "EngineInfo decorators",
        "EngineFactory",
    }
    for name, signatures in documented.items():
        assert signatures == defined[name], f"docs/python-engines.md: {name} differs from the code"


def test_the_page_lists_every_method_in_the_order_the_runner_knows() -> None:
    methods = [name for name, _, _ in _shape(_doc_block())["Engine"]]
    assert tuple(methods) == ENGINE_METHODS
    assert [field.name for field in dataclasses.fields(EngineInfo)] == [
        "name",
        "version",
        "protocol",
        "variants",
        "extra",
        "plays",
    ]


def _table_after(heading: str) -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8").split(heading, 1)[1]
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows and not line.startswith("|"):
            break
    return rows[1:]


def test_the_codes_the_page_lets_an_engine_raise_are_protocol_codes() -> None:
    rows = _table_after("### Refusing a request")
    named = {code.strip(" `") for row in rows for code in row[1].split(",")}
    assert named == {
        "unsupported",
        "bad_deal",
        "hand_in_progress",
        "match_over",
        "no_match",
        "no_hand",
        "no_such_seat",
        "bad_notation",
    }
    assert named <= {code.value for code in ErrorCode}


def test_the_failure_kinds_the_page_names_are_the_runners() -> None:
    text = DOC.read_text(encoding="utf-8").split("### When an engine breaks the protocol", 1)[1]
    text = text.split("## A complete example", 1)[0]
    for kind in ("raised", "timeout", "bad_reply", "handshake"):
        assert f"`{kind}`" in text
        assert FailureKind(kind)


# ------------------------------------------------------------------------------ the Python example


def test_the_python_example_uses_the_package_only_for_the_interfaces_types() -> None:
    tree = ast.parse(EXAMPLE.read_text(encoding="utf-8"))
    imported = {
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }
    ours = {pair for pair in imported if pair[0].startswith("reference_engine")}
    assert ours == {
        ("reference_engine.conformance", "EngineInfo"),
        ("reference_engine.conformance", "EngineRefusal"),
    }
    plain = [node for node in ast.walk(tree) if isinstance(node, ast.Import)]
    assert all(not alias.name.startswith("reference_engine") for n in plain for alias in n.names)


def _default_runs_of_the_variant() -> int:
    """How many case runs the suite makes of gamerules-com at its default options."""
    cases, problems = load_cases()
    assert not problems
    return sum(1 for _, target in select(cases, variants=[VARIANT]) if not dict(target.options))


def test_the_python_example_passes_every_case_of_its_variant_and_skips_the_rest() -> None:
    code, out, err = matador(
        "conform", "--engine", f"python:{EXAMPLE}:make_engine", "--variant", VARIANT,
        "--report", "json",
    )  # fmt: skip
    assert code == ExitStatus.OK, err
    cases = [line for line in map(json.loads, out.splitlines()) if line["type"] == "case"]
    verdicts = [case["verdict"] for case in cases]
    at_positions = sum("takes positions" in case["message"] for case in cases)
    assert verdicts.count("pass") == _default_runs_of_the_variant() - at_positions > 0
    assert set(verdicts) == {"pass", "skip"}
    for case in cases:
        if case["verdict"] == "skip":  # the runs under another option value, or at a position
            assert "does not declare option" in case["message"] or (
                "takes positions" in case["message"]
            )


@pytest.mark.slow
def test_random_games_find_no_divergence_in_the_python_example() -> None:
    code, out, err = matador(
        "conform", "--engine", f"python:{EXAMPLE}:make_engine", "--variant", VARIANT,
        "--case", SURVEY_CASE, "--random", "20", "--seed", "5",
    )  # fmt: skip
    assert code == ExitStatus.OK, out + err
    assert "0 kind(s) of divergence" in flat(out)


# ---------------------------------------------------------- python: engines from the user's folder


def matador_process(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real ``matador`` as its console script runs: no PYTHONPATH, no folder on the path.

    ``-I`` keeps the current folder and PYTHONPATH out of ``sys.path``, as the installed
    ``matador`` script does (``python -m`` and ``python -c`` would put the folder in).
    """
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            "from reference_engine.cli.console import main; main()",
            *argv,
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A user's folder: the example engine as ``my_engine.py``, and as a file that imports it."""
    shutil.copy(EXAMPLE, tmp_path / "my_engine.py")
    (tmp_path / "engines").mkdir()
    shutil.copy(EXAMPLE, tmp_path / "engines" / "rules_of_mine.py")
    (tmp_path / "engines" / "entry.py").write_text(
        "from rules_of_mine import make_engine  # beside this file\n", encoding="utf-8"
    )
    (tmp_path / "broken_engine.py").write_text(
        "import json\nTABLE = json.loads('{not json')\n", encoding="utf-8"
    )
    (tmp_path / "grumpy_engine.py").write_text(
        "def make_engine():\n    raise RuntimeError('no tables today')\n", encoding="utf-8"
    )
    return tmp_path


def _survey_summary() -> str:
    """The summary of a run of the survey case on the example: it plays gamerules-com only."""
    cases, _ = load_cases()
    targets = [target for _, target in select(cases, case_globs=[SURVEY_CASE])]
    played = sum(1 for t in targets if t.variant == VARIANT and not dict(t.options))
    assert 0 < played < len(targets)  # the case also applies to a variant the example skips
    return f"{played} passed, 0 failed, 0 errored, {len(targets) - played} skipped"


def _one_survey_run(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == ExitStatus.OK, done.stdout + done.stderr
    assert _survey_summary() in done.stdout


@pytest.mark.slow
def test_a_module_in_the_current_folder_needs_no_pythonpath(folder: Path) -> None:
    done = matador_process(
        "conform", "--engine", "python:my_engine:make_engine", "--case", SURVEY_CASE, cwd=folder
    )
    _one_survey_run(done)


@pytest.mark.slow
def test_a_file_is_loaded_by_its_path_and_finds_what_it_imports_beside_it(folder: Path) -> None:
    done = matador_process(
        "conform", "--engine", "python:engines/entry.py:make_engine", "--case", SURVEY_CASE,
        cwd=folder,
    )  # fmt: skip
    _one_survey_run(done)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("engine", "status", "says"),
    [
        (
            "python:no_engine_here:make_engine",
            ExitStatus.USAGE,
            "cannot import 'no_engine_here': no module 'no_engine_here' in {folder}",
        ),
        (
            "python:engines/missing.py:make_engine",
            ExitStatus.USAGE,
            "cannot load 'engines/missing.py': no such file in {folder}",
        ),
        (
            "python:my_engine:make_engin",
            ExitStatus.USAGE,
            "'my_engine' has no attribute 'make_engin'; it defines",
        ),
        (
            "python:broken_engine:make_engine",
            ExitStatus.USAGE,
            "importing 'broken_engine' failed: JSONDecodeError: Expecting property name",
        ),
        (
            "python:grumpy_engine:make_engine",
            ExitStatus.ENGINE_UNAVAILABLE,
            "the factory raised RuntimeError: no tables today",
        ),
    ],
)
@pytest.mark.parametrize("mode", [(), ("--in-process",)], ids=["hosted", "in-process"])
def test_an_engine_that_cannot_be_had_is_one_line_without_a_traceback(
    folder: Path, engine: str, status: int, says: str, mode: tuple[str, ...]
) -> None:
    argv = ["conform", "--engine", engine, *mode, "--case", SURVEY_CASE]
    done = matador_process(*argv, cwd=folder)
    if not mode and "cannot" not in says:
        # in a process of its own, what only loading the code tells is told by the run:
        # the engine did not start
        status = ExitStatus.ENGINE_UNAVAILABLE
    assert done.returncode == status, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    expected = says.format(folder=folder.resolve())
    if status == ExitStatus.USAGE:
        assert done.stdout == ""
        assert len(unfitted(done.stderr)) == 1, done.stderr
        assert done.stderr.startswith("matador conform: --engine: ")
        assert flat(expected) in flat(done.stderr)
    else:  # the run says once why the engine did not start, then the table
        first = unfitted(done.stdout)[0]
        assert first.startswith(f"ENGINE UNAVAILABLE: the engine did not start: {expected}")


# ------------------------------------------------------------ the pytest plugin in another project


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    """A project of its own: an engine at its top, its tests in tests/, decoy data files."""
    root = pytester.path
    shutil.copy(EXAMPLE, root / "authors_engine.py")
    (root / "engines").mkdir()
    shutil.copy(EXAMPLE, root / "engines" / "authors_rules.py")
    (root / "engines" / "authors_entry.py").write_text(
        "from authors_rules import make_engine\n", encoding="utf-8"
    )
    (root / "tests").mkdir()
    (root / "tests" / "test_own.py").write_text("def test_own() -> None:\n    pass\n")
    # Files where the checkout keeps the suite's data: the plugin must not read them.
    (root / "conformance" / "cases").mkdir(parents=True)
    (root / "conformance" / "cases" / "broken.yaml").write_text("cases: [", encoding="utf-8")
    (root / "variants").mkdir()
    (root / "variants" / "broken.yaml").write_text("id: [", encoding="utf-8")
    return root


@pytest.mark.slow
def test_the_plugin_runs_from_a_tests_folder_below_another_rootdir(
    project: Path, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "pyproject.toml").write_text("[tool.pytest.ini_options]\ntestpaths = ['tests']\n")
    monkeypatch.chdir(project / "tests")
    result = pytester.runpytest(
        "--matador-engine", "authors_engine:make_engine", "--matador-case", SURVEY_CASE, "-v"
    )
    result.assert_outcomes(passed=2, skipped=1)
    result.stdout.fnmatch_lines(
        [f"rootdir: {project}*", f"*matador[[]{SURVEY_CASE}][[]{VARIANT}] PASSED*"]
    )


@pytest.mark.slow
def test_the_plugin_takes_the_engine_from_the_projects_configuration(
    project: Path, pytester: pytest.Pytester
) -> None:
    (project / "pyproject.toml").write_text(
        "[tool.pytest.ini_options]\n"
        "testpaths = ['tests']\n"
        "matador_engine = 'engines/authors_entry.py:make_engine'\n"
    )
    result = pytester.runpytest("--matador-case", SURVEY_CASE, "--matador-variant", VARIANT)
    result.assert_outcomes(passed=2)


@pytest.mark.slow
def test_the_plugin_says_in_one_line_where_it_looked_for_a_missing_engine(
    project: Path, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    monkeypatch.chdir(project / "tests")
    result = pytester.runpytest("--matador-engine", "no_engine_here:make_engine")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: --matador-engine: cannot import 'no_engine_here': no module "
            f"'no_engine_here' in {project / 'tests'} or {project} or on the Python path"
        ]
    )


# --------------------------------------------------------------------------------- matador example


@pytest.mark.parametrize(
    ("language", "opening"), [("node", "#!/usr/bin/env node"), ("python", '"""A small Matador')]
)
def test_example_prints_the_path_of_the_installed_example(language: str, opening: str) -> None:
    code, out, err = matador("example", language)
    assert code == ExitStatus.OK, err
    path = Path(out.strip())
    assert message_count(out) == 1 and path.is_absolute()
    assert path == datafiles.example_path(language)
    assert path.read_text(encoding="utf-8").startswith(opening)


def test_example_copies_the_engine_and_its_readme_and_never_overwrites(tmp_path: Path) -> None:
    code, out, err = matador("example", "node", "--copy", str(tmp_path))
    assert code == ExitStatus.OK, err
    copied = tmp_path / "matador-engine.js"
    readme = tmp_path / "README.md"
    assert copied.read_bytes() == datafiles.example_path("node").read_bytes()
    assert readme.read_bytes() == (datafiles.data_root() / datafiles.EXAMPLES_README).read_bytes()
    kit = tmp_path / "matador-kit.js"  # the adapter kit comes with the Node example
    assert (
        kit.read_bytes()
        == (datafiles.data_root() / datafiles.EXAMPLE_COMPANIONS["node"][0]).read_bytes()
    )
    assert f"node {copied}" in flat(out)
    readme.write_text("my own notes\n", encoding="utf-8")
    copied.unlink()
    code, out, err = matador("example", "node", "--copy", str(tmp_path))
    assert code == ExitStatus.INVALID
    assert unfitted(err) == [
        f"matador example: {readme} already exists; nothing was copied "
        "(remove it, or copy into another folder)"
    ]
    assert readme.read_text(encoding="utf-8") == "my own notes\n"
    assert not copied.exists()  # all or nothing


def test_example_copy_makes_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "engine"
    code, out, err = matador("example", "python", "--copy", str(folder))
    assert (code, err) == (ExitStatus.OK, "")
    assert unfitted(out)[0] == f"copied python_engine.py and README.md to {folder}"
    assert sorted(path.name for path in folder.iterdir()) == ["README.md", "python_engine.py"]


def test_example_copy_into_a_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("mine\n", encoding="utf-8")
    code, out, err = matador("example", "python", "--copy", str(tmp_path / "file"))
    assert (code, out) == (ExitStatus.USAGE, "")
    assert unfitted(err) == [f"matador example: --copy: {tmp_path / 'file'} is not a folder"]
    assert (tmp_path / "file").read_text(encoding="utf-8") == "mine\n"


@pytest.mark.slow  # a whole run of the Node.js engine
def test_the_readme_runs_the_installed_node_example(node: str) -> None:
    _, path, _ = matador("example", "node")
    code, out, err = matador("conform", "--engine", f"{node} {path.strip()}", "--case", SURVEY_CASE)
    assert code == ExitStatus.OK, err
    assert _survey_summary() in out


# ------------------------------------------------------- the data folder, checked out or installed


def _shipped_files() -> list[str]:
    return [*datafiles.EXAMPLES.values(), datafiles.EXAMPLES_README]


def _package_files_at(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Place the package ``reference_engine`` at ``folder``, as far as its data is found."""
    monkeypatch.setattr(datafiles, "package_folder", lambda: folder)


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The package as the wheel lays it out: the force-include table's copies under _data."""
    package = tmp_path / "site-packages" / "reference_engine"
    for source, destination in force_include().items():
        target = tmp_path / "site-packages" / destination
        if (ROOT / source).is_dir():
            shutil.copytree(ROOT / source, target)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / source, target)
    _package_files_at(monkeypatch, package)
    yield package


def test_the_wheel_ships_every_example_under_the_data_folder() -> None:
    table = force_include()
    for relative in _shipped_files():
        sources = [
            source for source in table if relative == source or relative.startswith(source + "/")
        ]
        assert len(sources) == 1, f"{relative} is not in the wheel's force-include table"
        source = sources[0]
        assert table[source] == f"reference_engine/_data/{source}"


def test_the_examples_are_found_in_the_installed_layout(installed: Path) -> None:
    assert datafiles.data_root() == installed / "_data"
    for language, relative in datafiles.EXAMPLES.items():
        path = datafiles.example_path(language)
        assert path == installed / "_data" / relative
        assert path.read_bytes() == (ROOT / relative).read_bytes()
    code, out, _ = matador("example", "node")
    assert (code, out) == (ExitStatus.OK, f"{installed / '_data' / datafiles.EXAMPLES['node']}\n")


def test_the_examples_are_found_in_a_checkout(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    checkout = Path(datafiles.__file__).resolve().parents[2]
    if not (checkout / "pyproject.toml").is_file():
        pytest.skip("the package is installed, not run from a checkout")
    _package_files_at(monkeypatch, tmp_path)  # a package folder without _data
    assert datafiles.data_root() == checkout
    for language, relative in datafiles.EXAMPLES.items():
        assert datafiles.example_path(language) == checkout / relative
        assert datafiles.example_path(language).is_file()
    assert (checkout / datafiles.EXAMPLES_README).is_file()
