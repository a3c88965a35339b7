import Foundation
import Testing
import HealthModel
@testable import HealthQuery

@Suite struct StatisticsTests {
    static let paris = TimeZone(identifier: "Europe/Paris")!
    static let utc = TimeZone(identifier: "UTC")!

    static func sample(
        _ start: String, _ end: String, source: String, device: Device? = nil, metadata: [MetadataEntry] = []
    ) -> SampleAttributes {
        SampleAttributes(
            sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierStepCount"),
            sourceRevision: SourceRevision(source: Source(name: source)), device: device,
            startDate: ExportTimestamp.parse(start)!, endDate: ExportTimestamp.parse(end)!, metadata: Metadata(metadata))
    }

    static let watch = Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch")
    static let phone = Device(name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone")

    func collector(_ style: AggregationStyle, _ options: StatisticsOptions, zone: TimeZone = utc, unit: CalendarIntervals.Unit = .day,
                   priority: [String] = []) -> StatisticsCollector {
        let anchor = Date(timeIntervalSince1970: PredicateValue.parseDate("2000-01-01", timeZone: zone)!)
        return StatisticsCollector(
            style: style, options: options, intervals: CalendarIntervals(unit: unit, anchor: anchor, timeZone: zone),
            priority: SourcePriority(explicit: priority))
    }

    @Test func overlappingWatchAndPhoneStepsAreNotCountedTwice() {
        // Watch 10:00–10:10, 600 steps; iPhone 10:00–10:20, 1000 steps.
        // 10:00–10:10: the Watch wins, 600. 10:10–10:20: only the iPhone, 1000 × 10/20 = 500.
        let stats = collector(.cumulative, [.cumulativeSum, .separateBySource])
        stats.add(Self.sample("2024-01-01 10:00:00 +0000", "2024-01-01 10:20:00 +0000", source: "iPhone", device: Self.phone), value: 1000)
        stats.add(Self.sample("2024-01-01 10:00:00 +0000", "2024-01-01 10:10:00 +0000", source: "Watch", device: Self.watch), value: 600)
        let day = stats.results()
        #expect(day.count == 1)
        #expect(abs(day[0].sum! - 1100) < 1e-9)
        #expect(day[0].bySource.map(\.source) == ["Watch", "iPhone"])
        #expect(day[0].bySource.map { $0.statistics.sum! } == [600, 1000])
    }

    @Test func anExplicitPriorityListDecides() {
        let stats = collector(.cumulative, [.cumulativeSum], priority: ["iPhone"])
        stats.add(Self.sample("2024-01-01 10:00:00 +0000", "2024-01-01 10:20:00 +0000", source: "iPhone", device: Self.phone), value: 1000)
        stats.add(Self.sample("2024-01-01 10:00:00 +0000", "2024-01-01 10:10:00 +0000", source: "Watch", device: Self.watch), value: 600)
        #expect(abs(stats.results()[0].sum! - 1000) < 1e-9)
    }

    @Test func manualEntriesWinAndSameSourceSamplesAddUp() {
        let stats = collector(.cumulative, [.cumulativeSum])
        stats.add(Self.sample("2024-01-01 10:00:00 +0000", "2024-01-01 10:10:00 +0000", source: "Watch", device: Self.watch), value: 600)
        stats.add(Self.sample("2024-01-01 10:05:00 +0000", "2024-01-01 10:10:00 +0000", source: "Watch", device: Self.watch), value: 100)
        stats.add(Self.sample("2024-01-01 10:00:00 +0000", "2024-01-01 10:10:00 +0000", source: "Health",
                              metadata: [MetadataEntry(key: "HKWasUserEntered", value: .interpret("1"))]), value: 50)
        // The manual entry covers 10:00–10:10 and wins there: 50.
        #expect(abs(stats.results()[0].sum! - 50) < 1e-9)
        let watchOnly = collector(.cumulative, [.cumulativeSum])
        watchOnly.add(Self.sample("2024-01-01 10:00:00 +0000", "2024-01-01 10:10:00 +0000", source: "Watch", device: Self.watch), value: 600)
        watchOnly.add(Self.sample("2024-01-01 10:05:00 +0000", "2024-01-01 10:10:00 +0000", source: "Watch", device: Self.watch), value: 100)
        #expect(abs(watchOnly.results()[0].sum! - 700) < 1e-9)
    }

    @Test func aSampleAcrossMidnightIsSplitInProportion() {
        let stats = collector(.cumulative, [.cumulativeSum])
        stats.add(Self.sample("2024-01-01 23:30:00 +0000", "2024-01-02 00:30:00 +0000", source: "Watch", device: Self.watch), value: 60)
        let days = stats.results()
        #expect(days.count == 2)
        #expect(days.map { $0.sum! } == [30, 30])
    }

    @Test func daysFollowTheCalendarAcrossDaylightSavingChanges() {
        let anchor = Date(timeIntervalSince1970: PredicateValue.parseDate("2000-01-01", timeZone: Self.paris)!)
        let intervals = CalendarIntervals(unit: .day, anchor: anchor, timeZone: Self.paris)
        for (day, hours) in [("2024-03-31T12:00:00+02:00", 23.0), ("2024-10-27T12:00:00+01:00", 25.0), ("2024-06-15T12:00:00+02:00", 24.0)] {
            let date = Date(timeIntervalSince1970: PredicateValue.parseDate(day, timeZone: Self.paris)!)
            let index = intervals.index(of: date)
            #expect(intervals.start(of: index + 1).timeIntervalSince(intervals.start(of: index)) == hours * 3600, "\(day)")
        }
        // A sample over the short night is split across the right days.
        let stats = collector(.cumulative, [.cumulativeSum], zone: Self.paris)
        stats.add(Self.sample("2024-03-30 23:00:00 +0100", "2024-03-31 01:00:00 +0100", source: "W", device: Self.watch), value: 120)
        #expect(stats.results().map { $0.sum! } == [60, 60])
    }

    @Test func discreteStatisticsHaveTheirStylesWeights() throws {
        // Heart rate, time-weighted: 60 for 10 minutes then 120 for 20 minutes = 100.
        let hr = collector(.discreteTemporallyWeighted, [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .duration], unit: .hour)
        hr.add(Self.sample("2024-01-01 10:00:00 +0000", "2024-01-01 10:10:00 +0000", source: "W"), value: 60)
        hr.add(Self.sample("2024-01-01 10:10:00 +0000", "2024-01-01 10:30:00 +0000", source: "W"), value: 120)
        let hour = hr.results()[0]
        #expect(abs(hour.average! - 100) < 1e-9)
        #expect(hour.minimum == 60 && hour.maximum == 120 && hour.mostRecent == 120)
        #expect(hour.duration == 1800)
        // Body mass, arithmetic: each sample once.
        let mass = collector(.discreteArithmetic, [.discreteAverage])
        mass.add(Self.sample("2024-01-01 07:00:00 +0000", "2024-01-01 07:00:00 +0000", source: "S"), value: 70)
        mass.add(Self.sample("2024-01-01 19:00:00 +0000", "2024-01-01 19:00:00 +0000", source: "S"), value: 72)
        #expect(mass.results()[0].average == 71)
        // Sound, energy average: 60 dB and 70 dB for equal times = 67.40 dB.
        let sound = collector(.discreteEquivalentContinuousLevel, [.discreteAverage], unit: .hour)
        sound.add(Self.sample("2024-01-01 10:00:00 +0000", "2024-01-01 10:10:00 +0000", source: "W"), value: 60)
        sound.add(Self.sample("2024-01-01 10:10:00 +0000", "2024-01-01 10:20:00 +0000", source: "W"), value: 70)
        #expect(abs(sound.results()[0].average! - 10 * log10((1e6 + 1e7) / 2)) < 1e-9)
    }

    @Test func optionsMustFitTheAggregationStyle() throws {
        #expect(throws: QueryError.self) { try StatisticsOptions([.discreteAverage]).validate(for: .cumulative, type: "StepCount") }
        #expect(throws: QueryError.self) { try StatisticsOptions([.cumulativeSum]).validate(for: .discreteTemporallyWeighted, type: "HeartRate") }
        try StatisticsOptions([.cumulativeSum, .mostRecent, .duration, .separateBySource]).validate(for: .cumulative, type: "StepCount")
        try StatisticsOptions([.discreteMin, .discreteMax, .mostRecent]).validate(for: .discreteArithmetic, type: "BodyMass")
        #expect(try StatisticsOptions(parsing: "discreteAverage,discreteMostRecent") == [.discreteAverage, .mostRecent])
        #expect(throws: QueryError.self) { try StatisticsOptions(parsing: "median") }
    }
}

@Suite struct StatisticsTimeZoneTests {
    @Test func theSamplesOwnTimeZoneIsFoundAndIntervalsCanBeReplacedBeforeResults() {
        let utc = TimeZone(identifier: "UTC")!
        let anchor = Date(timeIntervalSince1970: 0)
        let collector = StatisticsCollector(
            style: .cumulative, options: [.cumulativeSum], intervals: CalendarIntervals(unit: .day, anchor: anchor, timeZone: utc),
            priority: SourcePriority())
        let sample = SampleAttributes(
            sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierStepCount"), sourceRevision: SourceRevision(source: Source(name: "W")),
            startDate: ExportTimestamp.parse("2024-01-01 23:30:00 +0000")!, endDate: ExportTimestamp.parse("2024-01-01 23:30:00 +0000")!,
            metadata: Metadata([MetadataEntry(key: "HKTimeZone", value: .string("Asia/Tokyo"))]))
        collector.add(sample, value: 10)
        #expect(collector.mostFrequentTimeZone?.identifier == "Asia/Tokyo")
        #expect(collector.results()[0].start == Date(timeIntervalSince1970: PredicateValue.parseDate("2024-01-01", timeZone: utc)!))
        let tokyo = collector.mostFrequentTimeZone!
        collector.intervals = CalendarIntervals(unit: .day, anchor: Date(timeIntervalSince1970: PredicateValue.parseDate("2000-01-01", timeZone: tokyo)!), timeZone: tokyo)
        // 23:30 UTC is 08:30 the next day in Tokyo.
        #expect(collector.results()[0].start == Date(timeIntervalSince1970: PredicateValue.parseDate("2024-01-02", timeZone: tokyo)!))
    }
}
