import Foundation
import HealthExport
import HealthModel
import HealthQuery
import HealthTestSupport
import Testing
import ZIPFoundation

/// `ExportReader.readInParallel` gives what `read` gives — objects, uuids, header, warnings and
/// errors with their locations — whatever the chunks, and takes the path it claims to take.
@Suite struct ParallelReadTests {
    struct Outcome {
        var objects: [HealthObject]
        var header: ExportHeader?
        var summary: ExportReader.Summary?
        var warnings: [String]
        var error: String?
    }

    static func sequential(_ path: String) -> Outcome {
        let sink = CollectingSink()
        var warnings: [String] = []
        do {
            let summary = try ExportReader(.path(path)).read(.everything, into: sink, warning: { warnings.append($0.description) })
            return Outcome(objects: sink.objects, header: sink.header, summary: summary, warnings: warnings)
        } catch {
            return Outcome(objects: sink.objects, header: sink.header, warnings: warnings, error: "\(error)")
        }
    }

    static func parallel(_ path: String, chunkBytes: Int) -> Outcome {
        let sink = CollectingSink()
        var warnings: [String] = []
        do {
            let summary = try ExportReader(.path(path)).readInParallel(
                .everything, into: sink, jobs: 2, makeChunkSink: { CollectingSink() }, merge: { chunk, _ in sink.objects += chunk.objects },
                warning: { warnings.append($0.description) }, chunkBytes: chunkBytes)
            return Outcome(objects: sink.objects, header: sink.header, summary: summary, warnings: warnings)
        } catch {
            return Outcome(objects: sink.objects, header: sink.header, warnings: warnings, error: "\(error)")
        }
    }

    static func expectSame(_ a: Outcome, _ b: Outcome, _ comment: Comment) {
        #expect(a.objects.count == b.objects.count, comment)
        #expect(a.objects == b.objects, comment)
        #expect(a.header == b.header, comment)
        #expect(a.warnings == b.warnings, comment)
        #expect(a.error == b.error, comment)
        #expect(a.summary?.objectCount == b.summary?.objectCount, comment)
        #expect(a.summary?.replacedByteCount == b.summary?.replacedByteCount, comment)
        #expect(a.summary?.passedThrough == b.summary?.passedThrough, comment)
        #expect(a.summary?.header == b.summary?.header, comment)
    }

    static func write(_ text: String) throws -> String {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The same document as the Health app ships it: `apple_health_export/export.xml` in a zip.
    static func zipped(_ path: String) throws -> String {
        let url = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("export.zip")
        let archive = try Archive(url: url, accessMode: .create)
        try archive.addEntry(with: "apple_health_export/export.xml", fileURL: URL(fileURLWithPath: path), compressionMethod: .deflate)
        return url.path
    }

    static let prolog = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        ]>
        <HealthData locale="en_US">
         <ExportDate value="2024-03-01 09:00:00 +0100"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1985-06-15" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>

        """

    /// An export file: the prolog, `count` heart rates, then `tail` before the root's end.
    static func heartRates(_ count: Int, then tail: String) throws -> String {
        var body = ""
        for i in 0..<count { body += heartRate(i) }
        return try write(prolog + body + tail + "</HealthData>\n")
    }

    static func heartRate(_ i: Int, value: Int? = nil) -> String {
        let minute = String(format: "%02d", i % 60)
        let hour = String(format: "%02d", (i / 60) % 24)
        return """
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" creationDate="2024-02-01 \(hour):\(minute):05 +0100" startDate="2024-02-01 \(hour):\(minute):00 +0100" endDate="2024-02-01 \(hour):\(minute):00 +0100" value="\(value ?? (60 + i % 40))">
              <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="\(i % 3)"/>
             </Record>

