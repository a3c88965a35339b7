import HealthModel
import HealthTables

/// A row of one of the summary tables, with its cells (`TableRows`) and its line in the text
/// table (`SummaryText`): what `SummaryTableWriter` writes in every format through one path.
protocol SummaryTableRow {
    static var table: OutputTable { get }
    func cells<B: TableRowBuilder>(into row: inout B)
    /// The text table's header (given the row, for tables whose columns depend on the data).
    var textHeader: String { get }
    var textLine: String { get }
}

extension DailySummary: SummaryTableRow {
    static var table: OutputTable { .dailySummary }
    func cells<B: TableRowBuilder>(into row: inout B) { SummaryTableRows.dailySummary(self, into: &row) }
    var textHeader: String { SummaryText.header(.daily) }
    var textLine: String { SummaryText.line(self) }
}

extension SleepNight: SummaryTableRow {
    static var table: OutputTable { .sleepNights }
    func cells<B: TableRowBuilder>(into row: inout B) { SummaryTableRows.sleepNight(self, into: &row) }
    var textHeader: String { SummaryText.header(.nights) }
    var textLine: String { SummaryText.line(self) }
}

extension WorkoutSummary: SummaryTableRow {
    static var table: OutputTable { .workoutSummary }
    func cells<B: TableRowBuilder>(into row: inout B) { SummaryTableRows.workoutSummary(self, into: &row) }
    var textHeader: String { SummaryText.header(.workouts) }
    var textLine: String { SummaryText.line(self) }
}

/// A day of the day table with the columns the table shows.
struct DayTableRow: SummaryTableRow {
    let day: DayRow
    let columns: [Int]
    static var table: OutputTable { .days }
    func cells<B: TableRowBuilder>(into row: inout B) { SummaryTableRows.day(day, columns: columns, into: &row) }
    var textHeader: String { SummaryText.dayHeader(columns) }
    var textLine: String { SummaryText.line(day, columns: columns) }
}

/// A week or a month of the day table with the columns the table shows.
struct DayPeriodTableRow: SummaryTableRow {
    let period: DayPeriodRow
    let columns: [Int]
    static var table: OutputTable { .dayPeriods }
    func cells<B: TableRowBuilder>(into row: inout B) { SummaryTableRows.dayPeriod(period, columns: columns, into: &row) }
    var textHeader: String { SummaryText.periodHeader(columns) }
    var textLine: String { SummaryText.line(period, columns: columns) }
}
