import Foundation
import HealthJSON
import Testing
import HealthModel
import HealthQuery
import HealthExport
import HealthTestSupport
@testable import HealthOutput

/// Writes into a pipe-free buffer and returns the bytes.
func render(_ body: (OutputBuffer) throws -> Void) rethrows -> String {
    var fds: [Int32] = [0, 0]
    pipe(&fds)
    let buffer = OutputBuffer(descriptor: fds[1], capacity: 1 << 20)
    try body(buffer)
    let bytes = UnsafeRawBufferPointer(start: buffer.reserve(0) - buffer.count, count: buffer.count)
    let text = String(decoding: bytes, as: UTF8.self)
    buffer.discard()
    close(fds[0])
    close(fds[1])
    return text
}

func quantitySample(source: String, value: String, metadata: [MetadataEntry] = []) -> HealthObject {
    let start = ExportTimestamp.parse("2019-06-11 15:00:42 -0700")!
    return .quantitySample(
        QuantitySample(
            sample: SampleAttributes(
                uuid: ObjectUUID(high: 1, low: 2), sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierHeartRate"),
                sourceRevision: SourceRevision(source: Source(name: source), version: "1"), startDate: start, endDate: start,
                metadata: Metadata(metadata)),
            quantity: Quantity(value: ExportNumber.parse(value)!, unit: "count/min")))
}

@Suite struct WriterTests {
    @Test func ndjsonEscapesStringsAndCopiesNumbersAndDates() throws {
        let object = quantitySample(
            source: "Simon’s \"iPhone\"\n\\", value: "77.8002",
            metadata: [
                MetadataEntry(key: "HKWeatherTemperature", value: .interpret("56 degF")),
                MetadataEntry(key: "note", value: .string("a\u{01}b")),
            ])
        let text = render { buffer in
            var json = JSONEmitter(buffer)
            JSONObjectEncoder.write(object, to: &json)
        }
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((parsed["sourceRevision"] as? [String: Any]).flatMap { ($0["source"] as? [String: Any])?["name"] as? String } == "Simon’s \"iPhone\"\n\\")
        #expect(text.contains("\"quantity\":{\"value\":77.8002,\"unit\":\"count/min\"}"))
        #expect(text.contains("\"startDate\":\"2019-06-11T15:00:42-07:00\""))
        #expect(text.contains("\"HKWeatherTemperature\":{\"value\":56,\"unit\":\"degF\"}"))
        #expect(text.contains("a\\u0001b"))
        #expect(parsed["uuid"] as? String == "00000000-0000-0001-0000-000000000002")
    }

    @Test func conflictingMetadataKeysBecomeAnArray() throws {
        let object = quantitySample(
            source: "W", value: "1",
            metadata: [MetadataEntry(key: "k", value: .string("a")), MetadataEntry(key: "k", value: .string("b"))])
        let text = render { buffer in
            var json = JSONEmitter(buffer)
            JSONObjectEncoder.write(object, to: &json)
        }
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((parsed["metadata"] as? [String: Any])?["k"] as? [String] == ["a", "b"])
    }

    /// Among many entries (past the scan's 16, and 20,000 of them), each key is written once
    /// where it first appears, its values as an array in the export's order.
    @Test(arguments: [10, 40, 20_000])
    func repeatedKeysAmongManyEntriesBecomeArraysWhereTheyFirstAppear(count: Int) throws {
        var entries = (0..<count).map { MetadataEntry(key: "k\($0)", value: .string("v\($0)")) }
        entries.append(MetadataEntry(key: "k1", value: .string("again")))
        entries.append(MetadataEntry(key: "k\(count - 1)", value: .string("last")))
        entries.append(MetadataEntry(key: "k1", value: .string("third")))
        let object = quantitySample(source: "W", value: "1", metadata: entries)
        let text = render { buffer in
            var json = JSONEmitter(buffer)
            JSONObjectEncoder.write(object, to: &json)
        }
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let metadata = try #require(parsed["metadata"] as? [String: Any])
        #expect(metadata.count == count)
        #expect(metadata["k0"] as? String == "v0")
        #expect(metadata["k1"] as? [String] == ["v1", "again", "third"])
        #expect(metadata["k\(count - 1)"] as? [String] == ["v\(count - 1)", "last"])
        // Keys in the order they first appear.
        #expect(text.contains("\"metadata\":{\"k0\":\"v0\",\"k1\":[\"v1\",\"again\",\"third\"],\"k2\":\"v2\""))
    }

    @Test func csvQuotesFieldsWithCommasQuotesAndNewlines() {
        let text = render { buffer in
            let scratch = OutputBuffer(descriptor: -1)
            var row = CSVRow(buffer, scratch: scratch)
            row.string("plain")
            row.string("a,b")
            row.string("say \"hi\"")
            row.string("two\nlines")
            row.string(nil)
            row.number(ExportNumber.parse("5.91532e-05"))
            row.end()
        }
        #expect(text == "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",,5.91532e-05\r\n")
    }

    @Test func timestampsFormatWithTheirOwnOffset() throws {
        #expect(try #require(ExportTimestamp.parse("2024-03-31 02:30:00 +0530")).iso8601 == "2024-03-31T02:30:00+05:30")
        #expect(try #require(ExportTimestamp.parse("2024-03-31 02:30:00 -0930")).iso8601 == "2024-03-31T02:30:00-09:30")
    }

    /// Every table's header comes from its rows' column names: distinct, and as many as each
    /// row has fields.
    @Test func everyCSVTableHasDistinctColumnsAndRowsOfItsWidth() throws {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("tables")
        let writer = try CSVWriter(folder: folder.path)
        final class Feed: ObjectSink {
            let writer: CSVWriter
            init(_ writer: CSVWriter) { self.writer = writer }
            func exportDidBegin(_ header: ExportHeader) throws { try writer.begin(header) }
            func consume(_ object: HealthObject) throws { try writer.write(object) }
        }
        _ = try ExportReader(.path(Fixtures.sampleData.appendingPathComponent("export.zip").path)).read(.everything, into: Feed(writer))
        try writer.finish()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.contains("workout-statistics.csv") && files.contains("export.csv") && files.count > 10)
        for file in files {
            let rows = parseCSV(try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
            let header = try #require(rows.first)
            #expect(Set(header).count == header.count, "\(file)")
            #expect(rows.dropFirst().allSatisfy { $0.count == header.count }, "\(file)")
        }
    }
}

@Suite struct CompactJSONTests {
    @Test func keepsKeyOrderNumbersAndStringsAndDropsOnlyLayout() throws {
        let document = "\u{FEFF}{\n  \"resourceType\" : \"Observation\",\n  \"value\" : 1.50,\n  \"note\" : \"a  \\\" } b\\n\",\n  \"id\" : [ 1 , 2 ]\n}\n"
        let compact = try #require(CompactJSON.bytes(of: Data(document.utf8)))
        #expect(String(decoding: compact, as: UTF8.self) == #"{"resourceType":"Observation","value":1.50,"note":"a  \" } b\n","id":[1,2]}"#)
    }

    @Test func refusesWhatIsNotJSON() {
        #expect(CompactJSON.bytes(of: Data("{\"a\": ".utf8)) == nil)
        #expect(CompactJSON.bytes(of: Data([0x7B, 0xFF, 0x7D])) == nil)
        #expect(CompactJSON.bytes(of: Data("not json".utf8)) == nil)
    }
}
