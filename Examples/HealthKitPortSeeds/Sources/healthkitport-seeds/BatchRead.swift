import HealthKitPort

/// Seed 004, "Batch Read Existing Data" (HealthKit: `HKAnchoredObjectQueryDescriptor`), as
/// Apple wrote it; its placeholder prints each batch. Apple's end condition (`&&` of two
/// `!= []`) stops after the first batch that deletes nothing, so this reads one batch of 100
/// and returns its anchor, as it would on a phone.
func readStepsInBatches(store: HKHealthStore) async throws -> HKQueryAnchor? {
    let stepType = HKQuantityType(.stepCount)

    // Start by reading all matching data.
    var anchor: HKQueryAnchor? = nil
    var results: HKAnchoredObjectQueryDescriptor<HKQuantitySample>.Result


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
        print(results)
    } while (results.addedSamples != []) && (results.deletedObjects != [])

    return anchor
}
