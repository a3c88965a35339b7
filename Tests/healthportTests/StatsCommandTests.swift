import Foundation
import Testing
import HealthTestSupport

@Suite struct StatsCommandTests {
    struct Step {
        var startMinute: Int
        var endMinute: Int
        var value: Double
        var watch: Bool
    }

    /// Three days of overlapping Watch and iPhone step samples, on whole minutes.
    static func overlappingSteps() -> [Step] {
        var rng = SplitMix64(seed: 2024)
        var steps: [Step] = []
        for day in 0..<3 {
            var minute = day * 1440 + 360
            while minute < day * 1440 + 1380 {
                let length = 20 + Int(rng.next() % 40)
                steps.append(Step(startMinute: minute, endMinute: minute + length, value: Double(200 + rng.next() % 2000), watch: false))
                var inner = minute + Int(rng.next() % 10)
                while inner < minute + length {
                    let short = 1 + Int(rng.next() % 8)
                    steps.append(Step(startMinute: inner, endMinute: inner + short, value: Double(10 + rng.next() % 900), watch: true))
                    inner += short + Int(rng.next() % 15)
                }
                minute += length + Int(rng.next() % 90)
            }
        }
        return steps
    }

    static func xml(_ steps: [Step]) -> String {
        func date(_ minute: Int) -> String {
            let day = 1 + minute / 1440
            return String(format: "2024-03-%02d %02d:%02d:00 +0000", day, (minute % 1440) / 60, minute % 60)
        }
        var text = "<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-03-10 09:00:00 +0000\"/>\n"
        for step in steps {
            let provenance = step.watch
                ? "sourceName=\"Apple Watch\" device=\"&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.2&gt;\""
                : "sourceName=\"iPhone\" device=\"&lt;&lt;HKDevice: 0x2&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.2&gt;\""
            text += " <Record type=\"HKQuantityTypeIdentifierStepCount\" \(provenance) unit=\"count\" startDate=\"\(date(step.startMinute))\" endDate=\"\(date(step.endMinute))\" value=\"\(Int(step.value))\"/>\n"
        }
        return text + "</HealthData>\n"
    }

    /// The merge computed minute by minute: where the Watch counts, only the Watch; elsewhere the iPhone.
    static func independentMerge(_ steps: [Step]) -> [Double] {
        var days = [0.0, 0.0, 0.0]
        for minute in 0..<(3 * 1440) {
            let covering = steps.filter { $0.startMinute <= minute && minute < $0.endMinute }
            let watch = covering.filter(\.watch)
            let winners = watch.isEmpty ? covering : watch
            for step in winners { days[minute / 1440] += step.value / Double(step.endMinute - step.startMinute) }
        }
        return days
    }

