import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore

/// The daily summary of every type the query admits and the nights of sleep, as the Health app
/// shows them (`healthport summary`, `healthport sleep`, `convert --summaries`): the numbers of
/// `stats`, for everything at once, in flat memory (`SummaryCollector`).
///
/// For example:
/// ```swift
/// var run = SummaryRun(input: .export("export.zip"), query: ObjectQuery(types: ["HKQuantityTypeIdentifierStepCount"]))
/// _ = try run.run(daily: { print($0.date.text, $0.sum ?? 0) }, night: { _ in })
/// ```
public struct SummaryRun: Sendable {
    public var input: ObjectInput
    /// How an export is read: the face's options.
    public var reading = ReadOptions()
    /// Types, filters and the policy; a date window typed without an offset is read in the
    /// summary's time zone.
    public var query: ObjectQuery
    /// Where days are cut and nights named; `nil`: the samples' most frequent `HKTimeZone`,
    /// else the export's UTC offset (with a warning), as `stats` decides.
    public var timeZone: TimeZone?
    /// Seconds after local midnight where one night ends and the next begins (18:00).
    public var evening = 18 * 3600
    /// Source names, highest priority first (default: manual entries, Apple Watch, iPhone,
    /// others).
    public var sourcePriority: [String] = []

    /// Which tables say so when they come out empty: the one a command writes.
    public var emptyAnswerWarnings: Tables = []

    public init(input: ObjectInput, query: ObjectQuery = ObjectQuery()) {
        self.input = input
        self.query = query
    }

    /// The two tables a summary run makes.
    public struct Tables: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// One row per type and local day (`DailySummary`).
        public static let days = Tables(rawValue: 1)
        /// One row per night of sleep (`SleepNight`).
        public static let nights = Tables(rawValue: 2)
    }

    /// Writes one of the tables to `output` (`-` is standard output) in `format`: what
    /// `healthport summary` and `healthport sleep` print. The output is put in place only when
    /// the run succeeds, and may not replace the input.
    public func write(
        _ table: SummaryTableWriter.Table, format: SummaryTableWriter.Format, to output: String, parquet: ParquetOptions = ParquetOptions(),
        reporter: RunReporter = .silent, cancellation: RunCancellation? = nil
    ) throws(RunError) -> Summary {
        try RunError.wrapping {
            let inputPath: String
            switch input {
            case .export(let path), .store(let path): inputPath = path
            }
            try OutputInputGuard.check(outputs: [output], inputs: [inputPath])
            let writer = try SummaryTableWriter(table: table, format: format, to: OutputDestination(output), parquet: parquet)
            var run = self
            run.emptyAnswerWarnings = table == .daily ? .days : .nights
            if table == .nights {
                // Nights come from sleep alone: the other types need not be read.
                let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
                run.query.types = (query.types ?? [sleep]).intersection([sleep])
            }
            do {
                let summary = try run.execute(
                    reporter: reporter, cancellation: cancellation,
                    daily: { if table == .daily { try writer.write($0) } },
                    night: { if table == .nights { try writer.write($0) } })
                try writer.finish()
                return summary
            } catch {
                writer.abandon()
                throw error
            }
        }
    }

    public struct Summary: Sendable {
        /// The zone days were cut in.
        public var timeZone: TimeZone
        public var days: Int
        public var nights: Int
        public var warnings: [RepeatedWarning]
    }

    /// Reads the input and hands each day (by type, then date) and each night to the sinks.
    public func run(
        reporter: RunReporter = .silent, cancellation: RunCancellation? = nil, daily: (DailySummary) throws -> Void,
        night: (SleepNight) throws -> Void
    ) throws(RunError) -> Summary {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation, daily: daily, night: night) }
    }

    private func execute(
        reporter: RunReporter, cancellation: RunCancellation?, daily: (DailySummary) throws -> Void, night: (SleepNight) throws -> Void
    ) throws -> Summary {
        var query = self.query
        // Values in each type's own unit: the summary converts to the canonical one.
        query.outputUnit = nil
        let window = query.dateWindow
        if window?.hasLocalBounds == true { query.dateWindow = nil }
        let context = try RunContext(query: query, reporter: reporter, cancellation: cancellation)
        let collector = SummaryCollector(priority: SourcePriority(explicit: sourcePriority))
        let sink = SummarySink(collector: collector)
        var warnings: [RepeatedWarning] = []
        switch try OpenedInput(input, reading: reading, cancellation: cancellation) {
        case .export(let reader):
            warnings = context.warnings(of: try context.read(reader).run(into: sink))
        case .store(let store):
            try store.read(query: context.executor, into: sink, isCancelled: cancellation?.check)
        }
        let zone = decideTimeZone(collector: collector, exportOffset: sink.exportOffset, reporter: context.reporter)
        var days = 0
        var nights = 0
        var typesShown: Set<String> = []
        try collector.finish(
            timeZone: zone, window: window?.resolvingLocalBounds(in: zone), evening: evening,
            daily: { row in
                if cancellation?.isCancelled == true { throw CancellationError() }
                days += 1
                typesShown.insert(row.type)
                try daily(row)
            },
            night: { row in
                nights += 1
                try night(row)
            })
        // The same words whether there were no samples or the policy hides them: a denied type
        // looks empty. Said for the types a person named (all of them would be noise).
        for type in (self.query.types ?? []).sorted() where emptyAnswerWarnings.contains(.days) && !typesShown.contains(type) {
            reporter.warning(ExportWarning(key: "summary-empty", message: "no \(TypeCatalogue.shortName(of: type)) samples to show", location: nil))
        }
        if emptyAnswerWarnings.contains(.nights) && nights == 0 {
            reporter.warning(ExportWarning(key: "sleep-empty", message: "no nights of sleep to show", location: nil))
        }
        if collector.unconvertible > 0 && context.disclosure.exportFacts {
            context.reporter.warning(
                ExportWarning(
                    key: "summary-units", message: "\(collector.unconvertible) samples in a unit that does not convert to their type's were left out",
                    location: nil))
        }
        return Summary(timeZone: zone, days: days, nights: nights, warnings: warnings)
    }

    /// The zone `stats` would cut days in: the one asked for, else the samples' most frequent
    /// `HKTimeZone`, else the export's UTC offset (with a warning: no summer time), else UTC.
    func decideTimeZone(collector: SummaryCollector, exportOffset: Int32?, reporter: RunReporter) -> TimeZone {
        if let timeZone { return timeZone }
        if let zone = collector.mostFrequentTimeZone { return zone }
        if let exportOffset, let fixed = TimeZone(secondsFromGMT: Int(exportOffset)) {
            if collector.recordCount > 0 {
                let text = ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: exportOffset).iso8601.suffix(6)
                reporter.warning(
                    ExportWarning(
                        key: "statistics-zone",
                        text: "the samples name no time zone: days are cut at the export's UTC offset (\(text)); give \(argument: .timeZone) for daylight saving time and travel",
                        location: nil))
            }
            return fixed
        }
        return TimeZone(secondsFromGMT: 0)!
    }
}

/// After the gate: every object into the summary.
final class SummarySink: ObjectSink {
    let collector: SummaryCollector
    /// The export's UTC offset (its export date's).
    private(set) var exportOffset: Int32?

    init(collector: SummaryCollector) { self.collector = collector }

    func exportDidBegin(_ header: ExportHeader) throws { exportOffset = header.exportDate?.utcOffsetSeconds }

    func consume(_ object: HealthObject) throws { try collector.add(object) }
}
