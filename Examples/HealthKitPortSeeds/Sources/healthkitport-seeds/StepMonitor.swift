import HealthKitPort

/// Seed 004, "Monitor for Changes", as Apple wrote it: `updateTask` is the property Apple's
/// code assigns, and `anchor` the one "from the last time you read data" (the batch loop's).
/// Over a store, each element after the first holds an import another process committed
/// (`healthport import`); over an export, the first element is all there is.
final class StepMonitor {
    var updateTask: Task<Void, any Error>?

    func startMonitoring(store: HKHealthStore, from anchor: HKQueryAnchor?) {
        let stepType = HKQuantityType(.stepCount)

        // Create a query descriptor.
        let anchorDescriptor =
        HKAnchoredObjectQueryDescriptor(
            predicates: [.quantitySample(type: stepType)],
            anchor: anchor
        )

        let updateQueue = anchorDescriptor.results(for: store)

        updateTask = Task {
            for try await update in updateQueue {
                // Process the update here.
                print(update)
            }
        }
    }
}
