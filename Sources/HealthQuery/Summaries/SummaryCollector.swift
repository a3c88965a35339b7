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
/// date window selects its days and nights at `finish` (`DaySelection`), in that zone.
public final class SummaryCollector {
    private var priority: SourcePriority
    private let sorter: SummaryRecordSorter
    /// The records `add` makes, absorbed every `batchSize` samples.
    private var own: SummaryRecordBatch
    private var types: [String] = []
    private var typeIndex: [String: Int32] = [:]
    /// Per type: its aggregation style (`nil` for categories and workouts) and unit.
    private var styles: [AggregationStyle?] = []
    private var units: [HealthUnit?] = []
    private var sources: [String] = []
    private var sourceIndex: [String: Int32] = [:]
    /// What absorbed batches other than `own` counted (`own` keeps its own counts).
    private var absorbedTimeZones = TimeZoneTally()
    private var absorbedUnconvertible = 0
    private var absorbedTooLong = 0
    /// Converted on absorbing: values in a batch's unit that is not the collector's (only an
    /// unknown type's, whose unit is its first sample's) and does not convert to it.
    private var unconvertibleOnAbsorb = 0

    /// The `HKTimeZone`s the samples named, to choose the time zone.
    public var timeZones: TimeZoneTally {
        var tally = own.timeZones
        tally.merge(absorbedTimeZones)
        return tally
    }
    /// The types whose samples are counted; the others read only vote for the zone.
    private let counted: Set<String>?
    /// Samples whose unit does not convert to their type's (left out, counted).
    public var unconvertible: Int { own.unconvertible + absorbedUnconvertible + unconvertibleOnAbsorb }
    /// Samples spanning more than `longestSample` (left out, counted).
    public var tooLong: Int { own.tooLong + absorbedTooLong }

    /// The longest sample a summary counts: ten years (3,660 days). A sample gives a row for
    /// every day it covers, and none of a person's spans more (a pregnancy, a contraceptive
    /// lasts months or years); a damaged date (a heart rate from 1012 to 2024, which fuzzing
    /// of the store found) would make hundreds of thousands of rows of one sample.
    public static let longestSample: Double = 3_660 * 86_400
    public var recordCount: Int { sorter.count + own.records.count }

    /// - Parameters:
    ///   - runCapacity: records sorted in memory before the sort spills to disk (tests
    ///     make it small to exercise the merge).
    ///   - counted: the types whose samples are counted; samples of other types only vote for
    ///     the time zone (the witnesses a summary of a few types reads: `TimeZoneTally`).
    ///     `nil`: every type.
    public init(priority: SourcePriority = SourcePriority(), counted: Set<String>? = nil, runCapacity: Int? = nil) {
        self.priority = priority
        self.counted = counted
        sorter = SummaryRecordSorter(runCapacity: runCapacity ?? SummaryRecordSorter.defaultRunCapacity)
        own = SummaryRecordBatch(tiers: priority.tiers, counted: counted)
    }

    /// Samples `add` gathers before absorbing them: small enough to stay in the cache.
    private static let batchSize = 1024

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

    /// The zone the samples name (`TimeZoneTally`: the sleep's and workouts' most frequent
    /// `HKTimeZone`, else the other samples'), if any named one.
    public var mostFrequentTimeZone: TimeZone? { timeZones.mostFrequent }

    /// Adds one object: quantity and category samples and workouts count; other objects (and
    /// correlations, whose members are samples of their own) do not.
    public func add(_ object: HealthObject) throws {
        own.add(object)
        if own.records.count >= Self.batchSize { try absorbOwn() }
    }

    /// Takes what an export's header says about its totals: a Health Connect export's priority
    /// list makes its samples rank as Health Connect ranks them (`HealthConnectRanking`),
    /// unless the person gave a list of their own. Called at the header, before any object.
    public func adopt(_ header: ExportHeader) {
        countOffsets(of: header)
        guard let list = header.healthConnectPriority, !priority.tiers.hasExplicitList, recordCount == 0, absorbedTooLong == 0 else {
            return
        }
        priority = SourcePriority(healthConnect: list)
        own = SummaryRecordBatch(tiers: priority.tiers, counted: counted, countsOffsets: countsOffsets)
    }

