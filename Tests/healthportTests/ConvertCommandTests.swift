import Foundation
import Testing
import HealthTestSupport

@Suite struct ConvertCommandTests {
    @Test func ndjsonHasOneObjectPerLineAndTheGeneratorsCounts() throws {
        let result = try healthport("convert", sampleZip, "--format", "ndjson", "--quiet")
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let objects = try ndjsonObjects(result.stdout)
        #expect(objects.first?["kind"] as? String == "export")
        var counts: [String: Int] = [:]
        for object in objects.dropFirst() {
            let type = (object["sampleType"] ?? object["clinicalType"]) as? String
                ?? ((object["kind"] as? String) == "activitySummary" ? "HKActivitySummaryTypeIdentifier" : nil)
                ?? ((object["element"] as? [String: Any])?["name"] as? String) ?? "?"
            counts[type, default: 0] += 1
        }
        #expect(counts == (try sampleManifest()).objectsByType)
    }

    /// An export of 600 types converts to a folder of 600 tables under `ulimit -n 128`
    /// (before, one open file per table: "Too many open files" past the limit), every row
    /// in its table, in CSV and in Parquet, on one core and two.
    @Test(arguments: ["csv", "parquet"])
    func moreTypesThanOpenFilesConvertToAFolder(format: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        var xml = #"<?xml version="1.0" encoding="UTF-8"?><HealthData locale="en_US"><ExportDate value="2024-01-01 00:00:00 +0000"/>"#
        for day in 1...3 {
            for type in 0..<600 {
                xml += #"<Record type="HKQuantityTypeIdentifierFuture\#(type)" sourceName="W" unit="count" creationDate="2024-01-01 00:00:00 +0000" startDate="2023-01-0\#(day) 00:00:00 +0000" endDate="2023-01-0\#(day) 00:00:00 +0000" value="\#(type)"/>"#
                xml += "\n"
            }
        }
        xml += "</HealthData>\n"
        let export = folder.appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: export)
        for jobs in ["1", "2"] {
            let output = folder.appendingPathComponent("out-\(jobs)")
            let result = try CommandRunner.run(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", #"ulimit -n 128 && exec "$0" convert "$1" --format "$2" --jobs "$3" --quiet -o "$4""#, healthportBinary.path, export.path,
                 format, jobs, output.path])
            #expect(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
            let names = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix("Future") }
            #expect(names.count == 600)
            if format == "csv" {
                // Each table: its header and its three days, in order.
                for type in [0, 137, 599] {
                    let text = try String(contentsOf: output.appendingPathComponent("Future\(type).csv"), encoding: .utf8)
                    let lines = text.split(whereSeparator: \.isNewline)
                    #expect(lines.count == 4)
                    #expect(lines.dropFirst().map { $0.contains("2023-01-0") && $0.contains(",\(type),count,") } == [true, true, true])
                }
            }
        }
    }

    /// `--jobs 32500` hung starting threads: it is refused before anything starts.
    @Test func anAbsurdJobCountIsAUsageError() throws {
        for jobs in ["0", "257", "32500"] {
            let result = try healthport("convert", sampleZip, "--jobs", jobs, "-q")
            #expect(result.status == 64, "--jobs \(jobs)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func jsonIsOneValidDocument() throws {
        let result = try healthport("convert", sampleZip, "--format", "json", "-q")
        #expect(result.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(document["locale"] as? String == "en_US")
        let objects = try #require(document["objects"] as? [Any])
        #expect(objects.count == (try sampleManifest()).objectCount)
    }

    @Test func csvWritesOneTablePerTypeIntoAFolderWithPrivateFiles() throws {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("csv")
        let result = try healthport("convert", sampleZip, "--format", "csv", "--output", folder.path, "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdout.isEmpty)
        let manifest = try sampleManifest()
        let heartRate = try String(contentsOf: folder.appendingPathComponent("HeartRate.csv"), encoding: .utf8)
        let rows = parseCSV(heartRate)
        #expect(rows.first?.prefix(9) == [
            "uuid", "sampleType", "startDate", "endDate", "localStartDate", "localEndDate", "timeZone", "quantity_value", "quantity_unit",
        ])
        // Every heart rate has its local time, in the sample's Paris (the export, made in April,
        // prints March's dates at +02:00: the local clock is an hour earlier before the 31st).
        let march = try #require(rows.dropFirst().first { $0[2].hasPrefix("2024-03-25T10") })
        #expect(march[4].hasPrefix("2024-03-25T09") && march[6] == "Europe/Paris")
        let april = try #require(rows.dropFirst().first { $0[2].hasPrefix("2024-04-02T10") })
        #expect(april[4].hasPrefix("2024-04-02T10") && april[6] == "Europe/Paris")
        #expect(rows.count - 1 == manifest.objectsByType["HKQuantityTypeIdentifierHeartRate"])
        #expect(Set(rows.map(\.count)).count == 1)
        let workouts = parseCSV(try String(contentsOf: folder.appendingPathComponent("workouts.csv"), encoding: .utf8))
        #expect(workouts.count - 1 == manifest.objectsByType["HKWorkoutTypeIdentifier"])
        let events = parseCSV(try String(contentsOf: folder.appendingPathComponent("workout-events.csv"), encoding: .utf8))
        #expect(events.count - 1 == 4 * (manifest.objectsByType["HKWorkoutTypeIdentifier"] ?? 0))
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("HeartRate.csv").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test func csvOfOneTypeGoesToStandardOutput() throws {
        let result = try healthport("convert", sampleZip, "--format", "csv", "--type", "StepCount", "-q")
        #expect(result.status == 0)
        let rows = parseCSV(result.stdoutText)
        #expect(rows.count - 1 == (try sampleManifest()).objectsByType["HKQuantityTypeIdentifierStepCount"])
        #expect(rows.dropFirst().allSatisfy { $0[1] == "HKQuantityTypeIdentifierStepCount" })
    }

    @Test func csvOfSeveralTablesOnStandardOutputIsAUsageError() throws {
        let result = try healthport("convert", sampleZip, "--format", "csv", "-q")
        #expect(result.status == 64)
        #expect(result.stderrText.contains("--type"))
    }

    @Test func standardInputTakesXMLAndZip() throws {
        let zip = try Data(contentsOf: URL(fileURLWithPath: sampleZip))
        // Standard input is read once: the person's zone is named (`PersonZone`).
        let fromZip = try healthport("convert", "-", "--tz", "Europe/Paris", "-q", stdin: zip)
        #expect(fromZip.status == 0)
        let fromFile = try healthport("convert", sampleZip, "--tz", "Europe/Paris", "-q")
        #expect(fromZip.stdout == fromFile.stdout)
        let xml = Data("<HealthData locale=\"en_US\"><Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"P\" unit=\"count\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:01:00 +0100\" value=\"12\"/></HealthData>".utf8)
        let fromXML = try healthport("convert", "-", "-q", stdin: xml)
        #expect(fromXML.status == 0)
        #expect(try ndjsonObjects(fromXML.stdout).count == 2)
    }

    @Test func aMalformedExportFailsWith65AndItsLocationAndLeavesNoOutput() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("export.xml")
        try Data("<HealthData locale=\"en_US\">\n<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"P\" unit=\"count\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:01:00 +0100\" value=\"12\"/>\n<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"P\" unit=\"count\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"not a date\" value=\"12\"/>\n</HealthData>\n".utf8).write(to: input)
        let output = directory.appendingPathComponent("out.ndjson")
        let result = try healthport("convert", input.path, "--output", output.path)
        #expect(result.status == 65)
        #expect(result.stderrText.hasPrefix("healthport: \(input.path):3:"))
        #expect(result.stderrText.contains("error: invalid endDate"))
        #expect(result.stderrText.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["export.xml"])
    }

    @Test func aTruncatedZipFailsWith65() throws {
        let zip = try Data(contentsOf: URL(fileURLWithPath: sampleZip))
        let directory = try Fixtures.temporaryDirectory()
        let truncated = directory.appendingPathComponent("export.zip")
        try zip.prefix(zip.count / 2).write(to: truncated)
        let result = try healthport("convert", truncated.path)
        #expect(result.status == 65)
        #expect(result.stderrText.contains(truncated.path))
    }

    @Test func aMissingInputIs66AndNotAnExportToo() throws {
        #expect(try healthport("convert", "/nonexistent/export.zip").status == 66)
        let directory = try Fixtures.temporaryDirectory()
        let text = directory.appendingPathComponent("notes.txt")
        try Data("just some text".utf8).write(to: text)
        let result = try healthport("convert", text.path)
        #expect(result.status == 66)
        #expect(result.stderrText.contains("not an Apple Health export"))
    }

    @Test func anUnknownTypeIsAUsageError() throws {
        let result = try healthport("convert", sampleZip, "--type", "Stepcounts")
        #expect(result.status == 64)
    }

    @Test func anUnwritableOutputIs73() throws {
        let result = try healthport("convert", sampleZip, "--output", "/nonexistent-folder/out.ndjson")
        #expect(result.status == 73)
    }

    @Test func aClosedPipeEndsQuietlyWithSuccess() throws {
        let script = "'\(healthportBinary.path)' convert '\(sampleZip)' -q | head -n 1; echo \"status=${PIPESTATUS[0]}\""
        let result = try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("{\"kind\":\"export\"") == true)
        #expect(lines.last == "status=0")
        #expect(result.stderrText.isEmpty, "\(result.stderrText)")
    }

    @Test func warningsGoToStandardErrorOnceWithCounts() throws {
        let result = try healthport("convert", sampleZip, "--format", "ndjson")
        #expect(result.status == 0)
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("healthport: ") })
        #expect(lines.contains { $0.contains("HKQuantityTypeIdentifierFutureMetric") })
        #expect(lines.filter { $0.contains("HKQuantityTypeIdentifierFutureMetric") && $0.contains("passed through") }.count <= 2)
    }

    @Test(.enabled(if: Fixtures.hasSamples, "needs the real exports of ../shared/samples"))
    func everySampleConverts() throws {
        let samples = Fixtures.samples
        let paths = [
            "dogsheep-healthkit-to-sqlite/export.xml", "dogsheep-healthkit-to-sqlite/zip_contents",
            "tdda-applehealthdata/export6s3sample.xml", "aleksi-applehealth/testdata.xml",
            "alxdrcirilo-apple-health-parser/export.xml", "alxdrcirilo-apple-health-parser/export.zip",
            "opendroid-hk/sampleexport.xml", "opendroid-hk/sampleexport-2.xml", "opendroid-hk/audio_exposure.xml",
            "nicolasreyrolle-apple-health-analyzer/exports/workout_running.xml",
        ]
        for path in paths {
            for format in ["ndjson", "json"] {
                let result = try healthport("convert", samples.appendingPathComponent(path).path, "--format", format, "-q")
                #expect(result.status == 0, "\(path): \(result.stderrText)")
                if format == "ndjson" {
                    #expect(try ndjsonObjects(result.stdout).count > 1)
                } else {
                    #expect(try JSONSerialization.jsonObject(with: result.stdout) is [String: Any])
                }
            }
        }
    }

    /// A folder output named with one character, written twice: Foundation's NSString path
    /// functions trap on a one-character name on Linux, and the second run (which stages beside
    /// the existing folder) crashed with status 132.
    @Test func aOneCharacterFolderIsReplaced() throws {
        let folder = try Fixtures.temporaryDirectory()
        for _ in 0..<2 {
            let result = try healthport("convert", sampleZip, "--format", "csv", "--output", "c", "-q", in: folder)
            #expect(result.status == 0, "\(result.stderrText)")
        }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("c/StepCount.csv").path))
    }
}