            """
    }

    static func steps(_ i: Int) -> String {
        " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" startDate=\"2024-02-01 10:\(String(format: "%02d", i % 60)):00 +0100\" endDate=\"2024-02-01 10:\(String(format: "%02d", i % 60)):30 +0100\" value=\"\(i)\"/>\n"
    }

    @Test func generatedExportsReadTheSameInChunksOfEverySize() throws {
        for seed in [UInt64(5), 6] {
            var options = ExportGenerator.Options()
            options.seed = seed
            options.days = 30
            let url = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
            #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
            let handle = try FileHandle(forWritingTo: url)
            let manifest = ExportGenerator(options: options).writeDocument(to: handle)
            try handle.close()
            let expected = Self.sequential(url.path)
            #expect(expected.error == nil)
            #expect(expected.objects.count == manifest.objectCount)
            for chunkBytes in [4096, 50_000, 1 << 20] {
                let outcome = Self.parallel(url.path, chunkBytes: chunkBytes)
                Self.expectSame(expected, outcome, "seed \(seed), \(chunkBytes)-byte chunks")
                let statistics = try #require(outcome.summary?.parallel)
                #expect(statistics.sequentialFrom == nil, "seed \(seed), \(chunkBytes)-byte chunks")
                if chunkBytes == 4096 { #expect(statistics.merged > 100) }
            }
        }
    }

    /// An exact duplicate of an object far back in the same run: the chunk holding it cannot
    /// number it alone, so it is read again on the merging thread, and the copy still gets the
    /// sequential read's uuid (the original's, counted once more).
    @Test func aDuplicateInALaterChunkIsReadAgainAndNumberedAsInOrder() throws {
        var body = ""
        for i in 0..<200 { body += Self.heartRate(i) }
        body += Self.heartRate(3)
        for i in 0..<100 { body += Self.steps(i) }
        let xml = try Self.write(Self.prolog + body + "</HealthData>\n")
        for path in [xml, try Self.zipped(xml)] {
            let expected = Self.sequential(path)
            #expect(expected.objects.count == 301)
            #expect(Set(expected.objects.map(\.uuid)).count == 301)
            let outcome = Self.parallel(path, chunkBytes: 4096)
            Self.expectSame(expected, outcome, "duplicate, \(path)")
            let statistics = try #require(outcome.summary?.parallel)
            #expect(statistics.reread >= 1, "\(statistics)")
            #expect(statistics.sequentialFrom == nil)
        }
    }

    /// A type that comes back after its run ended (never in Apple's exports) with copies of
    /// objects of its first run: the copies are numbered after the originals, which only the
    /// chunks before can tell, so their chunk is read again.
    @Test func aRunThatComesBackIsNumberedAsInOrder() throws {
        var body = ""
        for i in 0..<80 { body += Self.heartRate(i) }
        for i in 0..<80 { body += Self.steps(i) }
        for i in 0..<80 { body += Self.heartRate(i) }
        let path = try Self.write(Self.prolog + body + "</HealthData>\n")
        let expected = Self.sequential(path)
        #expect(Set(expected.objects.map(\.uuid)).count == 240)
        let outcome = Self.parallel(path, chunkBytes: 4096)
        Self.expectSame(expected, outcome, "copies in a later run")
        #expect((outcome.summary?.parallel?.reread ?? 0) >= 1)
    }

    /// A type that comes back with new objects needs nothing read again: its uuids do not
    /// depend on where its run was cut.
    @Test func aRunThatComesBackWithNewObjectsIsNotReadAgain() throws {
        var body = ""
        for i in 0..<80 { body += Self.heartRate(i) }
        for i in 0..<80 { body += Self.steps(i) }
        for i in 80..<160 { body += Self.heartRate(i) }
        let path = try Self.write(Self.prolog + body + "</HealthData>\n")
        let expected = Self.sequential(path)
        let outcome = Self.parallel(path, chunkBytes: 4096)
        Self.expectSame(expected, outcome, "new objects in a later run")
        #expect(outcome.summary?.parallel?.reread == 0)
    }

    /// A cut that falls inside an element (a nested element indented like a top-level one, in
    /// an edited file) is caught, and the read goes on sequentially from that chunk.
    @Test func aCutInsideAnElementTurnsTheReadSequential() throws {
        var body = ""
        for i in 0..<60 { body += Self.heartRate(i) }
        body += " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\" sourceName=\"Watch\" startDate=\"2024-02-01 11:00:00 +0100\" endDate=\"2024-02-01 11:30:00 +0100\">\n"
        for i in 0..<60 { body += " <MetadataEntry key=\"Lap\(i)\" value=\"\(i)\"/>\n" }
        body += " </Workout>\n"
        for i in 0..<60 { body += Self.steps(i) }
        let xml = try Self.write(Self.prolog + body + "</HealthData>\n")
        for path in [xml, try Self.zipped(xml)] {
            let expected = Self.sequential(path)
            #expect(expected.error == nil)
            let outcome = Self.parallel(path, chunkBytes: 4096)
            Self.expectSame(expected, outcome, "cut inside, \(path)")
            #expect(outcome.summary?.parallel?.sequentialFrom != nil)
        }
    }

    /// A bad element in the middle: the same objects before it, the same located error.
    @Test func anErrorHasTheSequentialReadsLocationAndObjectsBeforeIt() throws {
        var body = ""
        for i in 0..<150 { body += Self.heartRate(i) }
        body += " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" startDate=\"yesterday\" endDate=\"2024-02-01 10:00:00 +0100\" value=\"70\"/>\n"
        for i in 0..<150 { body += Self.heartRate(i + 200) }
        let xml = try Self.write(Self.prolog + body + "</HealthData>\n")
        for path in [xml, try Self.zipped(xml)] {
            let expected = Self.sequential(path)
            #expect(expected.error?.contains(":\(7 + 150 * 3 + 1):") == true, "\(expected.error ?? "")")
            Self.expectSame(expected, Self.parallel(path, chunkBytes: 4096), "error, \(path)")
        }
        // Not well-formed XML further on: libxml2's error, located alike.
        let broken = try Self.write(Self.prolog + body.replacingOccurrences(of: "yesterday", with: "2024-02-01 10:00:00 +0100") + " <Record type=\"x\" <\n</HealthData>\n")
        let brokenExpected = Self.sequential(broken)
        #expect(brokenExpected.error != nil)
        Self.expectSame(brokenExpected, Self.parallel(broken, chunkBytes: 4096), "malformed")
    }

    /// Warnings are reported once per kind, with the file's line, as in a sequential read.
    @Test func warningsAreReportedOnceWithTheFilesLines() throws {
        var body = ""
        for i in 0..<100 { body += Self.heartRate(i) }
        body += " <Record type=\"HKQuantityTypeIdentifierMadeUp\" sourceName=\"Watch\" startDate=\"2024-02-01 10:00:00 +0100\" endDate=\"2024-02-01 10:00:00 +0100\" value=\"1\" colour=\"red\"/>\n"
        for i in 0..<100 { body += Self.steps(i) }
        body += " <Record type=\"HKQuantityTypeIdentifierMadeUp\" sourceName=\"Watch\" startDate=\"2024-02-01 11:00:00 +0100\" endDate=\"2024-02-01 11:00:00 +0100\" value=\"2\" colour=\"blue\"/>\n"
        body += " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Watch\" startDate=\"2024-02-01 11:00:00 +0100\" endDate=\"2024-02-01 11:00:00 +0100\" value=\"2\" unit=\"count\">\u{0B}</Record>\n"
        let path = try Self.write(Self.prolog + body + "</HealthData>\n")
        let expected = Self.sequential(path)
        #expect(!expected.warnings.isEmpty)
        let outcome = Self.parallel(path, chunkBytes: 4096)
        Self.expectSame(expected, outcome, "warnings")
        #expect(outcome.summary?.warnings.map(\.count) == expected.summary?.warnings.map(\.count))
    }

    /// A DTD longer than a chunk: the first chunk would hold nothing but the prolog, and its
    /// header would lack the export date. The first chunk is never cut before `ExportDate` or
    /// `Me`, so the header is whole.
    @Test func theHeaderIsWholeWhenTheDTDIsLongerThanAChunk() throws {
        var dtd = ""
        for i in 0..<200 { dtd += "<!ATTLIST Record attribute\(i) CDATA #IMPLIED>\n" }
        let prolog = Self.prolog.replacingOccurrences(of: "]>", with: dtd + "]>")
        var body = ""
        for i in 0..<100 { body += Self.heartRate(i) }
        let xml = try Self.write(prolog + body + "</HealthData>\n")
        for path in [xml, try Self.zipped(xml)] {
            let expected = Self.sequential(path)
            #expect(expected.header?.exportDate != nil)
            let outcome = Self.parallel(path, chunkBytes: 4096)
            Self.expectSame(expected, outcome, "long DTD, \(path)")
        }
    }

    /// The same, with bytes XML forbids between `ExportDate`'s or `Me`'s name and its first
    /// attribute: the pre-filter makes them spaces, so the parser reads those elements as
    /// usual, and the splitter must see them too (it took `<ExportDate\0` for another element,
    /// cut the first chunk before it, and the sink got a header without the date; found by the
    /// export harness after 251,699 runs).
    @Test func theHeaderIsWholeWhenForbiddenBytesFollowItsNames() throws {
        var dtd = ""
        for i in 0..<200 { dtd += "<!ATTLIST Record attribute\(i) CDATA #IMPLIED>\n" }
        let prolog = Self.prolog
            .replacingOccurrences(of: "]>", with: dtd + "]>")
            .replacingOccurrences(of: "<ExportDate ", with: "<ExportDate\u{0}\u{1} ")
            .replacingOccurrences(of: "<Me ", with: "<Me\u{1F}")
        var body = ""
        for i in 0..<100 { body += Self.heartRate(i) }
        let xml = try Self.write(prolog + body + "</HealthData>\n")
        for path in [xml, try Self.zipped(xml)] {
            let expected = Self.sequential(path)
            #expect(expected.header?.exportDate != nil && expected.header?.characteristics?.dateOfBirth != nil)
            #expect(expected.summary?.replacedByteCount == 3)
            Self.expectSame(expected, Self.parallel(path, chunkBytes: 4096), "forbidden bytes after the header's names, \(path)")
        }
    }

    // Found by the export fuzzer's differential check (Fuzz/regressions/export/parallel-*).

    /// An export that breaks before its first object never delivers a header, in parallel too
    /// (the first chunk, holding only the prolog and the header elements, parses fine alone).
    @Test func aBreakBeforeTheFirstObjectDeliversNoHeader() throws {
        var dtd = ""
        for i in 0..<200 { dtd += "<!ATTLIST Record attribute\(i) CDATA #IMPLIED>\n" }
        let prolog = Self.prolog.replacingOccurrences(of: "]>", with: dtd + "]>")
        let xml = try Self.write(prolog + " <Record type=\"HKQuantityTypeIdentifierHeartRate\" <\n</HealthData>\n")
        let expected = Self.sequential(xml)
        #expect(expected.header == nil && expected.error != nil)
        Self.expectSame(expected, Self.parallel(xml, chunkBytes: 4096), "break before the first object")
    }

    /// libxml2 writes line numbers into some messages (`… MetadataEntry line 134 and Record`):
    /// they are the file's, not the chunk's.
    @Test func linesInsideLibxml2sMessagesAreTheFiles() throws {
        let xml = try Self.heartRates(150, then: " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" startDate=\"2024-02-01 10:00:00 +0100\" endDate=\"2024-02-01 10:00:00 +0100\" value=\"70\">\n  <MetadataEntry key=\"a\" value=\"b\">\n </Record>\n")
        let expected = Self.sequential(xml)
        #expect(expected.error?.contains("line \(7 + 150 * 3 + 2)") == true, "\(expected.error ?? "")")
        Self.expectSame(expected, Self.parallel(xml, chunkBytes: 4096), "line in message")
    }

    /// Every input on which the export fuzzer's differential check once found a parallel read
    /// differing (`Fuzz/regressions/export/parallel-*`), read both ways as the harness reads it.
    @Test func theFuzzerFindingsReadAlikeInParallel() throws {
        let folder = Fixtures.packageRoot.appendingPathComponent("Fuzz/regressions/export")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("parallel-") }.sorted()
        #expect(names.count >= 5)
        for name in names {
            let path = folder.appendingPathComponent(name).path
            Self.expectSame(Self.sequential(path), Self.parallel(path, chunkBytes: 4096), Comment(rawValue: name))
        }
    }

    /// An end tag without its start, deep in the file, names the root's start tag in libxml2's
    /// message (`… HealthData line 5 and Record`): that line is the prolog's, the file's own,
    /// and stays as it is when a parallel read reads on after a copy of the prolog.
    @Test func theRootsLineInLibxml2sMessagesIsTheFiles() throws {
        let xml = try Self.heartRates(150, then: " </Record>\n")
        let expected = Self.sequential(xml)
        let rootLine = Self.prolog.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("<HealthData") }.map { $0 + 1 }
        #expect(rootLine != nil && expected.error?.contains("HealthData line \(rootLine ?? 0) and Record") == true, "\(expected.error ?? "")")
        Self.expectSame(expected, Self.parallel(xml, chunkBytes: 4096), "the root's line in a message")
    }

    /// A zip whose deflate data is damaged partway: the objects before the damage, then the
    /// same error, as in a sequential read.
    @Test func aDamagedZipFailsAfterTheSameObjects() throws {
        var options = ExportGenerator.Options()
        options.days = 10
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        _ = ExportGenerator(options: options).writeDocument(to: handle)
        try handle.close()
        let zip = try Self.zipped(url.path)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: zip))
        for i in (bytes.count * 2 / 3)..<(bytes.count * 2 / 3 + 64) { bytes[i] ^= 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: zip))
        let expected = Self.sequential(zip)
        #expect(expected.error != nil && !expected.objects.isEmpty)
        for chunkBytes in [4096, 65536] {
            Self.expectSame(expected, Self.parallel(zip, chunkBytes: chunkBytes), "damaged zip, \(chunkBytes)")
        }
    }
}
