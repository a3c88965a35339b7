import Foundation
import HealthEngine
@testable import HealthKitPort
import HealthQuery
import HealthTestSupport
import Testing

/// `HKAnchoredObjectQueryDescriptor` over an export, against `healthport changes EXPORT` and
/// `healthport anchor`: the same changes in the same order, and the same anchor.
@Suite struct ExportAnchoredQueryTests {
    static let steps = ObjectQuery(types: ["HKQuantityTypeIdentifierStepCount"])

    /// Seed 004's batch loop (the loop condition fixed, as in `AnchoredQueryTests`) over the
    /// export: every step sample once, in the order `changes EXPORT` writes them, and at the end
    /// the anchor `healthport anchor EXPORT --type StepCount` writes, byte for byte.
    @Test func theSeedsBatchLoopOverAnExport() async throws {
        let store = try HKHealthStore(opening: Reference.export)

        let stepType = HKQuantityType(.stepCount)

        // Start by reading all matching data.
        var anchor: HKQueryAnchor? = nil
        var results: HKAnchoredObjectQueryDescriptor<HKQuantitySample>.Result

        var added: [String] = []
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
            added += results.addedSamples.map(\.uuid.uuidString)
            batches += 1
            #expect(results.addedSamples.count <= 100)
            #expect(results.deletedObjects.isEmpty)
        } while !(results.addedSamples == [] && results.deletedObjects == [])

        let cli = Reference.changedUUIDs(try Reference.changeLines(ChangesRun(input: .export(Reference.export.path), query: Self.steps)))
        #expect(cli.added.count == 336)
        #expect(added == cli.added)
        #expect(batches == 5)  // 100, 100, 100, 36, then the empty batch that ends the loop
        guard case .export(let final) = try #require(anchor).position else {
            Issue.record("an export query must return an export anchor")
            return
        }
        #expect(final.target == nil)
        #expect(final.encoded() == (try AnchorRun(export: Reference.export.path, query: Self.steps).run().anchor.encoded()))
    }

    /// The anchor of one export over the next (another `HKHealthStore`): what `healthport
    /// changes NEW --anchor OLD` reports, added then deleted. Older to newer adds samples; newer
    /// to older (what a store sees when an older export is imported) deletes them.
    @Test(arguments: [false, true]) func anAnchorCarriesOverToTheNextExport(backwards: Bool) async throws {
        let (from, to) = backwards ? (Reference.export, Reference.olderExport) : (Reference.olderExport, Reference.export)
        let descriptor = { (anchor: HKQueryAnchor?) in
            HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: anchor)
        }
        let first = try await descriptor(nil).result(for: HKHealthStore(opening: from))
        let next = try await descriptor(first.newAnchor).result(for: HKHealthStore(opening: to))
        let fromAnchor = try AnchorRun(export: from.path, query: Self.steps).run().anchor
        let cli = Reference.changedUUIDs(try Reference.changeLines(ChangesRun(input: .export(to.path), query: Self.steps, anchor: .export(fromAnchor))))
        #expect(backwards ? !cli.deleted.isEmpty : !cli.added.isEmpty)
        #expect(next.addedSamples.map(\.uuid.uuidString) == cli.added)
        #expect(next.deletedObjects.map(\.uuid.uuidString) == cli.deleted)
        // Caught up: the same query again over the same export has nothing.
        let again = try await descriptor(next.newAnchor).result(for: HKHealthStore(opening: to))
        #expect(again.addedSamples.isEmpty && again.deletedObjects.isEmpty)
        #expect(again.newAnchor == next.newAnchor)
    }

    /// A store's number over an export, an export's anchor over a store, and an export anchor
    /// of another query are refused, never read as something else.
    @Test func anchorsOfAnotherInputOrQueryAreInvalidArguments() async throws {
        let steps = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: nil)
        let exportAnchor = try await steps.result(for: HKHealthStore(opening: Reference.export)).newAnchor
        let refusals: [(HKAnchoredObjectQueryDescriptor<HKQuantitySample>, HKHealthStore)] = [
            (.init(predicates: steps.predicates, anchor: HKQueryAnchor(fromValue: 0)), try HKHealthStore(opening: Reference.export)),
            (.init(predicates: steps.predicates, anchor: exportAnchor), try HKHealthStore(opening: Reference.store())),
            (.init(predicates: [.quantitySample(type: HKQuantityType(.heartRate))], anchor: exportAnchor), try HKHealthStore(opening: Reference.export)),
        ]
        for (descriptor, store) in refusals {
            do {
                _ = try await descriptor.result(for: store)
                Issue.record("expected errorInvalidArgument for \(String(describing: descriptor.anchor))")
            } catch HKError.errorInvalidArgument {}
        }
    }

    /// `results(for:)` over an export: the first element is the export's changes, then the
    /// sequence waits (an export never changes) until its task is cancelled.
    @Test func theMonitoringLoopOverAnExportYieldsTheSnapshotAndWaits() async throws {
        let store = try HKHealthStore(opening: Reference.export)
        let descriptor = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: nil)
        let updates = Updates()
        let task = Task {
            for try await update in descriptor.results(for: store) { await updates.append(update.addedSamples.count) }
        }
        try await updates.waitFor(count: 1)
        #expect(await updates.counts == [336])
        task.cancel()
        _ = try? await task.value  // ends once cancelled
        #expect(await updates.counts == [336])
    }

    /// HealthKit's way of keeping an anchor between launches (`NSKeyedArchiver` with secure
    /// coding) keeps both kinds, and a restored export anchor continues where it stopped.
    @Test func anchorsSurviveSecureCoding() async throws {
        let store = try HKHealthStore(opening: Reference.export)
        let descriptor = { (anchor: HKQueryAnchor?) in
            HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: anchor, limit: 100)
        }
        let first = try await descriptor(nil).result(for: store)
        let storeAnchor = try await descriptor(nil).result(for: HKHealthStore(opening: Reference.store())).newAnchor
        #expect(storeAnchor.token?.hasPrefix("s1") == true)
        for anchor in [first.newAnchor, storeAnchor, HKQueryAnchor(fromValue: 42), HKQueryAnchor(fromValue: 0)] {
            let data = try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
            let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data))
            #expect(restored == anchor)
        }
        let data = try NSKeyedArchiver.archivedData(withRootObject: first.newAnchor, requiringSecureCoding: true)
        let restored = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
        let second = try await descriptor(restored).result(for: store)
        let expected = try await descriptor(first.newAnchor).result(for: store)
        #expect(second.addedSamples.count == 100)
        #expect(second.addedSamples.map(\.uuid) == expected.addedSamples.map(\.uuid))
        #expect(Set(second.addedSamples.map(\.uuid)).isDisjoint(with: first.addedSamples.map(\.uuid)))
    }
}
