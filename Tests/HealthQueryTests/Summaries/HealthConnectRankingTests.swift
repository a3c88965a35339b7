import Foundation
import HealthModel
import Testing

@testable import HealthQuery

/// A Health Connect priority list ranks the samples that name an app's package, and only
/// those: Apple's samples (which name none) keep the Health app's tiers, ahead of the list's,
/// so one collection holding both phones' samples counts a minute both recorded once. Totals
/// worked by hand in each test.
@Suite struct HealthConnectRankingTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let samsung = "com.sec.android.app.shealth", fit = "com.google.android.apps.fitness"
    static let list = HealthConnectPriority(apps: [.activity: [samsung, fit]])

    static func steps(_ start: String, _ end: String, _ value: Int, source: String, package: String?, device: Device?) -> HealthObject {
        .quantitySample(
            QuantitySample(
                sample: SampleAttributes(
                    sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierStepCount"),
                    sourceRevision: SourceRevision(source: Source(name: source, bundleIdentifier: package)), device: device,
                    startDate: ExportTimestamp.parse(start)!, endDate: ExportTimestamp.parse(end)!),
                quantity: Quantity(value: ExportNumber(value), unit: "count")))
    }

    static func daySums(_ objects: [HealthObject]) throws -> [Double] {
        let collector = SummaryCollector(priority: SourcePriority(healthConnect: list))
        for object in objects { try collector.add(object) }
        var days: [DailySummary] = []
        try collector.finish(timeZone: utc, daily: { days.append($0) }, night: { _ in })
        return days.map { $0.sum ?? 0 }
    }

    /// An iPhone's walk 09:00–10:00 (1,000 steps) beside Samsung Health's 09:30–10:30 (600):
    /// 09:00–09:30 the iPhone alone, 500; 09:30–10:00 both, the iPhone's tier first, its 500;
    /// 10:00–10:30 Samsung alone, 300. 1,300, where adding both would give 1,600 and ranking
    /// the iPhone as an app off the list would leave it out (600).
    @Test func applesSamplesKeepTheirTiersAheadOfTheList() throws {
        let phone = Device(name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone")
        let sums = try Self.daySums([
            Self.steps("2026-01-05 09:00:00 +0000", "2026-01-05 10:00:00 +0000", 1000, source: "iPhone", package: nil, device: phone),
            Self.steps("2026-01-05 09:30:00 +0000", "2026-01-05 10:30:00 +0000", 600, source: "Samsung Health", package: Self.samsung, device: nil),
        ])
        #expect(sums == [1300])
    }

    /// Within the list, its order decides and an app off it is left out: Fit 09:00–10:00
    /// (1,000) under Samsung 09:30–10:30 (600), and a pedometer's 5,000 off the list.
    /// 09:00–09:30 Fit, 500; 09:30–10:30 Samsung, 600; the pedometer nothing: 1,100.
    @Test func theListRanksPackagesAndLeavesOutTheUnlisted() throws {
        let sums = try Self.daySums([
            Self.steps("2026-01-05 09:00:00 +0000", "2026-01-05 10:00:00 +0000", 1000, source: "Fit", package: Self.fit, device: nil),
            Self.steps("2026-01-05 09:30:00 +0000", "2026-01-05 10:30:00 +0000", 600, source: "Samsung Health", package: Self.samsung, device: nil),
            Self.steps("2026-01-05 09:00:00 +0000", "2026-01-05 11:00:00 +0000", 5000, source: "Pedometer", package: "org.example.pedometer", device: nil),
        ])
        #expect(sums == [1100])
    }
}
