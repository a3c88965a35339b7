import Foundation
import HealthModel

/// Cuts a sample into its pieces per calendar interval, as every statistic counts them:
/// cumulative values in proportion to the time in each interval, time-weighted and durations
/// by the time in each, other discrete values whole in the interval where they begin.
///
/// Remembers the interval it last looked up: samples of a type come mostly in time order, and
/// calendar arithmetic costs microseconds, five times per sample without it (a third of
/// `healthport report`'s time on four years once).
struct IntervalSplitter {
    let intervals: CalendarIntervals
    /// Whether samples are cut at interval boundaries (cumulative and time-weighted types, and
    /// durations; instants and other discrete values are not).
    let splits: Bool
    let cumulative: Bool
    private var cached: (index: Int, start: Double, end: Double)?

    init(intervals: CalendarIntervals, style: AggregationStyle?, options: StatisticsOptions) {
        self.intervals = intervals
        cumulative = style == .cumulative
        splits = style == .cumulative || style == .discreteTemporallyWeighted || style == nil || options.contains(.duration)
    }

    /// The interval `index`'s start and end, in seconds since 1970.
    mutating func bounds(of index: Int) -> (start: Double, end: Double) {
        if let cached, cached.index == index { return (cached.start, cached.end) }
        let bounds = (intervals.start(of: index).timeIntervalSince1970, intervals.start(of: index + 1).timeIntervalSince1970)
        cached = (index, bounds.0, bounds.1)
        return bounds
    }

    /// The index of the interval holding `seconds`.
    mutating func index(of seconds: Double) -> Int {
        if let cached, cached.start <= seconds, seconds < cached.end { return cached.index }
        let index = intervals.index(of: Date(timeIntervalSince1970: seconds))
        _ = bounds(of: index)
        return index
    }

    /// Hands each piece of the sample `[start, end]` to `body` with its interval's index, in
    /// time order.
    mutating func split(
        start s: Double, end e: Double, value: Double, rank: SourceRank, source: Int, sample: Int,
        _ body: (_ index: Int, _ piece: IntervalPiece) -> Void
    ) {
        let first = index(of: s)
        if e == s || !splits {
            body(first, IntervalPiece(start: s, end: e, value: value, rank: rank, source: source, sampleEnd: e, sample: sample))
            return
        }
        var index = first
        while true {
            let (bucketStart, bucketEnd) = bounds(of: index)
            let from = max(s, bucketStart)
            let to = min(e, bucketEnd)
            if to > from || (to == from && index == first) {
                let share = cumulative ? value * (to - from) / (e - s) : value
                body(index, IntervalPiece(start: from, end: to, value: share, rank: rank, source: source, sampleEnd: e, sample: sample))
            }
            if bucketEnd >= e { break }
            index += 1
        }
    }
}
