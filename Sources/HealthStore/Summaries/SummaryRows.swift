import GRDB
import HealthModel
import HealthTables

/// Writes and removes rows of `daily_summary`, `sleep_nights` and `workout_summary` (`days` is
/// `StoreDays`'s). The columns are the CSV's
/// (`SummaryTableCells`, the same cells `healthport summary --format csv` prints), named in the
/// store's snake case: `sampleType` is `sample_type`, `asleepREM` `asleep_rem`.
final class SummaryRows {
    private let db: Database
    private let cells = SummaryTableCells()
    private let insertDay: Statement
    private let insertNight: Statement
    private let insertWorkout: Statement
    private(set) var daysWritten = 0
    private(set) var nightsWritten = 0

    init(db: Database) throws {
        self.db = db
        insertDay = try db.makeStatement(sql: Self.insert("daily_summary", SummaryTableCells.columns(.daily)))
        insertNight = try db.makeStatement(sql: Self.insert("sleep_nights", SummaryTableCells.columns(.nights)))
        insertWorkout = try db.makeStatement(sql: Self.insert("workout_summary", SummaryTableCells.columns(.workouts)))
    }

    private static func insert(_ table: String, _ columns: [String]) -> String {
        let names = columns.map(snakeCase).joined(separator: ", ")
        return "INSERT INTO \(table) (\(names)) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    }

    /// `sampleType` → `sample_type`, `asleepREM` → `asleep_rem`: an underscore where a capital
    /// follows a lower-case letter, then everything lower-cased.
    static func snakeCase(_ name: String) -> String {
        var result = ""
        var previousIsLower = false
        for character in name {
            if character.isUppercase && previousIsLower { result += "_" }
            result += character.lowercased()
            previousIsLower = character.isLowercase
        }
        return result
    }

    func write(_ day: DailySummary) throws {
        try insertDay.execute(arguments: Self.arguments(cells.row(day)))
        daysWritten += 1
    }

    func write(_ night: SleepNight) throws {
        try insertNight.execute(arguments: Self.arguments(cells.row(night)))
        nightsWritten += 1
    }

    func write(_ workout: WorkoutSummary) throws {
        try insertWorkout.execute(arguments: Self.arguments(cells.row(workout)))
    }

    static func arguments(_ row: [SummaryTableCells.Cell]) -> StatementArguments {
        StatementArguments(
            row.map { cell -> DatabaseValue in
                switch cell {
                case .null: return .null
                case .integer(let value): return value.databaseValue
                case .real(let value): return value.databaseValue
                case .text(let value): return value.databaseValue
                }
            })
    }

    /// Removes one type's days `days` (local day numbers, days since 1970).
    func removeDays(type: String, _ days: ClosedRange<Int>) throws {
        try db.execute(
            sql: "DELETE FROM daily_summary WHERE sample_type = ? AND date BETWEEN ? AND ?",
            arguments: [type, CalendarDate.civilFromDays(days.lowerBound).text, CalendarDate.civilFromDays(days.upperBound).text])
    }

    /// Removes the nights named by the mornings `nights` (local day numbers).
    func removeNights(_ nights: ClosedRange<Int>) throws {
        try db.execute(
            sql: "DELETE FROM sleep_nights WHERE night BETWEEN ? AND ?",
            arguments: [CalendarDate.civilFromDays(nights.lowerBound).text, CalendarDate.civilFromDays(nights.upperBound).text])
    }

    /// Removes the workouts that began on the local days `days`.
    func removeWorkouts(_ days: ClosedRange<Int>) throws {
        try db.execute(
            sql: "DELETE FROM workout_summary WHERE date BETWEEN ? AND ?",
            arguments: [CalendarDate.civilFromDays(days.lowerBound).text, CalendarDate.civilFromDays(days.upperBound).text])
    }

    func removeAll() throws {
        try db.execute(sql: "DELETE FROM daily_summary; DELETE FROM sleep_nights; DELETE FROM workout_summary; DELETE FROM days")
    }
}
