import Foundation
import Testing
import HealthTestSupport

@Suite struct InfoCommandTests {
    @Test func jsonReportsCountsSideFilesAndQuirks() throws {
        let result = try healthport("info", sampleZip, "--format", "json")
        #expect(result.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let manifest = try sampleManifest()
        #expect(report["objectCount"] as? Int == manifest.objectCount)
        #expect(report["exportVersion"] as? Int == 14)
        #expect(report["documentPath"] as? String == "apple_health_export/export.xml")
        let types = try #require(report["types"] as? [[String: Any]])
        var counts: [String: Int] = [:]
        for entry in types { counts[entry["type"] as! String] = entry["count"] as? Int }
        #expect(counts == manifest.objectsByType)
        let side = try #require(report["sideFiles"] as? [String: Any])
        #expect(side["workoutRoutes"] as? Int == manifest.routeFiles.count)
        #expect(side["clinicalRecords"] as? Int == manifest.clinicalFiles.count)
        #expect(side["electrocardiograms"] as? Int == 1)
        #expect(side["cdaDocument"] as? Bool == true)
        #expect((side["missingRouteFiles"] as? [Any])?.isEmpty == true)
        #expect((report["passedThrough"] as? [String: Int])?["FutureElement"] == 1)
        #expect(report["replacedByteCount"] as? Int == manifest.forbiddenBytes)
        #expect((report["warnings"] as? [Any])?.isEmpty == false)
    }

    @Test func textIsATableOnStandardOutput() throws {
        let result = try healthport("info", sampleZip)
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("HKQuantityTypeIdentifierHeartRate"))
        #expect(result.stdoutText.contains("Export version: 14"))
    }

    /// `--parser` chooses the parser, and info says which read the body and where libxml2 took
    /// over: nowhere in the sample; at the first carriage return of a CRLF file.
    @Test func infoSaysWhichParserReadTheBody() throws {
        func parser(_ arguments: String...) throws -> [String: Any] {
            let result = try healthport(["info", "--format", "json", "-q"] + arguments)
            #expect(result.status == 0, "\(result.stderrText)")
            let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            return try #require(report["parser"] as? [String: Any])
        }
        let scanner = try parser(sampleZip)
        #expect(scanner["name"] as? String == "scanner")
        #expect((scanner["scannedElements"] as? Int ?? 0) > 5000)
        #expect(scanner["libxml2From"] == nil)
        let libxml2 = try parser(sampleZip, "--parser", "libxml2")
        #expect(libxml2["name"] as? String == "libxml2" && libxml2["scannedElements"] == nil)
        let crlf = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        let record = " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"x\" unit=\"count\" value=\"1\" startDate=\"2024-01-01 00:00:00 +0000\" endDate=\"2024-01-01 00:00:00 +0000\"/>\r\n"
        try Data(("<?xml version=\"1.0\"?>\n<HealthData>\n" + record + record + "</HealthData>\n").utf8).write(to: crlf)
        let handover = try #require(try parser(crlf.path)["libxml2From"] as? [String: Any])
        #expect(handover["line"] as? Int == 3 && handover["reason"] as? String == "text", "\(handover)")
        let text = try healthport("info", crlf.path, "-q").stdoutText
        #expect(text.contains("Parser:         scanner, then libxml2 from line 3 (text, or white space such as a carriage return)"), "\(text)")
        let refused = try healthport("info", sampleZip, "--parser", "expat")
        #expect(refused.status == 64)
    }

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples"))
    func aMissingRouteFileIsReportedNotFatal() throws {
        let result = try healthport("info", Fixtures.samples.appendingPathComponent("dogsheep-healthkit-to-sqlite/zip_contents").path, "--format", "json")
        #expect(result.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let side = try #require(report["sideFiles"] as? [String: Any])
        #expect(side["workoutRoutes"] as? Int == 1)
        #expect((side["missingRouteFiles"] as? [Any])?.isEmpty == true)
    }

    /// `info --store` names what the store's file is made by: its layout (the last migration,
    /// `v6`) and the summary rules its tables were made by (2), in text and in JSON.
    @Test func theStoresLayoutAndRulesArePrinted() throws {
        let store = try Fixtures.temporaryDirectory().appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", sampleZip, "--store", store, "-q").status == 0)
        let text = try healthport("info", "--store", store, "-q")
        #expect(text.status == 0)
        #expect(text.stdoutText.contains("\nStore layout:   v7, summary rules 2\n"), "\(text.stdoutText.prefix(300))")
        let json = try JSONSerialization.jsonObject(with: try healthport("info", "--store", store, "--format", "json", "-q").stdout) as? [String: Any]
        let format = json?["store"] as? [String: Any]
        #expect(format?["layout"] as? Int == 7 && format?["summaryRules"] as? Int == 2, "\(String(describing: format))")
        // An export has no layout.
        let export = try JSONSerialization.jsonObject(with: try healthport("info", sampleZip, "--format", "json", "-q").stdout) as? [String: Any]
        #expect(export != nil && export?["store"] == nil)
    }
}
