import Foundation
import HealthModel
import Testing

@testable import HealthQuery

/// The zone a Health Connect export's records' own offsets keep (`RecordClockZone`), from
/// counts made up here: the answers are worked from the calendar, not from the code.
@Suite struct RecordClockZoneTests {
    /// Records per local day and offset, for `days` days from `first` at `offset`.
    static func counts(_ ranges: [(first: String, days: Int, offset: Int32, records: Int)]) -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        for range in ranges {
            let first = Int64(PredicateValue.parseDate(range.first, timeZone: TimeZone(identifier: "UTC")!)!) / 86_400
            for day in first..<(first + Int64(range.days)) {
                counts[RecordClockZone.key(day: day, offset: range.offset), default: 0] += range.records
            }
        }
        return counts
    }

    /// Paris's clock: +01:00 until the last Sunday of March 2026 (the 29th), +02:00 from then
    /// until the last Sunday of October (the 25th), +01:00 after. The zone that keeps it is
    /// named Europe/Paris (Berlin, Madrid and Africa/Ceuta keep it too).
    @Test func parisClockIsParis() {
        let counts = Self.counts([
            ("2026-01-01", 87, 3600, 40),  // to 28 March
            ("2026-03-29", 210, 7200, 40),  // to 24 October
            ("2026-10-25", 60, 3600, 40),
        ])
        #expect(RecordClockZone.zone(counts)?.identifier == "Europe/Paris")
    }

    /// The same clock a week out of step (summer time from 5 April): no zone keeps every day,
    /// but Paris keeps all but those seven of 357, more than nine tenths.
    @Test func aFewDaysOffStillFindTheClock() {
        let counts = Self.counts([
            ("2026-01-01", 94, 3600, 40),
            ("2026-04-05", 203, 7200, 40),
            ("2026-10-25", 60, 3600, 40),
        ])
        #expect(RecordClockZone.zone(counts)?.identifier == "Europe/Paris")
    }

    /// One offset all year: no clock change shown, so no zone is guessed (a fixed offset cuts
    /// the same days); and offsets no zone keeps for nine tenths of the records: none either.
    @Test func noChangeOrNoClockGivesNone() {
        #expect(RecordClockZone.zone(Self.counts([("2026-01-01", 365, 3600, 40)])) == nil)
        let halfAndHalf = Self.counts([("2026-01-01", 100, 3600, 40), ("2026-04-11", 100, 3 * 3600 + 1800, 40)])
        #expect(RecordClockZone.zone(halfAndHalf) == nil)
    }

    /// New York's clock (−05:00, then −04:00 from the second Sunday of March, 8 March 2026, to
    /// the first Sunday of November, the 1st) is New York's; local days before 1970 count too.
    @Test func newYorkAndDaysBefore1970() {
        let counts = Self.counts([("2026-01-01", 66, -18_000, 10), ("2026-03-08", 238, -14_400, 10), ("2026-11-01", 30, -18_000, 10)])
        #expect(RecordClockZone.zone(counts)?.identifier == "America/New_York")
        #expect(RecordClockZone.day(of: -1, offset: 0) == -1)
        #expect(RecordClockZone.day(of: 86_399, offset: 1) == 1)
        #expect(RecordClockZone.unpack(RecordClockZone.key(day: -3, offset: -18_000)) == (-3, -18_000))
    }
}
