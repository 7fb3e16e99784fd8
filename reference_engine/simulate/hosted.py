"""A ``python:`` strategy played in a process of its own: its code never runs in the judge.

``simulate --strategy python:SPEC`` names somebody's function. Run in the
simulation's own process, it could print into a JSON report, exit the run
with no message, raise what is no ``Exception``, or return something that is
no legal action. :class:`HostedStrategy` is what a seat plays instead: on its
first decision it starts a host (:func:`main`, in a process of its own, ended
with its parent), which loads the strategy; then, for each decision, it sends
the rules (once), the table as the seat sees it (the position, or before the
opening tile the deal), the legal actions and a seed, and reads back one line
of JSON: the action chosen, or why there is none. Every answer is checked: it
must come within :data:`DEADLINE` seconds and be one of the legal actions.
Anything else is a :class:`StrategyFailed` naming the strategy and what it did.

The hand the hosted strategy is given is rebuilt from the position
(:func:`~reference_engine.engine.state.hand_at`): the hands, the open ends,
the boneyard, the seat to act, the passes and a tile just drawn, as the rules
see them; the actions that led there are not part of it. The choices are
seeded from the simulation's own generator, so a run is repeatable.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import random
import selectors
import signal
import struct
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from .. import pyload
from ..engine.actions import Action, AnyAction
from ..engine.hand import Hand, Phase
from ..engine.state import hand_at, state_of
from ..engine.strategies import (
    STRATEGIES,
    Strategy,
    UnknownStrategy,
    python_spec,
    strategy_named,
)
from ..errors import EngineProblem
from ..orphans import before_exec
from ..pyload import PythonSpecError, check_spec
from ..rules.model import Rules
from ..sinks import printable

#: Seconds a strategy has for one decision (its start-up included, on the first).
DEADLINE = 30.0

#: The longest answer read from a host, in bytes.
LONGEST_ANSWER = 4096

_BOOT = (
    "import sys; del sys.path[0]; "
    "from reference_engine.simulate.hosted import main; sys.exit(main(sys.argv[1:]))"
)


class StrategyFailed(EngineProblem):
    """A hosted strategy did not give a legal action: the message says what it did."""


class HostedStrategy:
    """The strategy ``spec`` (``MODULE:NAME`` or ``FILE.py:NAME``, found in ``folder``),
    played in a process of its own; picklable, so a worker process plays it too (with a
    host of its own)."""

    def __init__(self, spec: str, folder: str | None = None) -> None:
        self.spec = spec
        self.folder = folder if folder is not None else os.getcwd()
        self._child: _Host | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"spec": self.spec, "folder": self.folder}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.spec, self.folder, self._child = state["spec"], state["folder"], None

    @property
    def name(self) -> str:
        """How a report names it."""
        return f"python:{self.spec}"

    def __call__(self, hand: Hand, legal: Sequence[AnyAction], rng: random.Random) -> AnyAction:
        if self._child is None or not self._child.alive:
            self._child = _Host(self.spec, self.folder)
        return self._child.choose(hand, legal, rng.getrandbits(64), self.name)

    def close(self) -> None:
        """Stop the host, if one runs."""
        if self._child is not None:
            self._child.stop()
            self._child = None


class _Host:
    """One running host: its process, its pipes, and the rules it has been sent."""

    def __init__(self, spec: str, folder: str) -> None:
        self._errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (kept open with it)
        command = [sys.executable, "-c", _BOOT, folder, spec]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errors,
            start_new_session=True,
            preexec_fn=before_exec(),
        )
        self._rules: dict[int, tuple[Rules, int]] = {}
        self.alive = True
        self.label = f"python:{spec}"

    def choose(self, hand: Hand, legal: Sequence[AnyAction], seed: int, name: str) -> AnyAction:
        rules = hand.rules
        known = self._rules.get(id(rules))
        if known is None or known[0] is not rules:
            known = self._rules[id(rules)] = (rules, len(self._rules))
            self._send(("rules", known[1], rules))
        opened = hand.phase is not Phase.OPENING
        table = state_of(hand) if opened else hand.deal
        self._send(("choose", known[1], opened, table, [str(a) for a in legal], seed))
        answer = self._answer(name)
        if "action" not in answer:
            raise self._failed(name, str(answer.get("error", "it gave no action")))
        text = answer["action"]
        by_text = {str(action): action for action in legal}
        if not isinstance(text, str) or text not in by_text:
            shown = json.dumps(text)[:80]
            some = " ".join(list(by_text)[:8]) + (" ..." if len(by_text) > 8 else "")
            raise self._failed(
                name, f"it chose {shown}, which is not one of the legal actions ({some})"
            )
        return by_text[text]

    def _send(self, message: tuple[Any, ...]) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(struct.pack("<I", len(data)) + data)
            self.process.stdin.flush()
        except OSError:
            raise self._failed("", "it stopped before it was asked") from None

    def _answer(self, name: str) -> dict[str, Any]:
        assert self.process.stdout is not None
        stream = self.process.stdout
        with selectors.DefaultSelector() as selector:
            selector.register(stream, selectors.EVENT_READ)
            if not selector.select(DEADLINE):
                raise self._failed(name, f"it chose nothing within {DEADLINE:g} s")
        line = stream.readline(LONGEST_ANSWER + 1)
        if not line:
            raise self._failed(name, "it stopped without choosing")
        try:
            answer = json.loads(line)
        except ValueError:
            raise self._failed(name, "its answer was not readable") from None
        if not isinstance(answer, dict):
            raise self._failed(name, "its answer was not readable")
        return answer

    def _failed(self, name: str, what: str) -> StrategyFailed:
        self._end()  # (all it wrote is in the file now)
        self._errors.seek(0, os.SEEK_END)
        size = self._errors.tell()
        self._errors.seek(max(0, size - 2000))
        tail = self._errors.read().decode("utf-8", "replace").strip().splitlines()[-3:]
        tail = [printable(line) for line in tail]
        self.stop()
        said = ("; its standard error ends: " + " | ".join(tail)) if tail else ""
        return StrategyFailed(f"strategy {name or self.label}: {what}{said}")

    def stop(self) -> None:
        if not self.alive:
            return
        self.alive = False
        self._end()
        for stream in (self.process.stdin, self.process.stdout, self._errors):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def _end(self) -> None:
        """End the host and what it started, and reap it."""
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def strategy_for(name: str, *, in_process: bool = False, check_only: bool = False) -> Strategy:
    """The strategy ``name`` gives a seat: a built-in one; a ``python:`` one played in a
    process of its own (a :class:`HostedStrategy`), or loaded here when ``in_process``.
    ``check_only`` runs none of its code: its form and whereabouts are checked, and a
    built-in or hosted strategy is returned. UnknownStrategy when ``name`` names none."""
    found = STRATEGIES.get(name)
    if found is not None:
        return found
    rest = python_spec(name)
    if in_process and not check_only:
        printed, sys.stdout = sys.stdout, sys.stderr  # (what its import prints, too)
        try:
            return Trusted(name, strategy_named(name))
        finally:
            sys.stdout = printed
    try:
        check_spec(rest, noun="NAME", example="my_strategies:greedy")
    except PythonSpecError as error:
        raise UnknownStrategy(f"strategy {name!r}: {error}") from None
    return HostedStrategy(rest)


class Trusted:
    """A ``python:`` strategy loaded into this process (``--in-process``), held to the
    same answers as a hosted one: what it prints goes to standard error, and an
    exception (an exit included) or a choice that is not legal is a
    :class:`StrategyFailed` naming it. Its time and what else its code does are
    trusted."""

    def __init__(self, name: str, strategy: Strategy) -> None:
        self.name, self._strategy = name, strategy

    def __call__(self, hand: Hand, legal: Sequence[AnyAction], rng: random.Random) -> AnyAction:
        printed, sys.stdout = sys.stdout, sys.stderr
        try:
            chosen = self._strategy(hand, legal, rng)
        except BaseException as error:
            if type(error).__name__ == "Interrupted":  # the run's own stop, by a signal
                raise
            raise StrategyFailed(
                f"strategy {self.name}: it raised {pyload.error_line(error)}"
            ) from None
        finally:
            sys.stdout = printed
        if chosen not in legal:
            some = " ".join(map(str, legal[:8])) + (" ..." if len(legal) > 8 else "")
            shown = printable(repr(chosen))[:80]
            raise StrategyFailed(
                f"strategy {self.name}: it chose {shown}, which is not one of the legal "
                f"actions ({some})"
            )
        return chosen


# --------------------------------------------------------------------------- the host


def main(argv: Sequence[str]) -> int:
    """The host: load the strategy ``argv`` names, then answer each decision asked."""
    folder, spec = argv
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    os.dup2(2, 1)  # what the strategy prints goes to standard error
    sys.stdout = sys.stderr
    pyload.FOLDERS_FIRST = True
    try:
        strategy = pyload.load_callable(
            spec, search=[Path(folder)], noun="NAME", purpose="chooses an action"
        )
    except BaseException as error:  # its own code may raise anything, exit included
        _say(channel, {"error": pyload.error_line(error)})
        return 3
    requests = sys.stdin.buffer
    rules: dict[int, Rules] = {}
    while True:
        head = requests.read(4)
        if len(head) < 4:
            return 0
        message = pickle.loads(requests.read(struct.unpack("<I", head)[0]))
        if message[0] == "rules":
            rules[message[1]] = message[2]
            continue
        _, key, opened, table, legal_texts, seed = message
        try:
            hand = hand_at(rules[key], table) if opened else Hand(rules[key], table)
            legal = [Action.parse(text) for text in legal_texts]
            chosen = strategy(hand, legal, random.Random(seed))
            _say(channel, {"action": str(chosen)})
        except BaseException as error:
            _say(channel, {"error": f"it raised {pyload.error_line(error)}"})


def _say(channel: IO[str], answer: dict[str, str]) -> None:
    channel.write(json.dumps(answer)[:LONGEST_ANSWER] + "\n")
    channel.flush()
