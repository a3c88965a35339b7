"""The daily summary and the sleep nights: the tables most analyses of an export start from
(``healthport summary`` and ``healthport sleep``, issue 38)."""

from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path
from typing import TYPE_CHECKING

from . import _arguments as A
from ._api import _folder, _input, _table_of
from ._progress import ProgressArgument

if TYPE_CHECKING:
    import pyarrow

__all__ = ["daily_summary", "days", "sleep_nights", "workouts"]


def _source(export: "str | os.PathLike[str] | None", store: "str | os.PathLike[str] | None") -> list[str]:
    """The input: an export (after ``--``) or a store (``--store``), exactly one."""
    if (export is None) == (store is None):
        raise ValueError("give an export or a store (store=...), not both or neither")
    if store is not None:
        return [A.option("store", A.path(store))]
    assert export is not None
    return _input(export)


def daily_summary(
    export: "str | os.PathLike[str] | None" = None,
    *,
    store: "str | os.PathLike[str] | None" = None,
    types: A.NamesArgument | None = None,
    start: A.DateArgument | None = None,
    end: A.DateArgument | None = None,
    strict_start: bool = False,
    strict_end: bool = False,
    where: str | None = None,
    sources: A.NamesArgument | None = None,
    devices: A.NamesArgument | None = None,
    uuids: A.NamesArgument | None = None,
    source_priority: A.NamesArgument | None = None,
    tz: str | None = None,
    policy: A.PolicyArgument | None = None,
    parser: str | None = None,
    progress: ProgressArgument = None,
    quiet: bool = False,
) -> "pyarrow.Table":
    """Every type's numbers per local day, sources merged as the Health app merges them
    (``healthport summary``): the ``daily-summary`` table.

    They are :func:`statistics`' daily numbers for every type at once, read in one pass:
    where an iPhone and a Watch counted the same minutes, each stretch of time counts once,
    from the source with the highest priority; a day is the calendar day in the person's
    time zone (the zone the samples' ``HKTimeZone`` metadata names most, or ``tz``), so the
    day summer time starts has 23 hours. Cumulative types have a ``sum``, discrete types an
    ``average``, ``minimum`` and ``maximum``, category types and workouts the ``duration``
    they cover (healthport-summary(1)).

    Args:
        export: the export's path; or, instead, ``store``: a store ``healthport import``
            made (healthport-store(5)).
        types: summarize these types only (default: every type).
        start, end: local days, ``"2024-01-03"``, or instants; a date without an offset
            is the person's day, cut as the summary cuts days.
        source_priority: source names, highest priority first (default: manual entries,
            then Apple Watch, then iPhone, then others).
        tz: the time zone days are cut in.
        strict_start, strict_end, where, sources, devices, uuids, policy, parser,
        progress, quiet: as for :func:`read`. A type the policy hides, like a type with
        no samples, has no rows (and one warning).

    Returns:
        A ``pyarrow.Table``, one row per type and day: ``date`` (``date32``, the local
        day), ``sampleType`` (the full identifier), ``unit`` (the canonical unit, quantity
        types only), ``sum``, ``average``, ``minimum``, ``maximum``, ``duration``
        (seconds), ``count`` (samples) and ``sources`` (a JSON array of names, as text);
        a value that does not apply is null.

    The sample's steps: a Watch and an iPhone counted the same hours of the first day,
    7,885 and 10,048 steps; adding the samples would say 17,933, the summary counts each
    stretch of time once, from the Watch, first by default:

    >>> days = healthport.daily_summary("SampleData/export.zip", types="StepCount", quiet=True)
    >>> days.select(["date", "sum", "count", "sources"]).to_pandas().head(2)
             date     sum  count                     sources
    0  2024-03-25  7885.0     12  ["Apple Watch de Nicolás"]
    1  2024-03-26  8640.0     12  ["Apple Watch de Nicolás"]
    """
    filters = A.Filters(
        types=types, start=start, end=end, strict_start=strict_start, strict_end=strict_end, where=where,
        sources=sources, devices=devices, uuids=uuids, tz=tz, policy=policy,
    )
    source = _source(export, store)
    with _folder() as name:
        folder = Path(name)
        arguments = ["summary", *filters.arguments(folder), *A.parser(parser)]
        if source_priority is not None:
            arguments.append(A.option("source-priority", A.escaped_list(A.names(source_priority))))
        return _table_of([*arguments, *source], folder, progress=progress, quiet=quiet)


