"""Standard error as the binary writes it with ``--diagnostics json`` (one JSON record a
line, healthport(1) DIAGNOSTICS), however the pipe cuts it: progress records apart from
diagnostics, and errors read by their fields."""

from __future__ import annotations

import json
import os
import queue
import threading

import pytest

import healthport
from healthport import _process
from healthport.errors import error_for, parse_record

WARNING = {
    "type": "warning",
    "message": "samples of type HKQuantityTypeIdentifierFoo, unknown to healthport, are passed through",
    "location": {"file": "export.zip(apple_health_export/export.xml)", "line": 12, "column": 3},
}
ERROR = {
    "type": "error",
    "category": "invalidRequest",
    "status": 64,
    "message": "expected a value after '>='",
    "argument": "predicate",
    "option": "--where",
    "column": 13,
    "healthKitCode": "errorInvalidArgument",
    "healthKitCodeValue": 3,
    "context": ["  quantity >= AND x", "              ^"],
}


def progress(read: int, objects: int) -> dict:
    return {"type": "progress", "bytesRead": read, "totalBytes": 2600000, "objects": objects}


STREAM = "".join(
    json.dumps(record) + "\n"
    for record in (progress(300000, 311), WARNING, progress(1400000, 2950), progress(2600000, 5502), ERROR)
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
    return updates, reader


@pytest.mark.parametrize("size", [1, 2, 7, 64, 4096])
def test_progress_and_diagnostics_apart_however_the_pipe_cuts_them(size):
    updates, reader = read_in_pieces(size)
    assert [update.objects for update in updates] == [311, 2950, 5502]
    assert updates[0].text == "11% 300.0 KB of 2.6 MB, 311 objects" and updates[0].fraction == 0.11
    assert updates[-1].fraction == 1.0
    assert reader.records == [WARNING, ERROR]


def test_the_error_is_the_last_error_record_read_by_its_fields():
    _, reader = read_in_pieces(4096)
    error = error_for(64, reader.records, "", ["healthport", "convert"])
    assert type(error) is healthport.UsageError
    assert (error.message, error.location, error.context) == (
        "expected a value after '>='", None, ("  quantity >= AND x", "              ^"))
    assert (error.category, error.argument, error.column, error.healthkit_code) == (
        "invalidRequest", "predicate", 13, "errorInvalidArgument")


def test_a_location_is_its_fields():
    diagnostic = parse_record(
        {"type": "error", "message": "invalid x: y", "location": {"file": "a:b/export.zip(apple_health_export/export.xml)", "line": 1834, "column": 27}})
    assert diagnostic.location == healthport.Location("a:b/export.zip(apple_health_export/export.xml)", 1834, 27)
    assert diagnostic.message == "invalid x: y"


def test_an_argument_parser_error_is_a_record_too():
    record = {"type": "error", "category": "invalidRequest", "status": 64, "message": "Missing expected argument '<export>'",
              "context": ["Help:  <export>  The export", "Usage: healthport convert"]}
    error = error_for(64, [record], "", [])
    assert error.message == "Missing expected argument '<export>'" and error.location is None
    assert error.context == ("Help:  <export>  The export", "Usage: healthport convert")


def test_a_line_that_is_not_a_record_is_kept_as_text():
    # A binary that crashed before it could write a record: its words are the message.
    error = error_for(70, [], "Fatal error: something\n", ["healthport", "convert"])
    assert (type(error), error.message) == (healthport.InternalError, "Fatal error: something")


def test_a_binary_killed_by_a_signal():
    # subprocess reports a child killed by signal n as status -n: the error says 128 + n,
    # as a shell would, with a message even though the binary wrote none.
    killed = error_for(-9, [], "", ["healthport", "convert"])
    assert (type(killed), killed.status, killed.message) == (
        healthport.HealthportError, 137, "healthport ended by signal 9")
    interrupted = error_for(-2, [], "", ["healthport", "convert"])
    assert (type(interrupted), interrupted.status) == (healthport.RunInterruptedError, 130)
