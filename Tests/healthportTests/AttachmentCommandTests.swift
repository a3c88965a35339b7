import Foundation
import Testing
import HealthExport
import HealthModel
import HealthTestSupport

@Suite struct RoutesCommandTests {
    /// The `<trkpt>` count and the first and last point's latitude of a GPX file, read as text.
    static func expected(_ gpx: String) -> (count: Int, firstLatitude: Double, lastLatitude: Double) {
        let latitudes = gpx.components(separatedBy: "lat=").dropFirst().compactMap { part -> Double? in
            let quote = part.first!
            return Double(part.dropFirst().prefix(while: { $0 != quote }))
        }
        return (gpx.components(separatedBy: "<trkpt").count - 1, latitudes.first ?? .nan, latitudes.last ?? .nan)
    }

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples"))
    func everyRouteOfTheRealSamplesIsJoinedWithItsPoints() throws {
        let exports = Fixtures.samples.appendingPathComponent("nicolasreyrolle-apple-health-analyzer/exports")
        for (file, routes) in [("workout_running_multiple_parts.xml", 17), ("workout_running.xml", 1), ("workout_walking.xml", 1)] {
            let result = try healthport("routes", exports.appendingPathComponent(file).path, "-q")
            #expect(result.status == 0)
            let collection = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            let features = try #require(collection["features"] as? [[String: Any]])
            #expect(features.count == routes, "\(file)")
            for feature in features {
                let properties = feature["properties"] as! [String: Any]
                let reference = properties["fileReference"] as! String
                let gpx = try String(contentsOf: exports.appendingPathComponent(String(reference.dropFirst())), encoding: .utf8)
                let expected = Self.expected(gpx)
                let coordinates = (feature["geometry"] as! [String: Any])["coordinates"] as! [[Double]]
                #expect(coordinates.count == expected.count, "\(reference)")
                #expect(properties["pointCount"] as? Int == expected.count)
                #expect(coordinates.first?[1] == expected.firstLatitude && coordinates.last?[1] == expected.lastLatitude, "\(reference)")
            }
        }
        // A missing route file is a warning, not a failure.
        let cycling = try healthport("routes", exports.appendingPathComponent("workout_cycling.xml").path)
        #expect(cycling.status == 0)
        #expect(cycling.stderrText.contains("missing"))
        // The inline routes of an older export.
        let inline = try healthport("routes", Fixtures.samples.appendingPathComponent("dogsheep-healthkit-to-sqlite/export.xml").path, "-q")
        let collection = try #require(try JSONSerialization.jsonObject(with: inline.stdout) as? [String: Any])
        #expect((collection["features"] as? [Any])?.isEmpty == false)
    }

