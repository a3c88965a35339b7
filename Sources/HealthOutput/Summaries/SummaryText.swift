import HealthModel

/// The daily summary and the sleep nights as a person reads them in a terminal: one line a row,
/// columns aligned, types by their short name, values rounded to what a person compares (two
/// decimals at most), durations as hours and minutes.
enum SummaryText {
    static func header(_ table: SummaryTableWriter.Table) -> String {
        switch table {
        case .daily:
            return pad("date", 12) + pad("type", 30) + left("sum", 12) + left("average", 10) + left("minimum", 10) + left("maximum", 10)
                + left("duration", 10) + left("count", 7) + "  " + pad("unit", 12) + "sources"
        case .nights:
            return pad("night", 12) + left("in bed", 8) + left("asleep", 8) + left("core", 7) + left("deep", 7) + left("REM", 7)
                + left("other", 7) + left("awake", 7) + "  " + pad("asleep at", 11) + pad("woke at", 9) + "sources"
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
            + left(duration(night.awake), 7) + "  " + pad(clock(night.sleepStart), 11) + pad(clock(night.sleepEnd), 9)
            + night.sources.joined(separator: ", ")
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

    /// The local time of day, `HH:mm`.
    static func clock(_ time: ExportTimestamp?) -> String {
        guard let time else { return "" }
        return String(time.iso8601.dropFirst(11).prefix(5))
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    static func left(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
