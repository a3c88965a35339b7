import Foundation
import HealthKitPort

/// Steps per day, sources merged as the Health app merges them (HealthKit:
/// `HKStatisticsCollectionQueryDescriptor`). Not from the seeds: the statistics the README
/// shows. Days are cut in the person's zone (the samples' `HKTimeZone`), as HealthKit cuts them
/// in the phone's calendar, aligned with the anchor, midnight UTC of 1 January 2000:
/// `healthport stats --tz ZONE --anchor-date 2000-01-01T00:00:00Z` gives the same days.
func printDailySteps(store: HKHealthStore) async throws {
    guard let anchorDate = ISO8601DateFormatter().date(from: "2000-01-01T00:00:00Z") else { return }
    let daily = HKStatisticsCollectionQueryDescriptor(
        predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum,
        anchorDate: anchorDate, intervalComponents: DateComponents(day: 1))
    for day in try await daily.result(for: store).statistics() {
        let steps = day.sumQuantity()?.doubleValue(for: .count()) ?? 0
        print("steps on \(ISO8601DateFormatter().string(from: day.startDate)): \(Int(steps.rounded()))")
    }
}
