import Foundation
import HealthModel

/// The numbers people export their data for, for every type at once: one row per type and
/// local day (`DailySummary`) and one per night of sleep (`SleepNight`), computed as `stats`
/// computes them (`IntervalSplitter`, `IntervalAggregation`: the same code, so the same
/// numbers) and as the Health app shows them (sources merged by priority, days cut at the
/// person's midnight).
///
/// Objects are added as they are read (after the gate: nothing the policy hides); each sample
/// becomes a 40-byte record, sorted by type and time in bounded memory
/// (`SummaryRecordSorter`); `finish` then reads the records in order and closes each day once
/// no later sample can reach it. Memory stays flat whatever the export's size: the sort's
/// buffer, and the samples of the days still open.
///
/// The time zone is decided after the read (the samples' `HKTimeZone`, else the export's
/// offset, unless the person names one), which is why the records keep instants, and why a
/// date window given without an offset is applied at `finish`, in that zone.
public final class SummaryCollector {
    private let priority: SourcePriority
    private let sorter: SummaryRecordSorter
    private var types: [String] = []
    private var typeIndex: [String: Int32] = [:]
    /// Per type: its aggregation style (`nil` for categories and workouts) and unit.
    private var styles: [AggregationStyle?] = []
    private var units: [HealthUnit?] = []
    private var sources: [String] = []
    private var sourceIndex: [String: Int32] = [:]
    /// The last type, unit and source met: samples come in long runs of one type, unit and
    /// source, and the reader interns their names, so comparing with the last one is mostly a
    /// pointer comparison where a dictionary lookup hashes the whole name (normalizing first one
    /// that is not ASCII, as many source names are), for every sample. A store's import feeds
    /// every sample through here (`StoreSummaries`), so this is its hot path too.
    private var lastType: (identifier: String, index: Int32)? = nil
    private var lastUnit: (type: Int32, text: String, unit: HealthUnit?)? = nil
    private var lastSource: (name: String, index: Int32)? = nil
    /// How often each `HKTimeZone` appeared, to choose the time zone.
    public private(set) var timeZoneCounts: [String: Int] = [:]
    /// Samples whose unit does not convert to their type's (left out, counted).
    public private(set) var unconvertible = 0
    /// Samples spanning more than `longestSample` (left out, counted).
    public private(set) var tooLong = 0

    /// The longest sample a summary counts: ten years (3,660 days). A sample gives a row for
    /// every day it covers, and none of a person's spans more (a pregnancy, a contraceptive
    /// lasts months or years); a damaged date (a heart rate from 1012 to 2024, which fuzzing
    /// of the store found) would make hundreds of thousands of rows of one sample.
    public static let longestSample: Double = 3_660 * 86_400
    public var recordCount: Int { sorter.count }

    /// - Parameter runCapacity: records sorted in memory before the sort spills to disk (tests
    ///   make it small to exercise the merge).
    public init(priority: SourcePriority = SourcePriority(), runCapacity: Int = 262_144) {
        self.priority = priority
        sorter = SummaryRecordSorter(runCapacity: runCapacity)
    }

    /// The type nights are made of.
    public static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"

    /// Where one night ends and the next begins unless the person moves it: 18:00, in seconds
    /// after local midnight (`SleepNightBuilder`).
    public static let defaultEvening = 18 * 3600

    /// The kinds of object a summary counts (`HealthObject.kindName`): what `add` takes; every
    /// other object it ignores. The store selects its rows by these.
    public static let summarizedKinds: [String] = ["quantitySample", "categorySample", "workout"]

    /// Whether `add` counts the object: a quantity or category sample, or a workout.
    public static func summarizes(_ object: HealthObject) -> Bool {
        switch object {
        case .quantitySample, .categorySample, .workout: return true
        default: return false
        }
    }

    /// The most frequent `HKTimeZone` among the samples, if any carried one.
    public var mostFrequentTimeZone: TimeZone? { TimeZoneChoice.mostFrequent(timeZoneCounts) }

