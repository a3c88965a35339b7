import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthTestSupport
import Testing

/// `--format export`: what healthport writes reads back to the very objects it was written
/// from, on every sample, and prints them as Apple does.
@Suite struct ExportWriterTests {

    static func read(_ path: String) throws -> ObjectCollector { try ObjectCollector.read(path) }

    /// Writes objects as export.xml and returns the file.
    static func write(_ collected: ObjectCollector) throws -> URL { try write(header: collected.header, objects: collected.objects) }

    static func write(header: ExportHeader, objects: [HealthObject]) throws -> URL {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        let writer = ExportXMLWriter(file: try AtomicFile(destination: url.path))
        try writer.begin(header)
        for object in objects { try writer.write(object) }
        try writer.finish()
        return url
    }

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples")) func everySampleRoundTripsObjectForObjectWithItsUUIDs() throws {
        var inputs = [
            Fixtures.sampleData.appendingPathComponent("export.zip").path,
            Fixtures.sampleData.appendingPathComponent("export-older.zip").path,
        ]
        for file in Fixtures.sampleFiles(endingWith: [".xml", ".zip"]) where !file.contains("cda") {
            inputs.append(Fixtures.samples.appendingPathComponent(file).path)
        }
        var checked = 0
        var kinds = Set<String>()
        for input in inputs {
            guard let original = try? Self.read(input) else { continue }
            let again = try Self.read(try Self.write(original).path)
            #expect(again.objects.count == original.objects.count, "\(input)")
            for (a, b) in zip(original.objects, again.objects) where a != b {
                Issue.record("\(URL(fileURLWithPath: input).lastPathComponent): \(a.kindName) \(a.uuid) differs after the round trip")
                break
            }
            var expectedHeader = original.header
            expectedHeader.exportVersion = 14
            #expect(again.header == expectedHeader, "\(input)")
            checked += original.objects.count
            kinds.formUnion(original.objects.map(\.kindName))
        }
        #expect(checked > 5000)
        #expect(kinds.isSuperset(of: [
            "quantitySample", "categorySample", "correlation", "workout", "activitySummary", "clinicalRecord", "audiogram",
            "visionPrescription", "unknown",
        ]))
    }

    @Test func generatedExportsOfEverySeedRoundTrip() throws {
        for seed in [UInt64(3), 17, 2024] {
            var options = ExportGenerator.Options()
            options.seed = seed
            options.days = 12
            let root = try Fixtures.temporaryDirectory()
            _ = try ExportGenerator(options: options).writeFolder(at: root, documentName: "export.xml")
            let original = try Self.read(root.path)
            let again = try Self.read(try Self.write(original).path)
            #expect(again.objects == original.objects, "seed \(seed)")
        }
    }

    /// Real exports of a recent iOS are printed back line for line: same elements, attributes,
    /// order and escaping (device addresses aside, which exports print per record).
    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples")) func recentRealExportsArePrintedBackLineForLine() throws {
        let folder = Fixtures.samples.appendingPathComponent("nicolasreyrolle-apple-health-analyzer/exports")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        var compared = 0
        for name in names where name.hasSuffix(".xml") {
            let path = folder.appendingPathComponent(name).path
            let written = try String(contentsOf: try Self.write(try Self.read(path)), encoding: .utf8)
            let body = written.components(separatedBy: "\n").drop { !$0.hasPrefix("<HealthData") }.dropFirst()
                .filter { !$0.isEmpty && $0 != "</HealthData>" }
            let original = try String(contentsOfFile: path, encoding: .utf8)
                .replacingOccurrences(of: #"HKDevice: 0x[0-9a-f]+"#, with: "HKDevice: 0x0", options: .regularExpression)
                // Recent exports print humidity a hundred times too large; the export written
                // holds the percentage HealthKit stores, as older exports print it.
                .replacingOccurrences(of: #"key="HKWeatherHumidity" value="([0-9]+)00 %""#, with: #"key="HKWeatherHumidity" value="$1 %""#, options: .regularExpression)
                .components(separatedBy: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            // The samples are fragments cut from exports: their first and last lines lost their
            // indentation.
            #expect(body.map { $0.trimmingCharacters(in: .whitespaces) } == original.map { $0.trimmingCharacters(in: .whitespaces) }, "\(name)")
            func indentation(_ lines: [String]) -> [Int] { lines.dropFirst().dropLast().map { $0.prefix { $0 == " " }.count } }
            // (One sample was written by hand without indentation.)
            if original.contains(where: { $0.hasPrefix(" ") }) {
                #expect(indentation(Array(body)) == indentation(original), "\(name)")
            }
            compared += body.count
        }
        #expect(compared > 700)
    }

    @Test func everyCharacterIsEscapedAndForbiddenOnesAreRepairedAsTheReaderDoes() throws {
        var sample = SampleAttributes(
            sampleType: ObjectType(recordType: "HKCategoryTypeIdentifierMindfulSession"),
            sourceRevision: SourceRevision(source: Source(name: "A & B <\"Q\"> 'x'\tend\u{1}\u{FFFE}")),
            startDate: ExportTimestamp(secondsSince1970: 1_700_000_000, utcOffsetSeconds: 3600),
            endDate: ExportTimestamp(secondsSince1970: 1_700_000_600, utcOffsetSeconds: 3600),
            metadata: Metadata([MetadataEntry(key: "note", value: .string("line one\nline two\r&#38; literal"))]))
        sample.uuid = ObjectUUID(high: 1, low: 2)
        let url = try Self.write(
            header: ExportHeader(locale: "fr_FR"), objects: [.categorySample(CategorySample(sample: sample, value: .notApplicable))])
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(#"sourceName="A &amp; B &lt;&quot;Q&quot;&gt; 'x'&#9;end \#u{FFFD}""#))
        let again = try Self.read(url.path)
        guard case .categorySample(let read)? = again.objects.first else {
            Issue.record("nothing read back")
            return
        }
        #expect(read.sample.sourceRevision.source.name == "A & B <\"Q\"> 'x'\tend \u{FFFD}")
        #expect(read.sample.metadata.entries.first?.value == .string("line one\nline two\r&#38; literal"))
        #expect(again.header.locale == "fr_FR")
    }
}
