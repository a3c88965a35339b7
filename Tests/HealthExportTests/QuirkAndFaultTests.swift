import Foundation
import Testing
import HealthExport
import HealthModel
import HealthTestSupport

@Suite struct QuirkAndFaultTests {
    static let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-01-01 10:00:00 +0100\"/>\n"
    static func record(_ extra: String = "", value: String = "72", start: String = "2024-01-01 09:00:00 +0100") -> String {
        " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" startDate=\"\(start)\" endDate=\"2024-01-01 09:00:00 +0100\" value=\"\(value)\"\(extra)/>\n"
    }

    func expectError(_ xml: String, _ code: ExportError.Code, line: Int? = nil) throws {
        do {
            _ = try read(xml: xml)
            Issue.record("expected an error")
        } catch let error as ExportError {
            #expect(error.code == code, "\(error)")
            if let line { #expect(error.location?.line == line, "\(error)") }
            #expect(error.location?.file.hasSuffix("export.xml") == true)
        }
    }

    @Test func aBadDateIsALocatedError() throws {
        try expectError(Self.head + Self.record() + Self.record(start: "2023-13-01 08:00:00 +0100") + "</HealthData>\n", .invalidAttribute, line: 5)
    }

    @Test func aBadNumberIsALocatedError() throws {
        try expectError(Self.head + Self.record(value: "7,2") + "</HealthData>\n", .invalidAttribute, line: 4)
    }

    @Test func truncatedXMLIsAnError() throws {
        let full = Self.head + Self.record() + Self.record() + "</HealthData>\n"
        try expectError(String(full.prefix(full.count - 40)), .malformedXML)
    }

    @Test func mismatchedTagsAreAnErrorWithPosition() throws {
        try expectError(Self.head + " <Record type=\"x\" startDate=\"2024-01-01 09:00:00 +0100\">\n </Workout>\n</HealthData>\n", .malformedXML, line: 5)
    }

    @Test func aFileThatIsNotAnExportIsRefused() throws {
        try expectError("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"></gpx>\n", .notAnExport)
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: url)
        #expect(throws: ExportError.self) { try ExportReader(.path(url.path)) }
        #expect(throws: ExportError.self) { try ExportReader(.path("/nonexistent/export.zip")) }
    }

    @Test func forbiddenCharactersAreReplacedNotTruncated() throws {
        let xml = Self.head + " <Record type=\"HKQuantityTypeIdentifierDietaryProtein\" sourceName=\"App\" unit=\"g\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:00:00 +0100\" value=\"2\">\n  <MetadataEntry key=\"HKFoodType\" value=\"Soup\u{0B}with bread &#11; \u{FFFE}\"/>\n </Record>\n</HealthData>\n"
        let result = try read(xml: xml)
        #expect(result.summary.replacedByteCount == 3)
        guard case .quantitySample(let q)? = result.sink.objects.first else {
            Issue.record("no sample")
            return
        }
        #expect(q.sample.metadata["HKFoodType"]?.text == "Soup with bread ?#11; \u{FFFD}")
    }

    @Test func invalidUTF8IsRepairedAtTheSameLength() throws {
        var bytes = Array((Self.head + " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"W").utf8)
        bytes += [0xC3, 0x28, 0xED, 0xA0, 0x80]
        bytes += Array(("\" unit=\"count/min\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:00:00 +0100\" value=\"1\"/>\n</HealthData>\n").utf8)
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        try Data(bytes).write(to: url)
        let result = try read(.path(url.path))
        #expect(result.summary.replacedByteCount == 2)
        #expect(result.sink.objects.first?.sampleAttributes?.sourceRevision.source.name == "W?(\u{FFFD}")
    }

    @Test func externalEntitiesAreNeverLoaded() throws {
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [<!ENTITY secret SYSTEM \"file:///etc/passwd\">]>\n<HealthData locale=\"en\">\n <ExportDate value=\"&secret;\"/>\n</HealthData>\n"
        do {
            _ = try read(xml: xml)
            Issue.record("expected an error")
        } catch let error as ExportError {
            #expect(error.code == .malformedXML)
            #expect(!error.message.contains("root:"))
        }
    }

    @Test func billionLaughsEndsQuicklyWithAnError() throws {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ENTITY a \"aaaaaaaaaa\">\n"
        for i in 1...9 { xml += "<!ENTITY \(Character(UnicodeScalar(97 + i)!)) \"" + String(repeating: "&\(Character(UnicodeScalar(96 + i)!));", count: 10) + "\">\n" }
        xml += "]>\n<HealthData locale=\"en\"><ExportDate value=\"&j;\"/></HealthData>\n"
        #expect(throws: ExportError.self) { _ = try read(xml: xml) }
    }

    @Test func aFragmentWithoutRootIsReadWithAWarning() throws {
        let result = try read(xml: Self.record() + Self.record(value: "80"))
        #expect(result.summary.isFragment)
        #expect(result.sink.objects.count == 2)
    }

    @Test func categoryValuesWithoutValueAreNotApplicable() throws {
        let xml = Self.head + " <Record type=\"HKCategoryTypeIdentifierMindfulSession\" sourceName=\"App\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:10:00 +0100\"/>\n</HealthData>\n"
        guard case .categorySample(let c)? = try read(xml: xml).sink.objects.first else {
            Issue.record("no sample")
            return
        }
        #expect(c.value == .notApplicable)
    }

    @Test func iOS8CompactDatesAndLegacySourceAreRead() throws {
        let xml = "<HealthData locale=\"en_US\">\n <ExportDate value=\"20140114084347-0800\"/>\n <Record type=\"HKQuantityTypeIdentifierStepCount\" source=\"AppleHealthDevice\" unit=\"count\" startDate=\"20140106084300-0800\" endDate=\"20140107084300-0800\" value=\"2309\" recordCount=\"191\"/>\n</HealthData>\n"
        guard case .quantitySample(let q)? = try read(xml: xml).sink.objects.first else {
            Issue.record("no sample")
            return
        }
        #expect(q.count == 191)
        #expect(q.sample.sourceRevision.source.name == "AppleHealthDevice")
        #expect(q.sample.startDate.iso8601 == "2014-01-06T08:43:00-08:00")
    }
}
