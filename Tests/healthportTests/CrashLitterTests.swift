import Foundation
import Testing
import HealthTestSupport

/// A crash leaves no health data behind: a file output is written unnamed (O_TMPFILE) until it
/// is complete, and a folder's staging area carries its owner's process id, so the next run
/// writing there removes what a killed run left.
@Suite(.serialized) struct CrashLitterTests {
    /// A process id that no process has any more.
    static func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func staleTemporariesOfDeadProcessesAreRemovedAndLiveOnesKept() throws {
        let directory = try Fixtures.temporaryDirectory()
        let dead = try Self.deadProcessID()
        let staleFile = directory.appendingPathComponent(".out.json.healthport-\(dead)-AbC123")
        let staleFolder = directory.appendingPathComponent(".healthport-staging-\(dead)-XyZ789")
        let live = directory.appendingPathComponent(".out.json.healthport-\(getpid())-DeF456")
        let unrelated = directory.appendingPathComponent(".notes.healthport-backup")
        for file in [staleFile, live, unrelated] { try Data("x".utf8).write(to: file) }
        try FileManager.default.createDirectory(at: staleFolder, withIntermediateDirectories: true)
        try Data("heart rates".utf8).write(to: staleFolder.appendingPathComponent("HeartRate.csv"))
        let result = try healthport("convert", sampleZip, "--output", directory.appendingPathComponent("out.json").path, "--format", "json", "-q")
        #expect(result.status == 0)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(left == ["out.json", live.lastPathComponent, unrelated.lastPathComponent])
    }

    /// `kill -9` at several moments of a file output, a CSV folder output and an anchor: after
    /// each, the folder holds the previous output (and, for the folder, a stale staging area the
    /// next run removes), never a named partial file.
    @Test func killedOutputsLeaveThePreviousOutputAndNothingElse() throws {
        let directory = try Fixtures.temporaryDirectory()
        let big = directory.appendingPathComponent("big.xml")
        try writeGeneratedExport(days: 60, to: big)
        let output = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let file = output.appendingPathComponent("all.json")
        try Data("previous\n".utf8).write(to: file)
        let tables = output.appendingPathComponent("tables")
        let parquetTables = output.appendingPathComponent("parquet")
        let parquetFile = output.appendingPathComponent("hr.parquet")
        for (index, delay) in [0.15, 0.4, 0.8, 1.2].enumerated() {
            for arguments in [["convert", big.path, "--format", "json", "--output", file.path],
                              ["convert", big.path, "--format", "csv", "--output", tables.path],
                              ["convert", big.path, "--format", "parquet", "--output", parquetTables.path],
                              ["convert", big.path, "--type", "HeartRate", "--format", "parquet", "--output", parquetFile.path],
                              ["anchor", big.path, "--output", output.appendingPathComponent("a.anchor").path]] {
                let process = Process()
                process.executableURL = healthportBinary
                process.arguments = arguments + ["-q", "--jobs", "1"]
                process.standardError = FileHandle.nullDevice
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                Thread.sleep(forTimeInterval: delay)
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            // A folder output that existed is staged beside it (to be exchanged whole): a killed
            // run's staging folder is left there, for the next run to remove. Nothing else.
            let names = try FileManager.default.contentsOfDirectory(atPath: output.path)
                .filter { $0.hasPrefix(".") && !$0.hasPrefix(".healthport-staging-") }
            #expect(names.isEmpty, "round \(index): \(names)")
            #expect(try String(contentsOf: file, encoding: .utf8) == "previous\n" || (try? JSONSerialization.jsonObject(with: Data(contentsOf: file))) != nil)
        }
        // The next run into the tables folder removes what the killed ones staged there.
        #expect(try healthport("convert", sampleZip, "--format", "csv", "--output", tables.path, "-q").status == 0)
        let hidden = try FileManager.default.contentsOfDirectory(atPath: tables.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "\(hidden)")
        let beside = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(".") }
        #expect(beside.isEmpty, "\(beside)")
        // A killed Parquet file never appears half-written: only a complete one, ending in PAR1.
        if let bytes = FileManager.default.contents(atPath: parquetFile.path) {
            #expect(bytes.suffix(4) == Data("PAR1".utf8) && bytes.prefix(4) == Data("PAR1".utf8))
        }
        if FileManager.default.fileExists(atPath: parquetTables.path) {
            #expect(try healthport("convert", sampleZip, "--format", "parquet", "--output", parquetTables.path, "-q").status == 0)
            let staged = try FileManager.default.contentsOfDirectory(atPath: parquetTables.path).filter { $0.hasPrefix(".") }
            #expect(staged.isEmpty, "\(staged)")
        }
    }

    /// Past the file size limit (`ulimit -f`, RLIMIT_FSIZE) the kernel sent SIGXFSZ and killed
    /// healthport mid-write (status 153), leaving a CSV folder's staging behind; writes now fail
    /// with EFBIG and every output kind ends as on a full disk: status 74, nothing left.
    @Test(arguments: [
        "--format ndjson --output out.ndjson", "--format csv --output tables", "--format parquet --output parquet",
        "--format parquet --type HeartRate --output hr.parquet", "--format export --output export.zip",
    ])
    func theFileSizeLimitEndsARunCleanly(output: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let script = "cd '\(directory.path)' && ulimit -f 40 && exec '\(healthportBinary.path)' convert '\(sampleZip)' \(output) -q"
        let result = try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
        #expect(result.status == 74, "\(output): \(result.status) \(result.stderrText)")
        #expect(result.stderrText.contains("File too large"), "\(output): \(result.stderrText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "\(output)")
    }

