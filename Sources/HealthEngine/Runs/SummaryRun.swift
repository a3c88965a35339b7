import Foundation
import HealthExport
import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore

/// The daily summary of every type the query admits and the nights of sleep, as the Health app
/// shows them (`healthport summary`, `healthport sleep`): the numbers of `stats`, for
/// everything at once, in flat memory (`SummaryCollector`). `convert --summaries` makes the same
/// rows beside the objects (`ConversionRun.summaries`).
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
    /// The zone, the evening boundary, the source priority.
    public var settings = SummarySettings()
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
        /// One row per workout (`WorkoutSummary`).
        public static let workouts = Tables(rawValue: 4)
    }

    public struct Summary: Sendable {
        /// The zone days were cut in.
        public var timeZone: TimeZone
        public var days: Int
        public var nights: Int
        public var workouts: Int
        /// Apple's rings for the days read (`ActivitySummary`, in date order), when the query
        /// reads them: what the day table sets beside its own figures.
        public var rings: [ActivitySummary]
        /// The days and nights the date window selected (`nil` without a window).
        public var selection: DaySelection?
        public var warnings: [RepeatedWarning]
        /// Written as `omh`: the data points per schema, and the nights no episode takes.
        public var omh: OpenMHealthTally? = nil
        /// Written as `fhir` (nights): the Observations, and the nights left out.
        public var fhir: FHIRCodingTally? = nil
    }

    /// Reads the input and hands each day (by type, then date), each night and each workout
    /// (in time order, once every day and night is out) to the sinks.
    public func run(
        reporter: RunReporter = .silent, cancellation: RunCancellation? = nil, daily: (DailySummary) throws -> Void,
        night: (SleepNight) throws -> Void, workout: (WorkoutSummary) throws -> Void = { _ in }
    ) throws(RunError) -> Summary {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation, daily: daily, night: night, workout: workout) }
    }

    /// Writes one of the tables to `output` (`-` is standard output) in `format`: what
    /// `healthport summary` and `healthport sleep` print. The output is put in place only when
    /// the run succeeds, and may not replace the input.
    public func write(
        _ table: SummaryTableWriter.Table, format: SummaryTableWriter.Format, to output: String, parquet: ParquetOptions = ParquetOptions(),
        byteOrderMark: Bool = false, reporter: RunReporter = .silent, cancellation: RunCancellation? = nil
    ) throws(RunError) -> Summary {
        try RunError.wrapping {
            let inputPath: String
            switch input {
            case .export(let path), .store(let path): inputPath = path
            }
            try OutputInputGuard.check(outputs: [output], inputs: [inputPath], query: query)
            var run = self
            switch table {
            case .daily: run.emptyAnswerWarnings = .days
            case .nights:
                run.emptyAnswerWarnings = .nights
                // Nights come from sleep alone: the other types need not be read.
                run.query.types = (query.types ?? [SummaryCollector.sleepType]).intersection([SummaryCollector.sleepType])
            case .workouts:
                run.emptyAnswerWarnings = .workouts
                // Workouts and the heart rate recorded during them.
                let read: Set<String> = [ObjectType.workout.identifier, SummaryCollector.heartRateType]
                run.query.types = query.types.map { $0.intersection(read) } ?? read
            case .days, .dayPeriods:
                throw OutputError(.invalidRequest, "the day table is written by DayTableRun", argument: .output)
            }
            let writer = try SummaryTableWriter(
                table: table, format: format, to: OutputDestination(output), parquet: parquet, byteOrderMark: byteOrderMark)
            do {
                var summary = try run.execute(
                    reporter: reporter, cancellation: cancellation, header: writer.begin,
                    daily: { if table == .daily { try writer.write($0) } },
                    night: { if table == .nights { try writer.write($0) } },
                    workout: { if table == .workouts { try writer.write($0) } })
                try writer.finish()
                if format == .omh { summary.omh = writer.omhTally }
                if format == .fhir { summary.fhir = writer.fhirTally }
                return summary
            } catch {
                writer.abandon()
                throw error
            }
        }
    }

    /// - Parameter header: given the header as the gate passed it, once the read is done and
    ///   before the first row: whose the rows are (a writer's FHIR subject).
    func execute(
        reporter: RunReporter, cancellation: RunCancellation?, header: (ExportHeader) -> Void = { _ in },
        daily: (DailySummary) throws -> Void, night: (SleepNight) throws -> Void, workout: (WorkoutSummary) throws -> Void
    ) throws -> Summary {
        var query = self.query
        // Values in each type's own unit: the summary converts to the canonical one.
        query.outputUnit = nil
        // Whole days and nights: the read is wider than the window, which selects rows by
        // their date once the zone is decided (`DaySelection`).
        let window = query.dateWindow
        query.dateWindow = window.map(DaySelection.reading)
        var context = try RunContext(query: query, reporter: reporter, cancellation: cancellation)
        let opened = try OpenedInput(input, reading: reading, cancellation: cancellation, reporter: reporter)
        var settings = self.settings
        // The store's own zone, where its tables cut days: a fact about all of it, so the
        // owner's; under a policy the zone comes from what the policy lets through, as from an
        // export.
        if settings.timeZone == nil, context.disclosure.exportFacts, case .store(let store) = opened {
            settings.timeZone = try store.summaryTimeZone()
        }
        // Sleep and workouts are read too, for their zone alone (`TimeZoneTally`), so that a
        // summary of steps cuts the days the summary of everything cuts.
        var counted: Set<String>? = nil
        if settings.timeZone == nil, let types = query.types {
            counted = types
            query.types = TimeZoneTally.reading(types)
            context = try RunContext(query: query, reporter: reporter, cancellation: cancellation, validates: false)
        }
        let pass = SummaryPass(settings: settings, counted: counted)
        var warnings: [RepeatedWarning] = []
        switch opened {
        case .export(let reader):
            let threads = reading.jobs ?? ProcessInfo.processInfo.activeProcessorCount
            if threads > 1 && reader.canReadInParallel {
                warnings = context.warnings(
                    of: try pass.readInParallel(
                        reader, context: context, jobs: threads, chunkBytes: reading.parallelChunkBytes ?? ExportReader.parallelChunkBytes))
            } else {
                warnings = context.warnings(of: try context.read(reader).run(into: pass.sink))
            }
        case .store(let store):
            try store.read(query: context.executor, into: pass.sink, isCancelled: cancellation?.check)
        }
        header(pass.sink.header)
        let counts = try pass.finish(
            window: window, reporter: context.reporter, disclosesExportFacts: context.disclosure.exportFacts, cancellation: cancellation,
            daily: daily, night: night, workout: workout)
        // The same words whether there were no samples or the policy hides them: a denied type
        // looks empty. Said for the types a person named (all of them would be noise).
        if emptyAnswerWarnings.contains(.days) {
            for type in (self.query.types ?? []).sorted() where !counts.types.contains(type) {
                reporter.warning(ExportWarning(key: "summary-empty", message: "no \(TypeCatalogue.shortName(of: type)) samples to show", location: nil))
            }
        }
        if emptyAnswerWarnings.contains(.nights) && counts.nights == 0 {
            reporter.warning(ExportWarning(key: "sleep-empty", message: "no nights of sleep to show", location: nil))
        }
        if emptyAnswerWarnings.contains(.workouts) && counts.workouts == 0 {
            reporter.warning(ExportWarning(key: "workouts-empty", message: "no workouts to show", location: nil))
        }
        return Summary(
            timeZone: counts.timeZone, days: counts.days, nights: counts.nights, workouts: counts.workouts, rings: pass.collector.rings,
            selection: counts.selection, warnings: warnings)
    }
}
