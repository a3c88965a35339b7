import Foundation
import GRDB
import HealthModel
import HealthTables
import HealthQuery

/// The store's `days` table: one row per local day, its measures side by side (`DayRow`), made
/// from the store's own `daily_summary` and `sleep_nights` rows and its activity summaries (the
/// rings), by the code `healthport days` runs (`DayTableBuilder`), so the two cannot disagree.
///
/// Remade for a range of days after every import that changed a summary (the range the
/// import's days and nights span), and whole after a rebuild. Every column of `DayColumn.all`
/// is in the table, `NULL` where the day has no value.
enum StoreDays {
    /// Remakes the rows of the local days `range` (days since 1970); every day when `nil`.
    static func rewrite(_ db: Database, range: ClosedRange<Int>?) throws {
        let (first, last) = (range.map { CalendarDate.civilFromDays($0.lowerBound).text } ?? "", range.map { CalendarDate.civilFromDays($0.upperBound).text } ?? "9999-99-99")
        try db.execute(sql: "DELETE FROM days WHERE date BETWEEN ? AND ?", arguments: [first, last])
        let builder = DayTableBuilder()
        let types = DayColumn.types.sorted().map { "'\($0)'" }.joined(separator: ", ")
        let days = try Row.fetchCursor(
            db,
            sql: """
                SELECT date, sample_type, unit, sum, average, duration, count FROM daily_summary
                WHERE date BETWEEN ? AND ? AND sample_type IN (\(types))
                """, arguments: [first, last])
        while let row = try days.next() {
            guard let date = CalendarDate.parse(try row.decode(String?.self, atIndex: 0) ?? "") else { continue }
            builder.add(
                DailySummary(
                    date: date, type: try row.decode(atIndex: 1), unit: try row.decode(atIndex: 2), sum: try row.decode(atIndex: 3),
                    average: try row.decode(atIndex: 4), duration: try row.decode(atIndex: 5), count: try row.decode(Int?.self, atIndex: 6) ?? 0,
                    sources: []))
        }
        let nights = try Row.fetchCursor(
            db, sql: "SELECT night, in_bed, asleep_unspecified, asleep_core, asleep_deep, asleep_rem, awake, naps FROM sleep_nights WHERE night BETWEEN ? AND ?",
            arguments: [first, last])
        while let row = try nights.next() {
            guard let date = CalendarDate.parse(try row.decode(String?.self, atIndex: 0) ?? "") else { continue }
            builder.add(
                SleepNight(
                    night: date, inBed: try row.decode(atIndex: 1), asleepUnspecified: try row.decode(Double?.self, atIndex: 2) ?? 0,
                    asleepCore: try row.decode(Double?.self, atIndex: 3) ?? 0, asleepDeep: try row.decode(Double?.self, atIndex: 4) ?? 0,
                    asleepREM: try row.decode(Double?.self, atIndex: 5) ?? 0, awake: try row.decode(Double?.self, atIndex: 6) ?? 0,
                    sleepStart: nil, sleepEnd: nil, naps: try row.decode(Double?.self, atIndex: 7) ?? 0, sources: []))
        }
        let rings = try Row.fetchCursor(
            db,
            sql: """
                SELECT day, active_energy_burned, active_energy_burned_unit, apple_exercise_time, apple_stand_hours
                FROM activity_summaries WHERE day BETWEEN ? AND ?
                """, arguments: [first, last])
        while let row = try rings.next() {
            guard let date = CalendarDate.parse(try row.decode(String?.self, atIndex: 0) ?? "") else { continue }
            var summary = ActivitySummary()
            summary.dateComponents = date
            summary.activeEnergyBurned = try row.decode(Double?.self, atIndex: 1).map(ExportNumber.init)
            summary.activeEnergyBurnedUnit = try row.decode(atIndex: 2)
            summary.appleExerciseTime = try row.decode(Double?.self, atIndex: 3).map(ExportNumber.init)
            summary.appleStandHours = try row.decode(Double?.self, atIndex: 4).map(ExportNumber.init)
            builder.add(rings: summary)
        }
        let cells = SummaryTableCells()
        let columns = SummaryTableCells.columns(.days(columns: Array(DayColumn.all.indices)))
        let insert = try db.makeStatement(
            sql: "INSERT INTO days (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
        for day in builder.table().rows { try insert.execute(arguments: SummaryRows.arguments(cells.row(day))) }
    }
}
