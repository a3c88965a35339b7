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
                body(index, Self.piece(start: s, end: e, value: value, rank: rank, source: source, sample: sample, from: from, to: to, cumulative: cumulative))
            }
            if bucketEnd >= e { break }
            index += 1
        }
    }

    /// The intervals a splitting sample `[start, end]` (`end > start`) gives pieces in:
    /// `split`'s first and last index, found without cutting the sample.
    mutating func span(start s: Double, end e: Double) -> ClosedRange<Int> {
        let first = index(of: s)
        var last = index(of: e)
        // An end on a boundary gives the next interval no piece.
        if last > first && bounds(of: last).start >= e { last -= 1 }
        return first...last
    }

    /// The sample's piece in interval `index`, as `split` cuts it (for a sample that `span`
    /// says reaches `index`).
    mutating func piece(
        of index: Int, start s: Double, end e: Double, value: Double, rank: SourceRank, source: Int, sample: Int
    ) -> IntervalPiece {
        let (bucketStart, bucketEnd) = bounds(of: index)
        return Self.piece(
            start: s, end: e, value: value, rank: rank, source: source, sample: sample, from: max(s, bucketStart), to: min(e, bucketEnd),
            cumulative: cumulative)
    }

    /// The one rule for a piece: a cumulative value in proportion to the time in the interval,
    /// any other whole.
    private static func piece(
        start s: Double, end e: Double, value: Double, rank: SourceRank, source: Int, sample: Int, from: Double, to: Double, cumulative: Bool
    ) -> IntervalPiece {
        let share = cumulative ? value * (to - from) / (e - s) : value
        return IntervalPiece(start: from, end: to, value: share, rank: rank, source: source, sampleEnd: e, sample: sample)
    }
}