    /// Whether the samples' own UTC offsets are tallied for the zone (`RecordClockZone`).
    private var countsOffsets = false

    /// Takes from an export's header where its samples' offsets tell the person's clock: a
    /// Health Connect export's records carry the offset each was written in, so they are
    /// tallied, and the days are cut in the zone whose clock they keep (`TimeZoneTally`). An
    /// import into a store whose summary exists calls this alone (its collector ranks by the
    /// store's list, `adopt` would replace it). Called at the header, before any object.
    public func countOffsets(of header: ExportHeader) {
        guard header.platform == .healthConnect, !countsOffsets, recordCount == 0 else { return }
        countsOffsets = true
        own = SummaryRecordBatch(tiers: priority.tiers, counted: counted, countsOffsets: true)
    }

    /// Samples a Health Connect export's priority list left out of the totals (from apps it
    /// does not list).
    public var leftOutByPriority: Int { own.leftOutByPriority + absorbedLeftOut }
    private var absorbedLeftOut = 0

    /// A batch for a parallel read's chunk, ranking sources as this collector does; made on
    /// the chunk's thread.
    public var makeBatch: @Sendable () -> SummaryRecordBatch {
        let (tiers, counted, countsOffsets) = (priority.tiers, counted, countsOffsets)
        return { SummaryRecordBatch(tiers: tiers, counted: counted, countsOffsets: countsOffsets) }
    }

    /// Takes a chunk's batch, in document order: its records renumbered into the collector's
    /// types and sources, ranked by first appearance as one read would.
    public func absorb(_ batch: SummaryRecordBatch) throws {
        precondition(batch !== own, "the collector's own batch is absorbed by add")
        // What `add` took came before this batch (a parallel read hands some objects to the
        // calling thread's sink): its records go first, or types and sources would be
        // numbered out of document order, and rows come by type.
        try absorbOwn()
        try append(batch)
        absorbedTimeZones.merge(batch.timeZones)
        absorbedUnconvertible += batch.unconvertible
        absorbedTooLong += batch.tooLong
        absorbedLeftOut += batch.leftOutByPriority
    }

    private func absorbOwn() throws {
        try append(own)
        own.removeRecords()
    }

    /// The workouts read, in document order (`WorkoutSummary` once their heart rate is known).
    private var workouts: [WorkoutRecord] = []
    /// Apple's rings by date, the last read for a date kept.
    private var ringsByDate: [CalendarDate: ActivitySummary] = [:]

    /// Apple's rings for each day read (`ActivitySummary`), in date order: what the day table
    /// sets beside its computed move, exercise and stand.
    public var rings: [ActivitySummary] {
        ringsByDate.keys.sorted { ($0.year, $0.month, $0.day) < ($1.year, $1.month, $1.day) }.map { ringsByDate[$0]! }
    }

    private func append(_ batch: SummaryRecordBatch) throws {
        workouts += batch.workouts
        for summary in batch.activitySummaries {
            if let date = summary.dateComponents { ringsByDate[date] = summary }
        }
        // The batch's numbering, renumbered: types and units, then sources (and their order
        // of first appearance, numbered as the records come, as `SourcePriority.rank` does).
        var typeMap: [Int32] = []
        var conversions: [HealthUnit?] = []
        for type in batch.types {
            let index = self.index(ofType: type.identifier, style: type.style, unit: type.unit)
            typeMap.append(index)
            // Only an unknown type's unit can differ between batches (its first sample's).
            let unit = units[Int(index)]
            conversions.append(type.unit != nil && unit != nil && type.unit!.text != unit!.text ? type.unit : nil)
        }
        var sourceMap = [Int32](repeating: -1, count: batch.sources.count)
        var orderMap = [Int32](repeating: -1, count: batch.sources.count)
        for record in batch.records {
            let local = Int(record.source)
            if sourceMap[local] < 0 {
                sourceMap[local] = index(ofSource: batch.sources[local])
                orderMap[local] = Int32(priority.appearanceOrder(of: batch.sources[local]))
            }
            let type = typeMap[Int(record.type)]
            var value = record.value
            if let from = conversions[Int(record.type)] {
                guard let unit = units[Int(type)], let converted = try? from.convert(value, to: unit) else {
                    unconvertibleOnAbsorb += 1
                    continue
                }
                value = converted
            }
            try sorter.append(
                SummaryRecord(
                    type: type, source: sourceMap[local], tier: record.tier, order: record.listed ? record.order : orderMap[local], start: record.start,
                    end: record.end, value: value))
        }
    }

