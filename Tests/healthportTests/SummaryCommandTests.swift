import Foundation
import HealthTestSupport
import Testing

/// `healthport summary`, `healthport sleep` and `convert --summaries`: the numbers worked out
/// by hand below, in every format, over an export and a store; what the commands refuse.
@Suite struct SummaryCommandTests {
    static let watch =
        "sourceName=\"Apple Watch\" device=\"&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.2&gt;\""
    static let phone =
        "sourceName=\"iPhone\" device=\"&lt;&lt;HKDevice: 0x2&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.2&gt;\""
    static let app = "sourceName=\"Sleep++\""

    /// One day of steps and one night, in UTC:
    /// - steps: the iPhone 1000 from 10:00 to 10:20, the Watch 600 from 10:10 to 10:20. The
    ///   Watch wins its ten minutes; the iPhone keeps 10:00–10:10, half its interval: 500.
    ///   The day: 600 + 500 = 1100 (the raw samples add to 1600);
    /// - heart rate: 60 and 90 from the Watch: average 75, minimum 60, maximum 90;
    /// - the night of 2 March: the Watch's stages (core 23:00–01:00, deep 01:00–02:00, REM
    ///   02:00–03:00, awake 03:00–03:15, core 03:15–06:00), the iPhone's in-bed 22:30–06:30, and
    ///   a sleep app's asleep 23:30–06:15, which adds only what no Watch stage covers:
    ///   06:00–06:15. Asleep: 2 h + 1 h + 1 h + 2 h 45 + 15 min = 7 h (25,200 s), of which core
    ///   4 h 45 (17,100 s), deep and REM 1 h each, unspecified 15 min (900 s); awake 15 min;
    ///   in bed 8 h (28,800 s); asleep from 23:00 to 06:15.
    static func export() throws -> URL {
        var text = "<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-03-10 09:00:00 +0000\"/>\n"
        func record(_ type: String, _ source: String, _ start: String, _ end: String, _ rest: String) {
            text += " <Record type=\"\(type)\" \(source) startDate=\"2024-03-\(start) +0000\" endDate=\"2024-03-\(end) +0000\" \(rest)/>\n"
        }
        record("HKQuantityTypeIdentifierStepCount", phone, "01 10:00:00", "01 10:20:00", "unit=\"count\" value=\"1000\"")
        record("HKQuantityTypeIdentifierStepCount", watch, "01 10:10:00", "01 10:20:00", "unit=\"count\" value=\"600\"")
        record("HKQuantityTypeIdentifierHeartRate", watch, "01 12:00:00", "01 12:00:00", "unit=\"count/min\" value=\"60\"")
        record("HKQuantityTypeIdentifierHeartRate", watch, "01 13:00:00", "01 13:00:00", "unit=\"count/min\" value=\"90\"")
        let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
        record(sleep, phone, "01 22:30:00", "02 06:30:00", "value=\"HKCategoryValueSleepAnalysisInBed\"")
        record(sleep, watch, "01 23:00:00", "02 01:00:00", "value=\"HKCategoryValueSleepAnalysisAsleepCore\"")
        record(sleep, watch, "02 01:00:00", "02 02:00:00", "value=\"HKCategoryValueSleepAnalysisAsleepDeep\"")
        record(sleep, watch, "02 02:00:00", "02 03:00:00", "value=\"HKCategoryValueSleepAnalysisAsleepREM\"")
        record(sleep, watch, "02 03:00:00", "02 03:15:00", "value=\"HKCategoryValueSleepAnalysisAwake\"")
        record(sleep, watch, "02 03:15:00", "02 06:00:00", "value=\"HKCategoryValueSleepAnalysisAsleepCore\"")
        record(sleep, app, "01 23:30:00", "02 06:15:00", "value=\"HKCategoryValueSleepAnalysisAsleepUnspecified\"")
        text += "</HealthData>\n"
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        try Data(text.utf8).write(to: url)
        return url
    }

    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    @Test func theDayIsTheMergeNotTheSumOfTheSamples() throws {
        let export = try Self.export()
        let result = try healthport("summary", export.path, "--tz", "UTC", "--format", "ndjson")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = try ndjsonObjects(result.stdout)
        let steps = try #require(rows.first { $0["sampleType"] as? String == "HKQuantityTypeIdentifierStepCount" })
        #expect(steps["date"] as? String == "2024-03-01")
        #expect(Self.number(steps["sum"]) == 1100)
        #expect(Self.number(steps["count"]) == 2)
        #expect(steps["unit"] as? String == "count")
        #expect((steps["sources"] as? [String])?.sorted() == ["Apple Watch", "iPhone"])
        let heart = try #require(rows.first { $0["sampleType"] as? String == "HKQuantityTypeIdentifierHeartRate" })
        #expect(Self.number(heart["minimum"]) == 60 && Self.number(heart["maximum"]) == 90)
        #expect(abs((Self.number(heart["average"]) ?? 0) - 75) < 1e-9)
        #expect(heart["sum"] == nil)
        // The same day from stats.
        let stats = try healthport("stats", export.path, "--type", "StepCount", "--tz", "UTC", "--format", "csv", "-q")
        #expect(parseCSV(stats.stdoutText).dropFirst().first?[2] == "1100")
    }

