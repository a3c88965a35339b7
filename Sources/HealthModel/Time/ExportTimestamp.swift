/// An instant as the export printed it: seconds since 1970 in UTC plus the UTC offset it carried.
///
/// Every date in `export.xml` carries the offset of the phone *at export time*, not the sample's
/// own local offset (see docs/reference/export-format.md, quirk Q3). The instant is right; the wall-clock reading
/// may not be. So comparisons use `secondsSince1970` alone, and output re-emits the offset the
/// export printed, so that a reader sees the same wall-clock text the Health app wrote.
///
/// Parsed by hand from the attribute bytes: an export holds tens of millions of these and
/// `DateFormatter` costs several hundred times more per call (see `Benchmarks/`).
public struct ExportTimestamp: Hashable, Comparable, Sendable {
    /// The instant, in whole seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int64
    /// The UTC offset printed with the instant, in seconds east of UTC.
    public var utcOffsetSeconds: Int32

    public init(secondsSince1970: Int64, utcOffsetSeconds: Int32) {
        self.secondsSince1970 = secondsSince1970
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Orders by instant only: two prints of one instant with different offsets are the same time.
    public static func < (lhs: ExportTimestamp, rhs: ExportTimestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// The number of bytes `formatISO8601(into:)` writes: `yyyy-MM-ddTHH:mm:ss±hh:mm`.
    public static let iso8601Length = 25

    /// Parses the export's forms from raw bytes; `nil` on any deviation, so the caller can report
    /// the element's position.
    ///
    /// Accepted: `yyyy-MM-dd HH:mm:ss ±hhmm` (every export with a DTD), the iOS 8 compact form
    /// `yyyyMMddHHmmss±hhmm`, and ISO 8601 `yyyy-MM-ddTHH:mm:ss(Z|±hh:mm|±hhmm)` (what healthport
    /// itself writes, so that its NDJSON can be read back).
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> ExportTimestamp? {
        guard let base = bytes.baseAddress else { return nil }
        let p = base.assumingMemoryBound(to: UInt8.self)
        switch bytes.count {
        case 25:
            if p[4] == 0x2D && p[7] == 0x2D && p[10] == 0x20 && p[13] == 0x3A && p[16] == 0x3A
                && p[19] == 0x20
            {
                return make(p, date: 0, month: 5, day: 8, time: (11, 14, 17), offset: 20, offsetColon: false)
            }
            if p[4] == 0x2D && p[7] == 0x2D && p[10] == 0x54 && p[13] == 0x3A && p[16] == 0x3A
                && p[22] == 0x3A
            {
                return make(p, date: 0, month: 5, day: 8, time: (11, 14, 17), offset: 19, offsetColon: true)
            }
            return nil
        case 24:
            // ISO 8601 with a colon-less offset: 2019-06-11T15:00:42-0700
            guard p[4] == 0x2D && p[7] == 0x2D && p[10] == 0x54 && p[13] == 0x3A && p[16] == 0x3A
            else { return nil }
            return make(p, date: 0, month: 5, day: 8, time: (11, 14, 17), offset: 19, offsetColon: false)
        case 20:
            // ISO 8601 in UTC: 2019-06-11T22:00:42Z
            guard p[4] == 0x2D && p[7] == 0x2D && p[10] == 0x54 && p[13] == 0x3A && p[16] == 0x3A
                && p[19] == 0x5A
            else { return nil }
            return make(p, date: 0, month: 5, day: 8, time: (11, 14, 17), offset: nil, offsetColon: false)
        case 19:
            // iOS 8: 20150616071916-0700
            return make(p, date: 0, month: 4, day: 6, time: (8, 10, 12), offset: 14, offsetColon: false)
        default:
            return nil
        }
    }

    /// Parses a `String`; a convenience for cold paths and tests.
    public static func parse(_ text: String) -> ExportTimestamp? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    private static func digits(_ p: UnsafePointer<UInt8>, _ at: Int, _ count: Int) -> Int? {
        var value = 0
        for i in at..<(at + count) {
            let d = Int(p[i]) &- 48
            guard d >= 0 && d <= 9 else { return nil }
            value = value &* 10 &+ d
        }
        return value
    }

    private static func make(
        _ p: UnsafePointer<UInt8>, date: Int, month: Int, day: Int, time: (Int, Int, Int),
        offset: Int?, offsetColon: Bool
    ) -> ExportTimestamp? {
        guard let y = digits(p, date, 4), let mo = digits(p, month, 2), let d = digits(p, day, 2),
            let h = digits(p, time.0, 2), let mi = digits(p, time.1, 2), let s = digits(p, time.2, 2)
        else { return nil }
        guard mo >= 1 && mo <= 12 && d >= 1 && d <= CalendarDate.daysInMonth(year: y, month: mo)
            && h <= 23 && mi <= 59 && s <= 60
        else { return nil }
        var offsetSeconds = 0
        if let o = offset {
            let sign = p[o]
            guard sign == 0x2B || sign == 0x2D, let oh = digits(p, o + 1, 2) else { return nil }
            guard let om = digits(p, o + (offsetColon ? 4 : 3), 2) else { return nil }
            guard oh <= 18 && om <= 59 else { return nil }
            offsetSeconds = (oh * 3600 + om * 60) * (sign == 0x2D ? -1 : 1)
        }
        let days = CalendarDate.daysFromCivil(year: y, month: mo, day: d)
        let local = Int64(days) * 86_400 + Int64(h * 3600 + mi * 60 + s)
        let instant = local - Int64(offsetSeconds)
        guard readable.contains(instant) else { return nil }
        return ExportTimestamp(secondsSince1970: instant, utcOffsetSeconds: Int32(offsetSeconds))
    }

    /// The instants healthport reads, in seconds since 1970: from 0001-01-02 to 9998-12-30 in
    /// UTC. A date outside them is invalid, as a malformed one is (the reader names its place).
    ///
    /// Why these bounds: every output writes four-digit years (ISO 8601 without its expanded
    /// form, which XML Schema, FHIR (years 0001 to 9999), Parquet readers and spreadsheets
    /// expect). A day kept free at each end means no offset (at most 18 hours) shows an instant
    /// in year 0 or in 9999, so that the interval holding any instant (a day, a night, a week,
    /// a year of `stats`) still ends in year 9999 at the latest. Before, a sample on
    /// `9999-12-31 23:00:00 -1200` gave a night `10000-01-01`, and its times and its year's end
    /// were printed as year 9999's first day. No device has written a date near either bound.
    public static let readable: ClosedRange<Int64> =
        Int64(CalendarDate.daysFromCivil(year: 1, month: 1, day: 2)) * 86_400...Int64(CalendarDate.daysFromCivil(year: 9998, month: 12, day: 31))
        * 86_400 - 1

    /// Writes `yyyy-MM-ddTHH:mm:ss±hh:mm` (25 bytes) at `out`, in the printed offset.
    ///
    /// Digits go straight into the caller's buffer: no `Calendar`, no `String`.
    @inline(__always)
    public func formatISO8601(into out: UnsafeMutablePointer<UInt8>) {
        let local = secondsSince1970 + Int64(utcOffsetSeconds)
        var days = local / 86_400
        var secondOfDay = local % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let civil = CalendarDate.civilFromDays(Int(days))
        var year = civil.year
        if year < 0 || year > 9999 { year = max(0, min(9999, year)) }
        put4(out, 0, year)
        out[4] = 0x2D
        put2(out, 5, civil.month)
        out[7] = 0x2D
        put2(out, 8, civil.day)
        out[10] = 0x54
        let sod = Int(secondOfDay)
        put2(out, 11, sod / 3600)
        out[13] = 0x3A
        put2(out, 14, (sod / 60) % 60)
        out[16] = 0x3A
        put2(out, 17, sod % 60)
        let offset = Int(utcOffsetSeconds)
        out[19] = offset < 0 ? 0x2D : 0x2B
        let magnitude = abs(offset)
        put2(out, 20, magnitude / 3600)
        out[22] = 0x3A
        put2(out, 23, (magnitude / 60) % 60)
    }

    /// The ISO 8601 text with the printed offset, e.g. `2019-06-11T15:00:42-07:00`.
    public var iso8601: String {
        String(unsafeUninitializedCapacity: Self.iso8601Length) { buffer in
            formatISO8601(into: buffer.baseAddress!)
            return Self.iso8601Length
        }
    }

    /// The export's own form, `yyyy-MM-dd HH:mm:ss ±hhmm`, for writing exports back.
    public var exportText: String {
        var bytes = [UInt8](repeating: 0, count: 25)
        bytes.withUnsafeMutableBufferPointer { formatISO8601(into: $0.baseAddress!) }
        // yyyy-MM-ddTHH:mm:ss±hh:mm -> yyyy-MM-dd HH:mm:ss ±hhmm
        let sign = bytes[19]
        var out = Array(bytes[0..<19])
        out[10] = 0x20
        out.append(0x20)
        out.append(sign)
        out.append(contentsOf: bytes[20..<22])
        out.append(contentsOf: bytes[23..<25])
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always) private func put2(_ out: UnsafeMutablePointer<UInt8>, _ at: Int, _ v: Int) {
        out[at] = UInt8(truncatingIfNeeded: 48 + v / 10)
        out[at + 1] = UInt8(truncatingIfNeeded: 48 + v % 10)
    }

    @inline(__always) private func put4(_ out: UnsafeMutablePointer<UInt8>, _ at: Int, _ v: Int) {
        put2(out, at, v / 100)
        put2(out, at + 2, v % 100)
    }
}
