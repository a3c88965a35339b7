import Foundation
import Testing
import HealthModel
@testable import HealthQuery

@Suite struct AnchorTests {
    static func set(_ count: Int) -> IdentitySet {
        var set = IdentitySet()
        var state: UInt64 = 99
        for i in 0..<count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            set.insert(ObjectUUID(high: state, low: UInt64(i)), type: i % 3 == 0 ? "HKWorkoutTypeIdentifier" : "HKQuantityTypeIdentifierStepCount")
        }
        set.finish()
        return set
    }

    @Test func anchorsRoundTripThroughTheirBytes() throws {
        let anchor = QueryAnchor(
            base: Self.set(1000), baseExportDate: 1_700_000_000, queryHash: Array(repeating: 7, count: 32),
            target: ObjectUUID(high: 1, low: 2), targetExportDate: 1_700_100_000, position: 42)
        let bytes = anchor.encoded()
        #expect(try QueryAnchor(decoding: bytes) == anchor)
        #expect(bytes.count < 1000 * 20 + 200)
        let origin = QueryAnchor.origin(queryHash: Array(repeating: 1, count: 32))
        #expect(try QueryAnchor(decoding: origin.encoded()) == origin)
    }

    @Test func damagedOrForeignBytesAreRefused() {
        var bytes = QueryAnchor(base: Self.set(10), baseExportDate: nil, queryHash: Array(repeating: 0, count: 32)).encoded()
        bytes[80] ^= 0xFF
        #expect(throws: AnchorError.self) { try QueryAnchor(decoding: bytes) }
        #expect(throws: AnchorError.self) { try QueryAnchor(decoding: Array("not an anchor at all, just some text".utf8)) }
        #expect(throws: AnchorError.self) { try QueryAnchor(decoding: Array(bytes.prefix(40))) }
    }

    @Test func theTrackerReportsAdditionsInOrderThenDeletionsAndResumesByPosition() throws {
        let old = Self.set(100)
        let base = QueryAnchor(base: old, baseExportDate: 1, queryHash: Array(repeating: 0, count: 32))
        let t = ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: 0)
        func object(_ uuid: ObjectUUID) -> HealthObject {
            .quantitySample(QuantitySample(
                sample: SampleAttributes(uuid: uuid, sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierStepCount"),
                                         sourceRevision: SourceRevision(source: Source(name: "P")), startDate: t, endDate: t),
                quantity: Quantity(value: ExportNumber(1), unit: "count")))
        }
        // The new export keeps 90 of the old objects and adds 25.
        let kept = Array(old.uuids.prefix(90))
        let added = (0..<25).map { ObjectUUID(high: UInt64($0), low: 0xFFFF) }
        let newObjects = kept.map(object) + added.map(object)
        func run(_ anchor: QueryAnchor, limit: Int?) throws -> ([ObjectUUID], [ObjectUUID], QueryAnchor) {
            let tracker = ChangeTracker(anchor: anchor, limit: limit)
            var a: [ObjectUUID] = []
            var d: [ObjectUUID] = []
            for o in newObjects { tracker.consume(o) { a.append($0.uuid) } }
            let next = try tracker.finish(exportDate: 2) { uuid, _ in d.append(uuid) }
            return (a, d, next)
        }
        let (allAdded, allDeleted, final) = try run(base, limit: nil)
        #expect(allAdded == added)
        #expect(allDeleted == Array(old.uuids.suffix(10)))
        #expect(final.target == nil)
        #expect(final.base.count == 115)
        // The batch loop gives the same changes, nothing repeated, nothing missed.
        var anchor = base
        var batchedAdded: [ObjectUUID] = []
        var batchedDeleted: [ObjectUUID] = []
        for _ in 0..<10 {
            let (a, d, next) = try run(anchor, limit: 7)
            batchedAdded += a
            batchedDeleted += d
            anchor = next
            if a.isEmpty && d.isEmpty { break }
        }
        #expect(batchedAdded == allAdded)
        #expect(batchedDeleted == allDeleted)
        #expect(anchor == final)
    }
}