    private func index(ofType identifier: String, style: AggregationStyle?, unit: HealthUnit?) -> Int32 {
        if let known = typeIndex[identifier] { return known }
        let index = Int32(types.count)
        types.append(identifier)
        typeIndex[identifier] = index
        styles.append(style)
        units.append(unit)
        return index
    }

    private func index(ofSource name: String) -> Int32 {
        if let known = sourceIndex[name] { return known }
        let index = Int32(sources.count)
        sources.append(name)
        sourceIndex[name] = index
        return index
    }

    /// Computes every day and night, in order of type then date, and of night.
    ///
    /// A category type's day follows its `CategoryDayMeasure`; sleep's day is the night that
    /// ends that morning (its asleep time and time in bed), handed to `daily` as each night is
    /// to `night`, so the two tables cannot disagree.
    ///
    /// - Parameters:
    ///   - timeZone: where days are cut (and nights named).
    ///   - selection: the days and nights to hand out (`DaySelection`: whole ones, by date);
    ///     `nil`: every one.
    ///   - evening: seconds after local midnight where one night ends and the next begins.
    ///   - daily: each day's row, by type, then date.
    ///   - night: each night, in order.
    public func finish(
        timeZone: TimeZone, selection: DaySelection? = nil, evening: Int = SummaryCollector.defaultEvening,
        daily: (DailySummary) throws -> Void, night: (SleepNight) throws -> Void, workout: (WorkoutSummary) throws -> Void = { _ in }
    ) throws {
        try absorbOwn()
        let listed = workouts.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        var heartRates = WorkoutHeartRates(listed)
        let heartRateIndex = typeIndex[Self.heartRateType]
        guard let midnight = PredicateValue.parseDate("2000-01-01", timeZone: timeZone) else { return }
        let days = CalendarIntervals(unit: .day, anchor: Date(timeIntervalSince1970: midnight), timeZone: timeZone)
        var day: DayAccumulator? = nil
        var sleep = SleepNightBuilder(timeZone: timeZone, evening: evening)
        let sleepIndex = typeIndex[Self.sleepType]
        let names = sources
        var current: Int32? = nil
        // A night, once made: to both tables when the selection takes it.
        func emitNight(_ made: SleepNight, spanStart: Double, spanEnd: Double) throws {
            if let selection, !selection.admits(made.night, spanStart: spanStart, spanEnd: spanEnd) { return }
            try night(made)
            try daily(
                DailySummary(
                    date: made.night, type: Self.sleepType, unit: nil, duration: made.asleep, inBed: made.inBed, count: made.sampleCount,
                    sources: made.sources))
        }
        try sorter.drain { record in
            if current != record.type {
                if current == sleepIndex { try sleep.finish(sources: names, emit: emitNight) }
                try day?.finish(emit: daily)
                day = nil
                current = record.type
                let type = Int(record.type)
                if record.type != sleepIndex {
                    day = DayAccumulator(
                        type: record.type, identifier: types[type], style: styles[type], unit: units[type]?.text, days: days, sources: names,
                        selection: selection)
                }
            }
            if record.type == sleepIndex {
                try sleep.add(
                    SleepNightBuilder.Sample(
                        start: record.start, end: record.end, value: Int(record.value),
                        rank: SourceRank(tier: Int(record.tier), order: Int(record.order)), source: Int(record.source)),
                    sources: names, emit: emitNight)
            } else {
                try day?.add(record, emit: daily)
                if record.type == heartRateIndex { heartRates.add(start: record.start, end: record.end, value: record.value) }
            }
        }
        try day?.finish(emit: daily)
        if current == sleepIndex { try sleep.finish(sources: names, emit: emitNight) }
        for (index, record) in listed.enumerated() {
            let made = Self.summary(of: record, heartRate: heartRates.heartRate(of: index), in: timeZone)
            if let selection, !selection.admits(made.date, spanStart: record.start, spanEnd: record.start) { continue }
            try workout(made)
        }
    }

    /// The type whose samples give a workout its heart rate.
    public static let heartRateType = "HKQuantityTypeIdentifierHeartRate"

