import Foundation
import HealthModel
import Testing
@testable import HealthQuery

/// The daily summary and the sleep nights, against numbers worked out by hand in each test.
@Suite struct SummaryCollectorTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let paris = TimeZone(identifier: "Europe/Paris")!
    static let watch = Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch")
    static let phone = Device(name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone")

    static func attributes(
        _ type: String, _ start: String, _ end: String, source: String, device: Device?, zone: String? = nil
    ) -> SampleAttributes {
        SampleAttributes(
            sampleType: ObjectType(recordType: type), sourceRevision: SourceRevision(source: Source(name: source)), device: device,
            startDate: ExportTimestamp.parse(start)!, endDate: ExportTimestamp.parse(end)!,
            metadata: Metadata(zone.map { [MetadataEntry(key: "HKTimeZone", value: .interpret($0))] } ?? []))
    }

    static func steps(_ start: String, _ end: String, _ value: Int, source: String, device: Device?, zone: String? = nil) -> HealthObject {
        .quantitySample(
            QuantitySample(
                sample: attributes("HKQuantityTypeIdentifierStepCount", start, end, source: source, device: device, zone: zone),
                quantity: Quantity(value: ExportNumber(value), unit: "count")))
    }

    static func sleep(_ start: String, _ end: String, _ value: String, source: String, device: Device?) -> HealthObject {
        .categorySample(
            CategorySample(
                sample: attributes("HKCategoryTypeIdentifierSleepAnalysis", start, end, source: source, device: device),
                value: CategoryValue.interpret(value)))
    }

    static func run(_ objects: [HealthObject], zone: TimeZone = utc, runCapacity: Int = 262_144) throws -> ([DailySummary], [SleepNight]) {
        let collector = SummaryCollector(runCapacity: runCapacity)
        for object in objects { try collector.add(object) }
        var days: [DailySummary] = []
        var nights: [SleepNight] = []
        try collector.finish(timeZone: zone, daily: { days.append($0) }, night: { nights.append($0) })
        return (days, nights)
    }

    /// An iPhone, a Watch and a third-party app count the same walk: the Health app's number,
    /// not the three added.
    @Test(arguments: [262_144, 2])
    func overlappingSourcesAreCountedOnce(runCapacity: Int) throws {
        // iPhone 09:00–10:00 1000; Watch 09:30–10:30 600; app 09:00–11:00 2000 (no device:
        // lowest tier). By hand, piece by piece:
        //   09:00–09:30 iPhone wins: 1000 × 30/60 = 500
        //   09:30–10:00 Watch wins:   600 × 30/60 = 300
        //   10:00–10:30 Watch wins:   600 × 30/60 = 300
        //   10:30–11:00 the app:     2000 × 30/120 = 500        total 1600
        // And the app's evening walk across midnight, 23:00–01:00, 600: 300 each side.
        let objects = [
            Self.steps("2024-12-01 09:00:00 +0000", "2024-12-01 10:00:00 +0000", 1000, source: "iPhone", device: Self.phone),
            Self.steps("2024-12-01 23:00:00 +0000", "2024-12-02 01:00:00 +0000", 600, source: "Pedometer++", device: nil),
            Self.steps("2024-12-01 09:30:00 +0000", "2024-12-01 10:30:00 +0000", 600, source: "Watch", device: Self.watch),
            Self.steps("2024-12-01 09:00:00 +0000", "2024-12-01 11:00:00 +0000", 2000, source: "Pedometer++", device: nil),
        ]
        let (days, _) = try Self.run(objects, runCapacity: runCapacity)
        #expect(days.map(\.date) == [CalendarDate(year: 2024, month: 12, day: 1), CalendarDate(year: 2024, month: 12, day: 2)])
        #expect(abs((days[0].sum ?? 0) - 1900) < 1e-9)
        #expect(abs((days[1].sum ?? 0) - 300) < 1e-9)
        #expect(days[0].unit == "count" && days[0].average == nil)
        #expect(days[0].sources == ["Pedometer++", "Watch", "iPhone"])
        #expect(days[0].count == 4)
        #expect(days[1].count == 1 && days[1].sources == ["Pedometer++"])
    }

    /// The summary gives, day for day, the numbers `stats --interval day` gives.
    @Test func theSummaryAndStatsAgree() throws {
        var objects: [HealthObject] = []
        var generator = SystemRandomNumberGenerator()
        for i in 0..<400 {
            let start = 1_733_000_000 + Int64.random(in: 0..<(10 * 86_400), using: &generator)
            let length = Int64.random(in: 0..<7_200, using: &generator)
            let source = ["iPhone", "Watch", "App"][i % 3]
            let device = [Self.phone, Self.watch, nil][i % 3]
            let s = ExportTimestamp(secondsSince1970: start, utcOffsetSeconds: 3600).exportText
            let e = ExportTimestamp(secondsSince1970: start + length, utcOffsetSeconds: 3600).exportText
            objects.append(Self.steps(s, e, Int.random(in: 1...3000, using: &generator), source: source, device: device, zone: "Europe/Paris"))
        }
        let (days, _) = try Self.run(objects, zone: Self.paris, runCapacity: 64)
        let anchor = Date(timeIntervalSince1970: PredicateValue.parseDate("2000-01-01", timeZone: Self.paris)!)
        let stats = StatisticsCollector(
            style: .cumulative, options: [.cumulativeSum], intervals: CalendarIntervals(unit: .day, anchor: anchor, timeZone: Self.paris),
            priority: SourcePriority())
        for object in objects {
            guard case .quantitySample(let sample) = object else { continue }
            stats.add(sample.sample, value: sample.quantity.value.value)
        }
        let expected = stats.results()
        #expect(days.count == expected.count)
        #expect(days.map { $0.sum! } == expected.map { $0.sum! })
    }

    /// A night with a Watch's stages, an iPhone's in-bed interval around them and a sleep app's
    /// asleep interval: the time counts once.
    @Test func aNightOfThreeSourcesCountsEachMinuteOnce() throws {
        let d = "2024-12-01", m = "2024-12-02"
        let objects = [
            Self.sleep("\(d) 22:30:00 +0000", "\(m) 06:30:00 +0000", "HKCategoryValueSleepAnalysisInBed", source: "iPhone", device: Self.phone),
            Self.sleep("\(d) 22:45:00 +0000", "\(m) 07:00:00 +0000", "HKCategoryValueSleepAnalysisAsleepUnspecified", source: "SleepApp", device: nil),
            Self.sleep("\(d) 23:00:00 +0000", "\(m) 01:00:00 +0000", "HKCategoryValueSleepAnalysisAsleepCore", source: "Watch", device: Self.watch),
            Self.sleep("\(m) 01:00:00 +0000", "\(m) 02:00:00 +0000", "HKCategoryValueSleepAnalysisAsleepDeep", source: "Watch", device: Self.watch),
            Self.sleep("\(m) 02:00:00 +0000", "\(m) 03:00:00 +0000", "HKCategoryValueSleepAnalysisAsleepREM", source: "Watch", device: Self.watch),
            Self.sleep("\(m) 03:00:00 +0000", "\(m) 03:10:00 +0000", "HKCategoryValueSleepAnalysisAwake", source: "Watch", device: Self.watch),
            Self.sleep("\(m) 03:10:00 +0000", "\(m) 06:00:00 +0000", "HKCategoryValueSleepAnalysisAsleepCore", source: "Watch", device: Self.watch),
        ]
        let (_, nights) = try Self.run(objects)
        #expect(nights.count == 1)
        let night = try #require(nights.first)
        #expect(night.night == CalendarDate(year: 2024, month: 12, day: 2))
        // Core: 23:00–01:00 and 03:10–06:00 = 2 h + 2 h 50 min = 17,400 s. Deep and REM 1 h each;
        // awake 10 min. The app's unspecified asleep counts only where the Watch is silent:
        // 22:45–23:00 and 06:00–07:00 = 4,500 s. In bed: the iPhone's 8 h.
        #expect(night.asleepCore == 17_400)
        #expect(night.asleepDeep == 3_600 && night.asleepREM == 3_600)
        #expect(night.awake == 600)
        #expect(night.asleepUnspecified == 4_500)
        #expect(night.asleep == 17_400 + 3_600 + 3_600 + 4_500)
        #expect(night.inBed == 28_800)
        #expect(night.sleepStart == ExportTimestamp.parse("\(d) 22:45:00 +0000"))
        #expect(night.sleepEnd == ExportTimestamp.parse("\(m) 07:00:00 +0000"))
        #expect(night.sources == ["SleepApp", "Watch", "iPhone"])
    }

    /// The night summer time begins in Paris (2024-03-31, 02:00 → 03:00): 23:00 to 07:00 on the
    /// clock is seven hours, not eight; and it is the night of the 31st.
    @Test func aNightAcrossTheChangeToSummerTimeCountsItsRealTime() throws {
        let objects = [
            Self.sleep("2024-03-30 23:00:00 +0100", "2024-03-31 07:00:00 +0200", "HKCategoryValueSleepAnalysisAsleepCore", source: "Watch", device: Self.watch)
        ]
        let (days, nights) = try Self.run(objects, zone: Self.paris)
        #expect(nights.map(\.night) == [CalendarDate(year: 2024, month: 3, day: 31)])
        #expect(nights.first?.asleepCore == Double(7 * 3600))
        // Sleep's day is the night that ends that morning (`CategoryDayMeasure.night`): one
        // row, on the 31st, with its 7 hours; none on the 30th, where it began.
        #expect(days.map(\.date) == [CalendarDate(year: 2024, month: 3, day: 31)])
        #expect(days.map(\.duration) == [25_200.0])
    }

    /// The evening boundary moves which night a sample belongs to.
    @Test func theEveningBoundaryDecidesTheNight() throws {
        let nap = Self.sleep("2024-12-02 17:00:00 +0000", "2024-12-02 17:30:00 +0000", "HKCategoryValueSleepAnalysisAsleepUnspecified", source: "Watch", device: Self.watch)
        let collector = SummaryCollector()
        try collector.add(nap)
        var nights: [SleepNight] = []
        try collector.finish(timeZone: Self.utc, evening: 16 * 3600, daily: { _ in }, night: { nights.append($0) })
        // After a 16:00 boundary, a 17:00 nap begins the night that ends on the 3rd.
        #expect(nights.map(\.night) == [CalendarDate(year: 2024, month: 12, day: 3)])
        let (_, usual) = try Self.run([nap])
        #expect(usual.map(\.night) == [CalendarDate(year: 2024, month: 12, day: 2)])
    }

    /// A person who flies from Paris to New York: days are cut in one zone, the one the samples
    /// name most often (Paris here), so each step counts once, on the Paris date.
    @Test func aTravellersDaysAreCutInTheirMainZone() throws {
        let objects = [
            Self.steps("2024-06-10 10:00:00 +0200", "2024-06-10 11:00:00 +0200", 1000, source: "Watch", device: Self.watch, zone: "Europe/Paris"),
            Self.steps("2024-06-10 12:00:00 +0200", "2024-06-10 13:00:00 +0200", 500, source: "Watch", device: Self.watch, zone: "Europe/Paris"),
            // 20:00 in New York is 02:00 the next day in Paris.
            Self.steps("2024-06-10 20:00:00 -0400", "2024-06-10 21:00:00 -0400", 700, source: "Watch", device: Self.watch, zone: "America/New_York"),
        ]
        let collector = SummaryCollector()
        for object in objects { try collector.add(object) }
        #expect(collector.mostFrequentTimeZone?.identifier == "Europe/Paris")
        var days: [DailySummary] = []
        try collector.finish(timeZone: collector.mostFrequentTimeZone!, daily: { days.append($0) }, night: { _ in })
        #expect(days.map(\.date) == [CalendarDate(year: 2024, month: 6, day: 10), CalendarDate(year: 2024, month: 6, day: 11)])
        #expect(days.map { $0.sum! } == [1500, 700])
    }

    /// Category samples: two apps logging the same mindful session count one session and its
    /// time once; discrete types average every sample.
    @Test func categoriesCountOnceAndDiscreteTypesAverageAll() throws {
        func mindful(_ start: String, _ end: String, source: String, device: Device?) -> HealthObject {
            .categorySample(
                CategorySample(
                    sample: Self.attributes("HKCategoryTypeIdentifierMindfulSession", start, end, source: source, device: device),
                    value: CategoryValue.interpret("HKCategoryValueNotApplicable")))
        }
        func rate(_ time: String, _ value: Int, source: String, device: Device?) -> HealthObject {
            .quantitySample(
                QuantitySample(
                    sample: Self.attributes("HKQuantityTypeIdentifierRestingHeartRate", time, time, source: source, device: device),
                    quantity: Quantity(value: ExportNumber(value), unit: "count/min")))
        }
        let (days, _) = try Self.run([
            mindful("2024-12-01 08:00:00 +0000", "2024-12-01 08:10:00 +0000", source: "Watch", device: Self.watch),
            mindful("2024-12-01 08:00:00 +0000", "2024-12-01 08:10:00 +0000", source: "Headspace", device: nil),
            mindful("2024-12-01 20:00:00 +0000", "2024-12-01 20:05:00 +0000", source: "Headspace", device: nil),
            rate("2024-12-01 07:00:00 +0000", 60, source: "Watch", device: Self.watch),
            rate("2024-12-01 07:00:00 +0000", 64, source: "Oura", device: nil),
        ])
        let session = try #require(days.first { $0.type == "HKCategoryTypeIdentifierMindfulSession" })
        #expect(session.duration == 900.0)
        #expect(session.count == 2)
        #expect(session.sources == ["Headspace", "Watch"])
        let resting = try #require(days.first { $0.type == "HKQuantityTypeIdentifierRestingHeartRate" })
        #expect(resting.average == 62 && resting.minimum == 60 && resting.maximum == 64)
        #expect(resting.count == 2 && resting.unit == "count/min")
    }

    /// A parallel read's chunks make their records apart and the collector takes them in
    /// document order: the rows are those of one collector fed every object, whatever the
    /// cut. Sources of one tier rank by first appearance over the whole export (app B first
    /// appears in the second chunk, after app A in the first), a source on the explicit list
    /// ranks by its place there, and an unknown type's values are in its first sample's unit
    /// (km, from the first chunk; the second chunk begins with metres).
    @Test(arguments: [[String](), ["Pedometer++"]])
    func batchesAbsorbedInOrderGiveTheRowsOfOneCollector(explicit: [String]) throws {
        func future(_ start: String, _ end: String, _ value: Double, unit: String) -> HealthObject {
            .quantitySample(
                QuantitySample(
                    sample: Self.attributes("HKQuantityTypeIdentifierFutureDistance", start, end, source: "App A", device: nil),
                    quantity: Quantity(value: ExportNumber(value), unit: unit)))
        }
        let objects: [HealthObject] = [
            Self.steps("2024-12-01 09:00:00 +0000", "2024-12-01 10:00:00 +0000", 1000, source: "App A", device: nil, zone: "Europe/Paris"),
            future("2024-12-01 09:00:00 +0000", "2024-12-01 10:00:00 +0000", 1.5, unit: "km"),
            Self.sleep("2024-12-01 23:00:00 +0000", "2024-12-02 06:00:00 +0000", "HKCategoryValueSleepAnalysisAsleepCore", source: "App A", device: nil),
            // The second chunk.
            future("2024-12-01 11:00:00 +0000", "2024-12-01 12:00:00 +0000", 700, unit: "m"),
            Self.steps("2024-12-01 09:30:00 +0000", "2024-12-01 10:30:00 +0000", 600, source: "App B", device: nil),
            Self.steps("2024-12-01 09:15:00 +0000", "2024-12-01 09:45:00 +0000", 300, source: "Pedometer++", device: nil),
            Self.sleep("2024-12-02 01:00:00 +0000", "2024-12-02 07:00:00 +0000", "HKCategoryValueSleepAnalysisAsleepREM", source: "App B", device: nil),
            // The third.
            Self.steps("2024-12-02 09:00:00 +0000", "2024-12-02 10:00:00 +0000", 800, source: "App B", device: nil, zone: "Europe/Paris"),
            Self.steps("2024-12-02 09:00:00 +0000", "2024-12-02 10:00:00 +0000", 900, source: "App A", device: nil),
        ]
        func rows(_ collector: SummaryCollector) throws -> ([DailySummary], [SleepNight]) {
            var days: [DailySummary] = []
            var nights: [SleepNight] = []
            try collector.finish(timeZone: Self.utc, daily: { days.append($0) }, night: { nights.append($0) })
            return (days, nights)
        }
        let one = SummaryCollector(priority: SourcePriority(explicit: explicit))
        for object in objects { try one.add(object) }
        let chunked = SummaryCollector(priority: SourcePriority(explicit: explicit))
        for range in [0..<3, 3..<7, 7..<9] {
            let batch = chunked.makeBatch()
            for object in objects[range] { batch.add(object) }
            try chunked.absorb(batch)
        }
        #expect(chunked.timeZones.counts == ["Europe/Paris": 2] && one.timeZones == chunked.timeZones)
        let (days, nights) = try rows(chunked)
        let (oneDays, oneNights) = try rows(one)
        #expect(oneDays == days && oneNights == nights)
        // By hand, 1 December's steps. Without a list, A before B (first appearance), Pedometer++
        // last: 09:00–10:00 A 1000, 10:00–10:30 B 300 = 1300. With Pedometer++ listed first:
        // 09:15–09:45 its 300; A's other 30 minutes 500; B's 10:00–10:30 300 = 1100.
        let steps = try #require(days.first { $0.type == "HKQuantityTypeIdentifierStepCount" })
        #expect(abs((steps.sum ?? 0) - (explicit.isEmpty ? 1300 : 1100)) < 1e-9)
        // 2 December: A and B cover the same hour; A appeared first: 900.
        let second = try #require(days.last { $0.type == "HKQuantityTypeIdentifierStepCount" })
        #expect(abs((second.sum ?? 0) - 900) < 1e-9)
        // The unknown type (averaged, as a discrete type) in km, the first chunk's unit: 1.5
        // and 0.7.
        let distance = try #require(days.first { $0.type == "HKQuantityTypeIdentifierFutureDistance" })
        #expect(distance.unit == "km" && abs((distance.average ?? 0) - 1.1) < 1e-9 && abs((distance.minimum ?? 0) - 0.7) < 1e-9)
        // The night: 23:00–07:00, the overlap (01:00–06:00) once: 8 hours asleep.
        #expect(nights.count == 1 && abs(nights[0].asleep - 8 * 3600) < 1e-9)
    }
}