def sleep_nights(
    export: "str | os.PathLike[str] | None" = None,
    *,
    store: "str | os.PathLike[str] | None" = None,
    start: A.DateArgument | None = None,
    end: A.DateArgument | None = None,
    strict_start: bool = False,
    strict_end: bool = False,
    where: str | None = None,
    sources: A.NamesArgument | None = None,
    devices: A.NamesArgument | None = None,
    uuids: A.NamesArgument | None = None,
    source_priority: A.NamesArgument | None = None,
    evening: "str | _dt.time | None" = None,
    tz: str | None = None,
    policy: A.PolicyArgument | None = None,
    parser: str | None = None,
    progress: ProgressArgument = None,
    quiet: bool = False,
) -> "pyarrow.Table":
    """One row per night of sleep (``healthport sleep``): the ``sleep-nights`` table.

    A night runs from one evening to the next (18:00 local time, or ``evening``) and is
    named by its morning. Where several sources recorded the same night, overlapping time
    is resolved (by source priority, then by the precision of the stages), never added;
    time in bed is the union of every source's in-bed samples (healthport-sleep(1)).

    Args:
        export, store: the export, or instead a store, as for :func:`daily_summary`.
        evening: where one night ends and the next begins, local time (``"18:00"`` or a
            :class:`datetime.time` on the minute).
        start, end, strict_start, strict_end, where, sources, devices, uuids,
        source_priority, tz, policy, parser, progress, quiet: as for
        :func:`daily_summary`; they select the sleep samples. A policy that hides sleep
        leaves no night (and one warning).

    Returns:
        A ``pyarrow.Table``, one row per night: ``night`` (``date32``, the morning),
        ``inBed`` (null when no source recorded time in bed), ``asleep``,
        ``asleepUnspecified``, ``asleepCore``, ``asleepDeep``, ``asleepREM``, ``awake``
        (seconds), ``sleepStart`` and ``sleepEnd``, and ``sources`` (a JSON array, as
        text).

    >>> nights = healthport.sleep_nights("SampleData/export.zip").to_pandas()
    >>> len(nights)
    14
    >>> (nights.set_index("night")[["asleep", "asleepDeep", "awake"]] / 3600).head(2)
                  asleep  asleepDeep     awake
    night
    2024-03-26  7.115000    1.526944  0.148889
    2024-03-27  6.919444    1.496667  0.101111
    """
    filters = A.Filters(
        start=start, end=end, strict_start=strict_start, strict_end=strict_end, where=where,
        sources=sources, devices=devices, uuids=uuids, tz=tz, policy=policy,
    )
    source = _source(export, store)
    with _folder() as name:
        folder = Path(name)
        arguments = ["sleep", *filters.arguments(folder), *A.parser(parser)]
        if source_priority is not None:
            arguments.append(A.option("source-priority", A.escaped_list(A.names(source_priority))))
        if evening is not None:
            arguments.append(A.option("evening", _clock(evening)))
        return _table_of([*arguments, *source], folder, progress=progress, quiet=quiet)


