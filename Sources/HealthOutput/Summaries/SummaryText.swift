import HealthModel
import HealthTables

/// The summary tables as a person reads them in a terminal: one line a row, columns aligned,
/// types by their short name, values rounded to what a person compares (two decimals at most),
/// durations as hours and minutes.
enum SummaryText {
    static func header(_ table: SummaryTableWriter.Table) -> String {
        switch table {
        case .daily:
            return pad("date", 12) + pad("type", 30) + left("sum", 12) + left("average", 10) + left("minimum", 10) + left("maximum", 10)
                + left("duration", 10) + left("count", 7) + "  " + pad("unit", 12) + "sources"
        case .nights:
            return pad("night", 12) + left("in bed", 8) + left("asleep", 8) + left("core", 7) + left("deep", 7) + left("REM", 7)
                + left("other", 7) + left("awake", 7) + left("naps", 7) + "  " + pad("asleep at", 11) + pad("woke at", 9) + "sources"
        case .workouts:
            return pad("date", 12) + pad("start", 7) + pad("activity", 32) + left("duration", 9) + left("km", 8) + left("kcal", 7)
                + left("avg HR", 8) + left("max HR", 8) + "  source"
        case .days(let columns): return dayHeader(columns)
        case .dayPeriods(let columns): return periodHeader(columns)
        }
    }

    static func line(_ day: DailySummary) -> String {
        pad(day.date.text, 12) + pad(TypeCatalogue.shortName(of: day.type), 30) + left(number(day.sum), 12) + left(number(day.average), 10)
            + left(number(day.minimum), 10) + left(number(day.maximum), 10) + left(duration(day.duration), 10) + left(String(day.count), 7)
            + "  " + pad(day.unit ?? "", 12) + day.sources.joined(separator: ", ")
    }

    static func line(_ night: SleepNight) -> String {
        pad(night.night.text, 12) + left(duration(night.inBed), 8) + left(duration(night.asleep), 8) + left(duration(night.asleepCore), 7)
            + left(duration(night.asleepDeep), 7) + left(duration(night.asleepREM), 7) + left(duration(night.asleepUnspecified), 7)
            + left(duration(night.awake), 7) + left(night.naps > 0 ? duration(night.naps) : "", 7) + "  " + pad(clock(night.sleepStart), 11)
            + pad(clock(night.sleepEnd), 9) + night.sources.joined(separator: ", ")
    }

    static func line(_ workout: WorkoutSummary) -> String {
        pad(workout.date.text, 12) + pad(clock(workout.start), 7) + pad(workout.activity, 32) + left(longDuration(workout.duration), 9)
            + left(number(workout.distance.map { SummaryTableRows.rounded($0, 2) }), 8) + left(number(workout.activeEnergy.map { $0.rounded() }), 7)
            + left(number(workout.averageHeartRate.map { $0.rounded() }), 8) + left(number(workout.maximumHeartRate.map { $0.rounded() }), 8)
            + "  " + workout.source
    }

    /// The day table's columns are as wide as their headings (at least 5), and two spaces.
    static func width(_ column: DayColumn) -> Int { max(5, column.heading.count) + 2 }

    static func dayHeader(_ columns: [Int]) -> String {
        pad("date", 11) + columns.map { left(DayColumn.all[$0].heading, width(DayColumn.all[$0])) }.joined()
    }

    static func line(_ day: DayRow, columns: [Int]) -> String {
        pad(day.date.text, 11) + columns.map { left(cell(day.values[$0], DayColumn.all[$0]), width(DayColumn.all[$0])) }.joined()
    }

    /// A period's text row shows its daily averages (the Health app's "daily average"); a
    /// partial period's days are marked with `*`.
    static func periodHeader(_ columns: [Int]) -> String {
        pad("from", 11) + pad("to", 11) + left("days", 5) + "  " + columns.map { left(DayColumn.all[$0].heading, width(DayColumn.all[$0])) }.joined()
            + "   (daily averages)"
    }

    static func line(_ period: DayPeriodRow, columns: [Int]) -> String {
        let last = CalendarDate.civilFromDays(period.end.dayNumber - 1)
        return pad(period.start.text, 11) + pad(last.text, 11) + left(String(period.days), 5) + (period.isPartial ? "* " : "  ")
            + columns.map { left(cell(period.averages[$0], DayColumn.all[$0]), width(DayColumn.all[$0])) }.joined()
    }

    /// A day table's cell: times as hours and minutes, other values as rounded.
    static func cell(_ value: Double?, _ column: DayColumn) -> String {
        guard let value else { return "" }
        return column.isTime ? duration(value * 60) : number(value)
    }

    /// A value to two decimals at most, integers without a fraction.
    static func number(_ value: Double?) -> String {
        guard let value else { return "" }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    /// Seconds as `h:mm`, rounded to the minute.
    static func duration(_ seconds: Double?) -> String {
        guard let seconds else { return "" }
        let minutes = Int((seconds / 60).rounded())
        let text = String(minutes % 60)
        return "\(minutes / 60):" + (text.count == 1 ? "0" + text : text)
    }

    /// Seconds as `h:mm:ss` (a workout's length, as the Health app shows it).
    static func longDuration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(total / 3600):\(two(total / 60 % 60)):\(two(total % 60))"
    }

    /// The local time of day, `HH:mm`.
    static func clock(_ time: ExportTimestamp?) -> String {
        guard let time else { return "" }
        return String(time.iso8601.dropFirst(11).prefix(5))
    }

    /// The line without the blanks its empty last columns leave.
    static func trimmed(_ line: String) -> String {
        var line = Substring(line)
        while line.last == " " { line = line.dropLast() }
        return String(line)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    static func left(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
