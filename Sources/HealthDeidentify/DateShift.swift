import Crypto
import Foundation
import HealthModel

/// One person's date shift: every date of every object moved into the past by the same whole
/// number of weeks.
///
/// Whole weeks, because a shift of whole days keeps the time of day but not the weekday, and
/// both matter to a study (sleep on weekends, steps on workdays). What it keeps, exactly:
/// - every interval, duration and order between two dates of the person (the same amount is
///   subtracted from every instant);
/// - the UTC time of day and the UTC weekday of every date;
/// - the year of birth relative to the samples' dates, to within the year (it is shifted too).
///
/// What it changes: the calendar date, the month and season, and the year. Every shifted date
/// is written in UTC (offset zero): the offsets an export prints change on the Sundays the
/// clocks change, and those Sundays, found again among the shifted dates, would give the shift
/// (a handful of candidates, which a source's version then narrows to one). So the local time
/// of day is not kept; an activity summary's day, a local date, is shifted as a date.
///
/// The number of weeks is derived from the key and the person (HMAC-SHA256 of the person's key
/// under the key's date-shift key): random to anyone without the key, the same for one person
/// every time the key is used, different for two persons. Between `minimumWeeks` and
/// `maximumWeeks`, always into the past, so a shifted date is never in the future.
public struct DateShift: Sendable, Equatable {
    /// At least a year back, so that no shifted date is the original one.
    public static let minimumWeeks = 52
    /// At most about twenty years back.
    public static let maximumWeeks = 1_043

    /// How many weeks dates move back.
    public let weeks: Int

    public init(weeks: Int) {
        self.weeks = weeks
    }

    /// The person's shift under `key`.
    ///
    /// - Parameter person: the person's key in a batch (`person=` of the lake), or the empty
    ///   string for a conversion of one export, whose key file is that person's.
    public init(key: DeidentificationKey, person: String) {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(person.utf8), using: key.derivedKey("date-shift"))
        let value = mac.withUnsafeBytes { $0.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        let range = UInt64(Self.maximumWeeks - Self.minimumWeeks + 1)
        weeks = Self.minimumWeeks + Int(value % range)
    }

    /// The shift in days (negative: into the past).
    public var days: Int { -7 * weeks }

    /// The shift in seconds (negative).
    public var seconds: Int64 { Int64(days) * 86_400 }

    /// A date moved by the shift, in UTC.
    @inline(__always)
    public func shifted(_ date: ExportTimestamp) -> ExportTimestamp {
        ExportTimestamp(secondsSince1970: date.secondsSince1970 + seconds, utcOffsetSeconds: 0)
    }

    @inline(__always)
    public func shifted(_ date: ExportTimestamp?) -> ExportTimestamp? {
        date.map(shifted)
    }

    /// A local date (an activity summary's day) moved by the shift.
    public func shifted(_ day: CalendarDate) -> CalendarDate {
        CalendarDate.civilFromDays(CalendarDate.daysFromCivil(year: day.year, month: day.month, day: day.day) + days)
    }
}
