import Foundation
import HealthModel

/// Equal calendar intervals aligned on an anchor date, in a time zone
/// (HealthKit: `HKStatisticsCollectionQuery` with `anchorDate` and `intervalComponents`).
///
/// Intervals are half-open `[start, end)`, computed with calendar arithmetic, so a day across a
/// daylight-saving change lasts 23 or 25 hours, and a month is a calendar month.
///
/// The calendar is the proleptic Gregorian one, HealthKit's, for every date. Foundation's
/// `Calendar(identifier: .gregorian)` on Linux is Julian before 15 October 1582 (1000-03-01 fell
/// in a month labelled 1000-02-06), so the days, months and years are counted here with
/// `CalendarDate`'s civil-from-days arithmetic, the one the export's dates are read and written
/// with; the time zone only gives the offset at an instant (`TimeZone.secondsFromGMT(for:)`).
/// Around daylight-saving changes the intervals are those of Foundation's `date(byAdding:to:)`,
/// which stats used before (see `start(of:)`).
public struct CalendarIntervals: Sendable {
    public enum Unit: String, Sendable, CaseIterable {
        case minute, hour, day, week, month, year
    }

    public let unit: Unit
    public let count: Int
    public let anchor: Date
    public let timeZone: TimeZone
    /// The anchor in whole seconds since 1970, and the fraction of a second it adds.
    private let anchorSeconds: Double
    private let anchorFraction: Double
    /// The anchor's wall clock in `timeZone`: its date, and its time of day in seconds.
    private let anchorDate: CalendarDate
    private let anchorTimeOfDay: Double
    private let anchorOffset: Double

    public init(unit: Unit, count: Int = 1, anchor: Date, timeZone: TimeZone) {
        self.unit = unit
        self.count = max(1, count)
        self.anchor = anchor
        self.timeZone = timeZone
        let seconds = anchor.timeIntervalSince1970
        anchorSeconds = seconds.rounded(.down)
        anchorFraction = seconds - anchorSeconds
        anchorOffset = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: anchorSeconds)))
        let local = anchorSeconds + anchorOffset
        let day = Int((local / 86_400).rounded(.down))
        anchorDate = CalendarDate.civilFromDays(day)
        anchorTimeOfDay = local - Double(day) * 86_400
    }

    /// The start of interval `index` (0 is the one starting at the anchor).
    ///
    /// As Foundation adds calendar units (`_CalendarGregorian.add` in swift-foundation), in the
    /// proleptic Gregorian calendar:
    /// - minutes and hours are elapsed time;
    /// - days and weeks are elapsed days, then moved by the change of offset if that keeps the
    ///   anchor's time of day (a time a change to summer time skips stays later);
    /// - months and years move the anchor's date, its day clamped to the month's length
    ///   (31 January plus a month is 28 or 29 February), at the anchor's time of day: a time a
    ///   change skips reads with the offset before the change (02:30 becomes 03:30), one it
    ///   repeats as the second occurrence;
    /// - going forward, a day, week, month or year that lands in a repeated hour takes its first
    ///   occurrence.
    ///
    /// Unlike Foundation on Linux, a month before the anchor is clamped to its own length too
    /// (Foundation made 31 January 2024 minus 23 months 1 March 2022).
    public func start(of index: Int) -> Date {
        let n = index * count
        guard n != 0 else { return anchor }
        let seconds: Double
        switch unit {
        case .minute: return anchor.addingTimeInterval(Double(n) * 60)
        case .hour: return anchor.addingTimeInterval(Double(n) * 3600)
        case .day: seconds = keepingTimeOfDay(addingDays: n)
        case .week: seconds = keepingTimeOfDay(addingDays: 7 * n)
        case .month: seconds = date(addingMonths: n)
        case .year: seconds = date(addingMonths: 12 * n)
        }
        var result = seconds
        if n > 0, let repeated = repeatedDuration(at: result) { result -= repeated }
        return Date(timeIntervalSince1970: result + anchorFraction)
    }

    private func offset(_ seconds: Double) -> Double {
        Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
    }

    private func timeOfDay(_ seconds: Double) -> Double {
        let local = seconds + offset(seconds)
        return local - (local / 86_400).rounded(.down) * 86_400
    }

    private func keepingTimeOfDay(addingDays days: Int) -> Double {
        let elapsed = anchorSeconds + Double(days) * 86_400
        guard timeOfDay(elapsed) != anchorTimeOfDay else { return elapsed }
        let newOffset = offset(elapsed)
        guard newOffset != anchorOffset else { return elapsed }
        let moved = elapsed + anchorOffset - newOffset
        if timeOfDay(moved) != anchorTimeOfDay, anchorOffset < newOffset { return elapsed }
        return moved
    }

    private func date(addingMonths months: Int) -> Double {
        let total = anchorDate.year * 12 + (anchorDate.month - 1) + months
        let year = total >= 0 ? total / 12 : (total - 11) / 12
        let month = total - year * 12 + 1
        let day = min(anchorDate.day, CalendarDate.daysInMonth(year: year, month: month))
        let local = Double(CalendarDate.daysFromCivil(year: year, month: month, day: day)) * 86_400 + anchorTimeOfDay
        return local - offset(atLocalTime: local)
    }

    /// The zone's offset at a wall-clock time (seconds since 1970 as if the zone were UTC): for
    /// a time a change skips, the offset before the change; for one it repeats, the offset
    /// after (ICU's `UCAL_TZ_LOCAL_FORMER` and `UCAL_TZ_LOCAL_LATTER`, as Foundation asks).
    private func offset(atLocalTime local: Double) -> Double {
        // The offsets a day either side: offsets are under a day, and changes days apart.
        let before = offset(local - 86_400)
        let after = offset(local + 86_400)
        let beforeHolds = offset(local - before) == before
        if before == after { return beforeHolds ? before : offset(local - before) }
        let afterHolds = offset(local - after) == after
        if afterHolds { return after }
        return before
    }

    /// How long the repeated hour lasts when `seconds` falls in its second occurrence, after a
    /// change to winter time (swift-foundation's `timeZoneTransitionInterval(at:timeZone:)`,
    /// which looks at the first change from two days before, and at none before 1900).
    private func repeatedDuration(at seconds: Double) -> Double? {
        guard seconds >= -2_208_992_400 else { return nil }
        let start = seconds - 48 * 3600
        guard let change = timeZone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: start)),
            change.timeIntervalSince1970 < start + 4 * 86_400 * 1000, change.timeIntervalSince1970 <= seconds
        else { return nil }
        let at = change.timeIntervalSince1970
        let difference = offset(at - 1) - offset(at + 1)
        guard difference > 0, seconds < at + difference else { return nil }
        return difference
    }

    /// The index of the interval containing `date`.
    public func index(of date: Date) -> Int {
        // A first guess from average lengths, then corrected by calendar arithmetic.
        let approximate: Double
        switch unit {
        case .minute: approximate = 60
        case .hour: approximate = 3600
        case .day: approximate = 86_400
        case .week: approximate = 604_800
        case .month: approximate = 2_629_746
        case .year: approximate = 31_556_952
        }
        var index = Int((date.timeIntervalSince(anchor) / (approximate * Double(count))).rounded(.down))
        while start(of: index) > date { index -= 1 }
        while start(of: index + 1) <= date { index += 1 }
        return index
    }
}