/// A mistyped subcommand or option gets the closest name (issue 21), never a misleading error.
@Suite struct TypoTests {
    @Test func aMistypedCommandGetsItsClosestName() throws {
        let result = try healthport("conver", sampleZip)
        #expect(result.status == 64)
        #expect(result.stderrText.contains("unknown command 'conver' (did you mean convert?)"))
        #expect(try healthport("xyzzy").stderrText.contains("unknown command 'xyzzy'"))
        #expect(try healthport("help", "convert").status == 0)
    }

    /// A value ArgumentParser quotes in its error reaches the terminal printable: an escape
    /// sequence typed into an option (a new window title here) is shown as `\x1B`, as in every
    /// other diagnostic; help keeps its text.
    @Test func anOptionsValueIsQuotedPrintably() throws {
        for arguments in [["sleep", sampleZip, "--evening", "\u{1B}]0;pwned\u{07}"], ["convert", sampleZip, "--format", "x\u{1B}[31m"], ["\u{1B}]0;pwned\u{07}"]] {
            let result = try healthport(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(!result.stderr.contains(0x1B) && !result.stderr.contains(0x07), "\(result.stderrText)")
            #expect(result.stderrText.contains("\\x1B]0;pwned\\x07") || result.stderrText.contains("x\\x1B[31m"), "\(result.stderrText)")
        }
        let help = try healthport("convert", "--help")
        #expect(help.status == 0 && help.stdoutText.contains("USAGE") || help.stdoutText.contains("Usage"))
    }

    @Test func aMistypedOptionBeforeTheExportsGetsItsClosestName() throws {
        let result = try healthport("convert", "--fromat", "csv", sampleZip)
        #expect(result.status == 64)
        #expect(result.stderrText.contains("unknown option '--fromat' (did you mean --format?)"))
        #expect(!result.stderrText.contains("several exports"))
        let stats = try healthport("stats", sampleZip, "--intervall", "day", "--type", "StepCount")
        #expect(stats.status == 64 && stats.stderrText.contains("--interval"))
    }
}

/// A device's creation date is ISO 8601 like every date, and Apple's form again in export.xml.
@Suite struct DeviceCreationDateTests {
    @Test func aDeviceCreationDateIsISO8601AndRoundTrips() throws {
        // Apple's format keeps no person's zone: named here, the local times round-trip too.
        let ndjson = try healthport("convert", sampleZip, "--type", "HeartRate", "--tz", "Europe/Paris", "-q")
        let objects = try ndjsonObjects(ndjson.stdout).dropFirst()
        let dates = objects.compactMap { ($0["device"] as? [String: Any])?["creationDate"] as? String }
        #expect(!dates.isEmpty)
        #expect(dates.allSatisfy { $0.count == 25 && $0.contains("T") })
        let xml = try healthport("convert", "-", "--format", "export", "-q", stdin: ndjson.stdout)
        #expect(xml.stdoutText.contains("creation date:2024-02-11 10:46:10 +0000"))
        #expect(!xml.stdoutText.contains("creation date:2024-02-11T"))
        let again = try healthport("convert", "-", "--tz", "Europe/Paris", "-q", stdin: xml.stdout)
        #expect(again.stdout == ndjson.stdout)
    }
}

/// workouts.csv fills the totals from the statistics when the export has no attribute, as
/// HealthKit does (issue 21); NDJSON keeps the workout as printed.
@Suite struct WorkoutTotalsTests {
    @Test func workoutRowsTakeTheirTotalsFromTheStatistics() throws {
        let csv = parseCSV(try healthport("convert", sampleZip, "--format", "csv", "--type", "Workout", "-q").stdoutText)
        let header = try #require(csv.first)
        let distance = try #require(header.firstIndex(of: "totalDistance_value"))
        let objects = try ndjsonObjects(try healthport("convert", sampleZip, "--type", "Workout", "-q").stdout).dropFirst()
        #expect(objects.count == csv.count - 1)
        var derived = 0
        for (row, object) in zip(csv.dropFirst(), objects) {
            let statistics = object["statistics"] as? [[String: Any]] ?? []
            let sum = statistics.first { ($0["quantityType"] as? String)?.hasPrefix("HKQuantityTypeIdentifierDistance") == true }?["sum"]
            if let total = object["totalDistance"] as? [String: Any] {
                #expect(row[distance] == "\(total["value"]!)")
            } else if let sum {
                #expect(Double(row[distance]) == (sum as? NSNumber)?.doubleValue)
                derived += 1
            } else {
                #expect(row[distance].isEmpty)
            }
        }
        #expect(derived > 0)
    }
}

/// CSV on standard output is one table: without exactly one --type it is refused before a row
/// is written (issue 21), not halfway through.
@Suite struct SingleCSVTableTests {
    @Test func csvOnStandardOutputNeedsExactlyOneType() throws {
        for arguments in [["convert", sampleZip, "--format", "csv"], ["convert", sampleZip, "--format", "csv", "--type", "StepCount,HeartRate"],
                          ["query", sampleZip, "--format", "csv", "--sort", "startDate"]] {
            let result = try CommandRunner.run(healthportBinary, arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderrText.contains("holds one table"), "\(arguments)")
        }
        let one = try healthport("convert", sampleZip, "--format", "csv", "--type", "BodyMass", "-q")
        #expect(one.status == 0 && parseCSV(one.stdoutText).count > 2)
    }
}

@Suite struct InterruptTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func aSignalRemovesTemporaryOutputAndKeepsThePreviousOne(signal: Int32, status: Int32) throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("out.ndjson")
        try Data("previous\n".utf8).write(to: output)
        let process = Process()
        process.executableURL = healthportBinary
        process.arguments = ["convert", "-", "--output", output.path, "-q"]
        let input = Pipe()
        process.standardInput = input
        process.standardError = Pipe()
        try process.run()
        let head = "<HealthData locale=\"en_US\">\n" + String(repeating: "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"P\" unit=\"count\" startDate=\"2024-01-01 09:00:00 +0100\" endDate=\"2024-01-01 09:01:00 +0100\" value=\"12\"/>\n", count: 2000)
        try input.fileHandleForWriting.write(contentsOf: Data(head.utf8))
        // Wait until the temporary output is open in that folder (unnamed: O_TMPFILE), then
        // signal; nothing but the previous output may ever be seen there.
        func temporaryIsOpen() -> Bool {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd")) ?? []
            return fds.contains { fd in
                ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/fd/\(fd)")) ?? "")
                    .hasPrefix(directory.path + "/")
                    && !(((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/fd/\(fd)")) ?? "")
                        .hasSuffix("out.ndjson"))
            }
        }
        var waited = 0
        while waited < 100, !temporaryIsOpen() {
            usleep(50_000)
            waited += 1
        }
        #expect(temporaryIsOpen())
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.ndjson"])
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationStatus == status)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.ndjson"])
        #expect(try String(contentsOf: output, encoding: .utf8) == "previous\n")
    }
}

