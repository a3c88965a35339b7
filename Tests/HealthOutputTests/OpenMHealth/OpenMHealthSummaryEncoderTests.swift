import Foundation
import HealthJSON
import HealthModel
import HealthTestSupport
import Testing
@testable import HealthOutput

/// Nights as sleep episodes and days as data points, with figures worked by hand.
@Suite struct OpenMHealthSummaryEncoderTests {
    /// The lines written into `out`, parsed.
    static func json(_ out: OutputBuffer) throws -> [[String: Any]] {
        return try String(decoding: out.takeBytes(), as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    static func unitValue(_ member: Any?) -> String? {
        guard let member = member as? [String: Any], let value = member["value"] as? NSNumber, let unit = member["unit"] as? String else {
            return nil
        }
        return "\(value) \(unit)"
    }

    @Test func aNightIsOneSleepEpisodeFromOnsetToFinalAwakening() throws {
        // Onset 23:00, final awakening 06:30: 27,000 s. Asleep 19,800 + 3,600 + 2,700 = 26,100 s:
        // 26,100 / 27,000 = 96.666… %, 96.7 to one decimal.
        let night = SleepNight(
            night: CalendarDate(year: 2024, month: 1, day: 16), inBed: 29_700, asleepUnspecified: 0, asleepCore: 19_800, asleepDeep: 3_600,
            asleepREM: 2_700, awake: 900, sleepStart: ExportTimestamp.parse("2024-01-15 23:00:00 +0100"),
            sleepEnd: ExportTimestamp.parse("2024-01-16 06:30:00 +0100"), sources: ["W"])
        var encoder = OpenMHealthSummaryEncoder()
        let out = OutputBuffer(descriptor: -1, capacity: 4096)
        let wrote = encoder.write(night, to: out)
        #expect(wrote)
        let points = try Self.json(out)
        #expect(points.count == 1)
        let header = try #require(points[0]["header"] as? [String: Any])
        #expect(header["schema_id"] as? [String: String] == ["namespace": "omh", "name": "sleep-episode", "version": "1.1"])
        #expect(header["source_creation_date_time"] as? String == "2024-01-16T06:30:00+01:00")
        // A night merges sources: no single modality or device.
        #expect(header["modality"] == nil && header["external_datasheets"] == nil)
        let body = try #require(points[0]["body"] as? [String: Any])
        #expect(
            (body["effective_time_frame"] as? [String: Any])?["time_interval"] as? [String: String]
                == ["start_date_time": "2024-01-15T23:00:00+01:00", "end_date_time": "2024-01-16T06:30:00+01:00"])
        #expect(Self.unitValue(body["total_sleep_time"]) == "26100 sec")
        #expect(Self.unitValue(body["sleep_maintenance_efficiency_percentage"]) == "96.7 %")
        #expect(body["is_main_sleep"] as? Bool == true)
        #expect(body["wake_after_sleep_onset"] == nil)
        let stages = try #require(body["healthport_sleep_stages"] as? [String: Any])
        #expect(Self.unitValue(stages["asleep_core"]) == "19800 sec")
        #expect(Self.unitValue(stages["asleep_deep"]) == "3600 sec")
        #expect(Self.unitValue(stages["asleep_rem"]) == "2700 sec")
        #expect(Self.unitValue(stages["awake"]) == "900 sec")
        #expect(Self.unitValue(stages["in_bed"]) == "29700 sec")

        // The same night again has the same uuid; another night another.
        var again = OpenMHealthSummaryEncoder()
        _ = again.write(night, to: out)
        let second = try Self.json(out)
        var other = night
        other.night = CalendarDate(year: 2024, month: 1, day: 17)
        _ = again.write(other, to: out)
        let third = try Self.json(out)
        let uuid = (points[0]["header"] as? [String: Any])?["uuid"] as? String
        #expect(uuid != nil && uuid == (second[0]["header"] as? [String: Any])?["uuid"] as? String)
        #expect(uuid != (third[0]["header"] as? [String: Any])?["uuid"] as? String)
    }

    @Test func aNightWithTimeInBedOnlyIsLeftOutAndCounted() throws {
        let night = SleepNight(
            night: CalendarDate(year: 2024, month: 1, day: 16), inBed: 28_800, asleepUnspecified: 0, asleepCore: 0, asleepDeep: 0,
            asleepREM: 0, awake: 0, sleepStart: nil, sleepEnd: nil, sources: ["iPhone"])
        var encoder = OpenMHealthSummaryEncoder()
        let out = OutputBuffer(descriptor: -1, capacity: 4096)
        let wrote = encoder.write(night, to: out)
        #expect(!wrote)
        #expect(try Self.json(out).isEmpty)
        #expect(encoder.tally.leftOut.values.reduce(0, +) == 1)
    }

    @Test func aDayRunsFromLocalMidnightToLocalMidnightAcrossTheSpringChange() throws {
        // Paris moves to summer time on 31 March 2024: the day begins at +01:00 and ends at
        // +02:00, 23 hours later.
        let steps = try #require(DayColumn.all.firstIndex { $0.name == "steps" })
        let hrv = try #require(DayColumn.all.firstIndex { $0.name == "hrv_sdnn_ms" })
        let resting = try #require(DayColumn.all.firstIndex { $0.name == "resting_heart_rate_bpm" })
        var day = DayRow(date: CalendarDate(year: 2024, month: 3, day: 31))
        day.values[steps] = 8_012
        day.values[hrv] = 41
        day.values[resting] = 54
        var encoder = OpenMHealthSummaryEncoder()
        let out = OutputBuffer(descriptor: -1, capacity: 4096)
        let written = encoder.write(day, columns: [steps, resting, hrv], timeZone: TimeZone(identifier: "Europe/Paris")!, to: out)
        #expect(written == 2)
        let points = try Self.json(out)
        #expect(points.count == 2)
        let body = try #require(points[0]["body"] as? [String: Any])
        #expect(Self.unitValue(body["step_count"]) == "8012 steps")
        #expect(
            (body["effective_time_frame"] as? [String: Any])?["time_interval"] as? [String: String]
                == ["start_date_time": "2024-03-31T00:00:00+01:00", "end_date_time": "2024-04-01T00:00:00+02:00"])
        let heart = try #require(points[1]["body"] as? [String: Any])
        #expect(Self.unitValue(heart["heart_rate"]) == "54 beats/min")
        #expect(heart["descriptive_statistic"] as? String == "average")
        #expect(heart["temporal_relationship_to_physical_activity"] as? String == "at rest")
        #expect(encoder.tally.leftOut == ["days' hrv_sdnn_ms (no Open mHealth schema)": 1])
        #expect(encoder.tally.written == ["omh:step-count:3.0": 1, "omh:heart-rate:2.0": 1])
    }

    @Test func onlyNightsAndDaysHaveDataPoints() throws {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("w.ndjson").path
        for table: SummaryTableWriter.Table in [.workouts, .daily] {
            #expect(throws: OutputError.self) {
                _ = try SummaryTableWriter(table: table, format: .omh, to: .path(path))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
