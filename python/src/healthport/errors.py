"""healthport's failures as Python exceptions, and its warnings as Python warnings.

The binary reports a failure on standard error and with an exit status
(healthport(1), "EXIT STATUS" and "DIAGNOSTICS"); a person reads the line::

    healthport: export.zip(apple_health_export/export.xml):1834:27: error: invalid startDate …

This package runs it with ``--diagnostics json`` and reads the same failure as
fields, never as wording: every function turns it into a :class:`HealthportError`
with the message, the status, the engine's category, HealthKit's code, the part
of the request at fault and its column, and the location when there is one. The class is
chosen by the status, so a caller can catch what it can handle::

    try:
        tables = healthport.read("export.zip", policy="study.json")
    except healthport.NoInputError:
        ...   # 66: missing, unreadable, not an Apple Health export
    except healthport.DataError as error:
        print(error.location)   # 65: where the export is malformed

A read the policy denies is never an error (it looks like absent data), as in
HealthKit; only an undecided type named in a request is
(:class:`AuthorizationNotDeterminedError`, 77).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

__all__ = [
    "AuthorizationCancelledError",
    "AuthorizationNotDeterminedError",
    "CannotCreateOutputError",
    "DataError",
    "HealthportError",
    "HealthportWarning",
    "InternalError",
    "IOFailureError",
    "Location",
    "NoInputError",
    "PolicyError",
    "RunInterruptedError",
    "UsageError",
]


@dataclass(frozen=True)
class Location:
    """Where a diagnostic points: a file (``export.zip(apple_health_export/export.xml)``
    for a document inside a zip, ``--where`` for a predicate) and, when known, a
    1-based line and column.

    >>> str(Location("export.xml", 1834, 27))
    'export.xml:1834:27'
    """

    file: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        if self.line is None:
            return self.file
        if self.column is None:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.column}"


class HealthportError(Exception):
    """A run of the healthport binary that failed.

    Attributes:
        message: healthport's own words, without the ``healthport:`` prefix and the
            location (``"expected a value after '>='"``).
        status: the exit status (healthport(1), "EXIT STATUS"): 64 usage, 65 data,
            66 no input, 70 internal, 73 cannot create, 74 I/O, 75 cancelled,
            77 authorization not determined, 78 invalid policy, 128 + n a signal.
        location: where in a file the diagnostic points, when it names one.
        category: the engine's name for the failure (``"invalidRequest"``,
            ``"malformedInput"``, ``"inputNotFound"``, …; healthport(1), DIAGNOSTICS).
        argument: the part of the request at fault, when the fault is in one
            (``"predicate"``, ``"unit"``, ``"anchor"``, …).
        column: the 1-based column in that argument's text (a predicate's).
        healthkit_code: HealthKit's ``HKError.Code`` name, for the failures HealthKit
            reports with one (``"errorInvalidArgument"``).
        context: the lines healthport printed after the diagnostic (a predicate with
            a caret under the fault, the export documents it could choose from).
        command: the argument vector that ran (export paths included; no health data).
        stderr: everything the binary wrote on standard error, progress lines left out.
    """

    #: The exit status this class stands for (``None``: any status not listed).
    STATUS: int | None = None

    def __init__(
        self,
        message: str,
        status: int,
        location: Location | None = None,
        context: Sequence[str] = (),
        command: Sequence[str] = (),
        stderr: str = "",
        category: str | None = None,
        argument: str | None = None,
        column: int | None = None,
        healthkit_code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.location = location
        self.context = tuple(context)
        self.command = tuple(command)
        self.stderr = stderr
        self.category = category
        self.argument = argument
        self.column = column
        self.healthkit_code = healthkit_code

    def __str__(self) -> str:
        text = f"{self.location}: {self.message}" if self.location else self.message
        text += f" (status {self.status})"
        if self.context:
            text += "\n" + "\n".join(self.context)
        return text

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across processes (multiprocessing, Spark)
        return (
            _rebuild,
            (
                type(self),
                self.message,
                self.status,
                self.location,
                self.context,
                self.command,
                self.stderr,
                self.category,
                self.argument,
                self.column,
                self.healthkit_code,
            ),
        )


def _rebuild(
    cls: type[HealthportError],
    message: str,
    status: int,
    location: Location | None,
    context: Sequence[str],
    command: Sequence[str],
    stderr: str,
    category: str | None = None,
    argument: str | None = None,
    column: int | None = None,
    healthkit_code: str | None = None,
) -> HealthportError:
    return cls(message, status, location, context, command, stderr, category, argument, column, healthkit_code)


class UsageError(HealthportError, ValueError):
    """64: a bad argument: an unknown type name, unit, sort key or time zone, a
    predicate that does not parse, an output that would replace an input."""

    STATUS = 64


class DataError(HealthportError, ValueError):
    """65: the export is malformed (the location says where), or a file is not a
    healthport store, or an import the store refuses."""

    STATUS = 65


class NoInputError(HealthportError):
    """66: the export or store is missing or unreadable, or not an Apple Health export."""

    STATUS = 66


class InternalError(HealthportError):
    """70: a bug in healthport; please report it with the message."""

    STATUS = 70


class CannotCreateOutputError(HealthportError):
    """73: the output could not be created (here: the private temporary folder)."""

    STATUS = 73


class IOFailureError(HealthportError):
    """74: an I/O error while reading or writing (disk full, …), or SQLite failing on
    the store (locked by another import for too long)."""

    STATUS = 74


class AuthorizationCancelledError(HealthportError):
    """75: ``errorUserCanceled``, an authorization request was cancelled."""

    STATUS = 75


class AuthorizationNotDeterminedError(HealthportError, PermissionError):
    """77: ``errorAuthorizationNotDetermined``: under a policy, a type that was never
    decided was named. (A denied read is never an error: it looks like no data.)"""

    STATUS = 77


class PolicyError(HealthportError, ValueError):
    """78: the policy file is invalid."""

    STATUS = 78


class RunInterruptedError(HealthportError):
    """129, 130, 143: the run was hung up, interrupted or terminated; its temporary
    outputs were removed."""

    STATUS = 130


class HealthportWarning(UserWarning):
    """A warning healthport printed about the export (a repaired byte, a type it does
    not know): shown through :mod:`warnings`, once per message, unless ``quiet=True``.
    Under a policy the binary prints none, since a warning could hint at what the
    policy hides."""


_BY_STATUS: dict[int, type[HealthportError]] = {
    cls.STATUS: cls
    for cls in (
        UsageError,
        DataError,
        NoInputError,
        InternalError,
        CannotCreateOutputError,
        IOFailureError,
        AuthorizationCancelledError,
        AuthorizationNotDeterminedError,
        PolicyError,
    )
    if cls.STATUS is not None
}
_BY_STATUS.update({129: RunInterruptedError, 130: RunInterruptedError, 143: RunInterruptedError})

@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic the binary reported with ``--diagnostics json``: its fields as
    healthport(1), DIAGNOSTICS, documents them."""

    kind: str  # "error", "warning" or "note"
    message: str
    location: Location | None
    fields: dict[str, Any]


