"""The progress line healthport draws on standard error, shown where the caller looks:
a notebook cell, a terminal, or a function of the caller's."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Union

__all__ = ["Progress", "ProgressArgument"]


@dataclass(frozen=True)
class Progress:
    """One update of a run's progress, as the binary reports it (at most ten a second).

    Attributes:
        text: the line the binary drew, without its ``healthport:`` prefix
            (``"42% 1.1 MB of 2.6 MB, 2311 objects"``).
        fraction: how much of the input was read, 0.0 to 1.0, when its size is known
            (a file or zip; not a pipe).
        objects: how many objects were read so far.
    """

    text: str
    fraction: float | None
    objects: int


#: What every function's ``progress`` argument takes: ``None`` shows progress in a
#: notebook or on a terminal and nowhere else, ``True`` always (on standard error
#: outside a notebook), ``False`` never, and a function is called with each
#: :class:`Progress`.
ProgressArgument = Union[bool, None, Callable[[Progress], object]]

def _bytes(count: int) -> str:
    """A byte count as the binary writes one (``ByteCount``): ``512 B``, ``1.1 MB``."""
    value, unit = float(count), 0
    units = ("B", "KB", "MB", "GB", "TB")
    while value >= 1000 and unit < len(units) - 1:
        value /= 1000
        unit += 1
    return f"{count} B" if unit == 0 else f"{value:.1f} {units[unit]}"


def from_record(record: dict[str, Any]) -> Progress:
    """The progress a ``progress`` record stands for (``--diagnostics json``: its
    ``bytesRead``, ``totalBytes`` and ``objects`` fields), with the line the binary
    would draw.

    >>> from_record({"type": "progress", "bytesRead": 1100000, "totalBytes": 2600000, "objects": 2311})
    Progress(text='42% 1.1 MB of 2.6 MB, 2311 objects', fraction=0.42, objects=2311)
    """
    read = int(record.get("bytesRead") or 0)
    total = record.get("totalBytes")
    objects = int(record.get("objects") or 0)
    if isinstance(total, int) and total > 0:
        percent = min(100, int(read / total * 100))
        return Progress(f"{percent}% {_bytes(read)} of {_bytes(total)}, {objects} objects", percent / 100, objects)
    return Progress(f"{_bytes(read)}, {objects} objects", None, objects)


def _in_notebook() -> bool:
    # Only look if IPython is already loaded: importing it here would cost a second.
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
    except Exception:
        return False
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class _Renderer(Protocol):
    def update(self, progress: Progress) -> None: ...

    def close(self) -> None: ...


class _Terminal:
    """The binary's own line, redrawn on this process's standard error."""

    def update(self, progress: Progress) -> None:
        sys.stderr.write("\r\x1b[Khealthport: " + progress.text)
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()


class _Notebook:
    """A progress bar in the cell's output, updated in place; the last state stays, as a
    record of what was read."""

    def __init__(self) -> None:
        self.handle: Any = None

    def _html(self, progress: Progress) -> Any:
        from html import escape

        from IPython.display import HTML

        bar = (
            f'<progress value="{progress.fraction:.2f}" max="1" style="width: 20em"></progress> '
            if progress.fraction is not None
            else ""
        )
        return HTML(f"<div><code>healthport</code> {bar}{escape(progress.text)}</div>")

    def update(self, progress: Progress) -> None:
        from IPython.display import display

        if self.handle is None:
            self.handle = display(self._html(progress), display_id=True)
        else:
            self.handle.update(self._html(progress))

    def close(self) -> None:
        pass


class _Function:
    def __init__(self, function: Callable[[Progress], object]) -> None:
        self.function = function

    def update(self, progress: Progress) -> None:
        self.function(progress)

    def close(self) -> None:
        pass


def renderer(argument: ProgressArgument) -> "_Renderer | None":
    """Where progress goes for a ``progress`` argument; ``None`` when nowhere (then the
    binary is not asked to report it)."""
    if callable(argument) and not isinstance(argument, bool):
        return _Function(argument)
    if argument is False:
        return None
    if _in_notebook():
        return _Notebook()
    if argument is True or _stderr_is_terminal():
        return _Terminal()
    return None
