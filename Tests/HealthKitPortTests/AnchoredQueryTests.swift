import Foundation
import HealthEngine
@testable import HealthKitPort
import HealthQuery
import HealthTestSupport
import Testing

/// `HKAnchoredObjectQueryDescriptor` over a store, against `healthport changes --store`.
@Suite struct AnchoredQueryTests {
    /// Seed 004's batch loop (with the loop condition fixed, see docs/reference/healthkit.md §5.2):
    /// every step sample once, in the order `changes --store` writes them, batch by batch.
    @Test func theSeedsBatchLoop() async throws {
        let storeURL = try Reference.store()
        let store = try HKHealthStore(opening: storeURL)

        let stepType = HKQuantityType(.stepCount)

        // Start by reading all matching data.
        var anchor: HKQueryAnchor? = nil
        var results: HKAnchoredObjectQueryDescriptor<HKQuantitySample>.Result

        var added: [HKQuantitySample] = []
        var batches = 0
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
            added += results.addedSamples
            batches += 1
            #expect(results.addedSamples.count <= 100)
        } while !(results.addedSamples == [] && results.deletedObjects == [])

        let cli = try Reference.changeLines(ChangesRun(input: .store(storeURL.path), query: ObjectQuery(types: ["HKQuantityTypeIdentifierStepCount"])))
        let cliAdded = cli.filter { $0["type"] as? String == "added" }
        let expectedUUIDs = cliAdded.compactMap { ($0["object"] as? [String: Any])?["uuid"] as? String }
        #expect(!expectedUUIDs.isEmpty)
        #expect(added.map(\.uuid.uuidString) == expectedUUIDs)
        #expect(batches == (expectedUUIDs.count + 99) / 100 + 1)
        let end = try #require(cli.last)
        #expect((end["newAnchor"] as? [String: Any])?["anchor"] as? String == anchor?.token)
    }

    /// Deletions: a store that held the newer export, then the older one (what went away is
    /// deleted), answers with `HKDeletedObject`s with the uuids `changes --store` reports.
    @Test func deletionsAreDeletedObjects() async throws {
        let storeURL = try Reference.store(from: Reference.export)
        let first = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: nil)
            .result(for: HKHealthStore(opening: storeURL))
        var reimport = ImportRun(export: Reference.olderExport.path, store: storeURL.path)
        reimport.force = true
        _ = try reimport.run()
        let second = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: first.newAnchor)
            .result(for: HKHealthStore(opening: storeURL))
        let cli = try Reference.changeLines(
            ChangesRun(
                input: .store(storeURL.path), query: ObjectQuery(types: ["HKQuantityTypeIdentifierStepCount"]),
                anchor: first.newAnchor.token.map(ChangesAnchor.store)))
        let deleted = cli.filter { $0["type"] as? String == "deleted" }.compactMap { $0["uuid"] as? String }
        #expect(!deleted.isEmpty)
        #expect(second.deletedObjects.map(\.uuid.uuidString) == deleted)
        #expect(Set(deleted).isSubset(of: Set(first.addedSamples.map(\.uuid.uuidString))))
    }

    /// A number ahead of the store is no anchor of it, nor is another store's token; a number
    /// within it is an integer anchor of healthport before 0.3.0 (`init(fromValue:)`), which the
    /// owner resumes from.
    @Test func anAnchorNotOfThisStoreIsAnInvalidArgument() async throws {
        let store = try HKHealthStore(opening: Reference.store())
        let other = try HKHealthStore(opening: Reference.store(from: Reference.olderExport))
        let otherAnchor = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: nil)
            .result(for: other).newAnchor
        let fromFive = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: HKQueryAnchor(fromValue: 5))
            .result(for: store)
        let fromOrigin = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: nil)
            .result(for: store)
        #expect(fromFive.addedSamples.count <= fromOrigin.addedSamples.count && !fromFive.addedSamples.isEmpty)
        for anchor in [HKQueryAnchor(fromValue: 10_000_000), otherAnchor] {
            do {
                _ = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: anchor)
                    .result(for: store)
                Issue.record("expected errorInvalidArgument for \(anchor)")
            } catch HKError.errorInvalidArgument {}
        }
        // 0 is HealthKit's "no anchor": the origin of any store.
        let fromZero = try await HKAnchoredObjectQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: HKQueryAnchor(fromValue: 0)
        ).result(for: store)
        let fromNil = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: nil)
            .result(for: store)
        #expect(fromZero.addedSamples.map(\.uuid) == fromNil.addedSamples.map(\.uuid))
        #expect(fromZero.newAnchor == fromNil.newAnchor)
    }

    /// Seed 004's monitoring loop: the first element is what the store holds; the next arrives
    /// when an import lands.
    @Test func theSeedsMonitoringLoopSeesAnImport() async throws {
        let storeURL = try Reference.store(from: Reference.olderExport)
        let store = try HKHealthStore(opening: storeURL)
        let anchor: HKQueryAnchor? = nil

        let stepType = HKQuantityType(.stepCount)

        // Create a query descriptor.
        let anchorDescriptor =
        HKAnchoredObjectQueryDescriptor(
            predicates: [.quantitySample(type: stepType)],
            anchor: anchor
        )

        let updateQueue = anchorDescriptor.results(for: store)

        let updates = Updates()
        let updateTask = Task {
            for try await update in updateQueue {
                // Process the update here.
                print(update.addedSamples.count, update.deletedObjects.count)
                await updates.append(update.addedSamples.count)
            }
        }
        defer { updateTask.cancel() }
        try await updates.waitFor(count: 1)
        let firstCount = await updates.counts[0]
        #expect(firstCount > 0)

        var reimport = ImportRun(export: Reference.export.path, store: storeURL.path)
        reimport.force = true
        _ = try reimport.run()
        try await updates.waitFor(count: 2)
        let counts = await updates.counts
        #expect(counts[1] > 0)
        updateTask.cancel()
    }
}

