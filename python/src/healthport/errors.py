"""healthport's failures as Python exceptions, and its warnings as Python warnings.

The binary reports a failure as one line on standard error and an exit status
(healthport(1), "EXIT STATUS" and "DIAGNOSTICS")::

    healthport: export.zip(apple_health_export/export.xml):1834:27: error: invalid startDate …

Every function of this package turns that into a :class:`HealthportError`: the
message, the status, and the location when the line has one. The class is
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

import re
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
        location: where the diagnostic points, when it names a place.
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
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.location = location
        self.context = tuple(context)
        self.command = tuple(command)
        self.stderr = stderr

    def __str__(self) -> str:
        text = f"{self.location}: {self.message}" if self.location else self.message
        text += f" (status {self.status})"
        if self.context:
            text += "\n" + "\n".join(self.context)
        return text

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across processes (multiprocessing, Spark)
        return (
            _rebuild,
            (type(self), self.message, self.status, self.location, self.context, self.command, self.stderr),
        )


def _rebuild(
    cls: type[HealthportError],
    message: str,
    status: int,
    location: Location | None,
    context: Sequence[str],
    command: Sequence[str],
    stderr: str,
) -> HealthportError:
    return cls(message, status, location, context, command, stderr)


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

# healthport: [LOCATION: ]error: MESSAGE, where LOCATION is FILE, FILE:LINE or FILE:LINE:COL.
# The file may itself hold colons and parentheses (export.zip(apple_health_export/export.xml)),
# so the line and column are taken from the right: the last ":N:N: " or ":N: " before
# "error:"/"warning:".
_DIAGNOSTIC = re.compile(
    r"^healthport: (?:(?P<location>.*?): )?(?P<kind>error|warning): (?P<message>.*)$"
)
_LINE_COLUMN = re.compile(r"^(?P<file>.*?)(?::(?P<line>\d+)(?::(?P<column>\d+))?)?$")


@dataclass(frozen=True)
class Diagnostic:
    """One parsed diagnostic line."""

    kind: str  # "error" or "warning"
    message: str
    location: Location | None


def parse_diagnostic(line: str) -> Diagnostic | None:
    """Parses one line healthport wrote on standard error; ``None`` if it is not a
    diagnostic (a context line, a note).

    >>> parse_diagnostic("healthport: export.zip(apple_health_export/export.xml):1834:27: error: invalid startDate")
    Diagnostic(kind='error', message='invalid startDate', location=Location(file='export.zip(apple_health_export/export.xml)', line=1834, column=27))
    >>> parse_diagnostic("healthport: warning: 3 records of unknown type").location is None
    True
    """
    match = _DIAGNOSTIC.match(line)
    if not match:
        return None
    location = None
    if match["location"]:
        place = _LINE_COLUMN.match(match["location"])
        assert place is not None  # the pattern matches any text
        location = Location(
            place["file"],
            int(place["line"]) if place["line"] else None,
            int(place["column"]) if place["column"] else None,
        )
    return Diagnostic(match["kind"], match["message"], location)


def error_for(status: int, stderr: str, command: Sequence[str]) -> HealthportError:
    """The exception for a run that ended with ``status``, from what it wrote on
    standard error: the last error diagnostic and the lines after it. A usage
    error found by the argument parser (``Error: …`` and the usage text) has no
    ``healthport:`` line: its first line is the message."""
    if status < 0:  # the subprocess module's way of saying "killed by signal -status"
        status = 128 - status
    lines = [line for line in stderr.splitlines() if line.strip()]
    message, location, context = "", None, []
    for index in range(len(lines) - 1, -1, -1):
        diagnostic = parse_diagnostic(lines[index])
        if diagnostic and diagnostic.kind == "error":
            message, location = diagnostic.message, diagnostic.location
            context = [line for line in lines[index + 1 :] if not line.startswith("healthport: ")]
            break
    else:
        if lines:
            first = lines[0]
            message = first[len("Error: ") :] if first.startswith("Error: ") else first
            context = lines[1:]
        elif status >= 128:
            message = f"healthport ended by signal {status - 128}"
        else:
            message = f"healthport failed with status {status} and no message"
    cls = _BY_STATUS.get(status, HealthportError)
    return cls(message, status, location, context, command, stderr)
