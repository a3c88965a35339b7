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

    @Test
    func aMissingRouteFileIsReportedNotFatal() throws {
        let result = try healthport("info", Fixtures.samples.appendingPathComponent("dogsheep-healthkit-to-sqlite/zip_contents").path, "--format", "json")
        #expect(result.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let side = try #require(report["sideFiles"] as? [String: Any])
        #expect(side["workoutRoutes"] as? Int == 1)
        #expect((side["missingRouteFiles"] as? [Any])?.isEmpty == true)
    }
}
