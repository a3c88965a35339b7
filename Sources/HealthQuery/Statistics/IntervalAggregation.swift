import Foundation
import HealthModel

/// A sample's part in one interval: its time in the interval, its value there (for cumulative
/// types, the share of the sample's value that falls in it), and the rank and source that
/// decide which sample counts where several cover the same time.
struct IntervalPiece: Sendable {
    var start: Double
    var end: Double
    var value: Double
    var rank: SourceRank
    var source: Int
    /// The whole sample's end (the most recent value is the one that ends last).
    var sampleEnd: Double
    /// Which sample the piece belongs to (pieces of one sample in one interval: one).
    var sample: Int
}

/// A source's rank where several sources cover the same time: lower wins (`SourcePriority`).
struct SourceRank: Sendable, Comparable, Hashable {
    var tier: Int
    var order: Int
    static func < (a: SourceRank, b: SourceRank) -> Bool { (a.tier, a.order) < (b.tier, b.order) }
}

/// The statistics of one interval from its pieces, the one computation behind every face's
/// numbers: `stats`, the daily summary, the store's summary, the assistant, the report and
/// HealthKitPort all call it, so they cannot disagree.
///
/// The rules, documented in `healthport-stats(1)`:
/// - a merged sum cuts the interval's time at every piece's boundary; each piece of time counts
///   only the pieces of the highest-priority source covering it, each contributing
///   `value × overlap / duration`; an instant counts unless a higher-priority source covers it;
/// - a merged duration is the union of the pieces' time (some source covers it, once);
/// - a merged count is the samples that win some piece of time, or instants no higher-priority
///   source covers (two apps logging the same session count once);
/// - discrete statistics are over all pieces: arithmetic, time-weighted or energy average.
///
/// Pieces are put in one order before anything is added (start, end, rank, value), so the
/// result does not depend on the order samples were read in: the export's order (`stats`) and
/// time order (the streaming summary) give the same bits.
enum IntervalAggregation {
    static func canonicalOrder(_ pieces: [IntervalPiece]) -> [IntervalPiece] {
        pieces.sorted {
            ($0.start, $0.end, $0.rank.tier, $0.rank.order, $0.value, $0.sample) < ($1.start, $1.end, $1.rank.tier, $1.rank.order, $1.value, $1.sample)
        }
    }

    /// The statistics `options` ask for over `pieces` (in canonical order), for a type of
    /// `style` (`nil` for a category type, whose pieces are time and count only).
    static func compute(
        _ pieces: [IntervalPiece], style: AggregationStyle?, options: StatisticsOptions, merge: Bool, start: Date, end: Date
    ) -> IntervalStatistics {
        var result = IntervalStatistics(start: start, end: end, bySource: [])
        if options.contains(.cumulativeSum) { result.sum = merge ? mergedSum(pieces) : pieces.reduce(0) { $0 + $1.value } }
        if let style, !options.intersection([.discreteAverage, .discreteMin, .discreteMax]).isEmpty {
            if options.contains(.discreteMin) { result.minimum = pieces.map(\.value).min() }
            if options.contains(.discreteMax) { result.maximum = pieces.map(\.value).max() }
            if options.contains(.discreteAverage) { result.average = average(pieces, style: style) }
        }
        if options.contains(.mostRecent),
            let latest = pieces.max(by: { ($0.sampleEnd, $0.start, -$0.rank.tier) < ($1.sampleEnd, $1.start, -$1.rank.tier) })
        {
            result.mostRecent = latest.value
            result.mostRecentDate = Date(timeIntervalSince1970: latest.sampleEnd)
        }
        if options.contains(.duration) { result.duration = unionLength(pieces) }
        if options.contains(.count) { result.count = merge ? mergedCount(pieces) : Set(pieces.map(\.sample)).count }
        return result
    }

