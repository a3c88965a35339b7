import Foundation
import HealthModel
import Testing
@testable import HealthQuery

/// Samples that span many days: held once whatever their span (`IntervalSweep`), and cut into
/// days as short ones are, against numbers worked out by hand.
@Suite struct LongSampleTests {
    typealias Make = SummaryCollectorTests

    /// Twenty-four samples of a thousand days each: the sweep holds one entry per sample, never a
    /// piece per day (before, 24,000 pieces; ten thousand samples of ten years held 3 GB).
    @Test func aLongSampleIsHeldOnceNotPerDay() throws {
        let zone = TimeZone(identifier: "UTC")!
        let days = CalendarIntervals(unit: .day, anchor: Date(timeIntervalSince1970: 0), timeZone: zone)
        var sweep = IntervalSweep(splitter: IntervalSplitter(intervals: days, style: .cumulative, options: [.cumulativeSum]))
        var mostHeld = 0
        var closed: [Int] = []
        var sums: [Double] = []
        let start = 1_700_006_400.0  // 2023-11-15 00:00 UTC, a midnight
        for sample in 0..<24 {
            // Each starts an hour after the one before (all on the first day) and lasts 1,000
            // days: 1,000 steps.
            let s = start + Double(sample) * 3600
            sweep.add(start: s, end: s + 1000 * 86_400, value: 1000, rank: SourceRank(tier: 0, order: 0), source: 0, sample: sample) {
                index, _, _, pieces in closed.append(index); sums.append(pieces.reduce(0) { $0 + $1.value })
            }
            mostHeld = max(mostHeld, sweep.held)
        }
        sweep.finish { index, _, _, pieces in closed.append(index); sums.append(pieces.reduce(0) { $0 + $1.value }) }
        #expect(mostHeld == 24)
        #expect(sweep.held == 0)
        // 1,001 days: the first starts at a midnight, the others reach an hour per sample
        // into the 1,001st.
        #expect(closed == Array(closed[0]...(closed[0] + 1000)))
        // A whole day inside every sample: one thousandth of each sample's 1,000 steps, 24 in all.
        #expect(abs(sums[500] - 24) < 1e-9)
        // The first day: sample k covers 24 − k hours of it: Σ (24 − k)/24 over k < 24 = 12.5.
        #expect(abs(sums[0] - 12.5) < 1e-9)
    }

    /// A ten-day walk from an app and an hour of it on the iPhone: each day is a tenth of the
    /// app's steps, except where the iPhone wins the hour.
    @Test func aLongSampleIsCutIntoDaysAndMergedByPriority() throws {
        let objects = [
            Make.steps("2024-01-01 00:00:00 +0000", "2024-01-11 00:00:00 +0000", 1000, source: "Pedometer++", device: nil),
            Make.steps("2024-01-03 00:00:00 +0000", "2024-01-03 01:00:00 +0000", 100, source: "iPhone", device: Make.phone),
        ]
        let (days, _) = try Make.run(objects)
        #expect(days.map(\.date.day) == Array(1...10))
        for day in days where day.date.day != 3 { #expect(abs((day.sum ?? 0) - 100) < 1e-9) }
        // 2024-01-03: the iPhone's hour (100), and the app's other 23 hours: 1000 × 23/240.
        #expect(abs((days[2].sum ?? 0) - (100 + 1000.0 * 23 / 240)) < 1e-9)
        #expect(days[2].sources == ["Pedometer++", "iPhone"])
    }

    /// Across the change to summer time in Paris: the day of 23 hours gets 23 hours' share.
    @Test func aLongSampleAcrossSummerTimeCountsRealHours() throws {
        // 2024-03-25 00:00 to 2024-04-04 00:00 in Paris is 239 hours (the 31st has 23):
        // 2,390 steps are ten an hour.
        let objects = [Make.steps("2024-03-25 00:00:00 +0100", "2024-04-04 00:00:00 +0200", 2390, source: "App", device: nil)]
        let (days, _) = try Make.run(objects, zone: Make.paris)
        #expect(days.count == 10)
        for day in days {
            #expect(abs((day.sum ?? 0) - (day.date.day == 31 ? 230 : 240)) < 1e-9, "\(day.date)")
        }
        // `stats --interval day` gives the same days.
        let collector = StatisticsCollector(
            style: .cumulative, options: [.cumulativeSum],
            intervals: CalendarIntervals(unit: .day, anchor: Date(timeIntervalSince1970: 1_711_321_200), timeZone: Make.paris),
            priority: SourcePriority())
        if case .quantitySample(let sample) = objects[0] { collector.add(sample.sample, value: 2390) }
        #expect(collector.results().map { $0.sum ?? 0 } == days.map { $0.sum ?? 0 })
    }
}