@Suite struct OutputFileTests {
    @Test func anNDJSONFileIsWrittenWholeWithMode0600() throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("health.ndjson")
        let result = try healthport("convert", sampleZip, "--output", output.path, "-q")
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        let written = try Data(contentsOf: output)
        #expect(try ndjsonObjects(written).count == (try sampleManifest()).objectCount + 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: output.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["health.ndjson"])
    }
}

@Suite struct TerminalBehaviourTests {
    @Test func aForcedProgressLineGoesToStandardErrorOnly() throws {
        let result = try healthport("convert", sampleZip, "--progress", "-q")
        #expect(result.status == 0)
        #expect(result.stderrText.contains("objects"))
        // Data is unchanged by progress.
        #expect(result.stdout == (try healthport("convert", sampleZip, "-q")).stdout)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsAreGenerated(shell: String) throws {
        let result = try healthport("--generate-completion-script", shell)
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("convert"))
        #expect(result.stdoutText.contains("format"))
    }

    @Test func helpAndVersionWork() throws {
        let help = try healthport("convert", "--help")
        #expect(help.status == 0)
        #expect(help.stdoutText.contains("--type"))
        let version = try healthport("--version")
        #expect(version.status == 0)
        #expect(!version.stdoutText.isEmpty)
        #expect(try healthport("convert").status == 64)
        #expect(try healthport("convert", sampleZip, "--format", "yaml").status == 64)
    }
}
