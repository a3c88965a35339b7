import Foundation
import HealthModel

/// Hands out each interval's pieces once no later sample can reach it, from samples added in
/// order of start: what a day table and a statistics collection compute each interval from.
///
/// **Why a sweep holds long samples whole.** Cutting a sample into a piece per interval up
/// front costs a piece for every day it covers: a sample of nearly ten years (the longest a
/// summary counts) is 3,660 pieces, and ten thousand of them (a 2 MB export) held 3 GB. A sample
/// reaching more than `spanLimit` intervals is kept once, as `Spanning`, and cut into the one
/// interval being closed; the pieces held at any time are then those of the open intervals
/// only, whatever the samples' spans.
struct IntervalSweep {
    private(set) var splitter: IntervalSplitter
    /// The pieces of samples reaching few intervals, by interval: only intervals at or after
    /// the latest sample's first are open, so a handful.
    private var open: [Int: [IntervalPiece]] = [:]
    /// Samples reaching more than `spanLimit` intervals, each with the next interval it has
    /// not yet given a piece to.
    private var spanning: [Spanning] = []
    /// The first interval of the latest sample: every interval before it is closed.
    private var latestFirst = Int.min

    /// More intervals than this and a sample is held whole (`Spanning`); fewer are cut at once
    /// (most samples are within one day or hour).
    static let spanLimit = 4

    private struct Spanning {
        var start: Double
        var end: Double
        var value: Double
        var rank: SourceRank
        var source: Int
        var sample: Int
        var next: Int
        var last: Int
    }

    init(splitter: IntervalSplitter) { self.splitter = splitter }

    /// What the sweep holds now: pieces of open intervals and spanning samples, one each.
    var held: Int { open.values.reduce(0) { $0 + $1.count } + spanning.count }

    /// Called with an interval's index, bounds and pieces, in order of interval.
    typealias Close = (_ index: Int, _ start: Double, _ end: Double, _ pieces: [IntervalPiece]) throws -> Void

    /// Adds a sample that starts no earlier than every sample added before it; closes the
    /// intervals before its first.
    mutating func add(start s: Double, end e: Double, value: Double, rank: SourceRank, source: Int, sample: Int, close: Close) rethrows {
        let first = splitter.index(of: s)
        if first > latestFirst {
            try closeAll(before: first, close: close)
            latestFirst = first
        }
        if splitter.splits && e > s {
            let span = splitter.span(start: s, end: e)
            if span.count > Self.spanLimit {
                spanning.append(
                    Spanning(start: s, end: e, value: value, rank: rank, source: source, sample: sample, next: span.lowerBound, last: span.upperBound))
                return
            }
        }
        splitter.split(start: s, end: e, value: value, rank: rank, source: source, sample: sample) { index, piece in
            open[index, default: []].append(piece)
        }
    }

    /// Closes every interval still open.
    mutating func finish(close: Close) rethrows {
        try closeAll(before: Int.max, close: close)
    }

    /// Closes, in order, each interval before `limit` that a held piece or spanning sample
    /// reaches.
    private mutating func closeAll(before limit: Int, close: Close) rethrows {
        while true {
            var index = open.keys.min() ?? Int.max
            for held in spanning where held.next < index { index = held.next }
            guard index < limit, index != Int.max else { return }
            var pieces = open.removeValue(forKey: index) ?? []
            if !spanning.isEmpty {
                for position in spanning.indices where spanning[position].next == index {
                    let held = spanning[position]
                    pieces.append(
                        splitter.piece(
                            of: index, start: held.start, end: held.end, value: held.value, rank: held.rank, source: held.source,
                            sample: held.sample))
                    spanning[position].next += 1
                }
                spanning.removeAll { $0.next > $0.last }
            }
            let (start, end) = splitter.bounds(of: index)
            try close(index, start, end, pieces)
        }
    }
}
