import Foundation
import Testing
import HealthTestSupport

/// `changes --store --follow`, with real separate processes: a follower and the imports that
/// commit while it runs.
@Suite(.serialized) struct FollowCommandTests {
    /// A healthport process in the background, its standard output and error in files.
    final class Background {
        let process = Process()
        let stdout: URL
        let stderr: URL

        init(_ arguments: [String], in directory: URL) throws {
            stdout = directory.appendingPathComponent("follow-\(UUID().uuidString).out")
            stderr = directory.appendingPathComponent("follow-\(UUID().uuidString).err")
            #expect(FileManager.default.createFile(atPath: stdout.path, contents: nil))
            #expect(FileManager.default.createFile(atPath: stderr.path, contents: nil))
            process.executableURL = healthportBinary
            process.arguments = arguments
            process.standardOutput = try FileHandle(forWritingTo: stdout)
            process.standardError = try FileHandle(forWritingTo: stderr)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        var lines: [String] {
            (try? String(contentsOf: stdout, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        }

        /// Waits until the output holds `count` end lines (or fails after `seconds`).
        func waitForEndLines(_ count: Int, seconds: Double = 60) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if lines.filter({ $0.hasPrefix("{\"type\":\"end\"") }).count >= count { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }

        func stop(_ signal: Int32 = SIGTERM) -> Int32 {
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    static func changeLines(_ lines: [String]) -> [String] {
        lines.filter { $0.hasPrefix("{\"type\":\"added\"") || $0.hasPrefix("{\"type\":\"deleted\"") }
    }

    /// Three exports of one person: each a little later than the one before.
    static func exports(in directory: URL) throws -> [String] {
        var paths: [String] = []
        for days in [10, 12, 14] {
            var options = ExportGenerator.Options()
            options.days = days
            let path = directory.appendingPathComponent("export-\(days).zip").path
            let staging = directory.appendingPathComponent("staging-\(days)")
            _ = try ExportGenerator(options: options).writeFolder(at: staging)
            try ExportArchiver.zip(folder: staging, to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        return paths
    }

    @Test func aFollowerPrintsWhatChangesGivesBetweenTheSameAnchors() throws {
        let directory = try Fixtures.temporaryDirectory()
        let exports = try Self.exports(in: directory)
        let store = directory.appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", exports[0], "--store", store, "-q").status == 0)
        let start = try healthport("changes", "--store", store, "--limit", "1", "-q")
        let firstAnchor = try #require((try ndjsonObjects(start.stdout).last?["newAnchor"] as? [String: Any])?["anchor"] as? String)
        let follower = try Background(["changes", "--store", store, "--follow", "--anchor", firstAnchor, "--type", "HeartRate,StepCount", "-q"], in: directory)
        #expect(follower.waitForEndLines(1))
        for export in exports.dropFirst() {
            let imported = try healthport("import", export, "--store", store, "-q")
            #expect(imported.status == 0)
        }
        // Two imports close together may come as one batch: wait for the anchor a query of the
        // same types reaches now (the last change it sees; the store's own anchor is past it).
        let finalAnchor = try #require(
            (try ndjsonObjects(try healthport("changes", "--store", store, "--type", "HeartRate,StepCount", "-q").stdout).last?["newAnchor"]
                as? [String: Any])?["anchor"] as? String)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !(follower.lines.last ?? "").contains("\"anchor\":\"\(finalAnchor)\"") {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect((follower.lines.last ?? "").contains("\"anchor\":\"\(finalAnchor)\""), "\(follower.lines.last ?? "")")
        Thread.sleep(forTimeInterval: 0.5)
        let status = follower.stop()
        #expect(status == 128 + SIGTERM)
        let expected = try healthport("changes", "--store", store, "--anchor", firstAnchor, "--type", "HeartRate,StepCount", "-q")
        #expect(Self.changeLines(follower.lines) == Self.changeLines(expected.stdoutText.split(separator: "\n").map(String.init)))
        #expect(!Self.changeLines(follower.lines).isEmpty)
        // Every batch is a whole envelope: begin, changes, end.
        let begins = follower.lines.filter { $0.hasPrefix("{\"type\":\"begin\"") }.count
        let ends = follower.lines.filter { $0.hasPrefix("{\"type\":\"end\"") }.count
        #expect(begins >= 2 && begins <= 3 && begins == ends)
    }

    /// Killed with SIGKILL in the middle of its batches and started again from its anchor
    /// file, a follower's complete batches (those up to the anchor the file holds) are every
    /// change once.
    @Test func aKilledFollowerResumesFromItsAnchorFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        let exports = try Self.exports(in: directory)
        let store = directory.appendingPathComponent("health.sqlite").path
        for export in exports { #expect(try healthport("import", export, "--store", store, "-q").status == 0) }
        let expected = Self.changeLines(try healthport("changes", "--store", store, "-q").stdoutText.split(separator: "\n").map(String.init))
        let anchorFile = directory.appendingPathComponent("follower.anchor").path
        var collected: [String] = []
        var anchor = "0"
        for round in 0..<6 {
            let follower = try Background(
                ["changes", "--store", store, "--follow", "--anchor", anchor, "--anchor-output", anchorFile, "--limit", "200", "-q"], in: directory)
            if round < 5 {
                Thread.sleep(forTimeInterval: 0.05 + 0.07 * Double(round))
                _ = follower.stop(SIGKILL)
            } else {
                // Caught up: the batch whose new anchor is complete (on a loaded machine the
                // remaining batches take longer than any fixed pause).
                #expect(follower.waitForEndLines(1))
                let deadline = Date().addingTimeInterval(120)
                while Date() < deadline,
                    !follower.lines.contains(where: { $0.hasPrefix("{\"type\":\"end\"") && $0.contains("\"complete\":true") })
                {
                    Thread.sleep(forTimeInterval: 0.05)
                }
                Thread.sleep(forTimeInterval: 0.3)
                _ = follower.stop()
            }
            // What a consumer keeps: the batches that ended, up to the last one whose anchor is
            // the file's (anchors are opaque: they are matched, never ordered).
            let saved = (try? String(contentsOfFile: anchorFile, encoding: .utf8)).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? anchor
            var batch: [String] = []
            var ended: [(changes: [String], anchor: String)] = []
            for line in follower.lines {
                if line.hasPrefix("{\"type\":\"begin\"") { batch = [] }
                if line.hasPrefix("{\"type\":\"added\"") || line.hasPrefix("{\"type\":\"deleted\"") { batch.append(line) }
                if line.hasPrefix("{\"type\":\"end\""),
                    let end = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let value = (end["newAnchor"] as? [String: Any])?["anchor"] as? String
                {
                    ended.append((batch, value))
                }
            }
            if let last = ended.lastIndex(where: { $0.anchor == saved }) {
                collected += ended[...last].flatMap(\.changes)
            }
            anchor = saved
        }
        #expect(collected.count == expected.count)
        // (Compared outside the macro: a difference would print megabytes of changes.)
        let same = collected == expected
        #expect(same)
    }

    /// The policy is read again when it changes: a permission revoked while following holds
    /// from the next batch, and a policy made invalid ends the follower with status 78.
    @Test func aChangedPolicyTakesEffectAtTheNextBatch() throws {
        let directory = try Fixtures.temporaryDirectory()
        let exports = try Self.exports(in: directory)
        let store = directory.appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", exports[0], "--store", store, "-q").status == 0)
        let policy = directory.appendingPathComponent("policy.json")
        func writePolicy(_ read: String) throws {
            try Data(#"{"version": 1, "consumer": {"name": "Study"}, "read": {\#(read)}}"#.utf8).write(to: policy)
        }
        try writePolicy(#""HKQuantityTypeIdentifierStepCount": "granted", "HKQuantityTypeIdentifierHeartRate": "granted""#)
        let follower = try Background(["changes", "--store", store, "--follow", "--anchor", "s1AAAAAAAAAAAAAAAAAAAAAA", "--policy", policy.path, "-q"], in: directory)
        Thread.sleep(forTimeInterval: 0.3)
        // (An anchor not of this store is refused before anything is written.)
        follower.process.waitUntilExit()
        #expect(follower.process.terminationStatus == 64)
        let anchor = try #require((try ndjsonObjects(try healthport("changes", "--store", store, "--limit", "1", "-q").stdout).last?["newAnchor"] as? [String: Any])?["anchor"] as? String)
        let second = try Background(["changes", "--store", store, "--follow", "--anchor", anchor, "--policy", policy.path, "-q"], in: directory)
        #expect(second.waitForEndLines(1))
        try writePolicy(#""HKQuantityTypeIdentifierStepCount": "granted", "HKQuantityTypeIdentifierHeartRate": "denied""#)
        #expect(try healthport("import", exports[1], "--store", store, "-q").status == 0)
        #expect(second.waitForEndLines(2))
        let afterFirstBatch = second.lines.drop { !$0.hasPrefix("{\"type\":\"end\"") }.dropFirst()
        let types = Set(try afterFirstBatch.compactMap { line -> String? in
            guard line.hasPrefix("{\"type\":\"added\"") else { return nil }
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return (object["object"] as! [String: Any])["sampleType"] as? String
        })
        #expect(types.contains("HKQuantityTypeIdentifierStepCount"))
        #expect(!types.contains("HKQuantityTypeIdentifierHeartRate"))
        try Data("{ not json".utf8).write(to: policy)
        #expect(try healthport("import", exports[2], "--store", store, "-q").status == 0)
        second.process.waitUntilExit()
        #expect(second.process.terminationStatus == 78)
    }

    @Test func followIsRefusedWhereItCannotWork() throws {
        let directory = try Fixtures.temporaryDirectory()
        let refused = try healthport("changes", sampleZip, "--follow", "-q")
        #expect(refused.status == 64)
        #expect(refused.stderrText.contains("--follow needs a store"))
        let store = directory.appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", sampleZip, "--store", store, "-q").status == 0)
        let json = try healthport("changes", "--store", store, "--follow", "--format", "json", "-q")
        #expect(json.status == 64)
        // A store deleted under a follower: a one-line error, not a wait forever.
        let follower = try Background(["changes", "--store", store, "--follow", "-q"], in: directory)
        #expect(follower.waitForEndLines(1))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
        follower.process.waitUntilExit()
        #expect(follower.process.terminationStatus == 66)
        let message = (try? String(contentsOf: follower.stderr, encoding: .utf8)) ?? ""
        #expect(message.contains("deleted or replaced"))
    }

    /// Issue 36 (8): `changes --follow | head -n 1` ends when head has its line, though the
    /// store is idle and nothing more is written (it waited forever): the follower sees its
    /// reader gone, as `tail -f` does, and stops quietly (status 0, as a closed pipe always is).
    @Test func anIdleFollowerEndsWhenItsReaderGoes() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", sampleZip, "--store", store, "-q").status == 0)
        let process = Process()
        process.executableURL = healthportBinary
        process.arguments = ["changes", "--store", store, "--follow", "--type", "BodyMass", "-q"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Read the first batch's end line, as a reader would, then go away, as head does.
        var text = ""
        while !text.contains("{\"type\":\"end\"") {
            guard let chunk = CommandRunner.readSome(output.fileHandleForReading) else { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        try output.fileHandleForReading.close()
        // Generous: the follower looks every fifth of a second; a hang never ends.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let ended = !process.isRunning
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(ended, "the follower kept waiting after its reader left")
        #expect(!ended || process.terminationStatus == 0)
        #expect(text.hasPrefix("{\"type\":\"begin\""), "\(text.prefix(200))")
    }
}
