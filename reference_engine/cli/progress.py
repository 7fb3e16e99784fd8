"""Progress bars for the runs that take more than a moment, drawn on a terminal only.

A bar goes to standard error, and only when standard error is a terminal: a
file, a pipe or a test's ``StringIO`` gets nothing, so reports stay clean. A
bar is not colour, so ``NO_COLOR`` does not hide it (rich leaves out the
colour). Rich is imported only when a bar is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

#: Moves a bar on by this many steps.
Advance = Callable[[int], None]

#: Tells a bar how many steps are done, of how many (the total may be learnt late).
Count = Callable[[int, int], None]


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (a closed or odd stream is not)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


@contextmanager
def _bar(
    stream: TextIO, total: int, label: str, unit: str
) -> Iterator[tuple[Progress, TaskID] | None]:
    """A rich progress display and its one task on ``stream``, or None off a terminal:
    the label, the bar, steps done of all, the rate in ``unit`` a second, the time left."""
    if not is_terminal(stream):
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task: Task) -> Text:
            return Text(f"{task.speed:,.0f} {unit}/s" if task.speed else "")

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), Rate(), TimeRemainingColumn())
    # (the bar redraws its line with cursor moves: the stream itself, not its guard)
    console = Console(file=getattr(stream, "unguarded", stream))
    with Progress(*columns, console=console, transient=True) as bar:
        yield bar, bar.add_task(label, total=total)


@contextmanager
def progress_bar(
    stream: TextIO, total: int, label: str, unit: str = "steps"
) -> Iterator[Advance | None]:
    """A bar of ``total`` steps called ``label`` on ``stream``, cleared when done.

    Yields the function that advances it, or None when ``stream`` is not a
    terminal (nothing is drawn then).
    """
    with _bar(stream, total, label, unit) as drawn:
        if drawn is None:
            yield None
            return
        bar, task = drawn
        yield lambda steps: bar.advance(task, steps)


@contextmanager
def counting_bar(stream: TextIO, label: str, unit: str = "steps") -> Iterator[Count | None]:
    """A bar called ``label`` on ``stream`` whose total comes with each count.

    For work that learns how much there is to do only once it has begun (the
    targets an engine declares), or that counts what is done rather than
    advancing; None when ``stream`` is not a terminal.
    """
    with _bar(stream, 0, label, unit) as drawn:
        if drawn is None:
            yield None
            return
        bar, task = drawn
        yield lambda done, total: bar.update(task, completed=done, total=total)


@contextmanager
def working(stream: TextIO, message: str) -> Iterator[Callable[[str], None]]:
    """A spinner saying ``message`` on ``stream`` while the block runs, cleared when done,
    for work that has no count to show (a PDF being laid out, a site being built).

    Yields the function that changes the message; nothing is drawn off a terminal.
    """
    if not is_terminal(stream):
        yield lambda text: None
        return
    from rich.console import Console

    console = Console(file=getattr(stream, "unguarded", stream))
    with console.status(message) as status:
        yield lambda text: status.update(text)