/// `results(for:)` sees an import that another process (`healthport import`) commits.
@Suite struct FollowAcrossProcessesTests {
    @Test func anImportByAnotherProcessArrives() async throws {
        let storeURL = try Reference.store(from: Reference.olderExport)
        let store = try HKHealthStore(opening: storeURL)
        let descriptor = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: nil)
        let updates = Updates()
        let task = Task {
            for try await update in descriptor.results(for: store) { await updates.append(update.addedSamples.count) }
        }
        defer { task.cancel() }
        try await updates.waitFor(count: 1)
        let imported = try CommandRunner.run(Reference.healthportBinary, ["import", Reference.export.path, "--store", storeURL.path, "-q"])
        #expect(imported.status == 0, "\(imported.stderrText)")
        try await updates.waitFor(count: 2)
        // The first element is every step sample of the older export; the second holds the import's additions.
        let counts = await updates.counts
        let older = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], sortDescriptors: [])
            .result(for: HKHealthStore(opening: Reference.olderExport))
        #expect(counts.first == older.count)
        #expect(counts[1] > 0)
    }
}

actor Updates {
    var counts: [Int] = []
    func append(_ count: Int) { counts.append(count) }

    /// Waits up to 30 s for `count` elements.
    func waitFor(count: Int) async throws {
        for _ in 0..<300 where counts.count < count {
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        #expect(counts.count >= count)
    }
}

/// Read denial is invisible to anchored queries too, over a store and over an export: a denied
/// type's changes are absent, with no error, while a granted type's arrive.
@Suite struct AnchoredQueryPolicyTests {
    @Test(arguments: [false, true]) func aDeniedTypeHasNoChanges(fromStore: Bool) async throws {
        let policy = try AuthorizationTests.policyFile([
            "HKQuantityTypeIdentifierHeartRate": .denied, "HKQuantityTypeIdentifierStepCount": .granted,
        ])
        let store = try HKHealthStore(opening: fromStore ? Reference.store() : Reference.export, policy: policy)
        let heartRates = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.heartRate))], anchor: nil)
            .result(for: store)
        #expect(heartRates.addedSamples.isEmpty)
        #expect(heartRates.deletedObjects.isEmpty)
        let steps = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: nil)
            .result(for: store)
        #expect(steps.addedSamples.count == 336)
    }
}
