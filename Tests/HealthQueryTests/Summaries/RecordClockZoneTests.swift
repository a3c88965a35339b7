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

/// A stranger's export that changes offset every day: bounded, and no zone guessed.
@Suite struct RecordClockZoneBoundsTests {
    /// 3,000 days alternating between +01:00 and +02:00: 3,000 runs, more than any person's
    /// clock makes (`maximumRuns`): none, at once. And 60 such days (under the bound): no zone
    /// keeps nine tenths of them, none either.
    @Test func offsetsChangingEveryDayGiveNone() {
        var counts: [Int64: Int] = [:]
        for day in Int64(20_000)..<23_000 { counts[RecordClockZone.key(day: day, offset: day % 2 == 0 ? 3600 : 7200)] = 5 }
        #expect(RecordClockZone.runs(counts).runs.count == 3000)
        #expect(RecordClockZone.zone(counts) == nil)
        let fewer = counts.filter { RecordClockZone.unpack($0.key).day < 20_060 }
        #expect(RecordClockZone.runs(fewer).runs.count == 60)
        #expect(RecordClockZone.zone(fewer) == nil)
    }

    /// More distinct days and offsets than `maximumKeys`: the tally stops growing and infers
    /// nothing; a merge past the bound does the same.
    @Test func theTallyStopsGrowing() {
        var tally = TimeZoneTally()
        tally.countsOffsets = true
        for i in 0..<(RecordClockZone.maximumKeys + 10) {
            let start = ExportTimestamp(secondsSince1970: Int64(i) * 86_400, utcOffsetSeconds: Int32(i % 7) * 60)
            tally.count(SampleAttributes(
                sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierStepCount"), sourceRevision: SourceRevision(source: Source(name: "a")),
                startDate: start, endDate: start))
        }
        #expect(tally.offsetsOverflowed && tally.offsets.isEmpty)
        #expect(tally.mostFrequent == nil)
    }
}
