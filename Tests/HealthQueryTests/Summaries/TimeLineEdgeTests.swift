import Foundation
import HealthModel
import Testing
@testable import HealthQuery

/// The latest instant healthport reads, in the zone furthest ahead: its night, day and year
/// are dates of four-digit years, and the year's interval ends after it starts (before, a
/// sample in year 10000 printed a night `10000-01-01` and a year ending where it began).
@Suite struct TimeLineEdgeTests {
    typealias Make = SummaryCollectorTests

    @Test func theLatestInstantHasItsNightDayAndYearInYear9998() throws {
        let kiribati = try #require(TimeZone(secondsFromGMT: 14 * 3600))
        // 9998-12-30 22:00–23:59:59 UTC is 9998-12-31 12:00–13:59:59 at +14:00: before the
        // evening boundary (18:00), so the night of the 31st, and the 31st's steps.
        let objects = [
            Make.sleep("9998-12-30 22:00:00 +0000", "9998-12-30 23:59:59 +0000", "HKCategoryValueSleepAnalysisAsleepCore", source: "W", device: Make.watch),
            Make.steps("9998-12-30 22:00:00 +0000", "9998-12-30 23:59:59 +0000", 10, source: "W", device: Make.watch),
        ]
        let (days, nights) = try Make.run(objects, zone: kiribati)
        #expect(nights.map(\.night) == [CalendarDate(year: 9998, month: 12, day: 31)])
        #expect(Set(days.map(\.date)) == [CalendarDate(year: 9998, month: 12, day: 31)])
        let year = CalendarIntervals(unit: .year, anchor: Date(timeIntervalSince1970: -14 * 3600), timeZone: kiribati)
        let collector = StatisticsCollector(style: .cumulative, options: [.cumulativeSum], intervals: year, priority: SourcePriority())
        if case .quantitySample(let sample) = objects[1] { collector.add(sample.sample, value: 10) }
        let interval = try #require(collector.results().first)
        func shown(_ date: Date) -> String {
            ExportTimestamp(secondsSince1970: Int64(date.timeIntervalSince1970), utcOffsetSeconds: 14 * 3600).iso8601
        }
        #expect(shown(interval.start) == "9998-01-01T00:00:00+14:00")
        #expect(shown(interval.end) == "9999-01-01T00:00:00+14:00")
    }
}