def parse_record(record: dict[str, Any]) -> Diagnostic | None:
    """The diagnostic one JSON record stands for (its ``type``, ``message`` and
    ``location`` fields; every field kept in ``fields``); ``None`` for a progress
    record."""
    kind = record.get("type")
    if kind not in ("error", "warning", "note"):
        return None
    place = record.get("location")
    location = None
    if isinstance(place, dict) and isinstance(place.get("file"), str):
        location = Location(place["file"], place.get("line"), place.get("column"))
    return Diagnostic(kind, str(record.get("message", "")), location, record)


def error_for(status: int, records: Sequence[dict[str, Any]], stderr: str, command: Sequence[str]) -> HealthportError:
    """The exception for a run that ended with ``status``, from the last error record
    it wrote (``--diagnostics json``): its message, location, category, argument,
    column, HealthKit code and context, each a field. ``stderr`` is what it wrote,
    kept on the exception."""
    if status < 0:  # the subprocess module's way of saying "killed by signal -status"
        status = 128 - status
    cls = _BY_STATUS.get(status, HealthportError)
    for record in reversed(records):
        diagnostic = parse_record(record)
        if diagnostic is not None and diagnostic.kind == "error":
            return cls(
                diagnostic.message,
                status,
                diagnostic.location,
                [str(line) for line in record.get("context") or ()],
                command,
                stderr,
                record.get("category"),
                record.get("argument"),
                record.get("column"),
                record.get("healthKitCode"),
            )
    if status >= 128:
        message = f"healthport ended by signal {status - 128}"
    else:
        # No record: the binary did not get as far as writing one (it crashed, or is not
        # healthport); what it wrote is the message.
        lines = [line for line in stderr.splitlines() if line.strip()]
        message = lines[0] if lines else f"healthport failed with status {status} and no message"
    return cls(message, status, None, (), command, stderr)
