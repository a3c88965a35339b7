import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery
import HealthTestSupport
import PropertyBased
import Testing

@testable import HealthStore

/// A query answered two ways agrees: through the store (SQL prefilter, then Swift) and by
/// evaluating it in Swift on every object of the export.
@Suite struct StorePropertyTests {

    /// Samples of two types with random start offsets (minutes) and durations (some inverted:
    /// end before start), and random values.
    static let samples = zip(Gen.int(in: 0...2000), Gen.int(in: -30...240), Gen.int(in: 40...200), Gen.bool)
        .array(of: 1...40)
    /// A window and a threshold: start and end offsets, strict flags, a value.
    static let query = zip(Gen.int(in: -100...2100), Gen.int(in: 0...600), Gen.bool, Gen.bool, Gen.int(in: 30...210))

    @Test func storeQueriesAgreeWithSwiftEvaluation() async throws {
        let directory = try Fixtures.temporaryDirectory()
        let base: Int64 = 1_700_000_000
        await propertyCheck(count: 40, input: Self.samples, Self.query) { samples, q in
            // An export of these samples (each type in one run, as exports are).
            let objects: [HealthObject] = samples.enumerated().sorted { ($0.element.3 ? 1 : 0, $0.offset) < ($1.element.3 ? 1 : 0, $1.offset) }.map { index, s in
                let start = ExportTimestamp(secondsSince1970: base + Int64(s.0) * 60 + Int64(index), utcOffsetSeconds: 0)
                let end = ExportTimestamp(secondsSince1970: start.secondsSince1970 + Int64(s.1) * 60, utcOffsetSeconds: 0)
                let type = s.3 ? ("HKQuantityTypeIdentifierHeartRate", "count/min") : ("HKQuantityTypeIdentifierRespiratoryRate", "count/min")
                let attributes = SampleAttributes(
                    sampleType: ObjectType(recordType: type.0), sourceRevision: SourceRevision(source: Source(name: "W")),
                    startDate: start, endDate: end)
                return .quantitySample(QuantitySample(sample: attributes, quantity: Quantity(value: ExportNumber(s.2), unit: type.1)))
            }
            let export = directory.appendingPathComponent("export-\(UUID().uuidString).xml")
            let writer = ExportXMLWriter(file: try AtomicFile(destination: export.path))
            try writer.begin(ExportHeader(locale: "en_US"))
            for object in objects { try writer.write(object) }
            try writer.finish()
            let read = try ObjectCollector.read(export.path)
            let storePath = directory.appendingPathComponent("store-\(UUID().uuidString).sqlite").path
            let store = try HealthStore.openForWriting(at: storePath)
            _ = try store.importObjects(from: ExportObjectSource(try ExportReader(.path(export.path)), query: .everything), inputName: "export.xml")

            let windowStart = Double(base + Int64(q.0) * 60)
            var query = ObjectQuery(types: q.4 % 2 == 0 ? ["HKQuantityTypeIdentifierHeartRate"] : nil)
            query.dateWindow = DateWindow(
                start: windowStart, end: windowStart + Double(q.1) * 60, strictStartDate: q.2, strictEndDate: q.3,
                timeZone: TimeZone(identifier: "UTC")!)
            query.predicate = try PredicateParser.parse("quantity >= \"\(q.4) count/min\"", timeZone: TimeZone(identifier: "UTC")!)
            let executor = QueryExecutor(query)
            // What the export's own gated read admits, against the store's (SQL narrows the
            // rows, its gate applies the whole query): the same objects in the same order.
            let fromExport = ObjectCollector()
            _ = try ExportReader(.path(export.path)).read(executor, into: fromExport)
            let expected = fromExport.objects.map(\.uuid)
            #expect(expected.count <= read.objects.count)
            let sink = ObjectCollector()
            try store.read(query: executor, into: sink)
            #expect(sink.objects.map(\.uuid) == expected)
        }
    }
}