def days(
    export: "str | os.PathLike[str] | None" = None,
    *,
    store: "str | os.PathLike[str] | None" = None,
    period: str | None = None,
    types: A.NamesArgument | None = None,
    start: A.DateArgument | None = None,
    end: A.DateArgument | None = None,
    where: str | None = None,
    sources: A.NamesArgument | None = None,
    devices: A.NamesArgument | None = None,
    source_priority: A.NamesArgument | None = None,
    evening: "str | _dt.time | None" = None,
    tz: str | None = None,
    policy: A.PolicyArgument | None = None,
    parser: str | None = None,
    progress: ProgressArgument = None,
    quiet: bool = False,
) -> "pyarrow.Table":
    """One row per day, its measures side by side (``healthport days``): the ``days``
    table, what a person opens in a spreadsheet.

    Each value is the daily summary's (:func:`daily_summary`: sources merged as the Health
    app merges them, stand hours the hours stood, sleep the night that ended that
    morning), one column per measure with its unit in its name (``steps``,
    ``distance_km``, ``active_energy_kcal``, ``exercise_min``, ``stand_hours``,
    ``resting_heart_rate_bpm``, ``hrv_sdnn_ms``, ``weight_kg``, ``asleep_min``, …) and
    Apple's rings beside the computed figures (``apple_move_kcal``,
    ``apple_exercise_min``, ``apple_stand_hours``). A column is there only when the data
    has the type (healthport-days(1)).

    Args:
        export, store: the export, or instead a store, as for :func:`daily_summary`.
        period: ``"week"`` (from Mondays) or ``"month"``: one row per period, with each
            total's ``_total`` and ``_daily_average``, each level's ``_average``, the
            ``days`` of the period inside the data and whether it is ``partial``.
        start, end: select whole days (and nights) by their dates, never samples.
        types: read only these types (the columns they fill).
        evening, source_priority, tz, where, sources, devices, policy, parser, progress,
        quiet: as for :func:`sleep_nights` and :func:`daily_summary`.

    Returns:
        A ``pyarrow.Table``: ``date`` (``date32``, the local day) and the columns, as
        doubles in their units; null where a day has no value.

    >>> table = healthport.days("SampleData/export.zip", start="2024-03-30", end="2024-04-02", quiet=True)
    >>> table.select(["date", "steps", "stand_hours", "apple_stand_hours", "asleep_min"]).to_pandas()
             date   steps  stand_hours  apple_stand_hours  asleep_min
    0  2024-03-30  5747.0         12.0               12.0       454.0
    1  2024-03-31  8909.0          3.0                3.0       381.0
    2  2024-04-01  9023.0         11.0               11.0       436.0
    """
    filters = A.Filters(types=types, start=start, end=end, where=where, sources=sources, devices=devices, tz=tz, policy=policy)
    source = _source(export, store)
    with _folder() as name:
        folder = Path(name)
        arguments = ["days", *filters.arguments(folder), *A.parser(parser)]
        if period is not None:
            if period not in ("week", "month"):
                raise ValueError(f"period is 'week' or 'month', not {period!r}")
            arguments.append(A.option("period", period))
        if source_priority is not None:
            arguments.append(A.option("source-priority", A.escaped_list(A.names(source_priority))))
        if evening is not None:
            arguments.append(A.option("evening", _clock(evening)))
        return _table_of([*arguments, *source], folder, progress=progress, quiet=quiet)


def workouts(
    export: "str | os.PathLike[str] | None" = None,
    *,
    store: "str | os.PathLike[str] | None" = None,
    start: A.DateArgument | None = None,
    end: A.DateArgument | None = None,
    where: str | None = None,
    sources: A.NamesArgument | None = None,
    tz: str | None = None,
    policy: A.PolicyArgument | None = None,
    parser: str | None = None,
    progress: ProgressArgument = None,
    quiet: bool = False,
) -> "pyarrow.Table":
    """One row per workout, as the Health app lists them (``healthport workouts``): the
    ``workout-summary`` table.

    Returns:
        A ``pyarrow.Table``: ``uuid``, ``date`` (the local day it began), ``start`` and
        ``end`` (instants, with ``_utcOffset`` the person's offset then), ``activity``
        (in words), ``activity_type``, ``duration_min``, ``distance_km``,
        ``active_energy_kcal``, ``average_heart_rate_bpm`` and ``maximum_heart_rate_bpm``
        (computed from the heart-rate samples recorded during it), ``source``.

    >>> table = healthport.workouts("SampleData/export.zip", quiet=True)
    >>> table.select(["date", "activity", "average_heart_rate_bpm"]).to_pandas().head(3)
             date                       activity  average_heart_rate_bpm
    0  2024-03-25                        Running                   152.0
    1  2024-03-28                        Running                   152.0
    2  2024-03-31  Traditional Strength Training                   124.0
    """
    filters = A.Filters(start=start, end=end, where=where, sources=sources, tz=tz, policy=policy)
    source = _source(export, store)
    with _folder() as name:
        folder = Path(name)
        arguments = ["workouts", *filters.arguments(folder), *A.parser(parser)]
        return _table_of([*arguments, *source], folder, progress=progress, quiet=quiet)


def _clock(value: "str | _dt.time") -> str:
    """A local time of day as ``--evening`` reads it.

    >>> _clock(_dt.time(19, 30))
    '19:30'
    """
    if isinstance(value, str):
        return value
    if isinstance(value, _dt.time):
        if value.second or value.microsecond or value.tzinfo is not None:
            raise ValueError(f"{value!r}: evening is a local time on the minute")
        return f"{value.hour:02d}:{value.minute:02d}"
    raise TypeError(f"expected evening as 'HH:MM' or datetime.time, got {value!r}")
