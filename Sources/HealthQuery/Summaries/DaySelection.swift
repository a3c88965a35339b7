import Foundation
import HealthModel

/// The days and nights a date window selects in a summary: whole ones, by their date, never
/// the samples in them.
///
/// A person who asks for the nights from the 5th to the 6th wants the night that ended on the
/// morning of the 5th as the Health app shows it, not the part of it after midnight; a window
/// that cut samples gave a night of 2:00 core sleep and an extra night at its end. So a summary
/// reads a wider window (`reading(_:)`: three days more on each side, whatever the zone or the
/// evening boundary), computes every day and night it can, and keeps the rows whose date the
/// window selects: a day or a night (named by its morning) whose local midnight is at or after
/// `--start` and before `--end`. With dates typed as dates, that is the dates from `--start` up
/// to the day before `--end`, as everywhere in healthport (`--end` is open).
///
/// A conversion's summary tables (`convert --summaries`) are made from the objects it writes,
/// which its window cuts; there a row is kept only when its whole span (midnight to midnight, or
/// evening to evening) lies inside the window too (`covered`), so no table holds a cut day.
///
/// For example:
/// ```swift
/// let window = DateWindow(start: …2024-03-05 00:00 Paris…, end: …2024-03-06 00:00 Paris…)
/// let selection = DaySelection(window: window, timeZone: paris)
/// selection.admits(CalendarDate(year: 2024, month: 3, day: 5), spanStart: …, spanEnd: …)   // true
/// selection.admits(CalendarDate(year: 2024, month: 3, day: 6), spanStart: …, spanEnd: …)   // false
/// ```
public struct DaySelection: Sendable, Equatable {
    /// The first date selected, as days since 1970; `nil`: from the first.
    public var first: Int?
    /// The first date no longer selected; `nil`: to the last.
    public var end: Int?
    /// The instants the read covered whole (a conversion's window): a row whose span reaches
    /// outside them is left out. `nil`: the read covered every selected row.
    public var coveredStart: Double?
    public var coveredEnd: Double?

    /// The selection a window makes when days are cut in `timeZone`. Its bounds written without
    /// an offset are read in that zone.
    ///
    /// - Parameter covered: whether the read was cut by this same window (a conversion's), so
    ///   that rows reaching outside it are incomplete.
    public init(window: DateWindow, timeZone: TimeZone, covered: Bool = false) {
        let resolved = window.hasLocalBounds ? window.resolvingLocalBounds(in: timeZone) : window
        func day(_ instant: Double) -> Int {
            let local = instant + Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: instant)))
            return Int((local / 86_400).rounded(.up))
        }
        first = resolved.start.map(day)
        end = resolved.end.map(day)
        if covered {
            coveredStart = resolved.start
            coveredEnd = resolved.end
        }
    }

    /// Whether the row dated `date`, spanning `[spanStart, spanEnd)`, is selected.
    public func admits(_ date: CalendarDate, spanStart: Double, spanEnd: Double) -> Bool {
        guard admitsDate(date) else { return false }
        if let coveredStart, spanStart < coveredStart { return false }
        if let coveredEnd, spanEnd > coveredEnd { return false }
        return true
    }

    /// Whether the date is selected (whatever the read covered: for a day the read's rows
    /// already passed, or one with no span, such as Apple's rings).
    public func admitsDate(_ date: CalendarDate) -> Bool {
        let number = date.dayNumber
        if let first, number < first { return false }
        if let end, number >= end { return false }
        return true
    }

    /// The days of reading around a window: enough for any zone (±14 hours), the evening
    /// boundary (a night begins the evening before its date) and a day's samples that began
    /// the day before.
    public static let margin: Double = 3 * 86_400

    /// The window a summary reads to give the selected days and nights whole: `margin` wider on
    /// each side, as instants, samples overlapping it (strictness is for samples, not days).
    public static func reading(_ window: DateWindow) -> DateWindow {
        var wide = DateWindow(start: nil, end: nil, timeZone: window.timeZone)
        if let start = window.start ?? window.localStart { wide.start = start - margin }
        if let end = window.end ?? window.localEnd { wide.end = end + margin }
        return wide
    }
}
