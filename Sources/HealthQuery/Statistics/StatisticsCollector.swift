import Foundation
import HealthModel

/// One interval's statistics (HealthKit: `HKStatistics`), values in the output unit.
public struct IntervalStatistics: Sendable {
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
    /// Per source, with `separateBySource`; sorted by source name.
    public var bySource: [(source: String, statistics: IntervalStatistics)]
}

/// Computes statistics collections over a stream of quantity samples, with the algorithm
/// documented in `healthport-stats(1)` (healthkit-reference.md §5.3):
///
/// - Cumulative sums merge sources: within an interval, time is cut at every sample boundary;
///   each piece of time counts only the samples of the highest-priority source covering it, each
///   contributing `value × overlap / duration`. Samples of one source add up. Samples straddling
///   interval boundaries are split in proportion to time. A zero-length sample counts unless a
///   higher-priority source covers that instant.
/// - Discrete statistics are over all samples: arithmetic mean (each sample once), time-weighted
///   mean (weight = time in the interval, 1 s for an instant), or energy average for sound
///   levels; min and max over the samples; the most recent by end date.
///
/// Memory: the samples of the one queried type (about 48 bytes each), since exports are not
/// sorted by time.
public final class StatisticsCollector {
    struct Piece {
        var start: Double
        var end: Double
        var value: Double
        var rank: (Int, Int)
        var source: Int
        var sampleEnd: Double
    }

    struct RawSample {
        var start: Double
        var end: Double
        var value: Double
        var rank: (Int, Int)
        var source: Int
    }

    public let style: AggregationStyle
    public let options: StatisticsOptions
    /// The intervals; may be replaced until `results()` (when the time zone is decided from the
    /// samples themselves).
    public var intervals: CalendarIntervals {
        didSet { cachedInterval = nil }
    }
    private let priority: SourcePriority
    /// The interval last looked up (index, start, end in seconds): samples of a type come mostly
    /// in time order, and calendar arithmetic (`Calendar.date(byAdding:)`) costs microseconds,
    /// five times per sample without it (a third of `healthport report`'s time on four years).
    private var cachedInterval: (index: Int, start: Double, end: Double)?
    private var samples: [RawSample] = []
    private var pieces: [Int: [Piece]] = [:]
    /// How often each `HKTimeZone` appeared, to choose a default time zone.
    public private(set) var timeZoneCounts: [String: Int] = [:]
    private var sources: [String] = []
    private var sourceIndex: [String: Int] = [:]
    public private(set) var sampleCount = 0

    public init(style: AggregationStyle, options: StatisticsOptions, intervals: CalendarIntervals, priority: SourcePriority) {
        self.style = style
        self.options = options
        self.intervals = intervals
        self.priority = priority
    }

    /// Adds one sample whose value is already in the output unit.
    public func add(_ sample: SampleAttributes, value: Double) {
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
        if case .string(let zone)? = sample.metadata["HKTimeZone"] { timeZoneCounts[zone, default: 0] += 1 }
        let s = Double(sample.startDate.secondsSince1970)
        samples.append(RawSample(start: s, end: max(s, Double(sample.endDate.secondsSince1970)), value: value,
                                 rank: priority.rank(of: sample), source: source))
    }

    /// The most frequent `HKTimeZone` among the samples, if any carried one.
    public var mostFrequentTimeZone: TimeZone? {
        timeZoneCounts.max { ($0.value, $1.key) < ($1.value, $0.key) }.flatMap { TimeZone(identifier: $0.key) }
    }

    /// The interval `index`'s start and end, in seconds since 1970.
    private func bounds(of index: Int) -> (start: Double, end: Double) {
        if let cached = cachedInterval, cached.index == index { return (cached.start, cached.end) }
        let bounds = (intervals.start(of: index).timeIntervalSince1970, intervals.start(of: index + 1).timeIntervalSince1970)
        cachedInterval = (index, bounds.0, bounds.1)
        return bounds
    }

    /// The index of the interval holding `seconds`.
    private func index(of seconds: Double) -> Int {
        if let cached = cachedInterval, cached.start <= seconds, seconds < cached.end { return cached.index }
        let index = intervals.index(of: Date(timeIntervalSince1970: seconds))
        _ = bounds(of: index)
        return index
    }

