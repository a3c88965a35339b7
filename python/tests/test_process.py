"""Standard error as the binary writes it, however the pipe cuts it: progress updates apart
from diagnostic lines."""

from __future__ import annotations

import os
import queue
import threading

import pytest

import healthport
from healthport import _process
from healthport.errors import error_for, parse_diagnostic

STREAM = (
    "\r\x1b[Khealthport: 10% 0.3 MB of 2.6 MB, 311 objects"
    "\r\x1b[K"
    "healthport: export.zip(apple_health_export/export.xml):12:3: warning: samples of type HKQuantityTypeIdentifierFoo, unknown to healthport, are passed through\n"
    "\r\x1b[Khealthport: 55% 1.4 MB of 2.6 MB, 2950 objects"
    "\r\x1b[Khealthport: 100% 2.6 MB of 2.6 MB, 5502 objects"
    "\r\x1b[K"
    "healthport: --where:1:13: error: expected a value after '>='\n"
    "  quantity >= AND x\n"
    "              ^\n"
).encode()


def read_in_pieces(size: int):
    read_end, write_end = os.pipe()
    events: queue.Queue = queue.Queue()
    with os.fdopen(read_end, "rb", buffering=0) as stream:
        reader = _process._StderrReader(stream, events)

        def write():
            for at in range(0, len(STREAM), size):
                os.write(write_end, STREAM[at : at + size])
            os.close(write_end)

        writer = threading.Thread(target=write)
        writer.start()
        updates = []
        while (event := events.get(timeout=10)) is not None:
            updates.append(event)
        writer.join()
        reader.thread.join()
    return updates, reader.lines


@pytest.mark.parametrize("size", [1, 2, 7, 64, 4096])
def test_progress_and_lines_apart_however_the_pipe_cuts_them(size):
    updates, lines = read_in_pieces(size)
    # A progress line cut by the pipe is not shown half: every update shown is whole.
    assert all(update.text.endswith(" objects") for update in updates)
    assert updates[-1].objects == 5502 and updates[-1].fraction == 1.0
    if size >= 64:
        assert [update.objects for update in updates] == [311, 2950, 5502]
    assert lines[0].startswith("healthport: export.zip(") and lines[0].endswith("are passed through")
    assert lines[1:] == ["healthport: --where:1:13: error: expected a value after '>='", "  quantity >= AND x", "              ^"]


def test_the_error_is_the_last_error_line_with_its_context():
    _, lines = read_in_pieces(4096)
    error = error_for(64, "\n".join(lines), ["healthport", "convert"])
    assert (error.message, str(error.location), error.context) == (
        "expected a value after '>='", "--where:1:13", ("  quantity >= AND x", "              ^"))


def test_a_location_with_colons_and_parentheses():
    diagnostic = parse_diagnostic("healthport: a:b/export.zip(apple_health_export/export.xml):1834:27: error: invalid x: y")
    assert diagnostic.location.file == "a:b/export.zip(apple_health_export/export.xml)"
    assert (diagnostic.location.line, diagnostic.location.column, diagnostic.message) == (1834, 27, "invalid x: y")


def test_an_argument_parser_error_has_its_first_line_as_the_message():
    error = error_for(64, "Error: Missing expected argument '<export>'\nHelp:  <export>  The export\nUsage: healthport convert", [])
    assert error.message == "Missing expected argument '<export>'" and error.location is None


def test_a_binary_killed_by_a_signal():
    # subprocess reports a child killed by signal n as status -n: the error says 128 + n,
    # as a shell would, with a message even though the binary wrote none.
    killed = error_for(-9, "", ["healthport", "convert"])
    assert (type(killed), killed.status, killed.message) == (
        healthport.HealthportError, 137, "healthport ended by signal 9")
    interrupted = error_for(-2, "", ["healthport", "convert"])
    assert (type(interrupted), interrupted.status) == (healthport.RunInterruptedError, 130)
