import Foundation
import Testing
import ZIPFoundation
import HealthExport
import HealthModel
import HealthQuery
import HealthTestSupport

/// healthport's scanner against libxml2, the reference: on every real sample, generated export
/// and quirk, both parsers must give the same objects, uuids, warnings, errors and positions
/// (`ParserDifferential`), in whatever pieces the document arrives (the same for both: libxml2
/// places some errors in malformed documents by where its pieces end). The fuzz harness
/// `Fuzz/scanner` does the same on inputs no one wrote.
@Suite struct ScannerDifferentialTests {
    static let pieceSizes = [61, 4096, 65_536, ExportReader.chunkSize]
    static let smallPieceSizes = [1, 2, 3, 7, 13, 64, ExportReader.chunkSize]

    static func expectAlike(_ bytes: [UInt8], pieces: [Int] = pieceSizes, salvage: Bool = false, _ what: String) {
        if let difference = ParserDifferential.difference(bytes, chunkSizes: pieces, salvage: salvage) {
            Issue.record("\(what): \(difference)")
        }
    }

    // MARK: Real exports

    /// Every XML file of the real samples (exports, fragments, and files that are no export).
    static var sampleDocuments: [String] { Fixtures.sampleFiles(endingWith: [".xml"]) }

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples"), arguments: sampleDocuments)
    func aRealSampleReadsAlike(_ path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.samples.appendingPathComponent(path)))
        Self.expectAlike(bytes, pieces: bytes.count < 20_000 ? Self.smallPieceSizes : Self.pieceSizes, path)
        Self.expectAlike(bytes, pieces: [4096], salvage: true, path + " (salvage)")
    }

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples")) func theSamplesAreFound() {
        #expect(Self.sampleDocuments.count >= 15, "../shared/samples holds the real samples")
    }

    /// The scanner reads the body of every real export to its end: the samples' multi-line
    /// attributes, single quotes, entities and non-ASCII source names included. (Fragments —
    /// records cut out of an export, without the root — are libxml2's alone.)
    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples")) func theScannerReadsTheRealExportsThemselves() throws {
        var exports = 0
        for path in Self.sampleDocuments {
            let bytes = try [UInt8](Data(contentsOf: Fixtures.samples.appendingPathComponent(path)))
            let summary = try ExportReader(documentBytes: bytes).read(.everything, into: ObjectCollector())
            guard !summary.isFragment else {
                #expect(summary.parsing.scannedElements == 0)
                continue
            }
            #expect(!summary.parsing.fellBack && summary.parsing.scannedElements > 0, "\(path): \(summary.parsing)")
            exports += 1
        }
        #expect(exports >= 8)
    }

    @Test func theBundledSampleExportReadsAlike() throws {
        for zip in ["export.zip", "export-older.zip"] {
            let archive = try Archive(url: Fixtures.sampleData.appendingPathComponent(zip), accessMode: .read)
            let entry = try #require(archive["apple_health_export/export.xml"])
            var document = Data()
            _ = try archive.extract(entry) { document.append($0) }
            let bytes = [UInt8](document)
            Self.expectAlike(bytes, zip)
            let parsing = try #require(ParserDifferential.read(bytes, parser: .scanner, chunkSize: ExportReader.chunkSize).parsing)
            #expect(!parsing.fellBack && parsing.scannedElements > 1000, "\(parsing)")
        }
    }

    // MARK: Generated exports

    static func generated(_ configure: (inout ExportGenerator.Options) -> Void) throws -> [UInt8] {
        var options = ExportGenerator.Options()
        options.days = 12
        configure(&options)
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        _ = ExportGenerator(options: options).writeDocument(to: handle)
        try handle.close()
        return try [UInt8](Data(contentsOf: url))
    }

    @Test(arguments: [
        "forbidden characters", "no forbidden characters", "broken DTD", "dense", "another seed", "negative offset",
    ])
    func aGeneratedExportReadsAlike(_ kind: String) throws {
        let bytes = try Self.generated { options in
            switch kind {
            case "no forbidden characters": options.forbiddenCharacters = false
            case "broken DTD": options.brokenDTD = true
            case "dense": options.density = 3
            case "another seed": options.seed = 20_261_125
            case "negative offset": options.timeZone = "America/Los_Angeles"
            default: break
            }
        }
        Self.expectAlike(bytes, kind)
        let parsing = try #require(ParserDifferential.read(bytes, parser: .scanner, chunkSize: 4096).parsing)
        #expect(!parsing.fellBack, "\(kind): \(String(describing: parsing.handover))")
    }

    // MARK: Quirks, one construct at a time

    static let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-01-01 10:00:00 +0100\"/>\n"
    static let tail = "</HealthData>\n"
    static func record(_ attributes: String = "", children: String? = nil) -> String {
        let open = " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:00:00 +0100\" value=\"72\"\(attributes)"
        guard let children else { return open + "/>\n" }
        return open + ">\n" + children + " </Record>\n"
    }
    static func metadata(_ value: String, key: String = "note") -> String {
        "  <MetadataEntry key=\"\(key)\" value=\"\(value)\"/>\n"
    }

    /// Each a body between the head and the tail (or a whole document, when it starts with `<?`).
    static let quirks: [(String, String)] = [
        ("plain", record() + record()),
        ("metadata", record(children: metadata("a") + metadata("b", key: "k"))),
        ("entities", record(children: metadata("&lt;&lt;HKDevice: 0x1&gt;, name:Watch&gt; &amp; &quot;x&quot; &apos;y&apos;"))),
        ("character references", record(children: metadata("&#183; &#xB7; &#x1F600; &#65;&#x41;&#9;&#10;&#13;"))),
        ("forbidden reference", record(children: metadata("a&#11;b&#0;c&#xFFFE;d&#x110000;"))),
        ("long reference", record(children: metadata("&#000000065;"))),
        ("uppercase X reference", record(children: metadata("&#X41;"))),
        ("reference without digits", record(children: metadata("&#;"))),
        ("unknown entity", record(children: metadata("&nbsp;"))),
        ("ampersand alone", record(children: metadata("a & b"))),
        ("tab and line feed in a value", record(children: metadata("a\tb\nc\n\nd"))),
        ("carriage return in a value", record(children: metadata("a\rb"))),
        ("CRLF lines", record().replacingOccurrences(of: "\n", with: "\r\n") + record()),
        ("control characters", record(children: metadata("soup\u{0B}with\u{01}bread\u{1F}"))),
        ("NUL", record(children: metadata("a\u{00}b"))),
        ("non-ASCII", record(" device=\"Simon’s Apple\u{A0}Watch 🕛 Здоровье 导出\"")),
        ("lone continuation byte", record(children: metadata("a\u{FFFF}b"))),  // replaced with bytes below
        ("single quotes", " <Record type='HKQuantityTypeIdentifierStepCount' sourceName='it\"s' unit='count' startDate='2024-01-01 09:00:00 +0100' endDate='2024-01-01 09:00:00 +0100' value='3'/>\n"),
        ("greater-than in a value", record(" note=\"a > b\"")),
        ("less-than in a value", record(" note=\"a < b\"")),
        ("attributes on several lines", record("\n    note=\"x\"\n    \t other = 'y'  ")),
        ("spaces around =", record(" note = \"x\"")),
        ("no space between attributes", record(" note=\"x\"other=\"y\"")),
        ("repeated attribute", record(" value=\"73\"")),
        ("attribute without value", record(" note")),
        ("unquoted value", record(" note=x")),
        ("namespace declaration", record(" xmlns=\"http://example.com/\"")),
        ("prefixed attribute", record(" xml:lang=\"en\"")),
        ("prefixed element", " <hk:Record type=\"x\"/>\n"),
        ("non-ASCII element name", " <Récord type=\"x\"/>\n"),
        ("non-ASCII attribute name", record(" nöte=\"x\"")),
        ("unknown elements", " <Future kind=\"a\">\n  <Child x=\"1\"/>\n  <Child x=\"2\"><Grandchild/></Child>\n </Future>\n"),
        ("unknown attribute", record(" futureAttribute=\"1\"")),
        ("text in an element", " <Future>some text</Future>\n"),
        ("white space in an unknown element", " <Future>\n   \t\n </Future>\n"),
        ("text at the top level", record() + "stray text\n" + record()),
        ("comment", record() + " <!-- a comment -->\n" + record()),
        ("comment inside", record(children: "  <!-- inside -->\n" + metadata("a"))),
        ("processing instruction", record() + " <?pi data?>\n" + record()),
        ("CDATA", " <Future><![CDATA[ <x> ]]></Future>\n"),
        ("mismatched end tag", record(children: metadata("a")).replacingOccurrences(of: "</Record>", with: "</Workout>")),
        ("end tag with space", record(children: metadata("a")).replacingOccurrences(of: "</Record>", with: "</Record  \n>")),
        ("stray end tag", record() + " </Record>\n" + record()),
        ("bad date", record().replacingOccurrences(of: "2024-01-01 09:00:00 +0100\" endDate", with: "2024-13-01 09:00:00 +0100\" endDate")),
        ("bad number", record().replacingOccurrences(of: "value=\"72\"", with: "value=\"7,2\"")),
        ("missing type", " <Record value=\"1\"/>\n"),
        ("deep nesting", " <Future>" + String(repeating: "<A>", count: 80) + String(repeating: "</A>", count: 80) + "</Future>\n"),
        ("deeper than libxml2 allows", " <Future>" + String(repeating: "<A>", count: 300) + String(repeating: "</A>", count: 300) + "</Future>\n"),
        ("many attributes", " <Future " + (0..<300).map { "a\($0)=\"\($0)\"" }.joined(separator: " ") + "/>\n"),
        ("workout", " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\" sourceName=\"Watch\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:30:00 +0100\">\n  <WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"2024-01-01 09:10:00 +0100\"/>\n  <WorkoutRoute sourceName=\"Watch\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:30:00 +0100\">\n   <FileReference path=\"/workout-routes/route.gpx\"/>\n  </WorkoutRoute>\n </Workout>\n"),
        ("correlation", " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Cuff\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:00:00 +0100\">\n  <Record type=\"HKQuantityTypeIdentifierBloodPressureSystolic\" sourceName=\"Cuff\" unit=\"mmHg\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:00:00 +0100\" value=\"120\"/>\n </Correlation>\n"),
        ("empty root", "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\"/>\n"),
        ("root on several lines", "<?xml version=\"1.0\"?>\n<HealthData\n locale='en_US' note=\"a>b\"\n>\n" + record() + tail),
        ("no root end", "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n" + record()),
        ("junk after the root", head + record() + tail + "junk\n"),
        ("comment after the root", head + record() + tail + "<!-- end -->\n"),
        ("second root", head + record() + tail + "<HealthData/>\n"),
        ("fragment", "<?xml version=\"1.0\"?>\n" + record() + record()),
        ("no declaration", "<HealthData locale=\"en_US\">\n" + record() + tail),
        ("BOM", "\u{FEFF}<?xml version=\"1.0\"?>\n<HealthData>\n" + record() + tail),
        ("record on one line after another", " <Record type=\"x\" value=\"1\"/><Record type=\"x\" value=\"1\"/><Record type=\"x\" value=\"2\"/>\n"),
        ("duplicates", record() + record() + record()),
    ]

    static func document(_ body: String) -> [UInt8] {
        body.hasPrefix("<?") || body.hasPrefix("<HealthData") || body.hasPrefix("\u{FEFF}") ? Array(body.utf8) : Array((head + body + tail).utf8)
    }

    @Test(arguments: quirks.map(\.0))
    func aQuirkReadsAlike(_ name: String) throws {
        let body = try #require(Self.quirks.first { $0.0 == name }).1
        var bytes = Self.document(body)
        if name == "lone continuation byte" {
            // U+FFFF (EF BF BF) is itself repaired; make it a lone continuation byte and an
            // overlong, a surrogate and a cut sequence besides.
            let marker: [UInt8] = [0xEF, 0xBF, 0xBF]
            if let at = bytes.indices.first(where: { bytes[$0...].starts(with: marker) }) {
                bytes.replaceSubrange(at..<(at + 3), with: [0x80, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xE2, 0x82, 0x41, 0xFF])
            }
        }
        Self.expectAlike(bytes, pieces: Self.smallPieceSizes, name)
        Self.expectAlike(bytes, pieces: [5, ExportReader.chunkSize], salvage: true, name + " (salvage)")
    }

    // MARK: Large elements

    /// A workout with a legacy inline route of `points` locations: one element of about
    /// 120 bytes a point.
    static func workout(points: Int) -> String {
        var text = " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\" sourceName=\"Watch\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:30:00 +0100\">\n  <WorkoutRoute sourceName=\"Watch\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:30:00 +0100\">\n"
        text.reserveCapacity(points * 130)
        for k in 0..<points {
            text += "   <Location date=\"2024-01-01 09:00:00 +0100\" latitude=\"48.\(k)\" longitude=\"2.\(k)\" altitude=\"3\" speed=\"2.5\"/>\n"
        }
        return text + "  </WorkoutRoute>\n </Workout>\n"
    }

    /// An element over several chunks is read by the scanner, once (from its checkpoints, not
    /// again from its start with each chunk); one beyond the bound it holds (2 MiB) goes to
    /// libxml2 with the rest of the document. Both read as libxml2 reads them, in linear time
    /// (adding each point copied the route's points before: 97 s for 90,000 points).
    @Test func largeElementsReadAlike() throws {
        let large = Self.document(Self.record() + Self.workout(points: 15_000) + Self.record())
        #expect(large.count > 1 << 20)
        Self.expectAlike(large, pieces: [65_536, ExportReader.chunkSize], "a 1.7 MB workout")
        let read = try ExportReader(documentBytes: large).read(.everything, into: ObjectCollector())
        #expect(!read.parsing.fellBack && read.parsing.scannedElements == 4, "\(read.parsing)")

        let beyond = Self.document(Self.record() + Self.workout(points: 40_000) + Self.record())
        #expect(beyond.count > 4 << 20)
        Self.expectAlike(beyond, pieces: [ExportReader.chunkSize], "a 4.5 MB workout")
        let fallback = try ExportReader(documentBytes: beyond).read(.everything, into: ObjectCollector())
        #expect(fallback.parsing.handover?.reason == "limit" && fallback.parsing.scannedElements == 2, "\(fallback.parsing)")
    }

    // MARK: What the fuzzer found

    /// Every input that once made the scanner differ (`Fuzz/regressions/scanner`), in the
    /// harness's piece sizes and more.
    @Test func theFuzzerFindingsReadAlike() throws {
        let folder = Fixtures.packageRoot.appendingPathComponent("Fuzz/regressions/scanner")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            Self.expectAlike(bytes, pieces: [1, 50, 97, ExportReader.chunkSize], name)
            Self.expectAlike(bytes, pieces: [50], salvage: true, name + " (salvage)")
        }
    }

    /// libxml2 waits for a tag's `>` before parsing it, and where it looks depends on the pieces
    /// it was given: an error in the middle of a document whose last tag is cut can be reported
    /// only when the input ends. It is still that error, not a cut-off document, in any pieces.
    @Test func anErrorReportedWhenTheInputEndsIsACutOnlyAtTheEnd() throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.packageRoot.appendingPathComponent(
            "Fuzz/regressions/scanner/error-reported-at-the-end-is-no-cut.xml")))
        let whole = ParserDifferential.read(bytes, parser: .libxml2, chunkSize: ExportReader.chunkSize)
        #expect(whole.error?.contains(":3:205: Specification mandates value") == true, "\(whole.error ?? "")")
        for pieces in [1, 50, 300] {
            let read = ParserDifferential.read(bytes, parser: .libxml2, chunkSize: pieces)
            #expect(read.error == whole.error, "pieces of \(pieces)")
        }
        // A document that really stops in a tag is still called cut off.
        let cut = Array(Self.document(Self.record()).prefix(200))
        let reading = ParserDifferential.read(cut, parser: .libxml2, chunkSize: 7)
        #expect(reading.error?.contains("cut off") == true, "\(reading.error ?? "")")
    }

    // MARK: Every cut, every bad byte

    /// A document cut after every byte: the same objects before the cut, the same error at the
    /// same line and column (or, with salvage, the same stop).
    @Test func everyCutReadsAlike() throws {
        let bytes = Self.document(
            Self.record(" note=\"é&amp;x\"", children: Self.metadata("a\tb")) + " <Future a=\"1\"><B/></Future>\n" + Self.record())
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[0..<cut])
            if let difference = ParserDifferential.difference(prefix, chunkSizes: [7, ExportReader.chunkSize]) {
                Issue.record("cut at \(cut): \(difference)")
                return
            }
            if let difference = ParserDifferential.difference(prefix, chunkSizes: [ExportReader.chunkSize], salvage: true) {
                Issue.record("cut at \(cut), salvage: \(difference)")
                return
            }
        }
    }

    /// Every byte of a document replaced, in turn, by each byte that matters to a parser.
    @Test func everyBadByteReadsAlike() throws {
        let bytes = Self.document(Self.record(" note=\"é&lt;x\"", children: Self.metadata("a b")) + Self.record())
        let replacements: [UInt8] = [0x0B, 0xFF, 0x80, 0x3C, 0x3E, 0x26, 0x22, 0x27, 0x0D, 0x0A, 0x20, 0x2F, 0x3D, 0x3A, 0x78]
        for position in 0..<bytes.count {
            for replacement in replacements where bytes[position] != replacement {
                var changed = bytes
                changed[position] = replacement
                if let difference = ParserDifferential.difference(changed, chunkSizes: [11, ExportReader.chunkSize]) {
                    Issue.record("byte \(position) as 0x\(String(replacement, radix: 16)): \(difference)")
                    return
                }
            }
        }
    }

    /// Positions reported while the scanner reads are libxml2's: a warning deep into a long
    /// line of non-ASCII text, on the second of two lines, and after a chunk boundary.
    @Test func warningsAreLocatedAsLibXML2LocatesThem() throws {
        let long = String(repeating: "Здоровье ", count: 400)
        let bytes = Self.document(
            " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"\(long)\" unit=\"count/min\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:00:00 +0100\" value=\"72\" futureA=\"1\"/>"
                + " <Future/>\n <Record type=\"HKQuantityTypeIdentifierHeartRate\"\n sourceName=\"x\" value=\"1\" unit=\"count\" futureB=\"1\"\n startDate=\"2024-01-01 09:00:00 +0100\"/>\n")
        let reference = ParserDifferential.read(bytes, parser: .libxml2, chunkSize: ExportReader.chunkSize)
        #expect(reference.warnings.contains { $0.contains(":4:") }, "\(reference.warnings)")
        for pieces in [1000, 4096, 100_000] {
            let scanned = ParserDifferential.read(bytes, parser: .scanner, chunkSize: pieces)
            #expect(ParserDifferential.describe(reference, scanned) == nil, "\(pieces): \(ParserDifferential.describe(reference, scanned) ?? "")")
        }
        // Elements on one line of three-byte characters, cut by chunks of every size from 1 to
        // 64 bytes (so inside a character too): the columns after the cut are libxml2's.
        let line = (0..<12).map { " <Future\($0) name=\"€€€ 𝄞 €€\"/>" }.joined() + " <Record value=\"€€€\"/>\n"
        let cut = Self.document(line)
        let whole = ParserDifferential.read(cut, parser: .libxml2, chunkSize: ExportReader.chunkSize)
        #expect(whole.warnings.contains { $0.contains(":4:") } && whole.error != nil, "\(whole.warnings) \(whole.error ?? "")")
        for pieces in 1...64 {
            let scanned = ParserDifferential.read(cut, parser: .scanner, chunkSize: pieces)
            if let difference = ParserDifferential.describe(whole, scanned) { Issue.record("\(pieces): \(difference)") }
        }
    }
}