    private func bucket(_ raw: RawSample) {
        let s = raw.start, e = raw.end, value = raw.value, rank = raw.rank, source = raw.source
        let first = index(of: s)
        let splits = style == .cumulative || style == .discreteTemporallyWeighted || options.contains(.duration)
        if e == s || !splits {
            pieces[first, default: []].append(Piece(start: s, end: e, value: value, rank: rank, source: source, sampleEnd: e))
            return
        }
        var index = first
        while true {
            let (bucketStart, bucketEnd) = bounds(of: index)
            let from = max(s, bucketStart)
            let to = min(e, bucketEnd)
            if to > from || (to == from && index == first) {
                let share = style == .cumulative ? value * (to - from) / (e - s) : value
                pieces[index, default: []].append(Piece(start: from, end: to, value: share, rank: rank, source: source, sampleEnd: e))
            }
            if bucketEnd >= e { break }
            index += 1
        }
    }

    /// The populated intervals, in chronological order.
    public func results() -> [IntervalStatistics] {
        pieces.removeAll()
        for raw in samples { bucket(raw) }
        return pieces.keys.sorted().map { index in
            let list = pieces[index]!
            var statistics = compute(list, merge: true, index: index)
            if options.contains(.separateBySource) {
                var bySource: [(String, IntervalStatistics)] = []
                for source in Set(list.map(\.source)) {
                    bySource.append((sources[source], compute(list.filter { $0.source == source }, merge: false, index: index)))
                }
                statistics.bySource = bySource.sorted { $0.0 < $1.0 }
            }
            return statistics
        }
    }

    private func compute(_ list: [Piece], merge: Bool, index: Int) -> IntervalStatistics {
        var result = IntervalStatistics(
            start: intervals.start(of: index), end: intervals.start(of: index + 1), bySource: [])
        if options.contains(.cumulativeSum) { result.sum = merge ? mergedSum(list) : list.reduce(0) { $0 + $1.value } }
        if !options.intersection([.discreteAverage, .discreteMin, .discreteMax]).isEmpty {
            result.minimum = list.map(\.value).min()
            result.maximum = list.map(\.value).max()
            result.average = average(list)
        }
        if options.contains(.mostRecent), let latest = list.max(by: { ($0.sampleEnd, $0.start, -$0.rank.0) < ($1.sampleEnd, $1.start, -$1.rank.0) }) {
            result.mostRecent = latest.value
            result.mostRecentDate = Date(timeIntervalSince1970: latest.sampleEnd)
        }
        if options.contains(.duration) { result.duration = unionLength(list) }
        if !options.contains(.discreteMin) { result.minimum = nil }
        if !options.contains(.discreteMax) { result.maximum = nil }
        if !options.contains(.discreteAverage) { result.average = nil }
        return result
    }

    private func average(_ list: [Piece]) -> Double? {
        guard !list.isEmpty else { return nil }
        switch style {
        case .discreteArithmetic, .cumulative:
            return list.reduce(0) { $0 + $1.value } / Double(list.count)
        case .discreteTemporallyWeighted:
            var total = 0.0, weights = 0.0
            for piece in list {
                let w = piece.end > piece.start ? piece.end - piece.start : 1
                total += piece.value * w
                weights += w
            }
            return total / weights
        case .discreteEquivalentContinuousLevel:
            var energy = 0.0, weights = 0.0
            for piece in list {
                let w = piece.end > piece.start ? piece.end - piece.start : 1
                energy += w * pow(10, piece.value / 10)
                weights += w
            }
            return 10 * log10(energy / weights)
        }
    }

    /// The sum with sources merged by priority.
    func mergedSum(_ list: [Piece]) -> Double {
        let spans = list.filter { $0.end > $0.start }
        let points = list.filter { $0.end == $0.start }
        var boundaries = Array(Set(spans.flatMap { [$0.start, $0.end] })).sorted()
        if boundaries.isEmpty { boundaries = [] }
        var total = 0.0
        if boundaries.count >= 2 {
            for i in 0..<(boundaries.count - 1) {
                let a = boundaries[i], b = boundaries[i + 1]
                var best: (Int, Int)? = nil
                for piece in spans where piece.start <= a && piece.end >= b {
                    if best == nil || piece.rank < best! { best = piece.rank }
                }
                guard let winner = best else { continue }
                for piece in spans where piece.start <= a && piece.end >= b && piece.rank == winner {
                    total += piece.value * (b - a) / (piece.end - piece.start)
                }
            }
        }
        for point in points {
            let covered = spans.contains { $0.start <= point.start && point.start < $0.end && $0.rank < point.rank }
            if !covered { total += point.value }
        }
        return total
    }

    private func unionLength(_ list: [Piece]) -> Double {
        let spans = list.filter { $0.end > $0.start }.sorted { $0.start < $1.start }
        var total = 0.0
        var current: (Double, Double)? = nil
        for piece in spans {
            if let (s, e) = current, piece.start <= e {
                current = (s, max(e, piece.end))
            } else {
                if let (s, e) = current { total += e - s }
                current = (piece.start, piece.end)
            }
        }
        if let (s, e) = current { total += e - s }
        return total
    }
}
