import Foundation
import HealthModel

/// One interval's statistics (HealthKit: `HKStatistics`), values in the output unit.
public struct IntervalStatistics: Sendable {
    public init(start: Date, end: Date, bySource: [(source: String, statistics: IntervalStatistics)]) {
        self.start = start
        self.end = end
        self.bySource = bySource
    }

    public var start: Date
    public var end: Date
    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var mostRecent: Double?
    public var mostRecentDate: Date?
    /// Seconds covered by the samples (the union of their intervals).
    public var duration: Double?
    /// The samples, counted once where several sources cover the same time (category types).
    public var count: Int?
    /// Per source, with `separateBySource`; sorted by source name.
    public var bySource: [(source: String, statistics: IntervalStatistics)]
}

/// Computes statistics collections over a stream of samples of one type, with the algorithm
/// documented in `healthport-stats(1)` (docs/reference/healthkit.md §5.3), in `IntervalAggregation`:
///
/// - Cumulative sums merge sources: within an interval, time is cut at every sample boundary;
///   each piece of time counts only the samples of the highest-priority source covering it, each
///   contributing `value × overlap / duration`. Samples of one source add up. Samples straddling
///   interval boundaries are split in proportion to time. A zero-length sample counts unless a
///   higher-priority source covers that instant.
/// - Discrete statistics are over all samples: arithmetic mean (each sample once), time-weighted
///   mean (weight = time in the interval, 1 s for an instant), or energy average for sound
///   levels; min and max over the samples; the most recent by end date.
/// - Category types (no aggregation style): the time covered (overlaps from several sources
///   counted once) and the samples counted once (`IntervalAggregation.mergedCount`).
///
/// Memory: the samples of the one queried type (about 56 bytes each), since exports are not
/// sorted by time. The daily summary of every type (`DailySummaryCollector`) streams instead.
public final class StatisticsCollector {
    struct RawSample {
        var start: Double
        var end: Double
        var value: Double
        var rank: SourceRank
        var source: Int
    }

    /// The type's aggregation style; `nil` for a category type.
    public let style: AggregationStyle?
    public let options: StatisticsOptions
    /// The intervals; may be replaced until `results()` (when the time zone is decided from the
    /// samples themselves).
    public var intervals: CalendarIntervals
    private var priority: SourcePriority
    private var samples: [RawSample] = []
    /// The `HKTimeZone`s the samples named (and the witnesses read beside them: `vote`), to
    /// choose a default time zone.
    public private(set) var timeZones = TimeZoneTally()
    private var sources: [String] = []
    private var sourceIndex: [String: Int] = [:]
    public private(set) var sampleCount = 0
    /// Keeps only samples overlapping this window, once the time zone is decided (a window
    /// given as dates without an offset is read in the statistics' zone: `--start 2024-12-01`
    /// is that day's midnight where the days are cut).
    public var window: DateWindow?

    public init(style: AggregationStyle?, options: StatisticsOptions, intervals: CalendarIntervals, priority: SourcePriority) {
        self.style = style
        self.options = options
        self.intervals = intervals
        self.priority = priority
    }

    /// Adds one sample whose value is already in the output unit (1 for a category sample).
    public func add(_ sample: SampleAttributes, value: Double) {
        var rank: SourceRank? = nil
        if let list = priority.tiers.healthConnect {
            switch HealthConnectRanking.rank(sample, type: sample.sampleType.identifier, priority: list) {
            case .ranked(let tier, let order): rank = SourceRank(tier: tier, order: Int(order))
            case .leftOut:
                // An app the export's priority list leaves out: Health Connect does not count it.
                timeZones.count(sample)
                return
            case .unranked: break
            }
        }
        sampleCount += 1
        let name = sample.sourceRevision.source.name
        let source: Int
        if let known = sourceIndex[name] {
            source = known
        } else {
            source = sources.count
            sources.append(name)
            sourceIndex[name] = source
        }
        timeZones.count(sample)
        let s = Double(sample.startDate.secondsSince1970)
        samples.append(RawSample(start: s, end: max(s, Double(sample.endDate.secondsSince1970)), value: value,
                                 rank: rank ?? priority.rank(of: sample), source: source))
    }

    /// Takes what an export's header says about its totals: a Health Connect export's priority
    /// list ranks its samples as Health Connect does (`HealthConnectRanking`), unless the person
    /// gave a list of their own. Called at the header, before any sample.
    public func adopt(_ header: ExportHeader) {
        // A Health Connect export's records carry their own offsets: tallied for the zone
        // whose clock they keep (`RecordClockZone`).
        if header.platform == .healthConnect, samples.isEmpty { timeZones.countsOffsets = true }
        guard let list = header.healthConnectPriority, !priority.tiers.hasExplicitList, samples.isEmpty else { return }
        priority = SourcePriority(healthConnect: list)
    }

    /// A sample read only for its zone (a witness, `TimeZoneTally.reading`): counted there,
    /// not in the statistics.
    public func vote(_ sample: SampleAttributes) { timeZones.count(sample) }

    /// The zone the samples name (`TimeZoneTally`: the sleep's and workouts' most frequent
    /// `HKTimeZone`, else the other samples'), if any named one.
    public var mostFrequentTimeZone: TimeZone? { timeZones.mostFrequent }

    /// The populated intervals, in chronological order.
    public func results() -> [IntervalStatistics] {
        // Swept in order of start (`IntervalSweep`): the pieces held are the open intervals',
        // not every interval's at once (a sample of years would be a piece per day).
        var sweep = IntervalSweep(splitter: IntervalSplitter(intervals: intervals, style: style, options: options))
        var results: [IntervalStatistics] = []
        let order = samples.indices.sorted { samples[$0].start < samples[$1].start }
        for number in order {
            let raw = samples[number]
            if let window, !window.admits(start: raw.start, end: raw.end) { continue }
            sweep.add(start: raw.start, end: raw.end, value: raw.value, rank: raw.rank, source: raw.source, sample: number) { _, start, end, pieces in
                results.append(statistics(of: pieces, start: start, end: end))
            }
        }
        sweep.finish { _, start, end, pieces in results.append(statistics(of: pieces, start: start, end: end)) }
        return results
    }

    /// One interval's statistics from its pieces (and each source's, when asked).
    private func statistics(of pieces: [IntervalPiece], start: Double, end: Double) -> IntervalStatistics {
        let list = IntervalAggregation.canonicalOrder(pieces)
        var statistics = IntervalAggregation.compute(
            list, style: style, options: options, merge: true, start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end))
        if options.contains(.separateBySource) {
            var bySource: [(String, IntervalStatistics)] = []
            for source in Set(list.map(\.source)) {
                bySource.append((
                    sources[source],
                    IntervalAggregation.compute(
                        list.filter { $0.source == source }, style: style, options: options, merge: false,
                        start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end))
                ))
            }
            statistics.bySource = bySource.sorted { $0.0 < $1.0 }
        }
        return statistics
    }
}
