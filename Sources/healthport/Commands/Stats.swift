import ArgumentParser
import Foundation
import HealthEngine
import HealthModel
import HealthQuery

extension Healthport {
    /// `healthport stats`: statistics per calendar interval (HKStatisticsCollectionQuery).
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Statistics of a quantity type per calendar interval, sources merged like the Health app.",
            discussion: "See healthport-stats(1) for the merging algorithm.")

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, csv, json, ndjson
        }

        @OptionGroup var input: InputOptions
        @OptionGroup var filter: FilterOptions

        @Option(name: .long, help: ArgumentHelp("The interval: minute, hour, day, week, month or year.", valueName: "unit"))
        var interval: CalendarIntervals.Unit = .day

        @Option(name: .long, help: ArgumentHelp("Intervals of this many units (default 1).", valueName: "n"))
        var intervalCount: Int = 1

        @Option(name: .long, help: ArgumentHelp("A date intervals align with (default: midnight, 3 January 2000, a Monday).", valueName: "date"))
        var anchorDate: String? = nil

        @Option(name: .long, help: ArgumentHelp("cumulativeSum, discreteAverage, discreteMin, discreteMax, mostRecent, duration, separateBySource.", valueName: "list"))
        var options: String? = nil

        @Flag(name: .long, help: "Also compute each source's own statistics.")
        var separateBySource = false

        @Option(name: .long, help: ArgumentHelp("Source names, highest priority first (default: manual entries, Apple Watch, iPhone, others).", valueName: "list"))
        var sourcePriority: String? = nil

        @Option(name: .shortAndLong, help: "Output: text (a table with bars, default), csv, json or ndjson.")
        var format: Format = .text

        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if intervalCount < 1 { throw ValidationError("--interval-count must be 1 or more") }
        }

        func run() throws {
            let log = Diagnostics(quiet: diagnostics.quiet)
            try log.run {
                var run = StatisticsRun(input: .export(input.export), query: try filter.makeQuery())
                run.interval = interval
                run.intervalCount = intervalCount
                run.anchorDate = anchorDate
                run.timeZone = try filter.tz.map { name -> TimeZone in
                    guard let zone = TimeZone(identifier: name) else { throw QueryError(.errorInvalidArgument, "unknown time zone '\(name)'") }
                    return zone
                }
                run.options = try options.map(StatisticsOptions.init(parsing:))
                run.separateBySource = separateBySource
                run.sourcePriority = sourcePriority.map { $0.split(separator: ",").map(String.init) } ?? []
                let progress = ProgressLine(forced: diagnostics.progress, quiet: diagnostics.quiet)
                defer { progress.clear() }
                let result = try run.run(reporter: log.reporter(progress: progress), cancellation: Signals.cancellation)
                progress.clear()
                log.repeats(result.warnings)
                let text = StatisticsReport(results: result.intervals, options: result.options, unit: result.unit, zone: result.timeZone)
                    .render(format)
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        }
    }
}

extension CalendarIntervals.Unit: ExpressibleByArgument {}

/// Statistics as text, CSV, JSON or NDJSON.
struct StatisticsReport {
    let results: [IntervalStatistics]
    let options: StatisticsOptions
    let unit: String
    let zone: TimeZone

    var columns: [(String, (IntervalStatistics) -> Double?)] {
        var columns: [(String, (IntervalStatistics) -> Double?)] = []
        if options.contains(.cumulativeSum) { columns.append(("sum", { $0.sum })) }
        if options.contains(.discreteAverage) { columns.append(("average", { $0.average })) }
        if options.contains(.discreteMin) { columns.append(("minimum", { $0.minimum })) }
        if options.contains(.discreteMax) { columns.append(("maximum", { $0.maximum })) }
        if options.contains(.mostRecent) { columns.append(("mostRecent", { $0.mostRecent })) }
        if options.contains(.duration) { columns.append(("duration", { $0.duration })) }
        return columns
    }

    func date(_ date: Date) -> String {
        let offset = zone.secondsFromGMT(for: date)
        return ExportTimestamp(secondsSince1970: Int64(date.timeIntervalSince1970), utcOffsetSeconds: Int32(offset)).iso8601
    }

    static func number(_ value: Double?) -> String {
        guard let value else { return "" }
        let rounded = (value * 1e9).rounded() / 1e9
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
    }

    /// Rows: the merged statistics, then (with separateBySource) one row per source.
    var rows: [(source: String?, statistics: IntervalStatistics)] {
        results.flatMap { interval in
            [(nil as String?, interval)] + interval.bySource.map { (Optional($0.source), $0.statistics) }
        }
    }

    func render(_ format: Healthport.Stats.Format) -> String {
        let bySource = options.contains(.separateBySource)
        switch format {
        case .csv:
            var lines = [(["startDate", "endDate"] + (bySource ? ["source"] : []) + columns.map(\.0) + ["unit"]).joined(separator: ",")]
            for row in rows {
                var fields = [date(row.statistics.start), date(row.statistics.end)]
                if bySource { fields.append(Self.csvField(row.source ?? "")) }
                fields += columns.map { Self.number($0.1(row.statistics)) }
                fields.append(Self.csvField(unit))
                lines.append(fields.joined(separator: ","))
            }
            return lines.joined(separator: "\r\n") + "\r\n"
        case .json, .ndjson:
            let objects = rows.map { row -> String in
                var parts = ["\"startDate\":\"\(date(row.statistics.start))\"", "\"endDate\":\"\(date(row.statistics.end))\""]
                if bySource { parts.append("\"source\":" + (row.source.map(Self.jsonString) ?? "null")) }
                for (name, value) in columns { parts.append("\"\(name)\":" + (value(row.statistics).map { Self.number($0) } ?? "null")) }
                parts.append("\"unit\":" + Self.jsonString(unit))
                return "{" + parts.joined(separator: ",") + "}"
            }
            return format == .ndjson ? objects.map { $0 + "\n" }.joined() : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
        case .text:
            guard let (name, value) = columns.first else { return "" }
            let values = results.map { value($0) ?? 0 }
            let top = values.max() ?? 0
            var lines = ["START                      \(name.uppercased()) (\(unit))"]
            for interval in results {
                let v = value(interval) ?? 0
                let bar = top > 0 ? String(repeating: "█", count: Int((v / top * 40).rounded())) : ""
                let text = Self.number(v)
                lines.append(date(interval.start) + "  " + String(repeating: " ", count: max(0, 12 - text.count)) + text + "  " + bar)
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    static func csvField(_ s: String) -> String {
        s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    static func jsonString(_ s: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [s])
        return data.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? "\"\""
    }
}