    static func average(_ pieces: [IntervalPiece], style: AggregationStyle) -> Double? {
        guard !pieces.isEmpty else { return nil }
        switch style {
        case .discreteArithmetic, .cumulative:
            return pieces.reduce(0) { $0 + $1.value } / Double(pieces.count)
        case .discreteTemporallyWeighted:
            var total = 0.0, weights = 0.0
            for piece in pieces {
                let w = piece.end > piece.start ? piece.end - piece.start : 1
                total += piece.value * w
                weights += w
            }
            return total / weights
        case .discreteEquivalentContinuousLevel:
            var energy = 0.0, weights = 0.0
            for piece in pieces {
                let w = piece.end > piece.start ? piece.end - piece.start : 1
                energy += w * pow(10, piece.value / 10)
                weights += w
            }
            return 10 * log10(energy / weights)
        }
    }

    /// The elementary intervals between every boundary of the spans, each with the spans of
    /// the best rank covering it (the winners); uncovered ones are left out. A sweep over the
    /// spans by start: O(n log n + k) for n spans and k winners, not every span for every piece.
    ///
    /// Calls `body` with each elementary interval `[from, to]` and each winning span, in time
    /// order, then the spans' order by start. No array per interval: this is the inner loop
    /// of every summary's `finish` (a day of a Watch and an iPhone has hundreds of boundaries).
    /// Building the winners' list for each interval (and a `Set` of the boundaries) was more
    /// than half the cost of closing the days: `DayAccumulator.close` went from 12.7% to 5.5% of
    /// `healthport summary --jobs 1` on the 4-year export (perf), the same bits out.
    static func forEachWinner(_ spans: [IntervalPiece], _ body: (_ from: Double, _ to: Double, _ winner: IntervalPiece) -> Void) {
        guard !spans.isEmpty else { return }
        var boundaries: [Double] = []
        boundaries.reserveCapacity(spans.count * 2)
        for span in spans {
            boundaries.append(span.start)
            boundaries.append(span.end)
        }
        boundaries.sort()
        // Unique, in place.
        var unique = 1
        for i in 1..<boundaries.count where boundaries[i] != boundaries[unique - 1] {
            boundaries[unique] = boundaries[i]
            unique += 1
        }
        guard unique >= 2 else { return }
        let byStart = spans.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        var next = 0
        var active: [IntervalPiece] = []
        for i in 0..<(unique - 1) {
            let a = boundaries[i], b = boundaries[i + 1]
            while next < byStart.count && byStart[next].start <= a {
                active.append(byStart[next])
                next += 1
            }
            // Every active span ends at a boundary after `a`, so it covers all of [a, b].
            active.removeAll { $0.end <= a }
            guard var best = active.first?.rank else { continue }
            for span in active where span.rank < best { best = span.rank }
            for span in active where span.rank == best { body(a, b, span) }
        }
    }

    /// The sum with sources merged by priority.
    static func mergedSum(_ pieces: [IntervalPiece]) -> Double {
        let spans = pieces.filter { $0.end > $0.start }
        var total = 0.0
        forEachWinner(spans) { a, b, piece in total += piece.value * (b - a) / (piece.end - piece.start) }
        for point in pieces where point.end == point.start {
            let covered = spans.contains { $0.start <= point.start && point.start < $0.end && $0.rank < point.rank }
            if !covered { total += point.value }
        }
        return total
    }

    /// The samples counted once: those that win some piece of time, and instants no
    /// higher-priority source covers (nor a better-ranked instant at the same time).
    static func mergedCount(_ pieces: [IntervalPiece]) -> Int {
        Set(countedPieces(pieces).map(\.sample)).count
    }

    /// The pieces that count where sources overlap (`mergedCount`): their samples, and their
    /// sources (the ones a summary names).
    static func countedPieces(_ pieces: [IntervalPiece]) -> [IntervalPiece] {
        let spans = pieces.filter { $0.end > $0.start }
        var counted: [IntervalPiece] = []
        forEachWinner(spans) { _, _, piece in counted.append(piece) }
        let points = pieces.filter { $0.end == $0.start }
        var best: [Double: SourceRank] = [:]
        for point in points { best[point.start] = min(best[point.start] ?? point.rank, point.rank) }
        for point in points where point.rank == best[point.start] {
            let covered = spans.contains { $0.start <= point.start && point.start < $0.end && $0.rank < point.rank }
            if !covered { counted.append(point) }
        }
        return counted
    }

    static func unionLength(_ pieces: [IntervalPiece]) -> Double {
        let spans = pieces.filter { $0.end > $0.start }.sorted { $0.start < $1.start }
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