    @Test func generatedRoutesAsGeoJSONCSVAndGPXAndInline() throws {
        let manifest = try sampleManifest()
        let geojson = try healthport("routes", sampleZip, "-q")
        let collection = try #require(try JSONSerialization.jsonObject(with: geojson.stdout) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect(features.count == manifest.routeFiles.count)
        #expect(features.allSatisfy { (($0["geometry"] as! [String: Any])["coordinates"] as! [Any]).count == 5 })
        let folder = try Fixtures.temporaryDirectory()
        #expect(try healthport("routes", sampleZip, "--format", "csv", "--output", folder.appendingPathComponent("csv").path, "-q").status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("csv").path).count == manifest.routeFiles.count)
        #expect(try healthport("routes", sampleZip, "--format", "gpx", "--output", folder.appendingPathComponent("gpx").path, "-q").status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("gpx").path).sorted()
            == manifest.routeFiles.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted())
        let inline = try ndjsonObjects(try healthport("convert", sampleZip, "--type", "Workout", "--include-routes", "-q").stdout)
        // The running workouts have a route each, of five points; strength training none.
        let routes = inline.dropFirst().compactMap { ($0["routes"] as? [[String: Any]])?.first }
        #expect(routes.count == manifest.routeFiles.count)
        #expect(routes.allSatisfy { ($0["locations"] as? [Any])?.count == 5 })
    }

    /// The features of `healthport routes` with these extra arguments.
    static func features(_ arguments: String...) throws -> [[String: Any]] {
        let result = try CommandRunner.run(healthportBinary, ["routes", sampleZip, "-q"] + arguments, stdin: nil, currentDirectory: nil)
        #expect(result.status == 0)
        let collection = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return try #require(collection["features"] as? [[String: Any]])
    }

    @Test func routesFollowTheirWorkoutsFiltersAndAuthorization() throws {
        let all = try Self.features()
        let starts = all.map { ($0["properties"] as! [String: Any])["startDate"] as! String }
        let cut = try #require(starts.sorted().dropFirst(2).first)
        let later = try Self.features("--where", "startDate >= \"\(cut)\"")
        #expect(later.count == starts.filter { ExportTimestamp.parse($0)!.secondsSince1970 >= ExportTimestamp.parse(cut)!.secondsSince1970 }.count)
        #expect(later.count > 0 && later.count < all.count)
        let directory = try Fixtures.temporaryDirectory()
        func policy(_ name: String, _ read: String) throws -> String {
            let file = directory.appendingPathComponent(name)
            try Data(#"{"version": 1, "consumer": {"name": "Runs"}, "read": {\#(read)}}"#.utf8).write(to: file)
            return file.path
        }
        // As in HealthKit, a route needs its workout and the route series type to be readable.
        let both = try policy("both.json", #""HKWorkoutTypeIdentifier": "granted", "HKWorkoutRouteTypeIdentifier": "granted""#)
        #expect(try Self.features("--policy", both).count == all.count)
        let workoutsOnly = try policy("workouts.json", #""HKWorkoutTypeIdentifier": "granted""#)
        #expect(try Self.features("--policy", workoutsOnly).isEmpty)
        let denied = try policy("denied.json", #""HKWorkoutTypeIdentifier": "denied", "HKWorkoutRouteTypeIdentifier": "granted""#)
        #expect(try Self.features("--policy", denied).isEmpty)
        // Never asked for: HealthKit's errorAuthorizationNotDetermined, exit 77, nothing written.
        let undetermined = try CommandRunner.run(healthportBinary, ["routes", sampleZip, "--policy", try policy("steps.json", #""StepCount": "granted""#)], stdin: nil, currentDirectory: nil)
        #expect(undetermined.status == 77 && undetermined.stdout.isEmpty)
    }

    @Test func aTruncatedRouteIsOneWarningAndTheOthersAreWritten() throws {
        let directory = try Fixtures.temporaryDirectory()
        let root = directory.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)
        func workout(_ hour: Int, _ file: String) -> String {
            let start = "2024-01-01 \(hour):00:00 +0000", end = "2024-01-01 \(hour):30:00 +0000"
            return #"<Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="W" startDate="\#(start)" endDate="\#(end)"><WorkoutRoute sourceName="W" startDate="\#(start)" endDate="\#(end)"><FileReference path="/workout-routes/\#(file)"/></WorkoutRoute></Workout>"#
        }
        try Data("<HealthData locale=\"en_US\">\(workout(10, "good.gpx"))\(workout(12, "bad.gpx"))</HealthData>".utf8)
            .write(to: root.appendingPathComponent("export.xml"))
        let point = #"<trkpt lon="2.35" lat="48.85"><ele>35</ele><time>2024-01-01T10:00:00Z</time></trkpt>"#
        try Data("<gpx><trk><trkseg>\(point)\(point)</trkseg></trk></gpx>".utf8).write(to: root.appendingPathComponent("workout-routes/good.gpx"))
        try Data("<gpx><trk><trkseg>\(point)<trkpt lon=\"2.3".utf8).write(to: root.appendingPathComponent("workout-routes/bad.gpx"))
        let result = try healthport("routes", directory.path, "--format", "ndjson")
        #expect(result.status == 0)
        #expect(try ndjsonObjects(result.stdout).count == 2)
        #expect(result.stderrText.contains("bad.gpx"))
        #expect(result.stderrText.split(separator: "\n").filter { $0.contains("bad.gpx") }.count == 1)
    }

    @Test func pathsThatLeaveTheExportAreRefused() throws {
        for path in ["../../etc/passwd", "/workout-routes/../../x.gpx", "/a//b.gpx", "/./x", ".."] {
            #expect(throws: ExportError.self) { try AttachmentPath.resolve(path) }
        }
        #expect(try AttachmentPath.resolve("/workout-routes/route_1.gpx") == "workout-routes/route_1.gpx")
        let directory = try Fixtures.temporaryDirectory()
        let root = directory.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: directory.appendingPathComponent("secret.gpx"))
        try Data("""
            <HealthData locale="en_US"><Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="W" startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 11:00:00 +0000"><WorkoutRoute sourceName="W" startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 11:00:00 +0000"><FileReference path="/../secret.gpx"/></WorkoutRoute></Workout></HealthData>
            """.utf8).write(to: root.appendingPathComponent("export.xml"))
        let result = try healthport("routes", directory.path)
        #expect(result.status == 0 || result.status == 65)
        #expect(!result.stdoutText.contains("secret"))
        #expect(result.stderrText.contains("refused") || result.stderrText.contains("leaves the export"))
    }
}

@Suite struct ECGAndClinicalTests {
    static func ecg(_ header: String, samples: [String], lineEnd: String = "\n", bom: Bool = false) -> Data {
        var text = header.replacingOccurrences(of: "\n", with: lineEnd) + lineEnd + samples.joined(separator: lineEnd) + lineEnd
        if bom { text = "\u{FEFF}" + text }
        return Data(text.utf8)
    }

    @Test func englishAndGermanFilesWithCommaDecimalsBOMAndCRLF() throws {
        let rate = 512.844
        let count = Int((30 * rate).rounded())
        let english = Self.ecg(
            "Name,A Person\nDate of Birth,\"Jan 8, 2002\"\nRecorded Date,2026-05-30 16:32:18 -0700\nClassification,Atrial Fibrillation\nSymptoms,\nSoftware Version,1.90\nDevice,\"Watch7,12\"\nSample Rate,512.844 hertz\n\n\nLead,Lead I\nUnit,µV\n",
            samples: (0..<count).map { String(format: "%.3f", sin(Double($0) / 10) * 100) })
        let parsed = try ElectrocardiogramReader.read(english, file: "electrocardiograms/ecg_2026-05-30.csv")
        #expect(parsed.voltages.count == count)
        #expect(abs(Double(parsed.voltages.count) - 30 * parsed.samplingFrequency!) < 1)
        #expect(parsed.endDate.map { $0.secondsSince1970 - parsed.recordedDate!.secondsSince1970 } == 30)
        // The uuid is the recording's, not the file's: it does not depend on the name in the header.
        var encoder = CanonicalEncoder()
        func uuid(_ header: String, _ samples: [String]) throws -> ObjectUUID {
            let ecg = try ElectrocardiogramReader.read(Self.ecg(header, samples: samples), file: "electrocardiograms/e.csv")
            return ObjectIdentity.uuid(of: .electrocardiogram(ecg), encoder: &encoder)
        }
        let header = "Recorded Date,2026-05-30 16:32:18 -0700\nSample Rate,512 hertz\nLead,Lead I\nUnit,µV\n"
        #expect(try uuid("Name,A\n" + header, ["1.5", "2"]) == uuid("Name,B\n" + header, ["1.5", "2"]))
        #expect(try uuid("Name,A\n" + header, ["1.5", "2"]) != uuid("Name,A\n" + header, ["1.5", "2.001"]))
        #expect(parsed.classificationRawValue == 2)
        #expect(parsed.device == "Watch7,12")
        #expect(parsed.recordedDate?.iso8601 == "2026-05-30T16:32:18-07:00")
        let german = Self.ecg(
            "Name,Eine Person\nAufzeichnungsdatum,2024-01-05 10:32:18 +0100\nKlassifizierung,Sinusrhythmus\nAbtastrate,512 Hz\nAbleitung,Ableitung I\nEinheit,µV\n",
            samples: ["-265,868", "12,5", "0,001"], lineEnd: "\r\n", bom: true)
        let parsedGerman = try ElectrocardiogramReader.read(german, file: "electrocardiograms/ecg_de.csv")
        #expect(parsedGerman.voltages == [-265.868, 12.5, 0.001])
        #expect(parsedGerman.classificationRawValue == 1)
        #expect(parsedGerman.samplingFrequency == 512)
        #expect(throws: ExportError.self) { try ElectrocardiogramReader.read(Data("Name,X\nLead,I\n".utf8), file: "ecg.csv") }
    }

    /// A damaged voltage line is located, never quoted: it is a recording of the person's heart
    /// (issue 22's audit: the message quoted the line).
    @Test func aBadVoltageLineIsLocatedNotQuoted() throws {
        let damaged = Self.ecg("Recorded Date,2026-05-30 16:32:18 -0700\nSample Rate,512 hertz\n", samples: ["1.5", "-873.25x", "2"])
        do {
            _ = try ElectrocardiogramReader.read(damaged, file: "electrocardiograms/ecg.csv")
            Issue.record("a bad voltage line was accepted")
        } catch let error as ExportError {
            #expect(error.description.contains("line 5") && error.description.contains("(8 characters)"), "\(error)")
            #expect(!error.description.contains("873"), "\(error)")
        }
    }

    @Test func theECGCommandWritesTypedHeadersWithoutPersonalData() throws {
        let result = try healthport("ecg", sampleZip, "-q")
        #expect(result.status == 0)
        let lines = try ndjsonObjects(result.stdout)
        #expect(lines.count == 1)
        #expect(lines[0]["numberOfVoltageMeasurements"] as? Int == 3)
        #expect(lines[0]["samplingFrequency"] as? Double == 512.844)
        #expect(!result.stdoutText.contains("Sample Person") && !result.stdoutText.contains("1985"))
        let policy = try Fixtures.temporaryDirectory().appendingPathComponent("p.json")
        try Data("{\"version\": 1, \"consumer\": {\"name\": \"x\"}}".utf8).write(to: policy)
        #expect(try healthport("ecg", sampleZip, "--policy", policy.path).stdout.isEmpty)
    }

    @Test func theECGCommandTakesTheSameFiltersAsEveryObject() throws {
        let all = try ndjsonObjects(try healthport("ecg", sampleZip, "-q").stdout)
        let uuid = try #require(all.first?["uuid"] as? String)
        let before = try healthport("ecg", sampleZip, "-q", "--where", "startDate < \"2024-01-05\"")
        #expect(before.status == 0)
        #expect(try ndjsonObjects(before.stdout).isEmpty)
        let after = try healthport("ecg", sampleZip, "-q", "--where", "startDate >= \"2024-01-05\" AND uuid == \"\(uuid)\"")
        #expect(try ndjsonObjects(after.stdout).count == 1)
        // An ECG file names no source: a source filter finds nothing rather than everything.
        #expect(try healthport("ecg", sampleZip, "-q", "--source", "Apple Watch").stdout.isEmpty)
        #expect(try healthport("ecg", sampleZip, "-q", "--type", "HKQuantityTypeIdentifierHeartRate").stdout.isEmpty)
        #expect(try ndjsonObjects(try healthport("ecg", sampleZip, "-q", "--type", "Electrocardiogram").stdout).count == 1)
    }

    @Test
    func everyClinicalRecordIsJoinedToItsResource() throws {
        let result = try healthport("clinical", sampleZip, "-q")
        #expect(result.status == 0)
        // The resources are embedded as received: the same bytes on every run, keys in their order.
        #expect(try healthport("clinical", sampleZip, "-q").stdout == result.stdout)
        let generated = try ndjsonObjects(result.stdout)
        #expect(generated.count == (try sampleManifest()).clinicalFiles.count && !generated.isEmpty)
        for record in generated {
            let resource = try #require(record["fhirResource"] as? [String: Any])
            let data = try #require(resource["data"] as? [String: Any])
            #expect(data["resourceType"] as? String == resource["resourceType"] as? String)
        }
        let policy = try Fixtures.temporaryDirectory().appendingPathComponent("p.json")
        try Data(#"{"version": 1, "consumer": {"name": "x"}, "read": {"StepCount": "granted"}}"#.utf8).write(to: policy)
        #expect(try healthport("clinical", sampleZip, "-q", "--policy", policy.path).stdout.isEmpty)
        let labs = try ndjsonObjects(try healthport("clinical", sampleZip, "-q", "--where", "fhirResource.resourceType == \"Observation\"").stdout)
        #expect(labs.count == generated.filter { ($0["fhirResource"] as? [String: Any])?["resourceType"] as? String == "Observation" }.count)
        #expect(labs.count < generated.count)
    }
}

@Suite struct CDATests {
    @Test func infoCountsTheCDAObservationsByType() throws {
        let result = try healthport("info", sampleZip, "--cda", "--format", "json", "-q")
        #expect(result.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let cda = try #require(report["cda"] as? [String: Any])
        #expect(cda["observations"] as? Int == 3)
        #expect((cda["byType"] as? [String: Int]) == ["HKQuantityTypeIdentifierHeartRate": 2, "HKQuantityTypeIdentifierBodyMass": 1])
    }
}