    @Test func mergedDailyStepsDifferFromTheNaiveSumAndEqualAnIndependentMerge() throws {
        let steps = Self.overlappingSteps()
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("steps.xml")
        try Data(Self.xml(steps).utf8).write(to: url)
        let result = try healthport("stats", url.path, "--type", "StepCount", "--tz", "UTC", "--format", "csv", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = parseCSV(result.stdoutText).dropFirst()
        let merged = rows.map { Double($0[2])! }
        let naive = (0..<3).map { day in steps.filter { $0.startMinute / 1440 == day }.reduce(0) { $0 + $1.value } }
        let expected = Self.independentMerge(steps)
        #expect(merged.count == 3)
        for day in 0..<3 {
            #expect(abs(merged[day] - expected[day]) < 1e-6, "day \(day): \(merged[day]) vs \(expected[day])")
            #expect(merged[day] < naive[day] - 100, "day \(day): the merge must not double count")
        }
    }

    /// The README's claim is visible in the bundled sample: on every day, the records' sum
    /// counts the minutes both devices counted twice, and stats counts them once.
    @Test func theBundledSampleShowsDoubleCounting() throws {
        let merged = try healthport("stats", sampleZip, "--type", "StepCount", "--tz", "Europe/Paris", "--format", "csv", "-q")
        #expect(merged.status == 0, "\(merged.stderrText)")
        let rows = parseCSV(merged.stdoutText).dropFirst().filter { $0.count > 3 }
        #expect(rows.count >= 14)
        let records = try healthport("query", sampleZip, "--type", "StepCount", "-q")
        let samples = try ndjsonObjects(records.stdout).dropFirst()
        let formatter = ISO8601DateFormatter()
        for row in rows {
            let (start, end) = (try #require(formatter.date(from: row[0])), try #require(formatter.date(from: row[1])))
            let naive = samples.reduce(0.0) { sum, sample in
                guard let date = formatter.date(from: sample["startDate"] as! String), date >= start, date < end else { return sum }
                return sum + ((sample["quantity"] as! [String: Any])["value"] as! NSNumber).doubleValue
            }
            let sum = try #require(Double(row[2]))
            #expect(sum > 0 && naive > sum * 1.5, "\(row[0]): naive \(naive), merged \(sum)")
        }
    }

    @Test func formatsAndErrors() throws {
        let text = try healthport("stats", sampleZip, "--type", "StepCount", "--tz", "Europe/Paris", "-q")
        #expect(text.status == 0)
        #expect(text.stdoutText.hasPrefix("START"))
        let json = try healthport("stats", sampleZip, "--type", "HeartRate", "--interval", "day", "--options", "discreteAverage,discreteMin,discreteMax",
                                  "--format", "json", "--tz", "Europe/Paris", "-q")
        let rows = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        #expect(rows.count == 14)
        #expect(rows.allSatisfy { ($0["minimum"] as! Double) <= ($0["average"] as! Double) && ($0["average"] as! Double) <= ($0["maximum"] as! Double) })
        let bySource = try healthport("stats", sampleZip, "--type", "StepCount", "--separate-by-source", "--format", "ndjson", "--tz", "UTC", "-q")
        let lines = try ndjsonObjects(bySource.stdout)
        #expect(lines.contains { $0["source"] as? String == "Simon’s iPhone" })
        #expect(try healthport("stats", sampleZip, "--type", "HeartRate", "--options", "cumulativeSum").status == 64)
        #expect(try healthport("stats", sampleZip, "--type", "StepCount", "--options", "discreteAverage").status == 64)
        // A workout has no statistics of its own (category types do: time and count).
        #expect(try healthport("stats", sampleZip, "--type", "Workout").status == 64)
        #expect(try healthport("stats", sampleZip).status == 64)
        let kilojoules = try healthport("stats", sampleZip, "--type", "ActiveEnergyBurned", "--unit", "kJ", "--format", "csv", "--tz", "UTC", "-q")
        let kilocalories = try healthport("stats", sampleZip, "--type", "ActiveEnergyBurned", "--format", "csv", "--tz", "UTC", "-q")
        let kj = Double(parseCSV(kilojoules.stdoutText)[1][2])!
        let kcal = Double(parseCSV(kilocalories.stdoutText)[1][2])!
        #expect(abs(kj - kcal * 4.184) < 1e-3)
    }

    /// The text table shows what was asked: every statistic, the sources' rows, and repeated
    /// --options adding up (issue 21).
    @Test func theTextTableShowsEveryRequestedColumnAndEverySource() throws {
        let result = try healthport(
            "stats", sampleZip, "--type", "HeartRate", "--options", "discreteAverage,discreteMin", "--options", "discreteMax",
            "--separate-by-source", "--tz", "UTC", "-q")
        #expect(result.status == 0)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        #expect(header.contains("AVERAGE") && header.contains("MINIMUM") && header.contains("MAXIMUM") && header.contains("(count/min)"))
        // Each interval row holds three numbers, and each is followed by its sources' rows.
        let csv = try healthport(
            "stats", sampleZip, "--type", "HeartRate", "--options", "discreteAverage,discreteMin,discreteMax", "--separate-by-source",
            "--format", "csv", "--tz", "UTC", "-q")
        let rows = parseCSV(csv.stdoutText).dropFirst()
        #expect(lines.count - 1 == rows.count)
        for (line, row) in zip(lines.dropFirst(), rows) {
            if row[2].isEmpty {
                #expect(line.hasPrefix(row[0]), "\(line)")
            } else {
                #expect(line.hasPrefix("  " + row[2].prefix(10)), "\(line)")
            }
            // The text rounds to two decimals (a person reads 97.99, not 97.986666667); CSV keeps
            // nine. Rounded here by hand from the CSV's value.
            for value in row[3...5] where !value.isEmpty {
                let rounded = (Double(value)! * 100).rounded() / 100
                let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
                #expect(line.contains(" " + text + " ") || line.hasSuffix(" " + text), "\(line) lacks \(text)")
            }
        }
    }

    /// Steps name no zone, sleep does (as an iPhone and a Watch write them): `stats` of steps
    /// cuts days where `summary` does, in the sleep's zone, not at the export's offset. By hand:
    /// the export is dated in summer (+02:00); a step at 23:30 on 15 January in Paris (+01:00)
    /// is on the 15th in Paris and on the 16th at +02:00.
    @Test func stepsAreCutInTheZoneSleepNames() throws {
        let folder = try Fixtures.temporaryDirectory()
        let step = "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"P\" unit=\"count\" startDate=\"2024-01-15 23:30:00 +0100\" endDate=\"2024-01-15 23:40:00 +0100\" value=\"120\"/>\n"
        let sleep = "<Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"W\" startDate=\"2024-01-16 00:10:00 +0100\" endDate=\"2024-01-16 06:00:00 +0100\" value=\"HKCategoryValueSleepAnalysisAsleepCore\">\n<MetadataEntry key=\"HKTimeZone\" value=\"Europe/Paris\"/>\n</Record>\n"
        func export(_ name: String, _ body: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data("<HealthData locale=\"en_US\">\n<ExportDate value=\"2024-07-01 10:00:00 +0200\"/>\n\(body)</HealthData>\n".utf8)
                .write(to: URL(fileURLWithPath: path))
            return path
        }
        let named = try export("named.xml", step + sleep)
        let stats = try healthport("stats", named, "--type", "Steps", "--format", "csv")
        #expect(stats.status == 0 && !stats.stderrText.contains("UTC offset"))
        #expect(parseCSV(stats.stdoutText)[1][0] == "2024-01-15T00:00:00+01:00")
        let summary = try healthport("summary", named, "--type", "Steps", "--format", "csv", "-q")
        #expect(parseCSV(summary.stdoutText)[1].prefix(2) == ["2024-01-15", "HKQuantityTypeIdentifierStepCount"])
        // Only the steps are summarized: the sleep was read for its zone.
        #expect(parseCSV(summary.stdoutText).count == 2)
        let everything = try healthport("summary", named, "--format", "csv", "-q")
        #expect(parseCSV(everything.stdoutText).contains { $0.prefix(2) == ["2024-01-15", "HKQuantityTypeIdentifierStepCount"] })
        // Without the sleep, nothing names a zone: the export's offset, said.
        let unnamed = try export("unnamed.xml", step)
        let fallback = try healthport("stats", unnamed, "--type", "Steps", "--format", "csv")
        #expect(fallback.stderrText.contains("export's UTC offset (+02:00)"))
        #expect(parseCSV(fallback.stdoutText)[1][0] == "2024-01-16T00:00:00+02:00")
    }

    /// Without --tz, days are the person's, not the machine's: the samples' HKTimeZone, else the
    /// export's offset with a warning (issue 21).
    @Test func withoutAZoneDaysDoNotDependOnTheMachine() throws {
        func stats(_ zone: String) throws -> CommandRunner.Result {
            try CommandRunner.run(healthportBinary, ["stats", sampleZip, "--type", "StepCount", "--format", "csv"], environment: ["TZ": zone])
        }
        let utc = try stats("UTC")
        let newYork = try stats("America/New_York")
        #expect(utc.status == 0 && newYork.status == 0)
        #expect(utc.stdout == newYork.stdout)
        #expect(parseCSV(utc.stdoutText)[1][0].hasSuffix("T00:00:00+01:00"))
        // The sample's steps name no zone; its sleep and workouts name Europe/Paris.
        #expect(!utc.stderrText.contains("export's UTC offset"))
        let paris = try healthport("stats", sampleZip, "--type", "StepCount", "--format", "csv", "--tz", "Europe/Paris", "-q")
        #expect(paris.stdout == utc.stdout)
    }

    /// Intervals before 15 October 1582 are cut in the proleptic Gregorian calendar, HealthKit's:
    /// 1000-03-01 was counted in a month labelled 1000-02-06 (Foundation's Julian dates). The
    /// expected starts are worked out by hand: 1000 is no leap year in the Gregorian calendar;
    /// 1000-02-28 is a Thursday and 1000-03-01 a Saturday, both in the week of Monday 1000-02-24;
    /// 1582-10-04 is a Monday, and 1582-10-20 a Wednesday in the week of Monday 1582-10-18.
    @Test func intervalsBefore1582AreProlepticGregorian() throws {
        var text = "<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-03-10 09:00:00 +0000\"/>\n"
        for (date, value) in [("1000-02-28 12:00:00", 10), ("1000-03-01 12:00:00", 20), ("1582-10-04 12:00:00", 30), ("1582-10-20 12:00:00", 40)] {
            text += " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone\" unit=\"count\" startDate=\"\(date) +0000\" endDate=\"\(date) +0000\" value=\"\(value)\"/>\n"
        }
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("old.xml")
        try Data((text + "</HealthData>\n").utf8).write(to: url)
        func starts(_ interval: String) throws -> [[String]] {
            let result = try healthport("stats", url.path, "--type", "StepCount", "--interval", interval, "--tz", "UTC", "--format", "csv", "-q")
            #expect(result.status == 0, "\(result.stderrText)")
            return parseCSV(result.stdoutText).dropFirst().filter { $0.count > 2 }.map { [$0[0], $0[1], $0[2]] }
        }
        #expect(try starts("month") == [
            ["1000-02-01T00:00:00+00:00", "1000-03-01T00:00:00+00:00", "10"],
            ["1000-03-01T00:00:00+00:00", "1000-04-01T00:00:00+00:00", "20"],
            ["1582-10-01T00:00:00+00:00", "1582-11-01T00:00:00+00:00", "70"],
        ])
        #expect(try starts("year") == [
            ["1000-01-01T00:00:00+00:00", "1001-01-01T00:00:00+00:00", "30"],
            ["1582-01-01T00:00:00+00:00", "1583-01-01T00:00:00+00:00", "70"],
        ])
        #expect(try starts("week") == [
            ["1000-02-24T00:00:00+00:00", "1000-03-03T00:00:00+00:00", "30"],
            ["1582-10-04T00:00:00+00:00", "1582-10-11T00:00:00+00:00", "30"],
            ["1582-10-18T00:00:00+00:00", "1582-10-25T00:00:00+00:00", "40"],
        ])
    }

    /// A --where predicate nested 30,000 deep in braces is a usage error at the 65th brace, not
    /// a stack overflow (it crashed with SIGSEGV).
    @Test func aPredicateNestedThirtyThousandDeepIsAUsageError() throws {
        let braces = String(repeating: "{", count: 30_000) + "\"x\"" + String(repeating: "}", count: 30_000)
        let result = try healthport("stats", sampleZip, "--type", "StepCount", "--where", "uuid IN " + braces, "-q")
        #expect(result.status == 64, "\(result.stderrText.prefix(300))")
        #expect(result.stdout.isEmpty)
        let first = try #require(result.stderrText.split(separator: "\n").first)
        #expect(first.contains("--where:1:73:") && first.contains("nested deeper than 64 levels"), "\(first)")
    }
}

