import Foundation
import HealthTestSupport
import Testing

/// A Health Connect export through the commands: recognised by content (the zip or the bare
/// database), converted, and totalled as Health Connect totals, from its own priority list.
/// The totals below are worked by hand from the fixture's rows (`make-fixture.py`), never by
/// the code under test.
@Suite struct HealthConnectCommandTests {
    static func days(_ input: String) throws -> [String: [String: String]] {
        let result = try healthport("days", input, "--format", "csv", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = parseCSV(result.stdoutText)
        guard let header = rows.first else { return [:] }
        var byDate: [String: [String: String]] = [:]
        for row in rows.dropFirst() {
            let fields = Dictionary(uniqueKeysWithValues: zip(header, row))
            byDate[fields["date"] ?? ""] = fields
        }
        return byDate
    }

    /// Health Connect's rule (`PriorityRecordsAggregator`): over the segments between all
    /// records' boundaries, the highest-priority app's record open there counts, pro-rated by
    /// overlap; the pedometer, on no list, never counts. Activity: Samsung Health, then Fit.
    @Test func stepsEnergyAndDistanceAreHealthConnectsTotals() throws {
        let fixture = try HealthConnectFixture.make()
        let days = try Self.days(fixture.zip)
        // 2026-01-05:
        //   08:00–08:30 Samsung alone, 600 × 30/60 = 300
        //   08:30–09:00 Samsung over Fit,  600 × 30/60 = 300
        //   09:00–09:30 Fit alone,         900 × 30/60 = 450
        //   10:00–11:00 pedometer, not on the list: 0 (Apple's merge would add 5,000)
        //   12:00–12:30 Samsung 300;  18:00–18:20 Fit 200
        //   23:30–24:00 Samsung, 120 × 30/60 = 60 (the rest falls on the 6th)
        //   300 + 300 + 450 + 300 + 200 + 60 = 1,610
        #expect(Double(days["2026-01-05"]?["steps"] ?? "") == 1610)
        // 2026-01-06: 00:00–00:30 the same record's other 60; 07:00–07:40 both apps, Samsung's
        // 350 counts and Fit's 400 does not: 60 + 350 = 410.
        #expect(Double(days["2026-01-06"]?["steps"] ?? "") == 410)
        // 2026-01-07: Fit 1,000; Samsung 15:00–15:30 alone, 100 × 30/60 = 50; 15:30–16:00 two
        // Samsung records, the one modified last (80 steps, all in that half hour) counts:
        // 1,000 + 50 + 80 = 1,130.
        #expect(Double(days["2026-01-07"]?["steps"] ?? "") == 1130)
        // Active energy on the 5th: 45 kcal over 08:00–09:00 (Samsung), 60 kcal over
        // 08:30–09:30 (Fit): 45 × 30/60 + 45 × 30/60 + 60 × 30/60 = 22.5 + 22.5 + 30 = 75.
        #expect(Double(days["2026-01-05"]?["active_energy_kcal"] ?? "") == 75)
        // Distance: 4,200 m and 5,000 m over the same hours: 2,100 + 2,100 + 2,500 = 6,700 m.
        #expect(Double(days["2026-01-05"]?["distance_km"] ?? "") == 6.7)
    }

    /// `stats` totals the same way: the days' sums are the ones worked above (1,610, 410,
    /// 1,130), where Apple's merge would give 6,610 (the pedometer's 5,000 counted) and 1,180
    /// (both Samsung records of the 7th counted: 50 + 50 + 80 beside Fit's 1,000).
    @Test func statsTotalsAsHealthConnectDoes() throws {
        let fixture = try HealthConnectFixture.make()
        let result = try healthport("stats", fixture.zip, "--type", "StepCount", "--interval", "day", "--format", "csv", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = parseCSV(result.stdoutText)
        let header = try #require(rows.first)
        let sumColumn = try #require(header.firstIndex { $0.hasPrefix("sum") })
        #expect(rows.dropFirst().map { Double($0[sumColumn]) } == [1610, 410, 1130])
    }

    /// A `--source-priority` of the person's own replaces the export's list, and the merge is
    /// then healthport's usual one (unlisted sources after the listed, every source counted).
    /// With Fit first on the 5th: 08:00–08:30 Samsung alone 300; 08:30–09:30 Fit 900 (over
    /// Samsung's other 300); the pedometer's 5,000 now counts; Samsung 300 at noon; Fit 200;
    /// Samsung's 60 before midnight: 300 + 900 + 5,000 + 300 + 200 + 60 = 6,760.
    @Test func aPriorityListOfOnesOwnReplacesTheExports() throws {
        let fixture = try HealthConnectFixture.make()
        let result = try healthport("days", fixture.zip, "--source-priority", "Fit", "--format", "csv", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = parseCSV(result.stdoutText)
        let header = try #require(rows.first)
        let steps = try #require(header.firstIndex(of: "steps"))
        let fifth = rows.first { $0.first == "2026-01-05" }
        #expect(fifth.map { Double($0[steps]) } == 6760)
    }

    /// The report's days are the same Health Connect totals: the 5th's 1,610 steps, never the
    /// 6,610 of adding the pedometer in.
    @Test func theReportShowsHealthConnectsTotals() throws {
        let fixture = try HealthConnectFixture.make()
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("report.html").path
        let result = try healthport("report", fixture.zip, "--output", output, "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(html.contains("1610"))
        #expect(!html.contains("6610"))
    }

    /// An export whose priority table has no activity list (none set yet) is not totalled to
    /// zero: its steps merge as Apple's exports do, every app counted. The 7th: Fit's 1,000 and
    /// Samsung's two records, both counted (one source): 50 + 50 + 80 = 180; 1,180.
    @Test func noListMergesAsForApplesExports() throws {
        let fixture = try HealthConnectFixture.make()
        let unlisted = try HealthConnectFixture.altered(
            fixture.database, sql: "DELETE FROM health_data_category_priority_table WHERE health_data_category = 1;")
        let days = try Self.days(unlisted)
        #expect(Double(days["2026-01-07"]?["steps"] ?? "") == 1180)
    }

    /// The night ending on the 6th: in bed 23:00–07:00 (480 min); asleep in the light, deep
    /// and REM stages: 23:15–01:00 (105) + 01:00–02:30 (90) + 02:30–03:30 (60) + 03:30–06:30
    /// (180) = 435 min.
    @Test func theNightFromItsStages() throws {
        let fixture = try HealthConnectFixture.make()
        let days = try Self.days(fixture.database)
        #expect(Double(days["2026-01-06"]?["asleep_min"] ?? "") == 435)
        #expect(Double(days["2026-01-06"]?["in_bed_min"] ?? "") == 480)
    }

    /// A session without stages is all sleep, as Health Connect counts it: 23:00–07:00 is
    /// 480 minutes asleep, and no time in bed is claimed.
    @Test func aSessionWithoutStagesIsSleep() throws {
        let fixture = try HealthConnectFixture.make()
        let stageless = try HealthConnectFixture.altered(fixture.database, sql: "DELETE FROM sleep_stages_table;")
        let days = try Self.days(stageless)
        #expect(Double(days["2026-01-06"]?["asleep_min"] ?? "") == 480)
        let inBed = days["2026-01-06"]?["in_bed_min"] ?? ""
        #expect(inBed.isEmpty)
    }

    /// `convert` takes the zip, recognised by content (renamed, it is still read), and writes
    /// every record, uuids kept.
    @Test func convertReadsTheZipByContent() throws {
        let fixture = try HealthConnectFixture.make()
        let renamed = try Fixtures.temporaryDirectory().appendingPathComponent("phone-backup.bin").path
        try FileManager.default.copyItem(atPath: fixture.zip, toPath: renamed)
        let result = try healthport("convert", renamed, "--format", "ndjson", "-o", "-", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n").filter { $0.contains("\"uuid\"") }
        // One line an object: the 86 HealthConnectReaderTests counts.
        #expect(lines.count == 86)
        #expect(result.stdoutText.contains("ED31C3CF-3F56-5394-94F1-4B8E9822C2AB"))
    }

    /// A database that is not Health Connect's is refused as no export, naming the table.
    @Test func aForeignDatabaseIsRefused() throws {
        let fixture = try HealthConnectFixture.make()
        let foreign = try HealthConnectFixture.altered(fixture.database, sql: "DROP TABLE device_info_table;")
        let result = try healthport("convert", foreign, "--format", "ndjson", "-o", "-", "-q")
        #expect(result.status != 0)
        #expect(result.stderrText.contains("device_info_table"))
    }

    /// Two exports of one phone: the second lost the pedometer's record (row 3, `steps-3`) and
    /// gained one. Health Connect keeps a record's uuid across exports, so `diff` lists exactly
    /// those two, and nothing that stayed.
    @Test func diffListsTheRecordsAddedAndDeleted() throws {
        let fixture = try HealthConnectFixture.make()
        let later = try HealthConnectFixture.altered(
            fixture.database,
            sql: """
                DELETE FROM steps_record_table WHERE row_id = 3;
                INSERT INTO steps_record_table (uuid, last_modified_time, device_info_id, app_info_id, recording_method,
                    start_time, start_zone_offset, end_time, end_zone_offset, local_date, count)
                VALUES (X'00112233445566778899AABBCCDDEEFF', 1767812400000, 2, 2, 2, 1767808800000, 3600, 1767812400000, 3600, 20460, 777);
                """)
        let result = try healthport("diff", fixture.zip, later, "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        var added: [String] = []
        var deleted: [String] = []
        for line in try ndjsonObjects(result.stdout) {
            switch line["type"] as? String {
            case "added": added.append(((line["object"] as? [String: Any])?["uuid"] as? String) ?? "")
            case "deleted": deleted.append((line["uuid"] as? String) ?? "")
            default: break
            }
        }
        #expect(added.map { $0.uppercased() } == ["00112233-4455-6677-8899-AABBCCDDEEFF"])
        #expect(deleted.map { $0.uppercased() } == ["0739B3E7-0993-5C9D-BAD6-D6507EAB03F0"])
    }

    /// Standard input holds either the zip or the database.
    @Test func standardInputTakesTheZipOrTheDatabase() throws {
        let fixture = try HealthConnectFixture.make()
        for path in [fixture.zip, fixture.database] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let result = try healthport("convert", "-", "--format", "ndjson", "-o", "-", "-q", stdin: bytes)
            #expect(result.status == 0, "\(path): \(result.stderrText)")
            #expect(result.stdoutText.contains("ED31C3CF-3F56-5394-94F1-4B8E9822C2AB"), "\(path)")
        }
    }

    /// De-identified, a Health Connect export keeps no app package, no device's product model
    /// and no app or device name of its own, in any format: the same rule as an Apple Watch's
    /// hardware version.
    @Test func deidentifiedOutputKeepsNoPackageOrDeviceModel() throws {
        let fixture = try HealthConnectFixture.make()
        let directory = try Fixtures.temporaryDirectory()
        let key = directory.appendingPathComponent("study.key").path
        for format in ["ndjson", "csv", "fhir", "omh"] {
            let output = directory.appendingPathComponent("out-\(format)").path
            let result = try healthport("convert", fixture.zip, "--format", format, "--deidentify", key, "--output", output, "-q")
            #expect(result.status == 0, "\(format): \(result.stderrText)")
            var written = ""
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), isFolder.boolValue {
                for name in try FileManager.default.subpathsOfDirectory(atPath: output) {
                    written += (try? String(contentsOfFile: output + "/" + name, encoding: .utf8)) ?? ""
                }
            } else {
                written = try String(contentsOfFile: output, encoding: .utf8)
            }
            #expect(!written.isEmpty, "\(format)")
            for secret in ["SM-R930", "Pixel 8", "com.google.android.apps.fitness", "com.sec.android", "Samsung Health"] {
                #expect(!written.contains(secret), "\(format) keeps \(secret)")
            }
        }
    }

    /// De-identified, a Health Connect export still totals as Health Connect does: its samples'
    /// package names and its priority list's are the same pseudonyms (`app-…`), and each record's
    /// last modification is kept, shifted. Before, the list named real packages that no sample
    /// carried any more, and every step was left out of the daily summary.
    ///
    /// A de-identified output cuts days in UTC (the zones are gone), so the days are the ones
    /// worked above moved an hour earlier (the fixture's records are at +01:00), then shifted:
    /// the 5th keeps the whole late Samsung record (23:30–00:30 local is 22:30–23:30 UTC), 300 +
    /// 300 + 450 + 300 + 200 + 120 = 1,670; the 6th is Samsung's 350 alone; the 7th 1,130.
    @Test func deidentifiedTotalsAreHealthConnectsTotals() throws {
        let fixture = try HealthConnectFixture.make()
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("out").path
        let result = try healthport(
            "convert", fixture.zip, "--format", "csv", "--summaries", "--deidentify", directory.appendingPathComponent("study.key").path,
            "--output", output, "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = parseCSV(try String(contentsOfFile: output + "/daily-summary.csv", encoding: .utf8))
        let header = try #require(rows.first)
        var steps: [String: Double] = [:]
        for row in rows.dropFirst() {
            let fields: [String: String] = Dictionary(uniqueKeysWithValues: zip(header, row))
            guard fields["sampleType"] == "HKQuantityTypeIdentifierStepCount", let date = fields["date"] else { continue }
            steps[date] = Double(fields["sum"] ?? "")
        }
        let byDay: [Double] = steps.keys.sorted().compactMap { steps[$0] }
        #expect(byDay == [1670, 350, 1130], "\(rows)")
    }

    /// Converted to NDJSON and read back, a Health Connect export still totals as Health Connect
    /// does: the header line keeps the priority list and each sample its app's package
    /// (`bundleIdentifier`). Before, both were lost and the NDJSON merged as Apple's exports do
    /// (6,610 steps on the 5th, the pedometer's 5,000 counted). The days are the ones worked above.
    @Test func ndjsonReadBackTotalsAsTheExport() throws {
        let fixture = try HealthConnectFixture.make()
        let directory = try Fixtures.temporaryDirectory()
        let ndjson = directory.appendingPathComponent("export.ndjson").path
        let converted = try healthport("convert", fixture.zip, "--output", ndjson, "-q")
        #expect(converted.status == 0, "\(converted.stderrText)")
        let header = try String(contentsOfFile: ndjson, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("\"healthConnectPriority\":{\"activity\":["), "\(header)")
        #expect(header.contains("\"platform\":\"healthConnect\""), "\(header)")
        let days = try Self.days(ndjson)
        #expect(Double(days["2026-01-05"]?["steps"] ?? "") == 1610)
        #expect(Double(days["2026-01-06"]?["steps"] ?? "") == 410)
        #expect(Double(days["2026-01-07"]?["steps"] ?? "") == 1130)
    }

    /// Under a policy, the header's priority list keeps only the categories of types the
    /// consumer reads: granted heart rate alone, no list (it names the apps the person uses for
    /// activity and sleep); granted steps, the activity list alone, and the steps still total as
    /// Health Connect's (1,610 on the 5th, worked above).
    @Test func aPolicyKeepsThePriorityListOfWhatItGrants() throws {
        let fixture = try HealthConnectFixture.make()
        let directory = try Fixtures.temporaryDirectory()
        func header(_ read: String) throws -> (line: String, output: String) {
            let policy = directory.appendingPathComponent("policy-\(read.count).json")
            try Data(#"{"version": 1, "consumer": {"name": "Study"}, "read": {\#(read)}}"#.utf8).write(to: policy)
            let output = directory.appendingPathComponent("out-\(read.count).ndjson").path
            let result = try healthport("convert", fixture.zip, "--policy", policy.path, "--output", output, "-q")
            #expect(result.status == 0, "\(result.stderrText)")
            let text = try String(contentsOfFile: output, encoding: .utf8)
            return (text.split(separator: "\n").first.map(String.init) ?? "", output)
        }
        let heartRate = try header(#""HKQuantityTypeIdentifierHeartRate": "granted""#)
        #expect(!heartRate.line.contains("healthConnectPriority"), "\(heartRate.line)")
        #expect(!heartRate.line.contains("com."), "\(heartRate.line)")
        let steps = try header(#""HKQuantityTypeIdentifierStepCount": "granted""#)
        #expect(steps.line.contains("\"healthConnectPriority\":{\"activity\":["), "\(steps.line)")
        #expect(!steps.line.contains("\"sleep\""), "\(steps.line)")
        #expect(Double(try Self.days(steps.output)["2026-01-05"]?["steps"] ?? "") == 1610)
    }

    /// Health Connect's total calories (a type of its own: HealthKit has none) is summed, as the
    /// Health Connect app shows a day's total: the fixture's one record, 2,100,000 small calories
    /// over the 5th, is 2,100 kcal in the sum column, and no average is given.
    @Test func totalCaloriesAreASum() throws {
        let fixture = try HealthConnectFixture.make()
        let result = try healthport("summary", fixture.zip, "--type", "HealthConnectTotalCaloriesBurned", "--format", "json", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = result.stdoutText.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let days = rows.filter { ($0["sum"] as? Double) != nil }
        #expect(days.count == 1, "\(result.stdoutText)")
        #expect(days.first?["sum"] as? Double == 2100, "\(result.stdoutText)")
        #expect(days.first?["average"] == nil || days.first?["average"] is NSNull, "\(result.stdoutText)")
    }
}
