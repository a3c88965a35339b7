import Foundation
import HealthExport
import HealthJSON
import HealthModel
import HealthQuery
import HealthOutput
import HealthTestSupport
import Testing

/// healthport's JSON schema read back: `decode(encode(x)) == x` for every object of every sample,
/// so that the store (and NDJSON input) hold exactly what the export held.
@Suite struct ObjectDecoderTests {

    static var inputs: [String] {
        var paths = [
            Fixtures.sampleData.appendingPathComponent("export.zip").path,
            Fixtures.sampleData.appendingPathComponent("export-older.zip").path,
        ]
        // The real exports of ../shared/samples, when they are here.
        for file in Fixtures.sampleFiles(endingWith: [".xml", ".zip"]) where !file.contains("cda") {
            paths.append(Fixtures.samples.appendingPathComponent(file).path)
        }
        return paths
    }

    /// The header line's platform: a Health Connect export's is written and read back; Apple's
    /// goes unsaid (every NDJSON before the field is Apple's); a name healthport does not know
    /// is a schema error, not Apple's by default.
    @Test func theHeaderKeepsItsPlatform() throws {
        for platform in ExportPlatform.allCases {
            let out = OutputBuffer(descriptor: -1)
            JSONObjectEncoder.writeHeaderLine(ExportHeader(locale: "en_US", platform: platform), to: out)
            let line = String(decoding: out.takeBytes(), as: UTF8.self)
            #expect(line.contains("\"platform\"") == (platform != .appleHealth), "\(line)")
            let decoded = try ObjectDecoder.decodeHeader(try JSONParser.parse(Array(line.utf8.dropLast())))
            #expect(decoded.platform == platform)
        }
        let unknown = #"{"kind":"export","formatVersion":1,"platform":"fitbit"}"#
        #expect(throws: ObjectDecoder.SchemaError.self) { try ObjectDecoder.decodeHeader(try JSONParser.parse(Array(unknown.utf8))) }
    }

    @Test func everyObjectOfEverySampleDecodesToItself() throws {
        let writer = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
        var checked = 0
        for path in Self.inputs {
            let sink = ObjectCollector()
            guard (try? ExportReader(.path(path)).read(.everything, into: sink)) != nil else { continue }
            for object in sink.objects {
                let bytes = try writer.encode(object)
                let decoded = try ObjectDecoder.decode(Array(bytes.dropLast()))
                #expect(decoded == object, "\(URL(fileURLWithPath: path).lastPathComponent): \(object.kindName) \(object.uuid)")
                if decoded != object { return }
                checked += 1
            }
        }
        #expect(checked > 1000)
    }

    @Test func generatedExportWithEveryKindDecodesToItself() throws {
        var options = ExportGenerator.Options()
        options.days = 20
        let root = try Fixtures.temporaryDirectory()
        _ = try ExportGenerator(options: options).writeFolder(at: root, documentName: "export.xml")
        let sink = ObjectCollector()
        _ = try ExportReader(.path(root.path)).read(.everything, into: sink)
        let writer = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
        var kinds = Set<String>()
        for object in sink.objects {
            let decoded = try ObjectDecoder.decode(Array(try writer.encode(object).dropLast()))
            #expect(decoded == object)
            kinds.insert(object.kindName)
        }
        #expect(kinds.isSuperset(of: ["quantitySample", "categorySample", "correlation", "workout", "activitySummary"]))
    }

    /// Found by `Scripts/fuzz.sh json`: metadata keys repeated and interleaved in the JSON text
    /// read in a different order than the same metadata printed and read again.
    ///
    /// Every text here must decode (a text that stopped decoding once skipped its assertions
    /// silently), its metadata is what the decoder's rule gives, written out by hand (a key's
    /// values together at its first place, in text order), and printing and reading again
    /// changes nothing.
    @Test func readingIsAFixedPointOfPrinting() throws {
        let writer = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
        func fixedPoint(_ text: [UInt8]) throws -> HealthObject {
            let object = try ObjectDecoder.decode(text)
            let printed = try writer.encode(object)
            let again = try ObjectDecoder.decode(Array(printed.dropLast()))
            #expect(again == object)
            #expect(try writer.encode(again) == printed, "printing the object read again prints the same bytes")
            return object
        }
        let synthetic = try fixedPoint(Array(#"{"kind":"categorySample","uuid":"00000000-0000-8000-8000-000000000001","sampleType":"HKCategoryTypeIdentifierMindfulSession","startDate":"2024-01-01T00:00:00Z","endDate":"2024-01-01T00:10:00Z","metadata":{"a":1,"b":"x","a":2,"b":["y","z"]}}"#.utf8))
        let entries = synthetic.sampleAttributes?.metadata.entries.map { "\($0.key)=\($0.value.text)" }
        #expect(entries == ["a=1", "a=2", "b=x", "b=y", "b=z"])

        let finding = try fixedPoint(Array(try Data(contentsOf: Self.regressions.appendingPathComponent("interleaved-repeated-metadata-keys"))))
        #expect(finding.uuid.description == "E765C272-14A7-8F48-81D5-5A6DAD56CB67")
        // The first `metadata` member is read; its repeated keys are grouped at their first place.
        #expect(finding.sampleAttributes?.metadata.entries.map(\.key) == [
            "teMKHeyHeate", "quantity", "quantity", "creationDate", "creationDate", "metadartRareationDate",
        ])
        // Any other finding kept in the folder holds too.
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.regressions.path) where name != "interleaved-repeated-metadata-keys" {
            _ = try fixedPoint(Array(try Data(contentsOf: Self.regressions.appendingPathComponent(name))))
        }
    }

    static let regressions = Fixtures.packageRoot.appendingPathComponent("Fuzz/regressions/json")

    @Test func schemaErrorsNameTheMember() {
        #expect(throws: ObjectDecoder.SchemaError.self) { try ObjectDecoder.decode(Array(#"{"kind":"quantitySample"}"#.utf8)) }
        do {
            _ = try ObjectDecoder.decode(Array(#"{"kind":"categorySample","sampleType":"HKCategoryTypeIdentifierMindfulSession","uuid":"x"}"#.utf8))
            Issue.record("accepted a bad uuid")
        } catch {
            #expect("\(error)".contains("uuid"))
        }
        #expect(throws: ObjectDecoder.SchemaError.self) { try ObjectDecoder.decode(Array(#"{"kind":"#.utf8)) }
    }

    @Test func parserRejectsWhatRFC8259Rejects() throws {
        for text in ["01", "1.", "[1,]", "{\"a\":1,}", "\"\\x\"", "\"\u{01}\"", "[", "nul", "\"\\ud800\"", "1 2"] {
            #expect(throws: JSONSyntaxError.self, "\(text)") { try JSONParser.parse(Array(text.utf8)) }
        }
        let deep = String(repeating: "[", count: 10_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(deep.utf8)) }
        let parsed = try JSONParser.parse(Array(#"{"a":[1.50,-2e3,"\u00e9\ud83d\ude00",true,null]}"#.utf8))
        #expect(parsed == .object([("a", .array([.number("1.50"), .number("-2e3"), .string("é😀"), .bool(true), .null]))]))
    }
}
