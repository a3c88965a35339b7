"""One run of the healthport binary: its arguments in, its standard output out, its
diagnostics (``--diagnostics json``: one JSON object per line, healthport(1)
DIAGNOSTICS) read as fields and turned into exceptions and warnings, its progress
shown."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import threading
import warnings
from typing import IO, Any, Sequence

from . import _progress
from ._binary import binary
from .errors import HealthportWarning, error_for, parse_record


class _StderrReader:
    """Reads the binary's standard error as it comes, one JSON record a line: progress
    records are queued for the caller's thread (which draws them), the others kept.
    A line that is not a record (a crash's message) is kept as text."""

    def __init__(self, stream: IO[bytes], events: "queue.Queue[_progress.Progress | None]") -> None:
        self.stream = stream
        self.events = events
        self.records: list[dict[str, Any]] = []
        self.lines: list[str] = []
        self.thread = threading.Thread(target=self._read, name="healthport-stderr", daemon=True)
        self.thread.start()

    def _read(self) -> None:
        pending = b""
        descriptor = self.stream.fileno()
        try:
            while True:
                chunk = os.read(descriptor, 65536)
                if not chunk:
                    break
                pending += chunk
                *complete, pending = pending.split(b"\n")
                for line in complete:
                    self._line(line)
            if pending:
                self._line(pending)
        finally:
            self.events.put(None)

    def _line(self, raw: bytes) -> None:
        text = raw.decode("utf-8", "replace")
        if not text.strip():
            return
        try:
            record = json.loads(text)
        except ValueError:
            record = None
        if not isinstance(record, dict):
            self.lines.append(text)
            return
        if record.get("type") == "progress":
            self.events.put(_progress.from_record(record))
            return
        self.records.append(record)
        self.lines.append(text)


def run(
    arguments: Sequence[str],
    *,
    progress: _progress.ProgressArgument = None,
    quiet: bool = False,
    capture: bool = False,
    warning_stacklevel: int = 3,
) -> bytes:
    """Runs ``healthport ARGUMENTS…`` and returns its standard output (``b""`` unless
    ``capture``). ``arguments`` start with the subcommand; ``--diagnostics json``,
    ``--progress`` and ``--quiet`` are added here, before any ``--``.

    Raises:
        HealthportError: (a subclass by exit status) when the binary fails.
        KeyboardInterrupt: after stopping the binary, which removes its temporary
            outputs, when this thread is interrupted (Ctrl-C, a notebook's interrupt).
    """
    renderer = _progress.renderer(progress)
    extra = ["--diagnostics", "json"]
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
        raise error_for(status, stderr.records, text, command)
    if not quiet:
        for record in stderr.records:
            diagnostic = parse_record(record)
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
