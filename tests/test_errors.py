"""Every error the project raises on purpose derives from one base, through its cause.

Read from the source (no module is imported, so no optional stack is needed):
every class the package defines whose bases lead to a built-in exception must
lead to :class:`~reference_engine.errors.MatadorError` too, unless it only
steers control flow inside its module (listed here, each with why).
"""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import pytest

from reference_engine import errors
from reference_engine.errors import (
    EngineProblem,
    InputProblem,
    MachineProblem,
    MatadorError,
    RulesRefuse,
)

PACKAGE = Path(errors.__file__).resolve().parent

#: Exceptions that are not errors: they carry control within a module or a run.
CONTROL_FLOW = {
    "Interrupted": "a signal stopping the run (a KeyboardInterrupt, on purpose)",
    "Skip": "a case the engine does not play, leaving the case loop",
    "Stop": "a case stopped at its first deviation",
    "Mismatch": "a legal set that differs, turned into a deviation where it is caught",
    "Parted": "a random game that parted from the reference, ending the game",
    "Unsupported": "a random game the engine declines, not judged",
    "TooDeep": "a YAML document nested too deep, turned into a problem where caught",
    "TooLarge": "a YAML document too large, turned into a problem where caught",
    "ParserExit": "argparse asking to exit, turned into a status",
    "OutputClosed": "standard output closed by its reader, turned into a status",
    "OutputFailed": "standard output failing, turned into a status and a message",
}

BUILTIN_EXCEPTIONS = {
    name for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
}  # fmt: skip


def _classes() -> dict[str, tuple[str, list[str]]]:
    """Every class of the package: its module, and the names of its bases."""
    found: dict[str, tuple[str, list[str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = [
                    base.id if isinstance(base, ast.Name) else ast.unparse(base).split(".")[-1]
                    for base in node.bases
                ]
                found[node.name] = (str(path.relative_to(PACKAGE)), bases)
    return found


def _leads_to(name: str, target: set[str], classes: dict[str, tuple[str, list[str]]]) -> bool:
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in target:
            return True
        if current in seen or current not in classes:
            continue
        seen.add(current)
        todo.extend(classes[current][1])
    return False


def test_every_error_derives_from_the_one_base() -> None:
    classes = _classes()
    exceptions = [name for name in classes if _leads_to(name, BUILTIN_EXCEPTIONS, classes)]
    assert len(exceptions) > 30
    stray = [
        f"{classes[name][0]}: {name}"
        for name in exceptions
        if not name.startswith("_")
        and name not in CONTROL_FLOW
        and not _leads_to(name, {"MatadorError"}, classes)
    ]
    assert stray == []


@pytest.mark.parametrize("cause", [InputProblem, RulesRefuse, EngineProblem, MachineProblem])
def test_each_cause_is_an_error_of_the_project(cause: type[Exception]) -> None:
    assert issubclass(cause, MatadorError)


def test_the_old_built_in_bases_still_catch_them() -> None:
    from reference_engine.conformance.protocol.replies import BadReply
    from reference_engine.rules import RulesError
    from reference_engine.safeio import OutputError

    assert issubclass(errors.NotationError, ValueError)
    assert issubclass(errors.IllegalActionError, ValueError)
    assert issubclass(RulesError, InputProblem) and issubclass(RulesError, ValueError)
    assert issubclass(OutputError, MachineProblem) and issubclass(OutputError, OSError)
    assert issubclass(BadReply, EngineProblem) and issubclass(BadReply, ValueError)
