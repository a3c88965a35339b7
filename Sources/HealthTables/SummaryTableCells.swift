import HealthJSON
import HealthModel

/// The summary tables' rows as typed cells, for a database: the columns `SummaryTableRows` gives the
/// CSV, JSON and Parquet writers, in their order, with the same values (a date as
/// `YYYY-MM-DD`, an instant as ISO 8601 with its offset, `sources` as the same JSON array
/// text). The store's `daily_summary` and `sleep_nights` are filled from these, so its tables
/// cannot drift from `healthport summary --format csv`.
///
/// For example:
/// ```swift
/// let cells = SummaryTableCells()
/// SummaryTableCells.columns(.daily)   // ["date", "sampleType", "unit", "sum", …, "sources"]
/// cells.row(day)                      // [.text("2024-03-01"), .text("HKQuantityTypeIdentifierStepCount"), …]
/// ```
///
/// Reuses one scratch buffer for the JSON cells: not for use from two threads at once.
public final class SummaryTableCells {
    /// One cell: SQLite's storage classes.
    public enum Cell: Sendable, Equatable {
        case null
        case integer(Int)
        case real(Double)
        case text(String)
    }

    private let scratch = OutputBuffer(descriptor: -1, capacity: 4096)

    public init() {}

    /// A table's column names, as the CSV header row names them.
    public static func columns(_ table: SummaryTable) -> [String] {
        var row = CellRow(scratch: OutputBuffer(descriptor: -1, capacity: 64), keepsNames: true)
        let date = CalendarDate(year: 2000, month: 1, day: 1)
        switch table {
        case .daily: SummaryTableRows.dailySummary(DailySummary(date: date, type: "", unit: nil, count: 0, sources: []), into: &row)
        case .nights: SummaryTableRows.sleepNight(SleepNight.empty(date), into: &row)
        case .days(let columns): SummaryTableRows.day(DayRow(date: date), columns: columns, into: &row)
        case .dayPeriods(let columns):
            let none = [Double?](repeating: nil, count: DayColumn.all.count)
            SummaryTableRows.dayPeriod(
                DayPeriodRow(start: date, end: date, days: 0, isPartial: false, totals: none, averages: none, daysWithValue: []),
                columns: columns, into: &row)
        case .workouts:
            let time = ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: 0)
            SummaryTableRows.workoutSummary(
                WorkoutSummary(
                    uuid: ObjectUUID(high: 0, low: 0), date: date, start: time, end: time, activityType: "", activity: "", duration: 0,
                    distance: nil, activeEnergy: nil, averageHeartRate: nil, maximumHeartRate: nil, source: ""), into: &row)
        }
        return row.names
    }

    /// A day's cells, in the order of `columns(.daily)`.
    public func row(_ day: DailySummary) -> [Cell] {
        var row = CellRow(scratch: scratch, keepsNames: false)
        SummaryTableRows.dailySummary(day, into: &row)
        return row.cells
    }

    /// A night's cells, in the order of `columns(.nights)`.
    public func row(_ night: SleepNight) -> [Cell] {
        var row = CellRow(scratch: scratch, keepsNames: false)
        SummaryTableRows.sleepNight(night, into: &row)
        return row.cells
    }

    /// A day of the day table's cells, every column (`columns(.days(columns: all))`).
    public func row(_ day: DayRow) -> [Cell] {
        var row = CellRow(scratch: scratch, keepsNames: false)
        SummaryTableRows.day(day, columns: Array(DayColumn.all.indices), into: &row)
        return row.cells
    }

    /// A workout's cells, in the order of `columns(.workouts)`.
    public func row(_ workout: WorkoutSummary) -> [Cell] {
        var row = CellRow(scratch: scratch, keepsNames: false)
        SummaryTableRows.workoutSummary(workout, into: &row)
        return row.cells
    }
}

/// Collects a row's cells (and, for `columns`, their names).
private struct CellRow: TableRowBuilder {
    let scratch: OutputBuffer
    let keepsNames: Bool
    var names: [String] = []
    var cells: [SummaryTableCells.Cell] = []

    private mutating func add(_ column: String, _ cell: SummaryTableCells.Cell) {
        if keepsNames { names.append(column) }
        cells.append(cell)
    }

    mutating func string(_ column: String, _ value: String?) { add(column, value.map { .text($0) } ?? .null) }
    mutating func number(_ column: String, _ value: ExportNumber?) { add(column, value.map { .real($0.value) } ?? .null) }
    mutating func int(_ column: String, _ value: Int?) { add(column, value.map { .integer($0) } ?? .null) }
    mutating func bool(_ column: String, _ value: Bool?) { add(column, value.map { .integer($0 ? 1 : 0) } ?? .null) }
    mutating func date(_ column: String, _ value: ExportTimestamp?) { add(column, value.map { .text($0.iso8601) } ?? .null) }
    mutating func date(_ column: String, _ value: ExportTimestamp?, hundredths: Int?) { date(column, value) }
    mutating func localDate(_ column: String, _ value: ExportTimestamp?) {
        add(column, value.map { .text(String($0.iso8601.prefix(19))) } ?? .null)
    }
    mutating func uuid(_ column: String, _ value: ObjectUUID?) { add(column, value.map { .text($0.uuidString) } ?? .null) }
    mutating func day(_ column: String, _ value: CalendarDate?) { add(column, value.map { .text($0.text) } ?? .null) }

    mutating func json(_ column: String, _ body: ((inout JSONEmitter) -> Void)?) {
        guard let body else { return add(column, .null) }
        _ = scratch.takeBytes()
        var json = JSONEmitter(scratch)
        body(&json)
        add(column, .text(String(decoding: scratch.takeBytes(), as: UTF8.self)))
    }
}
