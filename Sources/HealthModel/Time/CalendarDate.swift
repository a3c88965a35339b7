/// A calendar day without time or zone, as `ActivitySummary@dateComponents` and the `Me`
/// element's date of birth print it (`yyyy-MM-dd`).
///
/// HealthKit models both as `DateComponents` in the Gregorian calendar: the day as the person
/// lived it, not an instant. Keeping it as three integers avoids inventing a time zone.
public struct CalendarDate: Hashable, Comparable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Parses `yyyy-MM-dd`; `nil` on anything else.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> CalendarDate? {
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return nil }
        var fields = [0, 0, 0]
        for (index, range) in [(0, 0..<4), (1, 5..<7), (2, 8..<10)] {
            for i in range {
                let d = Int(bytes[i]) - 48
                guard d >= 0 && d <= 9 else { return nil }
                fields[index] = fields[index] * 10 + d
            }
        }
        // Year 0 is no date of ISO 8601's basic form that FHIR or XML Schema read.
        guard fields[0] >= 1 && fields[1] >= 1 && fields[1] <= 12 && fields[2] >= 1
            && fields[2] <= daysInMonth(year: fields[0], month: fields[1])
        else { return nil }
        return CalendarDate(year: fields[0], month: fields[1], day: fields[2])
    }

    public static func parse(_ text: String) -> CalendarDate? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Days since 1970-01-01 (`daysFromCivil`): for arithmetic on dates.
    public var dayNumber: Int { Self.daysFromCivil(year: year, month: month, day: day) }

    /// `yyyy-MM-dd`.
    public var text: String {
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    @inline(__always)
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day count since 1970-01-01 (Hinnant's `civil_from_days`).
    @inline(__always)
    public static func civilFromDays(_ z0: Int) -> CalendarDate {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return CalendarDate(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }
}
