import Foundation
import HealthTestSupport
import Testing

/// Issue 53, item 4: a Health Connect export gives the shapes studies take, as Apple's does:
/// daily FHIR (`days --format fhir`), night FHIR (`sleep --format fhir`), the days and nights
/// beside the samples (`convert --format fhir --summaries`) and Open mHealth data points
/// (`--format omh` on `convert`, `days` and `sleep`). The figures are worked by hand from the
/// fixture's rows (`Scripts/healthconnect/make-fixture.py`), as `HealthConnectCommandTests`
/// works them, never by the code under test; `Scripts/check-fhir.sh` and `Scripts/check-omh.sh`
/// validate the same outputs with `fhir.resources` and `jsonschema`.
@Suite struct HealthConnectShapesTests {
    /// The fixture's days' steps under Health Connect's priority rule (Samsung Health above
    /// Google Fit, the pedometer on no list), worked in `HealthConnectCommandTests`:
    /// 2026-01-05 300 + 300 + 450 + 300 + 200 + 60 = 1,610; 2026-01-06 60 + 350 = 410;
    /// 2026-01-07 1,000 + 50 + 80 = 1,130. Apple's merge would give 6,610 on the 5th.
    static let steps: [String: Double] = ["2026-01-05": 1610, "2026-01-06": 410, "2026-01-07": 1130]

    /// The night ending on the 6th (the session 23:00–07:00 at +01:00 with its stages): awake
    /// 23:00–23:15 and 06:30–07:00 (awake in bed) = 45 min = 2,700 s; light (core) 23:15–01:00
    /// and 03:30–06:30 = 105 + 180 = 285 min = 17,100 s; deep 01:00–02:30 = 5,400 s; REM
    /// 02:30–03:30 = 3,600 s; asleep 17,100 + 5,400 + 3,600 = 26,100 s; in bed 23:00–07:00 =
    /// 28,800 s. Sleep onset is the first asleep stage (23:15), final awakening the last one's
    /// end (06:30): 7 h 15 min = 26,100 s, all of it asleep, 100 %.
    static let onset = "2026-01-05T23:15:00+01:00"
    static let awakening = "2026-01-06T06:30:00+01:00"

