/// What one import changes of the samples the summary tables are made of: for each type, the
/// days its added and deleted samples lie in; for each source, its first position.
///
/// Days are counted in UTC (days since 1970): which local day a sample falls in depends on the
/// store's zone, and a UTC day overlaps only the local days before, of and after it (no zone is
/// a day from UTC), so `dayRanges` widens each by a day on either side instead of asking the
/// zone for every sample. Gathered on the reading thread, per sample, as ranges: samples of a
/// type come in long runs close in time, so most only widen the range before them.
struct SummaryChanges {
    /// Per type, the UTC days touched (ranges, possibly overlapping; merged by `dayRanges`).
    private var touched: [String: [ClosedRange<Int>]] = [:]
    /// The range being widened and its type, not yet in `touched`.
    private var current: (type: String, days: ClosedRange<Int>)? = nil
    /// Per source, the smallest position of its summarized samples among the additions.
    private(set) var firstAnchors: [String: Int] = [:]
    private var lastSource: String? = nil

    var isEmpty: Bool { current == nil && touched.isEmpty }

    /// A sample added or deleted: `[start, end]` in seconds since 1970 (an end before the start
    /// counts as the start, as the summary does).
    mutating func touch(type: String, start: Int64, end: Int64) {
        let first = Self.day(of: start)
        let last = Self.day(of: max(start, end))
        if let current, current.type == type, first <= current.days.upperBound + 1, last >= current.days.lowerBound - 1 {
            self.current!.days = min(first, current.days.lowerBound)...max(last, current.days.upperBound)
            return
        }
        if let current { touched[current.type, default: []].append(current.days) }
        current = (type, first...last)
    }

    /// A summarized sample added at `anchor` (additions come in increasing positions).
    mutating func added(source: String, anchor: Int) {
        if source == lastSource { return }
        lastSource = source
        if firstAnchors[source] == nil { firstAnchors[source] = anchor }
    }

    /// Per type, the days to recompute, as local day numbers (days since 1970 of the local
    /// date), sorted and merged: each touched UTC day widened by one on either side.
    func dayRanges() -> [String: [ClosedRange<Int>]] {
        var all = touched
        if let current { all[current.type, default: []].append(current.days) }
        return all.mapValues { Self.merged($0.map { ($0.lowerBound - 1)...($0.upperBound + 1) }) }
    }

    /// Ranges sorted, overlapping or adjacent ones joined.
    static func merged(_ ranges: [ClosedRange<Int>]) -> [ClosedRange<Int>] {
        var result: [ClosedRange<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound + 1 {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// The UTC day of an instant (floored: before 1970 too).
    static func day(of seconds: Int64) -> Int {
        Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
    }
}