    @Test func aNightResolvesItsSourcesAndAddsNothingTwice() throws {
        let export = try Self.export()
        let result = try healthport("sleep", export.path, "--tz", "UTC", "--format", "json", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let nights = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        #expect(nights.count == 1)
        let night = try #require(nights.first)
        #expect(night["night"] as? String == "2024-03-02")
        #expect(Self.number(night["asleep"]) == 25_200)
        #expect(Self.number(night["asleepCore"]) == 17_100)
        #expect(Self.number(night["asleepDeep"]) == 3600 && Self.number(night["asleepREM"]) == 3600)
        #expect(Self.number(night["asleepUnspecified"]) == 900)
        #expect(Self.number(night["awake"]) == 900)
        #expect(Self.number(night["inBed"]) == 28_800)
        #expect(night["sleepStart"] as? String == "2024-03-01T23:00:00+00:00")
        #expect(night["sleepEnd"] as? String == "2024-03-02T06:15:00+00:00")
        // An evening boundary at 23:30 puts the first half hour of sleep in the night before.
        let late = try ndjsonObjects(try healthport("sleep", export.path, "--tz", "UTC", "--evening", "23:30", "--format", "ndjson", "-q").stdout)
        #expect(late.count == 2)
        #expect(late.map { $0["night"] as? String } == ["2024-03-01", "2024-03-02"])
        // The text table a person reads.
        let text = try healthport("sleep", export.path, "--tz", "UTC", "-q").stdoutText.split(separator: "\n")
        #expect(text.count == 2)
        // The naps column is empty: no nap that day.
        #expect(text[1].hasPrefix("2024-03-02      8:00    7:00   4:45   1:00   1:00   0:15   0:15         23:00      06:15"))
    }

    @Test func theStoreGivesTheSameRows() throws {
        let export = try Self.export()
        let store = export.deletingLastPathComponent().appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", export.path, "--store", store, "-q").status == 0)
        for command in ["summary", "sleep"] {
            let fromExport = try healthport(command, export.path, "--tz", "UTC", "--format", "csv", "-q")
            let fromStore = try healthport(command, "--store", store, "--tz", "UTC", "--format", "csv", "-q")
            #expect(fromStore.status == 0, "\(fromStore.stderrText)")
            #expect(fromStore.stdout == fromExport.stdout, "\(command)")
            #expect(parseCSV(fromStore.stdoutText).count > 1)
        }
    }

    @Test func convertWritesTheSummaryTablesBesideTheObjects() throws {
        let export = try Self.export()
        let folder = export.deletingLastPathComponent().appendingPathComponent("csv")
        let result = try healthport("convert", export.path, "--format", "csv", "--output", folder.path, "--summaries", "--tz", "UTC", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let daily = try String(contentsOf: folder.appendingPathComponent("daily-summary.csv"), encoding: .utf8)
        let command = try healthport("summary", export.path, "--tz", "UTC", "--format", "csv", "-q").stdoutText
        #expect(daily == command)
        let nights = parseCSV(try String(contentsOf: folder.appendingPathComponent("sleep-nights.csv"), encoding: .utf8))
        #expect(nights.count == 2 && nights[1][0] == "2024-03-02" && nights[1][2] == "25200")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("StepCount.csv").path))
        // Tables only: not NDJSON; not to standard output nor one Parquet file, which hold one
        // table (refused as such before the summaries are looked at).
        let ndjson = try healthport("convert", export.path, "--summaries", "--format", "ndjson", "--output", folder.path + "-n", "-q")
        #expect(ndjson.status == 64)
        #expect(ndjson.stderrText.contains("--summaries are tables"), "\(ndjson.stderrText)")
        for arguments in [["--format", "csv"], ["--format", "parquet", "--output", folder.path + ".parquet"]] {
            #expect(try healthport(["convert", export.path, "--summaries", "-q"] + arguments).status == 64, "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "-n"))
    }

    @Test func emptyAnswersSaySoAndBadOptionsAreRefused() throws {
        let export = try Self.export()
        let none = try healthport("summary", export.path, "--type", "RestingHeartRate", "--tz", "UTC")
        #expect(none.status == 0)
        #expect(none.stdout.isEmpty)
        #expect(none.stderrText == "healthport: warning: no RestingHeartRate samples to show\n")
        // A policy that denies sleep: the same words as no sleep at all.
        let policy = export.deletingLastPathComponent().appendingPathComponent("policy.json")
        try Data(
            #"{"version": 1, "consumer": {"name": "x"}, "read": {"HKQuantityTypeIdentifierStepCount": "granted", "HKCategoryTypeIdentifierSleepAnalysis": "denied", "HKQuantityTypeIdentifierHeartRate": "denied"}}"#
                .utf8
        ).write(to: policy)
        let denied = try healthport("sleep", export.path, "--policy", policy.path, "--tz", "UTC")
        #expect(denied.status == 0)
        #expect(denied.stdout.isEmpty)
        #expect(denied.stderrText == "healthport: warning: no nights of sleep to show\n")
        // Empty CSV still names its columns (a header pandas or a spreadsheet reads), denied or
        // absent alike.
        let emptyCSV = try healthport("sleep", export.path, "--policy", policy.path, "--tz", "UTC", "--format", "csv", "-q")
        #expect(emptyCSV.status == 0)
        #expect(emptyCSV.stdoutText.hasPrefix("night,inBed,asleep,") && parseCSV(emptyCSV.stdoutText).count == 1)
        let noDays = try healthport("summary", export.path, "--type", "RestingHeartRate", "--tz", "UTC", "--format", "csv", "-q")
        #expect(noDays.stdoutText.hasPrefix("date,sampleType,unit,") && parseCSV(noDays.stdoutText).count == 1)
        // And an empty Parquet table has its columns (pyarrow reads them in python/tests).
        let emptyParquet = export.deletingLastPathComponent().appendingPathComponent("nights.parquet")
        #expect(try healthport("sleep", export.path, "--policy", policy.path, "--tz", "UTC", "-f", "parquet", "-o", emptyParquet.path, "-q").status == 0)
        let footer = String(decoding: try Data(contentsOf: emptyParquet), as: UTF8.self)
        #expect(["night", "sleepStart_utcOffset", "naps", "sources"].allSatisfy { footer.contains($0) })
        let hidden = try ndjsonObjects(
            try healthport("summary", export.path, "--type", "StepCount,HeartRate,SleepAnalysis", "--policy", policy.path, "--tz", "UTC", "-f", "ndjson", "-q").stdout)
        #expect(hidden.map { $0["sampleType"] as? String } == ["HKQuantityTypeIdentifierStepCount"])
        for evening in ["25:00", "6pm", "18", "18:5"] {
            let refused = try healthport("sleep", export.path, "--evening", evening)
            #expect(refused.status == 64, "\(evening)")
            #expect(refused.stderrText.contains("is not a time of day"), "\(evening)")
        }
        #expect(try healthport("summary", export.path, "--format", "parquet").status == 64)
        #expect(try healthport("summary", export.path, "--unit", "kg").status == 64)
        // The output may not replace the input.
        #expect(try healthport("summary", export.path, "--output", export.path, "-q").status == 64)
        #expect(FileManager.default.fileExists(atPath: export.path))
    }
}
