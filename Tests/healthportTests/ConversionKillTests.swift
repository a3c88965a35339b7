import Foundation
import HealthTestSupport
import Testing

/// A conversion killed at any moment (`kill -9`, which no handler sees) never leaves a partial
/// output under the output's name and never clobbers the previous good one.
@Suite struct ConversionKillTests {
    @Test func killedConversionsLeaveThePreviousOutputIntact() throws {
        let directory = try Fixtures.temporaryDirectory()
        var options = ExportGenerator.Options()
        options.days = 60
        let export = directory.appendingPathComponent("export")
        _ = try ExportGenerator(options: options).writeFolder(at: export, documentName: "export.xml")
        let output = directory.appendingPathComponent("health.ndjson")
        let previous = Data("{\"kind\":\"export\",\"formatVersion\":1}\n".utf8)
        try previous.write(to: output)

        // How long a whole conversion takes, and what it writes.
        let complete = directory.appendingPathComponent("complete.ndjson")
        let started = Date()
        #expect(try healthport("convert", export.path, "-q", "--output", complete.path).status == 0)
        let duration = Date().timeIntervalSince(started)
        let finished = try Data(contentsOf: complete)

        var generator = SystemRandomNumberGenerator()
        var killedBeforeTheEnd = 0
        // The conversion's time, as measured above under whatever load the other tests put on the
        // machine; halved whenever a conversion ends before its kill, so that at least four kills
        // land mid-conversion even when the load drops (eight fixed rounds once fell short under
        // the full suite's load).
        var estimate = duration
        var round = 0
        while killedBeforeTheEnd < 4 && round < 24 {
            defer { round += 1 }
            let process = Process()
            process.executableURL = healthportBinary
            process.arguments = ["convert", export.path, "-q", "--output", output.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: estimate * (round == 0 ? 0.98 : Double.random(in: 0.05...0.9, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try Data(contentsOf: output)
            // The previous output, or the complete new one: never anything in between.
            #expect(now == previous || now == finished, "round \(round): \(now.count) bytes")
            if now == previous {
                killedBeforeTheEnd += 1
            } else {
                estimate /= 2
                try previous.write(to: output)
            }
            // What a kill leaves is hidden and never under the output's name.
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasPrefix(".health.ndjson") {
                #expect(name.contains(".healthport-"))
                try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
            let mode = try FileManager.default.attributesOfItem(atPath: output.path)[.posixPermissions] as! Int
            #expect(now == previous || mode == 0o600)
        }
        #expect(killedBeforeTheEnd >= 4)
    }

    /// A conversion to a new folder, terminated in its first tenth of a second: the folder is
    /// absent or complete, never empty or partial (before, an empty folder about once in 25).
    @Test func aTerminatedConversionToANewFolderLeavesNoFolder() throws {
        let directory = try Fixtures.temporaryDirectory()
        let complete = directory.appendingPathComponent("complete")
        #expect(try healthport("convert", sampleZip, "--format", "csv", "-q", "--output", complete.path).status == 0)
        let tables = Set(try FileManager.default.contentsOfDirectory(atPath: complete.path))
        var generator = SystemRandomNumberGenerator()
        var absent = 0
        for round in 0..<30 {
            let output = directory.appendingPathComponent("out")
            try? FileManager.default.removeItem(at: output)
            let process = Process()
            process.executableURL = healthportBinary
            process.arguments = ["convert", sampleZip, "--format", "csv", "-q", "--output", output.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.1, using: &generator))
            kill(process.processIdentifier, round % 2 == 0 ? SIGTERM : SIGINT)
            process.waitUntilExit()
            if let names = try? FileManager.default.contentsOfDirectory(atPath: output.path) {
                #expect(Set(names) == tables, "round \(round): \(names.count) of \(tables.count) tables")
            } else {
                absent += 1
            }
            // Nothing staged is left beside it.
            let litter = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".healthport-") }
            #expect(litter.isEmpty, "round \(round): \(litter)")
        }
        // The kills landed before the end at least sometimes (the test tests something).
        #expect(absent > 0)
    }
}
