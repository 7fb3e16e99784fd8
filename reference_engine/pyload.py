"""Finding a Python callable named ``MODULE:NAME`` or ``FILE.py:NAME``, for engines and strategies.

``--engine python:SPEC``, the pytest plugin's ``--matador-engine SPEC`` and
``matador simulate --strategy python:SPEC`` name a callable in someone's own
Python code: an engine's factory (a callable that takes no argument and returns
an object with the methods of
:class:`~reference_engine.conformance.protocol.interface.Engine`), or a strategy.

* ``MODULE:NAME`` imports ``MODULE`` from the current folder (or the folders
  the caller gives), so code in the folder you work in needs no
  ``PYTHONPATH``; in the judge those folders are searched last, so that a
  module there named like a library cannot stand in for it
  (:data:`FOLDERS_FIRST`).
* ``path/to/file.py:NAME`` loads that file (relative to the same folder)
  as a module named after it (or, when another module has that name, a name
  of its own), its own folder searched for what it imports, as ``python
  path/to/file.py`` would.

``NAME`` may be dotted (``Engines.fast``). Every way a spec can fail to name
a callable is a :class:`PythonSpecError` whose message is one line: what was
looked for, where, and the exception's type and message when the module's own
code failed while it was imported; never a traceback.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from .errors import InputProblem


class PythonSpecError(InputProblem, ValueError):
    """A ``python:`` spec that names no callable; the message is one line."""


def load_callable(
    spec: str,
    *,
    search: Sequence[Path] = (),
    noun: str = "FACTORY",
    example: str = "my_engine:make_engine",
    purpose: str = "makes an engine",
) -> Callable[..., Any]:
    """The callable ``spec`` names (``MODULE:NAME`` or ``FILE.py:NAME``).

    ``search`` lists the folders looked in first for ``MODULE`` and against
    which a relative ``FILE.py`` is read; by default, the current folder.
    ``noun``, ``example`` and ``purpose`` word the messages for what is looked
    for (an engine's factory, a strategy). Raises :class:`PythonSpecError` when
    the spec names no callable.
    """
    target, attribute, folders = _parts(spec, search, noun, example)
    module = _load_file(target, folders) if _is_file(target) else _import(target, folders)
    return _named(module, target, attribute, purpose)


def _parts(
    spec: str, search: Sequence[Path], noun: str, example: str
) -> tuple[str, str, list[Path]]:
    """The module or file ``spec`` names, the callable's name, and the folders to look in;
    PythonSpecError when the spec is not of the form ``MODULE:NAME`` or ``FILE.py:NAME``."""
    forms = f"MODULE:{noun} or path/to/file.py:{noun}"
    target, _, attribute = spec.strip().rpartition(":")
    if not target or not attribute:
        raise PythonSpecError(f"{spec!r} is not {forms} (e.g. python:{example})")
    if not all(part.isidentifier() for part in attribute.split(".")):
        raise PythonSpecError(f"{attribute!r} in {spec!r} is not a Python name ({forms})")
    if not _is_file(target) and not all(part.isidentifier() for part in target.split(".")):
        raise PythonSpecError(f"{spec!r} is not {forms} (e.g. python:{example})")
    return target, attribute, [Path(folder).resolve() for folder in search] or [Path.cwd()]


def check_spec(
    spec: str,
    *,
    search: Sequence[Path] = (),
    noun: str = "FACTORY",
    example: str = "my_engine:make_engine",
) -> None:
    """Raise :class:`PythonSpecError` when ``spec`` cannot name a callable, judging without
    running any of its code: its form, the file it names, the top-level module it names
    (found, not imported). What only importing tells (an error in the module's code, a
    missing attribute) is left to whoever loads it."""
    target, _, folders = _parts(spec, search, noun, example)
    if _is_file(target):
        given = Path(target).expanduser()
        candidates = [given] if given.is_absolute() else [folder / given for folder in folders]
        if not any(candidate.is_file() for candidate in candidates):
            where = "" if given.is_absolute() else " in " + " or ".join(map(str, folders))
            raise PythonSpecError(f"cannot load {target!r}: no such file{where}")
        return
    top = target.split(".")[0]
    import importlib.machinery

    paths = [str(folder) for folder in folders] + [entry or os.curdir for entry in sys.path]
    if top not in sys.builtin_module_names and (
        importlib.machinery.PathFinder.find_spec(top, paths) is None
    ):
        where = " or ".join(str(folder) for folder in folders)
        raise PythonSpecError(
            f"cannot import {target!r}: no module {top!r} in {where} or on the Python path"
        )


def _unless_stopped(error: BaseException) -> None:
    """Raise ``error`` again when it is a signal that stops the run (a judge's own
    ``Interrupted``), not the module's code raising ``KeyboardInterrupt`` itself."""
    if type(error).__name__ == "Interrupted":
        raise error


def _is_file(target: str) -> bool:
    return target.endswith(".py") or "/" in target or os.sep in target


def error_line(error: BaseException) -> str:
    """Why loading someone's code failed, on one line: a spec's own message as it is, any
    other exception as ``Type: message``."""
    return str(error) if isinstance(error, PythonSpecError) else _one_line(error)


def _one_line(error: BaseException) -> str:
    """``Type: message`` on one line, cut to a readable length."""
    try:
        text = " ".join(str(error).split())
    except Exception:  # an exception whose str() raises
        text = "(its message cannot be shown)"
    text = text if len(text) <= 300 else text[:297] + "..."
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


#: Whether the folders searched go first on the module search path (as ``python -m``
#: puts its own), or last. A process that hosts the code alone (:mod:`.conformance.pyhost`)
#: puts them first; the judge, whose own later imports (``jinja2`` for a report) must
#: not find a module of the same name in someone's folder, puts them last.
FOLDERS_FIRST = False


def _search_first(folders: Sequence[Path]) -> None:
    """Put ``folders`` on the module search path: first or last (:data:`FOLDERS_FIRST`)."""
    present = {os.path.abspath(entry or os.curdir) for entry in sys.path}
    for folder in reversed(folders) if FOLDERS_FIRST else folders:
        if str(folder) not in present:
            if FOLDERS_FIRST:
                sys.path.insert(0, str(folder))
            else:
                sys.path.append(str(folder))
    importlib.invalidate_caches()  # a module written since the last import is found


def _import(name: str, folders: Sequence[Path]) -> ModuleType:
    _search_first(folders)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        if missing and (name == missing or name.startswith(missing + ".")):
            where = " or ".join(str(folder) for folder in folders)
            raise PythonSpecError(
                f"cannot import {name!r}: no module {missing!r} in {where} or on the Python path"
            ) from None
        raise PythonSpecError(f"importing {name!r} failed: {_one_line(error)}") from None
    except BaseException as error:  # the module's own code failed while importing
        _unless_stopped(error)
        raise PythonSpecError(f"importing {name!r} failed: {_one_line(error)}") from None


def _load_file(target: str, folders: Sequence[Path]) -> ModuleType:
    given = Path(target).expanduser()
    candidates = [given] if given.is_absolute() else [folder / given for folder in folders]
    path = next((candidate for candidate in candidates if candidate.is_file()), None)
    if path is None:
        where = "" if given.is_absolute() else " in " + " or ".join(map(str, folders))
        raise PythonSpecError(f"cannot load {target!r}: no such file{where}")
    if path.suffix != ".py":
        raise PythonSpecError(f"cannot load {target!r}: give a Python file ending in .py")
    path = path.resolve()
    name = _module_name(path)
    if name in sys.modules:
        return sys.modules[name]  # loaded already, from this very file
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise PythonSpecError(f"cannot load {target!r}: not a Python module")
    _search_first([path.parent])  # its own imports are found beside it
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module  # dataclasses and pickle look the module up while it runs
    try:
        module_spec.loader.exec_module(module)
    except BaseException as error:  # (the module's own code may raise anything)
        _unless_stopped(error)
        del sys.modules[name]
        raise PythonSpecError(f"importing {target!r} failed: {_one_line(error)}") from None
    return module


def _module_name(path: Path) -> str:
    """The name a file is loaded under: its stem, unless a module of that name is another file."""
    loaded = sys.modules.get(path.stem)
    if loaded is None or _file_of(loaded) == path:
        return path.stem
    # json.py, or a second python_engine.py: a name of its own, the same for the same file
    digest = hashlib.sha256(str(path).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{path.stem}__{digest}"


def _file_of(module: ModuleType) -> Path | None:
    file = getattr(module, "__file__", None)
    return Path(file).resolve() if isinstance(file, str) else None


def _named(module: ModuleType, label: str, attribute: str, purpose: str) -> Callable[..., Any]:
    found: Any = module
    for part in attribute.split("."):
        found = getattr(found, part, None)
        if found is None:
            defined = sorted(
                key
                for key, value in vars(module).items()
                if callable(value)
                and not key.startswith("_")
                and getattr(value, "__module__", None) == module.__name__
            )
            hint = f"; it defines {', '.join(defined[:8])}" if defined else ""
            raise PythonSpecError(f"{label!r} has no attribute {attribute!r}{hint}")
    if not callable(found):
        raise PythonSpecError(
            f"{label}:{attribute} is a {type(found).__name__}, not a callable that {purpose}"
        )
    return found  # type: ignore[no-any-return]