    /// A folder that held a previous output changes as a whole (issue 22: SIGTERM or kill -9
    /// during the last step left old and new tables mixed, one missing): the new tables are
    /// staged beside it and the two folders exchanged in one step (Linux), the person's own
    /// files carried over. A folder holding a subfolder is published file by file, as before.
    @Test func aFolderOutputIsReplacedWholeAndKeepsOtherFiles() throws {
        let directory = try Fixtures.temporaryDirectory()
        let tables = directory.appendingPathComponent("tables")
        try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
        try Data("my notes".utf8).write(to: tables.appendingPathComponent("notes.txt"))
        try Data("stale".utf8).write(to: tables.appendingPathComponent("StepCount.csv"))
        var before = stat()
        #expect(stat(tables.path, &before) == 0)
        #expect(try healthport("convert", sampleZip, "--format", "csv", "--output", tables.path, "-q").status == 0)
        var after = stat()
        #expect(stat(tables.path, &after) == 0)
        #if os(Linux)
        // (Compared across one run only: the file system may reuse the freed inode next time.)
        #expect(before.st_ino != after.st_ino, "the folder was exchanged, not filled file by file")
        #endif
        #expect(try healthport("convert", sampleZip, "--format", "parquet", "--output", tables.path, "-q").status == 0)
        #expect(try String(contentsOf: tables.appendingPathComponent("notes.txt"), encoding: .utf8) == "my notes")
        let steps = try String(contentsOf: tables.appendingPathComponent("StepCount.csv"), encoding: .utf8)
        #expect(steps.hasPrefix("uuid,sampleType,startDate"))
        let names = try FileManager.default.contentsOfDirectory(atPath: tables.path)
        #expect(names.contains("StepCount.parquet") && names.contains("HeartRate.csv") && names.contains("notes.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tables"])
        // A symbolic link to the folder stays a link; the tables go into its target.
        let link = directory.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: tables)
        try Data("stale".utf8).write(to: tables.appendingPathComponent("HeartRate.csv"))
        #expect(try healthport("convert", sampleZip, "--format", "csv", "--output", link.path, "-q").status == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == tables.path)
        #expect(try String(contentsOf: tables.appendingPathComponent("HeartRate.csv"), encoding: .utf8).hasPrefix("uuid,"))
        try FileManager.default.removeItem(at: link)
        // A subfolder cannot be carried over by a link: published file by file, nothing lost.
        try FileManager.default.createDirectory(at: tables.appendingPathComponent("mine"), withIntermediateDirectories: true)
        #expect(stat(tables.path, &before) == 0)
        #expect(try healthport("convert", sampleZip, "--format", "csv", "--output", tables.path, "-q").status == 0)
        #expect(stat(tables.path, &after) == 0)
        #expect(before.st_ino == after.st_ino)
        #expect(FileManager.default.fileExists(atPath: tables.appendingPathComponent("mine").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["tables"])
    }

    /// `auth request` killed with SIGKILL at moments spread over its run leaves the policy
    /// file as it was or as the answer made it, valid either way, and nothing beside it.
    @Test func aKilledAuthorizationRequestLeavesTheOldPolicyOrTheNew() throws {
        let directory = try Fixtures.temporaryDirectory()
        let policy = directory.appendingPathComponent("policy.json").path
        #expect(try healthport("auth", "request", "--policy", policy, "--consumer", "Study", "--read", "StepCount", "--grant").status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: policy))
        // How long a whole request takes here: the kills are spread over it.
        let start = Date()
        #expect(try healthport("auth", "request", "--policy", policy, "--read", "HeartRate", "--deny").status == 0)
        let duration = Date().timeIntervalSince(start)
        var answered = 0
        for round in 0..<12 {
            try before.write(to: URL(fileURLWithPath: policy))
            let process = Process()
            process.executableURL = healthportBinary
            process.arguments = ["auth", "request", "--policy", policy, "--read", "HeartRate", "--deny"]
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // The first kill comes at once, the last round runs to its end: at least one of each.
            if round < 11 {
                Thread.sleep(forTimeInterval: duration * 1.2 * Double(round) / 11)
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["policy.json"], "round \(round)")
            let after = try Data(contentsOf: URL(fileURLWithPath: policy))
            let object = try JSONSerialization.jsonObject(with: after) as? [String: Any]
            let read = object?["read"] as? [String: String]
            #expect(read?["HKQuantityTypeIdentifierStepCount"] == "granted", "round \(round)")
            if after != before {
                #expect(read?["HKQuantityTypeIdentifierHeartRate"] == "denied", "round \(round)")
                answered += 1
            }
        }
        #expect(answered > 0 && answered < 12, "\(answered) of 12 rounds wrote the answer")
    }

    /// A first import that fails (here past the file size limit) removes the store it created:
    /// it left an empty store file behind (issue 22); an existing store is kept as it was.
    @Test func aFailedFirstImportLeavesNoStore() throws {
        let directory = try Fixtures.temporaryDirectory()
        let script = "cd '\(directory.path)' && ulimit -f 100 && exec '\(healthportBinary.path)' import '\(sampleZip)' --store health.sqlite -q"
        let result = try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
        #expect(result.status == 74, "\(result.status) \(result.stderrText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        // A refused export into an existing store keeps the store.
        let store = directory.appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", sampleZip, "--store", store, "-q").status == 0)
        let broken = directory.appendingPathComponent("broken.xml")
        try Data("<HealthData><Record".utf8).write(to: broken)
        #expect(try healthport("import", broken.path, "--store", store, "-q").status != 0)
        #expect(FileManager.default.fileExists(atPath: store))
    }
}