    static func summary(of record: WorkoutRecord, heartRate: (average: Double, maximum: Double)?, in zone: TimeZone) -> WorkoutSummary {
        func local(_ seconds: Double) -> ExportTimestamp {
            ExportTimestamp(
                secondsSince1970: Int64(seconds.rounded(.down)), utcOffsetSeconds: Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))))
        }
        let start = local(record.start)
        let date = CalendarDate.civilFromDays(Int(((record.start + Double(start.utcOffsetSeconds)) / 86_400).rounded(.down)))
        return WorkoutSummary(
            uuid: record.uuid, date: date, start: start, end: local(record.end), activityType: record.activityType.name,
            activity: record.activityType.words, duration: record.duration, distance: record.distance, activeEnergy: record.activeEnergy,
            averageHeartRate: heartRate?.average, maximumHeartRate: heartRate?.maximum, source: record.source)
    }
}

/// One type's days, closed in order as the records (sorted by time) move past them
/// (`IntervalSweep`: a sample of years is held once, not as a piece per day).
struct DayAccumulator {
    private var sweep: IntervalSweep
    private let row: DayRow
    private var sample = 0

    init(
        type: Int32, identifier: String, style: AggregationStyle?, unit: String?, days: CalendarIntervals, sources: [String],
        selection: DaySelection? = nil
    ) {
        let options = Self.options(for: style, identifier: identifier)
        row = DayRow(
            identifier: identifier, style: style, unit: unit, sources: sources, selection: selection, options: options, zone: days.timeZone)
        sweep = IntervalSweep(splitter: IntervalSplitter(intervals: days, style: style, options: options))
    }

    /// What a day's row holds for a type of `style`: a category type's measure
    /// (`CategoryDayMeasure`: a time only where time is the measure), workouts' time and count.
    static func options(for style: AggregationStyle?, identifier: String) -> StatisticsOptions {
        switch style {
        case nil:
            if identifier == ObjectType.workout.identifier { return [.duration, .count] }
            return CategoryDayMeasure.of(identifier).isTimed ? [.duration, .count] : [.count]
        case .cumulative?: return [.cumulativeSum]
        case .some: return [.discreteAverage, .discreteMin, .discreteMax]
        }
    }

    mutating func add(_ record: SummaryRecord, emit: (DailySummary) throws -> Void) throws {
        sample += 1
        let rank = SourceRank(tier: Int(record.tier), order: Int(record.order))
        let row = row
        try sweep.add(start: record.start, end: record.end, value: record.value, rank: rank, source: Int(record.source), sample: sample) {
            _, start, end, pieces in try row.close(start: start, end: end, pieces: pieces, emit: emit)
        }
    }

    mutating func finish(emit: (DailySummary) throws -> Void) throws {
        let row = row
        try sweep.finish { _, start, end, pieces in try row.close(start: start, end: end, pieces: pieces, emit: emit) }
    }
}

/// Makes a type's day row from the day's pieces.
private struct DayRow {
    let identifier: String
    let style: AggregationStyle?
    let unit: String?
    let sources: [String]
    let selection: DaySelection?
    let options: StatisticsOptions
    let zone: TimeZone

    func close(start: Double, end: Double, pieces: [IntervalPiece], emit: (DailySummary) throws -> Void) throws {
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: start))
        let date = CalendarDate.civilFromDays(Int(((start + Double(offset)) / 86_400).rounded(.down)))
        if let selection, !selection.admits(date, spanStart: start, spanEnd: end) { return }
        let list = IntervalAggregation.canonicalOrder(pieces)
        let statistics = IntervalAggregation.compute(
            list, style: style, options: options, merge: true, start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end))
        // Merged types count and name the samples that counted; discrete ones all of them.
        let counted = style == nil || style == .cumulative ? IntervalAggregation.countedPieces(list) : list
        try emit(
            DailySummary(
                date: date, type: identifier, unit: style == nil ? nil : unit, sum: statistics.sum, average: statistics.average,
                minimum: statistics.minimum, maximum: statistics.maximum, duration: statistics.duration,
                count: Set(counted.map(\.sample)).count, sources: Set(counted.map(\.source)).map { sources[$0] }.sorted()))
    }
}
