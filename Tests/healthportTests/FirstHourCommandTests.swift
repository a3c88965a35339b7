import Foundation
import Testing
import HealthTestSupport

/// What a new user runs into in a first hour, through the command line: types a person can name,
/// nothing invented for the kinds healthport does not model, values as Apple wrote them.
@Suite struct FirstHourCommandTests {
    func write(_ text: String, as name: String = "export.xml") throws -> URL {
        let file = try Fixtures.temporaryDirectory().appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    // MARK: Types a person can name (item 3)

    @Test func aFullIdentifierHealthportDoesNotKnowSelectsItsSamples() throws {
        // The sample holds two samples of a type newer than healthport; `--type` refused it (64).
        for command in ["convert", "query"] {
            let result = try healthport(command, sampleZip, "--type", "HKQuantityTypeIdentifierFutureMetric", "-q")
            #expect(result.status == 0, "\(command): \(result.stderrText)")
            let objects = try ndjsonObjects(result.stdout).dropFirst()
            #expect(objects.count == 2, "\(command)")
            #expect(objects.allSatisfy { $0["sampleType"] as? String == "HKQuantityTypeIdentifierFutureMetric" })
        }
    }

    @Test func theNamesPeopleUseFindTheirTypes() throws {
        let steps = try healthport("convert", sampleZip, "--type", "Steps", "-q")
        #expect(steps.status == 0, "\(steps.stderrText)")
        let stepObjects = try ndjsonObjects(steps.stdout).dropFirst()
        #expect(stepObjects.count == 336)
        #expect(stepObjects.allSatisfy { $0["sampleType"] as? String == "HKQuantityTypeIdentifierStepCount" })
        let weight = try healthport("query", sampleZip, "--type", "Weight", "--limit", "1", "-q")
        #expect(weight.status == 0, "\(weight.stderrText)")
        #expect(try ndjsonObjects(weight.stdout).last?["sampleType"] as? String == "HKQuantityTypeIdentifierBodyMass")
        let listed = try healthport("types", "--type", "Steps,Sleep,Weight,resting heart rate", "--format", "json")
        #expect(listed.status == 0, "\(listed.stderrText)")
        let document = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [String: Any])
        let names = (document["types"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(Set(names) == ["StepCount", "SleepAnalysis", "BodyMass", "RestingHeartRate"])
    }

    @Test func aNameThatFitsSeveralTypesListsThem() throws {
        let result = try healthport("convert", sampleZip, "--type", "temperature", "-q")
        #expect(result.status == 64)
        // Health Connect's skin temperature baseline and delta hold the word too.
        #expect(
            result.stderrText.contains(
                "type 'temperature' is ambiguous: AppleSleepingWristTemperature, BasalBodyTemperature, BodyTemperature, "
                    + "HealthConnectSkinTemperatureBaseline, HealthConnectSkinTemperatureDelta or WaterTemperature"),
            "\(result.stderrText)")
        let typo = try healthport("convert", sampleZip, "--type", "weigth", "-q")
        #expect(typo.status == 64)
        #expect(typo.stderrText.contains("did you mean weight (BodyMass)?"), "\(typo.stderrText)")
    }

    @Test func typesListsTheCatalogueAndCountsAnExport() throws {
        let all = try healthport("types", "--format", "json")
        #expect(all.status == 0, "\(all.stderrText)")
        let catalogue = try #require(try JSONSerialization.jsonObject(with: all.stdout) as? [String: Any])
        let entries = try #require(catalogue["types"] as? [[String: Any]])
        let byName = Dictionary(entries.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byName["StepCount"]?["canonicalUnit"] as? String == "count")
        #expect(byName["StepCount"]?["aggregationStyle"] as? String == "cumulative")
        #expect(byName["HeartRate"]?["aggregationStyle"] as? String == "discreteTemporallyWeighted")
        #expect(byName["HypertensionEvent"]?["kind"] as? String == "category")
        #expect(byName["StateOfMind"]?["kind"] as? String == "other")
        #expect(entries.allSatisfy { $0["count"] == nil })

        let counted = try healthport("types", sampleZip, "--format", "json", "-q")
        #expect(counted.status == 0, "\(counted.stderrText)")
        let document = try #require(try JSONSerialization.jsonObject(with: counted.stdout) as? [String: Any])
        let types = try #require(document["types"] as? [[String: Any]])
        func count(_ identifier: String) -> Int? { types.first { $0["identifier"] as? String == identifier }?["count"] as? Int }
        #expect(count("HKQuantityTypeIdentifierStepCount") == 336)
        #expect(count("HKQuantityTypeIdentifierBodyTemperature") == 0)
        #expect(count("HKQuantityTypeIdentifierFutureMetric") == 2)
        #expect(types.first { $0["identifier"] as? String == "HKQuantityTypeIdentifierFutureMetric" }?["known"] as? Bool == false)

        let text = try healthport("types", "--type", "StepCount")
        #expect(text.stdoutText == "TYPE       KIND      UNIT   AGGREGATION\nStepCount  quantity  count  cumulative\n")
    }

    @Test func completionOffersTheTypesAndTheTypesCommand() throws {
        let script = try healthport("--generate-completion-script", "bash")
        #expect(script.status == 0)
        #expect(script.stdoutText.contains("types"))
        #expect(script.stdoutText.contains("RestingHeartRate"))
    }

    // MARK: Nothing invented for kinds healthport does not model (item 4)

    /// Records of kinds healthport does not model, as an iOS 18 or 26 export may print them.
    /// Their attributes and children here are illustrative (no public export shows them): what
    /// is tested is that whatever Apple wrote is kept, and nothing else is added.
    static let unmodelled = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2026-01-05 10:00:00 +0100"/>
         <Record type="HKDataTypeIdentifierStateOfMind" sourceName="Health" sourceVersion="26.1" creationDate="2026-01-04 21:00:05 +0100" startDate="2026-01-04 21:00:00 +0100" endDate="2026-01-04 21:00:00 +0100" kind="2" valence="0.4">
          <MetadataEntry key="HKTimeZone" value="Europe/Paris"/>
         </Record>
         <Record type="HKScoredAssessmentTypeIdentifierGAD7" sourceName="Health" sourceVersion="26.1" startDate="2026-01-03 09:00:00 +0100" endDate="2026-01-03 09:05:00 +0100" value="5"/>
         <Record type="HKDataTypeIdentifierHeartbeatSeries" sourceName="Apple Watch" startDate="2026-01-04 03:00:00 +0100" endDate="2026-01-04 03:01:00 +0100">
          <HeartbeatSeriesSample timeSinceSeriesStart="0.82" precededByGap="0"/>
         </Record>
         <Record type="HKCategoryTypeIdentifierHypertensionEvent" sourceName="Health" startDate="2026-01-02 08:00:00 +0100" endDate="2026-01-02 08:00:00 +0100" value="HKCategoryValueNotApplicable"/>
        </HealthData>

        """

    @Test func unmodelledKindsArePassedThroughAsAppleWroteThem() throws {
        let file = try write(Self.unmodelled)
        for parser in ["scanner", "libxml2"] {
            let result = try healthport("convert", file.path, "--parser", parser)
            #expect(result.status == 0, "\(result.stderrText)")
            let objects = try ndjsonObjects(result.stdout).dropFirst()
            #expect(objects.count == 4)
            let unknown = objects.filter { $0["kind"] as? String == "unknown" }
            #expect(unknown.count == 3, "\(parser): \(objects.map { $0["kind"] ?? "" })")
            for object in unknown {
                let element = try #require(object["element"] as? [String: Any])
                #expect(element["name"] as? String == "Record")
                #expect(object["value"] == nil && object["sampleType"] == nil)
            }
            let mind = try #require(unknown.first { (($0["element"] as? [String: Any])?["attributes"] as? [String: Any])?["type"] as? String == "HKDataTypeIdentifierStateOfMind" })
            let attributes = try #require((mind["element"] as? [String: Any])?["attributes"] as? [String: Any])
            #expect(attributes["valence"] as? String == "0.4")
            #expect(attributes["kind"] as? String == "2")
            #expect(((mind["element"] as? [String: Any])?["children"] as? [[String: Any]])?.first?["name"] as? String == "MetadataEntry")
            let gad7 = try #require(unknown.first { (($0["element"] as? [String: Any])?["attributes"] as? [String: Any])?["type"] as? String == "HKScoredAssessmentTypeIdentifierGAD7" })
            #expect(((gad7["element"] as? [String: Any])?["attributes"] as? [String: Any])?["value"] as? String == "5")
            let hypertension = try #require(objects.first { $0["sampleType"] as? String == "HKCategoryTypeIdentifierHypertensionEvent" })
            #expect(hypertension["kind"] as? String == "categorySample")
            #expect(result.stderrText.contains("samples of type HKDataTypeIdentifierStateOfMind are not in healthport's model; passed through as written"))
            #expect(!result.stderrText.contains("HypertensionEvent"), "a known type now: \(result.stderrText)")
        }
    }

    @Test func unmodelledKindsAreSelectedCountedAndTabledByTheirType() throws {
        let file = try write(Self.unmodelled)
        let mind = try healthport("convert", file.path, "--type", "HKDataTypeIdentifierStateOfMind", "-q")
        #expect(mind.status == 0, "\(mind.stderrText)")
        #expect(try ndjsonObjects(mind.stdout).dropFirst().count == 1)
        let gad7 = try healthport("convert", file.path, "--type", "GAD7", "--start", "2026-01-03", "--end", "2026-01-04", "-q")
        #expect(gad7.status == 0, "\(gad7.stderrText)")
        #expect(try ndjsonObjects(gad7.stdout).dropFirst().count == 1)
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("csv")
        let csv = try healthport("convert", file.path, "--format", "csv", "--output", folder.path, "-q")
        #expect(csv.status == 0, "\(csv.stderrText)")
        let tables = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(tables == ["HypertensionEvent.csv", "export.csv", "unknown-elements.csv"], "\(tables)")
        let rows = try String(contentsOf: folder.appendingPathComponent("unknown-elements.csv"), encoding: .utf8)
        #expect(rows.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 4)
        let counted = try healthport("types", file.path, "--type", "StateOfMind,GAD7,PHQ9,HeartbeatSeries", "--format", "json", "-q")
        let document = try #require(try JSONSerialization.jsonObject(with: counted.stdout) as? [String: Any])
        let counts = Dictionary(((document["types"] as? [[String: Any]]) ?? []).map { ($0["name"] as? String ?? "", $0["count"] as? Int ?? -1) }, uniquingKeysWith: { a, _ in a })
        #expect(counts == ["StateOfMind": 1, "GAD7": 1, "PHQ9": 0, "HeartbeatSeries": 1])
        // Written back as Apple wrote them.
        let xml = try healthport("convert", file.path, "--format", "export", "-q")
        #expect(xml.stdoutText.contains("valence=\"0.4\""))
        #expect(xml.stdoutText.contains("<HeartbeatSeriesSample timeSinceSeriesStart=\"0.82\" precededByGap=\"0\"/>"))
    }

    // MARK: Values as Apple wrote them (item 5)

    static let values = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2026-01-05 10:00:00 +0100"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2026-01-04 07:00:00 +0100" endDate="2026-01-04 07:00:00 +0100" value="72">
          <MetadataEntry key="HKWasUserEntered" value="1"/>
          <MetadataEntry key="com.example.reading" value="1E10"/>
          <MetadataEntry key="com.example.other" value="123E4567"/>
          <MetadataEntry key="com.example.serial" value="1234567890123456789"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Apple Watch" unit="ms" startDate="2026-01-04 19:47:00 +0100" endDate="2026-01-04 19:48:00 +0100" value="41">
          <HeartRateVariabilityMetadataList>
           <InstantaneousBeatsPerMinute bpm="61" time="7:47:41.86 PM"/>
          </HeartRateVariabilityMetadataList>
         </Record>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="2026-01-04 08:00:00 +0100" endDate="2026-01-04 08:30:00 +0100">
          <WorkoutRoute sourceName="Watch" creationDate="2026-01-04 08:31:00 +0100" startDate="2026-01-04 08:00:00 +0100" endDate="2026-01-04 08:30:00 +0100">
           <FileReference path="/workout-routes/route_2026-01-04_8.30am.gpx"/>
          </WorkoutRoute>
          <WorkoutRoute sourceName="Watch" creationDate="2026-01-04 08:31:00 +0100" startDate="2026-01-04 08:00:00 +0100" endDate="2026-01-04 08:30:00 +0100">
           <FileReference path="/workout-routes/route_2026-01-04_8.30am.gpx"/>
          </WorkoutRoute>
         </Workout>
         <Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="Hearing Test" startDate="2026-01-03 10:00:00 +0100" endDate="2026-01-03 10:00:00 +0100">
          <SensitivityPoint frequencyValue="500" frequencyUnit="Hz" leftEarValue="20" leftEarUnit="dBHL" leftEarMasked="1" rightEarValue="25" rightEarUnit="dBHL" rightEarMasked="0"/>
         </Audiogram>
        </HealthData>

        """

    @Test func aMetadataKeyHasTheSameJSONTypeWhateverItsValue() throws {
        let file = try write(Self.values)
        let result = try healthport("convert", file.path, "--type", "BodyMass", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let line = try #require(result.stdoutText.split(separator: "\n").last.map(String.init))
        #expect(line.contains("\"HKWasUserEntered\":1"))
        #expect(line.contains("\"com.example.reading\":\"1E10\""))
        #expect(line.contains("\"com.example.other\":\"123E4567\""))
        #expect(line.contains("\"com.example.serial\":\"1234567890123456789\""))
    }

    @Test func aRoutePrintedTwiceIsTwoObjectsWithTwoUUIDs() throws {
        let file = try write(Self.values)
        let result = try healthport("convert", file.path, "--type", "Workout", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let workout = try #require(try ndjsonObjects(result.stdout).first { $0["kind"] as? String == "workout" })
        let routes = try #require(workout["routes"] as? [[String: Any]])
        #expect(routes.count == 2)
        #expect(Set(routes.compactMap { $0["uuid"] as? String }).count == 2)
    }

    @Test func theBeatsTableKeepsHundredthsOfASecond() throws {
        let file = try write(Self.values)
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("csv")
        let result = try healthport("convert", file.path, "--format", "csv", "--output", folder.path, "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let beats = try String(contentsOf: folder.appendingPathComponent("instantaneous-beats-per-minute.csv"), encoding: .utf8)
        #expect(beats.contains(",61,7:47:41.86 PM,2026-01-04T19:47:41.86+01:00\r\n"), "\(beats)")
        let ndjson = try healthport("convert", file.path, "--type", "HeartRateVariabilitySDNN", "-q")
        #expect(ndjson.stdoutText.contains("\"date\":\"2026-01-04T19:47:41.86+01:00\""))
    }

    @Test func audiogramMaskingIsABoolean() throws {
        let file = try write(Self.values)
        let result = try healthport("convert", file.path, "--type", "Audiogram", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("\"leftEarMasked\":true"))
        #expect(result.stdoutText.contains("\"rightEarMasked\":false"))
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("csv")
        _ = try healthport("convert", file.path, "--format", "csv", "--output", folder.path, "-q")
        let points = try String(contentsOf: folder.appendingPathComponent("audiogram-sensitivity-points.csv"), encoding: .utf8)
        #expect(points.contains(",true,") && points.contains(",false,"), "\(points)")
        // Apple's export prints them as it did, and NDJSON reads back as the same objects.
        let xml = try healthport("convert", file.path, "--type", "Audiogram", "--format", "export", "-q")
        #expect(xml.stdoutText.contains("leftEarMasked=\"1\"") && xml.stdoutText.contains("rightEarMasked=\"0\""))
        let again = try healthport("convert", "-", "-q", stdin: result.stdout)
        #expect(again.stdout == result.stdout, "\(again.stderrText)")
        let old = Data(result.stdoutText.replacingOccurrences(of: "\"leftEarMasked\":true", with: "\"leftEarMasked\":\"1\"").utf8)
        let oldAgain = try healthport("convert", "-", "-q", stdin: old)
        #expect(oldAgain.stdout == result.stdout, "an earlier version's strings read as the Booleans: \(oldAgain.stderrText)")
    }

    // MARK: Noise (item 7, the wording)

    @Test func anEmptyFileIsCalledEmpty() throws {
        let file = try write("", as: "export.zip")
        let result = try healthport("convert", file.path)
        #expect(result.status == 66)
        #expect(result.stderrText.contains("empty file"), "\(result.stderrText)")
        let help = try healthport("--help")
        let words = help.stdoutText.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(words.contains("convert Convert an export to NDJSON, JSON, CSV, Parquet, Apple's own export.xml or FHIR R4."))
    }
}
