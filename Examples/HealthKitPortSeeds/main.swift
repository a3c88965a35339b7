// The code of Apple's HealthKit documentation (docs/seeds), run against an Apple Health export or
// a healthport store. Only two things differ from the code on a phone: `import HealthKitPort`,
// and the line that opens the store.
//
//     swift run healthkitport-seeds SampleData/export.zip
//     healthport import SampleData/export.zip --store /tmp/health.sqlite
//     swift run healthkitport-seeds /tmp/health.sqlite
import Foundation
import HealthKitPort

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: healthkitport-seeds EXPORT-OR-STORE\n".utf8))
    exit(64)
}
let store = try HKHealthStore(opening: URL(fileURLWithPath: CommandLine.arguments[1]))  // the one changed line

// Read the newest prescription from the HealthKit store.
let queryDescriptor = HKSampleQueryDescriptor(predicates: [.visionPrescription()],
                                              sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)],
                                              limit: 1)

let prescription: HKVisionPrescription

do {
    guard let result = try await queryDescriptor.result(for: store).first else {
        print("*** No prescription found. ***")
        exit(0)
    }

    prescription = result
} catch {
    // Handle the error here.
    fatalError("*** An error occurred while reading the most recent vision prescriptions: \(error.localizedDescription) ***")
}
print("newest prescription: \(prescription.uuid.uuidString) issued \(ISO8601DateFormatter().string(from: prescription.dateIssued))")

// Steps per day, sources merged as the Health app merges them.
let daily = HKStatisticsCollectionQueryDescriptor(
    predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum,
    anchorDate: ISO8601DateFormatter().date(from: "2000-01-01T00:00:00Z")!, intervalComponents: DateComponents(day: 1))
for day in try await daily.result(for: store).statistics().prefix(3) {
    let steps = day.sumQuantity()?.doubleValue(for: .count()) ?? 0
    print("steps on \(ISO8601DateFormatter().string(from: day.startDate)): \(Int(steps.rounded()))")
}

// Anchored queries read a store's change history; an export has none.
guard HKHealthStore.isHealthDataAvailable(), CommandLine.arguments[1].hasSuffix(".sqlite") else { exit(0) }

let stepType = HKQuantityType(.stepCount)

// Start by reading all matching data.
var anchor: HKQueryAnchor? = nil
var results: HKAnchoredObjectQueryDescriptor<HKQuantitySample>.Result
var total = 0

repeat {
    // Create a query descriptor that reads a batch
    // of 100 matching samples.
    let anchorDescriptor =
    HKAnchoredObjectQueryDescriptor(
        predicates: [.quantitySample(type: stepType)],
        anchor: anchor,
        limit: 100
    )

    results = try await anchorDescriptor.result(for: store)
    anchor = results.newAnchor

    // Process the batch of results here.
    total += results.addedSamples.count

} while !(results.addedSamples.isEmpty && results.deletedObjects.isEmpty)  // Apple's `&&` of two `!= []` stops early
print("step samples read in batches of 100: \(total)")
