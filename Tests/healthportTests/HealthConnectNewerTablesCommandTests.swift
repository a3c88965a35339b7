import Foundation
import HealthTestSupport
import Testing

/// The record tables Health Connect's newer database versions add, through the commands
/// (`convert`, `days`, `summary`), over the fixture's version-16 database
/// (`make-fixture.py --schema v16`, its rows listed in `fill_newer`). Every figure is worked by
/// hand from those rows, never by the code under test.
@Suite struct HealthConnectNewerTablesCommandTests {
    /// `convert --format ndjson` of `input`, the lines of `types` only; `extra` are more options.
    static func converted(_ input: String, types: String, _ extra: String...) throws -> [[String: Any]] {
        let result = try healthport(["convert", input, "--type", types, "--format", "ndjson", "-o", "-", "-q"] + extra)
        #expect(result.status == 0, "\(result.stderrText)")
        return try ndjsonObjects(result.stdout).filter { $0["uuid"] != nil }
    }

    static func metadata(_ line: [String: Any]) -> [String: Any] { HealthConnectCycleAndNutritionTests.metadata(line) }

    /// `healthport` with `arguments`, its CSV output as rows keyed by the header's names.
    static func csv(_ arguments: String...) throws -> [[String: String]] {
        let result = try healthport(arguments)
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = parseCSV(result.stdoutText)
        guard let header = rows.first else { return [] }
        return rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// The day table's mindful minutes, from the four sessions: on the 5th, 07:30-07:45 (15) and
    /// 23:55 to midnight (5 of the session across it): 20; on the 6th, the 5 minutes after
    /// midnight, and 21:50-22:10 (20) with Fit's 22:00-22:05 inside it, counted once (the time the
    /// sessions cover, sources merged): 5 + 20 = 25. The 7th has none.
    @Test func mindfulMinutesByDay() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let days = try Self.csv("days", fixture.zip, "--format", "csv", "-q")
        let mindful = Dictionary(uniqueKeysWithValues: days.map { ($0["date"] ?? "", $0["mindful_min"] ?? "") })
        #expect(mindful == ["2026-01-05": "20", "2026-01-06": "25", "2026-01-07": ""])
        // The steps are the version-10 fixture's own (docs/health-connect.md): the newer tables
        // change nothing else.
        #expect(days.map { $0["steps"] } == ["1610", "410", "1130"])
        // summary: 1,200 s and 1,500 s; the session across midnight is one of each day's sessions
        // (2 on the 5th, 3 on the 6th).
        let summary = try Self.csv("summary", fixture.zip, "--type", "MindfulSession", "--format", "csv", "-q")
        #expect(summary.map { [$0["date"], $0["duration"], $0["count"]] } == [["2026-01-05", "1200", "2"], ["2026-01-06", "1500", "3"]])
    }

