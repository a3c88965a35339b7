import Foundation
import HealthModel

/// Puts the daily summary's rows (one per type and day), the nights and Apple's rings side by
/// side: one row per day (`DayRow`), a column per measure (`DayColumn`).
///
/// Nothing is computed here but units: each value is the daily summary's own (so `days` says
/// what `summary` says, merged as the Health app merges), converted to the column's unit
/// (kilometres, minutes, percent). A day appears when any column has a value; a column when any
/// day has one.
///
/// Memory: one row per day of the data, about 250 bytes (a decade is under 1 MB), whatever the
/// number of samples; the rows are only complete once every type's days have come, since the
/// summary hands them out type by type.
///
/// For example:
/// ```swift
/// let builder = DayTableBuilder()
/// try collector.finish(timeZone: zone, daily: builder.add, night: builder.add)
/// for summary in collector.rings { builder.add(rings: summary) }
/// let table = builder.table()   // table.rows[0].value("steps")
/// ```
public final class DayTableBuilder {
    private var rows: [Int: DayRow] = [:]
    private var present = [Bool](repeating: false, count: DayColumn.all.count)
    /// Per type, the columns it fills.
    private static let columnsByType: [String: [(index: Int, column: DayColumn)]] = {
        var map: [String: [(Int, DayColumn)]] = [:]
        for (index, column) in DayColumn.all.enumerated() {
            if let type = column.type { map[type, default: []].append((index, column)) }
        }
        return map
    }()
    private static let ringColumns: [(index: Int, column: DayColumn)] = DayColumn.all.enumerated().filter { $0.element.type == nil }.map {
        ($0.offset, $0.element)
    }
    private static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"

    public init() {}

    private func set(_ value: Double?, column index: Int, date: CalendarDate) {
        guard let value, value.isFinite else { return }
        let number = date.dayNumber
        rows[number, default: DayRow(date: date)].values[index] = DayColumn.all[index].rounded(value)
        present[index] = true
    }

    /// Takes one type's day (sleep's come from its nights, `add(_: SleepNight)`).
    public func add(_ day: DailySummary) {
        guard day.type != Self.sleepType, let columns = Self.columnsByType[day.type] else { return }
        for (index, column) in columns {
            let value: Double?
            switch column.figure {
            case .sum: value = Self.convert(day.sum, from: day.unit, to: column.unit)
            case .average: value = Self.convert(day.average, from: day.unit, to: column.unit)
            case .count: value = Double(day.count)
            case .duration: value = day.duration.map { $0 / 60 }
            default: value = nil
            }
            set(value, column: index, date: day.date)
        }
    }

    /// Takes one night: its asleep time, time in bed and naps, on the date of its morning.
    public func add(_ night: SleepNight) {
        for (index, column) in Self.columnsByType[Self.sleepType] ?? [] {
            switch column.figure {
            case .asleep: set(night.asleep / 60, column: index, date: night.night)
            case .inBed: set(night.inBed.map { $0 / 60 }, column: index, date: night.night)
            case .naps: if night.naps > 0 { set(night.naps / 60, column: index, date: night.night) }
            default: break
            }
        }
    }

    /// Takes Apple's rings for a day (`ActivitySummary`), beside the computed figures.
    public func add(rings summary: ActivitySummary) {
        guard let date = summary.dateComponents else { return }
        for (index, column) in Self.ringColumns {
            switch column.figure {
            case .ringMove:
                set(Self.convert(summary.activeEnergyBurned?.value, from: summary.activeEnergyBurnedUnit ?? "kcal", to: column.unit), column: index, date: date)
            case .ringExercise: set(summary.appleExerciseTime?.value, column: index, date: date)
            case .ringStand: set(summary.appleStandHours?.value, column: index, date: date)
            default: break
            }
        }
    }

    /// The rows in date order, with the columns that have a value.
    ///
    /// - Parameter selection: keeps the days it selects (the rings come for every day read).
    public func table(selection: DaySelection? = nil) -> DayTable {
        let kept = rows.keys.sorted().compactMap { number -> DayRow? in
            let row = rows[number]!
            if let selection, !selection.admitsDate(row.date) { return nil }
            return row
        }
        var columns: [Int] = []
        for index in DayColumn.all.indices where kept.contains(where: { $0.values[index] != nil }) { columns.append(index) }
        return DayTable(columns: columns, rows: kept)
    }

    /// `value` in `unit` as the column's unit: percentages as 0–100 (HealthKit keeps them as
    /// fractions, `docs/reference/healthkit.md` §2.1).
    static func convert(_ value: Double?, from unit: String?, to target: String) -> Double? {
        guard let value else { return nil }
        if target == "%" { return value * 100 }
        guard let unit, unit != target else { return value }
        guard let from = try? HealthUnit.cached(unit), let to = try? HealthUnit.cached(target), from.isCompatible(with: to) else { return nil }
        return try? from.convert(value, to: to)
    }
}
