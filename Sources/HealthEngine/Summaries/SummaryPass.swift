import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

/// How the summary tables are made: where days are cut, where nights begin, which source wins
/// an overlap. The same settings for `healthport summary`, `healthport sleep` and a
/// conversion's `--summaries`, so all three give the same rows.
public struct SummarySettings: Sendable {
    /// Where days are cut and nights named; `nil`: the samples' most frequent `HKTimeZone`,
    /// else the export's UTC offset (with a warning), as `stats` decides.
    public var timeZone: TimeZone?
    /// Seconds after local midnight where one night ends and the next begins (18:00).
    public var evening = SummaryCollector.defaultEvening
    /// Source names, highest priority first (default: manual entries, Apple Watch, iPhone,
    /// others).
    public var sourcePriority: [String] = []

    /// `HH:MM` as seconds after midnight (the evening boundary a person types); `nil` when it
    /// is not a time of day. One parser for every face that takes it.
    public static func eveningSeconds(parsing text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
            (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 3600 + minutes * 60
    }

    public init(timeZone: TimeZone? = nil, evening: Int = SummaryCollector.defaultEvening, sourcePriority: [String] = []) {
        self.timeZone = timeZone
        self.evening = evening
        self.sourcePriority = sourcePriority
    }
}

/// The summary tables made from the objects of a read (behind its gate): the collector, the
/// sink that feeds it, and the end, where the time zone is decided and the rows are handed
/// out. Used by `SummaryRun` (the summary alone) and `ConversionRun` (beside the objects).
final class SummaryPass {
    let settings: SummarySettings
    let collector: SummaryCollector
    let sink: SummarySink

    /// - Parameter counted: the types counted, when the read includes others only for their
    ///   zone (`TimeZoneTally.reading`); `nil`: every type read.
    init(settings: SummarySettings, counted: Set<String>? = nil) {
        self.settings = settings
        collector = SummaryCollector(priority: SourcePriority(explicit: settings.sourcePriority), counted: counted)
        sink = SummarySink(collector: collector)
    }

    struct Counts {
        var timeZone: TimeZone
        var selection: DaySelection?
        var days = 0
        var nights = 0
        var workouts = 0
        /// The types that had at least one day.
        var types: Set<String> = []
    }

    /// Decides the zone and hands each day (by type, then date), each night and each workout out.
    ///
    /// - Parameters:
    ///   - window: the days and nights to give (`DaySelection`: whole ones, by date; bounds
    ///     typed without an offset read in the decided zone).
    ///   - windowCutTheRead: whether the read was cut by `window` itself (a conversion's
    ///     objects), so that days and nights reaching outside it are left out; else the read
    ///     was `DaySelection.reading(window)`.
    ///   - disclosesExportFacts: whether a warning about the export's samples may be said.
    func finish(
        window: DateWindow?, windowCutTheRead: Bool = false, reporter: RunReporter, disclosesExportFacts: Bool,
        cancellation: RunCancellation?, daily: (DailySummary) throws -> Void, night: (SleepNight) throws -> Void,
        workout: (WorkoutSummary) throws -> Void = { _ in }
    ) throws -> Counts {
        let zone = decideTimeZone(reporter: reporter)
        let selection = window.map { DaySelection(window: $0, timeZone: zone, covered: windowCutTheRead) }
        var counts = Counts(timeZone: zone, selection: selection)
        try collector.finish(
            timeZone: zone, selection: selection, evening: settings.evening,
            daily: { row in
                if cancellation?.isCancelled == true { throw CancellationError() }
                counts.days += 1
                counts.types.insert(row.type)
                try daily(row)
            },
            night: { row in
                counts.nights += 1
                try night(row)
            },
            workout: { row in
                counts.workouts += 1
                try workout(row)
            })
        if collector.tooLong > 0 && disclosesExportFacts {
            reporter.warning(
                ExportWarning(
                    key: "summary-long", message: "\(collector.tooLong) samples spanning more than ten years were left out", location: nil))
        }
        if collector.unconvertible > 0 && disclosesExportFacts {
            reporter.warning(
                ExportWarning(
                    key: "summary-units", message: "\(collector.unconvertible) samples in a unit that does not convert to their type's were left out",
                    location: nil))
        }
        return counts
    }