/// Third audit: a duration's unit, a source name holding a comma, a type word several types hold,
/// a policy naming a type loosely.
@Suite struct StatsArgumentTests {
    /// Two step samples over the same ten minutes, from a source whose name holds a comma and
    /// from the Watch: the merge counts the one the priority puts first.
    static func export() throws -> String {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("steps.xml")
        let record = { (source: String, value: Int) in
            "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(source)\" unit=\"count\" startDate=\"2024-03-01 08:00:00 +0000\" endDate=\"2024-03-01 08:10:00 +0000\" value=\"\(value)\"/>\n"
        }
        let xml = "<HealthData locale=\"en_US\">\n<ExportDate value=\"2024-03-10 09:00:00 +0000\"/>\n"
            + record("Smith, John’s iPhone", 100) + record("Apple Watch", 50) + "</HealthData>\n"
        try Data(xml.utf8).write(to: url)
        return url.path
    }

    static func sum(_ arguments: String...) throws -> String? {
        let result = try healthport(["stats", try export(), "--type", "StepCount", "--tz", "UTC", "--format", "csv", "-q"] + arguments)
        #expect(result.status == 0, "\(result.stderrText)")
        return parseCSV(result.stdoutText).dropFirst().first?[2]
    }

    @Test func aSourceNameWithACommaIsOneName() throws {
        #expect(try Self.sum("--source-priority", "Smith\\, John’s iPhone,Apple Watch") == "100")
        #expect(try Self.sum("--source-priority", "Apple Watch,Smith\\, John’s iPhone") == "50")
        #expect(try Self.sum("--source-priority", "Smith\\, John’s iPhone", "--source-priority", "Apple Watch") == "100")
        let days = try healthport("summary", try Self.export(), "--type", "StepCount", "--tz", "UTC", "--format", "csv", "-q",
                                  "--source-priority", "Smith\\, John’s iPhone")
        #expect(parseCSV(days.stdoutText).dropFirst().first?[3] == "100", "\(days.stdoutText)")
    }