    /// Converted, each session is a mindful session over its interval, not applicable, its
    /// type code, title and notes kept.
    @Test func mindfulnessSessionsConvert() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let sessions = try Self.converted(fixture.zip, types: "MindfulSession")
        #expect(sessions.map { $0["valueName"] as? String } == Array(repeating: "HKCategoryValueNotApplicable", count: 4))
        #expect(sessions.map { Self.metadata($0)["HealthConnectMindfulnessSessionType"] as? String } == ["1", "6", "3", "2"])
        #expect(sessions.first?["startDate"] as? String == "2026-01-05T07:30:00+01:00")
        #expect(sessions.first?["endDate"] as? String == "2026-01-05T07:45:00+01:00")
        #expect(Self.metadata(sessions[0])["HealthConnectTitle"] as? String == "Morning sit")
    }

    /// De-identified, no title or note the person wrote (a mindfulness session's, a plan's) is
    /// left in any format, nor any Health Connect code or the plan's link to its workout (text);
    /// the sessions and plans themselves are kept.
    @Test func deidentifiedOutputKeepsNoSessionText() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let directory = try Fixtures.temporaryDirectory()
        let key = directory.appendingPathComponent("study.key").path
        for format in ["ndjson", "csv", "fhir", "omh"] {
            let output = directory.appendingPathComponent("out-\(format)").path
            let result = try healthport("convert", fixture.zip, "--format", format, "--deidentify", key, "--output", output, "-q")
            #expect(result.status == 0, "\(format): \(result.stderrText)")
            let written = try Self.contents(of: output)
            #expect(!written.isEmpty, "\(format)")
            for secret in [
                "Morning sit", "Counted breaths", "Easy run", "Keep heart rate", "Leg day", "HealthConnectTitle", "HealthConnectNotes",
                "HealthConnectMindfulnessSessionType", "HealthConnectCompletedExerciseSession",
            ] {
                #expect(!written.contains(secret), "\(format) keeps \(secret)")
            }
        }
        let ndjson = try String(contentsOfFile: directory.appendingPathComponent("out-ndjson").path, encoding: .utf8)
        #expect(ndjson.components(separatedBy: "HKCategoryTypeIdentifierMindfulSession").count - 1 == 4)
        #expect(ndjson.components(separatedBy: "HealthConnectPlannedExerciseSession").count - 1 == 2)
    }

    /// Activity intensity by day: its minutes, moderate and vigorous alike, each counted once.
    /// The 5th: 08:00-08:20 and 08:20-08:30, 1,800 s, 2 spans. The 6th: the watch's 18:00-18:30
    /// and Fit's 18:10-18:40 cover 18:00-18:40, 2,400 s, 2 spans (both apps are on the activity
    /// list). Health Connect's own "intensity minutes" would say 20 + 2 x 10 = 40 on the 5th.
    /// With Fit's span moved to an app the activity list leaves out (the pedometer, 3), the 6th
    /// is the watch's half hour alone, 1,800 s, 1 span, as Health Connect leaves such an app out.
    @Test func activityIntensityMinutesByDay() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let days = try Self.csv("summary", fixture.zip, "--type", "HealthConnectActivityIntensity", "--format", "csv", "-q")
        #expect(days.map { [$0["date"], $0["duration"], $0["count"]] } == [["2026-01-05", "1800", "2"], ["2026-01-06", "2400", "2"]])
        let unlisted = try HealthConnectFixture.altered(
            fixture.database, sql: "UPDATE activity_intensity_record_table SET app_info_id = 3 WHERE client_record_id = 'intensity-4';")
        let left = try Self.csv("summary", unlisted, "--type", "activity intensity", "--format", "csv", "-q")
        #expect(left.map { [$0["date"], $0["duration"], $0["count"]] } == [["2026-01-05", "1800", "2"], ["2026-01-06", "1800", "1"]])

        let spans = try Self.converted(fixture.zip, types: "HealthConnectActivityIntensity")
        #expect(spans.map { $0["value"] as? Int } == [0, 1, 1, 0])
        #expect(spans.first?["valueName"] as? String == "HealthConnectActivityIntensityModerate")
    }

    /// A skin temperature's deltas are differences: written in delta_degF they are 9/5 of
    /// themselves, with no offset (-0.2 x 1.8 = -0.36, 0.3 x 1.8 = 0.54, 0.9, 1.44, 1.8), and
    /// asked for in degF, a temperature, they are refused (64) rather than given 32 degrees
    /// each. The baseline is a temperature: 33.6 degC is 33.6 x 1.8 + 32 = 92.48 degF. A day's
    /// deltas average: the 6th (-0.2 + 0.3 + 0.5) / 3 = 0.2, the 7th (0.8 + 1.0) / 2 = 0.9.
    @Test func skinTemperatureDeltasConvertAsDifferences() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let deltas = try Self.converted(fixture.zip, types: "HealthConnectSkinTemperatureDelta", "--unit", "delta_degF")
        let values = deltas.compactMap { (($0["quantity"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue }
        let expected = [-0.36, 0.54, 0.9, 1.44, 1.8]
        #expect(values.count == 5 && zip(values, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(values)")
        #expect(deltas.allSatisfy { ($0["quantity"] as? [String: Any])?["unit"] as? String == "delta_degF" })

        let refused = try healthport("convert", fixture.zip, "--type", "HealthConnectSkinTemperatureDelta", "--unit", "degF", "-o", "-", "-q")
        #expect(refused.status == 64)
        #expect(refused.stderrText.contains("'degF' is not compatible with HealthConnectSkinTemperatureDelta"))

        let baseline = try Self.converted(fixture.zip, types: "HealthConnectSkinTemperatureBaseline", "--unit", "degF")
        let fahrenheit = (baseline.first?["quantity"] as? [String: Any])?["value"] as? NSNumber
        #expect(baseline.count == 1 && abs((fahrenheit?.doubleValue ?? 0) - 92.48) < 1e-9)

        let days = try Self.csv("summary", fixture.zip, "--type", "HealthConnectSkinTemperatureDelta", "--format", "csv", "-q")
        #expect(days.map { $0["date"] } == ["2026-01-06", "2026-01-07"])
        #expect(days.map { $0["unit"] } == ["delta_degC", "delta_degC"])
        let averages = days.compactMap { $0["average"].flatMap(Double.init) }
        #expect(averages.count == 2 && abs(averages[0] - 0.2) < 1e-9 && abs(averages[1] - 0.9) < 1e-9, "\(averages)")
    }

    /// A plan is counted on its day, never timed: one on the 6th (the run's), one on the 9th
    /// (after the export's date: a plan may lie ahead). Converted, the run's plan names the run's
    /// workout by its uuid, and both keep their exercise type.
    @Test func plannedSessionsCountAndConvert() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let days = try Self.csv("summary", fixture.zip, "--type", "HealthConnectPlannedExerciseSession", "--format", "csv", "-q")
        #expect(days.map { [$0["date"], $0["count"], $0["duration"]] } == [["2026-01-06", "1", ""], ["2026-01-09", "1", ""]])

        let plans = try Self.converted(fixture.zip, types: "HealthConnectPlannedExerciseSession,Workout")
        let byType = Dictionary(grouping: plans) { $0["sampleType"] as? String ?? "" }
        let run = try #require(byType["HKWorkoutTypeIdentifier"]?.first)
        let planned = byType["HealthConnectPlannedExerciseSession"] ?? []
        #expect(planned.map { Self.metadata($0)["HealthConnectCompletedExerciseSession"] as? String } == [run["uuid"] as? String, nil])
        #expect(planned.map { Self.metadata($0)["HealthConnectExerciseType"] as? String } == ["33", "45"])
        #expect(planned.map { $0["startDate"] as? String } == ["2026-01-06T18:00:00+01:00", "2026-01-09T00:00:00+01:00"])
    }

    /// Written as Apple's export.xml and read back, every object comes back (the 102
    /// `HealthConnectNewerTablesTests` counts), Health Connect's category types as the category
    /// samples they were (before, a `HealthConnect…` record without a unit read back as a record
    /// passed through unmodelled): the intensities keep their values 0, 1, 1, 0, the plans and
    /// the mindfulness sessions are category samples, the deltas keep their unit of difference.
    @Test func newerTypesSurviveApplesExportFormat() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let xml = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml").path
        let written = try healthport("convert", fixture.zip, "--format", "export", "-o", xml, "-q")
        #expect(written.status == 0, "\(written.stderrText)")
        let all = try healthport("convert", xml, "--format", "ndjson", "-o", "-", "-q")
        #expect(try ndjsonObjects(all.stdout).filter { $0["uuid"] != nil }.count == 102)
        let intensity = try Self.converted(xml, types: "HealthConnectActivityIntensity")
        #expect(intensity.map { $0["kind"] as? String } == Array(repeating: "categorySample", count: 4))
        #expect(intensity.map { $0["value"] as? Int } == [0, 1, 1, 0])
        let plans = try Self.converted(xml, types: "HealthConnectPlannedExerciseSession,MindfulSession")
        #expect(plans.count == 6 && plans.allSatisfy { $0["kind"] as? String == "categorySample" })
        let deltas = try Self.converted(xml, types: "HealthConnectSkinTemperatureDelta")
        #expect(deltas.map { ($0["quantity"] as? [String: Any])?["unit"] as? String } == Array(repeating: "delta_degC", count: 5))
    }

    /// A file's text, or the text of every file in a folder.
    static func contents(of output: String) throws -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), isFolder.boolValue else {
            return try String(contentsOfFile: output, encoding: .utf8)
        }
        var written = ""
        for name in try FileManager.default.subpathsOfDirectory(atPath: output) {
            written += (try? String(contentsOfFile: output + "/" + name, encoding: .utf8)) ?? ""
        }
        return written
    }
}
