import Foundation
import HealthExport
import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery
import HealthTestSupport
import PropertyBased
import Testing

/// Properties over random exports: what is written reads back with nothing lost, in every form;
/// random edits between two exports are exactly what the diff reports.
@Suite struct PropertyTests {
    /// One random record: a type, a value with some decimals, a time, a duration, a metadata
    /// text of arbitrary printable characters (markup and quotes included) and a source.
    struct RecordSpec: Sendable, CustomStringConvertible {
        var type: Int
        var value: Int
        var decimals: Int
        var duration: Int
        var text: String
        var source: Int

        static let types = [
            ("HKQuantityTypeIdentifierHeartRate", "count/min"), ("HKQuantityTypeIdentifierStepCount", "count"),
            ("HKQuantityTypeIdentifierBodyMass", "kg"), ("HKQuantityTypeIdentifierActiveEnergyBurned", "kcal"),
        ]
        static let sources = ["Apple Watch de Nicolás", "Simon’s iPhone", "Withings & Co <EU>", "\"Quoted\" app"]

        var description: String { "\(Self.types[type].0) \(value)e-\(decimals) +\(duration)s \(text.debugDescription)" }

        /// The object the reader builds for this record at `index` (distinct times: no duplicates).
        func object(index: Int) -> HealthObject {
            let start = ExportTimestamp(secondsSince1970: 1_700_000_000 + Int64(index) * 3600, utcOffsetSeconds: 3600)
            let end = ExportTimestamp(secondsSince1970: start.secondsSince1970 + Int64(duration), utcOffsetSeconds: 3600)
            let divisor = [1.0, 10, 100, 1000][decimals]
            let number = ExportNumber.parse(String(format: "%.\(decimals)f", Double(value) / divisor))!
            let attributes = SampleAttributes(
                sampleType: ObjectType(recordType: Self.types[type].0),
                sourceRevision: SourceRevision(source: Source(name: Self.sources[source]), version: "1.\(source)"),
                startDate: start, endDate: end,
                metadata: text.isEmpty ? Metadata() : Metadata([MetadataEntry(key: "note", value: MetadataValue.interpret(text, key: "note"))]))
            return .quantitySample(QuantitySample(sample: attributes, quantity: Quantity(value: number, unit: Self.types[type].1)))
        }
    }

    static let printable = Gen.unicodeScalar(in: " "..."\u{2FF}").map { Character($0) }.string(of: 0...12)
    static let record = zip(
        Gen.int(in: 0...3), Gen.int(in: 0...200_000), Gen.int(in: 0...3), Gen.int(in: 0...900)
    ).map { type, value, decimals, duration in (type, value, decimals, duration) }
    static let spec = zip(record, printable, Gen.int(in: 0...3)).map { r, text, source in
        RecordSpec(type: r.0, value: r.1, decimals: r.2, duration: r.3, text: text, source: source)
    }


    static func write(_ objects: [HealthObject], to url: URL) throws {
        let writer = ExportXMLWriter(file: try AtomicFile(destination: url.path))
        try writer.begin(ExportHeader(locale: "en_US", exportDate: ExportTimestamp(secondsSince1970: 1_800_000_000, utcOffsetSeconds: 3600)))
        for object in objects { try writer.write(object) }
        try writer.finish()
    }

    static func read(_ url: URL) throws -> [HealthObject] { try ObjectCollector.read(url.path).objects }

    static func withoutUUID(_ object: HealthObject) -> HealthObject {
        guard case .quantitySample(var q) = object else { return object }
        q.sample.uuid = ObjectUUID(high: 0, low: 0)
        return .quantitySample(q)
    }

    @Test func randomExportsRoundTripThroughXMLAndNDJSONWithNothingLost() async throws {
        let directory = try Fixtures.temporaryDirectory()
        let writer = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
        await propertyCheck(count: 60, input: Self.spec.array(of: 1...20)) { specs in
            let objects = specs.enumerated().map { $1.object(index: $0) }
            let url = directory.appendingPathComponent("export-\(UUID().uuidString).xml")
            try Self.write(objects, to: url)
            let read = try Self.read(url)
            // Parse: every object, as built.
            #expect(read.map(Self.withoutUUID) == objects)
            // NDJSON: every object, uuid included.
            let decoded = try read.map { try ObjectDecoder.decode(Array(try writer.encode($0).dropLast())) }
            #expect(decoded == read)
            // And written again, the same objects and uuids.
            let again = directory.appendingPathComponent("again-\(UUID().uuidString).xml")
            try Self.write(read, to: again)
            #expect(try Self.read(again) == read)
        }
    }

    @Test func randomEditsBetweenTwoExportsAreExactlyWhatTheDiffReports() async throws {
        let directory = try Fixtures.temporaryDirectory()
        let edits = zip(Gen.int(in: 0...1000).array(of: 0...4), Gen.int(in: 0...1000).array(of: 0...4), Self.spec.array(of: 0...4))
        await propertyCheck(count: 40, input: Self.spec.array(of: 5...25), edits) { specs, edit in
            let (removals, changes, insertions) = edit
            let removed = Set(removals.map { $0 % specs.count })
            let changed = Set(changes.map { $0 % specs.count }).subtracting(removed)
            var newSpecs: [(index: Int, spec: RecordSpec)] = []
            for (index, spec) in specs.enumerated() where !removed.contains(index) {
                var edited = spec
                if changed.contains(index) { edited.value += 1 }
                newSpecs.append((index, edited))
            }
            for (offset, spec) in insertions.enumerated() { newSpecs.append((specs.count + offset, spec)) }
            // As in Apple's exports, each type's samples form one consecutive run (the order
            // changes no uuid; see ObjectIdentityAssigner).
            newSpecs.sort { ($0.spec.type, $0.index) < ($1.spec.type, $1.index) }
            let oldSpecs = specs.enumerated().map { (index: $0.offset, spec: $0.element) }
                .sorted { ($0.spec.type, $0.index) < ($1.spec.type, $1.index) }
            let old = directory.appendingPathComponent("old-\(UUID().uuidString).xml")
            let new = directory.appendingPathComponent("new-\(UUID().uuidString).xml")
            try Self.write(oldSpecs.map { $0.spec.object(index: $0.index) }, to: old)
            try Self.write(newSpecs.map { $0.spec.object(index: $0.index) }, to: new)
            let oldObjects = try Self.read(old)
            let newObjects = try Self.read(new)

            var base = IdentitySet()
            for object in oldObjects { base.insert(object.uuid, type: object.objectType.identifier) }
            base.finish()
            let tracker = ChangeTracker(anchor: QueryAnchor(base: base, baseExportDate: nil, queryHash: []), limit: nil)
            var added = Set<ObjectUUID>()
            for object in newObjects { tracker.consume(object) { added.insert($0.uuid) } }
            var deleted = Set<ObjectUUID>()
            _ = try tracker.finish(exportDate: nil) { uuid, _ in deleted.insert(uuid) }

            let expectedDeleted = Set(zip(oldSpecs, oldObjects).filter { removed.contains($0.0.index) || changed.contains($0.0.index) }.map(\.1.uuid))
            let expectedAdded = Set(zip(newSpecs, newObjects).filter { changed.contains($0.0.index) || $0.0.index >= specs.count }.map(\.1.uuid))
            #expect(deleted == expectedDeleted)
            #expect(added == expectedAdded)
        }
    }
}