    /// Adds one object: quantity and category samples and workouts count; other objects (and
    /// correlations, whose members are samples of their own) do not.
    public func add(_ object: HealthObject) throws {
        switch object {
        case .quantitySample(let sample):
            let type = sample.sample.sampleType.identifier
            let index = self.index(ofType: type) { identifier in
                let entry = TypeCatalogue.entry(for: identifier)
                return (entry?.aggregationStyle ?? .discreteArithmetic, try? HealthUnit.cached(entry?.canonicalUnit ?? sample.quantity.unit))
            }
            let from: HealthUnit?
            if let lastUnit, lastUnit.type == index, lastUnit.text == sample.quantity.unit {
                from = lastUnit.unit
            } else {
                // The sample's unit, when it converts to its type's.
                let unit = units[Int(index)]
                from = (try? HealthUnit.cached(sample.quantity.unit)).flatMap { unit != nil && $0.isCompatible(with: unit!) ? $0 : nil }
                lastUnit = (index, sample.quantity.unit, from)
            }
            guard let unit = units[Int(index)], let from, let value = try? from.convert(sample.quantity.value.value, to: unit) else {
                unconvertible += 1
                return
            }
            try record(sample.sample, type: index, value: value)
        case .categorySample(let sample):
            let index = self.index(ofType: sample.sample.sampleType.identifier) { _ in (nil, nil) }
            // A value a newer iOS adds without a number counts as -1 (time and count only).
            try record(sample.sample, type: index, value: Double(sample.value.rawValue ?? -1))
        case .workout(let workout):
            let index = self.index(ofType: ObjectType.workout.identifier) { _ in (nil, nil) }
            try record(workout.sample, type: index, value: 1)
        default:
            return
        }
    }

    private func index(ofType identifier: String, describe: (String) -> (AggregationStyle?, HealthUnit?)) -> Int32 {
        if let lastType, lastType.identifier == identifier { return lastType.index }
        if let known = typeIndex[identifier] {
            lastType = (identifier, known)
            return known
        }
        let index = Int32(types.count)
        types.append(identifier)
        typeIndex[identifier] = index
        let (style, unit) = describe(identifier)
        styles.append(style)
        units.append(unit)
        lastType = (identifier, index)
        return index
    }

    private func record(_ sample: SampleAttributes, type: Int32, value: Double) throws {
        let name = sample.sourceRevision.source.name
        let source: Int32
        if let lastSource, lastSource.name == name {
            source = lastSource.index
        } else if let known = sourceIndex[name] {
            source = known
        } else {
            source = Int32(sources.count)
            sources.append(name)
            sourceIndex[name] = source
        }
        lastSource = (name, source)
        let start = Double(sample.startDate.secondsSince1970)
        if Double(sample.endDate.secondsSince1970) - start > Self.longestSample {
            tooLong += 1
            return
        }
        if case .string(let zone)? = sample.metadata["HKTimeZone"] { timeZoneCounts[zone, default: 0] += 1 }
        let rank = priority.rank(of: sample)
        try sorter.append(
            SummaryRecord(
                type: type, source: source, tier: Int32(rank.tier), order: Int32(rank.order), start: start,
                end: max(start, Double(sample.endDate.secondsSince1970)), value: value))
    }

