"""The judge (``reference_engine.conformance``) is in layers that import one way.

Its sub-packages are ordered (the package docstring and docs/architecture.md
name the order); a module imports only from its own layer and those below it,
never from a layer above or from the commands on top, whether the import runs
at load time, inside a function or only for type checking. No two of the
judge's modules import each other, directly or round a circle, and no module
of the judge shares its name with another module of the project.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "reference_engine"
JUDGE = PACKAGE / "conformance"

#: The layers, lowest first: each may import those before it.
LAYERS = (
    "suite",
    "protocol",
    "transport",
    "judging",
    "games",
    "session",
    "analysis",
    "reports",
)
#: The modules on top of the layers: the commands, the pytest plugin, the public surface.
TOP = {"__init__.py", "conform.py", "records.py", "pytest_plugin.py"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every ``reference_engine`` module or package ``path`` imports, as dotted names."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("reference_engine"):
                found.add(target)
                found.update(f"{target}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("reference_engine"))
    return found


MODULES = {_module_name(p): p for p in sorted(JUDGE.rglob("*.py"))}


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) >= 3 and parts[2] in LAYERS else None


def test_the_top_holds_only_the_commands_and_the_surface() -> None:
    top = {p.name for p in JUDGE.glob("*.py")}
    assert top == TOP
    assert len(top) <= 10
    subpackages = {p.name for p in JUDGE.iterdir() if (p / "__init__.py").is_file()}
    assert subpackages == set(LAYERS)
    doc = (JUDGE / "__init__.py").read_text(encoding="utf-8")
    architecture = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    for layer in LAYERS:
        assert f"``{layer}/``" in doc, layer
        assert f"`conformance/{layer}/`" in architecture, layer


@pytest.mark.parametrize(
    "module", [m for m in MODULES if _layer(m)], ids=lambda m: m.split(".", 2)[2]
)
def test_a_layer_imports_only_those_below_it(module: str) -> None:
    own = LAYERS.index(_layer(module) or "")
    for target in _imports(MODULES[module]):
        if not target.startswith("reference_engine.conformance"):
            continue
        layer = _layer(target)
        assert layer is not None, f"{module} imports {target}, which is above every layer"
        assert LAYERS.index(layer) <= own, f"{module} imports {target}, a layer above it"


def test_no_two_modules_of_the_judge_import_each_other() -> None:
    graph = {
        module: {t for t in _imports(path) if t in MODULES and t != module}
        for module, path in MODULES.items()
        if not module.endswith("conformance")  # (the surface names what it re-exports)
    }
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                circle = [*path[path.index(target) :], target]
                pytest.fail("imports go round: " + " -> ".join(circle))
            if target not in state:
                walk(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module, [module])


def test_no_module_of_the_judge_shares_a_name() -> None:
    """``cases``, ``identify``, ``report`` and ``engine`` each named two modules once."""
    elsewhere: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        stem = path.parent.name if path.name == "__init__.py" else path.stem
        elsewhere.setdefault(stem, []).append(str(path.relative_to(PACKAGE)))
    for path in JUDGE.rglob("*.py"):
        if path.name == "__init__.py" and path.parent == JUDGE:
            continue
        stem = path.parent.name if path.name == "__init__.py" else path.stem
        assert len(elsewhere[stem]) == 1, (stem, sorted(elsewhere[stem]))


def test_the_interface_still_imports_from_where_it_was_documented() -> None:
    """Engines written against the older path keep working: it is the same module."""
    code = (
        "from reference_engine.conformance.engine import Engine, EngineInfo\n"
        "import reference_engine.conformance.protocol.interface as interface\n"
        "import reference_engine.conformance.engine as old\n"
        "assert old is interface and Engine is interface.Engine\n"
        "assert interface.__spec__.name == interface.__name__\n"
        "import reference_engine.conformance as judge\n"
        "assert judge.EngineInfo is EngineInfo\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr
