import Foundation
import HealthTestSupport
import Testing

/// `--format omh` through the binary: one data point per object a schema takes, with the
/// object's uuid, against the NDJSON of the same export; the nights of `sleep` and the days of
/// `days` as data points with the tables' own figures; what is left out said with its count;
/// the tables and commands that have no data points refused before anything is written.
@Suite struct OpenMHealthCommandTests {
    static func header(_ point: [String: Any]) -> [String: Any] { point["header"] as? [String: Any] ?? [:] }
    static func schema(_ point: [String: Any]) -> String? { (header(point)["schema_id"] as? [String: String])?["name"] }

    @Test func everyHeartRateIsOneDataPointWithItsUuidTimeAndValue() throws {
        let ndjson = try healthport("query", sampleZip, "--type", "HeartRate", "-q")
        #expect(ndjson.status == 0)
        let samples = try ndjsonObjects(ndjson.stdout).filter { $0["kind"] as? String == "quantitySample" }
        let omh = try healthport("query", sampleZip, "--type", "HeartRate", "--format", "omh")
        #expect(omh.status == 0, "\(omh.stderrText)")
        let points = try ndjsonObjects(omh.stdout)
        #expect(!samples.isEmpty && points.count == samples.count)
        for (sample, point) in zip(samples, points) {
            #expect(Self.header(point)["uuid"] as? String == sample["uuid"] as? String)
            #expect(Self.schema(point) == "heart-rate")
            let body = try #require(point["body"] as? [String: Any])
            let rate = try #require(body["heart_rate"] as? [String: Any])
            // count/min is beats/min: the same number.
            let quantity = try #require(sample["quantity"] as? [String: Any])
            #expect(quantity["unit"] as? String == "count/min")
            #expect((rate["value"] as? NSNumber)?.doubleValue == (quantity["value"] as? NSNumber)?.doubleValue)
            #expect(rate["unit"] as? String == "beats/min")
            let frame = try #require(body["effective_time_frame"] as? [String: Any])
            if sample["startDate"] as? String == sample["endDate"] as? String {
                #expect(frame["date_time"] as? String == sample["startDate"] as? String)
            } else {
                #expect((frame["time_interval"] as? [String: String])?["start_date_time"] == sample["startDate"] as? String)
            }
        }
        // The notes say how many points each schema got.
        #expect(omh.stderrText.contains("omh: heart-rate 2.0: \(points.count) data points"))
    }

    @Test func aConversionWritesTheTypesWithSchemasAndCountsTheRest() throws {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("points.ndjson").path
        let run = try healthport("convert", sampleZip, "--format", "omh", "--output", output)
        #expect(run.status == 0, "\(run.stderrText)")
        let points = try ndjsonObjects(Data(contentsOf: URL(fileURLWithPath: output)))
        let schemas = Set(points.compactMap(Self.schema))
        #expect(
            schemas == [
                "heart-rate", "step-count", "calories-burned", "oxygen-saturation", "respiratory-rate", "blood-pressure", "body-weight",
                "physical-activity",
            ])
        // Weight typed into the Health app is self-reported; the watch's heart rate sensed.
        let weights = points.filter { Self.schema($0) == "body-weight" }
        #expect(!weights.isEmpty && weights.allSatisfy { Self.header($0)["modality"] as? String == "self-reported" })
        #expect(points.contains { Self.schema($0) == "heart-rate" && Self.header($0)["modality"] as? String == "sensed" })
        // Oxygen saturation as a percentage, never HealthKit's fraction.
        for point in points where Self.schema(point) == "oxygen-saturation" {
            let value = ((point["body"] as? [String: Any])?["oxygen_saturation"] as? [String: Any])?["value"] as? NSNumber
            #expect((value?.doubleValue ?? 0) > 50)
        }
        // No schema for heart rate variability or sleep samples: left out, each with its count.
        #expect(run.stderrText.contains("warning: omh: 28 left out: HKQuantityTypeIdentifierHeartRateVariabilitySDNN (no Open mHealth schema)"))
        #expect(run.stderrText.contains("left out: sleep samples"))
        #expect(Set(points.compactMap { Self.header($0)["uuid"] as? String }).count == points.count)
    }

    @Test func sleepWritesOneEpisodePerNightWithTheNightsFigures() throws {
        let table = try ndjsonObjects(try healthport("sleep", sampleZip, "--format", "ndjson", "-q").stdout)
        let run = try healthport("sleep", sampleZip, "--format", "omh", "-q")
        #expect(run.status == 0, "\(run.stderrText)")
        let episodes = try ndjsonObjects(run.stdout)
        let nights = table.filter { $0["sleepStart"] is String }
        #expect(!nights.isEmpty && episodes.count == nights.count)
        for (night, episode) in zip(nights, episodes) {
            #expect(Self.schema(episode) == "sleep-episode")
            let body = try #require(episode["body"] as? [String: Any])
            let interval = (body["effective_time_frame"] as? [String: Any])?["time_interval"] as? [String: String]
            #expect(interval == ["start_date_time": night["sleepStart"] as! String, "end_date_time": night["sleepEnd"] as! String])
            #expect(((body["total_sleep_time"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue == (night["asleep"] as? NSNumber)?.doubleValue)
            let stages = try #require(body["healthport_sleep_stages"] as? [String: Any])
            #expect(((stages["asleep_deep"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue == (night["asleepDeep"] as? NSNumber)?.doubleValue)
        }
    }

    @Test func daysWriteTheTablesFiguresOverTheDay() throws {
        let table = try ndjsonObjects(try healthport("days", sampleZip, "--format", "ndjson", "-q").stdout)
        let run = try healthport("days", sampleZip, "--format", "omh")
        #expect(run.status == 0, "\(run.stderrText)")
        let points = try ndjsonObjects(run.stdout)
        let steps = points.filter { Self.schema($0) == "step-count" }
        #expect(!table.isEmpty && steps.count == table.filter { $0["steps"] is NSNumber }.count)
        for point in steps {
            let body = try #require(point["body"] as? [String: Any])
            let start = try #require(((body["effective_time_frame"] as? [String: Any])?["time_interval"] as? [String: String])?["start_date_time"])
            #expect(start.dropFirst(10).hasPrefix("T00:00:00"))
            let day = try #require(table.first { $0["date"] as? String == String(start.prefix(10)) })
            #expect(((body["step_count"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue == (day["steps"] as? NSNumber)?.doubleValue)
        }
        #expect(run.stderrText.contains("left out: days' hrv_sdnn_ms (no Open mHealth schema)"))
    }

    @Test(arguments: [
        ["days", "--period", "week", "--format", "omh"], ["summary", "--format", "omh"], ["workouts", "--format", "omh"],
        ["diff", "SampleData/export-older.zip", "--format", "omh"],
    ])
    func theOutputsWithoutDataPointsAreRefusedBeforeAnythingIsWritten(arguments: [String]) throws {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("out.ndjson").path
        var command = [arguments[0]]
        if arguments[0] == "diff" {
            command += [Fixtures.sampleData.appendingPathComponent("export-older.zip").path, sampleZip] + arguments.dropFirst(2)
        } else {
            command += [sampleZip] + arguments.dropFirst()
        }
        let run = try healthport(command + ["--output", output, "-q"])
        #expect(run.status != 0)
        #expect(run.stderrText.contains("omh") || run.stderrText.contains("Open mHealth"), "\(run.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
