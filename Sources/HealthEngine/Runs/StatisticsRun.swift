import Foundation
import HealthExport
import HealthModel
import HealthQuery
import HealthStore

/// Statistics of one quantity type per calendar interval, sources merged as the Health app
/// merges them (HealthKit: `HKStatisticsCollectionQuery`; `healthport stats`).
public struct StatisticsRun: Sendable {
    public var input: ObjectInput
    /// How an export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    /// Must select exactly one quantity or category type; its other parts filter the samples.
    public var query: ObjectQuery
    public var interval: CalendarIntervals.Unit = .day
    public var intervalCount = 1
    /// A date intervals align with (default: midnight, 3 January 2000 for weeks, a Monday;
    /// 1 January 2000 otherwise), in `timeZone`.
    public var anchorDate: String?
    /// `nil`: the samples' most frequent time zone (their `HKTimeZone` metadata), else the
    /// export's own UTC offset (every date of an export carries the phone's offset at export
    /// time, not the sample's: days are then cut at that fixed offset, with a warning), never the
    /// machine's zone, which says nothing about the person.
    public var timeZone: TimeZone?
    /// `nil`: the type's defaults (HealthKit's valid options for its aggregation style).
    public var options: StatisticsOptions?
    /// Also compute each source's own statistics (adds `.separateBySource`).
    public var separateBySource = false
    /// Source names, highest priority first.
    public var sourcePriority: [String] = []

    public init(input: ObjectInput, query: ObjectQuery) {
        self.input = input
        self.query = query
    }

    /// The statistics, ready to render.
    public struct Result: Sendable {
        public var intervals: [IntervalStatistics]
        public var options: StatisticsOptions
        public var unit: String
        public var timeZone: TimeZone
        public var warnings: [RepeatedWarning]

