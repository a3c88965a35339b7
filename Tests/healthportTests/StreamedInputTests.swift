import Foundation
import Testing
import HealthTestSupport

/// Inputs that cannot seek — a FIFO, `<(unzip -p …)`, `/dev/stdin` — are read like standard
/// input: the bytes the format sniffing takes are replayed (they failed with "does not start
/// with XML").
@Suite struct StreamedInputTests {
    func run(_ script: String) throws -> CommandRunner.Result {
        let path = healthportBinary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", "export PATH='\(path)'; " + script], currentDirectory: Fixtures.packageRoot)
    }

    /// Read once, an input cannot be probed for the person's zone (`PersonZone`): the local
    /// times are then the export's offset's unless `--tz` names the zone, as it does here, so
    /// the bytes are the file's.
    @Test func fifosProcessSubstitutionAndDevStdinAreRead() throws {
        let expected = try healthport("convert", sampleZip, "--type", "BodyMass", "--tz", "Europe/Paris", "-q").stdout
        #expect(!expected.isEmpty)
        let zip = sampleZip
        for script in [
            "healthport convert <(unzip -p '\(zip)' apple_health_export/export.xml) --type BodyMass --tz Europe/Paris -q",
            "unzip -p '\(zip)' apple_health_export/export.xml | healthport convert /dev/stdin --type BodyMass --tz Europe/Paris -q",
            "healthport convert <(cat '\(zip)') --type BodyMass --tz Europe/Paris -q",
        ] {
            let result = try run(script)
            #expect(result.status == 0, "\(script): \(result.stderrText)")
            #expect(result.stdout == expected, "\(script)")
        }
        let directory = try Fixtures.temporaryDirectory()
        let fifo = directory.appendingPathComponent("export.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try run("cat '\(zip)' > '\(fifo)' & healthport convert '\(fifo)' --type BodyMass --tz Europe/Paris -q")
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdout == expected)
    }

    /// A file name that is not UTF-8 would be decoded lossily (U+FFFD) and name another file:
    /// refused with status 64 before anything is read or written (issue 22).
    @Test func aFileNameThatIsNotUTF8IsRefusedNotReplaced() throws {
        let directory = try Fixtures.temporaryDirectory()
        let script = """
            set -e
            cd '\(directory.path)'
            input=$(printf 'in\\377.zip'); output=$(printf 'out\\377.ndjson')
            cp '\(sampleZip)' "$input"
            printf 'keep' > "$(printf 'out\\357\\277\\275.ndjson')"
            status=0; '\(healthportBinary.path)' convert "$input" --output out.ndjson -q || status=$?
            echo "input $status"
            status=0; '\(healthportBinary.path)' convert '\(sampleZip)' --output "$output" -q || status=$?
            echo "output $status"
            """
        let result = try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
        #expect(result.stdoutText == "input 64\noutput 64\n", "\(result.stdoutText) \(result.stderrText)")
        #expect(result.stderrText.contains("not valid UTF-8"))
        // Nothing written: not the lossy name (whose file was kept), not the requested one.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains("out.ndjson"))
        #expect(try String(contentsOf: directory.appendingPathComponent("out\u{FFFD}.ndjson"), encoding: .utf8) == "keep")
        #expect(names.count == 2, "\(names)")
    }

    /// A FIFO no program has opened for writing blocked `convert` and `info` in open(2) for
    /// ever. The wait for a writer now sees signals: SIGTERM and SIGINT end it with 143 and 130,
    /// as they end any run, without leaving a partial output.
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalEndsTheWaitForAFIFOsWriter(signal: Int32) throws {
        let directory = try Fixtures.temporaryDirectory()
        let fifo = directory.appendingPathComponent("export.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let output = directory.appendingPathComponent("out.ndjson")
        let waiting = try FollowCommandTests.Background(["convert", fifo, "--output", output.path, "-q"], in: directory)
        // Time for the process to reach the wait: a signal in the microseconds between its
        // handlers' SIG_IGN and their dispatch sources is lost (seen once on a loaded machine).
        Thread.sleep(forTimeInterval: 2)
        #expect(waiting.stop(signal) == 128 + signal)
        let stderr = (try? String(contentsOf: waiting.stderr, encoding: .utf8)) ?? ""
        #expect(stderr.contains(signal == SIGINT ? "interrupted" : "terminated"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// A read blocked on a pipe whose writer never writes cannot notice the cancellation; after
    /// the grace the process exits by force. With `--diagnostics json` that last word is a record
    /// too (it was a line of text): every line of standard error stays a JSON object.
    @Test func aForcedExitSpeaksJSONWhenAskedTo() throws {
        let process = Process()
        process.executableURL = healthportBinary
        process.arguments = ["convert", "/dev/stdin", "--diagnostics", "json", "-q"]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        // Time for the process to reach the read (see above: a signal before the handlers is lost).
        Thread.sleep(forTimeInterval: 2)
        kill(process.processIdentifier, SIGTERM)
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 128 + SIGTERM)
        let lines = String(decoding: stderr, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        for line in lines {
            let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(record != nil, "not a JSON record: \(line)")
        }
        let last = lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(last?["signal"] as? Int == Int(SIGTERM) && last?["status"] as? Int == 143, "\(lines)")
    }

    /// An anonymous pipe whose writer is done is the end of the input, not a FIFO to wait for:
    /// `<(true)` and an empty `/dev/stdin` are refused at once as not an export.
    @Test func anEmptyPipeIsNotWaitedFor() throws {
        for script in ["healthport info <(true)", "true | healthport info /dev/stdin"] {
            let result = try run(script)
            #expect(result.status == 66, "\(script)")
            #expect(result.stderrText.contains("error: empty"), "\(script): \(result.stderrText)")
        }
    }
}