    /// Computes every day and night, in order of type then date, and of night.
    ///
    /// - Parameters:
    ///   - timeZone: where days are cut (and nights named).
    ///   - window: keeps only samples it admits (a window read in `timeZone`).
    ///   - evening: seconds after local midnight where one night ends and the next begins.
    ///   - daily: each day's row, by type, then date.
    ///   - night: each night, in order.
    public func finish(
        timeZone: TimeZone, window: DateWindow? = nil, evening: Int = SummaryCollector.defaultEvening,
        daily: (DailySummary) throws -> Void, night: (SleepNight) throws -> Void
    ) throws {
        guard let midnight = PredicateValue.parseDate("2000-01-01", timeZone: timeZone) else { return }
        let days = CalendarIntervals(unit: .day, anchor: Date(timeIntervalSince1970: midnight), timeZone: timeZone)
        var day: DayAccumulator? = nil
        var sleep = SleepNightBuilder(timeZone: timeZone, evening: evening)
        let sleepIndex = typeIndex[Self.sleepType]
        let names = sources
        try sorter.drain { record in
            if let window, !window.admits(start: record.start, end: record.end) { return }
            if day?.type != record.type {
                try day?.finish(emit: daily)
                let type = Int(record.type)
                day = DayAccumulator(
                    type: record.type, identifier: types[type], style: styles[type], unit: units[type]?.text, days: days, sources: names)
            }
            try day?.add(record, emit: daily)
            if record.type == sleepIndex {
                try sleep.add(
                    SleepNightBuilder.Sample(
                        start: record.start, end: record.end, value: Int(record.value),
                        rank: SourceRank(tier: Int(record.tier), order: Int(record.order)), source: Int(record.source)),
                    sources: names, emit: night)
            }
        }
        try day?.finish(emit: daily)
        try sleep.finish(sources: names, emit: night)
    }
}

/// One type's days, closed in order as the records (sorted by time) move past them.
struct DayAccumulator {
    let type: Int32
    let identifier: String
    let style: AggregationStyle?
    let unit: String?
    let sources: [String]
    private var splitter: IntervalSplitter
    private var open: [Int: [IntervalPiece]] = [:]
    private var sample = 0
    /// The first day of the latest record: no open day is before it.
    private var latestFirst = Int.min

    init(type: Int32, identifier: String, style: AggregationStyle?, unit: String?, days: CalendarIntervals, sources: [String]) {
        self.type = type
        self.identifier = identifier
        self.style = style
        self.unit = unit
        self.sources = sources
        splitter = IntervalSplitter(intervals: days, style: style, options: Self.options(for: style))
    }

    /// What a day's row holds for a type of `style`.
    static func options(for style: AggregationStyle?) -> StatisticsOptions {
        switch style {
        case nil: return [.duration, .count]
        case .cumulative?: return [.cumulativeSum]
        case .some: return [.discreteAverage, .discreteMin, .discreteMax]
        }
    }

    mutating func add(_ record: SummaryRecord, emit: (DailySummary) throws -> Void) throws {
        let first = splitter.index(of: record.start)
        // Records come by start: a day before this record's first one can receive no more.
        // Looked for only when the first day moves on (most records share their
        // predecessor's), not sorting the open days for every record.
        if first > latestFirst {
            for index in open.keys.sorted() where index < first { try close(index, emit: emit) }
            latestFirst = first
        }
        sample += 1
        let rank = SourceRank(tier: Int(record.tier), order: Int(record.order))
        splitter.split(
            start: record.start, end: record.end, value: record.value, rank: rank, source: Int(record.source), sample: sample
        ) { index, piece in
            open[index, default: []].append(piece)
        }
    }

    mutating func finish(emit: (DailySummary) throws -> Void) throws {
        for index in open.keys.sorted() { try close(index, emit: emit) }
    }

    private mutating func close(_ index: Int, emit: (DailySummary) throws -> Void) throws {
        guard let pieces = open.removeValue(forKey: index) else { return }
        let (start, end) = splitter.bounds(of: index)
        let list = IntervalAggregation.canonicalOrder(pieces)
        let options = Self.options(for: style)
        let statistics = IntervalAggregation.compute(
            list, style: style, options: options, merge: true, start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end))
        // Merged types count and name the samples that counted; discrete ones all of them.
        let counted = style == nil || style == .cumulative ? IntervalAggregation.countedPieces(list) : list
        let offset = splitter.intervals.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: start))
        let date = CalendarDate.civilFromDays(Int(((start + Double(offset)) / 86_400).rounded(.down)))
        try emit(
            DailySummary(
                date: date, type: identifier, unit: style == nil ? nil : unit, sum: statistics.sum, average: statistics.average,
                minimum: statistics.minimum, maximum: statistics.maximum, duration: statistics.duration,
                count: Set(counted.map(\.sample)).count, sources: Set(counted.map(\.source)).map { sources[$0] }.sorted()))
    }
}