        /// The statistics as a table to write (`StatisticsWriter`): the columns the options
        /// ask for, dates in the statistics' time zone, each interval followed by its sources'
        /// rows when separated by source.
        public var table: StatisticsTable {
            var columns: [(String, (IntervalStatistics) -> Double?)] = []
            if options.contains(.cumulativeSum) { columns.append(("sum", { $0.sum })) }
            if options.contains(.discreteAverage) { columns.append(("average", { $0.average })) }
            if options.contains(.discreteMin) { columns.append(("minimum", { $0.minimum })) }
            if options.contains(.discreteMax) { columns.append(("maximum", { $0.maximum })) }
            if options.contains(.mostRecent) { columns.append(("mostRecent", { $0.mostRecent })) }
            if options.contains(.duration) { columns.append(("duration", { $0.duration })) }
            if options.contains(.count) { columns.append(("count", { $0.count.map(Double.init) })) }
            let zone = timeZone
            func date(_ date: Date) -> ExportTimestamp {
                ExportTimestamp(
                    secondsSince1970: Int64(date.timeIntervalSince1970), utcOffsetSeconds: Int32(zone.secondsFromGMT(for: date)))
            }
            let rows = intervals.flatMap { interval in
                [(nil as String?, interval)] + interval.bySource.map { (Optional($0.source), $0.statistics) }
            }.map { source, statistics in
                StatisticsTable.Row(
                    start: date(statistics.start), end: date(statistics.end), source: source,
                    values: columns.map { $0.1(statistics) })
            }
            // The unit is the values' (sum, average, ...); a duration is always in seconds, so a
            // table of durations alone (and counts) says "s", not the type's unit.
            let measures = columns.map(\.0).filter { $0 != "duration" && $0 != "count" }
            let shownUnit = measures.isEmpty && options.contains(.duration) ? "s" : unit
            return StatisticsTable(
                columns: columns.map(\.0), unit: shownUnit, isSeparatedBySource: options.contains(.separateBySource), rows: rows)
        }
    }

    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Result {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation) }
    }

    private func execute(reporter: RunReporter, cancellation: RunCancellation?) throws -> Result {
        var query = self.query
        guard let types = query.types, types.count == 1, let type = types.first, let entry = TypeCatalogue.entry(for: type),
            entry.kind == .quantity || entry.kind == .category
        else {
            throw QueryError(
                .errorInvalidArgument,
                "statistics need exactly one quantity or category type: \(argument: .types, "StepCount, SleepAnalysis, …", neutral: "StepCount, SleepAnalysis, …")",
                argument: .types)
        }
        // A category type has no aggregation style: its statistics are time and count.
        let style = entry.kind == .quantity ? entry.aggregationStyle ?? .discreteArithmetic : nil
        var statisticsOptions = options ?? StatisticsOptions.defaults(for: style)
        if separateBySource { statisticsOptions.insert(.separateBySource) }
        if statisticsOptions.subtracting(.separateBySource).isEmpty {
            statisticsOptions.formUnion(StatisticsOptions.defaults(for: style))
        }
        try statisticsOptions.validate(for: style, type: type)
        let unit: HealthUnit? = style == nil ? nil : try query.outputUnit ?? HealthUnit.cached(entry.canonicalUnit ?? "count")
        query.outputUnit = nil
        // Dates typed without an offset are the person's: read in the zone the days are cut in,
        // once it is decided, as the intervals are (the first day is a whole day).
        let window = query.dateWindow
        if window?.hasLocalBounds == true { query.dateWindow = nil }
        var context = try RunContext(query: query, reporter: reporter, cancellation: cancellation)
        let opened = try OpenedInput(input, reading: reading, cancellation: cancellation, reporter: reporter)
        // Without an explicit zone: the store's own, where its tables cut days (a fact about all
        // of it, so the owner's: under a policy the zone comes from what the policy lets
        // through, as from an export);
        // else the zone is decided after reading (the samples' HKTimeZone, else the export's
        // offset), and the intervals are made again then. Sleep and workouts are read too, for
        // their zone alone (`TimeZoneTally`): where Apple writes one, and what every summary
        // decides by, so steps are not cut at the export's offset here and in the person's
        // zone by `healthport summary`.
        var timeZone = self.timeZone
        if timeZone == nil, context.disclosure.exportFacts, case .store(let store) = opened { timeZone = try store.summaryTimeZone() }
        if timeZone == nil, let read = TimeZoneTally.reading(query.types) {
            query.types = read
            context = try RunContext(query: query, reporter: reporter, cancellation: cancellation, validates: false)
        }
        let executor = context.executor
        var zone = timeZone ?? TimeZone(secondsFromGMT: 0)!
        let anchorText = anchorDate ?? (interval == .week ? "2000-01-03" : "2000-01-01")
        func intervals(in zone: TimeZone) throws -> CalendarIntervals {
            guard let anchorSeconds = PredicateValue.parseDate(anchorText, timeZone: zone) else {
                throw QueryError(.errorInvalidArgument, "\(argument: .anchorDate): invalid date '\(anchorText)'", argument: .anchorDate)
            }
            return CalendarIntervals(unit: interval, count: intervalCount, anchor: Date(timeIntervalSince1970: anchorSeconds), timeZone: zone)
        }
        let collector = StatisticsCollector(
            style: style, options: statisticsOptions, intervals: try intervals(in: zone), priority: SourcePriority(explicit: sourcePriority))
        let sink = StatisticsSink(collector: collector, type: type, unit: unit)
        var warnings: [RepeatedWarning] = []
        switch opened {
        case .export(let reader):
            let read = context.read(reader)
            warnings = context.warnings(of: try read.run(into: sink))
        case .store(let store):
            try store.read(query: executor, into: sink, isCancelled: cancellation?.check)
        }
        if timeZone == nil {
            if let sampleZone = collector.mostFrequentTimeZone {
                zone = sampleZone
            } else if let offset = sink.exportOffset, let fixed = TimeZone(secondsFromGMT: Int(offset)) {
                zone = fixed
                if collector.sampleCount > 0 {
                    let text = ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: offset).iso8601.suffix(6)
                    context.reporter.warning(
                        ExportWarning(
                            key: "statistics-zone",
                            text: "the samples name no time zone: intervals are cut at the export's UTC offset (\(text)); give \(argument: .timeZone) for daylight saving time and travel",
                            location: nil))
                }
            }
            collector.intervals = try intervals(in: zone)
        }
        if let window, window.hasLocalBounds { collector.window = window.resolvingLocalBounds(in: zone) }
        let results = collector.results()
        if results.isEmpty {
            // The same words whether there were no samples or the policy hides them: a denied
            // type looks empty (and this note is the face's, not the reader's, so it is said
            // under a policy too).
            reporter.warning(
                ExportWarning(key: "statistics-empty", message: "no \(TypeCatalogue.shortName(of: type)) samples to show", location: nil))
        }
        return Result(intervals: results, options: statisticsOptions, unit: unit?.text ?? "s", timeZone: zone, warnings: warnings)
    }
}

/// After the gate: quantity samples into the collector, in the statistics' unit.
final class StatisticsSink: ObjectSink {
    let collector: StatisticsCollector
    /// `nil` for a category type (each sample counts 1).
    let unit: HealthUnit?

    /// The export's UTC offset (its export date's), the one every date in it carries.
    private(set) var exportOffset: Int32?

    /// The type counted; samples of others (the witnesses of the zone) only vote for it.
    let type: String

    init(collector: StatisticsCollector, type: String, unit: HealthUnit?) {
        self.collector = collector
        self.type = type
        self.unit = unit
    }

    func exportDidBegin(_ header: ExportHeader) throws {
        exportOffset = header.exportDate?.utcOffsetSeconds
        // A Health Connect export totals as Health Connect does, from its own priority list.
        collector.adopt(header)
    }

    func consume(_ object: HealthObject) throws {
        if let sample = object.sampleAttributes, sample.sampleType.identifier != type {
            collector.vote(sample)
            return
        }
        if case .categorySample(let sample) = object {
            collector.add(sample.sample, value: 1)
            return
        }
        guard case .quantitySample(let sample) = object, let unit else { return }
        let from = try HealthUnit.cached(sample.quantity.unit)
        guard from.isCompatible(with: unit) else {
            throw QueryError(.errorInvalidArgument, "a sample in '\(sample.quantity.unit)' does not convert to '\(unit.text)'")
        }
        collector.add(sample.sample, value: try from.convert(sample.quantity.value.value, to: unit))
    }
}