    @Test func aDurationIsInSeconds() throws {
        let result = try healthport("stats", try Self.export(), "--type", "StepCount", "--options", "duration", "--tz", "UTC", "--format", "csv", "-q")
        let rows = parseCSV(result.stdoutText)
        #expect(rows.first == ["startDate", "endDate", "duration", "unit"])
        #expect(rows.dropFirst().first?[2] == "600" && rows.dropFirst().first?[3] == "s")
    }

    @Test func aWordSeveralTypesHoldIsRefusedWithThemAll() throws {
        let result = try healthport("stats", try Self.export(), "--type", "energy", "-q")
        #expect(result.status == 64)
        for name in ["ActiveEnergyBurned", "BasalEnergyBurned", "DietaryEnergyConsumed"] { #expect(result.stderrText.contains(name)) }
    }

    @Test func aPolicyNamingATypeLooselyIsToldTheExactName() throws {
        let policy = try Fixtures.temporaryDirectory().appendingPathComponent("policy.json")
        try Data(#"{"version": 1, "consumer": {"name": "Study"}, "read": {"steps": "granted"}}"#.utf8).write(to: policy)
        let result = try healthport("convert", try Self.export(), "--policy", policy.path, "-q")
        #expect(result.status == 78)
        #expect(result.stderrText.contains("exactly: StepCount"), "\(result.stderrText)")
        #expect(!result.stderrText.contains("did you mean steps"))
    }
}

/// Issue 50, item 5: a temporary folder that cannot take healthport's temporary files (missing,
/// or full: both are made here) is an input/output failure of that folder (74, the folder named), not a usage error
/// (64) nor an internal one (70).
@Suite struct TemporaryFolderTests {
    @Test func aSortThatSpillsIntoAMissingFolderIsAnIOError() throws {
        let directory = try Fixtures.temporaryDirectory()
        let export = directory.appendingPathComponent("year.xml")
        try writeGeneratedExport(days: 200, to: export)
        let missing = directory.appendingPathComponent("no-such-folder").path
        let result = try CommandRunner.run(
            healthportBinary, ["query", export.path, "--sort", "startDate", "-q"], environment: ["TMPDIR": missing])
        #expect(result.status == 74, "\(result.status): \(result.stderrText)")
        #expect(result.stderrText.contains(missing) && result.stderrText.contains("temporary file"), "\(result.stderrText)")
        #expect(!result.stderrText.contains("report this as a bug"))
    }

    /// A file system of 16 KiB, made for the command alone: a tmpfs mounted in a mount namespace
    /// of its own (`unshare -rm`, which needs no root where user namespaces are allowed, as on
    /// Debian 12 and in CI). Where they are not, the test says so.
    static let canMountATinyFileSystem: Bool = {
        guard let result = try? CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"), ["-rm", "/bin/sh", "-c", "mount -t tmpfs -o size=16k tmpfs /mnt"])
        else { return false }
        return result.status == 0
    }()

    /// Runs healthport with `TMPDIR` on a fresh 16 KiB file system, which a spill fills at once.
    static func runWithAFullTemporaryFolder(_ arguments: [String], in directory: URL) throws -> (CommandRunner.Result, String) {
        let folder = directory.appendingPathComponent("tiny")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = #"mount -t tmpfs -o size=16k tmpfs "$1" && shift && exec "$@""#
        let result = try CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-rm", "/bin/sh", "-c", script, "sh", folder.path, "/usr/bin/env", "TMPDIR=\(folder.path)", healthportBinary.path] + arguments)
        return (result, folder.path)
    }

    /// The summary keeps 131,072 records in memory before it spills (`SummaryRecordSorter`): 400
    /// generated days hold more; a sort spills far sooner (runs of 16 MB).
    @Test(.enabled(if: canMountATinyFileSystem, "unshare -rm cannot mount a tmpfs here (no user namespaces): the full folder is not made"))
    func aSummaryOrASortThatSpillsIntoAFullFolderIsAnIOErrorNamingIt() throws {
        let directory = try Fixtures.temporaryDirectory()
        let export = directory.appendingPathComponent("years.xml")
        try writeGeneratedExport(days: 400, to: export)
        for command in [["summary", export.path, "-q"], ["query", export.path, "--sort", "startDate", "-q"]] {
            let (result, folder) = try Self.runWithAFullTemporaryFolder(command, in: directory)
            #expect(result.status == 74, "\(command[0]): \(result.status): \(result.stderrText)")
            #expect(result.stderrText.contains(folder) && result.stderrText.contains("temporary file"), "\(command[0]): \(result.stderrText)")
            #expect(!result.stderrText.contains("report this as a bug"), "\(command[0])")
            // The spill comes before any output: nothing half-made reaches standard output.
            #expect(result.stdout.isEmpty, "\(command[0]) wrote \(result.stdout.count) bytes")
        }
    }
}
