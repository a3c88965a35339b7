"""Python values to healthport's options: every option as ``--name=value`` (so a value
that starts with ``-`` is never read as an option), and inputs after ``--``."""

from __future__ import annotations

import datetime as _dt
import json
import os
import tempfile
import uuid as _uuid
from pathlib import Path
from typing import Iterable, Mapping, Union

#: A date or instant for ``start``/``end``: ``"2024-01-01"``, ``"2024-01-01T08:00:00+01:00"``,
#: a :class:`datetime.date`, or a :class:`datetime.datetime` (with a time zone it is an
#: instant; without one it is read in ``tz``). A pandas ``Timestamp`` is a datetime.
DateArgument = Union[str, _dt.date, _dt.datetime]

#: A policy: the path of a policy file (healthport-policy(5)), or the policy itself as a
#: mapping (``{"version": 1, "consumer": {"name": "Study"}, "read": {"StepCount": "granted"}}``),
#: which is written to a private temporary file for the run.
PolicyArgument = Union[str, "os.PathLike[str]", Mapping[str, object]]

#: Names: one string (commas separate several, as on the command line) or several.
NamesArgument = Union[str, Iterable[str]]


def escaped_list(items: list[str]) -> str:
    """One comma-separated value for an option that takes a list of names (--source-priority):
    a comma within a name is written ``\\,`` and a backslash ``\\\\``, so "Smith, John's iPhone"
    stays one name."""
    return ",".join(item.replace("\\", "\\\\").replace(",", "\\,") for item in items)


def names(value: NamesArgument | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    result = []
    for item in value:
        if not isinstance(item, str):
            raise TypeError(f"expected names as strings, got {item!r}")
        result.append(item)
    return result


def date(value: DateArgument) -> str:
    """A date as healthport reads it (ISO 8601; without an offset, in ``--tz``).

    >>> date(_dt.date(2024, 1, 2))
    '2024-01-02'
    >>> date(_dt.datetime(2024, 1, 2, 8, 30, tzinfo=_dt.timezone(_dt.timedelta(hours=1))))
    '2024-01-02T08:30:00+01:00'
    """
    if isinstance(value, str):
        return value
    if isinstance(value, _dt.datetime):
        if value.microsecond:
            raise ValueError(f"{value!r}: healthport's dates are whole seconds")
        return value.isoformat(timespec="seconds")
    if isinstance(value, _dt.date):
        return value.isoformat()
    raise TypeError(f"expected a date (str, datetime.date or datetime.datetime), got {value!r}")


def option(name: str, value: object) -> str:
    return f"--{name}={value}"


def path(value: "str | os.PathLike[str]") -> str:
    text = os.fspath(value)
    if not isinstance(text, str):
        raise TypeError(f"expected a path as str, got {value!r}")
    return text


def policy_file(value: PolicyArgument, folder: Path) -> str:
    """The path to give ``--policy``: the file named, or the mapping written as JSON to
    ``folder`` (a private temporary folder), mode 0600."""
    if isinstance(value, Mapping):
        descriptor, name = tempfile.mkstemp(prefix="policy-", suffix=".json", dir=folder)  # mode 0600
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(value, handle)
        return name
    return path(value)


class Filters:
    """The options every reading command shares (healthport-convert(1), "Filters"),
    gathered once so that each function passes them the same way."""

    def __init__(
        self,
        *,
        types: NamesArgument | None = None,
        start: DateArgument | None = None,
        end: DateArgument | None = None,
        strict_start: bool = False,
        strict_end: bool = False,
        where: str | None = None,
        sources: NamesArgument | None = None,
        devices: NamesArgument | None = None,
        uuids: "NamesArgument | Iterable[_uuid.UUID] | None" = None,
        tz: str | None = None,
        policy: PolicyArgument | None = None,
    ) -> None:
        self.types = names(types)
        self.start = start
        self.end = end
        self.strict_start = strict_start
        self.strict_end = strict_end
        self.where = where
        self.sources = names(sources)
        self.devices = devices
        self.uuids = [str(item) for item in ([uuids] if isinstance(uuids, (str, _uuid.UUID)) else (uuids or []))]
        self.tz = tz
        self.policy = policy
        self._arguments: list[str] | None = None

    def arguments(self, folder: Path) -> list[str]:
        """The options, with a policy given as a mapping written into ``folder`` once."""
        if self._arguments is None:
            self._arguments = self._make(folder)
        return list(self._arguments)

    def _make(self, folder: Path) -> list[str]:
        result = [option("type", name) for name in self.types]
        if self.where is not None:
            result.append(option("where", self.where))
        if self.start is not None:
            result.append(option("start", date(self.start)))
        if self.end is not None:
            result.append(option("end", date(self.end)))
        if self.strict_start:
            result.append("--strict-start")
        if self.strict_end:
            result.append("--strict-end")
        result += [option("source", name) for name in self.sources]
        result += [option("device", name) for name in names(self.devices)]
        result += [option("uuid", str(uuid)) for uuid in self.uuids]
        if self.tz is not None:
            result.append(option("tz", self.tz))
        if self.policy is not None:
            result.append(option("policy", policy_file(self.policy, folder)))
        return result


def parser(value: str | None) -> list[str]:
    if value is None:
        return []
    if value not in ("scanner", "libxml2"):
        raise ValueError(f"parser must be 'scanner' or 'libxml2', not {value!r}")
    return [option("parser", value)]
