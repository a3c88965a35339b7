"""One run of the healthport binary: its arguments in, its standard output out, its
diagnostics turned into exceptions and warnings, its progress line shown."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import threading
import warnings
from typing import IO, Sequence

from . import _progress
from ._binary import binary
from .errors import HealthportWarning, error_for, parse_diagnostic

# The binary draws and erases its progress line with "\r" and "erase to end of line".
_ERASE = "\r\x1b[K"
_SPLIT = re.compile(r"(\r\x1b\[K|\n)")


class _StderrReader:
    """Reads the binary's standard error as it comes, apart: progress updates (queued
    for the caller's thread, which draws them) and diagnostic lines (kept)."""

    def __init__(self, stream: IO[bytes], events: "queue.Queue[_progress.Progress | None]") -> None:
        self.stream = stream
        self.events = events
        self.lines: list[str] = []
        self.thread = threading.Thread(target=self._read, name="healthport-stderr", daemon=True)
        self.thread.start()

    def _read(self) -> None:
        pending = ""
        after_erase = False
        descriptor = self.stream.fileno()
        try:
            while True:
                chunk = os.read(descriptor, 65536)
                if not chunk:
                    break
                pending += chunk.decode("utf-8", "replace")
                pending, after_erase = self._consume(pending, after_erase, final=False)
            self._consume(pending, after_erase, final=True)
        finally:
            self.events.put(None)

    def _consume(self, text: str, after_erase: bool, final: bool) -> tuple[str, bool]:
        pieces = _SPLIT.split(text)
        # pieces alternate: text, separator, text, separator, …, text (the unterminated rest)
        for index in range(0, len(pieces) - 1, 2):
            piece, separator = pieces[index], pieces[index + 1]
            self._piece(piece, after_erase, terminated_by_erase=separator == _ERASE)
            after_erase = separator == _ERASE
        rest = pieces[-1]
        if rest and (final or (after_erase and _progress.parse(rest))):
            # A progress line is written whole with one write(2) and ends with no newline:
            # the next update (or the erase at the end) follows it.
            self._piece(rest, after_erase, terminated_by_erase=True)
            rest = ""
        return rest, after_erase

    def _piece(self, piece: str, after_erase: bool, terminated_by_erase: bool) -> None:
        if not piece:
            return
        if after_erase and terminated_by_erase:
            update = _progress.parse(piece)
            if update is not None:
                self.events.put(update)
                return
        self.lines.append(piece)


def run(
    arguments: Sequence[str],
    *,
    progress: _progress.ProgressArgument = None,
    quiet: bool = False,
    capture: bool = False,
    warning_stacklevel: int = 3,
) -> bytes:
    """Runs ``healthport ARGUMENTS…`` and returns its standard output (``b""`` unless
    ``capture``). ``arguments`` start with the subcommand; ``--progress`` and
    ``--quiet`` are added here, before any ``--``.

    Raises:
        HealthportError: (a subclass by exit status) when the binary fails.
        KeyboardInterrupt: after stopping the binary, which removes its temporary
            outputs, when this thread is interrupted (Ctrl-C, a notebook's interrupt).
    """
    renderer = _progress.renderer(progress)
    extra = []
    if renderer is not None:
        extra.append("--progress")
    if quiet:
        extra.append("--quiet")
    arguments = list(arguments)
    at = arguments.index("--") if "--" in arguments else len(arguments)
    arguments[at:at] = extra
    command = [str(binary()), *arguments]

    environment = dict(os.environ)
    environment["NO_COLOR"] = "1"
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=environment,
    )
    events: "queue.Queue[_progress.Progress | None]" = queue.Queue()
    assert process.stderr is not None
    stderr = _StderrReader(process.stderr, events)
    output: list[bytes] = []
    stdout_thread = None
    if capture:
        stdout = process.stdout
        assert stdout is not None
        stdout_thread = threading.Thread(target=lambda: output.append(stdout.read()), name="healthport-stdout", daemon=True)
        stdout_thread.start()
    try:
        while True:
            event = events.get()
            if event is None:
                break
            if renderer is not None:
                renderer.update(event)
        if stdout_thread is not None:
            stdout_thread.join()
        status = process.wait()
    except BaseException:
        # KeyboardInterrupt, or a failing progress function: stop the binary as Ctrl-C
        # would (it removes its temporary outputs), then let the exception go on.
        _stop(process)
        raise
    finally:
        if renderer is not None:
            renderer.close()
        stderr.thread.join(timeout=5)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()

    text = "\n".join(stderr.lines)
    if status != 0:
        raise error_for(status, text, command)
    if not quiet:
        for line in stderr.lines:
            diagnostic = parse_diagnostic(line)
            if diagnostic is not None and diagnostic.kind == "warning":
                where = f"{diagnostic.location}: " if diagnostic.location else ""
                warnings.warn(where + diagnostic.message, HealthportWarning, stacklevel=warning_stacklevel)
    return output[0] if output else b""


def _stop(process: "subprocess.Popen[bytes]") -> None:
    if process.poll() is not None:
        return
    try:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    except ProcessLookupError:
        pass