    /// Writes every summary table into a folder of tables (`convert --summaries`, a lake):
    /// the daily summary, the nights, the workouts and the day table, made by one `finish`.
    func finish(
        into destination: any SummaryTableDestination, window: DateWindow?, reporter: RunReporter, disclosesExportFacts: Bool,
        cancellation: RunCancellation?
    ) throws {
        let days = DayTableBuilder()
        let counts = try finish(
            window: window, windowCutTheRead: true, reporter: reporter, disclosesExportFacts: disclosesExportFacts, cancellation: cancellation,
            daily: { day in
                days.add(day)
                try destination.write(day)
            },
            night: { night in
                days.add(night)
                try destination.write(night)
            },
            workout: { try destination.write($0) })
        for summary in collector.rings { days.add(rings: summary) }
        let table = days.table(selection: counts.selection)
        for day in table.rows { try destination.write(day, columns: table.columns) }
    }

    /// The zone `stats` would cut days in: the one asked for, else the rule every summary
    /// follows (`SummaryTimeZone`: the samples' most frequent `HKTimeZone`, else the export's
    /// UTC offset, said in a warning since it knows no summer time, else UTC).
    func decideTimeZone(reporter: RunReporter) -> TimeZone {
        if let zone = settings.timeZone { return zone }
        let decided = SummaryTimeZone.decide(collector, exportOffset: sink.exportOffset)
        if case .exportOffset(let exportOffset) = decided, collector.recordCount > 0 {
            let text = ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: exportOffset).iso8601.suffix(6)
            reporter.warning(
                ExportWarning(
                    key: "statistics-zone",
                    text: "the samples name no time zone: days are cut at the export's UTC offset (\(text)); give \(argument: .timeZone) for daylight saving time and travel",
                    location: nil))
        }
        return decided.timeZone
    }
}

/// A parallel read's chunk, behind its gate: its objects made into summary records on the
/// chunk's thread, absorbed by the collector in document order (`SummaryCollector.absorb`).
final class SummaryChunkSink: ObjectSink {
    let batch: SummaryRecordBatch

    init(_ batch: SummaryRecordBatch) { self.batch = batch }

    func exportDidBegin(_ header: ExportHeader) throws {}

    func consume(_ object: HealthObject) throws { batch.add(object) }
}

extension SummaryPass {
    /// Reads `reader` with `jobs` threads into the summary alone (`SummaryRun`): the objects
    /// are built and made into records on the chunks' threads, which is most of the work, and
    /// only the records' renumbering and sort are left to the calling thread.
    func readInParallel(_ reader: ExportReader, context: RunContext, jobs: Int, chunkBytes: Int) throws -> ExportReader.Summary {
        let (collector, makeBatch, reporter) = (self.collector, collector.makeBatch, context.reporter)
        return try reader.readInParallel(
            context.executor, into: sink, jobs: jobs,
            makeChunkSink: { SummaryChunkSink(makeBatch()) },
            merge: { chunk, _ in try collector.absorb(chunk.batch) },
            warning: { reporter.warning($0) },
            progress: { value in
                reporter.progress(RunProgress(bytesRead: value.bytesRead, totalBytes: value.totalBytes, objects: value.admitted))
            },
            chunkBytes: chunkBytes, isCancelled: context.cancellation?.check)
    }
}

/// After the gate: every object into the summary.
final class SummarySink: ObjectSink {
    let collector: SummaryCollector
    /// The export's UTC offset (its export date's).
    private(set) var exportOffset: Int32?
    /// The header as the gate passed it: whose the rows are, for the writers that say so
    /// (FHIR's subject, Open mHealth's `user_id`).
    private(set) var header = ExportHeader()

    init(collector: SummaryCollector) { self.collector = collector }

    func exportDidBegin(_ header: ExportHeader) throws {
        self.header = header
        exportOffset = header.exportDate?.utcOffsetSeconds
        // A Health Connect export totals as Health Connect does, from its own priority list.
        collector.adopt(header)
    }

    func consume(_ object: HealthObject) throws { try collector.add(object) }
}

/// One read into two sinks: a conversion's writer and the summary beside it.
final class TeeSink: ObjectSink {
    let first: any ObjectSink
    let second: any ObjectSink

    init(_ first: any ObjectSink, _ second: any ObjectSink) {
        self.first = first
        self.second = second
    }

    func exportDidBegin(_ header: ExportHeader) throws {
        try first.exportDidBegin(header)
        try second.exportDidBegin(header)
    }

    func consume(_ object: HealthObject) throws {
        try first.consume(object)
        try second.consume(object)
    }
}
