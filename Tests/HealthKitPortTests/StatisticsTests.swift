import Foundation
import HealthEngine
import HealthKitPort
import HealthQuery
import HealthTestSupport
import Testing

/// `HKStatisticsCollectionQueryDescriptor` against `healthport stats` (the same `StatisticsRun`).
@Suite struct StatisticsTests {
    @Test(arguments: [false, true]) func dailyStepsMatchTheCommandLine(fromStore: Bool) async throws {
        let url = fromStore ? try Reference.store() : Reference.export
        let store = try HKHealthStore(opening: url)
        let anchor = try #require(ISO8601DateFormatter().date(from: "2000-01-01T00:00:00Z"))
        let descriptor = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: [.cumulativeSum, .separateBySource],
            anchorDate: anchor, intervalComponents: DateComponents(day: 1))
        let collection = try await descriptor.result(for: store)

        // `healthport stats --type StepCount --interval day --anchor-date 2000-01-01T00:00:00Z --separate-by-source`
        var run = StatisticsRun(input: fromStore ? .store(url.path) : .export(url.path), query: ObjectQuery(types: ["HKQuantityTypeIdentifierStepCount"]))
        run.anchorDate = "2000-01-01T00:00:00Z"
        run.options = [.cumulativeSum, .separateBySource]
        let cli = try run.run()

        let days = collection.statistics()
        #expect(days.count == cli.intervals.count)
        #expect(days.count >= 10)
        for (day, expected) in zip(days, cli.intervals) {
            #expect(day.startDate == expected.start)
            #expect(day.endDate == expected.end)
            #expect(day.sumQuantity()?.doubleValue(for: .count()) == expected.sum)
            #expect(day.averageQuantity() == nil)
            #expect(day.sources?.map(\.name) == expected.bySource.map(\.source))
            for (source, statistics) in expected.bySource {
                let hkSource = try #require(day.sources?.first { $0.name == source })
                #expect(day.sumQuantity(for: hkSource)?.doubleValue(for: .count()) == statistics.sum)
            }
            // Merged, not added: the iPhone and the Watch count the same minutes.
            let naive = expected.bySource.compactMap(\.statistics.sum).reduce(0, +)
            #expect((day.sumQuantity()?.doubleValue(for: .count()) ?? 0) <= naive)
        }
        let middle = days[days.count / 2]
        #expect(collection.statistics(for: middle.startDate.addingTimeInterval(60)) == middle)
        var enumerated = 0
        collection.enumerateStatistics(from: days[0].startDate, to: days[2].startDate) { _, _ in enumerated += 1 }
        #expect(enumerated == 2)
    }

    @Test func aSumOfHeartRatesIsAnInvalidArgument() async throws {
        let store = try HKHealthStore(opening: Reference.export)
        let descriptor = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: HKQuantityType(.heartRate)), options: .cumulativeSum, anchorDate: Date(timeIntervalSince1970: 0),
            intervalComponents: DateComponents(hour: 1))
        do {
            _ = try await descriptor.result(for: store)
            Issue.record("expected errorInvalidArgument")
        } catch HKError.errorInvalidArgument {}
        let average = try await HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: HKQuantityType(.heartRate)), options: [.discreteAverage, .discreteMax],
            anchorDate: Date(timeIntervalSince1970: 0), intervalComponents: DateComponents(day: 7)
        ).result(for: store)
        let week = try #require(average.statistics().first)
        #expect(week.endDate.timeIntervalSince(week.startDate) >= 6 * 86_400)
        let mean = try #require(week.averageQuantity()?.doubleValue(for: HKUnit(from: "count/min")))
        let max = try #require(week.maximumQuantity()?.doubleValue(for: HKUnit(from: "count/min")))
        #expect(mean > 30 && mean <= max)
    }

    /// Under a policy that denies step counts, the statistics are empty, as for a type without data.
    @Test func aDeniedTypeHasNoStatistics() async throws {
        let policy = try AuthorizationTests.policyFile(["HKQuantityTypeIdentifierStepCount": .denied])
        let store = try HKHealthStore(opening: Reference.export, policy: policy)
        let collection = try await HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum,
            anchorDate: Date(timeIntervalSince1970: 0), intervalComponents: DateComponents(day: 1)
        ).result(for: store)
        #expect(collection.statistics().isEmpty)
    }
}