    static func code(_ observation: [String: Any]) -> String? {
        ((observation["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String
    }

    static func value(_ member: Any?) -> Double? { ((member as? [String: Any])?["value"] as? NSNumber)?.doubleValue }

    static func run(_ arguments: String...) throws -> [[String: Any]] {
        let result = try healthport(arguments + ["-q"])
        #expect(result.status == 0, "\(arguments): \(result.stderrText)")
        return try ndjsonObjects(result.stdout)
    }

    @Test func daysAreDailyObservationsWithHealthConnectsTotals() throws {
        let fixture = try HealthConnectFixture.make()
        let observations = try Self.run("days", fixture.zip, "--format", "fhir")
        var steps: [String: Double] = [:]
        for observation in observations where Self.code(observation) == "41950-7" {
            let date = try #require(observation["effectiveDateTime"] as? String)
            steps[date] = Self.value(observation["valueQuantity"])
            #expect((observation["valueQuantity"] as? [String: Any])?["code"] as? String == "/d")
        }
        #expect(steps == Self.steps)
        // The one resting heart rate, 54 bpm at 06:00 on the 6th: the day's average is 54.
        let resting = observations.filter { Self.code($0) == "40443-4" }
        #expect(resting.count == 1)
        #expect(resting.first?["effectiveDateTime"] as? String == "2026-01-06")
        #expect(Self.value(resting.first?["valueQuantity"]) == 54)
        // Every Observation names the Patient, and no two share an id.
        let subjects = Set(observations.compactMap { ($0["subject"] as? [String: String])?["reference"] })
        #expect(subjects.count == 1 && subjects.first?.hasPrefix("Patient/") == true)
        #expect(Set(observations.compactMap { $0["id"] as? String }).count == observations.count)
        #expect(observations.allSatisfy { $0["resourceType"] as? String == "Observation" && $0["status"] as? String == "final" })
    }

    @Test func theNightIsOneObservationWithItsStages() throws {
        let fixture = try HealthConnectFixture.make()
        let observations = try Self.run("sleep", fixture.database, "--format", "fhir")
        #expect(observations.count == 1)
        let night = try #require(observations.first)
        #expect(Self.code(night) == "HKCategoryTypeIdentifierSleepAnalysis")
        #expect(night["effectivePeriod"] as? [String: String] == ["start": Self.onset, "end": Self.awakening])
        #expect(Self.value(night["valueQuantity"]) == 26_100)
        var stages: [String: Double] = [:]
        for component in night["component"] as? [[String: Any]] ?? [] {
            stages[Self.code(component) ?? "?"] = Self.value(component["valueQuantity"])
        }
        // HKCategoryValueSleepAnalysis: 0 in bed, 1 asleep unspecified, 2 awake, 3 core, 4 deep, 5 REM.
        #expect(stages == ["0": 28_800, "1": 0, "2": 2_700, "3": 17_100, "4": 5_400, "5": 3_600])
    }

    /// `convert --format fhir --summaries`: the samples' Observations and, in the same
    /// `Observation.ndjson`, the days' and the night's, as `days` and `sleep` write them.
    @Test func convertSummariesWritesTheDaysAndTheNightBesideTheRecords() throws {
        let fixture = try HealthConnectFixture.make()
        let folder = try Fixtures.temporaryDirectory()
        let result = try healthport(
            "convert", fixture.zip, "--format", "fhir", "--summaries", "--output", folder.appendingPathComponent("fhir").path, "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let observations = try ndjsonObjects(Data(contentsOf: folder.appendingPathComponent("fhir/Observation.ndjson")))
        var steps: [String: Double] = [:]
        for observation in observations where Self.code(observation) == "41950-7" {
            steps[observation["effectiveDateTime"] as? String ?? "?"] = Self.value(observation["valueQuantity"])
        }
        #expect(steps == Self.steps)
        let nights = observations.filter { $0["component"] != nil && Self.code($0) == "HKCategoryTypeIdentifierSleepAnalysis" }
        #expect(nights.count == 1 && Self.value(nights.first?["valueQuantity"]) == 26_100)
    }

    @Test func dataPointsHaveHealthConnectsValues() throws {
        let fixture = try HealthConnectFixture.make()
        let points = try Self.run("convert", fixture.zip, "--format", "omh", "--output", "-")
        func point(_ uuid: String) -> [String: Any]? {
            points.first { (($0["header"] as? [String: Any])?["uuid"] as? String)?.uppercased() == uuid }
        }
        // Record uuids are Health Connect's own: uuid5 of the fixture's namespace and the row's
        // name (Python: uuid.uuid5(UUID("7b0c1f3e-52a1-4c11-9d3b-0e6f1c2a4d10"), "steps-1")).
        // steps-1: Samsung Health's 600 steps over 08:00–09:00 on the 5th, read by the watch.
        let steps = try #require(point("ED31C3CF-3F56-5394-94F1-4B8E9822C2AB"))
        let stepsHeader = try #require(steps["header"] as? [String: Any])
        #expect((stepsHeader["schema_id"] as? [String: String])?["name"] == "step-count")
        #expect(stepsHeader["modality"] as? String == "sensed")
        let stepsBody = try #require(steps["body"] as? [String: Any])
        #expect(Self.value(stepsBody["step_count"]) == 600)
        #expect(
            (stepsBody["effective_time_frame"] as? [String: Any])?["time_interval"] as? [String: String]
                == ["start_date_time": "2026-01-05T08:00:00+01:00", "end_date_time": "2026-01-05T09:00:00+01:00"])
        // weight-1: 72,500 g entered by hand at 07:00 on the 5th: 72.5 kg, self-reported.
        let weight = try #require(point("EB121E51-EDA9-5BD1-95A5-98FA5769F4DF"))
        #expect((weight["header"] as? [String: Any])?["modality"] as? String == "self-reported")
        let body = try #require(weight["body"] as? [String: Any])
        #expect((body["body_weight"] as? [String: Any])?["unit"] as? String == "kg")
        #expect(Self.value(body["body_weight"]) == 72.5)
        // pressure-1: 121/79 mmHg.
        let pressure = try #require(point("C389C265-B92D-5FC8-8DF7-D3C07C2B662D")?["body"] as? [String: Any])
        #expect(Self.value(pressure["systolic_blood_pressure"]) == 121)
        #expect(Self.value(pressure["diastolic_blood_pressure"]) == 79)
        // One person: every point's user_id is the same.
        let users = Set(points.compactMap { ($0["header"] as? [String: Any])?["user_id"] as? String })
        #expect(users.count == 1)
    }

    @Test func daysAndTheNightAreDataPointsWithHealthConnectsTotals() throws {
        let fixture = try HealthConnectFixture.make()
        var steps: [String: Double] = [:]
        for point in try Self.run("days", fixture.zip, "--format", "omh") {
            guard let body = point["body"] as? [String: Any], body["step_count"] != nil else { continue }
            let frame = (body["effective_time_frame"] as? [String: Any])?["time_interval"] as? [String: String]
            // Each day from local midnight to local midnight, at the records' +01:00.
            let start = try #require(frame?["start_date_time"])
            #expect(start.hasSuffix("T00:00:00+01:00"), "\(start)")
            steps[String(start.prefix(10))] = Self.value(body["step_count"])
        }
        #expect(steps == Self.steps)

        let episodes = try Self.run("sleep", fixture.zip, "--format", "omh")
        #expect(episodes.count == 1)
        let body = try #require(episodes.first?["body"] as? [String: Any])
        #expect(
            (body["effective_time_frame"] as? [String: Any])?["time_interval"] as? [String: String]
                == ["start_date_time": Self.onset, "end_date_time": Self.awakening])
        #expect(Self.value(body["total_sleep_time"]) == 26_100)
        #expect(Self.value(body["sleep_maintenance_efficiency_percentage"]) == 100)
        let stages = try #require(body["healthport_sleep_stages"] as? [String: Any])
        #expect(Self.value(stages["in_bed"]) == 28_800)
        #expect(Self.value(stages["asleep_core"]) == 17_100)
        #expect(Self.value(stages["asleep_deep"]) == 5_400)
        #expect(Self.value(stages["asleep_rem"]) == 3_600)
        #expect(Self.value(stages["awake"]) == 2_700)
    }
}
